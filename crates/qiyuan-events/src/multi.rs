//! Ratings of games with more than two seats (H1: they have their own scale,
//! apart from the two-player Elo): Weng-Lin (the `skillratings` crate), each
//! player a team of one, ranked by its place. Shown on the Elo-like scale
//! of the hall: 1000 + 40 × (μ − 25), so a new player starts at 1000.

use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};

/// Points of the shown scale per Weng-Lin unit.
pub const SCALE: f64 = 40.0;
/// The shown value of Weng-Lin's default μ (25).
pub const START: f64 = 1000.0;
/// The uncertainty given to a fixed rating (an AI level), in shown points:
/// small, so a person's result against it counts for what the level is.
pub const FIXED_DEVIATION: f64 = 40.0;

/// A multi-player rating on the shown scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MultiRating {
    /// The shown rating (from μ).
    pub value: f64,
    /// The shown uncertainty (from σ).
    pub deviation: f64,
    /// Rated games so far.
    pub rated_games: u32,
}

impl Default for MultiRating {
    fn default() -> Self {
        MultiRating::from_weng_lin(WengLinRating::new(), 0)
    }
}

impl MultiRating {
    /// A fixed rating of `value` (an AI level): never updated.
    pub fn fixed(value: f64) -> MultiRating {
        MultiRating {
            value,
            deviation: FIXED_DEVIATION,
            rated_games: 0,
        }
    }

    fn weng_lin(&self) -> WengLinRating {
        WengLinRating {
            rating: 25.0 + (self.value - START) / SCALE,
            uncertainty: (self.deviation / SCALE).max(1e-6),
        }
    }

    fn from_weng_lin(r: WengLinRating, rated_games: u32) -> MultiRating {
        MultiRating {
            value: START + (r.rating - 25.0) * SCALE,
            deviation: r.uncertainty * SCALE,
            rated_games,
        }
    }
}

/// Every player's rating after a game in which they took these places
/// (1 = first; equal places share a rank), in the order given.
pub fn rate_places(players: &[(MultiRating, usize)]) -> Vec<MultiRating> {
    let ratings: Vec<[WengLinRating; 1]> = players.iter().map(|(r, _)| [r.weng_lin()]).collect();
    let teams: Vec<(&[WengLinRating], MultiTeamOutcome)> = ratings
        .iter()
        .zip(players)
        .map(|(r, (_, place))| (&r[..], MultiTeamOutcome::new((*place).max(1))))
        .collect();
    let after = weng_lin_multi_team(&teams, &WengLinConfig::new());
    after
        .iter()
        .zip(players)
        .map(|(t, (before, _))| {
            MultiRating::from_weng_lin(
                t.first().copied().unwrap_or(before.weng_lin()),
                before.rated_games + 1,
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn h1_multi_player_places_order_the_new_ratings() {
        let six: Vec<(MultiRating, usize)> = (1..=6)
            .map(|place| (MultiRating::default(), place))
            .collect();
        let after = rate_places(&six);
        assert_eq!(MultiRating::default().value, START);
        for w in after.windows(2) {
            assert!(w[0].value > w[1].value, "{after:?}");
        }
        assert!(after[0].value > START && after[5].value < START);
        assert!(
            after
                .iter()
                .all(|r| r.deviation < MultiRating::default().deviation)
        );
        assert!(after.iter().all(|r| r.rated_games == 1));
        // Sharing a place gives the same rating.
        let tied = rate_places(&[
            (MultiRating::default(), 1),
            (MultiRating::default(), 2),
            (MultiRating::default(), 2),
        ]);
        assert!((tied[1].value - tied[2].value).abs() < 1e-9);
        // Beating a strong fixed rating gains more than beating a weak one.
        let strong = rate_places(&[(MultiRating::default(), 1), (MultiRating::fixed(1400.0), 2)]);
        let weak = rate_places(&[(MultiRating::default(), 1), (MultiRating::fixed(700.0), 2)]);
        assert!(strong[0].value > weak[0].value);
    }
}
