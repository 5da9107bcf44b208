//! A large lobby reaches a new lobby socket in small frames (issue 36's
//! lobby benchmark: one big first frame left every socket's write buffer
//! that large while it stayed open): the oldest entries in the `lobby`
//! frame, then a `lobby_change` per newer entry, oldest first; applied in
//! order, as the page applies changes (an entry listed goes first), they
//! give the lobby of `GET /api/lobby`.

use std::time::Duration;

use futures_util::StreamExt;
use qiyuan_hall::client::connect_ws;
use qiyuan_hall::limits::Limits;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

use crate::common::{get, post, register, server_with, temp_db};

/// The ids of a lobby list.
fn ids(list: &Value) -> Vec<String> {
    list.as_array()
        .expect("a list")
        .iter()
        .map(|g| g["id"].as_str().expect("id").to_string())
        .collect()
}

#[tokio::test]
async fn a_large_lobby_comes_in_small_frames_that_add_up_to_it() {
    let limits = Limits {
        open_rooms_per_user: 40,
        ..Limits::default()
    };
    let (srv, addr) = server_with(&temp_db("lobby-frames"), limits).await;
    let tok = register(&addr, "host").await;
    for _ in 0..30 {
        let (st, g) = post(&addr, "/api/games", &tok, json!({"game": "count"})).await;
        assert_eq!(st, 201, "{g}");
    }
    let (st, whole) = get(&addr, "/api/lobby").await;
    assert_eq!(st, 200);
    assert!(whole.to_string().len() > 6000, "a lobby over the budget");
    let mut ws = connect_ws(&addr, "/api/lobby/ws", None).await.expect("ws");
    let mut frames = Vec::new();
    // Everything the socket sends at once (then it is quiet).
    while let Ok(Some(Ok(m))) = tokio::time::timeout(Duration::from_millis(500), ws.next()).await {
        if let Message::Text(t) = m {
            frames.push(t.to_string());
        }
    }
    assert!(frames.len() > 1, "split: {}", frames.len());
    assert!(frames.iter().all(|f| f.len() < 4096 + 512), "small frames");
    let mut open: Vec<Value> = Vec::new();
    for (i, f) in frames.iter().enumerate() {
        let v: Value = serde_json::from_str(f).expect("json");
        if i == 0 {
            assert_eq!(v["t"], "lobby", "{v}");
            open = v["open"].as_array().expect("open").clone();
        } else {
            assert_eq!(v["t"], "lobby_change", "{v}");
            let g = v["game"].clone();
            open.retain(|o| o["id"] != g["id"]);
            open.insert(0, g);
        }
    }
    assert_eq!(ids(&Value::from(open)), ids(&whole["open"]));
    srv.shutdown().await;
}
