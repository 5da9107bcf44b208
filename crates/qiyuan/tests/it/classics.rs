//! Classic composed endgames (排局, issue 40): every shipped one is a
//! legal Xiangqi position, not over, with its side to move stated, and its
//! name and result given; the ones with a published main line replay it;
//! `GET /api/puzzles/classics` lists them and a game against the computer
//! starts from one.

use qiyuan_core::GameRules;
use qiyuan_hall::client;
use qiyuan_hall::server::Config;
use qiyuan_xiangqi::{Game, Position, Variant};
use serde_json::{Value, json};

use crate::common::{start_games, temp_db};

/// The shipped file, read as the binary reads it.
fn shipped() -> Vec<qiyuan_hall::domain::classics::ClassicRecord> {
    qiyuan::classics(&qiyuan::games())
}

#[test]
fn every_shipped_classic_is_legal_not_over_and_states_its_side() {
    let all = shipped();
    assert!(!all.is_empty(), "no classics shipped");
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/classics/xiangqi.tsv"
    ))
    .expect("data/classics/xiangqi.tsv");
    let rows = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#') && !l.starts_with("id\t"))
        .count();
    assert_eq!(all.len(), rows, "a row of the file did not read");
    let games = qiyuan::games();
    let mut ids = std::collections::HashSet::new();
    for c in &all {
        assert!(ids.insert(c.id.clone()), "{}: id twice", c.id);
        assert_eq!(c.variant, "xiangqi");
        assert!(
            ["win", "draw", "loss"].contains(&c.result.as_str()),
            "{}: result {}",
            c.id,
            c.result
        );
        assert!(!c.name.is_empty() && !c.gloss.is_empty(), "{}: name", c.id);
        // The side to move is stated, not left to a default.
        let side = c.fen.split_whitespace().nth(1);
        assert!(
            matches!(side, Some("w" | "b")),
            "{}: no side to move in {:?}",
            c.id,
            c.fen
        );
        let pos = Position::from_fen_variant(&c.fen, Variant::Xiangqi, None)
            .unwrap_or_else(|e| panic!("{}: {e}", c.id));
        // Legal: the side that just moved is not in check, and the game is not over.
        let mut other = pos.clone();
        other.make_null_move();
        assert!(
            !other.in_check(),
            "{}: the side not to move is in check",
            c.id
        );
        assert!(!pos.legal_moves().is_empty(), "{}: no legal move", c.id);
        let game = Game::new(pos);
        assert!(game.outcome().is_none(), "{}: already over", c.id);
        // The hall accepts it too, through the game kind.
        let view = qiyuan_hall::domain::classics::check(&games, c)
            .unwrap_or_else(|e| panic!("{}: {e}", c.id));
        assert_eq!(view.to_move, usize::from(side == Some("b")));
    }
}

/// A published main line replays from the shipped position: a strong check
/// that the diagram was written down right (every move of it is legal, in
/// Chinese notation, forced checks included).
#[test]
fn published_main_lines_replay_from_the_shipped_positions() {
    // 七星聚会 (《竹香斋》's main line, the first 22 moves).
    let lines = [(
        "qixing-juhui",
        "1. 炮二平四 卒5平6 2. 兵四进一 将6进1 3. 车三进八 将6退1 4. 车二进一 前卒平5 \
         5. 车二平五 卒4平5 6. 帅五进一 卒6进1 7. 帅五进一 车5平3 8. 兵六平七 车3平1 \
         9. 车三退一 将6进1 10. 车三进一 将6退1 11. 车三退二 车1进7 12. 车三平四 将6平5 \
         13. 车四退五 卒2平3 14. 车四平六 卒3进1 15. 车六进一 车1退2 16. 车六进五 车1平5 \
         17. 帅五平六 车5进4 18. 车六进二 将5进1 19. 车六平二 车5平1 20. 帅六平五 卒3平4 \
         21. 车二平六 车1平9 22. 车六平四 车9退2",
    )];
    let all = shipped();
    for (id, line) in lines {
        let c = all
            .iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| panic!("{id} not shipped"));
        let pgn = format!("[Game \"Chinese Chess\"]\n[FEN \"{}\"]\n\n{line}\n", c.fen);
        let g = qiyuan_import::import(pgn.as_bytes()).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(g.main_line().len(), 44, "{id}: the line stopped early");
    }
}

