//! `qiyuan loadtest --lobby N`: how fast the lobby's pushes reach its
//! sockets, and what an idle lobby socket costs. Starts a hall in this
//! process (a fresh SQLite file in a temporary folder, caps on sockets
//! raised), opens N anonymous lobby WebSockets over loopback and lets them
//! idle, then a few registered users open M rooms one after another
//! (`POST /api/games`); each room reaches every lobby socket as a
//! `lobby_change` frame. Prints, over every (frame, socket) pair, the
//! p50/p99/max delay from the start of the room's POST to the socket
//! reading the frame, how many sockets got each frame, and the process's
//! resident memory (VmRSS) per idle socket: the growth from before the
//! sockets were opened to after they were open and idle, divided by N.
//!
//! Both ends run in this process, on the same threads: the delay includes
//! the clients' own reading, and the memory counts both ends of every
//! socket (a client's buffers are set as small as the server's), so both
//! figures are upper bounds for the server alone.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use futures_util::StreamExt;
use serde::Deserialize;
use serde_json::json;
use tokio::sync::watch;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

use crate::client;
use crate::domain::registry::Registry;

/// Options of the lobby load test.
#[derive(Clone, Debug)]
pub struct LobbyLoadArgs {
    /// Lobby sockets.
    pub sockets: usize,
    /// Rooms opened (frames measured).
    pub rooms: usize,
    /// Pause between two rooms, in ms.
    pub gap_ms: u64,
    /// The variant (`None`: the first of the first kind).
    pub game: Option<String>,
    /// Rooms already open before the sockets connect (each socket's first
    /// frame, the whole lobby, lists them).
    pub listed: usize,
    /// A hall in another process (`host:port`, process id) instead of one
    /// started here: its memory is read apart from the clients'.
    pub external: Option<(String, u32)>,
}

/// Sockets opened at once while connecting.
const CONNECTING: usize = 64;
/// Users who open the rooms, in turn.
const CREATORS: usize = 4;

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// A process's resident memory in bytes (Linux; 0 elsewhere): `pid`'s, or
/// this process's.
fn vm_rss_of(pid: Option<u32>) -> u64 {
    let path = pid.map_or("/proc/self/status".to_string(), |p| {
        format!("/proc/{p}/status")
    });
    std::fs::read_to_string(path)
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<u64>().ok())
        })
        .map_or(0, |kb| kb * 1024)
}

/// Runs the lobby load test and prints its figures.
pub fn lobby_loadtest(args: LobbyLoadArgs, games: Registry) -> Result<()> {
    let rt = tokio::runtime::Runtime::new()?;
    rt.block_on(run(args, games))
}

/// The part of a lobby frame the test reads.
#[derive(Deserialize)]
struct Change {
    t: String,
    #[serde(default)]
    game: Option<Entry>,
}

#[derive(Deserialize)]
struct Entry {
    id: String,
}

/// One lobby socket: reads its frames until told to stop; the rooms it saw
/// listed, with when it read each.
async fn lobby_client(
    addr: String,
    ready: tokio::sync::oneshot::Sender<bool>,
    mut stop: watch::Receiver<bool>,
    measuring: Arc<AtomicBool>,
) -> Vec<(String, Instant)> {
    let mut seen = Vec::new();
    let Ok(req) = format!("ws://{addr}/api/lobby/ws").into_client_request() else {
        let _ = ready.send(false);
        return seen;
    };
    // Small buffers (the library's default read buffer is 128 KiB, zeroed
    // as it reads): the lobby's frames are a few hundred bytes.
    let config = WebSocketConfig::default()
        .read_buffer_size(1024)
        .write_buffer_size(0)
        .max_write_buffer_size(64 * 1024);
    let Ok((mut ws, _)) =
        tokio_tungstenite::connect_async_with_config(req, Some(config), true).await
    else {
        let _ = ready.send(false);
        return seen;
    };
    // The whole lobby comes first.
    let first = ws.next().await;
    let _ = ready.send(matches!(first, Some(Ok(Message::Text(_)))));
    loop {
        tokio::select! {
            _ = stop.changed() => break,
            msg = ws.next() => match msg {
                // The lobby's first frames (the rooms listed before) are
                // read and dropped: only the measured rooms are kept.
                Some(Ok(Message::Text(t))) if measuring.load(Ordering::Relaxed) => {
                    let at = Instant::now();
                    if let Ok(c) = serde_json::from_str::<Change>(t.as_str())
                        && c.t == "lobby_change"
                        && let Some(g) = c.game
                    {
                        seen.push((g.id, at));
                    }
                }
                // Pings are answered by the library as it reads.
                Some(Ok(_)) => {}
                None | Some(Err(_)) => break,
            },
        }
    }
    let _ = ws.close(None).await;
    seen
}

