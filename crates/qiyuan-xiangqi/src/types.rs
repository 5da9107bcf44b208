//! Squares, colours, pieces, classes and moves: the small value types every
//! other module speaks.
//!
//! A square is an index into a 16×16 mailbox (ElephantEye's layout): the board
//! proper sits at ranks 3..=12 and files 3..=11, the rest is an off-board
//! border, so a step off the board lands on a sentinel instead of needing a
//! bounds check. Files and ranks are still the ICCS ones (`a`..`i`, `0`..`9`).

use std::fmt;

/// One of the 90 points of the board.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The point on `file` (0 = `a`, red's left) and `rank` (0 = red's back rank),
    /// or `None` off the board.
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < 9 && rank < 10 {
            Some(Square((rank + 3) * 16 + file + 3))
        } else {
            None
        }
    }

    /// Builds a square from a mailbox index the caller knows to be on the board.
    pub(crate) const fn from_raw(raw: u8) -> Square {
        Square(raw)
    }

    /// The mailbox index (0..256), for tables indexed by square.
    #[inline(always)]
    pub const fn raw(self) -> usize {
        self.0 as usize
    }

    /// File 0..9 (`a`..`i`).
    #[inline(always)]
    pub const fn file(self) -> u8 {
        (self.0 & 15) - 3
    }

    /// Rank 0..10 (red's back rank is 0).
    #[inline(always)]
    pub const fn rank(self) -> u8 {
        (self.0 >> 4) - 3
    }

    /// Dense index 0..90 (`rank * 9 + file`).
    #[inline(always)]
    pub const fn index90(self) -> usize {
        self.rank() as usize * 9 + self.file() as usize
    }

    /// The square with dense index `i` (0..90).
    pub const fn from_index90(i: usize) -> Square {
        Square((((i / 9) + 3) * 16 + (i % 9) + 3) as u8)
    }

    /// All 90 squares, rank by rank from red's side.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..90).map(Square::from_index90)
    }

    /// Parses an ICCS square such as `e0`.
    pub fn from_iccs(text: &str) -> Option<Square> {
        let b = text.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].to_ascii_lowercase().wrapping_sub(b'a');
        let rank = b[1].wrapping_sub(b'0');
        Square::new(file, rank)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The two sides. Red moves first and sits at ranks 0..5.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// 红方, upper case in FEN.
    Red = 0,
    /// 黑方, lower case in FEN.
    Black = 1,
}

impl Color {
    /// The other side.
    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// 0 for red, 1 for black.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The colour bit as stored in a piece code.
    #[inline(always)]
    pub(crate) const fn bit(self) -> u8 {
        (self as u8) << 3
    }

    /// Mailbox step that moves a pawn of this colour forward.
    #[inline(always)]
    pub(crate) const fn forward(self) -> i16 {
        match self {
            Color::Red => 16,
            Color::Black => -16,
        }
    }

    /// Whether `rank` is on this side's own half (before the river).
    #[inline(always)]
    pub const fn own_half(self, rank: u8) -> bool {
        match self {
            Color::Red => rank <= 4,
            Color::Black => rank >= 5,
        }
    }

    /// The Chinese name (红 / 黑).
    pub fn chinese(self) -> &'static str {
        match self {
            Color::Red => "红",
            Color::Black => "黑",
        }
    }

    /// The English name, lower case.
    pub fn english(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Black => "black",
        }
    }
}

/// The seven Xiangqi piece types; the discriminant is the code stored on the board.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum PieceKind {
    /// 帅/将
    King = 1,
    /// 仕/士
    Advisor = 2,
    /// 相/象
    Elephant = 3,
    /// 马
    Horse = 4,
    /// 车
    Rook = 5,
    /// 炮
    Cannon = 6,
    /// 兵/卒
    Pawn = 7,
}

impl PieceKind {
    /// All kinds in code order.
    pub const ALL: [PieceKind; 7] = [
        PieceKind::King,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Rook,
        PieceKind::Cannon,
        PieceKind::Pawn,
    ];

    /// Decodes the low three bits of a piece code (1..=7).
    #[inline(always)]
    pub(crate) const fn from_code(code: u8) -> PieceKind {
        match code & 7 {
            1 => PieceKind::King,
            2 => PieceKind::Advisor,
            3 => PieceKind::Elephant,
            4 => PieceKind::Horse,
            5 => PieceKind::Rook,
            6 => PieceKind::Cannon,
            _ => PieceKind::Pawn,
        }
    }

