//! Swiss pairing (H4), in the style of the FIDE Dutch system (C.04.3).
//!
//! What it does, in order of priority:
//! 1. No two players meet twice; nobody gets a second bye while another
//!    player has had none; the bye goes to the lowest-ranked player who can
//!    take it (lowest score, then highest pairing number).
//! 2. Absolute colour criterion: nobody gets the same colour three times in a
//!    row or a colour difference beyond ±2 (relaxed only if no pairing exists).
//! 3. Score groups are paired top down; a group is split in half (S1, S2) and
//!    S1\[i\] meets S2\[i\], trying transpositions of S2, then exchanges, and as
//!    many pairs as possible; whoever is left floats down to the next group
//!    and is paired there first, with the highest resident it may meet. If a
//!    lower group cannot be completed the search backtracks into the groups
//!    above.
//! 4. Colours follow the Dutch allocation rules: grant both preferences; else
//!    the stronger preference; else the larger colour difference; else
//!    alternate from the last round in which the two had different colours;
//!    else the higher-ranked player's preference. In round 1 the higher-ranked
//!    player on odd boards gets red and on even boards black.
//!
//! Simplifications against the full Dutch rules (documented so nobody relies on
//! them): no special treatment of topscorers in the last round, and among
//! valid bracket pairings the first found in transposition order is taken
//! rather than one optimising the later quality criteria (C.04.3 C.8-C.19).

use crate::scoring::Side;
use serde::{Deserialize, Serialize};

/// A player's history as the pairing sees it. Index in the slice passed to
/// [`pair`] is the pairing number minus one (seeding order).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SwissPlayer {
    /// Points so far (byes included).
    pub score: f64,
    /// Indices of the opponents met so far.
    pub opponents: Vec<usize>,
    /// Colours of the games actually played, in order (byes leave no colour).
    pub colours: Vec<Side>,
    /// Whether the player has had a bye.
    pub had_bye: bool,
}

/// One Swiss round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwissRound {
    /// `(red, black)` indices, top board first.
    pub pairs: Vec<(usize, usize)>,
    /// The player with the bye, if the field is odd.
    pub bye: Option<usize>,
}

/// How strongly a player wants a colour (C.04.3 A.6), weakest first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Strength {
    None,
    Mild,
    Strong,
    Absolute,
}

fn diff(p: &SwissPlayer) -> i32 {
    p.colours
        .iter()
        .map(|c| if *c == Side::Red { 1 } else { -1 })
        .sum()
}

fn preference(p: &SwissPlayer) -> (Strength, Option<Side>) {
    let d = diff(p);
    let n = p.colours.len();
    let last = p.colours.last().copied();
    if n >= 2 && p.colours[n - 1] == p.colours[n - 2] {
        return (Strength::Absolute, Some(p.colours[n - 1].flip()));
    }
    match d {
        d if d >= 2 => (Strength::Absolute, Some(Side::Black)),
        d if d <= -2 => (Strength::Absolute, Some(Side::Red)),
        1 => (Strength::Strong, Some(Side::Black)),
        -1 => (Strength::Strong, Some(Side::Red)),
        _ => match last {
            Some(c) => (Strength::Mild, Some(c.flip())),
            None => (Strength::None, None),
        },
    }
}

struct Ctx<'a> {
    players: &'a [SwissPlayer],
    /// 0: absolute colours enforced, score groups; 1: colours relaxed;
    /// 2: score groups dropped too (only "no repeats" is left).
    level: u8,
    budget: u64,
}

impl Ctx<'_> {
    fn compatible(&self, a: usize, b: usize) -> bool {
        if self.players[a].opponents.contains(&b) {
            return false;
        }
        if self.level == 0 {
            let (sa, ca) = preference(&self.players[a]);
            let (sb, cb) = preference(&self.players[b]);
            if sa == Strength::Absolute && sb == Strength::Absolute && ca == cb {
                return false;
            }
        }
        true
    }
}

