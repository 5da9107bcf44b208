//! Perft for the three Jifen rule sets (J23: every class-change form is its own
//! move, a pass is a move). Depth-1 and depth-2 numbers are derived by hand in
//! the comments; deeper numbers are regression values of this generator, whose
//! legality filter is also checked against make-and-test on every node.

use qiyuan_xiangqi::{Position, Variant, perft::perft};

const START: &str = qiyuan_xiangqi::START_FEN;

fn perft_of(v: Variant, fen: &str, depth: u32) -> u64 {
    let mut p = Position::from_fen_variant(fen, v, None).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let n = perft(&mut p, depth);
    assert_eq!(
        p.to_fen(),
        Position::from_fen_variant(fen, v, None).unwrap().to_fen()
    );
    n
}

/// Start position, simple rules.
/// d1 = 88: each of Xiangqi's 44 moves as is or turning Idle (J1, J7).
/// d2 = 7692: every red form meets 1920/44-style replies doubled for black's two
/// forms, so 4 x 1920 = 7680, plus 12: after h2h9* or b2b9* (a cannon takes a
/// horse and turns Idle) the cannon no longer pins black's elephant (2 moves)
/// and advisor (1 move) that screen the general on rank 9: 2 x 3 more replies,
/// each in 2 forms.
#[test]
fn simple_start() {
    let d = [88, 7692, 636_332];
    for (i, &n) in d.iter().enumerate() {
        assert_eq!(
            perft_of(Variant::JifenSimple, START, i as u32 + 1),
            n,
            "depth {}",
            i + 1
        );
    }
}

/// Depth 4 of [`simple_start`].
#[test]
#[ignore = "slow tier"]
fn simple_start_depth_4() {
    assert_eq!(perft_of(Variant::JifenSimple, START, 4), 52_519_488);
}

/// Start position, match rules.
/// d1 = 132: 44 moves x {as is, Small, Idle}.
/// d2 = 17298 = 3 x (3 x 1920 + 6): black's replies come in 3 forms; only the
/// Idle forms of the two cannon captures free 3 pinned black moves each (a
/// Small cannon still attacks the Normal general, so it still pins).
#[test]
fn match_start() {
    let d = [132, 17_298, 2_148_708];
    for (i, &n) in d.iter().enumerate() {
        assert_eq!(
            perft_of(Variant::JifenMatch, START, i as u32 + 1),
            n,
            "depth {}",
            i + 1
        );
    }
}

/// Depth 4 of [`match_start`].
#[test]
#[ignore = "slow tier"]
fn match_start_depth_4() {
    assert_eq!(perft_of(Variant::JifenMatch, START, 4), 266_088_960);
}

/// Start position, contest rules.
/// d1 = 42: turn 1 is one move without capture (J13), so the two cannon
/// captures go, and no class change before the first capture (J8).
/// d2 = 1978: black's first move of its double turn. In plain Xiangqi the 42
/// red moves leave 1838 replies (1920 minus the 41 after each cannon capture).
/// Black's cannon captures h7h0 / b7b0 are the first capture, so each may also
/// change class: Small and Idle always, Royal only if the landing point is not
/// attacked. Red's a0/i0 chariot guards b0/h0, so Royal is legal only where
/// that chariot moved away. 22 red moves keep both captures (+2 +2), 16 remove
/// one (a horse moves or a cannon leaves its file: +2), and the 4 chariot moves
/// keep both but unguard one (+2 +3): 1838 + 88 + 32 + 20 = 1978.
#[test]
fn contest_start() {
    let d = [42, 1978, 114_619];
    for (i, &n) in d.iter().enumerate() {
        assert_eq!(
            perft_of(Variant::JifenContest, START, i as u32 + 1),
            n,
            "depth {}",
            i + 1
        );
    }
}

/// Depth 4 of [`contest_start`].
#[test]
#[ignore = "slow tier"]
fn contest_start_depth_4() {
    assert_eq!(perft_of(Variant::JifenContest, START, 4), 9_375_301);
}

/// Contest, second move of black's double turn, scores 4:2, no capture yet.
/// d1 = 2: the general's only move d9d8 (e9 faces red's general, c9 is outside
/// the palace, no class change before a capture) and the pass 0000.
/// d2 = 28: either way red then starts a turn with 12 chariot moves (a1-a9,
/// b0-d0) and 2 general moves (e1, f0; d0 faces black's general): 14 + 14.
#[test]
fn contest_second_move_of_a_double_turn() {
    let fen = "3k5/9/9/9/9/9/9/9/9/R3K4 b - - 0 3 4 2 2 -";
    assert_eq!(perft_of(Variant::JifenContest, fen, 1), 2);
    assert_eq!(perft_of(Variant::JifenContest, fen, 2), 28);
    assert_eq!(perft_of(Variant::JifenContest, fen, 3), 457);
    assert_eq!(perft_of(Variant::JifenContest, fen, 4), 646);
}

