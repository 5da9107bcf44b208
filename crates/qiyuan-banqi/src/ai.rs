//! The computer player: expectimax at the root (a flip is a chance node over
//! the pieces that may lie face down, weighted by how many of each remain)
//! and alpha-beta with a capture quiescence below it, in the style of the
//! published Chinese Dark Chess programs (chance-node search; see docs/banqi.md).
//!
//! The AI sees only the public position: [`choose`] drops the face-down
//! identities before it looks, so a full position passed in by mistake cannot
//! leak them. Inside the tree a flip is treated as a quiet tempo move (the
//! side may "pass" by flipping); at the root each flip is evaluated over every
//! possible identity. Levels 1-8 differ in depth and in the noise added to
//! root scores; all randomness comes from the caller's generator.

use rand::Rng;

use crate::position::{Cell, Position};
use crate::types::{Colour, Kind, Move, Piece, Preset, Square};

const WIN: i32 = 100_000;
const EMPTY: u8 = 0;
const DOWN: u8 = 1;

/// What a level does.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Level {
    /// Plies of alpha-beta for moves and captures at the root (quiescence below).
    pub depth: i32,
    /// Plies searched after each possible identity of a root flip.
    pub flip_depth: i32,
    /// Uniform noise (± points) added to each root score; a soldier is 25.
    pub noise: i32,
    /// Node budget per move, so the deepest levels stay quick.
    pub nodes: u64,
}

impl Level {
    /// The settings of hall level `n` (clamped to 1-8).
    pub fn of(n: u8) -> Level {
        let (depth, flip_depth, noise, nodes) = match n.clamp(1, 8) {
            1 => (1, 0, 40, 20_000),
            2 => (1, 0, 20, 20_000),
            3 => (2, 1, 12, 50_000),
            4 => (2, 1, 6, 50_000),
            5 => (3, 1, 3, 100_000),
            6 => (4, 1, 1, 60_000),
            7 => (5, 1, 1, 100_000),
            _ => (6, 2, 1, 150_000),
        };
        Level {
            depth,
            flip_depth,
            noise,
            nodes,
        }
    }
}

/// Picks a move for the seat to move at hall level `level` (1-8), or `None`
/// when there is no legal move. Uses only public information.
pub fn choose<R: Rng + ?Sized>(pos: &Position, level: u8, rng: &mut R) -> Option<Move> {
    let public = pos.public();
    let legal = public.legal_moves();
    if legal.is_empty() {
        return None;
    }
    let Some(me) = public.colour_of(public.turn()) else {
        // Before the first flip nothing is known: any flip is as good as another.
        return Some(legal[rng.random_range(0..legal.len())]);
    };
    let lv = Level::of(level);
    let board = Board::from_position(&public);
    let mut search = Search {
        nodes: 0,
        budget: lv.nodes,
    };
    let mut best: Option<(i32, Move)> = None;
    for m in legal {
        let v = match m {
            Move::Step { from, to } => {
                let child = board.step(from.0, to.0);
                // Moves that cannot beat the best so far even with the noise
                // need only a bound, so search them with a null window below.
                let alpha = best.map_or(-WIN - 1, |(b, _)| b.saturating_sub(2 * lv.noise + 1));
                -search.ab(&child, me.flip(), lv.depth - 1, -WIN - 1, -alpha, 1)
            }
            Move::Flip(sq) => search.flip_value(&board, me, sq.0, lv.flip_depth),
        };
        let noisy = if lv.noise > 0 {
            v.saturating_add(rng.random_range(-lv.noise..=lv.noise))
        } else {
            v
        };
        if best.is_none_or(|(b, _)| noisy > b) {
            best = Some((noisy, m));
        }
    }
    best.map(|(_, m)| m)
}

/// A uniformly random legal move (the baseline the levels are measured
/// against); flips included.
pub fn random_move<R: Rng + ?Sized>(pos: &Position, rng: &mut R) -> Option<Move> {
    let legal = pos.legal_moves();
    (!legal.is_empty()).then(|| legal[rng.random_range(0..legal.len())])
}

/// Static piece values: what a piece is worth to its side. The cannon is worth
/// much more than its rank because it captures any piece (B5).
fn value(kind: Kind) -> i32 {
    match kind {
        Kind::General => 110,
        Kind::Advisor => 90,
        Kind::Elephant => 60,
        Kind::Chariot => 45,
        Kind::Horse => 35,
        Kind::Cannon => 70,
        Kind::Soldier => 25,
    }
}

/// The search's board: a byte per square (0 empty, 1 face down, 2 + piece
/// index face up) and the pool of pieces that may lie face down.
#[derive(Clone)]
struct Board {
    cells: [u8; 32],
    pool: [u8; 14],
    /// Pieces left per colour (face up or in the pool), kept as moves are made.
    left: [i32; 2],
    equal_both_removed: bool,
}

