//! Several nodes on one database (issue 17): leases with fencing tokens.
//! Runs on SQLite always (leases live in every store) and again on
//! PostgreSQL when `QIYUAN_TEST_POSTGRES` names a server
//! (`tests/cluster/run.sh` starts one). Nodes in this process serving the
//! fake game (`count`); moved from the binary's tests, where the runs with
//! a `qiyuan serve` process (killed, or without a node id) stay.

use std::time::Duration;

use futures_util::SinkExt;
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
        common::games(),
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

/// A node whose lease was taken over cannot commit (the token is checked in
/// the move's transaction), restarted it still cannot while the other
/// node's lease runs, and once that lease runs out it takes the game over
/// from the stored moves.
async fn stale_lease_is_refused(database: String) {
    let (a, addr) = node(&database, "local", "node-a", Duration::from_secs(60)).await;
    let red = register(&addr, "red").await;
    let black = register(&addr, "black").await;
    let (st, g) = post(&addr, "/api/games", &red, json!({"game": "count", "target": 100, "clock": {"initial_s": 300, "increment_s": 0}, "opponent": "open", "rated": false})).await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    let (st, j) = post(&addr, &format!("/api/games/{id}/join"), &black, json!({})).await;
    assert_eq!(st, 200, "{j}");
    let (st, m) = post(
        &addr,
        &format!("/api/games/{id}/moves"),
        &red,
        json!({"move": "+1"}),
    )
    .await;
    assert_eq!(st, 200, "{m}");

    // Node A stalls past its lease and node B takes the game over.
    let store = qiyuan_hall::store::open(&database).await.expect("store");
    store.acquire_lease(&id, "node-a", -1).await.expect("lapse");
    let b = store
        .acquire_lease(&id, "node-b", 60_000)
        .await
        .expect("take")
        .expect("granted");
    assert_eq!(b.token, 2);
    // A still thinks it holds token 1: its move reaches the store and is refused there.
    let (st, m) = post(
        &addr,
        &format!("/api/games/{id}/moves"),
        &black,
        json!({"move": "+2"}),
    )
    .await;
    assert_eq!(st, 503, "{m}");
    assert_eq!(stored_moves(&database, &id).await, 1);
    let metrics = client::get(&addr, "/metrics", None)
        .await
        .expect("metrics")
        .body;
    assert!(metrics.contains("qiyuan_stale_leases_total 1"), "{metrics}");
    a.shutdown().await;

    // Restarted, A cannot get the lease while B's runs.
    let (a, addr) = node(&database, "local", "node-a", Duration::from_millis(1500)).await;
    let (st, m) = post(
        &addr,
        &format!("/api/games/{id}/moves"),
        &black,
        json!({"move": "+2"}),
    )
    .await;
    assert_eq!(st, 503, "{m}");
    assert_eq!(stored_moves(&database, &id).await, 1);

    // B's lease runs out (B died): A takes the game over from the stored moves.
    store
        .acquire_lease(&id, "node-b", -1)
        .await
        .expect("lapse b");
    let mut played = None;
    for _ in 0..40 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let (st, m) = post(
            &addr,
            &format!("/api/games/{id}/moves"),
            &black,
            json!({"move": "+2"}),
        )
        .await;
        if st == 200 {
            played = Some(m);
            break;
        }
        assert_eq!(st, 503, "{m}");
    }
    let m = played.expect("A took the game over");
    assert_eq!(m["moves"], json!(["+1", "+2"]), "{m}");
    assert_eq!(stored_moves(&database, &id).await, 2);
    store.close().await;
    a.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_with_a_stale_lease_cannot_commit_on_sqlite() {
    stale_lease_is_refused(sqlite("lease")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_with_a_stale_lease_cannot_commit_on_postgres() {
    if let Some(db) = fresh_postgres("lease").await {
        stale_lease_is_refused(db).await;
    }
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

/// The moves of game `id` as `addr` serves them, once there are `n`.
async fn moves_seen(addr: &str, id: &str, token: &str, n: usize) -> Vec<String> {
    for _ in 0..100 {
        let r = client::get(addr, &format!("/api/games/{id}"), Some(token))
            .await
            .expect("state");
        let moves: Vec<String> =
            serde_json::from_value(r.json()["moves"].clone()).unwrap_or_default();
        if moves.len() >= n {
            return moves;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the move was never played");
}

/// Two people on two nodes play a game: the moves and the join reaching the
/// node without the lease are forwarded to the owner (black's over a socket
/// there), and that socket hears the owner's moves (over Redis when there is one);
/// then the owner dies and the other node takes the game over once its
/// lease runs out, with no acknowledged move lost and none twice.
async fn two_nodes_play(database: String, bus: String) {
    let ttl = Duration::from_millis(1500);
    let (a, addr_a) = node(&database, &bus, "node-a", ttl).await;
    let (b, addr_b) = node(&database, &bus, "node-b", ttl).await;
    let red = register(&addr_a, "red").await;
    let black = register(&addr_b, "black").await;
    let (st, g) = post(&addr_a, "/api/games", &red, json!({"game": "count", "target": 100, "clock": {"initial_s": 300, "increment_s": 0}, "opponent": "open", "rated": false})).await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    let (st, j) = post(&addr_b, &format!("/api/games/{id}/join"), &black, json!({})).await;
    assert_eq!(st, 200, "{j}");
    // Black plays over a socket on node B: its moves are forwarded to A,
    // and (over Redis) the socket hears what node A commits.
    let path = format!("/api/games/{id}/ws");
    let mut ws = client::GameSocket::connect(&addr_b, &path, Some(&black))
        .await
        .expect("socket on node b");
    // Up to 100 (the room's target), so that nobody wins on the way.
    let line = ["+1", "+2", "+2", "+1", "+1", "+2", "+2"];
    let mut acked = Vec::new();
    for (i, mv) in line.iter().take(4).enumerate() {
        if i % 2 == 0 {
            // Red plays on node A, the owner.
            acked = play(&addr_a, &id, &red, mv).await;
        } else {
            let frame = json!({"t": "move", "move": mv}).to_string();
            ws.send(tokio_tungstenite::tungstenite::Message::Text(frame.into()))
                .await
                .expect("sent");
            acked = moves_seen(&addr_b, &id, &black, i + 1).await;
        }
        assert_eq!(acked, line[..=i]);
    }
    if bus != "local" {
        let seen = tokio::time::timeout(Duration::from_secs(10), async {
            loop {
                let s = ws.next_state().await.expect("a frame");
                if s["moves"].as_array().is_some_and(|m| m.len() == 4) {
                    return s;
                }
            }
        })
        .await
        .expect("the socket on node b heard node a's moves");
        assert_eq!(seen["moves"], json!(line[..4]));
    }

    // Black's other actions over that socket go to node A too: a draw
    // offer lands in the owner's state; one the game refuses comes back as
    // the owner's error, with its code.
    let frame = json!({"t": "draw", "action": "offer"}).to_string();
    ws.send(tokio_tungstenite::tungstenite::Message::Text(frame.into()))
        .await
        .expect("sent");
    let offered = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let r = client::get(&addr_a, &format!("/api/games/{id}"), Some(&red))
                .await
                .expect("state");
            if r.json()["draw_offer"] == json!(1) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
    assert!(offered.is_ok(), "the socket's draw offer reached the owner");
    let (st, r) = post(
        &addr_a,
        &format!("/api/games/{id}/draw"),
        &red,
        json!({"action": "decline"}),
    )
    .await;
    assert_eq!(st, 200, "{r}");
    let frame = json!({"t": "claim"}).to_string();
    ws.send(tokio_tungstenite::tungstenite::Message::Text(frame.into()))
        .await
        .expect("sent");
    let refused = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let f = ws.next_frame().await.expect("a frame");
            if f["t"] == "error" {
                return f;
            }
        }
    })
    .await
    .expect("an answer to the claim");
    assert_eq!(refused["code"], "claim_refused", "{refused}");

    // The owner dies (its lease is never released): node B takes over.
    a.shutdown().await;
    for (i, mv) in line.iter().enumerate().skip(4) {
        let token = if i % 2 == 0 { &red } else { &black };
        acked = play(&addr_b, &id, token, mv).await;
        assert_eq!(acked.len(), i + 1, "{acked:?}");
    }
    assert_eq!(acked, line);
    let store = qiyuan_hall::store::open(&database).await.expect("store");
    let (_, moves) = store.load_game(&id).await.expect("load").expect("game");
    let stored: Vec<String> = moves.iter().map(|m| m.mv.clone()).collect();
    assert_eq!(stored, acked, "every acknowledged move stored once");
    let (st, r) = post(
        &addr_b,
        &format!("/api/games/{id}/resign"),
        &black,
        json!({}),
    )
    .await;
    assert_eq!(st, 200, "{r}");
    let (after, _) = store.load_game(&id).await.expect("load").expect("game");
    assert_eq!(after.status, "finished");
    store.close().await;
    b.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_nodes_play_a_game_on_sqlite() {
    two_nodes_play(sqlite("two"), "local".into()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_nodes_play_a_game_on_postgres_and_redis() {
    let Ok(redis) = std::env::var("QIYUAN_TEST_REDIS") else {
        eprintln!(
            "note: QIYUAN_TEST_REDIS is not set; the two-node run on PostgreSQL and Redis is skipped"
        );
        return;
    };
    if let Some(db) = fresh_postgres("two").await {
        two_nodes_play(db, redis).await;
    }
}

/// A node with fast pool waves.
async fn pool_node(database: &str, bus: &str, id: &str) -> (Running, String) {
    let r = start(
        &Config {
            port: 0,
            database: database.into(),
            bus: bus.into(),
            rate_per_sec: 0,
            limits: qiyuan_hall::limits::Limits {
                pool_wave: Duration::from_millis(100),
                ..Default::default()
            },
            lease: Some(LeaseConfig {
                node: id.into(),
                ttl: Duration::from_secs(2),
                advertise: None,
            }),
            ..Config::default()
        },
        common::games(),
    )
    .await
    .expect("node starts");
    let addr = r.addr.to_string();
    (r, addr)
}

/// Issue 36: players connected to two nodes join the same pool on their
/// own node and are paired together by the node that pairs; with a shared
/// bus, both lobbies hear `gameStart`.
async fn one_pool_across_nodes(database: String, bus: String) {
    let (a, addr_a) = pool_node(&database, &bus, "pool-a").await;
    let (b, addr_b) = pool_node(&database, &bus, "pool-b").await;
    let ann = register(&addr_a, "ann").await;
    let bob = register(&addr_b, "bob").await;
    let mut lobby_a = client::connect_ws(&addr_a, "/api/lobby/ws", Some(&ann))
        .await
        .expect("lobby a");
    let mut lobby_b = client::connect_ws(&addr_b, "/api/lobby/ws", Some(&bob))
        .await
        .expect("lobby b");
    for (addr, t) in [(&addr_a, &ann), (&addr_b, &bob)] {
        let (st, v) = post(addr, "/api/pools/count-10+0/join", t, json!({})).await;
        assert_eq!(st, 200, "{v}");
    }
    // One game with both of them, whichever node paired them.
    let game = common::eventually("ann and bob are paired", || async {
        let r = client::get(&addr_a, "/api/my/games", Some(&ann))
            .await
            .ok()?;
        let mine = r.json();
        mine["games"]
            .as_array()?
            .iter()
            .find(|g| g["status"] == "playing")
            .cloned()
    })
    .await;
    let names: Vec<&str> = game["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .filter_map(|s| s["name"].as_str())
        .collect();
    assert!(names.contains(&"ann") && names.contains(&"bob"), "{game}");
    // Nobody waits any more, on either node.
    for addr in [&addr_a, &addr_b] {
        common::eventually("the pool is empty", || async {
            let r = client::get(addr, "/api/pools", None).await.ok()?;
            let p = r.json()["pools"]
                .as_array()?
                .iter()
                .find(|p| p["id"] == "count-10+0")?
                .clone();
            (p["waiting"] == 0).then_some(())
        })
        .await;
    }
    if bus != "local" {
        // The shared bus carries each player's gameStart to their node.
        for lobby in [&mut lobby_a, &mut lobby_b] {
            let started = tokio::time::timeout(Duration::from_secs(10), async {
                use futures_util::StreamExt;
                while let Some(Ok(m)) = lobby.next().await {
                    if let Ok(v) = serde_json::from_str::<Value>(m.to_text().unwrap_or(""))
                        && v["type"] == "gameStart"
                    {
                        return v;
                    }
                }
                Value::Null
            })
            .await
            .expect("gameStart in time");
            assert_eq!(started["game"]["id"], game["id"], "{started}");
        }
    }
    let _ = lobby_a.close(None).await;
    let _ = lobby_b.close(None).await;
    a.shutdown().await;
    b.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pool_is_one_pool_across_nodes_on_sqlite() {
    one_pool_across_nodes(sqlite("pools"), "local".into()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pool_is_one_pool_across_nodes_on_postgres_and_redis() {
    let Ok(redis) = std::env::var("QIYUAN_TEST_REDIS") else {
        eprintln!(
            "note: QIYUAN_TEST_REDIS is not set; the pools run on PostgreSQL and Redis is skipped"
        );
        return;
    };
    if let Some(db) = fresh_postgres("pools").await {
        one_pool_across_nodes(db, redis).await;
    }
}
