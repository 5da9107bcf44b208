//! HTTP handlers for ratings, leaderboards and events: thin shells over
//! [`crate::ratings`] and [`crate::events`].

use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use crate::api::{AppState, JsonBody, QueryArgs, require_user};
use crate::events::{self, NewEvent};
use crate::hall::HallError;
use crate::ratings;

/// `GET /api/leaderboard/{game}`.
pub async fn leaderboard(
    State(hall): State<AppState>,
    Path(game): Path<String>,
) -> Result<Response, HallError> {
    Ok(axum::Json(ratings::leaderboard(&hall, &game).await?).into_response())
}

/// `?game=G&players=a,b,ai:3`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RatingsQuery {
    game: String,
    #[serde(default)]
    players: String,
}

/// `GET /api/ratings?game=G&players=a,b,ai:3`.
pub async fn ratings(
    State(hall): State<AppState>,
    QueryArgs(q): QueryArgs<RatingsQuery>,
) -> Result<Response, HallError> {
    Ok(axum::Json(ratings::ratings_for(&hall, &q.game, &q.players).await?).into_response())
}

/// `POST /api/events`.
pub async fn create(
    State(hall): State<AppState>,
    headers: HeaderMap,
    JsonBody(req): JsonBody<NewEvent>,
) -> Result<Response, HallError> {
    let user = require_user(&hall, &headers).await?;
    let ev = events::create(&hall, &user, req).await?;
    Ok((StatusCode::CREATED, axum::Json(ev)).into_response())
}

/// `GET /api/events`.
pub async fn list(State(hall): State<AppState>) -> Response {
    axum::Json(events::list(&hall).await).into_response()
}

/// `GET /api/events/{id}`.
pub async fn get(
    State(hall): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, HallError> {
    Ok(axum::Json(events::get(&hall, &id).await?).into_response())
}

/// `POST /api/events/{id}/join`.
pub async fn join(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, HallError> {
    let user = require_user(&hall, &headers).await?;
    Ok(axum::Json(events::join(&hall, &id, &user).await?).into_response())
}

/// `POST /api/events/{id}/decline`: turns down an invitation.
pub async fn decline(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, HallError> {
    let user = require_user(&hall, &headers).await?;
    Ok(axum::Json(events::decline(&hall, &id, &user).await?).into_response())
}

/// `GET /api/invitations`: events and team events that invite the caller
/// and wait for an answer.
pub async fn invitations(
    State(hall): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, HallError> {
    let user = require_user(&hall, &headers).await?;
    let mut list = hall.hooks.invitations_of(user.id).await;
    list.extend(crate::team_events::invitations_of(&hall, user.id).await);
    Ok(axum::Json(serde_json::json!({"invitations": list})).into_response())
}

/// `POST /api/team-events/{id}/accept`.
pub async fn accept_team_event(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, HallError> {
    let user = require_user(&hall, &headers).await?;
    Ok(axum::Json(crate::team_events::answer(&hall, &id, &user, true).await?).into_response())
}

/// `POST /api/team-events/{id}/decline`.
pub async fn decline_team_event(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, HallError> {
    let user = require_user(&hall, &headers).await?;
    Ok(axum::Json(crate::team_events::answer(&hall, &id, &user, false).await?).into_response())
}

/// `POST /api/events/{id}/start`.
pub async fn start(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, HallError> {
    let user = require_user(&hall, &headers).await?;
    Ok(axum::Json(events::start(&hall, &id, &user).await?).into_response())
}

/// `GET /api/events/{id}/stream`: NDJSON, one `{"t":"event","event":...}`
/// line with the event as `GET /api/events/{id}` shows it, then one such
/// line after every change (a result recorded, a round paired, entries).
/// A client that falls behind skips to the latest change. For a team event
/// (H7) the lines are `{"t":"team_event","event":...}` as
/// `GET /api/team-events/{id}` shows it.
pub async fn stream(
    State(hall): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, HallError> {
    let read = || async {
        if crate::team_events::is_team_event_id(&id) {
            Ok::<_, HallError>(
                serde_json::json!({"t": "team_event", "event": crate::team_events::get(&hall, &id).await?}),
            )
        } else {
            Ok(serde_json::json!({"t": "event", "event": events::get(&hall, &id).await?}))
        }
    };
    // 404 before anything is subscribed; then subscribe and read again so
    // no change falls in between.
    read().await?;
    let rx = hall.bus.subscribe(&format!("event:{id}"));
    let first = read().await?;
    Ok(crate::stream::ndjson(
        first,
        rx,
        hall.shutdown.clone(),
        |v| {
            matches!(
                v["event"]["status"].as_str(),
                Some("finished" | "error" | "declined")
            )
        },
        None,
    ))
}

/// `?stage=N`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StageQuery {
    #[serde(default)]
    stage: Option<u8>,
}

/// `GET /api/events/{id}/standings`.
pub async fn standings(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    QueryArgs(q): QueryArgs<StageQuery>,
) -> Result<Response, HallError> {
    Ok(axum::Json(events::standings(&hall, &id, q.stage).await?).into_response())
}

/// `GET /api/events/{id}/standings.csv`.
pub async fn standings_csv(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    QueryArgs(q): QueryArgs<StageQuery>,
) -> Result<Response, HallError> {
    let csv = events::standings_csv(&hall, &id, q.stage).await?;
    let mut r = csv.into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/csv; charset=utf-8"),
    );
    if id.chars().all(|c| c.is_ascii_alphanumeric())
        && let Ok(v) = HeaderValue::from_str(&format!(
            "attachment; filename=\"qiyuan-{id}-standings.csv\""
        ))
    {
        r.headers_mut().insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(r)
}

/// `POST /api/team-events`: creates a team event (H7) and starts it.
pub async fn create_team_event(
    State(hall): State<AppState>,
    headers: HeaderMap,
    JsonBody(req): JsonBody<crate::team_events::NewTeamEvent>,
) -> Result<Response, HallError> {
    let user = require_user(&hall, &headers).await?;
    let ev = crate::team_events::create(&hall, &user, req).await?;
    Ok((StatusCode::CREATED, axum::Json(ev)).into_response())
}

/// `GET /api/team-events/{id}`.
pub async fn get_team_event(
    State(hall): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, HallError> {
    Ok(axum::Json(crate::team_events::get(&hall, &id).await?).into_response())
}

/// `GET /api/team-events/{id}/standings`.
pub async fn team_standings(
    State(hall): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, HallError> {
    Ok(axum::Json(crate::team_events::standings(&hall, &id).await?).into_response())
}

/// `GET /api/team-events/{id}/standings.csv` (H9).
pub async fn team_standings_csv(
    State(hall): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, HallError> {
    let csv = crate::team_events::standings_csv(&hall, &id).await?;
    let mut r = csv.into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/csv; charset=utf-8"),
    );
    Ok(r)
}
