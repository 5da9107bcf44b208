//! The position: board, whose turn, colours, counters, chase state; the
//! position format; move generation; playing a move; the end checks that need
//! only the position (B8, B9, B10).
//!
//! The position text format (FEN-like, public and full) is read and written
//! in the `fen` submodule.

use qiyuan_core::{Chance, EndReason, MoveError, Outcome};
use rand::Rng;

use crate::types::{Colour, Kind, Move, Piece, Preset, Square, full_set};

mod fen;
pub use fen::FenError;

/// Plies after which a banqi game is drawn (B10).
pub const PLY_LIMIT: u32 = 300;
/// Plies in a row without capture or flip after which an icga game is drawn (B10).
pub const ICGA_QUIET_LIMIT: u32 = 180;
/// The most consecutive chase steps allowed; the next one is illegal (B7).
pub const CHASE_LIMIT: u8 = 10;

/// What lies on a square.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// Nothing.
    Empty,
    /// A face-up piece.
    Up(Piece),
    /// A face-down piece; its identity is known only in a full position.
    Down(Option<Piece>),
}

/// A seat's running chase (B7): its piece now on `piece` has made `steps`
/// consecutive chase steps on the enemy piece now on `target`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Chase {
    /// Where the chasing piece stands.
    pub piece: Square,
    /// Where the chased piece stands.
    pub target: Square,
    /// Consecutive chase steps so far (1..=10).
    pub steps: u8,
}

/// What a played move did, for the record and for telling players.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct Effect {
    /// The piece a flip revealed.
    pub revealed: Option<Piece>,
    /// The enemy piece a capture removed.
    pub captured: Option<Piece>,
    /// Whether the capturer was removed too (equal ranks, B4).
    pub capturer_removed: bool,
}

/// A Banqi position under one preset.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    preset: Preset,
    cells: [Cell; 32],
    turn: usize,
    seat0: Option<Colour>,
    ply: u32,
    quiet: u32,
    captured: [u8; 14],
    first_capture: [Option<Piece>; 2],
    last_step: Option<(Square, Square)>,
    chase: [Option<Chase>; 2],
    marks: [u8; 2],
}

impl Position {
    /// The start position: every piece face down as in `layout` (indexed by
    /// [`Square::index`]), seat `first` to flip first (B2), colours not yet decided.
    pub fn start(preset: Preset, layout: [Piece; 32], first: usize) -> Position {
        let mut cells = [Cell::Empty; 32];
        for (c, p) in cells.iter_mut().zip(layout) {
            *c = Cell::Down(Some(p));
        }
        Position {
            preset,
            cells,
            turn: first.min(1),
            seat0: None,
            ply: 0,
            quiet: 0,
            captured: [0; 14],
            first_capture: [None; 2],
            last_step: None,
            chase: [None; 2],
            marks: [0; 2],
        }
    }

    /// A uniformly random start (B1) with a random first seat (B2), drawn from
    /// `rng`. The hall passes a CSPRNG; a seeded `ChaCha20Rng` makes the layout
    /// reproducible from a published seed.
    pub fn random<R: Rng + ?Sized>(preset: Preset, rng: &mut R) -> Position {
        Position::from_draws(preset, |bound| rng.random_range(0..bound))
    }

    /// A random start drawn through the hall's [`Chance`] source.
    pub fn from_chance(preset: Preset, chance: &mut dyn Chance) -> Position {
        // A misbehaving source must not make us index out of range.
        Position::from_draws(preset, |bound| chance.draw(bound).min(bound - 1))
    }

    fn from_draws(preset: Preset, mut draw: impl FnMut(u32) -> u32) -> Position {
        let mut layout = [Piece::new(Colour::Red, Kind::General); 32];
        let mut n = 0;
        for (i, &count) in full_set().iter().enumerate() {
            for _ in 0..count {
                layout[n] = Piece::from_index(i);
                n += 1;
            }
        }
        // Fisher-Yates: every arrangement equally likely.
        for i in (1..32).rev() {
            let j = draw(i as u32 + 1) as usize;
            layout.swap(i, j);
        }
        let first = draw(2) as usize;
        Position::start(preset, layout, first)
    }

    /// The preset whose rules apply.
    pub fn preset(&self) -> Preset {
        self.preset
    }

