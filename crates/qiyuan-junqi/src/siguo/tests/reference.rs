//! A second move generator for the four-army board, written from the words
//! of S3-S6 alone, with posts as text: the blocks' squares (S3), the camps
//! and headquarters worked out by hand from S4, roads as grid neighbours
//! inside one block plus the camps' diagonals (S5), and the straight lines
//! copied from S6's list; railway links are the neighbours along those
//! lines. It shares nothing with `graph.rs` or `position.rs` but the piece
//! ranks, and reads the pieces off the position.

use std::collections::{BTreeMap, BTreeSet};

use super::super::{Position, Unit, team_of};
use crate::piece::Rank;

type Sq = (u8, u8); // file 0 = a, rank from 1

fn sq(name: &str) -> Sq {
    let b = name.as_bytes();
    (b[0] - b'a', name[1..].parse().expect("rank"))
}

fn name((f, r): Sq) -> String {
    format!("{}{r}", (b'a' + f) as char)
}

/// S3: which block a square is in (0-3: s e n w; 4 centre), if a post.
fn block((f, r): Sq) -> Option<u8> {
    match (f, r) {
        (6..=10, 1..=6) => Some(0),
        (11..=16, 7..=11) => Some(1),
        (6..=10, 12..=17) => Some(2),
        (0..=5, 7..=11) => Some(3),
        (6 | 8 | 10, 7 | 9 | 11) => Some(4),
        _ => None,
    }
}

/// S4, worked out by hand for each army.
const CAMPS: &str = "h3 j3 i4 h5 j5  o8 o10 n9 m8 m10  j15 h15 i14 j13 h13  c10 c8 d9 e10 e8";
const HEADQUARTERS: &str = "h1 j1  q8 q10  j17 h17  a10 a8";

/// S6's lines, as listed there.
const LINES: &[&str] = &[
    "g2 g3 g4 g5 g6 g7 g9 g11 g12 g13 g14 g15 g16",
    "k2 k3 k4 k5 k6 k7 k9 k11 k12 k13 k14 k15 k16",
    "i6 i7 i9 i11 i12",
    "b7 c7 d7 e7 f7 g7 i7 k7 l7 m7 n7 o7 p7",
    "b11 c11 d11 e11 f11 g11 i11 k11 l11 m11 n11 o11 p11",
    "f9 g9 i9 k9 l9",
    "g2 h2 i2 j2 k2",
    "g6 h6 i6 j6 k6",
    "g16 h16 i16 j16 k16",
    "g12 h12 i12 j12 k12",
    "b7 b8 b9 b10 b11",
    "f7 f8 f9 f10 f11",
    "p7 p8 p9 p10 p11",
    "l7 l8 l9 l10 l11",
    "g2 g3 g4 g5 g6 f7 e7 d7 c7 b7",
    "k2 k3 k4 k5 k6 l7 m7 n7 o7 p7",
    "k16 k15 k14 k13 k12 l11 m11 n11 o11 p11",
    "g16 g15 g14 g13 g12 f11 e11 d11 c11 b11",
];

struct Board {
    camps: BTreeSet<Sq>,
    headquarters: BTreeSet<Sq>,
    roads: BTreeMap<Sq, BTreeSet<Sq>>,
    rails: BTreeMap<Sq, BTreeSet<Sq>>,
    lines: Vec<Vec<Sq>>,
}

fn board() -> Board {
    let camps: BTreeSet<Sq> = CAMPS.split_whitespace().map(sq).collect();
    let headquarters: BTreeSet<Sq> = HEADQUARTERS.split_whitespace().map(sq).collect();
    let mut roads: BTreeMap<Sq, BTreeSet<Sq>> = BTreeMap::new();
    let posts: Vec<Sq> = (0..17u8)
        .flat_map(|f| (1..=17u8).map(move |r| (f, r)))
        .filter(|&s| block(s).is_some())
        .collect();
    assert_eq!(posts.len(), 129);
    for &a in &posts {
        for (df, dr) in [(1i8, 0i8), (0, 1)] {
            let b = ((a.0 as i8 + df) as u8, (a.1 as i8 + dr) as u8);
            if block(a) != Some(4) && block(a) == block(b) {
                roads.entry(a).or_default().insert(b);
                roads.entry(b).or_default().insert(a);
            }
        }
    }
    for &c in &camps {
        for (df, dr) in [(1i8, 1i8), (1, -1), (-1, 1), (-1, -1)] {
            let b = ((c.0 as i8 + df) as u8, (c.1 as i8 + dr) as u8);
            roads.entry(c).or_default().insert(b);
            roads.entry(b).or_default().insert(c);
        }
    }
    let lines: Vec<Vec<Sq>> = LINES
        .iter()
        .map(|l| l.split_whitespace().map(sq).collect())
        .collect();
    let mut rails: BTreeMap<Sq, BTreeSet<Sq>> = BTreeMap::new();
    for line in &lines {
        for w in line.windows(2) {
            rails.entry(w[0]).or_default().insert(w[1]);
            rails.entry(w[1]).or_default().insert(w[0]);
        }
    }
    Board {
        camps,
        headquarters,
        roads,
        rails,
        lines,
    }
}

/// The legal moves of the army to move, as text (`g2g16`).
pub fn moves(p: &Position) -> BTreeSet<String> {
    let b = board();
    let g = p.graph();
    let mut pieces: BTreeMap<Sq, Unit> = BTreeMap::new();
    for post in g.posts() {
        if let Some(u) = p.at(post) {
            pieces.insert(sq(g.name(post)), u);
        }
    }
    let mut out = BTreeSet::new();
    let army = p.turn();
    let over = (0..2).any(|t| (0..4).filter(|&a| team_of(a) == t).all(|a| p.is_out(a)));
    if over || p.is_out(army) {
        return out;
    }
    let enters = |to: Sq| match pieces.get(&to) {
        None => true,
        Some(u) => team_of(u.army) != team_of(army) && !b.camps.contains(&to),
    };
    for (&from, u) in &pieces {
        if u.army != army
            || matches!(u.rank, Rank::Flag | Rank::Mine)
            || b.headquarters.contains(&from)
        {
            continue;
        }
        let mut to: BTreeSet<Sq> = BTreeSet::new();
        for &n in b.roads.get(&from).into_iter().flatten() {
            if enters(n) {
                to.insert(n);
            }
        }
        if u.rank == Rank::Engineer {
            let mut seen = BTreeSet::from([from]);
            let mut stack = vec![from];
            while let Some(a) = stack.pop() {
                for &n in b.rails.get(&a).into_iter().flatten() {
                    if !seen.insert(n) {
                        continue;
                    }
                    if !pieces.contains_key(&n) {
                        to.insert(n);
                        stack.push(n);
                    } else if enters(n) {
                        to.insert(n);
                    }
                }
            }
        } else {
            for line in &b.lines {
                let Some(i) = line.iter().position(|&s| s == from) else {
                    continue;
                };
                for step in [-1i32, 1] {
                    let mut j = i as i32 + step;
                    while j >= 0 && (j as usize) < line.len() {
                        let s = line[j as usize];
                        if !pieces.contains_key(&s) {
                            to.insert(s);
                        } else {
                            if enters(s) {
                                to.insert(s);
                            }
                            break;
                        }
                        j += step;
                    }
                }
            }
        }
        for t in to {
            out.insert(format!("{}{}", name(from), name(t)));
        }
    }
    out
}
