//! Team events (H7): match points (场分), total game points (总局分), game
//! wins (全队胜局), direct encounter (直胜), fewer team fouls (全队犯规),
//! otherwise a shared place.

use crate::scoring::{GameResult, ScoringSystem, Side};
use crate::standings::{Criterion, PlaceTie, csv_field, num, place_ties, rank};
use crate::{Player, PlayerId};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// A team tie-break (H7), stored by name like [`crate::TieBreak`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TeamTieBreak {
    /// 总局分: the team's total game points.
    GamePoints,
    /// 全队胜局: games the team won.
    GameWins,
    /// 直胜: match points in the matches among the tied teams.
    DirectEncounter,
    /// 全队犯规: fewer team fouls ranks higher.
    Fouls,
}

impl TeamTieBreak {
    /// The Chinese name.
    pub fn chinese(self) -> &'static str {
        match self {
            TeamTieBreak::GamePoints => "总局分",
            TeamTieBreak::GameWins => "全队胜局",
            TeamTieBreak::DirectEncounter => "直胜",
            TeamTieBreak::Fouls => "全队犯规",
        }
    }

    /// The FIDE (English) name.
    pub fn fide(self) -> &'static str {
        match self {
            TeamTieBreak::GamePoints => "Game points",
            TeamTieBreak::GameWins => "Game wins",
            TeamTieBreak::DirectEncounter => "Direct encounter",
            TeamTieBreak::Fouls => "Fewer team fouls",
        }
    }

    /// The H7 order.
    pub fn defaults() -> Vec<TeamTieBreak> {
        vec![
            TeamTieBreak::GamePoints,
            TeamTieBreak::GameWins,
            TeamTieBreak::DirectEncounter,
            TeamTieBreak::Fouls,
        ]
    }
}

/// A finished team match. Board results are from the home team's side:
/// `RedWins` means the home team's player won that board, whatever colour
/// they actually had.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamMatch {
    /// The home team.
    pub home: PlayerId,
    /// The away team.
    pub away: PlayerId,
    /// One result per board.
    pub boards: Vec<GameResult>,
}

/// One row of a team standings table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TeamStandingRow {
    /// The place, from 1.
    pub rank: u32,
    /// Whether the place is shared.
    pub shared: bool,
    /// The team's id.
    pub team: PlayerId,
    /// The team's name.
    pub name: String,
    /// 场分.
    pub match_points: f64,
    /// 总局分.
    pub game_points: f64,
    /// 全队胜局.
    pub game_wins: u32,
    /// 直胜 among the tied teams, where applied.
    pub direct: Option<f64>,
    /// 全队犯规.
    pub fouls: u32,
}

/// A team standings table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TeamStandings {
    /// The tie-breaks applied, in order.
    pub tie_breaks: Vec<TeamTieBreak>,
    /// Rows, best first.
    pub rows: Vec<TeamStandingRow>,
    /// Places that may not be shared but are (H8).
    pub needs_playoff: Vec<PlaceTie>,
}

