//! The position: board, whose turn, colours, counters, chase state; the
//! position format; move generation; playing a move; the end checks that need
//! only the position (B8, B9, B10).
//!
//! # Position format
//!
//! Space-separated fields; a *public* position has the first ten, the
//! server's *full* position adds an eleventh. Trailing public fields may be
//! left out when typing a position by hand (defaults in brackets).
//!
//! 1. board: rows from the top (row 4) to row 1, separated by `/`, files a to h
//!    within a row; Xiangqi letters `K A B R N C P` (red upper case, black lower
//!    case; `E`/`H` are read as `B`/`N`), `?` a face-down piece, a digit a run of
//!    empty squares.
//! 2. seat to move, `0` or `1` [`0`].
//! 3. colour of seat 0, `r` or `b`, `-` before the first flip (B2)
//!    [`r` if any piece is face up or captured, else `-`].
//! 4. plies played (flips, moves, captures of both players) [`0`].
//! 5. plies since the last capture or flip (icga's 180-ply rule) [`0`].
//! 6. captured (removed) pieces as letters, `-` for none; `*` (input only)
//!    for every piece not on the board, when none is face down [none when the face-up
//!    and face-down pieces make 32; everything not on the board when nothing is
//!    face down].
//! 7. the first enemy piece each seat captured (B16): two characters, seat 0
//!    then seat 1, a letter or `-` [`--`].
//! 8. the last move if it was a move or capture (`a1a2`), `-` after a flip or a
//!    lost turn (B7 needs it) [`-`].
//! 9. each seat's running chase (B7), `-` or `PT:n` (the chasing piece on `P`
//!    has made `n` consecutive chase steps on the piece on `T`), seat 0 then
//!    seat 1 joined by `,` [`-,-`].
//! 10. timeout marks of seat 0 and seat 1 (B12), e.g. `0,1` [`0,0`].
//! 11. (full position only) the identities of the face-down pieces, as letters
//!     in the order their `?` appear in field 1.
//!
//! Which pieces can still be face down is public (all 32 minus those face up
//! minus those captured), so a public position carries everything a player or
//! the AI may know; only field 11 is secret.

use std::fmt::Write as _;

use qiyuan_core::{Chance, EndReason, MoveError, Outcome};
use rand::Rng;

use crate::types::{Colour, Kind, Move, Piece, Preset, Square, full_set};

/// Plies after which a banqi game is drawn (B10).
pub const PLY_LIMIT: u32 = 300;
/// Plies in a row without capture or flip after which an icga game is drawn (B10).
pub const ICGA_QUIET_LIMIT: u32 = 180;
/// The most consecutive chase steps allowed; the next one is illegal (B7).
pub const CHASE_LIMIT: u8 = 10;

/// What lies on a square.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// Nothing.
    Empty,
    /// A face-up piece.
    Up(Piece),
    /// A face-down piece; its identity is known only in a full position.
    Down(Option<Piece>),
}

/// A seat's running chase (B7): its piece now on `piece` has made `steps`
/// consecutive chase steps on the enemy piece now on `target`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Chase {
    /// Where the chasing piece stands.
    pub piece: Square,
    /// Where the chased piece stands.
    pub target: Square,
    /// Consecutive chase steps so far (1..=10).
    pub steps: u8,
}

/// What a played move did, for the record and for telling players.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct Effect {
    /// The piece a flip revealed.
    pub revealed: Option<Piece>,
    /// The enemy piece a capture removed.
    pub captured: Option<Piece>,
    /// Whether the capturer was removed too (equal ranks, B4).
    pub capturer_removed: bool,
}

/// A position that could not be read, naming the field and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// A field is malformed.
    #[error("position field {field} ({name}): {why}")]
    Field {
        /// 1-based field number.
        field: usize,
        /// The field's name.
        name: &'static str,
        /// What is wrong.
        why: String,
    },
    /// The fields are well-formed but do not fit together.
    #[error("inconsistent position: {0}")]
    Inconsistent(String),
}

const FIELD_NAMES: [&str; 11] = [
    "board",
    "seat to move",
    "colour of seat 0",
    "plies",
    "quiet plies",
    "captured",
    "first captures",
    "last move",
    "chases",
    "timeout marks",
    "face-down identities",
];

