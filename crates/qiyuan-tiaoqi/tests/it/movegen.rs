//! Move generation (T4-T6) and perft: start-position numbers reasoned out by
//! hand, chains in mid-game positions, every printed path a legal chain, and
//! a differential test against a deliberately simple recursive generator.

use std::collections::BTreeSet;

use crate::common::{SEATINGS, random_position, setup};
use qiyuan_tiaoqi::geometry::{Bits, cells};
use qiyuan_tiaoqi::{Cell, Move, Position, Seat, divide, perft};

// How the start numbers come about (doubled coordinates (x, y), T11).
//
// 10 pieces, a to move. a's front row 4 (x = -3, -1, 1, 3) faces the five
// hexagon holes of row 5 (x = -4 … 4); each front piece steps to its two
// row-5 neighbours: 8 steps. Each row-3 piece (x = -2, 0, 2) jumps over
// either front neighbour into row 5: 6 jumps, and no chain goes on (from row
// 5 the only pieces around are row 4's, and behind them row 3 is full but for
// the start hole, which may not be visited again). Rows 1-2 are boxed in.
// 14 moves + pass = 15. Every camp is the same by the star's symmetry, and
// no camp touches another, so 15 for every seating.
//
// Depth 2. With 2 players (a, d), 3 (a then c), 4 (a then c): a's piece
// lands in row 5, out of reach of the second mover's front: 15 × 15 = 225.
//
// With 6 players b moves second, and b's front faces the hexagon holes
// 5.5 (x -4), 6.4, 7.3, 8.2, 9.1; 5.5 also faces a. Counting b's replies:
// - a ends on 5.5 (step 4.1-5.5 or jump 3.1-5.5): b's step 5.4-5.5 and jump
//   5.3-5.5 are blocked, but 5.4 now jumps over a's piece to 5.6: 13 + pass
//   = 14, twice;
// - a ends on 5.6 (steps 4.1-5.6, 4.2-5.6, jump 3.2-5.6): b's jump 5.3-5.5
//   goes on over 5.6 to 5.7: 15 + pass = 16, three times;
// - a ends on 5.7, 5.8, 5.9 or passes (4 + 3 + 2 + 1 = 10 moves): nothing of
//   b's touches them: 15 each.
// 2·14 + 3·16 + 10·15 = 226.
//
// 15 pieces (2 players): a's row 5 (x = -4 … 4) steps to row 6 (x = -5 …
// 5): 10 steps (the row-5 ends border closed camps b and f, T5); each row-4
// piece jumps over either row-5 neighbour into row 6: 8 jumps; nothing else
// moves and no chain goes on. 18 + pass = 19; d is the mirror and out of
// reach: 19 × 19 = 361.
#[test]
fn perft_from_every_start_position() {
    let expect = [
        ((2, 10), 15, 225),
        ((2, 15), 19, 361),
        ((3, 10), 15, 225),
        ((4, 10), 15, 225),
        ((6, 10), 15, 226),
    ];
    for ((pl, pc), d1, d2) in expect {
        let p = Position::start(setup(pl, pc));
        assert_eq!(perft(&p, 1), d1, "{pl} players, {pc} pieces, depth 1");
        assert_eq!(perft(&p, 2), d2, "{pl} players, {pc} pieces, depth 2");
        let split: u64 = divide(&p, 2).iter().map(|(_, n)| n).sum();
        assert_eq!(split, d2);
    }
    // Depth 3. Three players (a, c, e): no two seated camps are neighbours,
    // so 15³ = 3375. Four (a, c, d): a is out of c's and d's reach, and c then
    // d are neighbours as a then b are in the six-player count: 15 × 226.
    assert_eq!(perft(&Position::start(setup(3, 10)), 3), 3375);
    assert_eq!(perft(&Position::start(setup(4, 10)), 3), 15 * 226);
}

