//! Move ordering: the transposition-table move first, then captures by
//! most valuable victim / least valuable attacker, then killer moves, then
//! quiet moves by their history score plus their continuation history (how
//! well the same piece-to-point answered the previous move, and followed up
//! our own move before it). Good ordering is what makes alpha-beta cut early.

use arrayvec::ArrayVec;
use qiyuan_xiangqi::{Color, Move, MoveList, PieceKind, Position};

/// Plies the search can reach (search depth plus extensions and quiescence).
pub const MAX_PLY: usize = 128;

/// Ordering value of a victim / attacker kind.
const fn kind_value(k: PieceKind) -> i32 {
    match k {
        PieceKind::King => 7,
        PieceKind::Rook => 6,
        PieceKind::Horse | PieceKind::Cannon => 4,
        PieceKind::Advisor | PieceKind::Elephant => 2,
        PieceKind::Pawn => 1,
    }
}

/// Score of the transposition-table move.
const TT_SCORE: i32 = 1 << 30;
/// Base score of captures (above killers and any history value).
const CAPTURE_SCORE: i32 = 1 << 28;
/// Score of the first killer; the second gets one less.
const KILLER_SCORE: i32 = 1 << 27;
/// Base score of losing captures: after every quiet move.
const BAD_CAPTURE_SCORE: i32 = -(1 << 28);

/// Whether the capture `m` in `pos` loses material: its static exchange is
/// below zero. Jifen's capture classes (J4) are beyond the exchange's plain
/// movement rules, so there it asks only whether a cheaper piece is taken on
/// a point the opponent attacks.
#[inline]
pub fn is_losing_capture(pos: &Position, m: Move) -> bool {
    if !pos.variant().is_jifen() {
        return !crate::see::see_ge(pos, m, 0);
    }
    let (Some(a), Some(v)) = (pos.piece_at(m.from()), pos.piece_at(m.to())) else {
        return false;
    };
    kind_value(v.kind()) < kind_value(a.kind())
        && pos.is_attacked(m.to(), pos.side_to_move().flip())
}

/// Number of (piece, destination) pairs: 14 coloured piece kinds by 90 points.
pub const PIECE_TO: usize = 14 * 90;

/// The continuation-history index of a move: which piece went where. `None`
/// for passes (Jifen) and null moves, which continue nothing.
#[inline]
pub fn piece_to(pos: &Position, m: Move) -> Option<u16> {
    if m.is_pass() {
        return None;
    }
    let p = pos.piece_at(m.from())?;
    let pc = p.color().index() * 7 + p.kind() as usize - 1;
    Some((pc * 90 + m.to().index90()) as u16)
}

/// The moves before the current node that ordering continues from: the
/// opponent's last move and our own move before it (as [`piece_to`] indices).
pub type Context = [Option<u16>; 2];

/// Gravity update: values stay within +-16384 and recent results weigh more.
#[inline]
fn gravity(h: i32, bonus: i32) -> i32 {
    h + bonus - h * bonus.abs() / 16384
}

/// Killer moves and the history tables, kept across iterations of one search.
pub struct Ordering {
    /// Two quiet moves per ply that recently caused a beta cut-off.
    pub killers: [[Option<Move>; 2]; MAX_PLY],
    /// Quiet move success counts, `[side][from90 * 90 + to90]`.
    history: Vec<i32>,
    /// Continuation history, `[previous piece_to][this piece_to]`.
    cont: Vec<i16>,
}

impl Default for Ordering {
    fn default() -> Self {
        Ordering {
            killers: [[None; 2]; MAX_PLY],
            history: vec![0; 2 * 90 * 90],
            cont: vec![0; PIECE_TO * PIECE_TO],
        }
    }
}

/// Index of a move in the history table.
#[inline]
fn hidx(side: Color, m: Move) -> usize {
    if m.is_pass() {
        // Passes share one slot per side (the a0a0 index, which no move uses).
        return side.index() * 8100;
    }
    side.index() * 8100 + m.from().index90() * 90 + m.to().index90()
}

/// Whether `m` captures in `pos`.
#[inline]
pub fn is_capture(pos: &Position, m: Move) -> bool {
    !m.is_pass() && pos.piece_at(m.to()).is_some()
}