/// Pairs the next round. `None` if no pairing without repeats exists (for
/// example more rounds than the field allows).
pub fn pair(players: &[SwissPlayer]) -> Option<SwissRound> {
    let n = players.len();
    // Ranking order: score, then pairing number.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        players[b]
            .score
            .total_cmp(&players[a].score)
            .then(a.cmp(&b))
    });

    let mut bye_candidates: Vec<Option<usize>> = Vec::new();
    if n % 2 == 1 {
        let lowest_first = order.iter().rev().copied();
        let fresh: Vec<usize> = lowest_first
            .clone()
            .filter(|&p| !players[p].had_bye)
            .collect();
        // Everyone had one: start a second round of byes from the bottom.
        let pool = if fresh.is_empty() {
            lowest_first.collect()
        } else {
            fresh
        };
        bye_candidates.extend(pool.into_iter().map(Some));
    } else {
        bye_candidates.push(None);
    }

    for level in 0..3u8 {
        for &bye in &bye_candidates {
            let rest: Vec<usize> = order.iter().copied().filter(|&p| Some(p) != bye).collect();
            let groups: Vec<Vec<usize>> = if level == 2 {
                vec![rest]
            } else {
                score_groups(players, &rest)
            };
            let mut ctx = Ctx {
                players,
                level,
                budget: if level == 2 { 2_000_000 } else { 200_000 },
            };
            if let Some(pairs) = solve(&mut ctx, &groups, Vec::new()) {
                let first_round = players.iter().all(|p| p.colours.is_empty());
                let pairs = pairs
                    .into_iter()
                    .enumerate()
                    .map(|(board, (a, b))| allocate(players, a, b, board, first_round))
                    .collect();
                return Some(SwissRound { pairs, bye });
            }
        }
    }
    None
}

fn score_groups(players: &[SwissPlayer], order: &[usize]) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for &p in order {
        match groups.last_mut() {
            Some(g) if players[g[0]].score == players[p].score => g.push(p),
            _ => groups.push(vec![p]),
        }
    }
    groups
}

/// Pairs `groups` top down, `floaters` coming down from the group above.
/// Returns pairs (higher-ranked first in each) in board order.
///
/// A group with floaters is heterogeneous: the floaters (MDPs) are paired
/// first, each with the highest resident it may meet; the residents left form
/// a homogeneous remainder paired S1 v S2 (C.04.3 B.5 in spirit).
fn solve(
    ctx: &mut Ctx<'_>,
    groups: &[Vec<usize>],
    floaters: Vec<usize>,
) -> Option<Vec<(usize, usize)>> {
    let Some((group, lower)) = groups.split_first() else {
        return floaters.is_empty().then(Vec::new);
    };
    let mut used = vec![false; group.len()];
    let mut pairs = Vec::new();
    let mut refloat = Vec::new();
    mdp_dfs(
        ctx,
        &floaters,
        0,
        group,
        &mut used,
        &mut pairs,
        &mut refloat,
        lower,
    )
}

/// Pairs the floaters coming into a group with its residents, top first.
#[allow(clippy::too_many_arguments)]
fn mdp_dfs(
    ctx: &mut Ctx<'_>,
    floaters: &[usize],
    i: usize,
    residents: &[usize],
    used: &mut Vec<bool>,
    pairs: &mut Vec<(usize, usize)>,
    refloat: &mut Vec<usize>,
    lower: &[Vec<usize>],
) -> Option<Vec<(usize, usize)>> {
    if ctx.budget == 0 {
        return None;
    }
    ctx.budget -= 1;
    let Some(&f) = floaters.get(i) else {
        let rest: Vec<usize> = residents
            .iter()
            .zip(used.iter())
            .filter(|(_, u)| !**u)
            .map(|(&r, _)| r)
            .collect();
        let mut tail = homogeneous(ctx, &rest, refloat.clone(), lower)?;
        let mut all = pairs.clone();
        all.append(&mut tail);
        return Some(all);
    };
    for k in 0..residents.len() {
        if used[k] || !ctx.compatible(f, residents[k]) {
            continue;
        }
        used[k] = true;
        pairs.push((f, residents[k]));
        let r = mdp_dfs(ctx, floaters, i + 1, residents, used, pairs, refloat, lower);
        pairs.pop();
        used[k] = false;
        if r.is_some() || ctx.budget == 0 {
            return r;
        }
    }
    if lower.is_empty() {
        return None;
    }
    refloat.push(f);
    let r = mdp_dfs(ctx, floaters, i + 1, residents, used, pairs, refloat, lower);
    refloat.pop();
    r
}

/// Pairs a homogeneous bracket (one score), as many pairs as possible, and
/// then the groups below with `carried` plus this bracket's leftovers floating.
fn homogeneous(
    ctx: &mut Ctx<'_>,
    bracket: &[usize],
    carried: Vec<usize>,
    lower: &[Vec<usize>],
) -> Option<Vec<(usize, usize)>> {
    let len = bracket.len();
    let last = lower.is_empty();
    if last && (len % 2 == 1 || !carried.is_empty()) {
        return None;
    }
    let min_pairs = if last { len / 2 } else { 0 };
    for p in (min_pairs..=len / 2).rev() {
        let mut paired = vec![false; len];
        let mut pairs = Vec::with_capacity(p);
        let mut floats = carried.clone();
        if let Some(rest) = bracket_dfs(
            ctx,
            bracket,
            p,
            0,
            &mut paired,
            &mut pairs,
            &mut floats,
            len - 2 * p,
            lower,
        ) {
            return Some(rest);
        }
        if ctx.budget == 0 {
            return None;
        }
    }
    None
}

