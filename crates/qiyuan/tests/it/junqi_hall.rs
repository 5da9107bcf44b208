//! Junqi in the hall, the server as referee (Q4, Q9): a person (red) and an
//! AI seat (blue) send their set-ups in the simultaneous set-up phase, play
//! to the end over WebSocket with a restart during the set-up phase and
//! another in the middle of play; no frame the
//! person receives ever names a blue rank (only `x`, or the flag once a
//! fallen commander shows it), and once the game is over both set-ups and
//! every rank are published.

use std::time::Duration;

use crate::common::{self, post, register, server_at, temp_db};
use futures_util::SinkExt;
use qiyuan_hall::client::GameSocket;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

/// Red's standard set-up (Q13 text, back rank first).
const RED_SETUP: &str = "CFMMDGMZLJS.P.TPZ.GYL.D.TYGCPC";

/// The blue ranks a frame's position texts show: every lower-case letter
/// in a `fen` or `start_fen` field but `x`.
fn blue_ranks(v: &Value) -> Vec<char> {
    let mut out = Vec::new();
    let mut walk = vec![v];
    while let Some(v) = walk.pop() {
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    if k == "fen" || k == "start_fen" {
                        let board = x.as_str().unwrap_or("").split(' ').next().unwrap_or("");
                        out.extend(
                            board
                                .chars()
                                .filter(|c| c.is_ascii_lowercase() && *c != 'x'),
                        );
                    } else {
                        walk.push(x);
                    }
                }
            }
            Value::Array(a) => walk.extend(a),
            _ => {}
        }
    }
    out
}

/// Reads frames until `done`, checking each for leaks; the game then.
async fn until(
    ws: &mut GameSocket,
    seen: &mut Vec<String>,
    done: impl Fn(&Value) -> bool,
) -> Value {
    // Pings keep coming: a game that stops changing must still fail.
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        assert!(
            std::time::Instant::now() < deadline,
            "no wanted state within 60 s: {}",
            ws.game.state()
        );
        let frame = tokio::time::timeout(Duration::from_secs(30), ws.next_frame())
            .await
            .expect("a frame in time")
            .expect("socket open");
        seen.push(frame.to_string());
        assert_ne!(frame["t"], "error", "{frame}");
        // Everything is published once the game is over.
        if frame["status"] != "finished" {
            let shown = blue_ranks(&frame);
            assert!(
                shown.iter().all(|&c| c == 'f'),
                "a blue rank leaked: {shown:?} in {frame}"
            );
        }
        if matches!(frame["t"].as_str(), Some("state" | "diff")) {
            let s = ws.game.state().clone();
            if done(&s) {
                return s;
            }
        }
    }
}

async fn send(ws: &mut GameSocket, mv: &str) {
    ws.send(Message::Text(
        json!({"t": "move", "move": mv}).to_string().into(),
    ))
    .await
    .expect("send");
}

/// Plays the first legal move for the person (seat 0) and waits for the
/// AI's reply, `turns` times or until the game is over, checking every
/// frame for leaks; the state then.
async fn play_first_legal(
    ws: &mut GameSocket,
    seen: &mut Vec<String>,
    mut s: Value,
    turns: usize,
) -> Value {
    // The socket's frame rate limit (10/s) is not the game's.
    let mut pace = common::Pace::default();
    for _ in 0..turns {
        if s["status"] == "finished" {
            break;
        }
        let plies = s["plies"].as_u64().unwrap_or(0);
        let m = s["legal"]
            .as_array()
            .and_then(|l| l.first())
            .and_then(Value::as_str)
            .expect("a move")
            .to_string();
        pace.wait().await;
        send(ws, &m).await;
        s = until(ws, seen, |s| {
            s["status"] == "finished"
                || (s["plies"].as_u64().unwrap_or(0) >= plies + 2 && s["to_move"] == 0)
        })
        .await;
    }
    s
}

/// The set-up record of `seat` (the first two records, in the order sent).
fn setup_of(s: &Value, seat: &str) -> String {
    s["records"]
        .as_array()
        .and_then(|r| r.iter().take(2).find(|r| r["seat"] == seat))
        .and_then(|r| r["iccs"].as_str())
        .unwrap_or("")
        .to_string()
}

