//! HTTP handlers for ratings, leaderboards and events: thin shells over
//! [`crate::tournaments::ratings`] and [`crate::tournaments::events`].

use axum::extract::{Path, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::domain::hall::HallError;
use crate::http::api::{AppState, JsonBody, QueryArgs};
use crate::http::auth::SignedIn;
use crate::http::responses::{
    BadRequest, Conflict, Forbidden, NotFound, PayloadTooLarge, TooManyRequests, Unauthorized,
};
use crate::tournaments::events::{self, NewEvent};
use crate::tournaments::ratings::{self, LeaderboardBody, RatingsBody};
use crate::tournaments::team_events::NewTeamEvent;
use crate::tournaments::views::{
    EventLine, EventList, EventView, InvitationList, StandingsView, TeamEventList, TeamEventView,
    TeamStandings,
};

/// `GET /api/leaderboard/{game}`.
#[utoipa::path(
    get, path = "/api/leaderboard/{game}",
    summary = "The top 100 of a game family by rating (H1), with rank titles (H2)",
    description = "`{family}-points` (a family whose kind settles points, `settlement` in GET /api/kinds) answers that ledger's balances instead.",
    params(("game" = String, Path, description = "a game family or variant, or `{family}-points`")),
    responses(
        (status = 200, description = "leaderboard", body = LeaderboardBody),
        (status = 400, response = BadRequest),
        (status = 404, response = NotFound),
        (status = 429, response = TooManyRequests),
    )
)]
pub async fn leaderboard(
    State(hall): State<AppState>,
    Path(game): Path<String>,
) -> Result<Response, HallError> {
    Ok(axum::Json(ratings::leaderboard(&hall, &game).await?).into_response())
}

/// `?game=G&players=a,b,ai:3`.
#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct RatingsQuery {
    /// A game family or variant.
    game: String,
    /// Comma-separated user names and ai:N, at most 64.
    #[serde(default)]
    players: String,
}

/// `GET /api/ratings?game=G&players=a,b,ai:3`.
#[utoipa::path(
    get, path = "/api/ratings",
    summary = "Ratings and rank titles (H2, Chinese and English) of named players in one game family; AI levels as ai:N",
    params(RatingsQuery),
    responses(
        (status = 200, description = "name -> {rating,title,title_en,games}", body = RatingsBody),
        (status = 400, response = BadRequest),
        (status = 429, response = TooManyRequests),
    )
)]
pub async fn ratings(
    State(hall): State<AppState>,
    QueryArgs(q): QueryArgs<RatingsQuery>,
) -> Result<Response, HallError> {
    Ok(axum::Json(ratings::ratings_for(&hall, &q.game, &q.players).await?).into_response())
}

/// `POST /api/events`.
#[utoipa::path(
    post, path = "/api/events",
    summary = "Create an event (round robin, knockout, Swiss, three-stage) with users and AI levels; starts at once with start=true",
    request_body = NewEvent,
    responses(
        (status = 201, description = "the event", body = EventView),
        (status = 400, response = BadRequest),
        (status = 401, response = Unauthorized),
        (status = 403, response = Forbidden),
        (status = 409, response = Conflict),
        (status = 413, response = PayloadTooLarge),
        (status = 429, response = TooManyRequests),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn create(
    State(hall): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(req): JsonBody<NewEvent>,
) -> Result<Response, HallError> {
    let ev = events::create(&hall, &user, req).await?;
    Ok((StatusCode::CREATED, axum::Json(ev)).into_response())
}

/// The most events one page of `GET /api/events` lists.
pub const MAX_EVENTS_PAGE: usize = 100;

/// The query of `GET /api/events`.
#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct EventsPage {
    /// Events on the page: 1 to 100 (default 50).
    #[param(minimum = 1, maximum = 100, default = 50)]
    #[serde(default)]
    limit: Option<i64>,
    /// Events skipped, newest first: 0 to 100000 (default 0).
    #[param(minimum = 0, maximum = 100000, default = 0)]
    #[serde(default)]
    offset: Option<i64>,
}

