//! Berger tables for round robins (H4).
//!
//! Players are numbered 0..n in seeding order (Berger number = index + 1). For
//! odd n a dummy player n+1 is added and whoever meets it has a bye. The tables
//! are the FIDE ones (C.05 Annex 1): for n = 6, round 1 is 1-6 2-5 3-4, round 2
//! 6-4 5-3 1-2, round 3 2-6 3-1 4-5, and so on.
//!
//! Construction: the players other than the last form a ring 1..n-1. Round r
//! (from 0) starts the ring at `r * n/2` (mod n-1); the first in the ring plays
//! the last player, colours alternating by round; then the ring's k-th from the
//! front (red) plays the k-th from the back (black).

use serde::{Deserialize, Serialize};

/// One round of a Berger table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BergerRound {
    /// `(red, black)` player indices, board 1 first.
    pub pairs: Vec<(usize, usize)>,
    /// The player with no game this round (odd n only).
    pub bye: Option<usize>,
}

/// The single round robin for `n` players: n-1 rounds for even n, n for odd n.
/// Returns no rounds for n < 2.
pub fn single(n: usize) -> Vec<BergerRound> {
    if n < 2 {
        return Vec::new();
    }
    let m = n + n % 2; // with the dummy
    let ring = m - 1;
    let half = m / 2;
    let mut rounds = Vec::with_capacity(ring);
    for r in 0..ring {
        let start = (r * half) % ring;
        let at = |k: usize| (start + k) % ring;
        let mut pairs = Vec::with_capacity(half);
        let mut bye = None;
        let mut push = |red: usize, black: usize| {
            // The dummy (index m-1 when n is odd) is never a real opponent.
            if red >= n {
                bye = Some(black);
            } else if black >= n {
                bye = Some(red);
            } else {
                pairs.push((red, black));
            }
        };
        let last = m - 1;
        if r % 2 == 0 {
            push(at(0), last);
        } else {
            push(last, at(0));
        }
        for k in 1..half {
            push(at(k), at(ring - k));
        }
        rounds.push(BergerRound { pairs, bye });
    }
    rounds
}

/// The double round robin: the single table twice, colours reversed in the
/// second cycle so every player has each colour equally often.
pub fn double(n: usize) -> Vec<BergerRound> {
    let first = single(n);
    let second: Vec<BergerRound> = first
        .iter()
        .map(|r| BergerRound {
            pairs: r.pairs.iter().map(|&(a, b)| (b, a)).collect(),
            bye: r.bye,
        })
        .collect();
    first.into_iter().chain(second).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one_based(r: &BergerRound) -> Vec<(usize, usize)> {
        r.pairs.iter().map(|&(a, b)| (a + 1, b + 1)).collect()
    }

    #[test]
    fn h4_matches_the_fide_table_for_6() {
        let t = single(6);
        assert_eq!(t.len(), 5);
        assert_eq!(one_based(&t[0]), vec![(1, 6), (2, 5), (3, 4)]);
        assert_eq!(one_based(&t[1]), vec![(6, 4), (5, 3), (1, 2)]);
        assert_eq!(one_based(&t[2]), vec![(2, 6), (3, 1), (4, 5)]);
        assert_eq!(one_based(&t[3]), vec![(6, 5), (1, 4), (2, 3)]);
        assert_eq!(one_based(&t[4]), vec![(3, 6), (4, 2), (5, 1)]);
    }

    #[test]
    fn h4_matches_the_fide_table_for_4_and_odd_3() {
        let t = single(4);
        assert_eq!(one_based(&t[0]), vec![(1, 4), (2, 3)]);
        assert_eq!(one_based(&t[1]), vec![(4, 3), (1, 2)]);
        assert_eq!(one_based(&t[2]), vec![(2, 4), (3, 1)]);
        // n = 3 uses the table for 4; whoever meets player 4 sits out.
        let t = single(3);
        assert_eq!(t.len(), 3);
        assert_eq!(one_based(&t[0]), vec![(2, 3)]);
        assert_eq!(t[0].bye, Some(0));
        assert_eq!(t[1].bye, Some(2));
        assert_eq!(t[2].bye, Some(1));
    }

    /// Every pair meets exactly once, everyone plays at most once a round,
    /// colours differ by at most one, odd fields give each player one bye.
    #[test]
    fn h4_berger_tables_for_3_to_16() {
        for n in 3..=16 {
            let t = single(n);
            assert_eq!(t.len(), if n % 2 == 0 { n - 1 } else { n }, "n={n}");
            let mut met = vec![vec![0u32; n]; n];
            let mut reds = vec![0i32; n];
            let mut byes = vec![0u32; n];
            for r in &t {
                let mut seen = vec![false; n];
                for &(a, b) in &r.pairs {
                    assert!(a < n && b < n && a != b);
                    for p in [a, b] {
                        assert!(!seen[p], "n={n}: {p} twice in a round");
                        seen[p] = true;
                    }
                    met[a][b] += 1;
                    met[b][a] += 1;
                    reds[a] += 1;
                    reds[b] -= 1;
                }
                if let Some(p) = r.bye {
                    assert!(!seen[p]);
                    seen[p] = true;
                    byes[p] += 1;
                }
                assert!(seen.iter().all(|&s| s), "n={n}: someone missing");
            }
            for a in 0..n {
                for (b, &count) in met[a].iter().enumerate() {
                    assert_eq!(count, u32::from(a != b), "n={n} {a}-{b}");
                }
                // Reds minus blacks: an even field plays n-1 (odd) games each, so
                // one colour once more; an odd field plays n-1 (even) games, balanced.
                let want = if n % 2 == 0 { 1 } else { 0 };
                assert_eq!(reds[a].abs(), want, "n={n} p={a}");
                assert_eq!(byes[a], (n % 2) as u32, "n={n}");
            }
            let d = double(n);
            let mut diff = vec![0i32; n];
            for r in &d {
                for &(a, b) in &r.pairs {
                    diff[a] += 1;
                    diff[b] -= 1;
                }
            }
            assert!(diff.iter().all(|&x| x == 0), "double n={n}: {diff:?}");
        }
    }
}
