//! Bot accounts (issue 36): upgraded before the first game, shown as a bot
//! in their seats, kept out of the pools, rated like anyone.

use serde_json::json;

use crate::common::{post, register, server};

#[tokio::test]
async fn an_account_becomes_a_bot_only_before_its_first_game_and_stays_out_of_pools() {
    let (srv, addr) = server("bots").await;
    let bot = register(&addr, "robo").await;
    let (st, me) = post(&addr, "/api/account/bot", &bot, json!({})).await;
    assert_eq!(st, 200, "{me}");
    assert_eq!(me["bot"], true, "{me}");
    let r = qiyuan_hall::client::get(&addr, "/api/me", Some(&bot))
        .await
        .expect("me");
    assert_eq!(r.json()["bot"], true, "{}", r.body);
    let r = qiyuan_hall::client::get(&addr, "/api/users/robo", None)
        .await
        .expect("profile");
    assert_eq!(r.json()["bot"], true, "the profile says so: {}", r.body);
    // Pools are for people.
    let (st, e) = post(&addr, "/api/pools/count-10+0/join", &bot, json!({})).await;
    assert_eq!(
        (st, e["code"].clone()),
        (403, json!("bots_not_in_pools")),
        "{e}"
    );
    // A person challenges the bot; the bot's seat says so.
    let ann = register(&addr, "ann").await;
    let (st, g) = post(
        &addr,
        "/api/games",
        &ann,
        json!({"game": "count", "challenge": "robo", "rated": true}),
    )
    .await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    let (st, _) = post(&addr, &format!("/api/games/{id}/join"), &bot, json!({})).await;
    assert_eq!(st, 200);
    let r = qiyuan_hall::client::get(&addr, &format!("/api/games/{id}"), None)
        .await
        .expect("state");
    let s = r.json();
    assert_eq!(s["seats"][1]["bot"], true, "{s}");
    assert!(
        s["seats"][0].get("bot").is_none(),
        "a person's seat has no bot mark: {s}"
    );
    // Ann has played: too late for her.
    let (st, e) = post(&addr, "/api/account/bot", &ann, json!({})).await;
    assert_eq!((st, e["code"].clone()), (409, json!("has_played")), "{e}");
    // Guests register first.
    let r = qiyuan_hall::client::post(&addr, "/api/guest", None, &json!({}))
        .await
        .expect("guest");
    let guest = r.json()["token"].as_str().expect("token").to_string();
    let (st, _) = post(&addr, "/api/account/bot", &guest, json!({})).await;
    assert_eq!(st, 403);
    srv.shutdown().await;
}
