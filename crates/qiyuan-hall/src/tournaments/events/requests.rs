//! The API's requests on events: create, join, decline, start, and the
//! views (event, list, standings, TRF export). Bounds are checked here,
//! before anything is built from a request.

use std::collections::BTreeSet;
use std::sync::Arc;

use qiyuan_events::event::ByePoints;
use qiyuan_events::{
    Event, EventError, EventSettings, Format, PlayerId, PlayoffSettings, ScoringSystem, TieBreak,
};
use serde::Deserialize;
use tokio::sync::Mutex;

use super::driver::save;
use super::{HallEvent, HookMsg, bad_event, collect_from};
use crate::clock::wall_ms;
use crate::domain::hall::{ClockSpec, Hall, HallError, HallResult};
use crate::error::ErrorCode;
use crate::limits::{
    MAX_ADVANCE_PER_GROUP, MAX_EVENT_PLAYERS, MAX_FINAL_BRACKET, MAX_GAME_TIME_CAP_S, MAX_GROUPS,
    MAX_NAME_CHARS, MAX_SWISS_ROUNDS, MAX_TIE_BREAKS, MAX_UNSHAREABLE_PLACES, check_len,
    check_range,
};
use crate::store::User;
use crate::tournaments::events::hooks;
use crate::tournaments::views::{
    EventState, EventSummary, EventView, PlaceTieView, StandingRowView, StandingsView, TieBreakInfo,
};

/// Event settings in `POST /api/events`; every field has the format's default.
#[derive(Deserialize, Debug, Default, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SettingsBody {
    /// `two_one_zero` (default) or `one_half_zero` (H3).
    #[serde(default)]
    scoring: Option<ScoringSystem>,
    /// Tie-break names in order (H6): the Chinese ones (`sonneborn_berger`,
    /// `buchholz`, `wins`, `direct_encounter`, `fouls`) and FIDE's C.07
    /// ones (`fide_buchholz`, `buchholz_cut1`, `buchholz_cut2`,
    /// `buchholz_median1`, `fide_sonneborn_berger`, `fide_wins`, `games_won`,
    /// `games_with_black`, `average_rating_of_opponents`, `progressive_score`).
    #[serde(default)]
    #[schema(max_items = 8)]
    tie_breaks: Option<Vec<TieBreak>>,
    /// The play-off game (H4, H8).
    #[serde(default)]
    playoff: Option<PlayoffSettings>,
    /// Seed for drawn brackets and groups.
    #[serde(default)]
    draw_seed: Option<u64>,
    /// What a Swiss bye scores.
    #[serde(default)]
    bye_points: Option<ByePoints>,
    /// Places that may not be shared (H8); default `[1]`.
    #[serde(default)]
    #[schema(schema_with = places_schema)]
    unshareable_places: Option<Vec<u32>>,
    /// The game time cap in seconds (X6): a game past the cap scores 0 for both.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 86400)]
    game_time_cap_s: Option<u64>,
}

/// `POST /api/events`. (The served document lists the registered two-seat
/// variants for `game` and the target option's bounds for `target`.)
#[derive(Deserialize, Debug, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewEvent {
    /// Shown in lists.
    #[serde(default)]
    #[schema(max_length = 100)]
    name: Option<String>,
    /// Rule set of every game (a two-seat variant; others are refused with
    /// `not_two_seats`).
    game: String,
    /// Target score (for variants that have one).
    #[serde(default)]
    target: Option<i32>,
    /// Clock of the event's games (play-offs use `settings.playoff`).
    #[serde(default)]
    clock: Option<ClockSpec>,
    /// The format and its own settings, e.g. `{"kind":"round_robin","cycles":1}`.
    format: Format,
    /// Scoring, tie-breaks, play-offs, time cap.
    #[serde(default)]
    settings: Option<SettingsBody>,
    /// Entrants in seeding order: user names or `ai:N` (a level may appear
    /// more than once).
    #[serde(default)]
    #[schema(max_items = 256)]
    players: Vec<String>,
    /// Whether games between people are rated.
    #[serde(default)]
    rated: bool,
    /// Start at once (otherwise `POST /api/events/{id}/start`).
    #[serde(default)]
    start: bool,
}

