//! A game in progress: the start position, the moves played, and how it ended.
//!
//! This is what the CLI's `apply` and the hall drive; it owns the record so
//! that rulings that look back over the game (repetition) have what they need.

use qiyuan_core::{ClaimRefusal, EndReason, GameRules, MoveError, Outcome};

use crate::iccs::MoveParseError;
use crate::position::Position;
use crate::repetition::{RepetitionHistory, Ruling};
use crate::types::{Color, Move, PieceKind};

/// A Xiangqi game from a start position.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    position: Position,
    moves: Vec<Move>,
    history: RepetitionHistory,
    outcome: Option<Outcome>,
}

impl Game {
    /// A game from `start` (which may already be over, e.g. a checkmate FEN).
    pub fn new(start: Position) -> Game {
        let mut g = Game {
            position: start.clone(),
            history: RepetitionHistory::new(&start),
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
        let before = self.position.clone();
        self.position.make_move(m);
        self.history.push(&before, m, &self.position);
        self.moves.push(m);
        self.outcome = self.judge();
        Ok(())
    }

    /// The repetition classes of the moves played (for display and tests).
    pub fn history(&self) -> &RepetitionHistory {
        &self.history
    }

    /// `color` resigns.
    pub fn resign(&mut self, color: Color) -> Result<(), MoveError> {
        self.end(Outcome {
            winner: Some(color.flip().index()),
            partners: Vec::new(),
            reason: EndReason::Resignation,
            explanation: format!(
                "{}方认输, {}方胜 / {} resigns: {} wins",
                color.chinese(),
                color.flip().chinese(),
                color.english(),
                color.flip().english()
            ),
        })
    }

    /// Both players agreed to a draw (X5: cannot be taken back).
    pub fn agree_draw(&mut self) -> Result<(), MoveError> {
        self.end(Outcome {
            winner: None,
            partners: Vec::new(),
            reason: EndReason::Agreement,
            explanation: "双方同意和棋 / draw by agreement".into(),
        })
    }

    /// `color`'s clock ran out (X6): a loss, or a draw when the opponent has
    /// nothing left to mate with (Xiangqi; in Jifen points can still be scored).
    pub fn time_out(&mut self, color: Color) -> Result<(), MoveError> {
        let opponent = color.flip();
        if !self.position.variant().is_jifen() && !can_mate(&self.position, opponent) {
            return self.end(Outcome {
                winner: None,
                partners: Vec::new(),
                reason: EndReason::Timeout,
                explanation: format!(
                    "{}方超时, 但{}方无子可胜, 和棋 / {} ran out of time but {} cannot mate: draw",
                    color.chinese(),
                    opponent.chinese(),
                    color.english(),
                    opponent.english()
                ),
            });
        }
        self.end(Outcome {
            winner: Some(opponent.index()),
            partners: Vec::new(),
            reason: EndReason::Timeout,
            explanation: format!(
                "{}方超时, {}方胜 / {} ran out of time: {} wins",
                color.chinese(),
                opponent.chinese(),
                color.english(),
                opponent.english()
            ),
        })
    }

    /// Whether a natural-move-limit claim (X4) would be granted now: the
    /// game is in play, it is plain Xiangqi (Jifen has no claim, J20) and
    /// 120 plies have passed without a capture. The page offers the claim
    /// only then, so that no one makes an untrue claim (a foul, X8) by accident.
    pub fn move_limit_claimable(&self) -> bool {
        self.outcome.is_none()
            && !self.position.variant().is_jifen()
            && self.position.halfmove_clock() >= CLAIM_PLIES
    }

    /// A natural-move-limit claim (X4): a draw once 60 moves by each side
    /// (120 plies) passed without a capture. An untrue claim changes nothing
    /// and says why (the hall counts it as a foul, X8).
    pub fn claim_move_limit(&mut self) -> Result<(), ClaimRefusal> {
        if self.outcome.is_some() {
            return Err(ClaimRefusal::GameOver);
        }
        if self.position.variant().is_jifen() {
            // J20: 300 plies without a capture or a score change draw by themselves.
            return Err(ClaimRefusal::NoClaim { rule: Some("J20") });
        }
        let plies = self.position.halfmove_clock();
        if plies < CLAIM_PLIES {
            return Err(ClaimRefusal::TooEarly {
                plies,
                needed: CLAIM_PLIES,
                rule: "X4",
            });
        }
        // Not over (checked above), so the game ends here.
        self.end(Outcome {
            winner: None,
            partners: Vec::new(),
            reason: EndReason::MoveLimit,
            explanation: "60回合无吃子, 判和 / 60 moves each without a capture, draw claimed"
                .into(),
        })
        .map_err(|_| ClaimRefusal::GameOver)
    }

    fn end(&mut self, outcome: Outcome) -> Result<(), MoveError> {
        if self.outcome.is_some() {
            return Err(MoveError::GameOver);
        }
        self.outcome = Some(outcome);
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
                        partners: Vec::new(),
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
                partners: Vec::new(),
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
        // J19 / X3: a position occurring the third time is judged.
        if let Some(Ruling {
            winner,
            reason,
            explanation,
        }) = self.history.ruling()
        {
            return Some(Outcome {
                winner: winner.map(Color::index),
                partners: Vec::new(),
                reason,
                explanation,
            });
        }
        // X4 / J20: 300 plies without capture (Jifen: nor score change) draw automatically.
        if pos.halfmove_clock() >= AUTOMATIC_DRAW_PLIES {
            return Some(Outcome {
                winner: None,
                partners: Vec::new(),
                reason: EndReason::MoveLimit,
                explanation: if pos.variant().is_jifen() {
                    "300着无吃子且无得分, 和棋 / 300 moves without a capture or a score change: draw"
                        .into()
                } else {
                    "300着无吃子, 和棋 / 300 moves without a capture: draw".into()
                },
            });
        }
        // X5: nobody can mate. Not in Jifen, where moves still score points.
        if !pos.variant().is_jifen() && !can_mate(pos, Color::Red) && !can_mate(pos, Color::Black) {
            return Some(Outcome {
                winner: None,
                partners: Vec::new(),
                reason: EndReason::DeadPosition,
                explanation: "双方均无进攻子力, 和棋 / neither side can mate: draw".into(),
            });
        }
        None
    }
}

/// Plies without capture (or, in Jifen, score change) after which the game is drawn (X4, J20).
pub const AUTOMATIC_DRAW_PLIES: u32 = 300;
/// Plies without capture after which a player may claim a draw (X4).
pub const CLAIM_PLIES: u32 = 120;

/// Whether `color` has anything that could ever give mate: a chariot, horse,
/// cannon or pawn. Generals with advisors and elephants alone cannot (X5).
pub fn can_mate(pos: &Position, color: Color) -> bool {
    pos.pieces(color).any(|(_, p)| {
        matches!(
            p.kind(),
            PieceKind::Rook | PieceKind::Horse | PieceKind::Cannon | PieceKind::Pawn
        )
    })
}

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
