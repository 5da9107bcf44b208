//! What the Xiangqi game page reads from the hall (issue 37): the record in
//! the notation a reader picks with a date and a link back to the game
//! (item 14), a draw claim offered only when X4 grants it (item 6), and the
//! mated general marked after checkmate (item 11).

use serde_json::{Value, json};

use crate::common;
use crate::common::{get, post, register};
use qiyuan_hall::client;

/// A game between two new users from `fen`, red to move first.
async fn game(addr: &str, fen: &str, n: &str) -> (String, String, String) {
    let red = register(addr, &format!("red{n}")).await;
    let black = register(addr, &format!("black{n}")).await;
    let (st, g) = post(
        addr,
        "/api/games",
        &red,
        json!({"game": "xiangqi", "fen": fen, "opponent": "open", "rated": false,
               "clock": {"initial_s": 300, "increment_s": 0}}),
    )
    .await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    let (st, j) = post(addr, &format!("/api/games/{id}/join"), &black, json!({})).await;
    assert_eq!(st, 200, "{j}");
    (id, red, black)
}

async fn play(addr: &str, id: &str, token: &str, mv: &str) -> Value {
    let (st, s) = post(
        addr,
        &format!("/api/games/{id}/moves"),
        token,
        json!({"move": mv}),
    )
    .await;
    assert_eq!(st, 200, "{mv}: {s}");
    s
}