/// A move list on the stack: (from, to, ordering key; 0 for a quiet move).
struct MoveList {
    len: usize,
    items: [(u8, u8, i32); 96],
}

impl MoveList {
    fn new() -> MoveList {
        MoveList {
            len: 0,
            items: [(0, 0, 0); 96],
        }
    }
    fn push(&mut self, m: (u8, u8, i32)) {
        // 16 pieces have at most 4 steps and 4 jumps each: 96 is never reached.
        if self.len < self.items.len() {
            self.items[self.len] = m;
            self.len += 1;
        }
    }
    fn as_slice(&self) -> &[(u8, u8, i32)] {
        &self.items[..self.len]
    }
    fn is_empty(&self) -> bool {
        self.len == 0
    }
}

fn piece_of(code: u8) -> Option<Piece> {
    (code >= 2).then(|| Piece::from_index(usize::from(code - 2)))
}

fn neighbours(sq: u8) -> impl Iterator<Item = u8> {
    Square(sq).neighbours().map(|s| s.0)
}

impl Board {
    fn from_position(pos: &Position) -> Board {
        let mut cells = [EMPTY; 32];
        for s in Square::all() {
            cells[s.index()] = match pos.cell(s) {
                Cell::Empty => EMPTY,
                Cell::Down(_) => DOWN,
                Cell::Up(p) => 2 + p.index() as u8,
            };
        }
        let left = [
            pos.pieces_left(Colour::Red) as i32,
            pos.pieces_left(Colour::Black) as i32,
        ];
        Board {
            cells,
            pool: pos.hidden_pool(),
            left,
            equal_both_removed: pos.preset() == Preset::Banqi,
        }
    }

    fn up(&self, sq: u8) -> Option<Piece> {
        piece_of(self.cells[sq as usize])
    }

    /// Pieces of `c` left, face up or in the pool.
    fn count(&self, c: Colour) -> i32 {
        self.left[c.index()]
    }

    fn has_down(&self) -> bool {
        self.cells.contains(&DOWN)
    }

    /// Moves and captures of `side` (no flips), captures first.
    fn moves(&self, side: Colour, out: &mut MoveList) {
        for from in 0..32u8 {
            let Some(p) = self.up(from) else { continue };
            if p.colour != side {
                continue;
            }
            for to in neighbours(from) {
                match self.cells[to as usize] {
                    EMPTY => out.push((from, to, 0)),
                    DOWN => {}
                    c => {
                        if let Some(t) = piece_of(c)
                            && t.colour != side
                            && p.outranks(t)
                        {
                            out.push((from, to, value(t.kind) * 16 - value(p.kind)));
                        }
                    }
                }
            }
            if p.kind == Kind::Cannon {
                for (df, dr) in [(0i8, 1i8), (0, -1), (1, 0), (-1, 0)] {
                    let (mut f, mut r) = ((from % 8) as i8, (from / 8) as i8);
                    let mut screened = false;
                    loop {
                        f += df;
                        r += dr;
                        if !(0..8).contains(&f) || !(0..4).contains(&r) {
                            break;
                        }
                        let to = (r * 8 + f) as u8;
                        let c = self.cells[to as usize];
                        if c == EMPTY {
                            continue;
                        }
                        if !screened {
                            screened = true;
                            continue;
                        }
                        if let Some(t) = piece_of(c)
                            && t.colour != side
                        {
                            out.push((from, to, value(t.kind) * 16 - value(p.kind)));
                        }
                        break;
                    }
                }
            }
        }
        out.items[..out.len].sort_unstable_by_key(|m| -m.2);
    }

    fn step(&self, from: u8, to: u8) -> Board {
        let mut b = self.clone();
        let mover = b.cells[from as usize];
        let target = b.cells[to as usize];
        b.cells[from as usize] = EMPTY;
        let mut both = false;
        if let (Some(a), Some(t)) = (piece_of(mover), piece_of(target)) {
            b.left[t.colour.index()] -= 1;
            both = self.equal_both_removed && a.kind == t.kind;
            if both {
                b.left[a.colour.index()] -= 1;
            }
        }
        b.cells[to as usize] = if both { EMPTY } else { mover };
        b
    }

    fn flip_as(&self, sq: u8, idx: usize) -> Board {
        let mut b = self.clone();
        b.cells[sq as usize] = 2 + idx as u8;
        b.pool[idx] -= 1;
        b
    }

