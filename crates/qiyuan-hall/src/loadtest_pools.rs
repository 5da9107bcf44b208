//! `qiyuan loadtest --pools N`: how fast the pools find a game. Starts a
//! hall in this process (a fresh SQLite file in a temporary folder) with N
//! registered players whose ratings are drawn from a normal spread (mean
//! 1500, deviation 300, as a real hall's ratings spread), then N simulated
//! players over loopback each keep a lobby socket open, join the pool, wait
//! for `gameStart`, play a few moves on the game's socket, resign or wait
//! for the opponent to, and join again. Prints the median and p95 time from
//! joining to a started game, the mean and p95 rating gap of the pairings,
//! the pairing rate and the move latency (p50/p99) during the run.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use futures_util::{SinkExt, StreamExt};
use rand::Rng;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

use crate::client::{self, GameSocket};
use crate::domain::registry::Registry;
use crate::store::{GameRow, RatingUpdate, SeatRow};
use qiyuan_events::Rating;

/// Options of the pool load test.
#[derive(Clone, Debug)]
pub struct PoolLoadArgs {
    /// Simulated players.
    pub players: usize,
    /// How long they play.
    pub seconds: u64,
    /// The pool (`None`: the first pool of the first kind).
    pub pool: Option<String>,
    /// Moves each game gets before a player resigns.
    pub plies: usize,
    /// Mean think time per move in ms.
    pub think_ms: u64,
    /// The same players, sockets and games without the pools: fixed pairs
    /// meet through challenges (the figure to compare the pools' with).
    pub no_pools: bool,
}

