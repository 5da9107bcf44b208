//! A full-information position on an N-army board: the pieces, the army to
//! move, the armies that are out, the plies since the last clash and the
//! move number (S15); its legal moves (S5-S7, Q5-Q7) and making them (Q8,
//! S7, S10, S11).

use std::collections::VecDeque;

use super::{PostSet, Unit, team_of};
use crate::board::PostKind;
use crate::graph::{BoardGraph, PostId};
use crate::piece::{Clash, Rank, clash};
use crate::setup::Setup;

/// A move: from one post to another (S14 `g2g16`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// Where the piece stands.
    pub from: PostId,
    /// Where it goes (or whom it attacks).
    pub to: PostId,
}

/// Why an army went out (S10).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum OutReason {
    /// Its flag was taken.
    FlagTaken,
    /// It had no legal move on its turn.
    NoMoves,
    /// Its player surrendered.
    Surrender,
    /// Its fifth turn lost on time.
    Timeout,
}

impl OutReason {
    /// The stable word the CLI prints and the hall stores.
    pub const fn word(self) -> &'static str {
        match self {
            OutReason::FlagTaken => "flag-taken",
            OutReason::NoMoves => "no-moves",
            OutReason::Surrender => "surrender",
            OutReason::Timeout => "timeout",
        }
    }
}

/// What a move did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The move.
    pub mv: Move,
    /// The piece that moved.
    pub mover: Unit,
    /// The piece attacked, if any.
    pub defender: Option<Unit>,
    /// The clash, if it attacked.
    pub clash: Option<Clash>,
    /// The posts the piece passed, from `mv.from` to `mv.to` (S9: every
    /// player sees the path).
    pub path: Vec<PostId>,
    /// Armies put out by the move and the turns passed after it, in order.
    pub out: Vec<(u8, OutReason)>,
}

/// The room settings the rules name (Q8, S1, S11).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// A mine and its attacker (not an engineer) are both removed (Q8).
    pub mine_trades: bool,
    /// Plies without a clash that draw (S11; 0: never).
    pub quiet_limit: u32,
    /// Turns go clockwise (s w n e) instead of counterclockwise (S1).
    pub clockwise: bool,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            mine_trades: false,
            quiet_limit: 120,
            clockwise: false,
        }
    }
}

/// How a position stands: play on, a team has won, or a draw (S11).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The game goes on.
    Playing,
    /// Both armies of the other team are out: `team` wins.
    Won {
        /// The winning team (0: s+n, 1: e+w; two armies: 0 red, 1 blue).
        team: u8,
    },
    /// The quiet-ply limit was reached.
    Drawn,
}

/// A full-information position on a board of [`BoardGraph`].
#[derive(Clone, Debug)]
pub struct Position {
    graph: &'static BoardGraph,
    board: Vec<Option<Unit>>,
    turn: u8,
    out: u8,
    quiet: u32,
    move_number: u32,
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        std::ptr::eq(self.graph, other.graph)
            && self.board == other.board
            && self.turn == other.turn
            && self.out == other.out
            && self.quiet == other.quiet
            && self.move_number == other.move_number
    }
}

impl Eq for Position {}

impl Position {
    /// An empty board, the first army to move, move 1.
    pub fn empty(graph: &'static BoardGraph) -> Position {
        Position {
            graph,
            board: vec![None; graph.len()],
            turn: 0,
            out: 0,
            quiet: 0,
            move_number: 1,
        }
    }

    /// Every army's set-up (in its own frame, S4/S7), the first army to
    /// move, move 1. `None` unless there is one set-up per army.
    pub fn from_setups(graph: &'static BoardGraph, setups: &[Setup]) -> Option<Position> {
        if setups.len() != graph.armies() {
            return None;
        }
        let mut p = Position::empty(graph);
        for (army, s) in setups.iter().enumerate() {
            for (post, rank) in s.pieces() {
                // A set-up's posts read in the red frame: file a-e, rank 1-6.
                let own = graph.own_post(army as u8, post.file(), post.rank())?;
                p.board[own.index()] = Some(Unit {
                    army: army as u8,
                    rank,
                });
            }
        }
        Some(p)
    }

