//! The integration tests of `qiyuan-banqi`, one module per area, in one binary:
//! one link instead of one per file keeps `cargo test` builds short.

mod ai;
mod cli;
mod decisions;
mod views;
