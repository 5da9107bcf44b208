//! A position: where every piece stands, who is to move, who is still in
//! play, and the repetition counters of T7 that decide which moves are legal.
//!
//! Positions are small (about 130 bytes) and copied: [`Position::make`]
//! returns nothing and changes `self`; searches copy the position before a
//! move instead of undoing it (copy-make).

use std::fmt;

use crate::geometry::{Bits, Cell, Seat, Setup, cells};

/// Repetitions a player may make (T7); after this many, returning a piece to
/// where it stood two of the player's moves earlier is illegal.
pub const REPETITIONS_ALLOWED: u8 = 3;

/// A move (T4, T6), identified by its start and end cells (T13); the path a
/// jump chain takes is not part of it ([`Position::path`] finds one).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Move {
    /// A step or a jump chain of the piece on `from` ending on `to`.
    Go {
        /// The moving piece's hole.
        from: Cell,
        /// Where it ends.
        to: Cell,
    },
    /// 等着: the player moves nothing (T6).
    Pass,
}

impl fmt::Display for Move {
    /// `start-end` or `pass`; [`Position::move_text`] writes the full path.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Go { from, to } => write!(f, "{from}-{to}"),
            Move::Pass => f.write_str("pass"),
        }
    }
}

/// A position of a game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) setup: Setup,
    /// Pieces of each seat, by seat index.
    pub(crate) pieces: [Bits; 6],
    pub(crate) turn: Seat,
    /// Seats still moving, as a mask of seat indices.
    pub(crate) in_play: u8,
    /// T7: each seat's last move (from, to), `None` after a pass or at the start.
    pub(crate) last: [Option<(Cell, Cell)>; 6],
    /// T7: repetitions made by each seat.
    pub(crate) reps: [u8; 6],
}

impl Position {
    /// The start position of a seating (T2, T3, T12): every seated camp full,
    /// the lowest seated letter (always a) to move.
    pub fn start(setup: Setup) -> Position {
        let mut pieces = [0; 6];
        for s in setup.seats() {
            pieces[s.index()] = s.start(setup.pieces());
        }
        let p = Position {
            setup,
            pieces,
            turn: Seat::A,
            in_play: setup.seats_mask(),
            last: [None; 6],
            reps: [0; 6],
        };
        p.debug_check();
        p
    }

    /// The seating this game started with.
    pub fn setup(&self) -> Setup {
        self.setup
    }

    /// The seat to move.
    pub fn turn(&self) -> Seat {
        self.turn
    }

