//! The Tiaoqi AI: an evaluation, alpha-beta for two players, Best-Reply
//! Search and paranoid search for three to six, and levels 1-8.
//!
//! The module is pure: no I/O and no clock. Budgets are node counts, so a
//! search gives the same move on every machine, and the only randomness is
//! a pseudo-random stream drawn from the seed passed in.
//!
//! - [`evaluate`] scores a position for one seat from [`weights`]: rows to go,
//!   the rearmost piece, the spread between front and back, pieces home and
//!   forward jumps ready to be made.
//! - Two players: negamax with alpha-beta, iterative deepening, moves ordered
//!   by forward gain (the transposition table's move first), a transposition
//!   table keyed by a Zobrist hash ([`hash`]) and a node budget.
//! - Three to six: [`Method::Brs`] (Best-Reply Search, Schadd & Winands
//!   2011: the root player's moves alternate with the single best reply of
//!   all opponents together) or [`Method::Paranoid`] (every opponent in turn
//!   minimises the root player's score). The `ai_match` example (in `qiyuan-lab`) compares
//!   them; Best-Reply Search is the default.
//! - A pass is searched only when the side has no forward move.

use crate::game::Game;
use crate::geometry::{CELLS, Cell, JUMPS, Seat, cells};
use crate::position::{Move, Position};

/// The evaluation's terms, in points (one row to go costs [`DISTANCE`]).
pub mod weights {
    /// Each row still to go, summed over the side's pieces (T9 distance).
    pub const DISTANCE: i32 = 100;
    /// Each row to go of the rearmost piece: no piece is left behind.
    pub const REARMOST: i32 = 24;
    /// Each row between the rearmost and the foremost piece: the side
    /// travels as a group, which keeps its ladders for jumps.
    pub const SPREAD: i32 = 8;
    /// Each piece already inside the target camp.
    pub const HOME: i32 = 20;
    /// Each piece with a forward jump ready (jump potential, mobility).
    pub const JUMP: i32 = 12;
    /// A filled target (T8), less one per ply so that sooner is better.
    pub const WIN: i32 = 1_000_000;
    /// The share, in percent, of the best opponent's score taken off the
    /// root player's in a multi-player evaluation, by players in play. In
    /// `ai_match` (level 8, one seat, greedy players elsewhere; firsts)
    /// 4 players did best with a small share (100: 76 % of 50 games,
    /// 25: 100 % of 20, 0: 100 % of 40) and 6 players with the full share
    /// (100: 100 % of 50, 25: 80 % of 20, 0: 67 % of 18); 3 players did as
    /// well with 100 (50 of 50) as with 0 (18 of 18).
    pub const OPPONENT_PERCENT: [i32; 7] = [0, 0, 100, 100, 25, 100, 100];
}

use weights::*;

/// Search method for three to six players in play.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Method {
    /// Best-Reply Search: the root player's moves alternate with the one
    /// best reply of all its opponents together (the default).
    Brs,
    /// Paranoid: every opponent in turn minimises the root player's score.
    Paranoid,
}

/// The default method for three to six players (the stronger in
/// `ai_match`).
pub const DEFAULT_METHOD: Method = Method::Brs;

/// What a level searches.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LevelSpec {
    /// Nodes the search may visit; 0 plays the greedy move.
    pub nodes: u64,
    /// Deepest iteration (plies; in Best-Reply Search a reply is a ply).
    pub max_depth: u32,
    /// Moves searched below the root, best forward gain first.
    pub width: usize,
    /// Largest random bonus, in points, given to each root move.
    pub noise: i32,
}

/// Levels 1-8: level 1 is the greedy player with noise; the budgets rise
/// to level 8 (80 000 nodes, a few hundred ms a move in a release build).
pub fn level_spec(level: u8) -> LevelSpec {
    let (nodes, max_depth, width, noise) = match level {
        0 | 1 => (0, 0, 0, 150),
        2 => (400, 2, 8, 60),
        3 => (1_500, 3, 10, 25),
        4 => (4_000, 5, 10, 10),
        5 => (10_000, 6, 12, 0),
        6 => (20_000, 8, 12, 0),
        7 => (40_000, 10, 14, 0),
        _ => (80_000, 12, 14, 0),
    };
    LevelSpec {
        nodes,
        max_depth,
        width,
        noise,
    }
}

