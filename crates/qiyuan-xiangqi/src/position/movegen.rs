//! Legal move generation: pseudo-legal moves per piece, then a legality
//! filter. When the side to move is not in check, a non-general move can only
//! expose its own general if it leaves the general's rank or file, leaves a
//! horse-leg point next to the general, or lands on the general's rank or file
//! (a new cannon screen); only those lines are re-scanned.

use super::*;

impl Position {
    /// Every legal move of the side to move, appended to `out`.
    pub fn legal_moves_into(&self, out: &mut MoveList) {
        if self.variant.is_jifen() {
            self.jifen_legal_moves_into(out);
            return;
        }
        self.legal_plain_moves_into(out, |_| true);
    }

    /// Plain Xiangqi: the legal moves that pass `wanted` (tested before the
    /// costlier king-safety test), appended to `out`.
    #[inline(always)]
    fn legal_plain_moves_into(&self, out: &mut MoveList, wanted: impl Fn(Move) -> bool) {
        let start = out.len();
        self.pseudo_moves::<false>(out);
        let us = self.side;
        let ksq = self.kings[us.index()].raw();
        let in_check = self.king_attacked(us);
        let mut i = start;
        while i < out.len() {
            let m = out[i];
            if wanted(m) && self.is_legal_pseudo(m, ksq, in_check) {
                i += 1;
            } else {
                out.swap_remove(i);
            }
        }
    }

    /// The legal captures of the side to move, appended to `out` (the
    /// engine's quiescence search). Plain Xiangqi tests king safety for
    /// captures only; Jifen keeps the captures without a class change of the
    /// full legal list.
    pub fn legal_captures_into(&self, out: &mut MoveList) {
        let start = out.len();
        if self.variant.is_jifen() {
            self.jifen_legal_moves_into(out);
            let mut i = start;
            while i < out.len() {
                let m = out[i];
                if !m.is_pass() && self.board[m.to().raw()] != EMPTY && m.new_class().is_none() {
                    i += 1;
                } else {
                    out.swap_remove(i);
                }
            }
            return;
        }
        self.legal_plain_moves_into(out, |m| self.board[m.to().raw()] != EMPTY);
    }

    /// Every legal move of the side to move.
    pub fn legal_moves(&self) -> MoveList {
        let mut out = MoveList::new();
        self.legal_moves_into(&mut out);
        out
    }

    /// Counts the legal moves without keeping them (perft's last ply).
    pub fn count_legal_moves(&self) -> usize {
        self.legal_moves().len()
    }

    /// Jifen legal moves: every base move with each allowed class change (J7-J9),
    /// no capture on contest turn 1 (J13), and the pass of a double turn (J14).
    /// Kept out of line so plain Xiangqi's generator stays small.
    #[inline(never)]
    fn jifen_legal_moves_into(&self, out: &mut MoveList) {
        let mut pseudo = MoveList::new();
        self.pseudo_moves::<true>(&mut pseudo);
        let first_turn = self.is_contest_first_turn();
        let classes = self.variant.classes();
        let us = self.side.index();
        let ksq = self.kings[us].raw();
        // When the general is the mover's only royal piece and is not attacked,
        // a non-general move can only expose it through the lines `may_expose`
        // names (geometry ignores class, J2): other moves skip the full test.
        let only_the_general = !self.has_other_royals(self.side);
        let quiet = only_the_general && !self.royal_attacked(self.side);
        for &m in &pseudo {
            let from = m.from().raw();
            let to = m.to().raw();
            let captures = self.board[to] != EMPTY;
            if first_turn && captures {
                continue;
            }
            let moved = self.board[from];
            let may_change =
                !(self.variant.class_change_needs_capture() && !self.any_capture && !captures);
            let current = Class::from_code(moved);
            if moved & 7 == KING {
                // The general's class decides which pieces may take it: judge each form.
                if self.jifen_move_keeps_royals_safe(from, to, moved) {
                    out.push(m);
                }
                if may_change {
                    for &c in classes {
                        let placed = Piece::from_code(moved).with_class(c).code();
                        if c != current && self.jifen_move_keeps_royals_safe(from, to, placed) {
                            out.push(m.with_class(c));
                        }
                    }
                }
                continue;
            }
            // Any other piece only matters as a royal itself (Royal class): judge
            // the other royals once, then whether the piece may stand Royal on `to`.
            let plain = Piece::from_code(moved).with_class(Class::Normal).code();
            if (!quiet || may_expose(from, to, ksq))
                && !self.jifen_move_keeps_royals_safe(from, to, plain)
            {
                continue;
            }
            let mut royal_ok: Option<bool> = None;
            let mut royal_safe = || {
                *royal_ok.get_or_insert_with(|| {
                    let placed = Piece::from_code(moved).with_class(Class::Royal).code();
                    self.jifen_move_keeps_royals_safe(from, to, placed)
                })
            };
            if current != Class::Royal || royal_safe() {
                out.push(m);
            }
            if may_change {
                for &c in classes {
                    if c != current && (c != Class::Royal || royal_safe()) {
                        out.push(m.with_class(c));
                    }
                }
            }
        }
        if self.turn_state == 2 {
            out.push(Move::PASS);
        }
    }

