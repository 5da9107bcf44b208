//! WXF and Chinese move notation (print and parse).
//!
//! Both notations describe a move relative to the mover: the piece, the file
//! it stands on (numbered 1–9 from the mover's right: for red `i` is 1 and `a`
//! is 9, for black `a` is 1 and `i` is 9), the direction (forward = towards the
//! opponent, backward, or traverse along the rank) and a last number: the
//! destination file for a traverse and for the diagonal movers (horse,
//! elephant, advisor), the number of steps for a straight move along a file.
//!
//! Conventions followed (World Xiangqi Federation, "Official Xiangqi piece
//! names and notation", wxf.org/xq/computer/wxf_notation.html; for Chinese the
//! 中文纵线格式 of xqbase.com's 中国象棋电脑应用规范 and the practice of
//! published records):
//!
//! | situation | WXF | Chinese |
//! | --- | --- | --- |
//! | plain move | `C2.5`, `H8+7`, `R1-1` | `炮二平五`, `马８进７` |
//! | two pieces on one file | `C+.5` front, `C--1` rear | `前炮平五`, `后炮退一` |
//! | advisors/elephants on one file | the file number (`A6+5`, `E7-5`) | `仕六进五` |
//! | three pawns on one file | `P+.4`, `P3.4` (middle), `P-.4` | `前兵`, `中兵`, `后兵` |
//! | four pawns | `++.4`, `P+.4`, `P-.4`, `--.4` | `一兵` `二兵` `三兵` `四兵` |
//! | five pawns | `++.4`, `P+.4`, `P3.4`, `P-.4`, `--.4` | `一兵` … `五兵` |
//! | two files each with 2+ pawns | `3+.4`, `33.4` (middle), `3-.4` | `前三平四`, `中三平四`, `后三平四` |
//!
//! Advisors and elephants keep the file number because only one of two such
//! pieces on a file can go forward (the rear one) or back (the front one);
//! in the rare set-up where that is not so, the `+`/`-` form is printed.
//!
//! Parsing also accepts: `+C.5` (sign before the letter), `=` for `.`, the
//! letters `B` (elephant) and `N` (horse), lower case, the three-character
//! traverse `C25`, `P3+.4` for a doubled pawn on a named file; in Chinese,
//! traditional and variant piece characters (帥 將 俥 車 傌 馬 砲 包 …), 進 and
//! 後, Arabic, full-width or Chinese numerals for either side, `车前平三` (the
//! designator after the piece), `前兵三进一` (the five-character doubled-file
//! form) and 前/后 for the first/last of four or five pawns.
//!
//! Jifen (J22): a move that changes the moved piece's class carries the class
//! at the end: the mark (`C2.5*`) in WXF, the class word (`炮二平五闲`) in
//! Chinese. Parsers accept either the mark or the word in both notations and
//! return the move with that class; the class itself is not checked against
//! the position (that is the Jifen caller's job).

use std::fmt::Write;

use crate::position::Position;
use crate::types::{Color, Move, PieceKind, Square};

mod parse;
pub use parse::{parse_chinese, parse_chinese_among, parse_wxf, parse_wxf_among};

/// Why a WXF or Chinese move text could not be turned into a legal move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// The text is not of the notation's form.
    #[error("{notation} move '{text}', character {column}: {message}")]
    Syntax {
        /// `WXF` or `Chinese`.
        notation: &'static str,
        /// What was given.
        text: String,
        /// 1-based character position of the problem in `text`.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// Well formed, but no legal move of the position fits it.
    #[error("{notation} move '{text}', character {column}: {message}")]
    NoSuchMove {
        /// `WXF` or `Chinese`.
        notation: &'static str,
        /// What was given.
        text: String,
        /// 1-based character position of the part that does not fit.
        column: usize,
        /// Why nothing fits.
        message: String,
    },
    /// More than one legal move fits the text.
    #[error("{notation} move '{text}', character {column}: {message}")]
    Ambiguous {
        /// `WXF` or `Chinese`.
        notation: &'static str,
        /// What was given.
        text: String,
        /// 1-based character position of the part that should have told them apart.
        column: usize,
        /// Which moves fit.
        message: String,
    },
}

impl NotationError {
    /// The 1-based character position the error points at.
    pub fn column(&self) -> usize {
        match self {
            NotationError::Syntax { column, .. }
            | NotationError::NoSuchMove { column, .. }
            | NotationError::Ambiguous { column, .. } => *column,
        }
    }
}

// ---------------------------------------------------------------------------
// Shared geometry
// ---------------------------------------------------------------------------

/// Chinese numerals 一..九 (red's file numbers and steps).
const CN_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
/// Full-width digits １..９ (black's file numbers and steps in print).
const FW_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// The file number 1..=9 of ICCS file `file` (0 = `a`) seen from `color`'s right.
pub fn file_number(color: Color, file: u8) -> u8 {
    match color {
        Color::Red => 9 - file,
        Color::Black => file + 1,
    }
}

