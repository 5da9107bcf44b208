//! The position: board, side to move, counters, Zobrist key; make/unmake,
//! attack queries and legal move generation.
//!
//! Move generation is pseudo-legal generation followed by a legality filter.
//! The filter skips the expensive king-safety test for most moves: when the
//! side to move is not in check, a non-king move can only expose its own king
//! if it leaves the king's rank or file, leaves a horse-leg point next to the
//! king, or lands on the king's rank or file (making a cannon screen).
//!
//! The piece class byte (Jifen) lives in the same board byte as the piece,
//! and every generator is generic over `J` ("Jifen rules in force"), so plain
//! Xiangqi compiles the class checks away.

use arrayvec::ArrayVec;

use crate::types::{Class, Color, EMPTY, Move, OFFBOARD, Piece, PieceKind, Square};
use crate::variant::Variant;

mod attacks;
mod movegen;

use attacks::*;

/// A list of moves, on the stack. 512 is more than the most moves any
/// Xiangqi-family position can have, class-change forms included.
pub type MoveList = ArrayVec<Move, 512>;

const KING: u8 = PieceKind::King as u8;
const ADVISOR: u8 = PieceKind::Advisor as u8;
const ELEPHANT: u8 = PieceKind::Elephant as u8;
const HORSE: u8 = PieceKind::Horse as u8;
const ROOK: u8 = PieceKind::Rook as u8;
const CANNON: u8 = PieceKind::Cannon as u8;
const PAWN: u8 = PieceKind::Pawn as u8;

/// Orthogonal mailbox steps.
const ORTHO: [isize; 4] = [1, -1, 16, -16];
/// Diagonal mailbox steps.
const DIAG: [isize; 4] = [17, 15, -15, -17];
/// Horse moves as (leg, destination) pairs.
const HORSE_MOVES: [(isize, isize); 8] = [
    (16, 33),
    (16, 31),
    (-16, -33),
    (-16, -31),
    (1, 18),
    (1, -14),
    (-1, -18),
    (-1, 14),
];
/// For attacks on a square: (diagonal leg next to the target, the two horse squares behind it).
const HORSE_ATTACKS: [(isize, isize, isize); 4] =
    [(17, 18, 33), (15, 14, 31), (-15, -14, -31), (-17, -18, -33)];

const fn build_in_board() -> [bool; 256] {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        let r = i >> 4;
        let f = i & 15;
        t[i] = r >= 3 && r <= 12 && f >= 3 && f <= 11;
        i += 1;
    }
    t
}

const fn build_palace() -> [bool; 256] {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        let r = i >> 4;
        let f = i & 15;
        // files d..f (6..=8 in mailbox), ranks 0..=2 or 7..=9 (3..=5, 10..=12).
        t[i] = f >= 6 && f <= 8 && ((r >= 3 && r <= 5) || (r >= 10 && r <= 12));
        i += 1;
    }
    t
}

/// Whether a mailbox index is on the board.
pub(crate) static IN_BOARD: [bool; 256] = build_in_board();
/// Whether a mailbox index is inside either palace.
pub(crate) static IN_PALACE: [bool; 256] = build_palace();

const fn build_sq90() -> [u8; 90] {
    let mut t = [0u8; 90];
    let mut i = 0;
    while i < 90 {
        t[i] = (((i / 9) + 3) * 16 + (i % 9) + 3) as u8;
        i += 1;
    }
    t
}
/// Dense index -> mailbox index.
static SQ90: [u8; 90] = build_sq90();

const fn build_idx90() -> [u8; 256] {
    let mut t = [0xffu8; 256];
    let mut i = 0;
    while i < 90 {
        t[((i / 9) + 3) * 16 + (i % 9) + 3] = i as u8;
        i += 1;
    }
    t
}
/// Mailbox index -> dense index (0xff off the board).
static IDX90: [u8; 256] = build_idx90();

