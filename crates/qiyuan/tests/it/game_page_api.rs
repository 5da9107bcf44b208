//! The server side of the game page (issue 18) where real rules matter: a
//! multi-player game's rating family, and refused claims and explanations
//! that name the game's own rules. The rest of the page's API is tested in
//! `qiyuan-hall` against its fake game.

use std::time::Duration;

use serde_json::{Value, json};

use crate::common;
use crate::common::{get, post, register};

/// Creates a game as `token` and returns its id.
async fn create(addr: &str, token: &str, body: Value) -> String {
    let (st, g) = post(addr, "/api/games", token, body).await;
    assert_eq!(st, 201, "{g}");
    g["id"].as_str().expect("id").to_string()
}

/// The game's rating changes once the finisher has rated it (it rates a
/// game moments after its end, on its own task).
async fn rated_changes(addr: &str, id: &str) -> Value {
    for _ in 0..400 {
        let (st, r) = get(addr, &format!("/api/games/{id}/ratings")).await;
        assert_eq!(st, 200, "{r}");
        if r["changes"].as_array().is_some_and(|c| !c.is_empty()) {
            return r;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("game {id} was never rated");
}

#[tokio::test]
async fn a_multi_player_tiaoqi_game_shows_its_multi_family_change() {
    let (srv, addr) = common::server("page-ratings-multi").await;
    let tok = register(&addr, "hopper").await;
    let id = create(
        &addr,
        &tok,
        json!({"game": "tiaoqi-3", "opponent": "ai:1", "rated": true}),
    )
    .await;
    // Out of the game at once; the AI seats play it to its end.
    let (st, s) = post(&addr, &format!("/api/games/{id}/resign"), &tok, json!({})).await;
    assert_eq!(st, 200, "{s}");
    let r = rated_changes(&addr, &id).await;
    let c = &r["changes"][0];
    assert_eq!(r["changes"].as_array().map(Vec::len), Some(1), "{r}");
    assert_eq!(c["seat"], 0, "{r}");
    assert_eq!(c["username"], "hopper", "{r}");
    assert_eq!(c["family"], "tiaoqi-multi", "{r}");
    assert_eq!(c["before"], 1000, "{r}");
    assert!(
        c["after"].as_i64().is_some_and(|a| a < 1000),
        "last place: {r}"
    );
    assert!(c["title"].is_string() && c["title_en"].is_string(), "{r}");
    let (_, g) = get(&addr, &format!("/api/games/{id}")).await;
    assert_eq!(g["status"], "finished", "{g}");
    srv.shutdown().await;
}

#[tokio::test]
async fn refused_claims_and_explanations_say_what_happened() {
    let (srv, addr) = common::server("page-claim").await;
    let alice = register(&addr, "alice").await;
    let id = create(
        &addr,
        &alice,
        json!({"game": "xiangqi", "opponent": "ai:1"}),
    )
    .await;
    let (st, e) = post(&addr, &format!("/api/games/{id}/claim"), &alice, json!({})).await;
    assert_eq!(st, 409, "{e}");
    assert_eq!(e["code"], "claim_refused", "{e}");
    let msg = e["error"].as_str().expect("error");
    assert!(!msg.contains("illegal move"), "{msg}");
    assert!(
        msg.contains("0 of the 120 plies without a capture"),
        "{msg}"
    );
    // The values, for a client that words the refusal itself (issue 37).
    assert_eq!(
        e["details"],
        json!({"why": "too_early", "plies": 0, "needed": 120, "rule": "X4", "foul": true}),
        "{e}"
    );
    // A two-seat Tiaoqi resignation names the seat in both languages.
    let id = create(&addr, &alice, json!({"game": "tiaoqi", "opponent": "ai:1"})).await;
    let (st, s) = post(&addr, &format!("/api/games/{id}/resign"), &alice, json!({})).await;
    assert_eq!(st, 200, "{s}");
    assert_eq!(s["reason"], "resignation", "{s}");
    assert_eq!(s["explanation"], "座位1认输 / seat 1 resigned", "{s}");
    srv.shutdown().await;
}
