//! Plays a match between two Banqi players and prints the score.
//!
//! `cargo run --release -p qiyuan-banqi --example banqi_match -- A B GAMES [SEED] [PRESET]`
//! where A and B are levels 1-8 or `random`. Each pair of games swaps seats.

use qiyuan_banqi::Preset;
use qiyuan_banqi::ai::play_game;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use std::time::Instant;

fn player(s: &str) -> Option<u8> {
    s.parse::<u8>().ok().filter(|l| (1..=8).contains(l))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: banqi_match A B GAMES [SEED] [banqi|banqi-icga]  (A, B: 1-8 or random)");
        std::process::exit(2);
    }
    let (a, b) = (player(&args[0]), player(&args[1]));
    let games: u32 = args[2].parse().unwrap_or(100);
    let seed: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let preset = args
        .get(4)
        .and_then(|s| Preset::from_name(s))
        .unwrap_or(Preset::Banqi);
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let (mut wa, mut wb, mut d) = (0, 0, 0);
    let start = Instant::now();
    for g in 0..games {
        // Swap seats every other game so neither side keeps seat 0.
        let r = if g % 2 == 0 {
            play_game(preset, a, b, &mut rng)
        } else {
            play_game(preset, b, a, &mut rng).map(|w| 1 - w)
        };
        match r {
            Some(0) => wa += 1,
            Some(_) => wb += 1,
            None => d += 1,
        }
    }
    println!(
        "{} {} vs {}: {wa} wins, {d} draws, {wb} losses in {games} games ({:.1} s)",
        preset.name(),
        args[0],
        args[1],
        start.elapsed().as_secs_f64()
    );
}
