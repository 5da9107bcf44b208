//! Takebacks (issue 18) in the games that hide information: refused, even
//! unrated. The rest of the takeback rules are tested in `qiyuan-hall`
//! against its fake game.

use qiyuan_hall::client;
use serde_json::{Value, json};

use crate::common;
use crate::common::{post, register};

async fn get_as(addr: &str, path: &str, token: &str) -> (u16, Value) {
    let r = client::get(addr, path, Some(token)).await.expect("request");
    (r.status, r.json())
}

/// A game between two new people: its id and their tokens (red, black).
async fn two_people(addr: &str, tag: &str, body: Value) -> (String, String, String) {
    let red = register(addr, &format!("red{tag}")).await;
    let black = register(addr, &format!("black{tag}")).await;
    let (st, g) = post(addr, "/api/games", &red, body).await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    let (st, j) = post(addr, &format!("/api/games/{id}/join"), &black, json!({})).await;
    assert_eq!(st, 200, "{j}");
    (id, red, black)
}

async fn takeback(addr: &str, id: &str, token: &str, action: &str) -> (u16, Value) {
    post(
        addr,
        &format!("/api/games/{id}/takeback"),
        token,
        json!({"action": action}),
    )
    .await
}

#[tokio::test]
async fn hidden_games_refuse_takebacks() {
    let (srv, addr) = common::server("takeback-hidden").await;
    // Banqi hides what lies face down: no takebacks, even unrated.
    let (id, red, _) = two_people(&addr, "b", json!({"game": "banqi", "opponent": "open"})).await;
    let (_, s) = get_as(&addr, &format!("/api/games/{id}"), &red).await;
    assert_eq!(s["takeback"], false, "{s}");
    let (st, e) = takeback(&addr, &id, &red, "offer").await;
    assert_eq!(
        (st, e["code"].as_str()),
        (409, Some("takeback_unavailable")),
        "{e}"
    );
    // So does hidden Junqi (its set-ups are secret until the end).
    let (id, red, _) = two_people(&addr, "j", json!({"game": "junqi", "opponent": "open"})).await;
    let (_, s) = get_as(&addr, &format!("/api/games/{id}"), &red).await;
    assert_eq!(s["takeback"], false, "{s}");
    let (st, e) = takeback(&addr, &id, &red, "offer").await;
    assert_eq!(
        (st, e["code"].as_str()),
        (409, Some("takeback_unavailable")),
        "{e}"
    );
    srv.shutdown().await;
}