/// Depth-first search over the pairings of one bracket with exactly `p`
/// pairs, in Dutch preference order; at each complete bracket pairing it
/// tries to pair the groups below and returns the first full solution.
#[allow(clippy::too_many_arguments)]
fn bracket_dfs(
    ctx: &mut Ctx<'_>,
    bracket: &[usize],
    p: usize,
    from: usize,
    paired: &mut Vec<bool>,
    pairs: &mut Vec<(usize, usize)>,
    floats: &mut Vec<usize>,
    floats_left: usize,
    lower: &[Vec<usize>],
) -> Option<Vec<(usize, usize)>> {
    if ctx.budget == 0 {
        return None;
    }
    ctx.budget -= 1;
    let Some(x) = (from..bracket.len()).find(|&i| !paired[i]) else {
        // Bracket done: pairs in board order, then the groups below.
        let mut rest = solve(ctx, lower, floats.clone())?;
        let mut all = pairs.clone();
        all.append(&mut rest);
        return Some(all);
    };
    if pairs.len() < p {
        // S2 (positions p..) in order first (transpositions), then S1 (exchanges).
        let candidates = (p.max(x + 1)..bracket.len()).chain(x + 1..p.min(bracket.len()));
        for y in candidates {
            if paired[y] || !ctx.compatible(bracket[x], bracket[y]) {
                continue;
            }
            paired[x] = true;
            paired[y] = true;
            pairs.push((bracket[x], bracket[y]));
            let r = bracket_dfs(
                ctx,
                bracket,
                p,
                x + 1,
                paired,
                pairs,
                floats,
                floats_left,
                lower,
            );
            pairs.pop();
            paired[x] = false;
            paired[y] = false;
            if r.is_some() {
                return r;
            }
            if ctx.budget == 0 {
                return None;
            }
        }
    }
    if floats_left > 0 {
        paired[x] = true;
        floats.push(bracket[x]);
        let r = bracket_dfs(
            ctx,
            bracket,
            p,
            x + 1,
            paired,
            pairs,
            floats,
            floats_left - 1,
            lower,
        );
        floats.pop();
        paired[x] = false;
        return r;
    }
    None
}

/// Colours for a pair whose higher-ranked member is `a` (C.04.3 E).
fn allocate(
    players: &[SwissPlayer],
    a: usize,
    b: usize,
    board: usize,
    first_round: bool,
) -> (usize, usize) {
    let a_red = |red: bool| if red { (a, b) } else { (b, a) };
    if first_round {
        return a_red(board.is_multiple_of(2));
    }
    let (pa, pb) = (&players[a], &players[b]);
    let (sa, ca) = preference(pa);
    let (sb, cb) = preference(pb);
    match (ca, cb) {
        (Some(x), Some(y)) if x == y => {
            // Both want the same colour.
            let a_wins = if sa != sb {
                sa > sb
            } else if diff(pa).abs() != diff(pb).abs() {
                diff(pa).abs() > diff(pb).abs()
            } else {
                // Alternate from the most recent round where they differed.
                let (la, lb) = (pa.colours.len(), pb.colours.len());
                let differed = (1..=la.min(lb)).find(|&k| pa.colours[la - k] != pb.colours[lb - k]);
                match differed {
                    // a had x there? then b gets x now (alternation), else a does.
                    Some(k) => pa.colours[la - k] != x,
                    None => true,
                }
            };
            a_red((x == Side::Red) == a_wins)
        }
        (Some(x), _) => a_red(x == Side::Red),
        (None, Some(y)) => a_red(y == Side::Black),
        (None, None) => a_red(true),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preferences_follow_the_dutch_definitions() {
        let p = |c: &[Side]| SwissPlayer {
            colours: c.to_vec(),
            ..Default::default()
        };
        use Side::*;
        assert_eq!(preference(&p(&[])), (Strength::None, None));
        assert_eq!(preference(&p(&[Red])), (Strength::Strong, Some(Black)));
        assert_eq!(preference(&p(&[Red, Black])), (Strength::Mild, Some(Red)));
        assert_eq!(
            preference(&p(&[Red, Red])),
            (Strength::Absolute, Some(Black))
        );
        assert_eq!(
            preference(&p(&[Black, Red, Black, Red, Red])),
            (Strength::Absolute, Some(Black))
        );
        assert_eq!(
            preference(&p(&[Black, Black, Red, Black])),
            (Strength::Absolute, Some(Red))
        );
    }
}
