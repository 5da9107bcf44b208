//! FIDE tie-breaks (handbook C.07, the Tie-Break Regulations in force from
//! 2024) over a round-by-round table, beside the Chinese ones of H6.
//!
//! **Unplayed rounds** (byes of every kind, forfeits won or lost, absences)
//! follow C.07's 2024 rule of the *dummy opponent*: for the Buchholz family
//! and Sonneborn-Berger, each unplayed round of a participant counts as a
//! game against an opponent whose score is the participant's own final
//! score; the participant's real opponents count with their real scores
//! (byes and forfeits included, not adjusted). This replaces the older
//! "virtual opponent" formula (Svon = SPR + (1 − SfPR) + ½(n − R)), which
//! qiyuan does not implement. With a cut (Cut-1, Cut-2, Median-1) the
//! contributions of *voluntarily* unplayed rounds (half- and full-point
//! byes, zero-point byes, forfeit losses, absences) are cut first, then the
//! lowest; Median also cuts the highest.
//!
//! The others: Sonneborn-Berger adds, per round, the points scored (as a
//! fraction of a win) times the opponent's score (the dummy's for an
//! unplayed round). Number of wins (WIN) counts rounds that scored a win's
//! points, unplayed ones included; games won (WON) only those won over the
//! board; games with black (BPG) those played over the board as black (the
//! second mover, 黑方). ARO is the average rating of the opponents met over
//! the board, rounded to the nearest whole number (unrated opponents left
//! out). Progressive score (PS) sums the running score after each round.

use serde::{Deserialize, Serialize};

/// Why a player had no game in a round (for the unplayed-round rules).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Unplayed {
    /// A pairing-allocated bye (TRF `U`).
    PairingBye,
    /// A requested half-point bye (`H`).
    HalfBye,
    /// A requested full-point bye (`F`).
    FullBye,
    /// A zero-point bye (`Z`).
    ZeroBye,
    /// A game won by forfeit (`+`).
    ForfeitWin,
    /// A game lost by forfeit (`-`).
    ForfeitLoss,
    /// Not paired (blank in a TRF; a round with no record at all).
    Absent,
}

impl Unplayed {
    /// Whether the player chose not to play (C.07's voluntarily unplayed
    /// rounds), which cuts remove first.
    pub fn voluntary(self) -> bool {
        !matches!(self, Unplayed::PairingBye | Unplayed::ForfeitWin)
    }
}

/// One round of one player.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Entry {
    /// The round, from 1 (0: unknown).
    pub round: u32,
    /// The opponent (index) for a game played over the board.
    pub opponent: Option<usize>,
    /// The points scored.
    pub points: f64,
    /// Played as black (the second mover).
    pub black: bool,
    /// Why there was no game, for an unplayed round.
    pub unplayed: Option<Unplayed>,
}

/// Every player's rounds, their final scores and ratings.
pub(crate) struct Table<'a> {
    pub entries: Vec<Vec<Entry>>,
    pub score: &'a [f64],
    pub ratings: Vec<Option<u32>>,
    pub win: f64,
}

/// Adds an absence for every round 1..=max a player has no entry in, when
/// every entry has a known round.
pub(crate) fn fill_absences(entries: &mut [Vec<Entry>]) {
    let all = entries.iter().flatten();
    if all.clone().any(|e| e.round == 0) {
        return;
    }
    let max = entries.iter().flatten().map(|e| e.round).max().unwrap_or(0);
    for list in entries.iter_mut() {
        for r in 1..=max {
            if !list.iter().any(|e| e.round == r) {
                list.push(Entry {
                    round: r,
                    opponent: None,
                    points: 0.0,
                    black: false,
                    unplayed: Some(Unplayed::Absent),
                });
            }
        }
        list.sort_by_key(|e| e.round);
    }
}

/// Which values a Buchholz keeps.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Cut {
    None,
    /// Cut the k least significant values.
    Low(usize),
    /// Cut the k least and the k most significant values.
    Median(usize),
}

impl Table<'_> {
    /// (value, voluntarily unplayed) per round for the Buchholz family.
    fn contributions(&self, i: usize) -> Vec<(f64, bool)> {
        self.entries[i]
            .iter()
            .map(|e| match (e.opponent, e.unplayed) {
                (Some(o), None) => (self.score[o], false),
                (_, u) => (self.score[i], u.is_some_and(Unplayed::voluntary)),
            })
            .collect()
    }

    /// Buchholz with a cut.
    pub fn buchholz(&self, i: usize, cut: Cut) -> f64 {
        let mut c = self.contributions(i);
        // Least significant first: voluntarily unplayed rounds, then lowest.
        c.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.total_cmp(&b.0)));
        let (low, high) = match cut {
            Cut::None => (0, 0),
            Cut::Low(k) => (k, 0),
            Cut::Median(k) => (k, k),
        };
        if low + high >= c.len() {
            return 0.0;
        }
        let mut kept: Vec<f64> = c[low..].iter().map(|x| x.0).collect();
        kept.sort_by(|a, b| a.total_cmp(b));
        kept.truncate(kept.len() - high);
        kept.iter().sum()
    }

    /// Sonneborn-Berger.
    pub fn sonneborn_berger(&self, i: usize) -> f64 {
        if self.win <= 0.0 {
            return 0.0;
        }
        self.entries[i]
            .iter()
            .map(|e| {
                let opp = match (e.opponent, e.unplayed) {
                    (Some(o), None) => self.score[o],
                    _ => self.score[i],
                };
                e.points / self.win * opp
            })
            .sum()
    }

    /// Rounds that scored a win's points (WIN).
    pub fn wins(&self, i: usize) -> u32 {
        self.entries[i]
            .iter()
            .filter(|e| self.win > 0.0 && e.points == self.win)
            .count() as u32
    }

    /// Games won over the board (WON).
    pub fn games_won(&self, i: usize) -> u32 {
        self.entries[i]
            .iter()
            .filter(|e| e.unplayed.is_none() && self.win > 0.0 && e.points == self.win)
            .count() as u32
    }

    /// Games played over the board with black (BPG).
    pub fn black_games(&self, i: usize) -> u32 {
        self.entries[i]
            .iter()
            .filter(|e| e.unplayed.is_none() && e.black)
            .count() as u32
    }

    /// Average rating of the opponents met over the board (ARO).
    pub fn aro(&self, i: usize) -> f64 {
        let rated: Vec<u32> = self.entries[i]
            .iter()
            .filter(|e| e.unplayed.is_none())
            .filter_map(|e| self.ratings.get(e.opponent?).copied().flatten())
            .collect();
        if rated.is_empty() {
            return 0.0;
        }
        let sum: u64 = rated.iter().map(|&r| u64::from(r)).sum();
        let n = rated.len() as u64;
        ((sum * 2 + n) / (2 * n)) as f64
    }

    /// Progressive score (PS): the running score after each round, summed.
    pub fn progressive(&self, i: usize) -> f64 {
        let mut running = 0.0;
        let mut total = 0.0;
        for e in &self.entries[i] {
            running += e.points;
            total += running;
        }
        total
    }
}
