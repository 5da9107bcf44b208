//! Saved presets (Junqi set-ups, Q4): save, list, replace, delete, every
//! refusal with its code, and the preset marked `on_timeout` played for a
//! player whose set-up time runs out.

use crate::common;

use std::time::Duration;

use crate::common::{post, register, server, temp_db};
use qiyuan_hall::client::{self, GameSocket};
use serde_json::{Value, json};

/// A legal Junqi set-up (Q13 text, back rank first).
const SETUP: &str = "CFMMDGMZLJS.P.TPZ.GYL.D.TYGCPC";
/// Another, with the flag in the right headquarters.
const SETUP_RIGHT: &str = "DMMFCJLZMGT.P.SYG.ZPT.D.LCPCGY";

async fn put(addr: &str, path: &str, token: Option<&str>, body: Value) -> (u16, Value) {
    let bytes = body.to_string();
    let r = client::request(
        addr,
        "PUT",
        path,
        token,
        Some(bytes.as_bytes()),
        &[("Content-Type", "application/json")],
    )
    .await
    .expect("request");
    (r.status, r.json())
}

async fn delete(addr: &str, path: &str, token: &str) -> (u16, Value) {
    let r = client::request(addr, "DELETE", path, Some(token), None, &[])
        .await
        .expect("request");
    (r.status, r.json())
}

async fn list(addr: &str, token: &str) -> Vec<Value> {
    let r = client::get(addr, "/api/presets", Some(token))
        .await
        .expect("request");
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()["presets"].as_array().cloned().unwrap_or_default()
}

