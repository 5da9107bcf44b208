//! Schemas of answers the hall builds as JSON values (game states, events,
//! standings, ratings, kinds) in modules that do not serialise one type:
//! these types describe those values for the OpenAPI document and are never
//! built. Most fields are `required = false`: the values are assembled field
//! by field and some fields appear only in some states (a result once a game
//! is over, a stage once an event runs). The API fuzzer (tests/fuzz/run.sh)
//! checks every answer it gets against them.
//!
//! Answers serialised from one type (sessions, errors, created games) are
//! documented by that type where the handler uses it.

#![allow(dead_code)] // Read by the schema derive only.

use std::collections::BTreeMap;

use qiyuan_events::event::RoundKind;
use qiyuan_events::{EventStatus, GameResult};
use utoipa::ToSchema;

/// `GET /api/kinds`.
#[derive(ToSchema)]
pub struct Kinds {
    kinds: Vec<KindInfo>,
}

/// One kind (rating family) on offer.
#[derive(ToSchema)]
pub struct KindInfo {
    id: String,
    /// The page's module for this kind.
    web_module: String,
    /// Whether it has an AI.
    ai: bool,
    /// The points ledger its games settle, if any.
    #[schema(required = false)]
    settlement: Option<String>,
    /// The default clock.
    #[schema(required = false, value_type = Object)]
    clock: serde_json::Value,
    variants: Vec<VariantInfo>,
}

/// One variant of a kind.
#[derive(ToSchema)]
pub struct VariantInfo {
    name: String,
    /// The seat counts it can be played with.
    seats: Vec<i64>,
    options: Vec<OptionInfo>,
}

/// An option a room may set, with its bounds.
#[derive(ToSchema)]
pub struct OptionInfo {
    #[schema(required = false)]
    name: String,
    #[schema(required = false)]
    min: i64,
    #[schema(required = false)]
    max: i64,
    #[schema(required = false)]
    about: String,
}

/// A rating with its rank title (H2).
#[derive(ToSchema)]
pub struct RatingInfo {
    #[schema(required = false)]
    rating: i64,
    /// Rank title (H2), e.g. 草民.
    #[schema(required = false)]
    title: String,
    /// English gloss.
    #[schema(required = false)]
    title_en: String,
    /// Rated games (null for AI levels).
    #[schema(required = false)]
    games: Option<i64>,
}

/// `GET /api/ratings`: name -> rating (unknown names are left out).
#[derive(ToSchema)]
pub struct RatingsBody(BTreeMap<String, RatingInfo>);

/// `GET /api/leaderboard/{game}`: a rating family's top 100, or a points
/// ledger's balances for `{family}-points`.
#[derive(ToSchema)]
#[serde(untagged)]
pub enum LeaderboardBody {
    /// The top 100 by rating.
    Ratings(Leaderboard),
    /// A points ledger's highest balances.
    Points(PointsLeaderboard),
}

/// The top 100 of a rating family.
#[derive(ToSchema)]
pub struct Leaderboard {
    /// The rating family.
    game: String,
    rows: Vec<LeaderboardRow>,
}

/// One row of a leaderboard.
#[derive(ToSchema)]
pub struct LeaderboardRow {
    #[serde(flatten)]
    rating: RatingInfo,
    #[schema(required = false)]
    rank: i64,
    #[schema(required = false)]
    username: String,
}

/// A points ledger's balances (B13-B17), highest first.
#[derive(ToSchema)]
pub struct PointsLeaderboard {
    /// The ledger.
    family: String,
    players: Vec<PointsRow>,
}

/// One balance of a points ledger.
#[derive(ToSchema)]
pub struct PointsRow {
    #[schema(required = false)]
    rank: i64,
    #[schema(required = false)]
    username: String,
    #[schema(required = false)]
    points: i64,
}

/// The hall's status of an event.
#[derive(ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum EventState {
    /// Taking entries.
    Open,
    /// Being played.
    Running,
    /// Over.
    Finished,
    /// Stopped by an error (`error` says which).
    Error,
}

/// An event, as `GET /api/events/{id}` shows it.
#[derive(ToSchema)]
#[schema(as = Event)]
pub struct EventView {
    #[schema(required = false)]
    id: String,
    #[schema(required = false)]
    name: String,
    #[schema(required = false)]
    game: String,
    #[schema(required = false)]
    status: EventState,
    #[schema(required = false)]
    event_status: EventStatus,
    /// Entrants who have accepted.
    #[schema(required = false)]
    players: Vec<String>,
    #[schema(required = false)]
    stage: i64,
    #[schema(required = false)]
    stages: Vec<StageField>,
    #[schema(required = false)]
    rounds: Vec<RoundView>,
    #[schema(required = false, value_type = Vec<Object>)]
    playoffs: Vec<serde_json::Value>,
    /// Technical fouls (X8) by player.
    #[schema(required = false)]
    fouls: BTreeMap<String, i64>,
    #[schema(required = false)]
    winner: String,
    /// People named by the organiser who have not accepted yet.
    #[schema(required = false)]
    invited: Vec<String>,
}

