//! Standings with named, ordered tie-breaks (H6), places that may not be
//! shared (H8), and every tie-break column plus CSV export (H9).
//!
//! Ranking is by score, then each tie-break in the event's order, applied only
//! within the group still tied. Direct encounter (直胜) is worked out for the
//! group tied at that point: the score in the games among them. What no
//! tie-break separates is a shared place.

use crate::scoring::{GameResult, ScoringSystem, Side};
use crate::{Player, PlayerId};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// A named tie-break for individual events (H6). Stored by name in the event
/// settings so organisers can reorder them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum TieBreak {
    /// 小分 in a round robin: the scores of the opponents one beat plus half
    /// the scores of those one drew with.
    SonnebornBerger,
    /// 对手分: the sum of the opponents' scores (Swiss).
    Buchholz,
    /// 胜局: number of games won.
    Wins,
    /// 直胜: the score in the games among the tied players.
    DirectEncounter,
    /// 犯规: fewer technical fouls ranks higher (X8).
    Fouls,
}

impl TieBreak {
    /// The Chinese name.
    pub fn chinese(self) -> &'static str {
        match self {
            TieBreak::SonnebornBerger => "小分",
            TieBreak::Buchholz => "对手分",
            TieBreak::Wins => "胜局",
            TieBreak::DirectEncounter => "直胜",
            TieBreak::Fouls => "犯规",
        }
    }

    /// The FIDE (English) name. Fouls has no FIDE counterpart.
    pub fn fide(self) -> &'static str {
        match self {
            TieBreak::SonnebornBerger => "Sonneborn-Berger",
            TieBreak::Buchholz => "Buchholz",
            TieBreak::Wins => "Number of wins",
            TieBreak::DirectEncounter => "Direct encounter",
            TieBreak::Fouls => "Fewer fouls",
        }
    }

    /// H6 for round robins: 小分 (Sonneborn-Berger), wins, direct encounter, fouls.
    pub fn round_robin_defaults() -> Vec<TieBreak> {
        vec![
            TieBreak::SonnebornBerger,
            TieBreak::Wins,
            TieBreak::DirectEncounter,
            TieBreak::Fouls,
        ]
    }

    /// H6 for Swiss: 对手分 (Buchholz) first, then as in a round robin.
    pub fn swiss_defaults() -> Vec<TieBreak> {
        vec![
            TieBreak::Buchholz,
            TieBreak::SonnebornBerger,
            TieBreak::Wins,
            TieBreak::DirectEncounter,
            TieBreak::Fouls,
        ]
    }
}

/// One played game as standings see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Red.
    pub red: PlayerId,
    /// Black.
    pub black: PlayerId,
    /// The result.
    pub result: GameResult,
}

impl GameRecord {
    /// A record of `red` v `black`.
    pub fn new(red: impl Into<PlayerId>, black: impl Into<PlayerId>, result: GameResult) -> Self {
        GameRecord {
            red: red.into(),
            black: black.into(),
            result,
        }
    }
}

/// One row of a standings table: the place and every tie-break column (H9).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StandingRow {
    /// The place, from 1. Players sharing a place have the same rank.
    pub rank: u32,
    /// Whether the place is shared.
    pub shared: bool,
    /// The player's id.
    pub player: PlayerId,
    /// The display name.
    pub name: String,
    /// Game points (H3), byes included.
    pub score: f64,
    /// 小分 (Sonneborn-Berger).
    pub sonneborn_berger: f64,
    /// 对手分 (Buchholz).
    pub buchholz: f64,
    /// Games won.
    pub wins: u32,
    /// 直胜: the score among the players tied with this one when direct
    /// encounter was applied; `None` where it was not needed or not applicable.
    pub direct: Option<f64>,
    /// Technical fouls in the event (X8).
    pub fouls: u32,
    /// Games played.
    pub games: u32,
}

/// Players tied on a place that may not be shared (H8): the event must play
/// them off with the play-off games it fixed in advance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlaceTie {
    /// The place in question.
    pub place: u32,
    /// The players tied for it.
    pub players: Vec<PlayerId>,
}

/// A standings table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Standings {
    /// The tie-breaks applied, in order (the columns' meaning).
    pub tie_breaks: Vec<TieBreak>,
    /// Rows, best first.
    pub rows: Vec<StandingRow>,
    /// Places that may not be shared but are (H8).
    pub needs_playoff: Vec<PlaceTie>,
}

