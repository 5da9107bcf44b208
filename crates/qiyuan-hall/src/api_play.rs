//! HTTP handlers for what players do around their moves (issue 18):
//! takebacks ([`crate::takeback`]) and the list of one's games in play
//! ([`crate::my_games`]).
//! Thin shells over [`crate::hall::Hall`], like [`crate::api`].

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use utoipa::ToSchema;

use crate::api::{AppState, require_user};
use crate::hall::HallError;
use crate::my_games::MyGames;
use crate::openapi::{
    BadRequest, Conflict, Forbidden, NotFound, PayloadTooLarge, TooManyRequests, Unauthorized,
};
use crate::state_view::GameStateView;

/// An optional JSON object body: empty is `T::default()`.
pub(crate) fn optional_body<T: DeserializeOwned + Default>(body: &Bytes) -> Result<T, HallError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(T::default());
    }
    if body.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Err(HallError::bad("the body must be a JSON object").with_code("invalid_body"));
    }
    serde_json::from_slice(body).map_err(|e| {
        HallError::bad(format!("malformed JSON: {e}")).with_code(if e.is_data() {
            "invalid_body"
        } else {
            "malformed_json"
        })
    })
}

/// Optional `{"action": "offer"|"accept"|"decline"}`.
#[derive(Deserialize, Default, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TakebackBody {
    #[serde(default)]
    #[schema(default = "offer")]
    action: Option<TakebackAction>,
}

/// What `POST /api/games/{id}/takeback` does.
#[derive(Deserialize, ToSchema, Clone, Copy)]
#[serde(rename_all = "snake_case")]
pub enum TakebackAction {
    /// Ask to take one's last move back.
    Offer,
    /// Accept the opponent's request.
    Accept,
    /// Decline the opponent's request.
    Decline,
}

impl TakebackAction {
    fn as_str(self) -> &'static str {
        match self {
            TakebackAction::Offer => "offer",
            TakebackAction::Accept => "accept",
            TakebackAction::Decline => "decline",
        }
    }
}

/// `POST /api/games/{id}/takeback`.
#[utoipa::path(
    post, path = "/api/games/{id}/takeback",
    summary = "Ask to take one's last move back, or accept or decline the opponent's request; body optional {\"action\":\"offer|accept|decline\"}",
    description = "Unrated two-seat games without hidden information only (409 `takeback_rated` in rated games, `takeback_unavailable` in Banqi, hidden Junqi, games of more than two seats and event games). An accepted takeback undoes the asker's last move and the opponent's reply after it, if any: the asker is to move again. An AI opponent accepts at once. Other codes: `game_over`, `nothing_to_take_back`, `takeback_pending` (a request stands), `takeback_declined` (ask again after the next move), `no_takeback_request`. A move ends a standing request. The state says `takeback` (offered here), `takeback_offer` (the asking seat), and, in the change that answered it, `takeback_declined` or `takeback_accepted`.",
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
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, HallError> {
    let user = require_user(&hall, &headers).await?;
    let body: TakebackBody = optional_body(&body)?;
    let action = body.action.map_or("offer", TakebackAction::as_str);
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
    headers: HeaderMap,
) -> Result<Response, HallError> {
    let user = require_user(&hall, &headers).await?;
    Ok(axum::Json(hall.my_games(&user).await?).into_response())
}
