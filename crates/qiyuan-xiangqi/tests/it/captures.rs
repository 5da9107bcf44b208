//! `legal_captures_into` (the engine's quiescence generator) must be exactly
//! the captures of the full legal list, in every rule set: checked at every
//! node of small trees from busy middlegame positions, in and out of check.

use qiyuan_xiangqi::{Move, MoveList, Position, Variant};

fn sorted(mut v: Vec<Move>) -> Vec<Move> {
    v.sort_by_key(|m| m.to_string());
    v
}

fn walk(pos: &mut Position, depth: u32, seen: &mut u64) {
    let all = pos.legal_moves();
    let want: Vec<Move> = all
        .iter()
        .copied()
        .filter(|m| !m.is_pass() && pos.piece_at(m.to()).is_some() && m.new_class().is_none())
        .collect();
    let mut got = MoveList::new();
    pos.legal_captures_into(&mut got);
    assert_eq!(
        sorted(got.to_vec()),
        sorted(want),
        "captures of {}",
        pos.to_fen()
    );
    *seen += 1;
    if depth == 0 {
        return;
    }
    for m in all {
        let undo = pos.make_move(m);
        walk(pos, depth - 1, seen);
        pos.unmake_move(m, undo);
    }
}

#[test]
fn captures_are_the_capturing_legal_moves() {
    let fens = [
        // Central cannon against screen horses, pieces in contact.
        "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 3",
        // Red in check from a cannon, with pins on the king's file.
        "3akab2/4n4/4b4/p3c1p2/9/2P3R2/P3C3P/4B4/4A4/3AK4 w - - 0 30",
        // Chariots and horses near both palaces.
        "2bak4/4a4/4b1n2/p1R3p1p/4r4/2P6/P3n1P1P/4B4/4A4/2BAK1C2 w - - 0 25",
    ];
    let mut seen = 0;
    for fen in fens {
        for v in [Variant::Xiangqi, Variant::JifenMatch] {
            let mut pos = Position::from_fen_variant(fen, v, None).unwrap();
            walk(&mut pos, 2, &mut seen);
        }
    }
    assert!(seen > 10_000, "only {seen} nodes checked");
}
