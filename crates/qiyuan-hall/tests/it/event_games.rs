//! Events and team events play two-seat games only: a variant played by
//! more seats (the fake game's `count-3`) is refused at creation with
//! `not_two_seats`, decided from the registry's seat counts, instead of an
//! event that falls into `error` once its invitees accept. (Moved from the
//! binary's tests, where a real game's 3-, 4- and 6-seat variants served.)

use serde_json::{Value, json};

use crate::common;
use crate::common::{get, post, register};

/// The variants `GET /api/kinds` lists with their seat counts.
async fn variants(addr: &str) -> Vec<(String, Vec<u64>)> {
    let (st, kinds) = get(addr, "/api/kinds").await;
    assert_eq!(st, 200, "{kinds}");
    let mut out = Vec::new();
    for k in kinds["kinds"].as_array().expect("kinds") {
        for v in k["variants"].as_array().expect("variants") {
            let name = v["name"].as_str().expect("name").to_string();
            let seats = v["seats"]
                .as_array()
                .expect("seats")
                .iter()
                .filter_map(Value::as_u64)
                .collect();
            out.push((name, seats));
        }
    }
    out
}

#[tokio::test]
async fn events_refuse_games_of_more_than_two_seats_at_creation() {
    let (srv, addr) = common::server("event-games").await;
    let ann = register(&addr, "ann").await;
    let ben = register(&addr, "ben").await;

    let all = variants(&addr).await;
    let many: Vec<&String> = all
        .iter()
        .filter(|(_, s)| s.first() != Some(&2))
        .map(|(n, _)| n)
        .collect();
    assert!(many.iter().any(|n| *n == "count-3"), "count-3 in {all:?}");
    for game in &many {
        let (st, v) = post(
            &addr,
            "/api/team-events",
            &ann,
            json!({"game": game, "teams": [
                {"name": "Reds", "players": ["ann"]},
                {"name": "Blues", "players": ["ben"]},
            ]}),
        )
        .await;
        assert_eq!(
            (st, v["code"].as_str()),
            (400, Some("not_two_seats")),
            "{game}: {v}"
        );
        let msg = v["error"].as_str().unwrap_or("");
        assert!(
            msg.contains(game.as_str()) && msg.contains("games that fit: count"),
            "{v}"
        );
        let (st, v) = post(
            &addr,
            "/api/events",
            &ann,
            json!({"game": game, "players": ["ann", "ai:1"],
                   "format": {"kind": "round_robin", "cycles": 1}}),
        )
        .await;
        assert_eq!(
            (st, v["code"].as_str()),
            (400, Some("not_two_seats")),
            "{game}: {v}"
        );
    }
    // Nothing was stored.
    for list in ["/api/team-events", "/api/events"] {
        let (st, evs) = get(&addr, list).await;
        assert_eq!(st, 200, "{evs}");
        assert!(!evs.to_string().contains("count-"), "{list}: {evs}");
    }

    // The served document offers events only the games they can play.
    let (st, doc) = get(&addr, "/api/openapi.json").await;
    assert_eq!(st, 200);
    let games = |schema: &str| {
        doc["components"]["schemas"][schema]["properties"]["game"]["enum"].to_string()
    };
    for schema in ["NewEvent", "NewTeamEvent"] {
        assert!(
            games(schema).contains("\"count\""),
            "{schema}: {}",
            games(schema)
        );
        assert!(
            !games(schema).contains("count-"),
            "{schema}: {}",
            games(schema)
        );
    }
    assert!(
        games("NewGame").contains("\"count-3\""),
        "{}",
        games("NewGame")
    );

    // Two-seat count still plays: the invitee accepts and the board starts.
    let (st, ev) = post(
        &addr,
        "/api/team-events",
        &ann,
        json!({"game": "count", "teams": [
            {"name": "Reds", "players": ["ann"]},
            {"name": "Blues", "players": ["ben"]},
        ]}),
    )
    .await;
    assert_eq!(st, 201, "{ev}");
    let id = ev["id"].as_str().expect("id");
    let (st, ev) = post(
        &addr,
        &format!("/api/team-events/{id}/accept"),
        &ben,
        json!({}),
    )
    .await;
    assert_eq!((st, ev["status"].as_str()), (200, Some("running")), "{ev}");
    let game = ev["rounds"][0]["matches"][0]["boards"][0]["game_id"]
        .as_str()
        .expect("the board's game");
    let (st, g) = get(&addr, &format!("/api/games/{game}")).await;
    assert_eq!((st, g["status"].as_str()), (200, Some("playing")), "{g}");
    srv.shutdown().await;
}
