//! Time management: how long to think given the clock.
//!
//! Two limits come out: a soft one (do not start another iteration after
//! it) and a hard one (abort the search), both well inside the remaining
//! time so the engine never loses on time.

use std::time::Duration;

/// The clock the search reads. On the web (wasm32 without a host clock)
/// time stands still: a search there is bounded by depth or nodes, never by
/// time, and `now()` cannot panic.
#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;
#[cfg(target_arch = "wasm32")]
pub use still::Instant;

#[cfg(target_arch = "wasm32")]
mod still {
    use std::time::Duration;

    /// An instant of a clock that never moves.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
    pub struct Instant;

    impl Instant {
        /// The one instant.
        pub fn now() -> Instant {
            Instant
        }
        /// No time has passed.
        pub fn elapsed(&self) -> Duration {
            Duration::ZERO
        }
    }

    impl std::ops::Add<Duration> for Instant {
        type Output = Instant;
        fn add(self, _: Duration) -> Instant {
            Instant
        }
    }
}

/// The clock situation a `go` command describes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on our clock.
    pub remaining: Duration,
    /// Increment per move.
    pub increment: Duration,
    /// Moves until the next time control, if any.
    pub moves_to_go: Option<u32>,
}

/// Safety margin for process and pipe latency per move.
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(50);

/// Soft and hard time limits for one move under `clock`.
pub fn allocate(clock: Clock) -> (Duration, Duration) {
    let rem = clock.remaining.saturating_sub(MOVE_OVERHEAD);
    let mtg = clock.moves_to_go.unwrap_or(30).clamp(1, 40);
    let soft = rem / mtg + clock.increment * 3 / 4;
    // Never plan to use more than a fifth of what is left (a third with moves to go 1).
    let cap = if mtg == 1 { rem * 2 / 3 } else { rem / 5 };
    let soft = soft.min(cap);
    let hard = (soft * 4).min(cap.max(soft));
    (
        soft.max(Duration::from_millis(1)),
        hard.max(Duration::from_millis(1)),
    )
}

/// Limits for a fixed time per move.
pub fn fixed(movetime: Duration) -> (Duration, Duration) {
    let t = movetime
        .saturating_sub(MOVE_OVERHEAD)
        .max(Duration::from_millis(1));
    (t, t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocation_stays_within_the_clock() {
        for ms in [10u64, 50, 100, 1000, 60_000] {
            let c = Clock {
                remaining: Duration::from_millis(ms),
                increment: Duration::from_millis(100),
                moves_to_go: None,
            };
            let (soft, hard) = allocate(c);
            assert!(soft <= hard);
            assert!(hard <= Duration::from_millis(ms).max(Duration::from_millis(1)));
        }
    }

    #[test]
    fn increment_is_used() {
        let base = Clock {
            remaining: Duration::from_secs(10),
            increment: Duration::ZERO,
            moves_to_go: None,
        };
        let with_inc = Clock {
            increment: Duration::from_secs(1),
            ..base
        };
        assert!(allocate(with_inc).0 > allocate(base).0);
    }
}