fn new_event_id() -> String {
    use rand::Rng;
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let mut rng = rand::rng();
    let s: String = (0..8)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect();
    format!("e{s}")
}

fn settings_from(format: &Format, body: SettingsBody) -> HallResult<EventSettings> {
    let mut s = EventSettings::defaults_for(format);
    if let Some(v) = body.scoring {
        s.scoring = v;
    }
    if let Some(v) = body.tie_breaks {
        check_len("settings.tie_breaks", v.len(), MAX_TIE_BREAKS)?;
        s.tie_breaks = v;
    }
    if let Some(v) = body.playoff {
        let ok = |ms: u64| (1_000..=3 * 3_600_000).contains(&ms);
        if !ok(v.red_base_ms) || !ok(v.black_base_ms) || v.increment_ms > 600_000 {
            return Err(HallError::new(
                ErrorCode::OutOfRange,
                "settings.playoff: red_base_ms and black_base_ms must be 1000 to 10800000, increment_ms 0 to 600000",
            )
            .with("field", "settings.playoff"));
        }
        s.playoff = v;
    }
    if let Some(v) = body.draw_seed {
        s.draw_seed = v;
    }
    if let Some(v) = body.bye_points {
        s.bye_points = v;
    }
    if let Some(v) = body.unshareable_places {
        check_len(
            "settings.unshareable_places",
            v.len(),
            MAX_UNSHAREABLE_PLACES,
        )?;
        if v.contains(&0) {
            return Err(HallError::bad("unshareable_places are places from 1"));
        }
        s.unshareable_places = v;
    }
    if let Some(v) = body.game_time_cap_s {
        if !(1..=MAX_GAME_TIME_CAP_S).contains(&v) {
            return Err(HallError::out_of_range(
                "settings.game_time_cap_s",
                1,
                MAX_GAME_TIME_CAP_S as i64,
            ));
        }
        s.game_time_cap_ms = Some(v * 1000);
    }
    Ok(s)
}

/// Checks every size-like field of a format against its documented bound,
/// before anything is built from it.
fn check_format(format: &Format) -> HallResult<()> {
    match format {
        Format::RoundRobin { cycles } => check_range("format.cycles", *cycles, 1, 2),
        Format::Knockout { .. } => Ok(()),
        Format::Swiss { rounds, .. } => {
            check_range("format.rounds", *rounds, 1, i64::from(MAX_SWISS_ROUNDS))
        }
        Format::ThreeStage(t) => {
            check_range("format.groups", t.groups, 1, i64::from(MAX_GROUPS))?;
            check_range(
                "format.advance_per_group",
                t.advance_per_group,
                1,
                i64::from(MAX_ADVANCE_PER_GROUP),
            )?;
            check_range(
                "format.final_bracket_size",
                t.final_bracket_size,
                2,
                i64::from(MAX_FINAL_BRACKET),
            )?;
            if u64::from(t.groups) * u64::from(t.advance_per_group) > MAX_EVENT_PLAYERS as u64 {
                return Err(HallError::new(
                    ErrorCode::OutOfRange,
                    format!(
                        "format.groups × format.advance_per_group must be at most {MAX_EVENT_PLAYERS} (the most players of an event)"
                    ),
                )
                .with("field", "players")
                .with("min", 0)
                .with("max", MAX_EVENT_PLAYERS));
            }
            Ok(())
        }
    }
}

