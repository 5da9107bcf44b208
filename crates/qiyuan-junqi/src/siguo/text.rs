//! The text of S14 and S15: moves (`g2g16`) and positions
//! (`sFh1,sMg1,… s - 0 1`).

use std::fmt;

use super::position::{Move, Position};
use super::{Unit, team_of};
use crate::graph::{BoardGraph, PostId};
use crate::piece::Rank;

/// The longest position text read (129 tokens of six characters and the
/// rest), checked before anything is split.
pub const MAX_POSITION_LEN: usize = 1024;

/// Why a position text is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionTextError {
    /// Longer than [`MAX_POSITION_LEN`].
    #[error("a position is at most {MAX_POSITION_LEN} characters")]
    TooLong,
    /// Not five fields.
    #[error("expected 5 fields (pieces, army to move, armies out, quiet plies, move number)")]
    Fields,
    /// A piece token that is not army + piece letter + post.
    #[error("piece {index} ('{token}'): {why}")]
    Piece {
        /// 1-based place among the tokens.
        index: usize,
        /// The token (cut to 16 characters).
        token: String,
        /// What is wrong.
        why: &'static str,
    },
    /// Two pieces on one post.
    #[error("two pieces on {post}")]
    Twice {
        /// The post.
        post: String,
    },
    /// More pieces of a rank than an army has (Q3).
    #[error("army {army} has more than {max} of '{letter}'")]
    Count {
        /// The army's letter.
        army: char,
        /// The rank's letter.
        letter: char,
        /// How many it has at most.
        max: u8,
    },
    /// The army to move is not an army of the board, or is out while the
    /// game goes on.
    #[error("the army to move must be one of {known} and not out")]
    Turn {
        /// The armies' letters.
        known: String,
    },
    /// The armies out are not letters of the board in order, or `-`.
    #[error("the armies out are '-' or letters of {known} in that order")]
    Out {
        /// The armies' letters.
        known: String,
    },
    /// A piece of an army that is out.
    #[error("army {army} is out but has a piece on the board")]
    OutArmyOnBoard {
        /// The army's letter.
        army: char,
    },
    /// The quiet plies or move number are not numbers in range.
    #[error("{0} must be a number (the move number from 1)")]
    Number(&'static str),
}

/// Why a move text is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveTextError {
    /// Not two posts of the board.
    #[error("'{0}' is not two posts of the board (e.g. g2g16)")]
    Syntax(String),
}

/// The army with this letter on `graph`.
fn army_of(graph: &BoardGraph, c: char) -> Option<u8> {
    (0..graph.armies() as u8).find(|&a| graph.army_letter(a) == Some(c))
}

fn letters(graph: &BoardGraph) -> String {
    (0..graph.armies() as u8)
        .filter_map(|a| graph.army_letter(a))
        .collect()
}

/// Parses a move of S14 on `graph`: two posts, from then to.
pub fn parse_move(graph: &BoardGraph, text: &str) -> Result<Move, MoveTextError> {
    let bad = || MoveTextError::Syntax(text.chars().take(16).collect());
    if text.len() > 8 || !text.is_ascii() {
        return Err(bad());
    }
    // The second post starts at the second letter.
    let split = text
        .char_indices()
        .skip(1)
        .find(|(_, c)| c.is_ascii_lowercase())
        .map(|(i, _)| i)
        .ok_or_else(bad)?;
    let from = graph.parse(&text[..split]).ok_or_else(bad)?;
    let to = graph.parse(&text[split..]).ok_or_else(bad)?;
    Ok(Move { from, to })
}

