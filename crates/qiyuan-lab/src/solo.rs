//! The solo race: one player alone on the board, its pieces starting in
//! camp a (south), must bring all of them into camp d (north) in as few
//! moves as possible (a move is one step or one jump chain, T4), and the
//! solver proves that nothing shorter exists.
//!
//! Two rule settings: every camp open (pieces may cross or rest in the side
//! camps b, c, e, f), or T5's closed side camps (only the hexagon, camp a and
//! camp d).
//!
//! The search is IDA* with an admissible lower bound ([`lower_bound`]), a
//! transposition table that remembers, for a position (up to the west-east
//! mirror), the largest number of moves in which it is already known not to
//! finish, and move ordering by the bound then by rows gained. A beam search
//! ([`beam`]) finds good solutions fast, as an upper bound.
//!
//! The module is pure: no I/O and no clock; work is limited by node counts.
//!
//! # Where it stands
//!
//! The beam search (width 20000, a few seconds) finds 27-move solutions with
//! the side camps open and closed alike (the one stored in `tests/it/solo.rs`
//! never enters a side camp). The bound is the best of two: the class count
//! of [`lower_bound`] and the line projections of `projection` (19 at the
//! start in both settings, built in a few seconds). With it IDA* proves no
//! solution of at most 22 moves (6 million nodes, about 25 s) and the proof
//! by halves (`meet`, breadth first) no solution of at most 25 moves (open
//! camps: 155 million positions, about 35 minutes, 3.7 GB; closed: 105
//! million, 25 minutes). That 26 moves do not suffice is proved by layers
//! (`layers`, three breadth-first layers and the middle one's meeting test
//! once 25 is proved): 735 million positions, about 1.6 hours of CPU on two
//! threads, 6.3 GB. So 27 is the minimum with the camps open, and under T5
//! too (closed camps only take moves away); `docs/tiaoqi.md` has the figures.

use std::collections::HashSet;
use std::sync::Arc;

use crate::projection::Projection;
use qiyuan_tiaoqi::geometry::{BOARD, Bits, CELLS, Cell, JUMPS, NEIGHBOURS, Seat, cells};

/// One move of the solo race: the holes it visits, start first (a step has
/// two, a jump chain one more per hop).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SoloMove {
    /// Start, each landing hole, end.
    pub path: Vec<Cell>,
}

impl SoloMove {
    /// The moving piece's hole.
    pub fn from(&self) -> Cell {
        self.path[0]
    }

    /// Where the piece ends.
    pub fn to(&self) -> Cell {
        self.path[self.path.len() - 1]
    }

    /// The move text of T13: the holes joined by `-`.
    pub fn text(&self) -> String {
        self.path
            .iter()
            .map(Cell::to_string)
            .collect::<Vec<_>>()
            .join("-")
    }
}

/// A position less one piece, see [`Race::partial`].
#[derive(Clone, Copy, Debug)]
pub struct Partial {
    have: [i32; 4],
    near: [i32; 4],
    out: u32,
    lines: Option<crate::projection::Partial>,
}

/// What [`solve`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SoloResult {
    /// A shortest solution, if one of at most the depth asked for exists
    /// (and the node limit, if any, was not reached first).
    pub moves: Option<Vec<SoloMove>>,
    /// Every solution has more than this many moves (proved).
    pub depth_proven: u32,
    /// Positions visited.
    pub nodes: u64,
}

/// The rules of one race: where pieces may stand, where they start and
/// where they must end.
#[derive(Clone, Debug)]
pub struct Race {
    allowed: Bits,
    start: Bits,
    target: Bits,
    /// Jump class of each cell: (u mod 2, v mod 2) in lattice coordinates,
    /// which a jump never changes.
    class: [u8; CELLS],
    /// Target cells of each class.
    cap: [u8; 4],
    /// Cells outside the target next to an allowed target cell.
    next_to_target: Bits,
    /// Rows gained towards the target by standing on each cell (0 at the
    /// south tip, 16 at the north tip).
    rows: [u8; CELLS],
    mirror: [u8; CELLS],
    /// The relaxed distances along the three axes (races of 1 to 10 pieces).
    projection: Option<Arc<Projection>>,
    /// The west-east mirror maps start and target onto themselves.
    symmetric: bool,
}