#[tokio::test]
async fn presets_are_saved_listed_replaced_and_deleted_with_every_refusal_coded() {
    let (_srv, addr) = server("presets").await;
    let tok = register(&addr, "planner").await;
    let other = register(&addr, "stranger").await;

    // Nobody but a signed-in user.
    let (st, _) = put(&addr, "/api/presets/junqi/a", None, json!({"text": SETUP})).await;
    assert_eq!(st, 401);

    let (st, e) = put(
        &addr,
        "/api/presets/junqi/left",
        Some(&tok),
        json!({"text": SETUP}),
    )
    .await;
    assert_eq!(st, 200, "{e}");
    let (st, e) = put(
        &addr,
        "/api/presets/junqi/right",
        Some(&tok),
        json!({"text": SETUP_RIGHT, "on_timeout": true}),
    )
    .await;
    assert_eq!(st, 200, "{e}");
    let mine = list(&addr, &tok).await;
    assert_eq!(mine.len(), 2, "{mine:?}");
    assert_eq!(mine[0]["name"], "left");
    assert_eq!(mine[1]["on_timeout"], true);
    // Another user sees none of them.
    assert!(list(&addr, &other).await.is_empty());

    // Marking another for the timeout clears the first mark; saving a name
    // again replaces it.
    let (st, _) = put(
        &addr,
        "/api/presets/junqi/left",
        Some(&tok),
        json!({"text": SETUP, "on_timeout": true}),
    )
    .await;
    assert_eq!(st, 200);
    let mine = list(&addr, &tok).await;
    assert_eq!(mine.len(), 2);
    assert_eq!(mine[0]["on_timeout"], true, "{mine:?}");
    assert_eq!(mine[1]["on_timeout"], false, "{mine:?}");

    // Refusals: each with a stable code, and nothing changes.
    let bad = SETUP.replacen('F', "P", 1);
    let (st, e) = put(
        &addr,
        "/api/presets/junqi/bad",
        Some(&tok),
        json!({"text": bad}),
    )
    .await;
    assert_eq!((st, e["code"].as_str()), (400, Some("bad_preset")), "{e}");
    assert!(
        e["error"].as_str().unwrap_or("").contains("军旗")
            || e["error"].as_str().unwrap_or("").contains("flag"),
        "{e}"
    );
    let (st, e) = put(
        &addr,
        "/api/presets/xiangqi/a",
        Some(&tok),
        json!({"text": SETUP}),
    )
    .await;
    assert_eq!((st, e["code"].as_str()), (400, Some("bad_preset")), "{e}");
    let (st, _) = put(
        &addr,
        "/api/presets/nogame/a",
        Some(&tok),
        json!({"text": SETUP}),
    )
    .await;
    assert_eq!(st, 404);
    let long_name = "n".repeat(33);
    let (st, e) = put(
        &addr,
        &format!("/api/presets/junqi/{long_name}"),
        Some(&tok),
        json!({"text": SETUP}),
    )
    .await;
    assert_eq!(
        (st, e["code"].as_str()),
        (400, Some("bad_preset_name")),
        "{e}"
    );
    let (st, e) = put(
        &addr,
        "/api/presets/junqi/big",
        Some(&tok),
        json!({"text": "M".repeat(300)}),
    )
    .await;
    assert_eq!((st, e["code"].as_str()), (400, Some("bad_preset")), "{e}");
    let (st, _) = put(
        &addr,
        "/api/presets/junqi/odd",
        Some(&tok),
        json!({"text": SETUP, "extra": 1}),
    )
    .await;
    assert_eq!(st, 400, "unknown fields are refused");
    assert_eq!(list(&addr, &tok).await.len(), 2);

    // At most 20.
    for i in 2..20 {
        let (st, _) = put(
            &addr,
            &format!("/api/presets/junqi/p{i}"),
            Some(&tok),
            json!({"text": SETUP}),
        )
        .await;
        assert_eq!(st, 200);
    }
    let (st, e) = put(
        &addr,
        "/api/presets/junqi/p20",
        Some(&tok),
        json!({"text": SETUP}),
    )
    .await;
    assert_eq!(
        (st, e["code"].as_str()),
        (400, Some("too_many_presets")),
        "{e}"
    );
    // Replacing one is still allowed at the limit.
    let (st, _) = put(
        &addr,
        "/api/presets/junqi/p2",
        Some(&tok),
        json!({"text": SETUP_RIGHT}),
    )
    .await;
    assert_eq!(st, 200);

    // Delete: once, then 404; another user cannot delete mine.
    let (st, _) = delete(&addr, "/api/presets/junqi/p2", &other).await;
    assert_eq!(st, 404);
    let (st, _) = delete(&addr, "/api/presets/junqi/p2", &tok).await;
    assert_eq!(st, 200);
    let (st, _) = delete(&addr, "/api/presets/junqi/p2", &tok).await;
    assert_eq!(st, 404);
    assert_eq!(list(&addr, &tok).await.len(), 19);
}

#[tokio::test]
async fn the_preset_marked_for_the_timeout_is_played_when_the_set_up_time_runs_out() {
    let db = temp_db("presets-timeout");
    let (_srv, addr) = common::server_at(&db).await;
    let tok = register(&addr, "sleepy").await;
    let (st, _) = put(
        &addr,
        "/api/presets/junqi/mine",
        Some(&tok),
        json!({"text": SETUP_RIGHT, "on_timeout": true}),
    )
    .await;
    assert_eq!(st, 200);
    let (st, g) = post(
        &addr,
        "/api/games",
        &tok,
        json!({"game": "junqi", "opponent": "ai:1", "seat": "red", "clock": {"initial_s": 1}}),
    )
    .await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    let mut ws = GameSocket::connect(&addr, &format!("/api/games/{id}/ws"), Some(&tok))
        .await
        .expect("ws");
    // The person never sends a set-up; after a second the hall plays the
    // saved one for them, as its first record.
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    let red_setup = loop {
        assert!(std::time::Instant::now() < deadline, "{}", ws.game.state());
        let _ = tokio::time::timeout(Duration::from_secs(10), ws.next_frame()).await;
        let s = ws.game.state().clone();
        let red = s["records"]
            .as_array()
            .and_then(|r| r.iter().find(|r| r["seat"] == "red"))
            .and_then(|r| r["iccs"].as_str())
            .map(String::from);
        if let Some(red) = red {
            break red;
        }
    };
    assert_eq!(red_setup, SETUP_RIGHT);
}
