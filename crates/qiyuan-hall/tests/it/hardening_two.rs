//! Regression tests of the second hardening round (issue 34), one per
//! finding, over real HTTP and WebSocket against a hall on an ephemeral
//! port serving the fake game (`count`): rematch budgets, guest and room
//! bounds, lobby changes, event pages, chat reports and text, and other
//! sites acting with a visitor's cookie. (Moved from the binary's tests;
//! the hidden-information findings stay there, with the games that hide.)

use std::time::Duration;

use futures_util::StreamExt;
use qiyuan_hall::client::{self, connect_ws};
use qiyuan_hall::limits::Limits;
use qiyuan_hall::server::Running;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

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

/// `verb` (`resign`, `rematch`) on game `id` for `tok`: the status and body.
async fn act(addr: &str, id: &str, verb: &str, tok: &str) -> (u16, Value) {
    post(addr, &format!("/api/games/{id}/{verb}"), tok, json!({})).await
}

/// A new game of count against AI level 1 for `tok`: the status and body.
async fn vs_ai(addr: &str, tok: &str) -> (u16, Value) {
    let body = json!({"game": "count", "opponent": "ai:1"});
    post(addr, "/api/games", tok, body).await
}

/// Finding 4: a rematch against the AI counts against the AI-games budget.
#[tokio::test]
async fn rematches_against_the_ai_count_against_the_budget() {
    let (srv, addr) = server_with(Limits {
        ai_games_per_user: 2,
        ..Limits::default()
    })
    .await;
    let tok = register(&addr, "budget").await;
    let mut ids = Vec::new();
    for _ in 0..2 {
        let (st, g) = vs_ai(&addr, &tok).await;
        assert_eq!(st, 201, "{g}");
        ids.push(g["id"].as_str().expect("id").to_string());
    }
    // Each ends and is rematched: two in play again; the next is refused.
    for id in &ids {
        for verb in ["resign", "rematch"] {
            let (st, r) = act(&addr, id, verb, &tok).await;
            assert_eq!(st, 200, "{verb}: {r}");
        }
    }
    let (st, g) = vs_ai(&addr, &tok).await;
    assert_eq!((st, g["code"].as_str()), (429, Some("ai_budget")), "{g}");
    // The second rematch ends and a new game fills its place: a rematch of
    // it is then refused, as a new room would be.
    let (_, s) = get(&addr, &format!("/api/games/{}", ids[1])).await;
    let second = s["rematch_id"].as_str().expect("rematch").to_string();
    let (st, s) = act(&addr, &second, "resign", &tok).await;
    assert_eq!(st, 200, "{s}");
    let (st, g) = vs_ai(&addr, &tok).await;
    assert_eq!(st, 201, "{g}");
    let (st, r) = act(&addr, &second, "rematch", &tok).await;
    assert_eq!((st, r["code"].as_str()), (429, Some("ai_budget")), "{r}");
    srv.shutdown().await;
}

async fn new_guest(addr: &str) -> (u16, Value) {
    let r = client::post(addr, "/api/guest", None, &json!({}))
        .await
        .expect("request");
    (r.status, r.json())
}

/// Finding 4: guests are capped per address, and those that never played
/// are deleted once idle (their tokens stop working); a guest who played
/// is kept.
#[tokio::test]
async fn guests_are_capped_per_address_and_idle_ones_deleted() {
    let (srv, addr) = server_with(Limits {
        guests_per_ip_hour: 3,
        guest_idle: Duration::from_millis(50),
        ..Limits::default()
    })
    .await;
    let mut tokens = Vec::new();
    for _ in 0..3 {
        let (st, g) = new_guest(&addr).await;
        assert_eq!(st, 200, "{g}");
        tokens.push(g["token"].as_str().expect("token").to_string());
    }
    let (st, e) = new_guest(&addr).await;
    assert_eq!(
        (st, e["code"].as_str()),
        (429, Some("guest_rate_limited")),
        "{e}"
    );
    // The first guest plays; the others only look.
    let (st, g) = post(
        &addr,
        "/api/games",
        &tokens[0],
        json!({"game": "count", "opponent": "ai:1"}),
    )
    .await;
    assert_eq!(st, 201, "{g}");
    // Purged once past their idle time (50 ms), polled for; then one more
    // sweep, which finds nobody else.
    let gone = std::sync::atomic::AtomicU64::new(0);
    let sweep = || async {
        let n = srv.hall.purge_idle_guests().await.expect("purge");
        gone.fetch_add(n, std::sync::atomic::Ordering::Relaxed) + n
    };
    common::eventually("the idle guests are purged", || async {
        (sweep().await >= 2).then_some(())
    })
    .await;
    let gone = sweep().await;
    assert_eq!(gone, 2, "the two guests that never played");
    let (st, _) = get_as(&addr, "/api/me", &tokens[0]).await;
    assert_eq!(st, 200, "the guest who played is kept");
    for t in &tokens[1..] {
        let (st, e) = get_as(&addr, "/api/me", t).await;
        assert_eq!(st, 401, "{e}");
    }
    srv.shutdown().await;
}

