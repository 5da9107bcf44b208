//! Measures the AI against greedy one-ply players ("largest distance gain",
//! [`ai::greedy`]):
//!
//! `cargo run --release -p qiyuan-lab --example ai_match -- [--level L]
//! [--games N] [--multi-games M] [--compare K] [--seatings 2,3,4,6]
//! [--threads T]`
//!
//! For each seating it plays games with one AI seat (rotating through the
//! seats) and greedy players elsewhere, and prints how often the AI won
//! (two players) or finished first (three or more). Then, for 3, 4 and 6
//! players, Best-Reply Search against paranoid: each method's firsts
//! against greedy players in the same games, and head to head (one seat
//! each, greedy elsewhere, seats rotating).

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use qiyuan_tiaoqi::ai::{self, Method};
use qiyuan_tiaoqi::{Game, Seat, Setup};

/// Plies after which a game counts as unfinished.
const MAX_PLIES: usize = 4000;

/// Who sits where: `None` is a greedy player.
type Seating = Vec<Option<Method>>;

struct Outcome {
    /// Seats placed first (index in play order).
    first: Vec<usize>,
    plies: usize,
    ai_moves: usize,
    ai_secs: f64,
    ai_max: f64,
}

fn play(players: u8, seating: &Seating, level: u8, seed: u64) -> Outcome {
    let setup = Setup::new(players, 10).expect("a seating of the rules");
    let seats: Vec<Seat> = setup.seats().collect();
    let mut g = Game::start_of(setup, false);
    let (mut ai_moves, mut ai_secs, mut ai_max) = (0, 0.0f64, 0.0f64);
    let mut plies = 0;
    while let Some(turn) = g.turn() {
        if plies >= MAX_PLIES {
            break;
        }
        let i = seats.iter().position(|&s| s == turn).unwrap_or(0);
        let m = match seating[i] {
            Some(method) => {
                let t = Instant::now();
                let m = ai::choose_with(&g, level, seed.wrapping_add(plies as u64), method);
                let s = t.elapsed().as_secs_f64();
                ai_moves += 1;
                ai_secs += s;
                ai_max = ai_max.max(s);
                m
            }
            None => ai::greedy(g.position()),
        };
        let Some(m) = m else { break };
        g.play(m).expect("players choose legal moves");
        plies += 1;
    }
    let first = g
        .result()
        .map(|r| {
            r.places
                .iter()
                .filter(|(_, p)| *p == 1)
                .filter_map(|(s, _)| seats.iter().position(|x| x == s))
                .collect()
        })
        .unwrap_or_default();
    Outcome {
        first,
        plies,
        ai_moves,
        ai_secs,
        ai_max,
    }
}

/// Plays every job on `threads` threads; results in job order.
fn run_all(jobs: &[(u8, Seating, u8, u64)], threads: usize) -> Vec<Outcome> {
    let next = AtomicUsize::new(0);
    let out: Mutex<Vec<(usize, Outcome)>> = Mutex::new(Vec::new());
    std::thread::scope(|sc| {
        for _ in 0..threads {
            sc.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((pl, seating, level, seed)) = jobs.get(i) else {
                        break;
                    };
                    let o = play(*pl, seating, *level, *seed);
                    out.lock().expect("no thread panicked").push((i, o));
                }
            });
        }
    });
    let mut v = out.into_inner().expect("no thread panicked");
    v.sort_by_key(|x| x.0);
    v.into_iter().map(|x| x.1).collect()
}

