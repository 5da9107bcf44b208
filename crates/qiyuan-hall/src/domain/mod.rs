//! The game domain: live games, one task per game, turns, clocks, takebacks, chat, the finisher, views per audience. No axum, no sqlx.

pub(crate) mod actor;
pub(crate) mod ai;
pub(crate) mod ai_moves;
pub mod bus;
pub(crate) mod chat;
pub(crate) mod command;
pub(crate) mod create;
pub mod extensions;
pub(crate) mod finisher;
pub(crate) mod fouls;
pub mod game_log;
pub mod hall;
pub(crate) mod login;
pub(crate) mod my_games;
pub(crate) mod ownership;
pub mod pairing;
pub(crate) mod points;
pub mod pools;
pub(crate) mod presence;
pub mod registry;
pub(crate) mod sockets;
pub(crate) mod state_view;
pub(crate) mod takeback;
pub(crate) mod turn;
pub mod user_events;
pub(crate) mod view;
