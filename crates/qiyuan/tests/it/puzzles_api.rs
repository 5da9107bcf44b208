//! Puzzles (issue 40) end to end with the shipped Xiangqi set: loading
//! (bad rows skipped, a restart keeps ratings), the puzzle with its legal
//! moves, `next` near the rating without repeats, rated and unrated
//! results, the daily puzzle, the history, and the errors.

use qiyuan_hall::client;
use qiyuan_hall::domain::puzzles::PuzzleRecord;
use qiyuan_hall::server::Config;
use serde_json::{Value, json};

use crate::common::{register, start_games, temp_db};

fn record(variant: &str, id: &str, fen: &str, moves: &str) -> PuzzleRecord {
    PuzzleRecord {
        variant: variant.into(),
        id: id.into(),
        fen: fen.into(),
        moves: moves.into(),
        rating: 1500.0,
        themes: "mate1".into(),
    }
}

/// The shipped set plus rows the loader must leave out.
fn games_with_bad_rows() -> qiyuan_hall::registry::Registry {
    let fen = "3aka3/9/9/p8/1C7/4C4/9/9/9/3K5 b - - 0 1";
    qiyuan::games().with_puzzles([
        record("xiangqi", "bad-illegal", fen, "a6a5 e4e9"),
        record("xiangqi", "bad-short", fen, "a6a5"),
        record("xiangqi", "bad-ends-with-reply", fen, "a6a5 b5b9 e9e8"),
        record("no-such-game", "bad-variant", fen, "a6a5 b5e5"),
        record("xiangqi", "bad/id", fen, "a6a5 b5e5"),
        record("xiangqi", "bad-fen", "not a fen", "a6a5 b5e5"),
        // The same id as a shipped puzzle: the first one stays.
        record(
            "xiangqi",
            "x0001",
            "3k5/9/9/8p/9/7R1/9/9/9/4K4 b - - 0 1",
            "i6i5 h4d4",
        ),
    ])
}

async fn start_at(db: &std::path::Path) -> (qiyuan_hall::server::Running, String) {
    start_games(
        Config {
            port: 0,
            database: format!("sqlite://{}", db.display()),
            rate_per_sec: 0,
            ..Config::default()
        },
        games_with_bad_rows(),
    )
    .await
}

async fn get(addr: &str, path: &str, token: Option<&str>) -> (u16, Value) {
    let r = client::get(addr, path, token).await.expect("request");
    (r.status, r.json())
}

async fn post(addr: &str, path: &str, token: Option<&str>, body: Value) -> (u16, Value) {
    let r = client::post(addr, path, token, &body)
        .await
        .expect("request");
    (r.status, r.json())
}

