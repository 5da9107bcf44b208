//! The move generator against a second, deliberately plain one written
//! here from Q2/Q5-Q7 (every (from, to) pair tested by coordinates, the
//! engineer's paths by depth-first search), on thousands of random
//! positions; perft from the standard position; parsers never panic.

use std::collections::BTreeSet;

use proptest::prelude::*;
use qiyuan_junqi::board::posts;
use qiyuan_junqi::{Piece, Position, Post, Rank, Rules, Setup, Side};

/// A tiny deterministic generator (xorshift), so the test needs no crate.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

fn camp(f: i32, r: i32) -> bool {
    matches!(
        (f, r),
        (1, 5) | (3, 5) | (2, 4) | (1, 3) | (3, 3) | (1, 8) | (3, 8) | (2, 9) | (1, 10) | (3, 10)
    )
}

fn headquarters(f: i32, r: i32) -> bool {
    matches!((f, r), (1, 1) | (3, 1) | (1, 12) | (3, 12))
}

fn road(a: (i32, i32), b: (i32, i32)) -> bool {
    let (df, dr) = ((a.0 - b.0).abs(), (a.1 - b.1).abs());
    let mountains = df == 0 && (a.0 == 1 || a.0 == 3) && a.1.min(b.1) == 6 && dr == 1;
    (df + dr == 1 && !mountains) || (df == 1 && dr == 1 && (camp(a.0, a.1) || camp(b.0, b.1)))
}

/// The straight railway lines, written out by hand.
fn lines() -> Vec<Vec<(i32, i32)>> {
    let mut v = Vec::new();
    for r in [2, 6, 7, 11] {
        v.push((0..5).map(|f| (f, r)).collect());
    }
    for f in [0, 4] {
        v.push((2..=11).map(|r| (f, r)).collect());
    }
    v.push(vec![(2, 6), (2, 7)]);
    v
}

fn rail_neighbours(a: (i32, i32)) -> Vec<(i32, i32)> {
    let mut out = Vec::new();
    for l in lines() {
        for w in l.windows(2) {
            if w[0] == a {
                out.push(w[1]);
            }
            if w[1] == a {
                out.push(w[0]);
            }
        }
    }
    out
}

fn plain_moves(p: &Position) -> BTreeSet<String> {
    let at = |c: (i32, i32)| p.at(Post::at(c.0 as u8, c.1 as u8).expect("on the board"));
    let name = |c: (i32, i32)| format!("{}{}", (b'a' + c.0 as u8) as char, c.1);
    let all: Vec<(i32, i32)> = (1..=12).flat_map(|r| (0..5).map(move |f| (f, r))).collect();
    let mut out = BTreeSet::new();
    for &from in &all {
        let Some(me) = at(from) else { continue };
        if me.side != p.turn()
            || matches!(me.rank, Rank::Flag | Rank::Mine)
            || headquarters(from.0, from.1)
        {
            continue;
        }
        let enterable = |to: (i32, i32)| match at(to) {
            None => true,
            Some(x) => x.side != me.side && !camp(to.0, to.1),
        };
        for &to in &all {
            if to == from || !enterable(to) {
                continue;
            }
            let mut ok = road(from, to);
            if !ok && me.rank != Rank::Engineer {
                for l in lines() {
                    let (Some(i), Some(j)) = (
                        l.iter().position(|&c| c == from),
                        l.iter().position(|&c| c == to),
                    ) else {
                        continue;
                    };
                    let (lo, hi) = (i.min(j), i.max(j));
                    if l[lo + 1..hi].iter().all(|&c| at(c).is_none()) {
                        ok = true;
                    }
                }
            }
            if !ok && me.rank == Rank::Engineer && !rail_neighbours(to).is_empty() {
                // Depth-first over empty railway posts from `from`.
                let mut stack = vec![from];
                let mut seen = vec![from];
                while let Some(c) = stack.pop() {
                    for n in rail_neighbours(c) {
                        if n == to {
                            ok = true;
                        }
                        if at(n).is_none() && !seen.contains(&n) {
                            seen.push(n);
                            stack.push(n);
                        }
                    }
                }
            }
            if ok {
                out.insert(format!("{}{}", name(from), name(to)));
            }
        }
    }
    out
}