/// `GET /api/events`.
#[utoipa::path(
    get, path = "/api/events", summary = "Events, newest first, a page at a time",
    description = "`total` counts every event; `next` is the `offset` of the next page (null on the last).",
    params(EventsPage),
    responses(
        (status = 200, description = "events", body = EventList),
        (status = 400, response = BadRequest),
        (status = 429, response = TooManyRequests),
    )
)]
pub async fn list(
    State(hall): State<AppState>,
    QueryArgs(page): QueryArgs<EventsPage>,
) -> Result<Response, HallError> {
    let limit = page.limit.unwrap_or(50);
    let offset = page.offset.unwrap_or(0);
    crate::limits::check_range("limit", limit, 1, MAX_EVENTS_PAGE as i64)?;
    crate::limits::check_range("offset", offset, 0, 100_000)?;
    let (limit, offset) = (limit as usize, offset as usize);
    let list = events::list(&hall).await;
    let total = list.len();
    let events: Vec<_> = list.into_iter().skip(offset).take(limit).collect();
    let next = (offset + events.len() < total).then_some(offset + events.len());
    Ok(axum::Json(EventList {
        events,
        total,
        next,
    })
    .into_response())
}

/// `GET /api/events/{id}`.
#[utoipa::path(
    get, path = "/api/events/{id}", operation_id = "get_event", summary = "An event: status, stages, rounds with pairings and results, play-offs, fouls",
    params(("id" = String, Path, description = "the event's id")),
    responses(
        (status = 200, description = "the event", body = EventView),
        (status = 400, response = BadRequest),
        (status = 404, response = NotFound),
        (status = 429, response = TooManyRequests),
    )
)]
pub async fn get(
    State(hall): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, HallError> {
    Ok(axum::Json(events::get(&hall, &id).await?).into_response())
}

/// `POST /api/events/{id}/join`.
#[utoipa::path(
    post, path = "/api/events/{id}/join", operation_id = "join_event",
    summary = "Enter the event while entries are open, or accept an invitation to it",
    params(("id" = String, Path, description = "the event's id")),
    responses(
        (status = 200, description = "the event", body = EventView),
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
    Ok(axum::Json(events::join(&hall, &id, &user).await?).into_response())
}

/// `POST /api/events/{id}/decline`: turns down an invitation.
#[utoipa::path(
    post, path = "/api/events/{id}/decline", operation_id = "decline_event",
    summary = "Decline an invitation to the event",
    params(("id" = String, Path, max_length = 64, description = "the event's id")),
    responses(
        (status = 200, description = "the event", body = EventView),
        (status = 401, response = Unauthorized),
        (status = 404, response = NotFound),
        (status = 409, response = Conflict),
        (status = 413, response = PayloadTooLarge),
        (status = 429, response = TooManyRequests),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn decline(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    SignedIn(user): SignedIn,
) -> Result<Response, HallError> {
    Ok(axum::Json(events::decline(&hall, &id, &user).await?).into_response())
}

/// `GET /api/invitations`: events and team events that invite the caller
/// and wait for an answer.
#[utoipa::path(
    get, path = "/api/invitations",
    summary = "Events and team events that invite the caller and wait for an answer",
    responses(
        (status = 200, description = "open invitations", body = InvitationList),
        (status = 401, response = Unauthorized),
        (status = 429, response = TooManyRequests),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn invitations(
    State(hall): State<AppState>,
    SignedIn(user): SignedIn,
) -> Result<Response, HallError> {
    let mut invitations = crate::tournaments::events::invitations_of(&hall, user.id).await;
    invitations.extend(crate::tournaments::team_events::invitations_of(&hall, user.id).await);
    Ok(axum::Json(InvitationList { invitations }).into_response())
}

/// `POST /api/team-events/{id}/accept`.
#[utoipa::path(
    post, path = "/api/team-events/{id}/accept",
    summary = "Accept an invitation to the team event (it starts when the last invitee accepts)",
    params(("id" = String, Path, max_length = 64, description = "the team event's id")),
    responses(
        (status = 200, description = "the team event", body = TeamEventView),
        (status = 401, response = Unauthorized),
        (status = 404, response = NotFound),
        (status = 409, response = Conflict),
        (status = 413, response = PayloadTooLarge),
        (status = 429, response = TooManyRequests),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn accept_team_event(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    SignedIn(user): SignedIn,
) -> Result<Response, HallError> {
    Ok(
        axum::Json(crate::tournaments::team_events::answer(&hall, &id, &user, true).await?)
            .into_response(),
    )
}

/// `POST /api/team-events/{id}/decline`.
#[utoipa::path(
    post, path = "/api/team-events/{id}/decline",
    summary = "Decline an invitation to the team event (it is cancelled)",
    params(("id" = String, Path, max_length = 64, description = "the team event's id")),
    responses(
        (status = 200, description = "the team event", body = TeamEventView),
        (status = 401, response = Unauthorized),
        (status = 404, response = NotFound),
        (status = 409, response = Conflict),
        (status = 413, response = PayloadTooLarge),
        (status = 429, response = TooManyRequests),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn decline_team_event(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    SignedIn(user): SignedIn,
) -> Result<Response, HallError> {
    Ok(
        axum::Json(crate::tournaments::team_events::answer(&hall, &id, &user, false).await?)
            .into_response(),
    )
}

/// `POST /api/events/{id}/start`.
#[utoipa::path(
    post, path = "/api/events/{id}/start", operation_id = "start_event",
    summary = "Close entries and start (organiser only); games then run by themselves",
    params(("id" = String, Path, description = "the event's id")),
    responses(
        (status = 200, description = "the event", body = EventView),
        (status = 400, response = BadRequest),
        (status = 401, response = Unauthorized),
        (status = 403, response = Forbidden),
        (status = 404, response = NotFound),
        (status = 409, response = Conflict),
        (status = 429, response = TooManyRequests),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn start(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    SignedIn(user): SignedIn,
) -> Result<Response, HallError> {
    Ok(axum::Json(events::start(&hall, &id, &user).await?).into_response())
}

/// `GET /api/events/{id}/stream`: NDJSON, one `{"t":"event","event":...}`
/// line with the event as `GET /api/events/{id}` shows it, then one such
/// line after every change (a result recorded, a round paired, entries).
/// A client that falls behind skips to the latest change. For a team event
/// (H7) the lines are `{"t":"team_event","event":...}` as
/// `GET /api/team-events/{id}` shows it.
#[utoipa::path(
    get, path = "/api/events/{id}/stream", operation_id = "event_stream",
    summary = "NDJSON: the event, then one line per change (results, pairings, entries)",
    description = "Every line is `{\"t\":\"event\",\"event\":Event}` with the event as GET /api/events/{id} shows it. A client that falls behind skips to the latest change. The stream ends when the event is over, or when the client or the server closes it. For a team event (H7) the lines are `{\"t\":\"team_event\",\"event\":TeamEvent}`.",
    params(("id" = String, Path, description = "the event's id")),
    responses(
        (status = 200, description = "NDJSON stream of event lines", body = EventLine, content_type = "application/x-ndjson"),
        (status = 400, response = BadRequest),
        (status = 404, response = NotFound),
        (status = 429, response = TooManyRequests),
    )
)]
pub async fn stream(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    axum::extract::ConnectInfo(peer): axum::extract::ConnectInfo<std::net::SocketAddr>,
) -> Result<Response, HallError> {
    let read = || async {
        let line = if crate::tournaments::team_events::is_team_event_id(&id) {
            EventLine::TeamEvent(Box::new(
                crate::tournaments::team_events::get(&hall, &id).await?,
            ))
        } else {
            EventLine::Event(Box::new(events::get(&hall, &id).await?))
        };
        serde_json::to_value(line).map_err(HallError::internal)
    };
    // 404 before anything is subscribed; then subscribe and read again so
    // no change falls in between.
    read().await?;
    // A stream holds a place among the open sockets of its address.
    let slot = hall.sockets.admit(peer.ip(), None, &hall.limits)?;
    let rx = hall.bus.subscribe(&format!("event:{id}"));
    let first = read().await?;
    Ok(crate::http::stream::ndjson(
        vec![first],
        rx,
        hall.shutdown.clone(),
        |v| {
            matches!(
                v["event"]["status"].as_str(),
                Some("finished" | "error" | "declined")
            )
        },
        None,
        slot,
        (),
    ))
}

/// `?stage=N`.
#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct StageQuery {
    /// The stage (three-stage events); default the current one.
    #[serde(default)]
    #[param(minimum = 1, maximum = 255)]
    stage: Option<u8>,
}

/// `GET /api/events/{id}/standings`.
#[utoipa::path(
    get, path = "/api/events/{id}/standings", summary = "Standings with every tie-break column (H6, H9)",
    params(("id" = String, Path, description = "the event's id"), StageQuery),
    responses(
        (status = 200, description = "standings", body = StandingsView),
        (status = 400, response = BadRequest),
        (status = 404, response = NotFound),
        (status = 409, response = Conflict),
        (status = 429, response = TooManyRequests),
    )
)]
pub async fn standings(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    QueryArgs(q): QueryArgs<StageQuery>,
) -> Result<Response, HallError> {
    Ok(axum::Json(events::standings(&hall, &id, q.stage).await?).into_response())
}

/// `GET /api/events/{id}/standings.csv`.
#[utoipa::path(
    get, path = "/api/events/{id}/standings.csv", summary = "Standings as CSV (H9)",
    params(("id" = String, Path, description = "the event's id"), StageQuery),
    responses(
        (status = 200, description = "CSV", body = String, content_type = "text/csv"),
        (status = 400, response = BadRequest),
        (status = 404, response = NotFound),
        (status = 409, response = Conflict),
        (status = 429, response = TooManyRequests),
    )
)]
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

