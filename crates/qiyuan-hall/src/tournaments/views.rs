//! The answers of events and team events as types: what the HTTP API
//! serialises (with `axum::Json`) and what the OpenAPI document describes
//! (each derives `ToSchema`), so the shape and its documentation have one
//! source. Built by `events` and `team_events`; the field names, nesting,
//! null-vs-absent choices and number types are the API's.
//!
//! A field that appears only in some states is an `Option` skipped when
//! `None` (absent); an `Option` without the skip is written as `null`.

use std::collections::BTreeMap;

use qiyuan_events::event::RoundKind;
use qiyuan_events::standings::TieBreakValue;
use qiyuan_events::team::TeamTieBreak;
use qiyuan_events::{EventSettings, EventStatus, Format, GameResult, TieBreak};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A clock as events show it.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
pub struct ClockView {
    pub initial_s: i64,
    pub increment_s: i64,
}

/// The hall's status of an event (stored with the event, too).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
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

impl EventState {
    /// The name as stored and shown.
    pub fn as_str(self) -> &'static str {
        match self {
            EventState::Open => "open",
            EventState::Running => "running",
            EventState::Finished => "finished",
            EventState::Error => "error",
        }
    }
}

/// An event, as `GET /api/events/{id}` shows it. The fields from
/// `event_status` on appear once the event has started.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = Event)]
pub struct EventView {
    pub id: String,
    pub name: String,
    pub game: String,
    /// Target score (for variants that have one).
    pub target: Option<i32>,
    pub clock: ClockView,
    /// Whether games between people are rated.
    pub rated: bool,
    pub organiser: Option<String>,
    pub status: EventState,
    pub error: Option<String>,
    pub format: Format,
    /// Scoring, tie-breaks, play-offs, time cap (every field filled in).
    // Documented as an object: `qiyuan_events::EventSettings` has no schema
    // of its own (its fields are those of `SettingsBody`, with the time cap
    // in ms); the value is the typed settings, not an opaque one.
    #[schema(value_type = Object)]
    pub settings: EventSettings,
    /// Entrants who have accepted.
    pub players: Vec<String>,
    /// People named by the organiser who have not accepted yet.
    pub invited: Vec<String>,
    /// Empty until the event starts.
    pub rounds: Vec<RoundView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub event_status: Option<EventStatus>,
    /// The current stage, from 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub stage: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub stages: Option<Vec<StageField>>,
    /// Play-offs for places that may not be shared (H8).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub playoffs: Option<Vec<TiePlayoffView>>,
    /// Technical fouls (X8) by player.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub fouls: Option<BTreeMap<String, u32>>,
    /// Once the event is finished.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub winner: Option<String>,
}

/// The field of one stage.
#[derive(Debug, Serialize, ToSchema)]
pub struct StageField {
    pub stage: u8,
    pub field: Vec<String>,
}

/// One round of an event.
#[derive(Debug, Serialize, ToSchema)]
pub struct RoundView {
    pub number: u32,
    pub stage: u8,
    pub kind: RoundKind,
    pub byes: Vec<String>,
    pub pairings: Vec<PairingView>,
}

/// One pairing of a round.
#[derive(Debug, Serialize, ToSchema)]
pub struct PairingView {
    pub board: u32,
    pub red: String,
    pub black: String,
    pub game_id: Option<String>,
    pub result: Option<GameResult>,
    /// Fouls (X8) recorded with the result.
    pub fouls: PairingFouls,
    /// The stage-1 group (three-stage events), from 1.
    pub group: Option<u32>,
    /// For a play-off game: the board whose drawn game it decides.
    pub playoff_of: Option<u32>,
}

/// Technical fouls (X8) of one game, per side.
#[derive(Debug, Serialize, ToSchema)]
pub struct PairingFouls {
    pub red: u32,
    pub black: u32,
}

/// A play-off for a place that may not be shared (H8), a gauntlet.
#[derive(Debug, Serialize, ToSchema)]
pub struct TiePlayoffView {
    /// The place it decides.
    pub place: u32,
    /// The tied players.
    pub players: Vec<String>,
    pub done: bool,
    pub games: Vec<TieGameView>,
}