    /// What lies on `sq`.
    pub fn cell(&self, sq: Square) -> Cell {
        self.cells[sq.index()]
    }

    /// The seat to move (0 or 1).
    pub fn turn(&self) -> usize {
        self.turn
    }

    /// The colour of `seat`, once the first flip has decided it (B2).
    pub fn colour_of(&self, seat: usize) -> Option<Colour> {
        self.seat0.map(|c| if seat == 0 { c } else { c.flip() })
    }

    /// The seat playing `colour`, once decided.
    pub fn seat_of(&self, colour: Colour) -> Option<usize> {
        self.seat0.map(|c| usize::from(c != colour))
    }

    /// Plies played so far (flips, moves and captures; lost turns do not count).
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// Plies since the last capture or flip.
    pub fn quiet_plies(&self) -> u32 {
        self.quiet
    }

    /// Removed pieces, counted by [`Piece::index`].
    pub fn captured(&self) -> [u8; 14] {
        self.captured
    }

    /// The first enemy piece `seat` captured (B16).
    pub fn first_capture(&self, seat: usize) -> Option<Piece> {
        self.first_capture[seat.min(1)]
    }

    /// The timeout marks of each seat (B12).
    pub fn marks(&self) -> [u8; 2] {
        self.marks
    }

    /// `seat`'s running chase (B7).
    pub fn chase(&self, seat: usize) -> Option<Chase> {
        self.chase[seat.min(1)]
    }

    /// Whether the identities of the face-down pieces are known (a full,
    /// server-side position) rather than hidden (a public view).
    pub fn is_full(&self) -> bool {
        !self.cells.contains(&Cell::Down(None))
    }

    /// The pieces that may lie face down: all 32 minus those face up minus
    /// those captured. This is public knowledge.
    pub fn hidden_pool(&self) -> [u8; 14] {
        let mut pool = full_set();
        for (i, n) in pool.iter_mut().enumerate() {
            *n = n.saturating_sub(self.captured[i]);
        }
        for c in &self.cells {
            if let Cell::Up(p) = c {
                pool[p.index()] = pool[p.index()].saturating_sub(1);
            }
        }
        pool
    }

    /// Pieces of `colour` still on the board, face up or down (B8, B14).
    pub fn pieces_left(&self, colour: Colour) -> u32 {
        let up = self
            .cells
            .iter()
            .filter(|c| matches!(c, Cell::Up(p) if p.colour == colour))
            .count() as u32;
        let pool = self.hidden_pool();
        let down: u32 = (0..14)
            .filter(|&i| Piece::from_index(i).colour == colour)
            .map(|i| u32::from(pool[i]))
            .sum();
        up + down
    }

    /// The same position with the identities of its face-down pieces
    /// shuffled anew over the same squares (a rematch of a set-up room
    /// whose layout the finished game published). A public position, whose
    /// identities are unknown, is returned as it is.
    pub fn reshuffled<R: Rng + ?Sized>(&self, rng: &mut R) -> Position {
        let mut p = self.clone();
        let mut ids: Vec<Piece> = p
            .cells
            .iter()
            .filter_map(|c| match c {
                Cell::Down(Some(piece)) => Some(*piece),
                _ => None,
            })
            .collect();
        if !self.is_full() || ids.is_empty() {
            return p;
        }
        // Fisher-Yates: every arrangement of the pool equally likely.
        for i in (1..ids.len()).rev() {
            ids.swap(i, rng.random_range(0..=i));
        }
        let mut next = ids.into_iter();
        for c in p.cells.iter_mut() {
            if let Cell::Down(Some(piece)) = c
                && let Some(drawn) = next.next()
            {
                *piece = drawn;
            }
        }
        p
    }

    /// The public view: the same position with the face-down identities forgotten.
    pub fn public(&self) -> Position {
        let mut p = self.clone();
        for c in p.cells.iter_mut() {
            if let Cell::Down(_) = c {
                *c = Cell::Down(None);
            }
        }
        p
    }