async fn run(args: LobbyLoadArgs, games: Registry) -> Result<()> {
    let dir = std::env::temp_dir().join(format!("qiyuan-lobbyload-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let db = dir.join("hall.db");
    let _ = std::fs::remove_file(&db);
    let n = args.sockets.max(1);
    let limits = crate::limits::Limits {
        sockets_per_ip: n + 64,
        sockets_per_user: 8,
        connections_per_ip: n * 2 + 64,
        max_connections: n * 2 + 256,
        max_long_lived: n + 64,
        guests_per_ip_hour: 0,
        open_rooms_per_user: args.rooms + args.listed / CREATORS + 2,
        ..Default::default()
    };
    let config = crate::http::server::Config {
        port: 0,
        database: format!("sqlite://{}", db.display()),
        rate_per_sec: 0,
        limits,
        ..Default::default()
    };
    let (server, addr, pid) = match &args.external {
        Some((addr, pid)) => (None, addr.clone(), Some(*pid)),
        None => {
            let s = crate::http::server::start(&config, games).await?;
            let addr = s.addr.to_string();
            (Some(s), addr, None)
        }
    };
    let vm_rss = || vm_rss_of(pid);
    let variant = match &args.game {
        Some(g) => g.clone(),
        None => {
            client::get(&addr, "/api/kinds", None).await?.json()["kinds"][0]["variants"][0]["name"]
                .as_str()
                .context("the hall has no game")?
                .to_string()
        }
    };
    // Rooms nobody here may take: an open room is a seek, and another
    // creator's identical seek would take its seat instead of opening one.
    let room =
        json!({"game": variant, "opponent": "open", "rating_range": {"min": 3900, "max": 4000}});
    let mut creators = Vec::with_capacity(CREATORS);
    for i in 0..CREATORS {
        creators.push(client::register(&addr, &format!("lobbyload{i}"), "secret123").await?);
    }
    for i in 0..args.listed {
        let r = client::post(&addr, "/api/games", Some(&creators[i % CREATORS]), &room).await?;
        anyhow::ensure!(r.status == 201, "opening a room: {} {}", r.status, r.body);
    }
    // One request first, so the figures do not count the hall's first use.
    let lobby_bytes = client::get(&addr, "/api/lobby", None).await?.body.len();

    let rss_before = vm_rss();
    let (stop_tx, stop_rx) = watch::channel(false);
    let measuring = Arc::new(AtomicBool::new(false));
    let started = Instant::now();
    let mut clients = Vec::with_capacity(n);
    let mut opened = 0usize;
    let gate = Arc::new(tokio::sync::Semaphore::new(CONNECTING));
    let mut pending = Vec::with_capacity(n);
    for _ in 0..n {
        let (ready_tx, ready_rx) = tokio::sync::oneshot::channel();
        let permit = gate.clone().acquire_owned().await?;
        let (addr, stop) = (addr.clone(), stop_rx.clone());
        clients.push(tokio::spawn(lobby_client(
            addr,
            ready_tx,
            stop,
            measuring.clone(),
        )));
        pending.push(tokio::spawn(async move {
            let ok = ready_rx.await.unwrap_or(false);
            drop(permit);
            ok
        }));
    }
    for p in pending {
        if p.await.unwrap_or(false) {
            opened += 1;
        }
    }
    let open_s = started.elapsed().as_secs_f64();
    // Idle a while: buffers settle, a round of pings goes by.
    tokio::time::sleep(Duration::from_secs(4)).await;
    let rss_idle = vm_rss();
    let per_socket = rss_idle.saturating_sub(rss_before) as f64 / opened.max(1) as f64;
    println!(
        "lobby_sockets {opened} of {n} open in {open_s:.1} s; game {variant}; rooms {}; listed before {} (lobby frame {lobby_bytes} bytes)",
        args.rooms, args.listed
    );
    println!(
        "rss_mb before {:.1} idle {:.1}; per_idle_socket_kb {:.1} ({})",
        rss_before as f64 / 1e6,
        rss_idle as f64 / 1e6,
        per_socket / 1024.0,
        if pid.is_some() {
            "the hall's process alone"
        } else {
            "client and server ends together: an upper bound for the server"
        }
    );

    // Rooms, one at a time: each one's POST start is its frame's zero.
    measuring.store(true, Ordering::Relaxed);
    let mut posted = std::collections::HashMap::new();
    for i in 0..args.rooms {
        let token = &creators[i % CREATORS];
        let at = Instant::now();
        let r = client::post(&addr, "/api/games", Some(token), &room).await?;
        anyhow::ensure!(r.status == 201, "creating a room: {} {}", r.status, r.body);
        let id = r.json()["id"].as_str().context("room id")?.to_string();
        posted.insert(id, (at, at.elapsed()));
        tokio::time::sleep(Duration::from_millis(args.gap_ms)).await;
    }
    // Stragglers.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let _ = stop_tx.send(true);
    let mut delays = Vec::with_capacity(n * args.rooms);
    let mut got: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let mut seen_all = Vec::with_capacity(n);
    for c in clients {
        seen_all.push(c.await.unwrap_or_default());
    }
    for seen in &seen_all {
        for (id, when) in seen {
            if let Some((at, _)) = posted.get(id) {
                delays.push(when.saturating_duration_since(*at).as_secs_f64() * 1000.0);
                *got.entry(id.as_str()).or_default() += 1;
            }
        }
    }
    delays.sort_by(|a, b| a.total_cmp(b));
    let mut counts: Vec<usize> = posted
        .keys()
        .map(|id| got.get(id.as_str()).copied().unwrap_or(0))
        .collect();
    counts.sort_unstable();
    let mut post_ms: Vec<f64> = posted
        .values()
        .map(|(_, d)| d.as_secs_f64() * 1000.0)
        .collect();
    post_ms.sort_by(|a, b| a.total_cmp(b));
    println!(
        "delivery_ms p50 {:.1} p99 {:.1} max {:.1} (n {}, from each POST's start to each socket reading its frame)",
        percentile(&delays, 0.5),
        percentile(&delays, 0.99),
        delays.last().copied().unwrap_or(0.0),
        delays.len()
    );
    println!(
        "sockets_per_frame min {} median {} max {} of {opened} (frames {})",
        counts.first().copied().unwrap_or(0),
        counts.get(counts.len() / 2).copied().unwrap_or(0),
        counts.last().copied().unwrap_or(0),
        counts.len()
    );
    println!(
        "post_ms p50 {:.1} max {:.1}",
        percentile(&post_ms, 0.5),
        post_ms.last().copied().unwrap_or(0.0)
    );
    if let Some(s) = server {
        s.shutdown().await;
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
