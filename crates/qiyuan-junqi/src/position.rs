//! A position with full information (Q13 text): the pieces, the side to
//! move, the plies since the last clash and the move number; its legal
//! moves (Q5-Q7) and making them (Q8).

use std::fmt;
use std::sync::OnceLock;

use crate::board::{Graph, POSTS, Post, PostKind, Posts, RANKS, Side, posts};
use crate::piece::{Clash, Piece, Rank, clash};
use crate::setup::Setup;

/// A move: from one post to another (Q13 `c4c6`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// Where the piece stands.
    pub from: Post,
    /// Where it goes (or whom it attacks).
    pub to: Post,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

/// What a move did.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The move.
    pub mv: Move,
    /// The clash it caused, if it attacked.
    pub clash: Option<Clash>,
    /// The pieces involved (the mover, then the defender, if any).
    pub mover: Piece,
    /// The piece attacked.
    pub defender: Option<Piece>,
}

/// The room settings the rules name (Q8, Q11).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// A mine and its attacker (not an engineer) are both removed.
    pub mine_trades: bool,
    /// Plies without a clash that draw (Q11; 0: never).
    pub quiet_limit: u32,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            mine_trades: false,
            quiet_limit: 60,
        }
    }
}

/// The board graph, built once.
pub fn graph() -> &'static Graph {
    static GRAPH: OnceLock<Graph> = OnceLock::new();
    GRAPH.get_or_init(Graph::new)
}

/// A full-information position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    board: [Option<Piece>; POSTS],
    turn: Side,
    quiet: u32,
    move_number: u32,
    /// The flip game (Q10): posts whose piece is still face down.
    face_down: Posts,
    /// The flip game before the first flip: no side has a colour yet.
    undecided: bool,
}

impl Position {
    /// The position of two set-ups, red to move, move 1.
    pub fn from_setups(red: &Setup, blue: &Setup) -> Position {
        let mut board = [None; POSTS];
        for s in [red, blue] {
            for (p, rank) in s.pieces() {
                board[p.index()] = Some(Piece {
                    side: s.side(),
                    rank,
                });
            }
        }
        Position {
            board,
            turn: Side::Red,
            quiet: 0,
            move_number: 1,
            face_down: 0,
            undecided: false,
        }
    }

    /// The flip game's start (Q10): `pieces` face down on the 50 posts
    /// that are not camps, in post order; colours come with the first flip.
    pub fn face_down_layout(pieces: &[Piece]) -> Option<Position> {
        let posts: Vec<Post> = Post::all().filter(|p| p.kind() != PostKind::Camp).collect();
        if pieces.len() != posts.len() {
            return None;
        }
        let mut board = [None; POSTS];
        let mut face_down = 0;
        for (p, &piece) in posts.iter().zip(pieces) {
            board[p.index()] = Some(piece);
            face_down |= p.bit();
        }
        Some(Position {
            board,
            turn: Side::Red,
            quiet: 0,
            move_number: 1,
            face_down,
            undecided: true,
        })
    }

    /// Posts whose piece is face down (the flip game).
    pub fn face_down(&self) -> Posts {
        self.face_down
    }

    /// The same position with every face-down piece turned up (for the
    /// record published when a flip game is over).
    pub fn revealed(&self) -> Position {
        let mut p = self.clone();
        p.face_down = 0;
        p
    }

    /// Whether no side has a colour yet (the flip game before its first flip).
    pub fn undecided(&self) -> bool {
        self.undecided
    }

    /// Both sides in [`Setup::standard`].
    pub fn standard() -> Position {
        Position::from_setups(&Setup::standard(Side::Red), &Setup::standard(Side::Blue))
    }

    /// A position from its parts (for parsers).
    pub(crate) fn from_parts(
        board: [Option<Piece>; POSTS],
        turn: Side,
        quiet: u32,
        move_number: u32,
    ) -> Position {
        Position {
            board,
            turn,
            quiet,
            move_number,
            face_down: 0,
            undecided: false,
        }
    }

    /// Puts `piece` on `p` (for the AI's sampled armies).
    pub(crate) fn put(&mut self, p: Post, piece: Piece) {
        self.board[p.index()] = Some(piece);
    }

