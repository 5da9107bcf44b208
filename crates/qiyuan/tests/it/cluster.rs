//! Several nodes on one database (issue 17), with one node a `qiyuan serve`
//! process: killed mid-game, started without a node id, or holding an id
//! another node asks for. Runs on SQLite always and again on PostgreSQL
//! when `QIYUAN_TEST_POSTGRES` names a server (`tests/cluster/run.sh`
//! starts one). Leases between nodes in one process are tested in
//! `qiyuan-hall`.

use std::time::Duration;

use qiyuan_hall::client;
use qiyuan_hall::lease::LeaseConfig;
use qiyuan_hall::server::{Config, Running, start};
use serde_json::{Value, json};

use crate::common;

/// A fresh database on the test PostgreSQL server, if there is one.
async fn fresh_postgres(tag: &str) -> Option<String> {
    let Ok(base) = std::env::var("QIYUAN_TEST_POSTGRES") else {
        eprintln!("note: QIYUAN_TEST_POSTGRES is not set; the PostgreSQL run of {tag} is skipped");
        return None;
    };
    Some(common::fresh_postgres(&base, tag).await)
}

fn sqlite(tag: &str) -> String {
    common::temp_db_url(tag)
}

async fn node(database: &str, bus: &str, id: &str, ttl: Duration) -> (Running, String) {
    let r = start(
        &Config {
            port: 0,
            database: database.into(),
            bus: bus.into(),
            rate_per_sec: 0,
            ai_budget: Some(Duration::from_millis(2)),
            lease: Some(LeaseConfig {
                node: id.into(),
                ttl,
                advertise: None,
            }),
            ..Config::default()
        },
        qiyuan::games(),
    )
    .await
    .expect("node starts");
    let addr = r.addr.to_string();
    (r, addr)
}

async fn register(addr: &str, name: &str) -> String {
    let r = client::post(
        addr,
        "/api/register",
        None,
        &json!({"username": name, "password": "secret123"}),
    )
    .await
    .expect("request");
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()["token"].as_str().expect("token").to_string()
}

async fn post(addr: &str, path: &str, token: &str, body: Value) -> (u16, Value) {
    let r = client::post(addr, path, Some(token), &body)
        .await
        .expect("request");
    (r.status, r.json())
}

async fn stored_moves(database: &str, id: &str) -> usize {
    let store = qiyuan_hall::store::open(database).await.expect("store");
    let n = store
        .load_game(id)
        .await
        .expect("load")
        .expect("game")
        .1
        .len();
    store.close().await;
    n
}