/// The AI budget of an organiser: guests may enter no AI players; others at
/// most [`crate::limits::Limits::event_ai_entrants`], in at most
/// `ai_events_per_user` unfinished events at once.
pub(crate) async fn check_ai_budget(
    hall: &Hall,
    user: &User,
    ai_entrants: usize,
) -> HallResult<()> {
    if ai_entrants == 0 {
        return Ok(());
    }
    let over = |msg: String, why: &str, max: usize| {
        Err(HallError::new(ErrorCode::AiBudget, msg)
            .with_status(403)
            .with("why", why)
            .with("max", max))
    };
    if user.guest {
        return over(
            "guests may not enter AI players in events; register first".into(),
            "guest",
            0,
        );
    }
    let max = hall.limits.event_ai_entrants;
    if ai_entrants > max {
        return over(
            format!("at most {max} AI players in one event"),
            "event_entrants",
            max,
        );
    }
    let running = hooks(hall).unfinished_ai_events_of(&user.username).await
        + crate::tournaments::team_events::unfinished_ai_events_of(hall, &user.username).await;
    if running >= hall.limits.ai_events_per_user {
        return over(
            format!(
                "you already run {running} unfinished event(s) with AI players; at most {} at once",
                hall.limits.ai_events_per_user
            ),
            "events",
            hall.limits.ai_events_per_user,
        );
    }
    Ok(())
}

/// `POST /api/events`: creates an event (and starts it if `start`). People
/// named in `players` other than the organiser are invited and entered
/// only when they accept (`POST /api/events/{id}/join`).
pub async fn create(hall: &Arc<Hall>, user: &User, req: NewEvent) -> HallResult<EventView> {
    check_format(&req.format)?;
    check_len("players", req.players.len(), MAX_EVENT_PLAYERS)?;
    let mut options = qiyuan_core::Options::new();
    if let Some(t) = req.target {
        options.insert("target".into(), i64::from(t));
    }
    hall.games.event_variant(&req.game)?;
    hall.games.new_table(&req.game, &options, None)?;
    let clock = req.clock.unwrap_or(ClockSpec {
        initial_s: 600,
        increment_s: 0,
    });
    clock.check()?;
    if req.rated && user.guest {
        return Err(HallError::forbidden(
            "guests may organise only unrated events",
        ));
    }
    let name = req.name.unwrap_or_else(|| format!("{} event", req.game));
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(HallError::range(
            format!("name: at most {MAX_NAME_CHARS} characters"),
            "name",
            1,
            MAX_NAME_CHARS as i64,
        ));
    }
    let ai_entrants = req.players.iter().filter(|p| p.starts_with("ai:")).count();
    check_ai_budget(hall, user, ai_entrants).await?;
    let settings = settings_from(&req.format, req.settings.unwrap_or_default())?;
    let mut he = HallEvent {
        id: new_event_id(),
        name,
        game: req.game,
        target: req.target,
        initial_s: clock.initial_s,
        increment_s: clock.increment_s,
        rated: req.rated,
        organiser: Some(user.username.clone()),
        status: EventState::Open,
        error: None,
        entrants: Vec::new(),
        invited: BTreeSet::new(),
        format: req.format,
        settings,
        event: None,
        ties: Vec::new(),
        capped: BTreeSet::new(),
        created_ms: wall_ms(),
    };
    for p in &req.players {
        he.add_entrant(hall, p, user).await?;
    }
    if req.start && !he.invited.is_empty() {
        return Err(HallError::conflict(
            "the people named must accept their invitation before the event starts: create it without \"start\", then start it once they joined",
        )
        .with_code(ErrorCode::InvitationsPending));
    }
    // Check the format's settings now, not at the start: only a field too
    // small for it is acceptable while entries are open.
    match Event::create(he.format.clone(), he.settings.clone(), he.entrants.clone()) {
        Ok(mut ev) if req.start => {
            record_ratings(hall, &he.game, &mut ev).await;
            he.event = Some(ev);
            he.status = EventState::Running;
        }
        Ok(_) => {}
        Err(EventError::TooFewPlayers { min, .. }) if !req.start => {
            // Entries are still open: check the rest of the settings with a
            // field of placeholders just big enough (bounded by check_format).
            let dummies = (0..min.clamp(2, MAX_EVENT_PLAYERS))
                .map(|i| {
                    let id = format!("check:{i}");
                    qiyuan_events::Player::new(id.as_str(), id.as_str())
                })
                .collect();
            match Event::create(he.format.clone(), he.settings.clone(), dummies) {
                Ok(_) | Err(EventError::TooFewPlayers { .. }) => {}
                Err(e) => return Err(bad_event(e)),
            }
        }
        Err(e) => return Err(bad_event(e)),
    }
    let id = he.id.clone();
    save(hall, &he).await;
    let json = he.view();
    hooks(hall)
        .events
        .write()
        .unwrap_or_else(|e| e.into_inner())
        .insert(id.clone(), Arc::new(Mutex::new(he)));
    if req.start {
        hooks(hall).send(HookMsg::Drive(id));
    }
    Ok(json)
}