fn field_err(field: usize, why: impl Into<String>) -> FenError {
    FenError::Field {
        field,
        name: FIELD_NAMES[field - 1],
        why: why.into(),
    }
}

/// A Banqi position under one preset.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    preset: Preset,
    cells: [Cell; 32],
    turn: usize,
    seat0: Option<Colour>,
    ply: u32,
    quiet: u32,
    captured: [u8; 14],
    first_capture: [Option<Piece>; 2],
    last_step: Option<(Square, Square)>,
    chase: [Option<Chase>; 2],
    marks: [u8; 2],
}

impl Position {
    /// The start position: every piece face down as in `layout` (indexed by
    /// [`Square::index`]), seat `first` to flip first (B2), colours not yet decided.
    pub fn start(preset: Preset, layout: [Piece; 32], first: usize) -> Position {
        let mut cells = [Cell::Empty; 32];
        for (c, p) in cells.iter_mut().zip(layout) {
            *c = Cell::Down(Some(p));
        }
        Position {
            preset,
            cells,
            turn: first.min(1),
            seat0: None,
            ply: 0,
            quiet: 0,
            captured: [0; 14],
            first_capture: [None; 2],
            last_step: None,
            chase: [None; 2],
            marks: [0; 2],
        }
    }

    /// A uniformly random start (B1) with a random first seat (B2), drawn from
    /// `rng`. The hall passes a CSPRNG; a seeded `ChaCha20Rng` makes the layout
    /// reproducible from a published seed.
    pub fn random<R: Rng + ?Sized>(preset: Preset, rng: &mut R) -> Position {
        Position::from_draws(preset, |bound| rng.random_range(0..bound))
    }

    /// A random start drawn through the hall's [`Chance`] source.
    pub fn from_chance(preset: Preset, chance: &mut dyn Chance) -> Position {
        // A misbehaving source must not make us index out of range.
        Position::from_draws(preset, |bound| chance.draw(bound).min(bound - 1))
    }

    fn from_draws(preset: Preset, mut draw: impl FnMut(u32) -> u32) -> Position {
        let mut layout = [Piece::new(Colour::Red, Kind::General); 32];
        let mut n = 0;
        for (i, &count) in full_set().iter().enumerate() {
            for _ in 0..count {
                layout[n] = Piece::from_index(i);
                n += 1;
            }
        }
        // Fisher-Yates: every arrangement equally likely.
        for i in (1..32).rev() {
            let j = draw(i as u32 + 1) as usize;
            layout.swap(i, j);
        }
        let first = draw(2) as usize;
        Position::start(preset, layout, first)
    }

    /// The preset whose rules apply.
    pub fn preset(&self) -> Preset {
        self.preset
    }

    /// What lies on `sq`.
    pub fn cell(&self, sq: Square) -> Cell {
        self.cells[sq.index()]
    }

    /// The seat to move (0 or 1).
    pub fn turn(&self) -> usize {
        self.turn
    }

    /// The colour of `seat`, once the first flip has decided it (B2).
    pub fn colour_of(&self, seat: usize) -> Option<Colour> {
        self.seat0.map(|c| if seat == 0 { c } else { c.flip() })
    }

    /// The seat playing `colour`, once decided.
    pub fn seat_of(&self, colour: Colour) -> Option<usize> {
        self.seat0.map(|c| usize::from(c != colour))
    }

    /// Plies played so far (flips, moves and captures; lost turns do not count).
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// Plies since the last capture or flip.
    pub fn quiet_plies(&self) -> u32 {
        self.quiet
    }

    /// Removed pieces, counted by [`Piece::index`].
    pub fn captured(&self) -> [u8; 14] {
        self.captured
    }

    /// The first enemy piece `seat` captured (B16).
    pub fn first_capture(&self, seat: usize) -> Option<Piece> {
        self.first_capture[seat.min(1)]
    }

    /// The timeout marks of each seat (B12).
    pub fn marks(&self) -> [u8; 2] {
        self.marks
    }

    /// `seat`'s running chase (B7).
    pub fn chase(&self, seat: usize) -> Option<Chase> {
        self.chase[seat.min(1)]
    }

    /// Whether the identities of the face-down pieces are known (a full,
    /// server-side position) rather than hidden (a public view).
    pub fn is_full(&self) -> bool {
        !self.cells.contains(&Cell::Down(None))
    }

