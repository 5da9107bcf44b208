//! A puzzle's first rating, before anyone has played it, from how hard it
//! is to find: on the Glicko-2 scale (centred on 1500), kept within
//! 800..=2600 so the players' ratings move it from a sensible start.

/// What makes a puzzle hard.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Difficulty {
    /// The solver's moves in the solution.
    pub solver_moves: u32,
    /// Other forcing first moves (checks and captures) a solver might try.
    pub plausible: u32,
    /// The engine depth at which the first move became (and stayed) its choice.
    pub found_depth: i32,
    /// The first move neither checks nor captures.
    pub quiet: bool,
    /// The first move puts the piece where it can be taken at a loss.
    pub sacrifice: bool,
    /// A defence puzzle: seeing the threat is half the work.
    pub defence: bool,
}

/// Lowest first rating.
pub const MIN_RATING: i32 = 800;
/// Highest first rating.
pub const MAX_RATING: i32 = 2600;

/// The first rating of a puzzle of this difficulty.
pub fn initial_rating(d: &Difficulty) -> i32 {
    let mut r = 1000;
    r += 250 * d.solver_moves.saturating_sub(1) as i32;
    r += 60 * d.found_depth.clamp(1, 14);
    r += 20 * d.plausible.min(12) as i32;
    if d.quiet {
        r += 150;
    }
    if d.sacrifice {
        r += 150;
    }
    if d.defence {
        r += 150;
    }
    r.clamp(MIN_RATING, MAX_RATING)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn longer_and_quieter_puzzles_rate_higher() {
        let easy = Difficulty {
            solver_moves: 1,
            found_depth: 1,
            ..Difficulty::default()
        };
        let hard = Difficulty {
            solver_moves: 3,
            found_depth: 6,
            quiet: true,
            plausible: 5,
            ..Difficulty::default()
        };
        assert!(initial_rating(&easy) < 1200);
        assert!(initial_rating(&hard) > 1500);
        let extreme = Difficulty {
            solver_moves: 9,
            found_depth: 14,
            plausible: 40,
            quiet: true,
            sacrifice: true,
            defence: true,
        };
        assert_eq!(initial_rating(&extreme), MAX_RATING);
    }
}
