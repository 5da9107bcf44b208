//! `qiyuan loadtest`: drives N concurrent games over WebSocket against a
//! running hall and prints moves/s and p50/p99 move latency (from sending a
//! move to receiving the state that shows it), and the bytes a watching
//! socket (the player not to move) receives per move, early and late in
//! the games.

use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use futures_util::SinkExt;
use rand::Rng;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

use crate::client::{self, GameSocket};

/// Options of the load tool.
#[derive(Clone, Debug)]
pub struct LoadtestArgs {
    /// `host:port` of the hall; several, comma-separated, for several
    /// nodes: game `i` is played on the `i`-th (round robin), both its
    /// players there.
    pub addr: String,
    /// Concurrent games.
    pub games: usize,
    /// Plies per game (a game that ends sooner stops there).
    pub plies: usize,
    /// Rule set (`None`: the first the hall lists at `/api/kinds`).
    pub game: Option<String>,
    /// Give up after this long.
    pub max_seconds: u64,
    /// Mean think time before each move (0: move at once). Real players think,
    /// so "N concurrent games" with think time is the load a hall really sees;
    /// without it the tool measures peak throughput instead.
    pub think_ms: u64,
    /// Start each game as soon as it is set up, so that the logins, rooms
    /// and sockets of later games overlap the moves of earlier ones. By
    /// default every game is set up first and all start together, so the
    /// figures are of N games in play, not of a mix with N set-ups.
    pub staggered: bool,
    /// Plies at the start of each game whose latency is reported apart
    /// (`warmup_p99_ms`), not in `p50_ms`/`p99_ms`: games that start
    /// together send their first moves in one burst, which a hall in
    /// steady play never sees; `all_p99_ms` still counts every move.
    pub warmup_plies: usize,
}

/// Retries a request refused by the rate limiter.
async fn post_retry(addr: &str, path: &str, token: Option<&str>, body: &Value) -> Result<Value> {
    for _ in 0..50 {
        let r = client::post(addr, path, token, body).await?;
        if r.status == 429 {
            tokio::time::sleep(Duration::from_millis(200)).await;
            continue;
        }
        if r.status >= 300 {
            bail!("{path}: {} {}", r.status, r.body);
        }
        return Ok(r.json());
    }
    bail!("{path}: still rate limited")
}

/// What one game measured.
#[derive(Default)]
struct GameFigures {
    /// Per-move latency in ms.
    latencies: Vec<f64>,
    /// (ply, bytes) the watching socket got for each move.
    watched: Vec<(usize, usize)>,
}

/// What a mover needs of a state (a copy of the whole game per move would
/// cost the load client more than the hall spends on the move).
fn turn_of(s: &Value) -> Value {
    json!({"status": s["status"], "to_move": s["to_move"], "legal": s["legal"], "version": s["version"]})
}

/// Sets up one game between two guests (logins, a room, a seat taken, both
/// sockets), waits for `go` and plays it.
async fn one_game(
    args: &LoadtestArgs,
    ready: tokio::sync::mpsc::Sender<()>,
    mut go: tokio::sync::watch::Receiver<bool>,
) -> Result<GameFigures> {
    let set_up = set_up_game(args).await;
    // Told even when the set-up failed, so that the others are not held up.
    let _ = ready.send(()).await;
    drop(ready);
    let (id, tokens, socks, state) = set_up?;
    go.wait_for(|&go| go).await?;
    play_game(args, &id, &tokens, socks, state).await
}

/// A game set up: its id, both tokens, both sockets, the first mover's state.
type SetUp = (String, [String; 2], [GameSocket; 2], Value);

