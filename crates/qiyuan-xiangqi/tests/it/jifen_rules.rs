//! One test (or more) per Jifen decision J1-J23 of `shared/rules/jifen.md`.
//! Each builds a small position and checks the exact moves, scores or result
//! the decision implies. J19 (repetition) is covered with the repetition rules.

use std::collections::BTreeSet;

use qiyuan_core::{EndReason, GameRules};
use qiyuan_xiangqi::{Class, Color, Game, Position, Square, Variant, perft::perft};

const SIMPLE: Variant = Variant::JifenSimple;
const MATCH: Variant = Variant::JifenMatch;
const CONTEST: Variant = Variant::JifenContest;
const START: &str = qiyuan_xiangqi::START_FEN;

fn pos(v: Variant, fen: &str) -> Position {
    Position::from_fen_variant(fen, v, None).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn moves(p: &Position) -> BTreeSet<String> {
    p.legal_moves().iter().map(|m| m.to_string()).collect()
}

fn set(list: &[&str]) -> BTreeSet<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// Plays `mv` and returns the scores afterwards.
fn play(g: &mut Game, mv: &str) -> [i32; 2] {
    g.play(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    g.position().scores()
}

fn sq(s: &str) -> Square {
    Square::from_iccs(s).unwrap()
}

#[test]
fn j01_each_rule_set_has_its_own_classes() {
    // Start position: simple offers the Idle form of each move, match Small and Idle.
    let simple = moves(&pos(SIMPLE, START));
    assert_eq!(simple.len(), 88);
    assert!(simple.contains("h2e2*") && !simple.contains("h2e2-") && !simple.contains("h2e2+"));
    let matchr = moves(&pos(MATCH, START));
    assert_eq!(matchr.len(), 132);
    assert!(matchr.contains("h2e2-") && matchr.contains("h2e2*") && !matchr.contains("h2e2+"));
    // Contest after a capture: all four classes.
    let contest = moves(&pos(CONTEST, "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 5 0 0 1 x"));
    assert!(
        ["a0a1", "a0a1-", "a0a1+", "a0a1*"]
            .iter()
            .all(|m| contest.contains(*m))
    );
    // A class outside the rule set is refused in a FEN: Royal in match rules.
    assert!(Position::from_fen_variant("3k5/9/9/9/9/9/9/9/9/R+3K4 w", MATCH, None).is_err());
    assert!(
        Position::from_fen_variant("3k5/9/9/9/9/9/9/9/9/R*3K4 w", Variant::Xiangqi, None).is_err()
    );
}

#[test]
fn j02_geometry_ignores_class() {
    // An Idle black pawn on e5 still blocks the red chariot on e1 and still
    // screens the red cannon on a5.
    let p = pos(SIMPLE, "3k5/9/9/9/C3p*3r/9/9/9/4R4/5K3 w - - 0 1 0 0 1 -");
    let m = moves(&p);
    assert!(m.contains("e1e4") && m.contains("e1e5") && !m.contains("e1e6"));
    // The cannon captures the i5 chariot over the Idle pawn.
    assert!(m.contains("a5i5"));
    // An Idle cannon moves like a chariot but never captures.
    let p = pos(SIMPLE, "3k5/9/9/9/C*3p3r/9/9/9/9/5K3 w - - 0 1 0 0 1 -");
    let m = moves(&p);
    assert!(m.contains("a5d5") && !m.contains("a5e5") && !m.contains("a5i5"));
    assert!(m.contains("a5a9"));
}

#[test]
fn j03_the_general_may_change_class_and_stays_royal() {
    let m = moves(&pos(SIMPLE, "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1 0 0 1 -"));
    assert!(m.contains("e0e1*"));
    // An Idle general is still royal: it may not step onto the d-file that the
    // black chariot holds, whatever its class.
    let m = moves(&pos(
        SIMPLE,
        "3rk4/9/9/9/9/9/4P4/9/9/4K*4 w - - 0 1 0 0 1 -",
    ));
    assert!(!m.contains("e0d0") && !m.contains("e0d0*") && !m.contains("e0d0="));
    assert!(m.contains("e0e1") && m.contains("e0e1="));
}

#[test]
fn j04_small_does_not_capture_small_and_idle_captures_nothing() {
    // Match rules: red Small chariot a4, black Small chariot a6.
    let p = pos(MATCH, "3k5/9/9/r-8/9/R-8/9/9/9/4K4 w - - 0 1 0 0 1 -");
    let m = moves(&p);
    assert!(m.contains("a4a5") && !m.contains("a4a6") && !m.contains("a4a6-"));
    assert!(!p.is_attacked(sq("a6"), Color::Red));
    // A Normal chariot in its place captures.
    let p = pos(MATCH, "3k5/9/9/r-8/9/R8/9/9/9/4K4 w - - 0 1 0 0 1 -");
    assert!(moves(&p).contains("a4a6"));
    // A Small chariot captures a Normal piece.
    let p = pos(MATCH, "3k5/9/9/r8/9/R-8/9/9/9/4K4 w - - 0 1 0 0 1 -");
    assert!(moves(&p).contains("a4a6"));
    // An Idle chariot captures nothing.
    let p = pos(MATCH, "3k5/9/9/r8/9/R*8/9/9/9/4K4 w - - 0 1 0 0 1 -");
    assert!(!moves(&p).iter().any(|m| m.starts_with("a4a6")));
}

#[test]
fn j05_royal_pieces_may_not_be_left_attacked() {
    // Contest, after a capture: the red chariot a0 moves up the a-file, which
    // the black chariot on a9 holds. It may go there as Normal, Small or Idle,
    // but becoming Royal there would leave a royal piece attacked.
    let p = pos(CONTEST, "r2k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 9 0 0 1 x");
    let m = moves(&p);
    assert!(m.contains("a0a5") && m.contains("a0a5-") && m.contains("a0a5*"));
    assert!(!m.contains("a0a5+"));
    // Off the a-file it may become Royal.
    assert!(m.contains("a0b0+"));
    // A Royal piece already attacked must be saved: red Royal horse on c4 is
    // attacked by the black chariot on c9; moves that ignore it are illegal.
    let p = pos(CONTEST, "2rk5/9/9/9/9/2N+6/9/9/9/4K4 w - - 0 9 0 0 1 x");
    assert!(p.in_check());
    let m = moves(&p);
    assert!(!m.contains("e0e1"));
    // The horse is Royal already: c4d6 keeps the class, c4d6= sheds it.
    assert!(m.contains("c4d6") && m.contains("c4d6=") && !m.contains("c4d6+"));
    // A class changes only after its piece moves (J7), and nothing can interpose,
    // so every legal move takes the horse off the c-file.
    assert!(m.iter().all(|mv| mv.starts_with("c4")), "{m:?}");
    // The generals may not face each other, whatever their classes (simple rules).
    let p = pos(SIMPLE, "4k*4/9/9/9/9/4R*4/9/9/9/4K*4 w - - 0 1 0 0 1 -");
    let m = moves(&p);
    assert!(
        !m.iter()
            .any(|mv| mv.starts_with("e4d4") || mv.starts_with("e4f4"))
    );
    assert!(m.contains("e4e5"));
}

#[test]
fn j06_check_needs_a_capture_right() {
    // An Idle chariot facing the black general gives no check.
    let p = pos(SIMPLE, "4k4/9/9/9/4R*4/9/9/9/9/3K5 b - - 0 1 0 0 1 -");
    assert!(!p.in_check());
    assert!(moves(&p).contains("e9e8"));
    // A Small chariot facing a Small general gives no check (match).
    let p = pos(MATCH, "4k-4/9/9/9/4R-4/9/9/9/9/3K5 b - - 0 1 0 0 1 -");
    assert!(!p.in_check());
    // ... but a Normal one does.
    let p = pos(MATCH, "4k-4/9/9/9/4R4/9/9/9/9/3K5 b - - 0 1 0 0 1 -");
    assert!(p.in_check());
    // A discovered check counts: the horse leaves the e-file and uncovers the chariot.
    let p = pos(SIMPLE, "4k4/9/9/9/4N4/9/9/9/4R4/3K5 w - - 0 1 0 0 1 -");
    let m = p.parse_move("e5c6").unwrap();
    assert!(p.gives_check(m));
}

#[test]
fn j07_class_change_happens_before_legality_and_check() {
    // The red king may step onto e1, which a black Small chariot holds, only by
    // becoming Small there (match): the change is judged before legality.
    let p = pos(MATCH, "3k5/9/9/9/9/9/9/9/r-8/4K4 w - - 0 1 0 0 1 -");
    let m = moves(&p);
    assert!(!m.contains("e0e1") && !m.contains("e0e1*"));
    assert!(m.contains("e0e1-"));
    // A change can create a check: the Idle chariot steps onto the e-file and
    // becomes Normal. In simple rules that checking move scores -1 (J10).
    let mut g = Game::new(pos(SIMPLE, "4k4/9/9/9/3R*5/9/9/9/9/3K5 w - - 0 1 0 0 1 -"));
    assert_eq!(play(&mut g, "d5e5="), [-1, 0]);
    assert!(g.position().in_check());
    // Without the change the same move is an Idle move: +1, no check.
    let mut g = Game::new(pos(SIMPLE, "4k4/9/9/9/3R*5/9/9/9/9/3K5 w - - 0 1 0 0 1 -"));
    assert_eq!(play(&mut g, "d5e5"), [1, 0]);
    assert!(!g.position().in_check());
}

#[test]
fn j08_contest_class_changes_start_with_the_first_capture() {
    // No capture yet: only the capturing move a0a6 may change class.
    let p = pos(CONTEST, "3k5/9/9/p8/9/9/9/9/9/R3K4 w - - 0 2 0 0 1 -");
    let m = moves(&p);
    assert!(
        ["a0a6", "a0a6-", "a0a6+", "a0a6*"]
            .iter()
            .all(|x| m.contains(*x))
    );
    assert!(m.contains("a0a1") && !m.contains("a0a1*") && !m.contains("e0e1*"));
    let e = p.parse_move("a0a1*").unwrap_err().to_string();
    assert!(e.contains("J8"), "{e}");
    // After the first capture every move may.
    let p = pos(CONTEST, "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 9 0 0 1 x");
    assert!(moves(&p).contains("a0a1*"));
}

#[test]
fn j09_a_change_to_the_same_class_is_the_same_move() {
    let p = pos(SIMPLE, START);
    let plain = p.parse_move("h2e2").unwrap();
    assert_eq!(p.parse_move("h2e2=").unwrap(), plain);
    assert!(!moves(&p).iter().any(|m| m.ends_with('=')));
    let p = pos(SIMPLE, "3k5/9/9/9/9/9/9/9/9/R*3K4 w - - 0 1 0 0 1 -");
    assert_eq!(
        p.parse_move("a0a1*").unwrap(),
        p.parse_move("a0a1").unwrap()
    );
    assert!(moves(&p).contains("a0a1="));
}

#[test]
fn j10_scoring_table_per_rule_set() {
    let quiet = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1 0 0 1 -";
    // simple: Normal 0, Idle +1 for the mover.
    let mut g = Game::new(pos(SIMPLE, quiet));
    assert_eq!(play(&mut g, "a0a1*"), [0, 0]); // moved as Normal
    assert_eq!(play(&mut g, "d9d8"), [0, 0]);
    assert_eq!(play(&mut g, "a1a2"), [1, 0]); // moved as Idle
    // simple: an Idle piece whose move gives check scores -1, not -1+1.
    let mut g = Game::new(pos(SIMPLE, "4k4/9/9/9/9/9/9/9/R*8/3K5 w - - 0 1 0 0 1 -"));
    assert_eq!(play(&mut g, "a1a9="), [-1, 0]);
    // match: Normal gives the opponent +1, Small 0, Idle +1 for the mover.
    let mut g = Game::new(pos(MATCH, quiet));
    assert_eq!(play(&mut g, "a0a1-"), [0, 1]);
    assert_eq!(play(&mut g, "d9d8"), [1, 1]); // black's Normal general: red +1
    assert_eq!(play(&mut g, "a1a2*"), [1, 1]); // Small while moving: 0
    assert_eq!(play(&mut g, "d8d9"), [2, 1]);
    assert_eq!(play(&mut g, "a2b2"), [3, 1]); // Idle while moving: mover +1
    // match: a check gives the opponent +2 and nothing else.
    let mut g = Game::new(pos(MATCH, "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1 0 0 1 -"));
    assert_eq!(play(&mut g, "a1a9"), [0, 2]);
    // contest: Normal opp +1 (even when checking), Small 0, Royal and Idle mover +1.
    let fen = "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 9 0 0 1 x";
    let mut g = Game::new(pos(CONTEST, fen));
    assert_eq!(play(&mut g, "a1a9-"), [0, 1]);
    assert_eq!(play(&mut g, "e9e8"), [1, 1]);
    assert_eq!(play(&mut g, "a9a8+"), [1, 1]); // Small while moving
    assert_eq!(play(&mut g, "e8e9"), [2, 1]);
    assert_eq!(play(&mut g, "a8a7*"), [3, 1]); // Royal while moving
    assert_eq!(play(&mut g, "e9e8"), [4, 1]);
    assert_eq!(play(&mut g, "a7a6"), [5, 1]); // Idle while moving
}

#[test]
fn j10_check_term_applies_to_the_move_that_results_in_check() {
    let mut g = Game::new(pos(MATCH, "4k4/9/9/9/3R*5/9/9/9/9/3K5 w - - 0 1 0 0 1 -"));
    // Idle chariot, becomes Normal on the e-file: a check, scored +2 for black only.
    assert_eq!(play(&mut g, "d5e5="), [0, 2]);
}

#[test]
fn j11_target_is_a_game_setting() {
    let p = Position::from_fen_variant(START, SIMPLE, Some(2)).unwrap();
    assert_eq!(p.target(), 2);
    assert_eq!(pos(SIMPLE, START).target(), 30);
    assert_eq!(pos(MATCH, START).target(), 100);
    assert_eq!(pos(CONTEST, START).target(), 100);
    let mut g = Game::new(p);
    play(&mut g, "h2e2*");
    play(&mut g, "h9g7*");
    assert!(g.outcome().is_none());
    play(&mut g, "e2e1"); // Idle move: red 1
    play(&mut g, "g7h9"); // black 1
    assert_eq!(play(&mut g, "e1e2"), [2, 1]);
    let o = g.outcome().expect("red reached the target of 2");
    assert_eq!((o.winner, o.reason), (Some(0), EndReason::Points));
}

#[test]
fn j12_simple_and_match_turns_are_single_moves() {
    for v in [SIMPLE, MATCH] {
        let mut p = pos(v, START);
        let m = p.parse_move("h2e2").unwrap();
        p.make_move(m);
        assert_eq!(p.side_to_move(), Color::Black);
        assert_eq!(p.turn_state(), 1);
        assert!(!moves(&p).contains("0000"));
    }
}

#[test]
fn j13_contest_first_turn_is_one_move_without_capture() {
    let p = pos(CONTEST, START);
    assert!(p.is_contest_first_turn());
    let m = moves(&p);
    assert_eq!(m.len(), 42);
    assert!(!m.contains("h2h9") && !m.contains("b2b9")); // the two cannon captures
    assert!(!m.iter().any(|x| x.len() > 4)); // no class change before a capture (J8)
    let e = p.parse_move("h2h9").unwrap_err().to_string();
    assert!(e.contains("J13"), "{e}");
    let mut g = Game::new(p);
    play(&mut g, "h2e2");
    assert_eq!(g.position().side_to_move(), Color::Black);
    assert_eq!(g.position().turn_state(), 1);
}

#[test]
fn j14_double_turns_until_the_first_capture() {
    let mut g = Game::new(pos(CONTEST, START));
    play(&mut g, "h2e2"); // red's single first move; black +1 (contest Normal)
    assert_eq!(play(&mut g, "h9g7"), [1, 1]);
    // Black may move again or pass.
    let p = g.position();
    assert_eq!((p.side_to_move(), p.turn_state()), (Color::Black, 2));
    assert!(moves(p).contains("0000"));
    assert!(g.fen().ends_with(" 1 1 2 -"), "{}", g.fen());
    play(&mut g, "0000");
    assert_eq!(
        (g.position().side_to_move(), g.position().turn_state()),
        (Color::Red, 1)
    );
    // Red's turn: two moves, the second may capture; then single moves for good.
    play(&mut g, "b0c2");
    assert_eq!(g.position().turn_state(), 2);
    play(&mut g, "e2e6"); // the central cannon takes the e6 pawn
    assert!(g.position().any_capture());
    assert_eq!(
        (g.position().side_to_move(), g.position().turn_state()),
        (Color::Black, 1)
    );
    play(&mut g, "g7e6"); // captures the cannon back
    assert_eq!(g.position().side_to_move(), Color::Red);
    play(&mut g, "a0a1");
    assert_eq!(
        (g.position().side_to_move(), g.position().turn_state()),
        (Color::Black, 1)
    );
    // A pass is refused outside a double turn.
    assert!(g.play("0000").is_err());
}

#[test]
fn j14_a_capturing_first_move_ends_the_turn() {
    // Black's turn in the double-move phase; the chariot takes a pawn.
    let mut g = Game::new(pos(CONTEST, "3k4r/9/9/9/9/9/8P/9/9/4K4 b - - 0 3 0 0 1 -"));
    play(&mut g, "i9i3");
    assert_eq!(g.position().side_to_move(), Color::Red);
}

#[test]
fn j15_check_ends_a_double_turn() {
    // Black's first move of a turn gives check: the turn ends at once.
    let mut g = Game::new(pos(CONTEST, "3k5/9/9/9/9/9/9/9/r8/4K4 b - - 0 3 0 0 1 -"));
    play(&mut g, "a1a0");
    assert!(g.position().in_check());
    assert_eq!(
        (g.position().side_to_move(), g.position().turn_state()),
        (Color::Red, 1)
    );
    // Without the check black could have taken the general on its second move.
}

#[test]
fn j16_each_single_move_is_scored_and_judged() {
    // Black needs one point; its first move of the double turn is a Normal move,
    // which gives red +1... red needs one point too: red wins after black's first move.
    let mut g = Game::new(pos(CONTEST, "3k5/9/9/9/9/9/9/9/9/4K4 b - - 0 3 99 99 1 -"));
    assert_eq!(play(&mut g, "d9d8"), [100, 99]);
    let o = g.outcome().expect("red reached 100 on black's move");
    assert_eq!((o.winner, o.reason), (Some(0), EndReason::Points));
    // Scored move by move: an Idle first move then a Small second move.
    let mut g = Game::new(pos(CONTEST, "3k*5/9/9/9/9/9/9/9/9/4K4 b - - 0 3 0 0 1 -"));
    assert_eq!(play(&mut g, "d9d8"), [0, 1]);
    assert_eq!(g.position().turn_state(), 2);
    assert_eq!(play(&mut g, "d8d7"), [0, 2]);
    assert_eq!(g.position().side_to_move(), Color::Red);
}

#[test]
fn j17_points_win_at_once_even_for_the_opponent() {
    // Match rules: red mates with a Normal chariot, but the check gives black +2
    // and black was at 98 of 100: black wins on points before mate is judged.
    let fen = "4k4/1R7/9/9/9/9/9/9/9/R2K5 w - - 0 1 0 98 1 -";
    let mut g = Game::new(pos(MATCH, fen));
    // a0a9: chariot to the back rank, checkmate with the b8 chariot covering rank 8.
    play(&mut g, "a0a9");
    let o = g.outcome().expect("over");
    assert_eq!((o.winner, o.reason), (Some(1), EndReason::Points));
    // The same mate in simple rules (no points reached) is a checkmate win for red.
    let mut g = Game::new(pos(SIMPLE, &fen.replace(" 0 98 1 -", " 0 0 1 -")));
    play(&mut g, "a0a9");
    let o = g.outcome().expect("over");
    assert_eq!((o.winner, o.reason), (Some(0), EndReason::Checkmate));
}

#[test]
fn j18_no_move_at_the_start_of_a_turn_loses_but_a_second_move_can_pass() {
    // Black's general e9 cannot move: d/f files held by chariots, e8 by a pawn.
    let boxed = "4k4/9/4P4/9/3R1R3/9/9/9/9/4K4 b - - 0 3 0 0";
    let p = pos(CONTEST, &format!("{boxed} 2 -"));
    assert_eq!(moves(&p), set(&["0000"]));
    let g = Game::new(p);
    assert!(g.outcome().is_none());
    let g = Game::new(pos(CONTEST, &format!("{boxed} 1 -")));
    let o = g.outcome().expect("stalemate at the start of a turn");
    assert_eq!((o.winner, o.reason), (Some(0), EndReason::Stalemate));
}

#[test]
fn j20_move_limit_counts_plies_without_capture_or_score_change() {
    // Simple rules: Normal moves score nothing, so the counter runs.
    let mut g = Game::new(pos(
        SIMPLE,
        "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 298 150 0 0 1 -",
    ));
    play(&mut g, "a0a1");
    assert!(g.outcome().is_none());
    play(&mut g, "d9d8");
    let o = g.outcome().expect("300 plies");
    assert_eq!((o.winner, o.reason), (None, EndReason::MoveLimit));
    // A scoring move resets the counter.
    let mut g = Game::new(pos(
        SIMPLE,
        "3k5/9/9/9/9/9/9/9/9/R*3K4 w - - 299 150 0 0 1 -",
    ));
    play(&mut g, "a0a1");
    assert_eq!(g.position().halfmove_clock(), 0);
    assert!(g.outcome().is_none());
    // A pass does not count.
    let mut g = Game::new(pos(CONTEST, "3k5/9/9/9/9/9/9/9/9/R3K4 b - - 7 3 0 0 2 -"));
    play(&mut g, "0000");
    assert_eq!(g.position().halfmove_clock(), 7);
}

#[test]
fn j21_fen_with_classes_and_four_extra_fields() {
    let example =
        "rnbakabnr/9/1c-5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/R*NBAKABNR b - - 2 2 5 -3 1 -";
    let p = pos(CONTEST, example);
    assert_eq!(p.to_fen(), example);
    assert_eq!(p.scores(), [5, -3]);
    assert_eq!(p.piece_at(sq("a0")).unwrap().class(), Class::Idle);
    assert_eq!(p.piece_at(sq("b7")).unwrap().class(), Class::Small);
    // A six-field FEN means 0 0 1 -.
    assert_eq!(pos(MATCH, START).to_fen(), format!("{START} 0 0 1 -"));
    let err = |v, f: &str| {
        Position::from_fen_variant(f, v, None)
            .unwrap_err()
            .to_string()
    };
    // Turn state 2 with the capture flag is an error.
    assert!(err(CONTEST, &format!("{START} 0 0 2 x")).contains("turn state 2"));
    // A score already at the target is an error (the game is over).
    assert!(err(SIMPLE, &format!("{START} 30 0 1 -")).contains("reached the target"));
    // A class the rule set lacks, named with its character position.
    let e = err(
        SIMPLE,
        "rnbakabnr/9/1c-5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
    );
    assert!(
        e.contains("character 15") && e.contains("jifen-simple"),
        "{e}"
    );
    // Partial extra fields are an error.
    assert!(err(SIMPLE, &format!("{START} 0 0")).contains("four extra fields"));
}

#[test]
fn j22_move_notation_marks_and_pass() {
    let p = pos(CONTEST, "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 9 0 0 1 x");
    let m = p.parse_move("a0a1*").unwrap();
    assert_eq!(m.to_string(), "a0a1*");
    assert_eq!(m.new_class(), Some(Class::Idle));
    // Output writes a mark only when the class changes.
    assert_eq!(p.parse_move("a0a1=").unwrap().to_string(), "a0a1");
    let p = pos(CONTEST, "3k5/9/9/9/9/9/9/9/9/R3K4 b - - 0 3 0 0 2 -");
    assert_eq!(p.parse_move("0000").unwrap().to_string(), "0000");
}

#[test]
fn j23_perft_counts_class_changes_and_passes() {
    // Depth 1 from the start: simple 44 x {as is, Idle} = 88; match 44 x 3 = 132;
    // contest: turn 1 forbids the two cannon captures and class changes: 42.
    for (v, n) in [(SIMPLE, 88), (MATCH, 132), (CONTEST, 42)] {
        assert_eq!(perft(&mut pos(v, START), 1), n, "{v}");
    }
    // A second move of a double turn: the pass is one more move.
    let mut p = pos(CONTEST, "3k5/9/9/9/9/9/9/9/9/R3K4 b - - 0 3 0 0 2 -");
    let d = moves(&p);
    assert_eq!(perft(&mut p, 1), d.len() as u64);
    assert!(d.contains("0000"));
}
