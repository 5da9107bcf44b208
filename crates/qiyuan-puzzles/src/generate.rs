//! Generation: the engine plays itself at varied levels from varied
//! openings; after every move, the position is scanned for a tactic the
//! move allowed, and candidates go through [`crate::verify`].
//!
//! Reproducible: game `g` of a run is played from a seed derived from the
//! run's seed and `g` alone, by a searcher cleared before the game, so its
//! puzzles do not depend on which thread played it. Threads take games in
//! turn; the puzzles are taken from games 0, 1, 2, … in order, so the output
//! is the same for a seed whatever the thread count.

use std::collections::{BTreeMap, HashSet};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use qiyuan_core::GameRules;
use qiyuan_engine::levels::Level;
use qiyuan_engine::rep::Earlier;
use qiyuan_engine::rng::Rng;
use qiyuan_engine::search::{MATE_BOUND, SearchLimits, Searcher, mate_in_plies};
use qiyuan_xiangqi::{Game, Move, Position, START_FEN, Variant};

use crate::Puzzle;
use crate::solver::single_turns;
use crate::verify::{
    CheckConfig, check_defence, check_forced_win, check_material, deep_scores, search_depth,
};

/// A generation run.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// The rule set.
    pub variant: Variant,
    /// Puzzles wanted.
    pub count: usize,
    /// The run's seed.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// Depth of the scan after every move (finds candidates).
    pub scan_depth: i32,
    /// The checks' settings (deeper than the scan).
    pub check: CheckConfig,
    /// Plies after which a self-play game is abandoned.
    pub max_plies: usize,
    /// Transposition table per worker, in MiB.
    pub hash_mb: usize,
}

impl GenConfig {
    /// The defaults for a rule set. Jifen searches a ply shallower: class
    /// changes multiply its moves and its search prunes less (quiet moves
    /// score points), so each ply costs several times Xiangqi's.
    pub fn new(variant: Variant, count: usize, seed: u64) -> GenConfig {
        let jifen = variant.is_jifen() as i32;
        GenConfig {
            variant,
            count,
            seed,
            threads: 1,
            scan_depth: 5 - jifen,
            check: CheckConfig {
                deep_depth: 7 - 2 * jifen,
                // A Jifen move costs the solver several times a Xiangqi one.
                solver_budget: if jifen == 1 { 300_000 } else { 2_000_000 },
                ..CheckConfig::default()
            },
            // Jifen games reach their targets late: points races need the long ones.
            max_plies: if jifen == 1 { 320 } else { 180 },
            hash_mb: 16,
        }
    }
}

/// Progress after a game: games finished, puzzles found in the finished
/// prefix of games.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Games played so far.
    pub games: u64,
    /// Puzzles taken so far (games 0..k all finished).
    pub puzzles: usize,
}

/// The seed of game `g` of a run.
fn game_seed(seed: u64, g: u64) -> u64 {
    Rng::new(seed ^ g.wrapping_mul(0x9e37_79b9_7f4a_7c15)).next_u64()
}

/// Runs the generation: `cfg.count` puzzles (fewer only if the games run
/// out: at most `50 * count + 100` games are played), distinct by position
/// and setting-up move, in game order.
pub fn generate(cfg: &GenConfig, progress: &(dyn Fn(Progress) + Sync)) -> Vec<Puzzle> {
    let max_games = 50 * cfg.count as u64 + 100;
    let next = AtomicU64::new(0);
    let done = AtomicBool::new(false);
    let results: Mutex<BTreeMap<u64, Vec<Puzzle>>> = Mutex::new(BTreeMap::new());
    let games_done = AtomicU64::new(0);
    std::thread::scope(|s| {
        for _ in 0..cfg.threads.max(1) {
            s.spawn(|| {
                let mut searcher = Searcher::new(cfg.hash_mb);
                loop {
                    if done.load(Ordering::SeqCst) {
                        break;
                    }
                    let g = next.fetch_add(1, Ordering::SeqCst);
                    if g >= max_games {
                        break;
                    }
                    let found = play_game(cfg, g, &mut searcher);
                    let mut r = results.lock().unwrap_or_else(|e| e.into_inner());
                    r.insert(g, found);
                    let taken = take(&r, usize::MAX).len();
                    let n = games_done.fetch_add(1, Ordering::SeqCst) + 1;
                    if taken >= cfg.count {
                        done.store(true, Ordering::SeqCst);
                    }
                    drop(r);
                    progress(Progress {
                        games: n,
                        puzzles: taken.min(cfg.count),
                    });
                }
            });
        }
    });
    let r = results.into_inner().unwrap_or_else(|e| e.into_inner());
    take(&r, cfg.count)
}

/// The puzzles of the unbroken prefix of finished games 0, 1, 2, …, without
/// repeats, at most `limit`.
fn take(results: &BTreeMap<u64, Vec<Puzzle>>, limit: usize) -> Vec<Puzzle> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for (i, (&g, ps)) in results.iter().enumerate() {
        if g != i as u64 {
            break;
        }
        for p in ps {
            if out.len() >= limit {
                return out;
            }
            if seen.insert((p.fen.clone(), p.moves[0].clone())) {
                out.push(p.clone());
            }
        }
    }
    out
}

/// One self-play player: search depth and the noise of its level.
#[derive(Clone, Copy, Debug)]
struct Player {
    depth: i32,
    noise: i32,
}

