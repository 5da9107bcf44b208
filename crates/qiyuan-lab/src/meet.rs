//! Proof by halves for the solo race: no solution of at most `B` moves
//! exists if no position `S` lies within ⌈B/2⌉ moves of the start while
//! its point reflection lies within ⌊B/2⌋ moves of the start as well.
//!
//! Why that suffices: moves are reversible, and the point reflection `R`
//! through the board's centre maps the start camp onto the target camp,
//! legal moves onto legal moves and (with T5) the closed side camps onto
//! closed side camps. A solution of `L ≤ B` moves passes through a
//! position `S` that is `⌈L/2⌉` moves after the start and `⌊L/2⌋` moves
//! before the end; reading the second half backwards and reflecting it
//! gives a path of `⌊L/2⌋` moves from the start to `R(S)`. Every position
//! on either half-path also keeps the lower bound within the moves left of
//! a `B`-move solution, so a search of each half that prunes by the bound
//! still reaches `S` and `R(S)`. If the set of positions it reaches holds
//! no pair `S`, `R(S)` (up to the west-east mirror), nothing of at most `B`
//! moves exists; if it holds one, the two half-paths join into a solution.

use crate::solo::Race;
use qiyuan_tiaoqi::geometry::{Bits, Cell, cells};

/// What [`prove_by_halves`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Halves {
    /// A solution of at most the budget exists (a reflected pair met).
    pub met: bool,
    /// Distinct positions (up to the mirror) kept, all layers together.
    pub positions: usize,
    /// Positions expanded.
    pub nodes: u64,
    /// Positions kept at each depth 0, 1, … (the last layer of an odd
    /// budget is only looked through, never kept: 0 there).
    pub layers: Vec<usize>,
}

/// Whether a solution of at most `budget` moves exists, by the search of
/// halves described in the module doc. `None` if the race is not symmetric
/// under the point reflection, has more than ten pieces, or if more than
/// `max_positions` positions would have to be kept.
///
/// Breadth first, layer by layer, so that every kept position has its
/// exact depth in the pruned graph and is expanded once; a child at depth
/// `d` is kept only if its bound is at most `budget − d`. The `i`-th
/// position of a half-path is still reached, at a depth `e ≤ i`: its
/// successor's bound is at most `budget − i − 1 ≤ budget − e − 1`. With `h =
/// ⌈budget/2⌉`, layers `0..h` are kept in one set; the last layer `h` is
/// kept as well for an even budget (a midpoint and its reflection may
/// both lie at depth `h`), and for an odd budget only looked through: each
/// child of layer `h − 1` is checked for a reflection among the kept
/// layers (depths ≤ `h − 1`, so the two halves add up to at most the
/// budget) and then dropped.
pub fn prove_by_halves(race: &Race, budget: u32, max_positions: usize) -> Option<Halves> {
    prove_by_halves_reporting(race, budget, max_positions, &mut |_, _| {})
}

/// [`prove_by_halves`], calling `done(depth, positions)` after each layer.
pub fn prove_by_halves_reporting(
    race: &Race,
    budget: u32,
    max_positions: usize,
    done: &mut dyn FnMut(u32, usize),
) -> Option<Halves> {
    let reflect = Reflection::new();
    if reflect.apply(race.start()) != race.target()
        || reflect.apply(race.allowed()) != race.allowed()
    {
        return None;
    }
    let pieces = race.start().count_ones() as usize;
    if pieces > 10 {
        return None;
    }
    let ranks = Ranks::new();
    // A position up to the mirror, from the set and its image.
    let fold = |set: Bits, image: Bits| {
        if race.is_symmetric() {
            set.min(image)
        } else {
            set
        }
    };
    let half = budget.div_ceil(2);
    let mut seen = KeySet::new();
    let start = ranks.rank(race.canonical(race.start()));
    seen.insert(start);
    let mut frontier = vec![start];
    let mut layers = vec![1];
    let mut nodes = 0u64;
    let mut last = KeySet::new();
    let mut met = false;
    // Layers 1 ..= half (the last one kept only for an even budget), each
    // child kept if the bound leaves room for it.
    for depth in 1..=half {
        let keep = depth < half || budget.is_multiple_of(2);
        let limit = budget - depth;
        let mut next = Vec::new();
        for &key in &frontier {
            nodes += 1;
            let p = ranks.unrank(key, pieces);
            for from in cells(p) {
                let rest = p ^ from.bit();
                let part = race.partial(rest);
                let image = race.mirror(rest);
                let (r_rest, r_image) = if keep {
                    (0, 0)
                } else {
                    let r = reflect.apply(rest);
                    (r, race.mirror(r))
                };
                for to in cells(race.targets(p, from)) {
                    if !race.partial_within(&part, to, limit) {
                        continue;
                    }
                    if !keep {
                        // The last layer of an odd budget: does the child's
                        // reflection lie within half − 1 of the start?
                        let r = reflect.apply(to.bit());
                        let partner = fold(r_rest | r, r_image | race.mirror(r));
                        if seen.contains(ranks.rank(partner)) {
                            met = true;
                        }
                        continue;
                    }
                    let child = rest | to.bit();
                    let k = ranks.rank(fold(child, image | race.mirror(to.bit())));
                    if seen.contains(k) || last.contains(k) {
                        continue;
                    }
                    if seen.len() + last.len() >= max_positions {
                        return None;
                    }
                    if depth < half {
                        seen.insert(k);
                        next.push(k);
                    } else {
                        last.insert(k);
                    }
                }
            }
            if met {
                break;
            }
        }
        layers.push(if depth < half { next.len() } else { last.len() });
        done(depth, layers[depth as usize]);
        frontier = next;
        if met {
            break;
        }
    }
    // Two kept positions that are each other's reflection.
    let partner = |k: u64| {
        let s = ranks.unrank(k, pieces);
        ranks.rank(race.canonical(reflect.apply(s)))
    };
    met = met
        || seen.iter().any(|k| seen.contains(partner(k)))
        || last
            .iter()
            .any(|k| last.contains(partner(k)) || seen.contains(partner(k)));
    Some(Halves {
        met,
        positions: seen.len() + last.len(),
        nodes,
        layers,
    })
}