    /// Seats still in play, in play order.
    pub fn in_play(&self) -> impl Iterator<Item = Seat> + '_ {
        Seat::ALL
            .into_iter()
            .filter(|s| self.in_play >> s.index() & 1 != 0)
    }

    /// Whether `seat` is still in play.
    pub fn is_in_play(&self, seat: Seat) -> bool {
        self.in_play >> seat.index() & 1 != 0
    }

    /// Number of seats still in play.
    pub fn players_in_play(&self) -> usize {
        self.in_play.count_ones() as usize
    }

    /// The holes of `seat`'s pieces.
    pub fn pieces(&self, seat: Seat) -> Bits {
        self.pieces[seat.index()]
    }

    /// Every occupied hole.
    pub fn occupied(&self) -> Bits {
        self.pieces.iter().fold(0, |a, b| a | b)
    }

    /// Whose piece stands on `cell`.
    pub fn piece_at(&self, cell: Cell) -> Option<Seat> {
        Seat::ALL
            .into_iter()
            .find(|s| self.pieces[s.index()] & cell.bit() != 0)
    }

    /// T7: repetitions `seat` has made.
    pub fn repetitions(&self, seat: Seat) -> u8 {
        self.reps[seat.index()]
    }

    /// T7: `seat`'s last move, if it moved a piece (not a pass).
    pub fn last_move(&self, seat: Seat) -> Option<(Cell, Cell)> {
        self.last[seat.index()]
    }

    /// T7: whether `from → to` by the side to move returns the piece to the
    /// hole it stood on two of its owner's moves earlier. Only the piece the
    /// owner moved last can: any other piece stood two moves ago where it
    /// stands now, and no move ends where it starts.
    pub fn is_repetition(&self, from: Cell, to: Cell) -> bool {
        self.last[self.turn.index()] == Some((to, from))
    }

    /// T9: the sum over `seat`'s pieces of the rows still to go.
    pub fn total_distance(&self, seat: Seat) -> u32 {
        cells(self.pieces(seat)).map(|c| seat.rows_to_go(c)).sum()
    }

    /// T9: the rows still to go of `seat`'s rearmost piece (0 without pieces).
    pub fn rearmost_distance(&self, seat: Seat) -> u32 {
        cells(self.pieces(seat))
            .map(|c| seat.rows_to_go(c))
            .max()
            .unwrap_or(0)
    }

    /// T9: whether `m`, played by the side to move, moves one of its rearmost
    /// pieces forward (to a hole with fewer rows to go).
    pub fn moves_rearmost_forward(&self, m: Move) -> bool {
        let seat = self.turn;
        match m {
            Move::Pass => false,
            Move::Go { from, to } => {
                seat.rows_to_go(from) == self.rearmost_distance(seat)
                    && seat.rows_to_go(to) < seat.rows_to_go(from)
            }
        }
    }

    /// T8: whether `seat` has filled its target: every target hole occupied,
    /// each by its own pieces or by a piece of the seat that started there
    /// (a stayer), and at least one by its own (so no seat wins at the start
    /// just because the opposite camp is still full).
    pub fn has_reached_target(&self, seat: Seat) -> bool {
        let target = seat.target(self.setup.pieces());
        let own = self.pieces(seat) & target;
        let stayer = self.pieces(seat.opposite()) & target;
        own != 0 && own | stayer == target
    }

    /// The next seat in play after `seat` (T12: a → b → … → f, skipping
    /// camps not in play); `seat` itself if it is the only one.
    pub fn next_after(&self, seat: Seat) -> Seat {
        (1..=6)
            .map(|k| Seat::ALL[(seat.index() + k) % 6])
            .find(|s| self.is_in_play(*s))
            .unwrap_or(seat)
    }

    /// Plays `m` for the side to move without checking that it is legal (the
    /// caller took it from the move generator or checked it); debug builds
    /// check the position's invariants afterwards.
    pub fn make(&mut self, m: Move) {
        let s = self.turn.index();
        match m {
            Move::Go { from, to } => {
                debug_assert!(
                    self.pieces[s] & from.bit() != 0,
                    "{from} is not the mover's"
                );
                debug_assert!(self.occupied() & to.bit() == 0, "{to} is occupied");
                self.pieces[s] ^= from.bit() | to.bit();
                if self.last[s] == Some((to, from)) {
                    self.reps[s] = self.reps[s].saturating_add(1);
                }
                self.last[s] = Some((from, to));
            }
            Move::Pass => self.last[s] = None,
        }
        self.turn = self.next_after(self.turn);
        self.debug_check();
    }

    /// The position after `m` (copy-make).
    pub fn after(&self, m: Move) -> Position {
        let mut p = self.clone();
        p.make(m);
        p
    }

    /// Takes `seat` out of play (T10 ranking, T14 leaving); `remove_pieces`
    /// also clears its pieces from the board (T14). If it was to move, the
    /// turn passes on.
    pub(crate) fn retire(&mut self, seat: Seat, remove_pieces: bool) {
        let was_turn = self.turn == seat && self.is_in_play(seat);
        let next = self.next_after(seat);
        self.in_play &= !(1 << seat.index());
        if remove_pieces {
            self.pieces[seat.index()] = 0;
        }
        if was_turn && next != seat {
            self.turn = next;
        }
        self.debug_check();
    }

    /// The invariants every position keeps; checked in debug builds after
    /// each change: no hole holds two pieces, pieces stand only where T5
    /// allows, seats in play are seated and have their full set, and the
    /// side to move is in play.
    pub(crate) fn debug_check(&self) {
        if cfg!(debug_assertions)
            && let Err(why) = self.check()
        {
            panic!("broken position invariant: {why}");
        }
    }

    pub(crate) fn check(&self) -> Result<(), String> {
        let mut seen: Bits = 0;
        for s in Seat::ALL {
            let p = self.pieces[s.index()];
            if p & seen != 0 {
                return Err(format!("two pieces on one hole ({s})"));
            }
            seen |= p;
            if p & !s.allowed() != 0 {
                return Err(format!("a piece of {s} in a closed camp"));
            }
            let seated = self.setup.seats_mask() >> s.index() & 1 != 0;
            if !seated && p != 0 {
                return Err(format!("pieces of {s}, who is not seated"));
            }
            if self.is_in_play(s) {
                if !seated {
                    return Err(format!("{s} is in play but not seated"));
                }
                if p.count_ones() != u32::from(self.setup.pieces()) {
                    return Err(format!("{s} has {} pieces", p.count_ones()));
                }
            }
        }
        if self.in_play != 0 && !self.is_in_play(self.turn) {
            return Err(format!("{} is to move but not in play", self.turn));
        }
        Ok(())
    }
}
