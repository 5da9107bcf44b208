//! Perft speed: `cargo run --release -p qiyuan-lab --example perft_speed`.
//! Prints nodes and nodes per second for each start position and a
//! mid-game position.

use std::time::Instant;

use qiyuan_tiaoqi::{Position, Setup, perft};

fn main() {
    let seatings = [(2, 10, 6), (2, 15, 5), (3, 10, 5), (4, 10, 5), (6, 10, 5)];
    for (players, pieces, depth) in seatings {
        let Ok(setup) = Setup::new(players, pieces) else {
            continue;
        };
        let p = Position::start(setup);
        let t = Instant::now();
        let n = perft(&p, depth);
        let s = t.elapsed().as_secs_f64();
        println!(
            "{players} players, {pieces} pieces, depth {depth}: {n} nodes in {s:.2} s, {:.0} nodes/s",
            n as f64 / s
        );
    }
}
