//! The storage contract: one test body run against every store, SQLite
//! always and PostgreSQL when `QIYUAN_TEST_POSTGRES` names a server
//! (`postgres://USER@HOST:PORT/DB`; each test makes a database of its own
//! there). `tests/cluster/run.sh` starts one and sets the variable; without
//! it the PostgreSQL tests print a note and pass.

use std::sync::Arc;

use qiyuan_events::puzzle::Glicko;
use qiyuan_hall::store::{
    Fence, GameRow, MoveRow, NewSession, PuzzleRating, PuzzleResult, PuzzleRow, RatingUpdate,
    SeatRow, Storage, StoreError,
};

/// A fresh PostgreSQL database URL on the test server, or `None` (with a
/// note) when there is none.
pub async fn fresh_postgres(tag: &str) -> Option<String> {
    let Ok(base) = std::env::var("QIYUAN_TEST_POSTGRES") else {
        eprintln!("note: QIYUAN_TEST_POSTGRES is not set; the PostgreSQL test {tag} is skipped");
        return None;
    };
    let name = format!(
        "qiyuan_{tag}_{}_{:x}",
        std::process::id(),
        rand::random::<u32>()
    );
    let admin = sqlx::PgPool::connect(&base).await.expect("test server");
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&admin)
        .await
        .expect("create database");
    admin.close().await;
    let (head, _) = base.rsplit_once('/').expect("a URL with a database");
    Some(format!("{head}/{name}"))
}

fn game(id: &str, seats: Vec<SeatRow>, status: &str) -> GameRow {
    GameRow {
        id: id.into(),
        rules: "kind-a".into(),
        options: qiyuan_core::Options::from([("target".into(), 30)]),
        start_fen: None,
        initial_ms: 60_000,
        increment_ms: 1_000,
        rated: true,
        seats,
        status: status.into(),
        result: None,
        reason: None,
        explanation: None,
        clocks: vec![60_000, 60_000],
        created_ms: 1,
        updated_ms: 1,
        rematch_of: None,
        placings: None,
    }
}

fn mv(ply: i64) -> MoveRow {
    MoveRow {
        ply,
        seat: ply % 2,
        mv: format!("m{ply}"),
        clocks: vec![59_000 - ply, 60_000],
        at_ms: 10 + ply,
        draws: if ply == 1 { vec![3, 1, 4] } else { Vec::new() },
    }
}

fn session(keep: usize) -> NewSession {
    NewSession {
        ttl_ms: 3_600_000,
        keep,
        agent: Some("test".into()),
    }
}

