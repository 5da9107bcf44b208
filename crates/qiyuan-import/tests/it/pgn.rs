//! PGN (Chinese, WXF, ICCS moves; variations; comments; FEN tag; GBK),
//! move lists, bare FENs, detection and the errors of text formats.

use qiyuan_import::{Format, ImportError, MAX_NESTING, Place, detect, import};
use qiyuan_xiangqi::START_FEN;

const CHINESE: &str = r#"[Game "Chinese Chess"]
[Event "全国象棋个人赛"]
[Red "许银川"]
[Black "吕钦"]
[Date "2004.01.05"]
[Result "1-0"]
{一盘有变着的棋}
1. 炮二平五 {中炮} 马８进７
2. 马二进三 (2. 兵七进一 卒７进１ (2... 车９平８ {出车}) 3. 马八进七) 车９平８
3. 车一平二 $1 马２进３! 1-0 {红胜}
"#;

#[test]
fn chinese_pgn_with_nested_variations_and_comments() {
    assert_eq!(detect(CHINESE.as_bytes()), Format::Pgn);
    let g = import(CHINESE.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.start_fen, START_FEN);
    assert_eq!(
        g.main_line(),
        ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"]
    );
    // Side lines: 2. 兵七进一 (after 马８进７), and 2... 车９平８ inside it.
    assert_eq!(g.variation_count(), 2);
    assert_eq!(g.comment(), Some("一盘有变着的棋"));
    assert_eq!(g.tag("Red"), Some("许银川"));
    assert_eq!(g.tag("Result"), Some("1-0"));
    let nodes = g.tree.nodes();
    let by_line = |line: &[&str]| {
        (0..nodes.len())
            .find(|&i| g.tree.line_to(i) == line)
            .unwrap_or_else(|| panic!("no node for {line:?}"))
    };
    assert_eq!(nodes[by_line(&["h2e2"])].comment.as_deref(), Some("中炮"));
    let nested = by_line(&["h2e2", "h9g7", "c3c4", "i9h9"]);
    assert_eq!(nodes[nested].comment.as_deref(), Some("出车"));
    by_line(&["h2e2", "h9g7", "c3c4", "g6g5", "b0c2"]);
    // The comment after the result belongs to the last move.
    assert_eq!(
        nodes[by_line(&["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"])]
            .comment
            .as_deref(),
        Some("红胜")
    );
}

#[test]
fn wxf_and_both_iccs_spellings_with_a_fen_tag() {
    let fen = "4k4/9/9/9/9/9/9/9/4r4/3K5 b - - 0 1";
    let text = format!(
        "[Game \"Chinese Chess\"]\n[Format \"WXF\"]\n[FEN \"{fen}\"]\n\n1... R5=4 2. K6+1 K5.6\n"
    );
    let g = import(text.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.start_fen, fen);
    assert_eq!(g.main_line(), ["e1d1", "d0d1", "e9f9"]);

    let g = import(b"[Event \"x\"]\n1. H2-E2 h9g7 2. C5+4? (2. h0g2) H2+3\n").unwrap();
    assert_eq!(g.main_line(), ["h2e2", "h9g7", "e2e6", "b9c7"]);
    assert_eq!(g.variation_count(), 1);
}

#[test]
fn gbk_pgn_reads_as_text() {
    let (bytes, _, bad) = encoding_rs::GBK.encode(CHINESE);
    assert!(!bad);
    assert!(
        std::str::from_utf8(&bytes).is_err(),
        "the fixture is not UTF-8"
    );
    let g = import(&bytes).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.tag("Black"), Some("吕钦"));
    assert_eq!(g.main_line().len(), 6);
}

