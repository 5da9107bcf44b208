//! Game sessions: the state of a live game, loading and replaying games,
//! joining. Each live game is owned by its own task ([`crate::domain::actor`]);
//! the rest of the hall's jobs have their own modules: [`crate::domain::create`]
//! (new games, rematches, event games), [`crate::domain::turn`] (the one commit
//! sequence of a turn, the end of a game, resign/draw/claim),
//! [`crate::domain::view`] (JSON views, the event log's frames, lobby, PGN,
//! profiles), [`crate::domain::game_log`] (versions and catching up) and
//! [`crate::domain::ai_moves`] (AI seats). HTTP and WebSocket handlers are thin
//! shells over [`Hall`].
//!
//! Order of every change: validate, apply in memory, **store**, then announce
//! on the event bus. A failed store rolls the in-memory change back.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, OnceLock, RwLock, Weak};
use std::time::{Duration, Instant};

use qiyuan_core::{Chance, ClockRule, EndReason, Outcome, TableGame};
use rand::Rng;
use serde_json::Value;
use tokio::sync::watch;

use crate::clock::{Clocks, wall_ms};
use crate::domain::actor::GameHandle;
use crate::domain::bus::EventBus;
use crate::domain::command::{CatchUpFrames, GameCommand};
pub use crate::domain::create::{ClockSpec, NewGame};
use crate::domain::game_log::{Audience, CatchUp, EventLog};
use crate::domain::registry::Registry;
use crate::domain::state_view::GameStateView;
use crate::error::ErrorCode;
pub use crate::error::{HallError, HallResult};
use crate::metrics::Metrics;
use crate::store::{GameRow, MoveRow, SeatRow, Storage, User};

/// A game held in memory while it is played (and a while after).
pub struct Live {
    /// The stored record.
    pub row: GameRow,
    /// The rules in play.
    pub table: Box<dyn TableGame>,
    /// The clocks.
    pub clocks: Clocks,
    /// The clocks after each move (for replay).
    pub move_clocks: Vec<Vec<i64>>,
    /// The seat that played each move (takebacks find one's last move).
    pub move_seats: Vec<usize>,
    /// A standing draw offer, by seat.
    pub draw_offer: Option<usize>,
    /// Seats that agreed to the standing offer, the offerer first, in a
    /// game whose draw needs several seats ([`qiyuan_core::HallPolicy::draw_voters`]).
    pub draw_agreed: Vec<usize>,
    /// The last declined draw offer: the seat that declined it and the
    /// version of that change (its frames carry `draw_declined`).
    pub draw_declined: Option<(usize, u64)>,
    /// Takeback requests and answers (unrated games, [`crate::domain::takeback`]).
    pub takeback: crate::domain::takeback::Takeback,
    /// A standing rematch offer, by seat.
    pub rematch_offer: Option<usize>,
    /// The rematch game, once made.
    pub rematch_id: Option<String>,
    /// The numbered changes, with their frames for each audience.
    pub log: EventLog,
    /// When the game last changed (finished games are evicted after a while).
    pub touched: Instant,
    /// The seats' names (results and create requests speak them).
    pub seat_names: Vec<String>,
    /// A challenge: the user (id, name) the open seat is for.
    pub challenge: Option<(i64, String)>,
    /// The players' chat ([`crate::domain::chat`]).
    pub chat: crate::domain::chat::Chat,
    /// This node's lease on the game, when leases are on and it holds one
    /// (`cluster::lease`).
    pub fence: Option<crate::store::Fence>,
    /// Whether the game's task has asked for the lease yet.
    pub lease_tried: bool,
    /// Whether the game can be aborted before both sides moved, and holds
    /// a seat's clock until its first move ([`crate::domain::opening`]).
    pub abortable: bool,
    /// When the seat to make its first move aborts the game by waiting.
    pub first_move_deadline: Option<Instant>,
    /// An open room's seek terms (its creator's rating, a rating range).
    pub seek: Option<crate::domain::seeks::SeekTerms>,
    /// The room was withdrawn or abandoned and deleted: the game's task
    /// forgets it at once (a later read finds no such game).
    pub closed: bool,
    /// How many watch the game (see [`crate::domain::watchers`]), as last
    /// read by the game's task: before each command and each change.
    pub watchers: usize,
}

