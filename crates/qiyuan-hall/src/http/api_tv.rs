//! `GET /api/tv`: the featured game in play of each kind
//! ([`crate::tournaments::tv`]).

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::domain::hall::HallError;
use crate::http::api::{AppState, QueryArgs};
use crate::http::responses::{BadRequest, NotFound, TooManyRequests};
use crate::tournaments::tv::TvBody;

/// `?kind=K`.
#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct TvQuery {
    /// One game kind (an id of `GET /api/kinds`); every kind without it.
    #[serde(default)]
    kind: Option<String>,
}

/// `GET /api/tv`.
#[utoipa::path(
    get, path = "/api/tv", operation_id = "tv",
    summary = "TV: the featured game in play of each game kind",
    description = "For each game kind with a game in play, the game whose seats have the highest mean rating: each person at their rating in the family the game is rated in (the kind's id for two seats, `{kind}-multi` for more; the start rating before a first rated game), each AI seat at its level's fixed rating. Of equal means, the room opened first is featured. Nothing is cached: once a featured game ends, the next request features the next one. The position is the spectators' view (a game that hides anything shows only what spectators see), with the clocks when the answer was made and `watchers`, the sockets and streams open on the game by people not seated in it. A kind with no game in play is left out. Errors: 404 `not_found` for a `kind` the hall does not have, 400 `bad_query` for another query field. Follow a featured game live on its socket or stream.",
    params(TvQuery),
    responses(
        (status = 200, description = "the featured games", body = TvBody),
        (status = 400, response = BadRequest),
        (status = 404, response = NotFound),
        (status = 429, response = TooManyRequests),
    )
)]
pub async fn tv(
    State(hall): State<AppState>,
    QueryArgs(q): QueryArgs<TvQuery>,
) -> Result<Response, HallError> {
    let body = crate::tournaments::tv::tv(&hall, q.kind.as_deref()).await?;
    Ok(axum::Json(body).into_response())
}
