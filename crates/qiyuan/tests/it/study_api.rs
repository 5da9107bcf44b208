//! Studies, the opening explorer and results by opening over real HTTP
//! with the real games (issue 39).

use qiyuan_hall::client;
use serde_json::{Value, json};

use crate::common::{eventually, get, post, register, server, xiangqi_game};

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

async fn send(
    addr: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Value,
) -> (u16, Value) {
    let b = body.to_string();
    let r = client::request(addr, method, path, token, Some(b.as_bytes()), &[])
        .await
        .expect("request");
    (r.status, r.json())
}

/// A rated game between `red` and `black`: `moves` played in turn, then
/// `loser` (0 red, 1 black) resigns.
async fn rated_game(addr: &str, red: &str, black: &str, moves: &[&str], loser: usize) -> String {
    let id = xiangqi_game(addr, red, black, true, 300, moves).await;
    let who = if loser == 0 { red } else { black };
    let (st, r) = post(addr, &format!("/api/games/{id}/resign"), who, json!({})).await;
    assert_eq!(st, 200, "{r}");
    id
}

fn explorer_path(fen: &str) -> String {
    let enc: String = fen
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect();
    format!("/api/explorer?variant=xiangqi&fen={enc}")
}

#[tokio::test]
async fn two_finished_rated_games_show_in_the_explorer_and_the_opening_table() {
    let (_srv, addr) = server("explorer").await;
    let red = register(&addr, "exred").await;
    let black = register(&addr, "exblack").await;
    // Red wins one (black resigns), black wins the other.
    rated_game(&addr, &red, &black, &["h2e2", "h9g7", "h0g2", "i9h9"], 1).await;
    rated_game(&addr, &red, &black, &["h2e2", "b9c7", "b0c2", "a9b9"], 0).await;

    let at_start = eventually("both games indexed", || async {
        let (st, v) = get(&addr, &explorer_path(START)).await;
        assert_eq!(st, 200, "{v}");
        (v["games"] == 2).then_some(v)
    })
    .await;
    let moves = at_start["moves"].as_array().expect("moves");
    assert_eq!(moves.len(), 1, "{at_start}");
    assert_eq!(moves[0]["move"], "h2e2");
    assert_eq!(moves[0]["games"], 2);
    assert_eq!(moves[0]["wins"], 1);
    assert_eq!(moves[0]["losses"], 1);
    assert_eq!(moves[0]["draws"], 0);
    assert!(moves[0]["rating"].as_i64().is_some(), "{at_start}");
    // The move counters do not matter; black's replies, from black's side.
    let after = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 7 30";
    let (st, v) = get(&addr, &explorer_path(after)).await;
    assert_eq!(st, 200, "{v}");
    let replies: Vec<(String, i64, i64)> = v["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| {
            (
                m["move"].as_str().expect("move").to_string(),
                m["wins"].as_i64().expect("wins"),
                m["losses"].as_i64().expect("losses"),
            )
        })
        .collect();
    assert_eq!(
        replies,
        vec![("b9c7".to_string(), 1, 0), ("h9g7".to_string(), 0, 1)],
        "{v}"
    );
    // A position nobody reached has no moves; a long one is refused.
    let (st, v) = get(&addr, &explorer_path("9/9/9 w - - 0 1")).await;
    assert_eq!((st, v["games"].as_i64()), (200, Some(0)));
    let (st, v) = get(&addr, &explorer_path(&"r".repeat(300))).await;
    assert_eq!(st, 400, "{v}");
    let (st, v) = get(&addr, "/api/explorer?variant=nogame&fen=x").await;
    assert_eq!(st, 404, "{v}");

    // Results by opening: both games have one, from each player's side.
    let (st, o) = get(&addr, "/api/users/exred/openings").await;
    assert_eq!(st, 200, "{o}");
    assert_eq!(o["games"], 2, "{o}");
    let rows = o["openings"].as_array().expect("openings");
    let won: i64 = rows.iter().map(|r| r["won"].as_i64().unwrap_or(0)).sum();
    let lost: i64 = rows.iter().map(|r| r["lost"].as_i64().unwrap_or(0)).sum();
    assert_eq!((won, lost), (1, 1), "{o}");
    for r in rows {
        let code = r["code"].as_str().expect("code");
        assert!(
            code.len() == 3 && code.starts_with(['A', 'B', 'C', 'D', 'E']),
            "{o}"
        );
        assert!(!r["name"].as_str().unwrap_or("").is_empty(), "{o}");
    }
    let (st, _) = get(&addr, "/api/users/nobody-here/openings").await;
    assert_eq!(st, 404);
}