/// Server-side randomness for a move, with the draws it made, which are
/// stored with the move.
#[derive(Default)]
pub(crate) struct ServerChance {
    pub(crate) draws: Vec<u32>,
}

impl Chance for ServerChance {
    fn draw(&mut self, bound: u32) -> u32 {
        let d = rand::rng().random_range(0..bound.max(1));
        self.draws.push(d);
        d
    }
}

/// A stored move's draws, fed back when the game is replayed. A replay that
/// asks for more draws than were stored (or a number out of the bound) is
/// not the game that was played.
struct ReplayedChance<'a> {
    draws: std::slice::Iter<'a, u32>,
    broken: bool,
}

impl Chance for ReplayedChance<'_> {
    fn draw(&mut self, bound: u32) -> u32 {
        match self.draws.next() {
            Some(&d) if d < bound.max(1) => d,
            _ => {
                self.broken = true;
                0
            }
        }
    }
}

impl Live {
    /// A game as loaded or created, at its first version.
    fn new(
        row: GameRow,
        table: Box<dyn TableGame>,
        clocks: Clocks,
        seat_names: Vec<String>,
    ) -> Live {
        Live {
            seat_names,
            row,
            table,
            clocks,
            move_clocks: Vec::new(),
            move_seats: Vec::new(),
            draw_offer: None,
            draw_agreed: Vec::new(),
            draw_declined: None,
            takeback: Default::default(),
            rematch_offer: None,
            rematch_id: None,
            log: EventLog::new(wall_ms().max(0) as u64),
            touched: Instant::now(),
            challenge: None,
            chat: Default::default(),
            fence: None,
            lease_tried: false,
            abortable: false,
            first_move_deadline: None,
            closed: false,
            seek: None,
            watchers: 0,
        }
    }

    /// The game's version (the number of its newest change).
    pub fn version(&self) -> u64 {
        self.log.version()
    }
}

/// The hall: every live game and the services it uses.
pub struct Hall {
    /// Accounts, games, moves.
    pub store: Arc<dyn Storage>,
    /// Fan-out of events.
    pub bus: Arc<dyn EventBus>,
    /// The games on offer.
    pub games: Registry,
    /// A fixed AI budget per move instead of each level's own (fast tests
    /// and engine-only events).
    pub ai_budget: Option<Duration>,
    /// Prometheus metrics.
    pub metrics: Metrics,
    pub(crate) live_games: RwLock<HashMap<String, GameHandle>>,
    /// Numbers the games' tasks.
    pub(crate) game_serial: AtomicU64,
    /// The hall itself, for the tasks it starts.
    pub(crate) me: OnceLock<Weak<Hall>>,
    pub(crate) lobby: std::sync::Mutex<BTreeMap<String, Value>>,
    /// Flips to true on shutdown; long-lived tasks watch it.
    pub shutdown: watch::Receiver<bool>,
    /// The pairing pools.
    pub pools: crate::domain::pools::Pools,
    /// The open seeks (rooms waiting for an opponent).
    pub seeks: crate::domain::seeks::Seeks,
    /// Repeated draw offers (X8).
    pub(crate) fouls: crate::domain::fouls::FoulWatch,
    /// What the layers above attach (the events' state).
    pub extensions: crate::domain::extensions::Extensions,
    /// The bounds set at start.
    pub limits: crate::limits::Limits,
    /// Failed-login throttle.
    pub login: crate::domain::login::LoginThrottle,
    /// Where password hashes run.
    pub hashes: crate::domain::login::HashPool,
    /// Open sockets per address and user.
    pub sockets: crate::domain::sockets::SocketCounts,
    /// Open sockets and streams per game of people not seated in it.
    pub watchers: crate::domain::watchers::Watchers,
    /// When users were last seen; guest accounts per address.
    pub presence: crate::domain::presence::Presence,
    /// Where AI moves are computed (people's games first).
    pub ai_pool: crate::domain::ai::AiPool,
    /// Who hears of finished games.
    pub finisher: crate::domain::finisher::Finisher,
    /// This node's lease identity, when several nodes share the database.
    pub(crate) lease: OnceLock<crate::domain::ownership::LeaseConfig>,
    /// This node's registration under that identity: `None` until it joins
    /// (and after it left), `Some(None)` once another process claimed the
    /// id, else the `seen_ms` it wrote last (see `cluster::lease`).
    pub(crate) node_claim: std::sync::Mutex<Option<Option<i64>>>,
}

