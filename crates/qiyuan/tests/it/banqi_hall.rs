//! Banqi in the hall, over real HTTP and WebSocket: hidden information never
//! leaves the server while a game is in play (the leak test), per-move clocks
//! with lost turns and marks (B12), B11, game points (B13-B17) settled into
//! balances shown on profiles and the points leaderboard, and AI rooms.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use qiyuan_banqi::{Game, Position, Preset};
use qiyuan_hall::client::{self, GameSocket, Socket, connect_ws};
use qiyuan_hall::server::{Config, Running};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio_tungstenite::tungstenite::Message;

use crate::common;

static N: AtomicU32 = AtomicU32::new(0);

fn temp_db() -> String {
    common::temp_db_url("banqi-test")
}

async fn server_on(db: &str) -> (Running, String) {
    common::start_with(Config {
        port: 0,
        database: db.to_string(),
        rate_per_sec: 0,
        ..Config::default()
    })
    .await
}

async fn register(addr: &str, prefix: &str) -> (String, String) {
    let name = format!("{prefix}{}", N.fetch_add(1, Ordering::Relaxed));
    let r = client::post(
        addr,
        "/api/register",
        None,
        &json!({"username": name, "password": "secret123"}),
    )
    .await
    .expect("request");
    assert_eq!(r.status, 200, "{}", r.body);
    (name, r.json()["token"].as_str().expect("token").to_string())
}

/// POST returning the raw body too (the leak test inspects it).
async fn post_raw(addr: &str, path: &str, token: &str, body: Value) -> (u16, String) {
    let r = client::post(addr, path, Some(token), &body)
        .await
        .expect("request");
    (r.status, r.body)
}

async fn get_raw(addr: &str, path: &str, token: Option<&str>) -> (u16, String) {
    let r = client::get(addr, path, token).await.expect("request");
    (r.status, r.body)
}

fn json_of(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or(Value::Null)
}

/// Two users in a Banqi room (the first created it in seat 0).
async fn banqi_game(addr: &str, body: Value) -> (String, [(String, String); 2]) {
    banqi_game_on([addr, addr], body).await
}

/// The same with each user at a node of their own (`addrs[seat]`).
async fn banqi_game_on(addrs: [&str; 2], body: Value) -> (String, [(String, String); 2]) {
    let a = register(addrs[0], "bqa").await;
    let b = register(addrs[1], "bqb").await;
    let (st, g) = post_raw(addrs[0], "/api/games", &a.1, body).await;
    assert_eq!(st, 201, "{g}");
    let id = json_of(&g)["id"].as_str().expect("id").to_string();
    let (st, j) = post_raw(addrs[1], &format!("/api/games/{id}/join"), &b.1, json!({})).await;
    assert_eq!(st, 200, "{j}");
    (id, [a, b])
}

/// Every raw text frame a socket receives, collected in the background.
fn record_ws(mut ws: Socket, sink: Arc<Mutex<Vec<String>>>) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        while let Some(Ok(msg)) = ws.next().await {
            if let Message::Text(t) = msg {
                sink.lock().expect("sink").push(t.to_string());
            }
        }
    })
}

/// The eleventh field of a full position: the face-down identities.
fn hidden_field(full: &str) -> Option<String> {
    full.split(' ').nth(10).map(str::to_string)
}

/// Walks every string in `v` and fails if one is a Banqi position that names a
/// face-down piece (eleven fields), whatever the key it hides under.
fn assert_no_full_position(v: &Value, raw: &str) {
    match v {
        Value::String(s) => {
            // Only the full form has an eleventh field (the face-down pieces).
            let parses = Position::from_fen(Preset::Banqi, s).is_ok();
            assert!(
                !(parses && s.split_whitespace().count() > 10),
                "a full position was sent: {raw}"
            );
        }
        Value::Array(a) => a.iter().for_each(|x| assert_no_full_position(x, raw)),
        Value::Object(o) => o.values().for_each(|x| assert_no_full_position(x, raw)),
        _ => {}
    }
}

/// The leak test: a whole game played over WebSocket by two players, with a
/// spectator on a socket, another on the NDJSON stream, the lobby socket, and
/// HTTP reads (state, PGN, lobby, profile) after every move. No byte any
/// client received while the game was in play contains the stored layout,
/// the face-down identities at that moment, or any full position; the
/// server's own stored record does hold the layout.
#[tokio::test]
async fn hidden_pieces_never_reach_any_client() {
    let db = temp_db();
    let (srv, addr) = server_on(&db).await;
    leak_test([&addr, &addr], &db).await;
    srv.shutdown().await;
}

