//! The served OpenAPI document against the running server: the document is
//! the router's list of routes, every operation in it is served (with ids
//! the test creates, so the handlers run), every method the router serves on
//! a documented path is documented, and the only other routes under `/api`
//! are the WebSockets and the document itself. Against the fake game
//! (`count`); moved from the binary's tests.

use std::collections::BTreeSet;
use std::time::Duration;

use qiyuan_hall::client;
use qiyuan_hall::openapi::{UNDOCUMENTED, documented_routes};
use serde_json::{Value, json};

use crate::common;
use crate::common::{get, post, register};

const METHODS: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/// Ids of real things on the server, for the `{...}` of documented paths.
struct Ids {
    game: String,
    event: String,
    team_event: String,
    session: String,
}

impl Ids {
    /// `path` with its parameters replaced by real values. The NDJSON
    /// streams of running events never end, so the event stream gets an
    /// unknown id (its 404 must then be the hall's own, not a route miss).
    fn fill(&self, path: &str) -> String {
        let id = if path.starts_with("/api/games/") {
            &self.game
        } else if path == "/api/events/{id}/stream" {
            "no-such-event"
        } else if path.starts_with("/api/events/") {
            &self.event
        } else if path.starts_with("/api/team-events/") {
            &self.team_event
        } else if path.starts_with("/api/sessions/") {
            &self.session
        } else {
            "unused"
        };
        path.replace("{id}", id)
            .replace("{name}", "alice")
            .replace("{game}", "count")
    }
}

/// One request with a time limit (a stream that did not end fails here).
async fn send(addr: &str, method: &str, path: &str, token: &str) -> client::Reply {
    let body = (method == "POST").then_some(&b"{}"[..]);
    let req = client::request(addr, method, path, Some(token), body, &[]);
    tokio::time::timeout(Duration::from_secs(20), req)
        .await
        .unwrap_or_else(|_| panic!("{method} {path}: no answer in 20 s"))
        .unwrap_or_else(|e| panic!("{method} {path}: {e}"))
}

/// Whether the router matched the route (a miss is the fallback's 404
/// `no_such_endpoint`, a wrong method a 405).
fn routed(r: &client::Reply) -> bool {
    r.status != 405 && !(r.status == 404 && r.json()["code"] == "no_such_endpoint")
}

fn media_type(r: &client::Reply) -> String {
    r.header("content-type")
        .and_then(|c| c.split(';').next())
        .unwrap_or("")
        .trim()
        .to_string()
}

