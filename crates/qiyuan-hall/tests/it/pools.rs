//! Finding a game (issue 36): pools pair the players waiting in them and
//! every page of theirs is told; challenges are pushed, declined and
//! cancelled on both sides.

use std::time::Duration;

use futures_util::StreamExt;
use qiyuan_hall::client::{Socket, connect_ws};
use qiyuan_hall::limits::Limits;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

use crate::common::{get, post, register, server_with, temp_db};

const POOL: &str = "count-10+0";

async fn hall() -> (qiyuan_hall::server::Running, String) {
    let limits = Limits {
        pool_wave: Duration::from_millis(100),
        pool_presence_grace: Duration::from_millis(400),
        ..Limits::default()
    };
    server_with(&temp_db("pools"), limits).await
}

/// A lobby socket and the frames read from it but not yet awaited (a
/// user's events and the lobby's changes come on different topics, in no
/// fixed order).
struct Lobby {
    ws: Socket,
    unread: Vec<Value>,
}

/// The first frame of `l` that satisfies `want` (within 10 s).
async fn frame_where(l: &mut Lobby, want: impl Fn(&Value) -> bool) -> Value {
    if let Some(i) = l.unread.iter().position(&want) {
        return l.unread.remove(i);
    }
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let next = tokio::time::timeout_at(deadline, l.ws.next())
            .await
            .expect("the awaited frame came in time")
            .expect("the socket is open")
            .expect("a frame");
        if let Message::Text(t) = next {
            let v: Value = serde_json::from_str(&t).expect("JSON frame");
            if want(&v) {
                return v;
            }
            l.unread.push(v);
        }
    }
}

async fn lobby(addr: &str, token: &str) -> Lobby {
    Lobby {
        ws: connect_ws(addr, "/api/lobby/ws", Some(token))
            .await
            .expect("lobby socket"),
        unread: Vec::new(),
    }
}

async fn delete(addr: &str, path: &str, token: &str) -> (u16, Value) {
    let r = qiyuan_hall::client::request(addr, "DELETE", path, Some(token), None, &[])
        .await
        .expect("request");
    (r.status, r.json())
}

#[tokio::test]
async fn two_players_in_a_pool_are_paired_into_one_rated_game_and_both_pages_go_to_it() {
    let (srv, addr) = hall().await;
    let (st, list) = get(&addr, "/api/pools").await;
    assert_eq!(st, 200, "{list}");
    let pool = list["pools"]
        .as_array()
        .expect("pools")
        .iter()
        .find(|p| p["id"] == POOL)
        .unwrap_or_else(|| panic!("the fake kind's default pool is listed: {list}"))
        .clone();
    assert_eq!(pool["game"], "count");
    assert_eq!(pool["seats"], 2);
    assert_eq!(pool["clock"], json!({"initial_s": 600, "increment_s": 0}));

    let a = register(&addr, "ann").await;
    let b = register(&addr, "bob").await;
    let (mut wa, mut wb) = (lobby(&addr, &a).await, lobby(&addr, &b).await);
    let (st, p) = post(&addr, &format!("/api/pools/{POOL}/join"), &a, json!({})).await;
    assert_eq!(st, 200, "{p}");
    assert_eq!(p["waiting"], 1, "{p}");
    // Joining twice changes nothing.
    let (_, p) = post(&addr, &format!("/api/pools/{POOL}/join"), &a, json!({})).await;
    assert_eq!(p["waiting"], 1, "{p}");
    let (st, _) = post(&addr, &format!("/api/pools/{POOL}/join"), &b, json!({})).await;
    assert_eq!(st, 200);

    let sa = frame_where(&mut wa, |f| f["type"] == "gameStart").await;
    let sb = frame_where(&mut wb, |f| f["type"] == "gameStart").await;
    assert_eq!(sa["game"]["id"], sb["game"]["id"], "{sa} {sb}");
    assert_ne!(sa["game"]["seat"], sb["game"]["seat"]);
    assert_eq!(sa["game"]["rated"], true, "registered players play rated");
    let id = sa["game"]["id"].as_str().expect("id").to_string();
    let (_, g) = get(&addr, &format!("/api/games/{id}")).await;
    assert_eq!(g["status"], "playing", "{g}");
    assert_eq!(g["rated"], true, "{g}");
    // The lobby hears the new counts.
    let counts = frame_where(&mut wa, |f| {
        f["t"] == "pools"
            && f["pools"]
                .as_array()
                .is_some_and(|ps| ps.iter().any(|p| p["id"] == POOL && p["playing"] == 2))
    })
    .await;
    let p = counts["pools"]
        .as_array()
        .and_then(|ps| ps.iter().find(|p| p["id"] == POOL))
        .expect("pool");
    assert_eq!(p["waiting"], 0, "{counts}");

    // The game ends: both are told, and the pool counts it no more.
    let (st, v) = post(&addr, &format!("/api/games/{id}/resign"), &a, json!({})).await;
    assert_eq!(st, 200, "{v}");
    let fa = frame_where(&mut wa, |f| f["type"] == "gameFinish").await;
    assert_eq!(fa["game"]["id"], id.as_str());
    assert_eq!(fa["game"]["reason"], "resignation", "{fa}");
    let fb = frame_where(&mut wb, |f| f["type"] == "gameFinish").await;
    // The result names the winning seat, as the game's state does: bob's.
    let bob_seat = fb["game"]["seat"].as_u64().expect("seat") + 1;
    assert_eq!(fb["game"]["result"], format!("seat{bob_seat}"), "{fb}");
    let (_, list) = get(&addr, "/api/pools").await;
    let p = list["pools"]
        .as_array()
        .and_then(|ps| ps.iter().find(|p| p["id"] == POOL))
        .expect("pool")
        .clone();
    assert_eq!(
        (p["waiting"].clone(), p["playing"].clone()),
        (json!(0), json!(0)),
        "{list}"
    );
    srv.shutdown().await;
}

