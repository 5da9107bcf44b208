//! The solo race's next budget proved by layers (see
//! `qiyuan_lab::layers`): `cargo run --release -p qiyuan-lab
//! --example solo_layers -- open|closed BUDGET PROVED [--threads N]
//! [--store DIR] [--compare]`. PROVED must be BUDGET − 1, already proved
//! (no solution of at most that many moves), e.g. by `solo_halves`. With
//! `--store`, layers are written to DIR and a rerun resumes from them;
//! `--compare` also runs `meet::prove_by_halves` (one thread) and checks
//! that both find the same layers and answer. Prints each layer with the
//! seconds since the start, the CPU seconds of the process (the tables
//! included) and its memory (resident, peak).

use std::path::PathBuf;
use std::time::Instant;

use qiyuan_lab::layers::{Progress, prove_next_budget};
use qiyuan_lab::meet::prove_by_halves;
use qiyuan_lab::solo::Race;

/// Resident and peak resident memory in GB, from /proc (0 elsewhere).
fn memory() -> (f64, f64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
            .map_or(0.0, |kb| kb / 1e6)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// CPU seconds of the process so far (user and system, all threads), from
/// /proc (0 elsewhere; 100 ticks a second assumed, Linux's usual value).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name, which ends with ')'.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let ticks: Vec<f64> = rest
        .split_whitespace()
        .skip(11)
        .take(2)
        .filter_map(|v| v.parse().ok())
        .collect();
    ticks.iter().sum::<f64>() / 100.0
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage =
        "usage: solo_layers open|closed BUDGET PROVED [--threads N] [--store DIR] [--compare]";
    let open = match args.first().map(String::as_str) {
        Some("open") => true,
        Some("closed") => false,
        _ => panic!("{usage}"),
    };
    let number = |i: usize| -> u32 { args.get(i).and_then(|s| s.parse().ok()).expect(usage) };
    let (budget, proved) = (number(1), number(2));
    let option = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .map(|i| args.get(i + 1).expect(usage).clone())
    };
    let threads: usize = option("--threads").map_or(2, |t| t.parse().expect(usage));
    let store = option("--store").map(PathBuf::from);
    let compare = args.iter().any(|a| a == "--compare");
    let t = Instant::now();
    let race = Race::new(open);
    println!(
        "solo race a -> d, side camps {}, budget {budget} (no solution of <= {proved} taken as proved), {threads} threads, tables {:.1} s",
        if open { "open" } else { "closed (T5)" },
        t.elapsed().as_secs_f64()
    );
    let t = Instant::now();
    let result = prove_next_budget(
        &race,
        budget,
        proved,
        threads,
        store.as_deref(),
        &mut |p: Progress| {
            let (rss, peak) = memory();
            println!(
                "depth {}: {} positions{}, {:.1} s, CPU {:.1} s, memory {rss:.2} GB (peak {peak:.2} GB)",
                p.depth,
                p.positions,
                if p.resumed { " (read back)" } else { "" },
                t.elapsed().as_secs_f64(),
                cpu_seconds()
            );
        },
    );
    let seconds = t.elapsed().as_secs_f64();
    let exact = match result {
        Ok(e) => e,
        Err(e) => {
            println!("no answer: {e}");
            std::process::exit(1);
        }
    };
    if exact.met {
        println!("a solution of {budget} moves exists");
    } else {
        println!("no solution of <= {budget} moves (proved, given <= {proved})");
    }
    println!("positions {}", exact.layers.iter().sum::<usize>());
    println!("layers {:?}", exact.layers);
    println!(
        "seconds {seconds:.1}, CPU {:.1} s (tables included), peak memory {:.2} GB, layers read back {}",
        cpu_seconds(),
        memory().1,
        exact.resumed
    );
    if compare {
        let t = Instant::now();
        let halves = prove_by_halves(&race, budget, usize::MAX).expect("symmetric");
        let half = budget.div_ceil(2) as usize;
        let same_layers = halves.layers[..half] == exact.layers[..half]
            && (budget % 2 == 1 || halves.layers[half] == exact.layers[half]);
        println!(
            "prove_by_halves: met {}, positions {}, layers {:?}, {:.1} s; same layers: {same_layers}, same answer: {}",
            halves.met,
            halves.positions,
            halves.layers,
            t.elapsed().as_secs_f64(),
            halves.met == exact.met
        );
        if !same_layers || halves.met != exact.met {
            std::process::exit(2);
        }
    }
}