#[derive(Default)]
struct Figures {
    /// Seconds from joining to `gameStart`.
    waits: Vec<f64>,
    /// Move latency in ms (sent to seen on the mover's socket).
    moves: Vec<f64>,
    /// Game id -> the players' ratings (each game once).
    games: HashMap<String, Vec<f64>>,
    failures: usize,
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// A rating from N(1500, 300), kept within 600..2700.
fn draw_rating(rng: &mut impl Rng) -> f64 {
    // Box-Muller: two uniforms give one standard normal.
    let (u1, u2): (f64, f64) = (rng.random_range(1e-9..1.0), rng.random_range(0.0..1.0));
    let z = (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos();
    (1500.0 + 300.0 * z).clamp(600.0, 2700.0)
}

/// Runs the pool load test and prints its figures.
pub fn pool_loadtest(args: PoolLoadArgs, games: Registry) -> Result<()> {
    let rt = tokio::runtime::Runtime::new()?;
    rt.block_on(run(args, games))
}

async fn run(args: PoolLoadArgs, games: Registry) -> Result<()> {
    let dir = std::env::temp_dir().join(format!("qiyuan-poolload-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let db = dir.join("hall.db");
    let _ = std::fs::remove_file(&db);
    let n = args.players.max(2);
    let limits = crate::limits::Limits {
        sockets_per_ip: n * 3 + 16,
        sockets_per_user: 8,
        connections_per_ip: n * 4 + 64,
        max_connections: n * 4 + 256,
        max_long_lived: n * 3 + 64,
        guests_per_ip_hour: 0,
        ..Default::default()
    };
    let config = crate::http::server::Config {
        port: 0,
        database: format!("sqlite://{}", db.display()),
        rate_per_sec: 0,
        limits,
        ..Default::default()
    };
    let server = crate::http::server::start(&config, games).await?;
    let addr = server.addr.to_string();
    let pools = client::get(&addr, "/api/pools", None).await?.json();
    let pool = match &args.pool {
        Some(p) => p.clone(),
        None => pools["pools"][0]["id"]
            .as_str()
            .context("the hall has no pool")?
            .to_string(),
    };
    let spec = pools["pools"]
        .as_array()
        .and_then(|ps| ps.iter().find(|p| p["id"] == pool.as_str()))
        .cloned()
        .with_context(|| format!("no pool {pool}"))?;
    let variant = spec["game"].as_str().context("game")?.to_string();
    let family = server
        .hall
        .games
        .family_of(&variant)
        .context("family")?
        .to_string();

    // Players with ratings: registered over HTTP, then one finished seed
    // game each carries their rating (a rating row needs a rated game).
    let started = Instant::now();
    let mut players = Vec::with_capacity(n);
    let mut rng = rand::rng();
    for i in 0..n {
        let name = format!("load{i}");
        let token = client::register(&addr, &name, "secret123").await?;
        let user = server
            .hall
            .store
            .user_by_name(&name)
            .await?
            .context("registered user")?;
        let rating = draw_rating(&mut rng);
        seed_rating(&server.hall, user.id, &name, &variant, &family, rating).await?;
        players.push((token, rating));
    }
    println!(
        "players {n} pool {pool} seeded_in_s {:.1}",
        started.elapsed().as_secs_f64()
    );

    let figures = Arc::new(Mutex::new(Figures::default()));
    let deadline = Instant::now() + Duration::from_secs(args.seconds);
    let mut tasks = Vec::new();
    let game = json!({"game": variant, "clock": spec["clock"], "rated": true});
    for (index, (token, rating)) in players.into_iter().enumerate() {
        let (addr, figures, args) = (addr.clone(), figures.clone(), args.clone());
        // Without pools, seat `2k` challenges seat `2k + 1` (an odd last
        // player has no partner and only watches).
        let find = if args.no_pools {
            let mut body = game.clone();
            body["challenge"] = json!(format!("load{}", index ^ 1));
            match index % 2 {
                0 if index + 1 < n => Find::Challenge(body),
                0 => Find::Nothing,
                _ => Find::Accept,
            }
        } else {
            Find::Pool(pool.clone())
        };
        tasks.push(tokio::spawn(async move {
            if let Err(e) = player(&addr, &find, &token, rating, deadline, &args, &figures).await {
                figures.lock().map(|mut f| f.failures += 1).ok();
                tracing::debug!(error = %e, "a simulated player stopped");
            }
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    let f = std::mem::take(&mut *figures.lock().map_err(|_| anyhow::anyhow!("poisoned"))?);
    let mut waits = f.waits;
    waits.sort_by(|a, b| a.total_cmp(b));
    let mut lat = f.moves;
    lat.sort_by(|a, b| a.total_cmp(b));
    let mut gaps: Vec<f64> = f
        .games
        .values()
        .filter(|r| r.len() == 2)
        .map(|r| (r[0] - r[1]).abs())
        .collect();
    gaps.sort_by(|a, b| a.total_cmp(b));
    let mean_gap = gaps.iter().sum::<f64>() / gaps.len().max(1) as f64;
    println!("games_started {}", f.games.len());
    println!(
        "pairings_per_s {:.2}",
        f.games.len() as f64 / args.seconds.max(1) as f64
    );
    println!(
        "wait_s median {:.2} p95 {:.2} max {:.2} (n {})",
        percentile(&waits, 0.5),
        percentile(&waits, 0.95),
        waits.last().copied().unwrap_or(0.0),
        waits.len()
    );
    println!(
        "rating_gap mean {mean_gap:.0} p95 {:.0}",
        percentile(&gaps, 0.95)
    );
    println!(
        "move_ms p50 {:.2} p99 {:.2} (n {})",
        percentile(&lat, 0.5),
        percentile(&lat, 0.99),
        lat.len()
    );
    println!("player_failures {}", f.failures);
    server.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// A finished game of `variant` between the user and an AI seat, rated to `rating`.
async fn seed_rating(
    hall: &crate::domain::hall::Hall,
    user: i64,
    name: &str,
    variant: &str,
    family: &str,
    rating: f64,
) -> Result<()> {
    let id = format!("seed{user}");
    let row = GameRow {
        id: id.clone(),
        rules: variant.to_string(),
        options: Default::default(),
        start_fen: None,
        initial_ms: 60_000,
        increment_ms: 0,
        rated: true,
        seats: vec![
            SeatRow::User {
                id: user,
                name: name.to_string(),
                bot: false,
            },
            SeatRow::Ai { level: 1 },
        ],
        status: "finished".into(),
        result: Some("draw".into()),
        reason: Some("agreement".into()),
        explanation: None,
        clocks: vec![60_000, 60_000],
        created_ms: crate::clock::wall_ms(),
        updated_ms: crate::clock::wall_ms(),
        rematch_of: None,
        placings: None,
    };
    hall.store.insert_game(&row).await?;
    let before = Rating::default();
    let after = Rating {
        value: rating,
        rated_games: 30,
        ..before
    };
    hall.store
        .apply_ratings(
            &id,
            family,
            &[RatingUpdate {
                user_id: user,
                before,
                after,
                deviation: None,
            }],
        )
        .await?;
    Ok(())
}

/// How a simulated player finds its games.
enum Find {
    /// Joins this pool.
    Pool(String),
    /// Sends this challenge (its partner accepts).
    Challenge(Value),
    /// Accepts the challenges it gets.
    Accept,
    /// Nobody to play.
    Nothing,
}

/// One simulated player: find a game, wait for it to start, play it, again.
async fn player(
    addr: &str,
    find: &Find,
    token: &str,
    rating: f64,
    deadline: Instant,
    args: &PoolLoadArgs,
    figures: &Mutex<Figures>,
) -> Result<()> {
    let mut lobby = client::connect_ws(addr, "/api/lobby/ws", Some(token)).await?;
    while Instant::now() < deadline {
        let joined = Instant::now();
        let r = match find {
            Find::Pool(pool) => {
                client::post(
                    addr,
                    &format!("/api/pools/{pool}/join"),
                    Some(token),
                    &json!({}),
                )
                .await?
            }
            Find::Challenge(body) => client::post(addr, "/api/games", Some(token), body).await?,
            Find::Nothing => return Ok(()),
            Find::Accept => loop {
                let left = deadline.saturating_duration_since(Instant::now());
                let Ok(Some(Ok(frame))) = tokio::time::timeout(left, lobby.next()).await else {
                    return Ok(());
                };
                let v: Value =
                    serde_json::from_str(frame.to_text().unwrap_or("")).unwrap_or(Value::Null);
                if v["type"] == "challenge" {
                    let id = v["challenge"]["id"]
                        .as_str()
                        .unwrap_or_default()
                        .to_string();
                    break client::post(
                        addr,
                        &format!("/api/games/{id}/join"),
                        Some(token),
                        &json!({}),
                    )
                    .await?;
                }
            },
        };
        anyhow::ensure!(r.status < 300, "finding a game: {} {}", r.status, r.body);
        // Wait for this player's game to start.
        let game = loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Ok(frame) = tokio::time::timeout(left, lobby.next()).await else {
                return Ok(());
            };
            let Some(Ok(Message::Text(t))) = frame else {
                if frame.is_none() {
                    anyhow::bail!("lobby socket closed");
                }
                continue;
            };
            let v: Value = serde_json::from_str(&t).unwrap_or(Value::Null);
            if v["type"] == "gameStart" {
                break v["game"].clone();
            }
        };
        let id = game["id"].as_str().context("game id")?.to_string();
        let seat = game["seat"].as_u64().context("seat")? as usize;
        {
            let mut f = figures.lock().map_err(|_| anyhow::anyhow!("poisoned"))?;
            f.waits.push(joined.elapsed().as_secs_f64());
            f.games.entry(id.clone()).or_default().push(rating);
        }
        play(addr, &id, seat, token, args, figures).await?;
    }
    let _ = lobby.close(None).await;
    Ok(())
}

/// Plays `args.plies` plies of game `id` from `seat`, then resigns (or
/// sees the opponent resign).
async fn play(
    addr: &str,
    id: &str,
    seat: usize,
    token: &str,
    args: &PoolLoadArgs,
    figures: &Mutex<Figures>,
) -> Result<()> {
    let mut sock = GameSocket::connect(addr, &format!("/api/games/{id}/ws"), Some(token)).await?;
    let mut state = sock.next_state().await?;
    loop {
        if state["status"] != "playing" {
            return Ok(());
        }
        let plies = state["plies"].as_u64().unwrap_or(0) as usize;
        if plies >= args.plies {
            let _ = client::post(
                addr,
                &format!("/api/games/{id}/resign"),
                Some(token),
                &json!({}),
            )
            .await;
            return Ok(());
        }
        let mine = state["to_move"].as_u64() == Some(seat as u64);
        let legal: Vec<String> = state["legal"]
            .as_array()
            .map(|l| {
                l.iter()
                    .filter_map(|m| m.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default();
        if mine && !legal.is_empty() {
            let mv = legal[rand::rng().random_range(0..legal.len())].clone();
            if args.think_ms > 0 {
                let ms = rand::rng().random_range(args.think_ms / 2..=args.think_ms * 3 / 2);
                tokio::time::sleep(Duration::from_millis(ms)).await;
            }
            let version = state["version"].as_u64().unwrap_or(0);
            let sent = Instant::now();
            sock.send(Message::Text(
                json!({"t": "move", "move": mv}).to_string().into(),
            ))
            .await?;
            loop {
                let s = sock.next_state_ref().await?;
                if s["version"].as_u64().unwrap_or(0) > version {
                    state = s.clone();
                    break;
                }
            }
            if let Ok(mut f) = figures.lock() {
                f.moves.push(sent.elapsed().as_secs_f64() * 1000.0);
            }
        } else {
            state = sock.next_state().await?;
        }
    }
}
