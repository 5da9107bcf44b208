//! Events run by the hall (H3-H9): the API's view of a `qiyuan_events::Event`,
//! the games the hall starts for its pairings, and the background task that
//! reacts to finished games (ratings, results, the next round).
//!
//! Every change to an event happens on one task ([`run`]) that reads
//! [`HookMsg`]s from a channel: game ends, "drive this event" requests and
//! game time caps. Serialising them there means a result can never race the
//! pairing that waits for it, and ratings are read-modify-written one game at
//! a time. Events are stored as JSON after every change and resume after a
//! restart (games finished while the hall was down are picked up then).

use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::{Arc, RwLock};
use std::time::Duration;

use qiyuan_core::{EndReason, Outcome};
use qiyuan_events::event::ByePoints;
use qiyuan_events::{
    Event, EventError, EventSettings, EventStatus, Format, Fouls, GameResult, PlayerId,
    PlayoffKind, PlayoffSettings, ScoringSystem, TieBreak,
};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::sync::{Mutex, mpsc};

use crate::clock::wall_ms;
use crate::fouls::FoulWatch;
use crate::hall::{ClockSpec, Hall, HallError, HallResult};
use crate::limits::{
    MAX_ADVANCE_PER_GROUP, MAX_EVENT_PLAYERS, MAX_FINAL_BRACKET, MAX_GAME_TIME_CAP_S, MAX_GROUPS,
    MAX_NAME_CHARS, MAX_SWISS_ROUNDS, MAX_TIE_BREAKS, MAX_UNSHAREABLE_PLACES, check_len,
    check_range,
};
use crate::store::{SeatRow, User};

/// Work for the hook task.
#[derive(Debug)]
pub enum HookMsg {
    /// A game ended: rate it, record it in its event.
    GameOver(String),
    /// Pair, start games, record results of an event as far as possible.
    Drive(String),
    /// A game's time cap (X6) passed.
    Cap(String),
}

/// The hall's side of ratings and events: the hook channel, the fouls watch
/// and the events in memory.
pub struct Hooks {
    tx: mpsc::UnboundedSender<HookMsg>,
    rx: std::sync::Mutex<Option<mpsc::UnboundedReceiver<HookMsg>>>,
    /// Repeated draw offers (X8).
    pub fouls: FoulWatch,
    events: RwLock<HashMap<String, Arc<Mutex<HallEvent>>>>,
    /// Which event a game belongs to.
    game_events: std::sync::Mutex<HashMap<String, String>>,
    /// Games whose time cap timer is running.
    armed: std::sync::Mutex<HashSet<String>>,
    /// Team events (H7).
    pub(crate) teams: crate::team_events::TeamEvents,
}

impl Default for Hooks {
    fn default() -> Self {
        let (tx, rx) = mpsc::unbounded_channel();
        Hooks {
            tx,
            rx: std::sync::Mutex::new(Some(rx)),
            fouls: FoulWatch::default(),
            events: RwLock::new(HashMap::new()),
            game_events: std::sync::Mutex::new(HashMap::new()),
            armed: std::sync::Mutex::new(HashSet::new()),
            teams: Default::default(),
        }
    }
}

impl Hooks {
    /// Tells the hook task that a game ended.
    pub fn game_over(&self, id: &str) {
        let _ = self.tx.send(HookMsg::GameOver(id.to_string()));
    }

    fn send(&self, msg: HookMsg) {
        let _ = self.tx.send(msg);
    }

    fn event(&self, id: &str) -> Option<Arc<Mutex<HallEvent>>> {
        self.events
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .cloned()
    }

    /// Whether game `game` belongs to an event (individual or team).
    pub(crate) fn in_event(&self, game: &str) -> bool {
        self.event_of_game(game).is_some() || self.teams.event_of_game(game).is_some()
    }

    fn event_of_game(&self, game: &str) -> Option<String> {
        self.game_events
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(game)
            .cloned()
    }

    /// Unfinished events organised by `name` that have AI entrants.
    pub(crate) async fn unfinished_ai_events_of(&self, name: &str) -> usize {
        collect_from(&self.events, |he: &HallEvent| {
            (he.organiser.as_deref() == Some(name)
                && matches!(he.status.as_str(), "open" | "running")
                && he.ai_entrants() > 0)
                .then_some(())
        })
        .await
        .len()
    }

