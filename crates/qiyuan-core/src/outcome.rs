//! How a game ends: an open set of end reasons and the outcome (nobody, one
//! seat or a team winning).

use std::fmt;

/// Why a game ended: a stable one-word code ([`EndReason::as_str`], which the
/// CLI prints and the hall stores) with its wording in Chinese and English.
///
/// Open: a game adds its own reasons with [`EndReason::new`] and lists them
/// in [`crate::GameKind::end_reasons`], so storage finds them again by name
/// ([`EndReason::from_name_among`]) without core knowing the game. A code
/// has one wording (define each reason once, as a constant), which lets
/// reasons be matched in patterns like the enum they were.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct EndReason {
    code: &'static str,
    zh: &'static str,
    en: &'static str,
}

// The common reasons keep the names they had as enum variants, so every
// game and test names them as before (`EndReason::Timeout`).
#[allow(non_upper_case_globals)]
impl EndReason {
    /// The side to move is in check and has no legal move.
    pub const Checkmate: EndReason = EndReason::new("checkmate", "将死", "checkmate");
    /// The side to move has no legal move and is not in check (a loss in Xiangqi, X1).
    pub const Stalemate: EndReason = EndReason::new("stalemate", "困毙", "stalemate");
    /// A score reached the target (Jifen).
    pub const Points: EndReason = EndReason::new("points", "积分", "points");
    /// One side checked with every move of a repeated cycle.
    pub const PerpetualCheck: EndReason =
        EndReason::new("perpetual-check", "长将", "perpetual check");
    /// One side chased the same piece with every move of a repeated cycle.
    pub const PerpetualChase: EndReason =
        EndReason::new("perpetual-chase", "长捉", "perpetual chase");
    /// A repetition where neither side (or both) broke the rules: a draw.
    pub const Repetition: EndReason = EndReason::new("repetition", "重复局面", "repetition");
    /// The natural move limit (claimed or automatic).
    pub const MoveLimit: EndReason = EndReason::new("move-limit", "限着", "move limit");
    /// Neither side can possibly mate.
    pub const DeadPosition: EndReason =
        EndReason::new("dead-position", "双方无子可胜", "dead position");
    /// A player resigned.
    pub const Resignation: EndReason = EndReason::new("resignation", "认输", "resignation");
    /// A player's clock ran out.
    pub const Timeout: EndReason = EndReason::new("timeout", "超时", "timeout");
    /// Both players agreed to a draw.
    pub const Agreement: EndReason = EndReason::new("agreement", "协议和棋", "agreement");
    /// Called off before both sides moved (no result, never rated).
    pub const Aborted: EndReason = EndReason::new("aborted", "对局取消", "aborted");
    /// The opponent left the game during their turn and the player claimed it.
    pub const Abandoned: EndReason = EndReason::new("abandoned", "对手离开", "opponent left");
}

impl EndReason {
    /// The reasons every game may use (a game's own come from its kind).
    pub const ALL: [EndReason; 13] = [
        EndReason::Checkmate,
        EndReason::Stalemate,
        EndReason::Points,
        EndReason::PerpetualCheck,
        EndReason::PerpetualChase,
        EndReason::Repetition,
        EndReason::MoveLimit,
        EndReason::DeadPosition,
        EndReason::Resignation,
        EndReason::Timeout,
        EndReason::Agreement,
        EndReason::Aborted,
        EndReason::Abandoned,
    ];

    /// A reason with its stable one-word `code` (lower case, `-` between
    /// words; never changed once stored) and its Chinese and English wording.
    pub const fn new(code: &'static str, zh: &'static str, en: &'static str) -> EndReason {
        EndReason { code, zh, en }
    }

    /// Looks a common reason up by its one-word name (what storage keeps).
    pub fn from_name(name: &str) -> Option<EndReason> {
        EndReason::from_name_among(name, &[])
    }

    /// Looks a reason up by name among the common ones and `own`, a game's
    /// own reasons ([`crate::GameKind::end_reasons`]).
    pub fn from_name_among(name: &str, own: &[EndReason]) -> Option<EndReason> {
        EndReason::ALL
            .iter()
            .chain(own)
            .find(|r| r.code == name)
            .copied()
    }

