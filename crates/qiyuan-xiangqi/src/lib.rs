//! Rules of the Xiangqi family for Qiyuan: board representation, legal move
//! generation, make/unmake, Zobrist hashing, notation (FEN, ICCS, WXF,
//! Chinese, PGN) and perft.
//!
//! Pure: no I/O, no clock, no async. The search engine and the hall use the
//! same [`Position`] directly.

pub mod ecco;
pub mod fen;
pub mod game;
pub mod iccs;
pub mod notation;
pub mod perft;
pub mod pgn;
pub mod position;
pub mod repetition;
pub mod summary;
#[cfg(feature = "table")]
pub mod table;
pub mod types;
pub mod variant;

pub use fen::{FenError, START_FEN};
pub use game::Game;
pub use position::{MoveList, Position, SetupError, Undo};
pub use types::{Class, Color, Move, Piece, PieceKind, Square};
pub use variant::Variant;
