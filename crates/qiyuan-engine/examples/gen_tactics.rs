//! Generates the tactics suite `tests/data/tactics.txt`: random sparse
//! positions kept when the exhaustive solver (`qiyuan_engine::tactics`)
//! proves a forced win (mate or stalemate, X1) in exactly N moves.
//!
//! Run: `cargo run --release -p qiyuan-engine --example gen_tactics > crates/qiyuan-engine/tests/data/tactics.txt`

use qiyuan_engine::rng::Rng;
use qiyuan_engine::tactics::{forces_win, winning_moves};
use qiyuan_xiangqi::{Color, Piece, PieceKind, Position, Square};

/// Places `kind` of `color` on a random free square it may stand on, or gives up.
fn place(
    pos: &mut Position,
    rng: &mut Rng,
    color: Color,
    kind: PieceKind,
    near_enemy_palace: bool,
) {
    for _ in 0..50 {
        let (f, r) = match kind {
            PieceKind::King | PieceKind::Advisor => (3 + rng.below(3) as u8, rng.below(3) as u8),
            PieceKind::Elephant => {
                let pts = [(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)];
                pts[rng.below(7) as usize]
            }
            PieceKind::Pawn if near_enemy_palace => {
                (2 + rng.below(5) as u8, 5 + rng.below(5) as u8)
            }
            PieceKind::Pawn => (rng.below(9) as u8, 3 + rng.below(2) as u8),
            _ if near_enemy_palace => (rng.below(9) as u8, 5 + rng.below(5) as u8),
            _ => (rng.below(9) as u8, rng.below(10) as u8),
        };
        // Red's frame; black's pieces are mirrored to its side.
        let r = if color == Color::Black { 9 - r } else { r };
        let Some(sq) = Square::new(f, r) else {
            continue;
        };
        if pos.piece_at(sq).is_none() {
            pos.put(sq, Some(Piece::new(color, kind)));
            return;
        }
    }
}

fn random_position(rng: &mut Rng) -> Option<Position> {
    let mut pos = Position::empty();
    place(&mut pos, rng, Color::Red, PieceKind::King, false);
    place(&mut pos, rng, Color::Black, PieceKind::King, false);
    for _ in 0..rng.below(3) {
        place(&mut pos, rng, Color::Black, PieceKind::Advisor, false);
    }
    for _ in 0..rng.below(3) {
        place(&mut pos, rng, Color::Black, PieceKind::Elephant, false);
    }
    for _ in 0..rng.below(2) {
        let k = [
            PieceKind::Rook,
            PieceKind::Horse,
            PieceKind::Cannon,
            PieceKind::Pawn,
        ][rng.below(4) as usize];
        place(&mut pos, rng, Color::Black, k, false);
    }
    for _ in 0..rng.below(2) {
        place(&mut pos, rng, Color::Red, PieceKind::Advisor, false);
    }
    for _ in 0..2 + rng.below(2) {
        let k = [
            PieceKind::Rook,
            PieceKind::Horse,
            PieceKind::Cannon,
            PieceKind::Pawn,
        ][rng.below(4) as usize];
        place(&mut pos, rng, Color::Red, k, true);
    }
    pos.validate().ok()?;
    Some(pos)
}

/// The same position with colours and ranks swapped (black to move).
fn mirror(pos: &Position) -> Option<Position> {
    let mut out = Position::empty();
    for sq in Square::all() {
        if let Some(p) = pos.piece_at(sq) {
            let to = Square::new(sq.file(), 9 - sq.rank())?;
            out.put(to, Some(Piece::new(p.color().flip(), p.kind())));
        }
    }
    out.set_side_to_move(Color::Black);
    out.validate().ok()?;
    Some(out)
}

fn main() {
    let mut rng = Rng::new(20240601);
    let wanted = [(1u32, 20usize), (2, 30), (3, 6)];
    for (n, count) in wanted {
        let mut found = 0;
        while found < count {
            let Some(mut pos) = random_position(&mut rng) else {
                continue;
            };
            if pos.in_check() || pos.count_legal_moves() == 0 {
                continue;
            }
            if n > 1 && forces_win(&mut pos, n - 1) {
                continue;
            }
            if !forces_win(&mut pos, n) {
                continue;
            }
            let sols = winning_moves(&mut pos, n);
            // Keep puzzles with few solutions: a real tactic, not "anything wins".
            if sols.len() > 3 {
                continue;
            }
            let pos = if found % 2 == 1 {
                mirror(&pos).unwrap_or(pos)
            } else {
                pos
            };
            let mut p2 = pos.clone();
            let sols = winning_moves(&mut p2, n);
            let s: Vec<String> = sols.iter().map(|m| m.to_string()).collect();
            println!("{} ; win {n} ; {}", pos.to_fen(), s.join(" "));
            found += 1;
        }
    }
}
