//! The solo race's strong lower bound: the exact distance in a relaxed
//! game where only each piece's line along one axis is kept.
//!
//! The board's holes lie on 17 parallel lines in each of three directions
//! (the rows, and the two diagonals). Along one such axis a step moves a
//! piece to a neighbouring line or keeps it on its line, and a hop moves it
//! two lines over a piece on the line between, or keeps it on its line. So a
//! jump chain that takes a piece from line `r` to line `s` must land on every
//! line `r ± 2, r ± 4, …` between them (each needs a free hole) and hop over
//! a piece on every line `r ± 1, r ± 3, …, s ∓ 1` (each needs another
//! piece). Forgetting everything but how many pieces stand on each line
//! gives a small game (10 pieces on 17 lines: C(26, 10) = 5 311 735
//! positions) whose every move is the image of a real move; its exact
//! distances, found once by a breadth-first search back from every image of
//! a finished position, never exceed the real ones. The best of the three
//! axes is the bound.

use std::sync::Arc;

use qiyuan_tiaoqi::geometry::{Bits, CELLS, Cell, cells};

/// Lines per axis.
const LINES: usize = 17;

/// A number per line (pieces, holes).
type Lines = [u8; LINES];

/// Marks a count vector the relaxed game cannot reach a goal from (or one
/// that breaks a line's capacity).
const UNREACHABLE: u8 = u8::MAX;

/// The three axes of the lattice, as line numbers 0..17 from doubled
/// coordinates (x, y): rows, then the two diagonal families.
fn line_of(axis: usize, c: Cell) -> usize {
    let (x, y) = (i32::from(c.x()), i32::from(c.y()));
    let l = match axis {
        0 => y - 1,
        1 => (x + y - 1) / 2 + 4,
        _ => (y - x - 1) / 2 + 4,
    };
    l as usize
}

/// Binomial coefficients C(n, k) for n < 32, k ≤ 16.
struct Binomials([[u32; 17]; 32]);

impl Binomials {
    fn new() -> Binomials {
        let mut c = [[0u32; 17]; 32];
        for n in 0..32 {
            c[n][0] = 1;
            for k in 1..17.min(n + 1) {
                c[n][k] = c[n - 1][k - 1] + if k < n { c[n - 1][k] } else { 0 };
            }
        }
        Binomials(c)
    }

    fn get(&self, n: usize, k: usize) -> u32 {
        if k > n { 0 } else { self.0[n][k] }
    }
}

/// One axis's table of relaxed distances, for a fixed number of pieces.
struct Axis {
    line: [u8; CELLS],
    dist: Arc<Vec<u8>>,
}

/// A position less one piece, per axis: the rank terms of its sorted
/// lines, summed from the front (`pre[j]`: the first j terms) and from the
/// back shifted one place (`suf[j]`: terms j.. as if each stood one later),
/// and `le[t]`, its pieces on lines up to t.
#[derive(Clone, Copy, Debug, Default)]
struct PartialAxis {
    pre: [u32; 17],
    suf: [u32; 17],
    le: [u8; LINES],
}

/// See [`Projection::partial`]; inactive (no bound) when the piece counts
/// do not match the tables.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Partial {
    active: bool,
    axes: [PartialAxis; 3],
}

/// The relaxed distances along all three axes for one race.
pub(crate) struct Projection {
    pieces: usize,
    binomials: Binomials,
    axes: Vec<Axis>,
}

impl std::fmt::Debug for Projection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Projection({} pieces)", self.pieces)
    }
}

