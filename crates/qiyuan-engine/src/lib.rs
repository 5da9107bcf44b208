//! The Qiyuan engine for the Xiangqi family (Xiangqi and the three Jifen rule
//! sets): alpha-beta search, a tuned evaluation, NNUE inference, the UCI/UCCI
//! protocols and playing levels for the hall. The match runner, the Texel
//! tuner and the NNUE trainer that produced the weights are in `qiyuan-lab`.
//!
//! The hall calls [`best_move`] directly; GUIs talk to `qiyuan engine`.

pub mod bench;
pub mod cli;
pub mod eval;
#[cfg(feature = "table")]
pub mod kind;
pub mod levels;
pub mod movepick;
pub mod nnue;
pub mod params;
pub mod rep;
pub mod rng;
pub mod search;
pub mod see;
pub mod tactics;
pub mod time;
pub mod tt;
pub mod uci;

pub use levels::Level;
pub use search::{SearchLimits, SearchResult, Searcher};

use std::time::Duration;

use qiyuan_xiangqi::{Game, Move};

/// The move the engine plays at `level` in the game's current position,
/// thinking for at most `budget`. The search sees the game's earlier
/// positions (repetitions and perpetual checks that began before its root),
/// and never plays a move that the rules' full repetition ruling would lose
/// (a perpetual chase or check) while it has another.
///
/// Returns `None` only when the position has no legal move (the game is over).
pub fn best_move(game: &Game, level: Level, budget: Duration) -> Option<Move> {
    let (pos, history) = rep::replay(game.start(), game.moves());
    let excluded = rep::losing_repetitions(game.start(), game.moves());
    let seed = pos.hash() ^ rng::time_seed();
    levels::play(&pos, &history, &excluded, level, budget, seed).best
}
