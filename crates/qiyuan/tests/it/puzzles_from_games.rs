//! `qiyuan puzzles from-games` (issue 40: puzzles from the hall's own
//! games): two players play games over HTTP into a fresh SQLite hall, the
//! hall stops, and the built binary reads the database. A finished rated
//! game with a blunder that allows mate gives that puzzle with its exact
//! line; unrated and unfinished games give nothing until one is finished
//! rated; a second run adds no row twice.

use std::process::Command;

use qiyuan_puzzles::parse_row;
use qiyuan_xiangqi::{Position, START_FEN, Variant};
use serde_json::json;

use crate::common::{post, register, server_at, temp_db, xiangqi_game};

/// Black's twelfth ply `f8d8` shuts its own general in: red's cannon mates
/// at once on `e6` (double cannons, smothered), the only mating move.
const LINE_A: &[&str] = &[
    "b2b6", "h7d7", "c0a2", "d7d1", "h2h4", "a6a5", "i0i1", "b7b8", "h4h7", "b8f8", "h7e7", "f8d8",
];
const MATE_A: &str = "b6e6";
/// Another: black's `c6c5` lets the rook mate on `e5`.
const LINE_B: &[&str] = &[
    "h2i2", "a6a5", "b2e2", "h7h1", "e2e6", "b7b2", "c3c4", "i6i5", "e6e4", "h1h2", "i2i5", "c6c5",
];
const MATE_B: &str = "i5e5";

/// A Xiangqi game between `red` and `black` with `moves` played in turn;
/// its id.
async fn play(addr: &str, red: &str, black: &str, rated: bool, moves: &[&str]) -> String {
    xiangqi_game(addr, red, black, rated, 600, moves).await
}

async fn resign(addr: &str, id: &str, who: &str) {
    let (st, r) = post(addr, &format!("/api/games/{id}/resign"), who, json!({})).await;
    assert_eq!(st, 200, "{r}");
}

/// The FEN before the last move of `moves` (the puzzle's position).
fn fen_before_last(moves: &[&str]) -> String {
    let mut pos = Position::from_fen_variant(START_FEN, Variant::Xiangqi, None).expect("start");
    for m in &moves[..moves.len() - 1] {
        let mv = pos.parse_move(m).expect("legal");
        pos.make_move(mv);
    }
    pos.to_fen()
}

/// Runs `qiyuan puzzles from-games` on the database; its stdout.
async fn from_games(db: &std::path::Path, out: &std::path::Path) -> String {
    let args = vec![
        "puzzles".to_string(),
        "from-games".into(),
        "--db".into(),
        format!("sqlite://{}", db.display()),
        "--variant".into(),
        "xiangqi".into(),
        "--out".into(),
        out.display().to_string(),
    ];
    let o = tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_qiyuan"))
            .args(&args)
            .output()
            .expect("run qiyuan")
    })
    .await
    .expect("joined");
    let stdout = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        o.status.success(),
        "from-games failed: {stdout}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    stdout
}

/// The rows of a puzzle file as (fen, moves, themes).
fn rows(out: &std::path::Path) -> Vec<(String, String, Vec<String>)> {
    std::fs::read_to_string(out)
        .unwrap_or_default()
        .lines()
        .filter_map(parse_row)
        .map(|(_, p)| (p.fen, p.moves.join(" "), p.themes))
        .collect()
}

