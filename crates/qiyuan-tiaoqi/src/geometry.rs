//! The board (T1, T11): 121 holes of the six-pointed star, their names, the
//! six directions, the six camps, and the tables the move generator reads.
//!
//! Cells are numbered 0..121 row by row from the south tip (row 1) to the
//! north tip (row 17), west to east inside a row, so a set of cells is one
//! `u128` ([`Bits`]). All tables are computed at compile time from T11's
//! doubled coordinates: cell (row, col) of a row of n cells sits at
//! x = 2·(col − 1) − (n − 1), y = row, and its neighbours are (x ± 2, y) and
//! (x ± 1, y ± 1).

use std::fmt;

/// A set of cells, bit `i` for cell `i`.
pub type Bits = u128;

/// Number of holes (T1).
pub const CELLS: usize = 121;

/// Row lengths, row 1 (south tip) to row 17 (north tip) (T11).
pub const ROW_LEN: [u8; 17] = [1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1];

/// The six directions as (dx, dy) in doubled coordinates: east, north-east,
/// north-west, west, south-west, south-east. Direction `d + 3` is opposite `d`.
pub const DIRS: [(i8, i8); 6] = [(2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1)];

const NONE: u8 = u8::MAX;

/// A hole of the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell(u8);

impl Cell {
    /// The cell with index `i` (0..121), if there is one.
    pub const fn from_index(i: usize) -> Option<Cell> {
        if i < CELLS { Some(Cell(i as u8)) } else { None }
    }

    /// The cell `ROW.COL` (both 1-based), if the board has it.
    pub const fn at(row: u8, col: u8) -> Option<Cell> {
        if row == 0 || row > 17 || col == 0 || col > ROW_LEN[row as usize - 1] {
            return None;
        }
        Some(Cell(ROW_START[row as usize - 1] + col - 1))
    }

    /// The cell at doubled coordinates (x, y), if the board has it.
    pub const fn from_xy(x: i8, y: i8) -> Option<Cell> {
        if y < 1 || y > 17 {
            return None;
        }
        let n = ROW_LEN[y as usize - 1] as i8;
        let twice = x + n - 1; // = 2·(col − 1)
        if twice < 0 || twice % 2 != 0 || twice / 2 >= n {
            return None;
        }
        Some(Cell(ROW_START[y as usize - 1] + (twice / 2) as u8))
    }

    /// Index 0..121.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// This cell's bit.
    pub const fn bit(self) -> Bits {
        1u128 << self.0
    }

    /// Row 1..=17.
    pub const fn row(self) -> u8 {
        ROW_OF[self.0 as usize]
    }

    /// Column 1..=n, from the west end of the row.
    pub const fn col(self) -> u8 {
        self.0 - ROW_START[self.row() as usize - 1] + 1
    }

    /// Doubled x coordinate.
    pub const fn x(self) -> i8 {
        let n = ROW_LEN[self.row() as usize - 1] as i8;
        2 * (self.col() as i8 - 1) - (n - 1)
    }

    /// Doubled y coordinate (= row).
    pub const fn y(self) -> i8 {
        self.row() as i8
    }

    /// The neighbour in direction `d` (0..6, see [`DIRS`]).
    pub fn neighbour(self, d: usize) -> Option<Cell> {
        let n = NEIGHBOUR[self.index()][d];
        (n != NONE).then_some(Cell(n))
    }

    /// The cell two steps away in direction `d`: where a jump over the
    /// neighbour lands.
    pub fn beyond(self, d: usize) -> Option<Cell> {
        let n = JUMP[self.index()][d];
        (n != NONE).then_some(Cell(n))
    }

    /// The camp the cell belongs to, or `None` for the central hexagon.
    pub fn camp(self) -> Option<Seat> {
        Seat::ALL.into_iter().find(|s| s.camp() & self.bit() != 0)
    }

    /// Every cell, in index order.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..CELLS as u8).map(Cell)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.row(), self.col())
    }
}

/// The cells of a set, lowest index first.
pub fn cells(mut bits: Bits) -> impl Iterator<Item = Cell> {
    std::iter::from_fn(move || {
        if bits == 0 {
            return None;
        }
        let i = bits.trailing_zeros() as u8;
        bits &= bits - 1;
        Some(Cell(i))
    })
}

const ROW_START: [u8; 17] = {
    let mut s = [0u8; 17];
    let mut r = 1;
    while r < 17 {
        s[r] = s[r - 1] + ROW_LEN[r - 1];
        r += 1;
    }
    s
};

const ROW_OF: [u8; CELLS] = {
    let mut t = [0u8; CELLS];
    let mut r = 0;
    let mut i = 0;
    while r < 17 {
        let mut c = 0;
        while c < ROW_LEN[r] {
            t[i] = r as u8 + 1;
            i += 1;
            c += 1;
        }
        r += 1;
    }
    t
};

