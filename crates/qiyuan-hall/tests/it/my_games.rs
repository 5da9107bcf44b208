//! One's games in play and challenges (issue 18): `GET /api/my/games`
//! counts the games waiting for one's move; a challenge's open seat is
//! taken only by the user it names, is not an open room in the lobby, and
//! stays a challenge after a restart. Against the fake game (`count`);
//! moved from the binary's tests.

use qiyuan_hall::client;
use serde_json::{Value, json};

use crate::common;
use crate::common::{get, post, register};

async fn get_as(addr: &str, path: &str, token: &str) -> (u16, Value) {
    let r = client::get(addr, path, Some(token)).await.expect("request");
    (r.status, r.json())
}

async fn create(addr: &str, token: &str, body: Value) -> String {
    let (st, g) = post(addr, "/api/games", token, body).await;
    assert_eq!(st, 201, "{g}");
    g["id"].as_str().expect("id").to_string()
}

#[tokio::test]
async fn my_games_count_the_games_waiting_for_my_move() {
    let (srv, addr) = common::server("my-games").await;
    let alice = register(&addr, "alice").await;
    let bob = register(&addr, "bob").await;
    let (st, mine) = get_as(&addr, "/api/my/games", &alice).await;
    assert_eq!(st, 200, "{mine}");
    assert_eq!(mine, json!({"your_turn": 0, "games": [], "challenges": []}));
    let (st, e) = get(&addr, "/api/my/games").await;
    assert_eq!((st, e["code"].as_str()), (401, Some("unauthorized")), "{e}");

    // A waiting room, a game against bob where alice is to move, one where bob is.
    let waiting = create(&addr, &alice, json!({"game": "count"})).await;
    let first = create(&addr, &alice, json!({"game": "count"})).await;
    post(&addr, &format!("/api/games/{first}/join"), &bob, json!({})).await;
    let second = create(&addr, &alice, json!({"game": "count"})).await;
    post(&addr, &format!("/api/games/{second}/join"), &bob, json!({})).await;
    let (st, _) = post(
        &addr,
        &format!("/api/games/{second}/moves"),
        &alice,
        json!({"move": "+1"}),
    )
    .await;
    assert_eq!(st, 200);
    let (_, mine) = get_as(&addr, "/api/my/games", &alice).await;
    assert_eq!(mine["your_turn"], 1, "{mine}");
    let games = mine["games"].as_array().expect("games");
    assert_eq!(games.len(), 3, "{mine}");
    let find = |id: &str| {
        games
            .iter()
            .find(|g| g["id"] == id)
            .cloned()
            .expect("listed")
    };
    assert_eq!(find(&waiting)["status"], "waiting");
    assert_eq!(find(&waiting)["your_turn"], false);
    assert_eq!(find(&first)["your_turn"], true);
    assert_eq!(find(&first)["seat"], 0);
    assert_eq!(find(&second)["your_turn"], false);
    assert_eq!(find(&second)["plies"], 1);
    let (_, theirs) = get_as(&addr, "/api/my/games", &bob).await;
    assert_eq!(theirs["your_turn"], 1, "{theirs}");
    assert_eq!(
        theirs["games"].as_array().map(Vec::len),
        Some(2),
        "{theirs}"
    );
    // A finished game leaves the list.
    post(
        &addr,
        &format!("/api/games/{first}/resign"),
        &bob,
        json!({}),
    )
    .await;
    let (_, mine) = get_as(&addr, "/api/my/games", &alice).await;
    assert_eq!(mine["your_turn"], 0, "{mine}");
    assert_eq!(mine["games"].as_array().map(Vec::len), Some(2), "{mine}");
    srv.shutdown().await;
}

#[tokio::test]
async fn only_the_challenged_user_takes_a_challenge_seat_even_after_a_restart() {
    let db = common::temp_db("challenge");
    let (srv, addr) = common::server_at(&db).await;
    let alice = register(&addr, "alice").await;
    let bob = register(&addr, "bob").await;
    let carol = register(&addr, "carol").await;
    // Bad challenges change nothing.
    for (body, st, code) in [
        (
            json!({"game": "count", "challenge": "nobody"}),
            400,
            "no_such_user",
        ),
        (
            json!({"game": "count", "challenge": "alice"}),
            400,
            "bad_request",
        ),
        (
            json!({"game": "count", "challenge": "bob", "opponent": "ai:1"}),
            400,
            "bad_request",
        ),
        (
            json!({"game": "count-3", "challenge": "bob"}),
            400,
            "bad_request",
        ),
        (
            json!({"game": "count", "challenge": "x".repeat(500)}),
            400,
            "out_of_range",
        ),
        (
            json!({"game": "count", "challenge": 5}),
            400,
            "invalid_body",
        ),
    ] {
        let (s, e) = post(&addr, "/api/games", &alice, body.clone()).await;
        assert_eq!((s, e["code"].as_str()), (st, Some(code)), "{body}: {e}");
    }
    let (_, mine) = get_as(&addr, "/api/my/games", &alice).await;
    assert_eq!(mine["games"], json!([]), "{mine}");

    let id = create(&addr, &alice, json!({"game": "count", "challenge": "bob"})).await;
    let (_, s) = get_as(&addr, &format!("/api/games/{id}"), &alice).await;
    assert_eq!(s["challenge"], "bob", "{s}");
    // Not an open room in the lobby.
    let (_, lobby) = get(&addr, "/api/lobby").await;
    assert!(
        !lobby["open"]
            .as_array()
            .expect("open")
            .iter()
            .any(|g| g["id"] == id),
        "{lobby}"
    );
    // Bob sees it among his challenges; carol does not.
    let (_, b) = get_as(&addr, "/api/my/games", &bob).await;
    assert_eq!(b["challenges"][0]["id"], id.as_str(), "{b}");
    assert_eq!(b["challenges"][0]["challenge"], "bob", "{b}");
    assert_eq!(b["challenges"][0]["seat"], Value::Null, "{b}");
    let (_, c) = get_as(&addr, "/api/my/games", &carol).await;
    assert_eq!(c["challenges"], json!([]), "{c}");
    srv.shutdown().await;

    let (srv, addr) = common::server_at(&db).await;
    let (st, e) = post(&addr, &format!("/api/games/{id}/join"), &carol, json!({})).await;
    assert_eq!(
        (st, e["code"].as_str()),
        (403, Some("not_challenged")),
        "{e}"
    );
    let (_, s) = get_as(&addr, &format!("/api/games/{id}"), &carol).await;
    assert_eq!(s["status"], "waiting", "carol's try changed nothing: {s}");
    let (st, j) = post(&addr, &format!("/api/games/{id}/join"), &bob, json!({})).await;
    assert_eq!(st, 200, "{j}");
    let (_, s) = get_as(&addr, &format!("/api/games/{id}"), &bob).await;
    assert_eq!(s["status"], "playing", "{s}");
    assert!(
        s.get("challenge").is_none(),
        "a taken challenge is just a game: {s}"
    );
    let (_, b) = get_as(&addr, "/api/my/games", &bob).await;
    assert_eq!(b["challenges"], json!([]), "{b}");
    assert_eq!(b["games"][0]["id"], id.as_str(), "{b}");
    srv.shutdown().await;
}
