//! The integration tests of `qiyuan-junqi`, one module per area, in one binary:
//! one link instead of one per file keeps `cargo test` builds short.

mod belief;
mod decisions;
mod movegen;
