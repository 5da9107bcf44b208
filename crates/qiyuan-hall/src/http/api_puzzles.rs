//! HTTP handlers for puzzles (issue 40): thin shells over
//! [`crate::domain::puzzles`].

use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

use crate::domain::classics::ClassicList;
use crate::domain::hall::HallError;
use crate::domain::puzzles::{
    self, DailyPuzzle, NextPuzzle, PuzzleHistory, PuzzleOutcome, PuzzleView,
};
use crate::http::api::{AppState, JsonBody, QueryArgs};
use crate::http::auth::MaybeSignedIn;
use crate::http::responses::{BadRequest, NotFound, PayloadTooLarge, TooManyRequests};

/// `?variant=V&themes=a,b&rating=R`.
#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct NextQuery {
    /// A variant (`GET /api/kinds`); by default the first with puzzles.
    #[param(max_length = 40, pattern = "^[a-z0-9-]{1,40}$")]
    #[serde(default)]
    variant: Option<String>,
    /// Up to three themes, comma-separated; the puzzle has every one.
    #[param(
        max_length = 80,
        pattern = "^([a-z0-9-]{1,24}(,[a-z0-9-]{1,24}){0,2})?$"
    )]
    #[serde(default)]
    themes: Option<String>,
    /// Aim at this rating instead of the caller's (a streak's rising
    /// difficulty): 400 to 3200.
    #[param(minimum = 400, maximum = 3200)]
    #[serde(default)]
    rating: Option<i64>,
}

/// `?variant=V`.
#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct VariantQuery {
    /// A variant (`GET /api/kinds`); by default the first with puzzles
    /// (for the history: every variant).
    #[param(max_length = 40, pattern = "^[a-z0-9-]{1,40}$")]
    #[serde(default)]
    variant: Option<String>,
}

/// `?variant=V` for the classics.
#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ClassicsQuery {
    /// A variant (`GET /api/kinds`); by default the first with classics.
    #[param(max_length = 40, pattern = "^[a-z0-9-]{1,40}$")]
    #[serde(default)]
    variant: Option<String>,
}

/// `{"win": true|false}`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ResultBody {
    /// Whether the caller solved the puzzle (every move right, no hint
    /// needed to find the first).
    win: bool,
}

/// `GET /api/puzzles/next`.
#[utoipa::path(
    get, path = "/api/puzzles/next", operation_id = "puzzle_next",
    summary = "A puzzle near the caller's puzzle rating that they have not played lately",
    description = "Drawn from the dozen puzzles of the variant closest to the caller's puzzle rating in it (1500 for guests and before a first attempt) or to `rating` when given, that carry every theme of `themes` and that the caller has neither attempted (rated) nor been shown lately. A registered user who attempted every matching puzzle gets them again. `steps` is the setting-up move and the solution: play the first (the opponent's), then the solver's moves must be exactly the `solver` steps, each answered by the next step; `legal` lists the solver's legal moves before each of theirs. Errors: 404 `no_puzzle` when nothing matches or the hall has no such variant (details: `variant`), 400 `bad_query` for bad themes.",
    params(NextQuery),
    responses(
        (status = 200, description = "the puzzle and the caller's rating", body = NextPuzzle),
        (status = 400, response = BadRequest),
        (status = 404, response = NotFound),
        (status = 429, response = TooManyRequests),
    )
)]
pub async fn next(
    State(hall): State<AppState>,
    MaybeSignedIn(user): MaybeSignedIn,
    QueryArgs(q): QueryArgs<NextQuery>,
) -> Result<Response, HallError> {
    let themes = puzzles::parse_themes(q.themes.as_deref())?;
    if let Some(r) = q.rating {
        crate::limits::check_range("rating", r, puzzles::TARGET_MIN, puzzles::TARGET_MAX)?;
    }
    let next = hall
        .next_puzzle(user.as_ref(), q.variant.as_deref(), &themes, q.rating)
        .await?;
    Ok(axum::Json(next).into_response())
}

/// `GET /api/puzzles/daily`.
#[utoipa::path(
    get, path = "/api/puzzles/daily", operation_id = "puzzle_daily",
    summary = "The puzzle of the day: the same for everyone on a UTC day",
    description = "Chosen from the variant's puzzles by the UTC day alone (a fixed mix of the day and the variant, no randomness), so every node and every caller gets the same one all day. Errors: 404 `no_puzzle` when the variant has none or the hall has no such variant.",
    params(VariantQuery),
    responses(
        (status = 200, description = "the day and its puzzle", body = DailyPuzzle),
        (status = 400, response = BadRequest),
        (status = 404, response = NotFound),
        (status = 429, response = TooManyRequests),
    )
)]
pub async fn daily(
    State(hall): State<AppState>,
    QueryArgs(q): QueryArgs<VariantQuery>,
) -> Result<Response, HallError> {
    Ok(axum::Json(hall.daily_puzzle(q.variant.as_deref()).await?).into_response())
}

