//! The pairing itself: player data (C.04.3 A: scores, colour preferences,
//! floats), the edge weights, and the bracket-by-bracket fixing of the
//! matching.

use super::wide::Wide;
use super::{Board, Colour, DutchError, Field, Match, Outcome};
use std::collections::{HashMap, HashSet};

/// What the pairing knows of one player (C.04.3 A.6-A.7).
struct Player {
    rank: usize,
    valid: bool,
    matches: Vec<Match>,
    accelerations: Vec<u32>,
    /// Points without acceleration, tenths.
    score: u32,
    imbalance: usize,
    preference: Option<Colour>,
    /// The colour of the last two played games when they were the same.
    repeated: Option<Colour>,
    strong: bool,
    played_games: usize,
}

impl Player {
    fn absolute_imbalance(&self) -> bool {
        self.imbalance > 1
    }
    fn absolute(&self) -> bool {
        self.absolute_imbalance() || self.repeated.is_some()
    }
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum Float {
    Down,
    Up,
    None,
}

/// Bits needed to write `x` (0 for 0).
fn bits(x: usize) -> u32 {
    usize::BITS - x.leading_zeros()
}

struct Ctx<'a> {
    field: &'a Field,
    players: Vec<Player>,
    forbidden: Vec<HashSet<usize>>,
}

impl Ctx<'_> {
    fn points(&self, m: &Match) -> u32 {
        let p = &self.field.points;
        match m.outcome {
            Outcome::Loss if m.paired && m.played => p.loss,
            Outcome::Loss if m.paired => p.forfeit_loss,
            Outcome::Loss => p.zero_bye,
            Outcome::Win if m.opponent.is_none() && m.paired => p.pairing_bye,
            Outcome::Win => p.win,
            Outcome::Draw => p.draw,
        }
    }

    /// The pairing score `back` rounds before this one, with acceleration.
    fn score_back(&self, id: usize, back: usize) -> u32 {
        let p = &self.players[id];
        let rounds = self.field.played_rounds;
        let mut score = p.score;
        for m in &p.matches[rounds - back..rounds] {
            score = score.saturating_sub(self.points(m));
        }
        score + p.accelerations.get(rounds - back).copied().unwrap_or(0)
    }

    fn score(&self, id: usize) -> u32 {
        self.score_back(id, 0)
    }

    fn eligible_for_bye(&self, id: usize) -> bool {
        let win = self.field.points.win;
        !self.players[id]
            .matches
            .iter()
            .any(|m| !m.played && (self.points(m) >= win || (m.paired && m.opponent.is_none())))
    }

    fn float(&self, id: usize, back: usize) -> Float {
        let m = &self.players[id].matches[self.field.played_rounds - back];
        if !m.played {
            return if self.points(m) > self.field.points.loss {
                Float::Down
            } else {
                Float::None
            };
        }
        let Some(opp) = m.opponent else {
            return Float::None;
        };
        let (mine, theirs) = (self.score_back(id, back), self.score_back(opp, back));
        match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => Float::Down,
            std::cmp::Ordering::Less => Float::Up,
            std::cmp::Ordering::Equal => Float::None,
        }
    }

    /// Whether the two may meet at all (C1, C3 with the top-scorer exception).
    fn compatible(&self, a: usize, b: usize) -> bool {
        if self.forbidden[a].contains(&b) {
            return false;
        }
        let (pa, pb) = (&self.players[a], &self.players[b]);
        if !pa.absolute() || !pb.absolute() || pa.preference != pb.preference {
            return true;
        }
        let f = self.field;
        let threshold = (f.played_rounds as u32 * f.points.win.max(f.points.draw)) >> 1;
        f.played_rounds + 1 >= f.total_rounds
            && (self.score(a) > threshold || self.score(b) > threshold)
    }

    /// Ranks higher: more points, then the smaller pairing rank.
    fn ranks_above(&self, a: usize, b: usize) -> bool {
        (self.score(a), std::cmp::Reverse(self.players[a].rank))
            > (self.score(b), std::cmp::Reverse(self.players[b].rank))
    }
}

