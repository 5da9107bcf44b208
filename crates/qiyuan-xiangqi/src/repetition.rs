//! 棋例: repetition rulings (X2, X3, J19).
//!
//! Every move is classified when it is played: does it check (将), does it
//! chase (捉: create a real threat to capture an enemy piece), or is it idle
//! (闲)? The classification is kept in a [`RepetitionHistory`] next to the
//! position's key, so when a position occurs for the third time the cycle is
//! judged by looking back only over the moves since the last capture, never
//! the whole game. The search uses the same history with
//! [`RepetitionHistory::push_quick`], which records checks but skips the
//! (costlier) chase analysis.
//!
//! What counts as a chase (X2 and the general principles):
//! - the threat must be a legal capture (a pinned attacker threatens nothing);
//! - the target must be unprotected, or protected but worth more than the
//!   attacker; "protected" means the defender has a legal recapture on the
//!   point, so a pinned defender protects nothing;
//! - threats by the general are idle; threats by a pawn are idle unless both
//!   sides chase with pawns;
//! - the moved piece's threats always count (a piece that moves and keeps
//!   chasing), other pieces' threats count when the move created them
//!   (discovered attacks);
//! - a move that checks is a check, whatever else it does.

use qiyuan_core::EndReason;

use crate::position::Position;
use crate::types::{Color, Move, PieceKind, Square};

/// What one move was, for the repetition rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveClass {
    /// The move attacked a royal piece of the opponent (将).
    pub check: bool,
    /// Points (dense index) of the enemy pieces the move chases (捉), by pieces other than pawns.
    pub chases: u128,
    /// Points of enemy pieces threatened by pawns (idle unless both sides do it).
    pub pawn_chases: u128,
}

/// One entry of the history: the position after a move and what the move was.
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// Key of the position after the move (board, classes, side, turn state).
    hash: u64,
    mover: Color,
    mv: Move,
    class: MoveClass,
    /// A capture: no earlier position can recur after it.
    irreversible: bool,
    /// A Jifen score changed (J19: scores are progress).
    score_changed: bool,
}

/// A repetition ruling (X3, J19).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ruling {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// `PerpetualCheck`, `PerpetualChase` or `Repetition` (a draw).
    pub reason: EndReason,
    /// The ruling in Chinese and English, e.g. "红方长将, 判负 / red perpetual check: red loses".
    pub explanation: String,
}

/// The moves of a game (or of a search path) with their repetition classes.
#[derive(Clone, Debug)]
pub struct RepetitionHistory {
    start_hash: u64,
    entries: Vec<Entry>,
}

/// Piece values for "protected but worth more than the chaser" (X2).
fn value(kind: PieceKind) -> u8 {
    match kind {
        PieceKind::Rook => 9,
        PieceKind::Horse | PieceKind::Cannon => 4,
        PieceKind::Advisor | PieceKind::Elephant => 2,
        PieceKind::Pawn => 1,
        PieceKind::King => 100,
    }
}

/// `pos` seen as if `side` were to move at the first move of a turn, for
/// asking "what could `side` capture here".
fn as_mover(pos: &Position, side: Color) -> Position {
    let mut p = pos.clone();
    p.set_side_to_move(side);
    p.set_jifen_state(pos.scores(), 1, pos.any_capture());
    p
}

/// Real capture threats of the side to move: (attacker, target, by a pawn).
/// Captures of royal pieces are checks, not threats, and are left out; so are
/// threats by the general (idle), threats on a pawn that has not crossed the
/// river, threats on an advisor or elephant from a defensive post (棋例通则
/// 4, see [`is_defending`]), threats by a pinned piece (it may not leave
/// its post, even to take the piece that pins it: the book's D39), and offers
/// of exchange (兑: the target is worth as much as the attacker and can take
/// it back at once).
fn threats(pos: &Position) -> Vec<(Square, Square, bool)> {
    let side = pos.side_to_move();
    let mut out = Vec::new();
    let mut replies: Option<Vec<Move>> = None;
    let mut pinned: [Option<bool>; 90] = [None; 90];
    let defending = is_defending(pos, side);
    for &m in pos.legal_moves().iter() {
        if m.is_pass() || m.new_class().is_some() {
            continue;
        }
        let Some(target) = pos.piece_at(m.to()) else {
            continue;
        };
        let Some(attacker) = pos.piece_at(m.from()) else {
            continue;
        };
        if target.kind() == PieceKind::King || attacker.kind() == PieceKind::King {
            continue;
        }
        if target.class() == crate::types::Class::Royal {
            continue;
        }
        // A pawn that has not crossed the river is not worth a chase.
        if target.kind() == PieceKind::Pawn && target.color().own_half(m.to().rank()) {
            continue;
        }
        // 棋例通则 4: holding a defensive post, the incidental attack on an
        // advisor or elephant is idle.
        if defending
            && matches!(target.kind(), PieceKind::Advisor | PieceKind::Elephant)
            && side.own_half(m.from().rank())
        {
            continue;
        }
        let is_pinned =
            *pinned[m.from().index90()].get_or_insert_with(|| is_pinned(pos, m.from(), side));
        if is_pinned {
            continue;
        }
        if value(target.kind()) == value(attacker.kind()) {
            let replies =
                replies.get_or_insert_with(|| as_mover(pos, side.flip()).legal_moves().to_vec());
            if replies
                .iter()
                .any(|r| r.from() == m.to() && r.to() == m.from())
            {
                continue;
            }
        }
        let worth_more = value(target.kind()) > value(attacker.kind());
        if worth_more || !is_protected(pos, m, side) {
            out.push((m.from(), m.to(), attacker.kind() == PieceKind::Pawn));
        }
    }
    out
}

