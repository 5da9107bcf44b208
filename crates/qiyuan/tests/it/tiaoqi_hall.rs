//! Tiaoqi in the hall: a six-seat room with five AI seats and one person
//! who plays over WebSocket (the move that gains the most rows, as a
//! scripted player), with a restart in the middle, played to its end; the
//! placings are stored.

use std::time::Duration;

use crate::common::{self, get, post, register, server_at, temp_db};
use futures_util::SinkExt;
use qiyuan_hall::client::GameSocket;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

/// Rows to go for seat `a` (south camp, heading north) of a cell `ROW.COL`.
fn rows_to_go_a(cell: &str) -> i64 {
    17 - cell
        .split('.')
        .next()
        .and_then(|r| r.parse::<i64>().ok())
        .unwrap_or(0)
}

/// The scripted person's choice: the legal move whose end is furthest north
/// relative to its start (ties: the first).
fn pick(legal: &[Value]) -> String {
    legal
        .iter()
        .filter_map(Value::as_str)
        .max_by_key(|m| {
            let cells: Vec<&str> = m.split('-').collect();
            match (cells.first(), cells.last()) {
                (Some(a), Some(b)) if cells.len() > 1 => rows_to_go_a(a) - rows_to_go_a(b),
                _ => -100,
            }
        })
        .unwrap_or("pass")
        .to_string()
}

/// Plays seat a's turns over a socket until the game is over or `plies`
/// of its own moves are made; the last state seen.
async fn play(ws: &mut GameSocket, plies: usize) -> Value {
    let mut mine = 0;
    // The frame rate limit (10/s) is the socket's, not the game's.
    let mut pace = common::Pace::default();
    loop {
        let s = tokio::time::timeout(Duration::from_secs(20), ws.next_state())
            .await
            .expect("a frame in time")
            .expect("socket open");
        if s["status"] == "finished" || mine >= plies {
            return s;
        }
        if s["to_move"] == 0 && s["legal"].as_array().is_some_and(|l| !l.is_empty()) {
            let mv = pick(s["legal"].as_array().expect("legal"));
            pace.wait().await;
            ws.send(Message::Text(
                json!({"t": "move", "move": mv}).to_string().into(),
            ))
            .await
            .expect("send");
            mine += 1;
        }
    }
}