    /// The piece on `p`.
    pub fn at(&self, p: Post) -> Option<Piece> {
        self.board[p.index()]
    }

    /// The side to move.
    pub fn turn(&self) -> Side {
        self.turn
    }

    /// Plies since the last clash (Q11, Q13).
    pub fn quiet_plies(&self) -> u32 {
        self.quiet
    }

    /// The move number (Q13): 1 at the start, up after each blue move.
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// Posts holding a piece of `side`.
    pub fn occupied_by(&self, side: Side) -> Posts {
        Post::all()
            .filter(|p| self.board[p.index()].is_some_and(|x| x.side == side))
            .fold(0, |m, p| m | p.bit())
    }

    /// Posts holding any piece.
    pub fn occupied(&self) -> Posts {
        self.occupied_by(Side::Red) | self.occupied_by(Side::Blue)
    }

    /// Whether the piece on `from` may ever move: not the flag or a mine
    /// (Q5), not in a headquarters (Q5: a piece there stays).
    fn movable(&self, from: Post) -> bool {
        self.face_down & from.bit() == 0
            && self.at(from).is_some_and(|x| x.rank.can_move())
            && from.kind() != PostKind::Headquarters
    }

    /// Whether the side to move may end a move on `to`: an empty post, or
    /// an enemy piece outside a camp (Q7).
    fn may_enter(&self, to: Post) -> bool {
        match self.at(to) {
            None => true,
            // A face-down piece cannot be attacked (as in Banqi).
            Some(x) => {
                x.side != self.turn && to.kind() != PostKind::Camp && self.face_down & to.bit() == 0
            }
        }
    }

    /// The destinations of the piece on `from` (empty if it cannot move or
    /// is not the side to move's).
    pub fn targets(&self, from: Post) -> Posts {
        let Some(piece) = self.at(from) else {
            return 0;
        };
        if piece.side != self.turn || !self.movable(from) {
            return 0;
        }
        let g = graph();
        let occupied = self.occupied();
        let mut out = 0;
        for q in posts(g.roads[from.index()]) {
            if self.may_enter(q) {
                out |= q.bit();
            }
        }
        if g.on_rail & from.bit() == 0 {
            return out;
        }
        if piece.rank == Rank::Engineer {
            // Q6: any path of empty railway posts, turning anywhere, ending
            // on an empty post or on an enemy piece next along the path.
            let mut seen = from.bit();
            let mut frontier = from.bit();
            while frontier != 0 {
                let mut next = 0;
                for p in posts(frontier) {
                    for q in posts(g.rails[p.index()] & !seen) {
                        seen |= q.bit();
                        if occupied & q.bit() == 0 {
                            next |= q.bit();
                            out |= q.bit();
                        } else if self.may_enter(q) {
                            out |= q.bit();
                        }
                    }
                }
                frontier = next;
            }
            return out;
        }
        // Q6: straight along one railway line through empty posts.
        for line in &g.lines {
            let Some(i) = line.iter().position(|&p| p == from) else {
                continue;
            };
            for dir in [-1isize, 1] {
                let mut j = i as isize + dir;
                while let Some(&q) = usize::try_from(j).ok().and_then(|j| line.get(j)) {
                    if occupied & q.bit() == 0 {
                        out |= q.bit();
                        j += dir;
                        continue;
                    }
                    if self.may_enter(q) {
                        out |= q.bit();
                    }
                    break;
                }
            }
        }
        out
    }

    /// Every legal move of the side to move, by start then end post.
    pub fn legal_moves(&self) -> Vec<Move> {
        // The flip game: turning a face-down piece over is a move (`c4c4`).
        let mut moves: Vec<Move> = posts(self.face_down)
            .map(|p| Move { from: p, to: p })
            .collect();
        if self.undecided {
            return moves;
        }
        for from in posts(self.occupied_by(self.turn)) {
            for to in posts(self.targets(from)) {
                moves.push(Move { from, to });
            }
        }
        moves
    }

