//! ICCS move text (`h2e2`, with the Jifen class mark `h2e2*` and the pass `0000`).

use crate::position::Position;
use crate::types::{Class, Move, Square};

/// Why a move text could not be turned into a legal move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveParseError {
    /// Not ICCS syntax.
    #[error("malformed move '{text}': {why}")]
    Malformed {
        /// What was given.
        text: String,
        /// What is wrong.
        why: String,
    },
    /// Well-formed but not legal in the position.
    #[error("illegal move '{text}': {why}")]
    Illegal {
        /// What was given.
        text: String,
        /// Why it is not legal.
        why: String,
    },
}

/// Parses ICCS syntax without looking at a position.
pub fn parse_iccs(text: &str) -> Result<Move, MoveParseError> {
    let malformed = |why: &str| MoveParseError::Malformed {
        text: text.to_string(),
        why: why.to_string(),
    };
    if text == "0000" {
        return Ok(Move::PASS);
    }
    let chars: Vec<char> = text.chars().collect();
    if chars.len() != 4 && chars.len() != 5 {
        return Err(malformed("expected four characters like h2e2"));
    }
    let square = |f: char, r: char, what: &str| -> Result<Square, MoveParseError> {
        let file = f.to_ascii_lowercase();
        if !('a'..='i').contains(&file) {
            return Err(malformed(&format!("{what} file '{f}' is not a-i")));
        }
        if !r.is_ascii_digit() {
            return Err(malformed(&format!("{what} rank '{r}' is not 0-9")));
        }
        Ok(Square::new(file as u8 - b'a', r as u8 - b'0').expect("checked range"))
    };
    let from = square(chars[0], chars[1], "origin")?;
    let to = square(chars[2], chars[3], "destination")?;
    if from == to {
        return Err(malformed("origin and destination are the same point"));
    }
    let mut m = Move::new(from, to);
    if let Some(&mark) = chars.get(4) {
        let class = Class::from_mark(mark)
            .ok_or_else(|| malformed(&format!("'{mark}' is not a class mark (= - + *)")))?;
        m = m.with_class(class);
    }
    Ok(m)
}

impl Position {
    /// Parses an ICCS move (with a Jifen class mark or `0000` where the rule
    /// set allows) and checks that it is legal here, explaining why not.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveParseError> {
        let mut m = parse_iccs(text)?;
        let illegal = |why: String| MoveParseError::Illegal {
            text: text.to_string(),
            why,
        };
        let variant = self.variant();
        if m.is_pass() {
            return if self.turn_state() == 2 {
                Ok(m)
            } else {
                Err(illegal(
                    "a pass is only allowed as the second move of a contest double turn (J14)"
                        .into(),
                ))
            };
        }
        let Some(piece) = self.piece_at(m.from()) else {
            return Err(illegal(format!("there is no piece on {}", m.from())));
        };
        if piece.color() != self.side_to_move() {
            return Err(illegal(format!(
                "the piece on {} is {}'s and it is {}'s turn",
                m.from(),
                piece.color().english(),
                self.side_to_move().english()
            )));
        }
        if let Some(c) = m.new_class() {
            if c == piece.class() {
                // J22: a mark equal to the current class is the same move.
                m = m.without_class();
            } else if !variant.is_jifen() {
                return Err(illegal("class changes exist only in Jifen rules".into()));
            } else if !variant.has_class(c) {
                return Err(illegal(format!(
                    "{} has no class '{}' (J1)",
                    variant.name(),
                    c.mark()
                )));
            }
        }
        let legal = self.legal_moves();
        if legal.contains(&m) {
            return Ok(m);
        }
        let base = m.without_class();
        let mut pseudo = crate::position::MoveList::new();
        if variant.is_jifen() {
            self.pseudo_moves::<true>(&mut pseudo);
        } else {
            self.pseudo_moves::<false>(&mut pseudo);
        }
        let target = self.piece_at(m.to());
        if !pseudo.contains(&base) {
            if let Some(t) = target.filter(|t| t.color() != piece.color()) {
                let mut geometric = crate::position::MoveList::new();
                let mut plain = self.clone();
                plain.set_variant(crate::variant::Variant::Xiangqi, 0);
                plain.pseudo_moves::<false>(&mut geometric);
                if geometric.contains(&base) {
                    return Err(illegal(format!(
                        "a{} {} piece cannot capture a{} {} piece (J4)",
                        article(piece.class()),
                        class_name(piece.class()),
                        article(t.class()),
                        class_name(t.class())
                    )));
                }
            }
            return Err(illegal(format!(
                "the {} on {} cannot move to {}",
                piece.kind().english(),
                m.from(),
                m.to()
            )));
        }
        if self.is_contest_first_turn() && target.is_some() {
            return Err(illegal("red's first turn may not capture (J13)".into()));
        }
        if m.new_class().is_some()
            && variant.class_change_needs_capture()
            && !self.any_capture()
            && target.is_none()
        {
            return Err(illegal(
                "class changes are allowed only from the first capture on (J8)".into(),
            ));
        }
        Err(illegal(if self.in_check() {
            "it does not get the general out of check".into()
        } else if variant.is_jifen() {
            "it would leave a royal piece attacked or the generals facing (J5)".into()
        } else {
            "it would leave the general attacked or facing the other general".into()
        }))
    }
}

fn class_name(c: crate::types::Class) -> &'static str {
    use crate::types::Class::*;
    match c {
        Normal => "Normal",
        Small => "Small",
        Royal => "Royal",
        Idle => "Idle",
    }
}

fn article(c: crate::types::Class) -> &'static str {
    if c == crate::types::Class::Idle {
        "n"
    } else {
        ""
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_explains() {
        let p = Position::startpos();
        assert_eq!(p.parse_move("h2e2").unwrap().to_string(), "h2e2");
        let e = p.parse_move("h2e3").unwrap_err().to_string();
        assert_eq!(e, "illegal move 'h2e3': the cannon on h2 cannot move to e3");
        let e = p.parse_move("h7e7").unwrap_err().to_string();
        assert!(e.contains("it is red's turn"), "{e}");
        let e = p.parse_move("e5e6").unwrap_err().to_string();
        assert!(e.contains("no piece on e5"), "{e}");
        assert!(matches!(
            p.parse_move("z2e2"),
            Err(MoveParseError::Malformed { .. })
        ));
        assert!(matches!(
            p.parse_move("h2"),
            Err(MoveParseError::Malformed { .. })
        ));
    }

    #[test]
    fn explains_a_move_into_facing_generals() {
        // The e-file pawn is the only thing between the generals.
        let p = Position::from_fen("4k4/9/9/9/4p4/4P4/9/9/9/4K4 w").unwrap();
        let e = p.parse_move("e4d4").unwrap_err().to_string();
        assert!(e.contains("cannot move"), "{e}"); // a pawn before the river cannot go sideways
        // The advisor on d1 is the only piece between the generals on the d-file.
        let p = Position::from_fen("3k5/9/9/9/9/9/9/9/3A5/3K5 w").unwrap();
        let e = p.parse_move("d1e2").unwrap_err().to_string();
        assert!(e.contains("facing"), "{e}");
    }
}
