//! Chat in a game (issue 18): players only, none against the AI, bounded
//! messages and rate, muting the opponent, reports stored with the text,
//! messages delivered to both players' sockets.

use std::time::Duration;

use futures_util::SinkExt;
use qiyuan_hall::client::{self, GameSocket};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

use crate::common;
use crate::common::{post, register};

async fn get_as(addr: &str, path: &str, token: &str) -> (u16, Value) {
    let r = client::get(addr, path, Some(token)).await.expect("request");
    (r.status, r.json())
}

/// The next chat frame a socket reads.
async fn next_chat(ws: &mut GameSocket) -> Value {
    tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let v = ws.next_frame().await.expect("socket open");
            if v["t"] == "chat" {
                return v;
            }
        }
    })
    .await
    .expect("a chat frame in time")
}

#[tokio::test]
async fn players_chat_mute_and_report_within_bounds() {
    let (srv, addr) = common::server("chat").await;
    let red = register(&addr, "redchat").await;
    let black = register(&addr, "blackchat").await;
    let watcher = register(&addr, "watcher").await;
    let (_, g) = post(&addr, "/api/games", &red, json!({"game": "count"})).await;
    let id = g["id"].as_str().expect("id").to_string();
    post(&addr, &format!("/api/games/{id}/join"), &black, json!({})).await;
    let chat = format!("/api/games/{id}/chat");
    let path = format!("/api/games/{id}/ws");
    let mut red_ws = GameSocket::connect(&addr, &path, Some(&red))
        .await
        .expect("ws");
    let mut black_ws = GameSocket::connect(&addr, &path, Some(&black))
        .await
        .expect("ws");
    red_ws.next_state().await.expect("state");
    black_ws.next_state().await.expect("state");

    let (st, line) = post(&addr, &chat, &red, json!({"text": "  你好, good luck "})).await;
    assert_eq!(st, 200, "{line}");
    assert_eq!(line["text"], "你好, good luck", "trimmed: {line}");
    assert_eq!(line["seat"], 0, "{line}");
    for ws in [&mut red_ws, &mut black_ws] {
        let f = next_chat(ws).await;
        assert_eq!(
            (&f["text"], &f["seat"], &f["id"]),
            (&line["text"], &json!(0), &line["id"]),
            "{f}"
        );
    }
    // Over the socket too.
    black_ws
        .ws
        .send(Message::Text(
            json!({"t": "chat", "text": "thanks"}).to_string().into(),
        ))
        .await
        .expect("send");
    let f = next_chat(&mut red_ws).await;
    assert_eq!(
        (&f["text"], &f["seat"]),
        (&json!("thanks"), &json!(1)),
        "{f}"
    );
    let (st, list) = get_as(&addr, &chat, &black).await;
    assert_eq!(st, 200, "{list}");
    assert_eq!(list["muted"], false);
    assert_eq!(list["lines"].as_array().map(Vec::len), Some(2), "{list}");

    // Bad messages change nothing.
    for (body, st, code) in [
        (json!({"text": "x".repeat(201)}), 400, "out_of_range"),
        (json!({"text": "好".repeat(5000)}), 400, "out_of_range"),
        (json!({"text": "   "}), 400, "empty_message"),
        (json!({"text": "a\nb"}), 400, "bad_request"),
        (json!({}), 400, "invalid_body"),
    ] {
        let (s, e) = post(&addr, &chat, &red, body.clone()).await;
        assert_eq!((s, e["code"].as_str()), (st, Some(code)), "{body}: {e}");
    }
    // Spectators neither read nor write it.
    let (st, e) = post(&addr, &chat, &watcher, json!({"text": "hi"})).await;
    assert_eq!((st, e["code"].as_str()), (403, Some("not_a_player")), "{e}");
    let (st, e) = get_as(&addr, &chat, &watcher).await;
    assert_eq!((st, e["code"].as_str()), (403, Some("not_a_player")), "{e}");
    let (st, list) = get_as(&addr, &chat, &black).await;
    assert_eq!(
        (st, list["lines"].as_array().map(Vec::len)),
        (200, Some(2)),
        "{list}"
    );

    // Black mutes red: red's messages no longer reach black.
    let (st, m) = post(
        &addr,
        &format!("{chat}/mute"),
        &black,
        json!({"mute": true}),
    )
    .await;
    assert_eq!(st, 200, "{m}");
    assert_eq!(m["muted"], true);
    assert_eq!(
        m["lines"].as_array().map(Vec::len),
        Some(1),
        "only black's own: {m}"
    );
    post(&addr, &chat, &red, json!({"text": "are you there?"})).await;
    let (_, list) = get_as(&addr, &chat, &black).await;
    assert!(
        list["lines"]
            .as_array()
            .expect("lines")
            .iter()
            .all(|l| l["seat"] == 1),
        "{list}"
    );
    let (_, m) = post(
        &addr,
        &format!("{chat}/mute"),
        &black,
        json!({"mute": false}),
    )
    .await;
    assert_eq!(m["lines"].as_array().map(Vec::len), Some(3), "{m}");

    // Reports: another's message is stored with its text.
    let hello = line["id"].as_u64().expect("id");
    let (st, r) = post(
        &addr,
        &format!("{chat}/report"),
        &black,
        json!({"id": hello}),
    )
    .await;
    assert_eq!((st, &r), (200, &json!({"ok": true})), "{r}");
    let (st, e) = post(&addr, &format!("{chat}/report"), &red, json!({"id": hello})).await;
    assert_eq!(st, 400, "not one's own: {e}");
    let (st, e) = post(&addr, &format!("{chat}/report"), &black, json!({"id": 1})).await;
    assert_eq!(
        (st, e["code"].as_str()),
        (404, Some("no_such_message")),
        "{e}"
    );
    let reports = srv.hall.store.chat_reports(&id).await.expect("reports");
    assert_eq!(reports.len(), 1, "{reports:?}");
    assert_eq!(reports[0].text, "你好, good luck");

    // The rate: five messages in ten seconds (red sent two already).
    for i in 0..3 {
        let (st, e) = post(&addr, &chat, &red, json!({"text": format!("m{i}")})).await;
        assert_eq!(st, 200, "{e}");
    }
    let (st, e) = post(&addr, &chat, &red, json!({"text": "one too many"})).await;
    assert_eq!(
        (st, e["code"].as_str()),
        (429, Some("chat_rate_limited")),
        "{e}"
    );
    let (_, list) = get_as(&addr, &chat, &red).await;
    assert!(
        !list["lines"]
            .as_array()
            .expect("lines")
            .iter()
            .any(|l| l["text"] == "one too many"),
        "{list}"
    );
    srv.shutdown().await;
}

#[tokio::test]
async fn there_is_no_chat_against_the_ai() {
    let (srv, addr) = common::server("chat-ai").await;
    let alice = register(&addr, "alice").await;
    let (_, g) = post(
        &addr,
        "/api/games",
        &alice,
        json!({"game": "count", "opponent": "ai:1"}),
    )
    .await;
    let id = g["id"].as_str().expect("id");
    let (st, e) = post(
        &addr,
        &format!("/api/games/{id}/chat"),
        &alice,
        json!({"text": "hi"}),
    )
    .await;
    assert_eq!(
        (st, e["code"].as_str()),
        (409, Some("chat_unavailable")),
        "{e}"
    );
    let (st, e) = get_as(&addr, &format!("/api/games/{id}/chat"), &alice).await;
    assert_eq!(
        (st, e["code"].as_str()),
        (409, Some("chat_unavailable")),
        "{e}"
    );
    srv.shutdown().await;
}
