//! Perft: the number of move sequences of a given length. A line that
//! ends the game early (a taken flag, no piece to move) counts nothing, as
//! a mate does in chess perft.

use crate::piece::Clash;
use crate::position::{Position, Rules};

/// Leaf count at `depth` plies.
pub fn perft(p: &Position, depth: u32, rules: Rules) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = p.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut n = 0;
    for m in moves {
        let mut q = p.clone();
        if q.make(m, rules).clash == Some(Clash::FlagTaken) {
            continue;
        }
        n += perft(&q, depth - 1, rules);
    }
    n
}