fn find(hall: &Hall, id: &str) -> HallResult<Arc<Mutex<HallEvent>>> {
    hooks(hall)
        .event(id)
        .ok_or_else(|| HallError::not_found(format!("no event '{}'", crate::error::shown(id))))
}

/// `POST /api/events/{id}/join`: enters the user while entries are open.
pub async fn join(hall: &Arc<Hall>, id: &str, user: &User) -> HallResult<EventView> {
    let e = find(hall, id)?;
    let mut he = e.lock().await;
    if he.status != EventState::Open {
        return Err(HallError::conflict(
            "entries are closed: the event has started",
        ));
    }
    let me = PlayerId(format!("u:{}", user.id));
    if !he.invited.remove(&me) {
        // Not invited: an open entry.
        he.add_user(user)?;
    }
    save(hall, &he).await;
    Ok(he.view())
}

/// `POST /api/events/{id}/decline`: turns down an invitation.
pub async fn decline(hall: &Arc<Hall>, id: &str, user: &User) -> HallResult<EventView> {
    let e = find(hall, id)?;
    let mut he = e.lock().await;
    let me = PlayerId(format!("u:{}", user.id));
    if !he.invited.remove(&me) {
        return Err(HallError::conflict("you have no invitation to this event")
            .with_code(ErrorCode::NotInvited));
    }
    he.entrants.retain(|p| p.id != me);
    save(hall, &he).await;
    Ok(he.view())
}

/// Records each entrant's rating at the start (for FIDE's ARO and the TRF
/// export): an account's rating in the game's family where it has one, an
/// AI level's fixed rating. Others stay unrated.
async fn record_ratings(hall: &Hall, game: &str, ev: &mut Event) {
    let family = crate::tournaments::ratings::family_of(hall, game);
    let ids: Vec<qiyuan_events::PlayerId> = ev.players().iter().map(|p| p.id.clone()).collect();
    for id in ids {
        let rating = if let Some(level) =
            id.0.strip_prefix("ai:")
                .and_then(|n| n.split('#').next())
                .and_then(|n| n.parse::<u8>().ok())
        {
            Some(crate::tournaments::ratings::ai_rating(hall, game, level))
        } else if let Some(user) = id.0.strip_prefix("u:").and_then(|n| n.parse::<i64>().ok()) {
            hall.store
                .rating(user, &family)
                .await
                .ok()
                .flatten()
                .map(|r| r.value)
        } else {
            None
        };
        if let Some(r) = rating.filter(|r| r.is_finite() && *r > 0.0) {
            ev.set_rating(&id, r.round().min(9999.0) as u32);
        }
    }
}

/// `POST /api/events/{id}/start`: the organiser closes entries and pairs round 1.
pub async fn start(hall: &Arc<Hall>, id: &str, user: &User) -> HallResult<EventView> {
    let e = find(hall, id)?;
    let mut he = e.lock().await;
    if he.organiser.as_deref() != Some(user.username.as_str()) {
        return Err(HallError::forbidden(
            "only the organiser may start the event",
        ));
    }
    if he.status != EventState::Open {
        return Err(HallError::conflict("the event has already started"));
    }
    // Invitations not accepted by now lapse: only those who agreed play.
    let mut ev =
        Event::create(he.format.clone(), he.settings.clone(), he.accepted()).map_err(bad_event)?;
    record_ratings(hall, &he.game, &mut ev).await;
    let lapsed = std::mem::take(&mut he.invited);
    he.entrants.retain(|p| !lapsed.contains(&p.id));
    he.event = Some(ev);
    he.status = EventState::Running;
    save(hall, &he).await;
    hooks(hall).send(HookMsg::Drive(id.to_string()));
    Ok(he.view())
}

