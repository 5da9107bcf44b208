//! Integration tests over real HTTP and WebSocket where the real games'
//! rules matter (checkmate and its record, Jifen scores, the move limit,
//! repetition): each test starts the hall on an ephemeral port with its own
//! SQLite file. The game-agnostic API is tested in `qiyuan-hall`.

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use futures_util::SinkExt;
use qiyuan_hall::client::{self, GameSocket};
use qiyuan_hall::server::{Config, Running};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio_tungstenite::tungstenite::Message;

use crate::common;

use crate::common::{post, register};

static N: AtomicU32 = AtomicU32::new(0);

fn temp_db() -> String {
    common::temp_db_url("hall-test")
}

async fn server_on(db: &str, rate: u32) -> (Running, String) {
    common::start_with(Config {
        port: 0,
        database: db.to_string(),
        rate_per_sec: rate,
        ..Config::default()
    })
    .await
}

async fn server() -> (Running, String) {
    server_on(&temp_db(), 0).await
}

async fn get(addr: &str, path: &str, token: Option<&str>) -> (u16, Value) {
    let r = client::get(addr, path, token).await.expect("request");
    (r.status, r.json())
}

/// Two registered users and a game between them (red created it, black joined).
async fn two_player_game(addr: &str, body: Value) -> (String, String, String) {
    let red = register(addr, &format!("red{}", N.fetch_add(1, Ordering::Relaxed))).await;
    let black = register(addr, &format!("black{}", N.fetch_add(1, Ordering::Relaxed))).await;
    let (st, g) = post(addr, "/api/games", &red, body).await;
    assert_eq!(st, 201, "{g}");
    assert_eq!(g["seat"], 0);
    let id = g["id"].as_str().expect("id").to_string();
    let (st, j) = post(addr, &format!("/api/games/{id}/join"), &black, json!({})).await;
    assert_eq!(st, 200, "{j}");
    assert_eq!(j["seat"], 1);
    (id, red, black)
}

/// Reads frames until the game, as the client folds its frames, is one
/// for which `pred` holds.
async fn wait_state(ws: &mut GameSocket, pred: impl Fn(&Value) -> bool) -> Value {
    tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let v = ws.next_frame().await.expect("socket open");
            if matches!(v["t"].as_str(), Some("state" | "diff")) && pred(ws.game.state()) {
                return ws.game.state().clone();
            }
        }
    })
    .await
    .expect("state in time")
}

async fn send(ws: &mut GameSocket, v: Value) {
    ws.send(Message::Text(v.to_string().into()))
        .await
        .expect("send");
}