/// Reads lobby frames until one satisfies `want` (or 5 s pass).
async fn lobby_frame(ws: &mut client::Socket, want: impl Fn(&Value) -> bool) -> Value {
    tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match ws.next().await {
                Some(Ok(Message::Text(t))) => {
                    let v: Value = serde_json::from_str(&t).unwrap_or(Value::Null);
                    if want(&v) {
                        return v;
                    }
                }
                Some(Ok(_)) => {}
                other => panic!("lobby socket ended: {other:?}"),
            }
        }
    })
    .await
    .expect("a lobby frame in time")
}

/// Finding 5: one user holds a bounded number of open rooms; a room whose
/// creator has gone is closed (gone from the lobby and from storage); the
/// lobby socket gets each change alone, not the whole lobby.
#[tokio::test]
async fn open_rooms_are_capped_closed_when_left_and_pushed_as_changes() {
    let (srv, addr) = server_with(Limits {
        open_rooms_per_user: 3,
        open_room_idle: Duration::from_millis(400),
        ..Limits::default()
    })
    .await;
    let tok = register(&addr, "roomy").await;
    let mut lobby = connect_ws(&addr, "/api/lobby/ws", None).await.expect("ws");
    let first = lobby_frame(&mut lobby, |v| v["t"] == "lobby").await;
    assert_eq!(first["open"], json!([]), "{first}");
    let mut ids = Vec::new();
    for _ in 0..3 {
        let (st, g) = post(&addr, "/api/games", &tok, json!({"game": "count"})).await;
        assert_eq!(st, 201, "{g}");
        let id = g["id"].as_str().expect("id").to_string();
        let change = lobby_frame(&mut lobby, |v| v["game"]["id"] == id.as_str()).await;
        assert_eq!(change["t"], "lobby_change", "{change}");
        assert!(
            change.get("open").is_none(),
            "a change, not the lobby: {change}"
        );
        assert!(change.to_string().len() < 1024, "{change}");
        ids.push(id);
    }
    let (st, e) = post(&addr, "/api/games", &tok, json!({"game": "count"})).await;
    assert_eq!(
        (st, e["code"].as_str()),
        (429, Some("too_many_rooms")),
        "{e}"
    );
    // A game against the AI is no open room.
    let (st, g) = post(
        &addr,
        "/api/games",
        &tok,
        json!({"game": "count", "opponent": "ai:1"}),
    )
    .await;
    assert_eq!(st, 201, "{g}");
    // The creator stays away: the rooms close, one change each.
    let mut removed = std::collections::BTreeSet::new();
    while removed.len() < 3 {
        let change = tokio::time::timeout(
            Duration::from_secs(5),
            lobby_frame(&mut lobby, |v| {
                v["t"] == "lobby_change" && v["removed"].is_string()
            }),
        )
        .await
        .expect("rooms closed in time");
        removed.insert(change["removed"].as_str().unwrap_or("").to_string());
    }
    for id in &ids {
        assert!(removed.contains(id), "{id} closed: {removed:?}");
        let (st, e) = get(&addr, &format!("/api/games/{id}")).await;
        assert_eq!(st, 404, "deleted from storage: {e}");
    }
    let (_, l) = get(&addr, "/api/lobby").await;
    assert_eq!(l["open"], json!([]), "{l}");
    // A room whose creator keeps a socket open stays.
    let (st, g) = post(&addr, "/api/games", &tok, json!({"game": "count"})).await;
    assert_eq!(st, 201, "{g}");
    let kept = g["id"].as_str().expect("id").to_string();
    let _mine = connect_ws(&addr, &format!("/api/games/{kept}/ws"), Some(&tok))
        .await
        .expect("ws");
    // A real wait, for a close that must not happen: an absent creator's
    // room closes within its idle time and one sweep (a quarter of it),
    // 500 ms here; twice the idle time is well past that.
    tokio::time::sleep(Duration::from_millis(800)).await;
    let (st, s) = get(&addr, &format!("/api/games/{kept}")).await;
    assert_eq!((st, s["status"].as_str()), (200, Some("waiting")), "{s}");
    srv.shutdown().await;
}

