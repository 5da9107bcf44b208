//! Arbitrary text never makes the PGN reader panic: arbitrary unicode, and
//! texts built from PGN's own pieces (tags, comments, variations, move
//! numbers, moves in the three notations, results), valid or not.

use proptest::prelude::*;
use qiyuan_xiangqi::pgn::{MoveFormat, parse_pgn, write_pgn};

const PIECES: &[&str] = &[
    "[Game \"Chinese Chess\"]\n",
    "[Format \"WXF\"]\n",
    "[Format \"Chinese\"]\n",
    "[Format \"ICCS\"]\n",
    "[FEN \"4k4/6P2/1P7/1P4P2/1P7/n8/n8/9/9/3K5 w\"]\n",
    "[FEN \"bad\"]\n",
    "[Result \"1-0\"]\n",
    "[Event \"x\\\"y\"]",
    "[",
    "]",
    "\"",
    "{comment}",
    "{",
    "}",
    "(",
    ")",
    "(1... h9g7)",
    "; line\n",
    "%escape\n",
    "$12",
    "1.",
    "2...",
    "33.4",
    " ",
    "\n",
    "h2e2",
    "H2-E2",
    "h9g7",
    "C2.5",
    "H8+7",
    "3+.2",
    "88.9",
    "++.4",
    "炮二平五",
    "马８进７",
    "前三平二",
    "中八平九",
    "!",
    "?",
    "1-0",
    "0-1",
    "1/2-1/2",
    "*",
    "0000",
    "…",
];

fn pgn_like() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 0..30).prop_map(|v| v.concat())
}

fn check(text: &str) {
    if let Ok(game) = parse_pgn(text) {
        // Whatever is read can be written and read back to the same game.
        for format in [MoveFormat::Iccs, MoveFormat::Wxf, MoveFormat::Chinese] {
            let again = parse_pgn(&write_pgn(&game, format)).expect("written PGN reads back");
            assert_eq!(again.start, game.start);
            assert_eq!(again.moves, game.moves);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn arbitrary_unicode_never_panics(text in any::<String>()) {
        check(&text);
    }

    #[test]
    fn pgn_pieces_never_panic(text in pgn_like()) {
        check(&text);
    }
}