/// The ICCS file (0 = `a`) of file number `number` (1..=9) seen from `color`'s right.
fn file_of_number(color: Color, number: u8) -> u8 {
    match color {
        Color::Red => 9 - number,
        Color::Black => number - 1,
    }
}

/// Ranks `color` has advanced going from `from` to `to` (negative: retreated).
fn advance(color: Color, from: Square, to: Square) -> i32 {
    let d = to.rank() as i32 - from.rank() as i32;
    match color {
        Color::Red => d,
        Color::Black => -d,
    }
}

/// Direction of a move relative to the mover.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Dir {
    Forward,
    Backward,
    Traverse,
}

/// What the notations say about a move apart from which piece moves: the
/// direction and the last number (destination file or steps).
fn motion(color: Color, from: Square, to: Square) -> (Dir, u8) {
    let adv = advance(color, from, to);
    let dir = match adv.cmp(&0) {
        std::cmp::Ordering::Greater => Dir::Forward,
        std::cmp::Ordering::Less => Dir::Backward,
        std::cmp::Ordering::Equal => Dir::Traverse,
    };
    let arg = if dir != Dir::Traverse && from.file() == to.file() {
        adv.unsigned_abs() as u8
    } else {
        file_number(color, to.file())
    };
    (dir, arg)
}

/// `color`'s pieces of `kind` on ICCS file `file`, front (nearest the opponent) first.
fn on_file(pos: &Position, color: Color, kind: PieceKind, file: u8) -> Vec<Square> {
    let mut v: Vec<Square> = (0..10)
        .filter_map(|r| Square::new(file, r))
        .filter(|&s| {
            pos.piece_at(s)
                .is_some_and(|p| p.color() == color && p.kind() == kind)
        })
        .collect();
    v.sort_by_key(|s| match color {
        Color::Red => 9 - s.rank(),
        Color::Black => s.rank(),
    });
    v
}

/// How many files hold two or more of `color`'s pawns.
fn doubled_pawn_files(pos: &Position, color: Color) -> usize {
    (0..9)
        .filter(|&f| on_file(pos, color, PieceKind::Pawn, f).len() >= 2)
        .count()
}

/// Where a piece stands among its kind on its file, the way it is printed.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Standing {
    /// Alone on its file (or an advisor/elephant named by file): the file number.
    Alone,
    /// `index` (0 = front) of `count` same pieces on the file.
    Among { index: usize, count: usize },
}

/// Whether the advisor/elephant on `from` is told apart by its file number
/// alone: no other such piece on the file could make a move with the same
/// direction and destination file (by geometry and the kind's home points).
fn diagonal_file_form_unique(
    color: Color,
    kind: PieceKind,
    others: &[Square],
    from: Square,
    to: Square,
) -> bool {
    let (dir, _) = motion(color, from, to);
    let df = (to.file() as i32 - from.file() as i32).abs();
    let dr = advance(color, from, to).abs();
    others.iter().filter(|&&s| s != from).all(|&s| {
        let step = if dir == Dir::Forward { dr } else { -dr };
        let rank = match color {
            Color::Red => s.rank() as i32 + step,
            Color::Black => s.rank() as i32 - step,
        };
        let file = to.file() as i32;
        if !(0..10).contains(&rank) || (file - s.file() as i32).abs() != df {
            return true;
        }
        let rank = rank as u8;
        let home = match kind {
            PieceKind::Advisor => {
                (3..=5).contains(&file)
                    && match color {
                        Color::Red => rank <= 2,
                        Color::Black => rank >= 7,
                    }
            }
            _ => color.own_half(rank),
        };
        !home
    })
}

fn standing(pos: &Position, color: Color, kind: PieceKind, from: Square, to: Square) -> Standing {
    let same = on_file(pos, color, kind, from.file());
    if same.len() <= 1 {
        return Standing::Alone;
    }
    if matches!(kind, PieceKind::Advisor | PieceKind::Elephant)
        && diagonal_file_form_unique(color, kind, &same, from, to)
    {
        return Standing::Alone;
    }
    let index = same.iter().position(|&s| s == from).unwrap_or(0);
    Standing::Among {
        index,
        count: same.len(),
    }
}

// ---------------------------------------------------------------------------
// Printing
// ---------------------------------------------------------------------------

fn wxf_letter(kind: PieceKind) -> char {
    match kind {
        PieceKind::King => 'K',
        PieceKind::Advisor => 'A',
        PieceKind::Elephant => 'E',
        PieceKind::Horse => 'H',
        PieceKind::Rook => 'R',
        PieceKind::Cannon => 'C',
        PieceKind::Pawn => 'P',
    }
}

fn digit(n: u8) -> char {
    (b'0' + n) as char
}