#[tokio::test]
async fn a_six_seat_game_with_five_ai_seats_survives_a_restart_and_ends() {
    let db = temp_db("tiaoqi-hall");
    let (srv, addr) = server_at(&db).await;
    let tok = register(&addr, "hopper").await;
    let (st, g) = post(
        &addr,
        "/api/games",
        &tok,
        json!({"game": "tiaoqi-6", "opponent": "ai:2", "rated": true}),
    )
    .await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    let path = format!("/api/games/{id}/ws");
    let mut ws = GameSocket::connect(&addr, &path, Some(&tok))
        .await
        .expect("ws");
    let s = play(&mut ws, 8).await;
    assert_eq!(s["seats"].as_array().map(Vec::len), Some(6), "{s}");
    let plies_before = s["plies"].as_u64().expect("plies");
    assert!(
        plies_before >= 40,
        "five AI seats moved between my moves: {s}"
    );
    drop(ws);
    srv.shutdown().await;

    // The game resumes from storage where it was.
    let (srv, addr) = server_at(&db).await;
    let mut ws = GameSocket::connect(&addr, &path, Some(&tok))
        .await
        .expect("ws");
    let s = play(&mut ws, 2000).await;
    assert!(s["plies"].as_u64().expect("plies") > plies_before, "{s}");
    assert_eq!(s["status"], "finished", "{s}");
    let placings = s["placings"].as_array().expect("placings");
    let ranked: usize = placings
        .iter()
        .map(|g| g.as_array().map_or(0, Vec::len))
        .sum();
    assert_eq!(ranked, 6, "{s}");
    assert!(["a", "b", "c", "d", "e", "f", "draw"].contains(&s["result"].as_str().unwrap_or("")));
    // H1: rated on the multi-player (Weng-Lin) scale, not the two-player Elo.
    let mut board = Value::Null;
    for _ in 0..100 {
        board = get(&addr, "/api/leaderboard/tiaoqi-multi").await.1;
        if board["rows"].as_array().is_some_and(|r| !r.is_empty()) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(board["rows"][0]["username"], "hopper", "{board}");
    let mine = placings
        .iter()
        .position(|g| g.as_array().is_some_and(|g| g.contains(&json!(0))))
        .expect("seat a placed");
    let value = board["rows"][0]["rating"].as_f64().expect("rating");
    // Five AI seats of one level: first place gains, last loses.
    if mine == 0 {
        assert!(value > 1000.0, "{board}");
    } else if mine == placings.len() - 1 {
        assert!(value < 1000.0, "{board}");
    }
    let (_, elo) = get(&addr, "/api/leaderboard/tiaoqi").await;
    assert_eq!(elo["rows"], json!([]), "{elo}");
    srv.shutdown().await;
}

/// Waits for a state frame that satisfies `done`.
async fn until(ws: &mut GameSocket, done: impl Fn(&Value) -> bool) -> Value {
    loop {
        let s = tokio::time::timeout(Duration::from_secs(30), ws.next_state())
            .await
            .expect("a frame in time")
            .expect("socket open");
        if done(&s) {
            return s;
        }
    }
}

#[tokio::test]
async fn t14_a_person_who_resigns_a_three_seat_game_is_out_and_the_ai_seats_play_on() {
    let db = temp_db("tiaoqi-resign");
    let (srv, addr) = server_at(&db).await;
    let tok = register(&addr, "quitter").await;
    let (st, g) = post(
        &addr,
        "/api/games",
        &tok,
        json!({"game": "tiaoqi-3", "opponent": "ai:1", "rated": true}),
    )
    .await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    let path = format!("/api/games/{id}/ws");
    let mut ws = GameSocket::connect(&addr, &path, Some(&tok))
        .await
        .expect("ws");
    let s = play(&mut ws, 2).await;
    let progress = &s["progress"]["seats"];
    assert_eq!(progress.as_array().map(Vec::len), Some(3), "{s}");
    assert!(progress[0]["to_go"].as_u64().is_some_and(|d| d > 0), "{s}");
    assert_eq!(progress[0]["out"], false, "{s}");
    let (st, r) = post(&addr, &format!("/api/games/{id}/resign"), &tok, json!({})).await;
    assert_eq!(st, 200, "{r}");
    assert_eq!(r["status"], "playing", "two seats play on: {r}");
    assert_eq!(r["progress"]["seats"][0]["out"], true, "{r}");
    assert!(
        !r["fen"]
            .as_str()
            .unwrap_or("")
            .split(' ')
            .next()
            .unwrap_or("")
            .contains('a')
    );
    assert_eq!(
        r["moves"].as_array().and_then(|m| m.last()),
        Some(&json!("resign"))
    );
    // Resigning again changes nothing.
    let (st, again) = post(&addr, &format!("/api/games/{id}/resign"), &tok, json!({})).await;
    assert_eq!(st, 409, "{again}");
    drop(ws);
    srv.shutdown().await;

    // The resignation is replayed from storage; the AI seats finish the game.
    let (srv, addr) = server_at(&db).await;
    let mut ws = GameSocket::connect(&addr, &path, Some(&tok))
        .await
        .expect("ws");
    let s = until(&mut ws, |s| s["status"] == "finished").await;
    assert_eq!(s["seats"].as_array().map(Vec::len), Some(3), "{s}");
    assert!(
        s["moves"]
            .as_array()
            .is_some_and(|m| m.contains(&json!("resign"))),
        "{s}"
    );
    let placings = s["placings"].as_array().expect("placings");
    assert_eq!(
        placings.last(),
        Some(&json!([0])),
        "the leaver ranks last: {s}"
    );
    assert_ne!(s["result"], "a", "{s}");
    // The AI levels' fixed ratings hold on the multi-player scale too.
    let (_, r) = get(&addr, "/api/ratings?game=tiaoqi-multi&players=ai:5").await;
    assert_eq!(r["ai:5"]["rating"], 1600, "{r}");
    srv.shutdown().await;
}
