//! 四国军棋 (four-army Junqi, `shared/rules/siguo.md` S1-S15) and, on the
//! same code, any board of [`BoardGraph`]: armies in teams, moves on the
//! graph, combat, armies put out and skipped, the clash counter and the
//! S15 position text; [`ai`] plays any seat from what it may see
//! ([`belief`]: the hidden ranks it may still believe).
//!
//! Armies are numbered in turn order (S1: s e n w = 0 1 2 3; on the
//! two-army board r b = 0 1), and an army's team is its number modulo 2, so
//! allies sit opposite (S1) and the two-army board has one army a team.
//!
//! # Choices where the rules file is silent
//!
//! - **S5/Q6** Moves are one road step, or a straight railway line of S6
//!   through empty posts; the engineer's path turns at any railway post. A
//!   move is listed once however it could be made.
//! - **S7** A bomb that takes a flag is removed with it (S7), and the
//!   flag's army leaves the board at once (S10).
//! - **S10** An army put out while it is to move passes the turn on at
//!   once; the army after it that has no legal move is put out in turn.
//! - **S11** When the last army of a team goes out the game ends there; the
//!   turn is not passed on. The quiet-ply draw is checked after the ply.
//! - **S15** The board is written in post order; a position with no piece
//!   writes `-` for its pieces.

mod position;
mod text;

#[cfg(test)]
mod tests;

pub mod ai;
pub mod belief;
pub mod cli;
pub mod game;
#[cfg(feature = "table")]
pub mod table;

use std::sync::OnceLock;

use crate::graph::{BoardGraph, PostId};
use crate::piece::Rank;

pub use position::{Move, OutReason, Played, Position, Rules, Verdict};
pub use text::{MoveTextError, PositionTextError};

/// The four-army board (S3-S6), built once.
pub fn four_armies() -> &'static BoardGraph {
    static BOARD: OnceLock<BoardGraph> = OnceLock::new();
    BOARD.get_or_init(BoardGraph::four_armies)
}

/// The two-army board (Q1-Q2), built once.
pub fn two_armies() -> &'static BoardGraph {
    static BOARD: OnceLock<BoardGraph> = OnceLock::new();
    BOARD.get_or_init(BoardGraph::two_armies)
}

/// An army's team (S1): allies sit opposite, so it is the army's number
/// modulo 2 (South and North 0, East and West 1).
pub const fn team_of(army: u8) -> u8 {
    army % 2
}

/// A piece on an N-army board: its army and rank.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Unit {
    /// The army (0-based, turn order).
    pub army: u8,
    /// The rank.
    pub rank: Rank,
}

/// A set of posts of a board of up to 192 posts (the four-army board has
/// 129), one bit a post.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PostSet([u64; 3]);

impl PostSet {
    /// No post.
    pub const EMPTY: PostSet = PostSet([0; 3]);

    /// Adds `p`.
    pub fn insert(&mut self, p: PostId) {
        self.0[p.index() / 64] |= 1 << (p.index() % 64);
    }

    /// Whether `p` is in the set.
    pub fn contains(&self, p: PostId) -> bool {
        self.0[p.index() / 64] & (1 << (p.index() % 64)) != 0
    }

    /// How many posts.
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether there is no post.
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 3]
    }

    /// The posts, in id order.
    pub fn iter(&self) -> impl Iterator<Item = PostId> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &bits)| {
            let mut rest = bits;
            std::iter::from_fn(move || {
                if rest == 0 {
                    return None;
                }
                let i = rest.trailing_zeros();
                rest &= rest - 1;
                Some(PostId::from_index((w * 64) as u8 + i as u8))
            })
        })
    }
}

impl FromIterator<PostId> for PostSet {
    fn from_iter<I: IntoIterator<Item = PostId>>(iter: I) -> PostSet {
        let mut s = PostSet::EMPTY;
        for p in iter {
            s.insert(p);
        }
        s
    }
}