/// Attacking force: what can cross the river (chariots, horses, cannons, pawns).
fn attacking_force(pos: &Position, side: Color) -> u32 {
    pos.pieces(side)
        .map(|(_, p)| match p.kind() {
            PieceKind::Rook | PieceKind::Horse | PieceKind::Cannon | PieceKind::Pawn => {
                u32::from(value(p.kind()))
            }
            _ => 0,
        })
        .sum()
}

/// Whether `side` is only defending (棋例通则 4, "occupying a key defensive
/// point that makes a plain draw"): none of its pieces stands across the
/// river and the opponent's attacking force is at least as large as its own.
/// The rule book leaves "key point" and "plain draw" to the arbiter; this is
/// the part a program can judge without one.
fn is_defending(pos: &Position, side: Color) -> bool {
    let across = pos.pieces(side).any(|(sq, p)| {
        matches!(
            p.kind(),
            PieceKind::Rook | PieceKind::Horse | PieceKind::Cannon | PieceKind::Pawn
        ) && !side.own_half(sq.rank())
    });
    !across && attacking_force(pos, side.flip()) >= attacking_force(pos, side)
}

/// Whether the piece on `sq` is pinned: taking it off the board would leave
/// its side's general (or, in Jifen, a royal piece) attacked.
fn is_pinned(pos: &Position, sq: Square, side: Color) -> bool {
    let mut p = pos.clone();
    p.put(sq, None);
    p.royal_attacked(side)
}

/// Whether, after the capture `m`, the other side can legally take back on the point.
fn is_protected(pos: &Position, m: Move, side: Color) -> bool {
    let mut after = pos.clone();
    after.make_move(m);
    let defender = as_mover(&after, side.flip());
    defender
        .legal_moves()
        .iter()
        .any(|r| !r.is_pass() && r.to() == m.to())
}

/// Classifies `m`, played by the side to move in `before`, which led to `after`.
pub fn classify(before: &Position, m: Move, after: &Position) -> MoveClass {
    let mover = before.side_to_move();
    let check = after.royal_attacked(mover.flip());
    if m.is_pass() {
        return MoveClass {
            check,
            ..MoveClass::default()
        };
    }
    let old = threats(&as_mover(before, mover));
    let new = threats(&as_mover(after, mover));
    let mut class = MoveClass {
        check,
        ..MoveClass::default()
    };
    for (a, t, pawn) in new {
        // Only a threat the move begins counts: the same piece attacking the
        // same target before the move (from where it stood) is no new chase,
        // however the attacker moved (the book's D106).
        let was = if a == m.to() { m.from() } else { a };
        let existed = old.iter().any(|&(oa, ot, _)| oa == was && ot == t);
        if existed {
            continue;
        }
        let bit = 1u128 << t.index90();
        if pawn {
            class.pawn_chases |= bit;
        } else {
            class.chases |= bit;
        }
    }
    class
}

/// Per side summary of a cycle.
#[derive(Default)]
struct SideSummary {
    moves: usize,
    checks: usize,
    chases: usize,
    pawn_chases: usize,
    /// Identities (starting points) chased by every chasing move.
    common: Option<u128>,
    common_pawn: Option<u128>,
    /// Moves that were neither check nor chase (idle).
    idle: usize,
}

impl SideSummary {
    fn all_checks(&self) -> bool {
        self.moves > 0 && self.checks == self.moves
    }

    /// All checks, or chases of one same target with perhaps some checks.
    fn forbidden(&self) -> bool {
        self.moves > 0
            && self.idle == 0
            && self.checks + self.chases == self.moves
            && (self.chases == 0 || self.common.is_some_and(|c| c != 0))
    }

    fn pawn_chasing(&self) -> bool {
        self.moves > 0
            && self.pawn_chases + self.checks + self.chases == self.moves
            && self.pawn_chases > 0
            && self.common_pawn.is_some_and(|c| c != 0)
    }
}

