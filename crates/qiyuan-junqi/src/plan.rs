//! Set-ups placed with a plan (the AI's, and the page's "suggest" button):
//! every piece goes where it does its job, drawn at random among the posts
//! that suit it, so no two set-ups need be alike and none can be read from
//! the last one.
//!
//! The plan, piece by piece (rows 1 front to 6 back, Q1):
//! - the flag in one headquarters, the other left for a decoy;
//! - mines first on the posts next to the flag (the roads into its
//!   headquarters), then elsewhere in the last two rows, now and then in the
//!   other headquarters as a false flag;
//! - bombs behind the front, near the railway and the flag's wing, where an
//!   enemy commander comes through;
//! - the commander and the general on railway files or the centre of rows
//!   2-4, on opposite wings; the divisions spread over both wings;
//! - engineers on railway posts in rows 3-5, to reach mines fast;
//! - the small pieces in the front row, where the first clashes are, and a
//!   small piece in the decoy headquarters.

use crate::board::{Graph, PostKind, Side};
use crate::piece::Rank;
use crate::setup::{SETUP_LEN, Setup, setup_post};

/// Row (1 front .. 6 back) and file (0..5) of set-up character `i`.
fn place(side: Side, i: usize) -> (u8, u8) {
    let post = setup_post(side, i);
    (side.row_of(post), post.file())
}

/// Whether (row, file) is on a railway of one's half (rows 1 and 5, files a
/// and e up to row 5, Q2).
fn on_railway(row: u8, file: u8) -> bool {
    row == 1 || row == 5 || ((file == 0 || file == 4) && row <= 5)
}

/// The wing of a file: -1 left, 0 centre, 1 right.
fn wing(file: u8) -> i8 {
    match file {
        0 | 1 => -1,
        2 => 0,
        _ => 1,
    }
}

/// How well `rank` suits (row, file), given where the flag and the
/// commander stand; 0 = never.
fn suits(
    rank: Rank,
    (row, file): (u8, u8),
    next_to_flag: bool,
    flag_file: u8,
    commander_wing: Option<i8>,
) -> u32 {
    let near_flag = row >= 5 && file.abs_diff(flag_file) <= 1;
    let hq = row == 6 && (file == 1 || file == 3);
    let rail = on_railway(row, file);
    match rank {
        Rank::Flag => u32::from(hq),
        Rank::Mine => match (row, next_to_flag, hq) {
            (5 | 6, true, _) => 24,
            (6, _, true) => 3,
            (5 | 6, false, false) => 2,
            _ => 0,
        },
        Rank::Bomb => match row {
            1 => 0,
            2 | 3 if rail || file == 2 => 5,
            4 | 5 if near_flag || rail => 4,
            _ => 1,
        },
        Rank::Commander | Rank::General => {
            let opposite = match (rank, commander_wing) {
                (Rank::General, Some(w)) if w != 0 && wing(file) == -w => 3,
                (Rank::General, Some(_)) => 1,
                _ => 2,
            };
            let base = match row {
                2..=4 if rail || file == 2 => 5,
                1..=4 => 2,
                _ => 1,
            };
            base * opposite
        }
        Rank::Division | Rank::Brigade | Rank::Regiment => match row {
            2..=4 if rail => 4,
            1..=4 => 2,
            _ => 1,
        },
        Rank::Engineer => match row {
            3..=5 if rail => 6,
            _ if hq => 0,
            _ => 1,
        },
        Rank::Battalion | Rank::Company | Rank::Platoon => match row {
            1 => 6,
            6 if hq => 5,
            _ => 1,
        },
    }
}

/// Picks an index among `weights` with probability proportional to each.
fn weighted(weights: &[u32], draw: &mut dyn FnMut(u32) -> u32) -> Option<usize> {
    let total: u32 = weights.iter().sum();
    if total == 0 {
        return None;
    }
    let mut x = draw(total) % total;
    weights.iter().position(|&w| {
        if x < w {
            true
        } else {
            x -= w;
            false
        }
    })
}

