//! Arbitrary text never makes the move and position parsers panic: arbitrary
//! unicode, and strings built from each notation's own alphabet (which reach
//! far deeper into the parsers than random unicode does).

use proptest::prelude::*;
use qiyuan_xiangqi::Position;
use qiyuan_xiangqi::iccs::parse_iccs;
use qiyuan_xiangqi::notation::{parse_chinese, parse_wxf, to_chinese, to_wxf};

const WXF_ALPHABET: &[char] = &[
    'K', 'A', 'E', 'B', 'H', 'N', 'R', 'C', 'P', 'k', 'p', 'x', '0', '1', '2', '3', '4', '5', '6',
    '7', '8', '9', '+', '-', '.', '=', '*', ' ', '闲',
];
const CHINESE_ALPHABET: &[char] = &[
    '帅', '帥', '将', '將', '仕', '士', '相', '象', '马', '馬', '傌', '车', '車', '俥', '炮', '砲',
    '包', '兵', '卒', '前', '中', '后', '後', '进', '進', '退', '平', '一', '二', '三', '四', '五',
    '六', '七', '八', '九', '１', '５', '９', '1', '5', '9', '普', '小', '王', '闲', '*', '+', ' ',
];
const ICCS_ALPHABET: &[char] = &[
    'a', 'e', 'h', 'i', 'j', 'A', 'I', '0', '2', '9', '-', '+', '*', '=', ' ',
];
const FEN_ALPHABET: &[char] = &[
    'r', 'n', 'b', 'a', 'k', 'c', 'p', 'R', 'N', 'B', 'A', 'K', 'C', 'P', 'E', 'H', 'x', '1', '2',
    '3', '4', '5', '8', '9', '0', '/', ' ', 'w', 'b', '-', '*', '+',
];

fn from(alphabet: &'static [char], max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(alphabet), 0..max)
        .prop_map(|v| v.into_iter().collect())
}

/// A few positions with doubled pieces on files, so designators resolve.
fn positions() -> Vec<Position> {
    [
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
        "4k4/6P2/1P7/1P4P2/1P7/n8/n8/9/9/3K5 w",
        "3k5/2P6/2P6/2P6/2P6/2P6/9/9/9/4K4 w",
        "r3k4/9/9/9/r8/9/9/9/9/3K5 b",
        "4k4/9/9/9/9/6p2/6p2/6p2/9/3K5 b",
    ]
    .iter()
    .map(|f| Position::from_fen(f).unwrap())
    .collect()
}

fn exercise(text: &str) {
    for pos in positions() {
        if let Ok(m) = parse_wxf(&pos, text) {
            // What parses is legal and prints back to something that parses the same.
            assert!(pos.legal_moves().contains(&m.without_class()));
            assert_eq!(parse_wxf(&pos, &to_wxf(&pos, m)), Ok(m));
        }
        if let Ok(m) = parse_chinese(&pos, text) {
            assert!(pos.legal_moves().contains(&m.without_class()));
            assert_eq!(parse_chinese(&pos, &to_chinese(&pos, m)), Ok(m));
        }
        let _ = pos.parse_move(text);
    }
    let _ = parse_iccs(text);
    let _ = Position::from_fen(text);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn arbitrary_unicode_never_panics(text in any::<String>()) {
        exercise(&text);
    }

    #[test]
    fn wxf_alphabet_never_panics(text in from(WXF_ALPHABET, 8)) {
        exercise(&text);
    }

    #[test]
    fn chinese_alphabet_never_panics(text in from(CHINESE_ALPHABET, 8)) {
        exercise(&text);
    }

    #[test]
    fn iccs_alphabet_never_panics(text in from(ICCS_ALPHABET, 8)) {
        exercise(&text);
    }

    #[test]
    fn fen_alphabet_never_panics(text in from(FEN_ALPHABET, 90)) {
        if let Ok(pos) = Position::from_fen(&text) {
            // A FEN that parses prints back to one that parses to the same position.
            prop_assert_eq!(Position::from_fen(&pos.to_fen()).ok(), Some(pos));
        }
    }
}