#[test]
fn plain_move_lists() {
    for text in [
        "h2e2 h9g7 h0g2",
        "1. h2e2 h9g7 2. h0g2",
        "炮二平五 马8进7 马二进三",
        "1、炮二平五，马８进７\n２．马二进三",
        "C2.5 H8+7 H2+3",
    ] {
        assert_eq!(detect(text.as_bytes()), Format::MoveList, "{text}");
        let g = import(text.as_bytes()).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(g.main_line(), ["h2e2", "h9g7", "h0g2"], "{text}");
        assert_eq!(g.start_fen, START_FEN);
    }
}

#[test]
fn move_list_after_a_fen_line() {
    let text = "4k4/9/9/9/9/9/9/9/4r4/3K5 b - - 0 1\ne1d1 d0d1";
    let g = import(text.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.format, Format::MoveList);
    assert_eq!(g.start_fen, "4k4/9/9/9/9/9/9/9/4r4/3K5 b - - 0 1");
    assert_eq!(g.main_line(), ["e1d1", "d0d1"]);
}

#[test]
fn a_bare_fen() {
    let fen = "4k4/9/9/9/9/9/9/9/4r4/3K5 b - - 0 1";
    assert_eq!(detect(fen.as_bytes()), Format::Fen);
    let g = import(format!("  {fen}\n").as_bytes()).unwrap();
    assert_eq!(g.format, Format::Fen);
    assert_eq!(g.start_fen, fen);
    assert!(g.main_line().is_empty());
    // A bad one names the problem.
    let e = import(b"9/9/9/9/9/9/9/9/9/4K4 w").unwrap_err();
    assert!(matches!(e, ImportError::Position { .. }), "{e}");
}

#[test]
fn illegal_move_names_line_column_and_move() {
    let text = "[Game \"Chinese Chess\"]\n\n1. 炮二平五 马８进７\n2. 马二进五 车９平８\n";
    match import(text.as_bytes()) {
        Err(ImportError::Move {
            place,
            number,
            red,
            text,
            ..
        }) => {
            assert_eq!(place, Place::Line { line: 4, column: 4 });
            assert_eq!((number, red), (2, true));
            assert_eq!(text, "马二进五");
        }
        other => panic!("expected a move error, got {other:?}"),
    }
    let e = import(b"h2e2 h9g7 h2h9").unwrap_err();
    assert_eq!(
        e.place(),
        Some(Place::Line {
            line: 1,
            column: 11
        })
    );
    assert!(e.to_string().contains("h2h9"), "{e}");
}

#[test]
fn brackets_and_comments_that_do_not_close() {
    let cases: [(&str, Place); 5] = [
        ("1. h2e2 (1. h0g2 h9g7", Place::Line { line: 1, column: 9 }),
        ("1. h2e2 {never closed", Place::Line { line: 1, column: 9 }),
        (
            "1. h2e2 h9g7 )",
            Place::Line {
                line: 1,
                column: 14,
            },
        ),
        ("(1. h2e2)", Place::Line { line: 1, column: 1 }),
        ("[Event \"x\n1. h2e2", Place::Line { line: 1, column: 1 }),
    ];
    for (text, place) in cases {
        let e = import(text.as_bytes()).unwrap_err();
        assert!(matches!(e, ImportError::Syntax { .. }), "{text}: {e}");
        assert_eq!(e.place(), Some(place), "{text}: {e}");
    }
}

#[test]
fn nesting_is_bounded() {
    // Each variation replaces the move before it and opens the next one.
    let mut text = String::from("1. h2e2 h9g7 ");
    for _ in 0..=MAX_NESTING {
        text.push_str("( h9i7 ");
    }
    let e = import(text.as_bytes()).unwrap_err();
    assert!(matches!(e, ImportError::Limit { .. }), "{e}");
}

#[test]
fn oversized_and_empty_input_are_refused_first() {
    let big = vec![b' '; qiyuan_import::MAX_FILE_BYTES + 1];
    assert!(matches!(import(&big), Err(ImportError::TooLarge { .. })));
    assert!(matches!(import(b"  \n "), Err(ImportError::Empty)));
}