    /// Events that invite user `id` and wait for an answer.
    pub(crate) async fn invitations_of(&self, id: i64) -> Vec<Value> {
        let me = PlayerId(format!("u:{id}"));
        collect_from(&self.events, |he: &HallEvent| {
            (he.status == "open" && he.invited.contains(&me)).then(|| {
                json!({
                    "kind": "event", "id": he.id, "name": he.name, "game": he.game,
                    "organiser": he.organiser, "rated": he.rated,
                    "clock": {"initial_s": he.initial_s, "increment_s": he.increment_s},
                })
            })
        })
        .await
    }

    fn link_game(&self, game: &str, event: &str) {
        self.game_events
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(game.to_string(), event.to_string());
    }
}

/// Applies `f` to every value of a map of locked values and keeps what it
/// returns. The map is copied first, so its lock is not held across awaits.
pub(crate) async fn collect_from<T, R>(
    map: &RwLock<HashMap<String, Arc<Mutex<T>>>>,
    mut f: impl FnMut(&T) -> Option<R>,
) -> Vec<R> {
    let all: Vec<Arc<Mutex<T>>> = map
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .values()
        .cloned()
        .collect();
    let mut out = Vec::with_capacity(all.len());
    for v in all {
        if let Some(r) = f(&*v.lock().await) {
            out.push(r);
        }
    }
    out
}

/// The finisher's listener that hands finished games to the hook task
/// (ratings, events, team events: one task, so results never race).
pub struct EventsListener;

#[async_trait::async_trait]
impl crate::finisher::FinishListener for EventsListener {
    async fn finished(&self, hall: &Hall, live: &crate::hall::Live) {
        hall.hooks.game_over(&live.row.id);
    }
}

/// A play-off for a place that may not be shared (H8), played as a
/// gauntlet: the best-placed tied player defends against each of the others
/// in standings order; the last one standing takes the place, the others
/// follow in the order they were knocked out (latest first).
#[derive(Clone, Debug, Serialize, Deserialize)]
struct TiePlayoff {
    place: u32,
    players: Vec<PlayerId>,
    champion: PlayerId,
    next: usize,
    knocked_out: Vec<PlayerId>,
    games: Vec<TieGame>,
    done: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
struct TieGame {
    red: PlayerId,
    black: PlayerId,
    game_id: String,
    result: Option<GameResult>,
}

/// An event as the hall keeps it.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct HallEvent {
    id: String,
    name: String,
    game: String,
    target: Option<i32>,
    initial_s: i64,
    increment_s: i64,
    rated: bool,
    organiser: Option<String>,
    /// `open` (taking entries), `running`, `finished` or `error`.
    status: String,
    error: Option<String>,
    entrants: Vec<qiyuan_events::Player>,
    /// Entrants named by the organiser who have not accepted yet: they play
    /// only once they accept (nobody is entered, or rated, without consent).
    #[serde(default)]
    invited: BTreeSet<PlayerId>,
    format: Format,
    settings: EventSettings,
    event: Option<Event>,
    ties: Vec<TiePlayoff>,
    capped: BTreeSet<String>,
    created_ms: i64,
}

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
    #[schema(schema_with = crate::openapi::places)]
    unshareable_places: Option<Vec<u32>>,
    /// The game time cap in seconds (X6): a game past the cap scores 0 for both.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 86400)]
    game_time_cap_s: Option<u64>,
}

/// `POST /api/events`. (The served document lists the registered variants
/// for `game` and the target option's bounds for `target`.)
#[derive(Deserialize, Debug, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewEvent {
    /// Shown in lists.
    #[serde(default)]
    #[schema(max_length = 100)]
    name: Option<String>,
    /// Rule set of every game.
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

fn bad_event(e: EventError) -> HallError {
    HallError::bad(format!("event: {e}"))
}

/// The seat of an entrant: `u:ID` is a user, `ai:N` (or `ai:N#k` for the
/// k-th entry of the same level) an AI level.
fn seat_of(p: &qiyuan_events::Player) -> Option<SeatRow> {
    if let Some(id) = p.id.0.strip_prefix("u:") {
        return Some(SeatRow::User {
            id: id.parse().ok()?,
            name: p.name.clone(),
        });
    }
    let level =
        p.id.0
            .strip_prefix("ai:")?
            .split('#')
            .next()?
            .parse()
            .ok()?;
    Some(SeatRow::Ai { level })
}

impl HallEvent {
    fn name_of(&self, id: &PlayerId) -> String {
        self.entrants
            .iter()
            .find(|p| &p.id == id)
            .map_or_else(|| id.0.clone(), |p| p.name.clone())
    }

    fn player(&self, id: &PlayerId) -> Option<&qiyuan_events::Player> {
        self.entrants.iter().find(|p| &p.id == id)
    }