impl Race {
    /// The ten-piece race from camp a to camp d; `open_camps` lets pieces use
    /// the side camps, otherwise T5 closes them.
    pub fn new(open_camps: bool) -> Race {
        Race::with(open_camps, Seat::A.camp(), Seat::D.camp())
    }

    /// A race from `start` to `target` (any set of pieces: it is finished
    /// once every piece stands in `target`).
    pub fn with(open_camps: bool, start: Bits, target: Bits) -> Race {
        let allowed = if open_camps { BOARD } else { Seat::A.allowed() };
        let mut class = [0u8; CELLS];
        let mut rows = [0u8; CELLS];
        let mut mirror = [0u8; CELLS];
        let mut cap = [0u8; 4];
        let mut next_to_target = 0;
        for c in Cell::all() {
            let (x, y) = (i32::from(c.x()), i32::from(c.y()));
            let u = (x - y).div_euclid(2);
            class[c.index()] = (u.rem_euclid(2) * 2 + y.rem_euclid(2)) as u8;
            rows[c.index()] = c.row() - 1;
            mirror[c.index()] = Cell::from_xy(-c.x(), c.y()).map_or(0, |m| m.index() as u8);
            if target & c.bit() != 0 {
                cap[class[c.index()] as usize] += 1;
            } else if NEIGHBOURS[c.index()] & target & allowed != 0 {
                next_to_target |= c.bit();
            }
        }
        let projection =
            Projection::new(start.count_ones() as usize, allowed, target).map(Arc::new);
        let image = |set: Bits| cells(set).fold(0, |m, c| m | 1u128 << mirror[c.index()]);
        let symmetric = image(start) == start && image(target) == target;
        Race {
            allowed,
            start,
            target,
            class,
            cap,
            next_to_target,
            rows,
            mirror,
            projection,
            symmetric,
        }
    }

    /// The start set.
    pub fn start(&self) -> Bits {
        self.start
    }

    /// The target set.
    pub fn target(&self) -> Bits {
        self.target
    }

    /// The holes pieces may use.
    pub fn allowed(&self) -> Bits {
        self.allowed
    }

    /// Whether every piece is home.
    pub fn is_done(&self, pieces: Bits) -> bool {
        pieces & !self.target == 0
    }

    /// Every end hole of a move (step or jump chain) of the piece on
    /// `from`: steps to free neighbours, and the flood fill of jump chains
    /// (the moving piece lifted, T4; closed camps neither landed on nor
    /// jumped over, T5).
    pub fn targets(&self, pieces: Bits, from: Cell) -> Bits {
        self.steps(pieces, from) | self.jumps(pieces, from, None)
    }

    fn steps(&self, pieces: Bits, from: Cell) -> Bits {
        NEIGHBOURS[from.index()] & !pieces & self.allowed
    }

    fn jumps(&self, pieces: Bits, from: Cell, mut parents: Option<&mut [u8; CELLS]>) -> Bits {
        let occ = pieces & !from.bit();
        let over_ok = occ & self.allowed;
        let land_ok = !occ & self.allowed;
        let mut visited = from.bit();
        let mut frontier = from.bit();
        while frontier != 0 {
            let mut next = 0;
            for c in cells(frontier) {
                let (hops, n) = &JUMPS[c.index()];
                for &(over, land) in &hops[..usize::from(*n)] {
                    let land_bit = 1u128 << land;
                    if over_ok >> over & 1 != 0 && land_ok & !visited & land_bit != 0 {
                        visited |= land_bit;
                        next |= land_bit;
                        if let Some(p) = parents.as_deref_mut() {
                            p[usize::from(land)] = c.index() as u8;
                        }
                    }
                }
            }
            frontier = next;
        }
        visited & !from.bit()
    }

