//! Game sessions: the authoritative state of every live game, loading and
//! replaying games, joining, the clock sweeper. The rest of the hall's jobs
//! have their own modules: [`crate::create`] (new games, rematches, event
//! games), [`crate::turn`] (the one commit sequence of a turn, the end of a
//! game, resign/draw/claim), [`crate::view`] (JSON views, lobby, PGN,
//! profiles) and [`crate::ai_moves`] (AI seats). HTTP and WebSocket handlers
//! are thin shells over [`Hall`].
//!
//! Order of every change: validate, apply in memory, **store**, then announce
//! on the event bus. A failed store rolls the in-memory change back.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use qiyuan_core::{Chance, ClockRule, EndReason, Outcome, TableGame};
use rand::Rng;
use serde_json::Value;
use tokio::sync::{Mutex, watch};

use crate::bus::EventBus;
use crate::clock::{Clocks, wall_ms};
pub use crate::create::{ClockSpec, NewGame};
pub use crate::error::{HallError, HallResult};
use crate::metrics::Metrics;
use crate::registry::Registry;
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
    /// A standing draw offer, by seat.
    pub draw_offer: Option<usize>,
    /// A standing rematch offer, by seat.
    pub rematch_offer: Option<usize>,
    /// The rematch game, once made.
    pub rematch_id: Option<String>,
    /// Bumped on every change, so clients can drop stale states.
    pub version: u64,
    /// When the game last changed (finished games are evicted after a while).
    pub touched: Instant,
    /// The seats' names (results and create requests speak them).
    pub seat_names: Vec<String>,
}

/// Server-side randomness for games of chance.
pub(crate) struct ServerChance;

impl Chance for ServerChance {
    fn draw(&mut self, bound: u32) -> u32 {
        rand::rng().random_range(0..bound.max(1))
    }
}

