//! The `serve` and `loadtest` subcommands' arguments, so the binary only
//! dispatches.

use std::net::IpAddr;

use crate::http::server::Config;
use crate::loadtest::LoadtestArgs;

/// `qiyuan serve`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Port to listen on.
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Address to listen on (0.0.0.0 to serve the network).
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: IpAddr,
    /// Database URL: `sqlite://FILE` (created if missing) or
    /// `postgres://USER:PASSWORD@HOST/DB` (shared by several nodes).
    #[arg(long, default_value = "sqlite://qiyuan.db")]
    pub database: String,
    /// Event bus: `local` (one node) or `redis://HOST:PORT/` (several nodes
    /// sharing one PostgreSQL database).
    #[arg(long, default_value = "local")]
    pub bus: String,
    /// This node's id when several nodes share one database: games get
    /// leases with fencing tokens (letters, digits, `.`, `-`, `_`). On a
    /// PostgreSQL database or a Redis bus a node without one gets a
    /// generated id; a node refuses to start with the id of a running one.
    #[arg(long, value_parser = node_id)]
    pub node_id: Option<String>,
    /// How long a node's lease on a game lasts unless renewed, in ms (a
    /// dead node's games move to another node after this).
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1000..=600_000))]
    pub lease_ms: u64,
    /// Where the other nodes reach this one (`host:port`; default: the
    /// address it listens on). Needed with `--bind 0.0.0.0`.
    #[arg(long)]
    pub advertise: Option<String>,
    /// HTTP requests per second per client IP (0: no limit).
    #[arg(long, default_value_t = 50)]
    pub rate_limit: u32,
    /// Open WebSockets per client address (0: no cap; load tests).
    #[arg(long, default_value_t = 64)]
    pub sockets_per_ip: usize,
    /// Open WebSockets per user (0: no cap).
    #[arg(long, default_value_t = 16)]
    pub sockets_per_user: usize,
    /// Close a socket that sends nothing for this many seconds.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(5..=3600))]
    pub socket_idle_s: u64,
    /// Days a session lives after its last use.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=365))]
    pub session_days: u64,
    /// Close a connection whose request head has not arrived whole this
    /// many seconds after it opened or after its last answer (slow headers
    /// and idle keep-alive).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=300))]
    pub header_timeout_s: u64,
    /// Answer 408 and close when a request body has not arrived whole
    /// within this many seconds.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=300))]
    pub body_timeout_s: u64,
    /// Open connections per client address, WebSockets included (0: no
    /// cap; load tests from one address).
    #[arg(long, default_value_t = 256)]
    pub connections_per_ip: usize,
    /// Open connections in all (0: the open-files limit, raised to its hard
    /// limit, less 128); never more than that.
    #[arg(long, default_value_t = 0)]
    pub max_connections: usize,
    /// WebSockets, streams and long polls open at once in all (0: the
    /// connection cap less an eighth, kept for short requests).
    #[arg(long, default_value_t = 0)]
    pub max_long_lived: usize,
    /// Rooms waiting for players one user may have open at once.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=100))]
    pub open_rooms_per_user: u64,
    /// Close a room waiting for players once its people have had no socket
    /// open and sent no request for this many seconds.
    #[arg(long, default_value_t = 15, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub open_room_idle_s: u64,
    /// Guest accounts one address may create per hour (0: no cap).
    #[arg(long, default_value_t = 30)]
    pub guests_per_ip_hour: u32,
}

/// A node id: 1-64 letters, digits, `.`, `-` or `_`.
fn node_id(s: &str) -> Result<String, String> {
    if !s.is_empty()
        && s.len() <= 64
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
    {
        Ok(s.to_string())
    } else {
        Err("a node id is 1-64 letters, digits, '.', '-' or '_'".into())
    }
}

