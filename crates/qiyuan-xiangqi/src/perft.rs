//! Perft: count the leaf nodes of the legal move tree, the standard check of
//! a move generator against published numbers.

use crate::position::{MoveList, Position};
use crate::types::Move;

/// Number of leaf positions `depth` plies below `pos` (bulk-counted at the last ply).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if score_reached(pos) {
        return 0;
    }
    let mut moves = MoveList::new();
    pos.legal_moves_into(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for &m in &moves {
        let undo = pos.make_move(m);
        nodes += perft(pos, depth - 1);
        pos.unmake_move(m, undo);
    }
    nodes
}

/// Jifen J17: a score at the target ends the game at once, so nothing is
/// played below such a node (as below a mate).
fn score_reached(pos: &Position) -> bool {
    pos.variant().is_jifen() && pos.scores().iter().any(|&s| s >= pos.target())
}

/// Perft split by root move, in generation order, for finding where two
/// generators disagree.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let moves = pos.legal_moves();
    let mut out = Vec::with_capacity(moves.len());
    for &m in &moves {
        let undo = pos.make_move(m);
        let n = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
        pos.unmake_move(m, undo);
        out.push((m, n));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_depths_1_to_3() {
        let mut p = Position::startpos();
        assert_eq!(perft(&mut p, 1), 44);
        assert_eq!(perft(&mut p, 2), 1920);
        assert_eq!(perft(&mut p, 3), 79666);
    }

    #[test]
    fn divide_sums_to_perft() {
        let mut p = Position::startpos();
        let total: u64 = divide(&mut p, 3).iter().map(|(_, n)| n).sum();
        assert_eq!(total, 79666);
    }
}