    /// J5: after moving the piece from `from` to `to` as `placed` (its class
    /// after any change), no royal piece of the mover is attacked and the
    /// generals do not face each other.
    fn jifen_move_keeps_royals_safe(&self, from: usize, to: usize, placed: u8) -> bool {
        let b = &self.board;
        let get = |s: usize| {
            if s == from {
                EMPTY
            } else if s == to {
                placed
            } else {
                b[s]
            }
        };
        let us = self.side.index();
        let ksq = self.kings[us].raw();
        let k = if ksq == from { to } else { ksq };
        // Only contest rules have Royal-class pieces to look for besides the general.
        let occ = if self.variant.has_class(Class::Royal) {
            (self.occ[us] & !(1u128 << IDX90[from])) | (1u128 << IDX90[to])
        } else {
            0
        };
        !royal_attacked_with(get, occ, k, self.side)
    }

    /// Whether `color` has a Royal-class piece besides its general (contest rules).
    fn has_other_royals(&self, color: Color) -> bool {
        if !self.variant.has_class(Class::Royal) {
            return false;
        }
        let mut bits = self.occ[color.index()];
        while bits != 0 {
            let s = SQ90[bits.trailing_zeros() as usize] as usize;
            bits &= bits - 1;
            let p = self.board[s];
            if p & 7 != KING && Class::from_code(p) == Class::Royal {
                return true;
            }
        }
        false
    }

