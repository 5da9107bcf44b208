//! Helpers shared by the integration tests.
#![allow(dead_code)]

use qiyuan_tiaoqi::{Move, Position, Setup};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Every seating: (players, pieces).
pub const SEATINGS: [(u8, u8); 5] = [(2, 10), (2, 15), (3, 10), (4, 10), (6, 10)];

pub fn setup(players: u8, pieces: u8) -> Setup {
    Setup::new(players, pieces).expect("a seating of T2/T3")
}

/// A position `plies` random moves from the start, preferring piece moves
/// (passes at 1 in 20) and forward moves, so that the pieces mix in the
/// hexagon and long chains appear.
pub fn random_position(setup: Setup, seed: u64, plies: usize) -> Position {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut p = Position::start(setup);
    for _ in 0..plies {
        let moves = p.legal_moves();
        let seat = p.turn();
        let forward: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| match *m {
                Move::Go { from, to } => seat.rows_to_go(to) < seat.rows_to_go(from),
                Move::Pass => false,
            })
            .collect();
        let m = if rng.random_range(0..20) == 0 {
            Move::Pass
        } else if !forward.is_empty() && rng.random_range(0..3) != 0 {
            forward[rng.random_range(0..forward.len())]
        } else {
            moves[rng.random_range(0..moves.len())]
        };
        p.make(m);
    }
    p
}