/// `GET /api/events/{id}`.
pub async fn get(hall: &Hall, id: &str) -> HallResult<EventView> {
    let e = find(hall, id)?;
    let he = e.lock().await;
    Ok(he.view())
}

/// `GET /api/events`: every event, newest first.
pub async fn list(hall: &Hall) -> Vec<EventSummary> {
    let mut out = collect_from(&hooks(hall).events, |he: &HallEvent| Some(he.summary())).await;
    // Newest first; events of the same millisecond by id, so that pages
    // (`GET /api/events?offset=`) neither repeat nor skip one.
    out.sort_by(|a, b| (b.created_ms, &a.id).cmp(&(a.created_ms, &b.id)));
    out
}

/// The standings of `stage` (default: the current one) with every
/// tie-break column (H6, H9).
async fn standings_of(
    hall: &Hall,
    id: &str,
    stage: Option<u8>,
) -> HallResult<qiyuan_events::Standings> {
    let e = find(hall, id)?;
    let he = e.lock().await;
    let Some(ev) = &he.event else {
        return Err(HallError::conflict("the event has not started"));
    };
    let stage = stage.unwrap_or(ev.stage());
    if stage == 0 || stage > ev.stage() {
        return Err(HallError::bad(format!("stage must be 1 to {}", ev.stage())));
    }
    Ok(ev.stage_standings(stage))
}

/// `GET /api/events/{id}/standings[?stage=N]`.
pub async fn standings(hall: &Hall, id: &str, stage: Option<u8>) -> HallResult<StandingsView> {
    let s = standings_of(hall, id, stage).await?;
    let rows = s
        .rows
        .into_iter()
        .map(|r| StandingRowView {
            rank: r.rank,
            shared: r.shared,
            name: r.name,
            player: r.player.0,
            score: r.score,
            sonneborn_berger: r.sonneborn_berger,
            buchholz: r.buchholz,
            wins: r.wins,
            direct: r.direct,
            fouls: r.fouls,
            games: r.games,
            fide: r.fide,
        })
        .collect();
    let tie_breaks = s
        .tie_breaks
        .iter()
        .map(|&t| TieBreakInfo {
            name: t,
            chinese: t.chinese(),
            fide: t.fide(),
            abbreviation: t.abbreviation(),
        })
        .collect();
    let needs_playoff = s
        .needs_playoff
        .into_iter()
        .map(|t| PlaceTieView {
            place: t.place,
            players: t.players.into_iter().map(|p| p.0).collect(),
        })
        .collect();
    Ok(StandingsView {
        tie_breaks,
        rows,
        needs_playoff,
    })
}

/// `GET /api/events/{id}/standings.csv[?stage=N]` (H9).
pub async fn standings_csv(hall: &Hall, id: &str, stage: Option<u8>) -> HallResult<String> {
    Ok(standings_of(hall, id, stage).await?.to_csv())
}

/// `GET /api/events/{id}/tournament.trf`: the event as FIDE's tournament
/// report file (TRF-16 with the TRF-2026 lines; complete rounds only).
pub async fn tournament_trf(hall: &Hall, id: &str) -> HallResult<String> {
    let e = find(hall, id)?;
    let he = e.lock().await;
    let Some(ev) = &he.event else {
        return Err(HallError::conflict("the event has not started"));
    };
    Ok(qiyuan_events::trf::event_to_trf(ev, &he.name).to_trf())
}

/// The schema of `settings.unshareable_places`: places from 1.
fn places_schema() -> impl Into<utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>> {
    utoipa::openapi::schema::ArrayBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::from_iter([
            utoipa::openapi::schema::Type::Array,
            utoipa::openapi::schema::Type::Null,
        ]))
        .description(Some("places that may not be shared (H8); default [1]"))
        .items(
            utoipa::openapi::schema::ObjectBuilder::new()
                .schema_type(utoipa::openapi::schema::Type::Integer)
                .minimum(Some(1))
                .maximum(Some(u32::MAX)),
        )
        .max_items(Some(crate::limits::MAX_UNSHAREABLE_PLACES))
        .build()
}
