//! The Junqi commands of the built binary: `moves`, `perft`, `apply` on
//! full-information positions and `setup` (Q4, Q13).

use std::process::{Command, Output};

fn qiyuan(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_qiyuan"))
        .args(args)
        .output()
        .expect("run the qiyuan binary")
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
}

/// Both sides' standard set-up, red to move.
const START: &str = "cfmmd/gmzlj/s.p.t/pz.gy/l.d.t/ygcpc/YGCPC/L.D.T/PZ.GY/S.P.T/GMZLJ/CFMMD r 0 1";

#[test]
fn moves_perft_and_apply_speak_q13() {
    let o = qiyuan(&["moves", "--variant", "junqi-open", "--fen", START]);
    assert!(o.status.success(), "{}", text(&o));
    let moves: Vec<String> = text(&o).lines().map(str::to_string).collect();
    assert_eq!(moves.len(), 34);
    assert!(moves.contains(&"a6a7".to_string()) && moves.contains(&"c3c4".to_string()));
    let o = qiyuan(&["perft", "--variant", "junqi-open", "--fen", START, "2"]);
    let out = text(&o);
    assert!(out.contains("nodes 1168") && out.contains("nps "), "{out}");
    // The two front battalion commanders meet on file a: both removed.
    let o = qiyuan(&["apply", "--variant", "junqi-open", "--fen", START, "a6a7"]);
    let out = text(&o);
    assert!(out.contains("a6a7 both-removed"), "{out}");
    assert!(
        out.contains("fen cfmmd/gmzlj/s.p.t/pz.gy/l.d.t/.gcpc/.GCPC/"),
        "{out}"
    );
    // A move that ends the game prints the result.
    // Ranks 12 to 1: blue's flag on d12, a red platoon leader on d11.
    let won = "...f./...P./...../...../...../...../...../...../...../...../...../.F... r 0 1";
    let o = qiyuan(&["apply", "--variant", "junqi-open", "--fen", won, "d11d12"]);
    let out = text(&o);
    assert!(out.contains("result red flag-taken"), "{out}");
    // Errors name what is wrong.
    let o = qiyuan(&["apply", "--variant", "junqi-open", "--fen", START, "b6b7"]);
    assert!(!o.status.success());
    assert!(
        text(&o).contains("move 1 ('b6b7'): illegal move b6b7"),
        "{}",
        text(&o)
    );
    let o = qiyuan(&["moves", "--variant", "junqi-open", "--fen", "x"]);
    assert!(
        !o.status.success() && text(&o).contains("expected 4 fields"),
        "{}",
        text(&o)
    );
}

#[test]
fn setup_prints_ok_or_every_reason() {
    let o = qiyuan(&["setup", "--side", "red", "CFMMDGMZLJS.P.TPZ.GYL.D.TYGCPC"]);
    assert!(o.status.success());
    assert_eq!(text(&o).trim(), "ok");
    let o = qiyuan(&["setup", "--side", "blue", "CMFMDGMZLJSMP.TPZ.GYL.DGTYZCP."]);
    assert!(!o.status.success());
    let out = text(&o);
    for reason in [
        "the flag on c12 is not in a headquarters",
        "b10 is a camp: it starts empty",
        "the bomb on b7 is on the front row",
        "e7 is empty",
    ] {
        assert!(out.contains(reason), "{reason}: {out}");
    }
    let o = qiyuan(&["setup", "--side", "green", "x"]);
    assert!(!o.status.success() && text(&o).contains("red or blue"));
}

/// S15: the four-army CLI on full-information positions.
#[test]
fn s15_siguo_open_moves_perft_and_apply() {
    let small = "sSi9,sFh1,eFq8,ePq9,nFj17,nPi17,wFa10,wPa9 s - 0 1";
    let o = qiyuan(&["moves", "--variant", "siguo-open", "--fen", small]);
    let lines: Vec<String> = text(&o).lines().map(str::to_string).collect();
    assert_eq!(
        lines,
        [
            "i9i6", "i9i7", "i9f9", "i9g9", "i9k9", "i9l9", "i9i11", "i9i12"
        ],
        "one move a line, by start then end post (posts by rank, then file)"
    );
    let o = qiyuan(&["perft", "--variant", "siguo-open", "--fen", small, "3"]);
    assert!(text(&o).starts_with("nodes 32\n"), "{}", text(&o));
    // East's flag taken: East is out and its pieces leave, North moves
    // next; West plays on for its team.
    let fen = "sGq7,sFh1,nFj17,nPi17,eFq8,ePq9,wFa10,wPa9 s - 0 1";
    let o = qiyuan(&["apply", "--variant", "siguo-open", "--fen", fen, "q7q8"]);
    assert_eq!(
        text(&o),
        "q7q8 flag-taken\nout e flag-taken\nfen sFh1,sGq8,wPa9,wFa10,nPi17,nFj17 n e 0 1\n"
    );
    // Nobody else can move: East, North and West go out in turn and South
    // and North win.
    let fen = "sSi9,sFh1,eFq8,nFj17,wFa10 s - 0 1";
    let o = qiyuan(&["apply", "--variant", "siguo-open", "--fen", fen, "i9i7"]);
    assert!(text(&o).ends_with("result sn no-moves\n"), "{}", text(&o));
    // The finished position has no moves.
    let o = qiyuan(&[
        "perft",
        "--variant",
        "siguo-open",
        "--fen",
        "sFh1,sSi7 w enw 1 1",
        "1",
    ]);
    assert!(text(&o).starts_with("nodes 0\n"), "{}", text(&o));
    let o = qiyuan(&["apply", "--variant", "siguo-open", "--fen", small, "i9h9"]);
    assert!(!o.status.success());
    let o = qiyuan(&["moves", "--variant", "siguo-open", "--fen", "sXi9 s - 0 1"]);
    assert!(!o.status.success());
    // A set-up in its own frame serves every army (S7).
    let o = qiyuan(&["setup", "--side", "w", "CFMMDGMZLJS.P.TPZ.GYL.D.TYGCPC"]);
    assert_eq!(text(&o), "ok\n");
}