fn pct(n: usize, of: usize) -> f64 {
    100.0 * n as f64 / of.max(1) as f64
}

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let num = |name: &str, d: usize| arg(&args, name).and_then(|v| v.parse().ok()).unwrap_or(d);
    let level = num("--level", 8) as u8;
    let games2 = num("--games", 200);
    let games_multi = num("--multi-games", 50);
    let compare = num("--compare", 20);
    let threads = num(
        "--threads",
        std::thread::available_parallelism().map_or(1, |n| n.get()),
    );
    let seatings: Vec<u8> = arg(&args, "--seatings")
        .unwrap_or_else(|| "2,3,4,6".into())
        .split(',')
        .filter_map(|s| s.parse().ok())
        .collect();
    println!("level {level} against greedy one-ply players, {threads} threads");
    let t0 = Instant::now();
    for &pl in &seatings {
        let n = if pl == 2 { games2 } else { games_multi };
        if n == 0 {
            continue;
        }
        let jobs: Vec<_> = (0..n)
            .map(|k| {
                let mut s: Seating = vec![None; usize::from(pl)];
                s[k % usize::from(pl)] = Some(ai::DEFAULT_METHOD);
                (pl, s, level, k as u64 * 7919 + 1)
            })
            .collect();
        let res = run_all(&jobs, threads);
        report(pl, &jobs, &res);
    }
    println!("elapsed {:.1} s", t0.elapsed().as_secs_f64());
    if compare == 0 {
        return;
    }
    println!("Best-Reply Search against paranoid, level {level}, {compare} games each");
    for &pl in seatings.iter().filter(|&&p| p > 2) {
        for method in [Method::Brs, Method::Paranoid] {
            let jobs: Vec<_> = (0..compare)
                .map(|k| {
                    let mut s: Seating = vec![None; usize::from(pl)];
                    s[k % usize::from(pl)] = Some(method);
                    (pl, s, level, k as u64 * 104_729 + 3)
                })
                .collect();
            let res = run_all(&jobs, threads);
            print!("  {method:?}: ");
            report(pl, &jobs, &res);
        }
        // Head to head: one seat each, greedy elsewhere.
        let jobs: Vec<_> = (0..compare)
            .map(|k| {
                let mut s: Seating = vec![None; usize::from(pl)];
                let b = k % usize::from(pl);
                let q = (b + 1 + k / usize::from(pl) % (usize::from(pl) - 1)) % usize::from(pl);
                s[b] = Some(Method::Brs);
                s[q] = Some(Method::Paranoid);
                (pl, s, level, k as u64 * 15_485_863 + 5)
            })
            .collect();
        let res = run_all(&jobs, threads);
        let mut wins = [0usize; 3];
        for (j, o) in jobs.iter().zip(&res) {
            match o.first.first().map(|&i| j.1[i]) {
                Some(Some(Method::Brs)) => wins[0] += 1,
                Some(Some(Method::Paranoid)) => wins[1] += 1,
                _ => wins[2] += 1,
            }
        }
        println!(
            "  {pl} players head to head: BRS first {} ({:.1} %), paranoid first {} ({:.1} %), greedy or none {} ({:.1} %)",
            wins[0],
            pct(wins[0], compare),
            wins[1],
            pct(wins[1], compare),
            wins[2],
            pct(wins[2], compare)
        );
    }
    println!("elapsed {:.1} s", t0.elapsed().as_secs_f64());
}

fn report(pl: u8, jobs: &[(u8, Seating, u8, u64)], res: &[Outcome]) {
    let n = res.len();
    let mut firsts = 0;
    let mut unfinished = 0;
    let (mut moves, mut secs, mut max, mut plies) = (0, 0.0f64, 0.0f64, 0);
    for (j, o) in jobs.iter().zip(res) {
        let ai_seat = j.1.iter().position(Option::is_some).unwrap_or(0);
        if o.first.len() == 1 && o.first[0] == ai_seat {
            firsts += 1;
        }
        if o.first.is_empty() {
            unfinished += 1;
        }
        moves += o.ai_moves;
        secs += o.ai_secs;
        max = max.max(o.ai_max);
        plies += o.plies;
    }
    let word = if pl == 2 { "wins" } else { "firsts" };
    println!(
        "{pl} players: {n} games, AI {word} {firsts} ({:.1} %), unfinished {unfinished}, {:.0} plies a game, AI {:.1} ms a move (max {:.0} ms)",
        pct(firsts, n),
        plies as f64 / n.max(1) as f64,
        1000.0 * secs / moves.max(1) as f64,
        1000.0 * max
    );
}