/// Simple, red's Idle chariot on a0, scores 7:-2.
/// d1 = 28: 12 chariot moves and 2 general moves (e1, f0), each as is or
/// changing class (the chariot to Normal `=`, the general to Idle `*`).
/// d2 = 56. Black's general answers d8 or e9, in 2 forms each:
/// - 12 Idle chariot moves: only d8 (e9 faces red's general): 12 x 2 = 24;
/// - Normal chariot on a1-a7, b0, c0: d8 only, 9 x 2 = 18; on a8: d8 is
///   attacked and e9 faces: 0 (stalemate); on a9: check, d8 escapes: 2;
///   on d0: check on the d-file, d8 attacked, e9 faces: mate, 0. Sum 20;
/// - general to e1 (2 forms): d8 only, 2 x 2 = 4; to f0 (2 forms): d8 and
///   e9, 2 x 4 = 8. Sum 12.
#[test]
fn simple_idle_chariot() {
    let fen = "3k5/9/9/9/9/9/9/9/9/R*3K4 w - - 3 20 7 -2 1 -";
    assert_eq!(perft_of(Variant::JifenSimple, fen, 1), 28);
    assert_eq!(perft_of(Variant::JifenSimple, fen, 2), 56);
    assert_eq!(perft_of(Variant::JifenSimple, fen, 3), 1932);
    assert_eq!(perft_of(Variant::JifenSimple, fen, 4), 7576);
}

/// Match, Small chariots face each other on the a-file, scores 50:61.
/// d1 = 13: red's Small chariot cannot take the Small a1 chariot (J4), so it
/// has b0, c0, d0 in 3 forms (9). The general: f0 in 3 forms; e1 is attacked
/// by the Small chariot unless the general becomes Small there (J7): e0e1-
/// only; d0 faces black's general. 9 + 3 + 1.
/// d2 = 583. Black's general has d8 (3 forms) and e9 (3 forms, legal only when
/// red's general left the e-file); black's chariot has a2-a9, b1-i1 and a0
/// once red's chariot left it, each in 3 forms:
/// - chariot to b0 or c0 (6 moves): d8 x3 + 17 chariot moves x3 = 54 each: 324;
/// - a0d0 (still Small): check on the d-file; block with a1d1 (3 forms), or
///   d9d8- (a Small general is safe from a Small chariot): 4;
///   a0d0= (Normal): only the 3 blocks: 3; a0d0*: no check, 54. Sum 61;
/// - e0e1- (Small general on e1): d8 x3; the chariot has a2-a9, b1-d1 (it may
///   not take the Small general, nor the Small chariot on a0): 11 x 3. 36;
/// - e0f0 in 3 forms: d8 and e9 x3 = 6, chariot 16 x 3 = 48: 54 each, 162.
///   324 + 61 + 36 + 162 = 583.
#[test]
fn match_small_chariots() {
    let fen = "3k5/9/9/9/9/9/9/9/r-8/R-3K4 w - - 0 30 50 61 1 -";
    assert_eq!(perft_of(Variant::JifenMatch, fen, 1), 13);
    assert_eq!(perft_of(Variant::JifenMatch, fen, 2), 583);
    assert_eq!(perft_of(Variant::JifenMatch, fen, 3), 21_315);
    assert_eq!(perft_of(Variant::JifenMatch, fen, 4), 953_522);
}