/// What to rank: players, games, byes and the rules for counting them.
#[derive(Clone, Debug)]
pub struct StandingsInput<'a> {
    /// Everyone in the table, in seeding order (kept for shared places).
    pub players: &'a [Player],
    /// Finished games.
    pub games: &'a [GameRecord],
    /// Points scored without a game (Swiss byes), per player.
    pub byes: &'a [(PlayerId, f64)],
    /// Fouls per player in this event (X8).
    pub fouls: &'a BTreeMap<PlayerId, u32>,
    /// Points per result (H3).
    pub scoring: ScoringSystem,
    /// The tie-breaks, in order (H6).
    pub tie_breaks: &'a [TieBreak],
    /// Places that may not be shared (H8), e.g. `[1]` for the title.
    pub unshareable: &'a [u32],
}

/// One ordering criterion for [`rank`]: values per entity (higher is better),
/// or a function of the tied group (for direct encounter) that returns `None`
/// when it does not apply to that group.
pub(crate) enum Criterion<'a> {
    Static(Vec<f64>),
    Group(Box<GroupFn<'a>>),
}

/// Values for the members of a tied group, or `None` if not applicable.
pub(crate) type GroupFn<'a> = dyn Fn(&[usize]) -> Option<Vec<f64>> + 'a;

/// The result of [`rank`]: entity indices best first, and per entity its rank,
/// whether it is shared, and the group value of the last group criterion used.
pub(crate) struct Ranked {
    pub order: Vec<usize>,
    pub rank: Vec<u32>,
    pub shared: Vec<bool>,
    pub group_value: Vec<Option<f64>>,
}

