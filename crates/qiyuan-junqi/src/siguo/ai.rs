//! The four-army AI (issue 38), for any seat, from that seat's knowledge
//! only (S9): its own ranks, the ranks its mode shows (an ally's in 双明,
//! everything in 全明, a flag after its 司令 fell), every piece's post and
//! army, and what each clash showed.
//!
//! Determinized search, as the two-player AI: armies for the hidden pieces
//! (enemies', and in 四暗 the ally's) are drawn from the seat's
//! [`Belief`], and every legal move is scored on each drawn position by a
//! team search: after the move, each army in turn may attack or pass
//! (quiet moves are left to the evaluation, which sees threats), for a
//! number of plies that grows with the level; the team of the seat takes
//! the best outcome, the other team the worst for it (the teams alternate
//! in the turn order, S1). The move with the best total over the draws is
//! played. Levels differ in draws, plies and noise; a node budget (no
//! clock) bounds each move.
//!
//! It knows its ally: the evaluation counts the ally's pieces and flag as
//! its own (so it defends the ally's flag post, drawn from the belief or
//! shown, when an enemy piece stands next to it), and it pays a little for
//! parking its own pieces on the posts where the ally's railway lines leave
//! its block (own a6 c6 e6 and the posts they lead to).

use super::belief::Belief;
use super::game::Game;
use super::{Move, Position, PostSet, Rules, Verdict, team_of};
use crate::board::{PostKind, Side};
use crate::graph::{Block, BoardGraph, PostId};
use crate::piece::{Clash, Rank, clash};
use crate::plan;
use crate::setup::Setup;

#[cfg(test)]
mod tests;

/// Material values (the flag is the army: [`OUT`]).
pub fn value(r: Rank) -> i32 {
    match r {
        Rank::Commander => 90,
        Rank::General => 75,
        Rank::Division => 55,
        Rank::Brigade => 40,
        Rank::Regiment => 30,
        Rank::Battalion => 22,
        Rank::Company => 15,
        Rank::Platoon => 10,
        Rank::Engineer => 25,
        Rank::Mine => 20,
        Rank::Bomb => 50,
        Rank::Flag => 0,
    }
}

/// An army out (its flag taken, or stuck): worth more than its pieces.
const OUT: i32 = 1_500;
/// Both enemies out.
const WIN: i32 = 100_000;
/// An enemy piece next to a flag (it may take it on its turn).
const THREAT: i32 = 120;
/// One of the seat's pieces on a post where its ally's railways leave.
const BLOCKING: i32 = 8;

/// A level's search: armies drawn, attack-or-pass plies after the move,
/// noise on the totals, and the node budget. Public so that the match
/// command can measure a setting against the levels before it replaces one.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Level {
    /// Armies drawn from the belief.
    pub draws: u32,
    /// Attack-or-pass plies after the move.
    pub plies: u32,
    /// Noise on each move's total (0: none).
    pub noise: u32,
    /// Nodes a move may search.
    pub budget: u64,
}

/// The search of a level 1-8 (0 is level 1, above 8 level 8).
pub fn level_of(level: u8) -> Level {
    // Measured (docs/junqi.md): four plies on eight armies is the top;
    // five plies are no stronger (48 % over 126 games, at four times the
    // time) and six, seven plies or sixteen armies no stronger than five
    // (at most 50 %). Each level beats the one below (>= 55 %); the lowest
    // differ in noise alone.
    let (draws, plies, noise, budget) = match level {
        0 | 1 => (1, 0, 30_000, 10_000),
        2 => (1, 0, 3_000, 10_000),
        3 => (1, 0, 600, 10_000),
        4 => (1, 0, 120, 10_000),
        5 => (2, 1, 40, 20_000),
        6 => (4, 2, 20, 40_000),
        7 => (6, 3, 10, 60_000),
        _ => (8, 4, 2, 100_000),
    };
    Level {
        draws,
        plies,
        noise,
        budget,
    }
}

