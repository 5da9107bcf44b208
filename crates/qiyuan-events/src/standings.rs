//! Standings with named, ordered tie-breaks (H6), places that may not be
//! shared (H8), and every tie-break column plus CSV export (H9).
//!
//! Ranking is by score, then each tie-break in the event's order, applied only
//! within the group still tied. Direct encounter (直胜) is worked out for the
//! group tied at that point: the score in the games among them. What no
//! tie-break separates is a shared place.
//!
//! Beside the Chinese tie-breaks stand FIDE's (handbook C.07), each with its
//! published name and abbreviation; see [`crate::fide`] for the rules used,
//! unplayed rounds included.

pub use crate::fide::Unplayed;
use crate::fide::{self, Cut, Entry, Table};
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
    /// FIDE Buchholz (BH): opponents' scores, an unplayed round counting
    /// the player's own score (C.07's dummy opponent).
    FideBuchholz,
    /// FIDE Buchholz Cut-1 (BH-C1): BH without the least significant value.
    BuchholzCut1,
    /// FIDE Buchholz Cut-2 (BH-C2): BH without the two least significant values.
    BuchholzCut2,
    /// FIDE Buchholz Median-1 (BH-M1): BH without the highest and the least
    /// significant value.
    BuchholzMedian1,
    /// FIDE Sonneborn-Berger (SB), unplayed rounds by the dummy opponent.
    FideSonnebornBerger,
    /// FIDE Number of wins (WIN): rounds scoring a win's points, byes and
    /// forfeits included.
    FideWins,
    /// FIDE Number of games won (WON): won over the board.
    GamesWon,
    /// FIDE Number of games played with black (BPG).
    GamesWithBlack,
    /// FIDE Average rating of opponents (ARO), over-the-board games.
    AverageRatingOfOpponents,
    /// FIDE Progressive score (PS): the running score after each round, summed.
    ProgressiveScore,
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
            TieBreak::FideBuchholz => "对手分(FIDE)",
            TieBreak::BuchholzCut1 => "去一对手分",
            TieBreak::BuchholzCut2 => "去二对手分",
            TieBreak::BuchholzMedian1 => "中间对手分",
            TieBreak::FideSonnebornBerger => "小分(FIDE)",
            TieBreak::FideWins => "胜轮数",
            TieBreak::GamesWon => "胜局(对局)",
            TieBreak::GamesWithBlack => "后手局数",
            TieBreak::AverageRatingOfOpponents => "对手平均等级分",
            TieBreak::ProgressiveScore => "累进分",
        }
    }

    /// The FIDE abbreviation (C.07), where FIDE has one.
    pub fn abbreviation(self) -> Option<&'static str> {
        Some(match self {
            TieBreak::SonnebornBerger | TieBreak::FideSonnebornBerger => "SB",
            TieBreak::Buchholz | TieBreak::FideBuchholz => "BH",
            TieBreak::Wins | TieBreak::GamesWon => "WON",
            TieBreak::DirectEncounter => "DE",
            TieBreak::Fouls => return None,
            TieBreak::BuchholzCut1 => "BH-C1",
            TieBreak::BuchholzCut2 => "BH-C2",
            TieBreak::BuchholzMedian1 => "BH-M1",
            TieBreak::FideWins => "WIN",
            TieBreak::GamesWithBlack => "BPG",
            TieBreak::AverageRatingOfOpponents => "ARO",
            TieBreak::ProgressiveScore => "PS",
        })
    }

    /// Every tie-break, H6's first.
    pub fn all() -> [TieBreak; 15] {
        [
            TieBreak::SonnebornBerger,
            TieBreak::Buchholz,
            TieBreak::Wins,
            TieBreak::DirectEncounter,
            TieBreak::Fouls,
            TieBreak::FideBuchholz,
            TieBreak::BuchholzCut1,
            TieBreak::BuchholzCut2,
            TieBreak::BuchholzMedian1,
            TieBreak::FideSonnebornBerger,
            TieBreak::FideWins,
            TieBreak::GamesWon,
            TieBreak::GamesWithBlack,
            TieBreak::AverageRatingOfOpponents,
            TieBreak::ProgressiveScore,
        ]
    }

    /// The name it is stored under (its serde name).
    pub fn key(self) -> &'static str {
        match self {
            TieBreak::SonnebornBerger => "sonneborn_berger",
            TieBreak::Buchholz => "buchholz",
            TieBreak::Wins => "wins",
            TieBreak::DirectEncounter => "direct_encounter",
            TieBreak::Fouls => "fouls",
            TieBreak::FideBuchholz => "fide_buchholz",
            TieBreak::BuchholzCut1 => "buchholz_cut1",
            TieBreak::BuchholzCut2 => "buchholz_cut2",
            TieBreak::BuchholzMedian1 => "buchholz_median1",
            TieBreak::FideSonnebornBerger => "fide_sonneborn_berger",
            TieBreak::FideWins => "fide_wins",
            TieBreak::GamesWon => "games_won",
            TieBreak::GamesWithBlack => "games_with_black",
            TieBreak::AverageRatingOfOpponents => "average_rating_of_opponents",
            TieBreak::ProgressiveScore => "progressive_score",
        }
    }

    /// Whether the standings row has a column of its own for it (H9);
    /// the others appear in [`StandingRow::fide`] when selected.
    fn has_column(self) -> bool {
        matches!(
            self,
            TieBreak::SonnebornBerger
                | TieBreak::Buchholz
                | TieBreak::Wins
                | TieBreak::DirectEncounter
                | TieBreak::Fouls
        )
    }

    /// The FIDE (English) name. Fouls has no FIDE counterpart.
    pub fn fide(self) -> &'static str {
        match self {
            TieBreak::SonnebornBerger => "Sonneborn-Berger",
            TieBreak::Buchholz => "Buchholz",
            TieBreak::Wins => "Number of wins",
            TieBreak::DirectEncounter => "Direct encounter",
            TieBreak::Fouls => "Fewer fouls",
            TieBreak::FideBuchholz => "Buchholz",
            TieBreak::BuchholzCut1 => "Buchholz Cut-1",
            TieBreak::BuchholzCut2 => "Buchholz Cut-2",
            TieBreak::BuchholzMedian1 => "Buchholz Median-1",
            TieBreak::FideSonnebornBerger => "Sonneborn-Berger",
            TieBreak::FideWins => "Number of wins",
            TieBreak::GamesWon => "Number of games won",
            TieBreak::GamesWithBlack => "Number of games played with black",
            TieBreak::AverageRatingOfOpponents => "Average rating of opponents",
            TieBreak::ProgressiveScore => "Progressive score",
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
    /// The round, from 1; 0 where unknown (FIDE's progressive score and
    /// absences then follow the order games are given in).
    #[serde(default)]
    pub round: u32,
}