/// `GET /api/puzzles/history`.
#[utoipa::path(
    get, path = "/api/puzzles/history", operation_id = "puzzle_history",
    summary = "The caller's last 100 rated puzzle attempts, with their rating after each, and the puzzle sets on offer",
    description = "Newest first; with `variant`, that variant's attempts and the caller's rating in it. Guests play unrated: their history is empty and `rated` false.",
    params(VariantQuery),
    responses(
        (status = 200, description = "the caller's attempts", body = PuzzleHistory),
        (status = 400, response = BadRequest),
        (status = 404, response = NotFound),
        (status = 429, response = TooManyRequests),
    )
)]
pub async fn history(
    State(hall): State<AppState>,
    MaybeSignedIn(user): MaybeSignedIn,
    QueryArgs(q): QueryArgs<VariantQuery>,
) -> Result<Response, HallError> {
    let h = hall
        .puzzle_history(user.as_ref(), q.variant.as_deref())
        .await?;
    Ok(axum::Json(h).into_response())
}

/// `GET /api/puzzles/classics`.
#[utoipa::path(
    get, path = "/api/puzzles/classics", operation_id = "puzzle_classics",
    summary = "The classic composed endgames (排局) of a variant, to play against the engine",
    description = "Well-known composed endgames with their traditional name, an English gloss, the position (`fen`, which a room's `fen` option takes; `board`, the spectator's view), the seat to move and the result with correct play for that seat (`win`, `draw` or `loss`). A variant the hall has without classics answers an empty list. Errors: 404 `no_puzzle` for a variant the hall does not have, or when it has no classics at all and none was named; 400 `bad_query` for a malformed query.",
    params(ClassicsQuery),
    responses(
        (status = 200, description = "the variant's classics", body = ClassicList),
        (status = 400, response = BadRequest),
        (status = 404, response = NotFound),
        (status = 429, response = TooManyRequests),
    )
)]
pub async fn classics(
    State(hall): State<AppState>,
    QueryArgs(q): QueryArgs<ClassicsQuery>,
) -> Result<Response, HallError> {
    Ok(axum::Json(hall.classics(q.variant.as_deref())?).into_response())
}

/// `GET /api/puzzles/{id}`.
#[utoipa::path(
    get, path = "/api/puzzles/{id}", operation_id = "puzzle_get",
    summary = "A puzzle: its position, the setting-up move and the solution, with the legal moves along it",
    description = "Errors: 404 `not_found` for an id the hall does not have.",
    params(("id" = String, Path, description = "the puzzle's id", max_length = 40, pattern = "^[A-Za-z0-9_-]{1,40}$")),
    responses(
        (status = 200, description = "the puzzle", body = PuzzleView),
        (status = 404, response = NotFound),
        (status = 429, response = TooManyRequests),
    )
)]
pub async fn get(
    State(hall): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, HallError> {
    Ok(axum::Json(hall.puzzle_by_id(&id).await?).into_response())
}

/// `POST /api/puzzles/{id}/result`.
#[utoipa::path(
    post, path = "/api/puzzles/{id}/result", operation_id = "puzzle_result",
    summary = "Report an attempt at a puzzle: solved or not; answers the new ratings",
    description = "A registered caller's first attempt at a puzzle is rated: Glicko-2 for the caller (in the puzzle's variant) and for the puzzle, as one game the caller wins by solving it. A later attempt at the same puzzle, and any guest's or signed-out caller's, is answered with `rated: false` and changes nothing. Errors: 404 `not_found` for an unknown puzzle.",
    params(("id" = String, Path, description = "the puzzle's id", max_length = 40, pattern = "^[A-Za-z0-9_-]{1,40}$")),
    request_body = ResultBody,
    responses(
        (status = 200, description = "the ratings after the attempt", body = PuzzleOutcome),
        (status = 400, response = BadRequest),
        (status = 404, response = NotFound),
        (status = 413, response = PayloadTooLarge),
        (status = 429, response = TooManyRequests),
    ),
    security((), ("bearer" = []), ("cookie" = []))
)]
pub async fn result(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    MaybeSignedIn(user): MaybeSignedIn,
    JsonBody(body): JsonBody<ResultBody>,
) -> Result<Response, HallError> {
    let out = hall.puzzle_result(user.as_ref(), &id, body.win).await?;
    Ok(axum::Json(out).into_response())
}
