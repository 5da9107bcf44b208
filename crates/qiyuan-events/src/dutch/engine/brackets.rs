//! Fixing the matching bracket by bracket, from the top score group down.
//!
//! Vertices are positions in the sorted field (score, then rank). Each step
//! below asks one question of the matching ("can this player be paired here
//! without losing anything more important?") by raising the low bits of some
//! edges and solving again, then fixes the answer.

use super::{Board, ByeInfo, Colour, Ctx, DutchError, HashMap, Layout, Matcher, Weights, Wide};

fn small<const L: usize>(v: usize) -> Wide<L> {
    Wide::from_u64(v as u64)
}

/// Pairs the field: `(vertex, partner)` by player id, `partner == vertex`
/// for the bye.
pub(super) fn run<const L: usize>(
    ctx: &Ctx,
    sorted: &[usize],
    layout: &Layout,
) -> Result<Vec<(usize, usize)>, DutchError> {
    let n = sorted.len();
    let weights = Weights::<L> { ctx, layout };
    let max = weights.max();
    let mut m = Matcher::<L>::new(n);
    let score = |v: usize| ctx.score(sorted[v]);
    let top = score(0);
    let mut bye = ByeInfo {
        score: 0,
        single_downfloater: false,
        unplayed_ranks: HashMap::new(),
    };
    let odd = n % 2 == 1;

    // First: can the round be paired at all, and who could take the bye?
    for pv in 0..n {
        for ov in 0..pv {
            let (p, o) = (sorted[pv], sorted[ov]);
            let w = if !odd {
                weights.edge(o, p, false, false, &bye)
            } else if ctx.compatible(p, o) {
                let top_bits =
                    1 + u64::from(!ctx.eligible_for_bye(p)) + u64::from(!ctx.eligible_for_bye(o));
                Wide::<L>::from_u64(top_bits)
                    .shl(layout.groups_shift)
                    .or_u64(u64::from(layout.shift(score(pv)) + layout.shift(score(ov))))
                    .shl(layout.group_bits)
                    .or_u64(u64::from(score(pv) >= top))
            } else {
                Wide::ZERO
            };
            m.set(pv, ov, w);
        }
    }
    let mut mates = m.solve();
    let unmatched: Vec<usize> = (0..n).filter(|&v| mates[v] == v).collect();
    if unmatched.len() > 1 || unmatched.iter().any(|&v| !ctx.eligible_for_bye(sorted[v])) {
        return Err(DutchError::NoPairing);
    }
    if odd {
        let Some(&assignee) = unmatched.first() else {
            return Err(DutchError::NoPairing);
        };
        bye.score = score(assignee);
        bye.single_downfloater = bye.score >= top
            && (0..n)
                .take_while(|&v| score(v) >= top)
                .all(|v| score(mates[v]) >= top);
        let mut played: Vec<usize> = (0..n)
            .filter(|&v| score(v) == bye.score)
            .map(|v| ctx.players[sorted[v]].played_games)
            .collect();
        played.sort_unstable_by(|a, b| b.cmp(a));
        for (rank, games) in played.into_iter().enumerate() {
            bye.unplayed_ranks.insert(games, rank as u64);
        }
        for pv in 0..n {
            for ov in 0..pv {
                m.set(
                    pv,
                    ov,
                    weights.edge(sorted[ov], sorted[pv], false, false, &bye),
                );
            }
        }
    }

    let mut partner: Vec<Option<usize>> = vec![None; n];
    let mut matched = vec![false; n];
    // The bracket: moved-down players first, then the residents, then the
    // next score group (whose completion the weights also guard).
    let mut idx: Vec<usize> = (0..n).take_while(|&v| score(v) >= top).collect();
    let mut next = idx.len();
    let mut moved_down = 0;
    let mut group_begin_v = 0;
    while idx.len() > 1 || next < n {
        let carried_in = idx.len();
        let next_begin = idx.len();
        let next_begin_v = group_begin_v + (next_begin - moved_down);
        let group_start = next;
        while next < n && score(next) >= score(group_start) {
            idx.push(next);
            next += 1;
        }
        let len = idx.len();
        let mut base: Vec<Vec<Wide<L>>> = vec![Vec::new(); len];
        for larger in moved_down..len {
            base[larger] = (0..larger)
                .map(|smaller| {
                    weights.edge(
                        sorted[idx[smaller]],
                        sorted[idx[larger]],
                        larger < next_begin,
                        larger >= next_begin,
                        &bye,
                    )
                })
                .collect();
        }
        for (larger, row) in base.iter().enumerate() {
            for (smaller, w) in row.iter().enumerate() {
                m.set(idx[larger], idx[smaller], *w);
            }
        }
        let group_bits = layout.group_bits;
        // A weight nudged to prefer few exchanges and small differences of
        // the exchanged pairing numbers (C.04.3 D).
        let exchange_weight = |base: &Vec<Vec<Wide<L>>>,
                               smaller: usize,
                               larger: usize,
                               smaller_at: usize,
                               pairs: usize| {
            let w = base[larger][smaller];
            if w.is_zero() {
                return w;
            }
            let add = small::<L>(usize::from(smaller_at < pairs))
                .shl(2 * group_bits)
                .sub_small(smaller_at)
                .shl(1);
            w + add
        };
        let in_group =
            |mates: &[usize], v: usize| mates[v] >= group_begin_v && mates[v] < next_begin_v;
        let paired_later = |mates: &[usize], v: usize| mates[v] > v && mates[v] < next_begin_v;
        let exchanged = |mates: &[usize], v: usize| mates[v] <= v || mates[v] >= next_begin_v;

        mates = m.solve();

        // Which moved-down players are paired in this bracket.
        let (mut md_score, mut md_left, mut md_matchable) = (0, 0, 0);
        for pi in 0..moved_down {
            let s = score(idx[pi]);
            if pi == 0 || s < md_score {
                md_score = s;
                md_left = 0;
                md_matchable = 0;
                let mut k = pi;
                while k < len && score(idx[k]) >= md_score {
                    md_left += 1;
                    md_matchable += usize::from(in_group(&mates, idx[k]));
                    k += 1;
                }
            }
            if md_matchable == 0 {
                continue;
            }
            let pv = idx[pi];
            if md_left <= md_matchable {
                matched[pv] = true;
                continue;
            }
            md_left -= 1;
            if !in_group(&mates, pv) {
                for oi in moved_down..next_begin {
                    let w = base[oi][pi];
                    if !w.is_zero() {
                        m.set(pv, idx[oi], w.or_u64(1));
                    }
                }
                mates = m.solve();
            }
            if in_group(&mates, pv) {
                matched[pv] = true;
                md_matchable -= 1;
                for oi in moved_down..next_begin {
                    let w = base[oi][pi];
                    if !w.is_zero() {
                        let w = w.or_u64((next_begin - moved_down) as u64) + small(1);
                        m.set(pv, idx[oi], w);
                    }
                }
            }
        }

        // Their opponents: the highest resident each may meet.
        for pi in 0..moved_down {
            let pv = idx[pi];
            if !matched[pv] {
                continue;
            }
            let mut addend = len;
            for oi in (moved_down..next_begin).rev() {
                let ov = idx[oi];
                if matched[ov] {
                    continue;
                }
                let w = base[oi][pi];
                if !w.is_zero() {
                    m.set(pv, ov, w + small(addend));
                    addend += 1;
                }
            }
            mates = m.solve();
            let mv = mates[pv];
            matched[mv] = true;
            m.fix_pair(pv, mv, max);
        }

        // The remainder: residents not paired with a moved-down player.
        let remainder: Vec<usize> = (moved_down..next_begin)
            .filter(|&pi| mates[idx[pi]] >= group_begin_v)
            .collect();
        let pairs = remainder
            .iter()
            .filter(|&&pi| mates[idx[pi]] < idx[pi])
            .count();
        for (oq, &oi) in remainder.iter().enumerate() {
            for (pq, &pi) in remainder[..oq].iter().enumerate() {
                m.set(idx[pi], idx[oi], exchange_weight(&base, pi, oi, pq, pairs));
            }
        }
        mates = m.solve();
        let exchanges = remainder[..pairs]
            .iter()
            .filter(|&&pi| exchanged(&mates, idx[pi]))
            .count();

        // Exchanges: the lowest of S1 go down first …
        let mut left = exchanges;
        let mut pos = pairs;
        while pos > 0 && left > 0 {
            pos -= 1;
            let pi = remainder[pos];
            let pv = idx[pi];
            if paired_later(&mates, pv) {
                for &oi in &remainder[pos + 1..] {
                    let w = exchange_weight(&base, pi, oi, pos, pairs);
                    if !w.is_zero() {
                        m.set(pv, idx[oi], w - small(1));
                    }
                }
                mates = m.solve();
            }
            let exchange = exchanged(&mates, pv);
            left -= usize::from(exchange);
            for &oi in &remainder[pos + 1..] {
                if exchange {
                    base[oi][pi] = Wide::ZERO;
                }
                m.set(pv, idx[oi], exchange_weight(&base, pi, oi, pos, pairs));
            }
        }
        // … and the highest of S2 come up.
        let mut left = exchanges;
        for (at, &pi) in remainder.iter().enumerate().skip(pairs) {
            if left <= 1 {
                break;
            }
            let pv = idx[pi];
            let already = paired_later(&mates, pv);
            if !already {
                for &oi in &remainder[at + 1..] {
                    let w = exchange_weight(&base, pi, oi, at, pairs);
                    if !w.is_zero() {
                        m.set(pv, idx[oi], w + small(1));
                    }
                }
                mates = m.solve();
            }
            if paired_later(&mates, pv) {
                left -= 1;
                for &oi in &remainder[..at] {
                    base[pi][oi] = Wide::ZERO;
                    m.set(pv, idx[oi], Wide::ZERO);
                }
                for oi in next_begin..len {
                    base[oi][pi] = Wide::ZERO;
                    m.set(pv, idx[oi], Wide::ZERO);
                }
            }
            if !already {
                for &oi in &remainder[at + 1..] {
                    m.set(pv, idx[oi], exchange_weight(&base, pi, oi, at, pairs));
                }
            }
        }
        // Fix the halves: S1 players pair only downwards.
        for (p, &pi) in remainder.iter().enumerate() {
            let pv = idx[pi];
            for &oi in &remainder[p + 1..] {
                let ov = idx[oi];
                if exchanged(&mates, pv) || paired_later(&mates, ov) {
                    base[oi][pi] = Wide::ZERO;
                }
                m.set(pv, ov, base[oi][pi]);
            }
        }
        // Each S1 player meets the highest S2 player it can (transpositions).
        for &pi in &remainder {
            let pv = idx[pi];
            if !paired_later(&mates, pv) {
                continue;
            }
            let mut addend = 0;
            for &oi in remainder.iter().rev() {
                let ov = idx[oi];
                if oi <= pi || matched[ov] {
                    continue;
                }
                let w = base[oi][pi];
                if !w.is_zero() {
                    m.set(pv, ov, w + small(addend));
                }
                addend += 1;
            }
            mates = m.solve();
            let mv = mates[pv];
            matched[pv] = true;
            matched[mv] = true;
            m.fix_pair(pv, mv, max);
        }

        // On to the next bracket with whoever is left.
        let mut single = odd && group_start < n && bye.score >= score(group_start);
        let mut carried = Vec::new();
        moved_down = 0;
        for (i, &v) in idx.iter().enumerate() {
            if i < next_begin && matched[v] {
                partner[v] = Some(mates[v]);
                partner[mates[v]] = Some(v);
            } else {
                carried.push(v);
                if i < next_begin {
                    moved_down += 1;
                }
                if single && score(mates[v]) < score(group_start) {
                    single = false;
                }
            }
        }
        bye.single_downfloater = single;
        // A consistent field always makes progress; an inconsistent one
        // (histories that contradict each other) may not: refuse it rather
        // than loop.
        if next == group_start && carried.len() >= carried_in {
            return Err(DutchError::NoPairing);
        }
        idx = carried;
        group_begin_v = next_begin_v;
    }
    Ok((0..n)
        .map(|v| (sorted[v], sorted[partner[v].unwrap_or(v)]))
        .collect())
}

