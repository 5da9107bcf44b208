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

use qiyuan_events::{Event, EventError, EventSettings, EventStatus, Format, GameResult, PlayerId};
use serde::{Deserialize, Serialize};
use tokio::sync::{Mutex, mpsc};

use crate::domain::hall::{Hall, HallError, HallResult};
use crate::error::ErrorCode;
use crate::limits::MAX_EVENT_PLAYERS;
use crate::store::{SeatRow, User};
use crate::tournaments::views::{
    ClockView, EventState, EventSummary, EventView, Invitation, InvitationKind, PairingFouls,
    PairingView, RoundView, StageField, TieGameView, TiePlayoffView,
};

mod driver;
mod requests;

pub(crate) use driver::{game_fouls, game_result};
pub use driver::{resume, run};
pub(crate) use requests::check_ai_budget;
pub use requests::{
    NewEvent, create, decline, get, join, list, standings, standings_csv, start, tournament_trf,
};

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
    events: RwLock<HashMap<String, Arc<Mutex<HallEvent>>>>,
    /// Which event a game belongs to.
    game_events: std::sync::Mutex<HashMap<String, String>>,
    /// Games whose time cap timer is running.
    armed: std::sync::Mutex<HashSet<String>>,
    /// Team events (H7).
    pub(crate) teams: crate::tournaments::team_events::TeamEvents,
}

impl Default for Hooks {
    fn default() -> Self {
        let (tx, rx) = mpsc::unbounded_channel();
        Hooks {
            tx,
            rx: std::sync::Mutex::new(Some(rx)),
            events: RwLock::new(HashMap::new()),
            game_events: std::sync::Mutex::new(HashMap::new()),
            armed: std::sync::Mutex::new(HashSet::new()),
            teams: Default::default(),
        }
    }
}

/// The hall's events state, made and attached on first use: attaching also
/// tells the domain which games belong to an event (no takebacks there).
pub(crate) fn hooks(hall: &Hall) -> Arc<Hooks> {
    let (hooks, made) = hall.extensions.get_or_insert_with(Hooks::default);
    if made {
        hall.extensions.set_affiliations(hooks.clone());
    }
    hooks
}

/// Events that invite user `id` and wait for an answer.
pub(crate) async fn invitations_of(hall: &Hall, id: i64) -> Vec<Invitation> {
    hooks(hall).invitations_of(id).await
}

