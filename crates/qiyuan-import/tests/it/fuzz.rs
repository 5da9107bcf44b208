//! No input makes a parser panic or run away: arbitrary bytes and text for
//! every format, and valid files with bytes or characters changed.

use proptest::prelude::*;
use qiyuan_import::{Format, import, import_as};

use crate::xqf_writer::{Spec, WNode, write};

const FORMATS: [Format; 5] = [
    Format::Xqf,
    Format::Cbf,
    Format::Pgn,
    Format::Fen,
    Format::MoveList,
];

fn sample_xqf(version: u8) -> Vec<u8> {
    let mut s = Spec::new(version);
    s.seeds = [0x21, 0x43, 0x65];
    s.mask = 0xf0;
    s.key_or = [3, 5, 7, 9];
    s.game_comment = Some("评注".into());
    s.moves = vec![
        WNode::new("h2e2").said("中炮").with(vec![
            WNode::new("h9g7").with(vec![WNode::new("h0g2")]),
            WNode::new("b9c7"),
        ]),
        WNode::new("c3c4"),
    ];
    write(&s)
}

const PGN: &str = "[Game \"Chinese Chess\"]\n[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\"]\n{c}\n1. 炮二平五 {x} 马８进７ (1... 马２进３ (1... 车９进１)) 2. 马二进三 C2.5 1-0\n";

const CBF: &str = "<?xml version=\"1.0\"?><ChineseChessRecord><Head><Red>a</Red></Head><MoveList><Move value=\"00-00\">c</Move><Move value=\"77-47\"/><Move value=\"70-62\" end=\"1\"/></MoveList></ChineseChessRecord>";

/// A CBF record with side lines (each later line written from the start).
const CBF_LINES: &str = "<?xml version=\"1.0\"?><ChineseChessRecord><Head><Red>a</Red></Head><MoveList><Move value=\"00-00\">c</Move><Move value=\"77-47\" comment=\"x\"/><Move value=\"70-62\" end=\"1\"/><Move value=\"77-47\"/><Move value=\"10-22\">y</Move><Move value=\"19-27\" end=\"1\"/><Move value=\"26-25\" end=\"1\"/></MoveList></ChineseChessRecord>";

/// A CBF record of lines drawn from a few moves and values (legal, illegal,
/// malformed, the start marker), each ended or not.
fn cbf_of(lines: &[Vec<(usize, bool)>]) -> String {
    const VALUES: [&str; 10] = [
        "00-00", "77-47", "70-62", "10-22", "19-27", "26-25", "79-67", "12-22", "9x-00", "",
    ];
    let mut text = String::from("<ChineseChessRecord><MoveList>");
    for line in lines {
        for &(v, end) in line {
            text.push_str(&format!(
                "<Move value=\"{}\"{}/>",
                VALUES[v % VALUES.len()],
                if end { " end=\"1\"" } else { "" }
            ));
        }
    }
    text.push_str("</MoveList></ChineseChessRecord>");
    text
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        let _ = import(&bytes);
        for f in FORMATS {
            let _ = import_as(&bytes, f);
        }
    }

    #[test]
    fn arbitrary_xqf_bodies_never_panic(
        version in any::<u8>(),
        head in proptest::collection::vec(any::<u8>(), 48),
        body in proptest::collection::vec(any::<u8>(), 0..512),
    ) {
        let mut f = sample_xqf(12);
        f[2] = version;
        f[..48].copy_from_slice(&head);
        f[0] = b'X';
        f[1] = b'Q';
        f.truncate(1024);
        f.extend_from_slice(&body);
        let _ = import(&f);
    }

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,400}") {
        for f in FORMATS {
            let _ = import_as(text.as_bytes(), f);
        }
    }

    #[test]
    fn pgn_like_text_never_panics(text in "[\\[\\]{}();$\"a-i0-9 .\\-+=炮马车兵卒二五平进退８７\n]{0,300}") {
        let _ = import(text.as_bytes());
        let _ = import_as(text.as_bytes(), Format::Pgn);
    }

    #[test]
    fn mutated_xqf_never_panics(
        version in prop_oneof![Just(10u8), Just(11u8), Just(12u8), Just(18u8)],
        edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..8),
        cut in any::<usize>(),
    ) {
        let mut f = sample_xqf(version);
        for (at, b) in edits {
            let n = f.len();
            f[at % n] = b;
        }
        let _ = import(&f);
        let n = f.len();
        let _ = import(&f[..cut % (n + 1)]);
    }

    #[test]
    fn mutated_pgn_and_cbf_never_panic(
        which in any::<bool>(),
        edits in proptest::collection::vec((any::<usize>(), any::<char>()), 1..6),
    ) {
        let mut chars: Vec<char> = if which { PGN } else { CBF_LINES }.chars().collect();
        for (at, c) in edits {
            let n = chars.len();
            chars[at % n] = c;
        }
        let text: String = chars.into_iter().collect();
        let _ = import(text.as_bytes());
    }

    #[test]
    fn cbf_lines_never_panic(
        lines in proptest::collection::vec(
            proptest::collection::vec((any::<usize>(), any::<bool>()), 0..12),
            0..8,
        ),
    ) {
        let text = cbf_of(&lines);
        if let Ok(g) = import_as(text.as_bytes(), Format::Cbf) {
            // Whatever was read is a tree: side lines are counted, never more than its moves.
            prop_assert!(g.variation_count() <= g.tree.move_count());
        }
    }
}

#[test]
fn the_fuzz_samples_are_valid() {
    for v in [10, 11, 12, 18] {
        let g = import(&sample_xqf(v)).unwrap_or_else(|e| panic!("{v}: {e}"));
        assert_eq!(g.main_line(), ["h2e2", "h9g7", "h0g2"]);
        assert_eq!(g.variation_count(), 2);
    }
    let g = import(PGN.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.variation_count(), 2);
    assert_eq!(g.main_line(), ["h2e2", "h9g7", "h0g2", "b7e7"]);
    let g = import(CBF.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.main_line(), ["h2e2", "h9g7"]);
    let g = import(CBF_LINES.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.main_line(), ["h2e2", "h9g7"]);
    assert_eq!(g.variation_count(), 2);
}