async fn set_up_game(args: &LoadtestArgs) -> Result<SetUp> {
    let a = &args.addr;
    let t1 = post_retry(a, "/api/guest", None, &json!({})).await?["token"]
        .as_str()
        .context("token")?
        .to_string();
    let second = post_retry(a, "/api/guest", None, &json!({})).await?;
    let t2 = second["token"].as_str().context("token")?.to_string();
    let name2 = second["username"].as_str().context("username")?;
    // A challenge to the second player: an open room would be a seek, and
    // another game's identical seek would take its seat.
    let created = post_retry(
        a,
        "/api/games",
        Some(&t1),
        &json!({"game": args.game, "clock": {"initial_s": 3600, "increment_s": 0},
                "opponent": "open", "challenge": name2}),
    )
    .await?;
    let id = created["id"].as_str().context("id")?.to_string();
    post_retry(a, &format!("/api/games/{id}/join"), Some(&t2), &json!({})).await?;
    let path = format!("/api/games/{id}/ws");
    let mut socks = [
        GameSocket::connect(a, &path, Some(&t1)).await?,
        GameSocket::connect(a, &path, Some(&t2)).await?,
    ];
    let state = socks[0].next_state().await?;
    socks[1].next_state().await?;
    Ok((id, [t1, t2], socks, state))
}

