//! Drives the built `qiyuan` binary: output formats of `perft`, `moves` and
//! `apply`, and the errors for illegal moves, unknown variants and bad FENs.

use std::collections::BTreeSet;
use std::process::{Command, Output};

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

fn qiyuan(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_qiyuan"))
        .args(args)
        .output()
        .expect("run the qiyuan binary")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("stderr is UTF-8")
}

/// Runs and expects success; returns stdout.
fn ok(args: &[&str]) -> String {
    let o = qiyuan(args);
    assert!(
        o.status.success(),
        "qiyuan {args:?} failed ({}): {}",
        o.status,
        stderr(&o)
    );
    stdout(&o)
}

/// Runs and expects failure; returns stderr.
fn fails(args: &[&str]) -> String {
    let o = qiyuan(args);
    assert!(
        !o.status.success(),
        "qiyuan {args:?} should fail, printed: {}",
        stdout(&o)
    );
    let err = stderr(&o);
    assert!(!err.trim().is_empty(), "qiyuan {args:?} failed silently");
    err
}

fn is_iccs(m: &str) -> bool {
    let b = m.as_bytes();
    b.len() == 4
        && (b'a'..=b'i').contains(&b[0])
        && b[1].is_ascii_digit()
        && (b'a'..=b'i').contains(&b[2])
        && b[3].is_ascii_digit()
}

// --- perft --------------------------------------------------------------------

