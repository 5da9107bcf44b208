//! Prometheus metrics, served as text at `/metrics`.

use std::sync::Mutex;

use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

/// The hall's metrics.
pub struct Metrics {
    registry: Mutex<Registry>,
    /// Games with status `playing`.
    pub games_in_play: Gauge,
    /// Moves accepted (the rate of this counter is moves/s).
    pub moves: Counter,
    /// Server-side time to validate, store and announce a move, in seconds.
    pub move_latency: Histogram,
    /// Open WebSocket connections.
    pub sockets: Gauge,
    /// HTTP requests refused by the rate limiter.
    pub rate_limited: Counter,
    /// Failed logins.
    pub login_failures: Counter,
    /// WebSockets refused by the per-address or per-user cap.
    pub sockets_refused: Counter,
    /// WebSockets closed for sending nothing for too long.
    pub sockets_idle_closed: Counter,
    /// Moves refused because this node's lease on the game was stale.
    pub stale_leases: Counter,
    /// Rooms closed because their people had gone.
    pub rooms_closed: Counter,
}

impl Default for Metrics {
    fn default() -> Self {
        let games_in_play = Gauge::default();
        let moves = Counter::default();
        // 0.25 ms .. ~2 s.
        let move_latency = Histogram::new(exponential_buckets(0.000_25, 2.0, 14));
        let sockets = Gauge::default();
        let rate_limited = Counter::default();
        let login_failures = Counter::default();
        let sockets_refused = Counter::default();
        let sockets_idle_closed = Counter::default();
        let stale_leases = Counter::default();
        let rooms_closed = Counter::default();
        let mut r = Registry::with_prefix("qiyuan");
        r.register("games_in_play", "Games being played", games_in_play.clone());
        r.register("moves", "Moves accepted", moves.clone());
        r.register(
            "move_latency_seconds",
            "Time from a move's arrival to its announcement",
            move_latency.clone(),
        );
        r.register("websockets", "Open WebSocket connections", sockets.clone());
        r.register(
            "rate_limited",
            "Requests refused by the rate limiter",
            rate_limited.clone(),
        );
        r.register("login_failures", "Failed logins", login_failures.clone());
        r.register(
            "websockets_refused",
            "WebSockets refused by the per-address or per-user cap",
            sockets_refused.clone(),
        );
        r.register(
            "websockets_idle_closed",
            "WebSockets closed after sending nothing for too long",
            sockets_idle_closed.clone(),
        );
        r.register(
            "stale_leases",
            "Moves refused because another node had taken the game's lease",
            stale_leases.clone(),
        );
        r.register(
            "rooms_closed",
            "Rooms waiting for players closed because their people had gone",
            rooms_closed.clone(),
        );
        Metrics {
            stale_leases,
            rooms_closed,
            registry: Mutex::new(r),
            login_failures,
            sockets_refused,
            sockets_idle_closed,
            games_in_play,
            moves,
            move_latency,
            sockets,
            rate_limited,
        }
    }
}

impl Metrics {
    /// The metrics in the Prometheus text format.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let reg = self.registry.lock().unwrap_or_else(|e| e.into_inner());
        if encode(&mut out, &reg).is_err() {
            out.clear();
        }
        out
    }
}