fn compatible_preferences(a: Option<Colour>, b: Option<Colour>) -> bool {
    a != b || a.is_none()
}

/// Builds what the pairing knows of every player (C.04.3 A).
fn players(field: &Field) -> Vec<Player> {
    let rounds = field.played_rounds;
    let mut out: Vec<Player> = field
        .entrants
        .iter()
        .map(|e| {
            let mut matches = e.matches.clone();
            if matches.len() < rounds {
                matches.resize(rounds, Match::absent());
            }
            let valid = matches.len() <= rounds || matches.iter().any(|m| m.paired);
            Player {
                rank: 0,
                valid,
                matches,
                accelerations: e.accelerations.clone(),
                score: 0,
                imbalance: 0,
                preference: None,
                repeated: None,
                strong: false,
                played_games: 0,
            }
        })
        .collect();
    for (rank, p) in out.iter_mut().filter(|p| p.valid).enumerate() {
        p.rank = rank;
        let (mut white, mut black, mut run) = (0usize, 0usize, 0usize);
        let mut last: Option<Colour> = None;
        for m in p.matches.iter().filter(|m| m.played) {
            let Some(c) = m.colour else { continue };
            p.played_games += 1;
            match c {
                Colour::White => white += 1,
                Colour::Black => black += 1,
            }
            run = if run == 0 || Some(c) != last {
                1
            } else {
                run + 1
            };
            last = Some(c);
        }
        let lower = if white > black {
            Colour::Black
        } else {
            Colour::White
        };
        p.imbalance = white.abs_diff(black);
        p.preference = if p.imbalance > 1 {
            Some(lower)
        } else if run > 1 {
            last.map(Colour::flip)
        } else if p.imbalance > 0 {
            Some(lower)
        } else if run > 0 {
            last.map(Colour::flip)
        } else {
            None
        };
        p.repeated = if run > 1 { last } else { None };
        p.strong = !p.absolute() && p.imbalance > 0;
    }
    out
}

/// Pairs the field with weights just wide enough for its score groups
/// (128 to 2048 bits).
pub(super) fn pair(field: &Field) -> Result<Vec<Board>, DutchError> {
    let players = players(field);
    let mut forbidden = vec![HashSet::new(); field.entrants.len()];
    for group in &field.forbidden {
        for &a in group {
            for &b in group {
                if a != b && a < forbidden.len() && b < forbidden.len() {
                    forbidden[a].insert(b);
                }
            }
        }
    }
    for (i, p) in players.iter().enumerate() {
        if !p.valid {
            continue;
        }
        for m in p.matches.iter().filter(|m| m.played) {
            if let Some(o) = m.opponent {
                forbidden[i].insert(o);
            }
        }
    }
    let mut ctx = Ctx {
        field,
        players,
        forbidden,
    };
    for i in 0..ctx.players.len() {
        let rounds = field.played_rounds;
        let score: u32 = ctx.players[i].matches[..rounds.min(ctx.players[i].matches.len())]
            .iter()
            .map(|m| ctx.points(m))
            .sum();
        ctx.players[i].score = score;
    }
    let mut sorted: Vec<usize> = (0..ctx.players.len())
        .filter(|&i| ctx.players[i].valid && ctx.players[i].matches.len() <= field.played_rounds)
        .collect();
    sorted.sort_by(|&a, &b| ctx.ranks_above(b, a).cmp(&ctx.ranks_above(a, b)));
    if sorted.is_empty() {
        return Ok(Vec::new());
    }
    let layout = Layout::new(&ctx, &sorted);
    let needed = layout.total_bits(field.played_rounds) + 8;
    let pairs = match needed {
        0..=128 => run::<2>(&ctx, &sorted, &layout)?,
        129..=256 => run::<4>(&ctx, &sorted, &layout)?,
        257..=512 => run::<8>(&ctx, &sorted, &layout)?,
        513..=1024 => run::<16>(&ctx, &sorted, &layout)?,
        1025..=2048 => run::<32>(&ctx, &sorted, &layout)?,
        _ => return Err(DutchError::TooLarge(field.entrants.len())),
    };
    Ok(boards(&ctx, pairs))
}

