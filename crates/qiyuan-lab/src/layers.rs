//! The solo race's next budget proved by layers: a breadth-first search
//! from the start that keeps three layers, not all of them, spread over
//! threads, written to disk layer by layer so that a long run can resume,
//! and a meeting test that looks at the middle layers only.
//!
//! **Three layers suffice.** A position is kept at depth `e` if its bound
//! is at most `budget − e`; this test only gets easier as `e` shrinks. Let
//! `X` be in layer `d` and its child `Y` pass the test at depth `d + 1`.
//! If `Y` lay in some layer `e ≤ d − 2`, then `X` (a child of `Y`: moves
//! are reversible, with T5 as well) would pass the test at `e + 1 ≤ d − 1`
//! since its bound is at most `budget − d`, and would lie in a layer before
//! `d`. So layer `d + 1` is the children of layer `d` that pass the test,
//! less layers `d` and `d − 1`. Positions are kept up to the west-east
//! mirror; that is sound as the mirror maps moves onto moves and keeps the
//! bound (it fixes rows, swaps the two diagonal axes, permutes the jump
//! classes together with their target capacities).
//!
//! **The middle layers suffice once the budget below is proved.** If no
//! solution of at most `budget − 1` moves exists, the position `i` moves
//! into a `budget`-move solution is exactly `i` moves from the start and
//! `budget − i` from the end (a shortcut would give a shorter solution).
//! The bound is admissible, so the path's first `i` positions pass the
//! test and the position lies in layer `i` exactly. Its midpoint `S` at
//! `h = ⌈budget/2⌉` is in layer `h`; its point reflection `R(S)` is
//! `⌊budget/2⌋` from `R(end) = start`, so it lies in layer `⌊budget/2⌋`.
//! Conversely such a pair joins into a solution. So a solution exists iff
//! some `S` of layer `h` has `R(S)` (up to the mirror) in layer `⌊budget/2⌋`.

use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::layer_file::{Header, LayerStore};
use crate::meet::{Ranks, Reflection};
use crate::solo::Race;
use qiyuan_tiaoqi::geometry::{Bits, cells};

/// Buckets of a [`Layer`] (a power of two).
pub const BUCKETS: usize = 1024;

/// Keys a thread gathers for one bucket before it takes the bucket's lock.
const STAGE: usize = 2048;

/// Room a pending bucket has on top of twice its tidy part.
const SLACK: usize = 1 << 12;

/// The bucket of a position's key: by a hash, so buckets are even.
pub fn bucket_of(key: u64) -> usize {
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 54) as usize & (BUCKETS - 1)
}

/// One breadth-first layer: the 47-bit keys of its positions, split into
/// [`BUCKETS`] buckets by [`bucket_of`], each sorted (8 bytes a position,
/// and buckets can be filled and compared in parallel).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layer {
    buckets: Vec<Vec<u64>>,
}

impl Layer {
    /// No positions.
    pub fn empty() -> Layer {
        Layer {
            buckets: vec![Vec::new(); BUCKETS],
        }
    }

    /// The layer of these keys (repeats dropped).
    pub fn from_keys(keys: impl IntoIterator<Item = u64>) -> Layer {
        let mut layer = Layer::empty();
        for k in keys {
            layer.buckets[bucket_of(k)].push(k);
        }
        for b in &mut layer.buckets {
            b.sort_unstable();
            b.dedup();
        }
        layer
    }

    /// The layer of these buckets, if each is strictly increasing and
    /// holds only its own keys (as read from a file).
    pub(crate) fn from_buckets(buckets: Vec<Vec<u64>>) -> Option<Layer> {
        let ok = buckets.len() == BUCKETS
            && buckets.iter().enumerate().all(|(i, b)| {
                b.windows(2).all(|w| w[0] < w[1]) && b.iter().all(|&k| bucket_of(k) == i)
            });
        ok.then_some(Layer { buckets })
    }

    /// Positions in the layer.
    pub fn len(&self) -> usize {
        self.buckets.iter().map(Vec::len).sum()
    }

    /// Whether the layer has no positions.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the key is in the layer.
    pub fn contains(&self, key: u64) -> bool {
        self.buckets[bucket_of(key)].binary_search(&key).is_ok()
    }

    /// The sorted keys of one bucket.
    pub fn bucket(&self, b: usize) -> &[u64] {
        &self.buckets[b]
    }
}

/// What [`prove_next_budget`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exact {
    /// A solution of exactly the budget exists (a reflected pair met).
    pub met: bool,
    /// Positions at each depth `0 ..= ⌈budget/2⌉`.
    pub layers: Vec<usize>,
    /// Layers read back from the store instead of searched.
    pub resumed: u32,
}

