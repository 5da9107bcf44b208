//! Takebacks in casual games (issue 18): asked, declined and accepted over
//! HTTP and WebSocket, replayed after a restart, accepted at once by an AI,
//! and refused with stable codes in rated games, finished games and with
//! nothing to take back; against the fake game (`count`). (Moved from the
//! binary's tests; hidden games' refusal stays there, with the games that
//! hide.)

use std::time::Duration;

use qiyuan_hall::client::{self, GameSocket};
use serde_json::{Value, json};

use crate::common;
use crate::common::{post, register};

async fn get_as(addr: &str, path: &str, token: &str) -> (u16, Value) {
    let r = client::get(addr, path, Some(token)).await.expect("request");
    (r.status, r.json())
}

/// A game between two new people: its id and their tokens (red, black).
async fn two_people(addr: &str, tag: &str, body: Value) -> (String, String, String) {
    let red = register(addr, &format!("red{tag}")).await;
    let black = register(addr, &format!("black{tag}")).await;
    let (st, g) = post(addr, "/api/games", &red, body).await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    let (st, j) = post(addr, &format!("/api/games/{id}/join"), &black, json!({})).await;
    assert_eq!(st, 200, "{j}");
    (id, red, black)
}

async fn mv(addr: &str, id: &str, token: &str, m: &str) -> Value {
    let (st, s) = post(
        addr,
        &format!("/api/games/{id}/moves"),
        token,
        json!({"move": m}),
    )
    .await;
    assert_eq!(st, 200, "{m}: {s}");
    s
}

async fn takeback(addr: &str, id: &str, token: &str, action: &str) -> (u16, Value) {
    post(
        addr,
        &format!("/api/games/{id}/takeback"),
        token,
        json!({"action": action}),
    )
    .await
}

/// Reads frames until the folded game satisfies `pred`.
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

#[tokio::test]
async fn a_takeback_is_asked_declined_accepted_and_replays_after_a_restart() {
    let db = common::temp_db("takeback");
    let (srv, addr) = common::server_at(&db).await;
    let casual = json!({"game": "count", "opponent": "open", "rated": false});
    let (id, red, black) = two_people(&addr, "a", casual).await;
    let (_, s) = get_as(&addr, &format!("/api/games/{id}"), &red).await;
    assert_eq!(s["takeback"], true, "an unrated game offers takebacks: {s}");
    assert_eq!(s["takeback_offer"], Value::Null, "{s}");
    // Nothing to take back before one's first move; nothing to answer.
    let (st, e) = takeback(&addr, &id, &red, "offer").await;
    assert_eq!(
        (st, e["code"].as_str()),
        (409, Some("nothing_to_take_back")),
        "{e}"
    );
    let (st, e) = takeback(&addr, &id, &black, "accept").await;
    assert_eq!(
        (st, e["code"].as_str()),
        (409, Some("no_takeback_request")),
        "{e}"
    );
    let (st, e) = takeback(&addr, &id, &black, "undo").await;
    assert_eq!((st, e["code"].as_str()), (400, Some("invalid_body")), "{e}");
    let (st, e) = post(
        &addr,
        &format!("/api/games/{id}/takeback"),
        &red,
        json!([1]),
    )
    .await;
    assert_eq!((st, e["code"].as_str()), (400, Some("invalid_body")), "{e}");

    let path = format!("/api/games/{id}/ws");
    let mut ws = GameSocket::connect(&addr, &path, Some(&black))
        .await
        .expect("ws");
    wait_state(&mut ws, |g| g["status"] == "playing").await;
    let s = mv(&addr, &id, &red, "+1").await;
    assert_eq!(
        s["takeback_possible"], true,
        "red has a move to take back: {s}"
    );
    let (_, s) = get_as(&addr, &format!("/api/games/{id}"), &black).await;
    assert_eq!(s["takeback_possible"], false, "black has none yet: {s}");
    mv(&addr, &id, &black, "+2").await;
    mv(&addr, &id, &red, "+1").await;
    // Black asks on red's turn, red declines; asking again waits for a move.
    let (st, s) = takeback(&addr, &id, &black, "offer").await;
    assert_eq!(st, 200, "{s}");
    assert_eq!(s["takeback_offer"], 1, "{s}");
    let (st, e) = takeback(&addr, &id, &black, "offer").await;
    assert_eq!(
        (st, e["code"].as_str()),
        (409, Some("takeback_pending")),
        "{e}"
    );
    let (st, e) = takeback(&addr, &id, &red, "offer").await;
    assert_eq!(
        (st, e["code"].as_str()),
        (409, Some("takeback_pending")),
        "answer first: {e}"
    );
    let (st, s) = takeback(&addr, &id, &red, "decline").await;
    assert_eq!(st, 200, "{s}");
    assert_eq!(s["takeback_offer"], Value::Null, "{s}");
    assert_eq!(s["takeback_declined"], 0, "{s}");
    assert_eq!(s["plies"], 3, "a declined takeback changes nothing: {s}");
    let (st, e) = takeback(&addr, &id, &black, "offer").await;
    assert_eq!(
        (st, e["code"].as_str()),
        (409, Some("takeback_declined")),
        "{e}"
    );
    let seen = wait_state(&mut ws, |g| g.get("takeback_declined") == Some(&json!(0))).await;
    assert_eq!(seen["takeback_offer"], Value::Null, "{seen}");

    // A move ends a standing request.
    mv(&addr, &id, &black, "+2").await;
    let (st, s) = takeback(&addr, &id, &black, "offer").await;
    assert_eq!((st, &s["takeback_offer"]), (200, &json!(1)), "{s}");
    let s = mv(&addr, &id, &red, "+1").await;
    assert_eq!(s["takeback_offer"], Value::Null, "moving declines: {s}");

    // Black asks on its own turn: red's reply and black's last move go back.
    let (st, s) = takeback(&addr, &id, &black, "offer").await;
    assert_eq!(st, 200, "{s}");
    let (st, s) = takeback(&addr, &id, &red, "accept").await;
    assert_eq!(st, 200, "{s}");
    assert_eq!(s["moves"], json!(["+1", "+2", "+1"]), "{s}");
    assert_eq!(s["to_move"], 1, "black plays again: {s}");
    assert_eq!(s["takeback_accepted"], 1, "{s}");
    assert_eq!(s["takeback_offer"], Value::Null, "{s}");
    // The socket's copy, folded from diffs, shrinks with the record.
    let seen = wait_state(&mut ws, |g| g["plies"] == 3).await;
    assert_eq!(seen["moves"], json!(["+1", "+2", "+1"]), "{seen}");
    assert_eq!(seen["takeback_accepted"], 1, "{seen}");
    // Black's moves are legal again (none are while red is to move).
    assert_eq!(
        seen["legal"].as_array().map(|l| l.contains(&json!("+2"))),
        Some(true)
    );
    // Play goes on from there, and a takeback of red's move leaves black's intact.
    mv(&addr, &id, &black, "+2").await;
    let (st, _) = takeback(&addr, &id, &red, "offer").await;
    assert_eq!(st, 200);
    let (st, s) = takeback(&addr, &id, &black, "accept").await;
    assert_eq!(st, 200, "{s}");
    assert_eq!(s["moves"], json!(["+1", "+2"]), "{s}");
    assert_eq!(s["to_move"], 0, "{s}");
    srv.shutdown().await;

    // After a restart the game is the one after the takebacks.
    let (srv, addr) = common::server_at(&db).await;
    let (st, s) = get_as(&addr, &format!("/api/games/{id}"), &red).await;
    assert_eq!(st, 200, "{s}");
    assert_eq!(s["moves"], json!(["+1", "+2"]), "{s}");
    assert_eq!(s["to_move"], 0, "{s}");
    mv(&addr, &id, &red, "+1").await;
    // Finished games refuse.
    post(&addr, &format!("/api/games/{id}/resign"), &black, json!({})).await;
    let (st, e) = takeback(&addr, &id, &red, "offer").await;
    assert_eq!((st, e["code"].as_str()), (409, Some("game_over")), "{e}");
    srv.shutdown().await;
}

