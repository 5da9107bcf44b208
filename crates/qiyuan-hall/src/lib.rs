//! 棋苑 Qiyuan hall: the server that lets people play the registered games
//! against each other and the AI, over a web page, WebSocket and an HTTP API.
//!
//! Layout: [`server`] (start, router, limits), [`hall`] (game sessions),
//! [`actor`] (one task per game), [`game_log`] (versioned frames),
//! [`api`] (with [`api_account`]) / [`ws`] (transports), [`store`] (storage trait) with
//! [`sqlite_store`],
//! [`bus`] (event fan-out trait + in-process), [`auth`], [`clock`],
//! [`registry`] (the games the binary registered), [`points`] (ledgers), [`ai`], [`metrics`], [`web`],
//! [`client`] and [`loadtest`]; [`ratings`] (Elo, titles), [`events`]
//! (tournaments) with [`api_events`], and [`fouls`] (X8); [`openapi`]: the
//! API's generated OpenAPI document.

pub mod actor;
pub mod ai;
pub mod ai_moves;
pub mod api;
pub mod api_account;
pub mod api_bodies;
pub mod api_events;
pub mod api_play;
pub mod auth;
pub mod bus;
pub mod chat;
pub mod cli;
pub mod client;
pub mod clock;
pub mod command;
pub mod create;
pub mod error;
pub mod events;
pub mod finisher;
pub mod forward;
pub mod fouls;
pub mod frames;
pub mod game_log;
pub mod hall;
pub mod lease;
pub mod limits;
pub mod loadtest;
pub mod login;
pub mod metrics;
pub mod my_games;
pub mod openapi;
pub mod openapi_types;
pub mod points;
pub mod presence;
pub mod presets;
pub mod ratings;
pub mod redis_bus;
pub mod registry;
pub mod same_site;
pub mod server;
pub mod sockets;
pub mod state_view;
pub mod store;
pub mod stream;
pub mod takeback;
pub mod team_events;
pub mod turn;
pub mod view;
pub mod wait;
pub mod web;
pub mod ws;

pub use loadtest::{LoadtestArgs, loadtest};
pub use server::{Config, serve};