    /// The pieces that may lie face down: all 32 minus those face up minus
    /// those captured. This is public knowledge.
    pub fn hidden_pool(&self) -> [u8; 14] {
        let mut pool = full_set();
        for (i, n) in pool.iter_mut().enumerate() {
            *n = n.saturating_sub(self.captured[i]);
        }
        for c in &self.cells {
            if let Cell::Up(p) = c {
                pool[p.index()] = pool[p.index()].saturating_sub(1);
            }
        }
        pool
    }

    /// Pieces of `colour` still on the board, face up or down (B8, B14).
    pub fn pieces_left(&self, colour: Colour) -> u32 {
        let up = self
            .cells
            .iter()
            .filter(|c| matches!(c, Cell::Up(p) if p.colour == colour))
            .count() as u32;
        let pool = self.hidden_pool();
        let down: u32 = (0..14)
            .filter(|&i| Piece::from_index(i).colour == colour)
            .map(|i| u32::from(pool[i]))
            .sum();
        up + down
    }

    /// The public view: the same position with the face-down identities forgotten.
    pub fn public(&self) -> Position {
        let mut p = self.clone();
        for c in p.cells.iter_mut() {
            if let Cell::Down(_) = c {
                *c = Cell::Down(None);
            }
        }
        p
    }

    /// The public position text (ten fields, `?` for face-down pieces). It is
    /// built from public information only, whatever this position knows.
    pub fn public_fen(&self) -> String {
        let mut s = String::new();
        for row in (0..4u8).rev() {
            let mut empty = 0;
            for file in 0..8u8 {
                let ch = match self.cells[Square::new(file, row).index()] {
                    Cell::Empty => {
                        empty += 1;
                        continue;
                    }
                    Cell::Up(p) => p.letter(),
                    Cell::Down(_) => '?',
                };
                if empty > 0 {
                    let _ = write!(s, "{empty}");
                    empty = 0;
                }
                s.push(ch);
            }
            if empty > 0 {
                let _ = write!(s, "{empty}");
            }
            if row > 0 {
                s.push('/');
            }
        }
        let colours = self.seat0.map_or('-', Colour::letter);
        let _ = write!(s, " {} {colours} {} {} ", self.turn, self.ply, self.quiet);
        let mut any = false;
        for (i, &n) in self.captured.iter().enumerate() {
            for _ in 0..n {
                s.push(Piece::from_index(i).letter());
                any = true;
            }
        }
        if !any {
            s.push('-');
        }
        s.push(' ');
        for f in self.first_capture {
            s.push(f.map_or('-', Piece::letter));
        }
        match self.last_step {
            Some((a, b)) => {
                let _ = write!(s, " {a}{b} ");
            }
            None => s.push_str(" - "),
        }
        for (seat, c) in self.chase.iter().enumerate() {
            if seat == 1 {
                s.push(',');
            }
            match c {
                Some(c) => {
                    let _ = write!(s, "{}{}:{}", c.piece, c.target, c.steps);
                }
                None => s.push('-'),
            }
        }
        let _ = write!(s, " {},{}", self.marks[0], self.marks[1]);
        s
    }

    /// The position text: the full (eleven-field) form when the face-down
    /// identities are known, else the public form.
    pub fn fen(&self) -> String {
        let mut s = self.public_fen();
        if self.is_full() && self.cells.iter().any(|c| matches!(c, Cell::Down(_))) {
            s.push(' ');
            for row in (0..4u8).rev() {
                for file in 0..8u8 {
                    if let Cell::Down(Some(p)) = self.cells[Square::new(file, row).index()] {
                        s.push(p.letter());
                    }
                }
            }
        }
        s
    }

