//! The next budget proved by layers (`layers`): same layers and answers as
//! the proof by halves on the ten-piece race (budgets 20 and 21, camps
//! open and closed), meets exactly at the shortest length of small races,
//! refuses a budget whose predecessor is not the one proved, and resumes
//! from a store of layers (refusing a store of another search).

use std::path::PathBuf;

use qiyuan_lab::layers::{Exact, ExactError, prove_next_budget};
use qiyuan_lab::meet::prove_by_halves;
use qiyuan_lab::solo::{Limits, Race, solve_with};
use qiyuan_tiaoqi::geometry::{Bits, Cell, Seat, cells};

fn next(race: &Race, budget: u32, threads: usize) -> Exact {
    prove_next_budget(race, budget, budget - 1, threads, None, &mut |_| {}).expect("an answer")
}

#[test]
#[ignore = "slow tier"]
fn layers_agree_with_halves_on_the_ten_piece_race() {
    for open in [true, false] {
        let race = Race::new(open);
        mirror_keeps_the_bound(&race, 10);
        for budget in [20, 21] {
            let halves = prove_by_halves(&race, budget, usize::MAX).expect("symmetric");
            let half = budget.div_ceil(2) as usize;
            for threads in [1, 2] {
                let exact = next(&race, budget, threads);
                assert!(!exact.met && !halves.met, "open {open}, budget {budget}");
                assert_eq!(exact.layers.len(), half + 1);
                // The last layer of an odd budget is not kept by the halves.
                let upto = if budget % 2 == 0 { half + 1 } else { half };
                assert_eq!(exact.layers[..upto], halves.layers[..upto], "open {open}");
            }
        }
    }
}

/// The fast tier's mirror check: three pieces bound for camp d.
#[test]
fn the_mirror_keeps_the_bound_of_a_three_piece_race() {
    for open in [true, false] {
        let some: Bits = cells(Seat::A.camp()).take(3).fold(0, |m, c| m | c.bit());
        mirror_keeps_the_bound(&Race::with(open, some, Seat::D.camp()), 3);
    }
}

/// Folding positions up to the mirror needs it (see the layers doc).
fn mirror_keeps_the_bound(race: &Race, pieces: u32) {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..2000 {
        let mut set: Bits = 0;
        while set.count_ones() < pieces {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let c = (x % 121) as u32;
            if race.allowed() >> c & 1 == 1 {
                set |= 1 << c;
            }
        }
        assert_eq!(race.bound(set), race.bound(race.mirror(set)));
    }
}

/// The race of the first `k` pieces of camp a to their point reflections.
fn small_race(open: bool, k: usize) -> Race {
    let reflect = |c: Cell| Cell::from_xy(-c.x(), 18 - c.y()).expect("on the board");
    let start: Vec<Cell> = cells(Seat::A.camp()).take(k).collect();
    let from: Bits = start.iter().fold(0, |m, c| m | c.bit());
    let to: Bits = start.iter().fold(0, |m, &c| m | reflect(c).bit());
    Race::with(open, from, to)
}

/// The shortest solution's length, by IDA*.
fn shortest(race: &Race) -> u32 {
    let r = solve_with(
        race,
        Limits {
            max_depth: 40,
            max_nodes: u64::MAX,
            table_bits: 18,
        },
    );
    r.moves.expect("a solution").len() as u32
}

#[test]
fn layers_meet_at_the_shortest_length_of_small_races() {
    for open in [true, false] {
        for k in 1..=3 {
            let race = small_race(open, k);
            let shortest = shortest(&race);
            assert!(shortest >= 3);
            assert!(next(&race, shortest, 2).met, "open {open}, {k} pieces");
            assert!(!next(&race, shortest - 1, 2).met, "open {open}, {k} pieces");
        }
    }
}

#[test]
fn the_budget_below_must_be_the_one_proved() {
    let race = small_race(true, 2);
    for (budget, proved) in [(22, 20), (22, 22), (0, 0)] {
        let r = prove_next_budget(&race, budget, proved, 1, None, &mut |_| {});
        assert!(matches!(r, Err(ExactError::NotNextBudget { .. })), "{r:?}");
    }
    let lopsided = Race::with(
        true,
        Cell::from_xy(0, 1).expect("tip").bit(),
        Seat::C.camp(),
    );
    let r = prove_next_budget(&lopsided, 3, 2, 1, None, &mut |_| {});
    assert!(matches!(r, Err(ExactError::Unsuited)), "{r:?}");
}

/// A fresh directory under the system's temporary one.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("qiyuan-layers-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn a_stored_search_resumes_where_it_stopped() {
    let race = small_race(false, 3);
    let budget = shortest(&race);
    let half = budget.div_ceil(2);
    let dir = scratch("resume");
    let run =
        |budget: u32| prove_next_budget(&race, budget, budget - 1, 2, Some(&dir), &mut |_| {});
    let first = run(budget).expect("an answer");
    assert_eq!(first.resumed, 0);
    assert_eq!(
        first,
        Exact {
            resumed: 0,
            ..next(&race, budget, 1)
        }
    );
    assert!(first.met);
    // Everything on disk: nothing searched again.
    let again = run(budget).expect("an answer");
    assert_eq!(
        again,
        Exact {
            resumed: half + 1,
            ..first.clone()
        }
    );
    // Stopped after layer 2: layers 1 and 2 read back, 3.. searched.
    for depth in 3..=half {
        std::fs::remove_file(dir.join(format!("layer-{depth:02}.bin"))).expect("written");
    }
    let resumed = run(budget).expect("an answer");
    assert_eq!(
        resumed,
        Exact {
            resumed: 3,
            ..first.clone()
        }
    );
    // Another budget's store is refused, not mixed in.
    assert!(matches!(run(budget + 1), Err(ExactError::Store(_))));
    // A cut file is refused.
    let last = dir.join(format!("layer-{half:02}.bin"));
    let bytes = std::fs::read(&last).expect("written");
    std::fs::write(&last, &bytes[..bytes.len() - 8]).expect("writable");
    assert!(matches!(run(budget), Err(ExactError::Store(_))));
    std::fs::remove_dir_all(&dir).expect("ours");
}