/// Ranks teams (H7). `match_scoring` gives match points for a won, drawn or
/// lost match (2/1/0 by default); `game_scoring` the board points (H3). A
/// match is won by the team with more game points.
pub fn compute(
    teams: &[Player],
    matches: &[TeamMatch],
    fouls: &BTreeMap<PlayerId, u32>,
    game_scoring: ScoringSystem,
    match_scoring: ScoringSystem,
    tie_breaks: &[TeamTieBreak],
    unshareable: &[u32],
) -> TeamStandings {
    let n = teams.len();
    let index: BTreeMap<&PlayerId, usize> =
        teams.iter().enumerate().map(|(i, t)| (&t.id, i)).collect();
    // (home, away, home match points, away match points)
    let mut results = Vec::new();
    let mut mp = vec![0.0; n];
    let mut gp = vec![0.0; n];
    let mut gw = vec![0u32; n];
    for m in matches {
        let (Some(&h), Some(&a)) = (index.get(&m.home), index.get(&m.away)) else {
            continue;
        };
        let (mut ph, mut pa) = (0.0, 0.0);
        for &b in &m.boards {
            ph += game_scoring.points(b, Side::Red);
            pa += game_scoring.points(b, Side::Black);
            match b.winner() {
                Some(Side::Red) => gw[h] += 1,
                Some(Side::Black) => gw[a] += 1,
                None => {}
            }
        }
        gp[h] += ph;
        gp[a] += pa;
        let outcome = if ph > pa {
            GameResult::RedWins
        } else if pa > ph {
            GameResult::BlackWins
        } else {
            GameResult::Draw
        };
        let (mh, ma) = (
            match_scoring.points(outcome, Side::Red),
            match_scoring.points(outcome, Side::Black),
        );
        mp[h] += mh;
        mp[a] += ma;
        results.push((h, a, mh, ma));
    }
    let team_fouls: Vec<u32> = teams
        .iter()
        .map(|t| fouls.get(&t.id).copied().unwrap_or(0))
        .collect();
    let direct = |group: &[usize]| {
        let pos = |e: usize| group.iter().position(|&g| g == e);
        let k = group.len();
        let mut met = vec![vec![false; k]; k];
        let mut pts = vec![0.0; k];
        for &(h, a, mh, ma) in &results {
            if let (Some(i), Some(j)) = (pos(h), pos(a)) {
                met[i][j] = true;
                met[j][i] = true;
                pts[i] += mh;
                pts[j] += ma;
            }
        }
        (0..k)
            .all(|i| (0..k).all(|j| i == j || met[i][j]))
            .then_some(pts)
    };
    let mut criteria = vec![Criterion::Static(mp.clone())];
    for tb in tie_breaks {
        criteria.push(match tb {
            TeamTieBreak::GamePoints => Criterion::Static(gp.clone()),
            TeamTieBreak::GameWins => Criterion::Static(gw.iter().map(|&w| w as f64).collect()),
            TeamTieBreak::Fouls => {
                Criterion::Static(team_fouls.iter().map(|&f| -(f as f64)).collect())
            }
            TeamTieBreak::DirectEncounter => Criterion::Group(Box::new(direct)),
        });
    }
    let ranked = rank(n, &criteria);
    let rows = ranked
        .order
        .iter()
        .map(|&i| TeamStandingRow {
            rank: ranked.rank[i],
            shared: ranked.shared[i],
            team: teams[i].id.clone(),
            name: teams[i].name.clone(),
            match_points: mp[i],
            game_points: gp[i],
            game_wins: gw[i],
            direct: ranked.group_value[i],
            fouls: team_fouls[i],
        })
        .collect();
    let needs_playoff = place_ties(&ranked.rank, &ranked.order, unshareable, |i| {
        teams[i].id.clone()
    });
    TeamStandings {
        tie_breaks: tie_breaks.to_vec(),
        rows,
        needs_playoff,
    }
}

impl TeamStandings {
    /// Ranks `order` (teams tied in the table, best first) one after another
    /// from their shared rank, as a play-off decided (H8); the tie they
    /// formed no longer needs a play-off.
    pub fn settle(&mut self, order: &[PlayerId]) {
        let at: Vec<usize> = order
            .iter()
            .filter_map(|id| self.rows.iter().position(|r| &r.team == id))
            .collect();
        let (Some(&first), Some(base)) =
            (at.iter().min(), at.iter().map(|&i| self.rows[i].rank).min())
        else {
            return;
        };
        if at.len() != order.len() || at.iter().max().map(|m| m - first + 1) != Some(at.len()) {
            return; // not one contiguous group of the table
        }
        let mut settled: Vec<TeamStandingRow> = at.iter().map(|&i| self.rows[i].clone()).collect();
        for (k, r) in settled.iter_mut().enumerate() {
            r.rank = base + k as u32;
            r.shared = false;
        }
        self.rows.splice(first..first + at.len(), settled);
        self.needs_playoff
            .retain(|t| !t.players.iter().all(|p| order.contains(p)));
    }

    /// The table as CSV with a header row (H9).
    pub fn to_csv(&self) -> String {
        let mut out =
            String::from("rank,shared,team,name,match_points,game_points,game_wins,direct,fouls\n");
        for r in &self.rows {
            let _ = writeln!(
                out,
                "{},{},{},{},{},{},{},{},{}",
                r.rank,
                r.shared,
                csv_field(&r.team.0),
                csv_field(&r.name),
                num(r.match_points),
                num(r.game_points),
                r.game_wins,
                r.direct.map(num).unwrap_or_default(),
                r.fouls
            );
        }
        out
    }
}
