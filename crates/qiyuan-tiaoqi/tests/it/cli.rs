//! The `moves` / `perft` / `apply` commands as the binary calls them.

use qiyuan_tiaoqi::cli::{apply, moves, perft};

#[test]
fn moves_prints_each_pair_once_then_pass() {
    let m = moves(2, 10, None).expect("start");
    assert_eq!(m.len(), 15);
    assert_eq!(m.first().map(String::as_str), Some("3.1-5.5"));
    assert_eq!(m.last().map(String::as_str), Some("pass"));
    assert_eq!(moves(6, 10, None).expect("6").len(), 15);
    assert!(moves(5, 10, None).is_err(), "T2");
    assert!(moves(4, 15, None).is_err(), "T3");
    let e = moves(2, 10, Some("x")).expect_err("bad fen").to_string();
    assert!(e.starts_with("bad position: expected 3 fields"), "{e}");
}

#[test]
fn perft_counts_and_divides() {
    assert_eq!(perft(2, 10, None, 2, false).expect("perft"), ["nodes 225"]);
    let split = perft(6, 10, None, 2, true).expect("divide");
    assert_eq!(split.len(), 16);
    assert_eq!(split.last().map(String::as_str), Some("nodes 226"));
    assert!(split.contains(&"4.1-5.5 14".to_string()), "{split:?}");
}

#[test]
fn apply_prints_the_position_and_the_result() {
    let out = apply(2, 10, None, false, &["4.1-5.5".into(), "pass".into()]).expect("apply");
    assert_eq!(out.len(), 1);
    assert!(out[0].starts_with("fen d/dd/ddd/dddd/"), "{out:?}");
    assert!(
        out[0].ends_with("/....a......../.aaa/aaa/aa/a a ad"),
        "{out:?}"
    );
    let e = apply(2, 10, None, false, &["pass".into(), "4.1-5.5".into()])
        .expect_err("d to move")
        .to_string();
    assert!(
        e.starts_with("move 2 ('4.1-5.5'): 4.1 holds no piece of d"),
        "{e}"
    );
}
