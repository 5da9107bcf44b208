//! Move generation speed: legal moves of a few positions, and perft 3/4 from the start.

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use qiyuan_xiangqi::{Position, perft::perft};

const POSITIONS: [&str; 3] = [
    qiyuan_xiangqi::START_FEN,
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
];

fn bench_movegen(c: &mut Criterion) {
    let positions: Vec<Position> = POSITIONS
        .iter()
        .map(|f| Position::from_fen(f).expect("valid FEN"))
        .collect();
    c.bench_function("legal_moves x3", |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &positions {
                n += black_box(p).legal_moves().len();
            }
            n
        })
    });
    c.bench_function("perft 3 start", |b| {
        let mut p = Position::startpos();
        b.iter(|| perft(black_box(&mut p), 3))
    });
}

criterion_group!(benches, bench_movegen);
criterion_main!(benches);