#[tokio::test]
async fn rated_games_refuse_takebacks_and_spectators_cannot_ask() {
    let (srv, addr) = common::server("takeback-refused").await;
    let rated = json!({"game": "count", "opponent": "open", "rated": true});
    let (id, red, black) = two_people(&addr, "r", rated).await;
    mv(&addr, &id, &red, "+1").await;
    let (_, s) = get_as(&addr, &format!("/api/games/{id}"), &black).await;
    assert_eq!(s["takeback"], false, "{s}");
    let (st, e) = takeback(&addr, &id, &red, "offer").await;
    assert_eq!(
        (st, e["code"].as_str()),
        (409, Some("takeback_rated")),
        "{e}"
    );
    let watcher = register(&addr, "watcher").await;
    let (st, e) = takeback(&addr, &id, &watcher, "offer").await;
    assert_eq!((st, e["code"].as_str()), (403, Some("not_a_player")), "{e}");
    let (st, e) = post(
        &addr,
        &format!("/api/games/{id}/takeback"),
        "nobody",
        json!({}),
    )
    .await;
    assert_eq!(st, 401, "{e}");

    srv.shutdown().await;
}

#[tokio::test]
async fn the_ai_accepts_a_takeback_at_once() {
    let (srv, addr) = common::server("takeback-ai").await;
    let alice = register(&addr, "alice").await;
    let (st, g) = post(
        &addr,
        "/api/games",
        &alice,
        json!({"game": "count", "opponent": "ai:1"}),
    )
    .await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    mv(&addr, &id, &alice, "+1").await;
    let (st, w) = get_as(&addr, &format!("/api/games/{id}/wait?timeout_s=20"), &alice).await;
    assert_eq!(st, 200, "{w}");
    assert_eq!(w["your_turn"], true, "{w}");
    assert_eq!(w["state"]["plies"], 2, "{w}");
    let (st, s) = takeback(&addr, &id, &alice, "offer").await;
    assert_eq!(st, 200, "{s}");
    assert_eq!(s["plies"], 0, "both moves went back: {s}");
    assert_eq!(s["to_move"], 0, "{s}");
    assert_eq!(s["takeback_accepted"], 0, "{s}");
    // The AI does not move for red; red plays again.
    mv(&addr, &id, &alice, "+2").await;
    srv.shutdown().await;
}