pub(crate) fn new_game_id() -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut rng = rand::rng();
    (0..8)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

impl Hall {
    /// A hall over these services; call [`Hall::resume`] next.
    pub fn new(
        store: Arc<dyn Storage>,
        bus: Arc<dyn EventBus>,
        games: Registry,
        ai_budget: Option<Duration>,
        shutdown: watch::Receiver<bool>,
        limits: crate::limits::Limits,
    ) -> Arc<Hall> {
        let pools = crate::domain::pools::Pools::new(&games);
        let hall = Arc::new(Hall {
            login: crate::domain::login::LoginThrottle::new(limits.login_max_delay),
            hashes: crate::domain::login::HashPool::new(limits.hash_workers, limits.hash_queue),
            sockets: crate::domain::sockets::SocketCounts::default(),
            watchers: Default::default(),
            presence: crate::domain::presence::Presence::default(),
            ai_pool: crate::domain::ai::AiPool::default(),
            finisher: crate::domain::finisher::Finisher::default(),
            limits,
            store,
            bus,
            games,
            ai_budget,
            metrics: Metrics::default(),
            live_games: RwLock::new(HashMap::new()),
            game_serial: AtomicU64::new(0),
            me: OnceLock::new(),
            lobby: std::sync::Mutex::new(BTreeMap::new()),
            shutdown,
            fouls: Default::default(),
            pools,
            seeks: Default::default(),
            extensions: Default::default(),
            lease: OnceLock::new(),
            node_claim: std::sync::Mutex::new(None),
        });
        let _ = hall.me.set(Arc::downgrade(&hall));
        hall
    }

    /// Rebuilds a game from its stored set-up (the secret one, if the game
    /// drew one, such as a hidden layout), its options and its moves.
    pub(crate) fn rebuild(
        &self,
        row: GameRow,
        moves: &[MoveRow],
        secret: Option<String>,
    ) -> anyhow::Result<Live> {
        let setup = secret.as_deref().or(row.start_fen.as_deref());
        let mut table = self
            .games
            .new_table(&row.rules, &row.options, setup)
            .map_err(|e| anyhow::anyhow!(e.message))?;
        let sequential_start = Hall::may_abort(&row, table.as_ref());
        let mut move_clocks = Vec::with_capacity(moves.len());
        let mut move_seats = Vec::with_capacity(moves.len());
        for m in moves {
            let seat = m.seat as usize;
            let mut chance = ReplayedChance {
                draws: m.draws.iter(),
                broken: false,
            };
            let played = table.play_for(seat, &m.mv, &mut chance);
            if chance.broken || chance.draws.next().is_some() {
                anyhow::bail!(
                    "replaying {} ply {}: the move's stored chance draws do not fit",
                    row.id,
                    m.ply
                );
            }
            if let Err(e) = played {
                // A stored lost turn (B12) or a resignation that took a seat
                // out (T14) is not a move a player could send.
                let mut lost = table.boxed_clone();
                let mut out = table.boxed_clone();
                if lost.flag_falls(seat) == qiyuan_core::FlagFall::TurnLost
                    && lost.history().last() == Some(&m.mv)
                {
                    table = lost;
                } else if out.resigns(seat) == qiyuan_core::Resigned::Out
                    && out.history().last() == Some(&m.mv)
                {
                    table = out;
                } else {
                    anyhow::bail!("replaying {} ply {}: {e}", row.id, m.ply);
                }
            }
            move_clocks.push(m.clocks.clone());
            move_seats.push(seat);
        }
        if let (Some(reason), Some(result)) = (&row.reason, &row.result)
            && table.result().is_none()
        {
            // Ended outside the rules (resignation, time, agreement, claim).
            let winner = self
                .games
                .seat_names(&row.rules, row.seats.len())
                .iter()
                .position(|n| n == result);
            // A team's other winners share the first stored placing.
            let partners = match (winner, row.placings.as_ref().and_then(|p| p.first())) {
                (Some(w), Some(first)) if first.contains(&w) => {
                    first.iter().copied().filter(|&s| s != w).collect()
                }
                _ => Vec::new(),
            };
            table.end(Outcome {
                winner,
                partners,
                reason: reason_from_str(reason, self.games.kinds()),
                explanation: row.explanation.clone().unwrap_or_default(),
            });
        }
        let clocks = Clocks::new(
            moves
                .last()
                .map(|m| m.clocks.clone())
                .unwrap_or_else(|| row.clocks.clone()),
            row.increment_ms,
        );
        let seat_names = self.games.seat_names(&row.rules, row.seats.len());
        let mut live = Live::new(row, table, clocks, seat_names);
        live.move_clocks = move_clocks;
        live.move_seats = move_seats;
        // Event games are the events' (linked again when they resume).
        live.abortable = sequential_start && !self.extensions.affiliated(&live.row.id);
        Ok(live)
    }

