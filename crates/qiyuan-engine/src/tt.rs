//! The transposition table: one entry per bucket, replaced when the new
//! search is deeper or the old entry is from an earlier search.

use qiyuan_xiangqi::{Move, Position};

/// What a stored score means relative to the true value.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The true value is exactly the score.
    Exact,
    /// The true value is at least the score (a beta cut-off).
    Lower,
    /// The true value is at most the score (no move raised alpha).
    Upper,
}

impl Bound {
    /// What a node's `best` score means, given the window it was searched
    /// with (`alpha` as it was on entry).
    #[inline]
    pub fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// One stored search result.
#[derive(Copy, Clone, Debug)]
pub struct Entry {
    key: u64,
    /// Best move found (may be a pass in Jifen); `None` when no move was best.
    pub mv: Option<Move>,
    /// Score in the table's mate convention (see [`to_tt`]).
    pub score: i32,
    /// Remaining depth the score was searched to.
    pub depth: i16,
    /// Bound type of the score.
    pub bound: Bound,
    generation: u8,
}

impl Entry {
    /// The stored score at `ply`, if its bound settles the window
    /// (`alpha`, `beta`): the node can return it without searching.
    #[inline]
    pub fn cutoff(&self, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
        let s = from_tt(self.score, ply);
        match self.bound {
            Bound::Exact => Some(s),
            Bound::Lower if s >= beta => Some(s),
            Bound::Upper if s <= alpha => Some(s),
            _ => None,
        }
    }
}

/// The table. Size is a power of two so indexing is a mask.
pub struct TransTable {
    entries: Vec<Option<Entry>>,
    mask: usize,
    generation: u8,
}

/// The key a position is stored under: the rules crate's Zobrist key covers
/// board, side and double-turn state but not Jifen scores, which change the
/// value of a position, so they are mixed in here.
pub fn key(pos: &Position) -> u64 {
    let h = pos.hash();
    if !pos.variant().is_jifen() {
        return h;
    }
    let [r, b] = pos.scores();
    let mut z = ((r as u32 as u64) << 32 | b as u32 as u64).wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ z ^ (z >> 31)
}

impl TransTable {
    /// A table of about `mb` mebibytes (at least one entry).
    pub fn new(mb: usize) -> TransTable {
        let bytes = mb.max(1) * 1024 * 1024;
        let n = (bytes / std::mem::size_of::<Option<Entry>>()).next_power_of_two() / 2;
        let n = n.max(1024);
        TransTable {
            entries: vec![None; n],
            mask: n - 1,
            generation: 0,
        }
    }

    /// Empties the table (new game, or a deterministic benchmark).
    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = None);
        self.generation = 0;
    }

    /// Marks the start of a new search so old entries are replaced first.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        match self.entries[key as usize & self.mask] {
            Some(e) if e.key == key => Some(e),
            _ => None,
        }
    }

    /// Stores a result, keeping a deeper entry of the current search for
    /// another position.
    #[inline]
    pub fn store(&mut self, key: u64, mv: Option<Move>, score: i32, depth: i32, bound: Bound) {
        let slot = &mut self.entries[key as usize & self.mask];
        if let Some(old) = slot {
            let same = old.key == key;
            if !same && old.generation == self.generation && old.depth as i32 > depth + 2 {
                return;
            }
            // A shallow (quiescence) result does not replace a much deeper
            // one for the same position, unless it is exact.
            if same && bound != Bound::Exact && old.depth as i32 > depth + 3 {
                return;
            }
            // Keep the old move when the new search found none for this position.
            let mv = if mv.is_none() && same { old.mv } else { mv };
            *old = Entry {
                key,
                mv,
                score,
                depth: depth as i16,
                bound,
                generation: self.generation,
            };
        } else {
            *slot = Some(Entry {
                key,
                mv,
                score,
                depth: depth as i16,
                bound,
                generation: self.generation,
            });
        }
    }
}

/// Mate scores are stored relative to the node (not the root), so they stay
/// right when the position is reached at another ply.
pub fn to_tt(score: i32, ply: usize) -> i32 {
    use crate::search::MATE_BOUND;
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// Inverse of [`to_tt`].
pub fn from_tt(score: i32, ply: usize) -> i32 {
    use crate::search::MATE_BOUND;
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}
