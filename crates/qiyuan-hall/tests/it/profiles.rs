//! Profiles and the player picker (issue 37, item 12): a profile says each
//! game's result from its owner's side (won, drawn, lost, with the seat
//! played) and totals per game kind, and shows game points only for kinds
//! that settle them and the owner played; `GET /api/users?prefix=` lists
//! registered names by prefix, bounded, with JSON errors for bad input.
//! Item 13: `/favicon.ico` answers (no 404 on every first visit).

use qiyuan_hall::client;
use serde_json::{Value, json};

use crate::common;
use crate::common::{get, post, register};

/// A started game of count: `red` created it (seat 0), `black` joined.
async fn start(addr: &str, red: &str, black: &str) -> String {
    let (st, g) = post(
        addr,
        "/api/games",
        red,
        json!({"game": "count", "opponent": "open", "rated": false}),
    )
    .await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    let (st, j) = post(addr, &format!("/api/games/{id}/join"), black, json!({})).await;
    assert_eq!(st, 200, "{j}");
    id
}

async fn play(addr: &str, id: &str, token: &str, mv: &str) -> Value {
    let (st, s) = post(
        addr,
        &format!("/api/games/{id}/moves"),
        token,
        json!({"move": mv}),
    )
    .await;
    assert_eq!(st, 200, "{s}");
    s
}

fn game<'a>(profile: &'a Value, id: &str) -> &'a Value {
    profile["games"]
        .as_array()
        .and_then(|g| g.iter().find(|g| g["id"] == id))
        .unwrap_or_else(|| panic!("{id} not in {profile}"))
}

#[tokio::test]
async fn a_profile_gives_results_from_its_owners_side_and_totals_per_kind() {
    let (_srv, addr) = common::server("profile-sides").await;
    let alice = register(&addr, "alice").await;
    let bob = register(&addr, "bob").await;

    // Alice (seat 0) reaches ten first: she won, bob lost.
    let won = start(&addr, &alice, &bob).await;
    for (who, n) in [(&alice, 0), (&bob, 1), (&alice, 2), (&bob, 3), (&alice, 4)] {
        let s = play(&addr, &won, who, "+2").await;
        if n == 4 {
            assert_eq!(s["status"], "finished", "{s}");
        }
    }
    // Bob (seat 0) and alice (seat 1) agree a draw.
    let drawn = start(&addr, &bob, &alice).await;
    play(&addr, &drawn, &bob, "+1").await;
    play(&addr, &drawn, &alice, "+1").await;
    let (st, _) = post(
        &addr,
        &format!("/api/games/{drawn}/draw"),
        &bob,
        json!({"action": "offer"}),
    )
    .await;
    assert_eq!(st, 200);
    let (st, s) = post(
        &addr,
        &format!("/api/games/{drawn}/draw"),
        &alice,
        json!({"action": "accept"}),
    )
    .await;
    assert_eq!((st, &s["result"]), (200, &json!("draw")), "{s}");
    // Alice (seat 0) resigns: she lost.
    let lost = start(&addr, &alice, &bob).await;
    play(&addr, &lost, &alice, "+1").await;
    play(&addr, &lost, &bob, "+1").await;
    let (st, s) = post(
        &addr,
        &format!("/api/games/{lost}/resign"),
        &alice,
        json!({}),
    )
    .await;
    assert_eq!(st, 200, "{s}");
    // A room nobody joined yet: listed, no result.
    let (st, w) = post(
        &addr,
        "/api/games",
        &alice,
        json!({"game": "count", "opponent": "open"}),
    )
    .await;
    assert_eq!(st, 201, "{w}");
    let waiting = w["id"].as_str().expect("id").to_string();

    let (st, p) = get(&addr, "/api/users/alice").await;
    assert_eq!(st, 200, "{p}");
    let side = |id: &str| {
        let g = game(&p, id);
        (g["seat"].clone(), g["outcome"].clone(), g["place"].clone())
    };
    assert_eq!(side(&won), (json!(0), json!("won"), json!(1)), "{p}");
    assert_eq!(side(&drawn), (json!(1), json!("drawn"), json!(1)), "{p}");
    assert_eq!(side(&lost), (json!(0), json!("lost"), json!(2)), "{p}");
    assert_eq!(side(&waiting), (json!(0), Value::Null, Value::Null), "{p}");
    assert_eq!(
        p["totals"],
        json!({"count": {"won": 1, "drawn": 1, "lost": 1}}),
        "{p}"
    );
    // The fake game settles no points: no ledger to show, not a "0".
    assert_eq!(p["points"], json!({}), "{p}");

    let (_, b) = get(&addr, "/api/users/bob").await;
    assert_eq!(
        (&game(&b, &won)["seat"], &game(&b, &won)["outcome"]),
        (&json!(1), &json!("lost")),
        "{b}"
    );
    assert_eq!(game(&b, &lost)["outcome"], "won", "{b}");
    assert_eq!(
        b["totals"],
        json!({"count": {"won": 1, "drawn": 1, "lost": 1}}),
        "{b}"
    );

    // Someone who never played: no totals, no points.
    register(&addr, "carol").await;
    let (_, c) = get(&addr, "/api/users/carol").await;
    assert_eq!(
        (&c["totals"], &c["points"]),
        (&json!({}), &json!({})),
        "{c}"
    );
    assert_eq!(c["games"], json!([]), "{c}");
}

