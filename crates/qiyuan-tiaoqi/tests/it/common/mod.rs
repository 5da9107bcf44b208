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

/// A position text from each seat's holes (`ROW.COL`), the side to move and
/// the seats in play.
pub fn text_of(pieces: &[(char, &[&str])], turn: char, seats: &str) -> String {
    use qiyuan_tiaoqi::geometry::ROW_LEN;
    let mut rows: Vec<Vec<char>> = ROW_LEN.iter().map(|&n| vec!['.'; usize::from(n)]).collect();
    for (letter, cells) in pieces {
        for c in *cells {
            let cell = qiyuan_tiaoqi::text::parse_cell(c).expect("hole");
            rows[usize::from(cell.row()) - 1][usize::from(cell.col()) - 1] = *letter;
        }
    }
    let board: Vec<String> = rows.iter().rev().map(|r| r.iter().collect()).collect();
    format!("{} {turn} {seats}", board.join("/"))
}

/// The holes of a camp, as `ROW.COL`, less those listed.
pub fn camp_less(seat: qiyuan_tiaoqi::Seat, less: &[&str]) -> Vec<String> {
    qiyuan_tiaoqi::geometry::cells(seat.camp())
        .map(|c| c.to_string())
        .filter(|c| !less.contains(&c.as_str()))
        .collect()
}
