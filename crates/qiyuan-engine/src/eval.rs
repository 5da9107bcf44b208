//! Static evaluation: material by piece class, piece-square tables, mobility,
//! king safety and (Jifen) the points race.
//!
//! The evaluation is *linear* in the weights of [`crate::params`] (one table
//! per rule set):
//! every term is a weight times a feature count. That is what lets the Texel
//! tuner ([`crate::tune`]) fit the weights by logistic regression on game
//! data; [`evaluate_traced`] reports the feature counts the same code path
//! computes, so search and tuner can never disagree about a term.

use qiyuan_xiangqi::{Class, Color, PieceKind, Position, Square};

use crate::params;

/// Number of evaluation weights.
pub const NUM_PARAMS: usize = 402;
/// Material, indexed `MAT + class * 7 + (kind - 1)`.
pub const MAT: usize = 0;
/// Piece-square tables, `PST + (kind - 1) * 50 + rank * 5 + folded_file`,
/// rank counted from the owner's side, files folded (a/i, b/h, ... e).
pub const PST: usize = 28;
/// Mobility per reachable point: horse, chariot, cannon.
pub const MOB: usize = 378;
/// King safety: enemy chariot, horse, cannon, pawn bearing on the palace.
pub const KS_ATT: usize = 381;
/// King safety: per missing advisor, times the enemy's chariots and horses.
pub const KS_NO_ADV: usize = 385;
/// King safety: per missing elephant, times the enemy's cannons.
pub const KS_NO_ELE: usize = 386;
/// Jifen: per point of score lead.
pub const POINT: usize = 387;
/// Jifen: bonus for being `d` points from the target, `RACE + d - 1`, d = 1..=8.
pub const RACE: usize = 388;
/// Bonus for the side to move.
pub const TEMPO: usize = 396;
/// A cannon facing the enemy general down an empty file (空头炮): the
/// general cannot step onto the file's middle and every screen dropped
/// there becomes a check.
pub const HOLLOW_CANNON: usize = 397;
/// A pair of side-by-side soldiers across the river, which guard each other.
pub const CONNECTED_PAWNS: usize = 398;
/// Pairs of pieces bearing on the enemy general (the king-safety counts
/// above, taken two at a time): attackers together are worth more than
/// each alone, which a linear term cannot say.
pub const KS_PAIRS: usize = 399;
/// Jifen: the side has a piece whose move earns it a point (an Idle piece,
/// or Royal in contest rules). One is all a turn can use, so it counts once.
pub const JIFEN_EARNER: usize = 400;
/// Jifen: the side has a piece it can move without giving the opponent a
/// point (in match and contest rules every Normal move does).
pub const JIFEN_FREE_MOVER: usize = 401;

/// Score units: centipawn-like; a chariot is worth about 600.
pub type Value = i32;

/// Receives (weight index, coefficient) pairs; red-positive.
pub trait Trace {
    /// Records `coef` occurrences of feature `idx` (red minus black).
    fn add(&mut self, idx: usize, coef: i32);
}

/// The trace that records nothing: the search's evaluation.
struct NoTrace;

impl Trace for NoTrace {
    #[inline(always)]
    fn add(&mut self, _idx: usize, _coef: i32) {}
}

/// The evaluation of `pos` for the side to move (positive: good for it).
pub fn evaluate(pos: &Position) -> Value {
    evaluate_with(pos, params::for_variant(pos.variant()), &mut NoTrace)
}

/// The evaluation with explicit weights, feature counts reported to `trace`
/// (red's point of view, before the side-to-move sign and the tempo term).
pub fn evaluate_traced(pos: &Position, params: &[i32], trace: &mut impl Trace) -> Value {
    evaluate_with(pos, params, trace)
}

/// Board cell codes for the evaluation's own 10x9 scan: 0 empty, else
/// kind (1..=7) | colour << 3 | class << 4.
fn cell(pos: &Position, sq: Square) -> u8 {
    match pos.piece_at(sq) {
        None => 0,
        Some(p) => p.kind() as u8 | (p.color().index() as u8) << 3 | (p.class() as u8) << 4,
    }
}

const HORSE_STEPS: [(i8, i8, i8, i8); 8] = [
    // (leg df, leg dr, dest df, dest dr)
    (0, 1, 1, 2),
    (0, 1, -1, 2),
    (0, -1, 1, -2),
    (0, -1, -1, -2),
    (1, 0, 2, 1),
    (1, 0, 2, -1),
    (-1, 0, -2, 1),
    (-1, 0, -2, -1),
];

/// Sums weight times coefficient and tells the trace.
struct Acc<'a, T: Trace> {
    score: i32,
    params: &'a [i32],
    trace: &'a mut T,
}