#[tokio::test]
async fn a_game_of_three_gives_each_player_its_place() {
    let (_srv, addr) = common::server("profile-places").await;
    let a = register(&addr, "ann").await;
    let b = register(&addr, "ben").await;
    let c = register(&addr, "cid").await;
    let (st, g) = post(
        &addr,
        "/api/games",
        &a,
        json!({"game": "count-3", "opponent": "open"}),
    )
    .await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    for t in [&b, &c] {
        let (st, j) = post(&addr, &format!("/api/games/{id}/join"), t, json!({})).await;
        assert_eq!(st, 200, "{j}");
    }
    // In turn, +2 each: ann 2, ben 4, cid 6, ann 8, ben 10 wins.
    let order = [&a, &b, &c, &a, &b];
    for t in order {
        play(&addr, &id, t, "+2").await;
    }
    let (_, s) = get(&addr, &format!("/api/games/{id}")).await;
    assert_eq!(s["status"], "finished", "{s}");
    let (_, pb) = get(&addr, "/api/users/ben").await;
    assert_eq!(game(&pb, &id)["outcome"], "won", "{pb}");
    assert_eq!(game(&pb, &id)["place"], 1, "{pb}");
    let (_, pa) = get(&addr, "/api/users/ann").await;
    assert_eq!(game(&pa, &id)["outcome"], "lost", "{pa}");
    assert_eq!(
        pa["totals"]["count"],
        json!({"won": 0, "drawn": 0, "lost": 1}),
        "{pa}"
    );
}

#[tokio::test]
async fn user_search_is_bounded_and_matches_the_prefix_literally() {
    let (_srv, addr) = common::server("user-search").await;
    for n in ["alice", "Alina", "albert", "al_x", "alpha", "bob"] {
        register(&addr, n).await;
    }
    // A guest is never offered.
    let r = client::post(&addr, "/api/guest", None, &json!({}))
        .await
        .expect("guest");
    assert_eq!(r.status, 200, "{}", r.body);
    let names = |v: &Value| -> Vec<String> {
        serde_json::from_value(v["users"].clone()).unwrap_or_else(|_| panic!("{v}"))
    };

    let (st, v) = get(&addr, "/api/users?prefix=AL").await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(
        names(&v),
        ["al_x", "albert", "alice", "Alina", "alpha"],
        "case ignored, alphabetical"
    );
    let (_, v) = get(&addr, "/api/users?prefix=al_").await;
    assert_eq!(names(&v), ["al_x"], "'_' is a character, not a wildcard");
    let (_, v) = get(&addr, "/api/users?prefix=%25").await;
    assert_eq!(names(&v), Vec::<String>::new(), "'%' matches only itself");
    let (_, v) = get(&addr, "/api/users?prefix=guest").await;
    assert_eq!(names(&v), Vec::<String>::new(), "no guests");
    let (_, v) = get(&addr, "/api/users?prefix=al&limit=2").await;
    assert_eq!(names(&v), ["al_x", "albert"]);

    // Bounded: 10 by default, 20 at most.
    for i in 0..25 {
        register(&addr, &format!("p{i:02}")).await;
    }
    let (_, v) = get(&addr, "/api/users?prefix=p").await;
    assert_eq!(names(&v).len(), 10, "{v}");
    let (_, v) = get(&addr, "/api/users?prefix=p&limit=20").await;
    assert_eq!(names(&v).len(), 20, "{v}");
    assert_eq!(names(&v)[0], "p00");

    // Bad input: a JSON error with a stable code.
    let long = "a".repeat(21);
    for (query, code) in [
        ("prefix=", "out_of_range"),
        (long.as_str(), "out_of_range"),
        ("prefix=a&limit=0", "out_of_range"),
        ("prefix=a&limit=21", "out_of_range"),
        ("prefix=a&limit=many", "bad_query"),
        ("", "bad_query"),
        ("prefix=a&colour=red", "bad_query"),
        ("prefix=a%01", "bad_query"),
    ] {
        let query = if query == long {
            format!("prefix={long}")
        } else {
            query.to_string()
        };
        let (st, e) = get(&addr, &format!("/api/users?{query}")).await;
        assert_eq!((st, e["code"].as_str()), (400, Some(code)), "{query}: {e}");
        assert!(e["error"].is_string(), "{e}");
    }
}

#[tokio::test]
async fn the_favicon_is_served_and_linked() {
    let (_srv, addr) = common::server("favicon").await;
    for path in ["/favicon.ico", "/static/favicon.svg"] {
        let r = client::get(&addr, path, None).await.expect("request");
        assert_eq!(r.status, 200, "{path}");
        assert_eq!(r.header("content-type"), Some("image/svg+xml"), "{path}");
        assert!(r.body.contains("<svg"), "{path}");
    }
    let page = client::get(&addr, "/", None).await.expect("page");
    assert!(
        page.body
            .contains(r#"rel="icon" href="/static/favicon.svg""#),
        "{}",
        page.body
    );
}
