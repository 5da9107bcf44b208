//! The HTTP API (for bots and the page) and its error shape: every failure is
//! a 4xx/5xx with `{"error": "..."}`.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, Path, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use std::net::SocketAddr;
use utoipa::{IntoParams, ToSchema};

use crate::domain::game_log::Audience;
use crate::http::auth::{MaybeSignedIn, SignedIn};

use crate::domain::hall::{Hall, HallError, NewGame};
use crate::domain::state_view::GameStateView;
use crate::error::ErrorCode;
use crate::http::api_bodies::{Created, RematchBody, SeatBody, WaitBody};
use crate::http::auth;
use crate::http::openapi_types::Kinds;
use crate::http::responses::{
    BadRequest, Conflict, Forbidden, NotFound, PayloadTooLarge, TooManyRequests, Unauthorized,
};
use crate::store::User;
use crate::tournaments::ratings::GameRatingsBody;

impl IntoResponse for HallError {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        (status, axum::Json(self.body())).into_response()
    }
}

/// A query string whose rejection is a JSON 400 like every other error.
pub struct QueryArgs<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for QueryArgs<T> {
    type Rejection = HallError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        axum::extract::Query::<T>::try_from_uri(&parts.uri)
            .map(|q| QueryArgs(q.0))
            .map_err(|e| {
                HallError::bad(format!("bad query string: {}", e.body_text()))
                    .with_code(ErrorCode::BadQuery)
            })
    }
}

/// A JSON body whose every rejection (bad syntax, wrong fields, wrong
/// content) is a 400 or 413 with `{"error": ...}`.
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = HallError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = Bytes::from_request(req, state).await.map_err(|e| {
            let status = e.status().as_u16();
            HallError::of_status(status, format!("cannot read the body: {}", e.body_text()))
        })?;
        // serde reads a struct from an array too; a body must be an object.
        if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
            return Err(
                HallError::bad("the body must be a JSON object").with_code(ErrorCode::InvalidBody)
            );
        }
        serde_json::from_slice(&bytes)
            .map(JsonBody)
            .map_err(|e| HallError::of_json(&e))
    }
}

/// Shared state of the handlers.
pub type AppState = Arc<Hall>;

/// The user of a request (bearer token or cookie), if any.
pub async fn current_user(hall: &Hall, headers: &HeaderMap) -> Result<Option<User>, HallError> {
    let Some(token) = auth::token_from_headers(headers) else {
        return Ok(None);
    };
    if token.len() > 128 {
        return Ok(None);
    }
    let user = hall
        .store
        .session_user(&token, ttl_ms(hall))
        .await
        .map_err(HallError::internal)?;
    if let Some(u) = &user {
        hall.presence.seen(u.id);
    }
    Ok(user)
}

/// How long a session lives, in ms.
pub(crate) fn ttl_ms(hall: &Hall) -> i64 {
    i64::try_from(hall.limits.session_ttl.as_millis()).unwrap_or(i64::MAX)
}

/// The signed-in user of a request, or a 401.
pub async fn require_user(hall: &Hall, headers: &HeaderMap) -> Result<User, HallError> {
    current_user(hall, headers)
        .await?
        .ok_or_else(HallError::unauthorized)
}

