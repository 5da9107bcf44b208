//! The numbered event log over real sockets: a move costs a watching socket
//! a diff whose size does not grow with the game, the client's folded copy
//! is the game the server has, a reconnect with `?since=` gets only what it
//! missed (or the full state once the log no longer holds it), and frames
//! are addressed: only a seat's own frames carry its legal moves. Against
//! the fake game (`count`); moved from the binary's tests.

use std::time::Duration;

use crate::common::{get, post, register, server};
use qiyuan_hall::client::{self, GameSocket};
use qiyuan_hall::game_log::KEEP_VERSIONS;
use serde_json::{Value, json};

/// A game of count to 100 (long enough for these tests) between two new
/// users, both seated.
async fn two_player_game(addr: &str, tag: &str) -> (String, [String; 2]) {
    let red = register(addr, &format!("red{tag}")).await;
    let black = register(addr, &format!("black{tag}")).await;
    let (st, g) = post(
        addr,
        "/api/games",
        &red,
        json!({"game": "count", "target": 100, "clock": {"initial_s": 600, "increment_s": 0}, "opponent": "open"}),
    )
    .await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    let (st, j) = post(addr, &format!("/api/games/{id}/join"), &black, json!({})).await;
    assert_eq!(st, 200, "{j}");
    (id, [red, black])
}

/// The game as `token`'s seat sees it over HTTP.
async fn seen_by(addr: &str, id: &str, token: &str) -> Value {
    let r = client::get(addr, &format!("/api/games/{id}"), Some(token))
        .await
        .expect("request");
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

/// Plays `n` plies over HTTP, each seat its `k`-th legal move in turn.
async fn play(addr: &str, id: &str, toks: &[String; 2], n: usize) {
    for _ in 0..n {
        let s = seen_by(addr, id, &toks[0]).await;
        assert_eq!(s["status"], "playing", "{s}");
        let seat = s["to_move"].as_u64().expect("to move") as usize;
        let mine = seen_by(addr, id, &toks[seat]).await;
        let legal = mine["legal"].as_array().expect("legal");
        let ply = mine["moves"].as_array().map_or(0, Vec::len);
        let mv = legal[(ply * 7 + 3) % legal.len()].clone();
        let (st, r) = post(
            addr,
            &format!("/api/games/{id}/moves"),
            &toks[seat],
            json!({"move": mv}),
        )
        .await;
        assert_eq!(st, 200, "{r}");
    }
}

/// Reads game frames until the socket's copy is at `version`; the sizes of
/// the frames read.
async fn read_to(ws: &mut GameSocket, version: u64) -> Vec<(String, usize)> {
    let mut frames = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), async {
        while ws.game.state()["version"].as_u64() != Some(version) {
            let v = ws.next_frame().await.expect("socket open");
            if let Some(t) = v["t"].as_str().filter(|t| *t == "state" || *t == "diff") {
                frames.push((t.to_string(), v.to_string().len()));
            }
        }
    })
    .await
    .expect("frames in time");
    frames
}

/// The moves of a state.
fn moves(s: &Value) -> &Value {
    &s["moves"]
}

#[tokio::test]
async fn a_move_costs_a_watcher_the_same_small_diff_at_ply_5_and_ply_60() {
    let (srv, addr) = server("events-bytes").await;
    let (id, toks) = two_player_game(&addr, "b").await;
    let path = format!("/api/games/{id}/ws");
    let mut watcher = GameSocket::connect(&addr, &path, None).await.expect("ws");
    let first = watcher.next_state().await.expect("state");
    let mut sizes = Vec::new();
    let mut version = first["version"].as_u64().expect("version");
    for _ in 0..60 {
        play(&addr, &id, &toks, 1).await;
        version += 1;
        let frames = read_to(&mut watcher, version).await;
        assert_eq!(frames.len(), 1, "one frame per move: {frames:?}");
        assert_eq!(frames[0].0, "diff");
        sizes.push(frames[0].1);
    }
    let early = sizes[..10].iter().max().copied().unwrap_or(0);
    let late = sizes[50..].iter().max().copied().unwrap_or(0);
    // A full state at ply 60 carries 60 records with their moves and
    // positions; a diff carries one.
    assert!(late <= early + 64, "diff sizes grew: {sizes:?}");
    let full = seen_by(&addr, &id, &toks[0]).await.to_string().len();
    assert!(full > 4 * late, "full {full} vs diff {late}");
    // The folded copy is the game the server has.
    let (_, spectator_view) = get(&addr, &format!("/api/games/{id}")).await;
    assert_eq!(moves(watcher.game.state()), moves(&spectator_view));
    assert_eq!(
        watcher.game.state()["records"],
        spectator_view["records"],
        "records fold to the same list"
    );
    assert_eq!(watcher.game.state()["fen"], spectator_view["fen"]);
    srv.shutdown().await;
}

