//! `POST /api/import?game=KIND`: a game file as the body (text or binary,
//! bots with a token and the page without one), read by the kind into a
//! start position and a flat move tree; bad files are a 400
//! `import_invalid` naming the place; the route's own 1 MiB body limit.

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::common;

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Sends `body` to `path` with this content type (and the page's own
/// `Origin`, as a browser does, when `token` is `None`); status and JSON.
async fn send(
    addr: &str,
    path: &str,
    token: Option<&str>,
    content_type: &str,
    body: &[u8],
) -> (u16, Value) {
    let mut s = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let mut head = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n",
        body.len()
    );
    match token {
        Some(t) => head.push_str(&format!("Authorization: Bearer {t}\r\n")),
        None => head.push_str(&format!("Origin: http://{addr}\r\n")),
    }
    head.push_str("\r\n");
    s.write_all(head.as_bytes()).await.expect("head");
    // A server that answers before reading it all may close early.
    let _ = s.write_all(body).await;
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw).await;
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("an HTTP answer");
    let head = String::from_utf8_lossy(&raw[..split]).to_string();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .expect("status");
    let json = serde_json::from_slice(&raw[split + 4..]).unwrap_or(Value::Null);
    (status, json)
}

/// The moves of an answer as (parent, move, comment).
fn tree(g: &Value) -> Vec<(Option<u64>, String, Option<String>)> {
    g["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| {
            (
                m["parent"].as_u64(),
                m["move"].as_str().expect("move").to_string(),
                m["comment"].as_str().map(str::to_string),
            )
        })
        .collect()
}

/// A plain XQF record made by hand (as `import_cli.rs`): the start
/// position, h2e2 then h9g7, and h0g2 as the alternative to h2e2.
fn xqf() -> Vec<u8> {
    let mut f = vec![0u8; 1024];
    f[..3].copy_from_slice(b"XQ\x0a");
    f[0x10..0x20].copy_from_slice(&[0, 10, 20, 30, 40, 50, 60, 70, 80, 12, 72, 3, 23, 43, 63, 83]);
    f[0x20..0x30].copy_from_slice(&[9, 19, 29, 39, 49, 59, 69, 79, 89, 17, 77, 6, 26, 46, 66, 86]);
    f.extend_from_slice(&[0, 0, 0xF0, 0, 0, 0, 0, 0]);
    f.extend_from_slice(&[0x60, 0x4a, 0xFF, 0, 0, 0, 0, 0]);
    f.extend_from_slice(&[0x67, 0x63, 0x00, 0, 0, 0, 0, 0]);
    f.extend_from_slice(&[0x5e, 0x5e, 0x00, 0, 0, 0, 0, 0]);
    f
}

#[tokio::test]
async fn files_of_each_kind_become_a_tree_and_bad_ones_name_the_place() {
    let (srv, addr) = common::server("import-api").await;
    let bot = common::register(&addr, "importer").await;

    // A PGN with a comment, a variation and a comment inside it, sent by
    // the page (no token, its own origin, plain text).
    let pgn = "[Event \"练习\"]\n[Red \"甲\"]\n{对局评注}\n1. 炮二平五 {中炮} 马８进７ (1... 炮８平５ {顺炮} 2. 马二进三) 2. 马二进三 1-0\n";
    let (st, g) = send(
        &addr,
        "/api/import?game=xiangqi",
        None,
        "text/plain; charset=utf-8",
        pgn.as_bytes(),
    )
    .await;
    assert_eq!(st, 200, "{g}");
    assert_eq!(g["game"], "xiangqi");
    assert_eq!(g["format"], "pgn");
    assert_eq!(g["start"], START);
    assert_eq!(g["comment"], "对局评注");
    assert_eq!(g["tags"][0], json!({"name": "Event", "value": "练习"}));
    assert_eq!(g["tags"][1], json!({"name": "Red", "value": "甲"}));
    let s = |x: &str| Some(x.to_string());
    assert_eq!(
        tree(&g),
        [
            (None, "h2e2".into(), s("中炮")),
            (Some(0), "h9g7".into(), None),
            (Some(1), "h0g2".into(), None),
            (Some(0), "h7e7".into(), s("顺炮")),
            (Some(3), "h0g2".into(), None),
        ]
    );

    // The same file from a bot, as bytes.
    let (st, same) = send(
        &addr,
        "/api/import?game=xiangqi",
        Some(&bot),
        "application/octet-stream",
        pgn.as_bytes(),
    )
    .await;
    assert_eq!(st, 200, "{same}");
    assert_eq!(same, g);

    // A binary XQF record with a side line.
    let (st, x) = send(
        &addr,
        "/api/import?game=xiangqi",
        Some(&bot),
        "application/octet-stream",
        &xqf(),
    )
    .await;
    assert_eq!(st, 200, "{x}");
    assert_eq!(x["format"], "xqf");
    assert_eq!(x["start"], START);
    assert_eq!(
        tree(&x),
        [
            (None, "h2e2".into(), None),
            (Some(0), "h9g7".into(), None),
            (None, "h0g2".into(), None),
        ]
    );

    // An illegal move: line and column.
    let (st, e) = send(
        &addr,
        "/api/import?game=xiangqi",
        None,
        "text/plain",
        b"[Event \"x\"]\n1. h2e2 h9g7\n2. h2h9\n",
    )
    .await;
    assert_eq!(st, 400, "{e}");
    assert_eq!(e["code"], "import_invalid", "{e}");
    assert_eq!(e["details"]["why"], "move", "{e}");
    assert_eq!(
        e["details"]["place"],
        json!({"line": 3, "column": 4}),
        "{e}"
    );
    assert!(
        e["error"].as_str().is_some_and(|m| m.contains("h2h9")),
        "{e}"
    );

    // A cut XQF: the byte offset.
    let (st, e) = send(
        &addr,
        "/api/import?game=xiangqi",
        Some(&bot),
        "application/octet-stream",
        b"XQ\x0b\x00",
    )
    .await;
    assert_eq!(st, 400, "{e}");
    assert_eq!(e["code"], "import_invalid", "{e}");
    assert_eq!(e["details"]["place"], json!({"byte": 4}), "{e}");

    // Nothing in it: no place.
    let (st, e) = send(
        &addr,
        "/api/import?game=xiangqi",
        None,
        "text/plain",
        b"  \n",
    )
    .await;
    assert_eq!(st, 400, "{e}");
    assert_eq!(e["details"]["why"], "empty", "{e}");
    assert!(e["details"].get("place").is_none(), "{e}");

    // Kinds that read no files, or that the hall lacks; no kind at all.
    for kind in ["banqi", "jifen-simple", "chess"] {
        let (st, e) = send(
            &addr,
            &format!("/api/import?game={kind}"),
            None,
            "text/plain",
            pgn.as_bytes(),
        )
        .await;
        assert_eq!(st, 404, "{kind}: {e}");
        assert_eq!(e["code"], "not_found", "{e}");
    }
    let (st, e) = send(&addr, "/api/import", None, "text/plain", pgn.as_bytes()).await;
    assert_eq!(st, 400, "{e}");
    assert_eq!(e["code"], "bad_query", "{e}");

    // The page's game lists know which kinds read files.
    let (_, k) = common::get(&addr, "/api/kinds").await;
    let imports = |id: &str| {
        k["kinds"]
            .as_array()
            .and_then(|ks| ks.iter().find(|x| x["id"] == id))
            .map(|x| x["imports"].clone())
    };
    assert_eq!(imports("xiangqi"), Some(json!(true)), "{k}");
    assert_eq!(imports("banqi"), Some(json!(false)), "{k}");
    srv.shutdown().await;
}