/// `POST /api/games`.
#[utoipa::path(
    post, path = "/api/games", summary = "Create a game",
    request_body = NewGame,
    responses(
        (status = 201, description = "created", body = Created),
        (status = 400, response = BadRequest),
        (status = 401, response = Unauthorized),
        (status = 403, response = Forbidden),
        (status = 413, response = PayloadTooLarge),
        (status = 429, response = TooManyRequests),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn create_game(
    State(hall): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(req): JsonBody<NewGame>,
) -> Result<Response, HallError> {
    let (id, seat) = hall.create(&user, req).await?;
    Ok((StatusCode::CREATED, axum::Json(Created { id, seat })).into_response())
}

/// `POST /api/games/{id}/join`.
#[utoipa::path(
    post, path = "/api/games/{id}/join", operation_id = "join_game",
    summary = "Take the open seat",
    params(("id" = String, Path, description = "the game's id")),
    responses(
        (status = 200, description = "seat", body = SeatBody),
        (status = 400, response = BadRequest),
        (status = 401, response = Unauthorized),
        (status = 403, response = Forbidden),
        (status = 404, response = NotFound),
        (status = 409, response = Conflict),
        (status = 429, response = TooManyRequests),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn join(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    SignedIn(user): SignedIn,
) -> Result<Response, HallError> {
    let seat = hall.join(&id, &user).await?;
    Ok(axum::Json(SeatBody { seat }).into_response())
}

/// `{"move": "h2e2"}`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveBody {
    /// The move in the game's notation (`GET /api/kinds`), or 0000 to
    /// pass; at most 16 bytes.
    #[serde(rename = "move")]
    #[schema(max_length = 384, example = "h2e2")]
    mv: String,
}

/// `POST /api/games/{id}/moves`.
#[utoipa::path(
    post, path = "/api/games/{id}/moves",
    summary = "Play a move (in the game's notation; 0000 to pass)",
    params(("id" = String, Path, description = "the game's id")),
    request_body = MoveBody,
    responses(
        (status = 200, description = "the game state", body = GameStateView),
        (status = 400, response = BadRequest),
        (status = 401, response = Unauthorized),
        (status = 403, response = Forbidden),
        (status = 404, response = NotFound),
        (status = 409, response = Conflict),
        (status = 413, response = PayloadTooLarge),
        (status = 429, response = TooManyRequests),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn play(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    SignedIn(user): SignedIn,
    JsonBody(body): JsonBody<MoveBody>,
) -> Result<Response, HallError> {
    let state = hall.play(&id, &user, &body.mv, 0, true).await?;
    Ok(axum::Json(state).into_response())
}

/// `GET /api/games/{id}`.
#[utoipa::path(
    get, path = "/api/games/{id}",
    summary = "A game's state (with `seat` and `legal` for its players)",
    params(("id" = String, Path, description = "the game's id")),
    responses(
        (status = 200, description = "the game state", body = GameStateView),
        (status = 400, response = BadRequest),
        (status = 404, response = NotFound),
        (status = 429, response = TooManyRequests),
    )
)]
pub async fn get_game(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    MaybeSignedIn(user): MaybeSignedIn,
) -> Result<Response, HallError> {
    Ok(axum::Json(hall.state(&id, user.as_ref()).await?).into_response())
}

/// `POST /api/games/{id}/resign`.
#[utoipa::path(
    post, path = "/api/games/{id}/resign", summary = "Resign",
    params(("id" = String, Path, description = "the game's id")),
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
pub async fn resign(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    SignedIn(user): SignedIn,
) -> Result<Response, HallError> {
    Ok(axum::Json(hall.resign(&id, &user).await?).into_response())
}

/// Optional `{"action": "offer"|"accept"|"decline"}`.
#[derive(Deserialize, Default, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DrawBody {
    #[serde(default)]
    #[schema(default = "offer")]
    action: Option<crate::domain::command::Answer>,
}

