//! X3 principle 1 across the search's root: a perpetual check that the game
//! began before the engine was asked must still be seen as a loss. Before
//! the fix the game's history reached the search as bare position keys, so a
//! cycle that began before the root was judged a plain draw, and in matches
//! against Fairy-Stockfish the engine twice walked into its own perpetual
//! check and lost by the rules.

use std::time::{Duration, Instant};

use qiyuan_core::GameRules;
use qiyuan_engine::rep::{Earlier, losing_repetitions};
use qiyuan_engine::search::MATE_BOUND;
use qiyuan_engine::{Level, Searcher};
use qiyuan_xiangqi::{Game, Position, START_FEN, Variant};

/// Plays `moves` from `fen`: the position reached and the game's history.
fn game(fen: &str, moves: &str) -> (Position, Vec<Earlier>) {
    let mut pos = Position::from_fen(fen).expect("FEN");
    let mut history = Vec::new();
    for text in moves.split_whitespace() {
        let m = pos.parse_move(text).expect("legal");
        history.push(Earlier::play(&mut pos, m));
    }
    (pos, history)
}

#[test]
fn repeating_a_perpetual_check_begun_in_the_game_scores_as_a_loss() {
    // Red's chariot checked from a9 and a8 while black's general stepped
    // d9-d8-d9: the start position is back for the second time, red to move.
    let (pos, history) = game("3k5/R8/9/9/9/9/9/9/9/4K4 w", "a8a9 d9d8 a9a8 d8d9");
    assert!(
        history
            .iter()
            .filter(|e| e.mover == qiyuan_xiangqi::Color::Red)
            .all(|e| e.gave_check)
    );
    // a8a9 checks again and brings back a position of the cycle: red's
    // perpetual check, red loses.
    let s = root_score(&pos, &history, "a8a9");
    assert!(s < -MATE_BOUND, "a8a9 scored {s}");
    // Without that history the same move is just a check.
    let s = root_score(&pos, &[], "a8a9");
    assert!(s > -MATE_BOUND, "{s}");
    // And the engine plays something else.
    let g = rules_game("3k5/R8/9/9/9/9/9/9/9/4K4 w", "a8a9 d9d8 a9a8 d8d9");
    let best =
        qiyuan_engine::best_move(&g, Level::new(8), Duration::from_millis(300)).expect("a move");
    assert_ne!(best.to_string(), "a8a9");
}

/// The depth-3 score of root move `mv` in `pos` after the game `history`.
fn root_score(pos: &Position, history: &[Earlier], mv: &str) -> i32 {
    let mut searcher = Searcher::new(4);
    let deadline = Instant::now() + Duration::from_secs(60);
    let scored = searcher
        .score_root_moves(pos, history, &[], 3, deadline)
        .expect("in time");
    scored
        .iter()
        .find(|(m, _)| m.to_string() == mv)
        .map(|&(_, s)| s)
        .expect("a root move")
}

/// The rules crate's game after `moves` from `fen`.
fn rules_game(fen: &str, moves: &str) -> Game {
    let mut g = Game::new(Position::from_fen(fen).expect("FEN"));
    for text in moves.split_whitespace() {
        let m = g.position().parse_move(text).expect("legal");
        g.play_move(m).expect("playable");
    }
    g
}

/// The winner once the rules rule on `g` with `moves` played on (it must end).
fn winner_after(g: &Game, moves: &[&str]) -> Option<usize> {
    let mut on = g.clone();
    for text in moves {
        let m = on.position().parse_move(text).expect("legal");
        on.play_move(m).expect("playable");
    }
    on.outcome().expect("the repetition is ruled").winner
}

/// The moves the root filter finds lost by repetition in `g`, as text.
fn losing_moves(g: &Game) -> Vec<String> {
    losing_repetitions(g.start(), g.moves())
        .iter()
        .map(|m| m.to_string())
        .collect()
}