/// Plays a game set up by [`set_up_game`] for `args.plies` plies.
async fn play_game(
    args: &LoadtestArgs,
    id: &str,
    [t1, t2]: &[String; 2],
    mut socks: [GameSocket; 2],
    mut state: Value,
) -> Result<GameFigures> {
    let a = &args.addr;
    let mut lat = Vec::with_capacity(args.plies);
    let mut watched = Vec::with_capacity(args.plies);
    for ply in 0..args.plies {
        if state["status"] != "playing" {
            break;
        }
        let Some(seat) = state["to_move"].as_u64().map(|s| s as usize) else {
            break;
        };
        let seat = seat.min(1);
        // The mover's own view has its legal moves.
        let legal: Vec<String> = state["legal"]
            .as_array()
            .map(|l| {
                l.iter()
                    .filter_map(|m| m.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default();
        let legal = if legal.is_empty() {
            let s = client::get(
                a,
                &format!("/api/games/{id}"),
                Some(if seat == 0 { t1 } else { t2 }),
            )
            .await?;
            s.json()["legal"]
                .as_array()
                .map(|l| {
                    l.iter()
                        .filter_map(|m| m.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default()
        } else {
            legal
        };
        if legal.is_empty() {
            break;
        }
        let mv = legal[rand::rng().random_range(0..legal.len())].clone();
        if args.think_ms > 0 {
            // Jitter (50%..150%) so games do not move in lockstep.
            let ms = rand::rng().random_range(args.think_ms / 2..=args.think_ms * 3 / 2);
            tokio::time::sleep(Duration::from_millis(ms)).await;
        }
        let version = state["version"].as_u64().unwrap_or(0);
        let sent = Instant::now();
        socks[seat]
            .send(Message::Text(
                json!({"t":"move","move":mv}).to_string().into(),
            ))
            .await?;
        // Wait until the mover sees its move; both sockets get the state.
        loop {
            let s = socks[seat].next_state_ref().await?;
            if s["version"].as_u64().unwrap_or(0) > version {
                lat.push(sent.elapsed().as_secs_f64() * 1000.0);
                break;
            }
        }
        // The next mover's socket has the state with its legal moves.
        let other = 1 - seat;
        let bytes_before = socks[other].game_bytes;
        loop {
            let s = socks[other].next_state_ref().await?;
            if s["version"].as_u64().unwrap_or(0) > version {
                state = turn_of(s);
                break;
            }
        }
        watched.push((ply, socks[other].game_bytes - bytes_before));
        if state["to_move"].as_u64() == Some(seat as u64) {
            // A double turn: the mover's socket has the newest own state.
            state = client::get(
                a,
                &format!("/api/games/{id}"),
                Some(if seat == 0 { t1 } else { t2 }),
            )
            .await?
            .json();
        }
    }
    let _ = post_retry(a, &format!("/api/games/{id}/resign"), Some(t1), &json!({})).await;
    Ok(GameFigures {
        latencies: lat,
        watched,
    })
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// Runs the load test and prints `games`, `moves`, `moves_per_s`, `p50_ms`,
/// `p99_ms`, and `watch_bytes_per_move` over the first and last ten plies
/// each game played.
pub fn loadtest(mut args: LoadtestArgs) -> Result<()> {
    let rt = tokio::runtime::Runtime::new()?;
    rt.block_on(async move {
        if args.game.is_none() {
            let first = args.addr.split(',').next().unwrap_or_default().trim();
            let kinds = crate::client::get(first, "/api/kinds", None).await?.json();
            args.game = kinds["kinds"][0]["variants"][0]["name"]
                .as_str()
                .map(str::to_string);
            anyhow::ensure!(args.game.is_some(), "the hall lists no game at /api/kinds");
        }
        let nodes: Vec<String> = args
            .addr
            .split(',')
            .map(|a| a.trim().to_string())
            .filter(|a| !a.is_empty())
            .collect();
        anyhow::ensure!(!nodes.is_empty(), "no hall address given");
        let set_up_start = Instant::now();
        let (ready_tx, mut ready) = tokio::sync::mpsc::channel(args.games.max(1));
        let (go_tx, go) = tokio::sync::watch::channel(false);
        let mut tasks = Vec::new();
        for i in 0..args.games {
            let mut a = args.clone();
            a.addr = nodes[i % nodes.len()].clone();
            let (ready, go) = (ready_tx.clone(), go.clone());
            tasks.push(tokio::spawn(async move {
                tokio::time::timeout(Duration::from_secs(a.max_seconds), one_game(&a, ready, go))
                    .await
            }));
        }
        drop(ready_tx);
        let mut start = Instant::now();
        if args.staggered {
            go_tx.send_replace(true);
        } else {
            // Every game reports once, set up or failed (a task that ended
            // before it could drops its sender instead).
            for _ in 0..args.games {
                if ready.recv().await.is_none() {
                    break;
                }
            }
            println!("setup_seconds {:.2}", set_up_start.elapsed().as_secs_f64());
            start = Instant::now();
            go_tx.send_replace(true);
        }
        let mut warmup = Vec::new();
        let mut lat = Vec::new();
        let (mut early, mut late) = (Vec::new(), Vec::new());
        let mut failed = 0;
        for t in tasks {
            match t.await {
                Ok(Ok(Ok(g))) => {
                    let warm = args.warmup_plies.min(g.latencies.len());
                    warmup.extend_from_slice(&g.latencies[..warm]);
                    lat.extend_from_slice(&g.latencies[warm..]);
                    let n = g.watched.len();
                    early.extend(g.watched.iter().take(10).map(|&(_, b)| b as f64));
                    late.extend(
                        g.watched
                            .iter()
                            .skip(n.saturating_sub(10).max(10))
                            .map(|&(_, b)| b as f64),
                    );
                }
                Ok(Ok(Err(e))) => {
                    failed += 1;
                    eprintln!("game failed: {e:#}");
                }
                _ => failed += 1,
            }
        }
        let secs = start.elapsed().as_secs_f64();
        lat.sort_by(|a, b| a.total_cmp(b));
        println!("games {} failed {failed}", args.games);
        let moves = lat.len() + warmup.len();
        warmup.sort_by(|a, b| a.total_cmp(b));
        let mut all = [lat.as_slice(), warmup.as_slice()].concat();
        all.sort_by(|a, b| a.total_cmp(b));
        println!("moves {moves}");
        println!("seconds {secs:.2}");
        println!("moves_per_s {:.1}", moves as f64 / secs.max(1e-9));
        // Latency past each game's warm-up plies (see `warmup_plies`),
        // then of the warm-up plies alone and of every move.
        println!("p50_ms {:.2}", percentile(&lat, 0.50));
        println!("p99_ms {:.2}", percentile(&lat, 0.99));
        println!(
            "warmup_p50_ms {:.2} warmup_p99_ms {:.2} all_p99_ms {:.2}",
            percentile(&warmup, 0.50),
            percentile(&warmup, 0.99),
            percentile(&all, 0.99)
        );
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
        println!(
            "watch_bytes_per_move first10 {:.0} last10 {:.0}",
            mean(&early),
            mean(&late)
        );
        if failed == args.games && args.games > 0 {
            bail!("every game failed");
        }
        Ok(())
    })
}
