//! Whether a position is a puzzle: the side to move has exactly one move
//! that wins, and keeps having exactly one at every later move of the
//! solution, against the opponent's best defence.
//!
//! Forced wins (mate, stalemate, a Jifen target reached) are proven by the
//! full-width [`Solver`]: the length is the shortest there is, and no other
//! move wins within it at any solver move. Material wins and only-move
//! defences are judged by the engine, searching every root move to a depth
//! deeper than the scan that proposed the position.

use std::time::Duration;

use qiyuan_engine::search::{SearchLimits, Searcher, mate_in_plies};
use qiyuan_xiangqi::{Color, Move, PieceKind, Position};

use crate::solver::{Exceeded, Solver, points_result, single_turns};

/// How hard the checks look.
#[derive(Clone, Debug)]
pub struct CheckConfig {
    /// Engine depth that scores every root move for material and defence puzzles.
    pub deep_depth: i32,
    /// Longest forced win (in the solver's moves) the exact solver proves.
    pub max_mate: u32,
    /// Moves the exact solver may make for one position.
    pub solver_budget: u64,
}

impl Default for CheckConfig {
    fn default() -> Self {
        CheckConfig {
            deep_depth: 7,
            max_mate: 4,
            solver_budget: 2_000_000,
        }
    }
}

/// Why a position is not a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reject {
    /// No forced win (of the kind asked for) exists.
    NoWin,
    /// A forced win exists, but shorter than claimed.
    ShorterMate(u32),
    /// More than one move wins at the solver's move number `ply / 2 + 1`
    /// (`ply` counts both sides' moves from the puzzle position).
    TwoSolutions {
        /// Plies from the puzzle position.
        ply: usize,
        /// The winning moves there.
        moves: Vec<Move>,
    },
    /// The exact solver ran out of budget.
    Budget,
    /// Inside a contest double turn, which the checks do not handle.
    DoubleTurn,
    /// The best move does not win enough.
    NotDecisive,
    /// The advantage is not turned into material within four moves.
    NotRealized,
    /// The engine sees a forced win the exact solver could not prove.
    LongMate,
    /// Nothing is threatened, or the side to move is in check.
    NoThreat,
}

impl From<Exceeded> for Reject {
    fn from(_: Exceeded) -> Reject {
        Reject::Budget
    }
}

/// What kind of puzzle a position is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A forced mate (or stalemate) in this many solver moves.
    Mate(u32),
    /// A Jifen target reached by force in this many solver moves.
    Points(u32),
    /// Decisive material won.
    Material,
    /// The only move that does not lose.
    Defence,
}

/// A verified puzzle line from the puzzle position.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The solver's moves and the opponent's replies, starting and ending
    /// with a solver move.
    pub line: Vec<Move>,
    /// The kind of win.
    pub kind: Kind,
}

/// Searches `pos` to `depth` from scratch of history.
pub fn search_depth(searcher: &mut Searcher, pos: &Position, depth: i32) -> (Option<Move>, i32) {
    let limits = SearchLimits {
        depth: Some(depth),
        ..SearchLimits::default()
    };
    let r = searcher.search(pos, &[], &limits, &mut |_| {});
    (r.best, r.score)
}

/// Every root move scored at `depth`, best first (ties by move text, so
/// the order is reproducible).
pub fn deep_scores(searcher: &mut Searcher, pos: &Position, depth: i32) -> Vec<(Move, i32)> {
    // A deadline no generation run meets: the scores are depth-bound and
    // so reproducible.
    let deadline = qiyuan_engine::time::Instant::now() + Duration::from_secs(24 * 3600);
    let mut v = searcher
        .score_root_moves(pos, &[], &[], depth, deadline)
        .unwrap_or_default();
    v.sort_by(|a, b| {
        b.1.cmp(&a.1)
            .then_with(|| crate::text_order(a.0).cmp(&crate::text_order(b.0)))
    });
    v
}

/// Checks that `pos` is an exact forced win in `n` solver moves: no shorter
/// win, one winning move at each solver move, best defence in between.
pub fn check_mate_in(
    pos: &Position,
    n: u32,
    cfg: &CheckConfig,
    searcher: &mut Searcher,
) -> Result<Solution, Reject> {
    if !single_turns(pos) {
        return Err(Reject::DoubleTurn);
    }
    let mut solver = Solver::new(cfg.solver_budget);
    match solver.win_length(pos, n)? {
        None => Err(Reject::NoWin),
        Some(l) if l < n => Err(Reject::ShorterMate(l)),
        Some(_) => forced_line(pos, n, &mut solver, searcher, cfg),
    }
}

/// Finds the shortest forced win of the side to move (up to
/// `cfg.max_mate` moves) and checks it as [`check_mate_in`] does.
pub fn check_forced_win(
    pos: &Position,
    cfg: &CheckConfig,
    searcher: &mut Searcher,
) -> Result<Solution, Reject> {
    if !single_turns(pos) {
        return Err(Reject::DoubleTurn);
    }
    let mut solver = Solver::new(cfg.solver_budget);
    match solver.win_length(pos, cfg.max_mate)? {
        None => Err(Reject::NoWin),
        Some(n) => forced_line(pos, n, &mut solver, searcher, cfg),
    }
}