    /// The holes of the move `from → to` (one shortest chain for a jump), or
    /// `None` if it is not a legal move.
    pub fn path(&self, pieces: Bits, from: Cell, to: Cell) -> Option<SoloMove> {
        if pieces & from.bit() == 0 {
            return None;
        }
        if self.steps(pieces, from) & to.bit() != 0 {
            return Some(SoloMove {
                path: vec![from, to],
            });
        }
        let mut parents = [u8::MAX; CELLS];
        if self.jumps(pieces, from, Some(&mut parents)) & to.bit() == 0 {
            return None;
        }
        let mut path = vec![to];
        let mut at = to;
        while at != from {
            at = Cell::from_index(usize::from(parents[at.index()]))?;
            path.push(at);
        }
        path.reverse();
        Some(SoloMove { path })
    }

    /// The lower bound on the moves still needed (see [`lower_bound`]).
    pub fn bound(&self, pieces: Bits) -> u32 {
        let classes = self.class_bound(pieces);
        let lines = self.projection.as_ref().map_or(0, |p| p.bound(pieces));
        classes.max(lines)
    }

    /// The class count part of [`lower_bound`].
    fn class_bound(&self, pieces: Bits) -> u32 {
        let out = pieces & !self.target;
        let mut have = [0i32; 4];
        let mut near = [0i32; 4];
        for c in cells(pieces) {
            have[usize::from(self.class[c.index()])] += 1;
        }
        for c in cells(out & self.next_to_target) {
            near[usize::from(self.class[c.index()])] += 1;
        }
        let mut extra = 0;
        for k in 0..4 {
            extra += (have[k] - i32::from(self.cap[k]) - near[k]).max(0);
        }
        out.count_ones() + extra as u32
    }

    /// Whether [`Race::bound`] is at most `limit` (cheapest part first, and
    /// no more once one part is over).
    pub fn within(&self, pieces: Bits, limit: u32) -> bool {
        self.class_bound(pieces) <= limit
            && self
                .projection
                .as_ref()
                .is_none_or(|p| p.within(pieces, limit))
    }

    /// A position less one piece, made ready to bound that position with
    /// any one piece added ([`Race::partial_within`]) in a few table reads.
    pub fn partial(&self, rest: Bits) -> Partial {
        let mut part = Partial {
            have: [0; 4],
            near: [0; 4],
            out: 0,
            lines: self.projection.as_ref().map(|p| p.partial(rest)),
        };
        for c in cells(rest) {
            let (k, i) = (usize::from(self.class[c.index()]), c.bit());
            part.have[k] += 1;
            if self.target & i == 0 {
                part.out += 1;
                if self.next_to_target & i != 0 {
                    part.near[k] += 1;
                }
            }
        }
        part
    }

    /// Whether [`Race::bound`] of `rest` plus a piece on `to` is at most
    /// `limit`, `part` being [`Race::partial`] of `rest` (`to` not in it).
    pub fn partial_within(&self, part: &Partial, to: Cell, limit: u32) -> bool {
        let (k, i) = (usize::from(self.class[to.index()]), to.bit());
        let (mut have, mut near, mut out) = (part.have, part.near, part.out);
        have[k] += 1;
        if self.target & i == 0 {
            out += 1;
            if self.next_to_target & i != 0 {
                near[k] += 1;
            }
        }
        let extra: i32 = (0..4)
            .map(|k| (have[k] - i32::from(self.cap[k]) - near[k]).max(0))
            .sum();
        out + extra as u32 <= limit
            && match (&self.projection, &part.lines) {
                (Some(p), Some(l)) => p.partial_within(l, to, limit),
                _ => true,
            }
    }

    /// Whether the west-east mirror maps the race onto itself (then
    /// [`Race::canonical`] folds a position and its image together).
    pub fn is_symmetric(&self) -> bool {
        self.symmetric
    }

