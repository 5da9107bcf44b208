//! Slow and malformed clients (issue 34, items 2, 3 and 9), over raw TCP
//! against a hall on an ephemeral port with small timeouts: slow heads,
//! stalled bodies and idle keep-alive connections are closed; connections
//! are capped per address and in all; streams are capped like sockets and
//! leave room for health checks and logins; every error below the router is
//! JSON with a code.

use crate::common;

use std::time::{Duration, Instant};

use crate::common::{get, post, register, temp_db};
use futures_util::StreamExt;
use qiyuan_hall::client::connect_ws;
use qiyuan_hall::limits::Limits;
use qiyuan_hall::server::Running;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Anonymous POST: status and JSON body.
async fn post_anon(addr: &str, path: &str, body: Value) -> (u16, Value) {
    let r = qiyuan_hall::client::post(addr, path, None, &body)
        .await
        .expect("request");
    (r.status, r.json())
}

async fn server_with(limits: Limits) -> (Running, String) {
    common::server_with(&temp_db("slow"), limits).await
}

/// Limits with short timeouts for these tests.
fn quick() -> Limits {
    Limits {
        header_timeout: Duration::from_millis(500),
        body_timeout: Duration::from_millis(500),
        ..Limits::default()
    }
}

/// Reads until the server closes the connection (or `wait` passes): the
/// bytes, and whether it was closed.
async fn read_to_close(s: &mut TcpStream, wait: Duration) -> (Vec<u8>, bool) {
    let mut out = Vec::new();
    let deadline = tokio::time::Instant::now() + wait;
    let mut buf = [0u8; 4096];
    loop {
        match tokio::time::timeout_at(deadline, s.read(&mut buf)).await {
            Err(_) => return (out, false),
            Ok(Ok(0)) | Ok(Err(_)) => return (out, true),
            Ok(Ok(n)) => out.extend_from_slice(&buf[..n]),
        }
    }
}

/// Splits one response with a `Content-Length` body off `bytes`: status,
/// lower-cased head, body, and the rest.
fn split_response(bytes: &[u8]) -> Option<(u16, String, Vec<u8>, Vec<u8>)> {
    let end = bytes.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = String::from_utf8_lossy(&bytes[..end]).to_ascii_lowercase();
    let status = head.split_whitespace().nth(1)?.parse().ok()?;
    let len: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    let body_end = end + 4 + len;
    if bytes.len() < body_end {
        return None;
    }
    Some((
        status,
        head,
        bytes[end + 4..body_end].to_vec(),
        bytes[body_end..].to_vec(),
    ))
}

/// Reads one response off a kept-alive connection.
async fn read_one(s: &mut TcpStream, pending: &mut Vec<u8>) -> (u16, String, Vec<u8>) {
    let mut buf = [0u8; 4096];
    loop {
        if let Some((status, head, body, rest)) = split_response(pending) {
            *pending = rest;
            return (status, head, body);
        }
        let n = tokio::time::timeout(Duration::from_secs(5), s.read(&mut buf))
            .await
            .expect("an answer in time")
            .expect("read");
        assert!(
            n > 0,
            "closed before an answer: {:?}",
            String::from_utf8_lossy(pending)
        );
        pending.extend_from_slice(&buf[..n]);
    }
}

/// Asserts that `bytes` are one JSON error with `status` and `code`, sent
/// with `Connection: close`.
fn assert_json_error(what: &str, bytes: &[u8], status: u16, code: &str) {
    let Some((st, head, body, _)) = split_response(bytes) else {
        panic!(
            "{what}: no complete answer: {:?}",
            String::from_utf8_lossy(bytes)
        )
    };
    assert_eq!(st, status, "{what}: {head}");
    assert!(
        head.contains("content-type: application/json"),
        "{what}: {head}"
    );
    let v: Value = serde_json::from_slice(&body).unwrap_or_else(|e| {
        panic!(
            "{what}: not JSON ({e}): {:?}",
            String::from_utf8_lossy(&body)
        )
    });
    assert_eq!(v["code"], code, "{what}: {v}");
    assert!(
        v["error"].as_str().is_some_and(|e| !e.is_empty()),
        "{what}: {v}"
    );
}

