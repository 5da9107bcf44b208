//! The integration tests of `qiyuan-events`, one module per area, in one binary:
//! one link instead of one per file keeps `cargo test` builds short.

mod dutch_bbp;
mod dutch_event;
mod events;
mod swiss;
mod tiebreaks;
mod trf;