const NEIGHBOUR: [[u8; 6]; CELLS] = {
    let mut t = [[NONE; 6]; CELLS];
    let mut i = 0;
    while i < CELLS {
        let c = Cell(i as u8);
        let mut d = 0;
        while d < 6 {
            if let Some(n) = Cell::from_xy(c.x() + DIRS[d].0, c.y() + DIRS[d].1) {
                t[i][d] = n.0;
            }
            d += 1;
        }
        i += 1;
    }
    t
};

const JUMP: [[u8; 6]; CELLS] = {
    let mut t = [[NONE; 6]; CELLS];
    let mut i = 0;
    while i < CELLS {
        let mut d = 0;
        while d < 6 {
            let n = NEIGHBOUR[i][d];
            if n != NONE {
                t[i][d] = NEIGHBOUR[n as usize][d];
            }
            d += 1;
        }
        i += 1;
    }
    t
};

/// The (over, land) pairs of every jump from a cell, flattened for the move
/// generator: `JUMPS[c]` lists the directions that stay on the board.
/// Public for the solo-race prover in `qiyuan-lab`.
pub const JUMPS: [([(u8, u8); 6], u8); CELLS] = {
    let mut t = [([(0u8, 0u8); 6], 0u8); CELLS];
    let mut i = 0;
    while i < CELLS {
        let mut d = 0;
        let mut k = 0;
        while d < 6 {
            if JUMP[i][d] != NONE {
                t[i].0[k] = (NEIGHBOUR[i][d], JUMP[i][d]);
                k += 1;
            }
            d += 1;
        }
        t[i].1 = k as u8;
        i += 1;
    }
    t
};

/// The neighbours of each cell as a set, for step generation (and the
/// solo-race prover in `qiyuan-lab`).
pub const NEIGHBOURS: [Bits; CELLS] = {
    let mut t = [0u128; CELLS];
    let mut i = 0;
    while i < CELLS {
        let mut d = 0;
        while d < 6 {
            if NEIGHBOUR[i][d] != NONE {
                t[i] |= 1u128 << NEIGHBOUR[i][d];
            }
            d += 1;
        }
        i += 1;
    }
    t
};

/// A player, named by its start camp (T12): a south, b south-west,
/// c north-west, d north, e north-east, f south-east.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Seat {
    /// South camp, rows 1-4.
    A,
    /// South-west camp.
    B,
    /// North-west camp.
    C,
    /// North camp, rows 14-17.
    D,
    /// North-east camp.
    E,
    /// South-east camp.
    F,
}

const CAMPS: [Bits; 6] = {
    let mut t = [0u128; 6];
    let mut i = 0;
    while i < CELLS {
        let c = Cell(i as u8);
        let (row, col) = (c.row(), c.col());
        let n = ROW_LEN[row as usize - 1];
        let seat = if row <= 4 {
            0
        } else if row >= 14 {
            3
        } else if row <= 8 && col <= 9 - row {
            // rows 5-8: the west 4, 3, 2, 1 cells
            1
        } else if row <= 8 && col > n - (9 - row) {
            5
        } else if row >= 10 && col <= row - 9 {
            // rows 10-13: the west 1, 2, 3, 4 cells
            2
        } else if row >= 10 && col > n - (row - 9) {
            4
        } else {
            6
        };
        if seat < 6 {
            t[seat] |= 1u128 << i;
        }
        i += 1;
    }
    t
};

/// The 61 cells of the central hexagon.
pub const HEXAGON: Bits =
    BOARD & !(CAMPS[0] | CAMPS[1] | CAMPS[2] | CAMPS[3] | CAMPS[4] | CAMPS[5]);

/// Every cell of the board.
pub const BOARD: Bits = (1u128 << CELLS) - 1;

/// Row 5's and row 13's middle five cells: the extra start holes of a and d
/// in 15-piece games (T3, T12).
const ROW5_MIDDLE: Bits = 0b11111u128 << (10 + 4);
const ROW13_MIDDLE: Bits = {
    // row 13 starts at 1+2+3+4+13+12+11+10+9+10+11+12 = 98; its middle five
    // are columns 5..=9.
    0b11111u128 << (98 + 4)
};

impl Seat {
    /// All six, in play order (T12).
    pub const ALL: [Seat; 6] = [Seat::A, Seat::B, Seat::C, Seat::D, Seat::E, Seat::F];

    /// 0 for a … 5 for f.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The seat with index `i` (0..6).
    pub const fn from_index(i: usize) -> Option<Seat> {
        if i < 6 { Some(Seat::ALL[i]) } else { None }
    }

