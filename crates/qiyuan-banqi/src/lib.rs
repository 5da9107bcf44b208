//! 翻翻棋 Banqi (Chinese dark chess) for Qiyuan: the rules of the two presets
//! `banqi` (the hall's default, `shared/rules/banqi.md`) and `banqi-icga`
//! (Computer Olympiad rules), the position format with public and full
//! (server) forms, game points, an AI with levels 1-8, and the CLI commands.
//!
//! The crate is pure: no I/O, no clock, no global random source. Randomness
//! (the layout, the AI's sampling) comes from a generator the caller passes in.

pub mod ai;
pub mod cli;
pub mod game;
pub mod points;
pub mod position;
#[cfg(feature = "table")]
pub mod table;
pub mod types;

pub use game::{Game, GameError, LOST_TURN, Played};
pub use points::{PointsInput, game_points};
pub use position::{Cell, Chase, Effect, FenError, Position};
pub use types::{Colour, Kind, Move, Piece, Preset, Square};