/// The line of an exact win in `n`: the unique winner at each solver move,
/// and the reply that holds out longest (the engine's choice among those).
fn forced_line(
    pos: &Position,
    n: u32,
    solver: &mut Solver,
    searcher: &mut Searcher,
    cfg: &CheckConfig,
) -> Result<Solution, Reject> {
    let attacker = pos.side_to_move();
    let mut cur = pos.clone();
    let mut line = Vec::new();
    let mut m = n;
    loop {
        let wins = solver.winning_moves(&cur, m)?;
        match wins.len() {
            0 => return Err(Reject::NoWin),
            1 => {}
            _ => {
                return Err(Reject::TwoSolutions {
                    ply: line.len(),
                    moves: wins,
                });
            }
        }
        cur.make_move(wins[0]);
        line.push(wins[0]);
        if m == 1 {
            break;
        }
        // The replies after which the win still takes all m - 1 moves.
        let mut longest = Vec::new();
        for r in cur.legal_moves() {
            let mut next = cur.clone();
            next.make_move(r);
            if !solver.wins_within(&next, m - 2)? {
                longest.push(r);
            }
        }
        if longest.is_empty() {
            return Err(Reject::NoWin);
        }
        let (best, _) = search_depth(searcher, &cur, cfg.deep_depth.min(6));
        let reply = best.filter(|b| longest.contains(b)).unwrap_or(longest[0]);
        cur.make_move(reply);
        line.push(reply);
        m -= 1;
    }
    let kind = if points_result(&cur) == Some(false) && cur.side_to_move() != attacker {
        Kind::Points(n)
    } else {
        Kind::Mate(n)
    };
    Ok(Solution { line, kind })
}

/// Material in half-units: chariot 18, cannon 9, horse 8, advisor and
/// elephant 4, soldier 2.
pub fn material(pos: &Position, color: Color) -> i32 {
    pos.pieces(color)
        .map(|(_, p)| match p.kind() {
            PieceKind::Rook => 18,
            PieceKind::Cannon => 9,
            PieceKind::Horse => 8,
            PieceKind::Advisor | PieceKind::Elephant => 4,
            PieceKind::Pawn => 2,
            PieceKind::King => 0,
        })
        .sum()
}

fn balance(pos: &Position, us: Color) -> i32 {
    material(pos, us) - material(pos, us.flip())
}

/// Engine score of a win the side to move has (a rook is about 600).
pub const DECISIVE: i32 = 600;
/// How much worse than the solution every other move must be.
pub const MARGIN: i32 = 300;
/// Material that counts as won: a horse (half-units).
const MATERIAL_WON: i32 = 8;

/// Checks that `pos` is a material puzzle: one move wins decisively by the
/// deep search (every other move at least [`MARGIN`] worse and not itself
/// winning), and the win turns into at least a horse's worth of material
/// within four solver moves, each of them the only good one.
pub fn check_material(
    pos: &Position,
    cfg: &CheckConfig,
    searcher: &mut Searcher,
) -> Result<Solution, Reject> {
    if !single_turns(pos) {
        return Err(Reject::DoubleTurn);
    }
    let us = pos.side_to_move();
    let start = balance(pos, us);
    let mut cur = pos.clone();
    let mut line = Vec::new();
    for k in 0..4 {
        let scored = deep_scores(searcher, &cur, cfg.deep_depth);
        if scored.len() < 2 {
            return Err(Reject::NotDecisive);
        }
        let (s, v1) = scored[0];
        let v2 = scored[1].1;
        if mate_in_plies(v1).is_some_and(|p| p > 0) {
            return Err(Reject::LongMate);
        }
        let need = if k == 0 { DECISIVE } else { DECISIVE - 200 };
        if v1 < need {
            return Err(Reject::NotDecisive);
        }
        if v1 - v2 < MARGIN || (k == 0 && v2 >= MARGIN) {
            return Err(Reject::TwoSolutions {
                ply: line.len(),
                moves: vec![s, scored[1].0],
            });
        }
        cur.make_move(s);
        line.push(s);
        if cur.legal_moves().is_empty() || points_result(&cur).is_some() {
            return Err(Reject::LongMate);
        }
        let gain_now = balance(&cur, us) - start;
        let (reply, _) = search_depth(searcher, &cur, cfg.deep_depth);
        let Some(reply) = reply else {
            return Err(Reject::NoWin);
        };
        let mut after = cur.clone();
        after.make_move(reply);
        let gain_after = balance(&after, us) - start;
        if gain_now >= MATERIAL_WON && gain_after >= MATERIAL_WON {
            return Ok(Solution {
                line,
                kind: Kind::Material,
            });
        }
        if !single_turns(&after) || after.legal_moves().is_empty() {
            return Err(Reject::NotRealized);
        }
        cur = after;
        line.push(reply);
    }
    Err(Reject::NotRealized)
}

/// Checks that `pos` is a defence puzzle: the opponent threatens to win
/// (its search after a pass of ours scores at least 400), exactly one move
/// holds (scores at least -150), and every other move loses (at most -400,
/// and [`MARGIN`] below it).
pub fn check_defence(
    pos: &Position,
    cfg: &CheckConfig,
    searcher: &mut Searcher,
) -> Result<Solution, Reject> {
    if !single_turns(pos) {
        return Err(Reject::DoubleTurn);
    }
    if pos.in_check() {
        return Err(Reject::NoThreat);
    }
    let mut passed = pos.clone();
    passed.make_null_move();
    let (_, threat) = search_depth(searcher, &passed, cfg.deep_depth - 1);
    if threat < 400 {
        return Err(Reject::NoThreat);
    }
    let scored = deep_scores(searcher, pos, cfg.deep_depth);
    if scored.len() < 2 {
        return Err(Reject::NotDecisive);
    }
    let (s, v1) = scored[0];
    let v2 = scored[1].1;
    if !(-150..DECISIVE - 200).contains(&v1) {
        return Err(Reject::NotDecisive);
    }
    if v2 > -400 || v1 - v2 < MARGIN {
        return Err(Reject::TwoSolutions {
            ply: 0,
            moves: vec![s, scored[1].0],
        });
    }
    Ok(Solution {
        line: vec![s],
        kind: Kind::Defence,
    })
}