/// `qiyuan loadtest`.
#[derive(clap::Args, Debug)]
pub struct LoadArgs {
    /// The hall's `host:port`; several nodes comma-separated (game i plays
    /// on the i-th, round robin).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// Concurrent games.
    #[arg(long, default_value_t = 20)]
    pub games: usize,
    /// Plies per game.
    #[arg(long, default_value_t = 40)]
    pub plies: usize,
    /// Rule set (default: the first game the hall lists at `/api/kinds`).
    #[arg(long)]
    pub game: Option<String>,
    /// Give up on a game after this many seconds.
    #[arg(long, default_value_t = 120)]
    pub max_seconds: u64,
    /// Mean think time in ms before each move (0: as fast as possible).
    #[arg(long, default_value_t = 0)]
    pub think_ms: u64,
    /// Start each game as soon as it is set up (logins and rooms then
    /// overlap play); by default all games are set up first, then start
    /// together.
    #[arg(long)]
    pub staggered: bool,
    /// Plies at the start of each game reported apart from `p50_ms` and
    /// `p99_ms` (as `warmup_p99_ms`; `all_p99_ms` counts every move).
    #[arg(long, default_value_t = 4)]
    pub warmup_plies: usize,
    /// Instead of games: this many simulated players use the pools of a
    /// hall started in this process (see `loadtest_pools`); `--plies`
    /// moves per game, `--think-ms` per move.
    #[arg(long)]
    pub pools: Option<usize>,
    /// With `--pools`: the pool (default: the first listed).
    #[arg(long)]
    pub pool: Option<String>,
    /// With `--pools`: the same players and games paired by fixed
    /// challenges instead of the pools (the baseline of its figures).
    #[arg(long)]
    pub no_pools: bool,
    /// With `--pools`: how long the players play, in seconds.
    #[arg(long, default_value_t = 60)]
    pub seconds: u64,
    /// Instead of games: this many lobby WebSockets of a hall started in
    /// this process watch `--rooms` rooms open (see `loadtest_lobby`);
    /// prints the push delay and the memory per idle socket.
    #[arg(long)]
    pub lobby: Option<usize>,
    /// With `--lobby`: the rooms opened, one every `--gap-ms`.
    #[arg(long, default_value_t = 20)]
    pub rooms: usize,
    /// With `--lobby`: the pause between two rooms, in ms.
    #[arg(long, default_value_t = 250)]
    pub gap_ms: u64,
    /// With `--lobby`: rooms open before the sockets connect (the first
    /// frame of each socket, the whole lobby, lists them).
    #[arg(long, default_value_t = 0)]
    pub listed: usize,
    /// With `--lobby`: measure the hall at `--addr` (a `qiyuan serve` run
    /// with this process id, started with `--rate-limit 0` and socket
    /// limits above N) instead of one in this process: its own memory.
    #[arg(long)]
    pub server_pid: Option<u32>,
}

/// Runs `qiyuan serve`.
pub fn serve_main(a: ServeArgs, games: crate::domain::registry::Registry) -> anyhow::Result<()> {
    let lease = crate::cluster::lease::LeaseConfig::shared(
        a.node_id,
        std::time::Duration::from_millis(a.lease_ms),
        a.advertise,
        &a.database,
        &a.bus,
    );
    crate::http::server::serve(
        Config {
            bind: a.bind,
            port: a.port,
            database: a.database,
            bus: a.bus,
            lease,
            rate_per_sec: a.rate_limit,
            limits: crate::limits::Limits {
                sockets_per_ip: a.sockets_per_ip,
                sockets_per_user: a.sockets_per_user,
                socket_idle: std::time::Duration::from_secs(a.socket_idle_s),
                session_ttl: std::time::Duration::from_secs(a.session_days * 24 * 3600),
                header_timeout: std::time::Duration::from_secs(a.header_timeout_s),
                body_timeout: std::time::Duration::from_secs(a.body_timeout_s),
                connections_per_ip: a.connections_per_ip,
                max_connections: a.max_connections,
                max_long_lived: a.max_long_lived,
                open_rooms_per_user: a.open_rooms_per_user as usize,
                open_room_idle: std::time::Duration::from_secs(a.open_room_idle_s),
                guests_per_ip_hour: a.guests_per_ip_hour,
                ..Default::default()
            },
            ..Config::default()
        },
        games,
    )
}

/// Runs `qiyuan loadtest`.
pub fn loadtest_main(a: LoadArgs, games: crate::domain::registry::Registry) -> anyhow::Result<()> {
    if let Some(sockets) = a.lobby {
        return crate::loadtest_lobby::lobby_loadtest(
            crate::loadtest_lobby::LobbyLoadArgs {
                sockets,
                rooms: a.rooms,
                gap_ms: a.gap_ms,
                game: a.game,
                listed: a.listed,
                external: a.server_pid.map(|pid| (a.addr.clone(), pid)),
            },
            games,
        );
    }
    if let Some(players) = a.pools {
        return crate::loadtest_pools::pool_loadtest(
            crate::loadtest_pools::PoolLoadArgs {
                players,
                seconds: a.seconds,
                pool: a.pool,
                plies: a.plies,
                think_ms: a.think_ms,
                no_pools: a.no_pools,
            },
            games,
        );
    }
    let addr = a
        .addr
        .split(',')
        .map(|n| n.trim().trim_start_matches("http://").trim_end_matches('/'))
        .collect::<Vec<_>>()
        .join(",");
    crate::loadtest::loadtest(LoadtestArgs {
        addr,
        games: a.games,
        plies: a.plies,
        game: a.game,
        max_seconds: a.max_seconds,
        think_ms: a.think_ms,
        staggered: a.staggered,
        warmup_plies: a.warmup_plies,
    })
}
