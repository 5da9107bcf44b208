//! Pieces (Q3), their letters (Q13) and combat (Q8).

use crate::board::Side;

/// A piece's rank, strongest officer first; the three specials after.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rank {
    /// 司令 S.
    Commander,
    /// 军长 J.
    General,
    /// 师长 D.
    Division,
    /// 旅长 L.
    Brigade,
    /// 团长 T.
    Regiment,
    /// 营长 Y.
    Battalion,
    /// 连长 C.
    Company,
    /// 排长 P.
    Platoon,
    /// 工兵 G: sweeps mines, turns on railways.
    Engineer,
    /// 地雷 M: never moves.
    Mine,
    /// 炸弹 Z: removes whatever it meets, and itself.
    Bomb,
    /// 军旗 F: never moves; taking it wins.
    Flag,
}

impl Rank {
    /// Every rank, in [`Rank`] order.
    pub const ALL: [Rank; 12] = [
        Rank::Commander,
        Rank::General,
        Rank::Division,
        Rank::Brigade,
        Rank::Regiment,
        Rank::Battalion,
        Rank::Company,
        Rank::Platoon,
        Rank::Engineer,
        Rank::Mine,
        Rank::Bomb,
        Rank::Flag,
    ];

    /// Pieces of this rank per side (Q3); 25 in all.
    pub const fn count(self) -> u8 {
        match self {
            Rank::Commander | Rank::General | Rank::Flag => 1,
            Rank::Division | Rank::Brigade | Rank::Regiment | Rank::Battalion | Rank::Bomb => 2,
            Rank::Company | Rank::Platoon | Rank::Engineer | Rank::Mine => 3,
        }
    }

    /// The upper-case letter of Q13.
    pub const fn letter(self) -> char {
        match self {
            Rank::Commander => 'S',
            Rank::General => 'J',
            Rank::Division => 'D',
            Rank::Brigade => 'L',
            Rank::Regiment => 'T',
            Rank::Battalion => 'Y',
            Rank::Company => 'C',
            Rank::Platoon => 'P',
            Rank::Engineer => 'G',
            Rank::Mine => 'M',
            Rank::Bomb => 'Z',
            Rank::Flag => 'F',
        }
    }

    /// The rank of a letter in either case.
    pub fn from_letter(c: char) -> Option<Rank> {
        let up = c.to_ascii_uppercase();
        Rank::ALL.into_iter().find(|r| r.letter() == up)
    }

    /// The Chinese name.
    pub const fn chinese(self) -> &'static str {
        match self {
            Rank::Commander => "司令",
            Rank::General => "军长",
            Rank::Division => "师长",
            Rank::Brigade => "旅长",
            Rank::Regiment => "团长",
            Rank::Battalion => "营长",
            Rank::Company => "连长",
            Rank::Platoon => "排长",
            Rank::Engineer => "工兵",
            Rank::Mine => "地雷",
            Rank::Bomb => "炸弹",
            Rank::Flag => "军旗",
        }
    }

    /// Whether the piece ever moves (Q5: the flag and mines never do).
    pub const fn can_move(self) -> bool {
        !matches!(self, Rank::Flag | Rank::Mine)
    }

    /// An officer or engineer: compared by rank in a clash.
    const fn is_soldier(self) -> bool {
        (self as u8) <= (Rank::Engineer as u8)
    }
}

/// A piece: side and rank.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Owner.
    pub side: Side,
    /// Rank.
    pub rank: Rank,
}

impl Piece {
    /// The letter of Q13: upper case red, lower case blue.
    pub fn letter(self) -> char {
        match self.side {
            Side::Red => self.rank.letter(),
            Side::Blue => self.rank.letter().to_ascii_lowercase(),
        }
    }

    /// The piece of a letter (upper case red, lower case blue).
    pub fn from_letter(c: char) -> Option<Piece> {
        let rank = Rank::from_letter(c)?;
        let side = if c.is_ascii_uppercase() {
            Side::Red
        } else {
            Side::Blue
        };
        Some(Piece { side, rank })
    }
}

/// How a clash ends (Q8).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Clash {
    /// The attacker removes the defender and takes its post.
    AttackerWins,
    /// The attacker is removed; the defender stays.
    DefenderWins,
    /// Both are removed.
    BothRemoved,
    /// The attacker takes the flag: the game is won (Q11).
    FlagTaken,
}

impl Clash {
    /// The word `qiyuan apply` prints.
    pub const fn word(self) -> &'static str {
        match self {
            Clash::AttackerWins => "attacker-wins",
            Clash::DefenderWins => "defender-wins",
            Clash::BothRemoved => "both-removed",
            Clash::FlagTaken => "flag-taken",
        }
    }
}

/// The outcome of `attacker` moving onto `defender` (Q8). With
/// `mine_trades`, a mine and any attacker but an engineer are both removed
/// (the room setting); by default the attacker dies and the mine stays.
pub fn clash(attacker: Rank, defender: Rank, mine_trades: bool) -> Clash {
    match (attacker, defender) {
        (_, Rank::Flag) => Clash::FlagTaken,
        (Rank::Bomb, _) | (_, Rank::Bomb) => Clash::BothRemoved,
        (Rank::Engineer, Rank::Mine) => Clash::AttackerWins,
        (_, Rank::Mine) if mine_trades => Clash::BothRemoved,
        (_, Rank::Mine) => Clash::DefenderWins,
        (a, d) if a.is_soldier() && d.is_soldier() => match a.cmp(&d) {
            std::cmp::Ordering::Less => Clash::AttackerWins,
            std::cmp::Ordering::Equal => Clash::BothRemoved,
            std::cmp::Ordering::Greater => Clash::DefenderWins,
        },
        // A mine or the flag never attacks (they never move).
        _ => Clash::DefenderWins,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn q3_twenty_five_pieces_a_side() {
        assert_eq!(
            Rank::ALL.iter().map(|r| u32::from(r.count())).sum::<u32>(),
            25
        );
        for r in Rank::ALL {
            assert_eq!(Rank::from_letter(r.letter()), Some(r));
            assert_eq!(Rank::from_letter(r.letter().to_ascii_lowercase()), Some(r));
        }
    }

    #[test]
    fn q8_combat() {
        use Clash::*;
        use Rank::*;
        assert_eq!(clash(Commander, General, false), AttackerWins);
        assert_eq!(clash(Platoon, Company, false), DefenderWins);
        assert_eq!(clash(Division, Division, false), BothRemoved);
        assert_eq!(clash(Engineer, Platoon, false), DefenderWins);
        assert_eq!(clash(Bomb, Commander, false), BothRemoved);
        assert_eq!(clash(Commander, Bomb, false), BothRemoved);
        assert_eq!(clash(Bomb, Mine, false), BothRemoved);
        assert_eq!(clash(Engineer, Mine, false), AttackerWins);
        assert_eq!(clash(Commander, Mine, false), DefenderWins);
        assert_eq!(clash(Commander, Mine, true), BothRemoved);
        assert_eq!(clash(Engineer, Flag, false), FlagTaken);
        assert_eq!(clash(Bomb, Flag, false), FlagTaken);
    }
}
