//! Playing levels 1-8 for the hall: from a beginner who searches shallowly
//! and picks among near-best moves at random (so it sometimes blunders) to
//! full strength. Each level has a fixed rating measured against
//! Fairy-Stockfish (see `docs/engine.md`).

use std::time::Duration;

use qiyuan_xiangqi::{Move, Position};

use crate::rep::Earlier;
use crate::rng::Rng;
use crate::search::{MATE_BOUND, SearchLimits, SearchResult, Searcher};

/// A playing level, 1 (beginner) to 8 (full strength).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

impl Level {
    /// The weakest level.
    pub const MIN: Level = Level(1);
    /// Full strength.
    pub const MAX: Level = Level(8);

    /// Level `n`, clamped to 1..=8.
    pub fn new(n: u8) -> Level {
        Level(n.clamp(1, 8))
    }

    /// The level number 1..=8.
    pub fn number(self) -> u8 {
        self.0
    }

    /// Maximum search depth; `None` at full strength (time decides).
    pub fn depth_limit(self) -> Option<i32> {
        match self.0 {
            1 => Some(1),
            2 => Some(2),
            3 => Some(3),
            4 => Some(4),
            5 | 6 => Some(5),
            7 => Some(7),
            _ => None,
        }
    }

    /// Half-width of the random noise (in centipawns) added to each root
    /// move's score before choosing: the source of the weaker levels' blunders.
    pub fn noise(self) -> i32 {
        match self.0 {
            1 => 250,
            2 => 150,
            3 => 90,
            4 => 50,
            5 => 25,
            // Level 6 plays level 5's depth without noise and with all its
            // time: scoring every root move costs half the time (see the
            // calibration notes in docs/engine.md).
            _ => 0,
        }
    }

    /// Share of the thinking time the level uses (in percent): the upper
    /// levels are separated by time as well as depth, since at fast controls
    /// the time, not the depth cap, bounds their search.
    pub fn time_percent(self) -> u32 {
        // Every level uses its whole budget: a level that thinks for less
        // than the one below it loses to it at fast controls (level 7 at half
        // time scored 30% against level 6). Depth caps and noise separate them.
        100
    }

    /// The level's rating on the hall's Elo scale, measured by the level
    /// calibration matches recorded in `docs/engine.md`.
    pub fn rating(self) -> i32 {
        RATINGS[self.0 as usize - 1]
    }
}

/// Ratings of levels 1..=8 on Fairy-Stockfish's `UCI_Elo` scale (see
/// `docs/engine.md`, "Levels"): each level at the hall's move time against
/// Fairy-Stockfish at 20,000 nodes a move with a limited `UCI_Elo`, 16 games
/// per level, combined by weighted least squares with the matches of each
/// level against the one below. Measured with the build of stop 27 (linear
/// evaluation, before the static exchange evaluation and the network).
const RATINGS: [i32; 8] = [850, 1158, 1516, 1793, 1893, 2173, 2375, 2628];

/// Searches `pos` as `level` plays, thinking at most `budget`, never
/// choosing an `excluded` move while another is legal.
pub fn play(
    pos: &Position,
    history: &[Earlier],
    excluded: &[Move],
    level: Level,
    budget: Duration,
    seed: u64,
) -> SearchResult {
    let mut searcher = Searcher::new(16);
    play_with(&mut searcher, pos, history, excluded, level, budget, seed)
}

/// [`play`] with a caller-kept searcher (its table carries over between moves).
pub fn play_with(
    searcher: &mut Searcher,
    pos: &Position,
    history: &[Earlier],
    excluded: &[Move],
    level: Level,
    budget: Duration,
    seed: u64,
) -> SearchResult {
    let start = crate::time::Instant::now();
    let budget = budget * level.time_percent() / 100;
    let noise = level.noise();
    // With noise, half the time goes to the search and half to scoring every move.
    let search_budget = if noise > 0 { budget / 2 } else { budget };
    let limits = SearchLimits {
        depth: level.depth_limit(),
        movetime: Some(search_budget),
        excluded: excluded.to_vec(),
        ..SearchLimits::default()
    };
    let mut result = searcher.search(pos, history, &limits, &mut |_| {});
    if noise == 0 || result.best.is_none() || result.score.abs() >= MATE_BOUND {
        // Full strength, or a forced result the level should not throw away.
        return result;
    }
    // Score every move at the level's depth and pick the best after noise.
    let depth = result.depth.max(1);
    let mut rng = Rng::new(seed);
    let deadline = start + budget.saturating_sub(crate::time::MOVE_OVERHEAD);
    let Some(scored) = searcher.score_root_moves(pos, history, excluded, depth, deadline) else {
        // Out of time: the plain search's move (stronger than intended, never late).
        return result;
    };
    if let Some(&(m, v)) = scored
        .iter()
        .map(|&(m, v)| (m, v, v + rng.symmetric(noise)))
        .max_by_key(|&(_, _, noisy)| noisy)
        .map(|(m, v, _)| (m, v))
        .as_ref()
    {
        result.best = Some(m);
        result.score = v;
        result.pv = vec![m];
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_ordered() {
        for n in 1..8 {
            let (a, b) = (Level::new(n), Level::new(n + 1));
            assert!(a.noise() >= b.noise());
            assert!(a.rating() < Level::MAX.rating());
            assert!(b.rating() > Level::MIN.rating());
        }
        assert_eq!(Level::new(0), Level::MIN);
        assert_eq!(Level::new(99), Level::MAX);
    }

    #[test]
    fn every_level_plays_a_legal_move() {
        let pos = Position::startpos();
        for n in 1..=8 {
            let r = play(
                &pos,
                &[],
                &[],
                Level::new(n),
                Duration::from_millis(50),
                n as u64,
            );
            let m = r.best.expect("a move");
            assert!(pos.is_legal(m), "level {n} played {m}");
        }
    }

    #[test]
    fn low_levels_still_take_a_win_in_one() {
        // a0a9 mates; b8f8 stalemates, which wins too (X1). Nothing else wins.
        let mut pos = Position::from_fen("4k4/1R7/9/9/9/9/9/9/9/R2K5 w - - 0 1").unwrap();
        let wins = crate::tactics::winning_moves(&mut pos, 1);
        for seed in 0..5 {
            let r = play(
                &pos,
                &[],
                &[],
                Level::new(1),
                Duration::from_millis(200),
                seed,
            );
            assert!(wins.contains(&r.best.unwrap()), "{:?}", r.best);
        }
    }
}