/// The leak test with the two players on different nodes (issue 17):
/// node A owns the game; player B, a spectator's socket and the stream are
/// on node B, whose copy of the game follows the bus, and B's moves and
/// actions are forwarded to A. Needs Redis (`QIYUAN_TEST_REDIS`, started by
/// `tests/cluster/run.sh`), run on SQLite and on PostgreSQL.
async fn leak_test_across_nodes(database: String, bus: String) {
    let node = |id: &'static str| {
        let (database, bus) = (database.clone(), bus.clone());
        async move {
            common::start_with(Config {
                port: 0,
                database,
                bus,
                rate_per_sec: 0,
                lease: Some(qiyuan_hall::lease::LeaseConfig {
                    node: id.into(),
                    ttl: Duration::from_secs(10),
                    advertise: None,
                }),
                ..Config::default()
            })
            .await
        }
    };
    let (node_a, addr_a) = node("node-a").await;
    let (node_b, addr_b) = node("node-b").await;
    leak_test([&addr_a, &addr_b], &database).await;
    node_b.shutdown().await;
    node_a.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hidden_pieces_never_reach_any_client_across_nodes() {
    let Ok(redis) = std::env::var("QIYUAN_TEST_REDIS") else {
        eprintln!("note: QIYUAN_TEST_REDIS is not set; the two-node leak test is skipped");
        return;
    };
    leak_test_across_nodes(temp_db(), redis.clone()).await;
    match std::env::var("QIYUAN_TEST_POSTGRES") {
        Ok(base) => {
            leak_test_across_nodes(common::fresh_postgres(&base, "leak").await, redis).await
        }
        Err(_) => {
            eprintln!("note: QIYUAN_TEST_POSTGRES is not set; its two-node leak test is skipped")
        }
    }
}

