//! The integration tests of `qiyuan`, one module per area, in one binary:
//! one link instead of one per file keeps `cargo test` builds short.

mod architecture;
mod banqi_hall;
mod classics;
mod cli;
mod cluster;
mod common;
mod engine_protocol;
mod events_api;
mod game_page_api;
mod hall_api;
mod hardening_two;
mod import_api;
mod import_cli;
mod junqi_cli;
mod junqi_hall;
mod loadtest;
mod pair_cli;
mod presets;
mod puzzles_api;
mod puzzles_from_games;
mod siguo_hall;
mod study_api;
mod swiss_hall;
mod table_contract;
mod takeback;
mod tiaoqi_hall;
mod xiangqi_page;