    /// The letter that names the seat, its camp and its pieces.
    pub const fn letter(self) -> char {
        (b'a' + self as u8) as char
    }

    /// The seat a letter names.
    pub fn from_letter(c: char) -> Option<Seat> {
        Seat::ALL.into_iter().find(|s| s.letter() == c)
    }

    /// The seat across the board, whose camp this one must reach (T2, T11).
    pub const fn opposite(self) -> Seat {
        Seat::ALL[(self as usize + 3) % 6]
    }

    /// The 10 cells of this seat's camp (T1, T11).
    pub const fn camp(self) -> Bits {
        CAMPS[self as usize]
    }

    /// The start holes of this seat with `pieces` pieces (T3): its camp, and
    /// for 15 pieces (a and d only) also the five hexagon holes in front.
    pub const fn start(self, pieces: u8) -> Bits {
        match (self, pieces) {
            (Seat::A, 15) => CAMPS[0] | ROW5_MIDDLE,
            (Seat::D, 15) => CAMPS[3] | ROW13_MIDDLE,
            _ => CAMPS[self as usize],
        }
    }

    /// The holes this seat must fill to win (T3, T8): the opposite seat's
    /// start holes.
    pub const fn target(self, pieces: u8) -> Bits {
        self.opposite().start(pieces)
    }

    /// Where this seat's pieces may stand (T5): the hexagon, its own camp and
    /// its target camp; the other camps are closed.
    pub const fn allowed(self) -> Bits {
        HEXAGON | CAMPS[self as usize] | CAMPS[(self as usize + 3) % 6]
    }

    /// Rows still to go for a piece of this seat on `cell` (T9): the number of
    /// rows, counted across this seat's direction of travel, between the cell
    /// and the far tip of the target camp. 16 at the own tip, 0 at the far
    /// tip.
    pub fn rows_to_go(self, cell: Cell) -> u32 {
        DISTANCE[self as usize][cell.index()] as u32
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// [`Seat::rows_to_go`] for every seat and cell. Rows across a direction of
/// travel are lines of constant y (a, d), (x + y)/2 (b, e) or (x − y)/2
/// (c, f) in doubled coordinates; x + y is odd on every cell, so the halves
/// below are whole numbers.
const DISTANCE: [[u8; CELLS]; 6] = {
    let mut t = [[0u8; CELLS]; 6];
    let mut i = 0;
    while i < CELLS {
        let c = Cell(i as u8);
        let (x, y) = (c.x() as i32, c.y() as i32);
        let v = [
            17 - y,
            (25 - x - y) / 2,
            (7 - x + y) / 2,
            y - 1,
            (x + y + 7) / 2,
            (x - y + 25) / 2,
        ];
        let mut s = 0;
        while s < 6 {
            t[s][i] = v[s] as u8;
            s += 1;
        }
        i += 1;
    }
    t
};

/// A seating (T2, T12): how many play and with how many pieces each (T3).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    players: u8,
    pieces: u8,
}

/// A seating the rules do not have.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// T2: 2, 3, 4 or 6 players.
    #[error("{0} players: Tiaoqi is played by 2, 3, 4 or 6 (T2)")]
    Players(u8),
    /// T3: 10 pieces, or 15 in a two-player game.
    #[error("{pieces} pieces with {players} players: 10 each, or 15 each only with 2 players (T3)")]
    Pieces {
        /// Players asked for.
        players: u8,
        /// Pieces asked for.
        pieces: u8,
    },
}

impl Setup {
    /// A seating of `players` with `pieces` pieces each.
    pub fn new(players: u8, pieces: u8) -> Result<Setup, SetupError> {
        if !matches!(players, 2 | 3 | 4 | 6) {
            return Err(SetupError::Players(players));
        }
        if !(pieces == 10 || pieces == 15 && players == 2) {
            return Err(SetupError::Pieces { players, pieces });
        }
        Ok(Setup { players, pieces })
    }

    /// Players at the start.
    pub fn players(self) -> u8 {
        self.players
    }

    /// Pieces per player.
    pub fn pieces(self) -> u8 {
        self.pieces
    }

    /// The seated camps as a mask of seat indices (T12): 2 players a, d;
    /// 3: a, c, e; 4: a, c, d, f; 6: all.
    pub fn seats_mask(self) -> u8 {
        match self.players {
            2 => 0b001001,
            3 => 0b010101,
            4 => 0b101101,
            _ => 0b111111,
        }
    }

    /// The seated camps in play order.
    pub fn seats(self) -> impl Iterator<Item = Seat> {
        let m = self.seats_mask();
        Seat::ALL
            .into_iter()
            .filter(move |s| m >> s.index() & 1 != 0)
    }
}
