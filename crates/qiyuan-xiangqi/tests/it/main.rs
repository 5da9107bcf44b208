//! The integration tests of `qiyuan-xiangqi`, one module per area, in one binary:
//! one link instead of one per file keeps `cargo test` builds short.

mod captures;
mod jifen_perft;
mod jifen_rules;
mod notation_examples;
mod notation_proptest;
mod notation_roundtrip;
mod perft_suite;
mod pgn_proptest;
mod pgn_roundtrip;
mod repetition_rules;