#[tokio::test]
async fn the_route_has_its_own_body_limit_of_one_mebibyte() {
    let (srv, addr) = common::server("import-api-size").await;
    // A long commented game over the general 16 KiB limit: read.
    let mut big = String::from("[Event \"long\"]\n{");
    big.push_str(&"评".repeat(20_000));
    big.push_str("}\n1. h2e2 h9g7\n");
    assert!(big.len() > 16 * 1024);
    let (st, g) = send(
        &addr,
        "/api/import?game=xiangqi",
        None,
        "text/plain",
        big.as_bytes(),
    )
    .await;
    assert_eq!(st, 200, "{g}");
    assert_eq!(tree(&g).len(), 2);
    // The general limit still holds on every other route.
    let (st, e) = send(
        &addr,
        "/api/guest",
        None,
        "application/json",
        big.as_bytes(),
    )
    .await;
    assert_eq!(st, 413, "{e}");
    assert_eq!(e["details"]["max"], 16 * 1024, "{e}");
    // One byte over 1 MiB: refused with the route's own limit.
    let over = vec![b' '; (1 << 20) + 1];
    let (st, e) = send(
        &addr,
        "/api/import?game=xiangqi",
        None,
        "application/octet-stream",
        &over,
    )
    .await;
    assert_eq!(st, 413, "{e}");
    assert_eq!(e["code"], "body_too_large", "{e}");
    assert_eq!(e["details"]["max"], 1 << 20, "{e}");
    // Exactly 1 MiB is read (and found empty).
    let (st, e) = send(
        &addr,
        "/api/import?game=xiangqi",
        None,
        "application/octet-stream",
        &over[1..],
    )
    .await;
    assert_eq!(st, 400, "{e}");
    assert_eq!(e["details"]["why"], "empty", "{e}");

    // The document: the kinds that read files, the body's bound, a 429.
    let (_, doc) = common::get(&addr, "/api/openapi.json").await;
    let op = &doc["paths"]["/api/import"]["post"];
    assert_eq!(op["operationId"], "import_game", "{op}");
    assert!(op["responses"]["429"].is_object(), "{op}");
    let game = op["parameters"]
        .as_array()
        .and_then(|ps| ps.iter().find(|p| p["name"] == "game"))
        .expect("the game parameter");
    assert_eq!(game["required"], true, "{game}");
    assert_eq!(game["schema"]["enum"], json!(["xiangqi"]), "{game}");
    for media in ["application/octet-stream", "text/plain"] {
        let s = &op["requestBody"]["content"][media]["schema"]["$ref"];
        assert_eq!(s, "#/components/schemas/ImportFile", "{media}: {op}");
    }
    let file = &doc["components"]["schemas"]["ImportFile"];
    assert_eq!(file["maxLength"], 1 << 20, "{file}");
    assert_eq!(file["format"], "binary", "{file}");
    srv.shutdown().await;
}
