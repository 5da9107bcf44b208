//! 军棋 Junqi (land battle chess) for Qiyuan: the rules of
//! `shared/rules/junqi.md` (Q1-Q13): the board graph, pieces and set-ups,
//! moves, combat, what each side may know, the end of the game, and the
//! position, move and set-up text.
//!
//! The crate is pure: no I/O, no clock, no randomness.
//!
//! Modules: [`board`] (posts, camps, headquarters, roads, railway lines),
//! [`graph`] (the same board for N armies, two or the four of
//! `shared/rules/siguo.md` S3-S6, as data), [`siguo`] (four-army Junqi
//! S1-S15: teams, moves on the graph, armies out, the S15 text),
//! [`piece`] (ranks, letters, the clash of Q8), [`setup`] (set-up text and
//! the Q3/Q4 checks), [`position`] (full-information positions, legal
//! moves, making them), [`text`] (parsing), [`game`] (Q9 knowledge, Q11
//! end), [`perft`], [`cli`].
//!
//! # Choices where the rules file is silent
//!
//! - **Q5** A piece in a headquarters never moves, whether it entered it or
//!   was set up there (as in the common game).
//! - **Q6** A railway step of one post is also a road step; a move is listed
//!   once whichever way it is made. The engineer's path may not pass a
//!   piece of either side; it may end by attacking the first enemy piece it
//!   meets on any railway post next to its path.
//! - **Q9** Spectators of a hidden game see no ranks (each side hides its
//!   own) but the flag of a side whose 司令 was removed, which everyone
//!   sees; once the game is over every rank is shown.
//! - **Q10** In the flip game a face-down piece neither moves nor can be
//!   attacked (as in Banqi); turning one over (`c4c4`) is a move and resets
//!   the quiet-ply count like a clash; the first piece turned gives the
//!   flipper its colour; mines and the flag may lie anywhere, and a face-down
//!   piece reads `?` (its colour is unknown too, so not `X`/`x`).
//! - **Q11** Red moves first. The move number rises after each blue move.
//! - **Q13** A set-up's letters may be written in either case; the side is
//!   given apart.

pub mod ai;
pub mod belief;
pub mod board;
pub mod cli;
pub mod game;
pub mod graph;
pub mod perft;
pub mod piece;
pub mod plan;
pub mod position;
pub mod setup;
pub mod siguo;
#[cfg(feature = "table")]
pub mod table;
pub mod text;

pub use board::{Post, Side};
pub use game::{Game, GameResult, Visibility};
pub use piece::{Clash, Piece, Rank};
pub use position::{Move, Position, Rules};
pub use setup::{Setup, SetupError};