fn loses(loser: Color, reason: EndReason, zh: &str, en: &str) -> Ruling {
    Ruling {
        winner: Some(loser.flip()),
        reason,
        explanation: format!(
            "{}方{}, 判负 / {} {}: {} loses",
            loser.chinese(),
            zh,
            loser.english(),
            en,
            loser.english()
        ),
    }
}

fn draw(zh: &str, en: &str) -> Ruling {
    Ruling {
        winner: None,
        reason: EndReason::Repetition,
        explanation: format!("{zh}, 判和 / {en}: draw"),
    }
}

impl RepetitionHistory {
    /// An empty history starting at `start`.
    pub fn new(start: &Position) -> RepetitionHistory {
        RepetitionHistory {
            start_hash: start.hash(),
            entries: Vec::new(),
        }
    }

    /// Records a move with full classification (for games).
    pub fn push(&mut self, before: &Position, m: Move, after: &Position) {
        let class = classify(before, m, after);
        self.entries.push(Entry {
            hash: after.hash(),
            mover: before.side_to_move(),
            mv: m,
            class,
            irreversible: !m.is_pass() && before.piece_at(m.to()).is_some(),
            score_changed: before.scores() != after.scores(),
        });
    }

    /// Records a move with only its check flag (for the search: cheap).
    /// Cycles made only of quick entries can still be judged for perpetual
    /// check; chases are not seen.
    pub fn push_quick(
        &mut self,
        hash_after: u64,
        mover: Color,
        m: Move,
        gives_check: bool,
        capture: bool,
        score_changed: bool,
    ) {
        self.entries.push(Entry {
            hash: hash_after,
            mover,
            mv: m,
            class: MoveClass {
                check: gives_check,
                ..MoveClass::default()
            },
            irreversible: capture,
            score_changed,
        });
    }

    /// Removes the last entry (search unmake).
    pub fn pop(&mut self) {
        self.entries.pop();
    }

    /// Number of recorded moves.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no move is recorded.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The class of the `i`-th recorded move.
    pub fn class_of(&self, i: usize) -> Option<MoveClass> {
        self.entries.get(i).map(|e| e.class)
    }

    fn hash_at(&self, ply: usize) -> u64 {
        if ply == 0 {
            self.start_hash
        } else {
            self.entries[ply - 1].hash
        }
    }

    /// Plies (positions after each move, 0 = start) since the last capture,
    /// where the current position could have occurred before.
    fn reversible_start(&self) -> usize {
        self.entries
            .iter()
            .rposition(|e| e.irreversible)
            .map_or(0, |i| i + 1)
    }

    /// How many times the current position has occurred (1 = first time).
    pub fn occurrences(&self) -> usize {
        let now = self.entries.len();
        let h = self.hash_at(now);
        (self.reversible_start()..=now)
            .filter(|&p| self.hash_at(p) == h)
            .count()
    }

    /// The ruling, if the current position has just occurred for the third
    /// time (X3): the moves since its first occurrence are judged. `None`
    /// when there is no third occurrence, or in Jifen when a score changed
    /// during the cycle and nobody checked perpetually (J19).
    pub fn ruling(&self) -> Option<Ruling> {
        let now = self.entries.len();
        let h = self.hash_at(now);
        let from = self.reversible_start();
        let mut seen = 0;
        let mut first = now;
        for p in (from..now).rev() {
            if self.hash_at(p) == h {
                seen += 1;
                first = p;
            }
        }
        if seen < 2 {
            return None;
        }
        self.judge(first)
    }