#[test]
fn a_move_that_completes_a_perpetual_chase_is_never_played() {
    // X3 (chase of an unprotected piece): black's cannon shuttles a7-a6 and
    // red's chariot follows it f6-f7-f6, attacking it anew with each move.
    // After six plies red to move: f7f6 brings back the start position's
    // cycle, and black's a6a7 then completes the third occurrence, which
    // the rules rule lost for red (perpetual chase). Chases are not seen by
    // the search itself; the root filter must catch it.
    let fen = "3k5/9/c8/5R3/9/9/9/9/9/4K4 w";
    let prefix = "f6f7 a7a6 f7f6 a6a7 f6f7 a7a6";
    let g = rules_game(fen, prefix);
    // The rules agree: playing on with f7f6 a6a7 loses for red by chase.
    assert_eq!(winner_after(&g, &["f7f6", "a6a7"]), Some(1));
    assert_eq!(losing_moves(&g), ["f7f6"]);
    for level in [1, 8] {
        let best = qiyuan_engine::best_move(&g, Level::new(level), Duration::from_millis(200))
            .expect("a move");
        assert_ne!(best.to_string(), "f7f6", "level {level}");
    }
    // Without the history there is nothing to avoid.
    let fresh = rules_game(fen, "");
    assert!(losing_repetitions(fresh.start(), fresh.moves()).is_empty());
}

/// The moves of a jifen-simple game from the stop-29 SPRT (round 8 of
/// `docs/matches/jifen_simple_tuned.pgn`) up to red's 33rd move. Red's horse
/// has been checking from d6 and f7 while black's general stepped e9-e8-e9,
/// changing class each time; every check cost red a point (J10).
const JIFEN_SIMPLE_PERPETUAL: &str = "b2b3 h7h8 h2e2 h8d8 b3b1 d8c8 e2e6 h9g7 e6e5 e9e8* \
    h0g2 e8f8= b1f1 b9c7 i0h0 b7b2 h0h6 i9i7 h6g6 f8e8* g6e6 e8d8= e6d6 d8e8 d6d7 g7f5* \
    d7d9 f5h4= g2e1 i7g7 d9f9 g7g3 b0c2 c6c5 f9f7 c7d5 a0b0 a9b9 f1f2 b2b1 f7f6 e8e9* \
    f6e6 e9f9= e1f3 c8f8 f3g5 h4f5 g5f7 b9b8 e6d6 f8g8 d6d5 g8g0 f0e1* g0i0 f7d6 f9e9 \
    d6f7 e9e8* f7d6 e8e9= d6f7 e9e8*";

#[test]
fn a_jifen_perpetual_check_whose_checks_change_the_score_is_still_seen() {
    // J19: perpetual check is forbidden even while scores change. The
    // engine used to end the repetition stretch at every score change (the
    // halfmove clock's reset), never saw this cycle, played f7d6 again and
    // lost by perpetual check.
    let start = Position::from_fen_variant(START_FEN, Variant::JifenSimple, None).expect("FEN");
    let mut g = Game::new(start.clone());
    let mut history = Vec::new();
    let mut pos = start.clone();
    for text in JIFEN_SIMPLE_PERPETUAL.split_whitespace() {
        let m = pos.parse_move(text).expect("legal");
        history.push(Earlier::play(&mut pos, m));
        g.play_move(m).expect("playable");
    }
    assert!(g.outcome().is_none());
    // The rules: f7d6 and black's e8e9= complete the third occurrence, red loses.
    assert_eq!(winner_after(&g, &["f7d6", "e8e9="]), Some(1));
    // The root filter names the move.
    let lost = losing_moves(&g);
    assert!(lost.contains(&"f7d6".to_string()), "{lost:?}");
    // The search itself scores it as lost.
    let v = root_score(&pos, &history, "f7d6");
    assert!(v < -MATE_BOUND, "f7d6 scored {v}");
    // And the engine plays something else.
    let best =
        qiyuan_engine::best_move(&g, Level::new(8), Duration::from_millis(300)).expect("a move");
    assert_ne!(best.to_string(), "f7d6");
}
