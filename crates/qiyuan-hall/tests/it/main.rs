//! The integration tests of `qiyuan-hall`, one module per area, in one binary:
//! one link instead of one per file keeps `cargo test` builds short.

mod cluster_bus;
mod layers;
mod store_contract;