    /// The sum over pieces of rows gained from the south tip.
    pub fn rows(&self, pieces: Bits) -> u32 {
        cells(pieces).map(|c| u32::from(self.rows[c.index()])).sum()
    }

    /// The west-east mirror image of a set.
    pub fn mirror(&self, pieces: Bits) -> Bits {
        cells(pieces).fold(0, |m, c| m | 1u128 << self.mirror[c.index()])
    }

    /// The key of a position up to the mirror: the smaller of the set and
    /// its image (the set itself in a race whose start or target the mirror
    /// changes, where a position and its image are not equally far).
    pub fn canonical(&self, pieces: Bits) -> Bits {
        if self.symmetric {
            pieces.min(self.mirror(pieces))
        } else {
            pieces
        }
    }

    /// Every position one move away, as (from, to, after).
    pub fn children(&self, pieces: Bits, out: &mut Vec<(Cell, Cell, Bits)>) {
        out.clear();
        for from in cells(pieces) {
            for to in cells(self.targets(pieces, from)) {
                out.push((from, to, pieces ^ from.bit() ^ to.bit()));
            }
        }
    }

    /// Replays `(from, to)` pairs from the start into moves with paths.
    fn replay(&self, line: &[(Cell, Cell)]) -> Option<Vec<SoloMove>> {
        let mut p = self.start;
        let mut moves = Vec::with_capacity(line.len());
        for &(from, to) in line {
            moves.push(self.path(p, from, to)?);
            p ^= from.bit() ^ to.bit();
        }
        Some(moves)
    }
}

/// The admissible lower bound used by [`solve`] for ten pieces, with camps
/// open or closed: every piece outside the target must move at least once;
/// and a jump never changes a cell's class (u mod 2, v mod 2 in lattice
/// coordinates u = (x − y)/2, v = y), so of each class at least (pieces of
/// the class − target cells of the class) pieces must step at some time; a
/// piece that steps costs no extra move only if it stands outside the target
/// next to it now (its one move can be that step into the target), and at
/// least one extra move otherwise (a piece in the target has nothing
/// counted yet; a piece further out cannot step home in one move).
pub fn lower_bound(open_camps: bool, pieces: Bits) -> u32 {
    Race::new(open_camps).bound(pieces)
}

/// A transposition table: for a position up to the mirror, the largest
/// number of moves in which it is known not to finish. One `u128` a slot:
/// the 121 cell bits and the count in the top 7 bits; replace always.
struct Table {
    slots: Vec<u128>,
    mask: usize,
}

const KEY_BITS: Bits = BOARD;

impl Table {
    fn new(bits: u32) -> Table {
        Table {
            slots: vec![0; 1 << bits],
            mask: (1 << bits) - 1,
        }
    }

    fn index(&self, key: Bits) -> usize {
        let h = (key as u64 ^ (key >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> 20) as usize & self.mask
    }

    fn get(&self, key: Bits) -> Option<u32> {
        let s = self.slots[self.index(key)];
        (s & KEY_BITS == key).then_some((s >> 121) as u32)
    }

    fn put(&mut self, key: Bits, fails_within: u32) {
        let i = self.index(key);
        self.slots[i] = key | u128::from(fails_within.min(127)) << 121;
    }
}

/// Limits and sizes for [`solve_with`].
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The largest solution length searched for.
    pub max_depth: u32,
    /// Stop after this many nodes (the result then proves what the last
    /// finished iteration proved).
    pub max_nodes: u64,
    /// log2 of the transposition table's slots (16 bytes each).
    pub table_bits: u32,
}

struct Search<'a> {
    race: &'a Race,
    table: Table,
    nodes: u64,
    max_nodes: u64,
    line: Vec<(Cell, Cell)>,
    buffers: Vec<Vec<Child>>,
}

/// A child in the search: (bound, rows gained + 32, from, to, pieces).
type Child = (u32, u32, Cell, Cell, Bits);

