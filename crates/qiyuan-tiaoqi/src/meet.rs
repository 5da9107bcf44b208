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

use std::collections::HashMap;

use crate::geometry::{Bits, Cell, cells};
use crate::solo::Race;

/// What [`prove_by_halves`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Halves {
    /// A solution of at most the budget exists (a reflected pair met).
    pub met: bool,
    /// Distinct positions (up to the mirror) in the half search.
    pub positions: usize,
    /// Positions expanded (some more than once, when reached sooner).
    pub nodes: u64,
}

/// Whether a solution of at most `budget` moves exists, by the search of
/// halves described in the module doc. `None` if the race is not symmetric
/// under the point reflection, or if more than `max_positions` positions
/// would have to be kept.
pub fn prove_by_halves(race: &Race, budget: u32, max_positions: usize) -> Option<Halves> {
    let reflect = Reflection::new();
    if reflect.apply(race.start()) != race.target()
        || reflect.apply(race.allowed()) != race.allowed()
    {
        return None;
    }
    let half = budget.div_ceil(2);
    let mut seen: HashMap<Bits, u8> = HashMap::new();
    let mut nodes = 0u64;
    let mut stack: Vec<(Bits, u32)> = vec![(race.start(), 0)];
    seen.insert(race.canonical(race.start()), 0);
    let mut kids = Vec::new();
    while let Some((p, depth)) = stack.pop() {
        nodes += 1;
        if depth == half {
            continue;
        }
        race.children(p, &mut kids);
        for &(_, _, after) in &kids {
            let d = depth + 1;
            if race.bound(after) + d > budget {
                continue;
            }
            let key = race.canonical(after);
            match seen.get(&key) {
                Some(&old) if u32::from(old) <= d => continue,
                _ => {
                    if seen.len() >= max_positions {
                        return None;
                    }
                    seen.insert(key, d as u8);
                    stack.push((after, d));
                }
            }
        }
    }
    // A pair S, R(S) whose depths add up to at most the budget.
    let met = seen.iter().any(|(&s, &ds)| {
        seen.get(&race.canonical(reflect.apply(s)))
            .is_some_and(|&dr| u32::from(ds) + u32::from(dr) <= budget)
    });
    Some(Halves {
        met,
        positions: seen.len(),
        nodes,
    })
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