    /// Adds an entrant from a user name or `ai:N`. A person other than the
    /// organiser is only invited: entered once they accept.
    async fn add_entrant(&mut self, hall: &Hall, who: &str, organiser: &User) -> HallResult<()> {
        if self.entrants.len() >= MAX_EVENT_PLAYERS {
            return Err(HallError::out_of_range(
                "players",
                0,
                MAX_EVENT_PLAYERS as i64,
            ));
        }
        if let Some(n) = who.strip_prefix("ai:") {
            let level = n.parse::<u8>().ok().filter(|l| (1..=8).contains(l));
            let Some(level) = level else {
                return Err(HallError::bad(format!(
                    "player '{who}': AI players are \"ai:1\" .. \"ai:8\""
                )));
            };
            // The same level may enter more than once (engine events).
            let base = format!("ai:{level}");
            let k = self
                .entrants
                .iter()
                .filter(|p| p.id.0 == base || p.id.0.starts_with(&format!("{base}#")))
                .count();
            let id = if k == 0 {
                base.clone()
            } else {
                format!("{base}#{}", k + 1)
            };
            self.entrants
                .push(qiyuan_events::Player::new(id.as_str(), id.as_str()));
            return Ok(());
        }
        if who.is_empty() || who.len() > 64 {
            return Err(HallError::bad(format!(
                "no user '{}'",
                crate::error::shown(who)
            )));
        }
        let user = hall
            .store
            .user_by_name(who)
            .await
            .map_err(HallError::internal)?
            .ok_or_else(|| {
                HallError::bad(format!("no user '{}'", crate::error::shown(who)))
                    .with_code("no_such_user")
            })?;
        self.add_user(&user)?;
        if user.id != organiser.id {
            self.invited.insert(PlayerId(format!("u:{}", user.id)));
        }
        Ok(())
    }

    /// The entrants who have accepted (AI players and the organiser always have).
    fn accepted(&self) -> Vec<qiyuan_events::Player> {
        self.entrants
            .iter()
            .filter(|p| !self.invited.contains(&p.id))
            .cloned()
            .collect()
    }

    /// How many entrants are AI levels.
    fn ai_entrants(&self) -> usize {
        self.entrants
            .iter()
            .filter(|p| p.id.0.starts_with("ai:"))
            .count()
    }

    fn add_user(&mut self, user: &User) -> HallResult<()> {
        if self.rated && user.guest {
            return Err(HallError::forbidden(format!(
                "'{}' is a guest; guests may play only unrated events",
                user.username
            )));
        }
        let id = format!("u:{}", user.id);
        if self.entrants.iter().any(|p| p.id.0 == id) {
            return Err(HallError::conflict(format!(
                "'{}' is already entered",
                user.username
            )));
        }
        self.entrants.push(qiyuan_events::Player::new(
            id.as_str(),
            user.username.as_str(),
        ));
        Ok(())
    }

    fn pairing_json(&self, p: &qiyuan_events::Pairing) -> Value {
        json!({
            "board": p.board,
            "red": self.name_of(&p.red),
            "black": self.name_of(&p.black),
            "game_id": p.game_id,
            "result": p.result,
            "fouls": p.fouls,
            "group": p.group,
            "playoff_of": p.playoff_of,
        })
    }

    /// The event as `GET /api/events/{id}` shows it.
    fn to_json(&self) -> Value {
        let mut v = json!({
            "id": self.id,
            "name": self.name,
            "game": self.game,
            "target": self.target,
            "clock": {"initial_s": self.initial_s, "increment_s": self.increment_s},
            "rated": self.rated,
            "organiser": self.organiser,
            "status": self.status,
            "error": self.error,
            "format": self.format,
            "settings": self.settings,
            "players": self.entrants.iter().filter(|p| !self.invited.contains(&p.id)).map(|p| &p.name).collect::<Vec<_>>(),
            "invited": self.entrants.iter().filter(|p| self.invited.contains(&p.id)).map(|p| &p.name).collect::<Vec<_>>(),
            "rounds": [],
        });
        let Some(ev) = &self.event else { return v };
        v["event_status"] = json!(ev.status());
        v["stage"] = json!(ev.stage());
        let stages: Vec<Value> = (1..=ev.stage())
            .filter_map(|s| {
                ev.stage_field(s).map(|f| {
                    json!({"stage": s, "field": f.iter().map(|id| self.name_of(id)).collect::<Vec<_>>()})
                })
            })
            .collect();
        v["stages"] = json!(stages);
        v["rounds"] = ev
            .rounds()
            .iter()
            .map(|r| {
                json!({
                    "number": r.number,
                    "stage": r.stage,
                    "kind": r.kind,
                    "byes": r.byes.iter().map(|id| self.name_of(id)).collect::<Vec<_>>(),
                    "pairings": r.pairings.iter().map(|p| self.pairing_json(p)).collect::<Vec<_>>(),
                })
            })
            .collect();
        v["playoffs"] = self
            .ties
            .iter()
            .map(|t| {
                json!({
                    "place": t.place,
                    "players": t.players.iter().map(|id| self.name_of(id)).collect::<Vec<_>>(),
                    "done": t.done,
                    "games": t.games.iter().map(|g| json!({
                        "red": self.name_of(&g.red), "black": self.name_of(&g.black),
                        "game_id": g.game_id, "result": g.result,
                    })).collect::<Vec<_>>(),
                })
            })
            .collect();
        v["fouls"] = ev
            .fouls()
            .iter()
            .map(|(id, n)| (self.name_of(id), json!(n)))
            .collect::<serde_json::Map<_, _>>()
            .into();
        if ev.status() == EventStatus::Finished
            && let Some(first) = ev.standings().rows.first()
        {
            v["winner"] = json!(first.name);
        }
        v
    }

