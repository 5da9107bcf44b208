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

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::error::HallError;
use crate::hall::{Hall, HallResult, Live};

/// This node's identity for leases.
#[derive(Clone, Debug)]
pub struct LeaseConfig {
    /// The node's id, unique among the nodes sharing a database.
    pub node: String,
    /// How long a lease lasts unless renewed (a dead owner's games wait this
    /// long before another node takes them).
    pub ttl: Duration,
    /// Where the other nodes reach this one (`host:port`); `None`: the
    /// address it listens on.
    pub advertise: Option<String>,
}

/// What a lease tick found.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Tick {
    /// No leases on this node, or the game is over.
    Off,
    /// This node holds the lease (as before).
    Held,
    /// This node has just taken the lease over: reload the game.
    Taken,
    /// Another node holds it.
    Elsewhere,
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
    pub(crate) fn refused(&self, live: &mut Live, e: anyhow::Error) -> HallError {
        if crate::store::StaleLease::is(&e) {
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
        }
        Ok(fresh)
    }
}
