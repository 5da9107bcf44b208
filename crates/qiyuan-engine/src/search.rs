//! The search: iterative deepening over a principal-variation alpha-beta
//! search with aspiration windows, a transposition table, quiescence search,
//! check extensions, null-move pruning, late-move reductions and killer /
//! history move ordering.
//!
//! Jifen: after a move the side to move may be the same player (the first
//! move of a contest double turn), so whether a child's score is negated
//! follows [`Position::side_to_move`], never ply parity. A score at the
//! target ends the game at once (J17) and is scored like a mate; having no
//! legal move at the start of a turn loses (X1, J18).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};
use std::time::Duration;

use crate::time::Instant;

use qiyuan_xiangqi::{Move, MoveList, PieceKind, Position, Undo};

use crate::eval::evaluate;
use crate::movepick::{MAX_PLY, Ordering, is_capture, is_losing_capture, piece_to};
use crate::nnue::{Accumulator, Network};
use crate::rep::{Earlier, RepetitionStack, Verdict};
use crate::see::{exchange_value, see_ge};
use crate::time::{self, Clock};
use crate::tt::{self, Bound, TransTable};

/// Larger than any score.
pub const INF: i32 = 32000;
/// The score of winning now; a win in `n` plies scores `MATE - n`.
pub const MATE: i32 = 31000;
/// Scores at least this large (in absolute value) are wins or losses.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// The score of a draw (repetition, move limit).
pub const DRAW: i32 = 0;
/// Plies without capture or score change after which the game is drawn (X4, J20).
const MOVE_LIMIT: u32 = 300;

/// What bounds a search. No limit at all means "until stopped".
#[derive(Clone, Debug, Default)]
pub struct SearchLimits {
    /// Maximum iteration depth.
    pub depth: Option<i32>,
    /// Maximum nodes (checked at every node, so node-limited searches are
    /// deterministic).
    pub nodes: Option<u64>,
    /// Fixed thinking time for this move.
    pub movetime: Option<Duration>,
    /// Clock-based thinking time (base + increment).
    pub clock: Option<Clock>,
    /// Root moves not to play while another is legal: moves the rules'
    /// full repetition ruling would lose (see [`crate::rep::losing_repetitions`]).
    pub excluded: Vec<Move>,
}

/// Search features that can be switched off, for SPRT tests of each one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Null-move pruning.
    pub null_move: bool,
    /// Late-move reductions.
    pub lmr: bool,
    /// Aspiration windows at the root.
    pub aspiration: bool,
    /// Check extensions.
    pub check_extension: bool,
    /// Killer and history move ordering.
    pub history: bool,
    /// Reverse futility pruning and razoring: cut or drop to quiescence when
    /// the static evaluation is far outside the window near the leaves.
    pub static_pruning: bool,
    /// Futility pruning and late-move pruning of quiet moves near the leaves.
    pub move_pruning: bool,
    /// Quiescence: skip captures that lose material to a recapture, and
    /// captures that cannot lift the score to alpha (delta pruning).
    pub qsearch_pruning: bool,
    /// Transposition table probes and stores in quiescence.
    pub qsearch_tt: bool,
    /// Losing captures (see [`is_losing_capture`]) skipped near the leaves.
    pub capture_pruning: bool,
    /// Singular extensions: the table move is searched a ply deeper when
    /// every other move falls well short of its score (a reduced search
    /// without it), and the node is cut when even without it two moves beat beta.
    pub singular_extension: bool,
    /// The NNUE evaluation ([`crate::nnue`]) instead of the tuned linear one,
    /// in plain Xiangqi (Jifen always uses the linear evaluation): +157 Elo
    /// at 2+0.05 (docs/engine.md).
    pub nnue: bool,
}

impl Default for Features {
    fn default() -> Self {
        Features {
            null_move: true,
            lmr: true,
            aspiration: true,
            check_extension: true,
            history: true,
            static_pruning: true,
            move_pruning: true,
            qsearch_pruning: true,
            qsearch_tt: true,
            capture_pruning: true,
            // Measured about even at 2+0.05 (docs/engine.md, round 3): off
            // until an SPRT says otherwise.
            singular_extension: false,
            nnue: true,
        }
    }
}

