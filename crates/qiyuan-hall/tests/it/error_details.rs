//! Errors carry their values as `details` beside the stable `code`, over
//! HTTP and on socket error frames, so a client words them in its own
//! language (issue 37: the page never shows the server's English sentence).

use qiyuan_hall::client::{self, GameSocket};
use serde_json::{Value, json};

use crate::common::{self, post, register};
use crate::fake::CLAIM_PLIES;

/// The code and details of an error answer, after checking its status.
fn code_details(st: u16, want: u16, e: &Value) -> (String, Value) {
    assert_eq!(st, want, "{e}");
    assert!(e["error"].is_string(), "the sentence for bots stays: {e}");
    (
        e["code"].as_str().unwrap_or_default().to_string(),
        e["details"].clone(),
    )
}

#[tokio::test]
async fn account_errors_name_their_values() {
    let (_hall, addr) = common::server("errdetails-account").await;
    register(&addr, "qb980").await;
    // A taken name: the name itself.
    let r = client::post(
        &addr,
        "/api/register",
        None,
        &json!({"username": "qb980", "password": "secret123"}),
    )
    .await
    .expect("request");
    let (code, d) = code_details(r.status, 409, &r.json());
    assert_eq!(code, "name_taken");
    assert_eq!(d, json!({"name": "qb980"}));
    // A name too short: which rule, and its bounds.
    let r = client::post(
        &addr,
        "/api/register",
        None,
        &json!({"username": "qb", "password": "secret123"}),
    )
    .await
    .expect("request");
    let (code, d) = code_details(r.status, 400, &r.json());
    assert_eq!(code, "invalid_username");
    assert_eq!(d, json!({"why": "length", "min": 3, "max": 20}));
    let r = client::post(
        &addr,
        "/api/register",
        None,
        &json!({"username": "guest-77", "password": "secret123"}),
    )
    .await
    .expect("request");
    assert_eq!(r.json()["details"]["why"], "reserved", "{}", r.body);
    // Wrong credentials have nothing to add: no details at all.
    let r = client::post(
        &addr,
        "/api/login",
        None,
        &json!({"username": "qb980", "password": "wrong-one"}),
    )
    .await
    .expect("request");
    let e = r.json();
    let (code, d) = code_details(r.status, 401, &e);
    assert_eq!(code, "wrong_credentials");
    assert!(d.is_null(), "{e}");
    assert!(e.get("details").is_none(), "absent, not null: {e}");
}

#[tokio::test]
async fn request_errors_name_the_user_the_field_and_its_bounds() {
    let (_hall, addr) = common::server("errdetails-create").await;
    let me = register(&addr, "ling").await;
    // A challenge to nobody: the name asked for.
    let (st, e) = post(
        &addr,
        "/api/games",
        &me,
        json!({"game": "count", "opponent": "open", "challenge": "nobody-here"}),
    )
    .await;
    let (code, d) = code_details(st, 400, &e);
    assert_eq!(code, "no_such_user");
    assert_eq!(d, json!({"name": "nobody-here"}));
    // Challenging oneself: a reason a client can word.
    let (st, e) = post(
        &addr,
        "/api/games",
        &me,
        json!({"game": "count", "opponent": "open", "challenge": "ling"}),
    )
    .await;
    let (code, d) = code_details(st, 400, &e);
    assert_eq!(code, "bad_request");
    assert_eq!(d["why"], "challenge_self", "{e}");
    // A clock out of bounds: the field and the bounds.
    let (st, e) = post(
        &addr,
        "/api/games",
        &me,
        json!({"game": "count", "clock": {"initial_s": 0, "increment_s": 0}}),
    )
    .await;
    let (code, d) = code_details(st, 400, &e);
    assert_eq!(code, "out_of_range");
    assert_eq!(d["field"], "clock.initial_s", "{e}");
    assert_eq!(d["min"], 1, "{e}");
    assert!(d["max"].as_i64().is_some_and(|m| m > 1), "{e}");
    // A room option out of its bounds (the fake game's target is 3 to 100).
    let (st, e) = post(
        &addr,
        "/api/games",
        &me,
        json!({"game": "count", "options": {"target": 1000}}),
    )
    .await;
    let (code, d) = code_details(st, 400, &e);
    assert_eq!(code, "out_of_range");
    assert_eq!(
        d,
        json!({"field": "options.target", "min": 3, "max": 100}),
        "{e}"
    );
    // A rating range upside down.
    let (st, e) = post(
        &addr,
        "/api/games",
        &me,
        json!({"game": "count", "rated": false, "rating_range": {"min": 1800, "max": 1200}}),
    )
    .await;
    let (code, d) = code_details(st, 400, &e);
    assert_eq!(code, "out_of_range");
    assert_eq!(
        d,
        json!({"field": "rating_range", "why": "min_above_max"}),
        "{e}"
    );
}