    /// FEN letter in upper case (`K A B N R C P`).
    pub const fn letter(self) -> char {
        match self {
            PieceKind::King => 'K',
            PieceKind::Advisor => 'A',
            PieceKind::Elephant => 'B',
            PieceKind::Horse => 'N',
            PieceKind::Rook => 'R',
            PieceKind::Cannon => 'C',
            PieceKind::Pawn => 'P',
        }
    }

    /// Parses a FEN letter of either case; also accepts `E` (elephant) and `H` (horse).
    pub fn from_letter(c: char) -> Option<PieceKind> {
        Some(match c.to_ascii_uppercase() {
            'K' => PieceKind::King,
            'A' => PieceKind::Advisor,
            'B' | 'E' => PieceKind::Elephant,
            'N' | 'H' => PieceKind::Horse,
            'R' => PieceKind::Rook,
            'C' => PieceKind::Cannon,
            'P' => PieceKind::Pawn,
            _ => return None,
        })
    }

    /// The English name used in messages ("chariot", not "rook").
    pub const fn english(self) -> &'static str {
        match self {
            PieceKind::King => "general",
            PieceKind::Advisor => "advisor",
            PieceKind::Elephant => "elephant",
            PieceKind::Horse => "horse",
            PieceKind::Rook => "chariot",
            PieceKind::Cannon => "cannon",
            PieceKind::Pawn => "pawn",
        }
    }

    /// How many of this kind each side starts with (and may ever have).
    pub const fn max_count(self) -> u8 {
        match self {
            PieceKind::King => 1,
            PieceKind::Pawn => 5,
            _ => 2,
        }
    }
}

/// Jifen piece class (J1). Plain Xiangqi pieces are all `Normal`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Class {
    /// 普通棋子: captures anything.
    Normal = 0,
    /// 小棋子: captures anything but a Small piece.
    Small = 1,
    /// 王棋子: captures anything and is royal (contest rules).
    Royal = 2,
    /// 闲棋子: captures nothing.
    Idle = 3,
}

impl Class {
    /// All classes in code order.
    pub const ALL: [Class; 4] = [Class::Normal, Class::Small, Class::Royal, Class::Idle];

    /// Decodes bits 4..6 of a piece code.
    #[inline(always)]
    pub(crate) const fn from_code(code: u8) -> Class {
        match (code >> 4) & 3 {
            0 => Class::Normal,
            1 => Class::Small,
            2 => Class::Royal,
            _ => Class::Idle,
        }
    }

    /// The FEN/move mark (J21, J22): `""` Normal in FEN, `-` Small, `+` Royal, `*` Idle.
    pub const fn mark(self) -> char {
        match self {
            Class::Normal => '=',
            Class::Small => '-',
            Class::Royal => '+',
            Class::Idle => '*',
        }
    }

    /// Parses a class mark (`=`, `-`, `+`, `*`).
    pub fn from_mark(c: char) -> Option<Class> {
        Some(match c {
            '=' => Class::Normal,
            '-' => Class::Small,
            '+' => Class::Royal,
            '*' => Class::Idle,
            _ => return None,
        })
    }

    /// The one-character Chinese class word used in move notation (J22).
    pub const fn chinese(self) -> char {
        match self {
            Class::Normal => '普',
            Class::Small => '小',
            Class::Royal => '王',
            Class::Idle => '闲',
        }
    }
}

/// A piece: kind, colour and class packed into the byte stored on the board.
///
/// Layout: bits 0..3 kind (1..=7), bit 3 colour, bits 4..6 class. Code 0 is an
/// empty point and [`OFFBOARD`] the border sentinel, so a board byte is either.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Piece(u8);

/// Board byte of an empty point.
pub(crate) const EMPTY: u8 = 0;
/// Board byte of the off-board border.
pub(crate) const OFFBOARD: u8 = 0x80;

