//! Position and move text (T11, T13): exact forms, errors that say where, no
//! panics on any input, print → parse round trips.

use crate::common::{SEATINGS, random_position, setup};
use proptest::prelude::*;
use qiyuan_tiaoqi::{Move, MoveInput, Position, PositionError};

const START_2: &str = "d/dd/ddd/dddd/............./............/.........../........../\
........./........../.........../............/............./aaaa/aaa/aa/a a ad";

#[test]
fn t13_start_positions_print_exactly() {
    assert_eq!(Position::start(setup(2, 10)).to_string(), START_2);
    let six = Position::start(setup(6, 10)).to_string();
    assert_eq!(
        six,
        "d/dd/ddd/dddd/cccc.....eeee/ccc......eee/cc.......ee/c........e/.........\
/b........f/bb.......ff/bbb......fff/bbbb.....ffff/aaaa/aaa/aa/a a abcdef"
    );
    let fifteen = Position::start(setup(2, 15)).to_string();
    assert!(
        fifteen.starts_with("d/dd/ddd/dddd/....ddddd..../"),
        "{fifteen}"
    );
    assert!(
        fifteen.ends_with("/....aaaaa..../aaaa/aaa/aa/a a ad"),
        "{fifteen}"
    );
    assert!(
        Position::start(setup(3, 10))
            .to_string()
            .ends_with(" a ace")
    );
    assert!(
        Position::start(setup(4, 10))
            .to_string()
            .ends_with(" a acdf")
    );
    for (pl, pc) in SEATINGS {
        let p = Position::start(setup(pl, pc));
        assert_eq!(Position::from_text(setup(pl, pc), &p.to_string()), Ok(p));
    }
}

#[test]
fn t13_position_errors_name_the_place() {
    let s2 = setup(2, 10);
    let e = |t: &str| Position::from_text(s2, t).expect_err(t);
    assert_eq!(e("x"), PositionError::Fields { found: 1 });
    assert_eq!(
        e(&START_2.replace(" a ad", " a  ad")),
        PositionError::Fields { found: 4 }
    );
    assert_eq!(
        e(&START_2.replacen("d/dd/", "d/", 1)),
        PositionError::Rows { found: 16 }
    );
    let short = START_2.replacen("/dddd/", "/ddd/", 1);
    assert_eq!(
        e(&short),
        PositionError::RowLength {
            row: 14,
            part: 4,
            found: 3,
            expected: 4
        }
    );
    let bad = START_2.replacen("aaaa", "aaza", 1);
    assert_eq!(
        e(&bad).to_string(),
        "hole 4.3: 'z' is not '.' or a letter a-f"
    );
    // T5: an a piece in camp b (5.1), a b piece in a two-player game.
    let closed = START_2.replacen("/............./aaaa/", "/a............/.aaa/", 1);
    assert_eq!(
        e(&closed).to_string(),
        "hole 5.1: a piece of a in camp b, which is closed to it (T5)"
    );
    let b = START_2.replacen("/............./aaaa", "/b............/aaaa", 1);
    assert!(
        matches!(e(&b), PositionError::NotSeated { .. }),
        "{}",
        e(&b)
    );
    assert!(
        e(&START_2.replace(" a ad", " b ad"))
            .to_string()
            .starts_with("field 2 'b'")
    );
    assert!(
        e(&START_2.replace(" a ad", " a da"))
            .to_string()
            .contains("play order")
    );
    assert!(
        e(&START_2.replace(" a ad", " a ae"))
            .to_string()
            .contains("not seated")
    );
    assert_eq!(
        e(&START_2.replace(" a ad", " a ")),
        PositionError::Fields { found: 2 }
    );
    let nine = START_2.replacen("/a a ad", "/. a ad", 1);
    assert_eq!(e(&nine).to_string(), "a has 9 pieces; expected 10");
    // A seat left out of play may have no pieces (it left, T14) …
    let gone = START_2.replacen("/aaaa/aaa/aa/a a ad", "/..../.../../. d d", 1);
    assert!(Position::from_text(s2, &gone).is_ok());
    // … but not some of them.
    let some = START_2.replacen("/aaaa/aaa/aa/a a ad", "/aaaa/.../../. d d", 1);
    assert_eq!(
        e(&some).to_string(),
        "a has 4 pieces; expected 10 or none (out of play)"
    );
}

#[test]
fn t13_move_text() {
    assert_eq!(MoveInput::parse("pass"), Ok(MoveInput::Pass));
    assert_eq!(
        MoveInput::parse(" 4.2-5.6 ").map(|m| m.to_string()),
        Ok("4.2-5.6".into())
    );
    let e = |t: &str| MoveInput::parse(t).expect_err(t).to_string();
    assert_eq!(
        e(""),
        "empty move: write 'pass' or holes ROW.COL joined by '-'"
    );
    assert_eq!(
        e("4.2"),
        "'4.2': a move needs at least two holes joined by '-' (or 'pass')"
    );
    assert_eq!(e("4.2-18.1"), "hole 2 '18.1': row 18 is not 1-17");
    assert_eq!(e("4.5-5.6"), "hole 1 '4.5': row 4 has columns 1-4, not 5");
    assert_eq!(e("4.2-5"), "hole 2 '5': expected ROW.COL, e.g. 5.7");
    assert_eq!(e("4.2--5.6"), "hole 2 '': expected ROW.COL, e.g. 5.7");
    let p = Position::start(setup(2, 10));
    assert_eq!(
        p.move_text(p.parse_move("4.2-5.6").expect("step")),
        "4.2-5.6"
    );
    assert_eq!(p.move_text(Move::Pass), "pass");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn no_position_text_panics(s in "\\PC{0,200}") {
        for (pl, pc) in SEATINGS {
            let _ = Position::from_text(setup(pl, pc), &s);
        }
    }

    #[test]
    fn no_near_position_text_panics(k in 0usize..200, c in "[a-g./ 0-9]{0,3}") {
        // Mutations of a real position reach the deeper checks.
        let base = Position::start(setup(6, 10)).to_string();
        let k = k.min(base.len());
        let text = format!("{}{}{}", &base[..k], c, &base[(k + c.len()).min(base.len())..]);
        let _ = Position::from_text(setup(6, 10), &text);
    }

    #[test]
    fn no_move_text_panics(s in "\\PC{0,60}", t in "[0-9.\\-pas]{0,40}") {
        let p = Position::start(setup(6, 10));
        let _ = p.parse_move(&s);
        let _ = p.parse_move(&t);
    }

    #[test]
    fn positions_and_moves_round_trip(seed in any::<u64>(), k in 0usize..5, plies in 0usize..120) {
        let (pl, pc) = SEATINGS[k];
        let p = random_position(setup(pl, pc), seed, plies);
        let text = p.to_string();
        let back = Position::from_text(setup(pl, pc), &text).expect("printed text parses");
        prop_assert_eq!(back.to_string(), text.clone());
        for m in p.legal_moves() {
            let t = p.move_text(m);
            prop_assert_eq!(p.parse_move(&t), Ok(m), "{}", &t);
            prop_assert_eq!(p.parse_move(&m.to_string()), Ok(m), "{}", m);
        }
    }
}