/// Whether a mailbox index is on red's half (ranks 0..=4).
#[inline(always)]
const fn red_half(sq: usize) -> bool {
    (sq >> 4) <= 7
}

/// Whether a piece of `color` standing on `sq` has crossed the river.
#[inline(always)]
const fn crossed(color: Color, sq: usize) -> bool {
    match color {
        Color::Red => !red_half(sq),
        Color::Black => red_half(sq),
    }
}

/// `CAN_CAPTURE[attacker class][victim class]` (J4): the capture table of every
/// Jifen rule set. Plain Xiangqi only ever sees Normal pieces.
pub(crate) const CAN_CAPTURE: [[bool; 4]; 4] = [
    [true, true, true, true],     // Normal
    [true, false, true, true],    // Small: not a Small piece
    [true, true, true, true],     // Royal
    [false, false, false, false], // Idle: nothing
];

#[inline(always)]
const fn class_bits(code: u8) -> usize {
    ((code >> 4) & 3) as usize
}

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

const fn build_zobrist() -> [[u64; 256]; 64] {
    let mut t = [[0u64; 256]; 64];
    let mut state = 0x5159_5955_414e_u64; // "QYUAN"
    let mut p = 0;
    while p < 64 {
        let mut s = 0;
        while s < 256 {
            let (ns, v) = splitmix(state);
            state = ns;
            t[p][s] = v;
            s += 1;
        }
        p += 1;
    }
    t
}

/// Zobrist keys per piece code (kind, colour, class) and square.
static ZOBRIST: [[u64; 256]; 64] = build_zobrist();
/// Zobrist key toggled when black is to move.
const ZOBRIST_BLACK: u64 = 0x8c6e_2d3f_51a7_09b4;
/// Zobrist key toggled while a contest double turn awaits its second move.
const ZOBRIST_SECOND_MOVE: u64 = 0x3b1f_9d2e_c47a_6501;

/// What [`Position::make_move`] returns so that [`Position::unmake_move`] can
/// restore the position exactly.
#[derive(Copy, Clone, Debug)]
pub struct Undo {
    captured: u8,
    moved: u8,
    side: Color,
    turn_state: u8,
    any_capture: bool,
    halfmove: u32,
    fullmove: u32,
    hash: u64,
    scores: [i32; 2],
}

impl Undo {
    /// The piece the move captured, if any.
    pub fn captured(&self) -> Option<Piece> {
        (self.captured != EMPTY).then(|| Piece::from_code(self.captured))
    }
}

/// A Xiangqi position. Cheap to clone (a few hundred bytes).
#[derive(Clone)]
pub struct Position {
    board: [u8; 256],
    /// Occupancy per colour, by dense index, for fast piece iteration.
    occ: [u128; 2],
    kings: [Square; 2],
    side: Color,
    /// Plies without capture (Xiangqi) or without capture or score change (Jifen, J20).
    halfmove: u32,
    fullmove: u32,
    hash: u64,
    variant: Variant,
    /// Jifen: score of red and black (J10).
    scores: [i32; 2],
    /// Jifen: the target score (J11); 0 in plain Xiangqi.
    target: i32,
    /// Jifen contest: 1 = first move of a turn, 2 = second move of a double turn (J21).
    turn_state: u8,
    /// Jifen: whether any capture has happened in the game (J8, J13, J14).
    any_capture: bool,
}

impl PartialEq for Position {
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board
            && self.side == other.side
            && self.halfmove == other.halfmove
            && self.fullmove == other.fullmove
            && self.variant == other.variant
            && self.scores == other.scores
            && self.target == other.target
            && self.turn_state == other.turn_state
            && self.any_capture == other.any_capture
    }
}
impl Eq for Position {}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::startpos()
    }
}