fn move_number(s: &Value) -> u64 {
    s["fen"]
        .as_str()
        .and_then(|f| f.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

#[tokio::test]
async fn a_hidden_game_against_the_ai_with_a_restart_never_shows_a_blue_rank() {
    let db = temp_db("junqi-hall");
    let (mut srv, mut addr) = server_at(&db).await;
    let tok = register(&addr, "referee").await;
    let (st, g) = post(
        &addr,
        "/api/games",
        &tok,
        json!({"game": "junqi", "opponent": "ai:4", "seat": "red"}),
    )
    .await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    let path = format!("/api/games/{id}/ws");
    let mut seen = Vec::new();
    let mut ws = GameSocket::connect(&addr, &path, Some(&tok))
        .await
        .expect("ws");
    let s = until(&mut ws, &mut seen, |s| s["status"] == "playing").await;
    assert_eq!(s["seat"], 0, "{s}");
    // The set-up phase: the move number is 0 and the legal "move" is a
    // drawn set-up; an illegal set-up is refused with every reason.
    if move_number(&s) == 0 {
        assert_eq!(s["legal"], json!(["random", "planned"]), "{s}");
        let (st, e) = post(
            &addr,
            &format!("/api/games/{id}/moves"),
            &tok,
            json!({"move": "CMFMDGMZLJSMP.TPZ.GYL.DGTYZCP."}),
        )
        .await;
        assert_eq!(st, 400, "{e}");
        assert!(
            e["error"]
                .as_str()
                .unwrap_or("")
                .contains("not in a headquarters"),
            "{e}"
        );
        // A restart during the set-up phase: the AI's set-up is kept (unseen),
        // red's is still to come.
        if setup_of(ws.game.state(), "blue") != "setup" {
            let _ = until(&mut ws, &mut seen, |s| setup_of(s, "blue") == "setup").await;
        }
        drop(ws);
        srv.shutdown().await;
        (srv, addr) = server_at(&db).await;
        ws = GameSocket::connect(&addr, &path, Some(&tok))
            .await
            .expect("ws");
        let s = until(&mut ws, &mut seen, |_| true).await;
        assert_eq!(
            move_number(&s),
            0,
            "still setting up after the restart: {s}"
        );
        assert_eq!(setup_of(&s, "blue"), "setup", "{s}");
        assert_eq!(s["legal"], json!(["random", "planned"]), "{s}");
        send(&mut ws, RED_SETUP).await;
    }
    let s = until(&mut ws, &mut seen, |s| move_number(s) >= 1).await;
    let board = s["fen"]
        .as_str()
        .unwrap_or("")
        .split(' ')
        .next()
        .unwrap_or("")
        .to_string();
    assert_eq!(board.matches('x').count(), 25, "blue's army, unseen: {s}");
    assert!(board.ends_with("CFMMD"), "red's own set-up: {s}");
    assert_eq!(setup_of(&s, "red"), RED_SETUP, "{s}");
    assert_eq!(
        setup_of(&s, "blue"),
        "setup",
        "blue's set-up is not shown: {s}"
    );
    // Play a few moves, then restart the hall.
    play_first_legal(&mut ws, &mut seen, s, 4).await;
    let before = ws.game.state()["fen"].clone();
    drop(ws);
    srv.shutdown().await;

    let (srv, addr) = server_at(&db).await;
    let mut ws = GameSocket::connect(&addr, &path, Some(&tok))
        .await
        .expect("ws");
    let s = until(&mut ws, &mut seen, |_| true).await;
    assert_eq!(s["fen"], before, "the game resumes where it was");
    // Play to the end: the first legal move each turn.
    let s = play_first_legal(&mut ws, &mut seen, s, 400).await;
    assert_eq!(s["status"], "finished", "{s}");
    // Everything is published: blue's set-up in the record, every rank.
    let blue_setup = setup_of(&s, "blue");
    assert_eq!(blue_setup.len(), 30, "{s}");
    assert!(!s["fen"].as_str().unwrap_or("").contains('x'), "{s}");
    // No frame before the end carried blue's set-up.
    let last = seen.len() - 1;
    assert!(
        seen[..last]
            .iter()
            .filter(|f| f.contains(&blue_setup))
            .count()
            <= 1,
        "blue's set-up was sent early"
    );
    srv.shutdown().await;
}

/// Issue 34: a hidden game from a set-up position (both armies given) sent
/// every rank in `start_fen` while `fen` was masked. Red plays the AI from
/// the standard position; no frame red receives names a blue rank.
#[tokio::test]
async fn a_hidden_game_from_a_set_up_position_never_shows_a_blue_rank() {
    let (srv, addr) = server_at(&temp_db("junqi-setup-leak")).await;
    let tok = register(&addr, "setupleak").await;
    let setup = qiyuan_junqi::Position::standard().to_string();
    let (st, g) = post(
        &addr,
        "/api/games",
        &tok,
        json!({"game": "junqi", "fen": setup, "opponent": "ai:2"}),
    )
    .await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    let mut ws = GameSocket::connect(&addr, &format!("/api/games/{id}/ws"), Some(&tok))
        .await
        .expect("ws");
    let mut seen = Vec::new();
    let s = until(&mut ws, &mut seen, |s| s["status"] == "playing").await;
    assert!(s["start_fen"].is_null(), "{s}");
    play_first_legal(&mut ws, &mut seen, s, 6).await;
    assert!(seen.len() > 6, "frames were checked: {}", seen.len());
    srv.shutdown().await;
}

/// Frames of `ws` until its state satisfies `done` (within 20 s).
async fn state_until(ws: &mut GameSocket, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        let s = ws.game.state().clone();
        if done(&s) {
            return s;
        }
        assert!(std::time::Instant::now() < deadline, "{s}");
        let _ = tokio::time::timeout(Duration::from_secs(5), ws.next_frame()).await;
    }
}

/// A person who never sends a set-up, against the AI, on a 1 s + 2 s clock:
/// the set-up is drawn when the second runs out, and the person still has
/// its increment to move with, in either seat (red moves first).
async fn a_given_set_up_keeps_the_move_time(addr: &str, tok: &str, seat: usize) {
    let name = ["red", "blue"][seat];
    let (st, g) = post(
        addr,
        "/api/games",
        tok,
        json!({"game": "junqi", "opponent": "ai:1", "seat": name,
               "clock": {"initial_s": 1, "increment_s": 2}}),
    )
    .await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    let mut ws = GameSocket::connect(addr, &format!("/api/games/{id}/ws"), Some(tok))
        .await
        .expect("ws");
    let s = state_until(&mut ws, |s| {
        s["status"] == "finished" || (move_number(s) >= 1 && s["to_move"] == seat)
    })
    .await;
    assert_eq!(
        s["status"], "playing",
        "{name} lost before its first move: {s}"
    );
    assert_eq!(
        setup_of(&s, name).len(),
        30,
        "{name}'s set-up was drawn: {s}"
    );
    let left = s["clocks"][seat].as_i64().unwrap_or(0);
    assert!(
        (1..=2_000).contains(&left),
        "{name} moves on its increment: {left} ms in {s}"
    );
    let plies = s["plies"].as_u64().unwrap_or(0);
    let m = s["legal"][0].as_str().expect("a legal move").to_string();
    send(&mut ws, &m).await;
    let s = state_until(&mut ws, |s| s["plies"].as_u64().unwrap_or(0) > plies).await;
    assert_eq!(s["moves"][plies as usize], json!(m), "{s}");
    assert_eq!(s["status"], "playing", "{s}");
}

#[tokio::test]
async fn a_seat_whose_set_up_time_runs_out_still_has_its_move_time_red_and_blue_alike() {
    let (srv, addr) = crate::common::server("junqi-setup-clock").await;
    let tok = register(&addr, "sleeper").await;
    a_given_set_up_keeps_the_move_time(&addr, &tok, 0).await;
    a_given_set_up_keeps_the_move_time(&addr, &tok, 1).await;
    srv.shutdown().await;
}

/// The board part of a frame's `fen`.
fn board(s: &Value) -> String {
    s["fen"]
        .as_str()
        .unwrap_or("")
        .split(' ')
        .next()
        .unwrap_or("")
        .to_string()
}

/// Issue 37: a game that ends by resignation (not by its own rules) still
/// publishes every rank, to the players and spectators alike, over the socket
/// and over HTTP; until then a spectator sees no rank at all.
#[tokio::test]
async fn a_resigned_game_reveals_every_rank_to_players_and_spectators() {
    let (srv, addr) = server_at(&temp_db("junqi-resign-reveal")).await;
    let tok = register(&addr, "resigner").await;
    let (st, g) = post(
        &addr,
        "/api/games",
        &tok,
        json!({"game": "junqi", "opponent": "ai:1"}),
    )
    .await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    let path = format!("/api/games/{id}/ws");
    let mut ws = GameSocket::connect(&addr, &path, Some(&tok))
        .await
        .expect("ws");
    let mut seen = Vec::new();
    until(&mut ws, &mut seen, |s| s["status"] == "playing").await;
    send(&mut ws, "random").await;
    let s = until(&mut ws, &mut seen, |s| {
        move_number(s) > 0 && s["to_move"] == 0 && s["status"] == "playing"
    })
    .await;
    let s = play_first_legal(&mut ws, &mut seen, s, 3).await;
    assert_eq!(s["status"], "playing", "{s}");
    // A spectator in play: blank discs only.
    let mut spec = GameSocket::connect(&addr, &path, None)
        .await
        .expect("spectator ws");
    let v = state_until(&mut spec, |s| s["fen"].is_string()).await;
    assert!(
        !board(&v)
            .chars()
            .any(|c| c.is_ascii_alphabetic() && c != 'x' && c != 'X'),
        "{v}"
    );
    let (st, r) = post(&addr, &format!("/api/games/{id}/resign"), &tok, json!({})).await;
    assert_eq!(st, 200, "{r}");
    assert_eq!(r["explanation"], "红方认输 / Red resigned", "{r}");
    for (who, sock) in [("player", &mut ws), ("spectator", &mut spec)] {
        let v = state_until(sock, |s| s["status"] == "finished").await;
        let b = board(&v);
        assert!(!b.contains(['x', 'X']), "{who}: {b}");
        assert!(b.chars().any(|c| c.is_ascii_lowercase()), "{who}: {b}");
        assert!(b.chars().any(|c| c.is_ascii_uppercase()), "{who}: {b}");
    }
    for t in [Some(tok.as_str()), None] {
        let r = qiyuan_hall::client::get(&addr, &format!("/api/games/{id}"), t)
            .await
            .expect("request");
        let v = r.json();
        assert_eq!(r.status, 200, "{v}");
        assert!(!board(&v).contains(['x', 'X']), "{t:?}: {v}");
        assert_eq!(setup_of(&v, "blue").len(), 30, "{v}");
    }
    srv.shutdown().await;
}
