//! The server side of the game page (issue 18): a game's rating changes,
//! the AI's answer to a draw offer, waiting for one's turn over HTTP, the
//! player's NDJSON stream and its end, refused claims, and explanations in
//! both languages; against the fake game (`count`). (Moved from the
//! binary's tests; the claim and multi-player rating tests stay there.)

use std::time::Duration;

use qiyuan_hall::client;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use crate::common;
use crate::common::{get, post, register};

/// GET with a token: status and JSON body.
async fn get_as(addr: &str, path: &str, token: &str) -> (u16, Value) {
    let r = client::get(addr, path, Some(token)).await.expect("request");
    (r.status, r.json())
}

/// Creates a game as `token` and returns its id.
async fn create(addr: &str, token: &str, body: Value) -> String {
    let (st, g) = post(addr, "/api/games", token, body).await;
    assert_eq!(st, 201, "{g}");
    g["id"].as_str().expect("id").to_string()
}

/// The game's rating changes once the finisher has rated it (it rates a
/// game moments after its end, on its own task).
async fn rated_changes(addr: &str, id: &str) -> Value {
    for _ in 0..400 {
        let (st, r) = get(addr, &format!("/api/games/{id}/ratings")).await;
        assert_eq!(st, 200, "{r}");
        if r["changes"].as_array().is_some_and(|c| !c.is_empty()) {
            return r;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("game {id} was never rated");
}

#[tokio::test]
async fn a_rated_game_against_the_ai_shows_its_rating_change() {
    let (srv, addr) = common::server("page-ratings").await;
    let alice = register(&addr, "alice").await;
    let id = create(
        &addr,
        &alice,
        json!({"game": "count", "opponent": "ai:1", "rated": true}),
    )
    .await;
    // In play: rated, nothing changed yet.
    let (st, r) = get(&addr, &format!("/api/games/{id}/ratings")).await;
    assert_eq!(st, 200, "{r}");
    assert_eq!(r, json!({"rated": true, "changes": []}));
    let (st, s) = post(&addr, &format!("/api/games/{id}/resign"), &alice, json!({})).await;
    assert_eq!(st, 200, "{s}");
    assert_eq!(s["reason"], "resignation");
    assert_eq!(s["explanation"], "座位1认输 / seat 1 resigned");
    let r = rated_changes(&addr, &id).await;
    assert_eq!(r["rated"], true, "{r}");
    let changes = r["changes"].as_array().expect("changes");
    assert_eq!(changes.len(), 1, "only the person's rating moves: {r}");
    let c = &changes[0];
    assert_eq!(c["seat"], 0, "{r}");
    assert_eq!(c["username"], "alice", "{r}");
    assert_eq!(c["family"], "count", "{r}");
    assert_eq!(c["before"], 1000, "{r}");
    let after = c["after"].as_i64().expect("a whole number");
    assert!(after < 1000, "a loss costs rating: {r}");
    assert_eq!(c["title"], "草民", "{r}");
    assert_eq!(c["title_en"], "Commoner", "{r}");
    // The profile agrees with the game, and its list carries the reason
    // word and the bilingual explanation.
    let (_, p) = get(&addr, "/api/users/alice").await;
    assert_eq!(p["ratings"]["count"]["rating"], after, "{p}");
    assert_eq!(p["games"][0]["reason"], "resignation", "{p}");
    assert_eq!(
        p["games"][0]["explanation"], "座位1认输 / seat 1 resigned",
        "{p}"
    );

    // Unrated games have no changes; unknown games are a JSON 404.
    let casual = create(&addr, &alice, json!({"game": "count", "opponent": "ai:1"})).await;
    post(
        &addr,
        &format!("/api/games/{casual}/resign"),
        &alice,
        json!({}),
    )
    .await;
    let (st, r) = get(&addr, &format!("/api/games/{casual}/ratings")).await;
    assert_eq!(st, 200, "{r}");
    assert_eq!(r, json!({"rated": false, "changes": []}));
    let (st, e) = get(&addr, "/api/games/nosuchgame/ratings").await;
    assert_eq!(st, 404, "{e}");
    assert_eq!(e["code"], "not_found", "{e}");
    srv.shutdown().await;
}

#[tokio::test]
async fn the_ai_accepts_a_draw_when_it_is_worse_and_declines_when_it_is_better() {
    let (srv, addr) = common::server("page-draw").await;
    let alice = register(&addr, "alice").await;
    // From 0 the first seat, to move, wins with best play (ten is not a
    // multiple of three). Alice is the first seat: the AI is lost and takes
    // the draw at once.
    let id = create(
        &addr,
        &alice,
        json!({"game": "count", "opponent": "ai:4", "fen": "0"}),
    )
    .await;
    let (st, s) = post(&addr, &format!("/api/games/{id}/draw"), &alice, json!({})).await;
    assert_eq!(st, 200, "{s}");
    assert_eq!(s["status"], "finished", "{s}");
    assert_eq!(s["result"], "draw", "{s}");
    assert_eq!(s["reason"], "agreement", "{s}");
    assert_eq!(s["explanation"], "双方同意和棋 / draw by agreement", "{s}");

    // From 1 the second seat moves first, and loses with best play (nine
    // is a multiple of three). Alice is the second seat: the AI is winning
    // and declines at once.
    let id = create(
        &addr,
        &alice,
        json!({"game": "count", "opponent": "ai:4", "seat": "seat2", "fen": "1"}),
    )
    .await;
    let path = format!("/api/games/{id}/ws");
    let mut ws = client::GameSocket::connect(&addr, &path, Some(&alice))
        .await
        .expect("ws");
    let first = ws.next_state().await.expect("state");
    assert_eq!(first["draw_offer"], Value::Null, "{first}");
    let (st, s) = post(&addr, &format!("/api/games/{id}/draw"), &alice, json!({})).await;
    assert_eq!(st, 200, "{s}");
    assert_eq!(s["status"], "playing", "{s}");
    assert_eq!(s["draw_offer"], Value::Null, "the offer is answered: {s}");
    assert_eq!(
        s["draw_declined"], 0,
        "the first seat (the AI) declined: {s}"
    );
    // The socket saw the offer stand, then the decline as its own change.
    let offered = ws.next_state().await.expect("offer");
    assert_eq!(offered["draw_offer"], 1, "{offered}");
    assert!(offered.get("draw_declined").is_none(), "{offered}");
    let declined = ws.next_state().await.expect("decline");
    assert_eq!(declined["draw_offer"], Value::Null, "{declined}");
    assert_eq!(declined["draw_declined"], 0, "{declined}");
    assert!(declined["version"].as_u64() > offered["version"].as_u64());
    // The notice belongs to that change only: the next one drops it.
    let (st, s) = post(
        &addr,
        &format!("/api/games/{id}/moves"),
        &alice,
        json!({"move": "+1"}),
    )
    .await;
    assert_eq!(st, 200, "{s}");
    assert!(s.get("draw_declined").is_none(), "{s}");
    srv.shutdown().await;
}

#[tokio::test]
async fn a_bot_waits_for_its_turn_instead_of_getting_409() {
    let (srv, addr) = common::server("page-wait").await;
    let alice = register(&addr, "alice").await;
    let bob = register(&addr, "bob").await;
    let carol = register(&addr, "carol").await;
    // Against the AI: move, then wait for the reply.
    let id = create(&addr, &alice, json!({"game": "count", "opponent": "ai:1"})).await;
    let (st, s) = post(
        &addr,
        &format!("/api/games/{id}/moves"),
        &alice,
        json!({"move": "+1"}),
    )
    .await;
    assert_eq!(st, 200, "{s}");
    let (st, w) = get_as(&addr, &format!("/api/games/{id}/wait?timeout_s=30"), &alice).await;
    assert_eq!(st, 200, "{w}");
    assert_eq!(w["your_turn"], true, "{w}");
    assert_eq!(w["timed_out"], false, "{w}");
    assert_eq!(w["game_over"], false, "{w}");
    assert_eq!(w["state"]["seat"], 0, "{w}");
    assert_eq!(w["state"]["moves"].as_array().map(Vec::len), Some(2), "{w}");
    assert!(!w["state"]["legal"].as_array().expect("legal").is_empty());
    // So the next move is accepted.
    let legal = w["state"]["legal"][0].as_str().expect("a move").to_string();
    let (st, s) = post(
        &addr,
        &format!("/api/games/{id}/moves"),
        &alice,
        json!({"move": legal}),
    )
    .await;
    assert_eq!(st, 200, "{s}");

    // Against a person: not one's turn, a zero wait times out at once.
    let (st, g) = post(
        &addr,
        "/api/games",
        &alice,
        json!({"game": "count", "opponent": "open"}),
    )
    .await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    post(&addr, &format!("/api/games/{id}/join"), &bob, json!({})).await;
    let wait = format!("/api/games/{id}/wait");
    let (st, w) = get_as(&addr, &format!("{wait}?timeout_s=0"), &bob).await;
    assert_eq!(st, 200, "{w}");
    assert_eq!(
        (&w["your_turn"], &w["timed_out"]),
        (&json!(false), &json!(true)),
        "{w}"
    );
    // Bob waits while alice moves: his wait ends with his turn.
    let waiting = {
        let (addr, bob, wait) = (addr.clone(), bob.clone(), wait.clone());
        tokio::spawn(async move { get_as(&addr, &format!("{wait}?timeout_s=60"), &bob).await })
    };
    let (st, s) = post(
        &addr,
        &format!("/api/games/{id}/moves"),
        &alice,
        json!({"move": "+1"}),
    )
    .await;
    assert_eq!(st, 200, "{s}");
    let (st, w) = waiting.await.expect("the wait ends");
    assert_eq!(st, 200, "{w}");
    assert_eq!(w["your_turn"], true, "{w}");
    assert_eq!(w["state"]["seat"], 1, "{w}");
    // The game over ends a wait too.
    post(&addr, &format!("/api/games/{id}/resign"), &bob, json!({})).await;
    let (st, w) = get_as(&addr, &format!("{wait}?timeout_s=60"), &alice).await;
    assert_eq!(st, 200, "{w}");
    assert_eq!(
        (&w["game_over"], &w["your_turn"]),
        (&json!(true), &json!(false)),
        "{w}"
    );
    assert_eq!(w["state"]["status"], "finished", "{w}");

    // Bounded, players only, clear errors.
    for (q, code) in [
        ("?timeout_s=61", "out_of_range"),
        ("?timeout_s=-1", "out_of_range"),
        ("?timeout_s=soon", "bad_query"),
        ("?wait=1", "bad_query"),
    ] {
        let (st, e) = get_as(&addr, &format!("{wait}{q}"), &alice).await;
        assert_eq!((st, e["code"].as_str()), (400, Some(code)), "{q}: {e}");
    }
    let (st, e) = get(&addr, &wait).await;
    assert_eq!((st, e["code"].as_str()), (401, Some("unauthorized")), "{e}");
    let (st, e) = get_as(&addr, &wait, &carol).await;
    assert_eq!((st, e["code"].as_str()), (403, Some("not_a_player")), "{e}");
    let (st, e) = get_as(&addr, "/api/games/nosuchgame/wait", &alice).await;
    assert_eq!((st, e["code"].as_str()), (404, Some("not_found")), "{e}");
    srv.shutdown().await;
}

/// Opens `/api/games/{id}/stream` (with `token`, if any) on a kept-alive
/// HTTP/1.1 connection and returns its line reader: the server closes the
/// connection when the stream ends, so a reader that waits for the end of
/// the connection (not only of the chunked body) sees it too.
async fn open_stream(
    addr: &str,
    id: &str,
    token: Option<&str>,
) -> tokio::io::Lines<BufReader<tokio::net::TcpStream>> {
    let mut conn = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    conn.write_all(
        format!("GET /api/games/{id}/stream HTTP/1.1\r\nHost: x\r\n{auth}\r\n").as_bytes(),
    )
    .await
    .expect("write");
    BufReader::new(conn).lines()
}

/// The next JSON line of a stream (skipping headers and chunk sizes), or
/// `None` once the connection is closed.
async fn next_json(
    lines: &mut tokio::io::Lines<BufReader<tokio::net::TcpStream>>,
) -> Option<Value> {
    loop {
        let line = tokio::time::timeout(Duration::from_secs(20), lines.next_line())
            .await
            .expect("the stream answers or ends")
            .expect("read")?;
        if let Ok(v) = serde_json::from_str::<Value>(line.trim())
            && v.is_object()
        {
            return Some(v);
        }
    }
}

#[tokio::test]
async fn a_players_stream_has_seat_and_legal_and_ends_with_the_game() {
    let (srv, addr) = common::server("page-stream").await;
    let alice = register(&addr, "alice").await;
    let bob = register(&addr, "bob").await;
    let (_, g) = post(
        &addr,
        "/api/games",
        &alice,
        json!({"game": "count", "opponent": "open"}),
    )
    .await;
    let id = g["id"].as_str().expect("id").to_string();
    post(&addr, &format!("/api/games/{id}/join"), &bob, json!({})).await;
    let mut mine = open_stream(&addr, &id, Some(&alice)).await;
    let mut public = open_stream(&addr, &id, None).await;
    let first = next_json(&mut mine).await.expect("first line");
    assert_eq!(first["t"], "state", "{first}");
    assert_eq!(first["seat"], 0, "{first}");
    assert!(
        first["legal"].as_array().is_some_and(|l| l.len() == 2),
        "{first}"
    );
    let spectator = next_json(&mut public).await.expect("first line");
    assert!(spectator.get("seat").is_none() && spectator.get("legal").is_none());
    let (st, _) = post(
        &addr,
        &format!("/api/games/{id}/moves"),
        &alice,
        json!({"move": "+1"}),
    )
    .await;
    assert_eq!(st, 200);
    let moved = next_json(&mut mine).await.expect("a diff");
    assert_eq!(moved["t"], "diff", "{moved}");
    assert_eq!(moved["seat"], 0, "{moved}");
    assert_eq!(
        moved["legal"],
        json!([]),
        "the second seat to move: {moved}"
    );
    let (st, _) = post(&addr, &format!("/api/games/{id}/resign"), &bob, json!({})).await;
    assert_eq!(st, 200);
    // Both streams end after the line that says the game is over.
    for lines in [&mut mine, &mut public] {
        let mut last = Value::Null;
        while let Some(v) = next_json(lines).await {
            last = v;
        }
        assert_eq!(last["status"], "finished", "{last}");
        assert_eq!(last["reason"], "resignation", "{last}");
    }
    // A finished game's stream is its one line.
    let mut done = open_stream(&addr, &id, Some(&bob)).await;
    let only = next_json(&mut done).await.expect("one line");
    assert_eq!(
        (only["status"].as_str(), only["seat"].as_u64()),
        (Some("finished"), Some(1))
    );
    assert!(next_json(&mut done).await.is_none());
    srv.shutdown().await;
}

#[tokio::test]
async fn the_document_describes_the_new_endpoints() {
    let (srv, addr) = common::server("page-doc").await;
    let (st, d) = get(&addr, "/api/openapi.json").await;
    assert_eq!(st, 200);
    let wait = &d["paths"]["/api/games/{id}/wait"]["get"];
    let param = wait["parameters"]
        .as_array()
        .and_then(|p| p.iter().find(|p| p["name"] == "timeout_s"))
        .unwrap_or_else(|| panic!("no timeout_s: {wait}"));
    assert_eq!(param["in"], "query", "{param}");
    assert_eq!(
        param["schema"]["maximum"],
        json!(qiyuan_hall::wait::MAX_WAIT_S),
        "{param}"
    );
    for (path, schema) in [
        ("/api/games/{id}/wait", "Wait"),
        ("/api/games/{id}/ratings", "GameRatings"),
    ] {
        let ok = &d["paths"][path]["get"]["responses"]["200"]["content"]["application/json"];
        assert_eq!(
            ok["schema"]["$ref"],
            format!("#/components/schemas/{schema}"),
            "{path}: {ok}"
        );
    }
    let change = &d["components"]["schemas"]["RatingChange"]["properties"];
    for field in [
        "seat", "username", "family", "before", "after", "title", "title_en",
    ] {
        assert!(change[field].is_object(), "RatingChange.{field}: {change}");
    }
    let state = &d["components"]["schemas"]["GameState"]["properties"];
    assert!(state["draw_declined"].is_object(), "{state}");
    assert_eq!(
        d["components"]["schemas"]["Wait"]["properties"]["state"]["$ref"],
        "#/components/schemas/GameState"
    );
    srv.shutdown().await;
}

#[tokio::test]
async fn a_wait_counts_as_an_open_socket() {
    let limits = qiyuan_hall::limits::Limits {
        sockets_per_user: 1,
        ..Default::default()
    };
    let (srv, addr) = common::server_with(&common::temp_db("page-wait-cap"), limits).await;
    let alice = register(&addr, "alice").await;
    let id = create(&addr, &alice, json!({"game": "count", "opponent": "ai:1"})).await;
    let wait = format!("/api/games/{id}/wait?timeout_s=0");
    let (st, w) = get_as(&addr, &wait, &alice).await;
    assert_eq!((st, &w["your_turn"]), (200, &json!(true)), "{w}");
    // Alice's one place is taken by her socket: her wait is refused.
    let ws = client::GameSocket::connect(&addr, &format!("/api/games/{id}/ws"), Some(&alice))
        .await
        .expect("ws");
    let (st, e) = get_as(&addr, &wait, &alice).await;
    assert_eq!(
        (st, e["code"].as_str()),
        (429, Some("too_many_sockets")),
        "{e}"
    );
    drop(ws);
    srv.shutdown().await;
}