/// Sends `raw` on a fresh connection and reads the answer to the close.
async fn send_raw(addr: &str, raw: &[u8]) -> Vec<u8> {
    let mut s = TcpStream::connect(addr).await.expect("connect");
    // The server may answer and close before all of a huge head is written.
    let _ = s.write_all(raw).await;
    let (bytes, closed) = read_to_close(&mut s, Duration::from_secs(3)).await;
    assert!(closed, "the connection stayed open after {:?}", shown(raw));
    bytes
}

fn shown(raw: &[u8]) -> String {
    let s = String::from_utf8_lossy(&raw[..raw.len().min(60)]).to_string();
    s.replace('\r', "\\r").replace('\n', "\\n")
}

/// A connection from `ip` (a loopback address other than 127.0.0.1 where
/// the system allows binding one).
async fn connect_from(ip: [u8; 4], addr: &str) -> Option<TcpStream> {
    let sock = tokio::net::TcpSocket::new_v4().ok()?;
    sock.bind(std::net::SocketAddr::from((ip, 0))).ok()?;
    sock.connect(addr.parse().ok()?).await.ok()
}

/// Item 2: a head sent in part, a connection that sends nothing, and a
/// kept-alive connection left idle are all closed after the header
/// timeout; a client that keeps talking keeps its connection.
#[tokio::test]
async fn slow_heads_and_idle_connections_are_closed() {
    let (srv, addr) = server_with(quick()).await;
    let started = Instant::now();
    let mut half = TcpStream::connect(&addr).await.expect("connect");
    half.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        .await
        .expect("write");
    let mut silent = TcpStream::connect(&addr).await.expect("connect");
    let mut idle = TcpStream::connect(&addr).await.expect("connect");
    idle.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .expect("write");
    let mut pending = Vec::new();
    let (st, _, body) = read_one(&mut idle, &mut pending).await;
    assert_eq!((st, body.as_slice()), (200, b"ok".as_slice()));
    // A client that sends a request every 200 ms (under the timeout) is
    // answered every time on one connection.
    let mut busy = TcpStream::connect(&addr).await.expect("connect");
    let mut busy_pending = Vec::new();
    for i in 0..5 {
        busy.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            .await
            .expect("write");
        let (st, head, _) = read_one(&mut busy, &mut busy_pending).await;
        assert_eq!(st, 200, "request {i}");
        assert!(!head.contains("connection: close"), "{head}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    for (name, s) in [
        ("half head", &mut half),
        ("silent", &mut silent),
        ("idle", &mut idle),
    ] {
        let (bytes, closed) = read_to_close(s, Duration::from_secs(2)).await;
        assert!(closed, "the {name} connection was not closed");
        assert!(
            bytes.is_empty(),
            "{name}: {:?}",
            String::from_utf8_lossy(&bytes)
        );
    }
    assert!(started.elapsed() < Duration::from_secs(4));
    let (st, _) = get(&addr, "/healthz").await;
    assert_eq!(st, 200);
    srv.shutdown().await;
}

/// Item 2: a body that stalls is answered 408 `timeout` in JSON and the
/// connection is closed; a whole body in time is served.
#[tokio::test]
async fn stalled_bodies_get_a_json_408() {
    let (srv, addr) = server_with(quick()).await;
    let mut s = TcpStream::connect(&addr).await.expect("connect");
    s.write_all(
        b"POST /api/guest HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{\"a\":",
    )
    .await
    .expect("write");
    let started = Instant::now();
    let (bytes, closed) = read_to_close(&mut s, Duration::from_secs(3)).await;
    assert!(closed, "a stalled body kept its connection");
    assert!(started.elapsed() < Duration::from_secs(2));
    assert_json_error("stalled body", &bytes, 408, "timeout");
    // A chunked body that stops after its first chunk, too.
    let mut s = TcpStream::connect(&addr).await.expect("connect");
    s.write_all(
        b"POST /api/guest HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n",
    )
    .await
    .expect("write");
    let (bytes, closed) = read_to_close(&mut s, Duration::from_secs(3)).await;
    assert!(closed);
    assert_json_error("stalled chunked body", &bytes, 408, "timeout");
    // In time: served.
    let (st, v) = post_anon(&addr, "/api/guest", json!({})).await;
    assert_eq!(st, 200, "{v}");
    srv.shutdown().await;
}

/// Item 2: connections are capped per address (429 `too_many_connections`)
/// and in all (503 `busy`), in JSON, and a place comes free when a
/// connection closes. A head of 380 KB is cut off at 16 KiB (431), so a
/// pending connection holds little memory.
#[tokio::test]
async fn connections_are_capped_per_address_and_in_all() {
    let (srv, addr) = server_with(Limits {
        connections_per_ip: 3,
        max_connections: 4,
        // The held connections must outlast the test's steps.
        header_timeout: Duration::from_secs(3),
        ..quick()
    })
    .await;
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(TcpStream::connect(&addr).await.expect("connect"));
    }
    // Let the server accept them before the fourth.
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut fourth = TcpStream::connect(&addr).await.expect("connect");
    let _ = fourth
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .await;
    let (bytes, closed) = read_to_close(&mut fourth, Duration::from_secs(2)).await;
    assert!(closed);
    assert_json_error(
        "fourth from one address",
        &bytes,
        429,
        "too_many_connections",
    );
    // Another address still gets in, up to the cap in all.
    if let Some(mut other) = connect_from([127, 0, 0, 2], &addr).await {
        other
            .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            .await
            .expect("write");
        let mut pending = Vec::new();
        let (st, _, _) = read_one(&mut other, &mut pending).await;
        assert_eq!(st, 200);
        if let Some(mut fifth) = connect_from([127, 0, 0, 3], &addr).await {
            let (bytes, closed) = read_to_close(&mut fifth, Duration::from_secs(2)).await;
            assert!(closed);
            assert_json_error("over the cap in all", &bytes, 503, "busy");
        }
        drop(other);
    }
    // A place comes free when a connection closes.
    held.pop();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (st, _) = get(&addr, "/healthz").await;
    assert_eq!(st, 200);
    drop(held);
    tokio::time::sleep(Duration::from_millis(200)).await;

    // 380 KB of headers that never end: a 431 in JSON once 16 KiB are in.
    let mut s = TcpStream::connect(&addr).await.expect("connect");
    let mut sent = 0usize;
    let line = format!("X-Pad: {}\r\n", "a".repeat(1000));
    s.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        .await
        .expect("write");
    while sent < 380_000 {
        if s.write_all(line.as_bytes()).await.is_err() {
            break;
        }
        sent += line.len();
    }
    let (bytes, closed) = read_to_close(&mut s, Duration::from_secs(3)).await;
    assert!(closed);
    assert_json_error("380 KB of headers", &bytes, 431, "headers_too_large");
    srv.shutdown().await;
}