#[test]
fn perft_prints_nodes_then_nps() {
    let out = ok(&["perft", "1"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert_eq!(lines[0], "nodes 44");
    let nps = lines[1]
        .strip_prefix("nps ")
        .expect("second line is `nps N`");
    nps.parse::<u64>().expect("nps is a whole number");

    let out = ok(&["perft", "3"]);
    assert_eq!(out.lines().next(), Some("nodes 79666"));
}

#[test]
fn perft_from_a_fen() {
    // chessprogramming wiki "Chinese Chess Perft Results", position 3: red in check, 7 replies.
    let fen = "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1";
    assert_eq!(
        ok(&["perft", "--fen", fen, "1"]).lines().next(),
        Some("nodes 7")
    );
    assert_eq!(
        ok(&["perft", "--fen", fen, "2"]).lines().next(),
        Some("nodes 281")
    );
}

#[test]
fn perft_divide_lists_every_root_move() {
    for (depth, total) in [(1u64, 44u64), (2, 1920)] {
        let out = ok(&["perft", "--divide", &depth.to_string()]);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 44 + 2, "{out}");
        let mut sum = 0;
        let mut moves = BTreeSet::new();
        for line in &lines[..44] {
            let (m, n) = line.split_once(' ').expect("`MOVE COUNT`");
            assert!(is_iccs(m), "{line}");
            assert!(moves.insert(m.to_string()), "{m} listed twice");
            let n: u64 = n.parse().expect("count");
            if depth == 1 {
                assert_eq!(n, 1, "{line}");
            }
            sum += n;
        }
        assert_eq!(sum, total);
        assert_eq!(lines[44], format!("nodes {total}"));
        assert!(lines[45].starts_with("nps "), "{}", lines[45]);
        // The root moves are the legal moves.
        let legal: BTreeSet<String> = ok(&["moves"]).lines().map(str::to_string).collect();
        assert_eq!(moves, legal);
    }
}

// --- moves ----------------------------------------------------------------------

fn move_set(fen: &str) -> BTreeSet<String> {
    ok(&["moves", "--fen", fen])
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn moves_of_the_start_position() {
    let moves = move_set(START);
    assert_eq!(moves.len(), 44);
    assert!(moves.iter().all(|m| is_iccs(m)), "{moves:?}");
    for m in ["h2e2", "b2e2", "h0g2", "c3c4", "a0a2", "e0e1", "f0e1"] {
        assert!(moves.contains(m), "{m} missing");
    }
    // Default position is the start position.
    assert_eq!(
        ok(&["moves"])
            .lines()
            .map(str::to_string)
            .collect::<BTreeSet<_>>(),
        moves
    );
}

#[test]
fn moves_respect_pins_and_facing_generals() {
    // The e1 chariot is pinned by the e8 chariot; the general may step aside.
    let got = move_set("4k4/4r4/9/9/9/9/9/9/4R4/4K4 w - - 0 1");
    let want: BTreeSet<String> = [
        "e0d0", "e0f0", "e1e2", "e1e3", "e1e4", "e1e5", "e1e6", "e1e7", "e1e8",
    ]
    .into_iter()
    .map(str::to_string)
    .collect();
    assert_eq!(got, want);
    // e0 would face the black general on the open e-file.
    assert_eq!(
        move_set("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1"),
        BTreeSet::from(["d0d1".to_string()])
    );
}

#[test]
fn moves_of_a_finished_position_is_empty() {
    // Checkmate and stalemate: no moves, and that is not an error.
    assert!(move_set("R3k4/1R7/9/9/9/9/9/9/9/3K5 b - - 0 1").is_empty());
    assert!(move_set("3k5/4R4/9/9/9/9/9/9/9/4K4 b - - 0 1").is_empty());
}

// --- apply ----------------------------------------------------------------------

#[test]
fn apply_prints_the_fen() {
    let out = ok(&["apply", "h2e2", "h9g7"]);
    assert_eq!(
        out.lines().next(),
        Some("fen rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2")
    );
    assert!(!out.contains("result"), "{out}");
    // No moves: the position itself.
    assert_eq!(
        ok(&["apply"]).lines().next(),
        Some(&*format!("fen {START}"))
    );
}

#[test]
fn apply_reports_checkmate() {
    // Two chariots: a9 checks, b8 covers rank 8, then a7 mates the d7 general.
    let out = ok(&[
        "apply",
        "--fen",
        "3k5/9/9/9/9/9/9/9/R8/1R2K4 w - - 0 1",
        "a1a9",
        "d9d8",
        "b0b8",
        "d8d7",
        "a9a7",
    ]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "fen 9/1R7/R2k5/9/9/9/9/9/9/4K4 b - - 5 3");
    assert!(lines.contains(&"result red checkmate"), "{out}");
}

#[test]
fn apply_reports_stalemate_as_a_loss() {
    // X1: the stalemated side loses. The red chariot steps to e8.
    let out = ok(&[
        "apply",
        "--fen",
        "3k5/9/9/9/4R4/9/9/9/9/4K4 w - - 0 1",
        "e5e8",
    ]);
    assert!(out.contains("result red stalemate"), "{out}");
}

#[test]
fn apply_refuses_an_illegal_move_naming_it_and_why() {
    // Geometry: a pawn does not move two points.
    let err = fails(&["apply", "e3e5"]);
    assert!(err.contains("e3e5"), "{err}");
    assert!(err.to_lowercase().contains("illegal"), "{err}");
    assert!(err.contains("pawn"), "{err}");

    // King safety: the pinned chariot may not leave the file.
    let err = fails(&[
        "apply",
        "--fen",
        "4k4/4r4/9/9/9/9/9/9/4R4/4K4 w - - 0 1",
        "e1d1",
    ]);
    assert!(err.contains("e1d1"), "{err}");
    assert!(err.contains("general"), "{err}");

    // The wrong side's piece, as the second move: the message says which move.
    let o = qiyuan(&["apply", "h2e2", "h2h9"]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(err.contains("h2h9") && err.contains("move 2"), "{err}");
    assert!(!stdout(&o).contains("fen "), "nothing printed on error");

    // Not ICCS at all.
    let err = fails(&["apply", "e3"]);
    assert!(err.contains("'e3'"), "{err}");
}

#[test]
fn apply_refuses_moves_after_the_end() {
    let err = fails(&[
        "apply",
        "--fen",
        "R3k4/1R7/9/9/9/9/9/9/9/3K5 b - - 0 1",
        "e9e8",
    ]);
    assert!(err.contains("e9e8") && err.contains("over"), "{err}");
}

// --- errors -----------------------------------------------------------------------

#[test]
fn unknown_variant_is_a_clear_error() {
    for args in [
        &["moves", "--variant", "chess"][..],
        &["perft", "--variant", "chess", "1"],
        &["apply", "--variant", "chess", "h2e2"],
    ] {
        let err = fails(args);
        assert!(err.contains("unknown variant 'chess'"), "{err}");
        assert!(err.contains("xiangqi"), "lists the known variants: {err}");
    }
}

#[test]
fn bad_fen_names_field_and_character() {
    // An unknown piece letter in the board field, 23rd character.
    let err = fails(&[
        "moves",
        "--fen",
        "rnbakabnr/9/1c5c1/p1p1x1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    ]);
    assert!(err.contains("field 1"), "{err}");
    assert!(err.contains("board"), "{err}");
    assert!(err.contains("character 23"), "{err}");
    assert!(err.contains("'x'"), "{err}");

    // A bad side to move, 61st character.
    let err = fails(&[
        "perft",
        "--fen",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x - - 0 1",
        "1",
    ]);
    assert!(err.contains("field 2"), "{err}");
    assert!(err.contains("side to move"), "{err}");
    assert!(err.contains("character 61"), "{err}");
    assert!(err.contains("'x'"), "{err}");

    // A bad fullmove number.
    let err = fails(&[
        "apply",
        "--fen",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 z",
    ]);
    assert!(err.contains("field 6") && err.contains("'z'"), "{err}");

    // Too few ranks.
    let err = fails(&[
        "moves",
        "--fen",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9 w",
    ]);
    assert!(err.contains("field 1") && err.contains("ranks"), "{err}");
}

#[test]
fn impossible_setups_are_refused() {
    // Generals facing with red to move: black would be "in check".
    let err = fails(&["moves", "--fen", "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"]);
    assert!(err.contains("check"), "{err}");
    // No red general.
    let err = fails(&[
        "moves",
        "--fen",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w",
    ]);
    assert!(err.contains("general"), "{err}");
}

/// A reader that goes away (`qiyuan puzzles stats … | head -1`) ends the command
/// quietly with status 141, as SIGPIPE ends a C tool: no panic message.
#[test]
fn a_closed_pipe_ends_a_command_quietly() {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let o = Command::new(env!("CARGO_BIN_EXE_qiyuan"))
        .args([
            "puzzles",
            "stats",
            concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../data/puzzles/jifen-match.csv"
            ),
        ])
        .stdout(writer)
        .output()
        .expect("run the qiyuan binary");
    assert_eq!(o.status.code(), Some(141), "{}", stderr(&o));
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
}