/// Hops from every post to the nearest headquarters of each army, over
/// roads and railway links.
fn hq_distances(g: &BoardGraph) -> Vec<Vec<u8>> {
    (0..g.armies() as u8)
        .map(|army| {
            let mut dist = vec![u8::MAX; g.len()];
            let mut queue: std::collections::VecDeque<PostId> = g
                .posts()
                .filter(|&p| g.block(p) == Block::Army(army) && g.kind(p) == PostKind::Headquarters)
                .collect();
            for &p in &queue {
                dist[p.index()] = 0;
            }
            while let Some(p) = queue.pop_front() {
                let d = dist[p.index()];
                for &q in g.roads(p).iter().chain(g.rails(p)) {
                    if dist[q.index()] == u8::MAX {
                        dist[q.index()] = d + 1;
                        queue.push_back(q);
                    }
                }
            }
            dist
        })
        .collect()
}

/// Where `army`'s railway lines leave its block: own a6, c6, e6 and the
/// railway posts next to them outside the block.
fn exits(g: &BoardGraph, army: u8) -> PostSet {
    let mut s = PostSet::EMPTY;
    for file in [0, 2, 4] {
        if let Some(p) = g.own_post(army, file, 6) {
            s.insert(p);
            for &q in g.rails(p) {
                if g.block(q) != Block::Army(army) {
                    s.insert(q);
                }
            }
        }
    }
    s
}

/// The search's fixed facts and its node count.
struct Search {
    me: u8,
    team: u8,
    rules: Rules,
    hq: Vec<Vec<u8>>,
    ally_exits: PostSet,
    nodes: u64,
    cap: u64,
}

impl Search {
    fn new(g: &BoardGraph, me: u8, rules: Rules) -> Search {
        let armies = g.armies() as u8;
        let mut ally_exits = PostSet::EMPTY;
        for a in (0..armies).filter(|&a| a != me && team_of(a) == team_of(me)) {
            for p in exits(g, a).iter() {
                ally_exits.insert(p);
            }
        }
        Search {
            me,
            team: team_of(me),
            rules,
            hq: hq_distances(g),
            ally_exits,
            nodes: 0,
            cap: u64::MAX,
        }
    }

    /// The position's worth to the seat's team: material, armies out,
    /// flags under threat, each movable piece's way to the nearest enemy
    /// headquarters, the last few movable pieces of an army (one with none
    /// goes out, S10), posts blocking the ally; a lead shrinks as the
    /// quiet-ply count nears the draw (S11).
    fn evaluate(&self, p: &Position) -> i32 {
        let g = p.graph();
        let armies = g.armies() as u8;
        let sign = |army: u8| if team_of(army) == self.team { 1 } else { -1 };
        let mut score = 0;
        let mut movable = [0i32; 8];
        let mut flags: [Option<PostId>; 8] = [None; 8];
        for post in g.posts() {
            let Some(u) = p.at(post) else { continue };
            let mut v = value(u.rank);
            if u.rank == Rank::Flag {
                flags[u.army as usize] = Some(post);
            } else if u.rank.can_move() && g.kind(post) != PostKind::Headquarters {
                movable[u.army as usize] += 1;
                let d = (0..armies)
                    .filter(|&e| team_of(e) != team_of(u.army) && !p.is_out(e))
                    .map(|e| self.hq[e as usize][post.index()])
                    .min()
                    .unwrap_or(0);
                v += (24 - i32::from(d.min(24))) / 2;
                if u.army == self.me && self.ally_exits.contains(post) {
                    v -= BLOCKING;
                }
            }
            score += sign(u.army) * v;
        }
        for a in 0..armies {
            if p.is_out(a) {
                score -= sign(a) * OUT;
                continue;
            }
            score -= sign(a) * (3 - movable[a as usize]).max(0) * 80;
            if let Some(f) = flags[a as usize] {
                let near = g
                    .roads(f)
                    .iter()
                    .filter(|&&q| {
                        p.at(q).is_some_and(|u| {
                            team_of(u.army) != team_of(a)
                                && u.rank.can_move()
                                && g.kind(q) != PostKind::Headquarters
                        })
                    })
                    .count() as i32;
                score -= sign(a) * near.min(2) * THREAT;
            }
        }
        let limit = i32::try_from(self.rules.quiet_limit).unwrap_or(0);
        if limit > 0 {
            let left = (limit - i32::try_from(p.quiet_plies()).unwrap_or(limit)).max(0);
            score = score * (left + limit) / (2 * limit);
        }
        score
    }

