//! Puzzle ratings (issue 40): Glicko-2 (the `skillratings` crate) for the
//! player and the puzzle alike, an attempt being one game between them that
//! the player wins by solving it. Lichess rates its puzzles the same way.
//!
//! Bounds keep a rating sane whatever the attempts: ratings stay within
//! [`MIN_RATING`]..=[`MAX_RATING`], deviations within
//! [`MIN_DEVIATION`]..=[`MAX_DEVIATION`], so that a puzzle played thousands
//! of times still moves a little and a new player's first attempts move a lot.

use serde::{Deserialize, Serialize};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

/// The lowest rating a player or a puzzle can have.
pub const MIN_RATING: f64 = 400.0;
/// The highest rating a player or a puzzle can have.
pub const MAX_RATING: f64 = 3200.0;
/// The smallest deviation: a rating never becomes certain.
pub const MIN_DEVIATION: f64 = 45.0;
/// The deviation of a new player (Glicko-2's usual 350).
pub const MAX_DEVIATION: f64 = 350.0;
/// The deviation a new puzzle starts with: its generator's estimate is
/// better than nothing, so it moves less than a new player.
pub const NEW_PUZZLE_DEVIATION: f64 = 200.0;
/// A new player's rating (and what a guest is treated as).
pub const START_RATING: f64 = 1500.0;
/// Glicko-2's usual starting volatility.
pub const START_VOLATILITY: f64 = 0.06;

/// A Glicko-2 rating: the value, its deviation and its volatility.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Glicko {
    /// The rating.
    pub rating: f64,
    /// How uncertain it is (one standard deviation, rating points).
    pub deviation: f64,
    /// How erratic the results have been.
    pub volatility: f64,
}

impl Glicko {
    /// A new player's rating: 1500 ± 350.
    pub const fn new_player() -> Glicko {
        Glicko {
            rating: START_RATING,
            deviation: MAX_DEVIATION,
            volatility: START_VOLATILITY,
        }
    }

    /// A new puzzle's rating: its generator's estimate (clamped) ± 200.
    pub fn new_puzzle(rating: f64) -> Glicko {
        Glicko {
            rating: clamp(rating, MIN_RATING, MAX_RATING, START_RATING),
            deviation: NEW_PUZZLE_DEVIATION,
            volatility: START_VOLATILITY,
        }
    }

    fn to_lib(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: clamp(self.rating, MIN_RATING, MAX_RATING, START_RATING),
            deviation: clamp(self.deviation, MIN_DEVIATION, MAX_DEVIATION, MAX_DEVIATION),
            volatility: clamp(self.volatility, 0.01, 0.2, START_VOLATILITY),
        }
    }

    fn from_lib(r: Glicko2Rating) -> Glicko {
        Glicko {
            rating: clamp(r.rating, MIN_RATING, MAX_RATING, START_RATING),
            deviation: clamp(r.deviation, MIN_DEVIATION, MAX_DEVIATION, MAX_DEVIATION),
            volatility: clamp(r.volatility, 0.01, 0.2, START_VOLATILITY),
        }
    }
}

/// `x` within `lo..=hi`; `otherwise` for a value that is not a number.
fn clamp(x: f64, lo: f64, hi: f64, otherwise: f64) -> f64 {
    if x.is_finite() {
        x.clamp(lo, hi)
    } else {
        otherwise
    }
}

/// One attempt: the player against the puzzle, won when `solved`. Returns
/// the player's and the puzzle's new ratings.
pub fn rate_attempt(player: Glicko, puzzle: Glicko, solved: bool) -> (Glicko, Glicko) {
    let outcome = if solved {
        Outcomes::WIN
    } else {
        Outcomes::LOSS
    };
    let (p, z) = glicko2(
        &player.to_lib(),
        &puzzle.to_lib(),
        &outcome,
        &Glicko2Config::new(),
    );
    (Glicko::from_lib(p), Glicko::from_lib(z))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solving_raises_the_player_and_lowers_the_puzzle() {
        let (p, z) = rate_attempt(Glicko::new_player(), Glicko::new_puzzle(1500.0), true);
        assert!(p.rating > 1500.0 && z.rating < 1500.0, "{p:?} {z:?}");
        // The new player's rating moves more: its deviation is larger.
        assert!(p.rating - 1500.0 > 1500.0 - z.rating, "{p:?} {z:?}");
        assert!(p.deviation < MAX_DEVIATION);
        let (p, z) = rate_attempt(Glicko::new_player(), Glicko::new_puzzle(1500.0), false);
        assert!(p.rating < 1500.0 && z.rating > 1500.0, "{p:?} {z:?}");
    }

    #[test]
    fn an_easy_puzzle_solved_moves_little_and_a_miss_costs_much() {
        let me = Glicko {
            rating: 1800.0,
            deviation: 80.0,
            volatility: 0.06,
        };
        let easy = Glicko::new_puzzle(1000.0);
        let (won, _) = rate_attempt(me, easy, true);
        let (lost, _) = rate_attempt(me, easy, false);
        assert!(won.rating - 1800.0 < 3.0, "{won:?}");
        assert!(1800.0 - lost.rating > 10.0, "{lost:?}");
    }

    #[test]
    fn ratings_stay_within_bounds() {
        let mut p = Glicko::new_player();
        let z = Glicko::new_puzzle(3200.0);
        for _ in 0..500 {
            p = rate_attempt(p, z, true).0;
        }
        assert!(
            p.rating <= MAX_RATING && p.deviation >= MIN_DEVIATION,
            "{p:?}"
        );
        let bad = Glicko {
            rating: f64::NAN,
            deviation: -1.0,
            volatility: f64::INFINITY,
        };
        let (q, _) = rate_attempt(bad, z, false);
        assert!(
            q.rating.is_finite() && q.deviation >= MIN_DEVIATION,
            "{q:?}"
        );
        assert_eq!(Glicko::new_puzzle(99_999.0).rating, MAX_RATING);
    }
}