/// How long finished games stay in memory.
const KEEP_FINISHED: Duration = Duration::from_secs(600);

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
    pub(crate) live_games: RwLock<HashMap<String, Arc<Mutex<Live>>>>,
    pub(crate) lobby: std::sync::Mutex<BTreeMap<String, Value>>,
    /// Flips to true on shutdown; long-lived tasks watch it.
    pub shutdown: watch::Receiver<bool>,
    /// Games whose turn passed without a move (a lost turn, B12): the sweeper
    /// lets an AI seat move there, since the code that noticed may not hold an `Arc`.
    pub(crate) ai_wake: std::sync::Mutex<Vec<String>>,
    /// What happens after games end (ratings, events) and the fouls watch (X8).
    pub hooks: crate::events::Hooks,
    /// The bounds set at start.
    pub limits: crate::limits::Limits,
    /// Failed-login throttle.
    pub login: crate::login::LoginThrottle,
    /// Where password hashes run.
    pub hashes: crate::login::HashPool,
    /// Open sockets per address and user.
    pub sockets: crate::sockets::SocketCounts,
    /// Where AI moves are computed (people's games first).
    pub ai_pool: crate::ai::AiPool,
    /// Who hears of finished games.
    pub finisher: crate::finisher::Finisher,
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
    ) -> Hall {
        Hall {
            login: crate::login::LoginThrottle::new(limits.login_max_delay),
            hashes: crate::login::HashPool::new(limits.hash_workers, limits.hash_queue),
            sockets: crate::sockets::SocketCounts::default(),
            ai_pool: crate::ai::AiPool::default(),
            finisher: crate::finisher::Finisher::default(),
            limits,
            store,
            bus,
            games,
            ai_budget,
            metrics: Metrics::default(),
            live_games: RwLock::new(HashMap::new()),
            lobby: std::sync::Mutex::new(BTreeMap::new()),
            shutdown,
            ai_wake: std::sync::Mutex::new(Vec::new()),
            hooks: crate::events::Hooks::default(),
        }
    }

    pub(crate) fn live(&self, id: &str) -> Option<Arc<Mutex<Live>>> {
        self.live_games
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .cloned()
    }

    /// Rebuilds a game from its stored set-up (the secret one, if the game
    /// drew one, such as a hidden layout), its options and its moves.
    fn rebuild(
        &self,
        row: GameRow,
        moves: &[MoveRow],
        stored: Option<(Option<String>, i64)>,
    ) -> anyhow::Result<Live> {
        let (secret, base) = stored.unwrap_or((None, 1));
        let setup = secret.as_deref().or(row.start_fen.as_deref());
        let options = options_of(&row, base);
        let mut table = self
            .games
            .new_table(&row.rules, &options, setup)
            .map_err(|e| anyhow::anyhow!(e.message))?;
        let mut move_clocks = Vec::with_capacity(moves.len());
        for m in moves {
            let seat = m.seat as usize;
            if let Err(e) = table.play_for(seat, &m.mv, &mut ServerChance) {
                // A stored lost turn (B12) is not a move a player could send.
                let mut probe = table.boxed_clone();
                if !(probe.lose_turn(seat) && probe.history().last() == Some(&m.mv)) {
                    anyhow::bail!("replaying {} ply {}: {e}", row.id, m.ply);
                }
                table = probe;
            }
            move_clocks.push(m.clocks.clone());
        }
        if let (Some(reason), Some(result)) = (&row.reason, &row.result)
            && table.result().is_none()
        {
            // Ended outside the rules (resignation, time, agreement, claim).
            table.end(Outcome {
                winner: self
                    .games
                    .seat_names(&row.rules, row.seats.len())
                    .iter()
                    .position(|n| n == result),
                reason: reason_from_str(reason),
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
        Ok(Live {
            seat_names,
            row,
            table,
            clocks,
            move_clocks,
            draw_offer: None,
            rematch_offer: None,
            rematch_id: None,
            version: 0,
            touched: Instant::now(),
        })
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
            if live.row.status == "playing" {
                let now = Instant::now();
                let seats = live.table.seats_to_move();
                live.clocks.start(&seats, now);
                self.metrics.games_in_play.inc();
            }
            self.update_lobby(&live);
            let arc = Arc::new(Mutex::new(live));
            self.live_games
                .write()
                .unwrap_or_else(|e| e.into_inner())
                .insert(id.clone(), arc);
            self.maybe_ai_move(&id).await;
            n += 1;
        }
        Ok(n)
    }

    /// Stores a new game's hidden set-up and room base (before its row, so a
    /// stored game can always be replayed); nothing for games without either.
    /// Stores a new game (its row, and the secret set-up of a hidden-information
    /// game), starts its clock if it is `playing`, and shows it in the lobby.
    /// Returns its id; callers then let the AI move if it is to play.
    pub(crate) async fn install_game(
        &self,
        row: GameRow,
        table: Box<dyn TableGame>,
        base: i64,
        playing: bool,
    ) -> HallResult<String> {
        self.save_setup(&row.id, table.as_ref(), base).await?;
        self.store
            .insert_game(&row)
            .await
            .map_err(HallError::internal)?;
        let mut clocks = Clocks::new(row.clocks.clone(), row.increment_ms);
        if playing {
            clocks.start(&table.seats_to_move(), Instant::now());
            self.metrics.games_in_play.inc();
        }
        let id = row.id.clone();
        let live = Live {
            seat_names: self.games.seat_names(&row.rules, row.seats.len()),
            row,
            table,
            clocks,
            move_clocks: Vec::new(),
            draw_offer: None,
            rematch_offer: None,
            rematch_id: None,
            version: 0,
            touched: Instant::now(),
        };
        self.update_lobby(&live);
        self.live_games
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id.clone(), Arc::new(Mutex::new(live)));
        Ok(id)
    }

    async fn save_setup(&self, id: &str, table: &dyn TableGame, base: i64) -> HallResult<()> {
        let secret = table.secret_setup();
        if secret.is_none() && base == 1 {
            return Ok(());
        }
        self.store
            .save_game_setup(id, secret.as_deref(), base)
            .await
            .map_err(HallError::internal)
    }

    /// Per-move clocks (B12): every turn starts with the room's full time.
    pub(crate) fn fresh_turn(live: &mut Live) {
        if live.table.clock_rule() == ClockRule::PerMove {
            let full = live.row.initial_ms;
            live.clocks.remaining.iter_mut().for_each(|r| *r = full);
        }
    }

    /// The game, from memory or (finished games) from storage.
    pub(crate) async fn get(&self, id: &str) -> HallResult<Arc<Mutex<Live>>> {
        if let Some(g) = self.live(id) {
            return Ok(g);
        }
        if id.len() > 32 || !id.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(HallError::not_found(format!(
                "no game '{}'",
                crate::error::shown(id)
            )));
        }
        let loaded = self
            .store
            .load_game(id)
            .await
            .map_err(HallError::internal)?;
        let Some((row, moves)) = loaded else {
            return Err(HallError::not_found(format!(
                "no game '{}'",
                crate::error::shown(id)
            )));
        };
        let stored = self
            .store
            .game_setup(id)
            .await
            .map_err(HallError::internal)?;
        let live = self
            .rebuild(row, &moves, stored)
            .map_err(HallError::internal)?;
        let arc = Arc::new(Mutex::new(live));
        let mut games = self.live_games.write().unwrap_or_else(|e| e.into_inner());
        Ok(games.entry(id.to_string()).or_insert(arc).clone())
    }

    /// The seat `user` holds in `live`, if any.
    pub(crate) fn seat_of(live: &Live, user: &User) -> Option<usize> {
        live.row
            .seats
            .iter()
            .position(|s| matches!(s, SeatRow::User { id, .. } if *id == user.id))
    }

    /// The state of game `id` as `user` (or a spectator) sees it.
    pub async fn state(&self, id: &str, user: Option<&User>) -> HallResult<Value> {
        let g = self.get(id).await?;
        let mut live = g.lock().await;
        // A reader may notice a fallen flag before the sweeper does.
        self.flag_check(&mut live, Instant::now()).await;
        let seat = user.and_then(|u| Hall::seat_of(&live, u));
        Ok(Hall::state_json(&live, seat))
    }

    /// The seat of `user` in game `id` (for sockets).
    pub async fn seat_in(&self, id: &str, user: &User) -> HallResult<Option<usize>> {
        let g = self.get(id).await?;
        let live = g.lock().await;
        Ok(Hall::seat_of(&live, user))
    }

    pub(crate) fn announce(&self, live: &Live) {
        let s = Hall::state_json(live, None);
        self.bus.publish(&live.row.id, Arc::from(s.to_string()));
    }

    /// Takes the open seat of a waiting game.
    pub async fn join(self: &Arc<Self>, id: &str, user: &User) -> HallResult<usize> {
        let g = self.get(id).await?;
        let mut live = g.lock().await;
        if Hall::seat_of(&live, user).is_some() {
            return Err(HallError::conflict("you already have a seat in this game"));
        }
        if live.row.status != "waiting" {
            return Err(HallError::conflict("this game has no open seat"));
        }
        if live.row.rated && user.guest {
            return Err(HallError::forbidden("guests may play only unrated games"));
        }
        let Some(seat) = live.row.seats.iter().position(|s| *s == SeatRow::Open) else {
            return Err(HallError::conflict("this game has no open seat"));
        };
        let before = live.row.clone();
        live.row.seats[seat] = SeatRow::User {
            id: user.id,
            name: user.username.clone(),
        };
        let full = !live.row.seats.contains(&SeatRow::Open);
        if full {
            live.row.status = "playing".into();
        }
        live.row.updated_ms = wall_ms();
        if let Err(e) = self.store.update_game(&live.row).await {
            live.row = before;
            return Err(HallError::internal(e));
        }
        if full {
            let seats = live.table.seats_to_move();
            live.clocks.start(&seats, Instant::now());
            self.metrics.games_in_play.inc();
        }
        live.version += 1;
        live.touched = Instant::now();
        self.announce(&live);
        self.update_lobby(&live);
        Ok(seat)
    }

    /// Ends games whose flag fell and forgets finished games nobody looked at
    /// for a while. Runs every 100 ms until shutdown.
    pub async fn sweep(self: Arc<Self>) {
        let mut shutdown = self.shutdown.clone();
        let mut tick = tokio::time::interval(Duration::from_millis(100));
        loop {
            tokio::select! {
                _ = tick.tick() => {}
                _ = shutdown.changed() => return,
            }
            let all: Vec<(String, Arc<Mutex<Live>>)> = self
                .live_games
                .read()
                .unwrap_or_else(|e| e.into_inner())
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            let now = Instant::now();
            let mut forget = Vec::new();
            for (id, g) in all {
                let Ok(mut live) = g.try_lock() else { continue };
                if live.row.status == "playing" {
                    if live.clocks.deadline().is_some_and(|d| d <= now) {
                        self.flag_check(&mut live, now).await;
                    }
                } else if live.row.status == "finished"
                    && now.saturating_duration_since(live.touched) > KEEP_FINISHED
                {
                    forget.push(id);
                }
            }
            if !forget.is_empty() {
                let mut games = self.live_games.write().unwrap_or_else(|e| e.into_inner());
                for id in forget {
                    games.remove(&id);
                }
            }
            let wake = std::mem::take(&mut *self.ai_wake.lock().unwrap_or_else(|e| e.into_inner()));
            for id in wake {
                self.maybe_ai_move(&id).await;
            }
        }
    }

    /// Ends a game in play with `outcome` (an event's game time cap, X6);
    /// false if it was already over.
    pub async fn end_game(&self, id: &str, outcome: Outcome) -> HallResult<bool> {
        let g = self.get(id).await?;
        let mut live = g.lock().await;
        if live.row.status != "playing" {
            return Ok(false);
        }
        self.finish(&mut live, outcome).await?;
        Ok(true)
    }

    /// A game's stored record as it stands (status, seats, result).
    pub async fn game_row(&self, id: &str) -> HallResult<GameRow> {
        let g = self.get(id).await?;
        let mut live = g.lock().await;
        self.flag_check(&mut live, Instant::now()).await;
        Ok(live.row.clone())
    }
}

/// A stored game's options: its target column and its room base.
pub(crate) fn options_of(row: &GameRow, base: i64) -> qiyuan_core::Options {
    let mut o = qiyuan_core::Options::new();
    if let Some(t) = row.target {
        o.insert("target".into(), i64::from(t));
    }
    if base != 1 {
        o.insert(qiyuan_core::kind::BASE_OPTION.into(), base);
    }
    o
}

pub(crate) fn not_a_player() -> HallError {
    HallError::forbidden("you are not a player in this game").with_code("not_a_player")
}

fn reason_from_str(s: &str) -> EndReason {
    EndReason::from_name(s).unwrap_or(EndReason::Agreement)
}