#[tokio::test]
async fn a_reconnect_gets_only_what_it_missed_and_frames_are_addressed() {
    let (srv, addr) = server("events-since").await;
    let (id, toks) = two_player_game(&addr, "s").await;
    let path = format!("/api/games/{id}/ws");
    let mut red = GameSocket::connect(&addr, &path, Some(&toks[0]))
        .await
        .expect("ws");
    let mut spectator = GameSocket::connect(&addr, &path, None).await.expect("ws");
    red.next_state().await.expect("state");
    spectator.next_state().await.expect("state");
    play(&addr, &id, &toks, 3).await;
    let v3 = seen_by(&addr, &id, &toks[0]).await["version"]
        .as_u64()
        .expect("version");
    read_to(&mut red, v3).await;
    read_to(&mut spectator, v3).await;
    let red_copy = red.game.clone();
    let spectator_copy = spectator.game.clone();
    drop(red);
    drop(spectator);

    // Four moves while away; then back with the last version seen.
    play(&addr, &id, &toks, 4).await;
    let now = seen_by(&addr, &id, &toks[0]).await;
    let v7 = now["version"].as_u64().expect("version");
    assert_eq!(v7, v3 + 4);
    let mut red = GameSocket::connect(&addr, &format!("{path}?since={v3}"), Some(&toks[0]))
        .await
        .expect("ws");
    red.game = red_copy;
    let frames = read_to(&mut red, v7).await;
    assert_eq!(frames.len(), 4, "{frames:?}");
    assert!(frames.iter().all(|(t, _)| t == "diff"), "{frames:?}");
    assert_eq!(moves(red.game.state()), moves(&now));
    // The seat's own frames carry its legal moves when it is to move.
    assert_eq!(red.game.state()["seat"], 0);
    if now["to_move"] == 0 {
        assert_eq!(red.game.state()["legal"], now["legal"]);
    }
    let mut spectator = GameSocket::connect(&addr, &format!("{path}?since={v3}"), None)
        .await
        .expect("ws");
    spectator.game = spectator_copy;
    let frames = read_to(&mut spectator, v7).await;
    assert_eq!(frames.len(), 4, "{frames:?}");
    assert_eq!(moves(spectator.game.state()), moves(&now));
    assert!(spectator.game.state().get("legal").is_none());
    assert!(spectator.game.state().get("seat").is_none());
    drop(spectator);

    // Away for longer than the log keeps: the full state.
    play(&addr, &id, &toks, KEEP_VERSIONS + 2).await;
    let later = seen_by(&addr, &id, &toks[0]).await;
    let mut spectator = GameSocket::connect(&addr, &format!("{path}?since={v7}"), None)
        .await
        .expect("ws");
    let frames = read_to(&mut spectator, later["version"].as_u64().expect("v")).await;
    assert_eq!(frames.len(), 1, "{frames:?}");
    assert_eq!(frames[0].0, "state");
    assert_eq!(moves(spectator.game.state()), moves(&later));
    // A version the game never had (from before a restart, or made up): the full state.
    let mut odd = GameSocket::connect(&addr, &format!("{path}?since=1"), None)
        .await
        .expect("ws");
    assert_eq!(
        odd.next_frame().await.expect("frame")["t"],
        "state",
        "an unknown version gets the whole game"
    );
    // The up-to-date red socket kept getting its own frames all along.
    let frames = read_to(&mut red, later["version"].as_u64().expect("v")).await;
    assert_eq!(frames.len(), KEEP_VERSIONS + 2);
    assert_eq!(moves(red.game.state()), moves(&later));
    srv.shutdown().await;
}