impl crate::domain::extensions::GameAffiliations for Hooks {
    fn holds(&self, id: &str) -> bool {
        self.in_event(id)
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
                && matches!(he.status, EventState::Open | EventState::Running)
                && he.ai_entrants() > 0)
                .then_some(())
        })
        .await
        .len()
    }

    /// Events that invite user `id` and wait for an answer.
    pub(crate) async fn invitations_of(&self, id: i64) -> Vec<Invitation> {
        let me = PlayerId(format!("u:{id}"));
        collect_from(&self.events, |he: &HallEvent| {
            (he.status == EventState::Open && he.invited.contains(&me)).then(|| Invitation {
                kind: InvitationKind::Event,
                id: he.id.clone(),
                name: he.name.clone(),
                game: he.game.clone(),
                organiser: he.organiser.clone(),
                rated: he.rated,
                clock: he.clock(),
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
impl crate::domain::finisher::FinishListener for EventsListener {
    async fn finished(&self, hall: &Hall, live: &crate::domain::hall::Live) {
        hooks(hall).game_over(&live.row.id);
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
    /// Taking entries, running, finished or stopped by an error.
    status: EventState,
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

fn bad_event(e: EventError) -> HallError {
    HallError::bad(format!("event: {e}"))
}

/// The seat of an entrant: `u:ID` is a user, `ai:N` (or `ai:N#k` for the
/// k-th entry of the same level) an AI level.
fn seat_of(p: &qiyuan_events::Player) -> Option<SeatRow> {
    if let Some(id) = p.id.0.strip_prefix("u:") {
        // An entry keeps no account kind: a bot's event seat is not
        // marked BOT.
        return Some(SeatRow::User {
            id: id.parse().ok()?,
            name: p.name.clone(),
            bot: false,
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

/// The AI level an entrant written `ai:N` names (`n` is the part after `ai:`).
pub(crate) fn entrant_ai_level(who: &str, n: &str) -> HallResult<u8> {
    n.parse::<u8>()
        .ok()
        .filter(|l| (1..=8).contains(l))
        .ok_or_else(|| {
            HallError::bad(format!(
                "player '{}': AI players are \"ai:1\" .. \"ai:8\"",
                crate::error::shown(who)
            ))
        })
}

/// The account an entrant's name names, or a `no_such_user` error.
pub(crate) async fn entrant_user(hall: &Hall, who: &str) -> HallResult<User> {
    let unknown = || {
        HallError::bad(format!("no user '{}'", crate::error::shown(who)))
            .with_code(ErrorCode::NoSuchUser)
            .with("name", crate::error::shown(who))
    };
    if who.is_empty() || who.len() > 64 {
        return Err(unknown());
    }
    hall.store
        .user_by_name(who)
        .await
        .map_err(HallError::internal)?
        .ok_or_else(unknown)
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
            let level = entrant_ai_level(who, n)?;
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
        let user = entrant_user(hall, who).await?;
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

    fn clock(&self) -> ClockView {
        ClockView {
            initial_s: self.initial_s,
            increment_s: self.increment_s,
        }
    }

    fn names(&self, ids: &[PlayerId]) -> Vec<String> {
        ids.iter().map(|id| self.name_of(id)).collect()
    }

    fn pairing_view(&self, p: &qiyuan_events::Pairing) -> PairingView {
        PairingView {
            board: p.board,
            red: self.name_of(&p.red),
            black: self.name_of(&p.black),
            game_id: p.game_id.clone(),
            result: p.result,
            fouls: PairingFouls {
                red: p.fouls.red,
                black: p.fouls.black,
            },
            group: p.group,
            playoff_of: p.playoff_of,
        }
    }

    /// The event as `GET /api/events/{id}` shows it.
    fn view(&self) -> EventView {
        let entrants = |invited: bool| {
            self.entrants
                .iter()
                .filter(|p| self.invited.contains(&p.id) == invited)
                .map(|p| p.name.clone())
                .collect()
        };
        let mut v = EventView {
            id: self.id.clone(),
            name: self.name.clone(),
            game: self.game.clone(),
            target: self.target,
            clock: self.clock(),
            rated: self.rated,
            organiser: self.organiser.clone(),
            status: self.status,
            error: self.error.clone(),
            format: self.format.clone(),
            settings: self.settings.clone(),
            players: entrants(false),
            invited: entrants(true),
            rounds: Vec::new(),
            event_status: None,
            stage: None,
            stages: None,
            playoffs: None,
            fouls: None,
            winner: None,
        };
        let Some(ev) = &self.event else { return v };
        v.event_status = Some(ev.status());
        v.stage = Some(ev.stage());
        v.stages = Some(
            (1..=ev.stage())
                .filter_map(|s| {
                    ev.stage_field(s).map(|f| StageField {
                        stage: s,
                        field: self.names(f),
                    })
                })
                .collect(),
        );
        v.rounds = ev
            .rounds()
            .iter()
            .map(|r| RoundView {
                number: r.number,
                stage: r.stage,
                kind: r.kind,
                byes: self.names(&r.byes),
                pairings: r.pairings.iter().map(|p| self.pairing_view(p)).collect(),
            })
            .collect();
        v.playoffs = Some(
            self.ties
                .iter()
                .map(|t| TiePlayoffView {
                    place: t.place,
                    players: self.names(&t.players),
                    done: t.done,
                    games: t
                        .games
                        .iter()
                        .map(|g| TieGameView {
                            red: self.name_of(&g.red),
                            black: self.name_of(&g.black),
                            game_id: g.game_id.clone(),
                            result: g.result,
                        })
                        .collect(),
                })
                .collect(),
        );
        v.fouls = Some(
            ev.fouls()
                .iter()
                .map(|(id, n)| (self.name_of(id), *n))
                .collect(),
        );
        if ev.status() == EventStatus::Finished
            && let Some(first) = ev.standings().rows.first()
        {
            v.winner = Some(first.name.clone());
        }
        v
    }

    fn summary(&self) -> EventSummary {
        EventSummary {
            id: self.id.clone(),
            name: self.name.clone(),
            game: self.game.clone(),
            status: self.status,
            format: self.format.clone(),
            players: self.entrants.len() - self.invited.len(),
            invited: self.invited.len(),
            created_ms: self.created_ms,
        }
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
