//! Four-army Junqi in the hall (issue 38, S7-S12): a person and three AI
//! seats play a whole game over WebSocket with restarts in the set-up
//! phase and mid-game; four people and a spectator play whole games in 四暗
//! and 双明 while every frame each socket receives is checked against what
//! its viewer may see (S9).

use std::time::{Duration, Instant};

use crate::common::{self, post, register, server_at, temp_db};
use futures_util::SinkExt;
use qiyuan_hall::client::GameSocket;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

const ARMIES: &str = "senw";

/// Who reads a socket: a seat (army 0-3) or a spectator.
#[derive(Copy, Clone, Debug, PartialEq)]
enum Reader {
    Seat(usize),
    Spectator,
}

/// Every position text in a frame (`fen`, `start_fen`), and every record.
fn texts(v: &Value, fens: &mut Vec<String>, records: &mut Vec<Value>) {
    let mut walk = vec![v];
    while let Some(v) = walk.pop() {
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    if (k == "fen" || k == "start_fen") && x.is_string() {
                        fens.push(x.as_str().unwrap_or("").to_string());
                    } else if k == "records" {
                        records.extend(x.as_array().cloned().unwrap_or_default());
                    } else {
                        walk.push(x);
                    }
                }
            }
            Value::Array(a) => walk.extend(a),
            _ => {}
        }
    }
}

/// What `reader` may see of `army`'s ranks in play (S9; S8's fallen
/// commander's flag is checked by the rules crate's own test).
fn may_see(reader: Reader, army: usize, allies_see: bool) -> bool {
    match reader {
        Reader::Seat(s) => s == army || (allies_see && s % 2 == army % 2),
        Reader::Spectator => false,
    }
}

/// Panics if the frame shows `reader` a rank or a set-up it may not see.
fn check_frame(frame: &Value, reader: Reader, allies_see: bool) {
    if frame["status"] == "finished" {
        return;
    }
    let (mut fens, mut records) = (Vec::new(), Vec::new());
    texts(frame, &mut fens, &mut records);
    for fen in fens {
        let pieces = fen.split(' ').next().unwrap_or("");
        for token in pieces.split(',').filter(|t| *t != "-" && !t.is_empty()) {
            let mut chars = token.chars();
            let army = chars.next().and_then(|c| ARMIES.find(c)).expect("an army");
            let rank = chars.next().unwrap_or('?');
            assert!(
                rank == 'X' || rank == 'F' || may_see(reader, army, allies_see),
                "{reader:?} sees {token} in {frame}"
            );
        }
    }
    for r in records {
        let text = r["iccs"].as_str().unwrap_or("");
        if text.len() == 30 {
            let army = r["army"]
                .as_str()
                .and_then(|a| ARMIES.find(a))
                .expect("a set-up names its army");
            assert!(
                may_see(reader, army, allies_see),
                "{reader:?} reads {army}'s set-up in {frame}"
            );
        }
    }
}

async fn send(ws: &mut GameSocket, mv: &str) {
    ws.send(Message::Text(
        json!({"t": "move", "move": mv}).to_string().into(),
    ))
    .await
    .expect("send");
}