    /// Reads a position (public or full) under `preset`; see the module docs.
    pub fn from_fen(preset: Preset, text: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.is_empty() {
            return Err(field_err(1, "the position is empty"));
        }
        if fields.len() > 11 {
            return Err(FenError::Inconsistent(format!(
                "{} fields; a position has at most 11",
                fields.len()
            )));
        }
        let mut cells = [Cell::Empty; 32];
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != 4 {
            return Err(field_err(
                1,
                format!("{} rows; the board has 4 (row 4 first)", rows.len()),
            ));
        }
        let mut downs = 0usize;
        let mut up_count = [0u8; 14];
        for (i, row_text) in rows.iter().enumerate() {
            let row = 3 - i as u8;
            let mut file = 0u8;
            for ch in row_text.chars() {
                if file >= 8 {
                    return Err(field_err(
                        1,
                        format!("row {} has more than 8 squares", row + 1),
                    ));
                }
                if let Some(d) = ch.to_digit(10) {
                    if d == 0 || file as u32 + d > 8 {
                        return Err(field_err(
                            1,
                            format!("'{ch}' in row {} does not fit the 8 files", row + 1),
                        ));
                    }
                    file += d as u8;
                    continue;
                }
                let sq = Square::new(file, row);
                cells[sq.index()] = if ch == '?' {
                    downs += 1;
                    Cell::Down(None)
                } else {
                    let p = Piece::from_letter(ch).ok_or_else(|| {
                        field_err(1, format!("'{ch}' on {sq} is not a piece letter or '?'"))
                    })?;
                    up_count[p.index()] += 1;
                    Cell::Up(p)
                };
                file += 1;
            }
            if file != 8 {
                return Err(field_err(
                    1,
                    format!("row {} has {file} squares, not 8", row + 1),
                ));
            }
        }
        let full = full_set();
        for (i, &n) in up_count.iter().enumerate() {
            if n > full[i] {
                let p = Piece::from_index(i);
                return Err(field_err(
                    1,
                    format!("{n} face-up '{p}' but a colour has only {}", full[i]),
                ));
            }
        }
        let get = |i: usize| fields.get(i - 1).copied();

        let turn = match get(2) {
            None | Some("0") => 0,
            Some("1") => 1,
            Some(t) => return Err(field_err(2, format!("'{t}' is not 0 or 1"))),
        };
        let ups: usize = up_count.iter().map(|&n| n as usize).sum();
        let everything_else = || {
            let mut c = [0u8; 14];
            for i in 0..14 {
                c[i] = full[i].saturating_sub(up_count[i]);
            }
            c
        };
        let captured = match get(6) {
            Some("-") => [0; 14],
            Some("*") => everything_else(),
            Some(t) => {
                let mut c = [0u8; 14];
                for ch in t.chars() {
                    let p = Piece::from_letter(ch)
                        .ok_or_else(|| field_err(6, format!("'{ch}' is not a piece letter")))?;
                    c[p.index()] += 1;
                }
                c
            }
            None if ups + downs == 32 => [0; 14],
            None if downs == 0 => everything_else(),
            None => {
                return Err(field_err(
                    6,
                    format!(
                        "missing: with {downs} face-down and {ups} face-up pieces, \
                         say which pieces were captured"
                    ),
                ));
            }
        };
        for i in 0..14 {
            if up_count[i] + captured[i] > full[i] {
                let p = Piece::from_index(i);
                return Err(field_err(
                    6,
                    format!(
                        "'{p}' is {} times face up and {} times captured; there are only {}",
                        up_count[i], captured[i], full[i]
                    ),
                ));
            }
        }
        let pool_size: usize = (0..14)
            .map(|i| (full[i] - up_count[i] - captured[i]) as usize)
            .sum();
        if pool_size != downs {
            return Err(FenError::Inconsistent(format!(
                "{downs} face-down pieces, but the 32 pieces minus those face up and \
                 captured leave {pool_size}"
            )));
        }
        let anything_known = ups > 0 || captured.iter().any(|&n| n > 0);
        let seat0 = match get(3) {
            Some("r") => Some(Colour::Red),
            Some("b") => Some(Colour::Black),
            Some("-") if anything_known => {
                return Err(field_err(
                    3,
                    "'-' (undecided) but pieces are already face up or captured",
                ));
            }
            Some("-") => None,
            None if anything_known => Some(Colour::Red),
            None => None,
            Some(t) => return Err(field_err(3, format!("'{t}' is not r, b or -"))),
        };
        let number = |i: usize| -> Result<u32, FenError> {
            match get(i) {
                None => Ok(0),
                Some(t) => t
                    .parse::<u32>()
                    .ok()
                    .filter(|&n| n <= 100_000)
                    .ok_or_else(|| field_err(i, format!("'{t}' is not a count"))),
            }
        };
        let ply = number(4)?;
        let quiet = number(5)?;
        if quiet > ply {
            return Err(FenError::Inconsistent(format!(
                "{quiet} quiet plies but only {ply} plies played"
            )));
        }
        let mut first_capture = [None; 2];
        if let Some(t) = get(7) {
            let chars: Vec<char> = t.chars().collect();
            if chars.len() != 2 {
                return Err(field_err(
                    7,
                    format!("'{t}' is not two characters like -k or --"),
                ));
            }
            for (seat, &ch) in chars.iter().enumerate() {
                if ch != '-' {
                    let p = Piece::from_letter(ch).ok_or_else(|| {
                        field_err(7, format!("'{ch}' is not a piece letter or -"))
                    })?;
                    first_capture[seat] = Some(p);
                }
            }
        }
        let last_step = match get(8) {
            None | Some("-") => None,
            Some(t) => match Move::parse(t) {
                Ok(Move::Step { from, to }) => Some((from, to)),
                _ => return Err(field_err(8, format!("'{t}' is not a move like a1a2 or -"))),
            },
        };
        let mut chase = [None; 2];
        if let Some(t) = get(9) {
            let parts: Vec<&str> = t.split(',').collect();
            if parts.len() != 2 {
                return Err(field_err(
                    9,
                    format!("'{t}' is not two entries joined by ','"),
                ));
            }
            for (seat, part) in parts.iter().enumerate() {
                if *part == "-" {
                    continue;
                }
                let parsed = part.split_once(':').and_then(|(sq, n)| {
                    let m = Move::parse(sq).ok()?;
                    let steps = n
                        .parse::<u8>()
                        .ok()
                        .filter(|s| (1..=CHASE_LIMIT).contains(s))?;
                    match m {
                        Move::Step { from, to } => Some(Chase {
                            piece: from,
                            target: to,
                            steps,
                        }),
                        Move::Flip(_) => None,
                    }
                });
                chase[seat] = Some(parsed.ok_or_else(|| {
                    field_err(
                        9,
                        format!(
                            "'{part}' is not - or like c2c3:4 (two squares, 1-{CHASE_LIMIT} steps)"
                        ),
                    )
                })?);
            }
        }
        let mut marks = [0u8; 2];
        if let Some(t) = get(10) {
            let parts: Vec<&str> = t.split(',').collect();
            let ok = parts.len() == 2
                && parts
                    .iter()
                    .enumerate()
                    .all(|(i, p)| match p.parse::<u8>() {
                        Ok(n) if n <= 3 => {
                            marks[i] = n;
                            true
                        }
                        _ => false,
                    });
            if !ok {
                return Err(field_err(
                    10,
                    format!("'{t}' is not two marks 0-3 like 0,1"),
                ));
            }
        }
        if let Some(t) = get(11) {
            let mut ids = Vec::with_capacity(downs);
            for ch in t.chars() {
                ids.push(
                    Piece::from_letter(ch)
                        .ok_or_else(|| field_err(11, format!("'{ch}' is not a piece letter")))?,
                );
            }
            if ids.len() != downs {
                return Err(field_err(
                    11,
                    format!("{} identities for {downs} face-down pieces", ids.len()),
                ));
            }
            let mut count = [0u8; 14];
            for p in &ids {
                count[p.index()] += 1;
            }
            for i in 0..14 {
                if count[i] != full[i] - up_count[i] - captured[i] {
                    return Err(field_err(
                        11,
                        format!(
                            "{} face-down '{}', but {} are neither face up nor captured",
                            count[i],
                            Piece::from_index(i),
                            full[i] - up_count[i] - captured[i]
                        ),
                    ));
                }
            }
            let mut it = ids.into_iter();
            for row in (0..4u8).rev() {
                for file in 0..8u8 {
                    let c = &mut cells[Square::new(file, row).index()];
                    if *c == Cell::Down(None) {
                        *c = Cell::Down(it.next());
                    }
                }
            }
        }
        Ok(Position {
            preset,
            cells,
            turn,
            seat0,
            ply,
            quiet,
            captured,
            first_capture,
            last_step,
            chase,
            marks,
        })
    }