/// `POST /api/games/{id}/draw`: offer, or accept a standing offer.
#[utoipa::path(
    post, path = "/api/games/{id}/draw",
    summary = "Offer a draw, or accept the opponent's offer; body optional {\"action\":\"offer|accept|decline\"}",
    description = "An AI opponent answers an offer at once, by its evaluation: the answer's state is then drawn by agreement (`reason` `agreement`), or has `draw_offer` null and `draw_declined` naming the AI's seat.",
    params(("id" = String, Path, description = "the game's id")),
    request_body(content = Option<DrawBody>, description = "optional; an empty body is an offer"),
    responses(
        (status = 200, description = "the game state", body = GameStateView),
        (status = 400, response = BadRequest),
        (status = 401, response = Unauthorized),
        (status = 403, response = Forbidden),
        (status = 404, response = NotFound),
        (status = 409, response = Conflict),
        (status = 413, response = PayloadTooLarge),
        (status = 429, response = TooManyRequests),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn draw(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    SignedIn(user): SignedIn,
    body: Bytes,
) -> Result<Response, HallError> {
    let body: DrawBody = crate::http::api_play::optional_body(&body)?;
    let action = body.action.unwrap_or_default();
    Ok(axum::Json(hall.draw(&id, &user, action).await?).into_response())
}

/// `POST /api/games/{id}/claim`.
#[utoipa::path(
    post, path = "/api/games/{id}/claim",
    summary = "Claim a draw by the natural move limit of the game",
    description = "A claim that does not hold is a 409 `claim_refused` saying why (and a technical foul, X8).",
    params(("id" = String, Path, description = "the game's id")),
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
pub async fn claim(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    SignedIn(user): SignedIn,
) -> Result<Response, HallError> {
    Ok(axum::Json(hall.claim(&id, &user).await?).into_response())
}

/// `POST /api/games/{id}/rematch`.
#[utoipa::path(
    post, path = "/api/games/{id}/rematch", summary = "Offer or accept a rematch",
    params(("id" = String, Path, description = "the game's id")),
    responses(
        (status = 200, description = "rematch", body = RematchBody),
        (status = 400, response = BadRequest),
        (status = 401, response = Unauthorized),
        (status = 403, response = Forbidden),
        (status = 404, response = NotFound),
        (status = 409, response = Conflict),
        (status = 429, response = TooManyRequests),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn rematch(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    SignedIn(user): SignedIn,
) -> Result<Response, HallError> {
    let new_id = hall.rematch(&id, &user).await?;
    Ok(axum::Json(RematchBody { rematch_id: new_id }).into_response())
}

/// `?notation=NAME` of a record's export.
#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PgnQuery {
    /// The move notation, one the game offers (the game's default when
    /// absent): lower-case letters; a well-formed name the game does not
    /// offer is a 404 (like a kind the hall lacks), anything else a 400.
    #[param(pattern = "^[a-z]{1,32}$")]
    #[serde(default)]
    notation: Option<String>,
}

/// The page of game `id` on this hall, as the request reached it (`Host`,
/// and `X-Forwarded-Proto` behind a TLS proxy): the `Site` of an exported
/// record, so a record downloaded anywhere links back to the game. `None`
/// when the host is missing or not a plain host name.
fn game_link(headers: &HeaderMap, id: &str) -> Option<String> {
    let host = headers.get(header::HOST)?.to_str().ok()?;
    let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']');
    if host.is_empty() || host.len() > 255 || !host.chars().all(plain) {
        return None;
    }
    let https = headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("https"));
    let scheme = if https { "https" } else { "http" };
    Some(format!("{scheme}://{host}/#/game/{id}"))
}

/// `GET /api/games/{id}/pgn`.
#[utoipa::path(
    get, path = "/api/games/{id}/pgn", summary = "The game as PGN",
    description = "The record with `Event`, `Site` (a link to the game's page on this hall), `Date` (the day the game was created, UTC, `YYYY.MM.DD`), the players, the time control and the result. `notation` picks the move notation among those the game offers (the game's own default when absent); a well-formed name the game does not offer is a 404 `not_found` whose message lists the names it offers; a malformed one a 400 `bad_query`.",
    params(("id" = String, Path, description = "the game's id"), PgnQuery),
    responses(
        (status = 200, description = "PGN", body = String, content_type = "application/x-chess-pgn"),
        (status = 400, response = BadRequest),
        (status = 404, response = NotFound),
        (status = 429, response = TooManyRequests),
    )
)]
pub async fn pgn(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    QueryArgs(q): QueryArgs<PgnQuery>,
) -> Result<Response, HallError> {
    let well_formed =
        |n: &str| (1..=32).contains(&n.len()) && n.bytes().all(|b| b.is_ascii_lowercase());
    if let Some(n) = &q.notation
        && !well_formed(n)
    {
        return Err(HallError::bad(format!(
            "notation: 1 to 32 lower-case letters, not '{}'",
            crate::error::shown(n)
        ))
        .with_code(ErrorCode::BadQuery));
    }
    let site = game_link(&headers, &id);
    let text = hall.pgn(&id, q.notation, site).await?;
    let mut r = text.into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/x-chess-pgn; charset=utf-8"),
    );
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"qiyuan-{id}.pgn\"")) {
        r.headers_mut().insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(r)
}