/// The move in WXF notation (`C2.5`, `H8+7`, `C+.5`, `P7.6`, `3-.4`, `C2.5*`).
///
/// `m` should be a legal move of `pos`; a move from an empty point is printed
/// in ICCS instead, and the pass as `0000`.
pub fn to_wxf(pos: &Position, m: Move) -> String {
    if m.is_pass() {
        return "0000".into();
    }
    let Some(piece) = pos.piece_at(m.from()) else {
        return m.to_string();
    };
    let (color, kind) = (piece.color(), piece.kind());
    let (from, to) = (m.from(), m.to());
    let file = digit(file_number(color, from.file()));
    let (dir, arg) = motion(color, from, to);
    let op = match dir {
        Dir::Forward => '+',
        Dir::Backward => '-',
        Dir::Traverse => '.',
    };
    let letter = wxf_letter(kind);
    let mut s = String::with_capacity(6);
    match standing(pos, color, kind, from, to) {
        Standing::Alone => {
            s.push(letter);
            s.push(file);
        }
        Standing::Among { index, count } => {
            let sign = wxf_pawn_sign(index, count);
            if kind == PieceKind::Pawn && doubled_pawn_files(pos, color) >= 2 {
                // Pawns doubled on two files: the file replaces the letter.
                s.push(file);
                s.push(sign.unwrap_or(file));
            } else {
                match sign {
                    Some(c) if count >= 4 && (index == 0 || index == count - 1) => {
                        s.push(c);
                        s.push(c);
                    }
                    Some(c) => {
                        s.push(letter);
                        s.push(c);
                    }
                    None => {
                        s.push(letter);
                        s.push(file);
                    }
                }
            }
        }
    }
    s.push(op);
    s.push(digit(arg));
    if let Some(c) = m.new_class() {
        s.push(c.mark());
    }
    s
}

/// WXF sign of the `index`-th (0 = front) of `count` pieces on a file: `+`,
/// `-`, or `None` for the middle one (named by its file). For four and five
/// pawns the first and last are doubled signs (`++`, `--`), which the caller
/// writes; the sign returned for them is the single character.
fn wxf_pawn_sign(index: usize, count: usize) -> Option<char> {
    match (count, index) {
        (2, 0) | (3, 0) | (4, 0) | (4, 1) | (5, 0) | (5, 1) => Some('+'),
        (3, 1) | (5, 2) => None,
        _ => Some('-'),
    }
}

/// The move in Chinese notation (`炮二平五`, `马８进７`, `前炮退二`, `二兵平六`,
/// `前三平二`, `炮二平五闲`).
///
/// Red writes numbers as Chinese numerals, black as full-width digits. `m`
/// should be a legal move of `pos`; a move from an empty point is printed in
/// ICCS instead, and the pass as `0000`.
pub fn to_chinese(pos: &Position, m: Move) -> String {
    if m.is_pass() {
        return "0000".into();
    }
    let Some(piece) = pos.piece_at(m.from()) else {
        return m.to_string();
    };
    let (color, kind) = (piece.color(), piece.kind());
    let (from, to) = (m.from(), m.to());
    let numeral = |n: u8| -> char {
        let i = (n.clamp(1, 9) - 1) as usize;
        match color {
            Color::Red => CN_NUMERALS[i],
            Color::Black => FW_DIGITS[i],
        }
    };
    let (dir, arg) = motion(color, from, to);
    let mut s = String::with_capacity(24);
    let file = numeral(file_number(color, from.file()));
    match standing(pos, color, kind, from, to) {
        Standing::Alone => {
            s.push(piece.chinese());
            s.push(file);
        }
        Standing::Among { index, count } => {
            let designator = match (count, index) {
                (2 | 3, 0) => '前',
                (3, 1) => '中',
                (2 | 3, _) => '后',
                (_, i) => CN_NUMERALS[i.min(8)],
            };
            s.push(designator);
            if kind == PieceKind::Pawn && doubled_pawn_files(pos, color) >= 2 {
                s.push(file);
            } else {
                s.push(piece.chinese());
            }
        }
    }
    s.push(match dir {
        Dir::Forward => '进',
        Dir::Backward => '退',
        Dir::Traverse => '平',
    });
    s.push(numeral(arg));
    if let Some(c) = m.new_class() {
        s.push(c.chinese());
    }
    s
}

/// The move in all three notations, for display: `h2e2 C2.5 炮二平五`.
pub fn describe(pos: &Position, m: Move) -> String {
    let mut s = String::new();
    let _ = write!(s, "{m} {} {}", to_wxf(pos, m), to_chinese(pos, m));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_numbers_count_from_the_movers_right() {
        assert_eq!(file_number(Color::Red, 0), 9);
        assert_eq!(file_number(Color::Red, 8), 1);
        assert_eq!(file_number(Color::Black, 0), 1);
        assert_eq!(file_number(Color::Black, 7), 8);
        for f in 0..9 {
            for c in [Color::Red, Color::Black] {
                assert_eq!(file_of_number(c, file_number(c, f)), f);
            }
        }
    }

    #[test]
    fn central_cannon() {
        let p = Position::startpos();
        let m = p.parse_move("h2e2").unwrap();
        assert_eq!(to_wxf(&p, m), "C2.5");
        assert_eq!(to_chinese(&p, m), "炮二平五");
        assert_eq!(parse_wxf(&p, "C2.5"), Ok(m));
        assert_eq!(parse_chinese(&p, "炮二平五"), Ok(m));
        assert_eq!(describe(&p, m), "h2e2 C2.5 炮二平五");
    }
}
