//! An exhaustive solver for short forced wins, independent of the search:
//! plain minimax over every legal move, no pruning, no evaluation. It
//! verifies the tactics suite (each position really is a forced win in N,
//! and which first moves achieve it), so the suite does not trust the engine
//! it tests.

use qiyuan_xiangqi::{Move, Position};

/// Whether the side to move has lost right now: no legal move at the start
/// of a turn (checkmate or stalemate, X1/J18), or (Jifen) the opponent's
/// score has reached the target (J17).
fn lost_now(pos: &Position) -> bool {
    if pos.variant().is_jifen() {
        let s = pos.scores();
        let us = pos.side_to_move().index();
        if s[1 - us] >= pos.target() {
            return true;
        }
        if s[us] >= pos.target() {
            return false;
        }
    }
    pos.turn_state() == 1 && pos.count_legal_moves() == 0
}

/// Whether the side to move has already won (Jifen points, J17).
fn won_now(pos: &Position) -> bool {
    pos.variant().is_jifen() && pos.scores()[pos.side_to_move().index()] >= pos.target()
}

/// Whether the side to move (the attacker) forces a win within `n` of its
/// own moves, whatever the defender does.
pub fn forces_win(pos: &mut Position, n: u32) -> bool {
    !winning_moves_first(pos, n, true).is_empty()
}

/// Every first move of the side to move that forces a win within `n` of its
/// own moves.
pub fn winning_moves(pos: &mut Position, n: u32) -> Vec<Move> {
    winning_moves_first(pos, n, false)
}

fn winning_moves_first(pos: &mut Position, n: u32, stop_at_first: bool) -> Vec<Move> {
    let mut out = Vec::new();
    if n == 0 {
        return out;
    }
    let attacker = pos.side_to_move();
    for m in pos.legal_moves() {
        let undo = pos.make_move(m);
        let wins = after_attacker_move(pos, attacker, n);
        pos.unmake_move(m, undo);
        if wins {
            out.push(m);
            if stop_at_first {
                break;
            }
        }
    }
    out
}

/// After one attacker move with `n` moves allowed in all: is the win forced?
fn after_attacker_move(pos: &mut Position, attacker: qiyuan_xiangqi::Color, n: u32) -> bool {
    if pos.side_to_move() == attacker {
        // Jifen double turn: the attacker moves again, still within this move.
        return won_now(pos) || (!lost_now(pos) && forces_win(pos, n));
    }
    if lost_now(pos) {
        return true;
    }
    if won_now(pos) || n == 1 {
        return false;
    }
    // Every defence must lose.
    for r in pos.legal_moves() {
        let undo = pos.make_move(r);
        let ok = if pos.side_to_move() == attacker {
            !won_now(pos) && (lost_now(pos) || forces_win(pos, n - 1))
        } else {
            // The defender's double turn: it moves again.
            after_attacker_move_defender_again(pos, attacker, n)
        };
        pos.unmake_move(r, undo);
        if !ok {
            return false;
        }
    }
    true
}

/// The defender is to move again within its turn (Jifen double turn).
fn after_attacker_move_defender_again(
    pos: &mut Position,
    attacker: qiyuan_xiangqi::Color,
    n: u32,
) -> bool {
    if won_now(pos) {
        return false;
    }
    if lost_now(pos) {
        return true;
    }
    for r in pos.legal_moves() {
        let undo = pos.make_move(r);
        let ok = !won_now(pos)
            && (lost_now(pos) || (pos.side_to_move() == attacker && forces_win(pos, n - 1)));
        pos.unmake_move(r, undo);
        if !ok {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_wins_in_one() {
        let mut pos = Position::from_fen("4k4/1R7/9/9/9/9/9/9/9/R2K5 w - - 0 1").unwrap();
        let w = winning_moves(&mut pos, 1);
        // a0a9 mates; b8f8 stalemates (the d0 general covers d9), which also wins (X1).
        assert_eq!(
            w.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
            ["a0a9", "b8f8"]
        );
        assert!(forces_win(&mut pos, 2));
    }

    #[test]
    fn no_win_from_the_start() {
        let mut pos = Position::startpos();
        assert!(!forces_win(&mut pos, 1));
    }
}
