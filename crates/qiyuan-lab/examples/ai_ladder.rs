//! The level ladder of the Tiaoqi AI, two players:
//! `cargo run --release -p qiyuan-lab --example ai_ladder -- [GAMES] [PIECES] [THREADS] [FROM_LEVEL]`
//!
//! Level L plays level L + 1 (L = 1..7) in GAMES games, seats alternating,
//! and level 8 plays the greedy one-ply player; each pair of games starts
//! from its own opening (the first OPENING plies by the noisy level 1,
//! from the game's seed), since levels 5-8 play without noise; prints each pairing's score
//! for the higher level (win 1, draw or unfinished 0.5), the Elo difference
//! that score implies, and the slowest move of the pairing.

use std::sync::Mutex;
use std::time::Instant;

use qiyuan_tiaoqi::ai;
use qiyuan_tiaoqi::{Game, Seat, Setup};

const MAX_PLIES: usize = 3000;

/// Plies of each game's opening, played by level 1 (greedy with noise).
const OPENING: usize = 6;

/// Who plays: a level, or `None` for the greedy player.
type Player = Option<u8>;

/// Plays one game: the first player is seat a. Returns the score of seat a
/// and the slowest move of `timed` (seat index).
fn play(pieces: u8, players: [Player; 2], seed: u64) -> (f64, f64) {
    let setup = Setup::new(2, pieces).expect("two players");
    let mut g = Game::start_of(setup, false);
    let mut slowest = 0.0f64;
    let mut plies = 0;
    while let Some(turn) = g.turn() {
        if plies >= MAX_PLIES {
            return (0.5, slowest);
        }
        let who = usize::from(turn != Seat::A);
        let t = Instant::now();
        let m = match players[who] {
            _ if plies < OPENING => ai::choose(&g, 1, seed.wrapping_add(plies as u64)),
            Some(level) => ai::choose(&g, level, seed.wrapping_add(plies as u64)),
            None => ai::greedy(g.position()),
        };
        slowest = slowest.max(t.elapsed().as_secs_f64());
        let Some(m) = m else { break };
        if g.play(m).is_err() {
            break;
        }
        plies += 1;
    }
    let score = match g.result().and_then(|r| r.winner()) {
        Some(Seat::A) => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    };
    (score, slowest)
}

fn elo(score: f64) -> f64 {
    let s = score.clamp(0.005, 0.995);
    -400.0 * (1.0 / s - 1.0).log10()
}

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let games = args.first().copied().unwrap_or(20) as usize;
    let pieces = args.get(1).copied().unwrap_or(10) as u8;
    let threads = args.get(2).copied().unwrap_or(2) as usize;
    println!("Tiaoqi two players, {pieces} pieces, {games} games a pairing");
    let low = args.get(3).copied().unwrap_or(1) as u8;
    let pairings: Vec<(Player, Player)> = (low.max(1)..8u8)
        .map(|l| (Some(l), Some(l + 1)))
        .chain(std::iter::once((None, Some(8))))
        .collect();
    for (weak, strong) in pairings {
        let t = Instant::now();
        let next = Mutex::new(0usize);
        let total = Mutex::new((0.0f64, 0.0f64));
        std::thread::scope(|sc| {
            for _ in 0..threads {
                sc.spawn(|| {
                    loop {
                        let i = {
                            let mut n = next.lock().expect("no thread panicked");
                            let i = *n;
                            *n += 1;
                            i
                        };
                        if i >= games {
                            break;
                        }
                        // The stronger side sits first in even games; both
                        // games of a pair share the opening.
                        let seed = 0x5eed_0000 + (i / 2) as u64 * 7919;
                        let (score, slow) = if i % 2 == 0 {
                            let (s, t) = play(pieces, [strong, weak], seed);
                            (s, t)
                        } else {
                            let (s, t) = play(pieces, [weak, strong], seed);
                            (1.0 - s, t)
                        };
                        let mut tot = total.lock().expect("no thread panicked");
                        tot.0 += score;
                        tot.1 = tot.1.max(slow);
                    }
                });
            }
        });
        let (score, slow) = *total.lock().expect("no thread panicked");
        let name = |p: Player| p.map_or("greedy".to_string(), |l| format!("level {l}"));
        let share = score / games as f64;
        println!(
            "{} vs {}: {score:.1}/{games} ({:.0} %, {:+.0} Elo), slowest move {slow:.2} s, {:.0} s",
            name(strong),
            name(weak),
            share * 100.0,
            elo(share),
            t.elapsed().as_secs_f64()
        );
    }
}