    fn summary(&self) -> Value {
        json!({
            "id": self.id, "name": self.name, "game": self.game, "status": self.status,
            "format": self.format, "players": self.entrants.len() - self.invited.len(),
            "invited": self.invited.len(), "created_ms": self.created_ms,
        })
    }

    /// Starts the hall game for one pairing (or play-off).
    async fn start_game(
        &self,
        hall: &Arc<Hall>,
        red: &PlayerId,
        black: &PlayerId,
        playoff: bool,
    ) -> HallResult<String> {
        let seat = |id: &PlayerId| {
            self.player(id)
                .and_then(seat_of)
                .ok_or_else(|| HallError::internal(format!("entrant {id} has no seat")))
        };
        let seats = vec![seat(red)?, seat(black)?];
        let (clocks, inc) = if playoff {
            let p = self.settings.playoff;
            (
                vec![p.red_base_ms as i64, p.black_base_ms as i64],
                p.increment_ms as i64,
            )
        } else {
            (vec![self.initial_s * 1000; 2], self.increment_s * 1000)
        };
        let people = seats.iter().any(|s| matches!(s, SeatRow::User { .. }));
        hall.start_seated_game(
            &self.game,
            self.target,
            clocks,
            inc,
            seats,
            self.rated && people && !playoff,
        )
        .await
    }
}

/// Arms the time cap (X6) of an event game that started at `created_ms`.
fn arm_cap(hall: &Arc<Hall>, game_id: &str, cap_ms: u64, created_ms: i64) {
    {
        let mut armed = hall.hooks.armed.lock().unwrap_or_else(|e| e.into_inner());
        if !armed.insert(game_id.to_string()) {
            return;
        }
    }
    let elapsed = (wall_ms() - created_ms).max(0) as u64;
    let wait = Duration::from_millis(cap_ms.saturating_sub(elapsed));
    let hall = hall.clone();
    let id = game_id.to_string();
    tokio::spawn(async move {
        tokio::time::sleep(wait).await;
        hall.hooks.send(HookMsg::Cap(id));
    });
}

/// The result of a finished game row, as an event records it.
/// Events pair two seats: the first is "red", the second "black".
pub(crate) fn game_result(
    hall: &Hall,
    row: &crate::store::GameRow,
    capped: bool,
) -> Option<GameResult> {
    if row.status != "finished" {
        return None;
    }
    if capped {
        return Some(GameResult::TimeCapExceeded);
    }
    match hall
        .games
        .winner_of(&row.rules, row.seats.len(), row.result.as_deref())?
    {
        Some(0) => Some(GameResult::RedWins),
        Some(_) => Some(GameResult::BlackWins),
        None => Some(GameResult::Draw),
    }
}

pub(crate) async fn game_fouls(hall: &Hall, game_id: &str) -> Fouls {
    let mut f = Fouls::NONE;
    match hall.store.game_fouls(game_id).await {
        Ok(rows) => {
            for (seat, n) in rows {
                match seat {
                    0 => f.red += n,
                    1 => f.black += n,
                    _ => {}
                }
            }
        }
        Err(e) => tracing::error!(game = %game_id, error = %e, "cannot read fouls"),
    }
    f
}

