//! Correspondence games (issue 36): days per move for every two-seat kind;
//! each move gets the full time again, the first move has the whole time
//! too, nobody can claim a game because the other is away, and the game
//! goes on after a restart.

use serde_json::json;

use crate::common::{get, post, register, server_with, temp_db};

#[tokio::test]
async fn a_correspondence_game_gives_each_move_its_days_and_survives_a_restart() {
    let db = temp_db("corr");
    let limits = || qiyuan_hall::limits::Limits {
        first_move_grace: std::time::Duration::from_millis(100),
        absence_claim: std::time::Duration::from_millis(100),
        ..Default::default()
    };
    let (srv, addr) = server_with(&db, limits()).await;
    let a = register(&addr, "ann").await;
    let b = register(&addr, "bob").await;
    for bad in [
        json!({"game": "count", "days": 4}),
        json!({"game": "count", "days": 0}),
    ] {
        let (st, e) = post(&addr, "/api/games", &a, bad).await;
        assert_eq!((st, e["code"].clone()), (400, json!("out_of_range")), "{e}");
    }
    let (st, e) = post(
        &addr,
        "/api/games",
        &a,
        json!({"game": "count", "days": 3, "clock": {"initial_s": 60}}),
    )
    .await;
    assert_eq!(st, 400, "clock and days together: {e}");
    let (st, g) = post(
        &addr,
        "/api/games",
        &a,
        json!({"game": "count", "days": 3, "rated": true}),
    )
    .await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    let (_, lobby) = get(&addr, "/api/lobby").await;
    assert_eq!(
        lobby["open"][0]["clock"]["days"], 3,
        "the lobby shows the days: {lobby}"
    );
    let (st, _) = post(&addr, &format!("/api/games/{id}/join"), &b, json!({})).await;
    assert_eq!(st, 200);
    let three_days = 3 * 86_400_000_i64;
    // The live first-move grace (100 ms here) does not apply: days do.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let (_, s) = get(&addr, &format!("/api/games/{id}")).await;
    assert_eq!(s["status"], "playing", "{s}");
    assert_eq!(s["clock"]["days"], 3, "{s}");
    assert_eq!(s["clock"]["initial_s"], 3 * 86_400, "{s}");
    let (st, v) = post(
        &addr,
        &format!("/api/games/{id}/moves"),
        &a,
        json!({"move": "+1"}),
    )
    .await;
    assert_eq!(st, 200, "{v}");
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    let (st, v) = post(
        &addr,
        &format!("/api/games/{id}/moves"),
        &b,
        json!({"move": "+1"}),
    )
    .await;
    assert_eq!(st, 200, "{v}");
    // Each move starts with the full time again.
    assert_eq!(v["clocks"][1], three_days, "{v}");
    let left = v["clocks"][0].as_i64().expect("ms");
    assert!(three_days - left < 5_000, "{v}");
    // Ann is away without a socket, well past the live absence time: no claim.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
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
    // It is one of Ann's games, with the days shown.
    let r = qiyuan_hall::client::get(&addr, "/api/my/games", Some(&a))
        .await
        .expect("mine");
    let mine = r.json();
    let listed = mine["games"]
        .as_array()
        .and_then(|g| g.iter().find(|g| g["id"] == id.as_str()))
        .cloned()
        .unwrap_or_else(|| panic!("listed: {mine}"));
    assert_eq!(listed["clock"]["days"], 3, "{listed}");
    assert_eq!(listed["your_turn"], true, "{listed}");
    srv.shutdown().await;

    // A restart: the game goes on.
    let (srv, addr) = server_with(&db, limits()).await;
    let (_, s) = get(&addr, &format!("/api/games/{id}")).await;
    assert_eq!(s["status"], "playing", "{s}");
    let (st, v) = post(
        &addr,
        &format!("/api/games/{id}/moves"),
        &a,
        json!({"move": "+2"}),
    )
    .await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["clocks"][0], three_days, "{v}");
    srv.shutdown().await;
}
