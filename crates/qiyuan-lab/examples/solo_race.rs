//! The solo race from camp a to camp d:
//! `cargo run --release -p qiyuan-lab --example solo_race -- [open|closed]
//! [max_depth] [max_nodes] [beam_width]`.
//!
//! First a beam search finds a short solution (an upper bound), then IDA*
//! searches for one of at most `max_depth` moves (default: one less than the
//! beam's, so that finishing proves the beam's line shortest), stopping
//! after `max_nodes` nodes (default 2e9). Prints `minimum N moves` when
//! proved, the solution as move texts (T13), `nodes N` and `seconds S`.

use std::time::Instant;

use qiyuan_lab::solo::{Limits, Race, SoloMove, beam, solve_reporting};

fn print_line(moves: &[SoloMove]) {
    for (i, m) in moves.iter().enumerate() {
        println!("{:2}. {}", i + 1, m.text());
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let open = args.first().is_none_or(|a| a != "closed");
    let arg = |i: usize, d: u64| -> u64 {
        args.get(i)
            .and_then(|s| s.parse::<f64>().ok())
            .map_or(d, |v| v as u64)
    };
    let t = Instant::now();
    let race = Race::new(open);
    println!(
        "lower bound at the start {} (tables built in {:.1} s)",
        race.bound(race.start()),
        t.elapsed().as_secs_f64()
    );
    println!(
        "solo race a -> d, side camps {}",
        if open { "open" } else { "closed (T5)" }
    );
    let t = Instant::now();
    let width = arg(3, 20_000) as usize;
    let (best, beam_nodes) = beam(&race, width, 60);
    let upper = best.as_ref().map(Vec::len);
    if let Some(line) = &best {
        println!(
            "beam (width {width}): {} moves, nodes {beam_nodes}, seconds {:.1}",
            line.len(),
            t.elapsed().as_secs_f64()
        );
    }
    let max_depth = arg(1, upper.map_or(40, |u| u as u64 - 1)) as u32;
    let max_nodes = arg(2, 2_000_000_000);
    let t = Instant::now();
    let r = solve_reporting(
        &race,
        Limits {
            max_depth,
            max_nodes,
            table_bits: 26,
        },
        &mut |budget, nodes| {
            println!(
                "no solution of <= {budget} moves: nodes {nodes}, seconds {:.1}",
                t.elapsed().as_secs_f64()
            );
        },
    );
    let secs = t.elapsed().as_secs_f64();
    match (&r.moves, &best) {
        (Some(line), _) => {
            println!("minimum {} moves", line.len());
            print_line(line);
        }
        (None, Some(line)) if r.depth_proven >= max_depth && line.len() as u32 == max_depth + 1 => {
            println!("minimum {} moves", line.len());
            print_line(line);
        }
        (None, _) => {
            println!("no solution of <= {} moves (proved)", r.depth_proven);
            if let Some(line) = &best {
                println!("best found {} moves", line.len());
                print_line(line);
            }
        }
    }
    println!("nodes {}", r.nodes);
    println!("seconds {secs:.1}");
}