/// Item 9: everything hyper refuses before the router is JSON with a code,
/// on a fresh connection and after requests on a kept-alive one.
#[tokio::test]
async fn errors_below_the_router_are_json() {
    let (srv, addr) = server_with(quick()).await;
    let many_headers: String = (0..100).map(|i| format!("X-H{i}: v\r\n")).collect();
    let cases: Vec<(&str, Vec<u8>, u16, &str)> = vec![
        (
            "negative Content-Length",
            b"POST /api/guest HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n".to_vec(),
            400,
            "bad_request",
        ),
        (
            "overflowing Content-Length",
            b"POST /api/guest HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n"
                .to_vec(),
            400,
            "bad_request",
        ),
        (
            "two different Content-Lengths",
            b"POST /api/guest HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nxx"
                .to_vec(),
            400,
            "bad_request",
        ),
        (
            "garbage request line",
            b"GARBAGE\r\n\r\n".to_vec(),
            400,
            "bad_request",
        ),
        (
            "binary request line",
            b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n".to_vec(),
            400,
            "bad_request",
        ),
        (
            "bad header name",
            b"GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n".to_vec(),
            400,
            "bad_request",
        ),
        (
            "too many headers",
            format!("GET /healthz HTTP/1.1\r\nHost: x\r\n{many_headers}\r\n").into_bytes(),
            431,
            "headers_too_large",
        ),
        (
            "an over-long header",
            format!("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Long: {}\r\n\r\n", "y".repeat(20_000))
                .into_bytes(),
            431,
            "headers_too_large",
        ),
    ];
    for (what, raw, status, code) in &cases {
        let bytes = send_raw(&addr, raw).await;
        assert_json_error(what, &bytes, *status, code);
        let (_, head, _, _) = split_response(&bytes).expect("answer");
        assert!(head.contains("connection: close"), "{what}: {head}");
    }
    // After good requests on one connection (and pipelined behind one):
    // the good ones are answered as usual, then the bad one in JSON.
    for (what, raw, status, code) in &cases {
        let mut s = TcpStream::connect(&addr).await.expect("connect");
        let mut pending = Vec::new();
        s.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            .await
            .expect("write");
        let (st, _, body) = read_one(&mut s, &mut pending).await;
        assert_eq!((st, body.as_slice()), (200, b"ok".as_slice()));
        let mut pipelined = b"GET /api/kinds HTTP/1.1\r\nHost: x\r\n\r\n".to_vec();
        pipelined.extend_from_slice(raw);
        let _ = s.write_all(&pipelined).await;
        let (rest, closed) = read_to_close(&mut s, Duration::from_secs(3)).await;
        assert!(closed, "{what}");
        pending.extend_from_slice(&rest);
        let Some((st, _, _, bad)) = split_response(&pending) else {
            panic!("{what}: no answer to the good request")
        };
        assert_eq!(st, 200, "{what}");
        assert_json_error(&format!("{what}, kept alive"), &bad, *status, code);
    }
    // The router's own errors are unchanged, and the server is fine.
    let (st, v) = get(&addr, "/nowhere").await;
    assert_eq!((st, v["code"].as_str()), (404, Some("no_such_endpoint")));
    let (st, _) = get(&addr, "/healthz").await;
    assert_eq!(st, 200);
    srv.shutdown().await;
}