impl Projection {
    /// Tables for `pieces` pieces (at most 10) on the `allowed` holes that
    /// must all end in `target`.
    pub(crate) fn new(pieces: usize, allowed: Bits, target: Bits) -> Option<Projection> {
        if pieces == 0 || pieces > 10 {
            return None;
        }
        let binomials = Binomials::new();
        // Axes with the same capacities and goal per line (the two
        // diagonals of a race symmetric west-east) share one table.
        let mut built: Vec<(Lines, Lines, Arc<Vec<u8>>)> = Vec::new();
        let mut axes = Vec::with_capacity(3);
        for axis in 0..3 {
            let mut line = [0u8; CELLS];
            let mut cap = [0u8; LINES];
            let mut home = [0u8; LINES];
            for c in Cell::all() {
                let l = line_of(axis, c);
                line[c.index()] = l as u8;
                if allowed & c.bit() != 0 {
                    cap[l] += 1;
                    if target & c.bit() != 0 {
                        home[l] += 1;
                    }
                }
            }
            let dist = match built.iter().find(|(c, h, _)| *c == cap && *h == home) {
                Some((_, _, d)) => Arc::clone(d),
                None => {
                    let d = Arc::new(distances(&binomials, pieces, &cap, &home));
                    built.push((cap, home, Arc::clone(&d)));
                    d
                }
            };
            axes.push(Axis { line, dist });
        }
        Some(Projection {
            pieces,
            binomials,
            axes,
        })
    }

    /// The line counts of `rest` (one piece fewer than the tables are for),
    /// made ready for [`Projection::partial_within`].
    pub(crate) fn partial(&self, rest: Bits) -> Partial {
        let k = rest.count_ones() as usize;
        let mut part = Partial {
            active: k + 1 == self.pieces,
            axes: [PartialAxis::default(); 3],
        };
        if !part.active {
            return part;
        }
        for (axis, pa) in self.axes.iter().zip(part.axes.iter_mut()) {
            let mut counts = [0u8; LINES];
            for c in cells(rest) {
                counts[usize::from(axis.line[c.index()])] += 1;
            }
            let mut sorted = [0usize; 16];
            let mut i = 0;
            let mut acc = 0;
            for (l, &n) in counts.iter().enumerate() {
                for _ in 0..n {
                    sorted[i] = l;
                    i += 1;
                }
                acc += n;
                pa.le[l] = acc;
            }
            for (j, &l) in sorted[..k].iter().enumerate() {
                pa.pre[j + 1] = pa.pre[j] + self.binomials.get(l + j, j + 1);
            }
            for (j, &l) in sorted[..k].iter().enumerate().rev() {
                pa.suf[j] = pa.suf[j + 1] + self.binomials.get(l + j + 1, j + 2);
            }
        }
        part
    }

    /// Whether [`Projection::bound`] of `rest` plus a piece on `to` is at
    /// most `limit`, `part` being [`Projection::partial`] of `rest`: the
    /// added piece's line `t` goes in after the `j` pieces on lines up to
    /// `t`, so the rank is the first `j` terms of `rest`'s, the new term
    /// C(t + j, j + 1), and the other terms each one place later.
    pub(crate) fn partial_within(&self, part: &Partial, to: Cell, limit: u32) -> bool {
        if !part.active {
            return true;
        }
        self.axes.iter().zip(&part.axes).all(|(axis, pa)| {
            let t = usize::from(axis.line[to.index()]);
            let j = usize::from(pa.le[t]);
            let r = pa.pre[j] + self.binomials.get(t + j, j + 1) + pa.suf[j];
            u32::from(axis.dist[r as usize]) <= limit
        })
    }

    /// Whether [`Projection::bound`] is at most `limit` (stops at the first
    /// axis over it).
    pub(crate) fn within(&self, pieces: Bits, limit: u32) -> bool {
        if pieces.count_ones() as usize != self.pieces {
            return true;
        }
        self.axes.iter().all(|axis| {
            let mut counts = [0u8; LINES];
            for c in cells(pieces) {
                counts[usize::from(axis.line[c.index()])] += 1;
            }
            u32::from(axis.dist[rank(&self.binomials, &counts) as usize]) <= limit
        })
    }

    /// The bound for a position with this table's number of pieces (0
    /// otherwise: nothing is known).
    pub(crate) fn bound(&self, pieces: Bits) -> u32 {
        if pieces.count_ones() as usize != self.pieces {
            return 0;
        }
        let mut best = 0;
        for axis in &self.axes {
            let mut counts = [0u8; LINES];
            for c in cells(pieces) {
                counts[usize::from(axis.line[c.index()])] += 1;
            }
            let d = axis.dist[rank(&self.binomials, &counts) as usize];
            if d == UNREACHABLE {
                return u32::from(UNREACHABLE);
            }
            best = best.max(u32::from(d));
        }
        best
    }
}