/// Progress of an iteration, for `info` lines.
#[derive(Clone, Debug)]
pub struct SearchInfo<'a> {
    /// Iteration depth.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: usize,
    /// Score for the side to move at the root.
    pub score: i32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Principal variation.
    pub pv: &'a [Move],
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play; `None` only without a legal move.
    pub best: Option<Move>,
    /// Its score for the side to move.
    pub score: i32,
    /// Last completed iteration depth.
    pub depth: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// Principal variation of the last completed iteration.
    pub pv: Vec<Move>,
}

/// A searcher: owns the transposition table and the ordering tables, which
/// persist from move to move of a game.
pub struct Searcher {
    /// The transposition table.
    pub tt: TransTable,
    /// Which search features are on.
    pub features: Features,
    ord: Ordering,
    stop: Arc<AtomicBool>,
    nodes: u64,
    node_limit: u64,
    hard_deadline: Option<Instant>,
    aborted: bool,
    root_depth: i32,
    seldepth: usize,
    rep: RepetitionStack,
    pv: Vec<[Move; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    lmr: [[i32; 64]; 64],
    /// Static evaluation at each ply of the current path (`-INF` in check),
    /// for the "improving" test.
    evals: [i32; MAX_PLY],
    /// Root moves the current search does not play.
    excluded: Vec<Move>,
    /// The move made at each ply of the current path, as a
    /// [`piece_to`] index (`None` for null moves and passes).
    path: [Option<u16>; MAX_PLY],
    /// The move a singular-extension test leaves out at each ply (`None`:
    /// an ordinary node).
    skipped: [Option<Move>; MAX_PLY],
    /// The NNUE accumulators at each ply of the current path, while the
    /// current search uses the network.
    acc: Vec<Accumulator>,
    /// Whether the current search evaluates with the network.
    use_nnue: bool,
}

/// Whether a UCI-style mate score: plies to the win (positive) or loss.
pub fn mate_in_plies(score: i32) -> Option<i32> {
    if score >= MATE_BOUND {
        Some(MATE - score)
    } else if score <= -MATE_BOUND {
        Some(-(MATE + score))
    } else {
        None
    }
}

/// J17: a score at the target has ended the game; the verdict for the side to move.
#[inline]
fn points_verdict(pos: &Position, ply: usize) -> Option<i32> {
    if !pos.variant().is_jifen() {
        return None;
    }
    let s = pos.scores();
    let us = pos.side_to_move().index();
    if s[us] >= pos.target() {
        Some(MATE - ply as i32)
    } else if s[1 - us] >= pos.target() {
        Some(-(MATE - ply as i32))
    } else {
        None
    }
}

/// Whether the side to move has a piece that can make threats on its own
/// (chariot, horse or cannon able to capture): without one, zugzwang is
/// common and the null move is unsound.
fn has_attacking_pieces(pos: &Position) -> bool {
    pos.pieces(pos.side_to_move()).any(|(_, p)| {
        matches!(
            p.kind(),
            PieceKind::Rook | PieceKind::Horse | PieceKind::Cannon
        ) && p.class() != qiyuan_xiangqi::Class::Idle
    })
}

/// Jifen: whether `m` (a non-capture) scores a point for the mover that
/// would reach the target: such moves are searched in quiescence too.
fn wins_on_points(pos: &Position, m: Move) -> bool {
    if m.is_pass() {
        return false;
    }
    let us = pos.side_to_move().index();
    let Some(p) = pos.piece_at(m.from()) else {
        return false;
    };
    pos.scores()[us] + pos.variant().score(p.class(), false).mover >= pos.target()
}

/// Moves searched at `depth` before the remaining quiet moves are skipped
/// (late-move pruning): many more when the position is improving.
#[inline]
fn late_move_limit(depth: i32, improving: bool) -> usize {
    // Xiangqi has about 40 moves a position, more than chess: chess's
    // (3 + d²) pruned needed defences in early tests.
    let n = (5 + 2 * depth * depth) as usize;
    if improving { n } else { n / 2 }
}

impl Default for Searcher {
    fn default() -> Self {
        Searcher::new(16)
    }
}

impl Searcher {
    /// A searcher with a transposition table of `hash_mb` mebibytes.
    pub fn new(hash_mb: usize) -> Searcher {
        let mut lmr = [[0; 64]; 64];
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (i, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.5 + (d as f64).ln() * (i as f64).ln() / 2.25) as i32;
            }
        }
        Searcher {
            tt: TransTable::new(hash_mb),
            features: Features::default(),
            ord: Ordering::default(),
            stop: Arc::new(AtomicBool::new(false)),
            nodes: 0,
            node_limit: u64::MAX,
            hard_deadline: None,
            aborted: false,
            root_depth: 0,
            seldepth: 0,
            rep: RepetitionStack::default(),
            pv: vec![[Move::PASS; MAX_PLY]; MAX_PLY],
            pv_len: [0; MAX_PLY],
            lmr,
            evals: [-INF; MAX_PLY],
            excluded: Vec::new(),
            path: [None; MAX_PLY],
            skipped: [None; MAX_PLY],
            acc: Vec::new(),
            use_nnue: false,
        }
    }

    /// Sets up the NNUE accumulators for a search from `pos` (or turns the
    /// network off for it: switched off, or a Jifen position).
    fn start_nnue(&mut self, pos: &Position) {
        self.use_nnue = self.features.nnue && !pos.variant().is_jifen();
        if self.use_nnue {
            let root = Accumulator::new(Network::embedded(), pos);
            self.acc.clear();
            self.acc.resize(MAX_PLY + 1, root);
        }
    }

    /// The static evaluation of `pos`, at `ply` of the current path.
    #[inline]
    fn evaluate_at(&self, pos: &Position, ply: usize) -> i32 {
        if self.use_nnue {
            Network::embedded().evaluate(&self.acc[ply], pos.side_to_move())
        } else {
            evaluate(pos)
        }
    }

    /// Plays `m` at `ply`, updating the accumulators of `ply + 1`.
    #[inline]
    fn make(&mut self, pos: &mut Position, m: Move, ply: usize) -> Undo {
        let undo = pos.make_move(m);
        if self.use_nnue && ply < MAX_PLY {
            let next = self.acc[ply].after_move(Network::embedded(), pos, m, undo.captured());
            self.acc[ply + 1] = next;
        }
        undo
    }

    /// The flag that stops a running search (UCI `stop`).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Forgets everything learnt (new game; deterministic benchmarks).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.ord.clear();
    }

    /// Searches `pos` within `limits`. `history` holds the keys of the game's
    /// earlier positions, oldest first. `info` is called after each iteration.
    pub fn search(
        &mut self,
        pos: &Position,
        history: &[Earlier],
        limits: &SearchLimits,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let start = Instant::now();
        let mut pos = pos.clone();
        let (soft, hard) = match (limits.movetime, limits.clock) {
            (Some(t), _) => {
                let (s, h) = time::fixed(t);
                (Some(s), Some(h))
            }
            (None, Some(c)) => {
                let (s, h) = time::allocate(c);
                (Some(s), Some(h))
            }
            (None, None) => (None, None),
        };
        self.hard_deadline = hard.map(|h| start + h);
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.nodes = 0;
        self.aborted = false;
        self.seldepth = 0;
        self.tt.new_search();
        self.ord.new_search();
        self.rep = RepetitionStack::from_history(history);
        self.start_nnue(&pos);
        let mut result = SearchResult {
            best: None,
            score: 0,
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
        };
        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            return result;
        }
        self.excluded.clear();
        if moves.iter().any(|m| !limits.excluded.contains(m)) {
            self.excluded.extend_from_slice(&limits.excluded);
            moves.retain(|m| !self.excluded.contains(m));
        }
        // Something legal to play even if the very first iteration is cut short.
        result.best = Some(moves[0]);
        let max_depth = limits.depth.unwrap_or(100).clamp(1, MAX_PLY as i32 / 2);
        let mut prev: i32 = 0;
        for d in 1..=max_depth {
            self.root_depth = d;
            self.seldepth = 0;
            let v = if self.features.aspiration && d >= 4 && prev.abs() < MATE_BOUND {
                self.aspiration(&mut pos, d, prev)
            } else {
                self.negamax(&mut pos, d, -INF, INF, 0, false)
            };
            if self.aborted {
                break;
            }
            prev = v;
            result.score = v;
            result.depth = d;
            result.pv = self.pv[0][..self.pv_len[0]].to_vec();
            if let Some(&m) = result.pv.first() {
                result.best = Some(m);
            }
            info(&SearchInfo {
                depth: d,
                seldepth: self.seldepth,
                score: v,
                nodes: self.nodes,
                elapsed: start.elapsed(),
                pv: &result.pv,
            });
            if let Some(s) = soft {
                // The next iteration takes longer than all before it together.
                if start.elapsed() * 2 > s || moves.len() == 1 {
                    break;
                }
            }
            // A forced win or loss found well within the searched depth will
            // not change: the pruning near the leaves (about 7 plies deep)
            // can hide a shorter mate only until the depth exceeds it by that.
            if let Some(n) = mate_in_plies(v)
                && n.abs() + 8 < d
                && limits.depth.is_none()
            {
                break;
            }
        }
        result.nodes = self.nodes;
        result
    }

    /// Searches the root with a window around the last score, widening on failure.
    fn aspiration(&mut self, pos: &mut Position, depth: i32, prev: i32) -> i32 {
        let mut delta = 40;
        let mut alpha = (prev - delta).max(-INF);
        let mut beta = (prev + delta).min(INF);
        loop {
            let v = self.negamax(pos, depth, alpha, beta, 0, false);
            if self.aborted {
                return v;
            }
            if v <= alpha {
                alpha = (v - delta).max(-INF);
            } else if v >= beta {
                beta = (v + delta).min(INF);
            } else {
                return v;
            }
            delta *= 3;
            if delta > 800 {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    /// Scores every root move but the `excluded` ones with a full window at
    /// `depth` (used by the weaker levels, which pick among near-best moves
    /// at random); `None` when `deadline` passes first.
    pub fn score_root_moves(
        &mut self,
        pos: &Position,
        history: &[Earlier],
        excluded: &[Move],
        depth: i32,
        deadline: Instant,
    ) -> Option<Vec<(Move, i32)>> {
        let mut pos = pos.clone();
        self.rep = RepetitionStack::from_history(history);
        self.start_nnue(&pos);
        self.aborted = false;
        // Depth 2 or more so that the deadline is honoured from the first node.
        self.root_depth = depth.max(2);
        self.hard_deadline = Some(deadline);
        self.node_limit = u64::MAX;
        let us = pos.side_to_move();
        let mut out = Vec::new();
        let mut moves = pos.legal_moves();
        if moves.iter().any(|m| !excluded.contains(m)) {
            moves.retain(|m| !excluded.contains(m));
        }
        for m in moves {
            self.rep.push(pos.hash(), crate::rep::is_capture(&pos, m));
            let scores = pos.scores();
            let undo = self.make(&mut pos, m, 0);
            let same = pos.side_to_move() == us;
            self.rep
                .mark_last(us, !same && pos.in_check(), pos.scores() != scores);
            let v = self.child(&mut pos, same, depth - 1, -INF, INF, 0);
            pos.unmake_move(m, undo);
            self.rep.pop();
            if self.aborted {
                return None;
            }
            out.push((m, v));
        }
        Some(out)
    }

    /// Whether to abandon the search (time, nodes or `stop`). The first
    /// iteration always completes so there is a searched move to play.
    #[inline]
    fn check_abort(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.root_depth <= 1 {
            return false;
        }
        if self.nodes >= self.node_limit {
            self.aborted = true;
        } else if self.nodes & 1023 == 0 {
            let late = self.hard_deadline.is_some_and(|d| Instant::now() >= d);
            if late || self.stop.load(AtomicOrdering::Relaxed) {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// Searches a child position: negated when the turn passed to the
    /// opponent, as is when the same player moves again (Jifen double turn).
    #[inline]
    fn child(
        &mut self,
        pos: &mut Position,
        same: bool,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if same {
            self.negamax(pos, depth, alpha, beta, ply + 1, true)
        } else {
            -self.negamax(pos, depth, -beta, -alpha, ply + 1, true)
        }
    }

    /// Records `m` followed by the child's principal variation at `ply`.
    #[inline]
    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let n = if ply + 1 < MAX_PLY {
            self.pv_len[ply + 1]
        } else {
            0
        };
        head[ply][0] = m;
        head[ply][1..=n].copy_from_slice(&tail[0][..n]);
        self.pv_len[ply] = n + 1;
    }

    /// Principal-variation alpha-beta search.
    fn negamax(
        &mut self,
        pos: &mut Position,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        null_ok: bool,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if let Some(v) = points_verdict(pos, ply) {
            return v;
        }
        if ply > 0 {
            if pos.halfmove_clock() >= MOVE_LIMIT {
                return DRAW;
            }
            // A repetition: perpetual check loses (X3 principle 1), else a draw.
            match self.rep.verdict(pos.hash(), pos.side_to_move()) {
                Some(Verdict::Draw) => return DRAW,
                Some(Verdict::Win) => return MATE - ply as i32,
                Some(Verdict::Loss) => return -(MATE - ply as i32),
                None => {}
            }
            // Mate distance pruning: no result here beats a shorter win found already.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        if ply >= MAX_PLY - 4 {
            return self.evaluate_at(pos, ply);
        }
        let in_check = pos.in_check();
        // Check extension, bounded so perpetual-check lines cannot run away.
        if in_check && self.features.check_extension && (ply as i32) < 2 * self.root_depth + 4 {
            depth += 1;
        }
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply, 0);
        }
        self.nodes += 1;
        if self.check_abort() {
            return 0;
        }
        let pv_node = beta - alpha > 1;
        let key = tt::key(pos);
        // A singular-extension test searches this node again without one
        // move: the table's entry describes the full node, not this one.
        let skipped = self.skipped[ply];
        let entry = self.tt.probe(key).filter(|_| skipped.is_none());
        let tt_move = entry.and_then(|e| e.mv);
        if let Some(e) = entry
            && !pv_node
            && e.depth as i32 >= depth
            && let Some(s) = e.cutoff(ply, alpha, beta)
        {
            return s;
        }
        let static_eval = if in_check {
            -INF
        } else {
            self.evaluate_at(pos, ply)
        };
        self.evals[ply] = static_eval;
        // Whether our evaluation rose since our previous move: pruning is
        // gentler then, since the position is getting better.
        let improving = !in_check && ply >= 2 && static_eval > self.evals[ply - 2];
        // The TT score bounds the true value better than the static evaluation.
        let eval = match entry {
            Some(e) if !in_check => {
                let s = tt::from_tt(e.score, ply);
                match e.bound {
                    Bound::Lower if s > static_eval => s,
                    Bound::Upper if s < static_eval => s,
                    Bound::Exact => s,
                    _ => static_eval,
                }
            }
            _ => static_eval,
        };
        let plain = !pos.variant().is_jifen();
        // The opponent's last move and ours before it (none above the root).
        let ctx = [
            ply.checked_sub(1).and_then(|p| self.path[p]),
            ply.checked_sub(2).and_then(|p| self.path[p]),
        ];

        if self.features.static_pruning
            && !pv_node
            && !in_check
            && eval.abs() < MATE_BOUND
            && beta.abs() < MATE_BOUND
        {
            // Reverse futility: so far above beta that a quiet move will not
            // give it all back at this depth.
            if depth <= 7 && eval - 85 * (depth - improving as i32) >= beta {
                return eval;
            }
            // Razoring: so far below alpha that only captures could help.
            if depth <= 3 && eval + 200 + 220 * depth < alpha {
                let v = self.qsearch(pos, alpha, alpha + 1, ply, 0);
                if self.aborted {
                    return 0;
                }
                if v < alpha {
                    return v;
                }
            }
        }

        // Null move: if passing still fails high, a real move surely would.
        if self.features.null_move
            && !pv_node
            && !in_check
            && null_ok
            && skipped.is_none()
            && depth >= 3
            && eval >= beta
            && static_eval >= beta
            && pos.turn_state() == 1
            && beta.abs() < MATE_BOUND
            && has_attacking_pieces(pos)
        {
            let r = 2 + depth / 4 + ((eval - beta) / 200).min(2);
            // The null move is a boundary for repetitions: no real game passes there.
            self.path[ply] = None;
            self.rep.push(pos.hash(), true);
            let undo = pos.make_null_move();
            if self.use_nnue {
                self.acc[ply + 1] = self.acc[ply].clone();
            }
            let v = -self.negamax(pos, depth - 1 - r, -beta, -beta + 1, ply + 1, false);
            pos.unmake_null_move(undo);
            self.rep.pop();
            if self.aborted {
                return 0;
            }
            if v >= beta {
                return if v >= MATE_BOUND { beta } else { v };
            }
        }

        // Without a table move the ordering is poor: search a ply less.
        if self.features.static_pruning && tt_move.is_none() && depth >= 4 {
            depth -= 1;
        }

        let mut moves = MoveList::new();
        pos.legal_moves_into(&mut moves);
        if moves.is_empty() {
            // Checkmate and stalemate both lose (X1, J18).
            return -MATE + ply as i32;
        }
        if self.features.history {
            self.ord.order(pos, &mut moves, tt_move, ply, ctx);
        } else {
            self.ord.order_plain(pos, &mut moves, tt_move);
        }
        let us = pos.side_to_move();
        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let mut quiets = MoveList::new();
        // History scores for LMR, before any update at this node.
        let mut quiet_scores = [0i32; 512];
        if self.features.lmr && depth >= 3 {
            for (i, &m) in moves.iter().enumerate() {
                if !is_capture(pos, m) {
                    quiet_scores[i] = self.ord.quiet_score(pos, m, ctx);
                }
            }
        }
        let killers = self.ord.killers[ply];
        // Quiet moves may be pruned near the leaves once a move has been
        // searched, when not in check, and not in Jifen (where quiet moves
        // score points).
        let may_prune = self.features.move_pruning && ply > 0 && !in_check && plain;
        let futile = depth <= 6 && eval + 100 + 110 * depth <= alpha;
        let lmp_limit = late_move_limit(depth, improving);
        for (i, &m) in moves.iter().enumerate() {
            if (ply == 0 && self.excluded.contains(&m)) || Some(m) == skipped {
                continue;
            }
            let capture = is_capture(pos, m);
            if may_prune
                && !capture
                && best > -MATE_BOUND
                && (futile || (depth <= 7 && quiets.len() >= lmp_limit))
                && !pos.gives_check(m)
            {
                continue;
            }
            // Losing captures near the leaves: the opponent takes back.
            if may_prune
                && capture
                && self.features.capture_pruning
                && depth <= 3
                && best > -MATE_BOUND
                && is_losing_capture(pos, m)
                && !pos.gives_check(m)
            {
                continue;
            }
            let mut extension = 0;
            if let Some(e) = entry
                && Some(m) == tt_move
                && self.features.singular_extension
                && ply > 0
                && depth >= 7
                && !in_check
                && e.depth as i32 >= depth - 3
                && matches!(e.bound, Bound::Lower | Bound::Exact)
                && (ply as i32) < 2 * self.root_depth
            {
                let tt_score = tt::from_tt(e.score, ply);
                if tt_score.abs() < MATE_BOUND {
                    let singular_beta = tt_score - 2 * depth;
                    self.skipped[ply] = Some(m);
                    let v = self.negamax(
                        pos,
                        (depth - 1) / 2,
                        singular_beta - 1,
                        singular_beta,
                        ply,
                        false,
                    );
                    self.skipped[ply] = None;
                    self.pv_len[ply] = 0;
                    if self.aborted {
                        return 0;
                    }
                    if v < singular_beta {
                        extension = 1;
                    } else if singular_beta >= beta {
                        // Multi-cut: another move beats beta too.
                        return singular_beta;
                    }
                }
            }
            self.path[ply] = piece_to(pos, m);
            self.rep.push(pos.hash(), crate::rep::is_capture(pos, m));
            let scores = pos.scores();
            let undo = self.make(pos, m, ply);
            let same = pos.side_to_move() == us;
            let gives_check = !same && pos.in_check();
            self.rep.mark_last(us, gives_check, pos.scores() != scores);
            let new_depth = depth - 1 + extension;
            // The first move searched (an excluded root move may precede it).
            let v = if best == -INF {
                self.child(pos, same, new_depth, alpha, beta, ply)
            } else {
                let mut r = 0;
                if self.features.lmr
                    && depth >= 3
                    && i >= 2 + pv_node as usize
                    && !capture
                    && !in_check
                    && !gives_check
                {
                    r = self.lmr[depth.min(63) as usize][i.min(63)];
                    r -= pv_node as i32;
                    r += !improving as i32;
                    if killers.contains(&Some(m)) {
                        r -= 1;
                    }
                    r -= quiet_scores[i] / 8000;
                    r = r.clamp(0, new_depth - 1);
                }
                let mut v = self.child(pos, same, new_depth - r, alpha, alpha + 1, ply);
                if v > alpha && r > 0 {
                    v = self.child(pos, same, new_depth, alpha, alpha + 1, ply);
                }
                if v > alpha && v < beta {
                    v = self.child(pos, same, new_depth, alpha, beta, ply);
                }
                v
            };
            pos.unmake_move(m, undo);
            self.rep.pop();
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_move = Some(m);
                if v > alpha {
                    alpha = v;
                    self.update_pv(ply, m);
                    if v >= beta {
                        if !capture && self.features.history {
                            self.ord.update_quiet(pos, m, ply, depth, &quiets, ctx);
                        }
                        break;
                    }
                }
            }
            if !capture {
                quiets.push(m);
            }
        }
        if best == -INF {
            // Every move was pruned (cannot happen: the first move is always
            // searched); fail low safely.
            return alpha;
        }
        if skipped.is_none() {
            let bound = Bound::of(best, orig_alpha, beta);
            self.tt
                .store(key, best_move, tt::to_tt(best, ply), depth, bound);
        }
        best
    }

    /// Quiescence search: captures (and, in check, evasions) until the
    /// position is quiet, so the evaluation is not taken mid-exchange.
    fn qsearch(
        &mut self,
        pos: &mut Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: u32,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if let Some(v) = points_verdict(pos, ply) {
            return v;
        }
        self.nodes += 1;
        if self.check_abort() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY - 4 {
            return self.evaluate_at(pos, ply);
        }
        let orig_alpha = alpha;
        let key = tt::key(pos);
        let mut tt_move = None;
        if self.features.qsearch_tt
            && let Some(e) = self.tt.probe(key)
        {
            if let Some(s) = e.cutoff(ply, alpha, beta) {
                return s;
            }
            tt_move = e.mv;
        }
        // Evasions only near the horizon, so check sequences stay finite.
        let evasions = qply < 4 && pos.in_check();
        let mut best;
        let mut stand = -INF;
        if evasions {
            best = -MATE + ply as i32;
        } else {
            stand = self.evaluate_at(pos, ply);
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        }
        let mut moves = MoveList::new();
        if evasions {
            pos.legal_moves_into(&mut moves);
            if moves.is_empty() {
                return -MATE + ply as i32;
            }
        } else {
            pos.legal_captures_into(&mut moves);
            if pos.variant().is_jifen()
                && pos.scores()[pos.side_to_move().index()] + 1 >= pos.target()
            {
                let mut all = MoveList::new();
                pos.legal_moves_into(&mut all);
                if all.is_empty() {
                    return -MATE + ply as i32;
                }
                for m in all {
                    if !is_capture(pos, m) && wins_on_points(pos, m) {
                        moves.push(m);
                    }
                }
            } else if moves.is_empty() && pos.count_legal_moves() == 0 {
                return -MATE + ply as i32;
            }
        }
        let tt_move = tt_move.filter(|m| moves.contains(m));
        self.ord.order_plain(pos, &mut moves, tt_move);
        let us = pos.side_to_move();
        let prune = self.features.qsearch_pruning && !evasions && !pos.variant().is_jifen();
        let mut best_move = None;
        for &m in moves.iter() {
            let victim = pos.piece_at(m.to()).map_or(0, |p| exchange_value(p.kind()));
            if prune && stand + victim + 150 <= alpha {
                continue;
            }
            // A capture that loses the exchange on its point.
            if prune && !see_ge(pos, m, 0) {
                continue;
            }
            let undo = self.make(pos, m, ply);
            let same = pos.side_to_move() == us;
            let v = if same {
                self.qsearch(pos, alpha, beta, ply + 1, qply + 1)
            } else {
                -self.qsearch(pos, -beta, -alpha, ply + 1, qply + 1)
            };
            pos.unmake_move(m, undo);
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    best_move = Some(m);
                    self.update_pv(ply, m);
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        if self.features.qsearch_tt {
            let bound = Bound::of(best, orig_alpha, beta);
            self.tt
                .store(key, best_move, tt::to_tt(best, ply), 0, bound);
        }
        best
    }

    /// Nodes searched by the last search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
}