/// Why a board set-up cannot be a Xiangqi position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A side has no general, or more than one.
    #[error("{0} must have exactly one general")]
    KingCount(&'static str),
    /// More pieces of a kind than a side ever has.
    #[error("{color} has {count} {kind}s, at most {max} allowed")]
    TooMany {
        /// Which side.
        color: &'static str,
        /// Which kind, in English.
        kind: &'static str,
        /// How many were given.
        count: u8,
        /// The most there can be.
        max: u8,
    },
    /// A piece stands where its kind can never go.
    #[error("{piece} on {square} is on a point it can never reach")]
    BadSquare {
        /// The piece letter.
        piece: char,
        /// Where it stands.
        square: Square,
    },
    /// The side that just moved left its general attacked (or the generals face).
    #[error("the side not to move is in check")]
    OpponentInCheck,
    /// A piece has a class the rule set does not have (J1, J21).
    #[error("the piece on {square} has a class that {variant} does not have")]
    ClassNotInRules {
        /// Where the piece stands.
        square: Square,
        /// The rule set.
        variant: &'static str,
    },
    /// An inconsistent Jifen game state (J21).
    #[error("{0}")]
    Jifen(String),
}

impl Position {
    /// The standard start position.
    pub fn startpos() -> Position {
        Position::from_fen(crate::fen::START_FEN).expect("start FEN is valid")
    }

    /// An empty board, red to move. Use [`Position::put`] then
    /// [`Position::validate`]; only a validated position may be searched.
    pub fn empty() -> Position {
        let mut board = [OFFBOARD; 256];
        for (i, b) in board.iter_mut().enumerate() {
            if IN_BOARD[i] {
                *b = EMPTY;
            }
        }
        Position {
            board,
            occ: [0; 2],
            kings: [Square::from_raw(0); 2],
            side: Color::Red,
            halfmove: 0,
            fullmove: 1,
            hash: 0,
            variant: Variant::Xiangqi,
            scores: [0; 2],
            target: 0,
            turn_state: 1,
            any_capture: false,
        }
    }

    /// Sets the rule set and its target score (ignored for plain Xiangqi).
    pub fn set_variant(&mut self, variant: Variant, target: i32) {
        self.variant = variant;
        self.target = if variant.is_jifen() { target } else { 0 };
    }

    /// Sets the Jifen game state: scores, turn state (1 or 2) and whether a
    /// capture has happened. Checked by [`Position::validate`].
    pub fn set_jifen_state(&mut self, scores: [i32; 2], turn_state: u8, any_capture: bool) {
        if (turn_state == 2) != (self.turn_state == 2) {
            self.hash ^= ZOBRIST_SECOND_MOVE;
        }
        self.scores = scores;
        self.turn_state = turn_state;
        self.any_capture = any_capture;
    }

    /// The rule set.
    #[inline]
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Red's and black's scores (Jifen; zero in Xiangqi).
    #[inline]
    pub fn scores(&self) -> [i32; 2] {
        self.scores
    }

    /// The target score (Jifen; 0 in Xiangqi).
    #[inline]
    pub fn target(&self) -> i32 {
        self.target
    }

    /// 1 at the first move of a turn, 2 at the second move of a contest double turn.
    #[inline]
    pub fn turn_state(&self) -> u8 {
        self.turn_state
    }

    /// Whether a capture has happened in the game (Jifen).
    #[inline]
    pub fn any_capture(&self) -> bool {
        self.any_capture
    }

    /// Contest turn 1 (J13): red's first turn, exactly one move and no capture.
    pub fn is_contest_first_turn(&self) -> bool {
        self.variant.has_double_moves()
            && self.side == Color::Red
            && self.fullmove == 1
            && self.turn_state == 1
            && !self.any_capture
    }

    /// Places (or with `None`, removes) a piece; keeps hash and occupancy in step.
    pub fn put(&mut self, sq: Square, piece: Option<Piece>) {
        let s = sq.raw();
        let old = self.board[s];
        if old != EMPTY {
            self.hash ^= ZOBRIST[(old & 0x3f) as usize][s];
            self.occ[Piece::from_code(old).color().index()] &= !(1u128 << IDX90[s]);
        }
        match piece {
            Some(p) => {
                self.board[s] = p.code();
                self.hash ^= ZOBRIST[(p.code() & 0x3f) as usize][s];
                self.occ[p.color().index()] |= 1u128 << IDX90[s];
                if p.kind() == PieceKind::King {
                    self.kings[p.color().index()] = sq;
                }
            }
            None => self.board[s] = EMPTY,
        }
    }

