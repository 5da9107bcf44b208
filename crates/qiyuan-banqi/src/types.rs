//! Small value types: colours, piece kinds, squares, moves and the two presets.

use std::fmt;

/// The two rule sets this crate plays (see `shared/rules/banqi.md`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// The seed's rules, the hall's default: equal ranks both removed (B4),
    /// chase limit (B7), 300-ply draw (B10).
    Banqi,
    /// Computer Olympiad rules: the capturer of an equal rank survives, no chase
    /// limit, draw after 180 quiet plies or on a threefold repetition.
    Icga,
}

impl Preset {
    /// Both presets, default first.
    pub const ALL: [Preset; 2] = [Preset::Banqi, Preset::Icga];

    /// The stable name used by the CLI and the hall (`banqi`, `banqi-icga`).
    pub fn name(self) -> &'static str {
        match self {
            Preset::Banqi => "banqi",
            Preset::Icga => "banqi-icga",
        }
    }

    /// The preset with this stable name.
    pub fn from_name(name: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.name() == name)
    }
}

/// A piece colour. Red writes upper case letters, black lower case.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    /// 红 (upper case letters).
    Red,
    /// 黑 (lower case letters).
    Black,
}

impl Colour {
    /// The other colour.
    pub fn flip(self) -> Colour {
        match self {
            Colour::Red => Colour::Black,
            Colour::Black => Colour::Red,
        }
    }

    /// 0 for red, 1 for black.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The one-letter form used in the position format (`r` or `b`).
    pub fn letter(self) -> char {
        match self {
            Colour::Red => 'r',
            Colour::Black => 'b',
        }
    }

    /// The colour's name in Chinese and English, for explanations.
    pub fn names(self) -> (&'static str, &'static str) {
        match self {
            Colour::Red => ("红", "red"),
            Colour::Black => ("黑", "black"),
        }
    }
}

/// A piece kind, listed from the highest rank (general, 7) to the lowest (soldier, 1).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// 帅/将, rank 7.
    General,
    /// 仕/士, rank 6.
    Advisor,
    /// 相/象, rank 5.
    Elephant,
    /// 车, rank 4.
    Chariot,
    /// 马, rank 3.
    Horse,
    /// 炮, rank 2; captures only by jumping (B5).
    Cannon,
    /// 兵/卒, rank 1; may capture the general (B3).
    Soldier,
}

impl Kind {
    /// All kinds, highest rank first.
    pub const ALL: [Kind; 7] = [
        Kind::General,
        Kind::Advisor,
        Kind::Elephant,
        Kind::Chariot,
        Kind::Horse,
        Kind::Cannon,
        Kind::Soldier,
    ];

    /// The rank, 7 (general) down to 1 (soldier).
    pub fn rank(self) -> u8 {
        7 - self as u8
    }

    /// How many pieces of this kind each colour has (B1).
    pub fn count(self) -> u8 {
        match self {
            Kind::General => 1,
            Kind::Soldier => 5,
            _ => 2,
        }
    }

    /// The Xiangqi FEN letter in upper case (K A B R N C P).
    pub fn letter(self) -> char {
        match self {
            Kind::General => 'K',
            Kind::Advisor => 'A',
            Kind::Elephant => 'B',
            Kind::Chariot => 'R',
            Kind::Horse => 'N',
            Kind::Cannon => 'C',
            Kind::Soldier => 'P',
        }
    }

    /// The kind for an upper case letter; `E` and `H` are accepted as the
    /// other common spellings of elephant and horse.
    pub fn from_letter(c: char) -> Option<Kind> {
        Some(match c {
            'K' => Kind::General,
            'A' => Kind::Advisor,
            'B' | 'E' => Kind::Elephant,
            'R' => Kind::Chariot,
            'N' | 'H' => Kind::Horse,
            'C' => Kind::Cannon,
            'P' => Kind::Soldier,
            _ => return None,
        })
    }
}

/// A face-up or hidden piece: colour and kind.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub colour: Colour,
    /// What it is.
    pub kind: Kind,
}

impl Piece {
    /// A piece of `colour` and `kind`.
    pub const fn new(colour: Colour, kind: Kind) -> Piece {
        Piece { colour, kind }
    }

    /// A dense index 0..14 (red kinds 0..7, black kinds 7..14), for counting.
    pub fn index(self) -> usize {
        self.colour.index() * 7 + self.kind as usize
    }

