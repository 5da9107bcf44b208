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

/// Every player's rating after a team game (Weng-Lin with teams, H1): each
/// team its players' ratings and its place (1 = first; equal places share
/// a rank). The result is in the same shape.
pub fn rate_teams(teams: &[(Vec<MultiRating>, usize)]) -> Vec<Vec<MultiRating>> {
    let ratings: Vec<Vec<WengLinRating>> = teams
        .iter()
        .map(|(players, _)| players.iter().map(MultiRating::weng_lin).collect())
        .collect();
    let input: Vec<(&[WengLinRating], MultiTeamOutcome)> = ratings
        .iter()
        .zip(teams)
        .map(|(r, (_, place))| (&r[..], MultiTeamOutcome::new((*place).max(1))))
        .collect();
    let after = weng_lin_multi_team(&input, &WengLinConfig::new());
    after
        .iter()
        .zip(teams)
        .map(|(team, (before, _))| {
            team.iter()
                .zip(before)
                .map(|(r, b)| MultiRating::from_weng_lin(*r, b.rated_games + 1))
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn s13_a_team_result_rates_both_players_of_each_team() {
        let new = MultiRating::default();
        let strong = MultiRating {
            value: 1300.0,
            deviation: 150.0,
            rated_games: 30,
        };
        let after = rate_teams(&[(vec![new, strong], 1), (vec![new, new], 2)]);
        assert!(after[0].iter().all(|r| r.value > 0.0));
        assert!(after[0][0].value > START && after[0][1].value > strong.value);
        assert!(after[1].iter().all(|r| r.value < START));
        assert!((after[1][0].value - after[1][1].value).abs() < 1e-9);
        assert_eq!(after[0][1].rated_games, 31);
        // A draw between equal teams changes little.
        let draw = rate_teams(&[(vec![new, new], 1), (vec![new, new], 1)]);
        assert!(draw.iter().flatten().all(|r| (r.value - START).abs() < 1.0));
        // Beating a stronger team gains more.
        let upset = rate_teams(&[(vec![new, new], 1), (vec![strong, strong], 2)]);
        let expected = rate_teams(&[(vec![new, new], 1), (vec![new, new], 2)]);
        assert!(upset[0][0].value > expected[0][0].value);
    }

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
