//! Single-elimination brackets (H4): seeding order, byes to the top seeds, and
//! drawing lots from a stored seed.

/// The bracket positions for `size` (a power of two) seeds, top to bottom:
/// seed 1 meets seed `size` in round 1, and seeds 1 and 2 can meet only in the
/// final. For 8: 1 8 4 5 2 7 3 6 (0-based below: 0 7 3 4 1 6 2 5).
pub fn seed_order(size: usize) -> Vec<usize> {
    let mut order = vec![0usize];
    let mut len = 1;
    while len < size {
        len *= 2;
        order = order.iter().flat_map(|&s| [s, len - 1 - s]).collect();
    }
    order
}

/// The smallest power of two that holds `n` entrants (at least 1).
pub fn bracket_size(n: usize) -> usize {
    n.max(1).next_power_of_two()
}

/// Places `n` seeded entrants (index = seed - 1) in a bracket: `None` is a
/// bye. Byes fall to the top seeds because seed s meets seed size+1-s, and
/// only seeds above n are missing.
pub fn seeded_bracket(n: usize) -> Vec<Option<usize>> {
    seed_order(bracket_size(n))
        .into_iter()
        .map(|s| (s < n).then_some(s))
        .collect()
}

/// A small deterministic generator (SplitMix64) for drawing lots: the event
/// stores the seed, so the draw is reproducible and testable.
#[derive(Clone, Debug)]
pub struct Lots(u64);

impl Lots {
    /// A generator for `seed`.
    pub fn new(seed: u64) -> Self {
        Lots(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Shuffles `items` (Fisher-Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = (self.next_u64() % (i as u64 + 1)) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn h4_seed_order_keeps_top_seeds_apart() {
        assert_eq!(seed_order(1), vec![0]);
        assert_eq!(seed_order(2), vec![0, 1]);
        assert_eq!(seed_order(4), vec![0, 3, 1, 2]);
        assert_eq!(seed_order(8), vec![0, 7, 3, 4, 1, 6, 2, 5]);
        for size in [2, 4, 8, 16, 32] {
            let o = seed_order(size);
            // Every first-round pair sums to size-1 (1 v 16, 8 v 9, ...).
            for p in o.chunks(2) {
                assert_eq!(p[0] + p[1], size - 1);
            }
            // Seeds 1 and 2 are in different halves.
            let half = &o[..size / 2];
            assert!(half.contains(&0) && !half.contains(&1));
        }
    }

    #[test]
    fn h4_byes_go_to_the_top_seeds() {
        // 5 players in a bracket of 8: seeds 1, 2, 3 have byes.
        let b = seeded_bracket(5);
        assert_eq!(b.len(), 8);
        let byes: Vec<usize> = b
            .chunks(2)
            .filter_map(|p| match (p[0], p[1]) {
                (Some(a), None) | (None, Some(a)) => Some(a),
                _ => None,
            })
            .collect();
        let mut byes = byes;
        byes.sort();
        assert_eq!(byes, vec![0, 1, 2]);
        assert!(b.chunks(2).all(|p| p[0].is_some() || p[1].is_some()));
    }

    #[test]
    fn lots_are_reproducible() {
        let mut a: Vec<u32> = (0..16).collect();
        let mut b = a.clone();
        Lots::new(7).shuffle(&mut a);
        Lots::new(7).shuffle(&mut b);
        assert_eq!(a, b);
        assert_ne!(a, (0..16).collect::<Vec<_>>());
        let mut c = a.clone();
        c.sort();
        assert_eq!(c, (0..16).collect::<Vec<_>>());
    }
}
