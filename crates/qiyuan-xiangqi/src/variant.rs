//! The rule sets of the Xiangqi family as data: which piece classes exist,
//! how moves score, whether turns may be double (J1, J10-J14).
//!
//! Keeping these as tables (not branches scattered through move generation)
//! means a rule set is read in one place and tested in one place.

use std::fmt;

use crate::types::Class;

/// A rule set of the Xiangqi family.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum Variant {
    /// 中国象棋: standard Xiangqi.
    #[default]
    Xiangqi,
    /// 积分象棋 simple rules: Normal and Idle pieces, target 30.
    JifenSimple,
    /// 积分象棋 match rules: Normal, Small and Idle pieces, target 100.
    JifenMatch,
    /// 积分象棋 contest rules: all four classes and the double-move opening, target 100.
    JifenContest,
}

/// Score change of one move: points for the mover and for the opponent.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct ScoreDelta {
    /// Added to the mover's score (may be negative).
    pub mover: i32,
    /// Added to the opponent's score.
    pub opponent: i32,
}

const fn delta(mover: i32, opponent: i32) -> ScoreDelta {
    ScoreDelta { mover, opponent }
}

/// The J10 scoring table of one rule set.
#[derive(Copy, Clone, Debug)]
pub struct ScoringTable {
    /// What a checking move scores instead of its class term ("将军除外"); `None`
    /// where checks score like any other move (contest).
    pub check: Option<ScoreDelta>,
    /// Score by the class the moved piece had while moving, indexed by `Class as usize`.
    pub by_class: [ScoreDelta; 4],
}

const NO_SCORING: ScoringTable = ScoringTable {
    check: None,
    by_class: [delta(0, 0); 4],
};
const SIMPLE_SCORING: ScoringTable = ScoringTable {
    check: Some(delta(-1, 0)),
    //          Normal       Small (unused) Royal (unused) Idle
    by_class: [delta(0, 0), delta(0, 0), delta(0, 0), delta(1, 0)],
};
const MATCH_SCORING: ScoringTable = ScoringTable {
    check: Some(delta(0, 2)),
    by_class: [delta(0, 1), delta(0, 0), delta(0, 0), delta(1, 0)],
};
const CONTEST_SCORING: ScoringTable = ScoringTable {
    check: None,
    by_class: [delta(0, 1), delta(0, 0), delta(1, 0), delta(1, 0)],
};

impl Variant {
    /// Every rule set, in the order the CLI lists them.
    pub const ALL: [Variant; 4] = [
        Variant::Xiangqi,
        Variant::JifenSimple,
        Variant::JifenMatch,
        Variant::JifenContest,
    ];

    /// The stable name used by the CLI, the API and UCI (`jifen-contest`).
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Xiangqi => "xiangqi",
            Variant::JifenSimple => "jifen-simple",
            Variant::JifenMatch => "jifen-match",
            Variant::JifenContest => "jifen-contest",
        }
    }

    /// Looks a rule set up by its stable name.
    pub fn from_name(name: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.name() == name)
    }

    /// Whether this is one of the Jifen (points) rule sets.
    #[inline(always)]
    pub const fn is_jifen(self) -> bool {
        !matches!(self, Variant::Xiangqi)
    }

    /// The piece classes of the rule set (J1).
    pub const fn classes(self) -> &'static [Class] {
        match self {
            Variant::Xiangqi => &[Class::Normal],
            Variant::JifenSimple => &[Class::Normal, Class::Idle],
            Variant::JifenMatch => &[Class::Normal, Class::Small, Class::Idle],
            Variant::JifenContest => &[Class::Normal, Class::Small, Class::Royal, Class::Idle],
        }
    }

    /// Whether `class` exists in this rule set.
    pub fn has_class(self, class: Class) -> bool {
        self.classes().contains(&class)
    }

    /// The default target score (J11); 0 for plain Xiangqi, which has none.
    pub const fn default_target(self) -> i32 {
        match self {
            Variant::Xiangqi => 0,
            Variant::JifenSimple => 30,
            Variant::JifenMatch | Variant::JifenContest => 100,
        }
    }

    /// The scoring table (J10).
    pub const fn scoring(self) -> &'static ScoringTable {
        match self {
            Variant::Xiangqi => &NO_SCORING,
            Variant::JifenSimple => &SIMPLE_SCORING,
            Variant::JifenMatch => &MATCH_SCORING,
            Variant::JifenContest => &CONTEST_SCORING,
        }
    }

    /// What one move scores, given the class the piece had while moving and
    /// whether the move (with its class change) gives check (J10).
    pub fn score(self, class_while_moving: Class, gives_check: bool) -> ScoreDelta {
        let table = self.scoring();
        match table.check {
            Some(d) if gives_check => d,
            _ => table.by_class[class_while_moving as usize],
        }
    }

    /// Whether the opening phase has double-move turns (J12-J14).
    pub const fn has_double_moves(self) -> bool {
        matches!(self, Variant::JifenContest)
    }

    /// Whether class changes wait for the first capture of the game (J8).
    pub const fn class_change_needs_capture(self) -> bool {
        matches!(self, Variant::JifenContest)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for v in Variant::ALL {
            assert_eq!(Variant::from_name(v.name()), Some(v));
        }
        assert_eq!(Variant::from_name("chess"), None);
    }

    #[test]
    fn j1_class_lists() {
        assert_eq!(
            Variant::JifenSimple.classes(),
            &[Class::Normal, Class::Idle]
        );
        assert!(!Variant::JifenMatch.has_class(Class::Royal));
        assert!(Variant::JifenContest.has_class(Class::Royal));
        assert_eq!(Variant::Xiangqi.classes(), &[Class::Normal]);
    }

    #[test]
    fn j10_scoring_table() {
        use Class::*;
        let s = Variant::JifenSimple;
        assert_eq!(s.score(Normal, false), delta(0, 0));
        assert_eq!(s.score(Idle, false), delta(1, 0));
        // An Idle piece whose move gives check scores only the check term: -1, not -1+1.
        assert_eq!(s.score(Idle, true), delta(-1, 0));
        let m = Variant::JifenMatch;
        assert_eq!(m.score(Normal, false), delta(0, 1));
        assert_eq!(m.score(Small, false), delta(0, 0));
        assert_eq!(m.score(Idle, false), delta(1, 0));
        assert_eq!(m.score(Idle, true), delta(0, 2));
        let c = Variant::JifenContest;
        assert_eq!(c.score(Normal, true), delta(0, 1)); // no check term in contest
        assert_eq!(c.score(Royal, false), delta(1, 0));
        assert_eq!(c.score(Idle, false), delta(1, 0));
        assert_eq!(c.score(Small, true), delta(0, 0));
    }
}
