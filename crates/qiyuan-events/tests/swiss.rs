//! Swiss pairing (H4, FIDE Dutch style): worked examples and invariants.
//!
//! The worked examples are constructed by hand from the Dutch rules
//! (C.04.3): sort by score then pairing number, split each score group into
//! S1 (top half) and S2 (bottom half), pair S1[i] with S2[i], transpose S2
//! when that would repeat a pairing, float the odd player down, and allocate
//! colours by preference strength, then colour difference, then alternation,
//! then rank.

use proptest::prelude::*;
use qiyuan_events::Side::{Black, Red};
use qiyuan_events::swiss::{SwissPlayer, pair};
use std::collections::BTreeSet;

fn fresh(n: usize) -> Vec<SwissPlayer> {
    vec![SwissPlayer::default(); n]
}

/// Applies a round: winners by `win(a, b)` (true when a wins), 1 point a win.
fn apply(
    ps: &mut [SwissPlayer],
    pairs: &[(usize, usize)],
    bye: Option<usize>,
    mut win: impl FnMut(usize, usize) -> bool,
) {
    for &(r, b) in pairs {
        ps[r].opponents.push(b);
        ps[b].opponents.push(r);
        ps[r].colours.push(Red);
        ps[b].colours.push(Black);
        if win(r, b) {
            ps[r].score += 1.0;
        } else {
            ps[b].score += 1.0;
        }
    }
    if let Some(p) = bye {
        ps[p].had_bye = true;
        ps[p].score += 1.0;
    }
}

fn one_based(pairs: &[(usize, usize)]) -> Vec<(usize, usize)> {
    pairs.iter().map(|&(a, b)| (a + 1, b + 1)).collect()
}

/// Eight players. Round 1: S1 = 1-4 v S2 = 5-8, red on odd boards to the
/// higher seed: 1-5, 6-2, 3-7, 8-4. The higher seeds all win.
/// Round 2, score group 1 point {1,2,3,4}: 1 v 3 and 2 v 4. 1 and 3 both had
/// red and want black with the same strength and difference; they never had
/// different colours, so the higher-ranked 1 gets black: 3-1. 2 and 4 both
/// want red: 2-4. Group 0 {5,6,7,8}: 5-7 (both want red, 5 ranks higher),
/// 8-6 (both want black, 6 ranks higher, so 6 gets black).
#[test]
fn h4_dutch_rounds_one_and_two() {
    let mut ps = fresh(8);
    let r1 = pair(&ps).unwrap();
    assert_eq!(one_based(&r1.pairs), vec![(1, 5), (6, 2), (3, 7), (8, 4)]);
    assert_eq!(r1.bye, None);
    apply(&mut ps, &r1.pairs, None, |a, b| a < b);
    let r2 = pair(&ps).unwrap();
    assert_eq!(one_based(&r2.pairs), vec![(3, 1), (2, 4), (5, 7), (8, 6)]);
}

/// Round 3 of the same example, the higher seeds winning again. Score groups:
/// {1,2} on 2, {3,4,5,6} on 1, {7,8} on 0. Top group: 1 v 2 (new). Middle
/// group: S1 {3,4}, S2 {5,6}: 3-5 and 4-6 are both new. Bottom: 7 v 8.
#[test]
fn h4_dutch_round_three_respects_score_groups() {
    let mut ps = fresh(8);
    let r1 = pair(&ps).unwrap();
    apply(&mut ps, &r1.pairs, None, |a, b| a < b);
    let r2 = pair(&ps).unwrap();
    apply(&mut ps, &r2.pairs, None, |a, b| a < b);
    // Scores now: 1 and 2 have 2; 3, 4, 5, 6 have 1; 7, 8 have 0.
    let scores: Vec<f64> = ps.iter().map(|p| p.score).collect();
    assert_eq!(scores, vec![2.0, 2.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0]);
    let r3 = pair(&ps).unwrap();
    let mut pairs: Vec<(usize, usize)> = r3
        .pairs
        .iter()
        .map(|&(a, b)| (a.min(b) + 1, a.max(b) + 1))
        .collect();
    pairs.sort();
    // Group 2: 1 v 2. Group 1: S1 {3,4}, S2 {5,6}: 3-5 and 4-6 are new. Group 0: 7 v 8.
    assert_eq!(pairs, vec![(1, 2), (3, 5), (4, 6), (7, 8)]);
}