#[test]
fn six_player_depth_two_by_root_move() {
    let p = Position::start(setup(6, 10));
    let by_end = |to: &str| -> Vec<u64> {
        divide(&p, 2)
            .into_iter()
            .filter(|(m, _)| matches!(m, Move::Go { to: t, .. } if t.to_string() == to))
            .map(|(_, n)| n)
            .collect()
    };
    assert_eq!(by_end("5.5"), [14, 14]);
    assert_eq!(by_end("5.6"), [16, 16, 16]);
    assert_eq!(by_end("5.7"), [15; 4]);
}

#[test]
fn t4_start_moves_are_the_steps_and_single_jumps() {
    let p = Position::start(setup(2, 10));
    let texts = p.legal_move_texts();
    assert_eq!(
        texts,
        [
            "3.1-5.5", "3.1-5.7", "3.2-5.6", "3.2-5.8", "3.3-5.7", "3.3-5.9", "4.1-5.5", "4.1-5.6",
            "4.2-5.6", "4.2-5.7", "4.3-5.7", "4.3-5.8", "4.4-5.8", "4.4-5.9", "pass",
        ]
    );
}

/// A position from rows written south to north, for tests.
fn pos(players: u8, rows: &[(u8, &str)], turn: char, seats: &str) -> Position {
    let s = setup(players, 10);
    let mut text = Vec::new();
    for r in (1..=17u8).rev() {
        let n = qiyuan_tiaoqi::geometry::ROW_LEN[usize::from(r) - 1];
        let row = rows
            .iter()
            .find(|(k, _)| *k == r)
            .map_or_else(|| ".".repeat(usize::from(n)), |(_, t)| (*t).to_string());
        text.push(row);
    }
    let t = format!("{} {turn} {seats}", text.join("/"));
    Position::from_text(s, &t).unwrap_or_else(|e| panic!("{t}: {e}"))
}

#[test]
fn t4_long_chain_in_a_mid_game_position() {
    // a's piece on 5.7 (x 0) faces a zigzag ladder of d pieces up the middle
    // of the hexagon, on 6.7, 8.6, 10.6, 12.7 (x 1): it climbs
    // 5.7 → 7.7 → 9.5 → 11.7 → 13.7 and may stop after any hop.
    let p = pos(
        2,
        &[
            (1, "a"),
            (2, "aa"),
            (3, "aaa"),
            (4, "a.aa"),
            (5, "......a......"),
            (6, "......d....."),
            (8, ".....d...."),
            (10, ".....d...."),
            (12, "......d....."),
            (14, "...."),
            (15, "ddd"),
            (16, "dd"),
            (17, "d"),
        ],
        'a',
        "ad",
    );
    let texts = p.legal_move_texts();
    for chain in [
        "5.7-7.7",
        "5.7-7.7-9.5",
        "5.7-7.7-9.5-11.7",
        "5.7-7.7-9.5-11.7-13.7",
    ] {
        assert!(texts.iter().any(|t| t == chain), "{chain} in {texts:?}");
    }
    assert_eq!(
        p.parse_move("5.7-13.7"),
        p.parse_move("5.7-7.7-9.5-11.7-13.7")
    );
    // A wrong hop is named.
    let e = p.parse_move("5.7-7.7-9.6").expect_err("not a jump");
    assert!(e.to_string().starts_with("hop 2 7.7-9.6"), "{e}");
    for m in p.legal_moves() {
        assert_chain_is_legal(&p, m);
    }
    // d's reply: its ladder pieces may jump a's climber wherever it stopped.
    let q = p.after(p.parse_move("5.7-11.7").expect("legal"));
    assert!(q.legal_move_texts().iter().any(|t| t == "12.7-10.7"), "{q}");
}

