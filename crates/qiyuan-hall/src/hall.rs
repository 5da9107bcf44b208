//! Game sessions: the authoritative state of every live game, the lobby, the
//! clocks, and the rules for joining, moving, resigning, draws, claims and
//! rematches. HTTP and WebSocket handlers are thin shells over [`Hall`].
//!
//! Order of every change: validate, apply in memory, **store**, then announce
//! on the event bus. A failed store rolls the in-memory change back.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use qiyuan_core::{Chance, ClaimVerdict, ClockRule, EndReason, Outcome, TableGame, Viewer};
use rand::Rng;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::{Mutex, watch};

use crate::bus::{EventBus, LOBBY};
use crate::clock::{Clocks, wall_ms};
pub use crate::error::{HallError, HallResult};
use crate::metrics::Metrics;
use crate::registry::Registry;
use crate::store::{GameRow, MoveRow, SeatRow, Storage, User};

/// The clock settings of a new game.
#[derive(Deserialize, Debug, Clone, Copy)]
#[serde(deny_unknown_fields)]
pub struct ClockSpec {
    /// Base time per player in seconds.
    pub initial_s: i64,
    /// Added after each turn, in seconds.
    #[serde(default)]
    pub increment_s: i64,
}

impl ClockSpec {
    /// Checks the documented bounds: base 1 s to 3 h, increment 0 to 600 s.
    pub fn check(&self) -> HallResult<()> {
        use crate::limits::{MAX_CLOCK_INCREMENT_S, MAX_CLOCK_INITIAL_S, check_range};
        check_range("clock.initial_s", self.initial_s, 1, MAX_CLOCK_INITIAL_S)?;
        check_range(
            "clock.increment_s",
            self.increment_s,
            0,
            MAX_CLOCK_INCREMENT_S,
        )
    }
}

/// `POST /api/games`.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// Rule set name.
    pub game: String,
    /// Jifen target score.
    #[serde(default)]
    pub target: Option<i32>,
    /// Clock; default 10 minutes, no increment.
    #[serde(default)]
    pub clock: Option<ClockSpec>,
    /// `open` (default) or `ai:N`.
    #[serde(default)]
    pub opponent: Option<String>,
    /// Whether the game counts for ratings.
    #[serde(default)]
    pub rated: bool,
    /// A set-up position (makes the game unrated).
    #[serde(default)]
    pub fen: Option<String>,
    /// The creator's seat: `red` (default), `black` or `random`.
    #[serde(default)]
    pub seat: Option<String>,
    /// The room's base (基数) for game points (B17; default 1); same as
    /// `options.base`.
    #[serde(default)]
    pub base: Option<i64>,
    /// The variant's options (`GET /api/kinds` lists them), e.g.
    /// `{"target": 30}` or `{"base": 2}`.
    #[serde(default)]
    pub options: Option<qiyuan_core::Options>,
}

impl NewGame {
    /// The room's options: `options`, with the older top-level `target`
    /// and `base` folded in.
    pub fn options(&self) -> HallResult<qiyuan_core::Options> {
        let mut o = self.options.clone().unwrap_or_default();
        crate::limits::check_len("options", o.len(), 16)?;
        if let Some(t) = self.target {
            o.insert("target".into(), i64::from(t));
        }
        if let Some(b) = self.base {
            o.insert(qiyuan_core::kind::BASE_OPTION.into(), b);
        }
        Ok(o)
    }
}

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
struct ServerChance;

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
    live_games: RwLock<HashMap<String, Arc<Mutex<Live>>>>,
    lobby: std::sync::Mutex<BTreeMap<String, Value>>,
    /// Flips to true on shutdown; long-lived tasks watch it.
    pub shutdown: watch::Receiver<bool>,
    /// Games whose turn passed without a move (a lost turn, B12): the sweeper
    /// lets an AI seat move there, since the code that noticed may not hold an `Arc`.
    ai_wake: std::sync::Mutex<Vec<String>>,
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
}

fn new_game_id() -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut rng = rand::rng();
    (0..8)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

/// A result as stored and shown: the winning seat's name, or `draw`.
fn result_name(names: &[String], o: &Outcome) -> String {
    o.winner
        .and_then(|w| names.get(w).cloned())
        .unwrap_or_else(|| "draw".into())
}

/// The placings of an outcome: seat groups, best first (a draw is one group).
pub fn placings(o: &Outcome, seats: usize) -> Vec<Vec<usize>> {
    match o.winner {
        Some(w) => vec![vec![w], (0..seats).filter(|&s| s != w).collect()],
        None => vec![(0..seats).collect()],
    }
}

