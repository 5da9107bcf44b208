//! Game results and the points they score in events (H3, X6), and fouls (X8).

use serde::{Deserialize, Serialize};

/// A seat in a game. Red moves first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// 红方, moves first.
    Red,
    /// 黑方.
    Black,
}

impl Side {
    /// The other seat.
    pub fn flip(self) -> Side {
        match self {
            Side::Red => Side::Black,
            Side::Black => Side::Red,
        }
    }
}

/// A finished game's result as an event records it. Serialised in PGN style
/// so stored events and the API read naturally.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum GameResult {
    /// Red won.
    #[serde(rename = "1-0")]
    RedWins,
    /// Black won.
    #[serde(rename = "0-1")]
    BlackWins,
    /// Drawn.
    #[serde(rename = "1/2-1/2")]
    Draw,
    /// The game passed the event's total time cap unfinished: both score
    /// zero (X6, 双方超时各计零分). Neither player has won.
    #[serde(rename = "0-0")]
    TimeCapExceeded,
}

impl GameResult {
    /// The winning seat, if any.
    pub fn winner(self) -> Option<Side> {
        match self {
            GameResult::RedWins => Some(Side::Red),
            GameResult::BlackWins => Some(Side::Black),
            GameResult::Draw | GameResult::TimeCapExceeded => None,
        }
    }

    /// The same result with the seats swapped.
    pub fn swapped(self) -> GameResult {
        match self {
            GameResult::RedWins => GameResult::BlackWins,
            GameResult::BlackWins => GameResult::RedWins,
            r => r,
        }
    }

    /// The win for `side`.
    pub fn win_for(side: Side) -> GameResult {
        match side {
            Side::Red => GameResult::RedWins,
            Side::Black => GameResult::BlackWins,
        }
    }
}

/// How many points a win, draw or loss scores in an event (H3).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ScoringSystem {
    /// Win 2, draw 1, loss 0: the Chinese Xiangqi custom, the default.
    #[default]
    TwoOneZero,
    /// Win 1, draw ½, loss 0: the Tiaoqi custom in seed 003.
    OneHalfZero,
}

impl ScoringSystem {
    /// Points for a win.
    pub fn win(self) -> f64 {
        match self {
            ScoringSystem::TwoOneZero => 2.0,
            ScoringSystem::OneHalfZero => 1.0,
        }
    }

    /// Points for a draw: half a win in both systems.
    pub fn draw(self) -> f64 {
        self.win() / 2.0
    }

    /// Points `side` scores from `result`. A time-capped game scores 0 for both (X6).
    pub fn points(self, result: GameResult, side: Side) -> f64 {
        match result {
            GameResult::Draw => self.draw(),
            GameResult::TimeCapExceeded => 0.0,
            r if r.winner() == Some(side) => self.win(),
            _ => 0.0,
        }
    }
}

/// Technical fouls (X8) charged in one game, per seat. The hall counts them;
/// events add them up per player and use them as a tie-break (H6).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fouls {
    /// Fouls by red.
    pub red: u32,
    /// Fouls by black.
    pub black: u32,
}

impl Fouls {
    /// No fouls.
    pub const NONE: Fouls = Fouls { red: 0, black: 0 };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn h3_default_scores_2_1_0() {
        let s = ScoringSystem::default();
        assert_eq!(s.points(GameResult::RedWins, Side::Red), 2.0);
        assert_eq!(s.points(GameResult::RedWins, Side::Black), 0.0);
        assert_eq!(s.points(GameResult::Draw, Side::Black), 1.0);
        assert_eq!(s.points(GameResult::BlackWins, Side::Black), 2.0);
    }

    #[test]
    fn h3_optional_scores_1_half_0() {
        let s = ScoringSystem::OneHalfZero;
        assert_eq!(s.points(GameResult::BlackWins, Side::Black), 1.0);
        assert_eq!(s.points(GameResult::Draw, Side::Red), 0.5);
        assert_eq!(s.points(GameResult::BlackWins, Side::Red), 0.0);
    }

    #[test]
    fn x6_time_cap_scores_zero_for_both() {
        for s in [ScoringSystem::TwoOneZero, ScoringSystem::OneHalfZero] {
            assert_eq!(s.points(GameResult::TimeCapExceeded, Side::Red), 0.0);
            assert_eq!(s.points(GameResult::TimeCapExceeded, Side::Black), 0.0);
        }
        assert_eq!(GameResult::TimeCapExceeded.winner(), None);
    }

    #[test]
    fn results_serialise_pgn_style() {
        let json = serde_json::to_string(&[
            GameResult::RedWins,
            GameResult::BlackWins,
            GameResult::Draw,
            GameResult::TimeCapExceeded,
        ])
        .unwrap();
        assert_eq!(json, r#"["1-0","0-1","1/2-1/2","0-0"]"#);
    }
}