/// One game of a play-off.
#[derive(Debug, Serialize, ToSchema)]
pub struct TieGameView {
    pub red: String,
    pub black: String,
    pub game_id: String,
    pub result: Option<GameResult>,
}

/// One event in `GET /api/events`.
#[derive(Debug, Serialize, ToSchema)]
pub struct EventSummary {
    pub id: String,
    pub name: String,
    pub game: String,
    pub status: EventState,
    pub format: Format,
    /// Entrants who have accepted.
    pub players: usize,
    /// People invited who have not answered.
    pub invited: usize,
    pub created_ms: i64,
}

/// `GET /api/events`: a page of events (a summary each), newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct EventList {
    pub events: Vec<EventSummary>,
    /// Every event, over all pages.
    pub total: usize,
    /// The `offset` of the next page; null on the last.
    pub next: Option<usize>,
}

/// An event's standings (H6, H9).
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = Standings)]
pub struct StandingsView {
    /// The tie-breaks applied, in order (the columns' meaning).
    pub tie_breaks: Vec<TieBreakInfo>,
    /// Rows, best first.
    pub rows: Vec<StandingRowView>,
    /// Places that may not be shared but are (H8).
    pub needs_playoff: Vec<PlaceTieView>,
}

/// A tie-break and its names.
#[derive(Debug, Serialize, ToSchema)]
pub struct TieBreakInfo {
    pub name: TieBreak,
    pub chinese: &'static str,
    pub fide: &'static str,
    /// FIDE's abbreviation, where it has one.
    pub abbreviation: Option<&'static str>,
}

/// One row of an event's standings.
#[derive(Debug, Serialize, ToSchema)]
pub struct StandingRowView {
    /// The place, from 1 (shared places repeat).
    pub rank: u32,
    pub shared: bool,
    pub name: String,
    /// The entrant's id (`u:ID` or `ai:N`).
    pub player: String,
    /// Game points (H3), byes included.
    pub score: f64,
    pub sonneborn_berger: f64,
    pub buchholz: f64,
    pub wins: u32,
    /// Direct encounter among the tied, where it was applied.
    pub direct: Option<f64>,
    pub fouls: u32,
    pub games: u32,
    /// The selected FIDE tie-breaks without a column above, in the event's
    /// order.
    pub fide: Vec<TieBreakValue>,
}

/// Players tied on a place that may not be shared (H8).
#[derive(Debug, Serialize, ToSchema)]
pub struct PlaceTieView {
    pub place: u32,
    /// The tied entrants' ids.
    pub players: Vec<String>,
}

/// The hall's status of a team event (stored with the event, too).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
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

impl TeamEventState {
    /// The name as stored and shown.
    pub fn as_str(self) -> &'static str {
        match self {
            TeamEventState::Invited => "invited",
            TeamEventState::Running => "running",
            TeamEventState::Finished => "finished",
            TeamEventState::Declined => "declined",
            TeamEventState::Error => "error",
        }
    }
}

/// A team event (H7), as `GET /api/team-events/{id}` shows it.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TeamEvent)]
pub struct TeamEventView {
    pub id: String,
    pub name: String,
    pub game: String,
    pub clock: ClockView,
    pub organiser: String,
    pub status: TeamEventState,
    pub error: Option<String>,
    /// People named who have not accepted yet.
    pub invited: Vec<String>,
    pub teams: Vec<TeamView>,
    pub rounds: Vec<TeamRoundView>,
    /// Play-offs for places that may not be shared (H8), every board
    /// armageddon.
    pub playoffs: Vec<TeamPlayoffView>,
}

/// A team and its players in board order.
#[derive(Debug, Serialize, ToSchema)]
pub struct TeamView {
    pub name: String,
    pub players: Vec<String>,
}