#[tokio::test]
async fn the_document_is_the_router() {
    let (srv, addr) = common::server("openapi-test").await;
    let alice = register(&addr, "alice").await;
    let bob = register(&addr, "bob").await;
    // A finished game: its stream ends after the first line.
    let (st, g) = post(&addr, "/api/games", &alice, json!({"game": "count"})).await;
    assert_eq!(st, 201, "{g}");
    let game = g["id"].as_str().expect("id").to_string();
    let (st, v) = post(&addr, &format!("/api/games/{game}/join"), &bob, json!({})).await;
    assert_eq!(st, 200, "{v}");
    let (st, v) = post(&addr, &format!("/api/games/{game}/resign"), &bob, json!({})).await;
    assert_eq!(st, 200, "{v}");
    let (st, e) = post(
        &addr,
        "/api/events",
        &alice,
        json!({"game": "count", "format": {"kind": "round_robin", "cycles": 1}, "players": ["alice", "bob"]}),
    )
    .await;
    assert_eq!(st, 201, "{e}");
    let event = e["id"].as_str().expect("id").to_string();
    let (st, t) = post(
        &addr,
        "/api/team-events",
        &alice,
        json!({"game": "count", "teams": [{"name": "A", "players": ["alice"]}, {"name": "B", "players": ["bob"]}]}),
    )
    .await;
    assert_eq!(st, 201, "{t}");
    let team_event = t["id"].as_str().expect("id").to_string();
    // A second session of bob's to revoke.
    let (st, s) = post(
        &addr,
        "/api/login",
        "",
        json!({"username": "bob", "password": "secret123"}),
    )
    .await;
    assert_eq!(st, 200, "{s}");
    let r = client::get(&addr, "/api/sessions", Some(&alice))
        .await
        .expect("sessions");
    let session = r.json()["sessions"][0]["id"]
        .as_str()
        .expect("session id")
        .to_string();
    let ids = Ids {
        game,
        event,
        team_event,
        session,
    };
    // Logging out ends a session: a guest's, not alice's.
    let (st, guest) = post(&addr, "/api/guest", "", json!({})).await;
    assert_eq!(st, 200, "{guest}");
    let spare = guest["token"].as_str().expect("token").to_string();

    let (st, doc) = get(&addr, "/api/openapi.json").await;
    assert_eq!(st, 200, "{doc}");
    let paths = doc["paths"].as_object().expect("paths");

    // The served document is the router's list (plus one path per points
    // ledger, an instance of `/api/leaderboard/{game}`).
    let served: BTreeSet<(String, String)> = paths
        .iter()
        .flat_map(|(p, item)| {
            let item = item.as_object().expect("path item");
            item.keys().map(move |m| (m.clone(), p.clone()))
        })
        .collect();
    let listed: BTreeSet<(String, String)> = documented_routes().into_iter().collect();
    let extra: Vec<_> = served.difference(&listed).collect();
    assert!(
        extra.iter().all(|(m, p)| m == "get"
            && p.starts_with("/api/leaderboard/")
            && p.ends_with("-points")),
        "not in the router's list: {extra:?}"
    );
    assert!(listed.is_subset(&served), "the document lacks some routes");
    assert!(listed.len() >= 40, "{} routes", listed.len());

    let (mut served_ops, mut refused) = (0, 0);
    for (path, item) in paths {
        assert!(
            path.starts_with("/api/") || path == "/healthz" || path == "/metrics",
            "{path}"
        );
        assert!(
            !UNDOCUMENTED.contains(&path.as_str()),
            "{path} is documented"
        );
        let concrete = ids.fill(path);
        let item = item.as_object().expect("path item");
        for method in METHODS {
            let op = item.get(&method.to_lowercase());
            let token = if path == "/api/logout" {
                &spare
            } else {
                &alice
            };
            let r = send(&addr, method, &concrete, token).await;
            let Some(op) = op else {
                // Every method the router serves here is documented.
                assert_eq!(r.status, 405, "{method} {concrete} is served: {}", r.body);
                assert_eq!(r.json()["code"], "method_not_allowed", "{}", r.body);
                refused += 1;
                continue;
            };
            assert!(routed(&r), "{method} {concrete}: {} {}", r.status, r.body);
            served_ops += 1;
            // The answer is one the document promises, in its media type.
            let answers = &op["responses"];
            let status = r.status.to_string();
            let mut answer = &answers[&status];
            assert!(
                answer.is_object(),
                "{method} {path}: {status} is not documented: {}",
                r.body
            );
            if let Some(name) = answer["$ref"].as_str().and_then(|s| s.rsplit('/').next()) {
                answer = &doc["components"]["responses"][name];
            }
            let content = answer["content"].as_object().expect("content");
            assert!(
                content.contains_key(&media_type(&r)),
                "{method} {path} {status}: {:?} not in {:?}",
                r.header("content-type"),
                content.keys().collect::<Vec<_>>()
            );
        }
    }

    assert_eq!(served_ops, served.len());
    assert_eq!(served_ops + refused, paths.len() * METHODS.len());
    eprintln!("{served_ops} operations served, {refused} other methods refused");

    // The routes the document leaves out are served too, and nothing else
    // under /api is: a miss is the fallback's own 404.
    for path in UNDOCUMENTED {
        let concrete = ids.fill(path);
        let r = send(&addr, "GET", &concrete, &alice).await;
        assert!(routed(&r), "GET {concrete}: {} {}", r.status, r.body);
    }
    let r = send(&addr, "GET", "/api/no-such-route", &alice).await;
    assert_eq!(r.status, 404);
    assert_eq!(r.json()["code"], "no_such_endpoint", "{}", r.body);
    let e: &Value = &doc["components"]["schemas"]["Error"];
    assert_eq!(e["required"], json!(["error", "code"]), "{e}");
    srv.shutdown().await;
}
