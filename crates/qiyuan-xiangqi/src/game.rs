//! A game in progress: the start position, the moves played, and how it ended.
//!
//! This is what the CLI's `apply` and the hall drive; it owns the record so
//! that rulings that look back over the game (repetition) have what they need.

use qiyuan_core::{EndReason, GameRules, MoveError, Outcome};

use crate::iccs::MoveParseError;
use crate::position::Position;
use crate::types::{Color, Move};

/// A Xiangqi game from a start position.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    position: Position,
    moves: Vec<Move>,
    outcome: Option<Outcome>,
}

impl Game {
    /// A game from `start` (which may already be over, e.g. a checkmate FEN).
    pub fn new(start: Position) -> Game {
        let mut g = Game {
            position: start.clone(),
            start,
            moves: Vec::new(),
            outcome: None,
        };
        g.outcome = g.judge();
        g
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Plays a legal move (from [`Position::legal_moves`]).
    pub fn play_move(&mut self, m: Move) -> Result<(), MoveError> {
        if self.outcome.is_some() {
            return Err(MoveError::GameOver);
        }
        if !self.position.is_legal(m) {
            return Err(MoveError::Illegal {
                text: m.to_string(),
                why: "not a legal move here".into(),
            });
        }
        self.position.make_move(m);
        self.moves.push(m);
        self.outcome = self.judge();
        Ok(())
    }

    /// Decides whether the current position ends the game, in the order of
    /// J17-J20 (plain Xiangqi has no points and no double turns).
    fn judge(&self) -> Option<Outcome> {
        let pos = &self.position;
        // J17: a score at the target wins at once, even for the player who did not move.
        if pos.variant().is_jifen() {
            for c in [Color::Red, Color::Black] {
                let score = pos.scores()[c.index()];
                if score >= pos.target() {
                    return Some(Outcome {
                        winner: Some(c.index()),
                        reason: EndReason::Points,
                        explanation: format!(
                            "{}方积分{}达到目标{}, {}方胜 / {} reached the target score ({score} of {}): {} wins",
                            c.chinese(),
                            score,
                            pos.target(),
                            c.chinese(),
                            c.english(),
                            pos.target(),
                            c.english()
                        ),
                    });
                }
            }
        }
        // J18 / X1: a player who must start a turn with no legal move loses. During
        // the second move of a double turn a pass is always legal.
        if pos.turn_state() == 1 && pos.count_legal_moves() == 0 {
            let loser = pos.side_to_move();
            let winner = loser.flip();
            let (reason, zh, en) = if pos.in_check() {
                (EndReason::Checkmate, "被将死", "is checkmated")
            } else {
                (
                    EndReason::Stalemate,
                    "被困毙",
                    "has no legal move (stalemate)",
                )
            };
            return Some(Outcome {
                winner: Some(winner.index()),
                reason,
                explanation: format!(
                    "{}方{}, {}方胜 / {} {}: {} wins",
                    loser.chinese(),
                    zh,
                    winner.chinese(),
                    loser.english(),
                    en,
                    winner.english()
                ),
            });
        }
        // X4 / J20: 300 plies without capture (Jifen: nor score change) draw automatically.
        if pos.halfmove_clock() >= AUTOMATIC_DRAW_PLIES {
            return Some(Outcome {
                winner: None,
                reason: EndReason::MoveLimit,
                explanation: if pos.variant().is_jifen() {
                    "300着无吃子且无得分, 和棋 / 300 moves without a capture or a score change: draw"
                        .into()
                } else {
                    "300着无吃子, 和棋 / 300 moves without a capture: draw".into()
                },
            });
        }
        None
    }
}

/// Plies without capture (or, in Jifen, score change) after which the game is drawn (X4, J20).
pub const AUTOMATIC_DRAW_PLIES: u32 = 300;

impl GameRules for Game {
    fn seats(&self) -> usize {
        2
    }

    fn to_move(&self) -> Option<usize> {
        self.outcome
            .is_none()
            .then(|| self.position.side_to_move().index())
    }

    fn fen(&self) -> String {
        self.position.to_fen()
    }

    fn legal_moves(&self) -> Vec<String> {
        self.position
            .legal_moves()
            .iter()
            .map(|m| m.to_string())
            .collect()
    }

    fn play(&mut self, text: &str) -> Result<(), MoveError> {
        if self.outcome.is_some() {
            return Err(MoveError::GameOver);
        }
        let m = self.position.parse_move(text).map_err(|e| match e {
            MoveParseError::Malformed { text, why } => MoveError::Malformed { text, why },
            MoveParseError::Illegal { text, why } => MoveError::Illegal { text, why },
        })?;
        self.play_move(m)
    }

    fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }
}

/// Which side a seat index is.
pub fn seat_color(seat: usize) -> Color {
    if seat == 0 { Color::Red } else { Color::Black }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plays_moves_and_tracks_the_position() {
        let mut g = Game::new(Position::startpos());
        g.play("h2e2").unwrap();
        g.play("h9g7").unwrap();
        assert_eq!(
            g.fen(),
            "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"
        );
        assert_eq!(g.moves().len(), 2);
        assert_eq!(g.to_move(), Some(0));
        // An illegal move changes nothing.
        assert!(g.play("e2e9").is_err());
        assert_eq!(g.moves().len(), 2);
    }

    #[test]
    fn stalemate_loses_x1() {
        // Black general on d9, not in check; the e8 chariot covers d8 and e9.
        let g = Game::new(Position::from_fen("3k5/4R4/9/9/9/9/9/9/9/4K4 b").unwrap());
        // d9 king: d8 attacked by chariot e8 (rank), e9 attacked by chariot (file),
        // and the general is not attacked on d9.
        let o = g.outcome().expect("game over");
        assert_eq!(o.reason, EndReason::Stalemate);
        assert_eq!(o.winner, Some(0));
    }

    #[test]
    fn checkmate_is_a_loss() {
        // Two chariots: a9 checks along rank 9, b8 covers rank 8.
        let g = Game::new(Position::from_fen("R3k4/1R7/9/9/9/9/9/9/9/3K5 b").unwrap());
        let o = g.outcome().expect("game over");
        assert_eq!(o.reason, EndReason::Checkmate);
        assert_eq!(o.winner, Some(0));
        assert!(o.explanation.contains("黑方被将死"));
    }

    #[test]
    fn moves_after_the_end_are_refused() {
        let mut g = Game::new(Position::from_fen("R3k4/1R7/9/9/9/9/9/9/9/3K5 b").unwrap());
        assert_eq!(g.play("e9d9"), Err(MoveError::GameOver));
    }
}