    /// Loads every unfinished game from storage and restarts its clocks
    /// (downtime is not charged). Called once at start.
    pub async fn resume(self: &Arc<Self>) -> anyhow::Result<usize> {
        let games = self.store.unfinished_games().await?;
        let mut n = 0;
        for (row, moves) in games {
            let id = row.id.clone();
            let stored = self.store.game_setup(&id).await?;
            let mut live = match self.rebuild(row, &moves, stored) {
                Ok(l) => l,
                Err(e) => {
                    tracing::error!(game = %id, error = %e, "cannot resume game");
                    continue;
                }
            };
            if live.row.status == "waiting" {
                live.challenge = self.store.challenge_of(&id).await?;
            }
            if live.row.status == "playing" {
                let now = Instant::now();
                let seats = live.table.seats_to_move();
                live.clocks.start(&seats, now);
                self.hold_first_move(&mut live, now);
                self.metrics.games_in_play.inc();
            }
            self.update_lobby(&live);
            // Its task lets the AI seats act.
            self.spawn_game(live);
            n += 1;
        }
        Ok(n)
    }

    /// Stores a new game (its row, and the secret set-up of a hidden-information
    /// game), starts its clock if it is `playing`, and shows it in the lobby.
    /// Returns its id; the game's task lets the AI seats act.
    pub(crate) async fn install_game(
        &self,
        row: GameRow,
        table: Box<dyn TableGame>,
        playing: bool,
        challenge: Option<(i64, String)>,
        abortable: bool,
        seek: Option<crate::domain::seeks::SeekTerms>,
    ) -> HallResult<String> {
        if let Some(secret) = table.secret_setup() {
            self.store
                .save_game_setup(&row.id, &secret)
                .await
                .map_err(HallError::internal)?;
        }
        self.store
            .insert_game(&row)
            .await
            .map_err(HallError::internal)?;
        if let Some((user, _)) = &challenge {
            self.store
                .save_challenge(&row.id, *user)
                .await
                .map_err(HallError::internal)?;
        }
        let mut clocks = Clocks::new(row.clocks.clone(), row.increment_ms);
        if playing {
            clocks.start(&table.seats_to_move(), Instant::now());
            self.metrics.games_in_play.inc();
        }
        let id = row.id.clone();
        let names = self.games.seat_names(&row.rules, row.seats.len());
        let mut live = Live::new(row, table, clocks, names);
        live.challenge = challenge;
        live.seek = seek;
        live.abortable = abortable && Hall::may_abort(&live.row, live.table.as_ref());
        self.hold_first_move(&mut live, Instant::now());
        if playing {
            self.tell_game_start(&live);
        }
        self.tell_challenge(&live, |challenge| {
            crate::domain::user_events::UserEvent::Challenge { challenge }
        });
        // With leases, the creating node owns the game before anyone can
        // reach it through another node.
        self.lease_tick(&mut live).await;
        self.update_lobby(&live);
        self.spawn_game(live);
        Ok(id)
    }