/// Contest after a capture, red's Royal chariot on a0, scores 40:45.
/// d1 = 56: 12 chariot moves x 4 forms (no landing point is attacked, so
/// staying Royal is always legal) + 2 general moves (e1, f0) x 4 forms.
/// d2 = 218. Black's general has d8 and e9 in 4 forms each:
/// - chariot (any form but Idle attacks) on a1-a7: d8 x4 = 4; 28 moves: 112;
/// - on a8: Royal or Normal: d8 attacked, e9 faces: 0 each; Small: only
///   d9d8- (Small general); Idle: d8 x4. Sum 5;
/// - on a9: check, d8 x4 escapes in every form: 16;
/// - on b0, c0: d8 x4: 8 moves x 4 = 32;
/// - on d0: Royal, Normal: mate, 0; Small: d9d8- only; Idle: d8 x4. Sum 5;
/// - general to e1 (4 forms): d8 x4 = 16; to f0 (4 forms): d8 and e9 x4 = 32.
///   112 + 5 + 16 + 32 + 5 + 48 = 218.
#[test]
fn contest_royal_chariot() {
    let fen = "3k5/9/9/9/9/9/9/9/9/R+3K4 w - - 0 12 40 45 1 x";
    assert_eq!(perft_of(Variant::JifenContest, fen, 1), 56);
    assert_eq!(perft_of(Variant::JifenContest, fen, 2), 218);
    assert_eq!(perft_of(Variant::JifenContest, fen, 3), 15_128);
}

/// Full mid-game positions reached by play: regression values at depths
/// 1-3 (`d3` true; the slow tier) or 1-2.
fn midgame_positions_to(d3: bool) {
    let cases: [(Variant, &str, [u64; 3]); 4] = [
        (
            Variant::JifenSimple,
            "r1bakabr*1/9/1cn3nc1/p3C1p1p/2p*6/9/P1P1P1P1P/1CN3N*2/9/R1BAKAB1R w - - 3 5 0 0 1 x",
            [78, 5288, 409_240],
        ),
        (
            Variant::JifenMatch,
            "r1bakabr1/9/1cn3n*c1/p3C*1p1p/2p-6/9/P1P1P1P1P/1CN*3N2/9/R1BAKAB1R w - - 0 5 4 3 1 x",
            [114, 12_873, 1_473_537],
        ),
        (
            Variant::JifenContest,
            "rnbakabr1/9/1c4nc1/p1p1p3p/6p2/9/P1P1P1P1P/1CN1C4/9/R1BAKABNR b - - 0 2 3 2 2 -",
            [40, 1505, 83_753],
        ),
        (
            Variant::JifenContest,
            "rnbakabr-1/9/1c5c1/p1p1n*3p/6p2/9/P1P1P1P1P/1CN3N+2/9/R1BAKAB1R w - - 0 4 4 4 1 x",
            [120, 23_119, 2_760_110],
        ),
    ];
    let depths = if d3 { 3 } else { 2 };
    for (v, fen, want) in cases {
        let got: Vec<u64> = (1..=depths).map(|d| perft_of(v, fen, d)).collect();
        assert_eq!(got, want[..depths as usize], "{v} {fen}");
    }
}

#[test]
fn midgame_positions() {
    midgame_positions_to(false);
}

#[test]
#[ignore = "slow tier"]
fn midgame_positions_depth_3() {
    midgame_positions_to(true);
}

/// J17: at 29:28 with target 30 (simple rules), red's Idle chariot has 12
/// points to go to (a1-a9, b0-d0), each as Idle or turned Normal: 24 moves.
/// Moving an Idle piece scores +1 and wins at once, so perft counts nothing
/// below 23 of them. The exception is a0a9 turning Normal: the Normal chariot
/// on a9 checks the general on d9, and a checking move scores only its check
/// term, -1 (J10), so black replies. The general's moves score nothing.
#[test]
fn j17_nothing_is_counted_below_a_winning_move() {
    let fen = "3k5/9/9/9/9/9/9/9/9/R*3K4 w - - 0 1 29 28 1 -";
    let mut p = Position::from_fen_variant(fen, Variant::JifenSimple, None).expect("valid");
    let split = qiyuan_xiangqi::perft::divide(&mut p, 2);
    let chariot: Vec<_> = split
        .iter()
        .filter(|(m, _)| m.from().to_string() == "a0")
        .collect();
    assert_eq!(chariot.len(), 24, "{split:?}");
    for (m, n) in &chariot {
        if m.to_string() == "a0a9=" {
            assert!(*n > 0, "the checking move does not win: {split:?}");
        } else {
            assert_eq!(*n, 0, "{m} wins at once: {split:?}");
        }
    }
    let general: Vec<_> = split
        .iter()
        .filter(|(m, _)| m.from().to_string() == "e0")
        .collect();
    assert!(!general.is_empty());
    assert!(general.iter().all(|(_, n)| *n > 0), "{general:?}");
    let total: u64 = split.iter().map(|(_, n)| n).sum();
    assert_eq!(perft(&mut p, 2), total);
    // At depth 1 the winning moves themselves are still counted.
    assert_eq!(perft(&mut p, 1), split.len() as u64);
}