    /// Whether `m` is legal now.
    pub fn is_legal(&self, m: Move) -> bool {
        if m.from == m.to {
            return self.face_down & m.from.bit() != 0;
        }
        !self.undecided && self.targets(m.from) & m.to.bit() != 0
    }

    /// Makes a legal move (the caller checked it): the clash of Q8, the
    /// quiet-ply count and the move number of Q13.
    pub fn make(&mut self, m: Move, rules: Rules) -> Played {
        let mover = self.board[m.from.index()].unwrap_or_else(|| unreachable!("a legal move"));
        if m.from == m.to {
            // A flip: the piece shows; the first one gives the flipper its
            // colour, so the other colour moves next. It counts as news for
            // the quiet-ply limit, as a clash does.
            self.face_down &= !m.from.bit();
            self.quiet = 0;
            if self.turn == Side::Blue || self.undecided {
                self.move_number += 1;
            }
            self.turn = if self.undecided {
                mover.side.other()
            } else {
                self.turn.other()
            };
            self.undecided = false;
            return Played {
                mv: m,
                clash: None,
                mover,
                defender: None,
            };
        }
        let defender = self.board[m.to.index()];
        self.board[m.from.index()] = None;
        let outcome = defender.map(|d| clash(mover.rank, d.rank, rules.mine_trades));
        match outcome {
            None | Some(Clash::AttackerWins | Clash::FlagTaken) => {
                self.board[m.to.index()] = Some(mover);
            }
            Some(Clash::BothRemoved) => self.board[m.to.index()] = None,
            Some(Clash::DefenderWins) => {}
        }
        self.quiet = if outcome.is_some() { 0 } else { self.quiet + 1 };
        if self.turn == Side::Blue {
            self.move_number += 1;
        }
        self.turn = self.turn.other();
        Played {
            mv: m,
            clash: outcome,
            mover,
            defender,
        }
    }

    /// The position after `m`.
    pub fn after(&self, m: Move, rules: Rules) -> Position {
        let mut p = self.clone();
        p.make(m, rules);
        p
    }

    /// Whether `side` still has its flag on the board.
    pub fn has_flag(&self, side: Side) -> bool {
        self.board
            .iter()
            .flatten()
            .any(|x| x.side == side && x.rank == Rank::Flag)
    }

    /// The position with every piece `keep` says no to replaced by a
    /// `placeholder` of the same side, and the posts replaced: what a side
    /// knows, for an AI that must not see more (its own moves do not depend
    /// on the enemy's ranks).
    pub fn masked(
        &self,
        keep: impl Fn(Post, Piece) -> bool,
        placeholder: Rank,
    ) -> (Position, Posts) {
        let mut p = self.clone();
        let mut hidden = 0;
        for post in Post::all() {
            if let Some(x) = self.at(post)
                && (self.face_down & post.bit() != 0 || !keep(post, x))
            {
                // A face-down piece's side is unknown too.
                let side = if self.face_down & post.bit() != 0 {
                    Side::Red
                } else {
                    x.side
                };
                p.board[post.index()] = Some(Piece {
                    side,
                    rank: placeholder,
                });
                hidden |= post.bit();
            }
        }
        (p, hidden)
    }

    /// The text of the position as `viewer` may see it (Q9, Q13): pieces
    /// whose rank `shows(post, piece)` says `false` for are written `X`/`x`.
    pub fn text_for(&self, shows: impl Fn(Post, Piece) -> bool) -> String {
        let mut s = String::with_capacity(80);
        for rank in (1..=RANKS).rev() {
            if rank != RANKS {
                s.push('/');
            }
            for file in 0..5 {
                let p = Post::at(file, rank).unwrap_or_else(|| unreachable!("on the board"));
                s.push(match self.at(p) {
                    None => '.',
                    Some(_) if self.face_down & p.bit() != 0 => '?',
                    Some(x) if shows(p, x) => x.letter(),
                    Some(x) if x.side == Side::Red => 'X',
                    Some(_) => 'x',
                });
            }
        }
        format!(
            "{s} {} {} {}",
            self.turn.letter(),
            self.quiet,
            self.move_number
        )
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text_for(|_, _| true))
    }
}
