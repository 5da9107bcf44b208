//! Swiss pairing (H4, the FIDE Dutch system): worked examples and invariants.
//!
//! The worked examples are constructed by hand from the Dutch rules
//! (C.04.3): sort by score then pairing number, split each score group into
//! S1 (top half) and S2 (bottom half), pair S1[i] with S2[i], transpose S2
//! when that would repeat a pairing, float the odd player down, and allocate
//! colours by preference strength, then colour difference, then alternation,
//! then rank. (`dutch_bbp.rs` checks the same engine against a FIDE-endorsed
//! program on generated tournaments.)

use proptest::prelude::*;
use qiyuan_events::dutch::{Colour, Entrant, Field, Match, Outcome, Points, pair};
use std::collections::BTreeSet;

fn fresh(n: usize) -> Field {
    Field {
        entrants: vec![Entrant::default(); n],
        played_rounds: 0,
        total_rounds: 9,
        points: Points::default(),
        initial_colour: Colour::White,
        forbidden: Vec::new(),
    }
}

/// A round as `(white, black)` pairs and the bye.
struct Round {
    pairs: Vec<(usize, usize)>,
    bye: Option<usize>,
}

fn next(field: &Field) -> Option<Round> {
    let boards = pair(field).ok()?;
    Some(Round {
        pairs: boards
            .iter()
            .filter_map(|b| b.black.map(|k| (b.white, k)))
            .collect(),
        bye: boards.iter().find(|b| b.black.is_none()).map(|b| b.white),
    })
}

fn game(opponent: usize, colour: Colour, outcome: Outcome) -> Match {
    Match {
        opponent: Some(opponent),
        colour: Some(colour),
        outcome,
        played: true,
        paired: true,
    }
}

fn score(field: &Field, i: usize) -> u32 {
    field.entrants[i]
        .matches
        .iter()
        .map(|m| match m.outcome {
            Outcome::Win => 10,
            Outcome::Draw => 5,
            Outcome::Loss => 0,
        })
        .sum()
}

/// Applies a round: winners by `win(a, b)` (true when a wins).
fn apply(field: &mut Field, r: &Round, mut win: impl FnMut(usize, usize) -> bool) {
    for &(w, b) in &r.pairs {
        let white_wins = win(w, b);
        let (ow, ob) = if white_wins {
            (Outcome::Win, Outcome::Loss)
        } else {
            (Outcome::Loss, Outcome::Win)
        };
        field.entrants[w].matches.push(game(b, Colour::White, ow));
        field.entrants[b].matches.push(game(w, Colour::Black, ob));
    }
    if let Some(p) = r.bye {
        field.entrants[p].matches.push(Match {
            opponent: None,
            colour: None,
            outcome: Outcome::Win,
            played: false,
            paired: true,
        });
    }
    field.played_rounds += 1;
}

fn one_based(pairs: &[(usize, usize)]) -> Vec<(usize, usize)> {
    pairs.iter().map(|&(a, b)| (a + 1, b + 1)).collect()
}

/// Eight players. Round 1: S1 = 1-4 v S2 = 5-8, white (red) on odd boards to
/// the higher seed: 1-5, 6-2, 3-7, 8-4. The higher seeds all win.
/// Round 2, score group 1 point {1,2,3,4}: S1 {1,2}, S2 {3,4}. 1-3 and 2-4
/// would leave two players without their colour (1 and 3 both want black, 2
/// and 4 white); colour preferences (C12) rank above the order of S2, so the
/// transposition 1-4, 2-3 is taken and everyone gets their colour: 4-1, 2-3.
/// Group 0 {5,6,7,8} likewise: 5-8 and 7-6.
#[test]
fn h4_dutch_rounds_one_and_two() {
    let mut f = fresh(8);
    let r1 = next(&f).unwrap();
    assert_eq!(one_based(&r1.pairs), vec![(1, 5), (6, 2), (3, 7), (8, 4)]);
    assert_eq!(r1.bye, None);
    apply(&mut f, &r1, |a, b| a < b);
    let r2 = next(&f).unwrap();
    assert_eq!(one_based(&r2.pairs), vec![(4, 1), (2, 3), (5, 8), (7, 6)]);
}