#[tokio::test]
async fn two_users_play_to_checkmate_over_websocket() {
    let (srv, addr) = server().await;
    let (id, red, black) = two_player_game(
        &addr,
        json!({"game": "xiangqi", "fen": "3k5/9/9/9/9/9/9/9/R8/1R2K4 w - - 0 1",
               "clock": {"initial_s": 300, "increment_s": 2}, "opponent": "open", "rated": false}),
    )
    .await;
    // A spectator follows the NDJSON stream.
    let mut stream = tokio::net::TcpStream::connect(&addr)
        .await
        .expect("connect");
    stream
        .write_all(format!("GET /api/games/{id}/stream HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes())
        .await
        .expect("write");
    let mut lines = BufReader::new(stream).lines();

    let path = format!("/api/games/{id}/ws");
    let mut r = GameSocket::connect(&addr, &path, Some(&red))
        .await
        .expect("red ws");
    let mut b = GameSocket::connect(&addr, &path, Some(&black))
        .await
        .expect("black ws");
    let s = wait_state(&mut r, |_| true).await;
    assert_eq!(s["status"], "playing");
    assert_eq!(s["seat"], 0);
    assert!(
        s["legal"]
            .as_array()
            .expect("legal")
            .iter()
            .any(|m| m == "a1a9")
    );
    wait_state(&mut b, |_| true).await;
    let moves = ["a1a9", "d9d8", "b0b8", "d8d7", "a9a7"];
    for (i, mv) in moves.iter().enumerate() {
        let ws = if i % 2 == 0 { &mut r } else { &mut b };
        send(ws, json!({"t": "move", "move": mv})).await;
        let n = i + 1;
        let s = wait_state(ws, |s| s["moves"].as_array().map(Vec::len) == Some(n)).await;
        assert_eq!(s["moves"][i], *mv);
    }
    let s = wait_state(&mut b, |s| s["status"] == "finished").await;
    assert_eq!(s["result"], "red");
    assert_eq!(s["reason"], "checkmate");
    // The HTTP view agrees, and the increment was added per turn.
    let (st, g) = get(&addr, &format!("/api/games/{id}"), None).await;
    assert_eq!(st, 200);
    assert_eq!(g["status"], "finished");
    assert_eq!(g["moves"].as_array().map(Vec::len), Some(5));
    let clocks = g["clocks"].as_array().expect("clocks");
    assert!(clocks[0].as_i64().expect("ms") > 300_000, "{g}");
    // The stream saw the same end.
    let mut last = Value::Null;
    while let Ok(Ok(Some(line))) =
        tokio::time::timeout(Duration::from_secs(5), lines.next_line()).await
    {
        if let Ok(v) = serde_json::from_str::<Value>(line.trim())
            && v["status"] == "finished"
        {
            last = v;
            break;
        }
    }
    assert_eq!(last["reason"], "checkmate");
    // PGN download.
    let p = client::get(&addr, &format!("/api/games/{id}/pgn"), None)
        .await
        .expect("pgn");
    assert_eq!(p.status, 200);
    assert!(p.body.contains("[Result \"1-0\"]"), "{}", p.body);
    assert!(p.body.contains("A9-A7"), "{}", p.body);
    // Moving after the end: 409.
    let (st, e) = post(
        &addr,
        &format!("/api/games/{id}/moves"),
        &black,
        json!({"move": "d7d8"}),
    )
    .await;
    assert_eq!(st, 409, "{e}");
    srv.shutdown().await;
}

#[tokio::test]
async fn jifen_score_reaches_the_target() {
    let (srv, addr) = server().await;
    // Simple rules, target 3, red already has 2.
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 2 0 1 -";
    let (id, red, black) = two_player_game(
        &addr,
        json!({"game": "jifen-simple", "target": 3, "fen": fen, "clock": {"initial_s": 60, "increment_s": 0}, "opponent": "open", "rated": false}),
    )
    .await;
    let mv = |t: &str, m: &str| {
        let (addr, id, t, m) = (addr.clone(), id.clone(), t.to_string(), m.to_string());
        async move {
            post(
                &addr,
                &format!("/api/games/{id}/moves"),
                &t,
                json!({"move": m}),
            )
            .await
        }
    };
    // A Normal cannon moves and becomes Idle: no score.
    let (st, s) = mv(&red, "h2e2*").await;
    assert_eq!(st, 200, "{s}");
    assert_eq!(s["scores"], json!([2, 0]));
    assert_eq!(s["target"], 3);
    assert!(s["fen"].as_str().expect("fen").contains("C*"), "{s}");
    let (st, s) = mv(&black, "h9g7").await;
    assert_eq!(st, 200, "{s}");
    // The Idle cannon moves: +1 for red, 3 of 3: red wins on points.
    let (st, s) = mv(&red, "e2e1").await;
    assert_eq!(st, 200, "{s}");
    assert_eq!(s["scores"], json!([3, 0]));
    assert_eq!(s["status"], "finished");
    assert_eq!(s["result"], "red");
    assert_eq!(s["reason"], "points");
    assert_eq!(s["records"][2]["scores"], json!([3, 0]));
    srv.shutdown().await;
}

#[tokio::test]
async fn natural_move_limit_claim_is_granted() {
    let (srv, addr) = server().await;
    let (id, red, _black) = two_player_game(
        &addr,
        json!({"game": "xiangqi", "fen": "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 121 80", "clock": {"initial_s": 60, "increment_s": 0}}),
    )
    .await;
    let (st, s) = post(&addr, &format!("/api/games/{id}/claim"), &red, json!({})).await;
    assert_eq!(st, 200, "{s}");
    assert_eq!(s["result"], "draw");
    assert_eq!(s["reason"], "move-limit");
    srv.shutdown().await;
}

#[tokio::test]
async fn repetition_ruling_is_reported() {
    let (srv, addr) = server().await;
    let (id, red, black) = two_player_game(
        &addr,
        json!({"game": "xiangqi", "clock": {"initial_s": 60, "increment_s": 0}}),
    )
    .await;
    // Both sides shuffle a horse: the start position occurs a third time.
    let cycle = ["h0g2", "h9g7", "g2h0", "g7h9"];
    let mut last = Value::Null;
    'outer: for _ in 0..3 {
        for (i, m) in cycle.iter().enumerate() {
            let t = if i % 2 == 0 { &red } else { &black };
            let (st, s) = post(
                &addr,
                &format!("/api/games/{id}/moves"),
                t,
                json!({"move": m}),
            )
            .await;
            assert_eq!(st, 200, "{s}");
            last = s;
            if last["status"] == "finished" {
                break 'outer;
            }
        }
    }
    assert_eq!(last["status"], "finished", "{last}");
    assert_eq!(last["result"], "draw");
    assert_eq!(last["reason"], "repetition");
    assert!(!last["explanation"].as_str().unwrap_or_default().is_empty());
    srv.shutdown().await;
}
