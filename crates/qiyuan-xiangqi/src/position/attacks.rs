//! Attack queries on a board read through a closure, so a move can be tested
//! without playing it (the closure answers "what stands on this point after
//! the move").

use super::*;

/// Whether moving from `from` to `to` could uncover or create an attack on the
/// general at `ksq` (when not in check and the general is not the mover).
#[inline(always)]
pub(super) fn may_expose(from: usize, to: usize, ksq: usize) -> bool {
    let on_line = |s: usize| (s ^ ksq) & 0xf0 == 0 || (s ^ ksq) & 0x0f == 0;
    let d = from as isize - ksq as isize;
    on_line(from) || on_line(to) || matches!(d, 15 | 17 | -15 | -17)
}

/// The step from `k` towards `s` along a rank or file, or 0 if not aligned.
#[inline(always)]
pub(super) fn line_step(k: usize, s: usize) -> isize {
    if (s ^ k) & 0xf0 == 0 {
        if s > k { 1 } else { -1 }
    } else if (s ^ k) & 0x0f == 0 {
        if s > k { 16 } else { -16 }
    } else {
        0
    }
}

/// Whether an enemy chariot, cannon or (on a file) general attacks the general
/// on `k` along the ray with step `d`, reading the board through `get`.
#[inline(always)]
pub(super) fn ray_attacks<F: Fn(usize) -> u8>(get: F, k: usize, d: isize, t8: u8) -> bool {
    let mut s = (k as isize + d) as usize;
    let mut p = get(s);
    while p == EMPTY {
        s = (s as isize + d) as usize;
        p = get(s);
    }
    if p == OFFBOARD {
        return false;
    }
    if p & 15 == ROOK | t8 || (p & 15 == KING | t8 && (d == 16 || d == -16)) {
        return true;
    }
    s = (s as isize + d) as usize;
    p = get(s);
    while p == EMPTY {
        s = (s as isize + d) as usize;
        p = get(s);
    }
    p & 15 == CANNON | t8
}

/// Whether the general on `k` is attacked by `them`, reading the board through
/// `get` (so callers can test a move without playing it). Generals, advisors
/// and elephants can never reach the other palace, so only chariots, cannons,
/// horses, pawns and the facing general matter.
#[inline(always)]
pub(crate) fn king_attacked_with<const J: bool, F: Fn(usize) -> u8>(
    get: F,
    k: usize,
    them: Color,
) -> bool {
    let t8 = them.bit();
    let kcls = if J { class_bits(get(k)) } else { 0 };
    let may = |p: u8| !J || CAN_CAPTURE[class_bits(p)][kcls];
    for d in ORTHO {
        let mut s = (k as isize + d) as usize;
        let mut p = get(s);
        while p == EMPTY {
            s = (s as isize + d) as usize;
            p = get(s);
        }
        if p == OFFBOARD {
            continue;
        }
        if (p & 15 == ROOK | t8 && may(p)) || (p & 15 == KING | t8 && (d == 16 || d == -16)) {
            return true;
        }
        s = (s as isize + d) as usize;
        p = get(s);
        while p == EMPTY {
            s = (s as isize + d) as usize;
            p = get(s);
        }
        if p & 15 == CANNON | t8 && may(p) {
            return true;
        }
    }
    for (leg, h1, h2) in HORSE_ATTACKS {
        if get((k as isize + leg) as usize) == EMPTY {
            let p1 = get((k as isize + h1) as usize);
            let p2 = get((k as isize + h2) as usize);
            if (p1 & 15 == HORSE | t8 && may(p1)) || (p2 & 15 == HORSE | t8 && may(p2)) {
                return true;
            }
        }
    }
    let pawn = PAWN | t8;
    let p = get((k as isize - them.forward() as isize) as usize);
    if p & 15 == pawn && may(p) {
        return true;
    }
    for d in [1isize, -1] {
        let s = (k as isize + d) as usize;
        let p = get(s);
        if p & 15 == pawn && crossed(them, s) && may(p) {
            return true;
        }
    }
    false
}

/// Whether any royal piece of `color` is attacked under Jifen rules (J4-J6):
/// the general on `king` (class-aware, plus the facing-generals rule) and
/// every Royal-class piece among `own` (dense-index occupancy of `color`).
#[inline]
pub(super) fn royal_attacked_with<F: Fn(usize) -> u8 + Copy>(
    get: F,
    own: u128,
    king: usize,
    color: Color,
) -> bool {
    let them = color.flip();
    if king_attacked_with::<true, _>(get, king, them) {
        return true;
    }
    let mut bits = own;
    while bits != 0 {
        let s = SQ90[bits.trailing_zeros() as usize] as usize;
        bits &= bits - 1;
        let p = get(s);
        if p != EMPTY
            && class_bits(p) == Class::Royal as usize
            && p & 7 != KING
            && square_attacked_with::<true, _>(get, s, them, Class::Royal as usize)
        {
            return true;
        }
    }
    false
}

/// Whether `sq` is attacked by `by`: any piece of `by` that could capture a
/// piece of class `victim_class` standing there. The facing-generals rule
/// counts when `sq` holds the other side's general.
pub(crate) fn square_attacked_with<const J: bool, F: Fn(usize) -> u8>(
    get: F,
    sq: usize,
    by: Color,
    victim_class: usize,
) -> bool {
    let t8 = by.bit();
    let may = |p: u8| !J || CAN_CAPTURE[class_bits(p)][victim_class];
    let target = get(sq);
    let target_is_king = target != EMPTY && target & 7 == KING && (target & 8) != t8;
    for d in ORTHO {
        let mut s = (sq as isize + d) as usize;
        let mut p = get(s);
        if p & 15 == KING | t8 && IN_PALACE[sq] && may(p) {
            return true;
        }
        while p == EMPTY {
            s = (s as isize + d) as usize;
            p = get(s);
        }
        if p == OFFBOARD {
            continue;
        }
        if (p & 15 == ROOK | t8 && may(p))
            || (target_is_king && p & 15 == KING | t8 && (d == 16 || d == -16))
        {
            return true;
        }
        s = (s as isize + d) as usize;
        p = get(s);
        while p == EMPTY {
            s = (s as isize + d) as usize;
            p = get(s);
        }
        if p & 15 == CANNON | t8 && may(p) {
            return true;
        }
    }
    for (leg, h1, h2) in HORSE_ATTACKS {
        if get((sq as isize + leg) as usize) == EMPTY {
            let p1 = get((sq as isize + h1) as usize);
            let p2 = get((sq as isize + h2) as usize);
            if (p1 & 15 == HORSE | t8 && may(p1)) || (p2 & 15 == HORSE | t8 && may(p2)) {
                return true;
            }
        }
    }
    for d in DIAG {
        let s = (sq as isize + d) as usize;
        let p = get(s);
        if p & 15 == ADVISOR | t8 && IN_PALACE[sq] && may(p) {
            return true;
        }
        let e = (sq as isize + 2 * d) as usize;
        if p == EMPTY && IN_BOARD[e] {
            let pe = get(e);
            if pe & 15 == ELEPHANT | t8 && red_half(e) == red_half(sq) && may(pe) {
                return true;
            }
        }
    }
    let pawn = PAWN | t8;
    let p = get((sq as isize - by.forward() as isize) as usize);
    if p & 15 == pawn && may(p) {
        return true;
    }
    for d in [1isize, -1] {
        let s = (sq as isize + d) as usize;
        let p = get(s);
        if p & 15 == pawn && crossed(by, s) && may(p) {
            return true;
        }
    }
    false
}