#[tokio::test]
async fn a_study_is_saved_listed_shared_renamed_and_deleted() {
    let (_srv, addr) = server("studies").await;
    let tree =
        json!({"start": START, "moves": [{"move": "h2e2", "parent": null, "comment": "中炮"}]});
    // Guests keep none.
    let g = client::post(&addr, "/api/guest", None, &json!({}))
        .await
        .expect("guest")
        .json();
    let guest = g["token"].as_str().expect("guest token").to_string();
    let (st, v) = post(
        &addr,
        "/api/studies",
        &guest,
        json!({"name": "x", "variant": "xiangqi", "tree": tree}),
    )
    .await;
    assert_eq!((st, v["code"].as_str()), (403, Some("study_guest")), "{v}");

    let owner = register(&addr, "studyowner").await;
    let other = register(&addr, "studyother").await;
    let (st, v) = post(
        &addr,
        "/api/studies",
        &owner,
        json!({"name": " 中炮研究 ", "variant": "xiangqi", "tree": tree}),
    )
    .await;
    assert_eq!(st, 201, "{v}");
    assert_eq!(v["name"], "中炮研究");
    assert_eq!(v["owner"], "studyowner");
    let id = v["id"].as_str().expect("id").to_string();
    // Bad ones: a tree that is no JSON object, a name too long, a game the hall lacks.
    let (st, v) = post(
        &addr,
        "/api/studies",
        &owner,
        json!({"name": "a", "variant": "xiangqi", "tree": [1, 2]}),
    )
    .await;
    assert_eq!(st, 400, "{v}");
    let (st, v) = post(
        &addr,
        "/api/studies",
        &owner,
        json!({"name": "长".repeat(81), "variant": "xiangqi", "tree": {}}),
    )
    .await;
    assert_eq!(
        (st, v["code"].as_str(), v["details"]["why"].as_str()),
        (400, Some("bad_study"), Some("name")),
        "{v}"
    );
    let (st, v) = post(
        &addr,
        "/api/studies",
        &owner,
        json!({"name": "a", "variant": "nogame", "tree": {}}),
    )
    .await;
    assert_eq!(st, 404, "{v}");
    // A tree over 256 KiB is refused.
    let big = json!({"c": "x".repeat(300 * 1024)});
    let (st, v) = post(
        &addr,
        "/api/studies",
        &owner,
        json!({"name": "big", "variant": "xiangqi", "tree": big}),
    )
    .await;
    assert!(st == 400 || st == 413, "{st} {v}");

    // Listed for its owner only; read by anyone with the id.
    let r = client::get(&addr, "/api/studies", Some(&owner))
        .await
        .expect("list");
    let list = r.json();
    assert_eq!(list["studies"].as_array().map(Vec::len), Some(1), "{list}");
    assert!(list["studies"][0].get("tree").is_none(), "{list}");
    let r = client::get(&addr, "/api/studies", Some(&other))
        .await
        .expect("list");
    assert_eq!(r.json()["studies"].as_array().map(Vec::len), Some(0));
    let (st, v) = get(&addr, &format!("/api/studies/{id}")).await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["tree"], tree);
    let (st, _) = get(&addr, "/api/studies/nosuchid").await;
    assert_eq!(st, 404);

    // Only the owner renames or deletes it.
    let path = format!("/api/studies/{id}");
    let (st, v) = send(
        &addr,
        "PATCH",
        &path,
        Some(&other),
        json!({"name": "mine now"}),
    )
    .await;
    assert_eq!((st, v["code"].as_str()), (403, Some("forbidden")), "{v}");
    let (st, v) = send(
        &addr,
        "PATCH",
        &path,
        Some(&owner),
        json!({"name": "屏风马"}),
    )
    .await;
    assert_eq!((st, v["name"].as_str()), (200, Some("屏风马")), "{v}");
    let (_, v) = get(&addr, &path).await;
    assert_eq!(v["name"], "屏风马");
    assert_eq!(v["tree"], tree, "a rename keeps the tree");
    let (st, _) = send(&addr, "DELETE", &path, Some(&other), json!({})).await;
    assert_eq!(st, 403);
    let (st, _) = send(&addr, "DELETE", &path, Some(&owner), json!({})).await;
    assert_eq!(st, 200);
    let (st, _) = get(&addr, &path).await;
    assert_eq!(st, 404);
}