/// The boards in publication order, with colours (C.04.3 E).
pub(super) fn boards(ctx: &Ctx, pairs: Vec<(usize, usize)>) -> Vec<Board> {
    let mut boards: Vec<Board> = pairs
        .into_iter()
        .filter(|&(a, b)| a <= b)
        .map(|(a, b)| {
            if a == b {
                Board {
                    white: a,
                    black: None,
                }
            } else if colour_of(ctx, a, b) == Colour::White {
                Board {
                    white: a,
                    black: Some(b),
                }
            } else {
                Board {
                    white: b,
                    black: Some(a),
                }
            }
        })
        .collect();
    let key = |b: &Board| {
        let p = &ctx.players;
        let (higher, lower) = match b.black {
            None => (b.white, b.white),
            Some(black) => {
                let w = (p[b.white].score, std::cmp::Reverse(p[b.white].rank));
                let k = (p[black].score, std::cmp::Reverse(p[black].rank));
                if w < k {
                    (black, b.white)
                } else {
                    (b.white, black)
                }
            }
        };
        (
            b.black.is_none(),
            std::cmp::Reverse(p[higher].score),
            std::cmp::Reverse(p[lower].score),
            p[higher].rank,
        )
    };
    boards.sort_by_key(key);
    boards
}

/// The colour `a` gets against `b` (C.04.3 E.1-E.5).
fn colour_of(ctx: &Ctx, a: usize, b: usize) -> Colour {
    if let Some(c) = neutral_colour(ctx, a, b) {
        return c;
    }
    let (pa, pb) = (&ctx.players[a], &ctx.players[b]);
    let initial = ctx.field.initial_colour;
    let a_below = ctx.ranks_above(b, a);
    match pa.preference {
        None if a_below => {
            if pb.rank % 2 == 1 {
                initial
            } else {
                initial.flip()
            }
        }
        None => {
            if pa.rank % 2 == 1 {
                initial.flip()
            } else {
                initial
            }
        }
        Some(pref) if a_below => pb.preference.map(Colour::flip).unwrap_or(pref),
        Some(pref) => pref,
    }
}

/// E.1-E.4: the colour the preferences and history settle, if they do.
fn neutral_colour(ctx: &Ctx, a: usize, b: usize) -> Option<Colour> {
    let (p, o) = (&ctx.players[a], &ctx.players[b]);
    if super::compatible_preferences(p.preference, o.preference) {
        return p.preference.or(o.preference.map(Colour::flip));
    }
    if p.absolute() && (p.imbalance > o.imbalance || !o.absolute()) {
        return p.preference;
    }
    if o.absolute() && (o.imbalance > p.imbalance || !p.absolute()) {
        return o.preference.map(Colour::flip);
    }
    if p.strong && !o.strong {
        return p.preference;
    }
    if o.strong && !p.strong {
        return o.preference.map(Colour::flip);
    }
    // Alternate from the last round in which they had different colours.
    let mut mine = p
        .matches
        .iter()
        .rev()
        .filter(|m| m.played)
        .map(|m| m.colour);
    let mut theirs = o
        .matches
        .iter()
        .rev()
        .filter(|m| m.played)
        .map(|m| m.colour);
    loop {
        match (mine.next(), theirs.next()) {
            (Some(x), Some(y)) if x == y => continue,
            (Some(_), Some(y)) => return y,
            _ => return None,
        }
    }
}
