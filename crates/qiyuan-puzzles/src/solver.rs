//! An exact, full-width solver for short forced wins: every legal move of
//! the attacker and every reply of the defender, no pruning and no
//! evaluation, so a puzzle's "only move" and "no shorter mate" claims do not
//! rest on the engine's pruned search.
//!
//! A win is what the rules say ends the game for the side to move's opponent:
//! no legal move at the start of a turn (checkmate or stalemate, X1 / J18),
//! or in Jifen a score at the target (J17). Positions inside a contest double
//! turn are not handled (the generator never asks about them): every move
//! here hands the turn over.
//!
//! Proving that a move does *not* win costs far more than finding one that
//! does, so the solver counts the moves it makes and gives up past a budget
//! ([`Exceeded`]); a caller then rejects the position rather than trust a
//! partial answer.

use std::collections::HashMap;

use qiyuan_xiangqi::{Move, MoveList, PieceKind, Position};

/// The solver gave up: its move budget ran out before an answer was proven.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Exceeded;

/// Some(true): the side to move has won on points; Some(false): it has lost
/// on points (J17). None in Xiangqi and below both targets.
pub fn points_result(pos: &Position) -> Option<bool> {
    if !pos.variant().is_jifen() {
        return None;
    }
    let s = pos.scores();
    let us = pos.side_to_move().index();
    if s[us] >= pos.target() {
        Some(true)
    } else if s[1 - us] >= pos.target() {
        Some(false)
    } else {
        None
    }
}

/// Whether the position is one the solver can judge: no contest double turn
/// can start or be under way.
pub fn single_turns(pos: &Position) -> bool {
    pos.turn_state() == 1 && (pos.any_capture() || !pos.variant().has_double_moves())
}

/// The memo key: board and side, plus the Jifen scores (the same board with
/// other scores is another position).
fn key(pos: &Position) -> u64 {
    let s = pos.scores();
    pos.hash()
        ^ (s[0] as i64 as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ (s[1] as i64 as u64)
            .wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
            .rotate_left(29)
}

/// A full-width forced-win solver with a move budget and a memo of proven
/// answers.
pub struct Solver {
    nodes: u64,
    budget: u64,
    exceeded: bool,
    memo: HashMap<(u64, u32), bool>,
}

impl Solver {
    /// A solver that makes at most `budget` moves over its lifetime.
    pub fn new(budget: u64) -> Solver {
        Solver {
            nodes: 0,
            budget,
            exceeded: false,
            memo: HashMap::new(),
        }
    }

    /// Moves made so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    fn check(&self) -> Result<(), Exceeded> {
        if self.exceeded { Err(Exceeded) } else { Ok(()) }
    }

    /// Whether the side to move forces a win within `n` of its own moves.
    pub fn wins_within(&mut self, pos: &Position, n: u32) -> Result<bool, Exceeded> {
        let mut p = pos.clone();
        let r = self.attack(&mut p, n);
        self.check().map(|_| r)
    }

    /// The fewest own moves (1..=`max_n`) in which the side to move forces a
    /// win; `None` when it cannot within `max_n`.
    pub fn win_length(&mut self, pos: &Position, max_n: u32) -> Result<Option<u32>, Exceeded> {
        for n in 1..=max_n {
            if self.wins_within(pos, n)? {
                return Ok(Some(n));
            }
        }
        Ok(None)
    }

    /// Every move of the side to move that forces a win within `n` of its
    /// own moves (that move included), in legal-move order.
    pub fn winning_moves(&mut self, pos: &Position, n: u32) -> Result<Vec<Move>, Exceeded> {
        let mut p = pos.clone();
        let mut out = Vec::new();
        if n == 0 || points_result(&p).is_some() {
            return Ok(out);
        }
        for m in p.legal_moves() {
            let undo = p.make_move(m);
            self.nodes += 1;
            let w = self.after_attack(&mut p, n);
            p.unmake_move(m, undo);
            self.check()?;
            if w {
                out.push(m);
            }
        }
        Ok(out)
    }

    /// Whether, with the defender to move after one of the attacker's
    /// moves, the attacker wins within `n` moves counting that one.
    pub fn defender_loses(&mut self, pos: &Position, n: u32) -> Result<bool, Exceeded> {
        let mut p = pos.clone();
        let r = self.after_attack(&mut p, n);
        self.check().map(|_| r)
    }

    /// The attacker (side to move, game not over) looks for a move that wins
    /// within `n` of its moves.
    fn attack(&mut self, pos: &mut Position, n: u32) -> bool {
        if let Some(w) = points_result(pos) {
            return w;
        }
        if n == 0 || self.exceeded {
            return false;
        }
        let k = (key(pos), n);
        if let Some(&r) = self.memo.get(&k) {
            return r;
        }
        let mut moves = MoveList::new();
        pos.legal_moves_into(&mut moves);
        let ordered = order_attacks(pos, &moves);
        let mut found = false;
        for m in ordered {
            if self.nodes >= self.budget {
                self.exceeded = true;
                return false;
            }
            self.nodes += 1;
            let undo = pos.make_move(m);
            let w = self.after_attack(pos, n);
            pos.unmake_move(m, undo);
            if w {
                found = true;
                break;
            }
            if self.exceeded {
                return false;
            }
        }
        self.memo.insert(k, found);
        found
    }

    /// The defender is to move after an attacker's move: does every reply
    /// lose within the attacker's remaining `n - 1` moves?
    fn after_attack(&mut self, pos: &mut Position, n: u32) -> bool {
        if let Some(defender_won) = points_result(pos) {
            return !defender_won;
        }
        let mut replies = MoveList::new();
        pos.legal_moves_into(&mut replies);
        if replies.is_empty() {
            return true;
        }
        if n <= 1 || self.exceeded {
            return false;
        }
        // Replies likely to refute first: captures (of the attacker), then
        // general moves, then the rest.
        let mut order: Vec<(i32, Move)> = replies
            .iter()
            .map(|&m| {
                let cap = pos.piece_at(m.to()).map_or(0, |p| victim_value(p.kind()));
                let king = pos
                    .piece_at(m.from())
                    .is_some_and(|p| p.kind() == PieceKind::King);
                (-(cap * 10 + king as i32 * 5), m)
            })
            .collect();
        order.sort_by_key(|&(s, m)| (s, crate::text_order(m)));
        for (_, r) in order {
            if self.nodes >= self.budget {
                self.exceeded = true;
                return false;
            }
            self.nodes += 1;
            let undo = pos.make_move(r);
            let ok = self.attack(pos, n - 1);
            pos.unmake_move(r, undo);
            if !ok {
                return false;
            }
        }
        true
    }
}