impl GameRecord {
    /// A record of `red` v `black` (round unknown).
    pub fn new(red: impl Into<PlayerId>, black: impl Into<PlayerId>, result: GameResult) -> Self {
        GameRecord {
            red: red.into(),
            black: black.into(),
            result,
            round: 0,
        }
    }

    /// The same record, in round `round`.
    pub fn in_round(mut self, round: u32) -> Self {
        self.round = round;
        self
    }
}

/// Points a player scored in a round without a game over the board: a bye,
/// a forfeit, an absence.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ByeRecord {
    /// The player.
    pub player: PlayerId,
    /// The points scored.
    pub points: f64,
    /// The round, from 1; 0 where unknown.
    pub round: u32,
    /// What kind of unplayed round.
    pub kind: Unplayed,
}

impl ByeRecord {
    /// A pairing-allocated bye worth `points` (round unknown).
    pub fn new(player: impl Into<PlayerId>, points: f64) -> Self {
        ByeRecord {
            player: player.into(),
            points,
            round: 0,
            kind: Unplayed::PairingBye,
        }
    }

    /// The same record in round `round`, of kind `kind`.
    pub fn in_round(mut self, round: u32, kind: Unplayed) -> Self {
        self.round = round;
        self.kind = kind;
        self
    }
}

/// A FIDE tie-break's value in a standings row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TieBreakValue {
    /// Which tie-break.
    pub tie_break: TieBreak,
    /// Its value for the row's player.
    pub value: f64,
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
    /// The values of the selected tie-breaks that have no column above
    /// (FIDE's), in the event's order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fide: Vec<TieBreakValue>,
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
    /// Points scored without a game (byes, forfeits), per player and round.
    pub byes: &'a [ByeRecord],
    /// Ratings, for FIDE's ARO; players without one are left out of it.
    pub ratings: &'a BTreeMap<PlayerId, u32>,
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

/// Points per over-the-board result, for tables whose point system is not
/// one of [`ScoringSystem`]'s (TRF files may score 3/1/0).
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct GamePoints {
    pub win: f64,
    pub draw: f64,
    pub loss: f64,
}

impl GamePoints {
    fn of(s: ScoringSystem) -> GamePoints {
        GamePoints {
            win: s.win(),
            draw: s.draw(),
            loss: 0.0,
        }
    }

    fn points(self, result: GameResult, side: Side) -> f64 {
        match result {
            GameResult::Draw => self.draw,
            GameResult::TimeCapExceeded => 0.0,
            r if r.winner() == Some(side) => self.win,
            _ => self.loss,
        }
    }
}

/// Computes a standings table (H6, H8, H9).
///
/// Games with players not in `players` are ignored. Byes add to the score;
/// H6's Sonneborn-Berger and Buchholz leave them out (there is no
/// opponent), FIDE's count them by C.07's dummy opponent ([`crate::fide`]).
pub fn compute(input: &StandingsInput<'_>) -> Standings {
    compute_with(input, GamePoints::of(input.scoring))
}

