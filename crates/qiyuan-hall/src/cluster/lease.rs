//! Leases on games (issue 17): with several nodes on one database, each
//! game not finished is owned by one node at a time. A node started with a
//! node id ([`LeaseConfig`]) takes a game's lease when the game's task
//! starts and renews it every third of its lifetime; the lease row carries a
//! fencing token, and every move (and lost turn) is committed only if the
//! node's token is still the row's, checked inside the move's transaction
//! ([`crate::store::Storage::append_move`]). So a node that stalled past its
//! lease, or came back with an old one, cannot commit: its move is refused
//! and it forgets the game.
//!
//! A node without a game's lease keeps serving reads of it but refuses
//! moves, joins and game ends with a 503 (clients retry, or reach the owner
//! through the proxy), runs no flag or AI for it, and asks for the lease
//! again at every renewal tick: once the owner's lease has run out (the
//! owner was killed), it gets the next token, reloads the game from the
//! stored log and restarts its clocks as after a restart, and serves it.
//! Without a node id (one node, the default) there are no leases.
//!
//! A node id names one running process (issue 34: a split cluster). A node
//! on a shared store (a PostgreSQL database, or a Redis bus) started without
//! an id gets a generated one ([`LeaseConfig::shared`]), so it never runs
//! without leases beside other nodes. At start a node claims its id's row
//! in `nodes` ([`Hall::join_cluster`]) and refreshes it every
//! [`NODE_BEAT`]; a second process given the id of a live node refuses to
//! start, and one given the id of a node that died waits until that node's
//! registration is [`NODE_FRESH`] old, then fences off the leases the dead
//! process held. A process whose id was claimed by another (it stalled
//! past [`NODE_FRESH`]) stops taking leases.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::domain::hall::{Hall, HallResult, Live};
pub use crate::domain::ownership::LeaseConfig;
pub(crate) use crate::domain::ownership::Tick;
use crate::error::HallError;

/// How long a lease lasts unless renewed when the node's id was generated
/// or not given (as `serve --lease-ms`'s default).
pub const DEFAULT_TTL: Duration = Duration::from_secs(10);

/// How often a node refreshes its registration.
pub const NODE_BEAT: Duration = Duration::from_secs(1);

/// A registration refreshed this recently belongs to a live process: no
/// other process may take its node id.
pub const NODE_FRESH: Duration = Duration::from_secs(5);

/// This hall's registration ([`Hall::node_claim`]): `None` without one
/// (never joined, or left), `Some(None)` once another process claimed the
/// id (the hall then takes no lease), else the `seen_ms` written last.
fn held(hall: &Hall) -> Option<Option<i64>> {
    *hall.node_claim.lock().unwrap_or_else(|e| e.into_inner())
}

/// Sets this hall's registration (`None`: it left).
fn set_held(hall: &Hall, v: Option<Option<i64>>) {
    *hall.node_claim.lock().unwrap_or_else(|e| e.into_inner()) = v;
}

fn fresh_ms() -> i64 {
    i64::try_from(NODE_FRESH.as_millis()).unwrap_or(i64::MAX)
}

fn evicted(hall: &Hall) -> bool {
    held(hall) == Some(None)
}

impl Hall {
    /// Sets this node's lease identity; call before [`Hall::resume`].
    pub fn use_leases(&self, config: LeaseConfig) {
        let _ = self.lease.set(config);
    }

    /// Whether this node may change `live` (always, without leases).
    pub(crate) fn owns(&self, live: &Live) -> bool {
        self.lease.get().is_none() || live.row.status == "finished" || live.fence.is_some()
    }

    /// Refuses a change of a game this node does not own.
    pub(crate) fn check_owner(&self, live: &Live) -> HallResult<()> {
        if self.owns(live) {
            Ok(())
        } else {
            Err(HallError::busy(
                "this game is played on another node just now; try again",
            ))
        }
    }

    /// The error for a change the store refused: a stale lease (another
    /// node took the game over) makes this node drop its claim and answer
    /// 503; anything else is a 500.
    pub(crate) fn refused(&self, live: &mut Live, e: crate::store::StoreError) -> HallError {
        if let crate::store::StoreError::StaleLease(_) = e {
            tracing::warn!(game = %live.row.id, "a change refused: stale lease");
            live.fence = None;
            self.metrics.stale_leases.inc();
            HallError::busy("this game is played on another node just now; try again")
        } else {
            HallError::internal(e)
        }
    }

    /// When the next lease tick is due for `live`, if leases apply.
    pub(crate) fn lease_due(&self, last: Instant) -> Option<Instant> {
        self.lease.get().map(|c| last + c.ttl / 3)
    }

    /// Takes or renews the lease of `live`.
    pub(crate) async fn lease_tick(&self, live: &mut Live) -> Tick {
        let Some(config) = self.lease.get() else {
            return Tick::Off;
        };
        if live.row.status == "finished" {
            return Tick::Off;
        }
        if evicted(self) {
            // Another process runs this node id now: its leases are its own.
            live.lease_tried = true;
            live.fence = None;
            return Tick::Elsewhere;
        }
        let ttl = i64::try_from(config.ttl.as_millis()).unwrap_or(i64::MAX);
        match self
            .store
            .acquire_lease(&live.row.id, &config.node, ttl)
            .await
        {
            Ok(Some(fence)) => {
                let taken = live.fence.as_ref().is_none_or(|f| f.token != fence.token);
                let first = live.fence.is_none() && !live.lease_tried;
                live.lease_tried = true;
                live.fence = Some(fence);
                if taken && !first {
                    Tick::Taken
                } else {
                    Tick::Held
                }
            }
            Ok(None) => {
                live.lease_tried = true;
                if live.fence.take().is_some() {
                    tracing::warn!(game = %live.row.id, "lost the game's lease to another node");
                }
                Tick::Elsewhere
            }
            Err(e) => {
                // Keep what we had: the fence in the move's transaction decides.
                tracing::warn!(game = %live.row.id, error = %e, "cannot renew a lease");
                if live.fence.is_some() {
                    Tick::Held
                } else {
                    Tick::Elsewhere
                }
            }
        }
    }

