//! Re-checking a stored puzzle from scratch (issue 40: "a test re-checks a
//! sample of shipped puzzles for uniqueness with the engine"): its moves
//! replay, and the check its first theme names, run again with the
//! generator's settings for the rule set, still finds exactly the stored
//! solver moves.
//!
//! Forced wins (mates, Jifen targets) are proven again along the stored
//! line by the exact solver: no shorter win, the stored move the only one
//! that wins in the moves left at every solver move, and every stored reply
//! one that holds out longest. Material and defence puzzles are judged
//! again by the deep search of a new searcher, and must find the
//! stored first move.

use qiyuan_engine::search::Searcher;
use qiyuan_xiangqi::{Move, Position, Variant};

use crate::Puzzle;
use crate::generate::GenConfig;
use crate::solver::Solver;
use crate::verify::{CheckConfig, Reject, check_defence, check_material};

/// Why a stored puzzle failed its re-check.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Failure {
    /// The FEN does not parse for the rule set.
    #[error("the position does not parse")]
    BadFen,
    /// A move does not replay (its index in `moves`).
    #[error("move {0} is not legal")]
    Illegal(usize),
    /// No theme says which check applies.
    #[error("no kind among the themes")]
    NoKind,
    /// The check rejects the position now.
    #[error("rejected: {0:?}")]
    Rejected(Reject),
    /// A stored reply is not among the longest defences (its index in `moves`).
    #[error("reply {0} gives up sooner than it must")]
    WeakReply(usize),
    /// The check finds a different solver move (its index in `moves`).
    #[error("move {index} differs: {found} found, {stored} stored")]
    Differs {
        /// Index in the stored moves.
        index: usize,
        /// The move the check found.
        found: String,
        /// The stored move.
        stored: String,
    },
}

/// The checks' settings the generator uses for `variant`.
pub fn check_config(variant: Variant) -> CheckConfig {
    GenConfig::new(variant, 1, 1).check
}

/// The transposition table of a re-check, in MiB.
const HASH_MB: usize = 16;

/// Re-checks `p` (stored for `variant`) with `cfg`. Material and defence are
/// judged by a new searcher each time: a cleared one still kept enough of
/// its past searches to flip a borderline verdict, and a re-check must not
/// depend on what was checked before it.
pub fn recheck(variant: Variant, p: &Puzzle, cfg: &CheckConfig) -> Result<(), Failure> {
    let mut start =
        Position::from_fen_variant(&p.fen, variant, None).map_err(|_| Failure::BadFen)?;
    let mut replay = start.clone();
    for (i, m) in p.moves.iter().enumerate() {
        let mv = replay.parse_move(m).map_err(|_| Failure::Illegal(i))?;
        replay.make_move(mv);
    }
    let setup = p.moves.first().ok_or(Failure::Illegal(0))?;
    let setup = start.parse_move(setup).map_err(|_| Failure::Illegal(0))?;
    start.make_move(setup);
    let line: Vec<Move> = {
        let mut cur = start.clone();
        let mut line = Vec::new();
        for m in &p.moves[1..] {
            let mv = cur
                .parse_move(m)
                .map_err(|_| Failure::Illegal(line.len() + 1))?;
            cur.make_move(mv);
            line.push(mv);
        }
        line
    };
    let has = |t: &str| p.themes.iter().any(|x| x == t);
    if ["mate1", "mate2", "mate3", "mate4plus", "points"]
        .iter()
        .any(|t| has(t))
    {
        return check_stored_win(&start, &line, cfg);
    }
    let searcher = &mut Searcher::new(HASH_MB);
    let solution = if has("material") {
        check_material(&start, cfg, searcher)
    } else if has("defence") {
        check_defence(&start, cfg, searcher)
    } else {
        return Err(Failure::NoKind);
    };
    let solution = solution.map_err(Failure::Rejected)?;
    // Solver moves sit at even places of the solution (odd in `moves`).
    for (k, found) in solution.line.iter().enumerate().step_by(2) {
        let index = k + 1;
        let stored = p.moves.get(index).map(String::as_str).unwrap_or("");
        if found.to_string() != stored {
            return Err(Failure::Differs {
                index,
                found: found.to_string(),
                stored: stored.to_string(),
            });
        }
    }
    Ok(())
}

/// Proves the stored forced win `line` from `start` move by move.
fn check_stored_win(start: &Position, line: &[Move], cfg: &CheckConfig) -> Result<(), Failure> {
    let n = line.len().div_ceil(2) as u32;
    let mut solver = Solver::new(cfg.solver_budget);
    let budget = |_| Failure::Rejected(Reject::Budget);
    match solver.win_length(start, n).map_err(budget)? {
        None => return Err(Failure::Rejected(Reject::NoWin)),
        Some(l) if l < n => return Err(Failure::Rejected(Reject::ShorterMate(l))),
        Some(_) => {}
    }
    let mut cur = start.clone();
    for (k, pair) in line.chunks(2).enumerate() {
        let left = n - k as u32;
        let wins = solver.winning_moves(&cur, left).map_err(budget)?;
        let index = 2 * k + 1;
        match wins[..] {
            [w] if w == pair[0] => {}
            [w] => {
                return Err(Failure::Differs {
                    index,
                    found: w.to_string(),
                    stored: pair[0].to_string(),
                });
            }
            _ => {
                return Err(Failure::Rejected(Reject::TwoSolutions {
                    ply: 2 * k,
                    moves: wins,
                }));
            }
        }
        cur.make_move(pair[0]);
        if let Some(&reply) = pair.get(1) {
            cur.make_move(reply);
            if solver.wins_within(&cur, left - 2).map_err(budget)? {
                return Err(Failure::WeakReply(index + 1));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn puzzle(fen: &str, moves: &str, themes: &str) -> Puzzle {
        Puzzle {
            fen: fen.into(),
            moves: moves.split(' ').map(String::from).collect(),
            rating: 1500,
            themes: themes.split(' ').map(String::from).collect(),
        }
    }

    #[test]
    fn a_true_mate_passes_and_a_changed_one_fails() {
        let cfg = CheckConfig::default();
        // Black's a pawn step sets up the rook's mate on d1.
        let fen = "3k5/9/9/9/9/9/8p/9/4R4/4K4 b - - 0 1";
        let good = puzzle(fen, "i3i2 e1d1", "mate1");
        assert_eq!(recheck(Variant::Xiangqi, &good, &cfg), Ok(()));
        // The same position claimed as a material puzzle: the engine sees
        // the mate and refuses it as material.
        let wrong_kind = puzzle(fen, "i3i2 e1d1", "material");
        assert!(matches!(
            recheck(Variant::Xiangqi, &wrong_kind, &cfg),
            Err(Failure::Rejected(_))
        ));
        // A stored solver move that is not the mate.
        let wrong_move = puzzle(fen, "i3i2 e1e9", "mate1");
        assert_eq!(
            recheck(Variant::Xiangqi, &wrong_move, &cfg),
            Err(Failure::Differs {
                index: 1,
                found: "e1d1".into(),
                stored: "e1e9".into()
            })
        );
        let illegal = puzzle(fen, "i3i2 e1f2", "mate1");
        assert_eq!(
            recheck(Variant::Xiangqi, &illegal, &cfg),
            Err(Failure::Illegal(1))
        );
        let no_kind = puzzle(fen, "i3i2 e1d1", "endgame");
        assert_eq!(
            recheck(Variant::Xiangqi, &no_kind, &cfg),
            Err(Failure::NoKind)
        );
    }
}
