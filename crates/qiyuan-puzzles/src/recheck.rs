//! Re-checking a stored puzzle from scratch (issue 40: "a test re-checks a
//! sample of shipped puzzles for uniqueness with the engine"): its moves
//! replay, and the check its first theme names, run again with the
//! generator's settings for the rule set, still finds exactly the stored
//! solver moves.
//!
//! Only the solver's moves are compared: the opponent's replies are one of
//! the best defences (the engine's choice among equals can differ with the
//! search's earlier state), and the page accepts the stored one.

use qiyuan_engine::search::Searcher;
use qiyuan_xiangqi::{Position, Variant};

use crate::Puzzle;
use crate::generate::GenConfig;
use crate::verify::{CheckConfig, check_mate_in};
use crate::verify::{Reject, Solution, check_defence, check_forced_win, check_material};

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

/// Re-checks `p` (stored for `variant`) with `cfg`.
pub fn recheck(
    variant: Variant,
    p: &Puzzle,
    cfg: &CheckConfig,
    searcher: &mut Searcher,
) -> Result<(), Failure> {
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
    searcher.clear();
    let solver_moves = (p.moves.len() as u32).saturating_sub(1).div_ceil(2);
    let has = |t: &str| p.themes.iter().any(|x| x == t);
    let solution: Result<Solution, Reject> = if ["mate1", "mate2", "mate3", "mate4plus"]
        .iter()
        .any(|t| has(t))
    {
        check_mate_in(&start, solver_moves, cfg, searcher)
    } else if has("points") {
        check_forced_win(&start, cfg, searcher)
    } else if has("material") {
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
    if solution.line.len() + 1 != p.moves.len() {
        return Err(Failure::Differs {
            index: solution.line.len() + 1,
            found: String::new(),
            stored: p
                .moves
                .get(solution.line.len() + 1)
                .cloned()
                .unwrap_or_default(),
        });
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
        let mut s = Searcher::new(1);
        // Black's a pawn step sets up the rook's mate on d1.
        let fen = "3k5/9/9/9/9/9/8p/9/4R4/4K4 b - - 0 1";
        let good = puzzle(fen, "i3i2 e1d1", "mate1");
        assert_eq!(recheck(Variant::Xiangqi, &good, &cfg, &mut s), Ok(()));
        // The same position claimed as a material puzzle: the engine sees
        // the mate and refuses it as material.
        let wrong_kind = puzzle(fen, "i3i2 e1d1", "material");
        assert!(matches!(
            recheck(Variant::Xiangqi, &wrong_kind, &cfg, &mut s),
            Err(Failure::Rejected(_))
        ));
        // A stored solver move that is not the mate.
        let wrong_move = puzzle(fen, "i3i2 e1e9", "mate1");
        assert_eq!(
            recheck(Variant::Xiangqi, &wrong_move, &cfg, &mut s),
            Err(Failure::Differs {
                index: 1,
                found: "e1d1".into(),
                stored: "e1e9".into()
            })
        );
        let illegal = puzzle(fen, "i3i2 e1f2", "mate1");
        assert_eq!(
            recheck(Variant::Xiangqi, &illegal, &cfg, &mut s),
            Err(Failure::Illegal(1))
        );
        let no_kind = puzzle(fen, "i3i2 e1d1", "endgame");
        assert_eq!(
            recheck(Variant::Xiangqi, &no_kind, &cfg, &mut s),
            Err(Failure::NoKind)
        );
    }
}
