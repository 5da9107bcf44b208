//! Junqi AI levels against each other in the hidden game:
//! `cargo run --release -p qiyuan-junqi --example junqi_match -- [GAMES] [STRONG] [WEAK]`
//!
//! Each game starts from random legal set-ups drawn for both sides, colours
//! alternate; prints the stronger level's score (win 1, draw 0.5), how the
//! games ended and the slowest move.

use std::time::Instant;

use qiyuan_junqi::game::EndReason;
use qiyuan_junqi::{Game, Position, Rules, Setup, Side, Visibility, ai};

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let games = args.first().copied().unwrap_or(20);
    let strong = args.get(1).copied().unwrap_or(8) as u8;
    let weak = args.get(2).copied().unwrap_or(1) as u8;
    let mut state = 0x5eed_1234_abcd_ef01u64;
    let mut draw = move |n: u32| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % u64::from(n.max(1))) as u32
    };
    let (mut score, mut flags, mut stuck, mut quiet) = (0.0, 0, 0, 0);
    let mut slowest = 0.0f64;
    let t = Instant::now();
    for i in 0..games {
        let red = Setup::random(Side::Red, &mut draw);
        let blue = Setup::random(Side::Blue, &mut draw);
        let mut g = Game::new(
            Position::from_setups(&red, &blue),
            Rules::default(),
            Visibility::Hidden,
        );
        let strong_side = if i % 2 == 0 { Side::Red } else { Side::Blue };
        while g.result().is_none() && g.record().len() < 2000 {
            let me = g.position().turn();
            let level = if me == strong_side { strong } else { weak };
            let started = Instant::now();
            let Some(m) = ai::choose(&g, me, level) else {
                break;
            };
            slowest = slowest.max(started.elapsed().as_secs_f64());
            if g.play(m).is_err() {
                break;
            }
        }
        match g.result() {
            Some(r) => {
                match r.reason {
                    EndReason::FlagTaken => flags += 1,
                    EndReason::NoMoves => stuck += 1,
                    EndReason::QuietLimit => quiet += 1,
                }
                score += match r.winner {
                    Some(w) if w == strong_side => 1.0,
                    Some(_) => 0.0,
                    None => 0.5,
                };
            }
            None => score += 0.5,
        }
    }
    println!(
        "level {strong} vs level {weak}: {score:.1}/{games} ({:.0} %); ends: flag {flags}, no moves {stuck}, quiet limit {quiet}; slowest move {slowest:.2} s; {:.0} s",
        100.0 * score / games as f64,
        t.elapsed().as_secs_f64()
    );
}