    /// The stable one-word name, e.g. `perpetual-check`.
    pub fn as_str(self) -> &'static str {
        self.code
    }

    /// The reason in Chinese, e.g. `长将`.
    pub fn zh(self) -> &'static str {
        self.zh
    }

    /// The reason in English words, e.g. `perpetual check`.
    pub fn en(self) -> &'static str {
        self.en
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The result of a finished game: who won (nobody for a draw, one seat, or
/// a team of seats winning together) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Seat index of the winner (0 = first player, e.g. red), or `None` for
    /// a draw. When a team wins, its lowest seat (the one results name).
    pub winner: Option<usize>,
    /// The other seats that win together with `winner` (a team, as in
    /// four-army Junqi); empty when one seat wins or nobody does.
    pub partners: Vec<usize>,
    /// What ended the game.
    pub reason: EndReason,
    /// A sentence a player understands, in Chinese and English
    /// (e.g. "红方长将, 判负 / red perpetual check: red loses").
    pub explanation: String,
}

impl Outcome {
    /// `seats` win together (one seat: an ordinary win; none: a draw).
    pub fn team_won(seats: &[usize], reason: EndReason, explanation: String) -> Outcome {
        let mut team = seats.to_vec();
        team.sort_unstable();
        team.dedup();
        let winner = team.first().copied();
        Outcome {
            winner,
            partners: team.into_iter().skip(1).collect(),
            reason,
            explanation,
        }
    }

    /// Every winning seat, lowest first (empty for a draw).
    pub fn winners(&self) -> Vec<usize> {
        let mut all: Vec<usize> = self
            .winner
            .into_iter()
            .chain(self.partners.clone())
            .collect();
        all.sort_unstable();
        all.dedup();
        all
    }

    /// The ranking this outcome alone gives for `seat_count` seats, best
    /// first: the winners, then everyone else; a draw is one group.
    pub fn placings(&self, seat_count: usize) -> Vec<Vec<usize>> {
        let winners = self.winners();
        if winners.is_empty() {
            return vec![(0..seat_count).collect()];
        }
        let rest: Vec<usize> = (0..seat_count).filter(|s| !winners.contains(s)).collect();
        if rest.is_empty() {
            vec![winners]
        } else {
            vec![winners, rest]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numbered_seat_leave;

    #[test]
    fn reasons_round_trip_by_name() {
        for r in EndReason::ALL {
            assert_eq!(EndReason::from_name(r.as_str()), Some(r));
        }
        assert_eq!(EndReason::from_name("nonsense"), None);
    }

    #[test]
    fn a_game_adds_its_own_reason_and_finds_it_by_name() {
        const OWN: EndReason = EndReason::new("flag-captured", "夺旗", "flag captured");
        assert_eq!(EndReason::from_name("flag-captured"), None);
        let found = EndReason::from_name_among("flag-captured", &[OWN]);
        assert_eq!(found, Some(OWN));
        assert_eq!(
            found.map(|r| (r.zh(), r.en())),
            Some(("夺旗", "flag captured"))
        );
        assert_eq!(
            EndReason::from_name_among("timeout", &[OWN]),
            Some(EndReason::Timeout)
        );
        assert_eq!(OWN.to_string(), "flag-captured");
        // A stored reason is matched in patterns as before.
        assert!(matches!(EndReason::Timeout, EndReason::Timeout));
    }

    #[test]
    fn a_team_wins_together_and_ranks_first() {
        let o = Outcome::team_won(&[2, 0], EndReason::Points, "team".into());
        assert_eq!(o.winner, Some(0));
        assert_eq!(o.partners, vec![2]);
        assert_eq!(o.winners(), vec![0, 2]);
        assert_eq!(o.placings(4), vec![vec![0, 2], vec![1, 3]]);
        let single = numbered_seat_leave(0, 2, EndReason::Resignation);
        assert_eq!(single.winners(), vec![1]);
        assert_eq!(single.placings(2), vec![vec![1], vec![0]]);
        let draw = Outcome::team_won(&[], EndReason::Agreement, "draw".into());
        assert_eq!(draw.winner, None);
        assert_eq!(draw.placings(3), vec![vec![0, 1, 2]]);
    }
}