/// The move for the side to move at `level` (1-8) with the default method,
/// or `None` once the game is over.
pub fn choose(game: &Game, level: u8, seed: u64) -> Option<Move> {
    choose_with(game, level, seed, DEFAULT_METHOD)
}

/// [`choose`] with the given method for three to six players in play.
pub fn choose_with(game: &Game, level: u8, seed: u64, method: Method) -> Option<Move> {
    game.turn()?;
    let p = game.position();
    let legal = game.legal();
    if legal.len() <= 1 {
        return legal.first().copied();
    }
    // A move that fills the target wins at once (T8), at every level.
    let me = p.turn();
    if let Some(&m) = legal
        .iter()
        .find(|&&m| m != Move::Pass && p.after(m).has_reached_target(me))
    {
        return Some(m);
    }
    // T9: once a dead game is declared, moving the rearmost piece forward
    // within five moves is a duty (or the game is lost) and the first to do
    // it earns a half step: do it now, the best such move by evaluation.
    if game.dead_countdown(me).is_some()
        && let Some(&m) = legal
            .iter()
            .filter(|&&m| p.moves_rearmost_forward(m))
            .max_by_key(|&&m| evaluate(&p.after(m), me))
    {
        return Some(m);
    }
    let spec = level_spec(level);
    let mut rng = Rng(seed ^ hash(p));
    if spec.nodes == 0 {
        return noisy_greedy(p, &legal, spec.noise, &mut rng);
    }
    let mut s = Search::new(spec, p.turn(), method);
    s.root(p, &mut rng)
}

/// One root move of [`analyse`]: its value for the side to move (points,
/// as [`evaluate`]; near [`weights::WIN`] a forced win, near minus it a
/// forced loss) and the depth it was searched to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The move.
    pub mv: Move,
    /// Its value for the side to move.
    pub score: i32,
    /// Plies searched below it (0: not searched, a static guess).
    pub depth: u32,
}

/// What [`analyse`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The best moves, best first.
    pub lines: Vec<Line>,
    /// The deepest iteration completed.
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
}

/// The side to move's `lines` best moves as the AI sees them (the analysis
/// board's engine): the search [`choose`] runs, with `spec`'s node budget,
/// depth and width, and its method for three to six players, but each root
/// move searched against the `lines`-th best so far (MultiPV) instead of
/// the best. With one line and a `spec` without noise the first move is
/// the one [`choose_with`] plays with that spec. `None` once the game is over.
pub fn analyse(game: &Game, spec: LevelSpec, method: Method, lines: usize) -> Option<Analysis> {
    game.turn()?;
    let p = game.position();
    let legal = game.legal();
    if legal.len() <= 1 {
        let lines = legal
            .first()
            .map(|&m| Line {
                mv: m,
                score: evaluate_for(&p.after(m), p.turn()),
                depth: 0,
            })
            .into_iter()
            .collect();
        return Some(Analysis {
            lines,
            depth: 0,
            nodes: 0,
        });
    }
    let mut rng = Rng(hash(p));
    let mut s = Search::new(spec, p.turn(), method);
    let (mut found, depth) = s.ranked(p, &mut rng, lines);
    if found.is_empty()
        && let Some(&m) = ordered(p, None, 0).first()
    {
        found.push(Line {
            mv: m,
            score: evaluate_for(&p.after(m), p.turn()),
            depth: 0,
        });
    }
    Some(Analysis {
        lines: found,
        depth,
        nodes: s.nodes,
    })
}

/// The greedy one-ply player: the move that gains the most rows, then the
/// one that leaves the rearmost piece least far behind; a pass only when
/// every move goes backwards. The baseline the levels are measured against.
pub fn greedy(p: &Position) -> Option<Move> {
    let me = p.turn();
    p.legal_moves().into_iter().max_by_key(|&m| {
        let after = p.after(m);
        let gain = i64::from(p.total_distance(me)) - i64::from(after.total_distance(me));
        let rear = -i64::from(after.rearmost_distance(me));
        (gain, rear, !matches!(m, Move::Pass))
    })
}