/// Item 3: streams count with sockets per address, per user and in all
/// (429 `too_many_sockets`, 503 `busy`); a closed stream frees its place;
/// with every long-lived place taken, health checks and logins still work.
#[tokio::test]
async fn streams_are_capped_like_sockets() {
    let (srv, addr) = server_with(Limits {
        sockets_per_ip: 3,
        sockets_per_user: 2,
        ..quick()
    })
    .await;
    let red = register(&addr, "slowred").await;
    let black = register(&addr, "slowblack").await;
    let (st, g) = post(&addr, "/api/games", &red, json!({"game": "count"})).await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    let (st, _) = post(&addr, &format!("/api/games/{id}/join"), &black, json!({})).await;
    assert_eq!(st, 200);
    let path = format!("/api/games/{id}/stream");
    let open_stream = |token: Option<String>| {
        let (addr, path) = (addr.clone(), path.clone());
        async move {
            let mut s = TcpStream::connect(&addr).await.expect("connect");
            let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
            s.write_all(format!("GET {path} HTTP/1.1\r\nHost: x\r\n{auth}\r\n").as_bytes())
                .await
                .expect("write");
            let mut buf = vec![0u8; 8192];
            let n = tokio::time::timeout(Duration::from_secs(5), s.read(&mut buf))
                .await
                .expect("an answer")
                .expect("read");
            buf.truncate(n);
            (s, buf)
        }
    };
    // Per address: three streams (anonymous), then 429; a WebSocket counts too.
    let mut streams = Vec::new();
    for i in 0..3 {
        let (s, first) = open_stream(None).await;
        assert!(
            first.starts_with(b"HTTP/1.1 200"),
            "stream {i}: {:?}",
            String::from_utf8_lossy(&first)
        );
        streams.push(s);
    }
    let (mut s, first) = open_stream(None).await;
    let (rest, _) = read_to_close(&mut s, Duration::from_millis(300)).await;
    let all = [first, rest].concat();
    assert_json_error("a fourth stream", &all, 429, "too_many_sockets");
    // The refusal gives the connection back.
    let (_, head, _, _) = split_response(&all).expect("answer");
    assert!(head.contains("connection: close"), "{head}");
    assert!(connect_ws(&addr, "/api/lobby/ws", None).await.is_err());
    // Health checks and logins still work.
    let (st, _) = get(&addr, "/healthz").await;
    assert_eq!(st, 200);
    let (st, v) = post_anon(
        &addr,
        "/api/login",
        json!({"username": "slowred", "password": "secret123"}),
    )
    .await;
    assert_eq!(st, 200, "{v}");
    // A closed stream gives its place back.
    drop(streams.pop());
    let deadline = Instant::now() + Duration::from_secs(3);
    loop {
        let (s, first) = open_stream(None).await;
        if first.starts_with(b"HTTP/1.1 200") {
            streams.push(s);
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the closed stream kept its place"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    drop(streams);
    tokio::time::sleep(Duration::from_millis(200)).await;
    srv.shutdown().await;

    // Per user, from one address with room: two, then 429.
    let (srv, addr) = server_with(Limits {
        sockets_per_user: 2,
        ..quick()
    })
    .await;
    let red = register(&addr, "slowred2").await;
    let (st, g) = post(&addr, "/api/games", &red, json!({"game": "count"})).await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    let path = format!("/api/games/{id}/stream");
    let mut held = Vec::new();
    for _ in 0..2 {
        let mut s = TcpStream::connect(&addr).await.expect("connect");
        s.write_all(
            format!("GET {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {red}\r\n\r\n")
                .as_bytes(),
        )
        .await
        .expect("write");
        let mut buf = [0u8; 64];
        let n = s.read(&mut buf).await.expect("read");
        assert!(buf[..n].starts_with(b"HTTP/1.1 200"));
        held.push(s);
    }
    let r = qiyuan_hall::client::get(&addr, &path, Some(&red))
        .await
        .expect("request");
    assert_eq!(
        (r.status, r.json()["code"].clone()),
        (429, json!("too_many_sockets"))
    );
    drop(held);
    srv.shutdown().await;

    // In all: with every long-lived place taken (here 4, from several
    // addresses), a stream or socket gets 503 `busy`, and health checks
    // and logins still get through.
    let (srv, addr) = server_with(Limits {
        sockets_per_ip: 0,
        max_long_lived: 4,
        ..quick()
    })
    .await;
    let red = register(&addr, "slowred3").await;
    let (st, g) = post(&addr, "/api/games", &red, json!({"game": "count"})).await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    let path = format!("/api/games/{id}/stream");
    let mut held = Vec::new();
    for _ in 0..4 {
        let mut s = TcpStream::connect(&addr).await.expect("connect");
        s.write_all(format!("GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes())
            .await
            .expect("write");
        let mut buf = [0u8; 64];
        let n = s.read(&mut buf).await.expect("read");
        assert!(buf[..n].starts_with(b"HTTP/1.1 200"));
        held.push(s);
    }
    let r = qiyuan_hall::client::get(&addr, &path, None)
        .await
        .expect("request");
    assert_eq!((r.status, r.json()["code"].clone()), (503, json!("busy")));
    assert!(connect_ws(&addr, "/api/lobby/ws", None).await.is_err());
    let (st, _) = get(&addr, "/healthz").await;
    assert_eq!(st, 200);
    let (st, v) = post_anon(
        &addr,
        "/api/login",
        json!({"username": "slowred3", "password": "secret123"}),
    )
    .await;
    assert_eq!(st, 200, "{v}");
    drop(held);
    srv.shutdown().await;
}

/// WebSockets still upgrade through the accept loop (and hold a connection
/// place while open), and keep-alive serves many requests on one
/// connection.
#[tokio::test]
async fn websockets_and_keep_alive_still_work() {
    let (srv, addr) = server_with(Limits {
        connections_per_ip: 3,
        ..quick()
    })
    .await;
    let mut ws = connect_ws(&addr, "/api/lobby/ws", None)
        .await
        .expect("socket");
    // The socket outlives the header timeout: it is not an idle HTTP
    // connection.
    let until = Instant::now() + Duration::from_millis(900);
    while Instant::now() < until {
        if let Ok(m) = tokio::time::timeout(Duration::from_millis(100), ws.next()).await {
            assert!(
                matches!(m, Some(Ok(ref f)) if !f.is_close()),
                "the socket ended: {m:?}"
            );
        }
    }
    let mut s = TcpStream::connect(&addr).await.expect("connect");
    let mut pending = Vec::new();
    for i in 0..20 {
        let path = if i % 2 == 0 { "/healthz" } else { "/api/kinds" };
        s.write_all(format!("GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes())
            .await
            .expect("write");
        let (st, head, _) = read_one(&mut s, &mut pending).await;
        assert_eq!(st, 200, "{i}: {head}");
    }
    // The socket and this connection hold two of three places.
    let third = TcpStream::connect(&addr).await.expect("connect");
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut fourth = TcpStream::connect(&addr).await.expect("connect");
    let (bytes, closed) = read_to_close(&mut fourth, Duration::from_secs(2)).await;
    assert!(closed);
    assert_json_error(
        "over the cap with a socket",
        &bytes,
        429,
        "too_many_connections",
    );
    drop(third);
    ws.close(None).await.ok();
    drop(ws);
    drop(s);
    srv.shutdown().await;
}
