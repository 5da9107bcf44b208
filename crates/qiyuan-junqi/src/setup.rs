//! Set-ups (Q4, Q13): the text of one side's half and every reason a
//! set-up is illegal.

use std::fmt;

use crate::board::{POSTS, Post, PostKind, Side};
use crate::piece::Rank;

/// Characters in a set-up text: the 30 posts of a half.
pub const SETUP_LEN: usize = 30;

/// One side's set-up: the rank on each post of its half (camps empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    side: Side,
    ranks: [Option<Rank>; SETUP_LEN],
}

/// One reason a set-up is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// Not 30 characters.
    #[error(
        "expected {SETUP_LEN} characters (the half's posts from the back rank forward, files a-e), found {found}"
    )]
    Length {
        /// Characters found.
        found: usize,
    },
    /// A character that is no piece letter and not `.`.
    #[error("{post} (character {index}): '{ch}' is not a piece letter or '.'")]
    Char {
        /// 1-based position in the text.
        index: usize,
        /// The post it names.
        post: Post,
        /// What was written.
        ch: char,
    },
    /// A piece in a camp (Q3: camps start empty).
    #[error("{post} is a camp: it starts empty")]
    InCamp {
        /// The camp.
        post: Post,
    },
    /// An empty station or headquarters (Q3: the 25 pieces fill them).
    #[error("{post} is empty: the 25 pieces fill every post but the camps")]
    Empty {
        /// The post.
        post: Post,
    },
    /// The wrong number of pieces of a rank (Q3).
    #[error("{found} {name} ({letter}), expected {expected}")]
    Count {
        /// The letter.
        letter: char,
        /// Its Chinese name.
        name: &'static str,
        /// Pieces found.
        found: u8,
        /// Pieces the side has.
        expected: u8,
    },
    /// The flag outside a headquarters (Q4).
    #[error("the flag on {post} is not in a headquarters")]
    FlagOutsideHeadquarters {
        /// Where it is.
        post: Post,
    },
    /// A mine outside the last two rows (Q4).
    #[error("the mine on {post} is not in the last two rows")]
    MineTooFarForward {
        /// Where it is.
        post: Post,
    },
    /// A bomb on the front row (Q4).
    #[error("the bomb on {post} is on the front row")]
    BombOnFrontRow {
        /// Where it is.
        post: Post,
    },
}

/// The post of character `i` (0-based) of `side`'s set-up text: back rank
/// first, files a to e.
pub fn setup_post(side: Side, i: usize) -> Post {
    let back = (i / 5) as u8;
    let file = (i % 5) as u8;
    let rank = match side {
        Side::Red => 1 + back,
        Side::Blue => 12 - back,
    };
    Post::at(file, rank).unwrap_or_else(|| unreachable!("30 posts of a half"))
}