/// Moves an event as far as it can go now: records results of finished
/// games, pairs the next round, starts games (and play-offs). Never waits
/// for a game.
async fn drive(hall: &Arc<Hall>, he: &mut HallEvent) {
    if he.status != "running" {
        return;
    }
    // Bounded: each pass either makes progress or stops.
    for _ in 0..256 {
        let Some(ev) = he.event.as_mut() else { return };
        // Catch up on games that ended without us hearing (restart).
        let mut recorded = false;
        for at in ev.pending() {
            let Some(gid) = ev.pairing(at).and_then(|p| p.game_id.clone()) else {
                continue;
            };
            let Ok(row) = hall.game_row(&gid).await else {
                continue;
            };
            if let Some(result) = game_result(hall, &row, he.capped.contains(&gid)) {
                let fouls = game_fouls(hall, &gid).await;
                if ev.record_result(at, result, fouls).is_ok() {
                    recorded = true;
                }
            } else if let Some(cap) = he.settings.game_time_cap_ms {
                arm_cap(hall, &gid, cap, row.created_ms);
            }
        }
        if recorded {
            continue;
        }
        match ev.status() {
            EventStatus::Finished => {
                he.status = "finished".into();
                return;
            }
            EventStatus::NotStarted | EventStatus::RoundComplete => {
                if let Err(e) = ev.next_round() {
                    he.status = "error".into();
                    he.error = Some(e.to_string());
                    return;
                }
            }
            EventStatus::InProgress | EventStatus::NeedsPlayoff => {
                let pending: Vec<_> = ev
                    .pending()
                    .into_iter()
                    .filter_map(|at| ev.pairing(at).cloned().map(|p| (at, p)))
                    .collect();
                let waiting = !pending.is_empty();
                for (at, p) in pending {
                    if p.game_id.is_some() {
                        continue;
                    }
                    let snapshot = he.clone();
                    match snapshot
                        .start_game(hall, &p.red, &p.black, p.playoff_of.is_some())
                        .await
                    {
                        Ok(gid) => {
                            hall.hooks.link_game(&gid, &he.id);
                            if let Some(cap) = he.settings.game_time_cap_ms {
                                arm_cap(hall, &gid, cap, wall_ms());
                            }
                            if let Some(ev) = he.event.as_mut() {
                                let _ = ev.set_game_id(at, gid);
                            }
                        }
                        Err(e) => {
                            he.status = "error".into();
                            he.error = Some(format!("cannot start a game: {}", e.message));
                            return;
                        }
                    }
                }
                if waiting {
                    return;
                }
                // No game pending: a tie on a place that may not be shared (H8).
                if !tie_step(hall, he).await {
                    return;
                }
            }
        }
    }
}

/// Plays the next game of the pending place play-off (H8), or settles it.
/// True if the event can move on at once.
async fn tie_step(hall: &Arc<Hall>, he: &mut HallEvent) -> bool {
    let Some(ev) = he.event.as_ref() else {
        return false;
    };
    let Some(need) = ev.playoffs_needed().into_iter().find(|n| n.place.is_some()) else {
        return false;
    };
    let place = need.place.unwrap_or(0);
    let idx = match he
        .ties
        .iter()
        .position(|t| !t.done && t.place == place && t.players == need.players)
    {
        Some(i) => i,
        None => {
            let Some(first) = need.players.first().cloned() else {
                return false;
            };
            he.ties.push(TiePlayoff {
                place,
                players: need.players.clone(),
                champion: first,
                next: 1,
                knocked_out: Vec::new(),
                games: Vec::new(),
                done: false,
            });
            he.ties.len() - 1
        }
    };
    let t = &he.ties[idx];
    if t.games.last().is_some_and(|g| g.result.is_none()) {
        return false; // a play-off game is being played
    }
    if t.next >= t.players.len() {
        let mut order = vec![t.champion.clone()];
        order.extend(t.knocked_out.iter().rev().cloned());
        he.ties[idx].done = true;
        if let Some(ev) = he.event.as_mut()
            && let Err(e) = ev.resolve_tie(order)
        {
            he.status = "error".into();
            he.error = Some(e.to_string());
            return false;
        }
        return true;
    }
    // Champion (better placed) takes red; a blitz replay after a draw swaps colours.
    let challenger = t.players[t.next].clone();
    let (red, black) = match t.games.last() {
        Some(g)
            if g.result.is_some_and(|r| r.winner().is_none())
                && [&g.red, &g.black].contains(&&challenger) =>
        {
            (g.black.clone(), g.red.clone())
        }
        _ => (t.champion.clone(), challenger),
    };
    let snapshot = he.clone();
    match snapshot.start_game(hall, &red, &black, true).await {
        Ok(gid) => {
            hall.hooks.link_game(&gid, &he.id);
            he.ties[idx].games.push(TieGame {
                red,
                black,
                game_id: gid,
                result: None,
            });
        }
        Err(e) => {
            he.status = "error".into();
            he.error = Some(format!("cannot start a play-off: {}", e.message));
        }
    }
    false
}