    /// Whether the piece on `from` (face up) could capture the piece on `to`
    /// now: an adjacent lower or equal rank (B3, B4), or a cannon jump (B5).
    pub fn threatens(&self, from: Square, to: Square) -> bool {
        let (Cell::Up(a), Cell::Up(b)) = (self.cell(from), self.cell(to)) else {
            return false;
        };
        if a.colour == b.colour {
            return false;
        }
        if a.kind == Kind::Cannon {
            self.cannon_reaches(from, to)
        } else {
            from.neighbours().any(|n| n == to) && a.outranks(b)
        }
    }

    /// Whether `to` lies on a line from `from` with exactly one piece between.
    fn cannon_reaches(&self, from: Square, to: Square) -> bool {
        let (ff, fr, tf, tr) = (from.file(), from.row(), to.file(), to.row());
        let between: Vec<Square> = if fr == tr {
            let (lo, hi) = (ff.min(tf), ff.max(tf));
            (lo + 1..hi).map(|f| Square::new(f, fr)).collect()
        } else if ff == tf {
            let (lo, hi) = (fr.min(tr), fr.max(tr));
            (lo + 1..hi).map(|r| Square::new(ff, r)).collect()
        } else {
            return false;
        };
        between
            .iter()
            .filter(|s| self.cell(**s) != Cell::Empty)
            .count()
            == 1
    }