    /// Claims this node's id (`config.node`, reached at `addr`) in the
    /// store's registry and keeps the claim fresh until shutdown. Refuses
    /// (an error naming the id and where its node runs) when a live process
    /// holds the id: its registration is refreshed while this one waits. A
    /// registration that stops being refreshed (its process was killed) is
    /// taken once [`NODE_FRESH`] old; the leases that process held are then
    /// fenced off, so it could not commit were it only stalled.
    pub async fn join_cluster(
        self: &Arc<Self>,
        config: &LeaseConfig,
        addr: &str,
    ) -> anyhow::Result<()> {
        let nodes = self.store.nodes();
        let fresh = fresh_ms();
        let deadline = Instant::now() + NODE_FRESH + 2 * NODE_BEAT;
        let mut first: Option<i64> = None;
        let seen = loop {
            let now = crate::clock::wall_ms();
            if let Some(seen) = nodes.claim(&config.node, addr, now - fresh).await? {
                break seen;
            }
            let Some((at, seen)) = nodes.seen(&config.node).await? else {
                continue;
            };
            if first.is_some_and(|f| f != seen) || Instant::now() >= deadline {
                anyhow::bail!(
                    "node id '{}' is in use by a running node (at {at}, seen {} ms ago): \
                     give every node sharing this database its own --node-id, or leave \
                     --node-id out to have one generated",
                    config.node,
                    (crate::clock::wall_ms() - seen).max(0)
                );
            }
            first = Some(seen);
            tokio::time::sleep(NODE_BEAT / 4).await;
        };
        set_held(self, Some(Some(seen)));
        tracing::info!(node = %config.node, addr, "node registered");
        tokio::spawn(self.clone().keep_registered(config.node.clone()));
        Ok(())
    }

    /// Refreshes this node's registration every [`NODE_BEAT`] until it
    /// leaves; once another process has claimed the id, this node takes no
    /// lease any more.
    async fn keep_registered(self: Arc<Self>, node: String) {
        let mut shutdown = self.shutdown.clone();
        let mut tick = tokio::time::interval(NODE_BEAT);
        loop {
            tokio::select! {
                _ = tick.tick() => {}
                _ = shutdown.changed() => return,
            }
            let Some(Some(last)) = held(&self) else {
                return;
            };
            let now = crate::clock::wall_ms().max(last + 1);
            match self.store.nodes().beat(&node, last, now).await {
                Ok(true) => {
                    if held(&self).is_some() {
                        set_held(&self, Some(Some(now)));
                    }
                }
                Ok(false) => {
                    if held(&self).is_none() {
                        return; // it left meanwhile
                    }
                    tracing::error!(
                        node = %node,
                        "another process has claimed this node id: this node takes no lease any more"
                    );
                    set_held(&self, Some(None));
                    return;
                }
                Err(e) => {
                    tracing::warn!(node = %node, error = %e, "cannot refresh the node's registration")
                }
            }
        }
    }

    /// Frees this node's id at a clean stop (before the store closes), so
    /// that a node restarted with it starts at once.
    pub async fn leave_cluster(&self) {
        let (Some(config), Some(Some(mut last))) = (self.lease.get(), held(self)) else {
            set_held(self, None);
            return;
        };
        set_held(self, None);
        let nodes = self.store.nodes();
        // A heartbeat may have been under way: follow its value once.
        for _ in 0..2 {
            match nodes.beat(&config.node, last, 0).await {
                Ok(true) | Err(_) => return,
                Ok(false) => match nodes.seen(&config.node).await {
                    // Its own beat, not another process's claim (which
                    // comes at least NODE_FRESH after this node's last).
                    Ok(Some((_, seen))) if seen > last && seen - last < fresh_ms() => last = seen,
                    _ => return,
                },
            }
        }
    }

    /// Takes over, every half lease, the games whose node died (their lease
    /// ran out and nobody asked for them since), until shutdown.
    pub(crate) async fn adopt_orphans(self: Arc<Self>) {
        let Some(config) = self.lease.get() else {
            return;
        };
        let mut shutdown = self.shutdown.clone();
        let mut tick = tokio::time::interval(config.ttl / 2);
        loop {
            tokio::select! {
                _ = tick.tick() => {}
                _ = shutdown.changed() => return,
            }
            if evicted(&self) {
                return;
            }
            let orphans = match self.store.orphaned_games(100).await {
                Ok(o) => o,
                Err(e) => {
                    tracing::warn!(error = %e, "cannot list games without a lease");
                    continue;
                }
            };
            for id in orphans {
                // Its task takes the lease (or finds another node was quicker).
                if let Err(e) = self.handle(&id).await {
                    tracing::warn!(game = %id, error = %e.message, "cannot adopt a game");
                }
            }
        }
    }

    /// The game as stored, for a node that has just taken it over: its
    /// clocks restart now, as after a restart (the gap is not charged).
    pub(crate) async fn reload_taken(&self, live: &Live) -> HallResult<Live> {
        let mut fresh = self.load(&live.row.id).await?;
        fresh.fence = live.fence.clone();
        fresh.lease_tried = true;
        if fresh.row.status == "playing" {
            let seats = fresh.table.seats_to_move();
            fresh.clocks.start(&seats, Instant::now());
            self.hold_first_move(&mut fresh, Instant::now());
        }
        Ok(fresh)
    }
}