    /// Every army in [`Setup::standard`].
    pub fn standard(graph: &'static BoardGraph) -> Position {
        let setups: Vec<Setup> = (0..graph.armies())
            .map(|_| Setup::standard(crate::board::Side::Red))
            .collect();
        Position::from_setups(graph, &setups).unwrap_or_else(|| unreachable!("one set-up per army"))
    }

    /// A position from its parts (the text parser checks them).
    pub(crate) fn from_parts(
        graph: &'static BoardGraph,
        board: Vec<Option<Unit>>,
        turn: u8,
        out: u8,
        quiet: u32,
        move_number: u32,
    ) -> Position {
        Position {
            graph,
            board,
            turn,
            out,
            quiet,
            move_number,
        }
    }

    /// The board.
    pub fn graph(&self) -> &'static BoardGraph {
        self.graph
    }

    /// The piece on `p`.
    pub fn at(&self, p: PostId) -> Option<Unit> {
        self.board.get(p.index()).copied().flatten()
    }

    /// Puts `unit` on `p` (or clears it), for the AI's sampled armies.
    pub fn put(&mut self, p: PostId, unit: Option<Unit>) {
        if let Some(slot) = self.board.get_mut(p.index()) {
            *slot = unit;
        }
    }

    /// The army to move.
    pub fn turn(&self) -> u8 {
        self.turn
    }

    /// The armies that are out, one bit an army.
    pub fn out(&self) -> u8 {
        self.out
    }

    /// Whether `army` is out.
    pub fn is_out(&self, army: u8) -> bool {
        self.out & (1 << army) != 0
    }

    /// Plies since the last clash (S11).
    pub fn quiet_plies(&self) -> u32 {
        self.quiet
    }

    /// The move number (S15).
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// Posts holding a piece of `army`.
    pub fn occupied_by(&self, army: u8) -> PostSet {
        self.graph
            .posts()
            .filter(|&p| self.at(p).is_some_and(|u| u.army == army))
            .collect()
    }

    /// Whether `a` and `b` are enemies (different teams, S1).
    pub fn enemies(a: u8, b: u8) -> bool {
        team_of(a) != team_of(b)
    }

    /// The verdict of the position under `rules` (S11).
    pub fn verdict(&self, rules: Rules) -> Verdict {
        let armies = self.graph.armies() as u8;
        for team in 0..2 {
            let members = (0..armies).filter(|&a| team_of(a) == team);
            if members.clone().count() > 0 && members.into_iter().all(|a| self.is_out(a)) {
                return Verdict::Won { team: 1 - team };
            }
        }
        if rules.quiet_limit > 0 && self.quiet >= rules.quiet_limit {
            return Verdict::Drawn;
        }
        Verdict::Playing
    }

    /// Whether the piece on `from` may ever move: not the flag or a mine
    /// (Q5), not in a headquarters (Q5: a piece there stays).
    fn movable(&self, from: PostId) -> bool {
        self.at(from).is_some_and(|u| u.rank.can_move())
            && self.graph.kind(from) != PostKind::Headquarters
    }

    /// Whether `army` may end a move on `to`: an empty post, or an enemy's
    /// piece outside a camp (Q7, S7: never an ally's).
    fn may_enter(&self, army: u8, to: PostId) -> bool {
        match self.at(to) {
            None => true,
            Some(x) => Position::enemies(army, x.army) && self.graph.kind(to) != PostKind::Camp,
        }
    }

    /// The destinations of the piece on `from` for its own army (empty if
    /// it cannot move), whoever is to move.
    pub fn targets_of(&self, from: PostId) -> PostSet {
        let mut out = PostSet::EMPTY;
        let Some(unit) = self.at(from) else {
            return out;
        };
        if !self.movable(from) {
            return out;
        }
        let g = self.graph;
        for &q in g.roads(from) {
            if self.may_enter(unit.army, q) {
                out.insert(q);
            }
        }
        if !g.on_rail(from) {
            return out;
        }
        if unit.rank == Rank::Engineer {
            // Q6: any path of empty railway posts, ending on an empty post
            // or on an enemy piece next along the path.
            let mut seen = PostSet::EMPTY;
            seen.insert(from);
            let mut frontier = vec![from];
            while let Some(p) = frontier.pop() {
                for &q in g.rails(p) {
                    if seen.contains(q) {
                        continue;
                    }
                    seen.insert(q);
                    if self.at(q).is_none() {
                        out.insert(q);
                        frontier.push(q);
                    } else if self.may_enter(unit.army, q) {
                        out.insert(q);
                    }
                }
            }
            return out;
        }
        // Q6/S6: straight along one railway line through empty posts.
        for &li in g.lines_at(from) {
            let line = &g.lines()[li];
            for (i, _) in line.iter().enumerate().filter(|(_, p)| **p == from) {
                for dir in [-1isize, 1] {
                    let mut j = i as isize + dir;
                    while let Some(&q) = usize::try_from(j).ok().and_then(|j| line.get(j)) {
                        if self.at(q).is_none() {
                            out.insert(q);
                            j += dir;
                            continue;
                        }
                        if self.may_enter(unit.army, q) {
                            out.insert(q);
                        }
                        break;
                    }
                }
            }
        }
        out
    }

    /// The destinations of the piece on `from` if it belongs to the army to
    /// move.
    pub fn targets(&self, from: PostId) -> PostSet {
        match self.at(from) {
            Some(u) if u.army == self.turn && !self.is_out(u.army) => self.targets_of(from),
            _ => PostSet::EMPTY,
        }
    }

    /// Every legal move of `army`, by start then end post.
    pub fn moves_of(&self, army: u8) -> Vec<Move> {
        let mut moves = Vec::new();
        for from in self.graph.posts() {
            if self.at(from).is_some_and(|u| u.army == army) {
                for to in self.targets_of(from).iter() {
                    moves.push(Move { from, to });
                }
            }
        }
        moves
    }

    /// Every legal move of the army to move (none once the game is won).
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.is_out(self.turn) || self.won() {
            return Vec::new();
        }
        self.moves_of(self.turn)
    }

    fn won(&self) -> bool {
        matches!(
            self.verdict(Rules {
                quiet_limit: 0,
                ..Rules::default()
            }),
            Verdict::Won { .. }
        )
    }

    fn has_move(&self, army: u8) -> bool {
        self.graph.posts().any(|from| {
            self.at(from).is_some_and(|u| u.army == army) && !self.targets_of(from).is_empty()
        })
    }

    /// Whether `m` is legal now.
    pub fn is_legal(&self, m: Move) -> bool {
        !self.won() && self.targets(m.from).contains(m.to)
    }

    /// The posts a legal move passes, from start to end: a road step, the
    /// stretch of its straight line, or (the engineer) a shortest railway
    /// path through empty posts.
    pub fn path(&self, m: Move) -> Vec<PostId> {
        let g = self.graph;
        if g.is_road(m.from, m.to) {
            return vec![m.from, m.to];
        }
        let engineer = self.at(m.from).is_some_and(|u| u.rank == Rank::Engineer);
        if engineer {
            let mut parent: Vec<Option<PostId>> = vec![None; g.len()];
            let mut queue = VecDeque::from([m.from]);
            let mut seen = PostSet::EMPTY;
            seen.insert(m.from);
            while let Some(p) = queue.pop_front() {
                for &q in g.rails(p) {
                    if seen.contains(q) {
                        continue;
                    }
                    seen.insert(q);
                    parent[q.index()] = Some(p);
                    if q == m.to {
                        let mut path = vec![q];
                        let mut at = q;
                        while let Some(back) = parent[at.index()] {
                            path.push(back);
                            at = back;
                        }
                        path.reverse();
                        return path;
                    }
                    if self.at(q).is_none() {
                        queue.push_back(q);
                    }
                }
            }
        }
        for &li in g.lines_at(m.from) {
            let line = &g.lines()[li];
            let (Some(a), Some(b)) = (
                line.iter().position(|&p| p == m.from),
                line.iter().position(|&p| p == m.to),
            ) else {
                continue;
            };
            let stretch: Vec<PostId> = if a < b {
                line[a..=b].to_vec()
            } else {
                line[b..=a].iter().rev().copied().collect()
            };
            if stretch[1..stretch.len() - 1]
                .iter()
                .all(|&p| self.at(p).is_none())
            {
                return stretch;
            }
        }
        vec![m.from, m.to]
    }

    /// Makes a legal move (the caller checked it): the clash of Q8 (S7: a
    /// bomb that takes a flag goes with it), the army whose flag fell goes
    /// out (S10), the quiet-ply count, and the turn passes on (S10).
    pub fn make(&mut self, m: Move, rules: Rules) -> Played {
        let path = self.path(m);
        let mover = self.board[m.from.index()].unwrap_or_else(|| unreachable!("a legal move"));
        let defender = self.board[m.to.index()];
        self.board[m.from.index()] = None;
        let outcome = defender.map(|d| clash(mover.rank, d.rank, rules.mine_trades));
        match outcome {
            None | Some(Clash::AttackerWins) => self.board[m.to.index()] = Some(mover),
            Some(Clash::FlagTaken) if mover.rank != Rank::Bomb => {
                self.board[m.to.index()] = Some(mover)
            }
            Some(Clash::FlagTaken | Clash::BothRemoved) => self.board[m.to.index()] = None,
            Some(Clash::DefenderWins) => {}
        }
        self.quiet = if outcome.is_some() { 0 } else { self.quiet + 1 };
        let mut out = Vec::new();
        if let (Some(Clash::FlagTaken), Some(d)) = (outcome, defender) {
            self.remove_army(d.army);
            out.push((d.army, OutReason::FlagTaken));
        }
        self.pass_on(rules, &mut out);
        Played {
            mv: m,
            mover,
            defender,
            clash: outcome,
            path,
            out,
        }
    }

    /// The position after `m`.
    pub fn after(&self, m: Move, rules: Rules) -> Position {
        let mut p = self.clone();
        p.make(m, rules);
        p
    }

    /// The army to move lost its turn on time (S12): the turn passes on; no
    /// ply is made. Returns the armies put out on the way (no legal move).
    pub fn lose_turn(&mut self, rules: Rules) -> Vec<(u8, OutReason)> {
        let mut out = Vec::new();
        if self.verdict(rules) == Verdict::Playing {
            self.pass_on(rules, &mut out);
        }
        out
    }

    /// Puts `army` out for `reason` (surrender, the fifth lost turn): its
    /// pieces leave the board; if it was to move, the turn passes on (S10).
    /// Returns every army put out, this one first; nothing if it already was.
    pub fn put_out(&mut self, army: u8, reason: OutReason, rules: Rules) -> Vec<(u8, OutReason)> {
        if army as usize >= self.graph.armies() || self.is_out(army) {
            return Vec::new();
        }
        self.remove_army(army);
        let mut out = vec![(army, reason)];
        if self.turn == army {
            self.pass_on(rules, &mut out);
        }
        out
    }

    fn remove_army(&mut self, army: u8) {
        self.out |= 1 << army;
        for slot in &mut self.board {
            if slot.is_some_and(|u| u.army == army) {
                *slot = None;
            }
        }
    }

    /// Passes the turn to the next army in play (S1, S2), counting the move
    /// number up whenever it leaves the last army (S15), and putting out
    /// each army that has no legal move on its turn (S10). Stops once the
    /// game is over (S11).
    fn pass_on(&mut self, rules: Rules, out: &mut Vec<(u8, OutReason)>) {
        let n = self.graph.armies() as u8;
        while self.verdict(rules) == Verdict::Playing {
            let from = self.turn;
            if from == n - 1 {
                self.move_number += 1;
            }
            self.turn = if rules.clockwise {
                (from + n - 1) % n
            } else {
                (from + 1) % n
            };
            if self.is_out(self.turn) {
                continue;
            }
            if !self.has_move(self.turn) {
                let army = self.turn;
                self.remove_army(army);
                out.push((army, OutReason::NoMoves));
                continue;
            }
            return;
        }
    }

    /// Whether `army` still has its flag on the board.
    pub fn has_flag(&self, army: u8) -> bool {
        self.board
            .iter()
            .flatten()
            .any(|u| u.army == army && u.rank == Rank::Flag)
    }
}