    /// The score for `side`: material (face-up and expected face-down), plus
    /// a pull towards enemy pieces each piece can capture (so a won ending is
    /// actually won before the ply limit), less for one's own pieces en prise
    /// when the opponent is to move.
    fn eval(&self, side: Colour) -> i32 {
        let mut s = [0i32; 2];
        for c in [Colour::Red, Colour::Black] {
            for k in 0..7 {
                let n = i32::from(self.pool[c.index() * 7 + k]);
                s[c.index()] += n * value(Kind::ALL[k]);
            }
        }
        let ups: Vec<(u8, Piece)> = (0..32u8)
            .filter_map(|sq| self.up(sq).map(|p| (sq, p)))
            .collect();
        for &(sq, p) in &ups {
            s[p.colour.index()] += value(p.kind) + 10;
            // Approach the nearest enemy piece this one could capture.
            let mut best = 99;
            for &(tsq, t) in &ups {
                if t.colour != p.colour && (p.outranks(t) || p.kind == Kind::Cannon) {
                    let d = (i32::from(sq % 8) - i32::from(tsq % 8)).abs()
                        + (i32::from(sq / 8) - i32::from(tsq / 8)).abs();
                    best = best.min(d);
                }
            }
            if best < 99 {
                s[p.colour.index()] += 2 * (10 - best);
            }
        }
        s[side.index()] - s[side.flip().index()]
    }
}

struct Search {
    nodes: u64,
    budget: u64,
}

impl Search {
    /// Alpha-beta value of `board` for `side` to move.
    fn ab(
        &mut self,
        b: &Board,
        side: Colour,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: i32,
    ) -> i32 {
        self.nodes += 1;
        let (mine, theirs) = (b.count(side), b.count(side.flip()));
        if mine == 0 && theirs == 0 {
            return 0;
        }
        if theirs == 0 {
            return WIN - ply;
        }
        if mine == 0 {
            return -WIN + ply;
        }
        if depth <= 0 || self.nodes > self.budget {
            return self.quiesce(b, side, alpha, beta, ply, 6);
        }
        let mut moves = MoveList::new();
        b.moves(side, &mut moves);
        let can_flip = b.has_down();
        if moves.is_empty() && !can_flip {
            return -WIN + ply; // B9
        }
        let mut best = -WIN - 1;
        if can_flip {
            // A flip as a tempo move: the opponent moves next on the same board.
            best = -self.ab(b, side.flip(), depth - 1, -beta, -alpha, ply + 1);
            alpha = alpha.max(best);
            if alpha >= beta {
                return best;
            }
        }
        for &(from, to, _) in moves.as_slice() {
            let child = b.step(from, to);
            let v = -self.ab(&child, side.flip(), depth - 1, -beta, -alpha, ply + 1);
            if v > best {
                best = v;
                alpha = alpha.max(v);
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }

    /// Captures only, standing pat on the evaluation.
    fn quiesce(
        &mut self,
        b: &Board,
        side: Colour,
        mut alpha: i32,
        beta: i32,
        ply: i32,
        left: i32,
    ) -> i32 {
        self.nodes += 1;
        let (mine, theirs) = (b.count(side), b.count(side.flip()));
        if theirs == 0 {
            return if mine == 0 { 0 } else { WIN - ply };
        }
        if mine == 0 {
            return -WIN + ply;
        }
        let stand = b.eval(side);
        if stand >= beta || left == 0 {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut moves = MoveList::new();
        b.moves(side, &mut moves);
        let mut best = stand;
        for &(from, to, key) in moves.as_slice() {
            if key == 0 {
                break; // captures come first; the rest are quiet
            }
            let child = b.step(from, to);
            let v = -self.quiesce(&child, side.flip(), -beta, -alpha, ply + 1, left - 1);
            if v > best {
                best = v;
                alpha = alpha.max(v);
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }

    /// The expected value for `me` of flipping `sq`: each piece that may lie
    /// there, weighted by its share of the pool, searched `depth` plies on.
    fn flip_value(&mut self, b: &Board, me: Colour, sq: u8, depth: i32) -> i32 {
        let total: i32 = b.pool.iter().map(|&n| i32::from(n)).sum();
        if total == 0 {
            return -WIN;
        }
        let mut sum: i64 = 0;
        for idx in 0..14 {
            let n = b.pool[idx];
            if n == 0 {
                continue;
            }
            let child = b.flip_as(sq, idx);
            let v = -self.ab(&child, me.flip(), depth, -WIN - 1, WIN + 1, 1);
            sum += i64::from(n) * i64::from(v);
        }
        (sum / i64::from(total)) as i32
    }
}

/// Plays one game between two players (each `Some(level)` or `None` for the
/// random player) from a layout drawn from `rng`; returns the winning player
/// (0 = `a`, 1 = `b`) or `None` for a draw. `a` sits in seat 0; who flips
/// first is drawn at random (B2).
pub fn play_game<R: Rng + ?Sized>(
    preset: Preset,
    a: Option<u8>,
    b: Option<u8>,
    rng: &mut R,
) -> Option<usize> {
    let mut game = crate::game::Game::random(preset, rng);
    while let Some(seat) = game.turn() {
        let player = if seat == 0 { a } else { b };
        let pos = game.position().clone();
        let m = match player {
            Some(level) => choose(&pos, level, rng),
            None => random_move(&pos, rng),
        };
        let Some(m) = m else { break };
        if game.play_move(m).is_err() {
            break;
        }
    }
    game.result().and_then(|o| o.winner)
}
