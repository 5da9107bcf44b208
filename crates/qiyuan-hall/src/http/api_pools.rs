//! HTTP handlers for finding, starting and leaving a game (issue 36): the
//! pairing pools ([`crate::domain::pools`]), withdrawing a waiting room or
//! declining a challenge, aborting and claiming against a player who left
//! ([`crate::domain::opening`]), and the user's event stream
//! ([`crate::domain::user_events`]).

use std::net::SocketAddr;

use axum::body::Bytes;
use axum::extract::{ConnectInfo, Path, State};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::hall::HallError;
use crate::domain::pools::PoolView;
use crate::domain::state_view::GameStateView;
use crate::domain::user_events::{UserEvent, topic};
use crate::http::api::AppState;
use crate::http::api_bodies::Done;
use crate::http::auth::SignedIn;
use crate::http::responses::{
    BadRequest, Conflict, Forbidden, NotFound, TooManyRequests, Unauthorized,
};

/// `GET /api/pools`.
#[derive(Serialize, ToSchema)]
pub struct PoolList {
    /// Every pool of every kind, in the registry's order.
    pools: Vec<PoolView>,
    /// The pool the caller waits in, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    waiting_in: Option<String>,
}

/// `GET /api/pools`.
#[utoipa::path(
    get, path = "/api/pools", operation_id = "list_pools",
    summary = "The pairing pools: each pool's id, game, seats, clock, and the players waiting and playing",
    description = "A pool is one variant at one time control, declared by its kind. Players who join a pool are paired every ~2 s, closest ratings first, with a rating window that widens with waiting time; tables of more than two seats are filled at once. Registered players play rated games among themselves, guests casual ones. The lobby socket pushes `{\"t\":\"pools\",\"pools\":[…]}` when the counts change.",
    responses((status = 200, description = "the pools", body = PoolList), (status = 429, response = TooManyRequests)),
    security((), ("bearer" = []), ("cookie" = []))
)]
pub async fn list(
    State(hall): State<AppState>,
    crate::http::auth::MaybeSignedIn(user): crate::http::auth::MaybeSignedIn,
) -> Response {
    axum::Json(PoolList {
        pools: hall.pools.list(),
        waiting_in: user.and_then(|u| hall.pools.waiting_in(u.id)),
    })
    .into_response()
}

