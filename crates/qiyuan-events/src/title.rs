//! Rank titles (级别) by rating, H2.

use serde::{Deserialize, Serialize};

/// A rank title from the seed's table (H2). Ordered from lowest to highest.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RankTitle {
    /// 草民, below 1100.
    Commoner,
    /// 县丞, from 1100.
    CountyAssistant,
    /// 县令, from 1200.
    CountyMagistrate,
    /// 都尉, from 1300.
    Commandant,
    /// 校尉, from 1400.
    Colonel,
    /// 常侍, from 1500.
    Attendant,
    /// 中郎将, from 1600.
    GuardGeneral,
    /// 太守, from 1700.
    Governor,
    /// 刺史, from 1800.
    Inspector,
    /// 将军, from 1900.
    General,
    /// 太尉, from 2200.
    GrandCommandant,
    /// 大将军, from 2400.
    GrandGeneral,
    /// 王, from 2600.
    King,
}

/// Every title with the lowest rating that earns it, lowest first. The seed's
/// table jumps from 将军 at 1900 to 太尉 at 2200; we keep its numbers as they are.
const TABLE: [(RankTitle, f64); 13] = [
    (RankTitle::Commoner, f64::NEG_INFINITY),
    (RankTitle::CountyAssistant, 1100.0),
    (RankTitle::CountyMagistrate, 1200.0),
    (RankTitle::Commandant, 1300.0),
    (RankTitle::Colonel, 1400.0),
    (RankTitle::Attendant, 1500.0),
    (RankTitle::GuardGeneral, 1600.0),
    (RankTitle::Governor, 1700.0),
    (RankTitle::Inspector, 1800.0),
    (RankTitle::General, 1900.0),
    (RankTitle::GrandCommandant, 2200.0),
    (RankTitle::GrandGeneral, 2400.0),
    (RankTitle::King, 2600.0),
];

impl RankTitle {
    /// The title for a rating. The rating is compared as shown to players
    /// (rounded), so a displayed 1100 is always 县丞.
    pub fn for_rating(rating: f64) -> RankTitle {
        let shown = rating.round();
        TABLE
            .iter()
            .rev()
            .find(|(_, min)| shown >= *min)
            .map_or(RankTitle::Commoner, |(t, _)| *t)
    }

    /// The lowest rating that earns this title (`None` for 草民, which has no floor).
    pub fn min_rating(self) -> Option<f64> {
        let min = TABLE[self as usize].1;
        min.is_finite().then_some(min)
    }

    /// The Chinese title, as shown in the Chinese UI.
    pub fn chinese(self) -> &'static str {
        match self {
            RankTitle::Commoner => "草民",
            RankTitle::CountyAssistant => "县丞",
            RankTitle::CountyMagistrate => "县令",
            RankTitle::Commandant => "都尉",
            RankTitle::Colonel => "校尉",
            RankTitle::Attendant => "常侍",
            RankTitle::GuardGeneral => "中郎将",
            RankTitle::Governor => "太守",
            RankTitle::Inspector => "刺史",
            RankTitle::General => "将军",
            RankTitle::GrandCommandant => "太尉",
            RankTitle::GrandGeneral => "大将军",
            RankTitle::King => "王",
        }
    }

    /// The English gloss shown in the English UI.
    pub fn english(self) -> &'static str {
        match self {
            RankTitle::Commoner => "Commoner",
            RankTitle::CountyAssistant => "County Assistant",
            RankTitle::CountyMagistrate => "County Magistrate",
            RankTitle::Commandant => "Commandant",
            RankTitle::Colonel => "Colonel",
            RankTitle::Attendant => "Palace Attendant",
            RankTitle::GuardGeneral => "General of the Guard",
            RankTitle::Governor => "Governor",
            RankTitle::Inspector => "Inspector",
            RankTitle::General => "General",
            RankTitle::GrandCommandant => "Grand Commandant",
            RankTitle::GrandGeneral => "Grand General",
            RankTitle::King => "King",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn h2_titles_at_every_threshold() {
        let cases = [
            (0.0, "草民"),
            (1099.0, "草民"),
            (1100.0, "县丞"),
            (1199.0, "县丞"),
            (1200.0, "县令"),
            (1300.0, "都尉"),
            (1400.0, "校尉"),
            (1500.0, "常侍"),
            (1600.0, "中郎将"),
            (1700.0, "太守"),
            (1800.0, "刺史"),
            (1900.0, "将军"),
            (2199.0, "将军"),
            (2200.0, "太尉"),
            (2399.0, "太尉"),
            (2400.0, "大将军"),
            (2599.0, "大将军"),
            (2600.0, "王"),
            (3200.0, "王"),
        ];
        for (rating, title) in cases {
            assert_eq!(RankTitle::for_rating(rating).chinese(), title, "{rating}");
        }
        // Shown ratings are rounded: 1099.6 displays as 1100.
        assert_eq!(RankTitle::for_rating(1099.6), RankTitle::CountyAssistant);
        assert_eq!(RankTitle::for_rating(1099.4), RankTitle::Commoner);
    }

    #[test]
    fn h2_every_title_has_a_gloss_and_its_floor() {
        for (t, min) in TABLE {
            assert!(!t.english().is_empty());
            if min.is_finite() {
                assert_eq!(RankTitle::for_rating(min), t);
                assert_eq!(t.min_rating(), Some(min));
            }
        }
        assert_eq!(RankTitle::Commoner.min_rating(), None);
        assert_eq!(RankTitle::King.english(), "King");
    }
}