    /// The gain of a move for ordering: what its clash would do.
    fn order_key(p: &Position, m: Move, rules: Rules) -> i32 {
        match (p.at(m.from), p.at(m.to)) {
            (Some(a), Some(d)) => match clash(a.rank, d.rank, rules.mine_trades) {
                Clash::FlagTaken => -10_000,
                Clash::AttackerWins => -value(d.rank) * 10,
                Clash::BothRemoved => value(a.rank) - value(d.rank),
                Clash::DefenderWins => 1_000,
            },
            _ => 2_000,
        }
    }

    /// Team minimax with alpha-beta for the seat's team: `full` plies of
    /// every move, then `plies` in which each army attacks or passes.
    fn search(
        &mut self,
        p: &Position,
        full: u32,
        plies: u32,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        self.nodes += 1;
        match p.verdict(self.rules) {
            Verdict::Won { team } => return if team == self.team { WIN } else { -WIN },
            Verdict::Drawn => return 0,
            Verdict::Playing => {}
        }
        if (full == 0 && plies == 0) || self.nodes > self.cap {
            return self.evaluate(p);
        }
        let maxing = team_of(p.turn()) == self.team;
        let mut moves = p.legal_moves();
        if full == 0 {
            // Only attacks that gain: in a drawn army every rank is known,
            // and a losing attack is never better than passing.
            moves.retain(|&m| Search::order_key(p, m, self.rules) < 0);
        }
        moves.sort_by_cached_key(|&m| Search::order_key(p, m, self.rules));
        let mut best = if maxing { -WIN - 1 } else { WIN + 1 };
        let take = |v: i32, best: &mut i32, alpha: &mut i32, beta: &mut i32| {
            if maxing {
                *best = (*best).max(v);
                *alpha = (*alpha).max(v);
            } else {
                *best = (*best).min(v);
                *beta = (*beta).min(v);
            }
            alpha >= beta
        };
        let (next_full, next_plies) = if full > 0 {
            (full - 1, plies)
        } else {
            (0, plies - 1)
        };
        if full == 0 {
            // Passing stands for every quiet move.
            let mut q = p.clone();
            q.lose_turn(self.rules);
            let v = self.search(&q, 0, next_plies, alpha, beta);
            if take(v, &mut best, &mut alpha, &mut beta) {
                return best;
            }
        } else if moves.is_empty() {
            return self.evaluate(p);
        }
        for m in moves {
            let q = p.after(m, self.rules);
            let v = self.search(&q, next_full, next_plies, alpha, beta);
            if take(v, &mut best, &mut alpha, &mut beta) {
                break;
            }
        }
        best
    }
}

/// The move for army `me` at `level` (1 weak and fast … 8), or `None` when
/// it is not `me`'s turn or the game is over. Reads only what `me` may see;
/// every chance comes from `draw(n)` (uniform in `0..n`).
pub fn choose(game: &Game, me: u8, level: u8, draw: &mut dyn FnMut(u32) -> u32) -> Option<Move> {
    choose_with(game, me, level_of(level), draw)
}

