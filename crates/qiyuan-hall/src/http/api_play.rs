//! HTTP handlers for what players do around their moves (issue 18):
//! takebacks ([`crate::domain::takeback`]) and the list of one's games in play
//! ([`crate::domain::my_games`]), and the players' chat ([`crate::domain::chat`]).
//! Thin shells over [`crate::domain::hall::Hall`], like [`crate::http::api`].

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use utoipa::ToSchema;

use crate::domain::chat::{ChatLine, ChatList};
use crate::domain::hall::HallError;
use crate::domain::my_games::MyGames;
use crate::domain::state_view::GameStateView;
use crate::error::ErrorCode;
use crate::http::api::AppState;
use crate::http::api::JsonBody;
use crate::http::api_bodies::Done;
use crate::http::auth::SignedIn;
use crate::http::responses::{
    BadRequest, Conflict, Forbidden, NotFound, PayloadTooLarge, TooManyRequests, Unauthorized,
};

/// An optional JSON object body: empty is `T::default()`.
pub(crate) fn optional_body<T: DeserializeOwned + Default>(body: &Bytes) -> Result<T, HallError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(T::default());
    }
    if body.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Err(
            HallError::bad("the body must be a JSON object").with_code(ErrorCode::InvalidBody)
        );
    }
    serde_json::from_slice(body).map_err(|e| HallError::of_json(&e))
}

/// Optional `{"action": "offer"|"accept"|"decline"}`.
#[derive(Deserialize, Default, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TakebackBody {
    #[serde(default)]
    #[schema(default = "offer")]
    action: Option<crate::domain::command::Answer>,
}

/// `POST /api/games/{id}/takeback`.
#[utoipa::path(
    post, path = "/api/games/{id}/takeback",
    summary = "Ask to take one's last move back, or accept or decline the opponent's request; body optional {\"action\":\"offer|accept|decline\"}",
    description = "Unrated two-seat games without hidden information only (409 `takeback_rated` in rated games, `takeback_unavailable` in games with a secret set-up (face-down pieces, hidden set-ups), games of more than two seats and event games). An accepted takeback undoes the asker's last move and the opponent's reply after it, if any: the asker is to move again. An AI opponent accepts at once. Other codes: `game_over`, `nothing_to_take_back`, `takeback_pending` (a request stands), `takeback_declined` (ask again after the next move), `no_takeback_request`. A move ends a standing request. The state says `takeback` (offered here), `takeback_possible` (for a player: whether they have a move to take back), `takeback_offer` (the asking seat), and, in the change that answered it, `takeback_declined` or `takeback_accepted`.",
    params(("id" = String, Path, description = "the game's id")),
    request_body(content = Option<TakebackBody>, description = "optional; an empty body is a request"),
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
pub async fn takeback(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    SignedIn(user): SignedIn,
    body: Bytes,
) -> Result<Response, HallError> {
    let body: TakebackBody = optional_body(&body)?;
    let action = body.action.unwrap_or_default();
    Ok(axum::Json(hall.takeback(&id, &user, action).await?).into_response())
}

/// `GET /api/my/games`.
#[utoipa::path(
    get, path = "/api/my/games",
    summary = "The caller's games that are not over, how many wait for the caller's move, and the challenges to the caller",
    description = "`your_turn` counts the games in `games` where the caller is to move. `challenges` are waiting games whose open seat only the caller may take (`POST /api/games/{id}/join` accepts one). At most 50 of each.",
    responses(
        (status = 200, description = "the caller's games", body = MyGames),
        (status = 401, response = Unauthorized),
        (status = 429, response = TooManyRequests),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn my_games(
    State(hall): State<AppState>,
    SignedIn(user): SignedIn,
) -> Result<Response, HallError> {
    Ok(axum::Json(hall.my_games(&user).await?).into_response())
}

/// `{"text": "..."}`: a chat message.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChatBody {
    /// 1 to 200 characters, one line.
    #[schema(min_length = 1, max_length = 200)]
    text: String,
}

/// `{"mute": true|false}`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MuteBody {
    /// Mute (true) or unmute (false) the other players.
    mute: bool,
}

/// `{"id": N}`: the message reported.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReportBody {
    /// The message's `id`.
    id: u64,
}

/// `GET /api/games/{id}/chat`.
#[utoipa::path(
    get, path = "/api/games/{id}/chat", operation_id = "chat_lines",
    summary = "The game's chat as the caller may read it (players only; none in games against the AI)",
    description = "The last 50 messages kept in memory (chat is not stored; a restart forgets it), without the opponent's once the caller muted them. 409 `chat_unavailable` in games with an AI seat; 403 `not_a_player` for spectators.",
    params(("id" = String, Path, description = "the game's id")),
    responses(
        (status = 200, description = "the messages", body = ChatList),
        (status = 401, response = Unauthorized),
        (status = 403, response = Forbidden),
        (status = 404, response = NotFound),
        (status = 409, response = Conflict),
        (status = 429, response = TooManyRequests),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn chat_lines(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    SignedIn(user): SignedIn,
) -> Result<Response, HallError> {
    Ok(axum::Json(hall.chat_lines(&id, &user).await?).into_response())
}

/// `POST /api/games/{id}/chat`.
#[utoipa::path(
    post, path = "/api/games/{id}/chat", operation_id = "chat_send",
    summary = "Send a chat message to the other players",
    description = "1 to 200 characters on one line (400 `out_of_range`, `empty_message`); at most 5 messages in 10 s a player (429 `chat_rate_limited`). The players' sockets get it as {\"t\":\"chat\",\"id\",\"seat\",\"text\",\"at_ms\"}.",
    params(("id" = String, Path, description = "the game's id")),
    request_body = ChatBody,
    responses(
        (status = 200, description = "the message as sent", body = ChatLine),
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
pub async fn chat_send(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    SignedIn(user): SignedIn,
    JsonBody(body): JsonBody<ChatBody>,
) -> Result<Response, HallError> {
    Ok(axum::Json(hall.chat_send(&id, &user, &body.text).await?).into_response())
}

/// `POST /api/games/{id}/chat/mute`.
#[utoipa::path(
    post, path = "/api/games/{id}/chat/mute",
    summary = "Mute or unmute the other players' chat for the caller",
    description = "While muted the server sends the caller none of the other players' messages (kept in memory with the game).",
    params(("id" = String, Path, description = "the game's id")),
    request_body = MuteBody,
    responses(
        (status = 200, description = "the messages the caller may now read", body = ChatList),
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
pub async fn chat_mute(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    SignedIn(user): SignedIn,
    JsonBody(body): JsonBody<MuteBody>,
) -> Result<Response, HallError> {
    Ok(axum::Json(hall.chat_mute(&id, &user, body.mute).await?).into_response())
}

/// `POST /api/games/{id}/chat/report`.
#[utoipa::path(
    post, path = "/api/games/{id}/chat/report",
    summary = "Report another player's chat message (stored with its text)",
    description = "404 `no_such_message` for a message no longer kept; one's own messages cannot be reported.",
    params(("id" = String, Path, description = "the game's id")),
    request_body = ReportBody,
    responses(
        (status = 200, description = "stored", body = Done),
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
pub async fn chat_report(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    SignedIn(user): SignedIn,
    JsonBody(body): JsonBody<ReportBody>,
) -> Result<Response, HallError> {
    hall.chat_report(&id, &user, body.id).await?;
    Ok(axum::Json(Done { ok: true }).into_response())
}