/// T13: the printed path is a legal step or chain from start to end.
fn assert_chain_is_legal(p: &Position, m: Move) {
    let Move::Go { from, to } = m else { return };
    let path = p.path(m).expect("legal move has a path");
    assert_eq!((path[0], path[path.len() - 1]), (from, to));
    let allowed = p.turn().allowed();
    let occ = p.occupied() & !from.bit();
    if path.len() == 2 && (0..6).any(|d| from.neighbour(d) == Some(to)) {
        assert_eq!(occ & to.bit(), 0);
        assert_ne!(allowed & to.bit(), 0);
        return;
    }
    let mut seen = BTreeSet::from([from]);
    for w in path.windows(2) {
        let d = (0..6)
            .find(|&d| w[0].beyond(d) == Some(w[1]))
            .unwrap_or_else(|| panic!("{}: {} to {} is no jump", p.move_text(m), w[0], w[1]));
        let over = w[0].neighbour(d).expect("middle hole");
        assert_ne!(occ & over.bit(), 0, "jumps over a piece");
        assert_ne!(allowed & over.bit(), 0, "T5: not over a closed camp");
        assert_eq!(occ & w[1].bit(), 0, "lands on an empty hole");
        assert_ne!(allowed & w[1].bit(), 0, "T5: not into a closed camp");
        assert!(seen.insert(w[1]), "T4: no hole twice");
    }
    // One shortest path: no chain with fewer hops reaches the end.
    let shortest = simple::chain_ends_by_length(p, from);
    assert_eq!(
        shortest.get(&to).copied(),
        Some(path.len() - 1),
        "{}",
        p.move_text(m)
    );
}

#[test]
fn every_printed_path_is_a_legal_shortest_chain() {
    for (k, (pl, pc)) in SEATINGS.into_iter().enumerate() {
        for seed in 0..40u64 {
            let p = random_position(setup(pl, pc), seed * 7 + k as u64, 30 + seed as usize * 3);
            for m in p.legal_moves() {
                assert_chain_is_legal(&p, m);
            }
        }
    }
}

/// The second generator: plain recursion over every chain path, written
/// from T4/T5 without the bitboard tables.
mod simple {
    use super::*;
    use std::collections::BTreeMap;

    fn open(p: &Position, c: Cell) -> bool {
        p.turn().allowed() & c.bit() != 0
    }

    fn walk(
        p: &Position,
        from: Cell,
        at: Cell,
        path: &mut Vec<Cell>,
        out: &mut BTreeMap<Cell, usize>,
    ) {
        for d in 0..6 {
            let (Some(over), Some(land)) = (at.neighbour(d), at.beyond(d)) else {
                continue;
            };
            let over_piece = over != from && p.piece_at(over).is_some();
            let land_free = land == from || p.piece_at(land).is_none();
            if over_piece && open(p, over) && land_free && open(p, land) && !path.contains(&land) {
                path.push(land);
                let hops = path.len() - 1;
                let e = out.entry(land).or_insert(hops);
                *e = (*e).min(hops);
                walk(p, from, land, path, out);
                path.pop();
            }
        }
    }

    /// End holes of all chains from `from`, with the fewest hops to each.
    pub fn chain_ends_by_length(p: &Position, from: Cell) -> BTreeMap<Cell, usize> {
        let mut out = BTreeMap::new();
        walk(p, from, from, &mut vec![from], &mut out);
        out
    }

    pub fn moves(p: &Position) -> BTreeSet<(Cell, Cell)> {
        let mut out = BTreeSet::new();
        for from in Cell::all().filter(|&c| p.piece_at(c) == Some(p.turn())) {
            for d in 0..6 {
                if let Some(n) = from.neighbour(d)
                    && p.piece_at(n).is_none()
                    && open(p, n)
                {
                    out.insert((from, n));
                }
            }
            for to in chain_ends_by_length(p, from).into_keys() {
                out.insert((from, to));
            }
        }
        out
    }
}