/// Why [`prove_next_budget`] gave no answer.
#[derive(Debug, thiserror::Error)]
pub enum ExactError {
    /// The meeting test at exact depth needs `budget − 1` proved.
    #[error("budget {budget} needs no solution of <= {} moves proved first, got {proved}", budget - 1)]
    NotNextBudget {
        /// The budget asked for.
        budget: u32,
        /// The budget said to be proved.
        proved: u32,
    },
    /// The race is not its own point reflection, or has over ten pieces.
    #[error("the race is not symmetric under the point reflection or has more than ten pieces")]
    Unsuited,
    /// The store could not be read or written, or holds another search.
    #[error("layer store: {0}")]
    Store(#[from] std::io::Error),
}

/// What [`prove_next_budget`] reports after each layer.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// The layer's depth.
    pub depth: u32,
    /// Its positions.
    pub positions: usize,
    /// Read back from the store rather than searched.
    pub resumed: bool,
}

/// Whether a solution of `budget` moves exists, given that none of at most
/// `proved = budget − 1` moves does (proved before, e.g. by
/// [`crate::meet::prove_by_halves`]): by the layers and the meeting test
/// of the module doc. `threads` share each layer's expansion. With a
/// `store`, each finished layer is written there, and a search of the
/// same race and budget resumes from the last two layers found.
pub fn prove_next_budget(
    race: &Race,
    budget: u32,
    proved: u32,
    threads: usize,
    store: Option<&Path>,
    done: &mut dyn FnMut(Progress),
) -> Result<Exact, ExactError> {
    if budget == 0 || proved + 1 != budget {
        return Err(ExactError::NotNextBudget { budget, proved });
    }
    let reflect = Reflection::new();
    let pieces = race.start().count_ones() as usize;
    if reflect.apply(race.start()) != race.target()
        || reflect.apply(race.allowed()) != race.allowed()
        || pieces > 10
    {
        return Err(ExactError::Unsuited);
    }
    let ctx = Search {
        race,
        ranks: Ranks::new(),
        pieces,
    };
    let half = budget.div_ceil(2);
    let store = store
        .map(|dir| LayerStore::open(dir, Header::new(race, budget)))
        .transpose()?;
    // The last two layers on disk, or the start.
    let resume = match &store {
        Some(s) => s.resume(half)?,
        None => None,
    };
    let (mut layers, mut prev, mut cur) = match resume {
        Some(r) => (r.counts, r.prev, r.cur),
        None => (Vec::new(), Layer::empty(), ctx.start_layer()),
    };
    let resumed = layers.len() as u32;
    for (depth, &positions) in layers.iter().enumerate() {
        done(Progress {
            depth: depth as u32,
            positions,
            resumed: true,
        });
    }
    if layers.is_empty() {
        if let Some(s) = &store {
            s.write(0, &cur)?;
        }
        layers.push(cur.len());
        done(Progress {
            depth: 0,
            positions: cur.len(),
            resumed: false,
        });
    }
    let mut depth = layers.len() as u32 - 1;
    while depth < half {
        let next = ctx.expand(&prev, &cur, budget - depth - 1, threads.max(1));
        depth += 1;
        if let Some(s) = &store {
            s.write(depth, &next)?;
        }
        layers.push(next.len());
        done(Progress {
            depth,
            positions: next.len(),
            resumed: false,
        });
        prev = std::mem::replace(&mut cur, next);
    }
    // Layer ⌊budget/2⌋ is `cur` for an even budget, `prev` for an odd one.
    let other = if budget.is_multiple_of(2) {
        &cur
    } else {
        &prev
    };
    let met = ctx.meets(&cur, other, &reflect, threads.max(1));
    Ok(Exact {
        met,
        layers,
        resumed,
    })
}

/// What the expansion and the meeting test share.
struct Search<'a> {
    race: &'a Race,
    ranks: Ranks,
    pieces: usize,
}

/// A bucket of the layer being built: the first `tidy` keys sorted, free
/// of repeats and of the two layers before; the rest as they came.
#[derive(Default)]
struct Pending {
    keys: Vec<u64>,
    tidy: usize,
}

impl Pending {
    /// How long it may grow before it is tidied: so the layer being built
    /// takes at most about twice its final size.
    fn limit(&self) -> usize {
        2 * self.tidy + SLACK
    }

    /// Sorts, drops repeats and keys of `a` or `b` (sorted).
    fn tidy(&mut self, a: &[u64], b: &[u64]) {
        self.keys.sort_unstable();
        self.keys.dedup();
        let (mut i, mut j) = (0, 0);
        self.keys.retain(|&k| {
            while i < a.len() && a[i] < k {
                i += 1;
            }
            while j < b.len() && b[j] < k {
                j += 1;
            }
            a.get(i) != Some(&k) && b.get(j) != Some(&k)
        });
        self.tidy = self.keys.len();
    }

    /// Adds keys, tidying first if they would pass the limit.
    fn add(&mut self, staged: &[u64], a: &[u64], b: &[u64]) {
        if self.keys.len() + staged.len() > self.limit() {
            self.tidy(a, b);
        }
        self.keys
            .reserve_exact(self.limit().saturating_sub(self.keys.len()));
        self.keys.extend_from_slice(staged);
    }
}