/// A legal set-up for `side` placed by the plan above, drawn with `draw(n)`
/// (uniform in `0..n`).
pub fn designed(side: Side, draw: &mut dyn FnMut(u32) -> u32) -> Setup {
    let mut ranks: [Option<Rank>; SETUP_LEN] = [None; SETUP_LEN];
    let mut free: Vec<usize> = (0..SETUP_LEN)
        .filter(|&i| setup_post(side, i).kind() != PostKind::Camp)
        .collect();
    let graph = Graph::new();
    let mut flag = None;
    let mut flag_file = 1;
    let mut commander_wing = None;
    let order = [
        Rank::Flag,
        Rank::Mine,
        Rank::Bomb,
        Rank::Commander,
        Rank::General,
        Rank::Division,
        Rank::Engineer,
        Rank::Brigade,
        Rank::Regiment,
        Rank::Battalion,
        Rank::Company,
        Rank::Platoon,
    ];
    // Two or three small pieces hold the front row before anything else
    // is placed, so the strong ones cannot crowd it.
    let mut left: Vec<(Rank, u8)> = order.iter().map(|&r| (r, r.count())).collect();
    let front_liners = 2 + draw(2);
    for _ in 0..front_liners {
        let small: Vec<usize> = (0..left.len())
            .filter(|&k| matches!(left[k].0, Rank::Battalion | Rank::Company | Rank::Platoon))
            .flat_map(|k| std::iter::repeat_n(k, usize::from(left[k].1)))
            .collect();
        let front: Vec<usize> = (0..free.len())
            .filter(|&k| place(side, free[k]).0 == 1)
            .collect();
        if small.is_empty() || front.is_empty() {
            break;
        }
        let k = small[draw(small.len() as u32) as usize % small.len()];
        let f = front[draw(front.len() as u32) as usize % front.len()];
        let i = free.remove(f);
        ranks[i] = Some(left[k].0);
        left[k].1 -= 1;
    }
    for (rank, count) in left {
        for _ in 0..count {
            let weights: Vec<u32> = free
                .iter()
                .map(|&i| {
                    let next_to_flag = flag.is_some_and(|f: crate::board::Post| {
                        graph.roads[f.index()] & setup_post(side, i).bit() != 0
                    });
                    suits(
                        rank,
                        place(side, i),
                        next_to_flag,
                        flag_file,
                        commander_wing,
                    )
                })
                .collect();
            // A piece with no suitable post left takes any legal one.
            let k = weighted(&weights, draw).unwrap_or_else(|| {
                free.iter()
                    .position(|&i| legal_for(rank, place(side, i).0))
                    .unwrap_or(0)
            });
            let i = free.remove(k);
            ranks[i] = Some(rank);
            let (_, file) = place(side, i);
            match rank {
                Rank::Flag => {
                    flag_file = file;
                    flag = Some(setup_post(side, i));
                }
                Rank::Commander => commander_wing = Some(wing(file)),
                _ => {}
            }
        }
    }
    Setup::from_ranks(side, ranks)
        .unwrap_or_else(|e| unreachable!("a planned set-up is legal: {e:?}"))
}

/// Q4's limits by row, for the fallback above.
fn legal_for(rank: Rank, row: u8) -> bool {
    match rank {
        Rank::Mine => row >= 5,
        Rank::Bomb => row != 1,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn xorshift(seed: u64) -> impl FnMut(u32) -> u32 {
        let mut state = seed;
        move |n: u32| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % u64::from(n.max(1))) as u32
        }
    }

    #[test]
    fn q4_planned_set_ups_are_legal_varied_and_guard_the_flag() {
        let graph = Graph::new();
        let mut draw = xorshift(0x9e37_79b9_7f4a_7c15);
        let mut seen = std::collections::HashSet::new();
        let mut guarded = 0;
        for k in 0..400 {
            let side = if k % 2 == 0 { Side::Red } else { Side::Blue };
            let s = designed(side, &mut draw);
            assert_eq!(Setup::parse(side, &s.to_string()), Ok(s.clone()));
            seen.insert(s.to_string());
            let flag = s
                .pieces()
                .find(|&(_, r)| r == Rank::Flag)
                .map(|(p, _)| p)
                .expect("a flag");
            let mines_next_to_flag = s
                .pieces()
                .filter(|&(p, r)| r == Rank::Mine && graph.roads[flag.index()] & p.bit() != 0)
                .count();
            if mines_next_to_flag >= 2 {
                guarded += 1;
            }
            // The small pieces hold most of the front row.
            let front_small = s
                .pieces()
                .filter(|&(p, r)| {
                    side.row_of(p) == 1
                        && matches!(
                            r,
                            Rank::Battalion | Rank::Company | Rank::Platoon | Rank::Engineer
                        )
                })
                .count();
            assert!(front_small >= 2, "{s}");
        }
        assert!(seen.len() >= 395, "{} distinct", seen.len());
        assert!(
            guarded >= 360,
            "{guarded} of 400 with two mines by the flag"
        );
    }
}