    /// Whether the piece on `from` (face up) could capture the piece on `to`
    /// now: an adjacent lower or equal rank (B3, B4), or a cannon jump (B5).
    pub fn threatens(&self, from: Square, to: Square) -> bool {
        let (Cell::Up(a), Cell::Up(b)) = (self.cell(from), self.cell(to)) else {
            return false;
        };
        if a.colour == b.colour {
            return false;
        }
        if a.kind == Kind::Cannon {
            self.cannon_reaches(from, to)
        } else {
            from.neighbours().any(|n| n == to) && a.outranks(b)
        }
    }

    /// Whether `to` lies on a line from `from` with exactly one piece between.
    fn cannon_reaches(&self, from: Square, to: Square) -> bool {
        let (ff, fr, tf, tr) = (from.file(), from.row(), to.file(), to.row());
        let between: Vec<Square> = if fr == tr {
            let (lo, hi) = (ff.min(tf), ff.max(tf));
            (lo + 1..hi).map(|f| Square::new(f, fr)).collect()
        } else if ff == tf {
            let (lo, hi) = (fr.min(tr), fr.max(tr));
            (lo + 1..hi).map(|r| Square::new(ff, r)).collect()
        } else {
            return false;
        };
        between
            .iter()
            .filter(|s| self.cell(**s) != Cell::Empty)
            .count()
            == 1
    }

    /// The moves the rules allow before the chase limit: every flip, and the
    /// steps and captures of the mover's face-up pieces.
    fn pseudo_moves(&self, out: &mut Vec<Move>) {
        for sq in Square::all() {
            if let Cell::Down(_) = self.cell(sq) {
                out.push(Move::Flip(sq));
            }
        }
        let Some(me) = self.colour_of(self.turn) else {
            return;
        };
        for from in Square::all() {
            let Cell::Up(p) = self.cell(from) else {
                continue;
            };
            if p.colour != me {
                continue;
            }
            for to in from.neighbours() {
                match self.cell(to) {
                    Cell::Empty => out.push(Move::Step { from, to }),
                    Cell::Up(t) if t.colour != me && p.outranks(t) => {
                        out.push(Move::Step { from, to })
                    }
                    _ => {}
                }
            }
            if p.kind == Kind::Cannon {
                self.cannon_captures(from, me, out);
            }
        }
    }

    fn cannon_captures(&self, from: Square, me: Colour, out: &mut Vec<Move>) {
        for (df, dr) in [(0i8, 1i8), (0, -1), (1, 0), (-1, 0)] {
            let (mut f, mut r) = (from.file() as i8, from.row() as i8);
            let mut screened = false;
            loop {
                f += df;
                r += dr;
                if !(0..8).contains(&f) || !(0..4).contains(&r) {
                    break;
                }
                let to = Square::new(f as u8, r as u8);
                match self.cell(to) {
                    Cell::Empty => {}
                    _ if !screened => screened = true,
                    Cell::Up(t) if t.colour != me => {
                        out.push(Move::Step { from, to });
                        break;
                    }
                    _ => break,
                }
            }
        }
    }