async fn state(addr: &str, id: &str, token: &str) -> Value {
    let r = client::get(addr, &format!("/api/games/{id}"), Some(token))
        .await
        .expect("state");
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

#[tokio::test]
async fn the_record_exports_in_iccs_wxf_or_chinese_with_a_date_and_a_link_back() {
    let (srv, addr) = common::server("pgn-notations").await;
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    let (id, red, black) = game(&addr, start, "p").await;
    play(&addr, &id, &red, "h2e2").await;
    play(&addr, &id, &black, "h9g7").await;
    play(&addr, &id, &red, "h0g2").await;
    let pgn = |q: &'static str| {
        let (addr, id) = (addr.clone(), id.clone());
        async move {
            let r = client::get(&addr, &format!("/api/games/{id}/pgn{q}"), None)
                .await
                .expect("pgn");
            (r.status, r.body)
        }
    };
    // ICCS stays the default.
    let (st, iccs) = pgn("").await;
    assert_eq!(st, 200, "{iccs}");
    assert!(iccs.contains("[Format \"ICCS\"]"), "{iccs}");
    assert!(iccs.contains("1. H2-E2 H9-G7"), "{iccs}");
    // Site links to the game's page on the hall the request reached.
    assert!(
        iccs.contains(&format!("[Site \"http://{addr}/#/game/{id}\"]")),
        "{iccs}"
    );
    // Date: the day the game was made, PGN's YYYY.MM.DD.
    let date = iccs
        .lines()
        .find_map(|l| l.strip_prefix("[Date \""))
        .and_then(|l| l.strip_suffix("\"]"))
        .expect("a Date tag");
    let b = date.as_bytes();
    assert!(
        date.len() == 10 && b[4] == b'.' && b[7] == b'.' && date.starts_with("20"),
        "{date}"
    );
    let (st, same) = pgn("?notation=iccs").await;
    assert_eq!((st, same), (200, iccs.clone()));
    let (st, wxf) = pgn("?notation=wxf").await;
    assert_eq!(st, 200, "{wxf}");
    assert!(wxf.contains("[Format \"WXF\"]"), "{wxf}");
    assert!(wxf.contains("1. C2.5 H8+7"), "{wxf}");
    assert!(wxf.contains("2. H2+3"), "{wxf}");
    let (st, zh) = pgn("?notation=chinese").await;
    assert_eq!(st, 200, "{zh}");
    assert!(zh.contains("[Format \"Chinese\"]"), "{zh}");
    assert!(zh.contains("1. 炮二平五 马８进７"), "{zh}");
    assert!(zh.contains("2. 马二进三"), "{zh}");
    // The other tags are the same in every notation.
    let tags = |t: &str| {
        t.lines()
            .filter(|l| l.starts_with('[') && !l.starts_with("[Format"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(tags(&zh), tags(&iccs));
    // A notation the game does not offer is a 404 that says which it does;
    // a malformed name is a 400.
    let (st, bad) = pgn("?notation=%C2%92").await;
    assert_eq!(st, 400, "{bad}");
    let (st, bad) = pgn("?notation=klingon").await;
    assert_eq!(st, 404, "{bad}");
    let e: Value = serde_json::from_str(&bad).expect("json");
    assert_eq!(e["code"], "not_found", "{e}");
    assert!(
        e["error"].as_str().is_some_and(|m| m.contains("chinese")),
        "{e}"
    );
    // Behind a TLS proxy the link is https.
    let r = client::request(
        &addr,
        "GET",
        &format!("/api/games/{id}/pgn"),
        None,
        None,
        &[("X-Forwarded-Proto", "https")],
    )
    .await
    .expect("pgn");
    assert!(
        r.body
            .contains(&format!("[Site \"https://{addr}/#/game/{id}\"]")),
        "{}",
        r.body
    );
    srv.shutdown().await;
}

#[tokio::test]
async fn x4_a_claim_is_offered_only_once_120_quiet_plies_have_passed() {
    let (srv, addr) = common::server("claimable").await;
    // 119 plies without a capture so far.
    let (id, red, black) = game(&addr, "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 119 80", "c").await;
    let s = state(&addr, &id, &red).await;
    assert!(s.get("claimable").is_none(), "not yet: {s}");
    // Spectators never see it.
    let (_, spect) = get(&addr, &format!("/api/games/{id}")).await;
    assert!(spect.get("claimable").is_none(), "{spect}");
    let s = play(&addr, &id, &red, "a1a2").await;
    let _ = s;
    for tok in [&red, &black] {
        let s = state(&addr, &id, tok).await;
        assert_eq!(s["claimable"], true, "120 quiet plies: {s}");
    }
    let (_, spect) = get(&addr, &format!("/api/games/{id}")).await;
    assert!(spect.get("claimable").is_none(), "{spect}");
    // The claim is then granted.
    let (st, c) = post(&addr, &format!("/api/games/{id}/claim"), &black, json!({})).await;
    assert_eq!(st, 200, "{c}");
    let s = state(&addr, &id, &red).await;
    assert_eq!(s["reason"], "move-limit", "{s}");
    assert!(s.get("claimable").is_none(), "over: {s}");
    srv.shutdown().await;
}

#[tokio::test]
async fn jifen_never_offers_the_move_limit_claim() {
    let (srv, addr) = common::server("claimable-jifen").await;
    let red = register(&addr, "jred").await;
    let black = register(&addr, "jblack").await;
    let (st, g) = post(
        &addr,
        "/api/games",
        &red,
        json!({"game": "jifen-simple", "fen": "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 200 80",
               "opponent": "open", "rated": false}),
    )
    .await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    let (st, _) = post(&addr, &format!("/api/games/{id}/join"), &black, json!({})).await;
    assert_eq!(st, 200);
    let s = state(&addr, &id, &red).await;
    assert_eq!(s["status"], "playing", "{s}");
    assert!(s.get("claimable").is_none(), "J20: {s}");
    srv.shutdown().await;
}

#[tokio::test]
async fn the_mated_general_stays_marked_after_checkmate() {
    let (srv, addr) = common::server("mated-ring").await;
    let (id, red, black) = game(&addr, "3k5/9/9/9/9/9/9/9/R8/1R2K4 w - - 0 1", "m").await;
    for (i, mv) in ["a1a9", "d9d8", "b0b8", "d8d7"].iter().enumerate() {
        play(&addr, &id, if i % 2 == 0 { &red } else { &black }, mv).await;
    }
    // A check while the game is played is marked.
    let s = play(&addr, &id, &red, "a9a7").await;
    let _ = s;
    let (_, g) = get(&addr, &format!("/api/games/{id}")).await;
    assert_eq!(g["status"], "finished", "{g}");
    assert_eq!(g["reason"], "checkmate", "{g}");
    assert_eq!(g["alerts"], json!(["d7"]), "{g}");
    srv.shutdown().await;
}

#[tokio::test]
async fn the_state_and_the_record_name_the_ecco_opening_as_it_develops() {
    let (srv, addr) = common::server("ecco-opening").await;
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    let (id, red, black) = game(&addr, start, "o").await;
    assert!(state(&addr, &id, &red).await["opening"].is_null());
    // 炮二平五: 中炮局; 马8进7: 中炮对进左马; 马二进三 马2进3: 屏风马.
    let mut seen = Vec::new();
    for (token, mv) in [
        (&red, "h2e2"),
        (&black, "h9g7"),
        (&red, "h0g2"),
        (&black, "b9c7"),
    ] {
        play(&addr, &id, token, mv).await;
        let s = state(&addr, &id, &black).await;
        let o = &s["opening"];
        seen.push((
            o["code"].as_str().unwrap_or("").to_string(),
            o["name"].as_str().unwrap_or("").to_string(),
        ));
        assert!(o["name_en"].as_str().is_some_and(|n| !n.is_empty()), "{o}");
    }
    let seen: Vec<(&str, &str)> = seen.iter().map(|(c, n)| (c.as_str(), n.as_str())).collect();
    assert_eq!(
        seen,
        vec![
            ("B00", "中炮局"),
            ("B05", "中炮对进左马"),
            ("B05", "中炮对进左马"),
            ("C00", "中炮对屏风马"),
        ]
    );
    let r = client::get(&addr, &format!("/api/games/{id}/pgn"), None)
        .await
        .expect("pgn");
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(
        r.body.contains("[ECCO \"C00\"]") && r.body.contains("[Opening \"中炮对屏风马\"]"),
        "{}",
        r.body
    );
    srv.shutdown().await;
}