/// One round of a team event (or of a team play-off).
#[derive(Debug, Serialize, ToSchema)]
pub struct TeamRoundView {
    pub number: usize,
    /// The team sitting out.
    pub bye: Option<String>,
    pub matches: Vec<TeamMatchView>,
}

/// One match between two teams.
#[derive(Debug, Serialize, ToSchema)]
pub struct TeamMatchView {
    pub home: Option<String>,
    pub away: Option<String>,
    pub boards: Vec<BoardView>,
}

/// One board of a match.
#[derive(Debug, Serialize, ToSchema)]
pub struct BoardView {
    pub board: usize,
    pub red: String,
    pub black: String,
    pub game_id: Option<String>,
    pub result: Option<GameResult>,
}

/// A team play-off (H8).
#[derive(Debug, Serialize, ToSchema)]
pub struct TeamPlayoffView {
    /// The place it decides.
    pub place: u32,
    /// The tied teams.
    pub teams: Vec<Option<String>>,
    /// The decided order, best first (null while it runs).
    pub order: Option<Vec<Option<String>>>,
    pub rounds: Vec<TeamRoundView>,
}

/// One team event in `GET /api/team-events`.
#[derive(Debug, Serialize, ToSchema)]
pub struct TeamEventSummary {
    pub id: String,
    pub name: String,
    pub game: String,
    pub status: TeamEventState,
    pub organiser: String,
    pub teams: usize,
    /// Players per team.
    pub boards: usize,
}

/// `GET /api/team-events`: running ones first, then by name.
#[derive(Debug, Serialize, ToSchema)]
pub struct TeamEventList {
    pub team_events: Vec<TeamEventSummary>,
}

/// A team event's standings (H7, H9).
#[derive(Debug, Serialize, ToSchema)]
pub struct TeamStandings {
    pub tie_breaks: Vec<TieBreakName>,
    pub rows: Vec<TeamStandingRow>,
    /// Ties still to be played off (H8).
    pub needs_playoff: Vec<TeamPlaceTie>,
}

/// A team tie-break's names.
#[derive(Debug, Serialize, ToSchema)]
pub struct TieBreakName {
    #[schema(value_type = String)]
    pub name: TeamTieBreak,
    pub chinese: &'static str,
    pub fide: &'static str,
}

/// One row of a team event's standings.
#[derive(Debug, Serialize, ToSchema)]
pub struct TeamStandingRow {
    pub rank: u32,
    pub shared: bool,
    pub name: String,
    pub match_points: f64,
    pub game_points: f64,
    pub game_wins: u32,
    pub direct: Option<f64>,
    pub fouls: u32,
}

/// Teams tied on a place that may not be shared (H8).
#[derive(Debug, Serialize, ToSchema)]
pub struct TeamPlaceTie {
    pub place: u32,
    pub teams: Vec<Option<String>>,
}

/// Which kind of event an invitation is to.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum InvitationKind {
    /// `GET /api/events/{id}`.
    Event,
    /// `GET /api/team-events/{id}`.
    TeamEvent,
}

/// An open invitation.
#[derive(Debug, Serialize, ToSchema)]
pub struct Invitation {
    pub kind: InvitationKind,
    pub id: String,
    pub name: String,
    pub game: String,
    pub organiser: Option<String>,
    pub rated: bool,
    pub clock: ClockView,
}

/// `GET /api/invitations`.
#[derive(Debug, Serialize, ToSchema)]
pub struct InvitationList {
    pub invitations: Vec<Invitation>,
}

/// One line of `GET /api/events/{id}/stream` (and of the event's bus
/// topic): `{"t": "event", "event": Event}` or
/// `{"t": "team_event", "event": TeamEvent}`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(tag = "t", content = "event", rename_all = "snake_case")]
pub enum EventLine {
    /// An event.
    Event(Box<EventView>),
    /// A team event.
    TeamEvent(Box<TeamEventView>),
}

impl EventLine {
    /// The line as JSON text, as the event's bus topic carries it.
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| {
            // Cannot happen: plain data with string keys.
            tracing::error!(error = %e, "cannot encode an event line");
            String::new()
        })
    }
}
