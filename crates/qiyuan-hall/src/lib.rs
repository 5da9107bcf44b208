//! 棋苑 Qiyuan hall: the server that lets people play the registered games
//! against each other and the AI, over a web page, WebSocket and an HTTP API.
//!
//! The hall is in layers, each a folder, each naming only those beneath it
//! (`tests/it/layers.rs` checks):
//!
//! - the root: [`error`] (the error codes), [`limits`], [`clock`],
//!   [`metrics`], [`client`] (a small HTTP/WebSocket client);
//! - [`store`]: storage traits by kind of data, one SQL source, SQLite and
//!   PostgreSQL beneath;
//! - [`domain`]: live games, one task per game running typed commands,
//!   turns, clocks, takebacks, chat, the finisher, views per audience;
//! - [`tournaments`]: events, team events, ratings;
//! - [`cluster`]: leases, forwarding to a game's node, the Redis bus;
//! - [`http`]: handlers, bodies, socket frames, the OpenAPI document, auth,
//!   the page, the accept loop;
//! - [`cli`] and [`loadtest`] on top.

pub mod cli;
pub mod client;
pub mod clock;
pub mod cluster;
pub mod domain;
pub mod error;
pub mod http;
pub mod limits;
pub mod loadtest;
pub mod loadtest_lobby;
pub mod loadtest_pools;
pub mod metrics;
pub mod store;
pub mod tournaments;

// What other crates use, under the names they have always used.
pub use cluster::{lease, redis_bus};
pub use domain::{bus, game_log, registry};
pub use http::{openapi, presets, server, wait};
pub use loadtest::{LoadtestArgs, loadtest};
pub use server::{Config, serve};