fn random_position(rng: &mut Rng) -> Position {
    let mut rows = vec![vec!['.'; 5]; 12];
    let density = 5 + rng.below(60);
    for (k, row) in rows.iter_mut().enumerate() {
        for c in row.iter_mut() {
            if rng.below(100) < density {
                let rank = Rank::ALL[rng.below(12) as usize];
                let side = if rng.below(2) == 0 {
                    Side::Red
                } else {
                    Side::Blue
                };
                *c = Piece { side, rank }.letter();
            }
        }
        let _ = k;
    }
    let board: Vec<String> = rows.iter().map(|r| r.iter().collect()).collect();
    let turn = if rng.below(2) == 0 { 'r' } else { 'b' };
    Position::from_text(&format!("{} {turn} 0 1", board.join("/"))).expect("a position")
}

#[test]
fn the_generator_agrees_with_a_plain_one_on_random_positions() {
    generator_agrees_on(600, 4_000);
}

#[test]
#[ignore = "slow tier"]
fn the_generator_agrees_with_a_plain_one_on_3000_random_positions() {
    generator_agrees_on(3000, 20_000);
}

/// `positions` random positions with more than `least` moves in all: the
/// generator's moves are the plain one's.
fn generator_agrees_on(positions: usize, least: usize) {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut moves = 0;
    for _ in 0..positions {
        let p = random_position(&mut rng);
        let fast: BTreeSet<String> = p.legal_moves().iter().map(ToString::to_string).collect();
        assert_eq!(fast, plain_moves(&p), "{p}");
        moves += fast.len();
    }
    assert!(
        moves > least,
        "the positions have moves to compare: {moves}"
    );
}

#[test]
fn perft_from_the_standard_position() {
    let p = Position::standard();
    // Depth 1 by hand: the five empty camps can be entered from 6 (b3), 7
    // (d3), 4 (c4), 7 (b5) and 7 (d5) movable neighbours (the mine on b2 and
    // the camps around c4 do not count), and the three front files a, c, e
    // attack across the front: 31 + 3. No railway run is open yet.
    assert_eq!(qiyuan_junqi::perft::perft(&p, 1, Rules::default()), 34);
    // Deeper counts, with each position's moves checked against the plain
    // generator along the way.
    let mut frontier = vec![p.clone()];
    for _ in 0..2 {
        let mut next = Vec::new();
        for q in &frontier {
            let fast: BTreeSet<String> = q.legal_moves().iter().map(ToString::to_string).collect();
            assert_eq!(fast, plain_moves(q), "{q}");
            for m in q.legal_moves() {
                next.push(q.after(m, Rules::default()));
            }
        }
        frontier = next;
    }
    assert_eq!(frontier.len(), 1168);
    assert_eq!(qiyuan_junqi::perft::perft(&p, 2, Rules::default()), 1168);
    assert_eq!(qiyuan_junqi::perft::perft(&p, 3, Rules::default()), 37120);
}

proptest! {
    #[test]
    fn parsers_never_panic(s in "\\PC{0,120}") {
        let _ = Position::from_text(&s);
        let _ = qiyuan_junqi::text::parse_move(&s);
        let _ = Setup::parse(Side::Red, &s);
        let _ = Setup::parse(Side::Blue, &s);
    }

    #[test]
    fn set_up_texts_of_the_right_alphabet_never_panic(s in "[SJDLTYCPGMZF.sjdltycpgmzf]{30}") {
        if let Ok(setup) = Setup::parse(Side::Blue, &s) {
            prop_assert_eq!(setup.pieces().count(), 25);
        }
    }
}

#[test]
fn posts_iterate_in_order() {
    let all: Vec<usize> = posts(u64::MAX >> 4).map(|p| p.index()).collect();
    assert_eq!(all, (0..60).collect::<Vec<_>>());
}
