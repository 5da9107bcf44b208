//! Perft: the number of leaves of the legal move tree, the standard check of
//! a move generator. It counts what `moves` prints (T13): every (start, end)
//! pair once, and the pass (T6), so every position has at least one move.
//! The tree is the generator's alone: perft does not stop at a won position.

use crate::position::{Move, Position};

/// Number of move sequences of length `depth` from `pos` (bulk-counted at
/// the last ply).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves() as u64,
        _ => {
            let mut moves = Vec::with_capacity(64);
            pos.legal_moves_into(&mut moves);
            moves.iter().map(|&m| perft(&pos.after(m), depth - 1)).sum()
        }
    }
}

/// Perft split by root move, in generation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    pos.legal_moves()
        .into_iter()
        .map(|m| (m, perft(&pos.after(m), depth.saturating_sub(1))))
        .collect()
}