/// The rank of a count vector among all vectors with the same total: the
/// sorted line numbers l₀ ≤ l₁ ≤ … become the strictly rising pᵢ = lᵢ + i,
/// ranked by the combinatorial number system Σ C(pᵢ, i + 1).
fn rank(b: &Binomials, counts: &[u8; LINES]) -> u32 {
    let mut r = 0;
    let mut i = 0;
    for (l, &n) in counts.iter().enumerate() {
        for _ in 0..n {
            r += b.get(l + i, i + 1);
            i += 1;
        }
    }
    r
}

/// The count vector of rank `r` with `k` pieces (inverse of [`rank`]).
#[cfg(test)]
fn unrank(b: &Binomials, mut r: u32, k: usize) -> [u8; LINES] {
    let mut counts = [0u8; LINES];
    for i in (0..k).rev() {
        let mut p = i;
        while b.get(p + 1, i + 1) <= r {
            p += 1;
        }
        r -= b.get(p, i + 1);
        counts[p - i] += 1;
    }
    counts
}

/// Every count vector one relaxed move away from `n` (see the module doc).
fn neighbours(n: &[u8; LINES], cap: &[u8; LINES], out: &mut Vec<[u8; LINES]>) {
    out.clear();
    for r in 0..LINES {
        if n[r] == 0 {
            continue;
        }
        let mut m = *n;
        m[r] -= 1;
        let land = |s: usize, out: &mut Vec<[u8; LINES]>| {
            let mut after = m;
            after[s] += 1;
            out.push(after);
        };
        for dir in [-1i32, 1] {
            let step = r as i32 + dir;
            if (0..LINES as i32).contains(&step) && m[step as usize] < cap[step as usize] {
                land(step as usize, out);
            }
            let mut s = r as i32;
            loop {
                let over = s + dir;
                let to = s + 2 * dir;
                if !(0..LINES as i32).contains(&to)
                    || m[over as usize] == 0
                    || m[to as usize] >= cap[to as usize]
                {
                    break;
                }
                land(to as usize, out);
                s = to;
            }
        }
    }
}

/// Breadth-first distances from every goal vector (each line holding at
/// most its target holes) over the relaxed moves, which are reversible.
/// The frontier keeps count vectors, so nothing is unranked.
fn distances(b: &Binomials, k: usize, cap: &[u8; LINES], home: &[u8; LINES]) -> Vec<u8> {
    let total = b.get(LINES + k - 1, k) as usize;
    let mut dist = vec![UNREACHABLE; total];
    let mut frontier = Vec::new();
    goals(home, k, 0, &mut [0; LINES], &mut frontier);
    for n in &frontier {
        dist[rank(b, n) as usize] = 0;
    }
    let mut kids = Vec::new();
    let mut depth = 0u8;
    while !frontier.is_empty() && depth < UNREACHABLE - 1 {
        depth += 1;
        let mut next = Vec::new();
        for n in &frontier {
            neighbours(n, cap, &mut kids);
            for kid in &kids {
                let q = rank(b, kid) as usize;
                if dist[q] == UNREACHABLE {
                    dist[q] = depth;
                    next.push(*kid);
                }
            }
        }
        frontier = next;
    }
    dist
}

/// Every count vector of `left` more pieces on lines `line..` within `home`.
fn goals(
    home: &[u8; LINES],
    left: usize,
    line: usize,
    n: &mut [u8; LINES],
    out: &mut Vec<[u8; LINES]>,
) {
    if left == 0 {
        out.push(*n);
        return;
    }
    if line == LINES {
        return;
    }
    for c in 0..=usize::from(home[line]).min(left) {
        n[line] = c as u8;
        goals(home, left - c, line + 1, n, out);
    }
    n[line] = 0;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_and_unrank_are_inverse() {
        let b = Binomials::new();
        for k in 1..=4 {
            let total = b.get(LINES + k - 1, k);
            for r in 0..total {
                assert_eq!(rank(&b, &unrank(&b, r, k)), r);
            }
        }
    }
}