    /// Whether `m` is a legal move here (for moves from outside, e.g. parsed text).
    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_moves().contains(&m)
    }

    /// Whether playing the legal move `m` checks the opponent's general
    /// (including discovered checks and facing generals is impossible after a legal move).
    pub fn gives_check(&self, m: Move) -> bool {
        if self.variant.is_jifen() {
            if m.is_pass() {
                return false;
            }
            let mut after = self.clone();
            after.make_move(m);
            return after.royal_attacked(self.side.flip());
        }
        let from = m.from().raw();
        let to = m.to().raw();
        let moved = self.board[from];
        let b = &self.board;
        let them = self.side.flip();
        let ksq = self.kings[them.index()].raw();
        king_attacked_with::<false, _>(
            |s| {
                if s == from {
                    EMPTY
                } else if s == to {
                    moved
                } else {
                    b[s]
                }
            },
            ksq,
            self.side,
        )
    }

    /// Whether a pseudo-legal move keeps the mover's general safe.
    #[inline(always)]
    fn is_legal_pseudo(&self, m: Move, ksq: usize, in_check: bool) -> bool {
        let from = m.from().raw();
        let to = m.to().raw();
        if !in_check && from != ksq {
            return !may_expose(from, to, ksq) || !self.exposes_king(from, to, ksq);
        }
        let moved = self.board[from];
        let k = if from == ksq { to } else { ksq };
        let b = &self.board;
        !king_attacked_with::<false, _>(
            |s| {
                if s == from {
                    EMPTY
                } else if s == to {
                    moved
                } else {
                    b[s]
                }
            },
            k,
            self.side.flip(),
        )
    }

    /// For a non-general move when not in check: whether it opens a line or a
    /// horse leg onto the general at `ksq`, or puts a screen in front of an
    /// enemy cannon. Only the lines through `from` and `to` can change, so only
    /// those are scanned (plain Xiangqi).
    #[inline(always)]
    fn exposes_king(&self, from: usize, to: usize, ksq: usize) -> bool {
        let b = &self.board;
        let moved = b[from];
        let t8 = self.side.flip().bit();
        let get = |s: usize| {
            if s == from {
                EMPTY
            } else if s == to {
                moved
            } else {
                b[s]
            }
        };
        let d_from = line_step(ksq, from);
        if d_from != 0 && ray_attacks(get, ksq, d_from, t8) {
            return true;
        }
        let d_to = line_step(ksq, to);
        if d_to != 0 && d_to != d_from && ray_attacks(get, ksq, d_to, t8) {
            return true;
        }
        // A horse leg next to the general: the horse behind it now attacks,
        // unless this move captured it.
        for (leg, h1, h2) in HORSE_ATTACKS {
            if (ksq as isize + leg) as usize == from {
                let a = (ksq as isize + h1) as usize;
                let c = (ksq as isize + h2) as usize;
                return (a != to && b[a] & 15 == HORSE | t8)
                    || (c != to && b[c] & 15 == HORSE | t8);
            }
        }
        false
    }

    /// Generates pseudo-legal moves (geometry and capture rights, not king safety).
    pub(crate) fn pseudo_moves<const J: bool>(&self, out: &mut MoveList) {
        let us = self.side;
        let them8 = us.flip().bit();
        let b = &self.board;
        let mut bits = self.occ[us.index()];
        while bits != 0 {
            let from = SQ90[bits.trailing_zeros() as usize] as usize;
            bits &= bits - 1;
            let p = b[from];
            let cls = class_bits(p);
            if J && cls == Class::Idle as usize {
                self.gen_piece::<J, true>(out, from, p, them8, cls);
            } else {
                self.gen_piece::<J, false>(out, from, p, them8, cls);
            }
        }
    }

    /// Generates the moves of one piece. `IDLE` pieces never capture (J4).
    #[inline(always)]
    fn gen_piece<const J: bool, const IDLE: bool>(
        &self,
        out: &mut MoveList,
        from: usize,
        p: u8,
        them8: u8,
        cls: usize,
    ) {
        let b = &self.board;
        // May the piece land on a point holding `t`?
        let lands = |t: u8| -> bool {
            t == EMPTY || (!IDLE && (t & 0x88) == them8 && (!J || CAN_CAPTURE[cls][class_bits(t)]))
        };
        // The list's capacity exceeds any position's move count, so push cannot fail.
        let push = |out: &mut MoveList, to: usize| out.push(Move::from_raw(from, to));
        match p & 7 {
            KING => {
                for d in ORTHO {
                    let to = (from as isize + d) as usize;
                    if IN_PALACE[to] && lands(b[to]) {
                        push(out, to);
                    }
                }
            }
            ADVISOR => {
                for d in DIAG {
                    let to = (from as isize + d) as usize;
                    if IN_PALACE[to] && lands(b[to]) {
                        push(out, to);
                    }
                }
            }
            ELEPHANT => {
                let own_red = red_half(from);
                for d in DIAG {
                    let eye = (from as isize + d) as usize;
                    let to = (from as isize + 2 * d) as usize;
                    // Two diagonal steps from the board never leave the 16x16 array.
                    if b[eye] == EMPTY && IN_BOARD[to] && red_half(to) == own_red && lands(b[to]) {
                        push(out, to);
                    }
                }
            }
            HORSE => {
                for (leg, d) in HORSE_MOVES {
                    if b[(from as isize + leg) as usize] != EMPTY {
                        continue;
                    }
                    let to = (from as isize + d) as usize;
                    let t = b[to];
                    if t != OFFBOARD && lands(t) {
                        push(out, to);
                    }
                }
            }
            ROOK => {
                for d in ORTHO {
                    let mut to = (from as isize + d) as usize;
                    loop {
                        let t = b[to];
                        if t == EMPTY {
                            push(out, to);
                        } else {
                            if t != OFFBOARD && lands(t) {
                                push(out, to);
                            }
                            break;
                        }
                        to = (to as isize + d) as usize;
                    }
                }
            }
            CANNON => {
                for d in ORTHO {
                    let mut to = (from as isize + d) as usize;
                    while b[to] == EMPTY {
                        push(out, to);
                        to = (to as isize + d) as usize;
                    }
                    if IDLE || b[to] == OFFBOARD {
                        continue;
                    }
                    to = (to as isize + d) as usize;
                    while b[to] == EMPTY {
                        to = (to as isize + d) as usize;
                    }
                    let t = b[to];
                    if t != OFFBOARD
                        && (t & 0x88) == them8
                        && (!J || CAN_CAPTURE[cls][class_bits(t)])
                    {
                        push(out, to);
                    }
                }
            }
            _ => {
                let color = Piece::from_code(p).color();
                let fwd = (from as isize + color.forward() as isize) as usize;
                let t = b[fwd];
                if t != OFFBOARD && lands(t) {
                    push(out, fwd);
                }
                if crossed(color, from) {
                    for d in [1isize, -1] {
                        let to = (from as isize + d) as usize;
                        let t = b[to];
                        if t != OFFBOARD && lands(t) {
                            push(out, to);
                        }
                    }
                }
            }
        }
    }
}
