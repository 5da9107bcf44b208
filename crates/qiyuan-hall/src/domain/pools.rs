//! Pairing pools: one click to play. Every kind declares its pools (a
//! variant at a time control, `GameKind::pools`); a player waits in one pool
//! at a time; every wave ([`crate::limits::Limits::pool_wave`], 2 s by
//! default) the hall pairs the players waiting in each pool
//! ([`crate::domain::pairing`]) and starts their games, which every page of
//! theirs then opens (`gameStart`). A player whose sockets have all been
//! gone for a few seconds leaves the pool (closing the lobby leaves at
//! once). Registered players play rated games among themselves; guests
//! play casual ones among themselves.
//!
//! On one node pools live in its memory. On several nodes (leases on) a
//! pool is one pool across them: each node writes who joins and leaves to
//! the shared store and keeps its connected players' entries fresh; the
//! one node holding the pools' lease ([`PAIRING_LEASE`]) pairs everyone
//! and starts the games; the players, wherever connected, hear `gameStart`
//! on the shared bus. The `playing` counts are the pairing node's.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::seq::SliceRandom;
use serde::Serialize;
use utoipa::ToSchema;

use crate::domain::bus::LOBBY;
use crate::domain::hall::{Hall, HallError, HallResult};
use crate::domain::pairing::{Seeker, pair};
use crate::domain::registry::Registry;
use crate::domain::state_view::GameClock;
use crate::error::ErrorCode;
use crate::store::{SeatRow, User};

/// The lease (in the games' lease table) of the node that pairs the pools.
pub const PAIRING_LEASE: &str = "pools:pairing";

/// Last opponents remembered (per pool and user) at most; beyond, the
/// memory is cleared (a lost entry only allows one rematch in a row).
const MAX_REMEMBERED: usize = 100_000;

/// A pool as `GET /api/pools` lists it.
#[derive(Serialize, ToSchema, Clone, Debug, PartialEq)]
pub struct PoolView {
    /// Stable id: the variant and the clock (`<variant>-5+3`).
    pub id: String,
    /// The variant played.
    pub game: String,
    /// Seats per game (all filled at once).
    pub seats: usize,
    /// The time control (per move for kinds whose clock runs per move).
    pub clock: GameClock,
    /// Players waiting now.
    pub waiting: usize,
    /// Players in games this pool started that are still in play.
    pub playing: usize,
}

struct Waiter {
    user: User,
    rating: f64,
    since: Instant,
    /// When the user was last seen with a socket open.
    seen: Instant,
}

#[derive(Default)]
struct State {
    /// Pool id -> who waits there.
    waiting: HashMap<String, Vec<Waiter>>,
    /// Game id -> (pool id, people seated), for games in play.
    playing: HashMap<String, (String, usize)>,
    /// (Pool id, user) -> the user's last opponent there.
    last_opponent: HashMap<(String, i64), i64>,
    /// The counts last pushed to the lobby.
    pushed: Vec<(usize, usize)>,
}