/// Round 3 of the same example, the higher seeds winning again. Score groups:
/// {1,2} on 2, {3,4,5,6} on 1, {7,8} on 0. Top group: 1 v 2 (new). Middle
/// group: S1 {3,4}, S2 {5,6}: 3-5 and 4-6 are both new. Bottom: 7 v 8.
#[test]
fn h4_dutch_round_three_respects_score_groups() {
    let mut f = fresh(8);
    let r1 = next(&f).unwrap();
    apply(&mut f, &r1, |a, b| a < b);
    let r2 = next(&f).unwrap();
    apply(&mut f, &r2, |a, b| a < b);
    // Scores now: 1 and 2 have 2; 3, 4, 5, 6 have 1; 7, 8 have 0.
    let scores: Vec<u32> = (0..8).map(|i| score(&f, i)).collect();
    assert_eq!(scores, vec![20, 20, 10, 10, 10, 10, 0, 0]);
    let r3 = next(&f).unwrap();
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
    let mut f = fresh(6);
    let r1 = next(&f).unwrap();
    assert_eq!(one_based(&r1.pairs), vec![(1, 4), (5, 2), (3, 6)]);
    apply(&mut f, &r1, |a, b| a < b);
    let r2 = next(&f).unwrap();
    let mut pairs: Vec<(usize, usize)> = r2
        .pairs
        .iter()
        .map(|&(a, b)| (a.min(b) + 1, a.max(b) + 1))
        .collect();
    pairs.sort();
    assert_eq!(pairs, vec![(1, 2), (3, 4), (5, 6)]);
    // Now make 1-3 and 2-4 repeats: all on half a point after drawn games.
    let mut f = fresh(4);
    f.entrants[0].matches = vec![game(2, Colour::White, Outcome::Draw)];
    f.entrants[2].matches = vec![game(0, Colour::Black, Outcome::Draw)];
    f.entrants[1].matches = vec![game(3, Colour::White, Outcome::Draw)];
    f.entrants[3].matches = vec![game(1, Colour::Black, Outcome::Draw)];
    f.played_rounds = 1;
    // S1 {1,2}, S2 {3,4}: 1-3 met, so transpose: 1-4, 2-3 (1 and 2 want
    // black, 3 and 4 white, so colours are no obstacle).
    let r = next(&f).unwrap();
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
    let mut f = fresh(5);
    let r1 = next(&f).unwrap();
    assert_eq!(r1.bye, Some(4));
    apply(&mut f, &r1, |a, b| a < b);
    // 5 has 1 point (bye); the lowest now is 4 or 3 (0 points).
    let r2 = next(&f).unwrap();
    let bye = r2.bye.unwrap();
    assert_ne!(bye, 4);
    assert_eq!(score(&f, bye), 0);
}

/// Absolute colour criterion: two players who both must have red cannot meet
/// while another pairing exists.
#[test]
fn h4_swiss_absolute_colour_criterion() {
    // 1 and 2 had black twice, 3 and 4 white twice, all drawn, against
    // players 5-8 who have since withdrawn (an entry for round 3 each).
    let mut f = fresh(8);
    for (i, c) in [
        (0, Colour::Black),
        (1, Colour::Black),
        (2, Colour::White),
        (3, Colour::White),
    ] {
        let (a, b) = (4 + i, 4 + (i + 1) % 4);
        f.entrants[i].matches = vec![game(a, c, Outcome::Draw), game(b, c, Outcome::Draw)];
        f.entrants[a].matches.push(game(i, c.flip(), Outcome::Draw));
        f.entrants[b].matches.push(game(i, c.flip(), Outcome::Draw));
    }
    for i in 4..8 {
        f.entrants[i].matches.push(Match::absent());
    }
    f.played_rounds = 2;
    let r = next(&f).unwrap();
    assert_eq!(r.pairs.len(), 2);
    for &(white, black) in &r.pairs {
        assert!(white <= 1 && black >= 2, "{white} v {black}");
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
        let mut f = fresh(n);
        let mut rng = seed;
        let mut byes = vec![false; n];
        let mut met = BTreeSet::new();
        for _ in 0..rounds {
            let r = next(&f).expect("a pairing exists while rounds <= n/2");
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
                prop_assert!(!byes[b], "second bye");
                byes[b] = true;
                seen[b] = true;
            }
            prop_assert!(seen.iter().all(|&s| s));
            apply(&mut f, &r, |_, _| {
                rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                rng >> 63 == 1
            });
        }
        // Colour differences stay within the absolute criterion where it held.
        for e in &f.entrants {
            let d: i32 = e.matches.iter().filter_map(|m| m.colour).map(|c| if c == Colour::White { 1 } else { -1 }).sum();
            prop_assert!(d.abs() <= 2 || rounds > 6);
        }
    }
}
