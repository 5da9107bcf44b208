//! Junqi players against each other in the hidden game:
//! `cargo run --release -p qiyuan-junqi --example junqi_match -- [GAMES] [A] [B]`
//!
//! A and B are AI levels 1-8, `greedy` (attacks whenever its piece is likely
//! stronger, else a random quiet move) or `random` (uniformly random legal
//! moves). AI levels place their armies with the plan of `plan::designed`;
//! the two baselines with a uniformly random legal set-up. Colours
//! alternate. Prints A's score (win 1, draw 0.5), how the games ended, and
//! A's thinking time per move (mean and slowest).

use std::time::Instant;

use qiyuan_junqi::game::EndReason;
use qiyuan_junqi::{Game, Position, Rules, Setup, Side, Visibility, ai, plan};

#[derive(Clone, Copy)]
enum Player {
    Level(u8),
    Greedy,
    Random,
}

impl Player {
    fn parse(s: &str) -> Player {
        match s {
            "greedy" => Player::Greedy,
            "random" => Player::Random,
            n => Player::Level(n.parse().unwrap_or(8)),
        }
    }

    fn name(self) -> String {
        match self {
            Player::Level(l) => format!("level {l}"),
            Player::Greedy => "greedy".into(),
            Player::Random => "random".into(),
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: u64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(20);
    let a = Player::parse(args.get(1).map_or("8", String::as_str));
    let b = Player::parse(args.get(2).map_or("1", String::as_str));
    let mut state = 0x5eed_1234_abcd_ef01u64;
    let mut draw = move |n: u32| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % u64::from(n.max(1))) as u32
    };
    let (mut score, mut flags, mut stuck, mut quiet) = (0.0, 0, 0, 0);
    let (mut slowest, mut thinking, mut a_moves) = (0.0f64, 0.0f64, 0u64);
    let t = Instant::now();
    for i in 0..games {
        let a_side = if i % 2 == 0 { Side::Red } else { Side::Blue };
        let setup = |p: Player, side: Side, draw: &mut dyn FnMut(u32) -> u32| match p {
            Player::Level(_) => plan::designed(side, draw),
            _ => Setup::random(side, draw),
        };
        let (red_player, blue_player) = if a_side == Side::Red { (a, b) } else { (b, a) };
        let red = setup(red_player, Side::Red, &mut draw);
        let blue = setup(blue_player, Side::Blue, &mut draw);
        let mut g = Game::new(
            Position::from_setups(&red, &blue),
            Rules::default(),
            Visibility::Hidden,
        );
        while g.result().is_none() && g.record().len() < 2000 {
            let me = g.position().turn();
            let player = if me == a_side { a } else { b };
            let started = Instant::now();
            let m = match player {
                Player::Level(l) => ai::choose(&g, me, l),
                Player::Greedy => ai::greedy(&g, me, &mut draw),
                Player::Random => ai::random_move(&g, me, &mut draw),
            };
            if me == a_side {
                let s = started.elapsed().as_secs_f64();
                slowest = slowest.max(s);
                thinking += s;
                a_moves += 1;
            }
            let Some(m) = m else {
                break;
            };
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
                    Some(w) if w == a_side => 1.0,
                    Some(_) => 0.0,
                    None => 0.5,
                };
                if r.winner != Some(a_side) && std::env::var_os("JUNQI_MATCH_VERBOSE").is_some() {
                    eprintln!(
                        "game {i}: {:?} by {:?} after {} plies",
                        r.winner,
                        r.reason,
                        g.record().len()
                    );
                }
            }
            None => score += 0.5,
        }
    }
    println!(
        "{} vs {}: {score:.1}/{games} ({:.1} %); ends: flag {flags}, no moves {stuck}, quiet limit {quiet}; {} per move: mean {:.1} ms, slowest {:.2} s; {:.0} s",
        a.name(),
        b.name(),
        100.0 * score / games as f64,
        a.name(),
        1000.0 * thinking / a_moves.max(1) as f64,
        slowest,
        t.elapsed().as_secs_f64()
    );
}
