//! Regression tests of the second hardening round (issue 34) that need the
//! games that hide information, over real HTTP and WebSocket against a
//! hall on an ephemeral port: hidden set-ups never published in play and
//! never taken back, and Banqi rematch layouts. The other findings are
//! tested in `qiyuan-hall` against its fake game.

use qiyuan_hall::client::{self, GameSocket};
use qiyuan_hall::limits::Limits;
use qiyuan_hall::server::Running;
use serde_json::{Value, json};

use crate::common::{self, get, post, register, temp_db};

async fn server_with(limits: Limits) -> (Running, String) {
    common::server_with(&temp_db("hardening-two"), limits).await
}

async fn get_as(addr: &str, path: &str, token: &str) -> (u16, Value) {
    let r = client::get(addr, path, Some(token)).await.expect("request");
    (r.status, r.json())
}

/// A room of `body` by `red`, joined by `black`; its id.
async fn room(addr: &str, red: &str, black: &str, body: Value) -> String {
    let (st, g) = post(addr, "/api/games", red, body).await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    let (st, j) = post(addr, &format!("/api/games/{id}/join"), black, json!({})).await;
    assert_eq!(st, 200, "{j}");
    id
}

/// A Banqi set-up (full form) with six face-down pieces of six kinds, at
/// ply 50 so that resignation is open (B11).
const BANQI_SETUP: &str = "k?6/?7/?7/?R??4 0 r 50 0 KABRNCPPPPPaabrnnccppppp -- - -,- 0,0 ABNCrb";

/// Finding 1: no game that hides anything, drawn or from a set-up position,
/// sends its start position to anyone while it is played, and none offers
/// takebacks; once over, the start is published.
#[tokio::test]
async fn no_hidden_game_publishes_its_start_or_offers_takebacks() {
    let (srv, addr) = server_with(Limits::default()).await;
    let red = register(&addr, "hidred").await;
    let black = register(&addr, "hidblack").await;
    let junqi_setup = qiyuan_junqi::Position::standard().to_string();
    let cases = [
        json!({"game": "junqi", "fen": junqi_setup}),
        json!({"game": "junqi"}),
        json!({"game": "junqi-flip"}),
        json!({"game": "banqi", "fen": BANQI_SETUP}),
        json!({"game": "banqi"}),
        json!({"game": "banqi-icga"}),
    ];
    for body in cases {
        let id = room(&addr, &red, &black, body.clone()).await;
        let path = format!("/api/games/{id}");
        let views = [
            get(&addr, &path).await,
            get_as(&addr, &path, &red).await,
            get_as(&addr, &path, &black).await,
        ];
        for (st, s) in &views {
            assert_eq!(*st, 200, "{s}");
            assert!(s["start_fen"].is_null(), "{body}: {s}");
            assert_eq!(s["takeback"], false, "{body}: {s}");
        }
        // Nor in the first frame of a socket, the opponent's or a visitor's.
        for tok in [Some(black.as_str()), None] {
            let mut ws = GameSocket::connect(&addr, &format!("{path}/ws"), tok)
                .await
                .expect("ws");
            let s = ws.next_state().await.expect("state");
            assert!(s["start_fen"].is_null(), "{body}: {s}");
        }
        if let Some(setup) = body["fen"].as_str() {
            // The secret part never appears in the opponent's or a
            // visitor's view: Junqi's ranks, Banqi's eleventh field.
            let secret = match body["game"].as_str() {
                Some("banqi") => setup.rsplit(' ').next().unwrap_or(setup),
                _ => setup.split(' ').next().unwrap_or(setup),
            };
            for (_, s) in [&views[0], &views[2]] {
                let text = s.to_string();
                assert!(!text.contains(secret), "{secret} in {text}");
            }
        }
        let (st, e) = post(
            &addr,
            &format!("{path}/takeback"),
            &red,
            json!({"action": "offer"}),
        )
        .await;
        assert_eq!(
            (st, e["code"].as_str()),
            (409, Some("takeback_unavailable")),
            "{body}: {e}"
        );
        // Once over, the set-up may be published.
        if body["fen"].is_string() {
            let (st, s) = post(&addr, &format!("{path}/resign"), &red, json!({})).await;
            assert_eq!(st, 200, "{s}");
            let (_, s) = get(&addr, &path).await;
            assert_eq!(s["status"], "finished", "{s}");
            assert_eq!(s["start_fen"], body["fen"], "{s}");
        }
    }
    srv.shutdown().await;
}

/// Finding 6: the rematch of a Banqi set-up room keeps the public position
/// but draws its face-down pieces again: the layout the finished game
/// published is not the one played.
#[tokio::test]
async fn a_banqi_set_up_rematch_draws_its_face_down_pieces_again() {
    let (srv, addr) = server_with(Limits::default()).await;
    let red = register(&addr, "bqrred").await;
    let black = register(&addr, "bqrblack").await;
    let mut layouts = std::collections::BTreeSet::new();
    let mut id = room(
        &addr,
        &red,
        &black,
        json!({"game": "banqi", "fen": BANQI_SETUP}),
    )
    .await;
    let toks = [red.as_str(), black.as_str()];
    for round in 0..6 {
        let (st, s) = post(&addr, &format!("/api/games/{id}/resign"), &red, json!({})).await;
        assert_eq!(st, 200, "{s}");
        let (_, s) = get(&addr, &format!("/api/games/{id}")).await;
        let start = s["start_fen"]
            .as_str()
            .expect("published once over")
            .to_string();
        let public: Vec<&str> = start.split(' ').take(10).collect();
        let original: Vec<&str> = BANQI_SETUP.split(' ').take(10).collect();
        assert_eq!(
            public, original,
            "round {round}: the public position is kept"
        );
        layouts.insert(start.rsplit(' ').next().unwrap_or("").to_string());
        for tok in toks {
            let (st, r) = post(&addr, &format!("/api/games/{id}/rematch"), tok, json!({})).await;
            assert_eq!(st, 200, "{r}");
        }
        let (_, s) = get(&addr, &format!("/api/games/{id}")).await;
        id = s["rematch_id"].as_str().expect("a rematch").to_string();
        let (_, s) = get(&addr, &format!("/api/games/{id}")).await;
        assert!(
            s["start_fen"].is_null(),
            "a rematch in play hides its start: {s}"
        );
    }
    // Six face-down kinds: 720 arrangements; seven layouts drawn alike by
    // chance would be far rarer than one in 10^15.
    assert!(layouts.len() > 1, "the layout was reused: {layouts:?}");
    srv.shutdown().await;
}