/// `GET /api/games/{id}/stream`: NDJSON, the current state then a diff per
/// change (as on the game's socket: a player's token gets that seat's view
/// with `seat` and `legal`; a reader that fell behind gets the full state
/// again); it ends after the line that says the game is over. An unknown id
/// is a 404 before anything is subscribed.
#[utoipa::path(
    get, path = "/api/games/{id}/stream", operation_id = "game_stream",
    summary = "NDJSON: the state, then one diff line per change; ends after the game is over",
    description = "With a player's token (or cookie) every line is that player's view, with `seat` and `legal`, as on the game's WebSocket; without one, the spectators' view. The seat is the one held when the stream starts. The stream ends after the first line whose `status` is `finished` (a finished game's stream is one line). An idle stream sends an empty line every 15 s. A stream counts as one of the caller's open sockets (429 `too_many_sockets` beyond the caps per address and user, 503 `busy` when the server is full).",
    params(("id" = String, Path, description = "the game's id")),
    responses(
        (status = 200, description = "NDJSON: a GameState line, then diff lines (the same fields, records only from `from`)", body = GameStateView, content_type = "application/x-ndjson"),
        (status = 400, response = BadRequest),
        (status = 404, response = NotFound),
        (status = 429, response = TooManyRequests),
    ),
    security((), ("bearer" = []), ("cookie" = []))
)]
pub async fn stream(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    MaybeSignedIn(user): MaybeSignedIn,
) -> Result<Response, HallError> {
    hall.state(&id, None).await?;
    // A stream holds a place among the open sockets of its address and user.
    let slot = hall
        .sockets
        .admit(peer.ip(), user.as_ref().map(|u| u.id), &hall.limits)?;
    let seat = match &user {
        Some(u) => hall.seat_in(&id, u).await?,
        None => None,
    };
    let audience = seat.map_or(Audience::Spectators, Audience::Seat);
    // A stream of someone not seated watches the game while it lasts.
    let watching = seat.is_none().then(|| hall.watchers.watch(&id));
    // Subscribe before reading the state again so no event falls in between.
    let rx = hall
        .bus
        .subscribe(&crate::domain::view::topic(&id, audience));
    let first =
        serde_json::to_value(hall.state(&id, user.as_ref()).await?).map_err(HallError::internal)?;
    let resync: crate::http::stream::Resync = {
        let (hall, id) = (hall.clone(), id.clone());
        std::sync::Arc::new(move || {
            let (hall, id, user) = (hall.clone(), id.clone(), user.clone());
            Box::pin(async move {
                hall.state(&id, user.as_ref())
                    .await
                    .ok()
                    .and_then(|s| serde_json::to_string(&s).ok())
            })
        })
    };
    Ok(crate::http::stream::ndjson(
        vec![first],
        rx,
        hall.shutdown.clone(),
        |v| v["status"] == "finished",
        Some(resync),
        slot,
        watching,
    ))
}

/// `?timeout_s=N`.
#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct WaitQuery {
    /// How long to wait at most, in seconds: 0 to 60 (default 30).
    #[param(minimum = 0, maximum = 60, default = 30)]
    #[serde(default)]
    timeout_s: Option<i64>,
}

/// `GET /api/games/{id}/wait?timeout_s=N`: long poll for one's turn.
#[utoipa::path(
    get, path = "/api/games/{id}/wait", operation_id = "wait_for_turn",
    summary = "Wait (long poll, at most 60 s) until it is the caller's turn or the game is over",
    description = "An HTTP move is answered before the opponent (an AI seat too) replies, so moving again at once is a 409 `not_your_turn`. Call this after a move: it answers as soon as it is the caller's turn (`your_turn`) or the game is over (`game_over`), at once if that is already so, and otherwise after `timeout_s` with `timed_out` true. `state` is the caller's view, with `seat` and `legal`. A waiting request counts as one of the caller's open sockets (429 `too_many_sockets` beyond the caps).",
    params(("id" = String, Path, description = "the game's id"), WaitQuery),
    responses(
        (status = 200, description = "the caller's state and why the wait ended", body = WaitBody),
        (status = 400, response = BadRequest),
        (status = 401, response = Unauthorized),
        (status = 403, response = Forbidden),
        (status = 404, response = NotFound),
        (status = 429, response = TooManyRequests),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn wait(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    QueryArgs(q): QueryArgs<WaitQuery>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    SignedIn(user): SignedIn,
) -> Result<Response, HallError> {
    use crate::http::wait::{DEFAULT_WAIT_S, MAX_WAIT_S};
    let timeout_s = q.timeout_s.unwrap_or(DEFAULT_WAIT_S);
    crate::limits::check_range("timeout_s", timeout_s, 0, MAX_WAIT_S)?;
    // A waiting request holds a place among the caller's open sockets
    // (per address and per user) until it is answered.
    let _slot = hall.sockets.admit(peer.ip(), Some(user.id), &hall.limits)?;
    let timeout = std::time::Duration::from_secs(timeout_s.unsigned_abs());
    Ok(axum::Json(hall.wait_turn(&id, &user, timeout).await?).into_response())
}

/// `GET /api/games/{id}/ratings`.
#[utoipa::path(
    get, path = "/api/games/{id}/ratings", operation_id = "game_ratings",
    summary = "The rating changes a game made: per rated person, before and after (rounded) and the rank title after",
    params(("id" = String, Path, description = "the game's id")),
    responses(
        (status = 200, description = "whether the room was rated, and the changes by seat", body = GameRatingsBody),
        (status = 400, response = BadRequest),
        (status = 404, response = NotFound),
        (status = 429, response = TooManyRequests),
    )
)]
pub async fn game_ratings(
    State(hall): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, HallError> {
    Ok(axum::Json(crate::tournaments::ratings::game_ratings(&hall, &id).await?).into_response())
}

/// `GET /api/lobby`.
#[utoipa::path(
    get, path = "/api/lobby", summary = "Open rooms and games in play",
    responses(
        (status = 200, description = "lobby", body = Object),
        (status = 429, response = TooManyRequests),
    )
)]
pub async fn lobby(State(hall): State<AppState>) -> Response {
    axum::Json(hall.lobby()).into_response()
}

