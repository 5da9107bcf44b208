//! Elo ratings, H1: start 1000; K = 40 for the first 30 rated games, then 20,
//! and 10 once a player has reached 2400 (for good, even after dropping below).
//!
//! Ratings are kept unrounded (`f64`) so that many small changes are not lost
//! to rounding; the UI shows [`Rating::shown`]. A player has one [`Rating`] per
//! game family; which family is the hall's business.

use crate::title::RankTitle;
use serde::{Deserialize, Serialize};

/// The rating a new player starts with.
pub const START_RATING: f64 = 1000.0;
/// Rated games played with the new-player K factor.
pub const NEW_PLAYER_GAMES: u32 = 30;
/// K for the first [`NEW_PLAYER_GAMES`] rated games.
pub const K_NEW: f64 = 40.0;
/// K after the first [`NEW_PLAYER_GAMES`] games.
pub const K_STANDARD: f64 = 20.0;
/// K once a player has reached [`TOP_RATING`].
pub const K_TOP: f64 = 10.0;
/// The rating from which K drops to [`K_TOP`] for good.
pub const TOP_RATING: f64 = 2400.0;

/// A game's result from one player's side, for rating.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EloScore {
    /// Counts 1.
    Win,
    /// Counts ½ (H1).
    Draw,
    /// Counts 0.
    Loss,
}

impl EloScore {
    /// 1, ½ or 0.
    pub fn value(self) -> f64 {
        match self {
            EloScore::Win => 1.0,
            EloScore::Draw => 0.5,
            EloScore::Loss => 0.0,
        }
    }

    /// The same game seen from the other side.
    pub fn reversed(self) -> EloScore {
        match self {
            EloScore::Win => EloScore::Loss,
            EloScore::Draw => EloScore::Draw,
            EloScore::Loss => EloScore::Win,
        }
    }
}

/// One player's rating in one game family.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The unrounded rating.
    pub value: f64,
    /// Rated games played so far.
    pub rated_games: u32,
    /// Whether the rating has ever been at or above [`TOP_RATING`]; once set it
    /// stays set, so K stays 10 (H1 "once they have reached 2400").
    pub reached_top: bool,
}

impl Default for Rating {
    fn default() -> Self {
        Rating::new()
    }
}

/// The expected score (0..1) of a player rated `own` against one rated `opponent`.
pub fn expected_score(own: f64, opponent: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf((opponent - own) / 400.0))
}

impl Rating {
    /// A new player's rating: 1000, no games.
    pub fn new() -> Rating {
        Rating {
            value: START_RATING,
            rated_games: 0,
            reached_top: false,
        }
    }

    /// The K factor for this player's next rated game. Reaching 2400 takes
    /// precedence over the new-player K: a player at 2400 is no longer new.
    pub fn k(&self) -> f64 {
        if self.reached_top {
            K_TOP
        } else if self.rated_games < NEW_PLAYER_GAMES {
            K_NEW
        } else {
            K_STANDARD
        }
    }

    /// The rating as shown to players (rounded to a whole number).
    pub fn shown(&self) -> i32 {
        self.value.round() as i32
    }

    /// The rank title for this rating (H2).
    pub fn title(&self) -> RankTitle {
        RankTitle::for_rating(self.value)
    }

    /// The rating after one rated game against an opponent rated `opponent`
    /// (their rating before the game). K is this player's K before the game;
    /// the game that takes a player to 2400 is still rated with the old K.
    pub fn after_game(&self, opponent: f64, score: EloScore) -> Rating {
        let value = self.value + self.k() * (score.value() - expected_score(self.value, opponent));
        Rating {
            value,
            rated_games: self.rated_games + 1,
            reached_top: self.reached_top || value >= TOP_RATING,
        }
    }
}

/// Rates a game between two players: both new ratings from both old ones.
/// `score_a` is the result from `a`'s side.
pub fn rate_game(a: &Rating, b: &Rating, score_a: EloScore) -> (Rating, Rating) {
    (
        a.after_game(b.value, score_a),
        b.after_game(a.value, score_a.reversed()),
    )
}

