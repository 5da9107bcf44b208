//! FEN: parse and print. Every parse error names the field and the character
//! (1-based column in the whole string) where the problem is.

use std::fmt::Write;

use crate::position::{Position, SetupError};
use crate::types::{Class, Color, Piece, PieceKind, Square};
use crate::variant::Variant;

/// The standard start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// What is wrong with a FEN, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// A syntax error in one field.
    #[error("FEN field {field} ({name}), character {column}: {message}")]
    Syntax {
        /// 1-based field number.
        field: usize,
        /// The field's name (`board`, `side to move`, …).
        name: &'static str,
        /// 1-based character position in the whole FEN string.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// The board parses but is not a legal set-up.
    #[error("FEN board: {0}")]
    Setup(SetupError),
}

// Not `#[from]`: that would also make the set-up error the `source`, and
// error reports that print the chain would say the reason twice.
impl From<SetupError> for FenError {
    fn from(e: SetupError) -> Self {
        FenError::Setup(e)
    }
}

const FIELD_NAMES: [&str; 10] = [
    "board",
    "side to move",
    "castling",
    "en passant",
    "halfmove clock",
    "fullmove number",
    "red score",
    "black score",
    "turn state",
    "capture flag",
];

fn syntax(field: usize, column: usize, message: impl Into<String>) -> FenError {
    FenError::Syntax {
        field: field + 1,
        name: FIELD_NAMES.get(field).copied().unwrap_or("extra"),
        column: column + 1,
        message: message.into(),
    }
}

/// Splits on whitespace, keeping each field's character offset.
pub(crate) fn fields_with_columns(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None; // (char column, byte index)
    for (col, (byte, ch)) in text.char_indices().enumerate() {
        if ch.is_whitespace() {
            if let Some((c, b)) = start.take() {
                out.push((c, &text[b..byte]));
            }
        } else if start.is_none() {
            start = Some((col, byte));
        }
    }
    if let Some((c, b)) = start {
        out.push((c, &text[b..]));
    }
    out
}

/// Parses the board field into `pos`. `column` is the field's offset.
fn parse_board(
    pos: &mut Position,
    field: &str,
    column: usize,
    variant: Variant,
) -> Result<(), FenError> {
    let mut rank: i32 = 9;
    let mut file: u32 = 0;
    let mut last_piece: Option<Square> = None;
    for (i, ch) in field.chars().enumerate() {
        let col = column + i;
        if let Some(class) = Class::from_mark(ch).filter(|_| ch != '=') {
            // J21: a class mark follows the piece letter it belongs to.
            let Some(sq) = last_piece.take() else {
                return Err(syntax(
                    0,
                    col,
                    format!("class mark '{ch}' does not follow a piece"),
                ));
            };
            if !variant.has_class(class) {
                return Err(syntax(
                    0,
                    col,
                    format!("class mark '{ch}' is not a class of {}", variant.name()),
                ));
            }
            let p = pos.piece_at(sq).expect("just placed").with_class(class);
            pos.put(sq, Some(p));
            continue;
        }
        last_piece = None;
        match ch {
            '/' => {
                if file != 9 {
                    return Err(syntax(
                        0,
                        col,
                        format!("rank {} has {file} points, expected 9", rank),
                    ));
                }
                rank -= 1;
                file = 0;
                if rank < 0 {
                    return Err(syntax(0, col, "more than 10 ranks"));
                }
            }
            '1'..='9' => {
                file += ch as u32 - '0' as u32;
                if file > 9 {
                    return Err(syntax(
                        0,
                        col,
                        format!("rank {rank} has more than 9 points"),
                    ));
                }
            }
            _ => {
                let Some(kind) = PieceKind::from_letter(ch).filter(|_| ch.is_ascii_alphabetic())
                else {
                    return Err(syntax(0, col, format!("unknown piece letter '{ch}'")));
                };
                if file >= 9 {
                    return Err(syntax(
                        0,
                        col,
                        format!("rank {rank} has more than 9 points"),
                    ));
                }
                let color = if ch.is_ascii_uppercase() {
                    Color::Red
                } else {
                    Color::Black
                };
                let sq = Square::new(file as u8, rank as u8).expect("file and rank are in range");
                pos.put(sq, Some(Piece::new(color, kind)));
                last_piece = Some(sq);
                file += 1;
            }
        }
    }
    if rank != 0 {
        return Err(syntax(
            0,
            column + field.chars().count().saturating_sub(1),
            format!("{} ranks, expected 10", 10 - rank),
        ));
    }
    if file != 9 {
        return Err(syntax(
            0,
            column + field.chars().count().saturating_sub(1),
            format!("rank 0 has {file} points, expected 9"),
        ));
    }
    Ok(())
}

fn parse_score(field: usize, column: usize, text: &str) -> Result<i32, FenError> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() {
        return Err(syntax(field, column, "expected a score"));
    }
    let offset = text.len() - digits.len();
    let n = parse_number(field, column + offset, digits)?;
    let n =
        i32::try_from(n).map_err(|_| syntax(field, column, format!("'{text}' is too large")))?;
    Ok(if offset == 1 { -n } else { n })
}

fn parse_number(field: usize, column: usize, text: &str) -> Result<u32, FenError> {
    if let Some((i, c)) = text.chars().enumerate().find(|(_, c)| !c.is_ascii_digit()) {
        return Err(syntax(field, column + i, format!("'{c}' is not a digit")));
    }
    text.parse()
        .map_err(|_| syntax(field, column, format!("'{text}' is too large")))
}

impl Position {
    /// Parses a Xiangqi FEN. Fields after the side to move are optional.
    pub fn from_fen(text: &str) -> Result<Position, FenError> {
        Position::from_fen_variant(text, Variant::Xiangqi, None)
    }

