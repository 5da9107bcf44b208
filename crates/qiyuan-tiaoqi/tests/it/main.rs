//! The integration tests of `qiyuan-tiaoqi`, one module per area, in one binary:
//! one link instead of one per file keeps `cargo test` builds short.

mod ai;
mod cli;
mod common;
mod decisions;
mod geometry;
mod movegen;
mod text;