/// Ranks `n` entities by the criteria in order, splitting only tied groups.
pub(crate) fn rank(n: usize, criteria: &[Criterion<'_>]) -> Ranked {
    let mut out = Ranked {
        order: Vec::with_capacity(n),
        rank: vec![0; n],
        shared: vec![false; n],
        group_value: vec![None; n],
    };
    split((0..n).collect(), 0, criteria, &mut out);
    out
}

fn split(group: Vec<usize>, ci: usize, criteria: &[Criterion<'_>], out: &mut Ranked) {
    if group.len() == 1 || ci == criteria.len() {
        let place = out.order.len() as u32 + 1;
        for &e in &group {
            out.rank[e] = place;
            out.shared[e] = group.len() > 1;
            out.order.push(e);
        }
        return;
    }
    let values: Vec<f64> = match &criteria[ci] {
        Criterion::Static(v) => group.iter().map(|&e| v[e]).collect(),
        Criterion::Group(f) => match f(&group) {
            Some(v) => {
                for (&e, &x) in group.iter().zip(&v) {
                    out.group_value[e] = Some(x);
                }
                v
            }
            None => vec![0.0; group.len()],
        },
    };
    let mut sorted: Vec<(usize, f64)> = group.into_iter().zip(values).collect();
    // Stable: equal values keep seeding order.
    sorted.sort_by(|a, b| b.1.total_cmp(&a.1));
    let mut i = 0;
    while i < sorted.len() {
        let mut j = i + 1;
        // Scores are sums of halves and quarters, exact in f64, so == is safe.
        while j < sorted.len() && sorted[j].1 == sorted[i].1 {
            j += 1;
        }
        split(
            sorted[i..j].iter().map(|x| x.0).collect(),
            ci + 1,
            criteria,
            out,
        );
        i = j;
    }
}

/// The tied groups that cover an unshareable place (H8).
pub(crate) fn place_ties(
    rank: &[u32],
    order: &[usize],
    unshareable: &[u32],
    id: impl Fn(usize) -> PlayerId,
) -> Vec<PlaceTie> {
    let mut ties = Vec::new();
    for &place in unshareable {
        let members: Vec<usize> = order
            .iter()
            .copied()
            .filter(|&e| {
                let size = order.iter().filter(|&&o| rank[o] == rank[e]).count() as u32;
                size > 1 && rank[e] <= place && place < rank[e] + size
            })
            .collect();
        if !members.is_empty()
            && !ties
                .iter()
                .any(|t: &PlaceTie| t.players[0] == id(members[0]))
        {
            ties.push(PlaceTie {
                place,
                players: members.into_iter().map(&id).collect(),
            });
        }
    }
    ties
}

/// Computes a standings table (H6, H8, H9).
///
/// Games with players not in `players` are ignored. Byes add to the score but
/// not to Sonneborn-Berger or Buchholz (there is no opponent) nor to wins.
pub fn compute(input: &StandingsInput<'_>) -> Standings {
    let n = input.players.len();
    let index: BTreeMap<&PlayerId, usize> = input
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| (&p.id, i))
        .collect();
    // (red, black, red points, black points, winner index)
    let games: Vec<(usize, usize, f64, f64)> = input
        .games
        .iter()
        .filter_map(|g| {
            let r = *index.get(&g.red)?;
            let b = *index.get(&g.black)?;
            Some((
                r,
                b,
                input.scoring.points(g.result, Side::Red),
                input.scoring.points(g.result, Side::Black),
            ))
        })
        .collect();
    let win = input.scoring.win();
    let draw = input.scoring.draw();

    let mut score = vec![0.0; n];
    let mut wins = vec![0u32; n];
    let mut played = vec![0u32; n];
    for &(r, b, pr, pb) in &games {
        score[r] += pr;
        score[b] += pb;
        played[r] += 1;
        played[b] += 1;
        wins[r] += u32::from(pr == win);
        wins[b] += u32::from(pb == win);
    }
    for (p, pts) in input.byes {
        if let Some(&i) = index.get(p) {
            score[i] += pts;
        }
    }
    let mut sb = vec![0.0; n];
    let mut buchholz = vec![0.0; n];
    for &(r, b, pr, pb) in &games {
        buchholz[r] += score[b];
        buchholz[b] += score[r];
        for (me, opp, pts) in [(r, b, pr), (b, r, pb)] {
            if pts == win {
                sb[me] += score[opp];
            } else if pts == draw && pts > 0.0 {
                sb[me] += score[opp] / 2.0;
            }
        }
    }
    let fouls: Vec<u32> = input
        .players
        .iter()
        .map(|p| input.fouls.get(&p.id).copied().unwrap_or(0))
        .collect();

    let direct = |group: &[usize]| direct_scores(group, &games);
    let mut criteria = vec![Criterion::Static(score.clone())];
    for tb in input.tie_breaks {
        criteria.push(match tb {
            TieBreak::SonnebornBerger => Criterion::Static(sb.clone()),
            TieBreak::Buchholz => Criterion::Static(buchholz.clone()),
            TieBreak::Wins => Criterion::Static(wins.iter().map(|&w| w as f64).collect()),
            TieBreak::Fouls => Criterion::Static(fouls.iter().map(|&f| -(f as f64)).collect()),
            TieBreak::DirectEncounter => Criterion::Group(Box::new(direct)),
        });
    }
    let ranked = rank(n, &criteria);
    let rows = ranked
        .order
        .iter()
        .map(|&i| StandingRow {
            rank: ranked.rank[i],
            shared: ranked.shared[i],
            player: input.players[i].id.clone(),
            name: input.players[i].name.clone(),
            score: score[i],
            sonneborn_berger: sb[i],
            buchholz: buchholz[i],
            wins: wins[i],
            direct: ranked.group_value[i],
            fouls: fouls[i],
            games: played[i],
        })
        .collect();
    let needs_playoff = place_ties(&ranked.rank, &ranked.order, input.unshareable, |i| {
        input.players[i].id.clone()
    });
    Standings {
        tie_breaks: input.tie_breaks.to_vec(),
        rows,
        needs_playoff,
    }
}

/// Each member's score in the games among `group`, or `None` unless every
/// pair in the group has met (otherwise the numbers compare unlike things).
fn direct_scores(group: &[usize], games: &[(usize, usize, f64, f64)]) -> Option<Vec<f64>> {
    let pos = |e: usize| group.iter().position(|&g| g == e);
    let k = group.len();
    let mut met = vec![vec![false; k]; k];
    let mut pts = vec![0.0; k];
    for &(r, b, pr, pb) in games {
        if let (Some(i), Some(j)) = (pos(r), pos(b)) {
            met[i][j] = true;
            met[j][i] = true;
            pts[i] += pr;
            pts[j] += pb;
        }
    }
    let all_met = (0..k).all(|i| (0..k).all(|j| i == j || met[i][j]));
    all_met.then_some(pts)
}

/// Formats a number for CSV: whole numbers without a fraction.
pub(crate) fn num(x: f64) -> String {
    format!("{x}")
}

/// Quotes a CSV field if it needs it (RFC 4180).
pub(crate) fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

impl Standings {
    /// The table as CSV with a header row (H9). Every tie-break column is
    /// present whatever the event's order; `direct` is empty where unused.
    pub fn to_csv(&self) -> String {
        let mut out = String::from(
            "rank,shared,player,name,score,sonneborn_berger,buchholz,wins,direct,fouls,games\n",
        );
        for r in &self.rows {
            let _ = writeln!(
                out,
                "{},{},{},{},{},{},{},{},{},{},{}",
                r.rank,
                r.shared,
                csv_field(&r.player.0),
                csv_field(&r.name),
                num(r.score),
                num(r.sonneborn_berger),
                num(r.buchholz),
                r.wins,
                r.direct.map(num).unwrap_or_default(),
                r.fouls,
                r.games
            );
        }
        out
    }

    /// The row for `player`.
    pub fn row(&self, player: &PlayerId) -> Option<&StandingRow> {
        self.rows.iter().find(|r| &r.player == player)
    }

    /// Player ids, best first.
    pub fn order(&self) -> Vec<PlayerId> {
        self.rows.iter().map(|r| r.player.clone()).collect()
    }
}