fn noisy_greedy(p: &Position, legal: &[Move], noise: i32, rng: &mut Rng) -> Option<Move> {
    let me = p.turn();
    legal
        .iter()
        .copied()
        .map(|m| {
            let after = p.after(m);
            let gain = DISTANCE * (gain_of(me, m));
            let rear = -REARMOST * after.rearmost_distance(me) as i32;
            let pass = if m == Move::Pass { -10 * DISTANCE } else { 0 };
            (gain + rear + pass + rng.below(noise), m)
        })
        .max_by_key(|(v, _)| *v)
        .map(|(_, m)| m)
}

/// Rows `m` gains for `seat` (negative backwards, 0 for a pass).
fn gain_of(seat: Seat, m: Move) -> i32 {
    match m {
        Move::Go { from, to } => seat.rows_to_go(from) as i32 - seat.rows_to_go(to) as i32,
        Move::Pass => 0,
    }
}

/// `seat`'s score in `p` (higher is better), from [`weights`].
pub fn evaluate(p: &Position, seat: Seat) -> i32 {
    let own = p.pieces(seat);
    if own == 0 {
        return 0;
    }
    let target = seat.target(p.setup().pieces());
    let (mut total, mut rear, mut front) = (0i32, 0i32, i32::MAX);
    for c in cells(own) {
        let d = seat.rows_to_go(c) as i32;
        total += d;
        rear = rear.max(d);
        front = front.min(d);
    }
    let home = (own & target).count_ones() as i32;
    -DISTANCE * total - REARMOST * rear - SPREAD * (rear - front)
        + HOME * home
        + JUMP * forward_jumps(p, seat)
}

/// Pieces of `seat` with a single forward jump ready.
fn forward_jumps(p: &Position, seat: Seat) -> i32 {
    let occ = p.occupied();
    let land_ok = !occ & seat.allowed();
    let mut n = 0;
    for c in cells(p.pieces(seat)) {
        let d = seat.rows_to_go(c);
        let (hops, k) = &JUMPS[c.index()];
        n += i32::from(hops[..usize::from(*k)].iter().any(|&(over, land)| {
            occ >> over & 1 != 0
                && land_ok >> land & 1 != 0
                && Cell::from_index(usize::from(land)).is_some_and(|l| seat.rows_to_go(l) < d)
        }));
    }
    n
}

/// The root player's view of a multi-player position: its score less the
/// best opponent's (a share by [`weights::OPPONENT_PERCENT`]).
fn evaluate_for(p: &Position, root: Seat) -> i32 {
    let best_opp = p
        .in_play()
        .filter(|&s| s != root)
        .map(|s| evaluate(p, s))
        .max()
        .unwrap_or(0);
    let share = OPPONENT_PERCENT
        .get(p.players_in_play())
        .copied()
        .unwrap_or(100);
    evaluate(p, root) - best_opp * share / 100
}

const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Zobrist keys: one per seat and hole, then one per seat to move.
const ZOBRIST: [[u64; CELLS + 1]; 6] = {
    let mut t = [[0u64; CELLS + 1]; 6];
    let mut s = 0;
    while s < 6 {
        let mut c = 0;
        while c <= CELLS {
            t[s][c] = splitmix((s * 1000 + c) as u64 + 0x5151);
            c += 1;
        }
        s += 1;
    }
    t
};

/// The Zobrist hash of a position: pieces and the seat to move (the T7
/// counters are left out).
pub fn hash(p: &Position) -> u64 {
    let mut h = ZOBRIST[p.turn().index()][CELLS];
    for s in Seat::ALL {
        for c in cells(p.pieces(s)) {
            h ^= ZOBRIST[s.index()][c.index()];
        }
    }
    h
}