enum Outcome {
    Found,
    Failed,
    OutOfNodes,
}

impl Search<'_> {
    /// Whether `pieces` finishes within `budget` moves; on success the moves
    /// are in `line` (last move first).
    fn dfs(&mut self, pieces: Bits, budget: u32, ply: usize) -> Outcome {
        self.nodes += 1;
        if self.race.is_done(pieces) {
            return Outcome::Found;
        }
        if self.nodes > self.max_nodes {
            return Outcome::OutOfNodes;
        }
        let key = self.race.canonical(pieces);
        if self.table.get(key).is_some_and(|f| f >= budget) {
            return Outcome::Failed;
        }
        if ply >= self.buffers.len() {
            self.buffers.push(Vec::with_capacity(128));
        }
        let mut kids = std::mem::take(&mut self.buffers[ply]);
        kids.clear();
        for from in cells(pieces) {
            for to in cells(self.race.targets(pieces, from)) {
                let after = pieces ^ from.bit() ^ to.bit();
                let h = self.race.bound(after);
                if h < budget {
                    let gain = 32 + u32::from(self.race.rows[to.index()])
                        - u32::from(self.race.rows[from.index()]);
                    kids.push((h, gain, from, to, after));
                }
            }
        }
        kids.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
        let mut outcome = Outcome::Failed;
        for &(_, _, from, to, after) in &kids {
            match self.dfs(after, budget - 1, ply + 1) {
                Outcome::Failed => {}
                o => {
                    if let Outcome::Found = o {
                        self.line.push((from, to));
                    }
                    outcome = o;
                    break;
                }
            }
        }
        self.buffers[ply] = kids;
        if let Outcome::Failed = outcome {
            self.table.put(key, budget);
        }
        outcome
    }
}

/// The fewest moves for the ten-piece race, searching solutions of up to
/// `max_depth` moves (IDA*, a 2^24-slot table, no node limit).
pub fn solve(open_camps: bool, max_depth: u32) -> SoloResult {
    solve_with(
        &Race::new(open_camps),
        Limits {
            max_depth,
            max_nodes: u64::MAX,
            table_bits: 24,
        },
    )
}

/// IDA* for any race: iterations with budgets from the start's bound up to
/// `limits.max_depth`; the first solution found is a shortest one.
pub fn solve_with(race: &Race, limits: Limits) -> SoloResult {
    solve_reporting(race, limits, &mut |_, _| {})
}

/// [`solve_with`], calling `done(budget, nodes)` after each finished
/// iteration that proved no solution of at most `budget` moves.
pub fn solve_reporting(race: &Race, limits: Limits, done: &mut dyn FnMut(u32, u64)) -> SoloResult {
    let start = race.start();
    let mut search = Search {
        race,
        table: Table::new(limits.table_bits),
        nodes: 0,
        max_nodes: limits.max_nodes,
        line: Vec::new(),
        buffers: Vec::new(),
    };
    let first = race.bound(start);
    let mut proven = first.saturating_sub(1);
    for budget in first..=limits.max_depth {
        match search.dfs(start, budget, 0) {
            Outcome::Found => {
                let mut line = std::mem::take(&mut search.line);
                line.reverse();
                return SoloResult {
                    moves: race.replay(&line),
                    depth_proven: budget.saturating_sub(1),
                    nodes: search.nodes,
                };
            }
            Outcome::Failed => {
                proven = budget;
                done(budget, search.nodes);
            }
            Outcome::OutOfNodes => break,
        }
    }
    SoloResult {
        moves: None,
        depth_proven: proven.min(limits.max_depth),
        nodes: search.nodes,
    }
}