/// A repeat is avoided by transposing S2, and an odd group floats its lowest
/// player down. Six players after round 1 (1-4, 5-2, 3-6; higher seeds win):
/// group 1 point {1,2,3}: S1 {1}, S2 {2,3}: 1-2; 3 floats down to the 0-point
/// group {4,5,6} and meets its top player it has not met: 4 (it met 6).
/// Then 5-6 remain.
#[test]
fn h4_dutch_floaters_and_transpositions() {
    let mut ps = fresh(6);
    let r1 = pair(&ps).unwrap();
    assert_eq!(one_based(&r1.pairs), vec![(1, 4), (5, 2), (3, 6)]);
    apply(&mut ps, &r1.pairs, None, |a, b| a < b);
    let r2 = pair(&ps).unwrap();
    let mut pairs: Vec<(usize, usize)> = r2
        .pairs
        .iter()
        .map(|&(a, b)| (a.min(b) + 1, a.max(b) + 1))
        .collect();
    pairs.sort();
    assert_eq!(pairs, vec![(1, 2), (3, 4), (5, 6)]);
    // Now make 1-2 a repeat by giving them a shared past: S2 transposes (1-3, 2-... ).
    let mut ps = fresh(4);
    ps[0].opponents = vec![2];
    ps[2].opponents = vec![0];
    ps[1].opponents = vec![3];
    ps[3].opponents = vec![1];
    ps[0].colours = vec![Red];
    ps[2].colours = vec![Black];
    ps[1].colours = vec![Black];
    ps[3].colours = vec![Red];
    // All on 0 points: S1 {1,2}, S2 {3,4}: 1-3 met, so transpose: 1-4, 2-3.
    let r = pair(&ps).unwrap();
    let mut pairs: Vec<(usize, usize)> = r
        .pairs
        .iter()
        .map(|&(a, b)| (a.min(b) + 1, a.max(b) + 1))
        .collect();
    pairs.sort();
    assert_eq!(pairs, vec![(1, 4), (2, 3)]);
}

/// The bye goes to the lowest-ranked player who has not had one.
#[test]
fn h4_swiss_bye_to_the_lowest_without_one() {
    let mut ps = fresh(5);
    let r1 = pair(&ps).unwrap();
    assert_eq!(r1.bye, Some(4));
    apply(&mut ps, &r1.pairs, r1.bye, |a, b| a < b);
    // 5 has 1 point (bye); the lowest now is 4 or 3 (0 points), highest number first.
    let r2 = pair(&ps).unwrap();
    let bye = r2.bye.unwrap();
    assert_ne!(bye, 4);
    assert_eq!(ps[bye].score, 0.0);
}

/// Absolute colour criterion: two players who both must have red cannot meet
/// while another pairing exists.
#[test]
fn h4_swiss_absolute_colour_criterion() {
    let mut ps = fresh(4);
    // 1 and 2 had black twice; 3 and 4 red twice; all on the same score.
    for (i, c) in [(0, Black), (1, Black), (2, Red), (3, Red)] {
        ps[i].colours = vec![c, c];
        ps[i].opponents = vec![10 + i, 20 + i]; // past opponents outside this field
    }
    let r = pair(&ps).unwrap();
    for &(red, black) in &r.pairs {
        assert!(red <= 1 && black >= 2, "{red} v {black}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    /// Pairing invariants: nobody meets twice, everyone plays at most once a
    /// round, exactly one bye in an odd field and none in an even one, and no
    /// second bye while the rounds played are fewer than the field.
    #[test]
    fn h4_swiss_pairing_invariants(n in 2usize..=20, rounds in 1usize..=10, seed in any::<u64>()) {
        let rounds = rounds.min(n / 2).max(1);
        let mut ps = fresh(n);
        let mut rng = seed;
        let mut met = BTreeSet::new();
        for _ in 0..rounds {
            let r = pair(&ps).expect("a pairing exists while rounds <= n/2");
            let mut seen = vec![false; n];
            for &(a, b) in &r.pairs {
                prop_assert!(a != b);
                prop_assert!(!seen[a] && !seen[b], "twice in a round");
                seen[a] = true;
                seen[b] = true;
                prop_assert!(met.insert((a.min(b), a.max(b))), "repeat {a}-{b}");
            }
            prop_assert_eq!(r.bye.is_some(), n % 2 == 1);
            if let Some(b) = r.bye {
                prop_assert!(!seen[b]);
                prop_assert!(!ps[b].had_bye, "second bye");
                seen[b] = true;
            }
            prop_assert!(seen.iter().all(|&s| s));
            apply(&mut ps, &r.pairs, r.bye, |_, _| {
                rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                rng >> 63 == 1
            });
        }
        // Colour differences stay within the absolute criterion where it held.
        for p in &ps {
            let d: i32 = p.colours.iter().map(|c| if *c == Red { 1 } else { -1 }).sum();
            prop_assert!(d.abs() <= 2 || rounds > 6);
        }
    }
}
