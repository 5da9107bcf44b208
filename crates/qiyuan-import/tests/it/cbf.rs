//! CBF (象棋桥's XML): hand-written records, their comments and errors.

use qiyuan_import::{Format, ImportError, Place, detect, import};
use qiyuan_xiangqi::START_FEN;

const RECORD: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<ChineseChessRecord Version="1.0">
 <Head>
  <Name>中炮对屏风马</Name>
  <Contest>全国象棋个人赛</Contest>
  <Round>3</Round>
  <Date>2004.01.05</Date>
  <Red>许银川</Red>
  <Black>吕钦</Black>
  <ECCO>C45</ECCO>
  <RecordResult>2</RecordResult>
  <FEN>rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1</FEN>
 </Head>
 <MoveList>
  <Move value="00-00">开局 &amp; 评注</Move>
  <Move value="77-47" comment="中炮" />
  <Move value="70-62" />
  <Move value="79-67">续着</Move>
  <Move value="80-81" end="1" />
 </MoveList>
</ChineseChessRecord>
"#;

#[test]
fn a_hand_written_record() {
    assert_eq!(detect(RECORD.as_bytes()), Format::Cbf);
    let g = import(RECORD.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.format, Format::Cbf);
    assert_eq!(g.start_fen, START_FEN);
    // 77-47 炮二平五 h2e2; 70-62 马８进７ h9g7; then 马二进三 h0g2; 80-81 车９进１
    // i9i8.
    assert_eq!(g.main_line(), ["h2e2", "h9g7", "h0g2", "i9i8"]);
    assert_eq!(g.variation_count(), 0);
    assert_eq!(g.comment(), Some("开局 & 评注"));
    let nodes = g.tree.nodes();
    assert_eq!(nodes[1].comment.as_deref(), Some("中炮"));
    assert_eq!(nodes[3].comment.as_deref(), Some("续着"));
    assert_eq!(g.tag("Title"), Some("中炮对屏风马"));
    assert_eq!(g.tag("Event"), Some("全国象棋个人赛"));
    assert_eq!(g.tag("Red"), Some("许银川"));
    assert_eq!(g.tag("ECCO"), Some("C45"));
    assert_eq!(g.tag("Result"), Some("0-1"));
}

#[test]
fn a_record_from_a_position() {
    let text = r#"<ChineseChessRecord Version="1.0"><Head><FEN>4k4/9/9/9/9/9/9/9/4r4/3K5 b - - 0 1</FEN></Head>
<MoveList><Move value="00-00"/><Move value="48-38"/></MoveList></ChineseChessRecord>"#;
    assert_eq!(detect(text.as_bytes()), Format::Cbf);
    let g = import(text.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.start_fen, "4k4/9/9/9/9/9/9/9/4r4/3K5 b - - 0 1");
    assert_eq!(g.main_line(), ["e1d1"]);
}