/// `GET /api/events/{id}/tournament.trf`.
#[utoipa::path(
    get, path = "/api/events/{id}/tournament.trf", summary = "The event as a FIDE tournament report file (TRF-16 with the TRF-2026 lines bbpPairings reads; complete rounds only, red is white)",
    params(("id" = String, Path, description = "the event's id")),
    responses(
        (status = 200, description = "TRF", body = String, content_type = "text/plain"),
        (status = 400, response = BadRequest),
        (status = 404, response = NotFound),
        (status = 409, response = Conflict),
        (status = 429, response = TooManyRequests),
    )
)]
pub async fn tournament_trf(
    State(hall): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, HallError> {
    let text = events::tournament_trf(&hall, &id).await?;
    let mut r = text.into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    let name = if id.chars().all(|c| c.is_ascii_alphanumeric()) {
        format!("attachment; filename=\"qiyuan-{id}.trf\"")
    } else {
        "attachment; filename=\"qiyuan-event.trf\"".to_string()
    };
    if let Ok(v) = HeaderValue::from_str(&name) {
        r.headers_mut().insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(r)
}

/// `POST /api/team-events`: creates a team event (H7) and starts it.
#[utoipa::path(
    post, path = "/api/team-events", summary = "Create a team event (H7) and start it: a single round robin of teams, board k of each match between the teams' k-th players (home team red on odd boards)",
    request_body = NewTeamEvent,
    responses(
        (status = 201, description = "the team event", body = TeamEventView),
        (status = 400, response = BadRequest),
        (status = 401, response = Unauthorized),
        (status = 403, response = Forbidden),
        (status = 413, response = PayloadTooLarge),
        (status = 429, response = TooManyRequests),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn create_team_event(
    State(hall): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(req): JsonBody<NewTeamEvent>,
) -> Result<Response, HallError> {
    let ev = crate::tournaments::team_events::create(&hall, &user, req).await?;
    Ok((StatusCode::CREATED, axum::Json(ev)).into_response())
}

/// `GET /api/team-events`.
#[utoipa::path(
    get, path = "/api/team-events", summary = "Every team event (H7): running ones first, then by name",
    responses(
        (status = 200, description = "summaries: id, name, game, status, organiser, teams, boards", body = TeamEventList),
        (status = 429, response = TooManyRequests),
    )
)]
pub async fn list_team_events(State(hall): State<AppState>) -> Response {
    axum::Json(crate::tournaments::team_events::list(&hall).await).into_response()
}

/// `GET /api/team-events/{id}`.
#[utoipa::path(
    get, path = "/api/team-events/{id}", summary = "A team event: teams, rounds, matches and boards",
    params(("id" = String, Path, description = "the team event's id")),
    responses(
        (status = 200, description = "the team event", body = TeamEventView),
        (status = 400, response = BadRequest),
        (status = 404, response = NotFound),
        (status = 429, response = TooManyRequests),
    )
)]
pub async fn get_team_event(
    State(hall): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, HallError> {
    Ok(axum::Json(crate::tournaments::team_events::get(&hall, &id).await?).into_response())
}

/// `GET /api/team-events/{id}/standings`.
#[utoipa::path(
    get, path = "/api/team-events/{id}/standings", summary = "Team standings: match points (场分), then game points (总局分), game wins, direct encounter, fewer team fouls (H7, H9)",
    params(("id" = String, Path, description = "the team event's id")),
    responses(
        (status = 200, description = "standings", body = TeamStandings),
        (status = 400, response = BadRequest),
        (status = 404, response = NotFound),
        (status = 429, response = TooManyRequests),
    )
)]
pub async fn team_standings(
    State(hall): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, HallError> {
    Ok(axum::Json(crate::tournaments::team_events::standings(&hall, &id).await?).into_response())
}

/// `GET /api/team-events/{id}/standings.csv` (H9).
#[utoipa::path(
    get, path = "/api/team-events/{id}/standings.csv", summary = "Team standings as CSV (H9)",
    params(("id" = String, Path, description = "the team event's id")),
    responses(
        (status = 200, description = "CSV", body = String, content_type = "text/csv"),
        (status = 400, response = BadRequest),
        (status = 404, response = NotFound),
        (status = 429, response = TooManyRequests),
    )
)]
pub async fn team_standings_csv(
    State(hall): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, HallError> {
    let csv = crate::tournaments::team_events::standings_csv(&hall, &id).await?;
    let mut r = csv.into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/csv; charset=utf-8"),
    );
    Ok(r)
}
