//! XQF: files written by the test writer (plain and encrypted, every version
//! family) read back, hand-made byte fixtures, and the errors.

use proptest::prelude::*;
use qiyuan_import::{Format, ImportError, Place, detect, import, xqf};
use qiyuan_xiangqi::{Position, START_FEN};

use crate::xqf_writer::{Spec, WNode, write};

/// The game 炮二平五 马８进７ 马二进三 车９平８ with the side line 兵七进一
/// {quiet} for 马二进三, a comment on the first move and one on the game.
fn sample(version: u8, seeds: [u8; 3], mask: u8, key_or: [u8; 4]) -> Spec {
    let mut s = Spec::new(version);
    s.seeds = seeds;
    s.mask = mask;
    s.key_or = key_or;
    s.result = 1;
    s.title = "中炮对屏风马".into();
    s.event = "全国象棋个人赛".into();
    s.red = "许银川".into();
    s.black = "吕钦".into();
    s.game_comment = Some("一盘测试棋".into());
    s.moves = vec![
        WNode::new("h2e2")
            .said("中炮")
            .with(vec![WNode::new("h9g7").with(vec![
                WNode::new("h0g2").with(vec![WNode::new("i9h9")]),
                WNode::new("c3c4").said("quiet"),
            ])]),
    ];
    s
}

fn check_sample(bytes: &[u8]) {
    assert_eq!(detect(bytes), Format::Xqf);
    let g = import(bytes).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.format, Format::Xqf);
    assert_eq!(g.start_fen, START_FEN);
    assert_eq!(g.main_line(), ["h2e2", "h9g7", "h0g2", "i9h9"]);
    assert_eq!(g.variation_count(), 1);
    assert_eq!(g.comment(), Some("一盘测试棋"));
    assert_eq!(g.tag("Title"), Some("中炮对屏风马"));
    assert_eq!(g.tag("Event"), Some("全国象棋个人赛"));
    assert_eq!(g.tag("Red"), Some("许银川"));
    assert_eq!(g.tag("Black"), Some("吕钦"));
    assert_eq!(g.tag("Result"), Some("1-0"));
    let nodes = g.tree.nodes();
    let first = &nodes[g.tree.root().children[0]];
    assert_eq!(first.comment.as_deref(), Some("中炮"));
    let side = nodes
        .iter()
        .find(|n| n.mv == "c3c4")
        .expect("the variation is read");
    assert_eq!(side.comment.as_deref(), Some("quiet"));
    assert_eq!(side.ply, 3);
    assert_eq!(nodes[side.parent.unwrap()].mv, "h9g7");
}

#[test]
fn plain_version_10_round_trip() {
    check_sample(&write(&sample(10, [0; 3], 0, [0; 4])));
}

#[test]
fn encrypted_version_11_round_trip() {
    check_sample(&write(&sample(11, [0x35, 0x9c, 0x21], 0xa5, [1, 2, 4, 8])));
}

#[test]
fn encrypted_version_12_and_18_round_trip_with_rotated_pieces() {
    for version in [12, 15, 18] {
        check_sample(&write(&sample(
            version,
            [0xe7, 0x10, 0x7f],
            0xff,
            [0x11, 0x00, 0x80, 0x0c],
        )));
    }
}

/// A plain file made byte by byte: the start position and 炮二平五 马８进７.
#[test]
fn hand_made_plain_fixture() {
    let mut f = vec![0u8; 1024];
    f[..3].copy_from_slice(b"XQ\x0a");
    // Red: rook a0, horse b0, elephant c0, advisor d0, king e0, advisor f0,
    // elephant g0, horse h0, rook i0, cannons b2 h2, pawns a3 c3 e3 g3 i3.
    let red = [0, 10, 20, 30, 40, 50, 60, 70, 80, 12, 72, 3, 23, 43, 63, 83];
    // Black the same on ranks 9, 7, 6.
    let black = [9, 19, 29, 39, 49, 59, 69, 79, 89, 17, 77, 6, 26, 46, 66, 86];
    f[0x10..0x20].copy_from_slice(&red);
    f[0x20..0x30].copy_from_slice(&black);
    // Root record, no comment (old files always carry the length).
    f.extend_from_slice(&[0, 0, 0xF0, 0, 0, 0, 0, 0]);
    // h2 = 72 + 0x18 = 0x60, e2 = 42 + 0x20 = 0x4a; then the next move follows.
    f.extend_from_slice(&[0x60, 0x4a, 0xF0, 0, 0, 0, 0, 0]);
    // h9 = 79 + 0x18 = 0x67, g7 = 67 + 0x20 = 0x63; a 2-byte comment "ok".
    f.extend_from_slice(&[0x67, 0x63, 0x00, 0, 2, 0, 0, 0, b'o', b'k']);
    let g = import(&f).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.start_fen, START_FEN);
    assert_eq!(g.main_line(), ["h2e2", "h9g7"]);
    assert_eq!(g.tree.nodes()[2].comment.as_deref(), Some("ok"));
}

