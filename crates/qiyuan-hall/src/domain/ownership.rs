//! Who plays a game when several nodes share a database: this node's lease
//! identity and what a lease check found. The domain holds them; the
//! cluster layer (`cluster::lease`) takes, renews and fences the leases.

use std::time::Duration;

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

impl LeaseConfig {
    /// Whether a node on `database` with event bus `bus` may share them
    /// with other nodes: a PostgreSQL database or a Redis bus. (A SQLite
    /// file with the local bus is one node's, unless given a node id.)
    pub fn is_shared(database: &str, bus: &str) -> bool {
        database.starts_with("postgres://")
            || database.starts_with("postgresql://")
            || bus.trim() != "local"
    }

    /// The lease identity of a node given `node` (`--node-id`), or a
    /// generated one (`node-` and 16 random hex digits) when the store is
    /// shared ([`LeaseConfig::is_shared`]); `None` for one node on its own
    /// SQLite file, which runs without leases as before.
    pub fn shared(
        node: Option<String>,
        ttl: Duration,
        advertise: Option<String>,
        database: &str,
        bus: &str,
    ) -> Option<LeaseConfig> {
        let node = match node {
            Some(n) => n,
            None if LeaseConfig::is_shared(database, bus) => {
                format!("node-{:016x}", rand::random::<u64>())
            }
            None => return None,
        };
        Some(LeaseConfig {
            node,
            ttl,
            advertise,
        })
    }
}

/// What a lease tick found.
#[derive(Debug, PartialEq, Eq)]
pub enum Tick {
    /// No leases on this node, or the game is over.
    Off,
    /// This node holds the lease (as before).
    Held,
    /// This node has just taken the lease over: reload the game.
    Taken,
    /// Another node holds it.
    Elsewhere,
}