/// Plays a whole Banqi game between two people, seat `i` at `addrs[i]`,
/// checking every byte any client gets (see above); `database` is the
/// store the nodes share.
async fn leak_test(addrs: [&str; 2], database: &str) {
    let [addr_a, addr_b] = addrs;
    let (id, [a, b]) = banqi_game_on(
        addrs,
        json!({"game": "banqi", "clock": {"initial_s": 60}, "opponent": "open"}),
    )
    .await;
    // The server's record: the full start position with the layout.
    let store = qiyuan_hall::store::open(database).await.expect("db");
    let setup = store
        .game_setup(&id)
        .await
        .expect("read")
        .expect("the layout is stored");
    let layout = hidden_field(&setup).expect("eleven fields");
    assert_eq!(layout.len(), 32);
    let mut game = Game::from_fen(Preset::Banqi, &setup).expect("stored full position");

    let frames = Arc::new(Mutex::new(Vec::<String>::new()));
    let path = format!("/api/games/{id}/ws");
    let mut wa = GameSocket::connect(addr_a, &path, Some(&a.1))
        .await
        .expect("ws a");
    let mut wb = GameSocket::connect(addr_b, &path, Some(&b.1))
        .await
        .expect("ws b");
    let spec = connect_ws(addr_b, &path, None).await.expect("spectator ws");
    let lobby = connect_ws(addr_a, "/api/lobby/ws", None)
        .await
        .expect("lobby");
    let recorders = [
        record_ws(spec, frames.clone()),
        record_ws(lobby, frames.clone()),
    ];
    let mut stream = tokio::net::TcpStream::connect(addr_b)
        .await
        .expect("connect");
    stream
        .write_all(format!("GET /api/games/{id}/stream HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes())
        .await
        .expect("write");
    let stream_sink = frames.clone();
    let stream_task = tokio::spawn(async move {
        let mut lines = BufReader::new(stream).lines();
        while let Ok(Some(l)) = lines.next_line().await {
            stream_sink.lock().expect("sink").push(l);
        }
    });

    // Checks a batch of raw texts against what is face down right now.
    let check = |texts: &[String], game: &Game| {
        let now_hidden = hidden_field(&game.full_fen()).unwrap_or_default();
        for t in texts {
            assert!(!t.contains(&layout), "layout leaked: {t}");
            if now_hidden.len() >= 6 {
                assert!(!t.contains(&now_hidden), "face-down pieces leaked: {t}");
            }
            assert_no_full_position(&json_of(t), t);
        }
    };

    let mut plies = 0;
    let mut seen = Vec::new();
    // A socket takes 10 frames a second (its pongs among them).
    const WS_MOVE_GAP: Duration = Duration::from_millis(150);
    let mut last_ws_move = [std::time::Instant::now(); 2];
    loop {
        // The seat to move reads its state over its socket and plays the
        // first capture it has, else a random legal move.
        let turn = game.turn().expect("in play");
        let ws = if turn == 0 { &mut wa } else { &mut wb };
        let state = loop {
            let v = tokio::time::timeout(Duration::from_secs(10), ws.next_frame())
                .await
                .expect("a frame in time")
                .expect("socket open");
            seen.push(v.to_string());
            assert_ne!(v["t"], "error", "{v}");
            // The game as the player's client folds its frames.
            let g = ws.game.state();
            if g["moves"].as_array().map(Vec::len) == Some(game.record().len())
                && g["legal"].as_array().is_some_and(|l| !l.is_empty())
            {
                break g.clone();
            }
        };
        let legal: Vec<String> = serde_json::from_value(state["legal"].clone()).expect("legal");
        let pick = legal
            .iter()
            .find(|m| {
                let mut g = game.clone();
                g.play_text(m).is_ok_and(|e| e.captured.is_some())
            })
            .cloned()
            .unwrap_or_else(|| legal[plies * 7 % legal.len()].clone());
        // Every third move over the socket (it allows 10 frames a second:
        // a fast machine plays faster than that, so each seat's socket
        // moves are spaced), the others over HTTP, whose answer is checked
        // like any frame.
        if plies % 3 == 0 {
            let since = last_ws_move[turn].elapsed();
            if since < WS_MOVE_GAP {
                tokio::time::sleep(WS_MOVE_GAP - since).await;
            }
            last_ws_move[turn] = std::time::Instant::now();
            let ws = if turn == 0 { &mut wa } else { &mut wb };
            ws.send(Message::Text(
                json!({"t": "move", "move": pick}).to_string().into(),
            ))
            .await
            .expect("send");
        } else {
            let tok = if turn == 0 { &a.1 } else { &b.1 };
            let (st, body) = post_raw(
                addrs[turn],
                &format!("/api/games/{id}/moves"),
                tok,
                json!({"move": pick}),
            )
            .await;
            assert_eq!(st, 200, "{body}");
            seen.push(body);
        }
        game.play_text(&pick)
            .expect("the server's legal move is legal");
        plies += 1;
        if game.result().is_some() {
            break;
        }
        // HTTP reads as both players and a spectator, the PGN and the lobby.
        let mut bodies = Vec::new();
        let readers = [(addr_a, Some(a.1.as_str())), (addr_b, Some(b.1.as_str()))];
        for (addr, tok) in readers.into_iter().chain([(addr_a, None), (addr_b, None)]) {
            let (st, body) = get_raw(addr, &format!("/api/games/{id}"), tok).await;
            assert_eq!(st, 200, "{body}");
            bodies.push(body);
        }
        if plies % 10 == 0 {
            bodies.push(
                get_raw(addr_b, &format!("/api/games/{id}/pgn"), None)
                    .await
                    .1,
            );
            bodies.push(get_raw(addr_b, "/api/lobby", None).await.1);
            bodies.push(
                get_raw(addr_b, &format!("/api/users/{}", a.0), None)
                    .await
                    .1,
            );
        }
        check(&bodies, &game);
        check(&std::mem::take(&mut seen), &game);
        // An illegal move's error must not name a hidden piece either.
        if plies == 5 {
            let other = if turn == 0 { &b.1 } else { &a.1 };
            let (st, e) = post_raw(
                addrs[1 - turn],
                &format!("/api/games/{id}/moves"),
                other,
                json!({"move": "a1b1"}),
            )
            .await;
            assert!(st == 400 || st == 409, "{e}");
            check(&[e], &game);
        }
        let recorded = std::mem::take(&mut *frames.lock().expect("frames"));
        check(&recorded, &game);
        assert!(plies <= 320, "the game should end by B10");
    }
    assert!(plies >= 32, "a whole game was played ({plies} plies)");
    // Frames up to the end (the last state may show the finished record),
    // once the spectators have been told of it.
    common::eventually("the end reaches the spectators", || async {
        frames
            .lock()
            .expect("frames")
            .iter()
            .any(|t| t.contains("\"finished\""))
            .then_some(())
    })
    .await;
    for t in std::mem::take(&mut *frames.lock().expect("frames")) {
        let v = json_of(&t);
        if v["status"] != "finished" && v["game"]["status"] != "finished" {
            check(&[t], &game);
        }
    }
    // The finished game's record may publish the layout (B1).
    let (st, pgn) = get_raw(addr_b, &format!("/api/games/{id}/pgn"), None).await;
    assert_eq!(st, 200);
    assert!(pgn.contains(&setup), "{pgn}");
    let (_, fin) = get_raw(addr_b, &format!("/api/games/{id}"), None).await;
    assert_eq!(json_of(&fin)["status"], "finished", "{fin}");
    for r in recorders {
        r.abort();
    }
    stream_task.abort();
    store.close().await;
}

/// Polls the game until `pred` holds (10 s at most).
async fn wait_for(addr: &str, id: &str, pred: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..200 {
        let (_, body) = get_raw(addr, &format!("/api/games/{id}"), None).await;
        let v = json_of(&body);
        if pred(&v) {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the game never reached the expected state");
}

async fn balance(addr: &str, name: &str) -> i64 {
    let (st, body) = get_raw(addr, &format!("/api/users/{name}"), None).await;
    assert_eq!(st, 200, "{body}");
    json_of(&body)["points"]["banqi"]
        .as_i64()
        .expect("banqi_points")
}

/// B12 through the hall: with 1 s per move and nobody moving, each flag fall
/// is a lost turn and a mark (`0000` in the record), the turn passes, and the
/// third mark loses; a restart in between replays the lost turns. B13/B17:
/// decided in under 40 plies in a base-2 room: winner 0, loser -20.
#[tokio::test]
async fn lost_turns_marks_and_short_game_points() {
    let db = temp_db();
    let (srv, addr) = server_on(&db).await;
    let (id, [a, b]) = banqi_game(
        &addr,
        json!({"game": "banqi", "clock": {"initial_s": 1}, "base": 2, "opponent": "open"}),
    )
    .await;
    let first = wait_for(&addr, &id, |v| v["status"] == "playing").await["to_move"]
        .as_u64()
        .expect("to move") as usize;
    // Each side makes its first move (until then a late move aborts the
    // game, issue 36); then both let their turns run out.
    let tokens = [&a.1, &b.1];
    for seat in [first, 1 - first] {
        let (_, mine) = get_raw(&addr, &format!("/api/games/{id}"), Some(tokens[seat])).await;
        let mv = json_of(&mine)["legal"][0]
            .as_str()
            .expect("a legal move")
            .to_string();
        let (st, e) = post_raw(
            &addr,
            &format!("/api/games/{id}/moves"),
            tokens[seat],
            json!({"move": mv}),
        )
        .await;
        assert_eq!(st, 200, "{e}");
    }
    let v = wait_for(&addr, &id, |v| {
        v["moves"].as_array().map(Vec::len) == Some(4)
    })
    .await;
    assert_eq!(
        (&v["moves"][2], &v["moves"][3]),
        (&json!("0000"), &json!("0000")),
        "{v}"
    );
    assert!(v["fen"].as_str().expect("fen").ends_with(" 1,1"), "{v}");
    assert_eq!(v["to_move"], first);
    // B11: too early to resign or offer a draw.
    let (st, e) = post_raw(&addr, &format!("/api/games/{id}/resign"), &a.1, json!({})).await;
    assert_eq!(st, 409, "{e}");
    assert!(e.contains("B11"), "{e}");
    let (st, e) = post_raw(
        &addr,
        &format!("/api/games/{id}/draw"),
        &b.1,
        json!({"action": "offer"}),
    )
    .await;
    assert_eq!(st, 409, "{e}");
    srv.shutdown().await;

    // The lost turns survive a restart.
    let (srv, addr) = server_on(&db).await;
    let v = wait_for(&addr, &id, |v| v["status"] == "finished").await;
    assert_eq!(v["reason"], "timeout");
    let moves: Vec<String> = serde_json::from_value(v["moves"].clone()).expect("moves");
    assert_eq!(moves[2..], vec!["0000"; 5]);
    assert!(
        v["fen"].as_str().expect("fen").contains(" 3,2")
            || v["fen"].as_str().expect("fen").contains(" 2,3")
    );
    let loser = first;
    let names = [&a.0, &b.0];
    assert_eq!(balance(&addr, names[loser]).await, -20);
    assert_eq!(balance(&addr, names[1 - loser]).await, 0);
    srv.shutdown().await;
}

/// A set-up position in the full form (nothing face down): red's soldier on
/// a1 takes black's last piece, the general on a2, as red's first capture.
fn general_last(plies: u32) -> String {
    format!("8/8/k7/P7 0 r {plies} 0 * -- - -,- 0,0")
}

/// B14 + B16 + B17 and B13 + B16: one capture ends each game.
#[tokio::test]
async fn set_up_rooms_settle_no_points_and_are_marked() {
    let (srv, addr) = server_on(&temp_db()).await;
    // Issue 11 (points farming): a room from a set-up position, won in one
    // move, would pay the creator and charge the victim; it settles nothing
    // and says it is a set-up. (The B15/B16 arithmetic itself is tested in
    // qiyuan-banqi's decision tests.)
    for plies in [50, 10] {
        let (id, [a, b]) = banqi_game(
            &addr,
            json!({"game": "banqi", "fen": general_last(plies), "opponent": "open"}),
        )
        .await;
        let (st, lobby) = get_raw(&addr, "/api/lobby", None).await;
        assert_eq!(st, 200);
        let lobby = json_of(&lobby);
        let entry = lobby["playing"]
            .as_array()
            .expect("playing")
            .iter()
            .find(|g| g["id"] == id.as_str())
            .cloned()
            .expect("listed");
        assert_eq!(entry["setup"], true, "{entry}");
        let (st, s) = post_raw(
            &addr,
            &format!("/api/games/{id}/moves"),
            &a.1,
            json!({"move": "a1a2"}),
        )
        .await;
        assert_eq!(st, 200, "{s}");
        let v = json_of(&s);
        assert_eq!(v["status"], "finished");
        assert_eq!(v["result"], "red");
        assert_eq!(balance(&addr, &a.0).await, 0);
        assert_eq!(balance(&addr, &b.0).await, 0);
        let (_, prof) = get_raw(&addr, &format!("/api/users/{}", a.0), None).await;
        let prof = json_of(&prof);
        assert_eq!(prof["games"][0]["setup"], true, "{prof}");
    }
    // Nothing reached the points leaderboard.
    let (st, lb) = get_raw(&addr, "/api/leaderboard/banqi-points", None).await;
    assert_eq!(st, 200, "{lb}");
    assert_eq!(json_of(&lb)["players"], json!([]), "{lb}");
    // Bad rooms are refused, a set-up room with a base among them.
    let (bqc, tok) = register(&addr, "bqc").await;
    // Issue 37: a player who never played Banqi has no Banqi points to show
    // (not a "0"); the players above, who did, have theirs.
    let (_, prof) = get_raw(&addr, &format!("/api/users/{bqc}"), None).await;
    assert_eq!(json_of(&prof)["points"], json!({}), "{prof}");
    for body in [
        json!({"game": "banqi", "base": 0}),
        json!({"game": "banqi", "base": 101}),
        json!({"game": "xiangqi", "base": 2}),
        json!({"game": "banqi", "fen": general_last(10), "base": 2}),
        json!({"game": "banqi", "clock": {"initial_s": 30, "increment_s": 5}}),
        json!({"game": "banqi", "fen": "????????/????????/????????/???????? 0 - 0 0 - -- - -,- 0,0"}),
    ] {
        let (st, e) = post_raw(&addr, "/api/games", &tok, body).await;
        assert_eq!(st, 400, "{e}");
    }
    srv.shutdown().await;
}

/// B14/B15 from real play: 40 plies over HTTP, then B11 opens. A resignation
/// pays the winner N = its pieces left (+5 if its first capture was the
/// general), read from the public final position; a draw moves nothing.
#[tokio::test]
async fn resignation_after_ply_40_pays_pieces_left_and_draws_pay_nothing() {
    let (srv, addr) = server_on(&temp_db()).await;
    for resign in [true, false] {
        let (id, [a, b]) = banqi_game(&addr, json!({"game": "banqi", "opponent": "open"})).await;
        let toks = [&a.1, &b.1];
        let mut v = wait_for(&addr, &id, |v| v["status"] == "playing").await;
        for ply in 0..40 {
            let seat = v["to_move"].as_u64().expect("to move") as usize;
            let (_, body) = get_raw(&addr, &format!("/api/games/{id}"), Some(toks[seat])).await;
            let legal: Vec<String> =
                serde_json::from_value(json_of(&body)["legal"].clone()).expect("legal");
            // Flips first, so the game is still on at ply 40.
            let mv = legal
                .iter()
                .find(|m| m[..2] == m[2..])
                .unwrap_or(&legal[ply % legal.len()]);
            let (st, s) = post_raw(
                &addr,
                &format!("/api/games/{id}/moves"),
                toks[seat],
                json!({"move": mv}),
            )
            .await;
            assert_eq!(st, 200, "{s}");
            v = json_of(&s);
            assert_eq!(v["status"], "playing", "{v}");
        }
        let loser = v["to_move"].as_u64().expect("to move") as usize;
        let winner = 1 - loser;
        if resign {
            let (st, s) = post_raw(
                &addr,
                &format!("/api/games/{id}/resign"),
                toks[loser],
                json!({}),
            )
            .await;
            assert_eq!(st, 200, "{s}");
            let fin = json_of(&s);
            let fen = fin["fen"].as_str().expect("fen");
            let pos = Position::from_fen(Preset::Banqi, fen).expect("public position");
            let colour = pos.colour_of(winner).expect("colours are set by ply 40");
            let n = i64::from(pos.pieces_left(colour));
            let general_first = pos
                .first_capture(winner)
                .is_some_and(|p| p.kind == qiyuan_banqi::Kind::General);
            let bonus = if general_first { 5 } else { 0 };
            let names = [&a.0, &b.0];
            assert_eq!(balance(&addr, names[winner]).await, n + bonus);
            assert_eq!(balance(&addr, names[loser]).await, -n);
        } else {
            for (tok, action) in [(toks[0], "offer"), (toks[1], "accept")] {
                let (st, s) = post_raw(
                    &addr,
                    &format!("/api/games/{id}/draw"),
                    tok,
                    json!({"action": action}),
                )
                .await;
                assert_eq!(st, 200, "{s}");
            }
            let fin = wait_for(&addr, &id, |v| v["status"] == "finished").await;
            assert_eq!(fin["reason"], "agreement");
            assert_eq!(balance(&addr, &a.0).await, 0);
            assert_eq!(balance(&addr, &b.0).await, 0);
        }
    }
    srv.shutdown().await;
}

/// AI rooms at every level 1-8: the AI answers each of the user's moves
/// (and flips first when the draw says so); AI games move no points.
#[tokio::test]
async fn ai_rooms_at_levels_1_to_8() {
    let (srv, addr) = server_on(&temp_db()).await;
    let mut names = Vec::new();
    for level in 1..=8 {
        // One player per level: a user may have only a few AI games at once.
        let (name, tok) = register(&addr, &format!("bqai{level}")).await;
        names.push(name);
        let (st, g) = post_raw(
            &addr,
            "/api/games",
            &tok,
            json!({"game": if level % 2 == 0 { "banqi" } else { "banqi-icga" },
                   "opponent": format!("ai:{level}")}),
        )
        .await;
        assert_eq!(st, 201, "{g}");
        let g = json_of(&g);
        let id = g["id"].as_str().expect("id").to_string();
        let me = g["seat"].as_u64().expect("seat") as usize;
        let mut ai_moves = 0;
        for _ in 0..4 {
            let v = wait_for(&addr, &id, |v| {
                v["to_move"].as_u64() == Some(me as u64) || v["status"] == "finished"
            })
            .await;
            if v["status"] == "finished" {
                break;
            }
            let (_, body) = get_raw(&addr, &format!("/api/games/{id}"), Some(&tok)).await;
            let legal: Vec<String> =
                serde_json::from_value(json_of(&body)["legal"].clone()).expect("legal");
            let (st, s) = post_raw(
                &addr,
                &format!("/api/games/{id}/moves"),
                &tok,
                json!({"move": legal[0]}),
            )
            .await;
            assert_eq!(st, 200, "{s}");
            ai_moves = json_of(&s)["moves"].as_array().map_or(0, Vec::len);
        }
        assert!(
            ai_moves >= 7,
            "level {level}: the AI kept moving ({ai_moves} plies)"
        );
    }
    for name in names {
        assert_eq!(balance(&addr, &name).await, 0);
    }
    srv.shutdown().await;
}