#[tokio::test]
async fn a_refused_claim_says_how_far_from_the_limit_over_http_and_socket() {
    let (_hall, addr) = common::server("errdetails-claim").await;
    let red = register(&addr, "mei").await;
    let black = register(&addr, "jun").await;
    let (st, g) = post(
        &addr,
        "/api/games",
        &red,
        json!({"game": "count", "opponent": "open", "rated": false}),
    )
    .await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    let (st, j) = post(&addr, &format!("/api/games/{id}/join"), &black, json!({})).await;
    assert_eq!(st, 200, "{j}");
    for (t, mv) in [(&red, "+1"), (&black, "+1"), (&red, "+1")] {
        let (st, s) = post(
            &addr,
            &format!("/api/games/{id}/moves"),
            t,
            json!({"move": mv}),
        )
        .await;
        assert_eq!(st, 200, "{s}");
    }
    let (st, e) = post(&addr, &format!("/api/games/{id}/claim"), &black, json!({})).await;
    let (code, d) = code_details(st, 409, &e);
    assert_eq!(code, "claim_refused");
    assert_eq!(
        d,
        json!({"why": "too_early", "plies": 3, "needed": CLAIM_PLIES, "rule": "C1", "foul": true}),
        "{e}"
    );

    // The same on the socket: an error frame has the details too, and a
    // refused move names the move.
    let mut ws = GameSocket::connect(&addr, &format!("/api/games/{id}/ws"), Some(&black))
        .await
        .expect("socket");
    ws.next_state().await.expect("state");
    for frame in [json!({"t": "claim"}), json!({"t": "move", "move": "+7"})] {
        use futures_util::SinkExt;
        ws.ws
            .send(tokio_tungstenite::tungstenite::Message::Text(
                frame.to_string().into(),
            ))
            .await
            .expect("sent");
    }
    let mut errors = Vec::new();
    while errors.len() < 2 {
        let f = tokio::time::timeout(std::time::Duration::from_secs(10), ws.next_frame())
            .await
            .expect("an answer in time")
            .expect("a frame");
        if f["t"] == "error" {
            errors.push(f);
        }
    }
    assert_eq!(errors[0]["code"], "claim_refused", "{}", errors[0]);
    assert_eq!(errors[0]["details"]["plies"], 3, "{}", errors[0]);
    assert_eq!(errors[0]["details"]["needed"], CLAIM_PLIES, "{}", errors[0]);
    assert_eq!(errors[1]["code"], "illegal_move", "{}", errors[1]);
    assert_eq!(errors[1]["details"], json!({"move": "+7"}), "{}", errors[1]);
}

#[tokio::test]
async fn the_error_schema_documents_details() {
    let (_hall, addr) = common::server("errdetails-schema").await;
    let (st, doc) = common::get(&addr, "/api/openapi.json").await;
    assert_eq!(st, 200);
    let e = &doc["components"]["schemas"]["Error"];
    assert_eq!(e["properties"]["details"]["type"], "object", "{e}");
    assert_eq!(e["required"], json!(["error", "code"]), "{e}");
}
