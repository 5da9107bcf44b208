//! What the repetition judge costs per move: the full classification (check,
//! chase, idle) that the hall runs after every move of a game, over the 200
//! plies of a fixed pseudo-random game from the start position.

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use qiyuan_xiangqi::repetition::RepetitionHistory;
use qiyuan_xiangqi::{Move, Position};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// (position before, move, position after) for each ply of the game.
fn game_plies() -> Vec<(Position, Move, Position)> {
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let mut pos = Position::startpos();
    let mut plies = Vec::new();
    for _ in 0..200 {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.random_range(0..moves.len())];
        let before = pos.clone();
        pos.make_move(m);
        plies.push((before, m, pos.clone()));
    }
    plies
}

fn bench_repetition(c: &mut Criterion) {
    let plies = game_plies();
    let start = Position::startpos();
    c.bench_function(&format!("classify {} plies", plies.len()), |b| {
        b.iter(|| {
            let mut h = RepetitionHistory::new(&start);
            for (before, m, after) in &plies {
                h.push(black_box(before), *m, black_box(after));
            }
            h.len()
        })
    });
}

criterion_group!(benches, bench_repetition);
criterion_main!(benches);