impl Ordering {
    /// Forgets killers and ages history (a new search).
    pub fn new_search(&mut self) {
        self.killers = [[None; 2]; MAX_PLY];
        self.history.iter_mut().for_each(|h| *h /= 8);
        self.cont.iter_mut().for_each(|h| *h /= 2);
    }

    /// Forgets everything (a new game or a deterministic benchmark).
    pub fn clear(&mut self) {
        self.killers = [[None; 2]; MAX_PLY];
        self.history.iter_mut().for_each(|h| *h = 0);
        self.cont.iter_mut().for_each(|h| *h = 0);
    }

    /// Records a quiet move that caused a cut-off at `ply` with `depth` left,
    /// and penalises the quiet moves tried before it (all in `pos`, the
    /// node's position, reached after the moves of `ctx`).
    pub fn update_quiet(
        &mut self,
        pos: &Position,
        m: Move,
        ply: usize,
        depth: i32,
        tried: &[Move],
        ctx: Context,
    ) {
        let side = pos.side_to_move();
        let k = &mut self.killers[ply];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        let bonus = (depth * depth).min(400);
        let mut apply = |mv: Move, b: i32| {
            let h = &mut self.history[hidx(side, mv)];
            *h = gravity(*h, b);
            if let Some(to) = piece_to(pos, mv) {
                for prev in ctx.into_iter().flatten() {
                    let c = &mut self.cont[prev as usize * PIECE_TO + to as usize];
                    *c = gravity(*c as i32, b) as i16;
                }
            }
        };
        apply(m, bonus);
        for &q in tried {
            if q != m {
                apply(q, -bonus);
            }
        }
    }

    /// The ordering score of a quiet move: its history plus its
    /// continuation histories.
    #[inline]
    pub fn quiet_score(&self, pos: &Position, m: Move, ctx: Context) -> i32 {
        let mut s = self.history[hidx(pos.side_to_move(), m)];
        if let Some(to) = piece_to(pos, m) {
            for prev in ctx.into_iter().flatten() {
                s += self.cont[prev as usize * PIECE_TO + to as usize] as i32;
            }
        }
        s
    }

    /// Orders `moves` in place, best first.
    pub fn order(
        &self,
        pos: &Position,
        moves: &mut MoveList,
        tt_move: Option<Move>,
        ply: usize,
        ctx: Context,
    ) {
        self.order_with(
            pos,
            moves,
            tt_move,
            self.killers[ply.min(MAX_PLY - 1)],
            Some(ctx),
        );
    }

    /// Orders by TT move and captures only (quiescence; and the search with
    /// killers and history switched off, for their SPRT test).
    pub fn order_plain(&self, pos: &Position, moves: &mut MoveList, tt_move: Option<Move>) {
        self.order_with(pos, moves, tt_move, [None; 2], None);
    }

    fn order_with(
        &self,
        pos: &Position,
        moves: &mut MoveList,
        tt_move: Option<Move>,
        killers: [Option<Move>; 2],
        history: Option<Context>,
    ) {
        let mut scored: ArrayVec<(i32, Move), 512> = ArrayVec::new();
        for &m in moves.iter() {
            let s = if Some(m) == tt_move {
                TT_SCORE
            } else if let Some(v) = (!m.is_pass()).then(|| pos.piece_at(m.to())).flatten() {
                let a = pos.piece_at(m.from()).map_or(0, |p| kind_value(p.kind()));
                // A capture that also changes class is tried after the plain one.
                let mvv_lva = kind_value(v.kind()) * 16 - a - m.new_class().map_or(0, |_| 8);
                if history.is_some() && is_losing_capture(pos, m) {
                    BAD_CAPTURE_SCORE + mvv_lva
                } else {
                    CAPTURE_SCORE + mvv_lva
                }
            } else if Some(m) == killers[0] {
                KILLER_SCORE
            } else if Some(m) == killers[1] {
                KILLER_SCORE - 1
            } else if let Some(ctx) = history {
                self.quiet_score(pos, m, ctx)
            } else {
                0
            };
            scored.push((s, m));
        }
        // Stable sort keeps the generator's order among equals: deterministic.
        scored.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
        moves.clear();
        moves.extend(scored.into_iter().map(|(_, m)| m));
    }
}