/// Rates a game against the built-in AI (H1): only the player's rating moves,
/// against the level's fixed rating. Whether the room is rated is the hall's call.
pub fn rate_vs_ai(player: &Rating, level_rating: f64, score: EloScore) -> Rating {
    player.after_game(level_rating, score)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 0.005, "{a} != {b}");
    }

    #[test]
    fn h1_new_players_start_at_1000_with_k40() {
        let r = Rating::new();
        assert_eq!(r.value, 1000.0);
        assert_eq!(r.k(), 40.0);
        // Equal ratings expect ½: a win gains K/2 = 20, the loser drops 20.
        let (a, b) = rate_game(&r, &r, EloScore::Win);
        close(a.value, 1020.0);
        close(b.value, 980.0);
        assert_eq!((a.rated_games, b.rated_games), (1, 1));
    }

    #[test]
    fn h1_k_is_20_after_30_games() {
        let mut r = Rating::new();
        for i in 0..30 {
            assert_eq!(r.k(), 40.0, "game {i}");
            // Alternate win and loss against an equal opponent to stay near 1000.
            let s = if i % 2 == 0 {
                EloScore::Win
            } else {
                EloScore::Loss
            };
            r = r.after_game(r.value, s);
        }
        assert_eq!(r.rated_games, 30);
        assert_eq!(r.k(), 20.0);
        // Worked example: 1200 (K 20) beats 1400.
        // E = 1 / (1 + 10^(200/400)) = 0.240253; 1200 + 20 * 0.759747 = 1215.195.
        let p = Rating {
            value: 1200.0,
            rated_games: 31,
            reached_top: false,
        };
        close(expected_score(1200.0, 1400.0), 0.240253);
        close(p.after_game(1400.0, EloScore::Win).value, 1215.195);
        // And loses: 1200 - 20 * 0.240253 = 1195.195.
        close(p.after_game(1400.0, EloScore::Loss).value, 1195.195);
    }

    #[test]
    fn h1_k_is_10_once_2400_is_reached_and_stays() {
        let p = Rating {
            value: 2395.0,
            rated_games: 200,
            reached_top: false,
        };
        assert_eq!(p.k(), 20.0);
        // 2395 beats 2395: +10 with the old K 20 -> 2405, now K 10.
        let up = p.after_game(2395.0, EloScore::Win);
        close(up.value, 2405.0);
        assert!(up.reached_top);
        assert_eq!(up.k(), 10.0);
        // Loses to an equal opponent: -5 (K 10) -> 2400; again -> 2395 and K stays 10.
        let down = up.after_game(2405.0, EloScore::Loss);
        close(down.value, 2400.0);
        let down = down.after_game(2400.0, EloScore::Loss);
        close(down.value, 2395.0);
        assert_eq!(down.k(), 10.0);
        // A new player who reaches 2400 (in a test fixture) also drops to 10.
        let fast = Rating {
            value: 2410.0,
            rated_games: 5,
            reached_top: true,
        };
        assert_eq!(fast.k(), 10.0);
    }

    #[test]
    fn h1_draws_count_half() {
        // 1000 (K 40) draws 1200: E = 1/(1+10^0.5) = 0.240253; 1000 + 40 * 0.259747 = 1010.390.
        let (a, b) = rate_game(
            &Rating::new(),
            &Rating {
                value: 1200.0,
                rated_games: 40,
                reached_top: false,
            },
            EloScore::Draw,
        );
        close(a.value, 1010.390);
        // The 1200 player has K 20: 1200 + 20 * (0.5 - 0.759747) = 1194.805.
        close(b.value, 1194.805);
    }

    #[test]
    fn h1_games_against_the_ai_move_only_the_player() {
        // A new player draws AI level rated 1500: E = 1/(1+10^1.25) = 0.053239;
        // 1000 + 40 * (0.5 - 0.053239) = 1017.870. The level keeps 1500 (it is a constant).
        let r = rate_vs_ai(&Rating::new(), 1500.0, EloScore::Draw);
        close(r.value, 1017.870);
        assert_eq!(r.rated_games, 1);
    }

    #[test]
    fn h2_title_follows_rating() {
        assert_eq!(Rating::new().title().chinese(), "草民");
        let r = Rating {
            value: 1899.6,
            rated_games: 50,
            reached_top: false,
        };
        assert_eq!(r.shown(), 1900);
        assert_eq!(r.title().chinese(), "将军");
    }
}