/// A beam search for a short solution (no proof): level by level, the
/// `width` best distinct positions (up to the mirror) by `score` are kept.
/// Returns the first solution met and the nodes generated.
pub fn beam(race: &Race, width: usize, max_depth: u32) -> (Option<Vec<SoloMove>>, u64) {
    /// A beam entry: (pieces, index of parent in the previous level, from, to).
    type Entry = (Bits, u32, Cell, Cell);
    let mut levels: Vec<Vec<Entry>> = Vec::new();
    let start = race.start();
    let origin = Cell::from_index(0).unwrap_or_else(|| unreachable!());
    levels.push(vec![(start, 0, origin, origin)]);
    let mut nodes = 0u64;
    let mut kids = Vec::new();
    for _ in 0..max_depth {
        let Some(last) = levels.last() else { break };
        let mut seen = HashSet::with_capacity(width * 4);
        let mut next: Vec<(i64, Bits, u32, Cell, Cell)> = Vec::new();
        for (i, &(p, _, _, _)) in last.iter().enumerate() {
            race.children(p, &mut kids);
            for &(from, to, after) in &kids {
                nodes += 1;
                if !seen.insert(race.canonical(after)) {
                    continue;
                }
                next.push((score(race, after), after, i as u32, from, to));
            }
        }
        if next.len() > width {
            next.select_nth_unstable_by(width, |a, b| b.0.cmp(&a.0));
            next.truncate(width);
        }
        let level: Vec<_> = next.iter().map(|&(_, p, i, f, t)| (p, i, f, t)).collect();
        let done = level.iter().position(|&(p, ..)| race.is_done(p));
        levels.push(level);
        if let Some(mut at) = done {
            let mut line = Vec::new();
            for lv in levels.iter().skip(1).rev() {
                let (_, parent, from, to) = lv[at];
                line.push((from, to));
                at = parent as usize;
            }
            line.reverse();
            return (race.replay(&line), nodes);
        }
    }
    (None, nodes)
}

/// The beam's preference: rows gained, less a penalty for stragglers (the
/// square of each piece's rows still to go) and for the lower bound.
fn score(race: &Race, pieces: Bits) -> i64 {
    let mut s = 0i64;
    for c in cells(pieces) {
        let togo = 16 - i64::from(race.rows[c.index()]);
        s += 16 * (16 - togo) - togo * togo / 2;
    }
    s - 8 * i64::from(race.bound(pieces))
}

/// Checks a solution line given as move texts (`ROW.COL-ROW.COL-...`)
/// against a race: each move legal from where the pieces stand (each hop of
/// a chain over one piece to a free allowed hole, each step to a free
/// allowed neighbour), and every piece home at the end. Returns the number
/// of moves, or why the line fails.
pub fn check_line(race: &Race, texts: &[&str]) -> Result<usize, String> {
    let mut p = race.start();
    for (k, text) in texts.iter().enumerate() {
        let path = text
            .split('-')
            .map(qiyuan_tiaoqi::text::parse_cell)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("move {}: {e}", k + 1))?;
        if path.len() < 2 || p & path[0].bit() == 0 {
            return Err(format!("move {} ({text}): no piece to move", k + 1));
        }
        let from = path[0];
        let occ = p & !from.bit();
        let step = path.len() == 2 && NEIGHBOURS[from.index()] & path[1].bit() != 0;
        if step {
            if (occ | !race.allowed) & path[1].bit() != 0 {
                return Err(format!("move {} ({text}): blocked step", k + 1));
            }
        } else {
            let mut seen = from.bit();
            for w in path.windows(2) {
                let (hops, n) = &JUMPS[w[0].index()];
                let ok = hops[..usize::from(*n)].iter().any(|&(over, land)| {
                    usize::from(land) == w[1].index()
                        && (occ & race.allowed) >> over & 1 != 0
                        && (occ | !race.allowed | seen) & w[1].bit() == 0
                });
                if !ok {
                    return Err(format!(
                        "move {} ({text}): bad hop {}-{}",
                        k + 1,
                        w[0],
                        w[1]
                    ));
                }
                seen |= w[1].bit();
            }
        }
        p = occ | path[path.len() - 1].bit();
    }
    if race.is_done(p) {
        Ok(texts.len())
    } else {
        Err("not every piece is home".into())
    }
}