/// Everything the hall relies on, the same for every store.
pub async fn contract(store: Arc<dyn Storage>) {
    // Accounts: names are unique by their key.
    let alice = store
        .create_user("Alice", Some("hash"), false)
        .await
        .expect("user")
        .expect("new");
    let bob = store
        .create_user("bob", None, true)
        .await
        .expect("user")
        .expect("new");
    assert!(
        store
            .create_user("alice", None, false)
            .await
            .expect("dup")
            .is_none()
    );
    let found = store
        .user_by_name("ALICE")
        .await
        .expect("by name")
        .expect("found");
    assert_eq!(found, alice);
    assert!(store.user_by_name("carol").await.expect("none").is_none());
    // The player picker: registered names by prefix, case ignored, the
    // prefix taken literally ('%' and '_' are no wildcards); never a guest.
    let picked = |prefix: &'static str| {
        let store = store.clone();
        async move { store.users_with_prefix(prefix, 10).await.expect("prefix") }
    };
    assert_eq!(picked("AL").await, ["Alice"]);
    assert_eq!(picked("b").await, Vec::<String>::new());
    assert_eq!(picked("%").await, Vec::<String>::new());
    assert_eq!(picked("a_").await, Vec::<String>::new());

    // Sessions: sliding expiry, the list, revoking, the keep limit.
    store
        .create_session("t1", alice.id, &session(2))
        .await
        .expect("s1");
    store
        .create_session("t2", alice.id, &session(2))
        .await
        .expect("s2");
    assert_eq!(
        store
            .session_user("t1", 3_600_000)
            .await
            .expect("s")
            .map(|u| u.id),
        Some(alice.id)
    );
    let list = store.list_sessions(alice.id, "t2").await.expect("list");
    assert_eq!(list.len(), 2);
    assert_eq!(list.iter().filter(|s| s.current).count(), 1);
    assert!(
        list.iter()
            .all(|s| s.id.len() == 16 && s.agent.as_deref() == Some("test"))
    );
    store
        .create_session("t3", alice.id, &session(2))
        .await
        .expect("s3");
    assert_eq!(
        store
            .list_sessions(alice.id, "t3")
            .await
            .expect("list")
            .len(),
        2
    );
    let other = store
        .list_sessions(alice.id, "t3")
        .await
        .expect("list")
        .into_iter()
        .find(|s| !s.current)
        .expect("another");
    assert!(
        store
            .revoke_session(alice.id, &other.id)
            .await
            .expect("revoke")
    );
    assert!(
        !store
            .revoke_session(bob.id, &other.id)
            .await
            .expect("not bob's")
    );
    store
        .create_session("t4", alice.id, &session(5))
        .await
        .expect("s4");
    assert_eq!(
        store
            .revoke_other_sessions(alice.id, "t4")
            .await
            .expect("others"),
        1
    );
    store.delete_session("t4").await.expect("delete");
    assert!(
        store
            .session_user("t4", 3_600_000)
            .await
            .expect("gone")
            .is_none()
    );
    store
        .create_session(
            "old",
            bob.id,
            &NewSession {
                ttl_ms: -1,
                keep: 5,
                agent: None,
            },
        )
        .await
        .expect("expired");
    assert!(
        store
            .session_user("old", 1000)
            .await
            .expect("expired")
            .is_none()
    );
    assert_eq!(store.purge_expired_sessions().await.expect("purge"), 1);

    // Games and moves.
    let seats = vec![
        SeatRow::User {
            id: alice.id,
            name: "Alice".into(),
            bot: false,
        },
        SeatRow::Ai { level: 3 },
    ];
    let mut g = game("g1", seats, "playing");
    store.insert_game(&g).await.expect("insert");
    assert_eq!(store.ai_games_in_play(alice.id).await.expect("ai"), 1);
    // Bots: only a registered user who never sat in a game becomes one.
    assert!(
        !store.make_bot(alice.id).await.expect("bot"),
        "alice has played"
    );
    assert!(
        !store.make_bot(bob.id).await.expect("bot"),
        "bob is a guest"
    );
    let carol = store
        .create_user("carol", Some("hash"), false)
        .await
        .expect("user")
        .expect("new");
    assert!(!carol.bot);
    assert!(store.make_bot(carol.id).await.expect("bot"));
    let carol = store
        .user_by_name("carol")
        .await
        .expect("read")
        .expect("carol");
    assert!(carol.bot, "{carol:?}");
    for ply in 0..3 {
        g.clocks = mv(ply).clocks;
        g.updated_ms = 10 + ply;
        store.append_move(&g, &mv(ply), None).await.expect("move");
    }
    assert!(
        store.append_move(&g, &mv(1), None).await.is_err(),
        "a ply twice"
    );
    let (row, moves) = store.load_game("g1").await.expect("load").expect("g1");
    assert_eq!(row, g);
    assert_eq!(moves, (0..3).map(mv).collect::<Vec<_>>());
    assert!(store.load_game("nope").await.expect("load").is_none());
    assert_eq!(store.unfinished_games().await.expect("unfinished").len(), 1);
    assert_eq!(
        store.unfinished_games_of(alice.id, 10).await.expect("mine"),
        vec!["g1"]
    );
    assert_eq!(
        store.user_games(alice.id, 10).await.expect("games").len(),
        1
    );

    // Leases: one owner at a time, the token grows on each takeover, a
    // move under a stale token is refused and writes nothing.
    let a1 = store
        .acquire_lease("g1", "node-a", 60_000)
        .await
        .expect("lease");
    assert_eq!(
        a1,
        Some(Fence {
            owner: "node-a".into(),
            token: 1
        })
    );
    assert_eq!(
        store
            .acquire_lease("g1", "node-b", 60_000)
            .await
            .expect("held"),
        None
    );
    assert_eq!(
        store
            .acquire_lease("g1", "node-a", 60_000)
            .await
            .expect("renew"),
        a1
    );
    let a1 = a1.expect("a's fence");
    store
        .append_move(&g, &mv(3), Some(&a1))
        .await
        .expect("fenced move");
    // A's lease runs out (a renewal with no time left), B takes over.
    store
        .acquire_lease("g1", "node-a", -1)
        .await
        .expect("lapse");
    let b2 = store
        .acquire_lease("g1", "node-b", 60_000)
        .await
        .expect("takeover")
        .expect("granted");
    assert_eq!(b2.token, 2);
    let refused = store
        .append_move(&g, &mv(4), Some(&a1))
        .await
        .expect_err("stale");
    assert!(matches!(refused, StoreError::StaleLease(_)), "{refused:?}");
    assert_eq!(
        store
            .load_game("g1")
            .await
            .expect("load")
            .expect("g1")
            .1
            .len(),
        4
    );
    store
        .append_move(&g, &mv(4), Some(&b2))
        .await
        .expect("the new owner");
    // A game row written under a stale lease (a join, an end) is refused too.
    let refused = store.update_game(&g, Some(&a1)).await.expect_err("stale");
    assert!(matches!(refused, StoreError::StaleLease(_)), "{refused:?}");
    store
        .update_game(&g, Some(&b2))
        .await
        .expect("the owner's row");
    assert!(store.release_lease("g1", "node-b").await.expect("release"));
    assert!(!store.release_lease("g1", "node-a").await.expect("not a's"));
    let a3 = store
        .acquire_lease("g1", "node-a", 60_000)
        .await
        .expect("again");
    assert_eq!(a3.as_ref().map(|f| f.token), Some(3));

    // Takebacks: under a stale lease refused, with nothing taken back;
    // under the owner's, done.
    g.updated_ms = 99;
    let refused = store
        .take_back(&g, 3, 1, Some(&b2))
        .await
        .expect_err("stale takeback");
    assert!(matches!(refused, StoreError::StaleLease(_)), "{refused:?}");
    assert_eq!(store.takeback_count("g1").await.expect("count"), 0);
    assert_eq!(
        store
            .load_game("g1")
            .await
            .expect("load")
            .expect("g1")
            .1
            .len(),
        5
    );
    store
        .take_back(&g, 3, 1, a3.as_ref())
        .await
        .expect("take back");
    assert_eq!(store.takeback_count("g1").await.expect("count"), 1);
    assert_eq!(
        store
            .load_game("g1")
            .await
            .expect("load")
            .expect("g1")
            .1
            .len(),
        3
    );

    // Ratings, once per game.
    let r = |v: f64, n: u32| qiyuan_events::Rating {
        value: v,
        rated_games: n,
        reached_top: false,
    };
    let up = [RatingUpdate {
        user_id: alice.id,
        before: r(1000.0, 0),
        after: r(1020.0, 1),
        deviation: None,
    }];
    assert!(store.apply_ratings("g1", "fam", &up).await.expect("rate"));
    assert!(!store.apply_ratings("g1", "fam", &up).await.expect("twice"));
    assert_eq!(
        store.rating(alice.id, "fam").await.expect("rating"),
        Some(r(1020.0, 1))
    );
    assert_eq!(store.ratings_of(alice.id).await.expect("all").len(), 1);
    assert_eq!(
        store.leaderboard("fam", 10).await.expect("board"),
        vec![("Alice".to_string(), r(1020.0, 1))]
    );
    let hist = store.rating_history(alice.id).await.expect("history");
    assert_eq!((hist.len(), hist[0].rating), (1, 1020.0));
    let changes = store.game_rating_changes("g1").await.expect("changes");
    assert_eq!((changes[0].before, changes[0].after), (1000.0, 1020.0));
    let multi = store
        .multi_rating(alice.id, "fam")
        .await
        .expect("multi")
        .expect("some");
    assert_eq!(multi.rated_games, 1);

    // Events, fouls, set-ups, points.
    store
        .save_event("e1", "running", "{}")
        .await
        .expect("event");
    store
        .save_event("e1", "finished", "{\"a\":1}")
        .await
        .expect("event again");
    assert_eq!(
        store.load_events().await.expect("events"),
        vec![("e1".to_string(), "{\"a\":1}".to_string())]
    );
    store.add_foul("g1", 1).await.expect("foul");
    store.add_foul("g1", 1).await.expect("foul");
    assert_eq!(store.game_fouls("g1").await.expect("fouls"), vec![(1, 2)]);
    store.save_game_setup("g1", "layout").await.expect("setup");
    assert_eq!(
        store.game_setup("g1").await.expect("setup").as_deref(),
        Some("layout")
    );
    assert!(store.game_setup("nope").await.expect("none").is_none());
    assert!(
        store
            .settle_points("g1", "fam", &[(alice.id, 5), (bob.id, -5)])
            .await
            .expect("settle")
    );
    assert!(
        !store
            .settle_points("g1", "fam", &[(alice.id, 5)])
            .await
            .expect("twice")
    );
    assert_eq!(
        store
            .points_balance(alice.id, "fam")
            .await
            .expect("balance"),
        5
    );
    assert_eq!(
        store.points_balance(alice.id, "other").await.expect("none"),
        0
    );
    let board = store
        .points_leaderboard("fam", 10)
        .await
        .expect("points board");
    assert_eq!(
        board,
        vec![("Alice".to_string(), 5), ("bob".to_string(), -5)]
    );

    // Challenges and chat reports.
    let w = game(
        "w1",
        vec![
            SeatRow::User {
                id: alice.id,
                name: "Alice".into(),
                bot: false,
            },
            SeatRow::Open,
        ],
        "waiting",
    );
    store.insert_game(&w).await.expect("waiting game");
    store.save_challenge("w1", bob.id).await.expect("challenge");
    assert_eq!(
        store.challenge_of("w1").await.expect("of"),
        Some((bob.id, "bob".to_string()))
    );
    assert_eq!(
        store.challenges_for(bob.id, 10).await.expect("for"),
        vec!["w1"]
    );
    let report = qiyuan_hall::store::ChatReport {
        game_id: "g1".into(),
        reporter_id: alice.id,
        author_id: bob.id,
        text: "hi".into(),
        sent_ms: 5,
    };
    store.add_chat_report(&report).await.expect("report");
    assert_eq!(
        store.chat_reports("g1").await.expect("reports"),
        vec![report]
    );

    // Presets: one per kind plays on timeout.
    let p = |name: &str, on: bool| qiyuan_hall::presets::Preset {
        kind: "kind-a".into(),
        name: name.into(),
        text: format!("text {name}"),
        on_timeout: on,
    };
    store
        .save_preset(alice.id, &p("one", true))
        .await
        .expect("preset");
    store
        .save_preset(alice.id, &p("two", true))
        .await
        .expect("preset");
    let list = store.list_presets(alice.id).await.expect("presets");
    assert_eq!(list.iter().filter(|p| p.on_timeout).count(), 1);
    assert_eq!(
        store
            .timeout_preset(alice.id, "kind-a")
            .await
            .expect("timeout")
            .as_deref(),
        Some("text two")
    );
    assert!(
        store
            .delete_preset(alice.id, "kind-a", "two")
            .await
            .expect("delete")
    );
    assert!(
        store
            .timeout_preset(alice.id, "kind-a")
            .await
            .expect("none")
            .is_none()
    );

    // Group commit: many games at once, every acknowledged move stored.
    let mut tasks = Vec::new();
    for i in 0..40 {
        let s = store.clone();
        let mut g = game(
            &format!("c{i}"),
            vec![SeatRow::User {
                id: bob.id,
                name: "bob".into(),
                bot: false,
            }],
            "playing",
        );
        tasks.push(tokio::spawn(async move {
            s.insert_game(&g).await.expect("insert");
            for ply in 0..8 {
                g.updated_ms = ply;
                s.append_move(&g, &mv(ply), None).await.expect("stored");
            }
        }));
    }
    for t in tasks {
        t.await.expect("task");
    }
    for i in 0..40 {
        let (row, moves) = store
            .load_game(&format!("c{i}"))
            .await
            .expect("load")
            .expect("game");
        assert_eq!((row.updated_ms, moves.len()), (7, 8));
    }
    assert_eq!(
        store
            .unfinished_games_of(bob.id, 100)
            .await
            .expect("bob's")
            .len(),
        40
    );

    // Clearing (issue 34): a room that never started is deleted with its
    // seats, a game in play is not; a guest that never played goes with
    // its sessions once idle, one who played stays.
    let room = game(
        "room1",
        vec![
            SeatRow::User {
                id: bob.id,
                name: "bob".into(),
                bot: false,
            },
            SeatRow::Open,
        ],
        "waiting",
    );
    store.insert_game(&room).await.expect("room");
    assert!(store.delete_open_room("room1").await.expect("delete"));
    assert!(store.load_game("room1").await.expect("load").is_none());
    assert!(!store.delete_open_room("room1").await.expect("gone"));
    assert!(!store.delete_open_room("c0").await.expect("in play"));
    assert!(store.load_game("c0").await.expect("load").is_some());
    let idle = store
        .create_user("guest-idle", None, true)
        .await
        .expect("user")
        .expect("new");
    store
        .create_session("t-idle", idle.id, &session(2))
        .await
        .expect("session");
    assert_eq!(store.purge_idle_guests(0).await.expect("purge"), 0);
    let gone = store.purge_idle_guests(i64::MAX / 2).await.expect("purge");
    assert!(gone >= 1, "{gone}");
    assert!(
        store
            .user_by_name("guest-idle")
            .await
            .expect("by name")
            .is_none()
    );
    assert!(
        store
            .session_user("t-idle", 3_600_000)
            .await
            .expect("session")
            .is_none()
    );
    assert!(store.user_by_name("bob").await.expect("by name").is_some());
    puzzles(&*store, alice.id, bob.id).await;
    store.close().await;
}

