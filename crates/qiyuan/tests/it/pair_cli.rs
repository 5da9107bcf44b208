//! `qiyuan pair`: the next round of a tournament file, printed as
//! bbpPairings prints it with `-p`, and the errors for files it refuses.

use std::process::{Command, Output};

fn qiyuan(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_qiyuan"))
        .args(args)
        .output()
        .expect("run the qiyuan binary")
}

fn fixture(name: &str) -> String {
    format!(
        "{}/../qiyuan-events/tests/data/dutch/pair/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn pairs_a_file_as_the_reference_program_prints_it() {
    for name in ["t003-r07", "t000-r04-baku"] {
        let o = qiyuan(&[
            "pair",
            "--system",
            "dutch",
            &fixture(&format!("{name}.trf")),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let want = std::fs::read_to_string(fixture(&format!("{name}.out"))).expect("expected");
        assert_eq!(String::from_utf8_lossy(&o.stdout), want);
    }
}

#[test]
fn a_malformed_file_is_refused_with_its_line_and_field() {
    let good = std::fs::read_to_string(fixture("t003-r07.trf")).expect("fixture");
    // Break the colour of player 3's second round.
    let mut lines: Vec<String> = good.lines().map(str::to_string).collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("001    3"))
        .expect("player 3");
    lines[at].replace_range(106..107, "x");
    let bad = std::env::temp_dir().join(format!("qiyuan-bad-{}.trf", std::process::id()));
    std::fs::write(&bad, lines.join("\n")).expect("write");
    let o = qiyuan(&["pair", bad.to_str().expect("path")]);
    let _ = std::fs::remove_file(&bad);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains(&format!("line {}", at + 1)), "{err}");
    assert!(err.contains("colour"), "{err}");
    let o = qiyuan(&["pair", "--system", "burstein", &fixture("t003-r07.trf")]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("only dutch"));
}