/// The hash after `m` by the side to move of `p`, whose hash is `h`.
fn hash_after(p: &Position, child: &Position, h: u64, m: Move) -> u64 {
    let s = p.turn().index();
    let mut h = h ^ ZOBRIST[s][CELLS] ^ ZOBRIST[child.turn().index()][CELLS];
    if let Move::Go { from, to } = m {
        h ^= ZOBRIST[s][from.index()] ^ ZOBRIST[s][to.index()];
    }
    h
}

/// A small pseudo-random stream (splitmix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(1);
        splitmix(self.0)
    }
    /// A number in `0..=n` (0 when `n` is 0 or less).
    fn below(&mut self, n: i32) -> i32 {
        if n <= 0 {
            0
        } else {
            (self.next() % (n as u64 + 1)) as i32
        }
    }
}

/// The side to move's moves, best forward gain first (ties: the piece
/// furthest behind first), `first` (a remembered best move) at the front,
/// at most `width` of them (0: all). A pass is added only when no move
/// gains a row, or when there is no other move.
fn ordered(p: &Position, first: Option<Move>, width: usize) -> Vec<Move> {
    let me = p.turn();
    let mut moves = p.legal_moves();
    moves.retain(|&m| m != Move::Pass);
    let key = |m: &Move| match *m {
        Move::Go { from, .. } => (
            std::cmp::Reverse(gain_of(me, *m)),
            std::cmp::Reverse(me.rows_to_go(from)),
        ),
        Move::Pass => (std::cmp::Reverse(i32::MIN), std::cmp::Reverse(0)),
    };
    moves.sort_by_key(key);
    if let Some(f) = first
        && let Some(i) = moves.iter().position(|&m| m == f)
    {
        moves[..=i].rotate_right(1);
    }
    if width > 0 {
        moves.truncate(width);
    }
    if moves.first().is_none_or(|&m| gain_of(me, m) <= 0) {
        moves.push(Move::Pass);
    }
    moves
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Copy, Clone)]
struct Entry {
    key: u64,
    depth: u32,
    score: i32,
    bound: Bound,
    best: Option<Move>,
}

/// Transposition table slots (a power of two).
const TT_SLOTS: usize = 1 << 16;
const INF: i32 = i32::MAX / 2;

struct Search {
    spec: LevelSpec,
    root: Seat,
    method: Method,
    nodes: u64,
    aborted: bool,
    tt: Vec<Option<Entry>>,
}

impl Search {
    fn new(spec: LevelSpec, root: Seat, method: Method) -> Search {
        Search {
            spec,
            root,
            method,
            nodes: 0,
            aborted: false,
            tt: Vec::new(),
        }
    }

