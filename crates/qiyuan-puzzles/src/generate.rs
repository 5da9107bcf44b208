//! Generation: the engine plays itself at varied levels from varied
//! openings; after every move, the position is scanned for a tactic the
//! move allowed, and candidates go through [`crate::verify`]. The hall's
//! finished games go through the same scan ([`GameScan`], [`scan_game`]).
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
    let mut scan = GameScan::new();
    while game.outcome().is_none() && game.moves().len() < cfg.max_plies {
        let pos = game.position().clone();
        let ply = game.moves().len();
        if let Some(p) = scan.position(cfg, searcher, &pos, ply) {
            out.push(p);
        }
        let side = pos.side_to_move().index();
        let Some(m) = players[side].choose(searcher, &pos, &history, &mut rng) else {
            break;
        };
        history.push(Earlier::play(&mut pos.clone(), m));
        if game.play_move(m).is_err() {
            break;
        }
        scan.played(m, game.position());
    }
    out
}

/// Scans the positions of one game, in order, for puzzles: each position
/// is searched to the scan depth, and one a move has just reached is
/// judged against the score before that move ([`candidate`]). The one
/// check that self-play and the hall's finished games ([`scan_game`]) share.
#[derive(Clone, Debug, Default)]
pub struct GameScan {
    /// The position last scanned and its scan score (its mover's view).
    last: Option<(Position, i32)>,
    /// The position before the last move, that move, and the scan score
    /// before it from the view of the side to move now.
    prev: Option<(Position, Move, i32)>,
    /// No puzzle before this ply (the positions of the last one's solution).
    quiet_until: usize,
}

impl GameScan {
    /// A scan at a game's first position.
    pub fn new() -> GameScan {
        GameScan::default()
    }

    /// Scans `pos`, reached after `ply` moves of the game: the puzzle the
    /// last move ([`GameScan::played`]) set up, if any.
    pub fn position(
        &mut self,
        cfg: &GenConfig,
        searcher: &mut Searcher,
        pos: &Position,
        ply: usize,
    ) -> Option<Puzzle> {
        let (_, score) = search_depth(searcher, pos, cfg.scan_depth);
        self.last = Some((pos.clone(), score));
        let (before, setup, prev) = self.prev.as_ref()?;
        if ply < self.quiet_until || !single_turns(pos) {
            return None;
        }
        let p = candidate(cfg, searcher, before, *setup, pos, -prev, score)?;
        // One puzzle per tactic: skip the positions of its solution.
        self.quiet_until = ply + 8;
        Some(p)
    }

    /// Records that `m` was played from the position last scanned, giving `next`.
    pub fn played(&mut self, m: Move, next: &Position) {
        let Some((pos, score)) = self.last.take() else {
            self.prev = None;
            return;
        };
        // The next position's score before the move, from its mover's view:
        // negated unless the same side moves again (a Jifen double turn).
        let view = if next.side_to_move() == pos.side_to_move() {
            score
        } else {
            -score
        };
        self.prev = Some((pos, m, view));
    }
}

/// The puzzles of one finished game (a hall's): `moves` (ICCS) played from
/// `start`, every position scanned by a [`GameScan`] from scratch of the
/// searcher, so a game gives the same puzzles wherever it is read. A move
/// that does not parse or is not legal ends the game there.
pub fn scan_game(
    cfg: &GenConfig,
    searcher: &mut Searcher,
    start: Position,
    moves: &[String],
) -> Vec<Puzzle> {
    searcher.clear();
    let mut game = Game::new(start);
    let mut scan = GameScan::new();
    let mut out = Vec::new();
    for text in moves {
        if game.outcome().is_some() {
            return out;
        }
        let pos = game.position().clone();
        let Ok(m) = pos.parse_move(text) else {
            return out;
        };
        if let Some(p) = scan.position(cfg, searcher, &pos, game.moves().len()) {
            out.push(p);
        }
        if game.play_move(m).is_err() {
            return out;
        }
        scan.played(m, game.position());
    }
    // The last position too: the game may have ended there by resignation
    // or time, just after the move that set a puzzle up.
    if game.outcome().is_none()
        && let Some(p) = scan.position(cfg, searcher, game.position(), game.moves().len())
    {
        out.push(p);
    }
    out
}

/// Judges the position after `setup`: `before_view` is the solver's score
/// before the move, `now` its scan score after it: [`check_forced_win`],
/// [`check_material`] or [`check_defence`] as the scores suggest, then
/// [`Puzzle::from_solution`].
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