    /// Per-move clocks (B12) and correspondence games (days per move):
    /// every turn starts with the room's full time.
    /// A phase in which several seats act at once (a secret set-up) keeps
    /// each seat's clock running until the phase ends.
    pub(crate) fn fresh_turn(live: &mut Live) {
        let per_move = live.table.clock_rule() == ClockRule::PerMove;
        if per_move && live.table.seats_to_move().len() > 1 {
            return;
        }
        if per_move || crate::domain::opening::correspondence_days(&live.row).is_some() {
            let full = Hall::turn_time(live.table.as_ref(), live.row.initial_ms);
            live.clocks.remaining.iter_mut().for_each(|r| *r = full);
        }
    }

    /// The time of the turn that starts now: the room's time, or for a
    /// per-move game what the game says this turn gets (a longer set-up).
    pub(crate) fn turn_time(table: &dyn qiyuan_core::TableGame, room_ms: i64) -> i64 {
        if table.clock_rule() == ClockRule::PerMove {
            table.turn_time_ms(room_ms)
        } else {
            room_ms
        }
    }

    /// A game that is not in memory (a finished one), from storage.
    pub(crate) async fn load(&self, id: &str) -> HallResult<Live> {
        let missing = || HallError::not_found(format!("no game '{}'", crate::error::shown(id)));
        if id.len() > 32 || !id.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(missing());
        }
        let loaded = self
            .store
            .load_game(id)
            .await
            .map_err(HallError::internal)?;
        let Some((row, moves)) = loaded else {
            return Err(missing());
        };
        let stored = self
            .store
            .game_setup(id)
            .await
            .map_err(HallError::internal)?;
        let mut live = self
            .rebuild(row, &moves, stored)
            .map_err(HallError::internal)?;
        if live.row.status == "waiting" {
            live.challenge = self
                .store
                .challenge_of(id)
                .await
                .map_err(HallError::internal)?;
        }
        Ok(live)
    }

    /// The seat `user` holds in `live`, if any.
    pub(crate) fn seat_of(live: &Live, user: &User) -> Option<usize> {
        live.row
            .seats
            .iter()
            .position(|s| matches!(s, SeatRow::User { id, .. } if *id == user.id))
    }

    /// The state of game `id` as `user` (or a spectator) sees it.
    pub async fn state(&self, id: &str, user: Option<&User>) -> HallResult<GameStateView> {
        let user = user.cloned();
        self.ask(id, |reply| GameCommand::State { user, reply })
            .await
    }

    /// The state as `user` (or a spectator) sees it, on the game's task.
    pub(crate) async fn state_in(&self, live: &mut Live, user: Option<&User>) -> GameStateView {
        // A reader may notice a fallen flag a moment before the task does.
        self.flag_check(live, Instant::now()).await;
        let seat = user.and_then(|u| Hall::seat_of(live, u));
        let mut view = Hall::state_view(live, seat);
        view.claim_victory_in_ms = seat
            .and_then(|s| self.claim_absence_in(live, s, Instant::now()))
            .map(|d| d.as_millis() as i64);
        view
    }

    /// The seat of `user` in game `id` (for sockets).
    pub async fn seat_in(&self, id: &str, user: &User) -> HallResult<Option<usize>> {
        let user = user.clone();
        self.ask(id, |reply| GameCommand::SeatOf { user, reply })
            .await
    }

    /// What a client of game `id` that saw version `since` as `user` (or a
    /// spectator) needs: the frames it missed, or the full state when the
    /// log no longer holds them or its seat changed. With the version and
    /// seat it then has.
    pub async fn catch_up(
        &self,
        id: &str,
        user: Option<&User>,
        since: Option<u64>,
        seat_before: Option<usize>,
    ) -> HallResult<CatchUpFrames> {
        let user = user.cloned();
        self.ask(id, |reply| GameCommand::CatchUp {
            user,
            since,
            seat_before,
            reply,
        })
        .await
    }

    /// [`Hall::catch_up`] on the game's task.
    pub(crate) fn catch_up_in(
        live: &Live,
        user: Option<&User>,
        since: Option<u64>,
        seat_before: Option<usize>,
    ) -> CatchUpFrames {
        let seat = user.and_then(|u| Hall::seat_of(live, u));
        let audience = seat.map_or(Audience::Spectators, Audience::Seat);
        let step = match since {
            Some(v) if seat == seat_before => live.log.since(v, audience),
            _ => CatchUp::Full,
        };
        let frames = match step {
            CatchUp::Nothing => Vec::new(),
            CatchUp::Frames(f) => f,
            CatchUp::Full => vec![Arc::from(
                serde_json::to_string(&Hall::state_view(live, seat)).unwrap_or_default(),
            )],
        };
        (frames, live.version(), seat)
    }

    /// Takes the open seat of a waiting game.
    pub async fn join(&self, id: &str, user: &User) -> HallResult<usize> {
        let user = user.clone();
        self.ask(id, |reply| GameCommand::Join { user, reply })
            .await?
    }

    pub(crate) async fn join_game(&self, live: &mut Live, user: User) -> HallResult<usize> {
        let user = &user;
        if Hall::seat_of(live, user).is_some() {
            return Err(
                HallError::conflict("you already have a seat in this game").with("why", "seated")
            );
        }
        if live.row.status != "waiting" {
            return Err(HallError::conflict("this game has no open seat").with("why", "no_seat"));
        }
        if live.row.rated && user.guest {
            return Err(HallError::forbidden("guests may play only unrated games")
                .with("why", "guest_unrated"));
        }
        if let Some((id, name)) = &live.challenge
            && *id != user.id
        {
            return Err(HallError::forbidden(format!(
                "this challenge is for {name}: only they may take the seat"
            ))
            .with_code(ErrorCode::NotChallenged)
            .with("name", name.as_str()));
        }
        let Some(seat) = live.row.seats.iter().position(|s| *s == SeatRow::Open) else {
            return Err(HallError::conflict("this game has no open seat").with("why", "no_seat"));
        };
        self.check_seek_range(live, user).await?;
        self.check_owner(live)?;
        let before = live.row.clone();
        live.row.seats[seat] = SeatRow::user(user);
        let full = !live.row.seats.contains(&SeatRow::Open);
        if full {
            live.row.status = "playing".into();
        }
        live.row.updated_ms = wall_ms();
        let fence = live.fence.clone();
        if let Err(e) = self.store.update_game(&live.row, fence.as_ref()).await {
            live.row = before;
            return Err(self.refused(live, e));
        }
        if full {
            let seats = live.table.seats_to_move();
            live.clocks.start(&seats, Instant::now());
            self.hold_first_move(live, Instant::now());
            self.metrics.games_in_play.inc();
        }
        self.announce(live);
        self.update_lobby(live);
        if full {
            self.tell_game_start(live);
        }
        Ok(seat)
    }

    /// Ends a game in play with `outcome` (an event's game time cap, X6);
    /// false if it was already over.
    pub async fn end_game(&self, id: &str, outcome: Outcome) -> HallResult<bool> {
        self.ask(id, |reply| GameCommand::End { outcome, reply })
            .await?
    }

    /// [`Hall::end_game`] on the game's task.
    pub(crate) async fn end_in(&self, live: &mut Live, outcome: Outcome) -> HallResult<bool> {
        if live.row.status != "playing" {
            return Ok(false);
        }
        self.finish(live, outcome).await?;
        Ok(true)
    }

    /// A game's stored record as it stands (status, seats, result).
    pub async fn game_row(&self, id: &str) -> HallResult<GameRow> {
        self.ask(id, |reply| GameCommand::Row { reply }).await
    }
}

pub(crate) fn not_a_player() -> HallError {
    HallError::forbidden("you are not a player in this game").with_code(ErrorCode::NotAPlayer)
}

/// A stored end reason: a common one or one a kind adds.
fn reason_from_str(s: &str, kinds: &[std::sync::Arc<dyn qiyuan_core::GameKind>]) -> EndReason {
    EndReason::from_name(s)
        .or_else(|| {
            kinds
                .iter()
                .find_map(|k| EndReason::from_name_among(s, k.end_reasons()))
        })
        .unwrap_or(EndReason::Agreement)
}