    /// Every legal move of the seat to move: flips, moves and captures, less
    /// an 11th consecutive chase step (B7, banqi only).
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut v = Vec::with_capacity(64);
        self.pseudo_moves(&mut v);
        if self.preset == Preset::Banqi {
            v.retain(|m| self.chase_steps_after(*m) <= CHASE_LIMIT);
        }
        v
    }

    /// Whether `m` is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_moves().contains(&m)
    }

    /// The mover's consecutive chase count after `m` (0 when `m` is not a
    /// chase step): the moved piece threatens the enemy piece that moved last,
    /// counting on from the mover's previous step if that chased the same piece.
    fn chase_steps_after(&self, m: Move) -> u8 {
        self.chase_after(m).map_or(0, |c| c.steps)
    }

    fn chase_after(&self, m: Move) -> Option<Chase> {
        let Move::Step { from, to } = m else {
            return None;
        };
        let (t_from, t_to) = self.last_step?;
        // B7: "made right after T moved" and P must still threaten T afterwards.
        let mut after = self.clone();
        after.move_piece(from, to);
        if !after.threatens(to, t_to) {
            return None;
        }
        let steps = match self.chase[self.turn] {
            Some(c) if c.piece == from && c.target == t_from => c.steps.saturating_add(1),
            _ => 1,
        };
        Some(Chase {
            piece: to,
            target: t_to,
            steps,
        })
    }

    /// Moves (or captures with) the piece on `from` to `to` on the board only,
    /// applying B4's equal-rank rule; returns what was captured.
    fn move_piece(&mut self, from: Square, to: Square) -> Effect {
        let Cell::Up(p) = self.cell(from) else {
            return Effect::default();
        };
        let mut e = Effect::default();
        if let Cell::Up(t) = self.cell(to) {
            e.captured = Some(t);
            e.capturer_removed = self.preset == Preset::Banqi && t.kind == p.kind;
        }
        self.cells[from.index()] = Cell::Empty;
        self.cells[to.index()] = if e.capturer_removed {
            Cell::Empty
        } else {
            Cell::Up(p)
        };
        e
    }

    /// Plays `m` for the seat to move. A flip needs the identity of the piece,
    /// so it is refused on a public view.
    pub fn play(&mut self, m: Move) -> Result<Effect, MoveError> {
        if !self.is_legal(m) {
            return Err(MoveError::Illegal {
                text: m.to_string(),
                why: self.why_illegal(m),
            });
        }
        if let Move::Flip(sq) = m {
            let Cell::Down(Some(p)) = self.cell(sq) else {
                return Err(MoveError::Illegal {
                    text: m.to_string(),
                    why: format!(
                        "the piece under {sq} is not known in a public view; \
                         play flips on the server's full position"
                    ),
                });
            };
            return Ok(self.play_flip_as(sq, p));
        }
        Ok(self.play_unchecked(m))
    }

    /// Plays a legal step or capture without checking it (flips must go through
    /// [`Position::play_flip_as`]).
    pub(crate) fn play_unchecked(&mut self, m: Move) -> Effect {
        let Move::Step { from, to } = m else {
            return Effect::default();
        };
        let chase = if self.preset == Preset::Banqi {
            self.chase_after(m)
        } else {
            None
        };
        let moved = self.cell(from);
        let e = self.move_piece(from, to);
        if let (Some(t), Cell::Up(p)) = (e.captured, moved) {
            self.captured[t.index()] += 1;
            if e.capturer_removed {
                self.captured[p.index()] += 1;
            }
            let seat = self.turn;
            if self.first_capture[seat].is_none() {
                self.first_capture[seat] = Some(t);
            }
        }
        self.chase[self.turn] = chase;
        self.last_step = Some((from, to));
        self.ply += 1;
        self.quiet = if e.captured.is_some() {
            0
        } else {
            self.quiet + 1
        };
        self.turn ^= 1;
        e
    }

    /// Flips the piece on `sq` as `p`, deciding the colours on the first flip
    /// (B2). The AI uses this to try each possible identity.
    pub fn play_flip_as(&mut self, sq: Square, p: Piece) -> Effect {
        self.cells[sq.index()] = Cell::Up(p);
        if self.seat0.is_none() {
            self.seat0 = Some(if self.turn == 0 {
                p.colour
            } else {
                p.colour.flip()
            });
        }
        self.chase[self.turn] = None;
        self.last_step = None;
        self.ply += 1;
        self.quiet = 0;
        self.turn ^= 1;
        Effect {
            revealed: Some(p),
            ..Effect::default()
        }
    }

    /// The seat to move loses its turn and gets a timeout mark (B12). Returns
    /// the seat's marks now.
    pub fn pass_turn(&mut self) -> u8 {
        let seat = self.turn;
        self.marks[seat] = self.marks[seat].saturating_add(1);
        self.chase[seat] = None;
        self.last_step = None;
        self.turn ^= 1;
        self.marks[seat]
    }

    /// Why `m` is not legal, in words a player can act on.
    fn why_illegal(&self, m: Move) -> String {
        match m {
            Move::Flip(sq) => format!("there is no face-down piece on {sq} to flip"),
            Move::Step { from, to } => {
                let me = self.colour_of(self.turn);
                match self.cell(from) {
                    Cell::Empty => format!("there is no piece on {from}"),
                    Cell::Down(_) => {
                        format!("the piece on {from} is face down; flip it with {from}{from}")
                    }
                    Cell::Up(p) if Some(p.colour) != me => {
                        format!("the piece on {from} is not yours")
                    }
                    Cell::Up(p) => match self.cell(to) {
                        Cell::Down(_) => format!("face-down pieces cannot be captured ({to}, B6)"),
                        Cell::Up(t) if t.colour == p.colour => format!("{to} holds your own piece"),
                        Cell::Up(t) if p.kind == Kind::Cannon => format!(
                            "a cannon captures only by jumping over exactly one piece (B5); \
                             it cannot take {t} on {to} from {from}"
                        ),
                        Cell::Up(_) if !from.neighbours().any(|n| n == to) => {
                            format!("{p} moves one square; {to} is not next to {from}")
                        }
                        Cell::Up(t) if !p.outranks(t) => {
                            format!("{p} may not capture {t} (ranks, B3)")
                        }
                        Cell::Empty if !from.neighbours().any(|n| n == to) => {
                            format!("{p} moves one square orthogonally; {to} is not next to {from}")
                        }
                        _ if self.chase_steps_after(m) > CHASE_LIMIT => format!(
                            "this would be an 11th consecutive chase step of the piece on \
                             {from} (B7)"
                        ),
                        _ => "not a legal move here".into(),
                    },
                }
            }
        }
    }

    /// How the game stands by the position alone: all pieces of a side gone
    /// (B8), no move (B9), the ply limit (B10), a third
    /// timeout mark (B12). Repetition needs the game record.
    pub fn status(&self) -> Option<Outcome> {
        for seat in 0..2 {
            if self.marks[seat] >= 3 {
                return Some(Outcome {
                    winner: Some(seat ^ 1),
                    partners: Vec::new(),
                    reason: EndReason::Timeout,
                    explanation: format!(
                        "座位{n}第三次超时, 判负 / seat {n} ran out of time a third time and loses",
                        n = seat + 1
                    ),
                });
            }
        }
        if self.seat0.is_some() {
            let red = self.pieces_left(Colour::Red);
            let black = self.pieces_left(Colour::Black);
            if red == 0 && black == 0 {
                return Some(Outcome {
                    winner: None,
                    partners: Vec::new(),
                    reason: EndReason::DeadPosition,
                    explanation: "双方棋子同归于尽, 和棋 / the last pieces of both sides \
                                  were removed together: draw"
                        .into(),
                });
            }
            for colour in [Colour::Red, Colour::Black] {
                if self.pieces_left(colour) == 0 {
                    let (zh, en) = colour.names();
                    return Some(Outcome {
                        winner: self.seat_of(colour.flip()),
                        partners: Vec::new(),
                        reason: EndReason::Checkmate,
                        explanation: format!(
                            "{zh}方棋子被吃光, 判负 / all {en} pieces were captured: {en} loses"
                        ),
                    });
                }
            }
        }
        if self.legal_moves().is_empty() {
            let (zh, en) = self
                .colour_of(self.turn)
                .map_or(("先手", "the first player"), Colour::names);
            return Some(Outcome {
                winner: Some(self.turn ^ 1),
                partners: Vec::new(),
                reason: EndReason::Stalemate,
                explanation: format!("{zh}方无棋可走, 判负 / {en} cannot move and loses"),
            });
        }
        match self.preset {
            Preset::Banqi if self.ply >= PLY_LIMIT => Some(Outcome {
                winner: None,
                partners: Vec::new(),
                reason: EndReason::MoveLimit,
                explanation: format!(
                    "{PLY_LIMIT}步未分胜负, 和棋 / {PLY_LIMIT} plies played: draw"
                ),
            }),
            Preset::Icga if self.quiet >= ICGA_QUIET_LIMIT => Some(Outcome {
                winner: None,
                partners: Vec::new(),
                reason: EndReason::MoveLimit,
                explanation: format!(
                    "连续{ICGA_QUIET_LIMIT}步无吃子无翻子, 和棋 / {ICGA_QUIET_LIMIT} plies \
                     without a capture or a flip: draw"
                ),
            }),
            _ => None,
        }
    }

    /// A compact key for repetition: the board and the seat to move.
    pub(crate) fn repetition_key(&self) -> [u8; 33] {
        let mut k = [0u8; 33];
        for (i, c) in self.cells.iter().enumerate() {
            k[i] = match c {
                Cell::Empty => 0,
                Cell::Down(_) => 1,
                Cell::Up(p) => 2 + p.index() as u8,
            };
        }
        k[32] = self.turn as u8;
        k
    }
}