/// A place play-off game ended: who stays champion.
fn tie_game_over(he: &mut HallEvent, game_id: &str, result: GameResult, fouls: Fouls) {
    let kind = he.settings.playoff.kind;
    let Some(t) = he
        .ties
        .iter_mut()
        .find(|t| t.games.iter().any(|g| g.game_id == game_id))
    else {
        return;
    };
    let Some(g) = t.games.iter_mut().find(|g| g.game_id == game_id) else {
        return;
    };
    if g.result.is_some() {
        return;
    }
    g.result = Some(result);
    let (red, black) = (g.red.clone(), g.black.clone());
    let drawn_replays = t
        .games
        .iter()
        .rev()
        .take_while(|g| g.result.is_some_and(|r| r.winner().is_none()))
        .count();
    let winner = match result.winner() {
        Some(qiyuan_events::Side::Red) => Some(red.clone()),
        Some(qiyuan_events::Side::Black) => Some(black.clone()),
        // Armageddon: black's draw odds. Blitz: replay with colours swapped,
        // but not forever: after four drawn blitz games black's odds decide.
        None if kind == PlayoffKind::Armageddon || drawn_replays >= 4 => Some(black.clone()),
        None => None,
    };
    if let Some(w) = winner {
        let loser = if w == red { black.clone() } else { red.clone() };
        t.champion = w;
        t.knocked_out.push(loser);
        t.next += 1;
    }
    if let Some(ev) = he.event.as_mut() {
        ev.add_fouls(&red, fouls.red);
        ev.add_fouls(&black, fouls.black);
    }
}

async fn save(hall: &Hall, he: &HallEvent) {
    match serde_json::to_string(he) {
        Ok(data) => {
            if let Err(e) = hall.store.save_event(&he.id, &he.status, &data).await {
                tracing::error!(event = %he.id, error = %e, "cannot store an event");
            }
        }
        Err(e) => tracing::error!(event = %he.id, error = %e, "cannot encode an event"),
    }
    hall.bus.publish(
        &format!("event:{}", he.id),
        Arc::from(json!({"t": "event", "event": he.to_json()}).to_string()),
    );
}

async fn on_game_over(hall: &Arc<Hall>, game_id: &str) {
    let row = match hall.game_row(game_id).await {
        Ok(r) => r,
        Err(e) => {
            tracing::error!(game = %game_id, error = ?e, "finished game not found");
            return;
        }
    };
    match crate::ratings::rate_finished_game(hall, &row).await {
        Ok(true) => tracing::info!(game = %game_id, "rated"),
        Ok(false) => {}
        Err(e) => tracing::error!(game = %game_id, error = %e, "cannot rate a game"),
    }
    if crate::team_events::game_over(hall, &row).await {
        return;
    }
    let Some(eid) = hall.hooks.event_of_game(game_id) else {
        return;
    };
    let Some(e) = hall.hooks.event(&eid) else {
        return;
    };
    let mut he = e.lock().await;
    let capped = he.capped.contains(game_id);
    let Some(result) = game_result(hall, &row, capped) else {
        return;
    };
    let fouls = game_fouls(hall, game_id).await;
    let in_round = he
        .event
        .as_ref()
        .and_then(|ev| ev.find_game(game_id))
        .is_some();
    if in_round {
        if let Some(ev) = he.event.as_mut() {
            match ev.record_game(game_id, result, fouls) {
                Ok(()) | Err(EventError::AlreadyRecorded { .. }) => {}
                Err(e) => tracing::error!(event = %eid, error = %e, "cannot record a result"),
            }
        }
    } else {
        tie_game_over(&mut he, game_id, result, fouls);
    }
    drive(hall, &mut he).await;
    save(hall, &he).await;
}

async fn on_cap(hall: &Arc<Hall>, game_id: &str) {
    let Some(eid) = hall.hooks.event_of_game(game_id) else {
        return;
    };
    let Some(e) = hall.hooks.event(&eid) else {
        return;
    };
    let mut he = e.lock().await;
    let outcome = Outcome {
        winner: None,
        reason: EndReason::Timeout,
        explanation: "超过比赛限时, 双方均不得分 / the event's game time cap passed: no points for either side (X6)".into(),
    };
    he.capped.insert(game_id.to_string());
    match hall.end_game(game_id, outcome).await {
        Ok(true) => {}
        // It ended by itself meanwhile: its own result stands.
        Ok(false) | Err(_) => {
            he.capped.remove(game_id);
        }
    }
}

