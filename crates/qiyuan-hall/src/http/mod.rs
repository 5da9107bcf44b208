//! HTTP and WebSocket: handlers, bodies, the OpenAPI document, auth, the page, the accept loop.

pub(crate) mod api;
pub(crate) mod api_account;
pub(crate) mod api_bodies;
pub(crate) mod api_events;
pub(crate) mod api_import;
pub(crate) mod api_play;
pub(crate) mod api_pools;
pub(crate) mod api_puzzles;
pub(crate) mod api_tv;
pub(crate) mod auth;
pub(crate) mod frames;
pub mod openapi;
pub(crate) mod openapi_types;
pub mod presets;
pub(crate) mod responses;
pub(crate) mod same_site;
pub mod server;
pub(crate) mod stream;
pub mod wait;
pub(crate) mod web;
pub(crate) mod ws;