    /// Parses a FEN of any rule set. Jifen FENs may carry class marks and the
    /// four extra fields of J21 (a six-field FEN means `0 0 1 -`). `target`
    /// defaults to the rule set's (J11).
    pub fn from_fen_variant(
        text: &str,
        variant: Variant,
        target: Option<i32>,
    ) -> Result<Position, FenError> {
        let fields = fields_with_columns(text);
        if fields.is_empty() {
            return Err(syntax(0, 0, "empty FEN"));
        }
        let max_fields = if variant.is_jifen() { 10 } else { 6 };
        if fields.len() > max_fields {
            let (c, f) = fields[max_fields];
            return Err(syntax(
                max_fields,
                c,
                format!("unexpected extra field '{f}'"),
            ));
        }
        if fields.len() > 6 && fields.len() < 10 {
            let (c, _) = fields[6];
            return Err(syntax(
                6,
                c,
                "Jifen FEN needs all four extra fields (red score, black score, turn state, capture flag)",
            ));
        }
        let mut pos = Position::empty();
        pos.set_variant(variant, target.unwrap_or(variant.default_target()));
        let (bc, board) = fields[0];
        parse_board(&mut pos, board, bc, variant)?;
        let side = match fields.get(1) {
            None => Color::Red,
            Some(&(_, "w" | "r" | "W" | "R")) => Color::Red,
            Some(&(_, "b" | "B")) => Color::Black,
            Some(&(c, s)) => {
                return Err(syntax(1, c, format!("'{s}' is not w, r or b")));
            }
        };
        pos.set_side_to_move(side);
        for idx in [2, 3] {
            if let Some(&(c, s)) = fields.get(idx)
                && s != "-"
            {
                return Err(syntax(idx, c, format!("'{s}' must be '-' in Xiangqi")));
            }
        }
        let halfmove = match fields.get(4) {
            Some(&(c, s)) => parse_number(4, c, s)?,
            None => 0,
        };
        let fullmove = match fields.get(5) {
            Some(&(c, s)) => parse_number(5, c, s)?,
            None => 1,
        };
        if fullmove == 0 {
            let (c, _) = fields[5];
            return Err(syntax(5, c, "the fullmove number starts at 1"));
        }
        pos.set_counters(halfmove, fullmove);
        if fields.len() == 10 {
            let red = parse_score(6, fields[6].0, fields[6].1)?;
            let black = parse_score(7, fields[7].0, fields[7].1)?;
            let turn_state = match fields[8] {
                (_, "1") => 1,
                (_, "2") => 2,
                (c, s) => return Err(syntax(8, c, format!("'{s}' is not 1 or 2"))),
            };
            let any_capture = match fields[9] {
                (_, "x") => true,
                (_, "-") => false,
                (c, s) => return Err(syntax(9, c, format!("'{s}' is not x or -"))),
            };
            pos.set_jifen_state([red, black], turn_state, any_capture);
        }
        pos.validate()?;
        Ok(pos)
    }

    /// The board field of the FEN.
    pub fn board_fen(&self) -> String {
        let mut s = String::with_capacity(64);
        for rank in (0..10).rev() {
            let mut empty = 0;
            for file in 0..9 {
                let sq = Square::new(file, rank).expect("on board");
                match self.piece_at(sq) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            let _ = write!(s, "{empty}");
                            empty = 0;
                        }
                        s.push(p.letter());
                        if p.class() != crate::types::Class::Normal {
                            s.push(p.class().mark());
                        }
                    }
                }
            }
            if empty > 0 {
                let _ = write!(s, "{empty}");
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s
    }

    /// The full FEN: six fields, plus the four of J21 in Jifen rule sets.
    pub fn to_fen(&self) -> String {
        let mut s = format!(
            "{} {} - - {} {}",
            self.board_fen(),
            if self.side_to_move() == Color::Red {
                'w'
            } else {
                'b'
            },
            self.halfmove_clock(),
            self.fullmove_number()
        );
        if self.variant().is_jifen() {
            let [r, b] = self.scores();
            let _ = write!(
                s,
                " {r} {b} {} {}",
                self.turn_state(),
                if self.any_capture() { 'x' } else { '-' }
            );
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_fen_round_trips() {
        let p = Position::from_fen(START_FEN).unwrap();
        assert_eq!(p.to_fen(), START_FEN);
    }

    #[test]
    fn accepts_r_for_red_and_e_h_letters() {
        let p = Position::from_fen("rhbakabhr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r")
            .unwrap();
        assert_eq!(p.to_fen(), START_FEN);
    }

    #[test]
    fn errors_name_field_and_character() {
        let e = Position::from_fen("rnbakabnr/9/1c5c1/p1p1x1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w")
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "FEN field 1 (board), character 23: unknown piece letter 'x'"
        );
        let e = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x")
            .unwrap_err();
        assert!(
            e.to_string()
                .starts_with("FEN field 2 (side to move), character 61"),
            "{e}"
        );
        let e = Position::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 x",
        )
        .unwrap_err();
        assert!(
            e.to_string().starts_with("FEN field 6 (fullmove number)"),
            "{e}"
        );
        let e =
            Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9 w").unwrap_err();
        assert!(e.to_string().contains("9 ranks, expected 10"), "{e}");
        let e = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w")
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "FEN board: red must have exactly one general"
        );
    }

    #[test]
    fn rejects_facing_generals_with_the_wrong_side_to_move() {
        // Generals face on the e-file: whoever is to move could "capture" the other.
        let e = Position::from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w").unwrap_err();
        assert_eq!(e, FenError::Setup(SetupError::OpponentInCheck));
    }
}
