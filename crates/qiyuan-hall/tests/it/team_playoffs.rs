//! H8 for teams: a title tied after the round robin is played off, every
//! board armageddon (a draw is black's win), and the table then ranks the
//! play-off's winner first, unshared. On the fake game (`count`); moved
//! from the binary's tests.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common;
use crate::common::{get, post, register};

async fn agree_draw(addr: &str, game: &str, red: &str, black: &str) {
    let (st, v) = post(
        addr,
        &format!("/api/games/{game}/draw"),
        red,
        json!({"action": "offer"}),
    )
    .await;
    assert_eq!(st, 200, "{v}");
    let (st, v) = post(
        addr,
        &format!("/api/games/{game}/draw"),
        black,
        json!({"action": "accept"}),
    )
    .await;
    assert_eq!(st, 200, "{v}");
}

async fn wait(addr: &str, id: &str, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let (st, ev) = get(addr, &format!("/api/team-events/{id}")).await;
        assert_eq!(st, 200, "{ev}");
        if done(&ev) {
            return ev;
        }
        assert!(start.elapsed() < Duration::from_secs(15), "{what}: {ev}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn h8_a_tied_team_title_is_played_off_by_armageddon() {
    let (srv, addr) = common::server("team-playoff").await;
    let ann = register(&addr, "ann").await;
    let ben = register(&addr, "ben").await;
    let (id, ev) = common::team_duel(&addr, (&ann, "ann"), (&ben, "ben"), ("Reds", "Blues")).await;
    let token = |name: &Value| {
        if name == "ann" {
            ann.clone()
        } else {
            ben.clone()
        }
    };

    // The only match of the round robin is drawn: both teams on 1 match point.
    let b = ev["rounds"][0]["matches"][0]["boards"][0].clone();
    let game = b["game_id"].as_str().expect("game").to_string();
    agree_draw(&addr, &game, &token(&b["red"]), &token(&b["black"])).await;

    // The title may not be shared: a play-off starts, armageddon clocks.
    let ev = wait(&addr, &id, "play-off", |ev| {
        ev["playoffs"][0]["rounds"][0]["matches"][0]["boards"][0]["game_id"].is_string()
    })
    .await;
    assert_eq!(ev["status"], "running", "{ev}");
    assert_eq!(ev["playoffs"][0]["place"], 1, "{ev}");
    let pb = ev["playoffs"][0]["rounds"][0]["matches"][0]["boards"][0].clone();
    let pgame = pb["game_id"].as_str().expect("play-off game").to_string();
    let (st, g) = get(&addr, &format!("/api/games/{pgame}")).await;
    assert_eq!(st, 200, "{g}");
    let clocks = g["clocks"].clone();
    assert!(
        clocks[0].as_i64().unwrap_or(0) > clocks[1].as_i64().unwrap_or(0),
        "red has more time in armageddon: {g}"
    );
    let (st, s) = get(&addr, &format!("/api/team-events/{id}/standings")).await;
    assert_eq!(st, 200, "{s}");
    assert_eq!(
        s["rows"][0]["shared"], true,
        "still tied while the play-off runs: {s}"
    );
    assert_eq!(s["needs_playoff"][0]["place"], 1, "{s}");

    // The play-off game is drawn too: black's team takes the title.
    agree_draw(&addr, &pgame, &token(&pb["red"]), &token(&pb["black"])).await;
    let ev = wait(&addr, &id, "finish", |ev| ev["status"] == "finished").await;
    let black_team = if pb["black"] == "ann" {
        "Reds"
    } else {
        "Blues"
    };
    let other = if black_team == "Reds" {
        "Blues"
    } else {
        "Reds"
    };
    assert_eq!(
        ev["playoffs"][0]["order"],
        json!([black_team, other]),
        "{ev}"
    );
    let (_, s) = get(&addr, &format!("/api/team-events/{id}/standings")).await;
    assert_eq!(s["rows"][0]["name"], black_team, "{s}");
    assert_eq!(s["rows"][0]["rank"], 1, "{s}");
    assert_eq!(s["rows"][0]["shared"], false, "{s}");
    assert_eq!(s["rows"][1]["rank"], 2, "{s}");
    assert_eq!(s["needs_playoff"], json!([]), "{s}");
    srv.shutdown().await;
}