/// Finding 5: `/api/events` is paged.
#[tokio::test]
async fn events_are_listed_a_page_at_a_time() {
    let (srv, addr) = server_with(Limits::default()).await;
    let tok = register(&addr, "organiser").await;
    for i in 0..5 {
        let (st, e) = post(
            &addr,
            "/api/events",
            &tok,
            json!({"name": format!("cup {i}"), "game": "count", "format": {"kind": "round_robin", "cycles": 1}}),
        )
        .await;
        assert_eq!(st, 201, "{e}");
        // A millisecond apart, so that "newest first" has one answer.
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    let (st, p) = get(&addr, "/api/events?limit=2").await;
    assert_eq!(st, 200, "{p}");
    assert_eq!(p["events"].as_array().map(Vec::len), Some(2), "{p}");
    assert_eq!(
        (p["total"].as_u64(), p["next"].as_u64()),
        (Some(5), Some(2)),
        "{p}"
    );
    assert_eq!(p["events"][0]["name"], "cup 4", "newest first: {p}");
    let (_, p) = get(&addr, "/api/events?limit=2&offset=4").await;
    assert_eq!(p["events"].as_array().map(Vec::len), Some(1), "{p}");
    assert!(p["next"].is_null(), "{p}");
    let (_, p) = get(&addr, "/api/events").await;
    assert_eq!(p["events"].as_array().map(Vec::len), Some(5), "{p}");
    for bad in ["limit=0", "limit=101", "offset=-1", "limit=x", "page=2"] {
        let (st, e) = get(&addr, &format!("/api/events?{bad}")).await;
        assert_eq!(st, 400, "{bad}: {e}");
    }
    srv.shutdown().await;
}

/// Findings 5 and 8: a message reported 300 times is stored once; texts
/// that break lines, reorder, hide or tower are refused, and composed text
/// arrives composed.
#[tokio::test]
async fn chat_reports_are_stored_once_and_texts_normalised() {
    let (srv, addr) = server_with(Limits::default()).await;
    let red = register(&addr, "chatred").await;
    let black = register(&addr, "chatblack").await;
    let id = room(&addr, &red, &black, json!({"game": "count"})).await;
    let chat = format!("/api/games/{id}/chat");
    for bad in [
        "gg\u{2028}wp",
        "\u{2029}",
        "\u{202E}gg",
        "\u{200B}\u{200D}\u{FEFF}",
        &format!("a{}", "\u{0301}".repeat(199)),
    ] {
        let (st, e) = post(&addr, &chat, &red, json!({"text": bad})).await;
        assert_eq!(st, 400, "{bad:?}: {e}");
    }
    let (st, line) = post(&addr, &chat, &red, json!({"text": "cafe\u{0301}"})).await;
    assert_eq!(st, 200, "{line}");
    assert_eq!(line["text"], "caf\u{e9}", "{line}");
    let report = format!("/api/games/{id}/chat/report");
    for _ in 0..300 {
        let (st, r) = post(&addr, &report, &black, json!({"id": line["id"]})).await;
        assert_eq!(st, 200, "{r}");
    }
    let stored = srv.hall.store.chat_reports(&id).await.expect("reports");
    assert_eq!(stored.len(), 1, "{stored:?}");
    srv.shutdown().await;
}

/// Sends a raw request and reads the answer's status line and headers.
async fn raw(addr: &str, request: String) -> (u16, String) {
    let mut s = TcpStream::connect(addr).await.expect("connect");
    s.write_all(request.as_bytes()).await.expect("write");
    let mut out = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), s.read_to_end(&mut out)).await;
    let text = String::from_utf8_lossy(&out).to_string();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (status, text)
}

