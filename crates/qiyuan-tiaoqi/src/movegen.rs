//! Move generation (T4-T7): steps, jump chains and the pass.
//!
//! A jump chain is found by a flood fill over landing holes, breadth first:
//! every hop's legality depends only on the hop (jumped pieces stay, the
//! moving piece is lifted off its start hole for the whole chain), so the
//! holes a chain can end on are exactly those reachable in the graph of
//! hops, and the first time the fill reaches a hole it has found a shortest
//! chain there, which is the path printed (T13). Each (start, end) pair is
//! generated once, whatever the number of chains between them.

use crate::geometry::{Bits, CELLS, Cell, JUMPS, NEIGHBOURS, cells};
use crate::position::{Move, Position, REPETITIONS_ALLOWED};

/// Where the pieces of a chain came from: `parent[c]` is the hole before `c`
/// on the shortest chain the fill found.
type Parents = [u8; CELLS];

impl Position {
    /// Holes the piece on `from` can reach with a jump chain (T4, T5),
    /// recording for each the hole it was reached from.
    fn jump_fill(&self, from: Cell, mut parents: Option<&mut Parents>) -> Bits {
        let seat = self.turn;
        let allowed = seat.allowed();
        // The moving piece is off the board during its chain: it cannot be
        // jumped over, and its start hole is empty (but already visited).
        let occ = self.occupied() & !from.bit();
        let over_ok = occ & allowed; // T5: never over a closed camp's holes
        let land_ok = !occ & allowed; // T5: never into one
        let mut visited = from.bit();
        let mut frontier = from.bit();
        while frontier != 0 {
            let mut next = 0;
            for c in cells(frontier) {
                let (hops, n) = &JUMPS[c.index()];
                for &(over, land) in &hops[..*n as usize] {
                    let land_bit = 1u128 << land;
                    if over_ok >> over & 1 != 0 && land_ok & !visited & land_bit != 0 {
                        visited |= land_bit;
                        next |= land_bit;
                        if let Some(p) = parents.as_deref_mut() {
                            p[land as usize] = c.index() as u8;
                        }
                    }
                }
            }
            frontier = next;
        }
        visited & !from.bit()
    }

    /// Holes the piece on `from` can end on with a step (T4, T5).
    fn step_targets(&self, from: Cell) -> Bits {
        NEIGHBOURS[from.index()] & !self.occupied() & self.turn.allowed()
    }

    /// Every end hole of a move of the piece on `from` (steps and chains
    /// never share an end: a chain moves an even number of cells), less the
    /// one T7 forbids.
    pub fn targets(&self, from: Cell) -> Bits {
        if self.pieces(self.turn) & from.bit() == 0 {
            return 0;
        }
        let mut t = self.step_targets(from) | self.jump_fill(from, None);
        if let Some(back) = self.forbidden_return(from) {
            t &= !back.bit();
        }
        t
    }

    /// T7: the hole the piece on `from` may not return to, once the side to
    /// move has used up its repetitions.
    fn forbidden_return(&self, from: Cell) -> Option<Cell> {
        let s = self.turn.index();
        match self.last[s] {
            Some((was, now)) if now == from && self.reps[s] >= REPETITIONS_ALLOWED => Some(was),
            _ => None,
        }
    }

    /// Every legal move of the side to move: the piece moves in order of
    /// their start hole then end hole (index order, south to north, west to
    /// east), then [`Move::Pass`] (T6). Nothing once no seat is in play.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::with_capacity(64);
        self.legal_moves_into(&mut out);
        out
    }

    /// [`Position::legal_moves`] into a reused buffer (cleared first).
    pub fn legal_moves_into(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.in_play == 0 {
            return;
        }
        for from in cells(self.pieces(self.turn)) {
            for to in cells(self.targets(from)) {
                out.push(Move::Go { from, to });
            }
        }
        out.push(Move::Pass);
    }

    /// The number of legal moves, pass included, without listing them.
    pub fn count_moves(&self) -> usize {
        if self.in_play == 0 {
            return 0;
        }
        cells(self.pieces(self.turn))
            .map(|from| self.targets(from).count_ones() as usize)
            .sum::<usize>()
            + 1
    }

    /// Whether `m` is legal for the side to move.
    pub fn is_legal(&self, m: Move) -> bool {
        match m {
            Move::Pass => self.in_play != 0,
            Move::Go { from, to } => self.in_play != 0 && self.targets(from) & to.bit() != 0,
        }
    }

    /// The holes of a legal move in order: `[from, to]` for a step, one
    /// shortest chain for a jump (T13); `None` for a pass or an illegal move.
    pub fn path(&self, m: Move) -> Option<Vec<Cell>> {
        let Move::Go { from, to } = m else {
            return None;
        };
        if !self.is_legal(m) {
            return None;
        }
        if self.step_targets(from) & to.bit() != 0 {
            return Some(vec![from, to]);
        }
        let mut parents = [u8::MAX; CELLS];
        self.jump_fill(from, Some(&mut parents));
        let mut path = vec![to];
        let mut at = to;
        while at != from {
            at = Cell::from_index(usize::from(parents[at.index()]))?;
            path.push(at);
        }
        path.reverse();
        Some(path)
    }

    /// The move text of a legal move (T13): its holes joined by `-`, or
    /// `pass`.
    pub fn move_text(&self, m: Move) -> String {
        match self.path(m) {
            Some(p) => p.iter().map(Cell::to_string).collect::<Vec<_>>().join("-"),
            None => m.to_string(),
        }
    }
}
