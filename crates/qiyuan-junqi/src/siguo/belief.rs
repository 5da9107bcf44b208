//! What one army may believe about the ranks it cannot see (S9), from what
//! every player learns only: the set-up limits of Q4 in each army's own
//! frame (S4, S7), which pieces moved, and what each clash's outcome proves
//! given the ranks on both sides that the army may see; and armies drawn at
//! random consistent with that, for the AI's search.
//!
//! Hidden ranks are never read: [`Game::known_position`] and
//! [`Game::seen_moves`] give only what the army's player sees.

use super::game::{Game, SeenMove};
use super::{Position, PostSet, Unit};
use crate::board::PostKind;
use crate::graph::PostId;
use crate::piece::{Clash, Rank, clash};

/// A set of ranks, bit `r as u16` for rank `r`.
pub type Ranks = u16;

/// Every rank.
pub const ALL_RANKS: Ranks = (1 << 12) - 1;

/// The set holding `r` only.
pub const fn bit(r: Rank) -> Ranks {
    1 << (r as u16)
}

/// Ranks that never move (Q5): a piece seen moving is neither.
const FIXED: Ranks = bit(Rank::Mine) | bit(Rank::Flag);

/// One hidden piece as the army tracks it from the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// Its army.
    pub army: u8,
    /// Where it stands now, or `None` once removed.
    pub post: Option<PostId>,
    /// The ranks it may have.
    pub ranks: Ranks,
}

/// An army's belief about every piece whose rank it may not see.
#[derive(Clone, Debug)]
pub struct Belief {
    /// The pieces, removed ones included (they hold ranks that are gone).
    pub tokens: Vec<Token>,
    /// Armies whose pieces are tracked (out armies are dropped).
    armies: Vec<u8>,
}

/// The ranks a piece on `p` may have had at the start, by Q4 in its
/// army's own frame: a mine only on its last two ranks, the flag only in a
/// headquarters, no bomb on the front rank; a piece starting outside its
/// own block has moved (a test position), so it is neither mine nor flag.
fn start_ranks(game: &Game, army: u8, p: PostId) -> Ranks {
    let g = game.start().graph();
    match g.own_coords(p) {
        Some((a, _, rank)) if a == army => {
            let mut r = ALL_RANKS;
            if rank > 2 {
                r &= !bit(Rank::Mine);
            }
            if g.kind(p) != PostKind::Headquarters {
                r &= !bit(Rank::Flag);
            }
            if rank == 6 {
                r &= !bit(Rank::Bomb);
            }
            r
        }
        _ => ALL_RANKS & !FIXED,
    }
}

/// Narrows the ranks of an attacker `a` and a defender `d` to those for
/// which the clash could have ended `how`.
fn narrow(a: Ranks, d: Ranks, how: Clash, mine_trades: bool) -> (Ranks, Ranks) {
    let fits = |x: Rank, y: Rank| clash(x, y, mine_trades) == how;
    let ranks = |set: Ranks| Rank::ALL.into_iter().filter(move |&r| set & bit(r) != 0);
    let a2 = ranks(a)
        .filter(|&x| ranks(d).any(|y| fits(x, y)))
        .fold(0, |m, x| m | bit(x));
    let d2 = ranks(d)
        .filter(|&y| ranks(a2).any(|x| fits(x, y)))
        .fold(0, |m, y| m | bit(y));
    // Never leave a piece with no rank (a position no game reaches).
    (if a2 == 0 { a } else { a2 }, if d2 == 0 { d } else { d2 })
}

