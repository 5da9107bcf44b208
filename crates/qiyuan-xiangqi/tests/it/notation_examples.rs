//! Known WXF and Chinese notation examples, each worked out by hand (see the
//! comments), one or more per tandem form, plus the error messages.

use qiyuan_xiangqi::notation::{NotationError, parse_chinese, parse_wxf, to_chinese, to_wxf};
use qiyuan_xiangqi::{Class, Move, Position};

/// Checks that ICCS `iccs` in `pos` prints as `wxf` and `chinese` and that both
/// read back to it.
fn check(pos: &Position, iccs: &str, wxf: &str, chinese: &str) {
    let m = pos
        .parse_move(iccs)
        .unwrap_or_else(|e| panic!("{iccs} in {}: {e}", pos.to_fen()));
    assert_eq!(to_wxf(pos, m), wxf, "WXF of {iccs} in {}", pos.to_fen());
    assert_eq!(
        to_chinese(pos, m),
        chinese,
        "Chinese of {iccs} in {}",
        pos.to_fen()
    );
    assert_eq!(parse_wxf(pos, wxf), Ok(m), "{wxf}");
    assert_eq!(parse_chinese(pos, chinese), Ok(m), "{chinese}");
}

/// Checks that an alternative spelling reads as ICCS `iccs`.
fn alt_wxf(pos: &Position, text: &str, iccs: &str) {
    let got = parse_wxf(pos, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(got.to_string(), iccs, "{text}");
}

fn alt_chinese(pos: &Position, text: &str, iccs: &str) {
    let got = parse_chinese(pos, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(got.to_string(), iccs, "{text}");
}

fn fen(f: &str) -> Position {
    Position::from_fen(f).unwrap_or_else(|e| panic!("{f}: {e}"))
}

fn play(pos: &mut Position, iccs: &str) {
    let m = pos.parse_move(iccs).unwrap();
    pos.make_move(m);
}

#[test]
fn opening_moves() {
    // 1. 炮二平五 炮8平5 2. 炮五进四 士4进5 3. 马二进三 马8进7 4. 炮八平五 马2进3
    // 5. 前炮退二 车9平8: the ICCS/Chinese pairs of xqbase's notation article.
    // Red counts files from red's right (i = 1 … a = 9), black from black's
    // right (a = 1 … i = 9), so the cannon on h2 is red's 2nd file and the
    // horse on h9 is black's 8th.
    let mut p = Position::startpos();
    for (iccs, wxf, cn) in [
        ("h2e2", "C2.5", "炮二平五"),
        ("h7e7", "C8.5", "炮８平５"),
        ("e2e6", "C5+4", "炮五进四"),
        ("d9e8", "A4+5", "士４进５"),
        ("h0g2", "H2+3", "马二进三"),
        ("h9g7", "H8+7", "马８进７"),
        ("b2e2", "C8.5", "炮八平五"),
        // Black's horse from b9 (black's 2nd file) to c7 (3rd): 马2进3.
        ("b9c7", "H2+3", "马２进３"),
        // Two red cannons on the e-file: the front one (e6) retreats two.
        ("e6e4", "C+-2", "前炮退二"),
        ("i9h9", "R9.8", "车９平８"),
    ] {
        check(&p, iccs, wxf, cn);
        play(&mut p, iccs);
    }
}

#[test]
fn alternative_spellings_are_read() {
    let p = Position::startpos();
    alt_wxf(&p, "C2=5", "h2e2");
    alt_wxf(&p, "c2.5", "h2e2");
    alt_wxf(&p, "C25", "h2e2");
    alt_wxf(&p, "  C2.5 ", "h2e2");
    alt_wxf(&p, "N2+3", "h0g2");
    alt_wxf(&p, "B3+5", "g0e2");
    alt_wxf(&p, "E3+5", "g0e2");
    alt_wxf(&p, "R1+2", "i0i2");
    alt_wxf(&p, "P7+1", "c3c4");
    alt_wxf(&p, "K5+1", "e0e1");
    alt_chinese(&p, "砲二平五", "h2e2");
    alt_chinese(&p, "包二平五", "h2e2");
    alt_chinese(&p, "炮2平5", "h2e2");
    alt_chinese(&p, "傌二進三", "h0g2");
    alt_chinese(&p, "俥一进二", "i0i2");
    alt_chinese(&p, "帥五进一", "e0e1");
    alt_chinese(&p, "相三进五", "g0e2");
    let mut p = p;
    play(&mut p, "h2e2");
    alt_chinese(&p, "马8进7", "h9g7");
    alt_chinese(&p, "馬8進7", "h9g7");
    alt_chinese(&p, "马八进七", "h9g7");
    alt_chinese(&p, "車9进1", "i9i8");
    alt_chinese(&p, "将５进１", "e9e8");
    alt_chinese(&p, "將5进1", "e9e8");
    alt_chinese(&p, "象3进5", "c9e7");
    alt_wxf(&p, "H8+7", "h9g7");
}

#[test]
fn two_cannons_on_a_file() {
    // Red cannons on a5 and a3 (red's 9th file); front = a5, nearer black.
    // (Examples of the python-chinese-chess README.)
    let p = fen("4k4/9/9/9/C8/9/C8/9/9/3K5 w");
    check(&p, "a3a4", "C-+1", "后炮进一");
    check(&p, "a5e5", "C+.5", "前炮平五");
    check(&p, "a5a9", "C++4", "前炮进四");
    // The sign may stand before the letter, 后 may be 後, and the designator
    // may follow the piece (车前平三 style).
    alt_wxf(&p, "-C+1", "a3a4");
    alt_wxf(&p, "+C.5", "a5e5");
    alt_chinese(&p, "後炮进一", "a3a4");
    alt_chinese(&p, "炮前平五", "a5e5");
    // The file number alone is ambiguous here: both cannons can go forward one.
    let e = parse_wxf(&p, "C9+1").unwrap_err();
    assert!(
        matches!(e, NotationError::Ambiguous { column: 1, .. }),
        "{e}"
    );
    assert!(
        e.to_string().contains("a3a4") && e.to_string().contains("a5a6"),
        "{e}"
    );
}

#[test]
fn two_black_chariots_on_a_file() {
    // Black chariots a9 and a5 on black's 1st file; black's front is the lower rank.
    let p = fen("r3k4/9/9/9/r8/9/9/9/9/3K5 b");
    check(&p, "a5b5", "R+.2", "前车平２");
    check(&p, "a9a8", "R-+1", "后车进１");
    check(&p, "a5a4", "R++1", "前车进１");
    check(&p, "a5a6", "R+-1", "前车退１");
    alt_chinese(&p, "前車平2", "a5b5");
    alt_chinese(&p, "车后进一", "a9a8");
}

#[test]
fn two_horses_on_a_file() {
    // Red horses e4 and e2 on red's 5th file.
    let p = fen("4k4/9/9/9/9/4N4/9/4N4/9/3K5 w");
    check(&p, "e4f6", "H++4", "前马进四");
    check(&p, "e2c1", "H--7", "后马退七");
    check(&p, "e2g3", "H-+3", "后马进三");
}

#[test]
fn advisors_and_elephants_keep_the_file_number() {
    // Red advisors d0 and d2: only the rear one can go forward, only the front
    // one back, so the file number is enough (WXF: A6+5, not A-+5).
    let p = fen("5k3/9/9/9/9/9/9/3A5/9/3AK4 w");
    check(&p, "d0e1", "A6+5", "仕六进五");
    check(&p, "d2e1", "A6-5", "仕六退五");
    alt_wxf(&p, "A-+5", "d0e1");
    alt_chinese(&p, "前仕退五", "d2e1");
    // Red elephants c0 and c4 likewise.
    let p = fen("5k3/9/9/9/9/2B6/9/9/9/2B1K4 w");
    check(&p, "c0e2", "E7+5", "相七进五");
    check(&p, "c4e2", "E7-5", "相七退五");
    check(&p, "c4a2", "E7-9", "相七退九");
}

#[test]
fn three_pawns_on_a_file() {
    // Red pawns c7, c6, c5 on red's 7th file (WXF: P+ front, P7 middle, P- rear;
    // Chinese 前兵, 中兵, 后兵).
    let p = fen("3k5/9/2P6/2P6/2P6/9/9/9/9/4K4 w");
    check(&p, "c7d7", "P+.6", "前兵平六");
    check(&p, "c6d6", "P7.6", "中兵平六");
    check(&p, "c5d5", "P-.6", "后兵平六");
    check(&p, "c7c8", "P++1", "前兵进一");
    alt_chinese(&p, "一兵平六", "c7d7");
    alt_chinese(&p, "二兵平六", "c6d6");
    alt_chinese(&p, "三兵平六", "c5d5");
    // In Chinese the file number names no particular pawn of the three.
    let e = parse_chinese(&p, "兵七平六").unwrap_err();
    assert!(matches!(e, NotationError::Ambiguous { .. }), "{e}");
    // Black: pawns g2, g3, g4 on black's 7th file; black's front is g2.
    let p = fen("4k4/9/9/9/9/6p2/6p2/6p2/9/3K5 b");
    check(&p, "g2f2", "P+.6", "前卒平６");
    check(&p, "g3f3", "P7.6", "中卒平６");
    check(&p, "g4f4", "P-.6", "后卒平６");
}

#[test]
fn four_and_five_pawns_on_a_file() {
    // Four red pawns c8, c7, c6, c5: WXF ++ / P+ / P- / --; Chinese 一兵 … 四兵.
    let p = fen("3k5/2P6/2P6/2P6/2P6/9/9/9/9/4K4 w");
    check(&p, "c8d8", "++.6", "一兵平六");
    check(&p, "c7d7", "P+.6", "二兵平六");
    check(&p, "c6d6", "P-.6", "三兵平六");
    check(&p, "c5d5", "--.6", "四兵平六");
    check(&p, "c8c9", "+++1", "一兵进一");
    alt_chinese(&p, "前兵平六", "c8d8");
    alt_chinese(&p, "后兵平六", "c5d5");
    // Five: c8 … c4; the middle one is named by its file (P7), 三兵 in Chinese.
    let p = fen("3k5/2P6/2P6/2P6/2P6/2P6/9/9/9/4K4 w");
    check(&p, "c8d8", "++.6", "一兵平六");
    check(&p, "c7d7", "P+.6", "二兵平六");
    check(&p, "c6d6", "P7.6", "三兵平六");
    check(&p, "c5d5", "P-.6", "四兵平六");
    alt_chinese(&p, "中兵平六", "c6d6");
}

#[test]
fn pawns_doubled_on_two_files() {
    // Red pawns b7, b6, b5 (red's 8th file) and g8, g6 (3rd file): the file
    // number replaces the piece (WXF 3+.2, 88.9 for the middle one; Chinese
    // 前三平二). Examples of the python-chinese-chess README.
    let p = fen("4k4/6P2/1P7/1P4P2/1P7/n8/n8/9/9/3K5 w");
    check(&p, "g8h8", "3+.2", "前三平二");
    check(&p, "g6h6", "3-.2", "后三平二");
    check(&p, "b5c5", "8-.7", "后八平七");
    check(&p, "b6a6", "88.9", "中八平九");
    check(&p, "b7c7", "8+.7", "前八平七");
    check(&p, "g8g9", "3++1", "前三进一");
    alt_chinese(&p, "前兵三进一", "g8g9");
    alt_chinese(&p, "中兵八平九", "b6a6");
    alt_wxf(&p, "P3+.2", "g8h8");
    alt_wxf(&p, "P88.9", "b6a6");
    // Without the file, "the front pawn" is ambiguous where both front pawns
    // can make the move, and resolved by the move where only one can.
    let e = parse_chinese(&p, "前兵进一").unwrap_err();
    assert!(matches!(e, NotationError::Ambiguous { .. }), "{e}");
    let e = parse_wxf(&p, "P++1").unwrap_err();
    assert!(matches!(e, NotationError::Ambiguous { .. }), "{e}");
    alt_chinese(&p, "前兵平二", "g8h8");
}

#[test]
fn class_change_suffix() {
    // J22: the class the moved piece takes is written after the move.
    let p = Position::startpos();
    let m = p.parse_move("h2e2").unwrap();
    for (class, wxf, cn) in [
        (Class::Idle, "C2.5*", "炮二平五闲"),
        (Class::Small, "C2.5-", "炮二平五小"),
        (Class::Royal, "C2.5+", "炮二平五王"),
        (Class::Normal, "C2.5=", "炮二平五普"),
    ] {
        let mc = m.with_class(class);
        assert_eq!(to_wxf(&p, mc), wxf);
        assert_eq!(to_chinese(&p, mc), cn);
        assert_eq!(parse_wxf(&p, wxf), Ok(mc));
        assert_eq!(parse_chinese(&p, cn), Ok(mc));
    }
    // Either the mark or the word is read in both notations.
    assert_eq!(parse_wxf(&p, "C2.5闲"), Ok(m.with_class(Class::Idle)));
    assert_eq!(
        parse_chinese(&p, "炮二平五*"),
        Ok(m.with_class(Class::Idle))
    );
    assert_eq!(
        parse_chinese(&p, "炮二平五閒"),
        Ok(m.with_class(Class::Idle))
    );
}

#[test]
fn the_pass_and_empty_points_print_without_panicking() {
    let p = Position::startpos();
    assert_eq!(to_wxf(&p, Move::PASS), "0000");
    assert_eq!(to_chinese(&p, Move::PASS), "0000");
    let m = qiyuan_xiangqi::iccs::parse_iccs("e5e6").unwrap();
    assert_eq!(to_wxf(&p, m), "e5e6");
    assert_eq!(to_chinese(&p, m), "e5e6");
}

#[test]
fn errors_say_what_and_where() {
    let p = Position::startpos();
    let cases: [(&str, bool, usize, &str); 14] = [
        ("", true, 1, "empty"),
        ("X2.5", true, 1, "not a piece letter"),
        ("C2x5", true, 3, "not a direction"),
        ("C2.0", true, 4, "number 1-9"),
        ("C2.5!", true, 5, "class mark"),
        ("C2.5.5", true, 6, "too long"),
        ("C3.5", true, 2, "no cannon on file 3"),
        ("C2+9", true, 3, "cannot legally go forward"),
        ("炮二平十", false, 4, "number 1-9"),
        ("炮二走五", false, 3, "not 进, 退 or 平"),
        ("龙二平五", false, 1, "not a piece"),
        ("炮三平五", false, 2, "no cannon on file 3"),
        ("前炮平五", false, 1, "no two red cannons"),
        ("炮二", false, 3, "too short"),
    ];
    for (text, wxf, column, needle) in cases {
        let e = if wxf {
            parse_wxf(&p, text).unwrap_err()
        } else {
            parse_chinese(&p, text).unwrap_err()
        };
        assert_eq!(e.column(), column, "{text}: {e}");
        assert!(e.to_string().contains(needle), "{text}: {e}");
    }
    let e = parse_wxf(&p, "C2.5!").unwrap_err();
    assert_eq!(
        e.to_string(),
        "WXF move 'C2.5!', character 5: '!' is neither a number 1-9 nor a class mark (= - + *)"
    );
}
