//! Would refining the solo race's row relaxation by column classes raise its
//! bound at the start? `cargo run --release -p qiyuan-lab --example
//! solo_classes -- M [MOVE...]` (M = 1, 2 or 3; moves as T13 texts, played
//! from the start first, to measure a later position).
//!
//! The relaxed game keeps, for each row, how many pieces stand on it in
//! each class u mod M (u = (x − y)/2 in doubled coordinates, the lattice
//! coordinate along the rows). Every real move is a relaxed move: a step
//! goes to one of the six neighbouring bins (row ± 1 or the same row, u ± 1
//! or the same u); a jump chain is a flood fill over bins, each hop landing
//! in a bin with a free hole over a bin holding another piece (the mover
//! lifted). With M = 3 a hop's pivot bin is fixed by its landing bin, so the
//! pivot needs the right column class. Prints the relaxed distance to camp
//! d (every camp open), found by IDA* guided by the plain
//! row relaxation (M = 1, computed here by a breadth-first search), and the
//! nodes it took.

use std::collections::HashMap;

use qiyuan_tiaoqi::geometry::{Bits, Cell, Seat, cells};
use qiyuan_tiaoqi::text::parse_cell;

const ROWS: usize = 17;
/// Pieces per bin: `[row][class]` (classes beyond M stay empty).
type State = [[u8; 3]; ROWS];

/// The six lattice directions as (du, drow).
const DIRS: [(i32, i32); 6] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)];

struct Game {
    m: i32,
    cap: State,
}

impl Game {
    fn bin(&self, c: Cell) -> (usize, usize) {
        let (x, y) = (i32::from(c.x()), i32::from(c.y()));
        (
            (y - 1) as usize,
            (x - y).div_euclid(2).rem_euclid(self.m) as usize,
        )
    }

    fn shift(
        &self,
        (r, k): (usize, usize),
        (du, dr): (i32, i32),
        n: i32,
    ) -> Option<(usize, usize)> {
        let row = r as i32 + n * dr;
        (0..ROWS as i32).contains(&row).then(|| {
            (
                row as usize,
                (k as i32 + n * du).rem_euclid(self.m) as usize,
            )
        })
    }

    fn moves(&self, s: &State, out: &mut Vec<State>) {
        out.clear();
        for r in 0..ROWS {
            for k in 0..self.m as usize {
                if s[r][k] == 0 {
                    continue;
                }
                let mut lifted = *s;
                lifted[r][k] -= 1;
                let free = |(r, k): (usize, usize)| lifted[r][k] < self.cap[r][k];
                let mut reach = [[false; 3]; ROWS];
                for d in DIRS {
                    if let Some(b) = self.shift((r, k), d, 1).filter(|&b| free(b)) {
                        reach[b.0][b.1] = true;
                    }
                }
                let mut seen = [[false; 3]; ROWS];
                seen[r][k] = true;
                let mut stack = vec![(r, k)];
                while let Some(at) = stack.pop() {
                    for d in DIRS {
                        let (Some(over), Some(to)) = (self.shift(at, d, 1), self.shift(at, d, 2))
                        else {
                            continue;
                        };
                        if lifted[over.0][over.1] > 0 && free(to) && !seen[to.0][to.1] {
                            seen[to.0][to.1] = true;
                            reach[to.0][to.1] = true;
                            stack.push(to);
                        }
                    }
                }
                reach[r][k] = false;
                for (rr, row) in reach.iter().enumerate() {
                    for (kk, &ok) in row.iter().enumerate() {
                        if ok {
                            let mut after = lifted;
                            after[rr][kk] += 1;
                            out.push(after);
                        }
                    }
                }
            }
        }
    }
}

/// Exact distances of the plain row relaxation (one class), by state.
fn row_distances(rows: &Game, start: &State) -> HashMap<State, u32> {
    // Backwards from every goal: all pieces within camp d's rows.
    let mut goals = Vec::new();
    let pieces: u8 = start.iter().map(|r| r[0]).sum();
    fn fill(cap: &State, r: usize, left: u8, s: &mut State, out: &mut Vec<State>) {
        if left == 0 {
            out.push(*s);
            return;
        }
        if r == ROWS {
            return;
        }
        for n in 0..=cap[r][0].min(left) {
            s[r][0] = n;
            fill(cap, r + 1, left - n, s, out);
        }
        s[r][0] = 0;
    }
    fill(&rows.cap, 13, pieces, &mut [[0; 3]; ROWS], &mut goals);
    let mut dist: HashMap<State, u32> = goals.iter().map(|&g| (g, 0)).collect();
    let mut frontier = goals;
    let mut kids = Vec::new();
    let mut depth = 0;
    while !frontier.is_empty() {
        depth += 1;
        let mut next = Vec::new();
        for s in &frontier {
            rows.moves(s, &mut kids);
            for k in &kids {
                dist.entry(*k).or_insert_with(|| {
                    next.push(*k);
                    depth
                });
            }
        }
        frontier = next;
    }
    dist
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let m: i32 = args
        .first()
        .and_then(|a| a.parse().ok())
        .unwrap_or(3)
        .clamp(1, 3);
    let mut pieces: Bits = Seat::A.camp();
    for text in args.iter().skip(1) {
        let from = parse_cell(text.split('-').next().unwrap_or("")).expect("a move");
        let to = parse_cell(text.rsplit('-').next().unwrap_or("")).expect("a move");
        pieces ^= from.bit() ^ to.bit();
    }
    let build = |m: i32| {
        let mut g = Game {
            m,
            cap: [[0; 3]; ROWS],
        };
        let mut start = [[0; 3]; ROWS];
        for c in Cell::all() {
            let (r, k) = g.bin(c);
            g.cap[r][k] += 1;
        }
        for c in cells(pieces) {
            let (r, k) = g.bin(c);
            start[r][k] += 1;
        }
        (g, start)
    };
    let (rows, row_start) = build(1);
    let dist = row_distances(&rows, &row_start);
    let h = |s: &State| {
        let mut plain = [[0u8; 3]; ROWS];
        for (p, r) in plain.iter_mut().zip(s) {
            p[0] = r.iter().sum();
        }
        dist.get(&plain).copied().unwrap_or(u32::MAX)
    };
    let (game, start) = build(m);
    println!("row relaxation: {}", h(&start));
    let done = |s: &State| s[..13].iter().all(|r| r.iter().all(|&n| n == 0));
    let mut nodes = 0u64;
    for limit in h(&start)..h(&start) + 8 {
        let mut best: HashMap<State, u32> = HashMap::new();
        let mut stack = vec![(start, 0u32)];
        let mut kids = Vec::new();
        let mut found = false;
        while let Some((s, g)) = stack.pop() {
            nodes += 1;
            if done(&s) {
                found = true;
                break;
            }
            if g + h(&s) > limit || best.get(&s).is_some_and(|&b| b <= g) {
                continue;
            }
            best.insert(s, g);
            game.moves(&s, &mut kids);
            stack.extend(kids.iter().map(|&k| (k, g + 1)));
        }
        if found {
            println!("classes u mod {m}: relaxed distance {limit}, nodes {nodes}");
            break;
        }
        println!("classes u mod {m}: more than {limit} (nodes {nodes})");
    }
}