fn victim_value(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::King => 100,
        PieceKind::Rook => 9,
        PieceKind::Cannon | PieceKind::Horse => 4,
        PieceKind::Advisor | PieceKind::Elephant => 2,
        PieceKind::Pawn => 1,
    }
}

/// Attacker moves, checks first, then captures, then the rest: a win is
/// usually forced by checks, and the search stops at the first winner.
fn order_attacks(pos: &Position, moves: &MoveList) -> Vec<Move> {
    let mut scored: Vec<(i32, u32, Move)> = moves
        .iter()
        .enumerate()
        .map(|(i, &m)| {
            let check = pos.gives_check(m) as i32;
            let cap = pos.piece_at(m.to()).map_or(0, |p| victim_value(p.kind()));
            (-(check * 1000 + cap), i as u32, m)
        })
        .collect();
    scored.sort_by_key(|&(s, i, _)| (s, i));
    scored.into_iter().map(|(_, _, m)| m).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_in_one_is_found_and_is_the_only_winner() {
        // Black general d9 and a free soldier i3 (so nothing stalemates); the
        // rook's e1d1 closes the d-file while the red general e0 holds the e-file.
        let pos = Position::from_fen("3k5/9/9/9/9/9/8p/9/4R4/4K4 w - - 0 1").unwrap();
        let mut s = Solver::new(1_000_000);
        assert_eq!(s.win_length(&pos, 2).unwrap(), Some(1));
        let w: Vec<String> = s
            .winning_moves(&pos, 1)
            .unwrap()
            .iter()
            .map(|m| m.to_string())
            .collect();
        assert_eq!(w, ["e1d1"]);
    }

    #[test]
    fn a_tiny_budget_gives_up() {
        let pos = Position::startpos();
        let mut s = Solver::new(10);
        assert_eq!(s.win_length(&pos, 2), Err(Exceeded));
    }

    #[test]
    fn start_position_has_no_short_win() {
        let pos = Position::startpos();
        let mut s = Solver::new(10_000_000);
        assert_eq!(s.win_length(&pos, 1).unwrap(), None);
    }
}
