//! A hall on an ephemeral port with a fresh SQLite file, serving only the
//! fake game (`crate::fake`), and the requests the tests make of it.

// Each test module uses only some of these helpers.
#![allow(dead_code)]

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use qiyuan_hall::client;
use qiyuan_hall::limits::Limits;
use qiyuan_hall::registry::Registry;
use qiyuan_hall::server::{Config, Running, start};
use serde_json::{Value, json};

use crate::fake::CountKind;

static N: AtomicU32 = AtomicU32::new(0);

/// A fresh database path, unique per process and call.
pub fn temp_db(prefix: &str) -> std::path::PathBuf {
    let p = std::env::temp_dir().join(format!(
        "qiyuan-hall-{prefix}-{}-{}.db",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_file(&p);
    p
}

/// A hall on a fresh database.
pub async fn server(prefix: &str) -> (Running, String) {
    server_with(&temp_db(prefix), Limits::default()).await
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
        ai_budget: Some(Duration::from_millis(2)),
        ..Config::default()
    })
    .await
}

/// The registry of these tests: the fake game alone.
pub fn games() -> Registry {
    Registry::new().with([Arc::new(CountKind) as _])
}

/// A hall started with `config`, serving the fake game, and its address.
pub async fn start_with(config: Config) -> (Running, String) {
    let r = start(&config, games()).await.expect("the hall starts");
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

/// Anonymous GET: status and JSON body.
pub async fn get(addr: &str, path: &str) -> (u16, Value) {
    let r = client::get(addr, path, None).await.expect("request");
    (r.status, r.json())
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

/// A fresh database on the test PostgreSQL server at `base` (a URL naming
/// a database, e.g. `QIYUAN_TEST_POSTGRES`); its URL.
pub async fn fresh_postgres(base: &str, tag: &str) -> String {
    let name = format!(
        "qiyuan_hall_{tag}_{}_{}",
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

/// A one-board team event between two registered people: `home` (token,
/// name) organises it with team `teams.0`, `away` accepts with `teams.1`,
/// and its first game starts. Returns the event id and the event after the
/// acceptance.
pub async fn team_duel(
    addr: &str,
    home: (&str, &str),
    away: (&str, &str),
    teams: (&str, &str),
) -> (String, Value) {
    let (st, ev) = post(
        addr,
        "/api/team-events",
        home.0,
        json!({"game": "count", "teams": [
            {"name": teams.0, "players": [home.1]},
            {"name": teams.1, "players": [away.1]},
        ]}),
    )
    .await;
    assert_eq!(st, 201, "{ev}");
    assert_eq!(ev["status"], "invited", "{ev}");
    let id = ev["id"].as_str().expect("id").to_string();
    let (st, ev) = post(
        addr,
        &format!("/api/team-events/{id}/accept"),
        away.0,
        json!({}),
    )
    .await;
    assert_eq!(st, 200, "{ev}");
    assert_eq!(ev["status"], "running", "{ev}");
    (id, ev)
}