fn puzzle(id: &str, rating: f64, themes: &[&str]) -> PuzzleRow {
    PuzzleRow {
        id: id.into(),
        variant: "kind-a".into(),
        fen: format!("fen {id}"),
        moves: vec!["m1".into(), "m2".into()],
        themes: themes.iter().map(|t| t.to_string()).collect(),
        rating: Glicko::new_puzzle(rating),
        plays: 0,
    }
}

/// Puzzles (issue 40): loading is idempotent and keeps ratings; the
/// nearest unplayed puzzles by theme; one rated attempt per puzzle; the
/// history newest first and bounded.
async fn puzzles(store: &dyn Storage, alice: i64, bob: i64) {
    let set = vec![
        puzzle("p1", 1200.0, &["mate1"]),
        puzzle("p2", 1500.0, &["mate2", "smothered"]),
        puzzle("p3", 1800.0, &["mate2"]),
        puzzle("p4", 1550.0, &["mate1", "endgame"]),
    ];
    store.upsert_puzzles(&set).await.expect("load");
    assert_eq!(store.puzzle_count("kind-a").await.expect("count"), 4);
    assert_eq!(store.puzzle_count("kind-b").await.expect("count"), 0);
    let p2 = store.puzzle("p2").await.expect("get").expect("p2");
    assert_eq!(p2, set[1]);
    assert!(store.puzzle("nope").await.expect("get").is_none());
    let ids = |v: Vec<PuzzleRow>| v.into_iter().map(|p| p.id).collect::<Vec<_>>();
    let near = store
        .puzzles_near("kind-a", 1510.0, &[], Some(alice), 3)
        .await
        .expect("near");
    assert_eq!(ids(near), ["p2", "p4", "p3"]);
    let mate2 = store
        .puzzles_near("kind-a", 1510.0, &["mate2"], None, 10)
        .await
        .expect("near");
    assert_eq!(ids(mate2), ["p2", "p3"]);
    let both = store
        .puzzles_near("kind-a", 0.0, &["mate1", "endgame"], None, 10)
        .await
        .expect("near");
    assert_eq!(ids(both), ["p4"]);
    // The place by id is stable: the daily puzzle.
    let at = store.puzzle_at("kind-a", 2).await.expect("at").expect("p3");
    assert_eq!(at.id, "p3");
    assert!(store.puzzle_at("kind-a", 4).await.expect("at").is_none());

    // A rated attempt: once.
    assert!(
        store
            .puzzle_rating(alice, "kind-a")
            .await
            .expect("r")
            .is_none()
    );
    let (me, z) = qiyuan_events::puzzle::rate_attempt(Glicko::new_player(), p2.rating, true);
    let result = PuzzleResult {
        user_id: alice,
        puzzle_id: "p2".into(),
        variant: "kind-a".into(),
        win: true,
        player: PuzzleRating {
            rating: me,
            plays: 1,
        },
        puzzle: z,
    };
    assert!(store.record_puzzle_result(&result).await.expect("rate"));
    assert!(!store.record_puzzle_result(&result).await.expect("again"));
    assert!(store.puzzle_attempted(alice, "p2").await.expect("a"));
    assert!(!store.puzzle_attempted(bob, "p2").await.expect("b"));
    let r = store
        .puzzle_rating(alice, "kind-a")
        .await
        .expect("r")
        .expect("rated");
    assert_eq!((r.rating, r.plays), (me, 1));
    let p2 = store.puzzle("p2").await.expect("get").expect("p2");
    assert_eq!((p2.rating, p2.plays), (z, 1));
    // Alice no longer gets p2; Bob still does.
    let near = store
        .puzzles_near("kind-a", 1510.0, &[], Some(alice), 1)
        .await
        .expect("near");
    assert_eq!(ids(near), ["p4"]);
    let near = store
        .puzzles_near("kind-a", z.rating, &[], Some(bob), 1)
        .await
        .expect("near");
    assert_eq!(ids(near), ["p2"]);

    // Loading the set again keeps the rating and the plays, and takes a
    // new position and themes.
    let mut again = set.clone();
    again[1].fen = "fen p2 fixed".into();
    again[1].themes = vec!["mate3".into()];
    store.upsert_puzzles(&again).await.expect("reload");
    let p2 = store.puzzle("p2").await.expect("get").expect("p2");
    assert_eq!(
        (p2.rating, p2.plays, p2.fen.as_str()),
        (z, 1, "fen p2 fixed")
    );
    assert_eq!(p2.themes, ["mate3"]);
    assert_eq!(store.puzzle_count("kind-a").await.expect("count"), 4);

    // History: newest first, bounded.
    for (i, id) in ["p1", "p3", "p4"].into_iter().enumerate() {
        let r = PuzzleResult {
            puzzle_id: id.into(),
            win: i % 2 == 0,
            player: PuzzleRating {
                rating: Glicko {
                    rating: 1600.0 + i as f64,
                    ..me
                },
                plays: 2 + i as i64,
            },
            ..result.clone()
        };
        assert!(store.record_puzzle_result(&r).await.expect("rate"));
    }
    let h = store
        .puzzle_history(alice, None, 1000)
        .await
        .expect("history");
    assert_eq!(
        h.iter().map(|a| a.puzzle_id.as_str()).collect::<Vec<_>>(),
        ["p4", "p3", "p1", "p2"]
    );
    assert_eq!((h[0].win, h[0].rating_after), (true, 1602.0));
    assert!(!h[1].win);
    let h = store
        .puzzle_history(alice, Some("kind-a"), 2)
        .await
        .expect("history");
    assert_eq!(h.len(), 2);
    assert!(
        store
            .puzzle_history(alice, Some("kind-b"), 10)
            .await
            .expect("h")
            .is_empty()
    );
    assert!(
        store
            .puzzle_history(bob, None, 10)
            .await
            .expect("h")
            .is_empty()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_store_keeps_the_contract() {
    let path = std::env::temp_dir().join(format!("qiyuan-contract-{}.db", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let store = qiyuan_hall::store::open(&format!("sqlite://{}", path.display()))
        .await
        .expect("store");
    contract(store).await;
    let _ = std::fs::remove_file(&path);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_store_keeps_the_contract() {
    let Some(url) = fresh_postgres("contract").await else {
        return;
    };
    let store = qiyuan_hall::store::open(&url).await.expect("store");
    contract(store).await;
}

#[tokio::test]
async fn a_bad_database_url_is_a_clear_error() {
    let e = qiyuan_hall::store::open("mysql://x/y")
        .await
        .err()
        .expect("refused");
    assert!(e.to_string().contains("sqlite://"), "{e}");
    let e = qiyuan_hall::store::open("postgres://u:pw@127.0.0.1:1/db")
        .await
        .err()
        .expect("refused");
    let text = format!("{e:#}");
    assert!(
        text.contains("cannot connect to PostgreSQL") && !text.contains("pw"),
        "{text}"
    );
}