/// Finding 10: requests that act with the session cookie must come from the
/// hall's own origin with JSON bodies; a bearer token is not looked at;
/// every answer carries a strict CSP and refuses framing.
#[tokio::test]
async fn other_sites_cannot_act_with_the_cookie_and_pages_cannot_be_framed() {
    let (srv, addr) = server_with(Limits::default()).await;
    let red = register(&addr, "cookiered").await;
    let black = register(&addr, "cookieblack").await;
    let id = room(&addr, &red, &black, json!({"game": "count"})).await;
    let cookie = format!("qy_session={red}");
    // A socket opened from another site with the cookie: refused.
    let mut req = tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(
        format!("ws://{addr}/api/games/{id}/ws"),
    )
    .expect("request");
    req.headers_mut()
        .insert("cookie", cookie.parse().expect("header"));
    req.headers_mut()
        .insert("origin", "http://evil.example".parse().expect("header"));
    let refused = tokio_tungstenite::connect_async(req.clone()).await;
    match refused {
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => {
            assert_eq!(r.status(), 403);
        }
        other => panic!("a cross-site socket was accepted: {:?}", other.map(|_| ())),
    }
    // From the page's own origin it opens.
    req.headers_mut()
        .insert("origin", format!("http://{addr}").parse().expect("header"));
    let (mut ws, _) = tokio_tungstenite::connect_async(req)
        .await
        .expect("same-origin socket");
    let _ = ws.next().await;
    // A cookie POST as plain text (what a form can send): refused, and the
    // game goes on.
    let (st, text) = raw(
        &addr,
        format!(
            "POST /api/games/{id}/resign HTTP/1.1\r\nHost: {addr}\r\nCookie: {cookie}\r\n\
             Content-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{{}}"
        ),
    )
    .await;
    assert_eq!(st, 415, "{text}");
    assert!(text.contains("json_required"), "{text}");
    let (st, text) = raw(
        &addr,
        format!(
            "POST /api/games/{id}/resign HTTP/1.1\r\nHost: {addr}\r\nCookie: {cookie}\r\n\
             Origin: http://evil.example\r\nContent-Type: application/json\r\n\
             Content-Length: 2\r\nConnection: close\r\n\r\n{{}}"
        ),
    )
    .await;
    assert_eq!(st, 403, "{text}");
    assert!(text.contains("cross_origin"), "{text}");
    let (_, s) = get(&addr, &format!("/api/games/{id}")).await;
    assert_eq!(s["status"], "playing", "{s}");
    // A bot's bearer token is not looked at: text/plain still works for it.
    let (st, text) = raw(
        &addr,
        format!(
            "POST /api/games/{id}/resign HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {red}\r\n\
             Origin: http://elsewhere.example\r\nContent-Type: text/plain\r\n\
             Content-Length: 0\r\nConnection: close\r\n\r\n"
        ),
    )
    .await;
    assert_eq!(st, 200, "{text}");
    // The page and every answer: a strict CSP, no framing.
    for path in ["/", "/api/lobby", "/static/app.js", "/api/nope"] {
        let r = client::get(&addr, path, None).await.expect("request");
        let csp = r.header("content-security-policy").unwrap_or("");
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(csp.contains("script-src 'self'"), "{path}: {csp}");
        assert!(!csp.contains(" 'unsafe-eval'"), "{path}: {csp}");
        assert_eq!(r.header("x-frame-options"), Some("DENY"), "{path}");
        assert_eq!(
            r.header("x-content-type-options"),
            Some("nosniff"),
            "{path}"
        );
    }
    let page = client::get(&addr, "/", None).await.expect("page");
    assert!(
        !page.body.contains("<script>"),
        "no inline script: the CSP forbids it"
    );
    srv.shutdown().await;
}
