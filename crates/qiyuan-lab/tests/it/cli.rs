//! The `qiyuan-lab` binary: its subcommands and a short match between two
//! copies of its own engine.

use std::process::Command;

fn lab(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_qiyuan-lab"))
        .args(args)
        .output()
        .expect("run qiyuan-lab")
}

#[test]
fn help_lists_the_lab_commands() {
    let out = lab(&["--help"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for cmd in ["match", "tune", "nnue-data", "nnue-train", "engine"] {
        assert!(text.contains(cmd), "{cmd} missing from:\n{text}");
    }
}

#[test]
fn a_two_game_match_between_fixed_depth_engines_reports_its_score() {
    let out = lab(&[
        "match",
        "--engine1",
        "qiyuan-lab engine --level 8",
        "--engine2",
        "qiyuan engine --level 8",
        "--games",
        "2",
        "--go1",
        "depth 1",
        "--go2",
        "depth 1",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("games 2"), "{text}");
    assert!(text.contains("illegal-moves 0"), "{text}");
}

#[test]
fn tune_refuses_an_unknown_rule_set() {
    let out = lab(&["tune", "--variant", "nonesuch", "--games", "1"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown variant"));
}