    /// The moves the rules allow before the chase limit: every flip, and the
    /// steps and captures of the mover's face-up pieces.
    fn pseudo_moves(&self, out: &mut Vec<Move>) {
        for sq in Square::all() {
            if let Cell::Down(_) = self.cell(sq) {
                out.push(Move::Flip(sq));
            }
        }
        let Some(me) = self.colour_of(self.turn) else {
            return;
        };
        for from in Square::all() {
            let Cell::Up(p) = self.cell(from) else {
                continue;
            };
            if p.colour != me {
                continue;
            }
            for to in from.neighbours() {
                match self.cell(to) {
                    Cell::Empty => out.push(Move::Step { from, to }),
                    Cell::Up(t) if t.colour != me && p.outranks(t) => {
                        out.push(Move::Step { from, to })
                    }
                    _ => {}
                }
            }
            if p.kind == Kind::Cannon {
                self.cannon_captures(from, me, out);
            }
        }
    }

    fn cannon_captures(&self, from: Square, me: Colour, out: &mut Vec<Move>) {
        for (df, dr) in [(0i8, 1i8), (0, -1), (1, 0), (-1, 0)] {
            let (mut f, mut r) = (from.file() as i8, from.row() as i8);
            let mut screened = false;
            loop {
                f += df;
                r += dr;
                if !(0..8).contains(&f) || !(0..4).contains(&r) {
                    break;
                }
                let to = Square::new(f as u8, r as u8);
                match self.cell(to) {
                    Cell::Empty => {}
                    _ if !screened => screened = true,
                    Cell::Up(t) if t.colour != me => {
                        out.push(Move::Step { from, to });
                        break;
                    }
                    _ => break,
                }
            }
        }
    }

