//! TV and watchers (issue 36): `GET /api/tv` features each kind's
//! highest-rated game in play (AI seats at their level's rating: the fake
//! game's level N is 800 + 100 N) and moves on when it ends; every game's
//! state counts the sockets and streams open on it by people not seated.

use qiyuan_hall::client::{self, GameSocket};
use serde_json::{Value, json};

use crate::common::{eventually, get, post, register, server};

/// A game of `count` that `token` opens against `opponent` (`ai:N`, or
/// `open` for `joiner` to take); its id once it is in play.
async fn game(addr: &str, token: &str, opponent: &str, joiner: Option<&str>) -> String {
    let (st, g) = post(
        addr,
        "/api/games",
        token,
        json!({"game": "count", "opponent": opponent, "clock": {"initial_s": 300, "increment_s": 0}}),
    )
    .await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    if let Some(j) = joiner {
        let (st, v) = post(addr, &format!("/api/games/{id}/join"), j, json!({})).await;
        assert_eq!(st, 200, "{v}");
    }
    id
}

async fn tv(addr: &str) -> Value {
    let (st, v) = get(addr, "/api/tv").await;
    assert_eq!(st, 200, "{v}");
    v
}

/// The featured game of `count`, if any.
fn featured(tv: &Value) -> Option<&Value> {
    tv["featured"]
        .as_array()
        .and_then(|f| f.iter().find(|g| g["kind"] == "count"))
}

async fn watchers(addr: &str, id: &str) -> i64 {
    let (st, s) = get(addr, &format!("/api/games/{id}")).await;
    assert_eq!(st, 200, "{s}");
    s["watchers"].as_i64().expect("watchers in the state")
}

#[tokio::test]
async fn tv_features_the_highest_rated_game_in_play_and_moves_on_when_it_ends() {
    let (srv, addr) = server("tv").await;
    assert_eq!(tv(&addr).await["featured"], json!([]), "nothing in play");
    let ann = register(&addr, "ann").await;
    let bob = register(&addr, "bob").await;
    let cat = register(&addr, "cat").await;
    let dan = register(&addr, "dan").await;
    // New players are at the start rating, 1000. ann vs level 8 (1600):
    // 1300; bob vs level 1 (900): 950; cat vs dan: 1000.
    let strong = game(&addr, &ann, "ai:8", None).await;
    let weak = game(&addr, &bob, "ai:1", None).await;
    let people = game(&addr, &cat, "open", Some(&dan)).await;
    let v = tv(&addr).await;
    let f = featured(&v).expect("a featured game of count");
    assert_eq!(f["id"], strong.as_str(), "{v}");
    assert_eq!(f["rating"], 1300, "{v}");
    assert_eq!(f["family"], "count", "{v}");
    assert_eq!(f["players"][0]["name"], "ann", "{v}");
    assert_eq!(f["players"][0]["rating"], 1000, "{v}");
    assert_eq!(f["players"][1]["ai_level"], 8, "{v}");
    assert_eq!(f["players"][1]["rating"], 1600, "{v}");
    assert_eq!(f["clocks"], json!([300_000, 300_000]), "{v}");
    assert_eq!(f["watchers"], 0, "{v}");
    // One kind asked for; an unknown one is refused with its code.
    let (st, one) = get(&addr, "/api/tv?kind=count").await;
    assert_eq!(
        (st, &one["featured"][0]["id"]),
        (200, &json!(strong)),
        "{one}"
    );
    let (st, e) = get(&addr, "/api/tv?kind=nope").await;
    assert_eq!((st, e["code"].clone()), (404, json!("not_found")), "{e}");
    // The featured game ends: the next request features the next best.
    let (st, r) = post(
        &addr,
        &format!("/api/games/{strong}/resign"),
        &ann,
        json!({}),
    )
    .await;
    assert_eq!(st, 200, "{r}");
    let v = tv(&addr).await;
    assert_eq!(
        featured(&v).expect("featured")["id"],
        people.as_str(),
        "{v}"
    );
    assert_eq!(featured(&v).expect("featured")["rating"], 1000, "{v}");
    let (st, r) = post(
        &addr,
        &format!("/api/games/{people}/resign"),
        &dan,
        json!({}),
    )
    .await;
    assert_eq!(st, 200, "{r}");
    let v = tv(&addr).await;
    assert_eq!(featured(&v).expect("featured")["id"], weak.as_str(), "{v}");
    let (st, r) = post(&addr, &format!("/api/games/{weak}/resign"), &bob, json!({})).await;
    assert_eq!(st, 200, "{r}");
    assert_eq!(tv(&addr).await["featured"], json!([]));
    srv.shutdown().await;
}

#[tokio::test]
async fn watchers_count_spectator_sockets_and_streams_not_the_players() {
    let (srv, addr) = server("watchers").await;
    let cat = register(&addr, "cat").await;
    let dan = register(&addr, "dan").await;
    let eve = register(&addr, "eve").await;
    let id = game(&addr, &cat, "open", Some(&dan)).await;
    assert_eq!(watchers(&addr, &id).await, 0);
    let path = format!("/api/games/{id}/ws");
    // A player's sockets (two tabs) do not count.
    let mut tab1 = GameSocket::connect(&addr, &path, Some(&cat))
        .await
        .expect("ws");
    let mut tab2 = GameSocket::connect(&addr, &path, Some(&cat))
        .await
        .expect("ws");
    assert_eq!(tab1.next_state().await.expect("state")["watchers"], 0);
    assert_eq!(tab2.next_state().await.expect("state")["watchers"], 0);
    // An anonymous spectator counts, in its own first frame too.
    let mut spectator = GameSocket::connect(&addr, &path, None).await.expect("ws");
    let s = spectator.next_state().await.expect("state");
    assert_eq!(s["watchers"], 1, "{s}");
    assert!(s.get("legal").is_none(), "a spectator's view: {s}");
    // A signed-in person not seated counts too, and so does a stream.
    let mut other = GameSocket::connect(&addr, &path, Some(&eve))
        .await
        .expect("ws");
    assert_eq!(other.next_state().await.expect("state")["watchers"], 2);
    let mut stream = client::stream_lines(&addr, &format!("/api/games/{id}/stream"), None)
        .await
        .expect("stream");
    assert_eq!(stream.next_json().await.expect("a line")["watchers"], 3);
    assert_eq!(watchers(&addr, &id).await, 3);
    let v = tv(&addr).await;
    assert_eq!(featured(&v).expect("featured")["watchers"], 3, "{v}");
    // The next change carries the count to everyone (players too).
    let (st, r) = post(
        &addr,
        &format!("/api/games/{id}/moves"),
        &cat,
        json!({"move": "+1"}),
    )
    .await;
    assert_eq!(st, 200, "{r}");
    let f = tab1.next_state().await.expect("a diff");
    assert_eq!(f["watchers"], 3, "{f}");
    // Closing drops the count; the hall forgets the game at zero.
    drop(stream);
    drop(other);
    spectator.ws.close(None).await.expect("close");
    drop(spectator);
    eventually("the watchers to leave", || async {
        (watchers(&addr, &id).await == 0).then_some(())
    })
    .await;
    assert_eq!(srv.hall.watchers.games_watched(), 0);
    drop((tab1, tab2));
    srv.shutdown().await;
}