/// [`choose`] with an explicit search setting.
pub fn choose_with(
    game: &Game,
    me: u8,
    lv: Level,
    draw: &mut dyn FnMut(u32) -> u32,
) -> Option<Move> {
    let roots = own_moves(game, me)?;
    if roots.len() <= 1 {
        return roots.first().copied();
    }
    let (known, _) = game.known_position(Some(me), Rank::Platoon);
    let belief = Belief::of(game, me);
    let mut s = Search::new(known.graph(), me, game.rules());
    let mut totals = vec![0i64; roots.len()];
    for done in 0..lv.draws {
        if done > 0 && s.nodes >= lv.budget {
            break;
        }
        let ranks = belief.sample(draw);
        let p = belief.position(&known, &ranks);
        let share = lv.budget / u64::from(lv.draws) / roots.len() as u64;
        for (i, &m) in roots.iter().enumerate() {
            // No one move may take more than its share of the budget.
            s.cap = s.nodes + share.max(50);
            let q = p.after(m, s.rules);
            let v = s.search(&q, 0, lv.plies, -WIN - 1, WIN + 1);
            // What the move does at once counts again: the search lets the
            // other armies only attack or pass, so it takes a gain put off
            // for later as certain when a quiet move could still stop it.
            totals[i] += i64::from(v) + i64::from(s.evaluate(&q) / 4);
        }
    }
    let best = (0..roots.len()).max_by_key(|&i| {
        let noise = if lv.noise > 0 {
            i64::from(draw(lv.noise * lv.draws + 1))
        } else {
            0
        };
        (totals[i] + noise, std::cmp::Reverse(i))
    })?;
    Some(roots[best])
}

/// `me`'s legal moves, when it is to move: they depend only on its own
/// pieces and where every piece stands, which it sees.
fn own_moves(game: &Game, me: u8) -> Option<Vec<Move>> {
    if game.ending().is_some() || game.position().turn() != me {
        return None;
    }
    Some(game.legal())
}

/// The one-ply baseline: the attack with the best expected outcome of its
/// clash over armies drawn from the belief (if that is a gain), else a
/// random move that attacks nothing (else any).
pub fn greedy(game: &Game, me: u8, draw: &mut dyn FnMut(u32) -> u32) -> Option<Move> {
    let moves = own_moves(game, me)?;
    let (known, hidden) = game.known_position(Some(me), Rank::Platoon);
    let belief = Belief::of(game, me);
    let samples: Vec<Position> = if hidden.is_empty() {
        vec![known.clone()]
    } else {
        (0..8)
            .map(|_| belief.position(&known, &belief.sample(draw)))
            .collect()
    };
    let mine_trades = game.rules().mine_trades;
    let mut best: Option<(i32, Move)> = None;
    let mut quiet = Vec::new();
    for &m in &moves {
        let Some(mover) = known.at(m.from) else {
            continue;
        };
        if known.at(m.to).is_none() {
            quiet.push(m);
            continue;
        }
        let total: i32 = samples
            .iter()
            .filter_map(|p| p.at(m.to))
            .map(|d| match clash(mover.rank, d.rank, mine_trades) {
                Clash::FlagTaken => OUT,
                Clash::AttackerWins => value(d.rank),
                Clash::BothRemoved => value(d.rank) - value(mover.rank),
                Clash::DefenderWins => -value(mover.rank),
            })
            .sum();
        let gain = total / samples.len().max(1) as i32;
        if gain > 0 && best.is_none_or(|(b, _)| gain > b) {
            best = Some((gain, m));
        }
    }
    if let Some((_, m)) = best {
        return Some(m);
    }
    let pool = if quiet.is_empty() { &moves } else { &quiet };
    pool.get(draw(pool.len() as u32) as usize % pool.len().max(1))
        .copied()
}

/// A uniformly random legal move (the weakest baseline).
pub fn random_move(game: &Game, me: u8, draw: &mut dyn FnMut(u32) -> u32) -> Option<Move> {
    let moves = own_moves(game, me)?;
    moves
        .get(draw(moves.len() as u32) as usize % moves.len().max(1))
        .copied()
}

/// A set-up for any seat at any level: the planned set-ups of
/// [`plan::designed`], in the own frame every four-army seat uses (S7).
pub fn setup(_level: u8, draw: &mut dyn FnMut(u32) -> u32) -> Setup {
    plan::designed(Side::Red, draw)
}