/// Each of the four great endgames carries the material its description
/// gives (a guard against a piece dropped or misread in transcription):
/// every side's pieces as sorted FEN letters.
#[test]
fn the_four_great_endgames_carry_their_described_material() {
    let described = [
        // Seven a side: two chariots, a cannon, three pawns; a chariot, an elephant, four pawns.
        ("qixing-juhui", "CKPPPRR", "bkppppr"),
        // Two chariots and a pawn; three pawns, both advisors, one elephant.
        ("qiuyin-jianglong", "KPRR", "aabkppp"),
        // A horse, two chariots, two elephants, two pawns; a chariot, two pawns, full guards.
        ("yema-caotian", "BBKNPPRR", "aabbkppr"),
        // The lone chariot with two pawns; a horse, an advisor, an elephant, four pawns.
        ("qianli-duxing", "KPPR", "abknpppp"),
    ];
    let all = shipped();
    for (id, red, black) in described {
        let c = all
            .iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| panic!("{id} not shipped"));
        let board = c.fen.split_whitespace().next().unwrap_or_default();
        let side = |upper: bool| {
            let mut v: Vec<char> = board
                .chars()
                .filter(|ch| ch.is_ascii_alphabetic() && ch.is_ascii_uppercase() == upper)
                .collect();
            v.sort_unstable();
            v.into_iter().collect::<String>()
        };
        assert_eq!(
            (side(true), side(false)),
            (red.into(), black.into()),
            "{id}"
        );
    }
}

async fn get(addr: &str, path: &str) -> (u16, Value) {
    let r = client::get(addr, path, None).await.expect("request");
    (r.status, r.json())
}

#[tokio::test]
async fn the_classics_are_listed_and_a_game_starts_from_one() {
    let dir = temp_db("classics");
    let (_running, addr) = start_games(
        Config {
            port: 0,
            database: format!("sqlite://{}", dir.display()),
            rate_per_sec: 0,
            ..Config::default()
        },
        qiyuan::games(),
    )
    .await;
    let (status, body) = get(&addr, "/api/puzzles/classics?variant=xiangqi").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["variant"], "xiangqi");
    let list = body["classics"].as_array().expect("classics");
    assert_eq!(list.len(), shipped().len());
    let c = list
        .iter()
        .find(|c| c["id"] == "qixing-juhui")
        .expect("七星聚会");
    assert_eq!(c["name"], "七星聚会");
    assert_eq!(c["result"], "draw");
    assert_eq!(c["to_move"], 0);
    assert_eq!(c["seat"], "red");
    assert!(
        c["board"].as_str().is_some_and(|b| b.starts_with("4rk3/")),
        "{c}"
    );

    // The default variant is the first with classics; unknown variants and
    // bad queries are answered, not failed.
    let (status, body) = get(&addr, "/api/puzzles/classics").await;
    assert_eq!((status, body["variant"].clone()), (200, json!("xiangqi")));
    let (status, body) = get(&addr, "/api/puzzles/classics?variant=no-such-game").await;
    assert_eq!(
        (status, body["code"].clone()),
        (404, json!("no_puzzle")),
        "{body}"
    );
    let (status, body) = get(&addr, "/api/puzzles/classics?variant=banqi").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["classics"], json!([]));
    let (status, _) = get(&addr, "/api/puzzles/classics?colour=red").await;
    assert_eq!(status, 400);

    // A game against the computer from it, the player moving first.
    let token = crate::common::register(&addr, "classic_fan").await;
    let r = client::post(
        &addr,
        "/api/games",
        Some(&token),
        &json!({"game": "xiangqi", "opponent": "ai:1", "rated": false, "fen": c["fen"], "seat": c["seat"]}),
    )
    .await
    .expect("create");
    assert!(r.status == 200 || r.status == 201, "{}", r.body);
    let id = r.json()["id"].as_str().expect("id").to_string();
    let (status, g) = get(&addr, &format!("/api/games/{id}")).await;
    assert_eq!(status, 200, "{g}");
    assert!(g.to_string().contains("4rk3/3P5/4bP3"), "{g}");
}