/// The field of one stage.
#[derive(ToSchema)]
pub struct StageField {
    #[schema(required = false)]
    stage: i64,
    #[schema(required = false)]
    field: Vec<String>,
}

/// One round of an event.
#[derive(ToSchema)]
pub struct RoundView {
    #[schema(required = false)]
    number: i64,
    #[schema(required = false)]
    stage: i64,
    #[schema(required = false)]
    kind: RoundKind,
    #[schema(required = false)]
    byes: Vec<String>,
    #[schema(required = false)]
    pairings: Vec<PairingView>,
}

/// One pairing of a round.
#[derive(ToSchema)]
pub struct PairingView {
    #[schema(required = false)]
    board: i64,
    #[schema(required = false)]
    red: String,
    #[schema(required = false)]
    black: String,
    #[schema(required = false)]
    game_id: Option<String>,
    #[schema(required = false)]
    result: Option<GameResult>,
    #[schema(required = false)]
    group: Option<i64>,
    #[schema(required = false)]
    playoff_of: Option<i64>,
}

/// `GET /api/events`: every event (a summary each), newest first.
#[derive(ToSchema)]
pub struct EventList {
    #[schema(required = false, value_type = Vec<Object>)]
    events: Vec<serde_json::Value>,
    /// Every event, over all pages.
    #[schema(required = false)]
    total: usize,
    /// The `offset` of the next page; null on the last.
    #[schema(required = false)]
    next: Option<usize>,
}

/// An event's standings (H6, H9).
#[derive(ToSchema)]
#[schema(as = Standings)]
pub struct StandingsView {
    #[schema(required = false, value_type = Vec<Object>)]
    tie_breaks: Vec<serde_json::Value>,
    #[schema(required = false, value_type = Vec<Object>)]
    needs_playoff: Vec<serde_json::Value>,
    #[schema(required = false)]
    rows: Vec<StandingRowView>,
}

/// One row of an event's standings.
#[derive(ToSchema)]
pub struct StandingRowView {
    #[schema(required = false)]
    rank: i64,
    #[schema(required = false)]
    shared: bool,
    #[schema(required = false)]
    name: String,
    #[schema(required = false)]
    player: String,
    #[schema(required = false)]
    score: f64,
    #[schema(required = false)]
    sonneborn_berger: f64,
    #[schema(required = false)]
    buchholz: f64,
    #[schema(required = false)]
    wins: i64,
    #[schema(required = false)]
    direct: Option<f64>,
    #[schema(required = false)]
    fouls: i64,
    #[schema(required = false)]
    games: i64,
    /// The selected FIDE tie-breaks without a column above, in the event's
    /// order: `{"tie_break": name, "value": number}`.
    #[schema(required = false, value_type = Vec<Object>)]
    fide: Vec<serde_json::Value>,
}

/// The hall's status of a team event.
#[derive(ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TeamEventState {
    /// Waiting for the people named to accept.
    Invited,
    /// Being played.
    Running,
    /// Over.
    Finished,
    /// Cancelled: someone named declined.
    Declined,
    /// Stopped by an error (`error` says which).
    Error,
}

/// A team event (H7), as `GET /api/team-events/{id}` shows it.
#[derive(ToSchema)]
#[schema(as = TeamEvent)]
pub struct TeamEventView {
    #[schema(required = false)]
    id: String,
    #[schema(required = false)]
    name: String,
    #[schema(required = false)]
    game: String,
    #[schema(required = false)]
    organiser: String,
    #[schema(required = false)]
    status: TeamEventState,
    #[schema(required = false)]
    error: Option<String>,
    #[schema(required = false)]
    clock: ClockView,
    #[schema(required = false)]
    teams: Vec<TeamView>,
    #[schema(required = false)]
    rounds: Vec<TeamRoundView>,
    /// Play-offs for places that may not be shared (H8), every board
    /// armageddon.
    #[schema(required = false)]
    playoffs: Vec<TeamPlayoffView>,
    #[schema(required = false)]
    invited: Vec<String>,
}