#[tokio::test]
async fn a_pool_is_left_by_request_by_closing_the_lobby_and_by_going_away() {
    let (srv, addr) = hall().await;
    let a = register(&addr, "ann").await;
    let (st, e) = post(&addr, "/api/pools/nope-1+0/join", &a, json!({})).await;
    assert_eq!((st, e["code"].clone()), (404, json!("not_found")), "{e}");
    let (st, _) = post(&addr, &format!("/api/pools/{POOL}/join"), &a, json!({})).await;
    assert_eq!(st, 200);
    let (st, p) = delete(&addr, &format!("/api/pools/{POOL}/join"), &a).await;
    assert_eq!((st, p["waiting"].clone()), (200, json!(0)), "{p}");

    // Closing the last lobby socket leaves at once.
    let ws = lobby(&addr, &a).await;
    post(&addr, &format!("/api/pools/{POOL}/join"), &a, json!({})).await;
    let r = qiyuan_hall::client::get(&addr, "/api/pools", Some(&a))
        .await
        .expect("pools");
    assert_eq!(r.json()["waiting_in"], POOL, "{}", r.body);
    drop(ws);
    let mut left = false;
    for _ in 0..100 {
        let r = qiyuan_hall::client::get(&addr, "/api/pools", Some(&a))
            .await
            .expect("pools");
        if r.json()["waiting_in"].is_null() {
            left = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(left, "closing the lobby left the pool");

    // Joined with no socket at all: gone after the grace.
    post(&addr, &format!("/api/pools/{POOL}/join"), &a, json!({})).await;
    let mut gone = false;
    for _ in 0..200 {
        let (_, list) = get(&addr, "/api/pools").await;
        let waiting = list["pools"]
            .as_array()
            .and_then(|ps| ps.iter().find(|p| p["id"] == POOL))
            .map(|p| p["waiting"].clone());
        if waiting == Some(json!(0)) {
            gone = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(gone, "a player with no socket leaves the pool");
    srv.shutdown().await;
}

#[tokio::test]
async fn guests_and_registered_players_are_not_paired_together() {
    let (srv, addr) = hall().await;
    let a = register(&addr, "ann").await;
    let r = qiyuan_hall::client::post(&addr, "/api/guest", None, &json!({}))
        .await
        .expect("guest");
    let g = r.json()["token"].as_str().expect("guest token").to_string();
    let (_wa, _wg) = (lobby(&addr, &a).await, lobby(&addr, &g).await);
    post(&addr, &format!("/api/pools/{POOL}/join"), &a, json!({})).await;
    post(&addr, &format!("/api/pools/{POOL}/join"), &g, json!({})).await;
    // Several waves pass (100 ms each) and both still wait.
    tokio::time::sleep(Duration::from_millis(600)).await;
    let (_, list) = get(&addr, "/api/pools").await;
    let p = list["pools"]
        .as_array()
        .and_then(|ps| ps.iter().find(|p| p["id"] == POOL))
        .expect("pool")
        .clone();
    assert_eq!(p["waiting"], 2, "{list}");
    assert_eq!(p["playing"], 0, "{list}");
    srv.shutdown().await;
}

#[tokio::test]
async fn a_challenge_is_pushed_and_disappears_on_both_sides_when_declined_or_cancelled() {
    let (srv, addr) = hall().await;
    let a = register(&addr, "ann").await;
    let b = register(&addr, "bob").await;
    let (mut wa, mut wb) = (lobby(&addr, &a).await, lobby(&addr, &b).await);
    let challenge = || json!({"game": "count", "challenge": "bob"});

    // Declined by the challenged.
    let (st, g) = post(&addr, "/api/games", &a, challenge()).await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    let c = frame_where(&mut wb, |f| f["type"] == "challenge").await;
    assert_eq!(c["challenge"]["id"], id.as_str(), "{c}");
    assert_eq!(c["challenge"]["challenger"], "ann");
    assert_eq!(c["challenge"]["dest"], "bob");
    // Only the challenged may decline, only the creator may cancel.
    let (st, e) = post(&addr, &format!("/api/games/{id}/decline"), &a, json!({})).await;
    assert_eq!((st, e["code"].clone()), (403, json!("not_a_player")), "{e}");
    let (st, e) = post(&addr, &format!("/api/games/{id}/cancel"), &b, json!({})).await;
    assert_eq!((st, e["code"].clone()), (403, json!("not_a_player")), "{e}");
    let (st, v) = post(&addr, &format!("/api/games/{id}/decline"), &b, json!({})).await;
    assert_eq!(st, 200, "{v}");
    for ws in [&mut wa, &mut wb] {
        let d = frame_where(ws, |f| f["type"] == "challengeDeclined").await;
        assert_eq!(d["challenge"]["id"], id.as_str());
    }
    let r = qiyuan_hall::client::get(&addr, "/api/my/games", Some(&b))
        .await
        .expect("mine");
    assert_eq!(r.json()["challenges"], json!([]), "{}", r.body);
    // Withdrawn rooms are gone: no game to read or take.
    let (st, _) = get(&addr, &format!("/api/games/{id}")).await;
    assert_eq!(st, 404);
    let (st, e) = post(&addr, &format!("/api/games/{id}/join"), &b, json!({})).await;
    assert_eq!(st, 404, "a declined challenge cannot be taken: {e}");

    // Cancelled by the challenger.
    let (_, g) = post(&addr, "/api/games", &a, challenge()).await;
    let id = g["id"].as_str().expect("id").to_string();
    frame_where(&mut wb, |f| f["type"] == "challenge").await;
    let (st, v) = post(&addr, &format!("/api/games/{id}/cancel"), &a, json!({})).await;
    assert_eq!(st, 200, "{v}");
    let c = frame_where(&mut wb, |f| f["type"] == "challengeCanceled").await;
    assert_eq!(c["challenge"]["id"], id.as_str());
    let (st, e) = post(&addr, &format!("/api/games/{id}/cancel"), &a, json!({})).await;
    assert_eq!(st, 404, "cancelled once, then gone: {e}");

    // Accepted: both pages go to the game.
    let (_, g) = post(&addr, "/api/games", &a, challenge()).await;
    let id = g["id"].as_str().expect("id").to_string();
    let (st, v) = post(&addr, &format!("/api/games/{id}/join"), &b, json!({})).await;
    assert_eq!(st, 200, "{v}");
    for ws in [&mut wa, &mut wb] {
        let s = frame_where(ws, |f| f["type"] == "gameStart").await;
        assert_eq!(s["game"]["id"], id.as_str());
    }
    let (st, e) = post(&addr, &format!("/api/games/{id}/cancel"), &a, json!({})).await;
    assert_eq!((st, e["code"].clone()), (409, json!("not_waiting")), "{e}");
    srv.shutdown().await;
}

#[tokio::test]
async fn the_event_stream_starts_with_what_is_pending_then_relays_events() {
    let (srv, addr) = hall().await;
    let a = register(&addr, "ann").await;
    let b = register(&addr, "bob").await;
    let (_, g) = post(
        &addr,
        "/api/games",
        &a,
        json!({"game": "count", "challenge": "bob"}),
    )
    .await;
    let cid = g["id"].as_str().expect("id").to_string();
    let r = qiyuan_hall::client::get(&addr, "/api/stream/event", None)
        .await
        .expect("anon");
    assert_eq!(r.status, 401);
    let mut s = qiyuan_hall::client::stream_lines(&addr, "/api/stream/event", Some(&b))
        .await
        .expect("event stream");
    let first = s.next_json().await.expect("a first line");
    assert_eq!(first["type"], "challenge", "{first}");
    assert_eq!(first["challenge"]["id"], cid.as_str());
    let (st, _) = post(&addr, &format!("/api/games/{cid}/join"), &b, json!({})).await;
    assert_eq!(st, 200);
    let start = s.next_json().await.expect("gameStart");
    assert_eq!(start["type"], "gameStart", "{start}");
    assert_eq!(start["game"]["id"], cid.as_str());
    srv.shutdown().await;
}