impl Player {
    fn random(rng: &mut Rng, max_depth: i32) -> Player {
        // Levels 1..=6: the weaker ones blunder (which is where puzzles come
        // from), the stronger ones find the tactics and defend well.
        let level = Level::new(1 + rng.below(6) as u8);
        Player {
            depth: level.depth_limit().unwrap_or(6).min(max_depth),
            noise: level.noise(),
        }
    }

    /// The player's move: its search's, or with noise the best after
    /// noise among every move scored at its depth.
    fn choose(
        self,
        searcher: &mut Searcher,
        pos: &Position,
        history: &[Earlier],
        rng: &mut Rng,
    ) -> Option<Move> {
        let limits = SearchLimits {
            depth: Some(self.depth),
            ..SearchLimits::default()
        };
        let r = searcher.search(pos, history, &limits, &mut |_| {});
        if self.noise == 0 || r.best.is_none() || r.score.abs() >= MATE_BOUND {
            return r.best;
        }
        // Every move scored a little shallower than the search: the noise
        // matters more than the last ply.
        let scored = deep_scores(searcher, pos, (self.depth - 1).clamp(1, 3));
        scored
            .iter()
            .map(|&(m, v)| (m, v + rng.symmetric(self.noise)))
            .max_by_key(|&(_, v)| v)
            .map(|(m, _)| m)
            .or(r.best)
    }
}

/// Plays game `g` of the run and returns the puzzles found in it.
pub fn play_game(cfg: &GenConfig, g: u64, searcher: &mut Searcher) -> Vec<Puzzle> {
    let mut rng = Rng::new(game_seed(cfg.seed, g));
    searcher.clear();
    let players = [
        Player::random(&mut rng, cfg.scan_depth),
        Player::random(&mut rng, cfg.scan_depth),
    ];
    let Ok(start) = Position::from_fen_variant(START_FEN, cfg.variant, None) else {
        return Vec::new();
    };
    let mut game = Game::new(start);
    let mut history = Vec::new();
    // A random opening: up to eight quiet moves without class changes.
    let opening = rng.below(9) as usize;
    for _ in 0..opening {
        let pos = game.position().clone();
        let quiet: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| !m.is_pass() && pos.piece_at(m.to()).is_none() && m.new_class().is_none())
            .collect();
        if quiet.is_empty() {
            break;
        }
        let m = quiet[rng.below(quiet.len() as u64) as usize];
        history.push(Earlier::play(&mut pos.clone(), m));
        if game.play_move(m).is_err() {
            break;
        }
    }
    let mut out = Vec::new();
    // The side to move's scan score before the last move (its view).
    let mut prev_score: Option<i32> = None;
    let mut prev_pos: Option<(Position, Move)> = None;
    let mut quiet_until = 0;
    while game.outcome().is_none() && game.moves().len() < cfg.max_plies {
        let pos = game.position().clone();
        let ply = game.moves().len();
        let (_, score) = search_depth(searcher, &pos, cfg.scan_depth);
        if let (Some((before, setup)), Some(prev)) = (&prev_pos, prev_score)
            && ply >= quiet_until
            && single_turns(&pos)
            && let Some(p) = candidate(cfg, searcher, before, *setup, &pos, -prev, score)
        {
            out.push(p);
            // One puzzle per tactic: skip the positions of its solution.
            quiet_until = ply + 8;
        }
        let side = pos.side_to_move().index();
        let Some(m) = players[side].choose(searcher, &pos, &history, &mut rng) else {
            break;
        };
        history.push(Earlier::play(&mut pos.clone(), m));
        if game.play_move(m).is_err() {
            break;
        }
        // The next position's score before the move, from its mover's view:
        // negated unless the same side moves again (a Jifen double turn).
        prev_score = Some(if game.position().side_to_move() == pos.side_to_move() {
            score
        } else {
            -score
        });
        prev_pos = Some((pos, m));
    }
    out
}

/// Judges the position after `setup`: `before_view` is the solver's score
/// before the move, `now` its scan score after it.
fn candidate(
    cfg: &GenConfig,
    searcher: &mut Searcher,
    before: &Position,
    setup: Move,
    pos: &Position,
    before_view: i32,
    now: i32,
) -> Option<Puzzle> {
    let mate_before = mate_in_plies(before_view).is_some_and(|p| p > 0);
    let jifen = cfg.variant.is_jifen();
    let solution = match mate_in_plies(now) {
        Some(p) if p > 0 => {
            if mate_before || p > 2 * cfg.check.max_mate as i32 - 1 {
                return None;
            }
            check_forced_win(pos, &cfg.check, searcher).ok()?
        }
        Some(_) => return None,
        // Jifen: material only when clearly decisive (each check there costs
        // several times Xiangqi's), and no defences (a pass is no measure of
        // a threat where every move scores).
        None if now >= 450 + 150 * jifen as i32 && before_view <= 200 => {
            check_material(pos, &cfg.check, searcher).ok()?
        }
        None if !jifen && (-150..=250).contains(&now) && before_view >= -150 && !pos.in_check() => {
            // A cheap look at the threat first: what the opponent would do
            // with a free move.
            let mut passed = pos.clone();
            passed.make_null_move();
            let (_, threat) = search_depth(searcher, &passed, cfg.scan_depth - 1);
            if threat < 400 {
                return None;
            }
            check_defence(pos, &cfg.check, searcher).ok()?
        }
        None => return None,
    };
    Some(Puzzle::from_solution(
        before,
        setup,
        &solution,
        searcher,
        cfg.check.deep_depth,
    ))
}