/// A team play-off (H8).
#[derive(ToSchema)]
pub struct TeamPlayoffView {
    /// The place it decides.
    #[schema(required = false)]
    place: i64,
    /// The tied teams.
    #[schema(required = false)]
    teams: Vec<String>,
    /// The decided order, best first (null while it runs).
    #[schema(required = false)]
    order: Option<Vec<String>>,
    #[schema(required = false)]
    rounds: Vec<TeamRoundView>,
}

/// Teams tied on a place that may not be shared (H8).
#[derive(ToSchema)]
pub struct TeamPlaceTie {
    #[schema(required = false)]
    place: i64,
    #[schema(required = false)]
    teams: Vec<String>,
}

/// `GET /api/team-events`.
#[derive(ToSchema)]
pub struct TeamEventList {
    #[schema(required = false)]
    team_events: Vec<TeamEventSummary>,
}

/// One team event in the list.
#[derive(ToSchema)]
pub struct TeamEventSummary {
    #[schema(required = false)]
    id: String,
    #[schema(required = false)]
    name: String,
    #[schema(required = false)]
    game: String,
    #[schema(required = false)]
    status: TeamEventState,
    #[schema(required = false)]
    organiser: String,
    #[schema(required = false)]
    teams: i64,
    #[schema(required = false)]
    boards: i64,
}

/// A clock as events show it.
#[derive(ToSchema)]
pub struct ClockView {
    #[schema(required = false)]
    initial_s: i64,
    #[schema(required = false)]
    increment_s: i64,
}

/// A team and its players in board order.
#[derive(ToSchema)]
pub struct TeamView {
    #[schema(required = false)]
    name: String,
    #[schema(required = false)]
    players: Vec<String>,
}

/// One round of a team event.
#[derive(ToSchema)]
pub struct TeamRoundView {
    #[schema(required = false)]
    number: i64,
    #[schema(required = false)]
    bye: Option<String>,
    #[schema(required = false)]
    matches: Vec<TeamMatchView>,
}

/// One match between two teams.
#[derive(ToSchema)]
pub struct TeamMatchView {
    #[schema(required = false)]
    home: String,
    #[schema(required = false)]
    away: String,
    #[schema(required = false)]
    boards: Vec<BoardView>,
}

/// One board of a match.
#[derive(ToSchema)]
pub struct BoardView {
    #[schema(required = false)]
    board: i64,
    #[schema(required = false)]
    red: String,
    #[schema(required = false)]
    black: String,
    #[schema(required = false)]
    game_id: Option<String>,
    #[schema(required = false)]
    result: Option<GameResult>,
}

/// A team event's standings (H7, H9).
#[derive(ToSchema)]
pub struct TeamStandings {
    #[schema(required = false)]
    tie_breaks: Vec<TieBreakName>,
    #[schema(required = false)]
    rows: Vec<TeamStandingRow>,
    /// Ties still to be played off (H8).
    #[schema(required = false)]
    needs_playoff: Vec<TeamPlaceTie>,
}

/// A tie-break's names.
#[derive(ToSchema)]
pub struct TieBreakName {
    #[schema(required = false)]
    name: String,
    #[schema(required = false)]
    chinese: String,
    #[schema(required = false)]
    fide: String,
}

/// One row of a team event's standings.
#[derive(ToSchema)]
pub struct TeamStandingRow {
    #[schema(required = false)]
    rank: i64,
    #[schema(required = false)]
    shared: bool,
    #[schema(required = false)]
    name: String,
    #[schema(required = false)]
    match_points: f64,
    #[schema(required = false)]
    game_points: f64,
    #[schema(required = false)]
    game_wins: i64,
    #[schema(required = false)]
    direct: Option<f64>,
    #[schema(required = false)]
    fouls: i64,
}

/// Which kind of event an invitation is to.
#[derive(ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum InvitationKind {
    /// `GET /api/events/{id}`.
    Event,
    /// `GET /api/team-events/{id}`.
    TeamEvent,
}

/// An open invitation.
#[derive(ToSchema)]
pub struct Invitation {
    kind: InvitationKind,
    id: String,
    name: String,
    game: String,
    #[schema(required = false)]
    organiser: Option<String>,
    rated: bool,
    clock: ClockView,
}

/// `GET /api/invitations`.
#[derive(ToSchema)]
pub struct InvitationList {
    invitations: Vec<Invitation>,
}

/// One line of `GET /api/events/{id}/stream`.
#[derive(ToSchema)]
#[serde(tag = "t", content = "event", rename_all = "snake_case")]
pub enum EventLine {
    /// An event.
    Event(EventView),
    /// A team event.
    TeamEvent(TeamEventView),
}
