//! A tiny deterministic random number generator (SplitMix64): level noise,
//! random openings and self-play need reproducible randomness, not
//! cryptographic quality, so no dependency is pulled in for it.

/// SplitMix64 state.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed; equal seeds give equal sequences.
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x2545_f491_4f6c_dd1d)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`); the tiny modulo bias is irrelevant here.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// A number in `-r..=r`.
    pub fn symmetric(&mut self, r: i32) -> i32 {
        if r <= 0 {
            0
        } else {
            self.below(2 * r as u64 + 1) as i32 - r
        }
    }
}

/// A seed from the clock, for play that should differ from game to game.
pub fn time_seed() -> u64 {
    #[cfg(target_arch = "wasm32")]
    {
        0x1234_5678
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0x1234_5678)
    }
}