/// The bit layout of the weights: the widths of the score-group fields.
struct Layout {
    group_bits: u32,
    groups_shift: u32,
    shift_of: HashMap<u32, u32>,
}

impl Layout {
    fn new(ctx: &Ctx, sorted: &[usize]) -> Layout {
        let mut shift_of = HashMap::new();
        let mut groups_shift = 0;
        let mut largest = 0;
        let mut run = 0;
        for (k, &id) in sorted.iter().enumerate().rev() {
            run += 1;
            let score = ctx.score(id);
            let next_higher = k == 0 || score < ctx.score(sorted[k - 1]);
            if next_higher {
                shift_of.insert(score, groups_shift);
                largest = largest.max(run);
                groups_shift += bits(run);
                run = 0;
            }
        }
        Layout {
            group_bits: bits(largest),
            groups_shift,
            shift_of,
        }
    }

    fn shift(&self, score: u32) -> u32 {
        self.shift_of.get(&score).copied().unwrap_or(0)
    }

    /// Bits of the largest weight (see [`Weights::edge`]).
    fn total_bits(&self, rounds: usize) -> u32 {
        let (b, s) = (self.group_bits, self.groups_shift);
        let mut total = 2 + 2 * (b + s) + 2 * b + 4 * b + 3 * b + 1 + 2;
        if rounds >= 1 {
            total += 2 * b + 2 * s;
        }
        if rounds > 1 {
            total += 2 * b + 2 * s;
        }
        total
    }
}

/// The bye candidates' context for one weight computation.
#[derive(Clone)]
struct ByeInfo {
    score: u32,
    single_downfloater: bool,
    unplayed_ranks: HashMap<usize, u64>,
}

struct Weights<'a, const L: usize> {
    ctx: &'a Ctx<'a>,
    layout: &'a Layout,
}

