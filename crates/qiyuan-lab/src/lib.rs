//! 棋苑 Qiyuan's lab: research and measurement code that the product (the
//! hall, the `qiyuan` binary, the game crates) does not run.
//!
//! - Tiaoqi solo race (fewest moves from camp a to camp d, one player
//!   alone): [`solo`] (IDA* and a beam search), [`meet`] (proof by halves,
//!   meeting in the middle), [`layers`] (breadth-first layers on disk, with
//!   `layer_file`), and the bound's projection (`projection`). Results and
//!   runs are in `docs/tiaoqi.md`.
//! - Xiangqi engine: [`matchplay`] (engines over UCI, Elo and SPRT),
//!   [`tune`] (Texel tuning of the evaluation weights), [`nnue_train`]
//!   (self-play data and the NNUE trainer), [`cli`] (their arguments).
//! - 四国军棋: [`siguo`], team matches of the four-army AI (`qiyuan match
//!   --variant siguo`).
//!
//! The `qiyuan-lab` binary runs the engine tools; the solo-race runs and the
//! Tiaoqi AI measurements are this crate's examples.

pub mod cli;
mod layer_file;
pub mod layers;
pub mod matchplay;
pub mod meet;
pub mod nnue_train;
mod projection;
pub mod siguo;
pub mod solo;
pub mod tune;