/// The hook task: runs until shutdown. Call once (the server does).
pub async fn run(hall: Arc<Hall>) {
    let rx = hall
        .hooks
        .rx
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take();
    let Some(mut rx) = rx else { return };
    let mut shutdown = hall.shutdown.clone();
    loop {
        let msg = tokio::select! {
            m = rx.recv() => m,
            _ = shutdown.changed() => return,
        };
        let Some(msg) = msg else { return };
        match msg {
            HookMsg::GameOver(id) => on_game_over(&hall, &id).await,
            HookMsg::Cap(id) => on_cap(&hall, &id).await,
            HookMsg::Drive(id) => {
                if let Some(e) = hall.hooks.event(&id) {
                    let mut he = e.lock().await;
                    drive(&hall, &mut he).await;
                    save(&hall, &he).await;
                }
            }
        }
    }
}

/// Loads stored events at start and drives the running ones (games that
/// ended while the hall was down are recorded then).
pub async fn resume(hall: &Arc<Hall>) -> anyhow::Result<usize> {
    let stored = hall.store.load_events().await?;
    let mut n = 0;
    for (id, data) in stored {
        if crate::team_events::is_team_event_id(&id) {
            if crate::team_events::resume_one(hall, &id, &data).await {
                n += 1;
            }
            continue;
        }
        let he: HallEvent = match serde_json::from_str(&data) {
            Ok(e) => e,
            Err(e) => {
                tracing::error!(event = %id, error = %e, "cannot load an event");
                continue;
            }
        };
        if let Some(ev) = &he.event {
            for r in ev.rounds() {
                for p in &r.pairings {
                    if let Some(g) = &p.game_id {
                        hall.hooks.link_game(g, &id);
                    }
                }
            }
        }
        for t in &he.ties {
            for g in &t.games {
                hall.hooks.link_game(&g.game_id, &id);
            }
        }
        let running = he.status == "running";
        hall.hooks
            .events
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id.clone(), Arc::new(Mutex::new(he)));
        if running {
            hall.hooks.send(HookMsg::Drive(id));
        }
        n += 1;
    }
    Ok(n)
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
                400,
                "out_of_range",
                "settings.playoff: red_base_ms and black_base_ms must be 1000 to 10800000, increment_ms 0 to 600000",
            ));
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
                    400,
                    "out_of_range",
                    format!(
                        "format.groups × format.advance_per_group must be at most {MAX_EVENT_PLAYERS} (the most players of an event)"
                    ),
                ));
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
    let over = |msg: String| Err(HallError::forbidden(msg).with_code("ai_budget"));
    if user.guest {
        return over("guests may not enter AI players in events; register first".into());
    }
    let max = hall.limits.event_ai_entrants;
    if ai_entrants > max {
        return over(format!("at most {max} AI players in one event"));
    }
    let running = hall.hooks.unfinished_ai_events_of(&user.username).await
        + crate::team_events::unfinished_ai_events_of(hall, &user.username).await;
    if running >= hall.limits.ai_events_per_user {
        return over(format!(
            "you already run {running} unfinished event(s) with AI players; at most {} at once",
            hall.limits.ai_events_per_user
        ));
    }
    Ok(())
}