fn pgn_result(o: Option<&Outcome>) -> &'static str {
    match o.map(|o| o.winner) {
        Some(Some(0)) => "1-0",
        Some(Some(_)) => "0-1",
        Some(None) => "1/2-1/2",
        None => "*",
    }
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

    fn live(&self, id: &str) -> Option<Arc<Mutex<Live>>> {
        self.live_games
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .cloned()
    }

    /// Rebuilds a game from its stored set-up (the secret one, if the game
    /// drew one: Banqi's layout), its options and its moves.
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
                live.clocks.running = live.table.seats_to_move().first().map(|&s| (s, now));
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
    async fn install_game(
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
            clocks.running = table.seats_to_move().first().map(|&s| (s, Instant::now()));
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
    fn fresh_turn(live: &mut Live) {
        if live.table.clock_rule() == ClockRule::PerMove {
            let full = live.row.initial_ms;
            live.clocks.remaining.iter_mut().for_each(|r| *r = full);
        }
    }

    /// The game, from memory or (finished games) from storage.
    async fn get(&self, id: &str) -> HallResult<Arc<Mutex<Live>>> {
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

    /// The state of a game as `viewer` sees it (with legal moves for the seat to move).
    pub fn state_json(live: &Live, viewer: Option<usize>) -> Value {
        let now = Instant::now();
        let t = &live.table;
        let view = t.view(viewer.map(Viewer::Seat).unwrap_or(Viewer::Spectator));
        let records: Vec<Value> = t
            .move_records()
            .into_iter()
            .enumerate()
            .map(|(i, r)| {
                let mut o = json!({"iccs": r.text});
                for (k, v) in r.notations {
                    o[k] = json!(v);
                }
                if let Some(s) = r.scores {
                    o["scores"] = json!(s);
                }
                if let Some(c) = live.move_clocks.get(i) {
                    o["clocks"] = json!(c);
                }
                o
            })
            .collect();
        let moves: Vec<&Value> = records.iter().map(|r| &r["iccs"]).collect();
        let mut s = json!({
            "t": "state",
            "id": live.row.id,
            "game": live.row.rules,
            "status": live.row.status,
            "fen": view,
            // A secret set-up (Banqi's layout, even a set-up position's
            // eleventh field) is never sent while the game is in play.
            "start_fen": if t.secret_setup().is_some() && t.result().is_none() {
                None
            } else {
                live.row.start_fen.as_deref()
            },
            "moves": moves,
            "records": records,
            "clocks": live.clocks.at(now),
            "running": live.clocks.running.map(|(s, _)| s),
            "clock": {"initial_s": live.row.initial_ms / 1000, "increment_s": live.row.increment_ms / 1000},
            "rated": live.row.rated,
            "seats": live.row.seats,
            "to_move": if live.row.status == "playing" { t.seats_to_move().first().copied() } else { None },
            "turn_state": t.turn_phase(),
            "alerts": t.alerts(),
            "draw_offer": live.draw_offer,
            "rematch_offer": live.rematch_offer,
            "rematch_id": live.rematch_id,
            "rematch_of": live.row.rematch_of,
            "version": live.version,
        });
        if let Some(sc) = t.scores() {
            s["scores"] = json!(sc);
            s["target"] = json!(t.target());
        }
        if let Some(o) = t.result() {
            s["result"] = json!(result_name(&live.seat_names, o));
            s["placings"] = json!(placings(o, live.row.seats.len()));
            s["reason"] = json!(o.reason.as_str());
            s["explanation"] = json!(o.explanation);
        }
        if let Some(seat) = viewer {
            s["seat"] = json!(seat);
            if live.row.status == "playing" {
                s["legal"] = json!(t.legal_moves_for(seat));
            }
        }
        s
    }

    /// The seat `user` holds in `live`, if any.
    fn seat_of(live: &Live, user: &User) -> Option<usize> {
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

    fn announce(&self, live: &Live) {
        let s = Hall::state_json(live, None);
        self.bus.publish(&live.row.id, Arc::from(s.to_string()));
    }

    fn lobby_entry(live: &Live) -> Value {
        json!({
            "id": live.row.id,
            "game": live.row.rules,
            "status": live.row.status,
            "seats": live.row.seats,
            "rated": live.row.rated,
            "target": live.table.target(),
            "clock": {"initial_s": live.row.initial_ms / 1000, "increment_s": live.row.increment_ms / 1000},
            "moves": live.table.history().len(),
            // A room from a set-up position: unrated, settles no points.
            "setup": live.row.start_fen.is_some(),
        })
    }

    fn update_lobby(&self, live: &Live) {
        let entry = Hall::lobby_entry(live);
        {
            let mut lobby = self.lobby.lock().unwrap_or_else(|e| e.into_inner());
            if live.row.status == "finished" {
                lobby.remove(&live.row.id);
            } else {
                lobby.insert(live.row.id.clone(), entry.clone());
            }
        }
        self.bus.publish(
            LOBBY,
            Arc::from(json!({"t": "lobby", "game": entry}).to_string()),
        );
    }

    /// Open rooms and games in play.
    pub fn lobby(&self) -> Value {
        let lobby = self.lobby.lock().unwrap_or_else(|e| e.into_inner());
        let (open, playing): (Vec<&Value>, Vec<&Value>) =
            lobby.values().partition(|g| g["status"] == "waiting");
        json!({"t": "lobby", "open": open, "playing": playing})
    }

    /// Creates a game; returns its id and the creator's seat.
    pub async fn create(
        self: &Arc<Self>,
        user: &User,
        req: NewGame,
    ) -> HallResult<(String, usize)> {
        if req
            .fen
            .as_ref()
            .is_some_and(|f| f.len() > crate::limits::MAX_FEN_LEN)
        {
            return Err(HallError::new(
                400,
                "out_of_range",
                format!("fen: at most {} bytes", crate::limits::MAX_FEN_LEN),
            ));
        }
        if let Some(c) = &req.clock {
            c.check()?;
        }
        let options = req.options()?;
        let (kind, _) = self.games.kind_of(&req.game)?;
        let kind = kind.clone();
        let table = self
            .games
            .new_table(&req.game, &options, req.fen.as_deref())?;
        if table.result().is_some() {
            return Err(HallError::bad("the set-up position is already over"));
        }
        let per_move = table.clock_rule() == ClockRule::PerMove;
        let clock = req.clock.unwrap_or(match kind.default_clock() {
            qiyuan_core::DefaultClock::PerSeat {
                initial_s,
                increment_s,
            } => ClockSpec {
                initial_s,
                increment_s,
            },
            qiyuan_core::DefaultClock::PerMove { seconds } => ClockSpec {
                initial_s: seconds,
                increment_s: 0,
            },
        });
        if per_move && clock.increment_s != 0 {
            return Err(HallError::bad(
                "this game has a fixed time per move (clock.initial_s) and no increment",
            ));
        }
        let base = options.get(qiyuan_core::kind::BASE_OPTION).copied();
        if base.is_some() && req.fen.is_some() {
            // A set-up settles no game points, so a base would mean nothing.
            return Err(HallError::bad(
                "a room from a set-up position settles no game points: leave out base",
            ));
        }
        let base = base.unwrap_or(1);
        if req.rated && req.fen.is_some() {
            return Err(HallError::bad(
                "a game from a set-up position cannot be rated",
            ));
        }
        if req.rated && user.guest {
            return Err(HallError::forbidden(
                "guests may play only unrated games; register to play rated",
            ));
        }
        let opponent = match req.opponent.as_deref().unwrap_or("open") {
            "open" => SeatRow::Open,
            s => match s.strip_prefix("ai:").and_then(|n| n.parse::<u8>().ok()) {
                Some(level) if (1..=8).contains(&level) && kind.ai().is_some() => {
                    SeatRow::Ai { level }
                }
                Some(_) if kind.ai().is_none() => {
                    return Err(HallError::bad(format!("{} has no AI", req.game)));
                }
                _ => {
                    return Err(HallError::bad(format!(
                        "opponent must be \"open\" or \"ai:1\" .. \"ai:8\", not '{s}'"
                    )));
                }
            },
        };
        if matches!(opponent, SeatRow::Ai { .. }) {
            let in_play = self
                .store
                .ai_games_in_play(user.id)
                .await
                .map_err(HallError::internal)?;
            let max = self.limits.ai_games_per_user;
            if in_play >= max as i64 {
                return Err(HallError::too_many(
                    "ai_budget",
                    format!(
                        "you already play {in_play} games against the AI; at most {max} at once"
                    ),
                ));
            }
        }
        let me = SeatRow::User {
            id: user.id,
            name: user.username.clone(),
        };
        let names = self.games.seat_names(&req.game, table.seat_count());
        let seat = match req.seat.as_deref() {
            None => 0,
            Some("random") => rand::rng().random_range(0..names.len().max(1)),
            Some(s) => names.iter().position(|n| n == s).ok_or_else(|| {
                HallError::bad(format!(
                    "seat must be {} or random, not '{}'",
                    names.join(", "),
                    crate::error::shown(s)
                ))
            })?,
        };
        let mut seats = vec![opponent.clone(); table.seat_count()];
        seats[seat] = me;
        let playing = !matches!(opponent, SeatRow::Open);
        let initial_ms = clock.initial_s * 1000;
        let now_ms = wall_ms();
        let row = GameRow {
            id: new_game_id(),
            rules: req.game.clone(),
            target: options.get("target").and_then(|&t| i32::try_from(t).ok()),
            start_fen: req.fen.clone(),
            initial_ms,
            increment_ms: clock.increment_s * 1000,
            rated: req.rated,
            seats,
            status: if playing { "playing" } else { "waiting" }.into(),
            result: None,
            reason: None,
            explanation: None,
            clocks: vec![initial_ms; table.seat_count()],
            created_ms: now_ms,
            updated_ms: now_ms,
            rematch_of: None,
        };
        let id = self.install_game(row, table, base, playing).await?;
        tracing::info!(game = %id, rules = %req.game, user = %user.username, "game created");
        self.maybe_ai_move(&id).await;
        Ok((id, seat))
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
            let first = live.table.seats_to_move().first().copied();
            live.clocks.running = first.map(|s| (s, Instant::now()));
            self.metrics.games_in_play.inc();
        }
        live.version += 1;
        live.touched = Instant::now();
        self.announce(&live);
        self.update_lobby(&live);
        Ok(seat)
    }

    /// Plays a move for `user`; `lag_ms` is the network time credited (WebSocket only).
    pub async fn play(
        self: &Arc<Self>,
        id: &str,
        user: &User,
        mv: &str,
        lag_ms: i64,
    ) -> HallResult<Value> {
        let g = self.get(id).await?;
        let mut live = g.lock().await;
        let seat = Hall::seat_of(&live, user).ok_or_else(not_a_player)?;
        self.play_locked(&mut live, seat, mv, lag_ms).await?;
        let state = Hall::state_json(&live, Some(seat));
        drop(live);
        self.maybe_ai_move(id).await;
        Ok(state)
    }

    async fn play_locked(
        self: &Arc<Self>,
        live: &mut Live,
        seat: usize,
        mv: &str,
        lag_ms: i64,
    ) -> HallResult<()> {
        let started = Instant::now();
        match live.row.status.as_str() {
            "waiting" => {
                return Err(HallError::conflict(
                    "the game has not started: a seat is still open",
                ));
            }
            "finished" => {
                return Err(HallError::conflict("the game is over").with_code("game_over"));
            }
            _ => {}
        }
        if mv.len() > crate::limits::MAX_MOVE_LEN {
            return Err(HallError::bad("malformed move: too long").with_code("illegal_move"));
        }
        let now = Instant::now();
        if self.flag_check(live, now).await {
            return Err(HallError::conflict("the game is over: time ran out"));
        }
        if !live.table.seats_to_move().contains(&seat) {
            return Err(HallError::conflict("not your turn").with_code("not_your_turn"));
        }
        let snapshot = live.table.boxed_clone();
        let clocks_before = live.clocks.clone();
        let row_before = live.row.clone();
        live.table
            .play_for(seat, mv, &mut ServerChance)
            .map_err(|e| HallError::bad(e.to_string()).with_code("illegal_move"))?;
        let next = live.table.seats_to_move().first().copied();
        live.clocks.charge_move(seat, now, lag_ms, next);
        Hall::fresh_turn(live);
        let ply = live.table.history().len() as i64 - 1;
        let text = live.table.history().last().cloned().unwrap_or_default();
        let outcome = live.table.result().cloned();
        if let Some(o) = &outcome {
            live.clocks.stop(now);
            Hall::mark_finished(&mut live.row, &live.seat_names, o);
        }
        live.row.clocks = live.clocks.remaining.clone();
        live.row.updated_ms = wall_ms();
        let mrow = MoveRow {
            ply,
            seat: seat as i64,
            mv: text,
            clocks: live.clocks.remaining.clone(),
            at_ms: live.row.updated_ms,
        };
        if let Err(e) = self.store.append_move(&live.row, &mrow).await {
            live.table = snapshot;
            live.clocks = clocks_before;
            live.row = row_before;
            return Err(HallError::internal(e));
        }
        live.move_clocks.push(mrow.clocks);
        if let Some(offerer) = live.draw_offer.filter(|&s| s != seat) {
            // Moving instead of answering declines the offer.
            live.draw_offer = None;
            self.hooks.fouls.declined(&live.row.id, offerer);
        }
        self.hooks.fouls.moved(&live.row.id, seat);
        live.version += 1;
        live.touched = Instant::now();
        self.announce(live);
        self.metrics.moves.inc();
        if outcome.is_some() {
            self.metrics.games_in_play.dec();
            self.update_lobby(live);
            self.hooks.game_over(&live.row.id);
            self.settle_points(live).await;
        }
        self.metrics
            .move_latency
            .observe(started.elapsed().as_secs_f64());
        Ok(())
    }

    fn mark_finished(row: &mut GameRow, names: &[String], o: &Outcome) {
        row.status = "finished".into();
        row.result = Some(result_name(names, o));
        row.reason = Some(o.reason.as_str().into());
        row.explanation = Some(o.explanation.clone());
    }

    /// Ends a live game from outside its rules, stores and announces it.
    async fn finish(&self, live: &mut Live, outcome: Outcome) -> HallResult<()> {
        if live.row.status == "finished" {
            return Err(HallError::conflict("the game is over"));
        }
        let was_playing = live.row.status == "playing";
        let now = Instant::now();
        let before = (live.row.clone(), live.clocks.clone());
        live.clocks.stop(now);
        Hall::mark_finished(&mut live.row, &live.seat_names, &outcome);
        live.row.clocks = live.clocks.remaining.clone();
        live.row.updated_ms = wall_ms();
        if let Err(e) = self.store.update_game(&live.row).await {
            (live.row, live.clocks) = before;
            return Err(HallError::internal(e));
        }
        live.table.end(outcome);
        live.draw_offer = None;
        live.version += 1;
        live.touched = Instant::now();
        if was_playing {
            self.metrics.games_in_play.dec();
        }
        self.announce(live);
        self.update_lobby(live);
        self.hooks.game_over(&live.row.id);
        self.settle_points(live).await;
        Ok(())
    }

    /// Ends the game on time if the running flag has fallen; true if it did.
    async fn flag_check(&self, live: &mut Live, now: Instant) -> bool {
        // An AI-only game waiting for the AI slot is not on the clock.
        if live.row.status != "playing" || self.ai_pool.is_queued(&live.row.id) {
            return false;
        }
        let Some(seat) = live.clocks.flagged(now) else {
            return false;
        };
        if live.table.clock_rule() == ClockRule::PerMove {
            let mut probe = live.table.boxed_clone();
            if probe.lose_turn(seat) {
                return self.lost_turn(live, seat, probe, now).await;
            }
        }
        // What a fallen flag means is the game's to say.
        let outcome = live.table.seat_leaves(seat, EndReason::Timeout);
        if let Err(e) = self.finish(live, outcome).await {
            tracing::error!(game = %live.row.id, error = ?e, "cannot store a timeout");
            return false;
        }
        true
    }

    /// B12: `seat` ran out of time and lost its turn (`table` is the game
    /// after it). Stored like a move, then announced; true if that ended the
    /// game (the third mark).
    async fn lost_turn(
        &self,
        live: &mut Live,
        seat: usize,
        table: Box<dyn TableGame>,
        now: Instant,
    ) -> bool {
        let before = (live.row.clone(), live.clocks.clone());
        let snapshot = std::mem::replace(&mut live.table, table);
        let next = live.table.seats_to_move().first().copied();
        live.clocks.charge_move(seat, now, 0, next);
        Hall::fresh_turn(live);
        let outcome = live.table.result().cloned();
        if let Some(o) = &outcome {
            live.clocks.stop(now);
            Hall::mark_finished(&mut live.row, &live.seat_names, o);
        }
        live.row.clocks = live.clocks.remaining.clone();
        live.row.updated_ms = wall_ms();
        let mrow = MoveRow {
            ply: live.table.history().len() as i64 - 1,
            seat: seat as i64,
            mv: live.table.history().last().cloned().unwrap_or_default(),
            clocks: live.clocks.remaining.clone(),
            at_ms: live.row.updated_ms,
        };
        if let Err(e) = self.store.append_move(&live.row, &mrow).await {
            tracing::error!(game = %live.row.id, error = %e, "cannot store a lost turn");
            live.table = snapshot;
            (live.row, live.clocks) = before;
            return false;
        }
        live.move_clocks.push(mrow.clocks);
        live.version += 1;
        live.touched = Instant::now();
        self.announce(live);
        if outcome.is_some() {
            self.metrics.games_in_play.dec();
            self.update_lobby(live);
            self.hooks.game_over(&live.row.id);
            self.settle_points(live).await;
            return true;
        }
        self.ai_wake
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(live.row.id.clone());
        false
    }

    /// Resigns for `user`.
    pub async fn resign(&self, id: &str, user: &User) -> HallResult<Value> {
        let g = self.get(id).await?;
        let mut live = g.lock().await;
        let seat = Hall::seat_of(&live, user).ok_or_else(not_a_player)?;
        if live.row.status != "playing" {
            return Err(HallError::conflict(if live.row.status == "finished" {
                "the game is over"
            } else {
                "the game has not started"
            }));
        }
        if let Some(why) = live.table.concession_refused() {
            return Err(HallError::conflict(why));
        }
        let outcome = live.table.seat_leaves(seat, EndReason::Resignation);
        self.finish(&mut live, outcome).await?;
        Ok(Hall::state_json(&live, Some(seat)))
    }

    /// Offers, accepts (`accept`, or `offer` while the opponent's offer
    /// stands) or declines a draw.
    pub async fn draw(&self, id: &str, user: &User, action: &str) -> HallResult<Value> {
        let g = self.get(id).await?;
        let mut live = g.lock().await;
        let seat = Hall::seat_of(&live, user).ok_or_else(not_a_player)?;
        if live.row.status != "playing" {
            return Err(HallError::conflict("the game is not being played"));
        }
        if let Some(why) = live.table.concession_refused() {
            return Err(HallError::conflict(why));
        }
        let theirs = live.draw_offer.filter(|&s| s != seat);
        match (action, theirs) {
            ("offer" | "accept", Some(_)) => {
                let outcome = Outcome {
                    winner: None,
                    reason: EndReason::Agreement,
                    explanation: "双方同意和棋 / draw by agreement".into(),
                };
                self.finish(&mut live, outcome).await?;
            }
            ("accept", None) => {
                return Err(HallError::conflict("there is no draw offer to accept"));
            }
            ("offer", None) => {
                if live.draw_offer == Some(seat) {
                    return Err(HallError::conflict("your draw offer already stands"));
                }
                if self.hooks.fouls.offered(&live.row.id, seat) {
                    // X8: offered again before the opponent made two moves since the refusal.
                    self.record_foul(&live.row.id, seat).await;
                }
                live.draw_offer = Some(seat);
                live.version += 1;
                self.announce(&live);
            }
            ("decline", Some(offerer)) => {
                live.draw_offer = None;
                self.hooks.fouls.declined(&live.row.id, offerer);
                live.version += 1;
                self.announce(&live);
            }
            ("decline", None) => {
                return Err(HallError::conflict("there is no draw offer to decline"));
            }
            _ => return Err(HallError::bad("action must be offer, accept or decline")),
        }
        Ok(Hall::state_json(&live, Some(seat)))
    }

    /// Claims a draw by the natural move limit (X4); the game judges it.
    pub async fn claim(&self, id: &str, user: &User) -> HallResult<Value> {
        let g = self.get(id).await?;
        let mut live = g.lock().await;
        let seat = Hall::seat_of(&live, user).ok_or_else(not_a_player)?;
        if live.row.status != "playing" {
            return Err(HallError::conflict("the game is not being played"));
        }
        let mut probe = live.table.boxed_clone();
        match probe.claim(seat) {
            ClaimVerdict::Granted(outcome) => {
                self.finish(&mut live, outcome).await?;
                Ok(Hall::state_json(&live, Some(seat)))
            }
            ClaimVerdict::Refused(why) => {
                // X8: an untrue claim of the natural move limit is a foul.
                self.record_foul(&live.row.id, seat).await;
                Err(HallError::conflict(format!("claim refused: {why}")))
            }
        }
    }

    /// Offers or accepts a rematch (seats swapped, same settings). Returns the
    /// new game's id once both agreed (at once against the AI).
    pub async fn rematch(self: &Arc<Self>, id: &str, user: &User) -> HallResult<Option<String>> {
        let g = self.get(id).await?;
        let mut live = g.lock().await;
        let seat = Hall::seat_of(&live, user).ok_or_else(not_a_player)?;
        if live.row.status != "finished" {
            return Err(HallError::conflict("a rematch needs a finished game"));
        }
        if let Some(r) = &live.rematch_id {
            return Ok(Some(r.clone()));
        }
        let vs_ai = live
            .row
            .seats
            .iter()
            .any(|s| matches!(s, SeatRow::Ai { .. }));
        let agreed = vs_ai || live.rematch_offer.is_some_and(|s| s != seat);
        if !agreed {
            live.rematch_offer = Some(seat);
            live.version += 1;
            self.announce(&live);
            return Ok(None);
        }
        let mut seats = live.row.seats.clone();
        seats.reverse();
        // A fresh layout for a rematch of a hidden game, in a room with the
        // same options.
        let base = match self.store.game_setup(&live.row.id).await {
            Ok(s) => s.map_or(1, |(_, b)| b),
            Err(e) => return Err(HallError::internal(e)),
        };
        let table = self.games.new_table(
            &live.row.rules,
            &options_of(&live.row, base),
            live.row.start_fen.as_deref(),
        )?;
        let now_ms = wall_ms();
        let row = GameRow {
            id: new_game_id(),
            seats,
            status: "playing".into(),
            result: None,
            reason: None,
            explanation: None,
            clocks: vec![live.row.initial_ms; table.seat_count()],
            created_ms: now_ms,
            updated_ms: now_ms,
            rematch_of: Some(live.row.id.clone()),
            ..live.row.clone()
        };
        let new_id = self.install_game(row, table, base, true).await?;
        live.rematch_id = Some(new_id.clone());
        live.version += 1;
        self.announce(&live);
        drop(live);
        self.maybe_ai_move(&new_id).await;
        Ok(Some(new_id))
    }

    /// The game record as PGN.
    pub async fn pgn(&self, id: &str) -> HallResult<String> {
        let g = self.get(id).await?;
        let live = g.lock().await;
        let name = |s: &SeatRow| match s {
            SeatRow::User { name, .. } => name.clone(),
            SeatRow::Ai { level } => format!("AI level {level}"),
            SeatRow::Open => "?".into(),
        };
        let mut tags = vec![
            ("Event".to_string(), "Qiyuan".to_string()),
            ("Site".to_string(), format!("qiyuan game {}", live.row.id)),
        ];
        if let Some(s) = live.row.seats.first() {
            tags.push(("Red".into(), name(s)));
        }
        if let Some(s) = live.row.seats.get(1) {
            tags.push(("Black".into(), name(s)));
        }
        tags.push((
            "TimeControl".into(),
            format!(
                "{}+{}",
                live.row.initial_ms / 1000,
                live.row.increment_ms / 1000
            ),
        ));
        if let Some(r) = &live.row.reason {
            tags.push(("Termination".into(), r.clone()));
        }
        live.table
            .export_record(&tags, pgn_result(live.table.result()))
            .ok_or_else(|| HallError::not_found("this game has no PGN export"))
    }

    /// If the seat to move is the AI, thinks on a blocking thread and plays.
    pub fn maybe_ai_move<'a>(
        self: &'a Arc<Self>,
        id: &'a str,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send + 'a>> {
        // Boxed because AI moves and player moves call each other.
        Box::pin(async move {
            let Some(g) = self.live(id) else { return };
            let (probe, seat, level, version, people) = {
                let live = g.lock().await;
                if live.row.status != "playing" {
                    return;
                }
                let Some(&seat) = live.table.seats_to_move().first() else {
                    return;
                };
                let Some(SeatRow::Ai { level }) = live.row.seats.get(seat) else {
                    return;
                };
                let people = live
                    .row
                    .seats
                    .iter()
                    .any(|s| matches!(s, SeatRow::User { .. }));
                (live.table.boxed_clone(), seat, *level, live.version, people)
            };
            let hall = self.clone();
            let id = id.to_string();
            tokio::spawn(async move {
                let Some(_slot) = hall.ai_pool.slot(people, &id).await else {
                    return;
                };
                if !people {
                    // The wait for the background slot is not the AI's
                    // thinking time: its turn starts now.
                    let Some(g) = hall.live(&id) else { return };
                    let mut live = g.lock().await;
                    if live.version != version {
                        return;
                    }
                    if live.clocks.running.is_some_and(|(s, _)| s == seat) {
                        live.clocks.running = Some((seat, Instant::now()));
                    }
                }
                let Some((kind, _)) = hall.games.find(probe.rules_name()) else {
                    return;
                };
                let kind = kind.clone();
                let budget = hall.ai_budget;
                let chosen = tokio::task::spawn_blocking(move || {
                    kind.ai()?.choose(probe.as_ref(), seat, level, budget)
                })
                .await
                .ok()
                .flatten();
                let Some(mv) = chosen else {
                    tracing::warn!(game = %id, "the AI found no move");
                    return;
                };
                let Some(g) = hall.live(&id) else { return };
                {
                    let mut live = g.lock().await;
                    if live.version != version {
                        // Something happened meanwhile (resignation, timeout).
                        return;
                    }
                    if let Err(e) = hall.play_locked(&mut live, seat, &mv, 0).await {
                        tracing::warn!(game = %id, error = ?e, "AI move refused");
                        return;
                    }
                }
                // A Jifen double turn: the AI may move again.
                hall.maybe_ai_move(&id).await;
            });
        })
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

    /// A user's profile: name and recent games.
    pub async fn profile(&self, name: &str) -> HallResult<Value> {
        let user = self
            .store
            .user_by_name(name)
            .await
            .map_err(HallError::internal)?
            .ok_or_else(|| {
                HallError::not_found(format!("no user '{}'", crate::error::shown(name)))
            })?;
        let games = self
            .store
            .user_games(user.id, 50)
            .await
            .map_err(HallError::internal)?;
        let list: Vec<Value> = games
            .iter()
            .map(|g| {
                json!({
                    "id": g.id, "game": g.rules, "status": g.status, "seats": g.seats,
                    "result": g.result, "reason": g.reason, "rated": g.rated, "created_ms": g.created_ms,
                    "setup": g.start_fen.is_some(),
                })
            })
            .collect();
        let (ratings, history) = crate::ratings::profile_ratings(self, user.id).await?;
        let points = crate::points::balances(self, user.id).await?;
        Ok(json!({
            "username": user.username, "guest": user.guest, "games": list,
            "ratings": ratings, "rating_history": history, "points": points,
        }))
    }

    /// Stores a technical foul (X8); a storage failure is logged, not fatal:
    /// the move or offer that caused it stands either way.
    async fn record_foul(&self, id: &str, seat: usize) {
        if let Err(e) = self.store.add_foul(id, seat).await {
            tracing::error!(game = %id, error = %e, "cannot store a foul");
        }
    }

    /// Starts a game with every seat already taken (event games: users and
    /// AI levels, AI against AI included). `clocks` is the base time per seat
    /// in ms (armageddon play-offs give the seats different times). The
    /// clock runs at once and AI seats move by themselves.
    pub async fn start_seated_game(
        self: &Arc<Self>,
        rules: &str,
        target: Option<i32>,
        clocks: Vec<i64>,
        increment_ms: i64,
        seats: Vec<SeatRow>,
        rated: bool,
    ) -> HallResult<String> {
        let mut options = qiyuan_core::Options::new();
        if let Some(t) = target {
            options.insert("target".into(), i64::from(t));
        }
        let table = self.games.new_table(rules, &options, None)?;
        if seats.len() != table.seat_count() || clocks.len() != seats.len() {
            return Err(HallError::bad("one seat and one clock per seat"));
        }
        if seats.contains(&SeatRow::Open) {
            return Err(HallError::bad("every seat must be taken"));
        }
        let now_ms = wall_ms();
        let row = GameRow {
            id: new_game_id(),
            rules: rules.to_string(),
            target,
            start_fen: None,
            initial_ms: clocks.iter().copied().max().unwrap_or(0),
            increment_ms,
            rated,
            seats,
            status: "playing".into(),
            result: None,
            reason: None,
            explanation: None,
            clocks,
            created_ms: now_ms,
            updated_ms: now_ms,
            rematch_of: None,
        };
        let id = self.install_game(row, table, 1, true).await?;
        self.maybe_ai_move(&id).await;
        Ok(id)
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
fn options_of(row: &GameRow, base: i64) -> qiyuan_core::Options {
    let mut o = qiyuan_core::Options::new();
    if let Some(t) = row.target {
        o.insert("target".into(), i64::from(t));
    }
    if base != 1 {
        o.insert(qiyuan_core::kind::BASE_OPTION.into(), base);
    }
    o
}

fn not_a_player() -> HallError {
    HallError::forbidden("you are not a player in this game").with_code("not_a_player")
}

fn reason_from_str(s: &str) -> EndReason {
    EndReason::from_name(s).unwrap_or(EndReason::Agreement)
}