fn move_number(s: &Value) -> u64 {
    s["fen"]
        .as_str()
        .and_then(|f| f.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// Reads the frames waiting on `ws` (a short wait for the first), checking
/// each; true if any came.
async fn drain(
    ws: &mut GameSocket,
    reader: Reader,
    allies_see: bool,
    seen: &mut Vec<String>,
) -> bool {
    let mut any = false;
    while let Ok(frame) = tokio::time::timeout(Duration::from_millis(15), ws.next_frame()).await {
        let frame = frame.expect("socket open");
        assert_ne!(frame["t"], "error", "{reader:?}: {frame}");
        check_frame(&frame, reader, allies_see);
        seen.push(frame.to_string());
        any = true;
    }
    any
}

/// The published set-up of each army, from a finished game's records.
fn setups(s: &Value) -> Vec<String> {
    s["records"]
        .as_array()
        .map(|r| {
            r.iter()
                .take(4)
                .filter_map(|r| r["iccs"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Four people and a spectator play a whole game of `mode` (the first
/// legal move each turn); every frame is checked, and no set-up text
/// reaches a socket that may not read it before the end.
async fn four_people(mode: i64) {
    let allies_see = mode == 1;
    let (srv, addr) = common::server(&format!("siguo-leak-{mode}")).await;
    let names = ["nan", "dong", "bei", "xi"];
    let mut toks = Vec::new();
    for n in names {
        toks.push(register(&addr, &format!("{n}{mode}")).await);
    }
    let (st, g) = post(
        &addr,
        "/api/games",
        &toks[0],
        json!({"game": "siguo", "opponent": "open", "seat": "south", "options": {"mode": mode, "quiet": 30}}),
    )
    .await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    for tok in &toks[1..] {
        let (st, j) = post(&addr, &format!("/api/games/{id}/join"), tok, json!({})).await;
        assert_eq!(st, 200, "{j}");
    }
    let path = format!("/api/games/{id}/ws");
    let mut sockets = Vec::new();
    for (i, tok) in toks.iter().enumerate() {
        let ws = GameSocket::connect(&addr, &path, Some(tok))
            .await
            .expect("ws");
        sockets.push((Reader::Seat(i), ws, Vec::new(), u64::MAX));
    }
    let ws = GameSocket::connect(&addr, &path, None).await.expect("ws");
    sockets.push((Reader::Spectator, ws, Vec::new(), u64::MAX));
    let deadline = Instant::now() + Duration::from_secs(240);
    let mut pace = common::Pace::default();
    loop {
        assert!(Instant::now() < deadline, "the game did not end in time");
        let mut finished = None;
        for (reader, ws, seen, sent_at) in &mut sockets {
            drain(ws, *reader, allies_see, seen).await;
            let s = ws.game.state().clone();
            if s["status"] == "finished" {
                finished = Some(s.clone());
                continue;
            }
            let Reader::Seat(seat) = *reader else {
                continue;
            };
            let plies = s["plies"].as_u64().unwrap_or(0);
            let to_act = s["seats_to_move"]
                .as_array()
                .is_some_and(|a| a.iter().any(|x| x == seat));
            let first = s["legal"]
                .as_array()
                .and_then(|l| l.first())
                .and_then(Value::as_str);
            if s["status"] == "playing"
                && to_act
                && *sent_at != plies
                && let Some(m) = first
            {
                let m = m.to_string();
                pace.wait().await;
                send(ws, &m).await;
                *sent_at = plies;
            }
        }
        if let Some(s) = finished {
            let texts = setups(&s);
            assert_eq!(texts.len(), 4, "{s}");
            assert!(
                texts.iter().all(|t| t.len() == 30),
                "every set-up published: {s}"
            );
            // Before the end, a set-up text reached only those who may read it.
            for (reader, _, seen, _) in &sockets {
                let before_end: Vec<&String> = seen
                    .iter()
                    .filter(|f| !f.contains("\"finished\""))
                    .collect();
                for (army, text) in texts.iter().enumerate() {
                    if !may_see(*reader, army, allies_see) {
                        assert!(
                            before_end.iter().all(|f| !f.contains(text.as_str())),
                            "{reader:?} got {army}'s set-up early"
                        );
                    }
                }
            }
            assert!(sockets.iter().all(|(_, _, seen, _)| seen.len() > 20));
            break;
        }
    }
    srv.shutdown().await;
}

#[tokio::test]
async fn s9_four_people_and_a_spectator_in_the_dark_mode_see_only_their_own() {
    four_people(0).await;
}

#[tokio::test]
async fn s9_allies_see_each_other_in_the_two_bright_mode_and_nothing_more() {
    four_people(1).await;
}

/// Reads frames until `done` (checking each as South's).
async fn until(
    ws: &mut GameSocket,
    seen: &mut Vec<String>,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = Instant::now() + Duration::from_secs(90);
    // The state read so far may already be the one wanted (frames that
    // came while the test waited on something else).
    if ws.game.state().get("status").is_some() && done(ws.game.state()) {
        return ws.game.state().clone();
    }
    loop {
        assert!(
            Instant::now() < deadline,
            "no wanted state: {}",
            ws.game.state()
        );
        let frame = tokio::time::timeout(Duration::from_secs(30), ws.next_frame())
            .await
            .expect("a frame in time")
            .expect("socket open");
        assert_ne!(frame["t"], "error", "{frame}");
        check_frame(&frame, Reader::Seat(0), false);
        seen.push(frame.to_string());
        if matches!(frame["t"].as_str(), Some("state" | "diff")) && done(ws.game.state()) {
            return ws.game.state().clone();
        }
    }
}

#[tokio::test]
async fn a_person_and_three_ai_seats_play_through_two_restarts() {
    let db = temp_db("siguo-hall");
    let (mut srv, mut addr) = server_at(&db).await;
    let tok = register(&addr, "nanfang").await;
    let (st, g) = post(
        &addr,
        "/api/games",
        &tok,
        json!({"game": "siguo", "opponent": "ai:1", "seat": "south", "options": {"quiet": 40}}),
    )
    .await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    let path = format!("/api/games/{id}/ws");
    let mut seen = Vec::new();
    let mut ws = GameSocket::connect(&addr, &path, Some(&tok))
        .await
        .expect("ws");
    let s = until(&mut ws, &mut seen, |s| s["status"] == "playing").await;
    assert_eq!(move_number(&s), 0, "the set-up phase: {s}");
    assert_eq!(s["legal"], json!(["random", "planned"]), "{s}");
    // S12: three minutes to set up, not the 30 s of a move.
    let clock = s["clocks"][0].as_i64().unwrap_or(0);
    assert!(clock > 150_000, "{s}");
    // The AI seats set up; a restart keeps their set-ups, unseen.
    let s = until(&mut ws, &mut seen, |s| {
        s["seats_to_move"].as_array().is_some_and(|a| a.len() == 1)
    })
    .await;
    assert_eq!(s["seats_to_move"], json!([0]), "{s}");
    drop(ws);
    srv.shutdown().await;
    (srv, addr) = server_at(&db).await;
    let mut ws = GameSocket::connect(&addr, &path, Some(&tok))
        .await
        .expect("ws");
    let s = until(&mut ws, &mut seen, |_| true).await;
    assert_eq!(move_number(&s), 0, "still setting up: {s}");
    assert_eq!(s["seats_to_move"], json!([0]), "{s}");
    let hidden = s["records"]
        .as_array()
        .map_or(0, |r| r.iter().filter(|r| r["iccs"] == "setup").count());
    assert_eq!(hidden, 3, "{s}");
    send(&mut ws, "CFMMDGMZLJS.P.TPZ.GYL.D.TYGCPC").await;
    let s = until(&mut ws, &mut seen, |s| move_number(s) >= 1).await;
    let fen = s["fen"].as_str().unwrap_or("").to_string();
    assert!(fen.contains("sFh1"), "South's own set-up: {fen}");
    assert_eq!(
        fen.matches('X').count(),
        75,
        "the others' ranks unseen: {fen}"
    );
    let clock = s["clocks"][0].as_i64().unwrap_or(0);
    assert!(clock <= 30_000, "30 s a move once play starts: {s}");
    // Play a few turns, then restart mid-game.
    let mut pace = common::Pace::default();
    let mut s = s;
    let mut restarted = false;
    let mut turns = 0;
    while s["status"] != "finished" {
        turns += 1;
        assert!(turns < 600, "the game ends: {s}");
        // Restarted on South's turn, when nobody else can move.
        if turns >= 4 && !restarted && s["seats_to_move"] == json!([0]) {
            let before = s["fen"].clone();
            drop(ws);
            srv.shutdown().await;
            (srv, addr) = server_at(&db).await;
            ws = GameSocket::connect(&addr, &path, Some(&tok))
                .await
                .expect("ws");
            s = until(&mut ws, &mut seen, |_| true).await;
            assert_eq!(s["fen"], before, "the game resumes where it was");
            restarted = true;
        }
        let to_me = s["seats_to_move"] == json!([0]);
        if to_me {
            let plies = s["plies"].as_u64().unwrap_or(0);
            let m = s["legal"][0].as_str().expect("a move").to_string();
            pace.wait().await;
            send(&mut ws, &m).await;
            s = until(&mut ws, &mut seen, |s| {
                s["status"] == "finished" || s["plies"].as_u64().unwrap_or(0) > plies
            })
            .await;
        } else {
            s = until(&mut ws, &mut seen, |s| {
                s["status"] == "finished" || s["seats_to_move"] == json!([0])
            })
            .await;
        }
    }
    // Everything is published at the end.
    assert!(!s["fen"].as_str().unwrap_or("").contains('X'), "{s}");
    assert!(setups(&s).iter().all(|t| t.len() == 30), "{s}");
    srv.shutdown().await;
}

/// S13: a rated four-army game rates each team's result for both its
/// players, in the `siguo` family and nowhere else. South resigns in the
/// set-up phase, so South and North lose.
#[tokio::test]
async fn s13_a_rated_game_rates_both_players_of_each_team_in_its_own_family() {
    let (srv, addr) = common::server("siguo-rated").await;
    let names = ["s13nan", "s13dong", "s13bei", "s13xi"];
    let mut toks = Vec::new();
    for n in names {
        toks.push(register(&addr, n).await);
    }
    let (st, g) = post(
        &addr,
        "/api/games",
        &toks[0],
        json!({"game": "siguo", "opponent": "open", "seat": "south", "rated": true}),
    )
    .await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    for tok in &toks[1..] {
        let (st, j) = post(&addr, &format!("/api/games/{id}/join"), tok, json!({})).await;
        assert_eq!(st, 200, "{j}");
    }
    let (st, r) = post(
        &addr,
        &format!("/api/games/{id}/resign"),
        &toks[0],
        json!({}),
    )
    .await;
    assert_eq!(st, 200, "{r}");
    assert_eq!(r["status"], "finished", "{r}");
    let board = common::eventually("four rated players", || {
        let addr = addr.clone();
        async move {
            let (_, b) = common::get(&addr, "/api/leaderboard/siguo").await;
            (b["rows"].as_array().map_or(0, Vec::len) == 4).then_some(b)
        }
    })
    .await;
    let rating = |name: &str| {
        board["rows"]
            .as_array()
            .and_then(|rows| rows.iter().find(|r| r["username"] == name))
            .and_then(|r| r["rating"].as_f64())
            .unwrap_or_else(|| panic!("{name} in {board}"))
    };
    // East and West won, South and North lost, each by the same amount.
    assert!(
        rating("s13dong") > 1000.0 && rating("s13xi") > 1000.0,
        "{board}"
    );
    assert!(
        rating("s13nan") < 1000.0 && rating("s13bei") < 1000.0,
        "{board}"
    );
    assert!(
        (rating("s13dong") - rating("s13xi")).abs() < 1e-6,
        "{board}"
    );
    let (_, other) = common::get(&addr, "/api/leaderboard/siguo-multi").await;
    assert_ne!(other["rows"].as_array().map_or(0, Vec::len), 4, "{other}");
    srv.shutdown().await;
}

/// S11: a draw needs every player still in the game; one refusal clears
/// the offer.
#[tokio::test]
async fn s11_a_draw_needs_every_remaining_player() {
    let (srv, addr) = common::server("siguo-draw").await;
    let mut toks = Vec::new();
    for n in ["s11nan", "s11dong", "s11bei", "s11xi"] {
        toks.push(register(&addr, n).await);
    }
    let (st, g) = post(
        &addr,
        "/api/games",
        &toks[0],
        json!({"game": "siguo", "opponent": "open", "seat": "south"}),
    )
    .await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    for tok in &toks[1..] {
        let (st, j) = post(&addr, &format!("/api/games/{id}/join"), tok, json!({})).await;
        assert_eq!(st, 200, "{j}");
    }
    for tok in &toks {
        let (st, m) = post(
            &addr,
            &format!("/api/games/{id}/moves"),
            tok,
            json!({"move": "random"}),
        )
        .await;
        assert_eq!(st, 200, "{m}");
    }
    let draw = |i: usize, action: &'static str| {
        let (addr, tok, id) = (addr.clone(), toks[i].clone(), id.clone());
        async move {
            post(
                &addr,
                &format!("/api/games/{id}/draw"),
                &tok,
                json!({"action": action}),
            )
            .await
        }
    };
    let (st, s) = draw(0, "offer").await;
    assert_eq!(st, 200, "{s}");
    assert_eq!(
        (s["draw_offer"].clone(), s["draw_agreed"].clone()),
        (json!(0), json!([0]))
    );
    let (_, s) = draw(1, "accept").await;
    assert_eq!(s["draw_agreed"], json!([0, 1]), "{s}");
    assert_eq!(s["status"], "playing", "two of four is not enough: {s}");
    let (_, s) = draw(2, "decline").await;
    assert_eq!(s["draw_offer"], Value::Null, "{s}");
    assert_eq!(s["draw_agreed"], Value::Null, "cleared: {s}");
    let (st, e) = draw(3, "accept").await;
    assert_eq!(st, 409, "no offer stands: {e}");
    for (i, action) in [(1, "offer"), (3, "accept"), (0, "accept")] {
        let (_, s) = draw(i, action).await;
        assert_eq!(s["status"], "playing", "{s}");
    }
    let (_, s) = draw(2, "accept").await;
    assert_eq!(s["status"], "finished", "{s}");
    assert_eq!(s["reason"], "agreement", "{s}");
    srv.shutdown().await;
}

/// The pool fills four seats at once: four people in `siguo-30s+0` get one
/// rated game, each its own seat, 30 s a move.
#[tokio::test]
async fn four_people_in_the_pool_are_seated_in_one_game() {
    use futures_util::StreamExt;
    let (srv, addr) = common::server("siguo-pool").await;
    let (_, list) = common::get(&addr, "/api/pools").await;
    let pool = list["pools"]
        .as_array()
        .and_then(|ps| ps.iter().find(|p| p["game"] == "siguo"))
        .unwrap_or_else(|| panic!("a siguo pool: {list}"))
        .clone();
    assert_eq!(pool["seats"], 4, "{pool}");
    let id = pool["id"].as_str().expect("id").to_string();
    let mut lobbies = Vec::new();
    for n in ["poolnan", "pooldong", "poolbei", "poolxi"] {
        let tok = register(&addr, n).await;
        let ws = qiyuan_hall::client::connect_ws(&addr, "/api/lobby/ws", Some(&tok))
            .await
            .expect("lobby");
        let (st, p) = post(&addr, &format!("/api/pools/{id}/join"), &tok, json!({})).await;
        assert_eq!(st, 200, "{p}");
        lobbies.push(ws);
    }
    let mut games = Vec::new();
    for ws in &mut lobbies {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        loop {
            let msg = tokio::time::timeout_at(deadline, ws.next())
                .await
                .expect("a game starts in time")
                .expect("open")
                .expect("frame");
            let Message::Text(t) = msg else { continue };
            let v: Value = serde_json::from_str(&t).expect("json");
            if v["type"] == "gameStart" {
                games.push((v["game"]["id"].clone(), v["game"]["seat"].clone()));
                break;
            }
        }
    }
    assert!(games.iter().all(|(g, _)| *g == games[0].0), "{games:?}");
    let mut seats: Vec<u64> = games.iter().filter_map(|(_, s)| s.as_u64()).collect();
    seats.sort_unstable();
    assert_eq!(seats, vec![0, 1, 2, 3]);
    let gid = games[0].0.as_str().expect("id").to_string();
    let (_, g) = common::get(&addr, &format!("/api/games/{gid}")).await;
    assert_eq!(g["status"], "playing", "{g}");
    assert_eq!(g["rated"], true, "{g}");
    assert!(
        g["clocks"][0].as_i64().unwrap_or(0) > 150_000,
        "the set-up's time: {g}"
    );
    srv.shutdown().await;
}