impl<T: Trace> Acc<'_, T> {
    #[inline(always)]
    fn add(&mut self, idx: usize, coef: i32) {
        self.score += self.params[idx] * coef;
        self.trace.add(idx, coef);
    }
}

fn evaluate_with<T: Trace>(pos: &Position, params: &[i32], trace: &mut T) -> Value {
    let mut board = [0u8; 90];
    for c in [Color::Red, Color::Black] {
        for (sq, _) in pos.pieces(c) {
            board[sq.index90()] = cell(pos, sq);
        }
    }
    let at = |f: i8, r: i8| -> Option<u8> {
        if (0..9).contains(&f) && (0..10).contains(&r) {
            Some(board[r as usize * 9 + f as usize])
        } else {
            None
        }
    };
    let mut acc = Acc {
        score: 0,
        params,
        trace,
    };
    // Counts for king safety.
    let mut advisors = [0i32; 2];
    let mut elephants = [0i32; 2];
    let mut rook_horse = [0i32; 2];
    let mut cannons = [0i32; 2];
    let mut attackers = [0i32; 2];
    // Bit `class` set when the side has a piece of that class.
    let mut classes = [0u8; 2];
    let kings = [pos.king_square(Color::Red), pos.king_square(Color::Black)];
    for (i, &code) in board.iter().enumerate() {
        if code == 0 {
            continue;
        }
        let kind = code & 7;
        let color = ((code >> 3) & 1) as usize;
        let class = ((code >> 4) & 3) as usize;
        let sign = if color == 0 { 1 } else { -1 };
        let file = (i % 9) as i8;
        let rank = (i / 9) as i8;
        let own_rank = if color == 0 { rank } else { 9 - rank };
        let folded = file.min(8 - file);
        acc.add(MAT + class * 7 + kind as usize - 1, sign);
        acc.add(
            PST + (kind as usize - 1) * 50 + own_rank as usize * 5 + folded as usize,
            sign,
        );
        classes[color] |= 1 << class;
        let idle = class == Class::Idle as usize;
        match kind {
            k if k == PieceKind::Advisor as u8 => advisors[color] += 1,
            k if k == PieceKind::Elephant as u8 => elephants[color] += 1,
            _ => {}
        }
        // Mobility: points the piece could move to (empty or enemy).
        let enemy = |c: u8| c != 0 && ((c >> 3) & 1) as usize != color;
        let ek = kings[1 - color];
        let (ekf, ekr) = (ek.file() as i8, ek.rank() as i8);
        let near_palace = (file - ekf).abs() <= 2 && (rank - ekr).abs() <= 3;
        let mut ks = 0;
        match kind {
            k if k == PieceKind::Horse as u8 => {
                rook_horse[color] += !idle as i32;
                let mut n = 0;
                for (lf, lr, df, dr) in HORSE_STEPS {
                    if at(file + lf, rank + lr) == Some(0)
                        && let Some(t) = at(file + df, rank + dr)
                        && (t == 0 || enemy(t))
                    {
                        n += 1;
                    }
                }
                acc.add(MOB, sign * n);
                if near_palace && !idle {
                    ks = 1;
                }
                if !idle && ks == 1 {
                    acc.add(KS_ATT + 1, sign);
                    attackers[color] += 1;
                }
            }
            k if k == PieceKind::Rook as u8 || k == PieceKind::Cannon as u8 => {
                let rook = k == PieceKind::Rook as u8;
                if rook {
                    rook_horse[color] += !idle as i32;
                } else {
                    cannons[color] += !idle as i32;
                }
                let mut n = 0;
                for (df, dr) in [(1i8, 0i8), (-1, 0), (0, 1), (0, -1)] {
                    let (mut f, mut r) = (file + df, rank + dr);
                    let mut screens = 0;
                    while let Some(t) = at(f, r) {
                        if t == 0 {
                            if screens == 0 {
                                n += 1;
                            }
                        } else {
                            if ((rook && screens == 0) || (!rook && screens == 1)) && enemy(t) {
                                n += 1;
                            }
                            screens += 1;
                            if screens > 1 {
                                break;
                            }
                        }
                        f += df;
                        r += dr;
                    }
                }
                acc.add(MOB + if rook { 1 } else { 2 }, sign * n);
                // Bearing on the enemy king: same file, or rank inside the palace.
                if !idle && (file == ekf || (rank == ekr) || (rook && near_palace)) {
                    acc.add(KS_ATT + if rook { 0 } else { 2 }, sign);
                    attackers[color] += 1;
                }
                if !rook && !idle && file == ekf && (rank - ekr).abs() >= 2 {
                    let step = if ekr > rank { 1 } else { -1 };
                    let mut r = rank + step;
                    while r != ekr && at(file, r) == Some(0) {
                        r += step;
                    }
                    if r == ekr {
                        acc.add(HOLLOW_CANNON, sign);
                    }
                }
            }
            k if k == PieceKind::Pawn as u8 => {
                if !idle && (file - ekf).abs() <= 1 && (rank - ekr).abs() <= 2 {
                    acc.add(KS_ATT + 3, sign);
                    attackers[color] += 1;
                }
                // The partner to the right, so each pair counts once.
                if own_rank >= 5 && at(file + 1, rank).is_some_and(|t| t & 15 == code & 15) {
                    acc.add(CONNECTED_PAWNS, sign);
                }
            }
            _ => {}
        }
    }
    // Missing defenders hurt in proportion to the attackers that exploit them.
    for c in 0..2 {
        let sign = if c == 0 { 1 } else { -1 };
        let them = 1 - c;
        acc.add(KS_NO_ADV, sign * (2 - advisors[c]) * rook_horse[them]);
        acc.add(KS_NO_ELE, sign * (2 - elephants[c]) * cannons[them]);
        acc.add(KS_PAIRS, sign * attackers[c] * (attackers[c] - 1) / 2);
    }
    if pos.variant().is_jifen() {
        let [red, black] = pos.scores();
        acc.add(POINT, red - black);
        let t = pos.target();
        for (c, s) in [(1, red), (-1, black)] {
            let d = t - s;
            if (1..=8).contains(&d) {
                acc.add(RACE + d as usize - 1, c);
            }
        }
        let variant = pos.variant();
        // (earns, free) for each class present on the side.
        let moves = |c: usize| {
            Class::ALL
                .iter()
                .filter(|&&k| classes[c] & (1 << k as usize) != 0)
                .map(|&k| variant.score(k, false))
                .fold((false, false), |(earn, free), d| {
                    (
                        earn || d.mover > 0,
                        free || (d.mover >= 0 && d.opponent == 0),
                    )
                })
        };
        for (c, sign) in [(0, 1), (1, -1)] {
            let (earn, free) = moves(c);
            acc.add(JIFEN_EARNER, sign * earn as i32);
            acc.add(JIFEN_FREE_MOVER, sign * free as i32);
        }
    }
    let stm = if pos.side_to_move() == Color::Red {
        1
    } else {
        -1
    };
    acc.score * stm + params[TEMPO]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::PARAMS;

    #[test]
    fn start_position_is_balanced() {
        // Symmetric position: only the tempo term remains.
        let pos = Position::startpos();
        assert_eq!(evaluate(&pos), PARAMS[TEMPO]);
    }

    #[test]
    fn trace_reproduces_the_evaluation() {
        struct Sum(Vec<i32>);
        impl Trace for Sum {
            fn add(&mut self, idx: usize, coef: i32) {
                self.0[idx] += coef;
            }
        }
        let pos = Position::from_fen(
            "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 3",
        )
        .unwrap();
        let mut t = Sum(vec![0; NUM_PARAMS]);
        let v = evaluate_traced(&pos, &PARAMS, &mut t);
        let red: i32 = t.0.iter().zip(PARAMS.iter()).map(|(c, w)| c * w).sum();
        // Black to move: the evaluation is black's view plus tempo.
        assert_eq!(v, -red + PARAMS[TEMPO]);
    }

    #[test]
    fn extra_chariot_is_good() {
        let pos = Position::from_fen("3aka3/9/9/9/9/9/9/9/R8/3K5 w - - 0 1").unwrap();
        assert!(evaluate(&pos) > 300);
    }

    /// The feature counts of `fen` (red minus black).
    fn counts(fen: &str) -> Vec<i32> {
        counts_in(fen, qiyuan_xiangqi::Variant::Xiangqi)
    }

    /// The feature counts of `fen` under `variant`'s rules.
    fn counts_in(fen: &str, variant: qiyuan_xiangqi::Variant) -> Vec<i32> {
        struct Sum(Vec<i32>);
        impl Trace for Sum {
            fn add(&mut self, idx: usize, coef: i32) {
                self.0[idx] += coef;
            }
        }
        let pos = Position::from_fen_variant(fen, variant, None).unwrap();
        let mut t = Sum(vec![0; NUM_PARAMS]);
        evaluate_traced(&pos, &PARAMS, &mut t);
        t.0
    }

    #[test]
    fn jifen_earner_and_free_mover_follow_each_rule_sets_scoring() {
        use qiyuan_xiangqi::Variant::{JifenContest, JifenMatch, JifenSimple};
        // Red has an Idle chariot; black only Normal pieces.
        let idle = "4k4/9/9/9/9/9/9/9/R*8/3K5 w - - 0 1 0 0 1 -";
        // Simple rules: an Idle move earns; a Normal move costs nothing, so
        // both sides have a free mover.
        let c = counts_in(idle, JifenSimple);
        assert_eq!((c[JIFEN_EARNER], c[JIFEN_FREE_MOVER]), (1, 0));
        // Match rules: black's only moves give red a point.
        let c = counts_in(idle, JifenMatch);
        assert_eq!((c[JIFEN_EARNER], c[JIFEN_FREE_MOVER]), (1, 1));
        // A Small black piece moves for free but earns nothing.
        let small = "4k4/9/9/9/9/9/9/r-8/R*8/3K5 w - - 0 1 0 0 1 x";
        let c = counts_in(small, JifenMatch);
        assert_eq!((c[JIFEN_EARNER], c[JIFEN_FREE_MOVER]), (1, 0));
        // Contest rules: a Royal piece earns too.
        let royal = "4k4/9/9/9/9/9/9/r+8/R*8/3K5 w - - 0 1 0 0 1 x";
        let c = counts_in(royal, JifenContest);
        assert_eq!((c[JIFEN_EARNER], c[JIFEN_FREE_MOVER]), (0, 0));
        // Plain Xiangqi has no scoring, so neither term is counted.
        let c = counts("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1");
        assert_eq!((c[JIFEN_EARNER], c[JIFEN_FREE_MOVER]), (0, 0));
    }

    #[test]
    fn hollow_cannon_needs_an_empty_file_to_the_general() {
        // Red cannon on e2 facing the black general on e9 down an empty file.
        let open = counts("3k5/9/9/9/9/9/9/4C4/9/5K3 w - - 0 1");
        assert_eq!(open[HOLLOW_CANNON], 0, "general on d9 is not on the file");
        let open = counts("4k4/9/9/9/9/9/9/4C4/9/3K5 w - - 0 1");
        assert_eq!(open[HOLLOW_CANNON], 1);
        // A screen between them: a check, not a hollow cannon.
        let screened = counts("4k4/4a4/9/9/9/9/9/4C4/9/3K5 b - - 0 1");
        assert_eq!(screened[HOLLOW_CANNON], 0);
        // Black's cannon on red's general's file counts for black.
        let black = counts("4k4/9/9/9/3c5/9/9/9/9/3K5 w - - 0 1");
        assert_eq!(black[HOLLOW_CANNON], -1);
    }

    #[test]
    fn connected_pawns_count_side_by_side_pairs_across_the_river() {
        // Red soldiers on c6, d6, e6 (across the river): two pairs.
        let three = counts("4k4/9/9/2PPP4/9/9/9/9/9/3K5 w - - 0 1");
        assert_eq!(three[CONNECTED_PAWNS], 2);
        // Side by side on their own half: not yet across.
        let home = counts("4k4/9/9/9/9/9/2PP5/9/9/3K5 w - - 0 1");
        assert_eq!(home[CONNECTED_PAWNS], 0);
        // A gap between them.
        let apart = counts("4k4/9/9/2P1P4/9/9/9/9/9/3K5 w - - 0 1");
        assert_eq!(apart[CONNECTED_PAWNS], 0);
        // Black pair across the river (on red's half).
        let black = counts("4k4/9/9/9/9/9/6pp1/9/9/3K5 w - - 0 1");
        assert_eq!(black[CONNECTED_PAWNS], -1);
    }

    #[test]
    fn attackers_on_the_general_count_in_pairs() {
        // A red chariot on the black general's file and a red horse by the
        // palace bear on it: one pair. Add a soldier next to the palace: three pairs.
        let two = counts("4k4/9/3N5/9/9/9/9/9/4R4/3K5 b - - 0 1");
        assert_eq!(two[KS_PAIRS], 1);
        let three = counts("4k4/3P5/3N5/9/9/9/9/9/4R4/3K5 b - - 0 1");
        assert_eq!(three[KS_PAIRS], 3);
        // One attacker alone makes no pair.
        let one = counts("4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1");
        assert_eq!(one[KS_PAIRS], 0);
    }

    #[test]
    fn jifen_race_favours_the_side_near_the_target() {
        let near = Position::from_fen_variant(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 98 60 1 -",
            qiyuan_xiangqi::Variant::JifenMatch,
            None,
        )
        .unwrap();
        assert!(evaluate(&near) > 500, "{}", evaluate(&near));
    }
}