/// `POST /api/pools/{id}/join`.
#[utoipa::path(
    post, path = "/api/pools/{id}/join", operation_id = "join_pool",
    summary = "Wait in a pool to be paired (leaving any other pool)",
    description = "For a person's session: the player waits until paired, then every page and event stream of theirs gets `gameStart`. The player leaves the pool when paired, with `DELETE`, when their last lobby socket closes, or when none of their sockets has been open for 5 s. 404 `not_found` for an unknown pool.",
    params(("id" = String, Path, description = "the pool's id: the variant, then minutes + seconds, e.g. <variant>-5+3")),
    responses(
        (status = 200, description = "the pool with its counts", body = PoolView),
        (status = 401, response = Unauthorized),
        (status = 404, response = NotFound),
        (status = 429, response = TooManyRequests),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn join(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    SignedIn(user): SignedIn,
) -> Result<Response, HallError> {
    Ok(axum::Json(hall.join_pool(&user, &id).await?).into_response())
}

/// `DELETE /api/pools/{id}/join`.
#[utoipa::path(
    delete, path = "/api/pools/{id}/join", operation_id = "leave_pool",
    summary = "Leave a pool",
    params(("id" = String, Path, description = "the pool's id")),
    responses(
        (status = 200, description = "the pool with its counts", body = PoolView),
        (status = 401, response = Unauthorized),
        (status = 404, response = NotFound),
        (status = 429, response = TooManyRequests),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn leave(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    SignedIn(user): SignedIn,
) -> Result<Response, HallError> {
    Ok(axum::Json(hall.leave_pool(&user, &id)?).into_response())
}

/// `POST /api/games/{id}/cancel`.
#[utoipa::path(
    post, path = "/api/games/{id}/cancel", operation_id = "cancel_game",
    summary = "Cancel one's waiting room or challenge",
    description = "The creator withdraws a room nobody has joined yet; it leaves the lobby and is gone. A challenge in it disappears on both sides (`challengeCanceled`). 409 `not_waiting` once the game started.",
    params(("id" = String, Path, description = "the game's id")),
    responses(
        (status = 200, description = "withdrawn", body = Done),
        (status = 401, response = Unauthorized),
        (status = 403, response = Forbidden),
        (status = 404, response = NotFound),
        (status = 409, response = Conflict),
        (status = 429, response = TooManyRequests),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn cancel(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    SignedIn(user): SignedIn,
) -> Result<Response, HallError> {
    withdraw(&hall, &id, &user, true).await
}

/// `POST /api/games/{id}/decline`.
#[utoipa::path(
    post, path = "/api/games/{id}/decline", operation_id = "decline_challenge",
    summary = "Decline a challenge addressed to one",
    description = "The room is withdrawn and the challenge disappears on both sides (`challengeDeclined`). 403 `not_a_player` for anyone but the challenged user; 409 `not_waiting` once the game started.",
    params(("id" = String, Path, description = "the game's id")),
    responses(
        (status = 200, description = "declined", body = Done),
        (status = 401, response = Unauthorized),
        (status = 403, response = Forbidden),
        (status = 404, response = NotFound),
        (status = 409, response = Conflict),
        (status = 429, response = TooManyRequests),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn decline(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    SignedIn(user): SignedIn,
) -> Result<Response, HallError> {
    withdraw(&hall, &id, &user, false).await
}

/// Cancel (the creator) or decline (the challenged user): the same
/// withdrawal, each refused to the other side.
async fn withdraw(
    hall: &AppState,
    id: &str,
    user: &crate::store::User,
    by_creator: bool,
) -> Result<Response, HallError> {
    let seated = hall.seat_in(id, user).await?.is_some();
    if seated != by_creator {
        return Err(crate::domain::hall::not_a_player());
    }
    hall.withdraw(id, user).await?;
    Ok(axum::Json(Done { ok: true }).into_response())
}

/// `GET /api/stream/event`.
#[utoipa::path(
    get, path = "/api/stream/event", operation_id = "user_event_stream",
    summary = "NDJSON: the caller's events (games starting and ending, challenges)",
    description = "First a `gameStart` line for each game the caller plays now and a `challenge` line for each challenge to them, then one line per event as it happens: `gameStart` (pool pairing, accepted challenge, event round, rematch), `gameFinish`, `challenge`, `challengeCanceled`, `challengeDeclined`. An idle stream sends an empty line every 15 s. The lobby socket relays the same events. Counts as one of the caller's open sockets.",
    responses(
        (status = 200, description = "NDJSON, one UserEvent per line", body = UserEvent, content_type = "application/x-ndjson"),
        (status = 401, response = Unauthorized),
        (status = 429, response = TooManyRequests),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn event_stream(
    State(hall): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    SignedIn(user): SignedIn,
) -> Result<Response, HallError> {
    let slot = hall.sockets.admit(peer.ip(), Some(user.id), &hall.limits)?;
    // Subscribe before reading what is pending so nothing falls in between.
    let rx = hall.bus.subscribe(&topic(user.id));
    let first = hall.pending_events(&user).await?;
    let first = first
        .iter()
        .filter_map(|e| serde_json::to_value(e).ok())
        .collect();
    Ok(crate::http::stream::ndjson(
        first,
        rx,
        hall.shutdown.clone(),
        |_| false,
        None,
        slot,
        (),
    ))
}

/// `POST /api/games/{id}/abort`.
#[utoipa::path(
    post, path = "/api/games/{id}/abort", operation_id = "abort_game",
    summary = "Abort a game before both sides have moved",
    description = "Either player, while not both sides have made their first move. The game ends with reason `aborted` and result `aborted`: unrated, no points settled. A side that lets its first-move time pass (30 s, or the clock's base or per-move time if shorter; `first_move_ms` in the state) aborts the game by itself. 409 `cannot_abort` once both have moved and in event games (the state's `abortable` says).",
    params(("id" = String, Path, description = "the game's id")),
    responses(
        (status = 200, description = "the game state", body = GameStateView),
        (status = 401, response = Unauthorized),
        (status = 403, response = Forbidden),
        (status = 404, response = NotFound),
        (status = 409, response = Conflict),
        (status = 429, response = TooManyRequests),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn abort(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    SignedIn(user): SignedIn,
) -> Result<Response, HallError> {
    Ok(axum::Json(hall.abort(&id, &user).await?).into_response())
}

/// Optional `{"draw": true}`.
#[derive(Deserialize, Default, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ClaimVictoryBody {
    /// Claim a draw instead of the win.
    #[serde(default)]
    draw: bool,
}

/// `POST /api/games/{id}/claim-victory`.
#[utoipa::path(
    post, path = "/api/games/{id}/claim-victory", operation_id = "claim_victory",
    summary = "Claim the win (or a draw) against an opponent who left during their turn",
    description = "Two-seat games: when the opponent is to move and none of their sockets has been open for 30 s (a sixth of the base time in fast games, at least 10 s), the player may end the game: the win (reason `abandoned`, rated as any win) or, with {\"draw\": true}, a draw. The player's own state (`GET /api/games/{id}`) says `claim_victory_in_ms` while the opponent is away. 409 `opponent_present` before that.",
    params(("id" = String, Path, description = "the game's id")),
    request_body(content = Option<ClaimVictoryBody>, description = "optional"),
    responses(
        (status = 200, description = "the game state", body = GameStateView),
        (status = 400, response = BadRequest),
        (status = 401, response = Unauthorized),
        (status = 403, response = Forbidden),
        (status = 404, response = NotFound),
        (status = 409, response = Conflict),
        (status = 429, response = TooManyRequests),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn claim_victory(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    SignedIn(user): SignedIn,
    body: Bytes,
) -> Result<Response, HallError> {
    let body: ClaimVictoryBody = crate::http::api_play::optional_body(&body)?;
    Ok(axum::Json(hall.claim_victory(&id, &user, body.draw).await?).into_response())
}
