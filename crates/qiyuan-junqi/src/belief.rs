//! What one side may believe about the enemy's hidden ranks, from public
//! information only (Q9): the rules' set-up limits (Q4), which pieces have
//! moved, and what every clash proves given its own piece's rank; and armies
//! drawn at random consistent with that belief, for the AI's search.
//!
//! The enemy's ranks are never read: only the sides of movers, the posts of
//! moves, clash outcomes, its own pieces' ranks and what the game shows the
//! side (a flag shown after its commander fell).

use crate::board::{CAMPS, Post, PostKind, Side, posts};
use crate::game::Game;
use crate::piece::{Clash, Piece, Rank, clash};
use crate::position::Position;

/// A set of ranks, bit `r as u16` for rank `r`.
pub type Ranks = u16;

const ALL_RANKS: Ranks = (1 << 12) - 1;

fn bit(r: Rank) -> Ranks {
    1 << (r as u16)
}

/// One enemy piece as the side tracks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// Where it stands, or `None` once removed.
    pub post: Option<Post>,
    /// The ranks it may have.
    pub ranks: Ranks,
}

/// The side's belief about every enemy piece, the removed ones included.
#[derive(Clone, Debug)]
pub struct Belief {
    /// The enemy's 25 pieces.
    pub tokens: Vec<Token>,
}

/// The ranks `x` for which a clash of `x` attacking `defender` ends `how`.
fn attackers(defender: Rank, how: Clash, mine_trades: bool) -> Ranks {
    Rank::ALL
        .into_iter()
        .filter(|&x| x.can_move() && clash(x, defender, mine_trades) == how)
        .fold(0, |m, x| m | bit(x))
}

/// The ranks `y` for which `attacker` hitting `y` ends `how`.
fn defenders(attacker: Rank, how: Clash, mine_trades: bool) -> Ranks {
    Rank::ALL
        .into_iter()
        .filter(|&y| {
            let c = clash(attacker, y, mine_trades);
            c == how || (how == Clash::AttackerWins && c == Clash::FlagTaken)
        })
        .fold(0, |m, y| m | bit(y))
}

impl Belief {
    /// The belief of `me` after the game's record so far. Only for games
    /// that start from set-ups (not the flip game).
    pub fn of(game: &Game, me: Side) -> Belief {
        let enemy = me.other();
        let mine_trades = game.rules().mine_trades;
        // Q4 at the start: every post of the enemy half but the camps holds
        // a piece; mines only in the last two rows, the flag only in a
        // headquarters, no bomb on the front row.
        let mut tokens: Vec<Token> = posts(enemy.half() & !CAMPS)
            .map(|p| {
                let row = enemy.row_of(p);
                let mut r = ALL_RANKS;
                if row < 5 {
                    r &= !bit(Rank::Mine);
                }
                if p.kind() != PostKind::Headquarters {
                    r &= !bit(Rank::Flag);
                }
                if row == 1 {
                    r &= !bit(Rank::Bomb);
                }
                Token {
                    post: Some(p),
                    ranks: r,
                }
            })
            .collect();
        let at = |tokens: &[Token], p: Post| tokens.iter().position(|t| t.post == Some(p));
        for played in game.record() {
            let (from, to) = (played.mv.from, played.mv.to);
            if played.mover.side == enemy {
                let Some(i) = at(&tokens, from) else { continue };
                // It moved: neither a mine nor the flag.
                tokens[i].ranks &= !(bit(Rank::Mine) | bit(Rank::Flag));
                match (played.clash, played.defender) {
                    (None, _) => tokens[i].post = Some(to),
                    // `defender` is our own piece here: its rank is ours to know.
                    (Some(how), Some(ours)) => {
                        tokens[i].ranks &= attackers(ours.rank, how, mine_trades);
                        if how == Clash::AttackerWins {
                            tokens[i].post = Some(to);
                        } else {
                            tokens[i].post = None;
                        }
                    }
                    _ => {}
                }
            } else if let Some(how) = played.clash
                && let Some(i) = at(&tokens, to)
            {
                // `mover` is our own piece.
                tokens[i].ranks &= defenders(played.mover.rank, how, mine_trades);
                if matches!(
                    how,
                    Clash::AttackerWins | Clash::BothRemoved | Clash::FlagTaken
                ) {
                    tokens[i].post = None;
                }
            }
        }
        // What the game shows us now (Q9: a flag after its commander fell).
        for t in &mut tokens {
            if let Some(p) = t.post
                && let Some(x) = game.position().at(p)
                && game.shows(Some(me), p, x)
            {
                t.ranks = bit(x.rank);
            }
        }
        Belief { tokens }
    }

    /// An army consistent with the belief: a rank for every token, drawing
    /// from the enemy's 25 with `draw(n)` (uniform in `0..n`), the most
    /// constrained tokens first; a token no remaining rank fits takes any.
    pub fn sample(&self, draw: &mut dyn FnMut(u32) -> u32) -> Vec<Rank> {
        let mut left: Vec<Rank> = Rank::ALL
            .into_iter()
            .flat_map(|r| std::iter::repeat_n(r, usize::from(r.count())))
            .collect();
        let mut order: Vec<usize> = (0..self.tokens.len()).collect();
        order.sort_by_key(|&i| self.tokens[i].ranks.count_ones());
        let mut out = vec![Rank::Platoon; self.tokens.len()];
        for i in order {
            let fits: Vec<usize> = (0..left.len())
                .filter(|&k| self.tokens[i].ranks & bit(left[k]) != 0)
                .collect();
            let k = if fits.is_empty() {
                draw(left.len().max(1) as u32) as usize
            } else {
                fits[draw(fits.len() as u32) as usize]
            };
            if k < left.len() {
                out[i] = left.swap_remove(k);
            }
        }
        out
    }

    /// The full position with the enemy's pieces given `ranks` (one per
    /// token, as [`Belief::sample`] draws them) and ours as they are.
    pub fn position(&self, game: &Game, me: Side, ranks: &[Rank]) -> Position {
        let (mut known, _) = game.known_position(me);
        for (t, &r) in self.tokens.iter().zip(ranks) {
            if let Some(p) = t.post {
                known.put(
                    p,
                    Piece {
                        side: me.other(),
                        rank: r,
                    },
                );
            }
        }
        known
    }
}