/// [`compute`] with explicit points per result.
pub(crate) fn compute_with(input: &StandingsInput<'_>, gp: GamePoints) -> Standings {
    let n = input.players.len();
    let index: BTreeMap<&PlayerId, usize> = input
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| (&p.id, i))
        .collect();
    // (red, black, red points, black points)
    let mut rounds_of: Vec<u32> = Vec::new();
    let games: Vec<(usize, usize, f64, f64)> = input
        .games
        .iter()
        .filter_map(|g| {
            let r = *index.get(&g.red)?;
            let b = *index.get(&g.black)?;
            rounds_of.push(g.round);
            Some((
                r,
                b,
                gp.points(g.result, Side::Red),
                gp.points(g.result, Side::Black),
            ))
        })
        .collect();
    let win = gp.win;
    let draw = gp.draw;

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
    let mut entries: Vec<Vec<Entry>> = vec![Vec::new(); n];
    for (k, &(r, b, pr, pb)) in games.iter().enumerate() {
        for (me, opp, pts, black) in [(r, b, pr, false), (b, r, pb, true)] {
            entries[me].push(Entry {
                round: rounds_of[k],
                opponent: Some(opp),
                points: pts,
                black,
                unplayed: None,
            });
        }
    }
    for bye in input.byes {
        if let Some(&i) = index.get(&bye.player) {
            score[i] += bye.points;
            entries[i].push(Entry {
                round: bye.round,
                opponent: None,
                points: bye.points,
                black: false,
                unplayed: Some(bye.kind),
            });
        }
    }
    fide::fill_absences(&mut entries);
    for list in &mut entries {
        list.sort_by_key(|e| e.round);
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
    let table = Table {
        entries,
        score: &score,
        ratings: input
            .players
            .iter()
            .map(|p| input.ratings.get(&p.id).copied())
            .collect(),
        win,
    };
    let fide_values = |tb: TieBreak| -> Vec<f64> {
        (0..n)
            .map(|i| match tb {
                TieBreak::FideBuchholz => table.buchholz(i, Cut::None),
                TieBreak::BuchholzCut1 => table.buchholz(i, Cut::Low(1)),
                TieBreak::BuchholzCut2 => table.buchholz(i, Cut::Low(2)),
                TieBreak::BuchholzMedian1 => table.buchholz(i, Cut::Median(1)),
                TieBreak::FideSonnebornBerger => table.sonneborn_berger(i),
                TieBreak::FideWins => table.wins(i) as f64,
                TieBreak::GamesWon => table.games_won(i) as f64,
                TieBreak::GamesWithBlack => table.black_games(i) as f64,
                TieBreak::AverageRatingOfOpponents => table.aro(i),
                TieBreak::ProgressiveScore => table.progressive(i),
                TieBreak::SonnebornBerger => sb[i],
                TieBreak::Buchholz => buchholz[i],
                TieBreak::Wins => wins[i] as f64,
                TieBreak::Fouls => -(fouls[i] as f64),
                TieBreak::DirectEncounter => 0.0,
            })
            .collect()
    };
    let extra: Vec<(TieBreak, Vec<f64>)> = input
        .tie_breaks
        .iter()
        .filter(|tb| !tb.has_column())
        .map(|&tb| (tb, fide_values(tb)))
        .collect();

    let direct = |group: &[usize]| direct_scores(group, &games);
    let mut criteria = vec![Criterion::Static(score.clone())];
    for &tb in input.tie_breaks {
        criteria.push(match tb {
            TieBreak::DirectEncounter => Criterion::Group(Box::new(direct)),
            // Higher ranks higher for every FIDE tie-break here, including
            // games with black (more black games, the harder draw).
            other => Criterion::Static(fide_values(other)),
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
            fide: extra
                .iter()
                .map(|(tb, v)| TieBreakValue {
                    tie_break: *tb,
                    value: v[i],
                })
                .collect(),
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
    /// Selected FIDE tie-breaks without a column of their own follow, one
    /// column each, headed by their stored name.
    pub fn to_csv(&self) -> String {
        let extra: Vec<TieBreak> = self
            .tie_breaks
            .iter()
            .copied()
            .filter(|tb| !tb.has_column())
            .collect();
        let mut out = String::from(
            "rank,shared,player,name,score,sonneborn_berger,buchholz,wins,direct,fouls,games",
        );
        for tb in &extra {
            out.push(',');
            out.push_str(tb.key());
        }
        out.push('\n');
        for r in &self.rows {
            let _ = write!(
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
            for tb in &extra {
                let v = r.fide.iter().find(|v| v.tie_break == *tb).map(|v| v.value);
                out.push(',');
                out.push_str(&v.map(num).unwrap_or_default());
            }
            out.push('\n');
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