#[test]
fn differential_against_recursive_path_enumeration() {
    let mut checked = 0;
    for (k, (pl, pc)) in SEATINGS.into_iter().enumerate() {
        for seed in 0..600u64 {
            let plies = (seed as usize * 13) % 160;
            let p = random_position(setup(pl, pc), seed ^ (k as u64) << 32, plies);
            let fast: BTreeSet<(Cell, Cell)> = p
                .legal_moves()
                .into_iter()
                .filter_map(|m| match m {
                    Move::Go { from, to } => Some((from, to)),
                    Move::Pass => None,
                })
                .collect();
            let mut slow = simple::moves(&p);
            // T7, which the simple generator leaves to the caller: with three
            // repetitions used, the last move may not be undone.
            if p.repetitions(p.turn()) >= 3
                && let Some((was, now)) = p.last_move(p.turn())
            {
                slow.remove(&(now, was));
            }
            assert_eq!(fast, slow, "{pl} players, {pc} pieces: {p}");
            assert_eq!(p.count_moves(), fast.len() + 1);
            checked += 1;
        }
    }
    assert_eq!(checked, 3000);
}

#[test]
fn t5_jumps_never_pass_over_or_land_in_a_closed_camp() {
    // a's piece on 5.5 next to b's pieces in camp b (5.4): no jump over them,
    // and in 6 players nothing of a ever ends in b's or f's camp.
    for seed in 0..200u64 {
        let p = random_position(setup(6, 10), seed, 60);
        let closed: Bits = !p.turn().allowed();
        for m in p.legal_moves() {
            if let Some(path) = p.path(m) {
                assert!(
                    path.iter().all(|c| closed & c.bit() == 0),
                    "{}",
                    p.move_text(m)
                );
            }
        }
    }
    // 6 players: a steps to 5.5 beside b's 5.4, b's 5.3 leaves; a may not
    // jump over 5.4 into 5.3 (camp b is closed to a).
    let mut p = Position::start(setup(6, 10));
    for m in ["4.1-5.5", "5.3-7.3", "pass", "pass", "pass", "pass"] {
        let mv = p.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        p.make(mv);
    }
    let e = p.parse_move("5.5-5.3").expect_err("closed camp");
    assert!(e.to_string().contains("closed to this player (T5)"), "{e}");
    assert!(!p.legal_move_texts().iter().any(|t| t.ends_with("-5.3")));
}

#[test]
fn t6_pass_is_always_legal_and_listed_last() {
    for (pl, pc) in SEATINGS {
        let p = random_position(setup(pl, pc), u64::from(pl) * 31 + u64::from(pc), 50);
        assert_eq!(p.legal_moves().last(), Some(&Move::Pass));
        assert_eq!(p.parse_move("pass"), Ok(Move::Pass));
        let after = p.after(Move::Pass);
        assert_eq!(after.turn(), p.next_after(p.turn()));
        assert_eq!(cells(after.occupied()).count(), cells(p.occupied()).count());
    }
    let _ = Seat::A;
}

/// Perft through the simple generator (T7 is out of reach at these depths
/// from a parsed or start position: it needs three repetitions).
fn simple_perft(p: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut n = simple_perft(&p.after(Move::Pass), depth - 1);
    for (from, to) in simple::moves(p) {
        n += simple_perft(&p.after(Move::Go { from, to }), depth - 1);
    }
    n
}

#[test]
fn perft_depth_three_agrees_with_the_simple_generator() {
    for (pl, pc) in SEATINGS {
        let p = Position::start(setup(pl, pc));
        let n = perft(&p, 3);
        assert_eq!(n, simple_perft(&p, 3), "{pl} players, {pc} pieces");
        println!("{pl} players, {pc} pieces: perft 3 = {n}");
        // Through the text, which drops the T7 history.
        let played = random_position(setup(pl, pc), u64::from(pl * pc), 90);
        let mid = Position::from_text(setup(pl, pc), &played.to_string()).expect("parses");
        assert_eq!(perft(&mid, 2), simple_perft(&mid, 2), "{mid}");
    }
}