    /// Sets the side to move.
    pub fn set_side_to_move(&mut self, side: Color) {
        if side != self.side {
            self.hash ^= ZOBRIST_BLACK;
            self.side = side;
        }
    }

    /// Sets the halfmove clock (plies since the last capture) and fullmove number.
    pub fn set_counters(&mut self, halfmove: u32, fullmove: u32) {
        self.halfmove = halfmove;
        self.fullmove = fullmove.max(1);
    }

    /// Checks that the set-up is a position Xiangqi can reach in kind: one
    /// general each, no more pieces than a side has, each piece on a point
    /// its kind can occupy, and the side not to move not in check.
    pub fn validate(&self) -> Result<(), SetupError> {
        let mut counts = [[0u8; 8]; 2];
        for sq in Square::all() {
            let Some(p) = self.piece_at(sq) else { continue };
            if !self.variant.has_class(p.class()) {
                return Err(SetupError::ClassNotInRules {
                    square: sq,
                    variant: self.variant.name(),
                });
            }
            let c = p.color();
            counts[c.index()][p.kind() as usize] += 1;
            let s = sq.raw();
            let ok = match p.kind() {
                PieceKind::King | PieceKind::Advisor => IN_PALACE[s] && c.own_half(sq.rank()),
                PieceKind::Elephant => c.own_half(sq.rank()),
                PieceKind::Pawn => match c {
                    Color::Red => sq.rank() >= 3,
                    Color::Black => sq.rank() <= 6,
                },
                _ => true,
            };
            if !ok {
                return Err(SetupError::BadSquare {
                    piece: p.letter(),
                    square: sq,
                });
            }
        }
        for c in [Color::Red, Color::Black] {
            if counts[c.index()][KING as usize] != 1 {
                return Err(SetupError::KingCount(c.english()));
            }
            for k in PieceKind::ALL {
                let n = counts[c.index()][k as usize];
                if n > k.max_count() {
                    return Err(SetupError::TooMany {
                        color: c.english(),
                        kind: k.english(),
                        count: n,
                        max: k.max_count(),
                    });
                }
            }
        }
        if self.royal_attacked(self.side.flip()) {
            return Err(SetupError::OpponentInCheck);
        }
        if self.variant.is_jifen() {
            if self.turn_state != 1 && self.turn_state != 2 {
                return Err(SetupError::Jifen("the turn state must be 1 or 2".into()));
            }
            if self.turn_state == 2 && !self.variant.has_double_moves() {
                return Err(SetupError::Jifen(format!(
                    "{} has no double turns, so the turn state must be 1",
                    self.variant.name()
                )));
            }
            if self.turn_state == 2 && self.any_capture {
                return Err(SetupError::Jifen(
                    "no double turn can follow the first capture (turn state 2 with flag x)".into(),
                ));
            }
            if self.target <= 0 {
                return Err(SetupError::Jifen(
                    "the target score must be positive".into(),
                ));
            }
            for c in [Color::Red, Color::Black] {
                if self.scores[c.index()] >= self.target {
                    return Err(SetupError::Jifen(format!(
                        "{}'s score {} has already reached the target {}: the game is over",
                        c.english(),
                        self.scores[c.index()],
                        self.target
                    )));
                }
            }
        }
        Ok(())
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let b = self.board[sq.raw()];
        (b != EMPTY).then(|| Piece::from_code(b))
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Plies since the last capture (the FEN halfmove field).
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// The FEN fullmove number (starts at 1, grows after black moves).
    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// The Zobrist key of board and side to move (not the counters).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Recomputes the Zobrist key from scratch (for tests of incremental updates).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for sq in Square::all() {
            let b = self.board[sq.raw()];
            if b != EMPTY {
                h ^= ZOBRIST[(b & 0x3f) as usize][sq.raw()];
            }
        }
        if self.side == Color::Black {
            h ^= ZOBRIST_BLACK;
        }
        h
    }

    /// Recomputes the full key (board, side, double-turn state) from scratch.
    pub fn compute_hash_full(&self) -> u64 {
        let mut h = self.compute_hash();
        if self.turn_state == 2 {
            h ^= ZOBRIST_SECOND_MOVE;
        }
        h
    }

    /// Where `color`'s general stands.
    #[inline]
    pub fn king_square(&self, color: Color) -> Square {
        self.kings[color.index()]
    }

    /// Iterates over the squares holding `color`'s pieces.
    pub fn pieces(&self, color: Color) -> impl Iterator<Item = (Square, Piece)> + '_ {
        let mut bits = self.occ[color.index()];
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let s = SQ90[i] as usize;
            Some((Square::from_raw(s as u8), Piece::from_code(self.board[s])))
        })
    }

    /// Whether `color`'s general is attacked (in check, or facing the other general).
    #[inline]
    pub fn king_attacked(&self, color: Color) -> bool {
        let b = &self.board;
        king_attacked_with::<false, _>(|s| b[s], self.kings[color.index()].raw(), color.flip())
    }

    /// Whether the side to move is in check: in Jifen, whether any of its
    /// royal pieces is attacked (J6).
    #[inline]
    pub fn in_check(&self) -> bool {
        self.royal_attacked(self.side)
    }

    /// Whether any royal piece of `color` is attacked (J5, J6): the general
    /// (class-aware in Jifen) and, in contest rules, every Royal-class piece.
    pub fn royal_attacked(&self, color: Color) -> bool {
        if !self.variant.is_jifen() {
            return self.king_attacked(color);
        }
        let b = &self.board;
        royal_attacked_with(
            |s| b[s],
            self.occ[color.index()],
            self.kings[color.index()].raw(),
            color,
        )
    }

    /// Whether a piece of `by` could capture an enemy piece standing on `sq`
    /// ("is this square attacked"): in Jifen the class of the piece there (or
    /// Normal on an empty point) and the attackers' classes decide (J4). The
    /// flying-general rule counts only when `sq` holds the other side's general.
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        let b = &self.board;
        if self.variant.is_jifen() {
            let victim = class_bits(b[sq.raw()]);
            square_attacked_with::<true, _>(|s| b[s], sq.raw(), by, victim)
        } else {
            square_attacked_with::<false, _>(|s| b[s], sq.raw(), by, 0)
        }
    }

    /// Every square holding a piece of `by` that attacks `sq`.
    pub fn attackers(&self, sq: Square, by: Color) -> Vec<Square> {
        self.attacking_pieces(sq, by)
            .map(|(from, _)| from)
            .collect()
    }

    /// The pieces of `by` (with their squares) that attack `sq` by the
    /// movement rules of plain Xiangqi, on the board as it stands: a cannon
    /// needs exactly one screen, a horse a free leg, an elephant a free eye.
    /// Allocates nothing (static exchange evaluation calls it per capture).
    pub fn attacking_pieces(
        &self,
        sq: Square,
        by: Color,
    ) -> impl Iterator<Item = (Square, Piece)> + '_ {
        let target = sq.raw();
        self.pieces(by)
            .filter(move |&(from, p)| self.piece_reaches(from, p, target))
    }

    /// Whether `p` on `from` could move to `target` by geometry, ignoring what
    /// stands on `target` and whether the move is legal.
    fn piece_reaches(&self, from: Square, p: Piece, target: usize) -> bool {
        let f = from.raw();
        let d = target as isize - f as isize;
        let b = &self.board;
        match p.kind() {
            PieceKind::King => {
                if ORTHO.contains(&d) {
                    return IN_PALACE[target];
                }
                // Flying general: only against the other general.
                b[target] & 7 == KING && f & 15 == target & 15 && {
                    let step = if d > 0 { 16 } else { -16 };
                    let mut s = f as isize + step;
                    while s as usize != target && b[s as usize] == EMPTY {
                        s += step;
                    }
                    s as usize == target
                }
            }
            PieceKind::Advisor => DIAG.contains(&d) && IN_PALACE[target],
            PieceKind::Elephant => {
                DIAG.iter()
                    .any(|&dd| dd * 2 == d && b[(f as isize + dd) as usize] == EMPTY)
                    && red_half(target) == red_half(f)
            }
            PieceKind::Horse => HORSE_MOVES
                .iter()
                .any(|&(leg, to)| to == d && b[(f as isize + leg) as usize] == EMPTY),
            PieceKind::Rook | PieceKind::Cannon => {
                let step = if f >> 4 == target >> 4 {
                    if d > 0 { 1 } else { -1 }
                } else if f & 15 == target & 15 {
                    if d > 0 { 16 } else { -16 }
                } else {
                    return false;
                };
                if d == 0 {
                    return false;
                }
                let mut between = 0;
                let mut s = f as isize + step;
                while s as usize != target {
                    if b[s as usize] != EMPTY {
                        between += 1;
                    }
                    s += step;
                }
                if p.kind() == PieceKind::Rook {
                    between == 0
                } else {
                    between == 1
                }
            }
            PieceKind::Pawn => {
                let c = p.color();
                d == c.forward() as isize || (crossed(c, f) && (d == 1 || d == -1))
            }
        }
    }

    /// Plays a move known to be legal (from [`Position::legal_moves`]) and
    /// returns what [`Position::unmake_move`] needs to take it back.
    #[inline]
    pub fn make_move(&mut self, m: Move) -> Undo {
        let from = m.from().raw();
        let to = m.to().raw();
        let moved = self.board[from];
        let captured = self.board[to];
        let undo = Undo {
            captured,
            moved,
            side: self.side,
            turn_state: self.turn_state,
            any_capture: self.any_capture,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            hash: self.hash,
            scores: self.scores,
        };
        if m.is_pass() {
            // J14: a pass ends the double turn; it is not a move for J20's count.
            self.end_turn();
            return undo;
        }
        let us = self.side.index();
        let placed = match m.new_class() {
            Some(c) => Piece::from_code(moved).with_class(c).code(),
            None => moved,
        };
        let mut h = self.hash
            ^ ZOBRIST[(moved & 0x3f) as usize][from]
            ^ ZOBRIST[(placed & 0x3f) as usize][to]
            ^ ZOBRIST_BLACK;
        if captured != EMPTY {
            h ^= ZOBRIST[(captured & 0x3f) as usize][to];
            self.occ[us ^ 1] &= !(1u128 << IDX90[to]);
            self.halfmove = 0;
        } else {
            self.halfmove += 1;
        }
        self.occ[us] ^= (1u128 << IDX90[from]) | (1u128 << IDX90[to]);
        self.board[to] = placed;
        self.board[from] = EMPTY;
        if moved & 7 == KING {
            self.kings[us] = Square::from_raw(to as u8);
        }
        if self.variant.is_jifen() {
            self.hash = h ^ ZOBRIST_BLACK;
            self.after_jifen_move(&undo, Class::from_code(moved), captured != EMPTY);
            return undo;
        }
        if self.side == Color::Black {
            self.fullmove += 1;
        }
        self.side = self.side.flip();
        self.hash = h;
        undo
    }

    /// Ends the current turn: the other side moves next, at its first move.
    fn end_turn(&mut self) {
        if self.turn_state == 2 {
            self.turn_state = 1;
            self.hash ^= ZOBRIST_SECOND_MOVE;
        }
        if self.side == Color::Black {
            self.fullmove += 1;
        }
        self.side = self.side.flip();
        self.hash ^= ZOBRIST_BLACK;
    }

    /// Jifen bookkeeping after the pieces of a move are placed: scoring (J10),
    /// the J20 counter, the capture flag and the double-turn state (J13-J15).
    #[inline(never)]
    fn after_jifen_move(&mut self, before: &Undo, class_while_moving: Class, captured: bool) {
        let us = self.side;
        let gives_check = self.royal_attacked(us.flip());
        let d = self.variant.score(class_while_moving, gives_check);
        self.scores[us.index()] += d.mover;
        self.scores[us.flip().index()] += d.opponent;
        self.halfmove = if captured || d.mover != 0 || d.opponent != 0 {
            0
        } else {
            before.halfmove + 1
        };
        let double_phase = self.variant.has_double_moves() && !before.any_capture;
        let first_turn = double_phase
            && before.side == Color::Red
            && before.fullmove == 1
            && before.turn_state == 1;
        self.any_capture |= captured;
        if double_phase && before.turn_state == 1 && !first_turn && !captured && !gives_check {
            // J14: the same player may make a second move or pass.
            self.turn_state = 2;
            self.hash ^= ZOBRIST_SECOND_MOVE;
        } else {
            self.end_turn();
        }
    }

    /// Takes back `m`, which must be the last move made, with its [`Undo`].
    #[inline]
    pub fn unmake_move(&mut self, m: Move, undo: Undo) {
        self.side = undo.side;
        self.fullmove = undo.fullmove;
        self.halfmove = undo.halfmove;
        self.hash = undo.hash;
        if self.variant.is_jifen() {
            self.scores = undo.scores;
            self.turn_state = undo.turn_state;
            self.any_capture = undo.any_capture;
            if m.is_pass() {
                return;
            }
        }
        let from = m.from().raw();
        let to = m.to().raw();
        let us = self.side.index();
        self.board[from] = undo.moved;
        self.board[to] = undo.captured;
        self.occ[us] ^= (1u128 << IDX90[from]) | (1u128 << IDX90[to]);
        if undo.captured != EMPTY {
            self.occ[us ^ 1] |= 1u128 << IDX90[to];
        }
        if undo.moved & 7 == KING {
            self.kings[us] = Square::from_raw(from as u8);
        }
    }

    /// Passes the move to the opponent without moving a piece (the search's
    /// null move). Not a game move: Jifen scores and turn state are untouched.
    #[inline]
    pub fn make_null_move(&mut self) -> Undo {
        let undo = Undo {
            captured: EMPTY,
            moved: EMPTY,
            side: self.side,
            turn_state: self.turn_state,
            any_capture: self.any_capture,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            hash: self.hash,
            scores: self.scores,
        };
        self.side = self.side.flip();
        self.hash ^= ZOBRIST_BLACK;
        undo
    }

    /// Takes back [`Position::make_null_move`].
    #[inline]
    pub fn unmake_null_move(&mut self, undo: Undo) {
        self.side = undo.side;
        self.hash = undo.hash;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::from_iccs(s).unwrap()
    }

    /// Legal moves the slow, obvious way: every pseudo-legal move in every
    /// allowed class form, played on a copy, kept if no royal piece of the
    /// mover is attacked afterwards (facing generals included).
    fn reference_moves(p: &Position) -> Vec<Move> {
        let mut pseudo = MoveList::new();
        if p.variant.is_jifen() {
            p.pseudo_moves::<true>(&mut pseudo);
        } else {
            p.pseudo_moves::<false>(&mut pseudo);
        }
        let mut out = Vec::new();
        for &m in &pseudo {
            let captures = p.piece_at(m.to()).is_some();
            if p.is_contest_first_turn() && captures {
                continue;
            }
            let mut forms = vec![m];
            let may_change =
                !(p.variant.class_change_needs_capture() && !p.any_capture && !captures);
            if may_change {
                let current = p.piece_at(m.from()).unwrap().class();
                for &c in p.variant.classes() {
                    if c != current {
                        forms.push(m.with_class(c));
                    }
                }
            }
            for f in forms {
                let mut q = p.clone();
                q.make_move(f);
                if !q.royal_attacked(p.side) {
                    out.push(f);
                }
            }
        }
        if p.turn_state == 2 {
            out.push(Move::PASS);
        }
        out.sort_by_key(|m| m.to_string());
        out
    }

    fn check_tree(p: &mut Position, depth: u32) -> u64 {
        let mut fast: Vec<Move> = p.legal_moves().to_vec();
        fast.sort_by_key(|m| m.to_string());
        assert_eq!(fast, reference_moves(p), "{}", p.to_fen());
        if depth == 0 {
            return 1;
        }
        let mut n = 0;
        for m in fast {
            let u = p.make_move(m);
            assert_eq!(p.hash(), p.compute_hash_full(), "hash after {m}");
            n += check_tree(p, depth - 1);
            p.unmake_move(m, u);
        }
        n
    }

    /// Every node of the cases' trees, `cut` plies short of their depths
    /// (at least 1): 0 is the slow tier's full check.
    fn fast_legality_to(cut: u32) {
        let cases = [
            (Variant::Xiangqi, crate::fen::START_FEN, 2),
            (
                Variant::Xiangqi,
                "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
                2,
            ),
            (
                Variant::Xiangqi,
                "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
                3,
            ),
            (Variant::JifenSimple, crate::fen::START_FEN, 2),
            (
                Variant::JifenMatch,
                "3k5/9/9/9/9/9/9/9/r-8/R-3K4 w - - 0 30 50 61 1 -",
                3,
            ),
            (Variant::JifenContest, crate::fen::START_FEN, 2),
            (
                Variant::JifenContest,
                "rnbakabr-1/9/1c5c1/p1p1n*3p/6p2/9/P1P1P1P1P/1CN3N+2/9/R1BAKAB1R w - - 0 4 4 4 1 x",
                1,
            ),
        ];
        for (v, fen, depth) in cases {
            let mut p = Position::from_fen_variant(fen, v, None).unwrap();
            let before = p.clone();
            let depth: u32 = depth;
            check_tree(&mut p, depth.saturating_sub(cut).max(1));
            assert_eq!(p, before);
        }
    }

    #[test]
    fn fast_legality_matches_make_and_test_in_every_rule_set() {
        fast_legality_to(1);
    }

    #[test]
    #[ignore = "slow tier"]
    fn fast_legality_matches_make_and_test_in_every_rule_set_in_full() {
        fast_legality_to(0);
    }

    #[test]
    fn start_position_has_44_moves() {
        let p = Position::startpos();
        assert_eq!(p.legal_moves().len(), 44);
        assert!(!p.in_check());
    }

    #[test]
    fn make_unmake_restores_everything() {
        let mut p = Position::startpos();
        let before = p.clone();
        for m in before.legal_moves() {
            let u = p.make_move(m);
            assert_eq!(p.hash(), p.compute_hash(), "hash after {m}");
            p.unmake_move(m, u);
            assert_eq!(p, before);
            assert_eq!(p.hash(), before.hash());
        }
    }

    #[test]
    fn attacked_squares_from_start() {
        let p = Position::startpos();
        // The red cannon on h2 attacks black's horse on h9 over the h7 cannon.
        assert!(p.is_attacked(sq("h9"), Color::Red));
        // e3's pawn is attacked by nothing.
        assert!(!p.is_attacked(sq("e3"), Color::Black));
        // The red chariot on a0 attacks a2; a5 is beyond every red piece's reach.
        assert!(p.is_attacked(sq("a2"), Color::Red));
        assert!(p.is_attacked(sq("a4"), Color::Red)); // the a3 pawn
        assert!(!p.is_attacked(sq("a5"), Color::Red));
        assert_eq!(p.attackers(sq("h9"), Color::Red), vec![sq("h2")]);
    }
}
