//! The error answers the OpenAPI document names, one per status: each is
//! the Error body (`crate::error::ErrorBody`) with a description. Apart from
//! `openapi.rs` so handlers and the document do not import each other.

// Never built: each type is read only by utoipa's derive, for its schema.
#![allow(dead_code)]

use utoipa::ToResponse;

use crate::error::ErrorBody;

/// 400.
#[derive(ToResponse)]
#[response(
    description = "bad request: malformed JSON, unknown fields, a bad path or query, a value out of range or against the rules"
)]
pub struct BadRequest(pub ErrorBody);

/// 401.
#[derive(ToResponse)]
#[response(description = "no valid session: log in first")]
pub struct Unauthorized(pub ErrorBody);

/// 403.
#[derive(ToResponse)]
#[response(
    description = "not allowed (not a player here, a guest where only registered users may act, not the organiser)"
)]
pub struct Forbidden(pub ErrorBody);

/// 404.
#[derive(ToResponse)]
#[response(description = "no such game, event, user or game family")]
pub struct NotFound(pub ErrorBody);

/// 409.
#[derive(ToResponse)]
#[response(
    description = "the request conflicts with the current state (taken name, not your turn, game over, ...)"
)]
pub struct Conflict(pub ErrorBody);

/// 413.
#[derive(ToResponse)]
#[response(description = "the body is over 16 KiB")]
pub struct PayloadTooLarge(pub ErrorBody);

/// 413 of `POST /api/import`, whose own limit is 1 MiB.
#[derive(ToResponse)]
#[response(description = "the file is over 1 MiB")]
pub struct ImportTooLarge(pub ErrorBody);

/// 429.
#[derive(ToResponse)]
#[response(
    description = "rate limited: too many requests from this address (or a login throttle, or the AI budget)"
)]
pub struct TooManyRequests(pub ErrorBody);

/// 503.
#[derive(ToResponse)]
#[response(description = "busy: too many password checks queued (code busy); try again shortly")]
pub struct Busy(pub ErrorBody);