#[test]
fn illegal_move_names_its_line() {
    let text = RECORD.replace(r#"<Move value="70-62" />"#, r#"<Move value="70-60" />"#);
    match import(text.as_bytes()) {
        Err(ImportError::Move {
            place, text, red, ..
        }) => {
            assert_eq!(
                place,
                Place::Line {
                    line: 17,
                    column: 3
                }
            );
            assert_eq!(text, "h9g9");
            assert!(!red);
        }
        other => panic!("expected a move error, got {other:?}"),
    }
}

#[test]
fn broken_xml_names_its_line() {
    let text = RECORD.replace("</Head>", "</Heed>");
    let e = import(text.as_bytes()).unwrap_err();
    assert!(matches!(e, ImportError::Syntax { .. }), "{e}");
    match e.place() {
        Some(Place::Line { line, .. }) => assert_eq!(line, 13, "{e}"),
        other => panic!("{other:?}"),
    }
    let e = import(b"<?xml version=\"1.0\"?><Other/>").unwrap_err();
    assert!(e.to_string().contains("ChineseChessRecord"), "{e}");
    let e = import(RECORD.replace("77-47", "7x-47").as_bytes()).unwrap_err();
    assert!(matches!(e, ImportError::Move { .. }), "{e}");
}

/// A record with three side lines, each written from the start position
/// (the moves it shares with the main line first, their comments again).
const LINES: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<ChineseChessRecord Version="1.0">
 <Head><Name>变着</Name><FEN>rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1</FEN></Head>
 <MoveList>
  <Move value="00-00">开局</Move>
  <Move value="77-47" comment="中炮" />
  <Move value="70-62" />
  <Move value="79-67" />
  <Move value="80-81" end="1" />
  <Move value="77-47" comment="中炮" />
  <Move value="10-22">另一匹马</Move>
  <Move value="19-27" end="1" />
  <Move value="77-47" />
  <Move value="70-62" />
  <Move value="79-67" />
  <Move value="80-70" comment="出车" end="1" />
  <Move value="00-00">开局</Move>
  <Move value="26-25" comment="仙人指路" end="1" />
 </MoveList>
</ChineseChessRecord>
"#;

#[test]
fn side_lines_become_variations_of_the_move_they_replace() {
    let g = import(LINES.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.main_line(), ["h2e2", "h9g7", "h0g2", "i9i8"]);
    assert_eq!(g.variation_count(), 3);
    let t = &g.tree;
    let kids = |i: usize| -> Vec<&str> {
        t.node(i)
            .map(|n| {
                n.children
                    .iter()
                    .filter_map(|&c| t.node(c).map(|c| c.mv.as_str()))
                    .collect()
            })
            .unwrap_or_default()
    };
    let find = |line: &[&str]| -> usize {
        (0..t.nodes().len())
            .find(|&i| t.line_to(i) == line)
            .unwrap_or_else(|| panic!("no node at {line:?}"))
    };
    // 兵七进一 instead of 炮二平五; 马２进３ instead of 马８进７ (with its
    // reply 马八进七); 车９平８ instead of 车９进１.
    assert_eq!(kids(0), ["h2e2", "c3c4"]);
    assert_eq!(kids(find(&["h2e2"])), ["h9g7", "b9c7"]);
    assert_eq!(kids(find(&["h2e2", "b9c7"])), ["b0c2"]);
    assert_eq!(kids(find(&["h2e2", "h9g7", "h0g2"])), ["i9i8", "i9h9"]);
    // Each comment once, on its own move.
    assert_eq!(g.comment(), Some("开局"));
    let said = |line: &[&str]| t.node(find(line)).and_then(|n| n.comment.clone());
    assert_eq!(said(&["h2e2"]).as_deref(), Some("中炮"));
    assert_eq!(said(&["h2e2", "b9c7"]).as_deref(), Some("另一匹马"));
    assert_eq!(
        said(&["h2e2", "h9g7", "h0g2", "i9h9"]).as_deref(),
        Some("出车")
    );
    assert_eq!(said(&["c3c4"]).as_deref(), Some("仙人指路"));
    assert_eq!(said(&["h2e2", "h9g7"]), None);
    assert_eq!(t.move_count(), 8);
}

#[test]
fn a_side_line_s_bad_move_names_its_line() {
    // The side line's second move 马２进３ written as 10-23 (b9c6, no horse move).
    let text = LINES.replace(r#"<Move value="10-22">"#, r#"<Move value="10-23">"#);
    match import(text.as_bytes()) {
        Err(ImportError::Move {
            place, text, red, ..
        }) => {
            assert_eq!(
                place,
                Place::Line {
                    line: 11,
                    column: 3
                }
            );
            assert_eq!(text, "b9c6");
            assert!(!red);
        }
        other => panic!("expected a move error, got {other:?}"),
    }
    // A line that does not start from the start position (a black move first) is refused too.
    let text = LINES.replace(
        r#"<Move value="26-25" comment="仙人指路" end="1" />"#,
        r#"<Move value="12-22" end="1" />"#,
    );
    let e = import(text.as_bytes()).unwrap_err();
    assert!(matches!(e, ImportError::Move { .. }), "{e}");
}