    /// Applies principles 1-4 to the moves after ply `first`.
    fn judge(&self, first: usize) -> Option<Ruling> {
        let window = &self.entries[first..];
        // Follow each piece through the cycle so that "the same target" means
        // the same piece even when it moves.
        let mut id: [u8; 90] = std::array::from_fn(|i| i as u8);
        let mut sides = [SideSummary::default(), SideSummary::default()];
        let mut score_changed = false;
        for e in window {
            if !e.mv.is_pass() {
                id[e.mv.to().index90()] = id[e.mv.from().index90()];
            }
            score_changed |= e.score_changed;
            let s = &mut sides[e.mover.index()];
            s.moves += 1;
            let ids = |bits: u128| -> u128 {
                let mut out = 0u128;
                let mut b = bits;
                while b != 0 {
                    let sq = b.trailing_zeros() as usize;
                    b &= b - 1;
                    out |= 1u128 << id[sq];
                }
                out
            };
            if e.class.check {
                s.checks += 1;
            } else if e.class.chases != 0 {
                s.chases += 1;
                let t = ids(e.class.chases);
                s.common = Some(s.common.map_or(t, |c| c & t));
            } else if e.class.pawn_chases != 0 {
                s.pawn_chases += 1;
                s.idle += 1;
                let t = ids(e.class.pawn_chases);
                s.common_pawn = Some(s.common_pawn.map_or(t, |c| c & t));
            } else {
                s.idle += 1;
            }
        }
        let [red, black] = &sides;
        // Principle 1: one-sided perpetual check always loses; mutual is a draw.
        match (red.all_checks(), black.all_checks()) {
            (true, true) => return Some(draw("双方长将", "both sides check perpetually")),
            (true, false) => {
                return Some(loses(
                    Color::Red,
                    EndReason::PerpetualCheck,
                    "长将",
                    "perpetual check",
                ));
            }
            (false, true) => {
                return Some(loses(
                    Color::Black,
                    EndReason::PerpetualCheck,
                    "长将",
                    "perpetual check",
                ));
            }
            (false, false) => {}
        }
        // J19: in Jifen a score change is progress; only perpetual check is judged.
        if score_changed {
            return None;
        }
        let chase_loss = |c: Color, s: &SideSummary| {
            if s.checks > 0 {
                loses(
                    c,
                    EndReason::PerpetualChase,
                    "长将长捉",
                    "perpetual check and chase",
                )
            } else {
                loses(c, EndReason::PerpetualChase, "长捉", "perpetual chase")
            }
        };
        match (red.forbidden(), black.forbidden()) {
            // 棋例通则 3: a pawn's threat is idle, but in a mutual perpetual
            // attack it counts as a chase, so both sides are forbidden.
            (true, false) if black.pawn_chasing() => Some(draw(
                "兵卒互捉按捉论, 双方不变作和",
                "a soldier in a mutual chase counts as chasing: both forbidden",
            )),
            (false, true) if red.pawn_chasing() => Some(draw(
                "兵卒互捉按捉论, 双方不变作和",
                "a soldier in a mutual chase counts as chasing: both forbidden",
            )),
            (true, false) => Some(chase_loss(Color::Red, red)),
            (false, true) => Some(chase_loss(Color::Black, black)),
            (true, true) => Some(draw("双方均为禁止着法", "both sides make forbidden moves")),
            (false, false) => {
                if red.pawn_chasing() && black.pawn_chasing() {
                    Some(draw("双方兵卒互捉", "both sides chase with pawns"))
                } else {
                    Some(draw("双方不变", "repetition with allowed moves"))
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A synthetic cycle: `pattern` lists, move by move, (mover, check?) and
    /// the position keys repeat with period 4.
    fn history(pattern: &[(Color, bool)]) -> RepetitionHistory {
        let start = Position::startpos();
        let mut h = RepetitionHistory::new(&start);
        let keys = [start.hash(), 11, 22, 33];
        let m = Move::new(Square::new(0, 0).unwrap(), Square::new(0, 1).unwrap());
        for (i, &(mover, check)) in pattern.iter().enumerate() {
            h.push_quick(keys[(i + 1) % 4], mover, m, check, false, false);
        }
        h
    }

    fn cycle(red_checks: bool, black_checks: bool) -> Vec<(Color, bool)> {
        let one = [
            (Color::Red, red_checks),
            (Color::Black, black_checks),
            (Color::Red, red_checks),
            (Color::Black, black_checks),
        ];
        one.iter().chain(one.iter()).copied().collect()
    }

    #[test]
    fn p1_mutual_perpetual_check_is_a_draw() {
        let r = history(&cycle(true, true))
            .ruling()
            .expect("third occurrence");
        assert_eq!((r.winner, r.reason), (None, EndReason::Repetition));
        assert!(r.explanation.starts_with("双方长将"));
    }

    #[test]
    fn p1_one_sided_perpetual_check_loses() {
        let r = history(&cycle(false, true))
            .ruling()
            .expect("third occurrence");
        assert_eq!(
            (r.winner, r.reason),
            (Some(Color::Red), EndReason::PerpetualCheck)
        );
    }

    #[test]
    fn no_ruling_before_the_third_occurrence() {
        let mut p = cycle(true, false);
        p.pop();
        assert_eq!(history(&p).ruling(), None);
    }

    #[test]
    fn a_capture_starts_a_new_count() {
        let start = Position::startpos();
        let mut h = RepetitionHistory::new(&start);
        let m = Move::new(Square::new(0, 0).unwrap(), Square::new(0, 1).unwrap());
        let keys = [start.hash(), 11, 22, 33];
        for i in 0..8 {
            // The fourth move captures: positions before it cannot count.
            h.push_quick(keys[(i + 1) % 4], Color::Red, m, true, i == 3, false);
        }
        assert_eq!(h.occurrences(), 2);
        assert_eq!(h.ruling(), None);
    }
}
