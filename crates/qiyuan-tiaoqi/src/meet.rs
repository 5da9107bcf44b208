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

use crate::geometry::{Bits, Cell, cells};
use crate::solo::Race;

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
/// under the point reflection, or if more than `max_positions` positions
/// would have to be kept.
///
/// Breadth first, layer by layer, so that every kept position has its
/// exact depth in the pruned graph and is expanded once. With `h =
/// ⌈budget/2⌉`, layers `0..h` are kept in one set; the last layer `h` is
/// kept as well for an even budget (a midpoint and its reflection may
/// both lie at depth `h`), and for an odd budget only looked through: each
/// child of layer `h − 1` is checked for a reflection among the kept
/// layers (depths ≤ `h − 1`, so the two halves add up to at most the
/// budget) and then dropped.
pub fn prove_by_halves(race: &Race, budget: u32, max_positions: usize) -> Option<Halves> {
    let reflect = Reflection::new();
    if reflect.apply(race.start()) != race.target()
        || reflect.apply(race.allowed()) != race.allowed()
    {
        return None;
    }
    let partner = |s: Bits| race.canonical(reflect.apply(s));
    let half = budget.div_ceil(2);
    let mut seen = KeySet::new();
    let start = race.canonical(race.start());
    seen.insert(start);
    let mut frontier = vec![start];
    let mut layers = vec![1];
    let mut nodes = 0u64;
    let mut kids = Vec::new();
    // Layers 1 .. half − 1, each child kept if the bound leaves room.
    for depth in 1..half {
        let mut next = Vec::new();
        for &p in &frontier {
            nodes += 1;
            race.children(p, &mut kids);
            for &(_, _, after) in &kids {
                let key = race.canonical(after);
                if seen.contains(key) || !race.within(after, budget - depth) {
                    continue;
                }
                if seen.len() >= max_positions {
                    return None;
                }
                seen.insert(key);
                next.push(key);
            }
        }
        layers.push(next.len());
        frontier = next;
    }
    // Two kept positions that are each other's reflection (depths of at
    // most half − 1 each).
    let mut met = seen.iter().any(|s| seen.contains(partner(s)));
    if !met && half > 0 && budget % 2 == 1 {
        // The last layer, looked through.
        'outer: for &p in &frontier {
            nodes += 1;
            race.children(p, &mut kids);
            for &(_, _, after) in &kids {
                if seen.contains(partner(after)) {
                    met = true;
                    break 'outer;
                }
            }
        }
        layers.push(0);
    } else if !met && half > 0 {
        let mut last = KeySet::new();
        for &p in &frontier {
            nodes += 1;
            race.children(p, &mut kids);
            for &(_, _, after) in &kids {
                let key = race.canonical(after);
                if seen.contains(key) || last.contains(key) || !race.within(after, budget - half) {
                    continue;
                }
                if seen.len() + last.len() >= max_positions {
                    return None;
                }
                last.insert(key);
            }
        }
        layers.push(last.len());
        met = last
            .iter()
            .any(|s| last.contains(partner(s)) || seen.contains(partner(s)));
    }
    Some(Halves {
        met,
        positions: layers.iter().sum(),
        nodes,
        layers,
    })
}

/// A set of non-empty bit sets: open addressing, linear probing, 0 marks a
/// free slot; at most half full.
struct KeySet {
    slots: Vec<Bits>,
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

    fn slot(&self, key: Bits) -> usize {
        let h = (key as u64 ^ (key >> 64) as u64 ^ (key >> 96) as u64)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> 16) as usize & (self.slots.len() - 1)
    }

    fn contains(&self, key: Bits) -> bool {
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
    fn insert(&mut self, key: Bits) {
        if 2 * (self.len + 1) > self.slots.len() {
            let bigger = vec![0; 2 * self.slots.len()];
            let old = std::mem::replace(&mut self.slots, bigger);
            for k in old.into_iter().filter(|&k| k != 0) {
                self.place(k);
            }
        }
        self.place(key);
        self.len += 1;
    }

    fn place(&mut self, key: Bits) {
        let mask = self.slots.len() - 1;
        let mut i = self.slot(key);
        while self.slots[i] != 0 {
            i = (i + 1) & mask;
        }
        self.slots[i] = key;
    }

    fn iter(&self) -> impl Iterator<Item = Bits> + '_ {
        self.slots.iter().copied().filter(|&k| k != 0)
    }
}

/// The point reflection through the centre hole: (x, y) → (−x, 18 − y).
struct Reflection([u8; crate::geometry::CELLS]);

impl Reflection {
    fn new() -> Reflection {
        let mut map = [0u8; crate::geometry::CELLS];
        for c in Cell::all() {
            map[c.index()] = Cell::from_xy(-c.x(), 18 - c.y()).map_or(0, |m| m.index() as u8);
        }
        Reflection(map)
    }

    fn apply(&self, set: Bits) -> Bits {
        cells(set).fold(0, |m, c| m | 1u128 << self.0[c.index()])
    }
}
