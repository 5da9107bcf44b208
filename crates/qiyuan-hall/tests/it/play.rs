//! The hall's play loop against the fake game (`fake`): rooms, turns,
//! results, takebacks, draws, chat and error codes over real HTTP and
//! WebSocket, without any real game crate.

use qiyuan_hall::client::{self, GameSocket};
use qiyuan_hall::server::Running;
use serde_json::{Value, json};

use crate::common::{self, post, register};
use crate::fake::GOAL;

async fn hall(tag: &str) -> (Running, String) {
    common::server(tag).await
}

/// A game of count between two new players, started; (red token, black
/// token, game id).
async fn started(addr: &str, a: &str, b: &str) -> (String, String, String) {
    let ta = register(addr, a).await;
    let tb = register(addr, b).await;
    let (st, g) = post(
        addr,
        "/api/games",
        &ta,
        json!({"game": "count", "clock": {"initial_s": 60, "increment_s": 0},
               "opponent": "open", "rated": false}),
    )
    .await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    let (st, j) = post(addr, &format!("/api/games/{id}/join"), &tb, json!({})).await;
    assert_eq!(st, 200, "{j}");
    (ta, tb, id)
}

#[tokio::test]
async fn a_game_is_played_in_turns_to_its_result_with_stable_error_codes() {
    let (_hall, addr) = hall("turns").await;
    let (red, black, id) = started(&addr, "alice", "bob").await;
    let mv = |t: &str, m: &str| {
        let (t, m, addr, id) = (t.to_string(), m.to_string(), addr.clone(), id.clone());
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
    // Black may not move first; a move outside the notation is refused.
    let (st, e) = mv(&black, "+1").await;
    assert_eq!(
        (st, e["code"].as_str()),
        (409, Some("not_your_turn")),
        "{e}"
    );
    let (st, e) = mv(&red, "+3").await;
    assert_eq!((st, e["code"].as_str()), (400, Some("illegal_move")), "{e}");
    // Ten moves of +1, in turn: the creator (first seat) plays the odd
    // plies, the second seat the even ones and so the tenth.
    let mut count = 0;
    let mut ply = 0;
    while count < GOAL {
        let who = if ply % 2 == 0 { &red } else { &black };
        let (st, s) = mv(who, "+1").await;
        assert_eq!(st, 200, "{s}");
        count += 1;
        ply += 1;
    }
    let g = client::get(&addr, &format!("/api/games/{id}"), None)
        .await
        .expect("get");
    assert_eq!(g.status, 200);
    let g = g.json();
    assert_eq!(g["status"], "finished", "{g}");
    // The tenth ply was the second seat's: it brought the count to ten.
    assert_eq!(g["result"], "seat2", "{g}");
    assert_eq!(g["reason"], "points", "{g}");
    let (st, e) = mv(&red, "+1").await;
    assert_eq!((st, e["code"].as_str()), (409, Some("game_over")), "{e}");
}

async fn send(ws: &mut GameSocket, frame: Value) {
    use futures_util::SinkExt;
    use tokio_tungstenite::tungstenite::Message;
    ws.ws
        .send(Message::Text(frame.to_string().into()))
        .await
        .expect("send");
}

#[tokio::test]
async fn frames_on_the_socket_play_and_an_unknown_frame_is_a_bad_frame() {
    let (_hall, addr) = hall("socket").await;
    let (red, _black, id) = started(&addr, "carol", "dave").await;
    let mut ws = GameSocket::connect(&addr, &format!("/api/games/{id}/ws"), Some(&red))
        .await
        .expect("socket");
    let first = ws.next_state().await.expect("state");
    assert_eq!(first["status"], "playing", "{first}");
    send(&mut ws, json!({"t": "move", "move": "+2"})).await;
    let mut seen = None;
    for _ in 0..20 {
        let s = ws.next_state().await.expect("state");
        if s["moves"].as_array().is_some_and(|m| m.len() == 1) {
            seen = Some(s);
            break;
        }
    }
    let s = seen.expect("the move came back");
    assert_eq!(s["fen"], "2", "{s}");
    send(&mut ws, json!({"t": "dance"})).await;
    let mut code = None;
    for _ in 0..20 {
        let Some(f) = ws.next_frame().await else {
            break;
        };
        if f["t"] == "error" {
            code = f["code"].as_str().map(str::to_string);
            break;
        }
    }
    assert_eq!(code.as_deref(), Some("bad_frame"));
}

#[tokio::test]
async fn a_takeback_and_a_draw_need_the_opponent() {
    let (_hall, addr) = hall("offers").await;
    let (red, black, id) = started(&addr, "erin", "frank").await;
    let (st, _) = post(
        &addr,
        &format!("/api/games/{id}/moves"),
        &red,
        json!({"move": "+2"}),
    )
    .await;
    assert_eq!(st, 200);
    // Nothing to answer yet.
    let (st, e) = post(
        &addr,
        &format!("/api/games/{id}/takeback"),
        &black,
        json!({"action": "accept"}),
    )
    .await;
    assert_eq!(
        (st, e["code"].as_str()),
        (409, Some("no_takeback_request")),
        "{e}"
    );
    // Red asks, black accepts: the count is back to zero.
    let (st, _) = post(&addr, &format!("/api/games/{id}/takeback"), &red, json!({})).await;
    assert_eq!(st, 200);
    let (st, s) = post(
        &addr,
        &format!("/api/games/{id}/takeback"),
        &black,
        json!({"action": "accept"}),
    )
    .await;
    assert_eq!(st, 200, "{s}");
    assert_eq!(s["fen"], "0", "{s}");
    // A draw offer stands until the other accepts; then the game is drawn.
    let (st, _) = post(
        &addr,
        &format!("/api/games/{id}/draw"),
        &red,
        json!({"action": "offer"}),
    )
    .await;
    assert_eq!(st, 200);
    let (st, s) = post(
        &addr,
        &format!("/api/games/{id}/draw"),
        &black,
        json!({"action": "accept"}),
    )
    .await;
    assert_eq!(st, 200, "{s}");
    assert_eq!(s["status"], "finished", "{s}");
    assert_eq!(s["result"], "draw", "{s}");
    // An action outside the three is an invalid body.
    let (st, e) = post(
        &addr,
        &format!("/api/games/{id}/draw"),
        &red,
        json!({"action": "maybe"}),
    )
    .await;
    assert_eq!((st, e["code"].as_str()), (400, Some("invalid_body")), "{e}");
}