impl<const L: usize> Weights<'_, L> {
    fn max(&self) -> Wide<L> {
        let bits = self.layout.total_bits(self.ctx.field.played_rounds) - 1;
        Wide::<L>::from_u64(1).shl(bits) - Wide::from_u64(1)
    }

    fn bye_candidate(&self, id: usize, bye_score: u32) -> bool {
        self.ctx.eligible_for_bye(id) && self.ctx.score(id) <= bye_score
    }

    /// The weight of pairing `higher` with `lower` (the later one in the
    /// sorted order), when `lower` is in the current bracket or the next one.
    fn edge(
        &self,
        higher: usize,
        lower: usize,
        in_current: bool,
        in_next: bool,
        bye: &ByeInfo,
    ) -> Wide<L> {
        let ctx = self.ctx;
        let (b, s) = (self.layout.group_bits, self.layout.groups_shift);
        if !ctx.compatible(higher, lower) {
            return Wide::ZERO;
        }
        let one = |shift: u32| Wide::<L>::from_u64(1).shl(shift);
        let (hs, ls) = (ctx.score(higher), ctx.score(lower));
        // C4 completion and the bye: pair those who cannot take the bye.
        let mut r = Wide::<L>::from_u64(
            1 + u64::from(!self.bye_candidate(higher, bye.score))
                + u64::from(!self.bye_candidate(lower, bye.score)),
        );
        // C6-C7: most pairs, highest scores paired in this bracket.
        r = r.shl(b).or_u64(u64::from(in_current));
        r = r.shl(s);
        if in_current {
            r = r.or(one(self.layout.shift(hs)));
        }
        // The same for the next bracket (its completion).
        r = r.shl(b).or_u64(u64::from(in_next));
        r = r.shl(s);
        if in_next {
            r = r.or(one(self.layout.shift(hs)));
        }
        // C9: the bye assignee with the fewest unplayed games.
        r = r.shl(b).shl(b);
        if bye.single_downfloater {
            let rank = |id: usize| {
                bye.unplayed_ranks
                    .get(&ctx.players[id].played_games)
                    .copied()
                    .unwrap_or(0)
            };
            if hs == bye.score {
                r = r.or_u64(rank(higher));
            }
            if ls == bye.score {
                r += Wide::from_u64(rank(lower));
            }
        }
        r = self.colour_bits(r, lower, higher, in_current);
        let rounds = ctx.field.played_rounds;
        for back in [1, 2] {
            if rounds < back {
                continue;
            }
            // C14-C17: repeated floaters.
            r = r.shl(b);
            if in_current {
                r = r.or_u64(u64::from(ctx.float(lower, back) == Float::Down));
                r += Wide::from_u64(u64::from(
                    hs <= ls && ctx.float(higher, back) == Float::Down,
                ));
            }
            r = r.shl(b);
            if in_current {
                r = r.or_u64(u64::from(!(hs > ls && ctx.float(lower, back) == Float::Up)));
            }
        }
        for back in [1, 2] {
            if rounds < back {
                continue;
            }
            // C18-C21: the scores of repeated floaters.
            r = r.shl(s);
            if in_current {
                if ctx.float(lower, back) == Float::Down {
                    r += one(self.layout.shift(ls));
                }
                if ctx.float(higher, back) == Float::Down {
                    r += one(self.layout.shift(hs));
                }
            }
            r = r.shl(s);
            if in_current && !(ctx.float(lower, back) == Float::Up && hs > ls) {
                r = r.or(one(self.layout.shift(hs)));
            }
        }
        // Room for the exchange and transposition fixing.
        r.shl(3 * b + 1)
    }

    /// C10-C13: colour preferences, for `player` meeting `opponent`.
    fn colour_bits(&self, r: Wide<L>, player: usize, opponent: usize, mask: bool) -> Wide<L> {
        let b = self.layout.group_bits;
        let (p, o) = (&self.ctx.players[player], &self.ctx.players[opponent]);
        let same = p.preference == o.preference;
        let c10 = !p.absolute_imbalance() || !o.absolute_imbalance() || !same;
        let c11 = !p.absolute()
            || !o.absolute()
            || !same
            || if p.imbalance == o.imbalance {
                p.repeated.is_none() || p.repeated != o.repeated
            } else {
                let weaker = if p.imbalance > o.imbalance { o } else { p };
                weaker.repeated != p.preference.map(Colour::flip)
            };
        let c12 = compatible_preferences(p.preference, o.preference);
        let c13 = (!p.strong && !p.absolute())
            || (!o.strong && !o.absolute())
            || (p.absolute() && o.absolute())
            || !same;
        let mut r = r;
        for c in [c10, c11, c12, c13] {
            r = r.shl(b).or_u64(u64::from(mask && c));
        }
        r
    }
}

/// The matching over the whole field, kept as a weight matrix that the
/// bracket steps edit.
struct Matcher<const L: usize> {
    n: usize,
    weights: Vec<Wide<L>>,
}

impl<const L: usize> Matcher<L> {
    fn new(n: usize) -> Self {
        Matcher {
            n,
            weights: vec![Wide::ZERO; n * n],
        }
    }

    fn set(&mut self, a: usize, b: usize, w: Wide<L>) {
        let (i, j) = if a < b { (a, b) } else { (b, a) };
        if i != j {
            self.weights[i * self.n + j] = w;
        }
    }

    /// Each vertex's partner (itself when unmatched).
    fn solve(&self) -> Vec<usize> {
        integer_blossom::max_weight_matching(&self.weights, self.n)
            .into_iter()
            .enumerate()
            .map(|(i, m)| m.unwrap_or(i))
            .collect()
    }

    /// Fixes the pair `a`-`b`: only their edge stays, at `weight`.
    fn fix_pair(&mut self, a: usize, b: usize, weight: Wide<L>) {
        for v in 0..self.n {
            if v != a {
                self.set(a, v, if v == b { weight } else { Wide::ZERO });
            }
            if v != b {
                self.set(b, v, if v == a { weight } else { Wide::ZERO });
            }
        }
    }
}

mod brackets;
use brackets::{boards, run};
