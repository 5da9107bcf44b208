//! Events between people over real HTTP: technical fouls (X8) reaching the
//! standings, the game time cap (X6) scoring 0-0, the event's live NDJSON
//! stream, and team events. On the fake game (`count`), which refuses every
//! claim; moved from the binary's tests.

use std::time::{Duration, Instant};

use qiyuan_hall::client;
use qiyuan_hall::server::Running;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use crate::common;
use crate::common::{get, post, register, server_at};

async fn server() -> (Running, String) {
    common::server("events-extra-test").await
}

/// Polls the event until `done` holds (or fails the test).
async fn wait_event(addr: &str, id: &str, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let (st, ev) = get(addr, &format!("/api/events/{id}")).await;
        assert_eq!(st, 200, "{ev}");
        assert_ne!(ev["status"], "error", "{ev}");
        if done(&ev) {
            return ev;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "event: no {what} in 10 s: {ev}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Two users, one round-robin game between them, started at once. Returns
/// the event id, the game id and the red and black tokens and names.
struct Duel {
    id: String,
    game: String,
    red: (String, String),
    black: (String, String),
}

async fn duel(addr: &str, settings: Value) -> Duel {
    duel_rated(addr, settings, true).await
}

async fn duel_rated(addr: &str, settings: Value, rated: bool) -> Duel {
    let alice = register(addr, "alice").await;
    let bob = register(addr, "bob").await;
    let (st, ev) = post(
        addr,
        "/api/events",
        &alice,
        json!({
            "name": "duel", "game": "count", "rated": rated,
            "clock": {"initial_s": 120, "increment_s": 0},
            "format": {"kind": "round_robin", "cycles": 1},
            "settings": settings,
            "players": ["alice", "bob"],
        }),
    )
    .await;
    assert_eq!(st, 201, "{ev}");
    let id = ev["id"].as_str().expect("id").to_string();
    // Bob was invited; he plays once he accepts.
    assert_eq!(ev["invited"], json!(["bob"]), "{ev}");
    let (st, j) = post(addr, &format!("/api/events/{id}/join"), &bob, json!({})).await;
    assert_eq!(st, 200, "{j}");
    let (st, s) = post(addr, &format!("/api/events/{id}/start"), &alice, json!({})).await;
    assert_eq!(st, 200, "{s}");
    let ev = wait_event(addr, &id, "game", |ev| {
        ev["rounds"][0]["pairings"][0]["game_id"].is_string()
    })
    .await;
    let p = &ev["rounds"][0]["pairings"][0];
    let game = p["game_id"].as_str().expect("game id").to_string();
    let token = |n: &str| {
        if n == "alice" {
            alice.clone()
        } else {
            bob.clone()
        }
    };
    let red = p["red"].as_str().expect("red").to_string();
    let black = p["black"].as_str().expect("black").to_string();
    Duel {
        id,
        game,
        red: (token(&red), red),
        black: (token(&black), black),
    }
}

fn row<'a>(s: &'a Value, name: &str) -> &'a Value {
    s["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .find(|r| r["name"] == name)
        .unwrap_or_else(|| panic!("no row for {name}: {s}"))
}

#[tokio::test]
async fn an_unrated_event_game_offers_no_takebacks() {
    let (srv, addr) = server().await;
    let d = duel_rated(&addr, json!({}), false).await;
    let g = |what: &str| format!("/api/games/{}/{what}", d.game);
    let (st, v) = post(&addr, &g("moves"), &d.red.0, json!({"move": "+1"})).await;
    assert_eq!(st, 200, "{v}");
    let (_, s) = get(&addr, &format!("/api/games/{}", d.game)).await;
    assert_eq!(s["rated"], false, "{s}");
    // The domain asks the events (attached to the hall) whether the game is theirs.
    let (st, v) = post(&addr, &g("takeback"), &d.red.0, json!({"action": "offer"})).await;
    assert_eq!(st, 409, "{v}");
    assert_eq!(v["code"], "takeback_unavailable", "{v}");
    srv.shutdown().await;
}

#[tokio::test]
async fn x8_fouls_reach_the_event_standings() {
    let (srv, addr) = server().await;
    let d = duel(&addr, json!({})).await;
    let g = |what: &str| format!("/api/games/{}/{what}", d.game);
    let (r, b) = (&d.red.0, &d.black.0);

    // Red offers, black declines.
    let (st, v) = post(&addr, &g("draw"), r, json!({"action": "offer"})).await;
    assert_eq!(st, 200, "{v}");
    let (st, v) = post(&addr, &g("draw"), b, json!({"action": "decline"})).await;
    assert_eq!(st, 200, "{v}");
    // One black move only, then red offers again: a foul.
    let (st, v) = post(&addr, &g("moves"), r, json!({"move": "+1"})).await;
    assert_eq!(st, 200, "{v}");
    let (st, v) = post(&addr, &g("moves"), b, json!({"move": "+1"})).await;
    assert_eq!(st, 200, "{v}");
    let (st, v) = post(&addr, &g("draw"), r, json!({"action": "offer"})).await;
    assert_eq!(st, 200, "{v}");
    let (st, v) = post(&addr, &g("draw"), b, json!({"action": "decline"})).await;
    assert_eq!(st, 200, "{v}");
    // Untrue claims (the game grants none): one foul each.
    for t in [r, b] {
        let (st, v) = post(&addr, &g("claim"), t, json!({})).await;
        assert_eq!(st, 409, "{v}");
    }
    let (st, v) = post(&addr, &g("resign"), b, json!({})).await;
    assert_eq!(st, 200, "{v}");

    let ev = wait_event(&addr, &d.id, "end", |ev| ev["status"] == "finished").await;
    let p = &ev["rounds"][0]["pairings"][0];
    assert_eq!(p["result"], "1-0", "{ev}");
    assert_eq!(p["fouls"], json!({"red": 2, "black": 1}), "{ev}");
    assert_eq!(ev["fouls"][&d.red.1], 2, "{ev}");
    assert_eq!(ev["fouls"][&d.black.1], 1, "{ev}");

    let (st, s) = get(&addr, &format!("/api/events/{}/standings", d.id)).await;
    assert_eq!(st, 200, "{s}");
    assert_eq!(row(&s, &d.red.1)["fouls"], 2, "{s}");
    assert_eq!(row(&s, &d.black.1)["fouls"], 1, "{s}");
    assert_eq!(row(&s, &d.red.1)["score"], 2.0, "{s}");
    assert_eq!(row(&s, &d.black.1)["score"], 0.0, "{s}");
    let r = client::get(&addr, &format!("/api/events/{}/standings.csv", d.id), None)
        .await
        .expect("csv");
    assert_eq!(r.status, 200);
    assert!(r.body.to_lowercase().contains("foul"), "{}", r.body);
    srv.shutdown().await;
}

#[tokio::test]
async fn x6_game_time_cap_scores_zero_for_both() {
    let (srv, addr) = server().await;
    // A one-second cap; nobody moves, so the game cannot finish in time.
    // (First place may be shared here, so no play-off follows the 0-0.)
    let d = duel(
        &addr,
        json!({"game_time_cap_s": 1, "unshareable_places": []}),
    )
    .await;
    let ev = wait_event(&addr, &d.id, "end", |ev| ev["status"] == "finished").await;
    let p = &ev["rounds"][0]["pairings"][0];
    assert_eq!(p["result"], "0-0", "{ev}");
    let (st, game) = get(&addr, &format!("/api/games/{}", d.game)).await;
    assert_eq!(st, 200);
    assert_eq!(game["status"], "finished", "{game}");
    // Moving after the cap is refused.
    let (st, _) = post(
        &addr,
        &format!("/api/games/{}/moves", d.game),
        &d.red.0,
        json!({"move": "+1"}),
    )
    .await;
    assert!((400..500).contains(&st), "{st}");

    let (st, s) = get(&addr, &format!("/api/events/{}/standings", d.id)).await;
    assert_eq!(st, 200, "{s}");
    for name in [&d.red.1, &d.black.1] {
        let r = row(&s, name);
        assert_eq!(r["score"], 0.0, "{s}");
        assert_eq!(r["wins"], 0, "{s}");
        assert_eq!(r["games"], 1, "{s}");
        assert_eq!(r["rank"], 1, "{s}");
        assert_eq!(r["shared"], true, "{s}");
    }
    srv.shutdown().await;
}

#[tokio::test]
async fn event_stream_delivers_a_recorded_result() {
    let (srv, addr) = server().await;
    let d = duel(&addr, json!({})).await;
    let mut conn = tokio::net::TcpStream::connect(&addr)
        .await
        .expect("connect");
    conn.write_all(
        format!(
            "GET /api/events/{}/stream HTTP/1.1\r\nHost: x\r\n\r\n",
            d.id
        )
        .as_bytes(),
    )
    .await
    .expect("write");
    let mut lines = BufReader::new(conn).lines();
    // Reads NDJSON lines (skipping HTTP headers and chunk sizes) until one
    // is an event line that `want` accepts.
    async fn next_event(
        lines: &mut tokio::io::Lines<BufReader<tokio::net::TcpStream>>,
        want: impl Fn(&Value) -> bool,
    ) -> Value {
        let read = async {
            while let Some(l) = lines.next_line().await.expect("read") {
                if let Ok(v) = serde_json::from_str::<Value>(&l)
                    && v["t"] == "event"
                    && want(&v["event"])
                {
                    return v["event"].clone();
                }
            }
            panic!("stream closed");
        };
        tokio::time::timeout(Duration::from_secs(10), read)
            .await
            .expect("an event line in time")
    }
    let first = next_event(&mut lines, |_| true).await;
    assert_eq!(first["id"], d.id.as_str());
    assert!(
        first["rounds"][0]["pairings"][0]["result"].is_null(),
        "{first}"
    );

    let (st, v) = post(
        &addr,
        &format!("/api/games/{}/resign", d.game),
        &d.red.0,
        json!({}),
    )
    .await;
    assert_eq!(st, 200, "{v}");
    let ev = next_event(&mut lines, |e| {
        !e["rounds"][0]["pairings"][0]["result"].is_null()
    })
    .await;
    assert_eq!(ev["rounds"][0]["pairings"][0]["result"], "0-1", "{ev}");
    assert_eq!(ev["status"], "finished", "{ev}");

    let (st, v) = get(&addr, "/api/events/nope/stream").await;
    assert_eq!(st, 404, "{v}");
    let (_, o) = get(&addr, "/api/openapi.json").await;
    assert!(o["paths"]["/api/events/{id}/stream"].is_object());
    srv.shutdown().await;
}

#[tokio::test]
async fn h7_team_round_robin_of_three_teams() {
    let (srv, addr) = server().await;
    let org = register(&addr, "captain").await;
    // Bad requests are refused with a clear 400.
    let bad = [
        json!({"game": "count", "teams": [{"name": "A", "players": ["ai:1"]}]}),
        json!({"game": "count", "teams": [{"name": "A", "players": ["ai:1"]}, {"name": "B", "players": ["ai:2", "ai:3"]}]}),
        json!({"game": "count", "teams": [{"name": "A", "players": ["ai:1"]}, {"name": "A", "players": ["ai:2"]}]}),
        json!({"game": "count", "teams": [{"name": "A", "players": ["ai:1"]}, {"name": "B", "players": ["ai:1"]}]}),
        json!({"game": "count", "teams": [{"name": "A", "players": ["ai:1"]}, {"name": "B", "players": ["nobody"]}]}),
        json!({"game": "chess", "teams": [{"name": "A", "players": ["ai:1"]}, {"name": "B", "players": ["ai:2"]}]}),
    ];
    for body in bad {
        let (st, v) = post(&addr, "/api/team-events", &org, body.clone()).await;
        assert_eq!(st, 400, "{body} -> {v}");
        assert!(v["error"].is_string(), "{v}");
    }
    let (st, _) = get(&addr, "/api/team-events/tnope").await;
    assert_eq!(st, 404);

    let (st, ev) = post(
        &addr,
        "/api/team-events",
        &org,
        json!({
            "name": "three clubs", "game": "count",
            "clock": {"initial_s": 60, "increment_s": 0},
            "teams": [
                {"name": "North", "players": ["ai:1", "ai:2"]},
                {"name": "South", "players": ["ai:3", "ai:4"]},
                {"name": "East", "players": ["ai:5", "ai:6"]},
            ],
        }),
    )
    .await;
    assert_eq!(st, 201, "{ev}");
    let id = ev["id"].as_str().expect("id").to_string();
    // Listed for everyone, with its size.
    let (st, list) = get(&addr, "/api/team-events").await;
    assert_eq!(st, 200, "{list}");
    let listed = list["team_events"]
        .as_array()
        .and_then(|l| l.iter().find(|e| e["id"] == id.as_str()).cloned())
        .expect("the new team event is listed");
    assert_eq!(
        (
            &listed["name"],
            &listed["teams"],
            &listed["boards"],
            &listed["status"]
        ),
        (
            &json!("three clubs"),
            &json!(3),
            &json!(2),
            &json!("running")
        ),
        "{listed}"
    );
    let start = Instant::now();
    let ev = loop {
        let (st, ev) = get(&addr, &format!("/api/team-events/{id}")).await;
        assert_eq!(st, 200, "{ev}");
        assert_ne!(ev["status"], "error", "{ev}");
        if ev["status"] == "finished" {
            break ev;
        }
        assert!(start.elapsed() < Duration::from_secs(15), "{ev}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    // Three teams: three rounds, one match and one bye each; two boards.
    let rounds = ev["rounds"].as_array().expect("rounds");
    assert_eq!(rounds.len(), 3, "{ev}");
    let mut game_points: std::collections::BTreeMap<String, f64> = Default::default();
    let mut match_points: std::collections::BTreeMap<String, f64> = Default::default();
    for r in rounds {
        assert!(r["bye"].is_string(), "{r}");
        let m = &r["matches"][0];
        let (home, away) = (m["home"].as_str().unwrap(), m["away"].as_str().unwrap());
        let home_players = &ev["teams"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == home)
            .unwrap()["players"];
        let boards = m["boards"].as_array().expect("boards");
        assert_eq!(boards.len(), 2);
        let (mut h, mut a) = (0.0, 0.0);
        for (k, b) in boards.iter().enumerate() {
            // The home team has red on board 1, black on board 2.
            let home_red = k == 0;
            let hp = if home_red { &b["red"] } else { &b["black"] };
            assert_eq!(hp, &home_players[k], "{b}");
            let gid = b["game_id"].as_str().expect("game id");
            let (_, g) = get(&addr, &format!("/api/games/{gid}")).await;
            assert_eq!(g["status"], "finished", "{g}");
            let (red_pts, black_pts) = match b["result"].as_str().expect("result") {
                "1-0" => (2.0, 0.0),
                "0-1" => (0.0, 2.0),
                _ => (1.0, 1.0),
            };
            let (hp, ap) = if home_red {
                (red_pts, black_pts)
            } else {
                (black_pts, red_pts)
            };
            h += hp;
            a += ap;
        }
        *game_points.entry(home.into()).or_default() += h;
        *game_points.entry(away.into()).or_default() += a;
        let (mh, ma) = if h > a {
            (2.0, 0.0)
        } else if a > h {
            (0.0, 2.0)
        } else {
            (1.0, 1.0)
        };
        *match_points.entry(home.into()).or_default() += mh;
        *match_points.entry(away.into()).or_default() += ma;
    }
    let (st, s) = get(&addr, &format!("/api/team-events/{id}/standings")).await;
    assert_eq!(st, 200, "{s}");
    let names: Vec<&str> = s["tie_breaks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["game_points", "game_wins", "direct_encounter", "fouls"]
    );
    let rows = s["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 3);
    for r in rows {
        let name = r["name"].as_str().unwrap();
        assert_eq!(
            r["match_points"].as_f64(),
            match_points.get(name).copied(),
            "{s}"
        );
        assert_eq!(
            r["game_points"].as_f64(),
            game_points.get(name).copied(),
            "{s}"
        );
        assert_eq!(r["fouls"], 0);
    }
    // Ranked by match points first.
    let mp: Vec<f64> = rows
        .iter()
        .map(|r| r["match_points"].as_f64().unwrap())
        .collect();
    assert!(mp.windows(2).all(|w| w[0] >= w[1]), "{s}");
    srv.shutdown().await;
}

#[tokio::test]
async fn h7_team_fouls_and_stream_of_a_team_event() {
    let (srv, addr) = server().await;
    let ann = register(&addr, "ann").await;
    let ben = register(&addr, "ben").await;
    let (id, ev) = common::team_duel(&addr, (&ann, "ann"), (&ben, "ben"), ("Reds", "Blues")).await;
    let b = &ev["rounds"][0]["matches"][0]["boards"][0];
    let gid = b["game_id"].as_str().expect("game id").to_string();
    let (red, black) = if b["red"] == "ann" {
        (&ann, &ben)
    } else {
        (&ben, &ann)
    };
    let red_team = if b["red"] == "ann" { "Reds" } else { "Blues" };
    let black_team = if red_team == "Reds" { "Blues" } else { "Reds" };
    // The stream serves team events too.
    let mut conn = tokio::net::TcpStream::connect(&addr)
        .await
        .expect("connect");
    conn.write_all(format!("GET /api/events/{id}/stream HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes())
        .await
        .expect("write");
    let mut lines = BufReader::new(conn).lines();
    let first = tokio::time::timeout(Duration::from_secs(10), async {
        while let Some(l) = lines.next_line().await.expect("read") {
            if let Ok(v) = serde_json::from_str::<Value>(&l) {
                return v;
            }
        }
        panic!("stream closed");
    })
    .await
    .expect("a line");
    assert_eq!(first["t"], "team_event", "{first}");
    assert_eq!(first["event"]["id"], id.as_str());

    // Two untrue claims by red, one by black; then black resigns.
    for t in [red, red, black] {
        let (st, v) = post(&addr, &format!("/api/games/{gid}/claim"), t, json!({})).await;
        assert_eq!(st, 409, "{v}");
    }
    let (st, v) = post(&addr, &format!("/api/games/{gid}/resign"), black, json!({})).await;
    assert_eq!(st, 200, "{v}");
    let start = Instant::now();
    loop {
        let (_, ev) = get(&addr, &format!("/api/team-events/{id}")).await;
        if ev["status"] == "finished" {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "{ev}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (st, s) = get(&addr, &format!("/api/team-events/{id}/standings")).await;
    assert_eq!(st, 200, "{s}");
    assert_eq!(row(&s, red_team)["fouls"], 2, "{s}");
    assert_eq!(row(&s, black_team)["fouls"], 1, "{s}");
    assert_eq!(row(&s, red_team)["match_points"], 2.0, "{s}");
    assert_eq!(row(&s, red_team)["rank"], 1, "{s}");
    let r = client::get(&addr, &format!("/api/team-events/{id}/standings.csv"), None)
        .await
        .expect("csv");
    assert_eq!(r.status, 200);
    assert!(r.body.starts_with("rank,"), "{}", r.body);
    assert!(r.body.contains(red_team), "{}", r.body);
    srv.shutdown().await;
}

#[tokio::test]
async fn h7_team_event_survives_a_restart() {
    let db = common::temp_db("events-extra-test");
    let (srv, addr) = server_at(&db).await;
    let cy = register(&addr, "cyan").await;
    let di = register(&addr, "dina").await;
    let (id, ev) = common::team_duel(&addr, (&cy, "cyan"), (&di, "dina"), ("C", "D")).await;
    let gid = ev["rounds"][0]["matches"][0]["boards"][0]["game_id"]
        .as_str()
        .expect("game id")
        .to_string();
    srv.shutdown().await;

    let (srv, addr) = server_at(&db).await;
    let (st, ev) = get(&addr, &format!("/api/team-events/{id}")).await;
    assert_eq!(st, 200, "{ev}");
    assert_eq!(ev["status"], "running", "{ev}");
    // dina resigns after the restart: the result still reaches the event.
    let (st, v) = post(&addr, &format!("/api/games/{gid}/resign"), &di, json!({})).await;
    assert_eq!(st, 200, "{v}");
    let start = Instant::now();
    let ev = loop {
        let (_, ev) = get(&addr, &format!("/api/team-events/{id}")).await;
        if ev["status"] == "finished" {
            break ev;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "{ev}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(
        ev["rounds"][0]["matches"][0]["boards"][0]["result"].is_string(),
        "{ev}"
    );
    let (_, s) = get(&addr, &format!("/api/team-events/{id}/standings")).await;
    assert_eq!(row(&s, "C")["match_points"], 2.0, "{s}");
    assert_eq!(row(&s, "D")["match_points"], 0.0, "{s}");
    srv.shutdown().await;
}

#[tokio::test]
async fn bad_event_requests_are_refused() {
    let (srv, addr) = common::server("events-bad").await;
    let t = register(&addr, "carol").await;
    let ok = json!({"game": "count", "format": {"kind": "round_robin", "cycles": 1}});
    let cases = [
        (json!({"game": "count"}), 400),
        (
            json!({"game": "chess", "format": {"kind": "round_robin", "cycles": 1}}),
            400,
        ),
        (
            json!({"game": "count", "format": {"kind": "round_robin", "cycles": 3}}),
            400,
        ),
        (json!({"game": "count", "format": {"kind": "tennis"}}), 400),
        (
            json!({"game": "count", "format": {"kind": "swiss", "rounds": 3}, "players": ["ai:9"]}),
            400,
        ),
        (
            json!({"game": "count", "format": {"kind": "swiss", "rounds": 3}, "players": ["nobody"]}),
            400,
        ),
        (
            json!({"game": "count", "format": {"kind": "round_robin", "cycles": 1}, "players": ["ai:1"], "start": true}),
            400,
        ),
        (
            json!({"game": "count", "format": {"kind": "three_stage", "groups": 4, "advance_per_group": 3, "final_bracket_size": 4}, "players": ["ai:1"]}),
            400,
        ),
        (
            json!({"game": "count", "format": {"kind": "knockout", "seeding": "seeded"}, "settings": {"game_time_cap_s": 0}}),
            400,
        ),
        (
            json!({"game": "count", "format": {"kind": "knockout", "seeding": "seeded"}, "bogus": 1}),
            400,
        ),
    ];
    for (body, want) in cases {
        let (st, v) = post(&addr, "/api/events", &t, body.clone()).await;
        assert_eq!(st, want, "{body} -> {v}");
        assert!(v["error"].is_string(), "{v}");
    }
    let r = client::post(&addr, "/api/events", None, &ok)
        .await
        .expect("request");
    assert_eq!(r.status, 401);
    let (st, _) = get(&addr, "/api/events/nope").await;
    assert_eq!(st, 404);
    // An open event: joining twice conflicts; standings wait for the start.
    let (st, ev) = post(&addr, "/api/events", &t, ok).await;
    assert_eq!(st, 201);
    let id = ev["id"].as_str().unwrap();
    let (st, _) = post(&addr, &format!("/api/events/{id}/join"), &t, json!({})).await;
    assert_eq!(st, 200);
    let (st, _) = post(&addr, &format!("/api/events/{id}/join"), &t, json!({})).await;
    assert_eq!(st, 409);
    let (st, _) = get(&addr, &format!("/api/events/{id}/standings")).await;
    assert_eq!(st, 409);
    // One player is too few to start.
    let (st, v) = post(&addr, &format!("/api/events/{id}/start"), &t, json!({})).await;
    assert_eq!(st, 400, "{v}");
    let (_, list) = get(&addr, "/api/events").await;
    assert_eq!(list["events"].as_array().map(Vec::len), Some(1));
    srv.shutdown().await;
}
