//! How a game starts and how it is left (issue 36): each side's clock
//! starts with its first move, a first move not made in time aborts the
//! game, either player may abort before both moved, and a player whose
//! opponent left during their turn may claim the game.

use std::time::Duration;

use qiyuan_hall::limits::Limits;
use serde_json::{Value, json};

use crate::common::{get, post, register, server_with, temp_db};

async fn hall() -> (qiyuan_hall::server::Running, String) {
    let limits = Limits {
        first_move_grace: Duration::from_millis(400),
        absence_claim: Duration::from_millis(900),
        ..Limits::default()
    };
    server_with(&temp_db("opening"), limits).await
}

/// A started game of count between two new players: (first seat's token,
/// second seat's token, game id).
async fn started(addr: &str, rated: bool) -> (String, String, String) {
    let ta = register(addr, "ann").await;
    let tb = register(addr, "bob").await;
    let (st, g) = post(
        addr,
        "/api/games",
        &ta,
        json!({"game": "count", "clock": {"initial_s": 60, "increment_s": 0}, "rated": rated}),
    )
    .await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    let (st, j) = post(addr, &format!("/api/games/{id}/join"), &tb, json!({})).await;
    assert_eq!(st, 200, "{j}");
    (ta, tb, id)
}

async fn state(addr: &str, id: &str, token: Option<&str>) -> Value {
    let r = qiyuan_hall::client::get(addr, &format!("/api/games/{id}"), token)
        .await
        .expect("state");
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

/// Polls the game until `done` holds (10 s at most).
async fn until(addr: &str, id: &str, done: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..500 {
        let s = state(addr, id, None).await;
        if done(&s) {
            return s;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the game never reached the awaited state");
}

async fn play(addr: &str, id: &str, token: &str, mv: &str) {
    let (st, v) = post(
        addr,
        &format!("/api/games/{id}/moves"),
        token,
        json!({"move": mv}),
    )
    .await;
    assert_eq!(st, 200, "{v}");
}

#[tokio::test]
async fn a_clock_starts_with_its_sides_first_move_and_a_late_first_move_aborts() {
    let (srv, addr) = hall().await;
    let (a, _b, id) = started(&addr, true).await;
    let s = state(&addr, &id, None).await;
    assert_eq!(s["abortable"], true, "{s}");
    let left = s["first_move_ms"].as_i64().expect("first move time shown");
    assert!((0..=400).contains(&left), "{s}");
    tokio::time::sleep(Duration::from_millis(150)).await;
    // The first side's clock has not run.
    assert_eq!(state(&addr, &id, None).await["clocks"][0], 60_000);
    play(&addr, &id, &a, "+1").await;
    let s = state(&addr, &id, None).await;
    assert_eq!(s["clocks"][0], 60_000, "a first move costs no time: {s}");
    assert!(
        s["first_move_ms"].is_i64(),
        "now the second side's grace: {s}"
    );
    // The second side never moves: the game is aborted, unrated.
    let s = until(&addr, &id, |s| s["status"] == "finished").await;
    assert_eq!(s["reason"], "aborted", "{s}");
    assert_eq!(s["result"], "aborted", "{s}");
    assert_eq!(s["rated"], false, "{s}");
    assert_eq!(s["clocks"][1], 60_000, "{s}");
    let (_, prof) = get(&addr, "/api/users/ann").await;
    assert_eq!(
        prof["ratings"],
        json!({}),
        "an aborted game rates nobody: {prof}"
    );
    srv.shutdown().await;
}

#[tokio::test]
async fn either_player_may_abort_until_both_have_moved() {
    let (srv, addr) = hall().await;
    let (a, b, id) = started(&addr, false).await;
    let outsider = register(&addr, "cat").await;
    let (st, e) = post(
        &addr,
        &format!("/api/games/{id}/abort"),
        &outsider,
        json!({}),
    )
    .await;
    assert_eq!((st, e["code"].clone()), (403, json!("not_a_player")), "{e}");
    play(&addr, &id, &a, "+1").await;
    let (st, s) = post(&addr, &format!("/api/games/{id}/abort"), &b, json!({})).await;
    assert_eq!(st, 200, "{s}");
    assert_eq!(s["reason"], "aborted", "{s}");
    assert_eq!(s["abortable"], false, "{s}");

    // A second game: once both moved, no abort.
    let (st, g) = post(
        &addr,
        "/api/games",
        &a,
        json!({"game": "count", "clock": {"initial_s": 60, "increment_s": 0}}),
    )
    .await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    post(&addr, &format!("/api/games/{id}/join"), &b, json!({})).await;
    play(&addr, &id, &a, "+1").await;
    play(&addr, &id, &b, "+1").await;
    assert_eq!(state(&addr, &id, None).await["abortable"], false);
    let (st, e) = post(&addr, &format!("/api/games/{id}/abort"), &a, json!({})).await;
    assert_eq!((st, e["code"].clone()), (409, json!("cannot_abort")), "{e}");
    assert_eq!(state(&addr, &id, None).await["status"], "playing");
    srv.shutdown().await;
}

#[tokio::test]
async fn a_player_whose_opponent_left_during_their_turn_claims_the_win() {
    let (srv, addr) = hall().await;
    let (a, b, id) = started(&addr, false).await;
    play(&addr, &id, &a, "+1").await;
    play(&addr, &id, &b, "+1").await;
    // Ann is to move and has no socket open. Bob may not claim at once,
    // nor on his own turn once Ann moved.
    let (st, e) = post(
        &addr,
        &format!("/api/games/{id}/claim-victory"),
        &b,
        json!({}),
    )
    .await;
    assert_eq!(
        (st, e["code"].clone()),
        (409, json!("opponent_present")),
        "{e}"
    );
    let mine = state(&addr, &id, Some(&b)).await;
    assert!(
        mine["claim_victory_in_ms"]
            .as_i64()
            .is_some_and(|ms| ms > 0),
        "{mine}"
    );
    // Ann's lobby page is open: she is here, nothing to claim.
    let ws = qiyuan_hall::client::connect_ws(&addr, "/api/lobby/ws", Some(&a))
        .await
        .expect("lobby");
    tokio::time::sleep(Duration::from_millis(1000)).await;
    let (st, e) = post(
        &addr,
        &format!("/api/games/{id}/claim-victory"),
        &b,
        json!({}),
    )
    .await;
    assert_eq!(
        (st, e["code"].clone()),
        (409, json!("opponent_present")),
        "{e}"
    );
    assert!(state(&addr, &id, Some(&b)).await["claim_victory_in_ms"].is_null());
    drop(ws);
    // Gone for the absence time: the claim ends the game.
    let mut claimed = None;
    for _ in 0..200 {
        let (st, s) = post(
            &addr,
            &format!("/api/games/{id}/claim-victory"),
            &b,
            json!({}),
        )
        .await;
        if st == 200 {
            claimed = Some(s);
            break;
        }
        assert_eq!(s["code"], "opponent_present", "{s}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let s = claimed.expect("the claim succeeded once ann was gone long enough");
    assert_eq!(s["reason"], "abandoned", "{s}");
    assert_eq!(s["result"], "seat2", "bob (the second seat) wins: {s}");
    srv.shutdown().await;
}
