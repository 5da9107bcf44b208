//! 跳棋 Tiaoqi (Chinese checkers) for Qiyuan: the rules of
//! `shared/rules/tiaoqi.md` (T1-T14) for 2, 3, 4 or 6 players, the position
//! and move text of T13, move generation, the end of the game and scores.
//!
//! The crate is pure: no I/O, no clock, no randomness (the [`ai`] draws
//! pseudo-random noise only from a seed it is given).
//!
//! Modules: [`ai`] (evaluation, alpha-beta, Best-Reply and paranoid search,
//! levels 1-8), [`geometry`] (board, cells, camps, seatings), [`position`]
//! (pieces, turn, T7 counters, copy-make), [`movegen`] (steps, jump chains by
//! flood fill, pass), [`text`] (position and move text), [`game`] (T7-T10,
//! T14 judged after every move), [`perft`], [`cli`]. The solo-race prover
//! (fewest moves from camp a to camp d) lives in the `qiyuan-lab` crate.
//!
//! # Choices where the rules file is silent
//!
//! - **T4** The moving piece is lifted for its whole chain: it cannot be
//!   jumped over, and its start hole counts as visited.
//! - **T6** A pass is a move of the player for T7 and T9: it breaks a
//!   repetition pattern (the piece then stood two moves ago where it stands)
//!   and counts towards the T9 rounds and the five moves.
//! - **T7** Repetitions are counted per player over the whole game; with
//!   three used, only the one move that undoes the player's last move is
//!   forbidden. The position text carries no history, so a parsed position
//!   starts with none.
//! - **T8** The target must also hold at least one own piece, or every seat
//!   would "win" at the start with the opposite camp still full.
//! - **T9** Rows still to go are counted across the seat's direction of
//!   travel up to the far tip of the target (a full 10-piece target is 20).
//!   A player "reduces its total distance" when it reaches a total below its
//!   best so far, so marching back and forth does not reset the count. Ten
//!   full rounds are 10 × (players in play) moves. Once declared, each player
//!   in play has its next five moves to move a rearmost piece (one with the
//!   most rows to go) to a hole with fewer rows to go; a player that does not
//!   has lost (0). The dead game ends as soon as every player has done it or
//!   used its five moves. If only one player did it, it wins (1); otherwise
//!   those who did are ranked by rows to go, the first one to do it counting
//!   half a row less: a lone leader scores 0.75, players tied for the lead
//!   0.5 each, the others 0.25. If a player wins by T8 meanwhile, T8 rules.
//! - **T10** With ranking on, a finished player's pieces stay in its target
//!   and it is out of play; the game ends when one player is left, who ranks
//!   last. Scores stay 1 for the first and 0 for the rest.
//! - **T14** A player who leaves with only one other left in play makes that
//!   one the winner, whatever the start count was.

pub mod ai;
pub mod cli;
pub mod game;
pub mod geometry;
pub mod movegen;
pub mod perft;
pub mod position;
#[cfg(feature = "table")]
pub mod table;
pub mod text;

pub use game::{EndKind, Game, GameResult, PlayError, Score};
pub use geometry::{Bits, CELLS, Cell, Seat, Setup, SetupError};
pub use perft::{divide, perft};
pub use position::{Move, Position};
pub use text::{IllegalMove, MoveInput, MoveTextError, ParseMoveError, PositionError};
