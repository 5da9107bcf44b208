//! Seeks (issue 36): an open room that matches another's open room takes
//! its seat instead of adding a duplicate; a rating range keeps others
//! out; a seek goes a few seconds after its creator's last socket closed.

use std::time::Duration;

use serde_json::{Value, json};

use crate::common::{get, post, register, server_with, temp_db};

async fn hall() -> (qiyuan_hall::server::Running, String) {
    let limits = qiyuan_hall::limits::Limits {
        open_room_idle: Duration::from_millis(400),
        ..Default::default()
    };
    server_with(&temp_db("seeks"), limits).await
}

fn seek(extra: Value) -> Value {
    let mut s =
        json!({"game": "count", "clock": {"initial_s": 300, "increment_s": 3}, "rated": true});
    if let (Some(s), Some(e)) = (s.as_object_mut(), extra.as_object()) {
        s.extend(e.clone());
    }
    s
}

async fn open_rooms(addr: &str) -> Vec<Value> {
    let (_, lobby) = get(addr, "/api/lobby").await;
    lobby["open"].as_array().cloned().unwrap_or_default()
}

#[tokio::test]
async fn a_matching_seek_joins_the_open_one_instead_of_adding_a_duplicate() {
    let (srv, addr) = hall().await;
    let a = register(&addr, "ann").await;
    let b = register(&addr, "bob").await;
    let c = register(&addr, "cat").await;
    // Sockets keep the creators present.
    let _wa = qiyuan_hall::client::connect_ws(&addr, "/api/lobby/ws", Some(&a))
        .await
        .expect("ws");
    let _wc = qiyuan_hall::client::connect_ws(&addr, "/api/lobby/ws", Some(&c))
        .await
        .expect("ws");
    let (st, first) = post(&addr, "/api/games", &a, seek(json!({}))).await;
    assert_eq!(st, 201, "{first}");
    // Another clock is another seek.
    let (st, other) = post(
        &addr,
        "/api/games",
        &c,
        seek(json!({"clock": {"initial_s": 60}})),
    )
    .await;
    assert_eq!(st, 201, "{other}");
    assert_ne!(other["id"], first["id"]);
    assert_eq!(open_rooms(&addr).await.len(), 2);
    // Bob asks for the same game as Ann: he takes her seek's open seat.
    let (st, joined) = post(&addr, "/api/games", &b, seek(json!({}))).await;
    assert_eq!(st, 201, "{joined}");
    assert_eq!(joined["id"], first["id"], "{joined}");
    assert_eq!(joined["seat"], 1, "{joined}");
    let id = first["id"].as_str().expect("id");
    let (_, g) = get(&addr, &format!("/api/games/{id}")).await;
    assert_eq!(g["status"], "playing", "{g}");
    let open = open_rooms(&addr).await;
    assert_eq!(open.len(), 1, "only cat's seek is left: {open:?}");
    assert_eq!(open[0]["id"], other["id"]);
    srv.shutdown().await;
}

#[tokio::test]
async fn a_rating_range_keeps_other_ratings_out() {
    let (srv, addr) = hall().await;
    let a = register(&addr, "ann").await;
    let b = register(&addr, "bob").await;
    let _wa = qiyuan_hall::client::connect_ws(&addr, "/api/lobby/ws", Some(&a))
        .await
        .expect("ws");
    let _wb = qiyuan_hall::client::connect_ws(&addr, "/api/lobby/ws", Some(&b))
        .await
        .expect("ws");
    let (st, e) = post(
        &addr,
        "/api/games",
        &a,
        seek(json!({"rating_range": {"min": 1900, "max": 1600}})),
    )
    .await;
    assert_eq!((st, e["code"].clone()), (400, json!("out_of_range")), "{e}");
    // Both start at 1500; Ann wants 1600..2000.
    let (st, g) = post(
        &addr,
        "/api/games",
        &a,
        seek(json!({"rating_range": {"min": 1600, "max": 2000}})),
    )
    .await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    let open = open_rooms(&addr).await;
    assert_eq!(
        open[0]["rating_range"],
        json!({"min": 1600, "max": 2000}),
        "{open:?}"
    );
    let (st, e) = post(&addr, &format!("/api/games/{id}/join"), &b, json!({})).await;
    assert_eq!(
        (st, e["code"].clone()),
        (403, json!("rating_out_of_range")),
        "{e}"
    );
    // Bob's same seek is not matched with Ann's: it is a seek of its own.
    let (st, own) = post(&addr, "/api/games", &b, seek(json!({}))).await;
    assert_eq!(st, 201, "{own}");
    assert_ne!(own["id"], id.as_str());
    assert_eq!(open_rooms(&addr).await.len(), 2);
    srv.shutdown().await;
}

#[tokio::test]
async fn a_seek_goes_soon_after_its_creators_last_socket() {
    let (srv, addr) = hall().await;
    let a = register(&addr, "ann").await;
    let ws = qiyuan_hall::client::connect_ws(&addr, "/api/lobby/ws", Some(&a))
        .await
        .expect("ws");
    let (st, g) = post(&addr, "/api/games", &a, seek(json!({}))).await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    // Present for three idle times: still listed.
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(open_rooms(&addr).await.len(), 1);
    drop(ws);
    let gone = crate::common::eventually("the seek is closed", || async {
        let (st, _) = get(&addr, &format!("/api/games/{id}")).await;
        (st == 404).then_some(())
    })
    .await;
    let () = gone;
    assert!(open_rooms(&addr).await.is_empty());
    srv.shutdown().await;
}