fn line(stdout: &str, key: &str) -> Option<u64> {
    stdout
        .lines()
        .find_map(|l| l.strip_prefix(key)?.trim().parse().ok())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_blunder_in_a_finished_rated_game_becomes_its_mate_puzzle() {
    let db = temp_db("from-games");
    let (srv, addr) = server_at(&db).await;
    let red = register(&addr, "fgred").await;
    let black = register(&addr, "fgblack").await;
    // Red mates: the game ends by checkmate one ply after the blunder.
    let mut moves = LINE_A.to_vec();
    moves.push(MATE_A);
    play(&addr, &red, &black, true, &moves).await;
    srv.shutdown().await;

    let out = std::env::temp_dir().join(format!("qiyuan-fg-{}.csv", std::process::id()));
    let _ = std::fs::remove_file(&out);
    let stdout = from_games(&db, &out).await;
    assert_eq!(line(&stdout, "games "), Some(1), "{stdout}");
    let found = rows(&out);
    let want_fen = fen_before_last(LINE_A);
    let puzzle = found
        .iter()
        .find(|(fen, _, _)| *fen == want_fen)
        .unwrap_or_else(|| panic!("no puzzle at the blunder: {found:?}\n{stdout}"));
    assert_eq!(puzzle.1, format!("f8d8 {MATE_A}"), "{found:?}");
    assert!(puzzle.2.iter().any(|t| t == "mate1"), "{found:?}");
    let text = std::fs::read_to_string(&out).expect("file");
    assert!(
        text.starts_with("id,fen,moves,rating,themes\nx00001,"),
        "{text}"
    );

    // Run again: the puzzle is in the file already, nothing is added.
    let stdout = from_games(&db, &out).await;
    assert_eq!(line(&stdout, "puzzles "), Some(0), "{stdout}");
    assert_eq!(rows(&out), found);
    let _ = std::fs::remove_file(&out);
    let _ = std::fs::remove_file(&db);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unrated_and_unfinished_games_are_not_read() {
    let db = temp_db("from-games-skip");
    let (srv, addr) = server_at(&db).await;
    let red = register(&addr, "fgred2").await;
    let black = register(&addr, "fgblack2").await;
    // The same blunder in an unrated finished game and a rated one that
    // is still being played.
    let unrated = play(&addr, &red, &black, false, LINE_B).await;
    resign(&addr, &unrated, &black).await;
    let unfinished = play(&addr, &red, &black, true, LINE_B).await;
    srv.shutdown().await;

    let out = std::env::temp_dir().join(format!("qiyuan-fg-skip-{}.csv", std::process::id()));
    let _ = std::fs::remove_file(&out);
    let stdout = from_games(&db, &out).await;
    assert_eq!(line(&stdout, "games "), Some(0), "{stdout}");
    assert_eq!(rows(&out), Vec::new(), "{stdout}");

    // Once the rated game is finished (black resigns), its blunder is read.
    // Sessions are stored: black's token still works after the restart.
    let (srv, addr) = server_at(&db).await;
    resign(&addr, &unfinished, &black).await;
    srv.shutdown().await;
    let stdout = from_games(&db, &out).await;
    assert_eq!(line(&stdout, "games "), Some(1), "{stdout}");
    let found = rows(&out);
    let want_fen = fen_before_last(LINE_B);
    assert!(
        found
            .iter()
            .any(|(fen, moves, _)| *fen == want_fen && *moves == format!("c6c5 {MATE_B}")),
        "{found:?}\n{stdout}"
    );
    let _ = std::fs::remove_file(&out);
    let _ = std::fs::remove_file(&db);
}

/// Not a check: fills `QIYUAN_FG_DB` (a SQLite file) with
/// `QIYUAN_FG_GAMES` (default 100) finished rated Xiangqi games the engine
/// plays against itself at depths 1-4 with a random move now and then,
/// through the hall's store, to time `from-games` on (issue 40 asks how
/// long generation takes). `QIYUAN_FG_DB=/tmp/games.db cargo test -p
/// qiyuan --test it self_played_games_db -- --ignored`.
#[tokio::test]
#[ignore]
async fn self_played_games_db() {
    use qiyuan_core::GameRules as _;
    use qiyuan_engine::rng::Rng;
    use qiyuan_engine::{SearchLimits, Searcher};
    use qiyuan_hall::store::{GameRow, MoveRow, SeatRow};
    use qiyuan_xiangqi::Game;

    let Ok(path) = std::env::var("QIYUAN_FG_DB") else {
        return;
    };
    let n: u64 = std::env::var("QIYUAN_FG_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let store = qiyuan_hall::store::open(&format!("sqlite://{path}"))
        .await
        .expect("open");
    let mut seats = Vec::new();
    for name in ["selfred", "selfblack"] {
        let u = match store
            .create_user(name, Some("x"), false)
            .await
            .expect("user")
        {
            Some(u) => u,
            None => store.user_by_name(name).await.expect("read").expect("user"),
        };
        seats.push(SeatRow::User {
            id: u.id,
            name: u.username,
            bot: false,
        });
    }
    let mut searcher = Searcher::new(16);
    let now = qiyuan_hall::clock::wall_ms();
    for g in 0..n {
        let mut rng = Rng::new(g);
        let depths = [1 + rng.below(4) as i32, 1 + rng.below(4) as i32];
        let start = Position::from_fen_variant(START_FEN, Variant::Xiangqi, None).expect("start");
        let mut game = Game::new(start);
        searcher.clear();
        let mut row = GameRow {
            id: format!("self{g:06}"),
            rules: "xiangqi".into(),
            options: Default::default(),
            start_fen: None,
            initial_ms: 600_000,
            increment_ms: 0,
            rated: true,
            seats: seats.clone(),
            status: "playing".into(),
            result: None,
            reason: None,
            explanation: None,
            clocks: vec![600_000, 600_000],
            created_ms: now + g as i64,
            updated_ms: now + g as i64,
            rematch_of: None,
            placings: None,
        };
        store.insert_game(&row).await.expect("insert");
        while game.outcome().is_none() && game.moves().len() < 200 {
            let pos = game.position().clone();
            let legal = pos.legal_moves();
            let m = if rng.below(8) == 0 {
                legal[rng.below(legal.len() as u64) as usize]
            } else {
                let limits = SearchLimits {
                    depth: Some(depths[pos.side_to_move().index()]),
                    ..SearchLimits::default()
                };
                match searcher.search(&pos, &[], &limits, &mut |_| {}).best {
                    Some(m) => m,
                    None => break,
                }
            };
            if game.play_move(m).is_err() {
                break;
            }
            let ply = game.moves().len() as i64 - 1;
            store
                .append_move(
                    &row,
                    &MoveRow {
                        ply,
                        seat: ply % 2,
                        mv: m.to_string(),
                        clocks: vec![600_000, 600_000],
                        at_ms: now,
                        draws: Vec::new(),
                    },
                    None,
                )
                .await
                .expect("move");
        }
        row.status = "finished".into();
        row.result = Some(match game.outcome().and_then(|o| o.winner) {
            Some(0) => "red".into(),
            Some(_) => "black".into(),
            None => "draw".into(),
        });
        row.reason = Some("resign".into());
        store.update_game(&row, None).await.expect("finish");
    }
    store.close().await;
}
