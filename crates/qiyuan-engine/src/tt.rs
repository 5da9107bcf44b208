//! The transposition table: buckets of four entries. A position's result
//! goes to its own entry if the bucket has one, else to an empty one, else
//! replaces the entry worth least: the shallowest, counting entries from
//! earlier searches as shallower.

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

/// Entries per bucket: a position may live in any of them.
const BUCKET: usize = 4;

/// The table. The number of buckets is a power of two so indexing is a mask.
pub struct TransTable {
    entries: Vec<Option<Entry>>,
    /// Mask of the bucket index.
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
    /// A table of about `mb` mebibytes (at least 1024 buckets).
    pub fn new(mb: usize) -> TransTable {
        let bytes = mb.max(1) * 1024 * 1024;
        let per_bucket = BUCKET * std::mem::size_of::<Option<Entry>>();
        let buckets = ((bytes / per_bucket).next_power_of_two() / 2).max(1024);
        TransTable {
            entries: vec![None; buckets * BUCKET],
            mask: buckets - 1,
            generation: 0,
        }
    }

    /// The bucket `key` belongs to.
    #[inline]
    fn bucket(&self, key: u64) -> std::ops::Range<usize> {
        let start = (key as usize & self.mask) * BUCKET;
        start..start + BUCKET
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
        self.entries[self.bucket(key)]
            .iter()
            .flatten()
            .find(|e| e.key == key)
            .copied()
    }

    /// Stores a result: over the position's own entry (unless that one is
    /// much deeper and the new bound is not exact), else in an empty entry,
    /// else over the entry worth least (depth, less 4 per search it is old).
    #[inline]
    pub fn store(&mut self, key: u64, mv: Option<Move>, score: i32, depth: i32, bound: Bound) {
        let generation = self.generation;
        let range = self.bucket(key);
        let bucket = &mut self.entries[range];
        let own = bucket.iter().position(|e| e.is_some_and(|e| e.key == key));
        let slot = own
            .or_else(|| bucket.iter().position(Option::is_none))
            .unwrap_or_else(|| {
                let worth = |e: &Option<Entry>| {
                    e.map_or(i32::MIN, |e| {
                        e.depth as i32 - 4 * generation.wrapping_sub(e.generation) as i32
                    })
                };
                (0..BUCKET).min_by_key(|&i| worth(&bucket[i])).unwrap_or(0)
            });
        let mut mv = mv;
        if let Some(old) = bucket[slot].filter(|e| e.key == key) {
            // A shallow (quiescence) result does not replace a much deeper
            // one for the same position, unless it is exact.
            if bound != Bound::Exact && old.depth as i32 > depth + 3 {
                return;
            }
            // Keep the old move when the new search found none.
            if mv.is_none() {
                mv = old.mv;
            }
        }
        bucket[slot] = Some(Entry {
            key,
            mv,
            score,
            depth: depth as i16,
            bound,
            generation,
        });
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_sharing_a_bucket_are_all_kept() {
        let mut tt = TransTable::new(1);
        let buckets = tt.mask as u64 + 1;
        // Four keys that index the same bucket, stored shallow after deep.
        let keys: Vec<u64> = (1..=4).map(|i| 7 + i * buckets).collect();
        for (i, &k) in keys.iter().enumerate() {
            tt.store(k, None, i as i32, 20 - i as i32 * 5, Bound::Exact);
        }
        for (i, &k) in keys.iter().enumerate() {
            assert_eq!(tt.probe(k).map(|e| e.score), Some(i as i32));
        }
        // A fifth replaces the shallowest (depth 5), not the deepest.
        let fifth = 7 + 9 * buckets;
        tt.store(fifth, None, 99, 1, Bound::Lower);
        assert_eq!(tt.probe(fifth).map(|e| e.score), Some(99));
        assert!(tt.probe(keys[3]).is_none());
        assert!(tt.probe(keys[0]).is_some());
        // Five searches later even the depth-20 entry is worth less than a
        // new depth-1 result: four new results replace all four old entries.
        for _ in 0..5 {
            tt.new_search();
        }
        let fresh: Vec<u64> = (10..14).map(|i| 7 + i * buckets).collect();
        for &k in &fresh {
            tt.store(k, None, 1, 1, Bound::Upper);
        }
        assert!(fresh.iter().all(|&k| tt.probe(k).is_some()));
        assert!(tt.probe(keys[0]).is_none());
    }

    #[test]
    fn a_shallow_bound_does_not_overwrite_a_deep_result() {
        let mut tt = TransTable::new(1);
        tt.store(42, None, 10, 12, Bound::Exact);
        tt.store(42, None, -5, 0, Bound::Upper);
        assert_eq!(tt.probe(42).map(|e| e.depth), Some(12));
        tt.store(42, None, 7, 0, Bound::Exact);
        assert_eq!(tt.probe(42).map(|e| (e.depth, e.score)), Some((0, 7)));
    }
}