    /// Every legal move of the seat to move: flips, moves and captures, less
    /// an 11th consecutive chase step (B7, banqi only).
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut v = Vec::with_capacity(64);
        self.pseudo_moves(&mut v);
        if self.preset == Preset::Banqi {
            v.retain(|m| self.chase_steps_after(*m) <= CHASE_LIMIT);
        }
        v
    }

    /// Whether `m` is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_moves().contains(&m)
    }

    /// The mover's consecutive chase count after `m` (0 when `m` is not a
    /// chase step): the moved piece threatens the enemy piece that moved last,
    /// counting on from the mover's previous step if that chased the same piece.
    fn chase_steps_after(&self, m: Move) -> u8 {
        self.chase_after(m).map_or(0, |c| c.steps)
    }

    fn chase_after(&self, m: Move) -> Option<Chase> {
        let Move::Step { from, to } = m else {
            return None;
        };
        let (t_from, t_to) = self.last_step?;
        // B7: "made right after T moved" and P must still threaten T afterwards.
        let mut after = self.clone();
        after.move_piece(from, to);
        if !after.threatens(to, t_to) {
            return None;
        }
        let steps = match self.chase[self.turn] {
            Some(c) if c.piece == from && c.target == t_from => c.steps.saturating_add(1),
            _ => 1,
        };
        Some(Chase {
            piece: to,
            target: t_to,
            steps,
        })
    }

    /// Moves (or captures with) the piece on `from` to `to` on the board only,
    /// applying B4's equal-rank rule; returns what was captured.
    fn move_piece(&mut self, from: Square, to: Square) -> Effect {
        let Cell::Up(p) = self.cell(from) else {
            return Effect::default();
        };
        let mut e = Effect::default();
        if let Cell::Up(t) = self.cell(to) {
            e.captured = Some(t);
            e.capturer_removed = self.preset == Preset::Banqi && t.kind == p.kind;
        }
        self.cells[from.index()] = Cell::Empty;
        self.cells[to.index()] = if e.capturer_removed {
            Cell::Empty
        } else {
            Cell::Up(p)
        };
        e
    }

    /// Plays `m` for the seat to move. A flip needs the identity of the piece,
    /// so it is refused on a public view.
    pub fn play(&mut self, m: Move) -> Result<Effect, MoveError> {
        if !self.is_legal(m) {
            return Err(MoveError::Illegal {
                text: m.to_string(),
                why: self.why_illegal(m),
            });
        }
        if let Move::Flip(sq) = m {
            let Cell::Down(Some(p)) = self.cell(sq) else {
                return Err(MoveError::Illegal {
                    text: m.to_string(),
                    why: format!(
                        "the piece under {sq} is not known in a public view; \
                         play flips on the server's full position"
                    ),
                });
            };
            return Ok(self.play_flip_as(sq, p));
        }
        Ok(self.play_unchecked(m))
    }

    /// Plays a legal step or capture without checking it (flips must go through
    /// [`Position::play_flip_as`]).
    pub(crate) fn play_unchecked(&mut self, m: Move) -> Effect {
        let Move::Step { from, to } = m else {
            return Effect::default();
        };
        let chase = if self.preset == Preset::Banqi {
            self.chase_after(m)
        } else {
            None
        };
        let moved = self.cell(from);
        let e = self.move_piece(from, to);
        if let (Some(t), Cell::Up(p)) = (e.captured, moved) {
            self.captured[t.index()] += 1;
            if e.capturer_removed {
                self.captured[p.index()] += 1;
            }
            let seat = self.turn;
            if self.first_capture[seat].is_none() {
                self.first_capture[seat] = Some(t);
            }
        }
        self.chase[self.turn] = chase;
        self.last_step = Some((from, to));
        self.ply += 1;
        self.quiet = if e.captured.is_some() {
            0
        } else {
            self.quiet + 1
        };
        self.turn ^= 1;
        e
    }

    /// Flips the piece on `sq` as `p`, deciding the colours on the first flip
    /// (B2). The AI uses this to try each possible identity.
    pub fn play_flip_as(&mut self, sq: Square, p: Piece) -> Effect {
        self.cells[sq.index()] = Cell::Up(p);
        if self.seat0.is_none() {
            self.seat0 = Some(if self.turn == 0 {
                p.colour
            } else {
                p.colour.flip()
            });
        }
        self.chase[self.turn] = None;
        self.last_step = None;
        self.ply += 1;
        self.quiet = 0;
        self.turn ^= 1;
        Effect {
            revealed: Some(p),
            ..Effect::default()
        }
    }

    /// The seat to move loses its turn and gets a timeout mark (B12). Returns
    /// the seat's marks now.
    pub fn pass_turn(&mut self) -> u8 {
        let seat = self.turn;
        self.marks[seat] = self.marks[seat].saturating_add(1);
        self.chase[seat] = None;
        self.last_step = None;
        self.turn ^= 1;
        self.marks[seat]
    }

    /// Why `m` is not legal, in words a player can act on.
    fn why_illegal(&self, m: Move) -> String {
        match m {
            Move::Flip(sq) => format!("there is no face-down piece on {sq} to flip"),
            Move::Step { from, to } => {
                let me = self.colour_of(self.turn);
                match self.cell(from) {
                    Cell::Empty => format!("there is no piece on {from}"),
                    Cell::Down(_) => {
                        format!("the piece on {from} is face down; flip it with {from}{from}")
                    }
                    Cell::Up(p) if Some(p.colour) != me => {
                        format!("the piece on {from} is not yours")
                    }
                    Cell::Up(p) => match self.cell(to) {
                        Cell::Down(_) => format!("face-down pieces cannot be captured ({to}, B6)"),
                        Cell::Up(t) if t.colour == p.colour => format!("{to} holds your own piece"),
                        Cell::Up(t) if p.kind == Kind::Cannon => format!(
                            "a cannon captures only by jumping over exactly one piece (B5); \
                             it cannot take {t} on {to} from {from}"
                        ),
                        Cell::Up(_) if !from.neighbours().any(|n| n == to) => {
                            format!("{p} moves one square; {to} is not next to {from}")
                        }
                        Cell::Up(t) if !p.outranks(t) => {
                            format!("{p} may not capture {t} (ranks, B3)")
                        }
                        Cell::Empty if !from.neighbours().any(|n| n == to) => {
                            format!("{p} moves one square orthogonally; {to} is not next to {from}")
                        }
                        _ if self.chase_steps_after(m) > CHASE_LIMIT => format!(
                            "this would be an 11th consecutive chase step of the piece on \
                             {from} (B7)"
                        ),
                        _ => "not a legal move here".into(),
                    },
                }
            }
        }
    }

    /// How the game stands by the position alone: all pieces of a side gone
    /// (B8), no move (B9), the ply limit (B10), a third
    /// timeout mark (B12). Repetition needs the game record.
    pub fn status(&self) -> Option<Outcome> {
        for seat in 0..2 {
            if self.marks[seat] >= 3 {
                return Some(Outcome {
                    winner: Some(seat ^ 1),
                    reason: EndReason::Timeout,
                    explanation: format!(
                        "座位{n}第三次超时, 判负 / seat {n} ran out of time a third time and loses",
                        n = seat + 1
                    ),
                });
            }
        }
        if self.seat0.is_some() {
            let red = self.pieces_left(Colour::Red);
            let black = self.pieces_left(Colour::Black);
            if red == 0 && black == 0 {
                return Some(Outcome {
                    winner: None,
                    reason: EndReason::DeadPosition,
                    explanation: "双方棋子同归于尽, 和棋 / the last pieces of both sides \
                                  were removed together: draw"
                        .into(),
                });
            }
            for colour in [Colour::Red, Colour::Black] {
                if self.pieces_left(colour) == 0 {
                    let (zh, en) = colour.names();
                    return Some(Outcome {
                        winner: self.seat_of(colour.flip()),
                        reason: EndReason::Checkmate,
                        explanation: format!(
                            "{zh}方棋子被吃光, 判负 / all {en} pieces were captured: {en} loses"
                        ),
                    });
                }
            }
        }
        if self.legal_moves().is_empty() {
            let (zh, en) = self
                .colour_of(self.turn)
                .map_or(("先手", "the first player"), Colour::names);
            return Some(Outcome {
                winner: Some(self.turn ^ 1),
                reason: EndReason::Stalemate,
                explanation: format!("{zh}方无棋可走, 判负 / {en} cannot move and loses"),
            });
        }
        match self.preset {
            Preset::Banqi if self.ply >= PLY_LIMIT => Some(Outcome {
                winner: None,
                reason: EndReason::MoveLimit,
                explanation: format!(
                    "{PLY_LIMIT}步未分胜负, 和棋 / {PLY_LIMIT} plies played: draw"
                ),
            }),
            Preset::Icga if self.quiet >= ICGA_QUIET_LIMIT => Some(Outcome {
                winner: None,
                reason: EndReason::MoveLimit,
                explanation: format!(
                    "连续{ICGA_QUIET_LIMIT}步无吃子无翻子, 和棋 / {ICGA_QUIET_LIMIT} plies \
                     without a capture or a flip: draw"
                ),
            }),
            _ => None,
        }
    }

    /// A compact key for repetition: the board and the seat to move.
    pub(crate) fn repetition_key(&self) -> [u8; 33] {
        let mut k = [0u8; 33];
        for (i, c) in self.cells.iter().enumerate() {
            k[i] = match c {
                Cell::Empty => 0,
                Cell::Down(_) => 1,
                Cell::Up(p) => 2 + p.index() as u8,
            };
        }
        k[32] = self.turn as u8;
        k
    }
}