/// `GET /api/users/{name}`.
#[utoipa::path(
    get, path = "/api/users/{name}",
    summary = "A profile with recent games, ratings by game family (with rank titles) and the rating history",
    params(("name" = String, Path, description = "a user name")),
    responses(
        (status = 200, description = "profile", body = crate::tournaments::ratings::ProfileView),
        (status = 400, response = BadRequest),
        (status = 404, response = NotFound),
        (status = 429, response = TooManyRequests),
    )
)]
pub async fn profile(
    State(hall): State<AppState>,
    Path(name): Path<String>,
) -> Result<Response, HallError> {
    Ok(axum::Json(hall.profile(&name).await?).into_response())
}

/// The most names `GET /api/users?prefix=` answers with.
pub const MAX_USER_MATCHES: i64 = 20;
/// The longest prefix it takes (a user name has at most 20 characters).
pub const MAX_USER_PREFIX: usize = 20;

/// `?prefix=al&limit=10`.
#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct UsersQuery {
    /// The start of the names, 1 to 20 characters (no control
    /// characters), case ignored.
    #[param(pattern = "^[^\\u0000-\\u001f\\u007f-\\u009f]{1,20}$")]
    prefix: String,
    /// How many names at most, 1 to 20 (10 by default).
    #[param(minimum = 1, maximum = 20)]
    #[serde(default)]
    limit: Option<i64>,
}

/// `GET /api/users?prefix=`: the answer.
#[derive(serde::Serialize, ToSchema)]
#[schema(as = UserMatches)]
pub struct UserMatches {
    /// Registered user names starting with the prefix, alphabetical.
    pub users: Vec<String>,
}

/// `GET /api/users?prefix=`: registered players whose names start with a
/// prefix, for the page's player pickers (events, team events).
#[utoipa::path(
    get, path = "/api/users", operation_id = "user_search",
    summary = "Registered user names that start with a prefix (case ignored), alphabetical, at most 20: the page's player picker",
    params(UsersQuery),
    responses(
        (status = 200, description = "the matching names (guests are never listed)", body = UserMatches),
        (status = 400, response = BadRequest),
        (status = 429, response = TooManyRequests),
    )
)]
pub async fn user_search(
    State(hall): State<AppState>,
    QueryArgs(q): QueryArgs<UsersQuery>,
) -> Result<Response, HallError> {
    let n = q.prefix.chars().count();
    crate::limits::check_range(
        "prefix length",
        i64::try_from(n).unwrap_or(i64::MAX),
        1,
        MAX_USER_PREFIX as i64,
    )?;
    if q.prefix.chars().any(char::is_control) {
        return Err(HallError::bad("prefix: no control characters").with_code(ErrorCode::BadQuery));
    }
    let limit = q.limit.unwrap_or(10);
    crate::limits::check_range("limit", limit, 1, MAX_USER_MATCHES)?;
    let users = hall.store.users_with_prefix(&q.prefix, limit).await?;
    Ok(axum::Json(UserMatches { users }).into_response())
}

/// `GET /api/kinds`: the games on offer, their variants, seats, options
/// and clocks (the page builds its lists from it).
#[utoipa::path(
    get, path = "/api/kinds",
    summary = "The games on offer: kinds (rating families) with their variants, seat counts, options, default clock, AI and web module",
    responses(
        (status = 200, description = "kinds", body = Kinds),
        (status = 429, response = TooManyRequests),
    )
)]
pub async fn kinds(State(hall): State<AppState>) -> Response {
    axum::Json(hall.games.to_json()).into_response()
}