/// The combinatorial number system on the board's holes: a set of cells
/// c₀ < c₁ < … is numbered Σ C(cᵢ, i + 1), plus one (so no set is 0). Ten
/// pieces on 121 holes: fewer than 2^47 numbers.
pub(crate) struct Ranks([[u64; 11]; 122]);

impl Ranks {
    pub(crate) fn new() -> Ranks {
        let mut c = [[0u64; 11]; 122];
        for n in 0..122 {
            c[n][0] = 1;
            for k in 1..11.min(n + 1) {
                c[n][k] = c[n - 1][k - 1] + if k < n { c[n - 1][k] } else { 0 };
            }
        }
        Ranks(c)
    }

    pub(crate) fn rank(&self, set: Bits) -> u64 {
        cells(set)
            .enumerate()
            .map(|(i, c)| self.0[c.index()][i + 1])
            .sum::<u64>()
            + 1
    }

    pub(crate) fn unrank(&self, key: u64, k: usize) -> Bits {
        let mut r = key - 1;
        let mut set = 0;
        let mut hi = qiyuan_tiaoqi::geometry::CELLS;
        for i in (0..k).rev() {
            // The largest c < hi with C(c, i + 1) ≤ r.
            let mut c = hi - 1;
            while self.0[c][i + 1] > r {
                c -= 1;
            }
            r -= self.0[c][i + 1];
            set |= 1u128 << c;
            hi = c;
        }
        set
    }
}

/// A set of numbers above 0: open addressing, linear probing, 0 marks a
/// free slot; at most three quarters full.
struct KeySet {
    slots: Vec<u64>,
    len: usize,
}

impl KeySet {
    fn new() -> KeySet {
        KeySet {
            slots: vec![0; 1 << 10],
            len: 0,
        }
    }

    fn len(&self) -> usize {
        self.len
    }

    fn slot(&self, key: u64) -> usize {
        let h = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> 20) as usize & (self.slots.len() - 1)
    }

    fn contains(&self, key: u64) -> bool {
        let mask = self.slots.len() - 1;
        let mut i = self.slot(key);
        loop {
            match self.slots[i] {
                0 => return false,
                k if k == key => return true,
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// Adds `key` (not yet in the set).
    fn insert(&mut self, key: u64) {
        if 4 * (self.len + 1) > 3 * self.slots.len() {
            let bigger = vec![0; 2 * self.slots.len()];
            let old = std::mem::replace(&mut self.slots, bigger);
            for k in old.into_iter().filter(|&k| k != 0) {
                self.place(k);
            }
        }
        self.place(key);
        self.len += 1;
    }

    fn place(&mut self, key: u64) {
        let mask = self.slots.len() - 1;
        let mut i = self.slot(key);
        while self.slots[i] != 0 {
            i = (i + 1) & mask;
        }
        self.slots[i] = key;
    }

    fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        self.slots.iter().copied().filter(|&k| k != 0)
    }
}

/// The point reflection through the centre hole: (x, y) → (−x, 18 − y).
pub(crate) struct Reflection([u8; qiyuan_tiaoqi::geometry::CELLS]);

impl Reflection {
    pub(crate) fn new() -> Reflection {
        let mut map = [0u8; qiyuan_tiaoqi::geometry::CELLS];
        for c in Cell::all() {
            map[c.index()] = Cell::from_xy(-c.x(), 18 - c.y()).map_or(0, |m| m.index() as u8);
        }
        Reflection(map)
    }

    pub(crate) fn apply(&self, set: Bits) -> Bits {
        cells(set).fold(0, |m, c| m | 1u128 << self.0[c.index()])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_number_sets_one_to_one() {
        let ranks = Ranks::new();
        // Sets of 1 to 10 cells spread over the board, from a simple
        // generator: each recovered from its number, and sets of one size
        // numbered apart (the numbering is for one size at a time).
        let mut by_number = std::collections::HashMap::new();
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for n in 0..3000 {
            let k = n % 10 + 1;
            let mut set: Bits = 0;
            while set.count_ones() < k as u32 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                set |= 1u128 << (x % qiyuan_tiaoqi::geometry::CELLS as u64);
            }
            let r = ranks.rank(set);
            assert_eq!(ranks.unrank(r, k), set);
            assert_eq!(*by_number.entry((k, r)).or_insert(set), set);
        }
        let top: Bits = ((1u128 << 10) - 1) << (qiyuan_tiaoqi::geometry::CELLS - 10);
        assert_eq!(ranks.unrank(ranks.rank(top), 10), top);
        assert!(ranks.rank(top) < 1 << 47);
    }

    #[test]
    fn key_set_keeps_what_it_is_given() {
        let mut set = KeySet::new();
        for k in (1..20_000u64).map(|i| i * 7919) {
            assert!(!set.contains(k));
            set.insert(k);
        }
        assert_eq!(set.len(), 19_999);
        assert!((1..20_000u64).all(|i| set.contains(i * 7919) && !set.contains(i * 7919 + 1)));
        assert_eq!(set.iter().count(), 19_999);
    }
}
