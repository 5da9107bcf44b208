//! The solo race proved by halves (see `qiyuan_lab::meet`):
//! `cargo run --release -p qiyuan-lab --example solo_halves -- [open|closed] BUDGET [MAX_POSITIONS]`.
//! Prints each layer as it is done, whether a solution of at most BUDGET
//! moves exists, the positions kept, nodes, positions per depth and
//! seconds.

use std::time::Instant;

use qiyuan_lab::meet::prove_by_halves_reporting;
use qiyuan_lab::solo::Race;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let open = args.first().is_none_or(|a| a != "closed");
    let budget: u32 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(26);
    let max: usize = args
        .get(2)
        .and_then(|s| s.parse::<f64>().ok())
        .map_or(400_000_000, |v| v as usize);
    let t = Instant::now();
    let race = Race::new(open);
    println!(
        "solo race a -> d, side camps {}, tables {:.1} s",
        if open { "open" } else { "closed (T5)" },
        t.elapsed().as_secs_f64()
    );
    let t = Instant::now();
    let result = prove_by_halves_reporting(&race, budget, max, &mut |depth, n| {
        println!(
            "depth {depth}: {n} positions, {:.1} s",
            t.elapsed().as_secs_f64()
        );
    });
    match &result {
        Some(h) if h.met => println!("a solution of <= {budget} moves exists"),
        Some(_) => println!("no solution of <= {budget} moves (proved)"),
        None => println!("gave up: more than {max} positions"),
    }
    if let Some(h) = &result {
        println!("positions {}", h.positions);
        println!("nodes {}", h.nodes);
        println!("layers {:?}", h.layers);
    }
    println!("seconds {:.1}", t.elapsed().as_secs_f64());
}