/// The pools of a hall.
pub struct Pools {
    /// Every pool, in the registry's order: (view without counts, rating family).
    specs: Vec<(PoolView, &'static str)>,
    state: Mutex<State>,
}

impl Pools {
    /// The pools the registered kinds declare.
    pub fn new(games: &Registry) -> Pools {
        let mut specs = Vec::new();
        for kind in games.kinds() {
            for p in kind.pools() {
                let Some(v) = kind.variants().iter().find(|v| v.name == p.variant) else {
                    continue;
                };
                let seats = v.seats.first().copied().unwrap_or(2);
                specs.push((
                    PoolView {
                        id: p.id(),
                        game: p.variant.to_string(),
                        seats,
                        clock: GameClock {
                            initial_s: p.initial_s,
                            increment_s: p.increment_s,
                            days: None,
                        },
                        waiting: 0,
                        playing: 0,
                    },
                    kind.id(),
                ));
            }
        }
        Pools {
            specs,
            state: Mutex::new(State::default()),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn spec(&self, id: &str) -> Option<&(PoolView, &'static str)> {
        self.specs.iter().find(|(p, _)| p.id == id)
    }

    /// Every pool with its counts.
    pub fn list(&self) -> Vec<PoolView> {
        let st = self.state();
        self.specs.iter().map(|(p, _)| counted(p, &st)).collect()
    }

    /// The pool `user` waits in, if any.
    pub fn waiting_in(&self, user: i64) -> Option<String> {
        let st = self.state();
        st.waiting
            .iter()
            .find(|(_, w)| w.iter().any(|w| w.user.id == user))
            .map(|(id, _)| id.clone())
    }

    /// Takes `user` out of every pool; whether they were in one.
    pub fn leave_all(&self, user: i64) -> bool {
        let mut st = self.state();
        let mut left = false;
        for w in st.waiting.values_mut() {
            let before = w.len();
            w.retain(|w| w.user.id != user);
            left |= w.len() != before;
        }
        left
    }

    /// A game this pool started ended.
    pub fn finished(&self, game: &str) {
        self.state().playing.remove(game);
    }
}

fn counted(p: &PoolView, st: &State) -> PoolView {
    PoolView {
        waiting: st.waiting.get(&p.id).map_or(0, Vec::len),
        playing: st
            .playing
            .values()
            .filter(|(pool, _)| *pool == p.id)
            .map(|(_, n)| n)
            .sum(),
        ..p.clone()
    }
}

/// A table the wave made: the pool, its variant and clock, the players.
struct Table {
    pool: String,
    view: PoolView,
    players: Vec<User>,
    /// The players' ratings in the pool's family, in the same order.
    ratings: Vec<f64>,
}

impl Hall {
    /// Puts `user` in pool `id` (leaving any other pool); the pool with its counts.
    pub async fn join_pool(&self, user: &User, id: &str) -> HallResult<PoolView> {
        if user.bot {
            return Err(HallError::new(
                ErrorCode::BotsNotInPools,
                "pools are for people: a bot plays through challenges",
            ));
        }
        let Some((view, family)) = self.pools.spec(id).cloned() else {
            return Err(HallError::not_found(format!(
                "no pool '{}'",
                crate::error::shown(id)
            )));
        };
        let rating = self
            .store
            .rating(user.id, family)
            .await
            .map_err(HallError::internal)?
            .unwrap_or_default()
            .value;
        let now = Instant::now();
        if let Some(node) = self.lease.get().map(|c| c.node.clone()) {
            let entry = crate::store::PoolEntry {
                user_id: user.id,
                pool: id.to_string(),
                username: user.username.clone(),
                guest: user.guest,
                rating,
                node,
                since_ms: crate::clock::wall_ms(),
            };
            self.store
                .nodes()
                .pool_join(&entry)
                .await
                .map_err(HallError::internal)?;
        }
        let mut st = self.pools.state();
        let already = st
            .waiting
            .get(id)
            .is_some_and(|w| w.iter().any(|w| w.user.id == user.id));
        if !already {
            for w in st.waiting.values_mut() {
                w.retain(|w| w.user.id != user.id);
            }
            st.waiting.entry(id.to_string()).or_default().push(Waiter {
                user: user.clone(),
                rating,
                since: now,
                seen: now,
            });
        }
        tracing::debug!(pool = id, user = %user.username, "joined a pool");
        Ok(counted(&view, &st))
    }

    /// Takes `user` out of pool `id`; the pool with its counts.
    pub fn leave_pool(&self, user: &User, id: &str) -> HallResult<PoolView> {
        let Some((view, _)) = self.pools.spec(id).cloned() else {
            return Err(HallError::new(
                ErrorCode::NotFound,
                format!("no pool '{}'", crate::error::shown(id)),
            ));
        };
        self.forget_pool_entry(user.id);
        let mut st = self.pools.state();
        if let Some(w) = st.waiting.get_mut(id) {
            w.retain(|w| w.user.id != user.id);
        }
        Ok(counted(&view, &st))
    }

    /// Takes `user` out of every pool (the page is gone).
    pub fn leave_pools(&self, user: i64) {
        if self.pools.leave_all(user) {
            self.forget_pool_entry(user);
        }
    }

    /// Deletes `user`'s shared entry (several nodes), in the background.
    fn forget_pool_entry(&self, user: i64) {
        if self.lease.get().is_none() {
            return;
        }
        let store = self.store.clone();
        tokio::spawn(async move {
            if let Err(e) = store.nodes().pool_leave(&[user]).await {
                tracing::warn!(error = %e, "cannot take a player out of the pools");
            }
        });
    }

    /// Several nodes: refreshes this node's players in the shared pools,
    /// mirrors everyone waiting into this node's memory (for the counts)
    /// and says whether this node pairs (it holds [`PAIRING_LEASE`]).
    async fn sync_shared_pools(&self, node: &str, ttl: std::time::Duration) -> bool {
        let nodes = self.store.nodes();
        let now_ms = crate::clock::wall_ms();
        let grace = i64::try_from(self.limits.pool_presence_grace.as_millis()).unwrap_or(i64::MAX);
        let entries = match nodes.pool_entries(now_ms - grace).await {
            Ok(e) => e,
            Err(e) => {
                tracing::warn!(error = %e, "cannot read the shared pools");
                return false;
            }
        };
        let here: Vec<i64> = entries
            .iter()
            .filter(|e| e.node == node && self.sockets.of_user(e.user_id) > 0)
            .map(|e| e.user_id)
            .collect();
        if let Err(e) = nodes.pool_seen(&here, now_ms).await {
            tracing::warn!(error = %e, "cannot refresh the shared pools");
        }
        let now = Instant::now();
        {
            let mut st = self.pools.state();
            st.waiting.clear();
            for e in entries {
                let waited = Duration::from_millis((now_ms - e.since_ms).max(0) as u64);
                st.waiting.entry(e.pool).or_default().push(Waiter {
                    user: User {
                        id: e.user_id,
                        username: e.username,
                        password_hash: None,
                        guest: e.guest,
                        bot: false,
                    },
                    rating: e.rating,
                    since: now.checked_sub(waited).unwrap_or(now),
                    // Fresh in the store: the store's purge is the presence rule.
                    seen: now,
                });
            }
        }
        let ttl_ms = i64::try_from(ttl.as_millis()).unwrap_or(i64::MAX);
        matches!(
            self.store.acquire_lease(PAIRING_LEASE, node, ttl_ms).await,
            Ok(Some(_))
        )
    }

    /// One wave: drops those who left, pairs the rest, starts their games
    /// and pushes the pools' counts to the lobby when they changed.
    pub async fn pool_wave(self: &Arc<Self>) {
        let shared = self.lease.get().map(|c| (c.node.clone(), c.ttl));
        if let Some((node, ttl)) = &shared
            && !self.sync_shared_pools(node, *ttl).await
        {
            // Another node pairs.
            return;
        }
        let tables = self.make_tables(Instant::now(), shared.is_none());
        if shared.is_some() {
            let paired: Vec<i64> = tables
                .iter()
                .flat_map(|t| t.players.iter().map(|u| u.id))
                .collect();
            if let Err(e) = self.store.nodes().pool_leave(&paired).await {
                tracing::warn!(error = %e, "cannot take paired players out of the pools");
            }
        }
        // Each table's game is stored and started on its own task: a wave
        // of a busy pool starts its games together, not one after another.
        let starts: Vec<_> = tables
            .into_iter()
            .map(|t| {
                let hall = self.clone();
                tokio::spawn(async move { hall.start_pool_game(t).await })
            })
            .collect();
        for s in starts {
            let _ = s.await;
        }
        self.push_pool_counts();
    }

    /// The wave's tables; `presence`: drop those whose sockets on this node
    /// have been gone for the grace (one node; several nodes purge in the
    /// store).
    fn make_tables(&self, now: Instant, presence: bool) -> Vec<Table> {
        let mut st = self.pools.state();
        if st.last_opponent.len() > MAX_REMEMBERED {
            st.last_opponent.clear();
        }
        let mut tables = Vec::new();
        for (view, _) in &self.pools.specs {
            let Some(mut waiting) = st.waiting.remove(&view.id) else {
                continue;
            };
            for w in waiting.iter_mut() {
                if !presence || self.sockets.of_user(w.user.id) > 0 {
                    w.seen = now;
                }
            }
            waiting.retain(|w| {
                now.saturating_duration_since(w.seen) < self.limits.pool_presence_grace
            });
            let seekers: Vec<Seeker> = waiting
                .iter()
                .map(|w| Seeker {
                    user: w.user.id,
                    rating: w.rating,
                    waited: now.saturating_duration_since(w.since),
                    last_opponent: st.last_opponent.get(&(view.id.clone(), w.user.id)).copied(),
                    class: u8::from(w.user.guest),
                })
                .collect();
            let groups = pair(&seekers, view.seats);
            let mut taken = vec![false; waiting.len()];
            for g in &groups {
                for &i in g {
                    taken[i] = true;
                }
            }
            let mut rest = Vec::new();
            let mut by_index: Vec<Option<Waiter>> = Vec::with_capacity(waiting.len());
            for (i, w) in waiting.into_iter().enumerate() {
                if taken[i] {
                    by_index.push(Some(w));
                } else {
                    by_index.push(None);
                    rest.push(w);
                }
            }
            for g in groups {
                let (players, ratings): (Vec<User>, Vec<f64>) = g
                    .iter()
                    .filter_map(|&i| by_index[i].take().map(|w| (w.user, w.rating)))
                    .unzip();
                if players.len() == 2 {
                    st.last_opponent
                        .insert((view.id.clone(), players[0].id), players[1].id);
                    st.last_opponent
                        .insert((view.id.clone(), players[1].id), players[0].id);
                }
                tables.push(Table {
                    pool: view.id.clone(),
                    view: view.clone(),
                    players,
                    ratings,
                });
            }
            if !rest.is_empty() {
                st.waiting.insert(view.id.clone(), rest);
            }
        }
        tables
    }

    async fn start_pool_game(self: &Arc<Self>, t: Table) {
        // Seats drawn at random; in a team game, the draw whose teams are
        // closest in summed rating.
        let mut order: Vec<usize> = (0..t.players.len()).collect();
        order.shuffle(&mut rand::rng());
        let teams = self
            .games
            .find(&t.view.game)
            .and_then(|(k, v)| k.teams(v.name, t.players.len()));
        if let Some(teams) = teams {
            let ratings: Vec<f64> = order.iter().map(|&i| t.ratings[i]).collect();
            let seats = crate::domain::pairing::balanced_teams(&ratings, &teams);
            order = seats.into_iter().map(|i| order[i]).collect();
        }
        let players: Vec<User> = order.iter().map(|&i| t.players[i].clone()).collect();
        let rated = players.iter().all(|u| !u.guest);
        let seats: Vec<SeatRow> = players.iter().map(SeatRow::user).collect();
        let initial_ms = t.view.clock.initial_s * 1000;
        let started = self
            .start_full_game(
                &t.view.game,
                None,
                vec![initial_ms; seats.len()],
                t.view.clock.increment_s * 1000,
                seats,
                rated,
                true,
            )
            .await;
        match started {
            Ok(id) => {
                tracing::info!(pool = %t.pool, game = %id, "pool game started");
                self.pools
                    .state()
                    .playing
                    .insert(id, (t.pool, players.len()));
            }
            Err(e) => {
                tracing::warn!(pool = %t.pool, error = %e.message, "cannot start a pool game");
            }
        }
    }

    /// Pushes `{"t":"pools","pools":[...]}` to the lobby when a count changed.
    fn push_pool_counts(&self) {
        let list = self.pools.list();
        let counts: Vec<(usize, usize)> = list.iter().map(|p| (p.waiting, p.playing)).collect();
        {
            let mut st = self.pools.state();
            if st.pushed == counts {
                return;
            }
            st.pushed = counts;
        }
        #[derive(Serialize)]
        struct Frame<'a> {
            t: &'static str,
            pools: &'a [PoolView],
        }
        if let Ok(text) = serde_json::to_string(&Frame {
            t: "pools",
            pools: &list,
        }) {
            self.bus.publish(LOBBY, text.into());
        }
    }
}

/// The pools' task: a wave every [`crate::limits::Limits::pool_wave`] until shutdown.
pub async fn run(hall: Arc<Hall>) {
    let mut every = tokio::time::interval(hall.limits.pool_wave);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut shutdown = hall.shutdown.clone();
    loop {
        tokio::select! {
            _ = every.tick() => hall.pool_wave().await,
            _ = shutdown.changed() => return,
        }
    }
}
