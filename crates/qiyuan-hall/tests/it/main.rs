//! The integration tests of `qiyuan-hall`, one module per area, in one binary:
//! one link instead of one per file keeps `cargo test` builds short. The
//! hall's behaviour is tested here against a small fake game (`fake`).

mod ai_failure;
mod bots;
mod chat;
mod cluster;
mod cluster_bus;
mod common;
mod correspondence;
mod error_details;
mod event_games;
mod events;
mod fake;
mod game_events;
mod game_page;
mod games_api;
mod hardening;
mod hardening_two;
mod layers;
mod lobby_frames;
mod many_seats;
mod my_games;
mod openapi;
mod opening;
mod play;
mod pools;
mod profiles;
mod seeks;
mod slow_clients;
mod store_contract;
mod takeback;
mod team_playoffs;
mod tv;
