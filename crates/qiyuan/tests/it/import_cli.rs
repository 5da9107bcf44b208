//! `qiyuan import FILE`: prints `fen`, `moves` (the main line in ICCS) and
//! `variations` for each format, and fails with the place on bad input.

use std::path::PathBuf;
use std::process::{Command, Output};

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Writes `bytes` to a fresh file and runs `qiyuan import` on it.
fn import(name: &str, bytes: &[u8]) -> Output {
    let path: PathBuf =
        std::env::temp_dir().join(format!("qiyuan-import-{}-{name}", std::process::id()));
    std::fs::write(&path, bytes).expect("write the fixture");
    let out = Command::new(env!("CARGO_BIN_EXE_qiyuan"))
        .arg("import")
        .arg(&path)
        .output()
        .expect("run the qiyuan binary");
    let _ = std::fs::remove_file(&path);
    out
}

fn ok(name: &str, bytes: &[u8]) -> String {
    let o = import(name, bytes);
    assert!(
        o.status.success(),
        "import {name} failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).expect("UTF-8")
}

#[test]
fn pgn_with_variations() {
    let pgn = "[Game \"Chinese Chess\"]\n[Red \"许银川\"]\n\n1. 炮二平五 马８进７ (1... 炮８平５ {顺炮}) 2. 马二进三 (2. B0-C2?) 车９平８ 1-0\n";
    assert_eq!(
        ok("a.pgn", pgn.as_bytes()),
        format!("fen {START}\nmoves h2e2 h9g7 h0g2 i9h9\nvariations 2\n")
    );
}

#[test]
fn a_fen_and_a_move_list() {
    let fen = "4k4/9/9/9/9/9/9/9/4r4/3K5 b - - 0 1";
    assert_eq!(
        ok("p.fen", fen.as_bytes()),
        format!("fen {fen}\nmoves\nvariations 0\n")
    );
    assert_eq!(
        ok("m.txt", "炮二平五 马8进7\n马二进三".as_bytes()),
        format!("fen {START}\nmoves h2e2 h9g7 h0g2\nvariations 0\n")
    );
}

#[test]
fn a_plain_xqf_made_by_hand() {
    let mut f = vec![0u8; 1024];
    f[..3].copy_from_slice(b"XQ\x0a");
    // Pieces as file * 10 + rank: red rook a0 … pawns; black likewise.
    f[0x10..0x20].copy_from_slice(&[0, 10, 20, 30, 40, 50, 60, 70, 80, 12, 72, 3, 23, 43, 63, 83]);
    f[0x20..0x30].copy_from_slice(&[9, 19, 29, 39, 49, 59, 69, 79, 89, 17, 77, 6, 26, 46, 66, 86]);
    // Root, then h2e2 (72 + 0x18, 42 + 0x20) with an alternative after its
    // subtree, h9g7 (79 + 0x18, 67 + 0x20), and the alternative h0g2 (70 + 0x18,
    // 62 + 0x20).
    f.extend_from_slice(&[0, 0, 0xF0, 0, 0, 0, 0, 0]);
    f.extend_from_slice(&[0x60, 0x4a, 0xFF, 0, 0, 0, 0, 0]);
    f.extend_from_slice(&[0x67, 0x63, 0x00, 0, 0, 0, 0, 0]);
    f.extend_from_slice(&[0x5e, 0x5e, 0x00, 0, 0, 0, 0, 0]);
    assert_eq!(
        ok("g.xqf", &f),
        format!("fen {START}\nmoves h2e2 h9g7\nvariations 1\n")
    );
}

#[test]
fn a_cbf_record() {
    let cbf = r#"<?xml version="1.0" encoding="UTF-8"?>
<ChineseChessRecord Version="1.0"><Head><Red>甲</Red></Head>
<MoveList><Move value="00-00"/><Move value="77-47"/><Move value="70-62" end="1"/></MoveList>
</ChineseChessRecord>"#;
    assert_eq!(
        ok("r.cbf", cbf.as_bytes()),
        format!("fen {START}\nmoves h2e2 h9g7\nvariations 0\n")
    );
}

#[test]
fn a_cbf_record_with_side_lines() {
    // The main line 炮二平五 马８进７, then two lines written from the start:
    // 炮二平五 马２进３ and 兵七进一.
    let cbf = r#"<?xml version="1.0" encoding="UTF-8"?>
<ChineseChessRecord Version="1.0"><Head><Red>甲</Red></Head>
<MoveList><Move value="00-00"/><Move value="77-47"/><Move value="70-62" end="1"/>
<Move value="77-47"/><Move value="10-22" end="1"/>
<Move value="26-25" end="1"/></MoveList>
</ChineseChessRecord>"#;
    assert_eq!(
        ok("v.cbf", cbf.as_bytes()),
        format!("fen {START}\nmoves h2e2 h9g7\nvariations 2\n")
    );
}

#[test]
fn bad_files_fail_with_the_place() {
    let o = import("bad.pgn", b"[Event \"x\"]\n1. h2e2 h9g7\n2. h2h9\n");
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("line 3, column 4"), "{err}");
    assert!(err.contains("h2h9"), "{err}");
    assert!(o.stdout.is_empty());

    let o = import("cut.xqf", b"XQ\x0b\x00");
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("byte 4"));

    let o = Command::new(env!("CARGO_BIN_EXE_qiyuan"))
        .args(["import", "/nonexistent/qiyuan-import.pgn"])
        .output()
        .expect("run");
    assert!(!o.status.success());
}