    /// The piece with dense index `i` (0..14).
    pub fn from_index(i: usize) -> Piece {
        let colour = if i < 7 { Colour::Red } else { Colour::Black };
        Piece::new(colour, Kind::ALL[i % 7])
    }

    /// The FEN letter: upper case for red, lower case for black.
    pub fn letter(self) -> char {
        let c = self.kind.letter();
        match self.colour {
            Colour::Red => c,
            Colour::Black => c.to_ascii_lowercase(),
        }
    }

    /// The piece for a FEN letter.
    pub fn from_letter(c: char) -> Option<Piece> {
        let colour = if c.is_ascii_uppercase() {
            Colour::Red
        } else {
            Colour::Black
        };
        Kind::from_letter(c.to_ascii_uppercase()).map(|k| Piece::new(colour, k))
    }

    /// Whether `self` (not a cannon) may capture the face-up enemy piece
    /// `target` from an adjacent square (B3, B4): a higher or equal rank, except
    /// that the general may not take a soldier and a soldier may take the general.
    pub fn outranks(self, target: Piece) -> bool {
        match (self.kind, target.kind) {
            (Kind::Cannon, _) => false,
            (Kind::General, Kind::Soldier) => false,
            (Kind::Soldier, Kind::General) => true,
            (a, b) => a.rank() >= b.rank(),
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// The full set of 32 pieces (B1) as counts by [`Piece::index`].
pub fn full_set() -> [u8; 14] {
    let mut c = [0u8; 14];
    for (i, n) in c.iter_mut().enumerate() {
        *n = Piece::from_index(i).kind.count();
    }
    c
}

/// A square of the 4 × 8 board: index `row * 8 + file`, row 0 is row 1
/// (the bottom), file 0 is file a.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub u8);

impl Square {
    /// The square at `file` (0..8, a..h) and `row` (0..4, rows 1..4).
    pub fn new(file: u8, row: u8) -> Square {
        debug_assert!(file < 8 && row < 4);
        Square(row * 8 + file)
    }

    /// 0..8 for files a..h.
    pub fn file(self) -> u8 {
        self.0 % 8
    }

    /// 0..4 for rows 1..4.
    pub fn row(self) -> u8 {
        self.0 / 8
    }

    /// The index 0..32.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// All 32 squares.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..32u8).map(Square)
    }

    /// The orthogonal neighbours on the board.
    pub fn neighbours(self) -> impl Iterator<Item = Square> {
        let (f, r) = (self.file() as i8, self.row() as i8);
        [(0i8, 1i8), (0, -1), (1, 0), (-1, 0)]
            .into_iter()
            .filter_map(move |(df, dr)| {
                let (nf, nr) = (f + df, r + dr);
                ((0..8).contains(&nf) && (0..4).contains(&nr))
                    .then(|| Square::new(nf as u8, nr as u8))
            })
    }

    /// Parses `a1`..`h4`.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let f = b[0].wrapping_sub(b'a');
        let r = b[1].wrapping_sub(b'1');
        (f < 8 && r < 4).then(|| Square::new(f, r))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.row() + 1)
    }
}

/// A move: a flip (written `a1a1`) or a step or capture (written `a1a2`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Turn the face-down piece on this square face up.
    Flip(Square),
    /// Move (or capture with) the piece on `from` to `to`.
    Step {
        /// Where the piece stands.
        from: Square,
        /// Where it goes (an empty square, or the piece it captures).
        to: Square,
    },
}

impl Move {
    /// Parses `a1a2` (a move or capture) or `a1a1` (a flip).
    pub fn parse(text: &str) -> Result<Move, String> {
        let t = text.trim();
        if t.len() != 4 || !t.is_ascii() {
            return Err("expected four characters like a1a2 (a move) or a1a1 (a flip)".into());
        }
        let from = Square::parse(&t[..2])
            .ok_or_else(|| format!("'{}' is not a square (files a-h, rows 1-4)", &t[..2]))?;
        let to = Square::parse(&t[2..])
            .ok_or_else(|| format!("'{}' is not a square (files a-h, rows 1-4)", &t[2..]))?;
        Ok(if from == to {
            Move::Flip(from)
        } else {
            Move::Step { from, to }
        })
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Flip(s) => write!(f, "{s}{s}"),
            Move::Step { from, to } => write!(f, "{from}{to}"),
        }
    }
}
