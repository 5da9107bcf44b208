//! The integration tests of `qiyuan-engine`, one module per area, in one binary:
//! one link instead of one per file keeps `cargo test` builds short.

mod perpetual;
mod tactics;