#[tokio::test]
async fn a_study_reopens_at_the_move_it_was_saved_at() {
    let (_srv, addr) = server("studyat").await;
    let owner = register(&addr, "studyat").await;
    // Main line h2e2 h9g7 h0g2; a side line h9g7 → b9c7 (index 3, ply 2).
    let moves = json!([
        {"move": "h2e2", "parent": null},
        {"move": "h9g7", "parent": 0},
        {"move": "h0g2", "parent": 1},
        {"move": "b9c7", "parent": 0}
    ]);
    let tree = json!({"start": START, "moves": moves, "at": 2});
    let (st, v) = post(
        &addr,
        "/api/studies",
        &owner,
        json!({"name": "at", "variant": "xiangqi", "tree": tree}),
    )
    .await;
    assert_eq!(st, 201, "{v}");
    let path = format!("/api/studies/{}", v["id"].as_str().expect("id"));
    let (st, v) = get(&addr, &path).await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(
        (v["tree"]["at"].as_u64(), v["ply"].as_u64()),
        (Some(2), Some(3)),
        "{v}"
    );
    // Saved again on the side line: the move and its ply follow.
    let side = json!({"start": START, "moves": moves, "at": 3});
    let (st, v) = send(&addr, "PATCH", &path, Some(&owner), json!({"tree": side})).await;
    assert_eq!(st, 200, "{v}");
    let (_, v) = get(&addr, &path).await;
    assert_eq!(
        (v["tree"]["at"].as_u64(), v["ply"].as_u64()),
        (Some(3), Some(2)),
        "{v}"
    );
    // At the start: no `at`, ply 0.
    let (_, v) = send(
        &addr,
        "PATCH",
        &path,
        Some(&owner),
        json!({"tree": {"start": START, "moves": moves}}),
    )
    .await;
    assert!(
        v.get("ply").is_none(),
        "a change answers without the tree: {v}"
    );
    let (_, v) = get(&addr, &path).await;
    assert_eq!(v["ply"].as_u64(), Some(0), "{v}");
    // Refused: an index past the moves, a negative or fractional one, a
    // parent that does not come before its move (no walk in circles).
    for bad in [
        json!({"start": START, "moves": moves, "at": 4}),
        json!({"start": START, "moves": moves, "at": -1}),
        json!({"start": START, "moves": moves, "at": 1.5}),
        json!({"start": START, "moves": moves, "at": "2"}),
        json!({"start": START, "at": 0}),
        json!({"start": START, "moves": [{"move": "h2e2", "parent": 1}, {"move": "h9g7", "parent": 0}], "at": 1}),
        json!({"start": START, "moves": [{"move": "h2e2", "parent": 0}], "at": 0}),
    ] {
        let (st, v) = send(&addr, "PATCH", &path, Some(&owner), json!({"tree": bad})).await;
        assert_eq!(
            (st, v["code"].as_str(), v["details"]["why"].as_str()),
            (400, Some("bad_study"), Some("at")),
            "{bad}: {v}"
        );
        let (st, v) = post(
            &addr,
            "/api/studies",
            &owner,
            json!({"name": "bad", "variant": "xiangqi", "tree": bad}),
        )
        .await;
        assert_eq!((st, v["details"]["why"].as_str()), (400, Some("at")), "{v}");
    }
    let (_, v) = get(&addr, &path).await;
    assert_eq!(
        v["ply"].as_u64(),
        Some(0),
        "a refused change leaves the study as it was: {v}"
    );
}