impl Setup {
    /// Parses and checks `text` for `side`; every reason it is illegal.
    pub fn parse(side: Side, text: &str) -> Result<Setup, Vec<SetupError>> {
        let chars: Vec<char> = text.chars().take(SETUP_LEN + 1).collect();
        if chars.len() != SETUP_LEN {
            return Err(vec![SetupError::Length {
                found: text.chars().count(),
            }]);
        }
        let mut errors = Vec::new();
        let mut ranks = [None; SETUP_LEN];
        for (i, &ch) in chars.iter().enumerate() {
            let post = setup_post(side, i);
            if ch == '.' {
                continue;
            }
            match Rank::from_letter(ch) {
                Some(r) => ranks[i] = Some(r),
                None => errors.push(SetupError::Char {
                    index: i + 1,
                    post,
                    ch,
                }),
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let s = Setup { side, ranks };
        let errors = s.problems();
        if errors.is_empty() {
            Ok(s)
        } else {
            Err(errors)
        }
    }

    /// A set-up from ranks per post of the half (in text order), checked.
    pub fn from_ranks(
        side: Side,
        ranks: [Option<Rank>; SETUP_LEN],
    ) -> Result<Setup, Vec<SetupError>> {
        let s = Setup { side, ranks };
        let errors = s.problems();
        if errors.is_empty() {
            Ok(s)
        } else {
            Err(errors)
        }
    }

    /// Every Q3/Q4 problem of the set-up.
    fn problems(&self) -> Vec<SetupError> {
        let mut errors = Vec::new();
        let mut counts = [0u8; 12];
        for (i, r) in self.ranks.iter().enumerate() {
            let post = setup_post(self.side, i);
            let row = self.side.row_of(post);
            match (r, post.kind()) {
                (Some(_), PostKind::Camp) => errors.push(SetupError::InCamp { post }),
                (None, PostKind::Station | PostKind::Headquarters) => {
                    errors.push(SetupError::Empty { post })
                }
                _ => {}
            }
            let Some(r) = *r else { continue };
            counts[r as usize] += 1;
            match r {
                Rank::Flag if post.kind() != PostKind::Headquarters => {
                    errors.push(SetupError::FlagOutsideHeadquarters { post })
                }
                Rank::Mine if row < 5 => errors.push(SetupError::MineTooFarForward { post }),
                Rank::Bomb if row == 1 => errors.push(SetupError::BombOnFrontRow { post }),
                _ => {}
            }
        }
        for r in Rank::ALL {
            if counts[r as usize] != r.count() {
                errors.push(SetupError::Count {
                    letter: r.letter(),
                    name: r.chinese(),
                    found: counts[r as usize],
                    expected: r.count(),
                });
            }
        }
        errors
    }

    /// The side.
    pub fn side(&self) -> Side {
        self.side
    }

    /// (post, rank) of every piece.
    pub fn pieces(&self) -> impl Iterator<Item = (Post, Rank)> + '_ {
        self.ranks
            .iter()
            .enumerate()
            .filter_map(|(i, r)| r.map(|r| (setup_post(self.side, i), r)))
    }

    /// The rank set on `post`, if any.
    pub fn rank_at(&self, post: Post) -> Option<Rank> {
        self.pieces().find(|&(p, _)| p == post).map(|(_, r)| r)
    }

    /// A random legal set-up drawn with `draw(n)` (uniform in `0..n`): the
    /// flag in a headquarters, mines first next to it and the rest of the
    /// last two rows, bombs off the front row, the others anywhere — so that
    /// every set-up it makes passes Q4, with the flag guarded.
    pub fn random(side: Side, draw: &mut dyn FnMut(u32) -> u32) -> Setup {
        let mut ranks = [None; SETUP_LEN];
        let mut free: Vec<usize> = (0..SETUP_LEN)
            .filter(|&i| setup_post(side, i).kind() != PostKind::Camp)
            .collect();
        let take = |free: &mut Vec<usize>,
                    allowed: &dyn Fn(usize) -> bool,
                    draw: &mut dyn FnMut(u32) -> u32| {
            let options: Vec<usize> = free.iter().copied().filter(|&i| allowed(i)).collect();
            let i = options[draw(options.len() as u32) as usize % options.len()];
            free.retain(|&j| j != i);
            i
        };
        let row = |i: usize| side.row_of(setup_post(side, i));
        let flag = take(
            &mut free,
            &|i| setup_post(side, i).kind() == PostKind::Headquarters,
            draw,
        );
        ranks[flag] = Some(Rank::Flag);
        let graph = crate::board::Graph::new();
        let flag_post = setup_post(side, flag);
        for _ in 0..Rank::Mine.count() {
            let guards = |i: usize| {
                row(i) >= 5 && graph.roads[flag_post.index()] & setup_post(side, i).bit() != 0
            };
            let i = if free.iter().any(|&i| guards(i)) && draw(4) != 0 {
                take(&mut free, &guards, draw)
            } else {
                take(&mut free, &|i| row(i) >= 5, draw)
            };
            ranks[i] = Some(Rank::Mine);
        }
        for _ in 0..Rank::Bomb.count() {
            let i = take(&mut free, &|i| row(i) != 1, draw);
            ranks[i] = Some(Rank::Bomb);
        }
        for r in Rank::ALL {
            if matches!(r, Rank::Flag | Rank::Mine | Rank::Bomb) {
                continue;
            }
            for _ in 0..r.count() {
                let i = take(&mut free, &|_| true, draw);
                ranks[i] = Some(r);
            }
        }
        Setup::from_ranks(side, ranks)
            .unwrap_or_else(|e| unreachable!("a drawn set-up is legal: {e:?}"))
    }

    /// A fixed, legal set-up (for tests and the CLI's default position):
    /// flag in the left headquarters behind mines, bombs in the middle.
    pub fn standard(side: Side) -> Setup {
        // Back rank first: HQ row, then forward; camps '.'.
        let text = "CFMMD\
                    GMZLJ\
                    S.P.T\
                    PZ.GY\
                    L.D.T\
                    YGCPC";
        Setup::parse(side, text)
            .unwrap_or_else(|e| unreachable!("the standard set-up is legal: {e:?}"))
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in &self.ranks {
            write!(f, "{}", r.map_or('.', Rank::letter))?;
        }
        Ok(())
    }
}

const _: () = assert!(POSTS == 2 * SETUP_LEN);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn q4_random_set_ups_are_legal_and_differ() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut draw = |n: u32| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % u64::from(n)) as u32
        };
        let mut seen = std::collections::HashSet::new();
        for k in 0..200 {
            let side = if k % 2 == 0 { Side::Red } else { Side::Blue };
            let s = Setup::random(side, &mut draw);
            assert_eq!(Setup::parse(side, &s.to_string()), Ok(s.clone()));
            seen.insert(s.to_string());
        }
        assert!(seen.len() > 190);
    }
}
