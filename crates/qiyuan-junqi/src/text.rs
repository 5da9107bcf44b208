//! Parsing the position and move text of Q13, with errors that say what
//! is wrong and where.

use crate::board::{FILES, POSTS, Post, RANKS, Side};
use crate::piece::Piece;
use crate::position::{Move, Position};

/// Longest position text accepted (the real one is under 90 characters).
pub const MAX_POSITION_LEN: usize = 256;

/// A position text that does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// Too long to be a position.
    #[error("a position is at most {MAX_POSITION_LEN} characters")]
    TooLong,
    /// Not four fields.
    #[error(
        "expected 4 fields separated by single spaces (ranks, side to move, quiet plies, move number), found {found}"
    )]
    Fields {
        /// Fields found.
        found: usize,
    },
    /// Not 12 ranks.
    #[error("expected 12 ranks joined by '/', found {found}")]
    Ranks {
        /// Ranks found.
        found: usize,
    },
    /// A rank of the wrong length.
    #[error("rank {rank} has {found} posts, expected 5")]
    RankLength {
        /// The rank, 1-12.
        rank: u8,
        /// Posts written.
        found: usize,
    },
    /// A character that is no piece letter or `.`.
    #[error("{post}: '{ch}' is not a piece letter or '.'")]
    Char {
        /// Where.
        post: Post,
        /// What was written.
        ch: char,
    },
    /// A hidden piece (`X`) in a position that must be complete.
    #[error("{post}: a hidden piece; this needs a full-information position")]
    Hidden {
        /// Where.
        post: Post,
    },
    /// The side to move is not `r` or `b`.
    #[error("side to move must be 'r' or 'b', found '{found}'")]
    Side {
        /// What was written.
        found: String,
    },
    /// A count that is not a number.
    #[error("field {field} must be a number below 100000, found '{found}'")]
    Number {
        /// 3 (quiet plies) or 4 (move number).
        field: usize,
        /// What was written.
        found: String,
    },
}

/// A move text that does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// Not two posts.
    #[error("'{text}' is not a move: expected two posts such as c4c6 or a12a11")]
    Syntax {
        /// The text (cut short).
        text: String,
    },
}

/// Parses a post name `a1` … `e12`.
pub fn parse_post(s: &str) -> Option<Post> {
    let mut chars = s.chars();
    let file = chars.next()?;
    if !('a'..='e').contains(&file) {
        return None;
    }
    let rank = chars.as_str();
    if rank.is_empty() || rank.len() > 2 || rank.starts_with('0') {
        return None;
    }
    let rank: u8 = rank.parse().ok()?;
    Post::at(file as u8 - b'a', rank)
}

/// Parses a move `c4c6`.
pub fn parse_move(s: &str) -> Result<Move, MoveError> {
    let bad = || MoveError::Syntax {
        text: s.chars().take(16).collect(),
    };
    if s.len() < 4 || s.len() > 6 || !s.is_ascii() {
        return Err(bad());
    }
    // The second post starts at the second letter.
    let split = s[1..]
        .find(|c: char| c.is_ascii_lowercase())
        .ok_or_else(bad)?
        + 1;
    let from = parse_post(&s[..split]).ok_or_else(bad)?;
    let to = parse_post(&s[split..]).ok_or_else(bad)?;
    Ok(Move { from, to })
}

fn number(field: usize, s: &str) -> Result<u32, PositionError> {
    match s.parse::<u32>() {
        Ok(n) if n < 100_000 && !s.starts_with('+') => Ok(n),
        _ => Err(PositionError::Number {
            field,
            found: s.chars().take(16).collect(),
        }),
    }
}

impl Position {
    /// Parses a full-information position (Q13).
    pub fn from_text(text: &str) -> Result<Position, PositionError> {
        if text.len() > MAX_POSITION_LEN {
            return Err(PositionError::TooLong);
        }
        let fields: Vec<&str> = text.split(' ').collect();
        if fields.len() != 4 {
            return Err(PositionError::Fields {
                found: fields.len(),
            });
        }
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != usize::from(RANKS) {
            return Err(PositionError::Ranks { found: ranks.len() });
        }
        let mut board = [None; POSTS];
        for (k, row) in ranks.iter().enumerate() {
            let rank = RANKS - k as u8;
            let chars: Vec<char> = row.chars().collect();
            if chars.len() != usize::from(FILES) {
                return Err(PositionError::RankLength {
                    rank,
                    found: chars.len(),
                });
            }
            for (file, &ch) in chars.iter().enumerate() {
                let post = Post::at(file as u8, rank).unwrap_or_else(|| unreachable!("5 files"));
                if ch == '.' {
                    continue;
                }
                if ch == 'X' || ch == 'x' {
                    return Err(PositionError::Hidden { post });
                }
                board[post.index()] =
                    Some(Piece::from_letter(ch).ok_or(PositionError::Char { post, ch })?);
            }
        }
        let turn = match fields[1] {
            "r" => Side::Red,
            "b" => Side::Blue,
            other => {
                return Err(PositionError::Side {
                    found: other.chars().take(8).collect(),
                });
            }
        };
        let quiet = number(3, fields[2])?;
        let move_number = number(4, fields[3])?;
        Ok(Position::from_parts(board, turn, quiet, move_number))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn q13_posts_and_moves() {
        assert_eq!(parse_post("a1").map(|p| p.to_string()), Some("a1".into()));
        assert_eq!(parse_post("e12").map(|p| p.index()), Some(59));
        for bad in ["", "f1", "a0", "a13", "a01", "A1", "a", "a1x"] {
            assert_eq!(parse_post(bad), None, "{bad}");
        }
        let m = parse_move("a12a11").expect("a move");
        assert_eq!(m.to_string(), "a12a11");
        assert_eq!(parse_move("c4c6").map(|m| m.to_string()), Ok("c4c6".into()));
        for bad in ["", "c4", "c4c", "c4c66", "c4 c6", "叉叉", "c4c6c8"] {
            assert!(parse_move(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn q13_position_text_round_trips() {
        let p = Position::standard();
        let text = p.to_string();
        assert_eq!(Position::from_text(&text), Ok(p));
        assert!(text.ends_with(" r 0 1"), "{text}");
        assert!(matches!(
            Position::from_text("x"),
            Err(PositionError::Fields { found: 1 })
        ));
        let hidden = text.replacen('C', "X", 1);
        assert!(matches!(
            Position::from_text(&hidden),
            Err(PositionError::Hidden { .. })
        ));
    }
}