    /// Counts a node; false once the budget is spent.
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes > self.spec.nodes {
            self.aborted = true;
        }
        !self.aborted
    }

    /// Iterative deepening at the root; the best move of the deepest
    /// iteration that got far enough to be trusted.
    fn root(&mut self, p: &Position, rng: &mut Rng) -> Option<Move> {
        let fallback = ordered(p, None, 0).first().copied();
        self.ranked(p, rng, 1).0.first().map(|l| l.mv).or(fallback)
    }

    /// Iterative deepening at the root, keeping the `lines` best moves:
    /// each iteration searches a root move with the `lines`-th best value
    /// found so far as its lower bound, so the best `lines` get exact values
    /// and the rest only bounds (with one line this is plain alpha-beta).
    /// The lines of the deepest iteration, best first; an iteration the
    /// budget cut short puts the moves it did search first, then the rest
    /// of the one before. Also the depth of the deepest complete iteration.
    fn ranked(&mut self, p: &Position, rng: &mut Rng, lines: usize) -> (Vec<Line>, u32) {
        let lines = lines.max(1);
        let two = p.players_in_play() == 2;
        if two {
            self.tt = vec![None; TT_SLOTS];
        }
        let mut moves = ordered(p, None, 0);
        let noise: Vec<i32> = moves.iter().map(|_| rng.below(self.spec.noise)).collect();
        let mut noise_of: Vec<(Move, i32)> = moves.iter().copied().zip(noise).collect();
        noise_of.sort();
        let bonus = |m: Move| {
            noise_of
                .binary_search_by_key(&m, |x| x.0)
                .map_or(0, |i| noise_of[i].1)
        };
        let mut out: Vec<Line> = Vec::new();
        let mut done_depth = 0;
        let h = hash(p);
        // Two players: odd depths only (each iteration ends on the root
        // side's move); mixing parities made level 6 lose to level 5 (ai_ladder).
        for depth in (1..=self.spec.max_depth.max(1)).step_by(if two { 2 } else { 1 }) {
            // This iteration's values, in the order searched.
            let mut found: Vec<Line> = Vec::new();
            for &m in &moves {
                // The lower bound: the `lines`-th best value so far.
                let alpha = if found.len() >= lines {
                    let mut v: Vec<i32> = found.iter().map(|l| l.score).collect();
                    v.sort_unstable_by(|a, b| b.cmp(a));
                    v[lines - 1]
                } else {
                    -INF
                };
                let child = p.after(m);
                let v = if child.has_reached_target(self.root) && m != Move::Pass {
                    WIN
                } else if two {
                    let a = if self.spec.noise > 0 { -INF } else { alpha };
                    -self.negamax(&child, hash_after(p, &child, h, m), depth - 1, 1, -INF, -a)
                } else {
                    let a = if self.spec.noise > 0 { -INF } else { alpha };
                    self.multi(&child, depth - 1, 1, a, INF, false)
                };
                if self.aborted {
                    break;
                }
                found.push(Line {
                    mv: m,
                    score: v.saturating_add(bonus(m)),
                    depth,
                });
            }
            // Best first; ties keep the order searched (the earlier one's
            // value is exact, a later equal one only a bound).
            found.sort_by_key(|l| std::cmp::Reverse(l.score));
            if !self.aborted {
                done_depth = depth;
                out = found;
            } else if !found.is_empty() {
                let rest: Vec<Line> = out
                    .iter()
                    .filter(|l| !found.iter().any(|f| f.mv == l.mv))
                    .copied()
                    .collect();
                out = found;
                out.extend(rest);
            }
            if let Some(best) = out.first() {
                // The best first next time, the rest in gain order.
                if let Some(i) = moves.iter().position(|&x| x == best.mv) {
                    moves[..=i].rotate_right(1);
                }
                if best.score >= WIN - 1000 {
                    break;
                }
            }
            if self.aborted {
                break;
            }
        }
        out.truncate(lines);
        (out, done_depth)
    }

    /// Negamax with alpha-beta and the transposition table (two players):
    /// the side to move's score.
    fn negamax(
        &mut self,
        p: &Position,
        h: u64,
        depth: u32,
        ply: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        if !self.tick() {
            return 0;
        }
        let me = p.turn();
        if depth == 0 {
            return evaluate(p, me) - evaluate(p, p.next_after(me));
        }
        let slot = (h as usize) & (TT_SLOTS - 1);
        let mut first = None;
        if let Some(e) = self.tt[slot]
            && e.key == h
        {
            first = e.best;
            if e.depth >= depth {
                match e.bound {
                    Bound::Exact => return e.score,
                    Bound::Lower if e.score >= beta => return e.score,
                    Bound::Upper if e.score <= alpha => return e.score,
                    _ => {}
                }
            }
        }
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = None;
        for m in ordered(p, first, self.spec.width) {
            let child = p.after(m);
            let v = if m != Move::Pass && child.has_reached_target(me) {
                WIN - ply
            } else {
                -self.negamax(
                    &child,
                    hash_after(p, &child, h, m),
                    depth - 1,
                    ply + 1,
                    -beta,
                    -alpha,
                )
            };
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_move = Some(m);
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.tt[slot] = Some(Entry {
            key: h,
            depth,
            score: best,
            bound,
            best: best_move,
        });
        best
    }

    /// Three or more in play: the root player's score by the method.
    /// `root_to_move` tells a Best-Reply max layer from a min layer.
    fn multi(
        &mut self,
        p: &Position,
        depth: u32,
        ply: i32,
        alpha: i32,
        beta: i32,
        root_to_move: bool,
    ) -> i32 {
        match self.method {
            Method::Brs => self.brs(p, depth, ply, alpha, beta, root_to_move),
            Method::Paranoid => self.paranoid(p, depth, ply, alpha, beta),
        }
    }

    /// Best-Reply Search: at a max layer the root player moves; at a min
    /// layer every opponent's moves are tried and the one worst for the
    /// root player is its reply, the others standing still.
    fn brs(
        &mut self,
        p: &Position,
        depth: u32,
        ply: i32,
        mut alpha: i32,
        mut beta: i32,
        root_to_move: bool,
    ) -> i32 {
        if !self.tick() {
            return 0;
        }
        if depth == 0 || !p.is_in_play(self.root) {
            return evaluate_for(p, self.root);
        }
        let root = self.root;
        if root_to_move {
            let mut q = p.clone();
            q.turn = root;
            let mut best = -INF;
            for m in ordered(&q, None, self.spec.width) {
                let mut child = q.after(m);
                let v = if m != Move::Pass && child.has_reached_target(root) {
                    WIN - ply
                } else {
                    child.turn = root;
                    self.brs(&child, depth - 1, ply + 1, alpha, beta, false)
                };
                if self.aborted {
                    return 0;
                }
                best = best.max(v);
                alpha = alpha.max(v);
                if alpha >= beta {
                    break;
                }
            }
            return best;
        }
        // The replies, each opponent's best forward moves, merged by gain;
        // each opponent's move generation counts as a node.
        self.nodes += p.players_in_play().saturating_sub(2) as u64;
        let mut replies: Vec<(i32, Seat, Move)> = Vec::new();
        for o in p.in_play().filter(|&s| s != root) {
            let mut q = p.clone();
            q.turn = o;
            for m in ordered(&q, None, self.spec.width / 2 + 1) {
                replies.push((gain_of(o, m), o, m));
            }
        }
        replies.sort_by_key(|r| std::cmp::Reverse(r.0));
        replies.truncate(self.spec.width.max(1));
        let mut best = INF;
        for (_, o, m) in replies {
            let mut q = p.clone();
            q.turn = o;
            let mut child = q.after(m);
            let v = if m != Move::Pass && child.has_reached_target(o) {
                -WIN + ply
            } else {
                child.turn = root;
                self.brs(&child, depth - 1, ply + 1, alpha, beta, true)
            };
            if self.aborted {
                return 0;
            }
            best = best.min(v);
            beta = beta.min(v);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// Paranoid search: play goes round in turn order; the root player
    /// maximises its score and every opponent minimises it.
    fn paranoid(
        &mut self,
        p: &Position,
        depth: u32,
        ply: i32,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        if !self.tick() {
            return 0;
        }
        if depth == 0 || !p.is_in_play(self.root) {
            return evaluate_for(p, self.root);
        }
        let me = p.turn();
        let maxing = me == self.root;
        let mut best = if maxing { -INF } else { INF };
        for m in ordered(p, None, self.spec.width) {
            let child = p.after(m);
            let v = if m != Move::Pass && child.has_reached_target(me) {
                if maxing { WIN - ply } else { -WIN + ply }
            } else {
                self.paranoid(&child, depth - 1, ply + 1, alpha, beta)
            };
            if self.aborted {
                return 0;
            }
            if maxing {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Setup;

    #[test]
    fn the_hash_after_a_move_is_the_hash_of_the_child() {
        let p = Position::start(Setup::new(3, 10).expect("setup"));
        let h = hash(&p);
        for m in p.legal_moves() {
            let c = p.after(m);
            assert_eq!(hash_after(&p, &c, h, m), hash(&c), "{m}");
        }
    }

    #[test]
    fn ordering_puts_the_biggest_gain_first_and_pass_only_without_gain() {
        let p = Position::start(Setup::new(2, 10).expect("setup"));
        let m = ordered(&p, None, 0);
        assert!(!m.contains(&Move::Pass));
        let gains: Vec<i32> = m.iter().map(|&x| gain_of(p.turn(), x)).collect();
        assert!(gains.windows(2).all(|w| w[0] >= w[1]), "{gains:?}");
    }
}
