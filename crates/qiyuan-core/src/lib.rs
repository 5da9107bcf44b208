//! Types shared by every Qiyuan game: how a game ends and the seat-agnostic
//! interface the command line and the hall use to drive any game by text.
//!
//! Rules crates stay pure (no I/O, no clock); they implement [`GameRules`]
//! so that callers never need to know which game they are driving.

use std::fmt;

/// Why a game ended. The one-word form ([`EndReason::as_str`]) is stable: the
/// CLI prints it and the hall stores it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move has no legal move and is not in check (a loss in Xiangqi, X1).
    Stalemate,
    /// A score reached the target (Jifen).
    Points,
    /// One side checked with every move of a repeated cycle.
    PerpetualCheck,
    /// One side chased the same piece with every move of a repeated cycle.
    PerpetualChase,
    /// A repetition where neither side (or both) broke the rules: a draw.
    Repetition,
    /// The natural move limit (claimed or automatic).
    MoveLimit,
    /// Neither side can possibly mate.
    DeadPosition,
    /// A player resigned.
    Resignation,
    /// A player's clock ran out.
    Timeout,
    /// Both players agreed to a draw.
    Agreement,
}

impl EndReason {
    /// The stable one-word name, e.g. `perpetual-check`.
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::Points => "points",
            EndReason::PerpetualCheck => "perpetual-check",
            EndReason::PerpetualChase => "perpetual-chase",
            EndReason::Repetition => "repetition",
            EndReason::MoveLimit => "move-limit",
            EndReason::DeadPosition => "dead-position",
            EndReason::Resignation => "resignation",
            EndReason::Timeout => "timeout",
            EndReason::Agreement => "agreement",
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The result of a finished game: the winning seat (None for a draw) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Seat index of the winner (0 = first player, e.g. red), or `None` for a draw.
    pub winner: Option<usize>,
    /// What ended the game.
    pub reason: EndReason,
    /// A sentence a player understands, in Chinese and English
    /// (e.g. "红方长将, 判负 / red perpetual check: red loses").
    pub explanation: String,
}

/// A move that could not be played, with the reason a player can act on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is not a move in this game's notation.
    #[error("malformed move '{text}': {why}")]
    Malformed {
        /// What was received.
        text: String,
        /// What is wrong with it.
        why: String,
    },
    /// Well-formed, but not legal in the current position.
    #[error("illegal move '{text}': {why}")]
    Illegal {
        /// What was received.
        text: String,
        /// Why it is not legal here.
        why: String,
    },
    /// The game has already ended.
    #[error("the game is over")]
    GameOver,
}

/// Drives any game by text, the way the CLI and the hall do.
///
/// Implementations keep the whole game record (needed for repetition rulings),
/// so one value is one game in progress.
pub trait GameRules {
    /// Number of seats (players) in this game.
    fn seats(&self) -> usize;
    /// The seat whose move it is, or `None` once the game is over.
    fn to_move(&self) -> Option<usize>;
    /// The current position in the game's FEN dialect.
    fn fen(&self) -> String;
    /// Every legal move in the game's move notation.
    fn legal_moves(&self) -> Vec<String>;
    /// Plays one move given in the game's move notation.
    fn play(&mut self, mv: &str) -> Result<(), MoveError>;
    /// How the game ended, if it has.
    fn outcome(&self) -> Option<&Outcome>;
}