impl Position {
    /// Parses a full-information position of S15 on `graph` (every rank
    /// known: `X` is refused).
    pub fn from_text(
        graph: &'static BoardGraph,
        text: &str,
    ) -> Result<Position, PositionTextError> {
        if text.len() > MAX_POSITION_LEN {
            return Err(PositionTextError::TooLong);
        }
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [pieces, turn, out, quiet, number] = fields[..] else {
            return Err(PositionTextError::Fields);
        };
        let known = letters(graph);
        let mut board: Vec<Option<Unit>> = vec![None; graph.len()];
        let mut counts = vec![[0u8; 12]; graph.armies()];
        if pieces != "-" {
            for (i, token) in pieces.split(',').enumerate() {
                let bad = |why| PositionTextError::Piece {
                    index: i + 1,
                    token: token.chars().take(16).collect(),
                    why,
                };
                let mut chars = token.chars();
                let army = chars
                    .next()
                    .and_then(|c| army_of(graph, c))
                    .ok_or_else(|| bad("the first letter is not an army of the board"))?;
                let letter = chars.next().ok_or_else(|| bad("no piece letter"))?;
                if letter == 'X' {
                    return Err(bad("a rank must be known (X is for views)"));
                }
                let rank = Rank::from_letter(letter)
                    .filter(|_| letter.is_ascii_uppercase())
                    .ok_or_else(|| bad("not a piece letter (S J D L T Y C P G M Z F)"))?;
                let post = graph
                    .parse(chars.as_str())
                    .ok_or_else(|| bad("not a post of the board"))?;
                if board[post.index()].is_some() {
                    return Err(PositionTextError::Twice {
                        post: graph.name(post).to_string(),
                    });
                }
                let n = &mut counts[army as usize][rank as usize];
                *n += 1;
                if *n > rank.count() {
                    return Err(PositionTextError::Count {
                        army: graph.army_letter(army).unwrap_or('?'),
                        letter: rank.letter(),
                        max: rank.count(),
                    });
                }
                board[post.index()] = Some(Unit { army, rank });
            }
        }
        let mut out_bits = 0u8;
        if out != "-" {
            let mut last = None;
            for c in out.chars() {
                let a = army_of(graph, c).ok_or(PositionTextError::Out {
                    known: known.clone(),
                })?;
                if last.is_some_and(|l| l >= a) {
                    return Err(PositionTextError::Out { known });
                }
                last = Some(a);
                out_bits |= 1 << a;
            }
        }
        // Once both armies of a team are out the game is over, and the
        // army last named to move may be one that went out.
        let over = (0..2u8).any(|team| {
            (0..graph.armies() as u8)
                .filter(|&a| team_of(a) == team)
                .all(|a| out_bits & (1 << a) != 0)
        });
        let mut turn_chars = turn.chars();
        let turn = match (
            turn_chars.next().and_then(|c| army_of(graph, c)),
            turn_chars.next(),
        ) {
            (Some(a), None) if over || out_bits & (1 << a) == 0 => a,
            _ => return Err(PositionTextError::Turn { known }),
        };
        if let Some(u) = board
            .iter()
            .flatten()
            .find(|u| out_bits & (1 << u.army) != 0)
        {
            return Err(PositionTextError::OutArmyOnBoard {
                army: graph.army_letter(u.army).unwrap_or('?'),
            });
        }
        let parse_number = |s: &str, what| {
            if s.len() > 9 || s.starts_with('+') {
                return Err(PositionTextError::Number(what));
            }
            s.parse::<u32>()
                .map_err(|_| PositionTextError::Number(what))
        };
        let quiet = parse_number(quiet, "the quiet plies")?;
        let move_number = parse_number(number, "the move number")?;
        if move_number == 0 {
            return Err(PositionTextError::Number("the move number"));
        }
        Ok(Position::from_parts(
            graph,
            board,
            turn,
            out_bits,
            quiet,
            move_number,
        ))
    }

    /// The S15 text as a viewer sees it: pieces whose rank `shows(post,
    /// unit)` refuses are written with `X`.
    pub fn text_for(&self, shows: impl Fn(PostId, Unit) -> bool) -> String {
        let g = self.graph();
        let mut pieces = String::with_capacity(6 * 100);
        for p in g.posts() {
            if let Some(u) = self.at(p) {
                if !pieces.is_empty() {
                    pieces.push(',');
                }
                pieces.push(g.army_letter(u.army).unwrap_or('?'));
                pieces.push(if shows(p, u) { u.rank.letter() } else { 'X' });
                pieces.push_str(g.name(p));
            }
        }
        if pieces.is_empty() {
            pieces.push('-');
        }
        let out: String = (0..g.armies() as u8)
            .filter(|&a| self.is_out(a))
            .filter_map(|a| g.army_letter(a))
            .collect();
        format!(
            "{pieces} {} {} {} {}",
            g.army_letter(self.turn()).unwrap_or('?'),
            if out.is_empty() { "-" } else { &out },
            self.quiet_plies(),
            self.move_number()
        )
    }

    /// The move as S14 writes it on this board.
    pub fn move_text(&self, m: Move) -> String {
        format!("{}{}", self.graph().name(m.from), self.graph().name(m.to))
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text_for(|_, _| true))
    }
}