/// Encryption checked by hand on bytes the writer produced: version 12,
/// pieces seed 1 → pieces key (54 + 221)·1 = 275 → 0x13, other seeds 0
/// (so the move keys are 0), mask 0 and key-or bytes 0 (stream key 0).
#[test]
fn hand_checked_encrypted_bytes() {
    let mut s = Spec::new(12);
    s.seeds = [1, 0, 0];
    s.moves = vec![WNode::new("h2e2").said("hi")];
    let f = write(&s);
    // Sum seed makes the four add up to 0: 0xff.
    assert_eq!(&f[12..16], &[0xff, 1, 0, 0]);
    // The red rook on a0 (code 0) is stored as 0x13 in the slot rotated by
    // key + 1 = 20: slot j with (j + 20) mod 32 = 0, so j = 12.
    assert_eq!(f[0x10 + 12], 0x13);
    // The black king on e9 (slot 20, code 49) is stored as 49 + 0x13 = 0x44
    // at (20 - 20) = slot 0.
    assert_eq!(f[0x10], 0x44);
    // The comment length is shifted by (0xff·256 + 1) mod 32000 + 767
    // = 65281 mod 32000 + 767 = 1281 + 767 = 2048.
    // Root record: 4 bytes, no comment; the move record: h2 → 0x60, e2 → 0x4a,
    // flags 0x20 (comment), then 2 + 2048 = 0x802.
    assert_eq!(&f[1024..1028], &[0, 0, 0x80, 0]);
    assert_eq!(&f[1028..1036], &[0x60, 0x4a, 0x20, 0, 0x02, 0x08, 0, 0]);
    let g = import(&f).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.main_line(), ["h2e2"]);
    assert_eq!(g.tree.nodes()[1].comment.as_deref(), Some("hi"));
}

#[test]
fn black_to_move_from_the_first_move_and_the_header() {
    let mut s = Spec::new(11);
    s.seeds = [9, 8, 7];
    s.board = "4k4/9/9/9/9/9/9/9/4r4/3K5".into();
    s.black_first = true;
    s.moves = vec![WNode::new("e1d1")];
    let g = import(&write(&s)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.start_fen, "4k4/9/9/9/9/9/9/9/4r4/3K5 b - - 0 1");
    assert_eq!(g.main_line(), ["e1d1"]);
}

#[test]
fn illegal_move_names_its_record() {
    let mut s = Spec::new(10);
    s.moves = vec![WNode::new("h2e2").with(vec![WNode::new("h9h5")])];
    let f = write(&s);
    match import(&f) {
        // Root record 8 bytes (4 + length), first move 8 more: the second
        // move's record starts at 1024 + 16.
        Err(ImportError::Move {
            place, text, red, ..
        }) => {
            assert_eq!(place, Place::Byte(1040));
            assert_eq!(text, "h9h5");
            assert!(!red);
        }
        other => panic!("expected a move error, got {other:?}"),
    }
}

#[test]
fn truncated_files_name_the_offset() {
    let f = write(&sample(18, [3, 4, 5], 0x5a, [0; 4]));
    assert!(matches!(
        import(&f[..700]),
        Err(ImportError::Syntax {
            place: Place::Byte(700),
            ..
        })
    ));
    // Cut inside the record tree: the error points into the body.
    let e = import(&f[..1030]).unwrap_err();
    match e.place() {
        Some(Place::Byte(at)) => assert!((1024..=1030).contains(&at), "{e}"),
        other => panic!("{other:?} ({e})"),
    }
}

#[test]
fn a_header_alone_is_the_position_without_moves() {
    let f = &write(&Spec::new(11))[..1024];
    let g = xqf::parse(f).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.start_fen, START_FEN);
    assert!(g.main_line().is_empty());
}

/// Random legal lines with random side lines, written under random keys,
/// read back the same.
fn random_tree(seed: &[u16]) -> Vec<WNode> {
    // Build one main line; every third ply also gets one side move.
    let mut pos = Position::startpos();
    let mut plies: Vec<(String, Option<String>)> = Vec::new();
    for (i, &s) in seed.iter().enumerate() {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[s as usize % legal.len()];
        let side = (i % 3 == 2 && legal.len() > 1)
            .then(|| legal[(s as usize + 1) % legal.len()].to_string());
        plies.push((m.to_string(), side));
        pos.make_move(m);
    }
    let mut tail: Vec<WNode> = Vec::new();
    for (mv, side) in plies.into_iter().rev() {
        let mut line = vec![WNode::new(&mv).with(tail)];
        if let Some(s) = side {
            line.push(WNode::new(&s).said("变"));
        }
        tail = line;
    }
    tail
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn written_files_read_back(
        version in prop_oneof![Just(10u8), 11u8..=18],
        seeds in any::<[u8; 3]>(),
        mask in any::<u8>(),
        key_or in any::<[u8; 4]>(),
        line in proptest::collection::vec(any::<u16>(), 0..40),
    ) {
        let mut s = Spec::new(version);
        s.seeds = seeds;
        s.mask = mask;
        s.key_or = key_or;
        s.moves = random_tree(&line);
        let expected_variations = {
            fn count(n: &[WNode]) -> usize {
                n.len().saturating_sub(1) + n.iter().map(|c| count(&c.children)).sum::<usize>()
            }
            count(&s.moves)
        };
        let mut expected_main = Vec::new();
        let mut at = &s.moves;
        while let Some(first) = at.first() {
            expected_main.push(first.mv.clone());
            at = &first.children;
        }
        let g = import(&write(&s)).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(g.main_line(), expected_main);
        prop_assert_eq!(g.variation_count(), expected_variations);
    }
}