async fn guest(addr: &str) -> String {
    let (s, v) = post(addr, "/api/guest", None, json!({})).await;
    assert_eq!(s, 200, "{v}");
    v["token"].as_str().expect("token").to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn puzzles_are_loaded_served_rated_and_kept() {
    let db = temp_db("puzzles");
    let (server, addr) = start_at(&db).await;

    // Loading: the shipped rows are there, the bad ones are not.
    for bad in [
        "bad-illegal",
        "bad-short",
        "bad-ends-with-reply",
        "bad-variant",
        "bad-fen",
    ] {
        let (s, v) = get(&addr, &format!("/api/puzzles/{bad}"), None).await;
        assert_eq!(
            (s, v["code"].as_str()),
            (404, Some("not_found")),
            "{bad}: {v}"
        );
    }

    // A puzzle: the setting-up move, then the solution with the legal
    // moves before the solver's move.
    let (s, p) = get(&addr, "/api/puzzles/x0001", None).await;
    assert_eq!(s, 200, "{p}");
    assert_eq!(p["variant"], "xiangqi");
    assert_eq!(p["solver"], 0, "red solves: {p}");
    assert_eq!(p["fen"], "3aka3/9/9/p8/1C7/4C4/9/9/9/3K5 b - - 0 1");
    let steps = p["steps"].as_array().expect("steps");
    assert_eq!(steps.len(), 2);
    assert_eq!(
        (steps[0]["move"].as_str(), steps[0]["solver"].as_bool()),
        (Some("a6a5"), Some(false))
    );
    let legal: Vec<&str> = steps[0]["legal"]
        .as_array()
        .expect("legal")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        legal.contains(&"b5e5") && legal.contains(&"b5b9") && legal.len() > 10,
        "{legal:?}"
    );
    assert_eq!(
        (steps[1]["move"].as_str(), steps[1]["solver"].as_bool()),
        (Some("b5e5"), Some(true))
    );
    assert!(steps[1]["legal"].as_array().expect("legal").is_empty());
    assert_eq!(p["themes"], json!(["mate1", "double-cannon"]));

    // A mate in 2 for black: the opponent's reply between the solver's moves.
    let (_, p6) = get(&addr, "/api/puzzles/x0006", None).await;
    let solver: Vec<bool> = p6["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .map(|s| s["solver"].as_bool().unwrap_or(false))
        .collect();
    assert_eq!(
        (p6["solver"].as_u64(), solver),
        (Some(1), vec![false, true, false, true])
    );

    // A guest plays unrated at 1500.
    let g = guest(&addr).await;
    let (s, n) = get(&addr, "/api/puzzles/next?variant=xiangqi", Some(&g)).await;
    assert_eq!(s, 200, "{n}");
    assert_eq!(
        (n["rating"].as_i64(), n["rated"].as_bool()),
        (Some(1500), Some(false))
    );
    let id = n["puzzle"]["id"].as_str().expect("id").to_string();
    let (s, r) = post(
        &addr,
        &format!("/api/puzzles/{id}/result"),
        Some(&g),
        json!({"win": true}),
    )
    .await;
    assert_eq!(s, 200, "{r}");
    assert_eq!(
        (
            r["rated"].as_bool(),
            r["rating"].as_i64(),
            r["change"].as_i64()
        ),
        (Some(false), Some(1500), Some(0))
    );
    let (_, h) = get(&addr, "/api/puzzles/history?variant=xiangqi", Some(&g)).await;
    assert_eq!(
        (h["rated"].as_bool(), h["attempts"].as_array().map(Vec::len)),
        (Some(false), Some(0))
    );
    // The sets to choose from: the variant with its themes.
    assert_eq!(h["sets"][0]["variant"], "xiangqi", "{h}");
    let themes = h["sets"][0]["themes"].as_array().expect("themes");
    assert!(
        themes.contains(&json!("mate2")) && themes.contains(&json!("horse-corner")),
        "{h}"
    );
    // A guest is not shown the same puzzle twice in a row.
    let mut seen = std::collections::HashSet::from([id.clone()]);
    for _ in 0..5 {
        let (_, n) = get(&addr, "/api/puzzles/next?variant=xiangqi", Some(&g)).await;
        seen.insert(n["puzzle"]["id"].as_str().expect("id").to_string());
    }
    assert_eq!(seen.len(), 6, "six shipped puzzles, each once: {seen:?}");

    // A registered player: themes, a rated first attempt, none after.
    let alice = register(&addr, "alice").await;
    let (_, n) = get(
        &addr,
        "/api/puzzles/next?variant=xiangqi&themes=mate2",
        Some(&alice),
    )
    .await;
    assert_eq!(
        (n["rated"].as_bool(), n["rating"].as_i64()),
        (Some(true), Some(1500))
    );
    let first = n["puzzle"]["id"].as_str().expect("id").to_string();
    // A puzzle of the theme asked for (the shipped set holds many).
    assert!(
        n["puzzle"]["themes"]
            .as_array()
            .is_some_and(|t| t.iter().any(|x| x == "mate2")),
        "{n}"
    );
    let (s, r) = post(
        &addr,
        &format!("/api/puzzles/{first}/result"),
        Some(&alice),
        json!({"win": true}),
    )
    .await;
    assert_eq!(s, 200, "{r}");
    assert_eq!(r["rated"], true, "{r}");
    let after = r["rating"].as_i64().expect("rating");
    assert!(
        after > 1500 && r["change"].as_i64() == Some(after - 1500),
        "{r}"
    );
    let before = n["puzzle"]["rating"].as_i64().expect("its rating");
    assert!(r["puzzle_rating"].as_i64().expect("puzzle") < before, "{r}");
    let (_, again) = post(
        &addr,
        &format!("/api/puzzles/{first}/result"),
        Some(&alice),
        json!({"win": false}),
    )
    .await;
    assert_eq!(
        (again["rated"].as_bool(), again["rating"].as_i64()),
        (Some(false), Some(after)),
        "{again}"
    );
    // The attempted one is not served again; the other mate in 2 is.
    for _ in 0..3 {
        let (_, n) = get(
            &addr,
            "/api/puzzles/next?variant=xiangqi&themes=mate2",
            Some(&alice),
        )
        .await;
        assert_ne!(n["puzzle"]["id"].as_str(), Some(first.as_str()), "{n}");
        assert_eq!(n["rating"].as_i64(), Some(after));
    }
    // A miss lowers the rating; the history has both, newest first.
    let (_, r) = post(
        &addr,
        "/api/puzzles/x0002/result",
        Some(&alice),
        json!({"win": false}),
    )
    .await;
    let missed = r["rating"].as_i64().expect("rating");
    assert!(missed < after, "{r}");
    let (s, h) = get(&addr, "/api/puzzles/history?variant=xiangqi", Some(&alice)).await;
    assert_eq!(s, 200, "{h}");
    let a = h["attempts"].as_array().expect("attempts");
    assert_eq!(a.len(), 2, "{h}");
    assert_eq!(
        (a[0]["puzzle_id"].as_str(), a[0]["win"].as_bool()),
        (Some("x0002"), Some(false))
    );
    assert_eq!(
        (a[1]["puzzle_id"].as_str(), a[1]["win"].as_bool()),
        (Some(first.as_str()), Some(true))
    );
    assert_eq!(
        a[0]["rating_after"].as_f64().map(|x| x.round() as i64),
        Some(missed)
    );
    assert_eq!(
        (h["rating"].as_i64(), h["plays"].as_i64()),
        (Some(missed), Some(2))
    );

    // The daily puzzle: the same for everyone today.
    let (s, d1) = get(&addr, "/api/puzzles/daily?variant=xiangqi", None).await;
    assert_eq!(s, 200, "{d1}");
    let (_, d2) = get(&addr, "/api/puzzles/daily", Some(&alice)).await;
    assert_eq!(d1["puzzle"]["id"], d2["puzzle"]["id"]);
    let day = d1["day"].as_str().expect("day");
    assert!(day.len() == 10 && day.starts_with("20"), "{day}");

    // Errors.
    for (path, status, code) in [
        ("/api/puzzles/next?variant=nope", 404, "no_puzzle"),
        ("/api/puzzles/history?variant=nope", 404, "no_puzzle"),
        ("/api/puzzles/next?themes=Mate1", 400, "bad_query"),
        ("/api/puzzles/next?themes=a,b,c,d", 400, "bad_query"),
        ("/api/puzzles/next?rating=5", 400, "out_of_range"),
        ("/api/puzzles/next?other=1", 400, "bad_query"),
        (
            "/api/puzzles/next?variant=xiangqi&themes=points",
            404,
            "no_puzzle",
        ),
        ("/api/puzzles/next?variant=banqi", 404, "no_puzzle"),
        ("/api/puzzles/daily?variant=banqi", 404, "no_puzzle"),
        ("/api/puzzles/nope", 404, "not_found"),
    ] {
        let (s, v) = get(&addr, path, None).await;
        assert_eq!((s, v["code"].as_str()), (status, Some(code)), "{path}: {v}");
    }
    let (s, v) = post(
        &addr,
        "/api/puzzles/x0001/result",
        None,
        json!({"win": "yes"}),
    )
    .await;
    assert_eq!((s, v["code"].as_str()), (400, Some("invalid_body")), "{v}");
    let (s, v) = post(
        &addr,
        "/api/puzzles/nope/result",
        None,
        json!({"win": true}),
    )
    .await;
    assert_eq!((s, v["code"].as_str()), (404, Some("not_found")), "{v}");

    // A restart loads the set again: the ratings and plays stay.
    let (_, before) = get(&addr, &format!("/api/puzzles/{first}"), None).await;
    server.shutdown().await;
    let (server, addr) = start_at(&db).await;
    let (_, p) = get(&addr, &format!("/api/puzzles/{first}"), None).await;
    assert_eq!(
        (p["plays"].as_i64(), &p["rating"]),
        (Some(1), &before["rating"]),
        "{p}"
    );
    let (_, h) = get(&addr, "/api/puzzles/history?variant=xiangqi", Some(&alice)).await;
    assert_eq!(h["attempts"].as_array().map(Vec::len), Some(2));
    server.shutdown().await;
    let _ = std::fs::remove_file(&db);
}

/// Issue 40: the shipped Jifen sets load at start like the Xiangqi one,
/// every row accepted by its rule set, and are served by variant.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_shipped_jifen_sets_load_whole_and_are_served() {
    let db = temp_db("puzzles-jifen");
    let (server, addr) = start_at(&db).await;
    let g = guest(&addr).await;
    for (variant, prefix, file) in [
        (
            "jifen-simple",
            "js",
            include_str!("../../../../data/puzzles/jifen-simple.csv"),
        ),
        (
            "jifen-match",
            "jm",
            include_str!("../../../../data/puzzles/jifen-match.csv"),
        ),
    ] {
        let ids: Vec<&str> = file
            .lines()
            .skip(1)
            .filter_map(|l| l.split(',').next())
            .collect();
        assert!(ids.len() >= 20, "{variant}: {} rows", ids.len());
        // The first and the last row: the loader kept the whole file.
        for id in [ids[0], ids[ids.len() - 1]] {
            let (s, p) = get(&addr, &format!("/api/puzzles/{id}"), None).await;
            assert_eq!(
                (s, p["variant"].as_str()),
                (200, Some(variant)),
                "{id}: {p}"
            );
        }
        let (s, p) = get(
            &addr,
            &format!("/api/puzzles/next?variant={variant}"),
            Some(&g),
        )
        .await;
        assert_eq!(s, 200, "{p}");
        let id = p["puzzle"]["id"].as_str().unwrap_or("");
        assert!(id.starts_with(prefix), "{variant}: {p}");
        assert_eq!(p["puzzle"]["variant"].as_str(), Some(variant), "{p}");
    }
    server.shutdown().await;
    let _ = std::fs::remove_file(&db);
}