impl Piece {
    /// A Normal-class piece.
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece(kind as u8 | color.bit())
    }

    /// The same piece with another class.
    pub const fn with_class(self, class: Class) -> Piece {
        Piece((self.0 & 0x0f) | ((class as u8) << 4))
    }

    /// Decodes a board byte known to hold a piece.
    #[inline(always)]
    pub(crate) const fn from_code(code: u8) -> Piece {
        Piece(code)
    }

    /// The board byte.
    #[inline(always)]
    pub(crate) const fn code(self) -> u8 {
        self.0
    }

    /// Red or black.
    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0 & 8 == 0 {
            Color::Red
        } else {
            Color::Black
        }
    }

    /// The Xiangqi type.
    #[inline(always)]
    pub const fn kind(self) -> PieceKind {
        PieceKind::from_code(self.0)
    }

    /// The Jifen class (Normal in plain Xiangqi).
    #[inline(always)]
    pub const fn class(self) -> Class {
        Class::from_code(self.0)
    }

    /// FEN letter without class mark: upper case for red.
    pub fn letter(self) -> char {
        let c = self.kind().letter();
        match self.color() {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// The Chinese name, which differs between red and black for most kinds.
    pub fn chinese(self) -> char {
        let red = self.color() == Color::Red;
        match self.kind() {
            PieceKind::King => {
                if red {
                    '帅'
                } else {
                    '将'
                }
            }
            PieceKind::Advisor => {
                if red {
                    '仕'
                } else {
                    '士'
                }
            }
            PieceKind::Elephant => {
                if red {
                    '相'
                } else {
                    '象'
                }
            }
            PieceKind::Horse => '马',
            PieceKind::Rook => '车',
            PieceKind::Cannon => '炮',
            PieceKind::Pawn => {
                if red {
                    '兵'
                } else {
                    '卒'
                }
            }
        }
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())?;
        if self.class() != Class::Normal {
            write!(f, "{}", self.class().mark())?;
        }
        Ok(())
    }
}

/// A move: from, to, and an optional class the moved piece takes (Jifen, J7),
/// or a pass (Jifen contest double turns, J14).
///
/// Packed in 32 bits so move lists stay small: bits 0..8 from, 8..16 to,
/// 16..19 new class + 1 (0 = unchanged). The pass is all zeros (square 0 is
/// off the board, so no real move is zero).
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Move(u32);

impl Move {
    /// The pass of a contest double turn (`0000`).
    pub const PASS: Move = Move(0);

    /// A plain move.
    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.0 as u32 | (to.0 as u32) << 8)
    }

    /// A move that also changes the moved piece's class (J7).
    pub const fn with_class(self, class: Class) -> Move {
        Move((self.0 & 0xffff) | ((class as u32 + 1) << 16))
    }

    /// Builds a move from its raw from/to mailbox indices.
    #[inline(always)]
    pub(crate) const fn from_raw(from: usize, to: usize) -> Move {
        Move(from as u32 | (to as u32) << 8)
    }

    /// Whether this is the pass `0000`.
    #[inline(always)]
    pub const fn is_pass(self) -> bool {
        self.0 == 0
    }

    /// Origin square (meaningless for a pass).
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square((self.0 & 0xff) as u8)
    }

    /// Destination square (meaningless for a pass).
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square(((self.0 >> 8) & 0xff) as u8)
    }

    /// The class the piece changes to, if the move changes it.
    #[inline(always)]
    pub const fn new_class(self) -> Option<Class> {
        match (self.0 >> 16) & 7 {
            0 => None,
            c => Some(Class::from_code(((c - 1) as u8) << 4)),
        }
    }

    /// The same move without its class change.
    pub const fn without_class(self) -> Move {
        Move(self.0 & 0xffff)
    }
}

impl fmt::Display for Move {
    /// ICCS form (`h2e2`, `h2e2*`, `0000`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_pass() {
            return f.write_str("0000");
        }
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(c) = self.new_class() {
            write!(f, "{}", c.mark())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_coordinates_round_trip() {
        for i in 0..90 {
            let s = Square::from_index90(i);
            assert_eq!(s.index90(), i);
            assert_eq!(Square::new(s.file(), s.rank()), Some(s));
            assert_eq!(Square::from_iccs(&s.to_string()), Some(s));
        }
        assert_eq!(Square::new(9, 0), None);
        assert_eq!(Square::new(0, 10), None);
    }

    #[test]
    fn move_packs_class_change() {
        let m = Move::new(Square::new(7, 2).unwrap(), Square::new(4, 2).unwrap());
        assert_eq!(m.to_string(), "h2e2");
        assert_eq!(m.new_class(), None);
        for c in Class::ALL {
            let mc = m.with_class(c);
            assert_eq!(mc.new_class(), Some(c));
            assert_eq!(mc.without_class(), m);
        }
        assert_eq!(Move::PASS.to_string(), "0000");
    }
}