impl Search<'_> {
    fn fold(&self, set: Bits, image: Bits) -> Bits {
        if self.race.is_symmetric() {
            set.min(image)
        } else {
            set
        }
    }

    fn start_layer(&self) -> Layer {
        let start = self.race.canonical(self.race.start());
        Layer::from_keys([self.ranks.rank(start)])
    }

    /// The children of `cur` whose bound is at most `limit`, less `cur`
    /// and `prev` (see the module doc). Threads take `cur`'s buckets in
    /// turn, gather keys per bucket of the new layer and hand them over
    /// in batches; a bucket is tidied whenever it would pass its limit.
    fn expand(&self, prev: &Layer, cur: &Layer, limit: u32, threads: usize) -> Layer {
        let pending: Vec<Mutex<Pending>> = (0..BUCKETS).map(|_| Mutex::default()).collect();
        let next_bucket = AtomicUsize::new(0);
        let flush = |b: usize, staged: &mut Vec<u64>| {
            let mut p = pending[b].lock().expect("no thread panics holding it");
            p.add(staged, prev.bucket(b), cur.bucket(b));
            staged.clear();
        };
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| {
                    let mut stage: Vec<Vec<u64>> =
                        (0..BUCKETS).map(|_| Vec::with_capacity(STAGE)).collect();
                    loop {
                        let from = next_bucket.fetch_add(1, Ordering::Relaxed);
                        if from >= BUCKETS {
                            break;
                        }
                        for &key in cur.bucket(from) {
                            self.children(key, limit, &mut |k| {
                                let b = bucket_of(k);
                                stage[b].push(k);
                                if stage[b].len() == STAGE {
                                    flush(b, &mut stage[b]);
                                }
                            });
                        }
                    }
                    for (b, staged) in stage.iter_mut().enumerate() {
                        if !staged.is_empty() {
                            flush(b, staged);
                        }
                    }
                });
            }
        });
        // Tidy every bucket once more, in parallel.
        let mut pending: Vec<Pending> = pending
            .into_iter()
            .map(|m| m.into_inner().expect("no thread panicked"))
            .collect();
        let chunk = BUCKETS.div_ceil(threads);
        std::thread::scope(|scope| {
            for (i, part) in pending.chunks_mut(chunk).enumerate() {
                scope.spawn(move || {
                    for (j, p) in part.iter_mut().enumerate() {
                        let b = i * chunk + j;
                        p.tidy(prev.bucket(b), cur.bucket(b));
                        p.keys.shrink_to_fit();
                    }
                });
            }
        });
        Layer {
            buckets: pending.into_iter().map(|p| p.keys).collect(),
        }
    }

    /// Calls `out` with the key of each child of the position `key` whose
    /// bound is at most `limit` (a child's bound from its parent less the
    /// moving piece, in a few table reads).
    fn children(&self, key: u64, limit: u32, out: &mut dyn FnMut(u64)) {
        let race = self.race;
        let p = self.ranks.unrank(key, self.pieces);
        for from in cells(p) {
            let rest = p ^ from.bit();
            let part = race.partial(rest);
            let image = race.mirror(rest);
            for to in cells(race.targets(p, from)) {
                if race.partial_within(&part, to, limit) {
                    let child = rest | to.bit();
                    out(self
                        .ranks
                        .rank(self.fold(child, image | race.mirror(to.bit()))));
                }
            }
        }
    }

    /// Whether some position of `last` has its point reflection (up to the
    /// mirror) in `other`.
    fn meets(&self, last: &Layer, other: &Layer, reflect: &Reflection, threads: usize) -> bool {
        let next_bucket = AtomicUsize::new(0);
        let found = std::sync::atomic::AtomicBool::new(false);
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| {
                    loop {
                        let b = next_bucket.fetch_add(1, Ordering::Relaxed);
                        if b >= BUCKETS || found.load(Ordering::Relaxed) {
                            break;
                        }
                        let hit = last.bucket(b).iter().any(|&k| {
                            let s = self.ranks.unrank(k, self.pieces);
                            let r = self.race.canonical(reflect.apply(s));
                            other.contains(self.ranks.rank(r))
                        });
                        if hit {
                            found.store(true, Ordering::Relaxed);
                        }
                    }
                });
            }
        });
        found.into_inner()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pending_keeps_new_keys_once() {
        let mut p = Pending::default();
        let a = [2u64, 4, 6];
        let b = [3u64, 9];
        p.add(&[5, 4, 5, 7, 3, 10, 1], &a, &b);
        p.tidy(&a, &b);
        assert_eq!(p.keys, [1, 5, 7, 10]);
        assert_eq!(p.tidy, 4);
    }

    #[test]
    fn layer_finds_its_keys() {
        let keys: Vec<u64> = (1..5000u64).map(|i| i * 7919).collect();
        let layer = Layer::from_keys(keys.iter().copied().chain(keys.iter().copied()));
        assert_eq!(layer.len(), keys.len());
        assert!(
            keys.iter()
                .all(|&k| layer.contains(k) && !layer.contains(k + 1))
        );
        let buckets = layer.buckets.clone();
        assert_eq!(Layer::from_buckets(buckets), Some(layer));
        let mut wrong = vec![Vec::new(); BUCKETS];
        wrong[bucket_of(7) ^ 1].push(7);
        assert_eq!(Layer::from_buckets(wrong), None);
    }
}