/// Plays `mv` for `token` at `addr`, retrying while the game is between
/// nodes (503); the move list it was acknowledged with.
async fn play(addr: &str, id: &str, token: &str, mv: &str) -> Vec<String> {
    for _ in 0..100 {
        let (st, m) = post(
            addr,
            &format!("/api/games/{id}/moves"),
            token,
            json!({"move": mv}),
        )
        .await;
        if st == 200 {
            return serde_json::from_value(m["moves"].clone()).expect("moves");
        }
        assert_eq!(st, 503, "{m}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{mv} was never played");
}

/// A node as a separate `qiyuan serve` process, killed with SIGKILL.
struct Process(std::process::Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

async fn node_process(database: &str, bus: &str, id: &str) -> (Process, String) {
    node_process_with(database, bus, &["--node-id", id]).await
}

/// A `qiyuan serve` process on `database` and `bus` with `args` besides.
async fn node_process_with(database: &str, bus: &str, args: &[&str]) -> (Process, String) {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let child = Process(
        std::process::Command::new(env!("CARGO_BIN_EXE_qiyuan"))
            .args([
                "serve",
                "--port",
                &port.to_string(),
                "--database",
                database,
                "--bus",
                bus,
            ])
            .args(args)
            .args(["--lease-ms", "1500", "--rate-limit", "0"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("qiyuan serve starts"),
    );
    let addr = format!("127.0.0.1:{port}");
    for _ in 0..200 {
        if client::get(&addr, "/healthz", None)
            .await
            .is_ok_and(|r| r.status == 200)
        {
            return (child, addr);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the node process did not come up");
}

/// `kill -9` of the node that owns a game in the middle of play: the game
/// goes on through the other node once the lease runs out, with no
/// acknowledged move lost and none committed twice.
async fn owner_killed(database: String, bus: String) {
    let (mut a, addr_a) = node_process(&database, &bus, "node-a").await;
    let (b, addr_b) = node(&database, &bus, "node-b", Duration::from_millis(1500)).await;
    let red = register(&addr_b, "red").await;
    let black = register(&addr_b, "black").await;
    let (st, g) = post(&addr_a, "/api/games", &red, json!({"game": "xiangqi", "clock": {"initial_s": 300, "increment_s": 0}, "opponent": "open", "rated": false})).await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    let (st, j) = post(&addr_b, &format!("/api/games/{id}/join"), &black, json!({})).await;
    assert_eq!(st, 200, "{j}");
    let line = [
        "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b2b6", "a9a8",
    ];
    let mut acked = Vec::new();
    for (i, mv) in line.iter().enumerate() {
        if i == 4 {
            a.0.kill().expect("kill -9");
            let _ = a.0.wait();
        }
        let (addr, token) = match (i < 4, i % 2 == 0) {
            (true, true) => (&addr_a, &red),
            (_, true) => (&addr_b, &red),
            (_, false) => (&addr_b, &black),
        };
        acked = play(addr, &id, token, mv).await;
        assert_eq!(acked, line[..=i], "move {i}");
    }
    let store = qiyuan_hall::store::open(&database).await.expect("store");
    let (_, moves) = store.load_game(&id).await.expect("load").expect("game");
    let stored: Vec<String> = moves.iter().map(|m| m.mv.clone()).collect();
    assert_eq!(stored, acked, "every acknowledged move stored once");
    store.close().await;
    b.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_owner_killed_mid_game_on_sqlite() {
    owner_killed(sqlite("kill"), "local".into()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_owner_killed_mid_game_on_postgres_and_redis() {
    let Ok(redis) = std::env::var("QIYUAN_TEST_REDIS") else {
        eprintln!(
            "note: QIYUAN_TEST_REDIS is not set; the kill -9 run on PostgreSQL and Redis is skipped"
        );
        return;
    };
    if let Some(db) = fresh_postgres("kill").await {
        owner_killed(db, redis).await;
    }
}

/// Issue 34: two nodes on one shared store (a Redis bus; PostgreSQL too
/// when there is one) started without `--node-id`: each gets a generated
/// id and leases, so a join through the node that does not own the game
/// reaches its owner (it used to answer 200 and leave the seat open there).
/// One node is a `qiyuan serve` process (the command line's default), the
/// other in this process (a `Config` without a lease).
async fn no_node_ids(database: String, bus: String) {
    let (_a, addr_a) = node_process_with(&database, &bus, &[]).await;
    let (b, addr_b) = common::start_with(Config {
        port: 0,
        database: database.clone(),
        bus,
        rate_per_sec: 0,
        ..Config::default()
    })
    .await;
    let red = register(&addr_a, "red").await;
    let black = register(&addr_b, "black").await;
    let (st, g) = post(&addr_a, "/api/games", &red, json!({"game": "xiangqi", "clock": {"initial_s": 300, "increment_s": 0}, "opponent": "open", "rated": false})).await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    let (st, j) = post(&addr_b, &format!("/api/games/{id}/join"), &black, json!({})).await;
    assert_eq!(st, 200, "{j}");
    // The owner has the join: black is seated and red may move there.
    let r = client::get(&addr_a, &format!("/api/games/{id}"), Some(&red))
        .await
        .expect("state");
    let s = r.json();
    assert_eq!(s["status"], "playing", "{s}");
    assert_eq!(s["seats"][1]["name"], "black", "{s}");
    assert_eq!(play(&addr_a, &id, &red, "h2e2").await, ["h2e2"]);
    assert_eq!(play(&addr_b, &id, &black, "h9g7").await, ["h2e2", "h9g7"]);
    assert_eq!(stored_moves(&database, &id).await, 2);
    b.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nodes_without_ids_on_a_shared_store_get_their_own_and_do_not_split() {
    let Ok(redis) = std::env::var("QIYUAN_TEST_REDIS") else {
        eprintln!("note: QIYUAN_TEST_REDIS is not set; the run of nodes without ids is skipped");
        return;
    };
    no_node_ids(sqlite("no-ids"), redis.clone()).await;
    if let Some(db) = fresh_postgres("noids").await {
        no_node_ids(db, redis).await;
    }
}

/// Issue 34: a node given the id of a running node refuses to start (the
/// two would share its leases); once that node is killed, a node with its
/// id starts when the dead node's registration has gone stale, and after a
/// clean stop at once.
async fn one_process_per_node_id(database: String) {
    let (mut a, _) = node_process(&database, "local", "node-a").await;
    let config = Config {
        port: 0,
        database: database.clone(),
        rate_per_sec: 0,
        lease: Some(LeaseConfig {
            node: "node-a".into(),
            ttl: Duration::from_millis(1500),
            advertise: None,
        }),
        ..Config::default()
    };
    let t = std::time::Instant::now();
    let err = match start(&config, qiyuan::games()).await {
        Ok(_) => panic!("a second node-a started beside a running one"),
        Err(e) => e.to_string(),
    };
    assert!(
        err.contains("node id 'node-a' is in use by a running node"),
        "{err}"
    );
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    // Another id starts beside it.
    let (b, _) = node(&database, "local", "node-b", Duration::from_millis(1500)).await;
    b.shutdown().await;

    a.0.kill().expect("kill -9");
    let _ = a.0.wait();
    let r = start(&config, qiyuan::games())
        .await
        .expect("node-a again, the old one dead");
    r.shutdown().await;
    let t = std::time::Instant::now();
    let r = start(&config, qiyuan::games())
        .await
        .expect("node-a after a clean stop");
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    r.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_id_in_use_by_a_running_node_is_refused() {
    one_process_per_node_id(sqlite("same-id")).await;
    if let Some(db) = fresh_postgres("sameid").await {
        one_process_per_node_id(db).await;
    }
}
