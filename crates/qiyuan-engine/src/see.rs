//! Static exchange evaluation (SEE): the material a capture wins or loses
//! once both sides have recaptured on its point with their cheapest attacker
//! for as long as it pays. Move ordering tries captures that lose material
//! after the quiet moves, and the search and quiescence skip them near the
//! leaves.
//!
//! The exchange is played out on a scratch copy of the board, so the lines
//! that open or close as pieces leave the point come out right: a rook behind
//! a rook, a cannon that gains a screen when the first capturer arrives or
//! loses one when a piece in between leaves, a horse leg or elephant eye that
//! is freed. Pins and the generals' facing are ignored, as in every engine's
//! SEE: the search proper judges legality.

use qiyuan_xiangqi::{Move, PieceKind, Position};

/// Material values for exchanges and delta pruning (a chariot is 900). The
/// general's is large enough that capturing with it into an attack never pays.
#[inline]
pub fn exchange_value(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::King => 5000,
        PieceKind::Rook => 900,
        PieceKind::Cannon => 450,
        PieceKind::Horse => 400,
        PieceKind::Advisor | PieceKind::Elephant => 200,
        PieceKind::Pawn => 100,
    }
}

/// Exchanges longer than this are cut off (each side has at most 16 pieces).
const MAX_SWAPS: usize = 34;

/// The material balance for the side to move after capturing with `m` and
/// the best sequence of recaptures on `m`'s destination (each side may stop
/// whenever going on would lose). Zero for a move that captures nothing and
/// cannot be taken; a quiet move onto an attacked point counts the mover's loss.
pub fn see(pos: &Position, m: Move) -> i32 {
    if m.is_pass() {
        return 0;
    }
    let Some(mover) = pos.piece_at(m.from()) else {
        return 0;
    };
    let to = m.to();
    let mut board = pos.clone();
    // gain[d]: what the side making capture d has won if the exchange ends there.
    let mut gain = [0i32; MAX_SWAPS];
    gain[0] = pos.piece_at(to).map_or(0, |v| exchange_value(v.kind()));
    board.put(m.from(), None);
    board.put(to, Some(mover));
    let mut on_point = exchange_value(mover.kind());
    let mut side = mover.color().flip();
    let mut d = 0;
    while d + 1 < MAX_SWAPS {
        let Some((from, piece)) = board
            .attacking_pieces(to, side)
            .min_by_key(|&(_, p)| exchange_value(p.kind()))
        else {
            break;
        };
        d += 1;
        gain[d] = on_point - gain[d - 1];
        // Neither taking on nor stopping can change the verdict any more.
        if gain[d].max(-gain[d - 1]) < 0 {
            break;
        }
        board.put(from, None);
        board.put(to, Some(piece));
        on_point = exchange_value(piece.kind());
        side = side.flip();
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

/// Whether `m` at least breaks even in the static exchange (`see >= threshold`).
#[inline]
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    if m.is_pass() {
        return threshold <= 0;
    }
    let value = |sq| pos.piece_at(sq).map_or(0, |p| exchange_value(p.kind()));
    let (victim, mover) = (value(m.to()), value(m.from()));
    // The capturer may always stop after the first recapture, and never wins
    // more than the victim: most captures are decided without the exchange.
    if victim - mover >= threshold {
        return true;
    }
    if victim < threshold {
        return false;
    }
    see(pos, m) >= threshold
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see_of(fen: &str, mv: &str) -> i32 {
        let pos = Position::from_fen(fen).unwrap();
        let m = pos.parse_move(mv).unwrap();
        see(&pos, m)
    }

    #[test]
    fn undefended_piece_is_won_whole() {
        // The red chariot takes a lone black horse.
        assert_eq!(see_of("4k4/9/9/9/4n4/9/9/9/4R4/3K5 w - - 0 1", "e1e5"), 400);
    }

    #[test]
    fn defended_pawn_taken_by_chariot_loses_the_chariot() {
        // Black pawn on e6 defended by the black chariot on e9: 100 - 900.
        assert_eq!(
            see_of("3kr4/9/9/4p4/9/9/9/9/4R4/5K3 w - - 0 1", "e1e6"),
            100 - 900
        );
    }

    #[test]
    fn the_capturer_becomes_a_cannon_screen() {
        // Red chariot e1 takes the pawn on e5. The black cannon on e9 then
        // faces the chariot with nothing between: no screen, no capture.
        assert_eq!(
            see_of("3kc4/9/9/9/4p4/9/9/9/4R4/5K3 w - - 0 1", "e1e5"),
            100
        );
        // With a black advisor on e8 between them the cannon has its screen:
        // the chariot is lost.
        assert_eq!(
            see_of("3kc4/4a4/9/9/4p4/9/9/9/4R4/5K3 w - - 0 1", "e1e5"),
            100 - 900
        );
    }

    #[test]
    fn xray_chariot_behind_backs_up_the_exchange() {
        // Red chariots e1 and e0 against a horse on e5 defended by a black
        // chariot on e9: RxN, RxR, RxR wins horse + chariot for a chariot.
        assert_eq!(
            see_of("3kr4/9/9/9/4n4/9/9/9/4R4/4RK3 w - - 0 1", "e1e5"),
            400 - 900 + 900
        );
    }

    #[test]
    fn a_recapture_that_loses_more_is_not_made() {
        // The red cannon (screen: the pawn on e3) takes the pawn on e6. The
        // black chariot on e8 could take the cannon, but the red chariot on
        // d6 would then take it: black stops, red wins the pawn.
        let fen = "4k4/4r4/9/3Rp4/9/9/4P4/9/4C4/3K5 w - - 0 1";
        assert_eq!(see_of(fen, "e1e6"), 100);
        // Without the red chariot black takes the cannon: 100 - 450.
        let fen = "4k4/4r4/9/4p4/9/9/4P4/9/4C4/3K5 w - - 0 1";
        assert_eq!(see_of(fen, "e1e6"), 100 - 450);
    }

    #[test]
    fn quiet_move_to_a_safe_point_is_zero() {
        assert_eq!(see_of("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1", "a1a2"), 0);
    }
}
