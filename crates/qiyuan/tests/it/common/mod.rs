//! HTTP helpers shared by the events integration tests: a hall on an
//! ephemeral port with a fresh SQLite file and a fast fixed-budget AI.

// Each test binary uses only some of these helpers.
#![allow(dead_code)]

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use qiyuan_hall::client;
use qiyuan_hall::limits::Limits;
use qiyuan_hall::registry::Registry;
use qiyuan_hall::server::{Config, Running, start};
use serde_json::Value;

static N: AtomicU32 = AtomicU32::new(0);

/// A fresh database path, unique per process and call.
pub fn temp_db(prefix: &str) -> std::path::PathBuf {
    let p = std::env::temp_dir().join(format!(
        "qiyuan-{prefix}-{}-{}.db",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_file(&p);
    p
}

/// A hall on a fresh database.
pub async fn server(prefix: &str) -> (Running, String) {
    server_at(&temp_db(prefix)).await
}

/// A hall on the database at `p` (reused across a restart).
pub async fn server_at(p: &std::path::Path) -> (Running, String) {
    server_with(p, Limits::default()).await
}

/// A hall on the database at `p` with these limits.
pub async fn server_with(p: &std::path::Path, limits: Limits) -> (Running, String) {
    start_with(Config {
        port: 0,
        database: format!("sqlite://{}", p.display()),
        rate_per_sec: 0,
        limits,
        // A few milliseconds a move: a 300-ply game takes about a second.
        ai_budget: Some(Duration::from_millis(2)),
        ..Config::default()
    })
    .await
}

/// A hall started with `config` and every registered game, and its address.
pub async fn start_with(config: Config) -> (Running, String) {
    start_games(config, qiyuan::games()).await
}

/// A hall started with `config` and `games`, and its address.
pub async fn start_games(config: Config, games: Registry) -> (Running, String) {
    let r = start(&config, games).await.expect("server starts");
    let addr = r.addr.to_string();
    (r, addr)
}

/// A fresh database URL.
pub fn temp_db_url(prefix: &str) -> String {
    format!("sqlite://{}", temp_db(prefix).display())
}

/// Registers `name` and returns its token.
pub async fn register(addr: &str, name: &str) -> String {
    client::register(addr, name, "secret123")
        .await
        .expect("registered")
}

/// POST with a bearer token: status and JSON body.
pub async fn post(addr: &str, path: &str, token: &str, body: Value) -> (u16, Value) {
    let r = client::post(addr, path, Some(token), &body)
        .await
        .expect("request");
    (r.status, r.json())
}

/// An open Xiangqi game that `red` creates (`initial_s` seconds, rated or
/// not) and `black` joins, with `moves` played in turn; its id.
pub async fn xiangqi_game(
    addr: &str,
    red: &str,
    black: &str,
    rated: bool,
    initial_s: u32,
    moves: &[&str],
) -> String {
    let options = serde_json::json!({
        "game": "xiangqi",
        "clock": {"initial_s": initial_s, "increment_s": 0},
        "opponent": "open",
        "rated": rated,
    });
    let (st, g) = post(addr, "/api/games", red, options).await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    let (st, j) = post(
        addr,
        &format!("/api/games/{id}/join"),
        black,
        serde_json::json!({}),
    )
    .await;
    assert_eq!(st, 200, "{j}");
    for (i, mv) in moves.iter().enumerate() {
        let who = if i % 2 == 0 { red } else { black };
        let path = format!("/api/games/{id}/moves");
        let (st, r) = post(addr, &path, who, serde_json::json!({"move": mv})).await;
        assert_eq!(st, 200, "{mv}: {r}");
    }
    id
}

/// Anonymous GET: status and JSON body.
pub async fn get(addr: &str, path: &str) -> (u16, Value) {
    let r = client::get(addr, path, None).await.expect("request");
    (r.status, r.json())
}

/// A fresh database on the test PostgreSQL server at `base` (a URL naming
/// a database, e.g. `QIYUAN_TEST_POSTGRES`); its URL.
pub async fn fresh_postgres(base: &str, tag: &str) -> String {
    let name = format!(
        "qiyuan_{tag}_{}_{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    );
    let admin = sqlx::PgPool::connect(base).await.expect("test server");
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&admin)
        .await
        .expect("create database");
    admin.close().await;
    let (head, _) = base.rsplit_once('/').expect("a URL with a database");
    format!("{head}/{name}")
}

/// Polls `check` every 20 ms until it yields `Some`, for at most 10 s
/// (generous for a loaded CI machine); panics naming `what` otherwise. For
/// waiting on a condition instead of sleeping a fixed time.
pub async fn eventually<T, F, Fut>(what: &str, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(v) = check().await {
            return v;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "not within 10 s: {what}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Spaces one socket's frames to the hall's rate (10 a second, in a bucket
/// of 20): waits only what is left of the gap since the last frame, so a
/// test that waits for an answer between frames mostly does not wait here.
#[derive(Default)]
pub struct Pace {
    last: Option<std::time::Instant>,
}

impl Pace {
    /// The gap kept between frames: a little over the hall's 100 ms.
    pub const GAP: Duration = Duration::from_millis(110);

    /// Waits until a frame may go; call just before sending it.
    pub async fn wait(&mut self) {
        if let Some(last) = self.last {
            let since = last.elapsed();
            if since < Self::GAP {
                tokio::time::sleep(Self::GAP - since).await;
            }
        }
        self.last = Some(std::time::Instant::now());
    }
}