impl Belief {
    /// The belief of army `me` now.
    pub fn of(game: &Game, me: u8) -> Belief {
        let start = game.start();
        let g = start.graph();
        let mine_trades = game.rules().mine_trades;
        let hidden = |army: u8| !game.mode_shows(Some(me), army);
        let armies: Vec<u8> = (0..g.armies() as u8)
            .filter(|&a| hidden(a) && !game.position().is_out(a))
            .collect();
        let mut tokens = Vec::new();
        let mut at: Vec<Option<usize>> = vec![None; g.len()];
        for p in g.posts() {
            if let Some(u) = start.at(p)
                && hidden(u.army)
            {
                at[p.index()] = Some(tokens.len());
                tokens.push(Token {
                    army: u.army,
                    post: Some(p),
                    ranks: start_ranks(game, u.army, p),
                });
            }
        }
        let token_at = |at: &[Option<usize>], tokens: &[Token], p: PostId, army: Option<u8>| {
            at[p.index()].filter(|&i| Some(tokens[i].army) == army && tokens[i].post == Some(p))
        };
        for s in game.seen_moves(Some(me)) {
            let SeenMove {
                mv,
                mover,
                defender,
                clash: how,
                mover_stays,
                mover_rank,
                defender_rank,
                ..
            } = s;
            let ti = token_at(&at, &tokens, mv.from, Some(mover));
            let di = token_at(&at, &tokens, mv.to, defender);
            if let Some(i) = ti {
                tokens[i].ranks &= !FIXED;
            }
            if let Some(how) = how {
                let a = ti.map_or(mover_rank.map_or(ALL_RANKS & !FIXED, bit), |i| {
                    tokens[i].ranks
                });
                let d = di.map_or(defender_rank.map_or(ALL_RANKS, bit), |i| tokens[i].ranks);
                let (a, d) = narrow(a, d, how, mine_trades);
                if let Some(i) = ti {
                    tokens[i].ranks = a;
                }
                if let Some(i) = di {
                    tokens[i].ranks = d;
                    // Whoever attacked it, a clash the mover survives or
                    // both leave removes the defender (a defender that wins
                    // stays).
                    if how != Clash::DefenderWins {
                        tokens[i].post = None;
                    }
                }
            }
            at[mv.from.index()] = None;
            if let Some(i) = ti {
                if mover_stays {
                    tokens[i].post = Some(mv.to);
                    at[mv.to.index()] = Some(i);
                } else {
                    tokens[i].post = None;
                }
            } else if mover_stays {
                at[mv.to.index()] = None;
            }
        }
        // The board now settles where each piece is; what the game shows
        // (S8: a flag once its 司令 fell) settles its rank.
        let now = game.position();
        for t in &mut tokens {
            if let Some(p) = t.post {
                match now.at(p) {
                    Some(u) if u.army == t.army => {
                        if game.shows(Some(me), u) {
                            t.ranks = bit(u.rank);
                        }
                    }
                    _ => t.post = None,
                }
            }
        }
        tokens.retain(|t| armies.contains(&t.army));
        Belief { tokens, armies }
    }

    /// Posts of the hidden pieces on the board.
    pub fn posts(&self) -> PostSet {
        self.tokens.iter().filter_map(|t| t.post).collect()
    }

    /// A rank for every token, drawn per army from its 25 (Q3) with
    /// `draw(n)` (uniform in `0..n`), the most constrained tokens first; a
    /// token no remaining rank fits takes any that is left.
    pub fn sample(&self, draw: &mut dyn FnMut(u32) -> u32) -> Vec<Rank> {
        let mut out = vec![Rank::Platoon; self.tokens.len()];
        for &army in &self.armies {
            let mut left: Vec<Rank> = Rank::ALL
                .into_iter()
                .flat_map(|r| std::iter::repeat_n(r, usize::from(r.count())))
                .collect();
            let mut order: Vec<usize> = (0..self.tokens.len())
                .filter(|&i| self.tokens[i].army == army)
                .collect();
            // An army in play still has its flag (S10): it stands on one of
            // the pieces that may be it, whatever the other draws say.
            let on_board = |i: &usize| self.tokens[*i].post.is_some();
            let mut flags: Vec<usize> = order
                .iter()
                .copied()
                .filter(|i| on_board(i) && self.tokens[*i].ranks == bit(Rank::Flag))
                .collect();
            if flags.is_empty() {
                flags = order
                    .iter()
                    .copied()
                    .filter(|i| on_board(i) && self.tokens[*i].ranks & bit(Rank::Flag) != 0)
                    .collect();
            }
            if !flags.is_empty() {
                let i = flags[draw(flags.len() as u32) as usize % flags.len()];
                out[i] = Rank::Flag;
                order.retain(|&j| j != i);
                left.retain(|&r| r != Rank::Flag);
            }
            order.sort_by_key(|&i| (self.tokens[i].ranks.count_ones(), i));
            for i in order {
                if left.is_empty() {
                    break;
                }
                let fits: Vec<usize> = (0..left.len())
                    .filter(|&k| self.tokens[i].ranks & bit(left[k]) != 0)
                    .collect();
                let k = if fits.is_empty() {
                    draw(left.len() as u32) as usize % left.len()
                } else {
                    fits[draw(fits.len() as u32) as usize % fits.len()]
                };
                out[i] = left.swap_remove(k);
            }
        }
        out
    }

    /// `known` (the position as the army knows it) with the hidden pieces
    /// given `ranks`, one per token as [`Belief::sample`] draws them.
    pub fn position(&self, known: &Position, ranks: &[Rank]) -> Position {
        let mut p = known.clone();
        for (t, &rank) in self.tokens.iter().zip(ranks) {
            if let Some(post) = t.post {
                p.put(post, Some(Unit { army: t.army, rank }));
            }
        }
        p
    }

    /// The ranks the token on `p` may have (every rank if none is tracked
    /// there).
    pub fn ranks_at(&self, p: PostId) -> Ranks {
        self.tokens
            .iter()
            .find(|t| t.post == Some(p))
            .map_or(ALL_RANKS, |t| t.ranks)
    }
}