/// `POST /api/events`: creates an event (and starts it if `start`). People
/// named in `players` other than the organiser are invited and entered
/// only when they accept (`POST /api/events/{id}/join`).
pub async fn create(hall: &Arc<Hall>, user: &User, req: NewEvent) -> HallResult<Value> {
    check_format(&req.format)?;
    check_len("players", req.players.len(), MAX_EVENT_PLAYERS)?;
    let mut options = qiyuan_core::Options::new();
    if let Some(t) = req.target {
        options.insert("target".into(), i64::from(t));
    }
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
        return Err(HallError::new(
            400,
            "out_of_range",
            format!("name: at most {MAX_NAME_CHARS} characters"),
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
        status: "open".into(),
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
        .with_code("invitations_pending"));
    }
    // Check the format's settings now, not at the start: only a field too
    // small for it is acceptable while entries are open.
    match Event::create(he.format.clone(), he.settings.clone(), he.entrants.clone()) {
        Ok(mut ev) if req.start => {
            record_ratings(hall, &he.game, &mut ev).await;
            he.event = Some(ev);
            he.status = "running".into();
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
    let json = he.to_json();
    hall.hooks
        .events
        .write()
        .unwrap_or_else(|e| e.into_inner())
        .insert(id.clone(), Arc::new(Mutex::new(he)));
    if req.start {
        hall.hooks.send(HookMsg::Drive(id));
    }
    Ok(json)
}

fn find(hall: &Hall, id: &str) -> HallResult<Arc<Mutex<HallEvent>>> {
    hall.hooks
        .event(id)
        .ok_or_else(|| HallError::not_found(format!("no event '{}'", crate::error::shown(id))))
}

/// `POST /api/events/{id}/join`: enters the user while entries are open.
pub async fn join(hall: &Arc<Hall>, id: &str, user: &User) -> HallResult<Value> {
    let e = find(hall, id)?;
    let mut he = e.lock().await;
    if he.status != "open" {
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
    Ok(he.to_json())
}

/// `POST /api/events/{id}/decline`: turns down an invitation.
pub async fn decline(hall: &Arc<Hall>, id: &str, user: &User) -> HallResult<Value> {
    let e = find(hall, id)?;
    let mut he = e.lock().await;
    let me = PlayerId(format!("u:{}", user.id));
    if !he.invited.remove(&me) {
        return Err(
            HallError::conflict("you have no invitation to this event").with_code("not_invited")
        );
    }
    he.entrants.retain(|p| p.id != me);
    save(hall, &he).await;
    Ok(he.to_json())
}

/// Records each entrant's rating at the start (for FIDE's ARO and the TRF
/// export): an account's rating in the game's family where it has one, an
/// AI level's fixed rating. Others stay unrated.
async fn record_ratings(hall: &Hall, game: &str, ev: &mut Event) {
    let family = crate::ratings::family_of(hall, game);
    let ids: Vec<qiyuan_events::PlayerId> = ev.players().iter().map(|p| p.id.clone()).collect();
    for id in ids {
        let rating = if let Some(level) =
            id.0.strip_prefix("ai:")
                .and_then(|n| n.split('#').next())
                .and_then(|n| n.parse::<u8>().ok())
        {
            Some(crate::ratings::ai_rating(hall, game, level))
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
pub async fn start(hall: &Arc<Hall>, id: &str, user: &User) -> HallResult<Value> {
    let e = find(hall, id)?;
    let mut he = e.lock().await;
    if he.organiser.as_deref() != Some(user.username.as_str()) {
        return Err(HallError::forbidden(
            "only the organiser may start the event",
        ));
    }
    if he.status != "open" {
        return Err(HallError::conflict("the event has already started"));
    }
    // Invitations not accepted by now lapse: only those who agreed play.
    let mut ev =
        Event::create(he.format.clone(), he.settings.clone(), he.accepted()).map_err(bad_event)?;
    record_ratings(hall, &he.game, &mut ev).await;
    let lapsed = std::mem::take(&mut he.invited);
    he.entrants.retain(|p| !lapsed.contains(&p.id));
    he.event = Some(ev);
    he.status = "running".into();
    save(hall, &he).await;
    hall.hooks.send(HookMsg::Drive(id.to_string()));
    Ok(he.to_json())
}

/// `GET /api/events/{id}`.
pub async fn get(hall: &Hall, id: &str) -> HallResult<Value> {
    let e = find(hall, id)?;
    let he = e.lock().await;
    Ok(he.to_json())
}

/// `GET /api/events`: every event, newest first.
pub async fn list(hall: &Hall) -> Value {
    let mut out = collect_from(&hall.hooks.events, |he: &HallEvent| Some(he.summary())).await;
    out.sort_by(|a, b| b["created_ms"].as_i64().cmp(&a["created_ms"].as_i64()));
    json!({"events": out})
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
pub async fn standings(hall: &Hall, id: &str, stage: Option<u8>) -> HallResult<Value> {
    let s = standings_of(hall, id, stage).await?;
    let rows: Vec<Value> = s
        .rows
        .iter()
        .map(|r| {
            json!({
                "rank": r.rank, "shared": r.shared, "name": r.name, "player": r.player,
                "score": r.score, "sonneborn_berger": r.sonneborn_berger, "buchholz": r.buchholz,
                "wins": r.wins, "direct": r.direct, "fouls": r.fouls, "games": r.games,
                "fide": r.fide,
            })
        })
        .collect();
    let tie_breaks: Vec<Value> = s
        .tie_breaks
        .iter()
        .map(|t| {
            json!({"name": t, "chinese": t.chinese(), "fide": t.fide(), "abbreviation": t.abbreviation()})
        })
        .collect();
    Ok(json!({"tie_breaks": tie_breaks, "rows": rows, "needs_playoff": s.needs_playoff}))
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
