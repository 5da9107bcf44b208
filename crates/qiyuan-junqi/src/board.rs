//! The board (Q1, Q2, Q12): 60 posts in 12 ranks × 5 files, their kinds,
//! the roads and the railway lines.
//!
//! Posts are numbered `(rank − 1) · 5 + file` (file a = 0), so a set of posts
//! is one `u64` ([`Posts`]). Red holds ranks 1-6 (front rank 6), blue ranks
//! 7-12 (front rank 7).

use std::fmt;

/// A set of posts, bit `i` for post `i`.
pub type Posts = u64;

/// Files a-e.
pub const FILES: u8 = 5;
/// Ranks 1-12.
pub const RANKS: u8 = 12;
/// Number of posts.
pub const POSTS: usize = 60;

/// A post of the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Post(u8);

/// What stands at a post (Q1).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PostKind {
    /// 兵站: an ordinary post.
    Station,
    /// 行营: a camp (safe; starts empty).
    Camp,
    /// 大本营: a headquarters (a piece there never moves again).
    Headquarters,
}

/// The two sides: red (ranks 1-6) and blue (ranks 7-12).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// Ranks 1-6, upper-case letters.
    Red,
    /// Ranks 7-12, lower-case letters.
    Blue,
}

impl Side {
    /// The other side.
    pub const fn other(self) -> Side {
        match self {
            Side::Red => Side::Blue,
            Side::Blue => Side::Red,
        }
    }

    /// 0 for red, 1 for blue.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `r` or `b` (Q13).
    pub const fn letter(self) -> char {
        match self {
            Side::Red => 'r',
            Side::Blue => 'b',
        }
    }

    /// The side's half of the board.
    pub const fn half(self) -> Posts {
        match self {
            Side::Red => (1 << 30) - 1,
            Side::Blue => ((1u64 << 60) - 1) & !((1 << 30) - 1),
        }
    }

    /// The side's row 1-6 (front to back, Q1) of a post in its half; 0 for
    /// a post in the other half.
    pub const fn row_of(self, p: Post) -> u8 {
        match self {
            Side::Red => 7u8.saturating_sub(p.rank()),
            Side::Blue => p.rank().saturating_sub(6),
        }
    }
}

impl Post {
    /// The post with index `i` (0..60), if there is one.
    pub const fn from_index(i: usize) -> Option<Post> {
        if i < POSTS { Some(Post(i as u8)) } else { None }
    }

    /// The post at `file` (0 = a) and `rank` (1-12), if on the board.
    pub const fn at(file: u8, rank: u8) -> Option<Post> {
        if file >= FILES || rank == 0 || rank > RANKS {
            None
        } else {
            Some(Post((rank - 1) * FILES + file))
        }
    }

    /// Index 0..60.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// This post's bit.
    pub const fn bit(self) -> Posts {
        1 << self.0
    }

    /// File 0..5 (a..e).
    pub const fn file(self) -> u8 {
        self.0 % FILES
    }

    /// Rank 1..=12.
    pub const fn rank(self) -> u8 {
        self.0 / FILES + 1
    }

    /// The side whose half holds the post.
    pub const fn half(self) -> Side {
        if self.rank() <= 6 {
            Side::Red
        } else {
            Side::Blue
        }
    }

    /// The post's kind (Q1, Q12).
    pub const fn kind(self) -> PostKind {
        if CAMPS & self.bit() != 0 {
            PostKind::Camp
        } else if HEADQUARTERS & self.bit() != 0 {
            PostKind::Headquarters
        } else {
            PostKind::Station
        }
    }

    /// Every post, in index order.
    pub fn all() -> impl Iterator<Item = Post> {
        (0..POSTS as u8).map(Post)
    }
}

impl fmt::Display for Post {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

/// The posts of a set, lowest index first.
pub fn posts(mut set: Posts) -> impl Iterator<Item = Post> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let i = set.trailing_zeros();
        set &= set - 1;
        Some(Post(i as u8))
    })
}

const fn bit(file: u8, rank: u8) -> Posts {
    1 << ((rank - 1) * FILES + file)
}

/// The ten camps (Q12): red b5 d5 c4 b3 d3, blue b8 d8 c9 b10 d10.
pub const CAMPS: Posts = bit(1, 5)
    | bit(3, 5)
    | bit(2, 4)
    | bit(1, 3)
    | bit(3, 3)
    | bit(1, 8)
    | bit(3, 8)
    | bit(2, 9)
    | bit(1, 10)
    | bit(3, 10);

/// The four headquarters (Q12): b1 d1 b12 d12.
pub const HEADQUARTERS: Posts = bit(1, 1) | bit(3, 1) | bit(1, 12) | bit(3, 12);

/// The straight railway lines of Q6, each as its posts in order: ranks 2,
/// 6, 7 and 11, files a and e from rank 2 to rank 11, and c6-c7.
pub fn railway_lines() -> Vec<Vec<Post>> {
    let mut lines = Vec::new();
    for rank in [2, 6, 7, 11] {
        lines.push((0..FILES).filter_map(|f| Post::at(f, rank)).collect());
    }
    for file in [0, 4] {
        lines.push((2..=11).filter_map(|r| Post::at(file, r)).collect());
    }
    lines.push(
        [Post::at(2, 6), Post::at(2, 7)]
            .into_iter()
            .flatten()
            .collect(),
    );
    lines
}

/// The board graph, computed once: road neighbours and railway
/// neighbours of each post, and the railway lines through it.
#[derive(Clone, Debug)]
pub struct Graph {
    /// Q2: orthogonal neighbours (not across the mountains at b6-b7 and
    /// d6-d7) and each camp's four diagonal neighbours.
    pub roads: [Posts; POSTS],
    /// Railway neighbours (for the engineer's turning paths, Q6).
    pub rails: [Posts; POSTS],
    /// The railway lines (see [`railway_lines`]).
    pub lines: Vec<Vec<Post>>,
    /// Posts on a railway.
    pub on_rail: Posts,
}

impl Graph {
    /// Builds the graph of Q1/Q2.
    pub fn new() -> Graph {
        let mut roads = [0; POSTS];
        let link = |roads: &mut [Posts; POSTS], a: Post, b: Post| {
            roads[a.index()] |= b.bit();
            roads[b.index()] |= a.bit();
        };
        for p in Post::all() {
            let (f, r) = (p.file(), p.rank());
            if let Some(q) = Post::at(f + 1, r) {
                link(&mut roads, p, q);
            }
            // The mountains: files b and d do not cross the front.
            let blocked = r == 6 && (f == 1 || f == 3);
            if let Some(q) = Post::at(f, r + 1)
                && !blocked
            {
                link(&mut roads, p, q);
            }
            if p.kind() == PostKind::Camp {
                for (df, dr) in [(-1i8, -1i8), (-1, 1), (1, -1), (1, 1)] {
                    let (nf, nr) = (f as i8 + df, r as i8 + dr);
                    if nf >= 0
                        && nr >= 1
                        && let Some(q) = Post::at(nf as u8, nr as u8)
                    {
                        link(&mut roads, p, q);
                    }
                }
            }
        }
        let lines = railway_lines();
        let mut rails = [0; POSTS];
        let mut on_rail = 0;
        for line in &lines {
            for w in line.windows(2) {
                rails[w[0].index()] |= w[1].bit();
                rails[w[1].index()] |= w[0].bit();
            }
            for p in line {
                on_rail |= p.bit();
            }
        }
        Graph {
            roads,
            rails,
            lines,
            on_rail,
        }
    }
}

impl Default for Graph {
    fn default() -> Graph {
        Graph::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn post(s: &str) -> Post {
        let f = s.as_bytes()[0] - b'a';
        let r: u8 = s[1..].parse().expect("rank");
        Post::at(f, r).expect("on the board")
    }

    #[test]
    fn q1_each_side_has_thirty_posts_five_camps_two_headquarters() {
        for side in [Side::Red, Side::Blue] {
            assert_eq!(side.half().count_ones(), 30);
            assert_eq!((side.half() & CAMPS).count_ones(), 5);
            assert_eq!((side.half() & HEADQUARTERS).count_ones(), 2);
            // Camps at rows (2,2) (2,4) (3,3) (4,2) (4,4), headquarters at row 6.
            for p in posts(side.half() & CAMPS) {
                assert!([2, 3, 4].contains(&side.row_of(p)), "{p}");
            }
            for p in posts(side.half() & HEADQUARTERS) {
                assert_eq!(side.row_of(p), 6);
            }
        }
        assert_eq!(post("c4").kind(), PostKind::Camp);
        assert_eq!(post("d12").kind(), PostKind::Headquarters);
        assert_eq!(post("a1").kind(), PostKind::Station);
    }

    #[test]
    fn q2_roads_cross_the_front_only_at_files_a_c_e() {
        let g = Graph::new();
        for (a, b, linked) in [
            ("a6", "a7", true),
            ("c6", "c7", true),
            ("e6", "e7", true),
            ("b6", "b7", false),
            ("d6", "d7", false),
            ("c4", "b5", true),
            ("c4", "d3", true),
            ("b3", "a2", true),
            ("a1", "b2", false),
        ] {
            assert_eq!(
                g.roads[post(a).index()] & post(b).bit() != 0,
                linked,
                "{a}-{b}"
            );
        }
        // A camp has eight road neighbours; a corner station two.
        assert_eq!(g.roads[post("c4").index()].count_ones(), 8);
        assert_eq!(g.roads[post("a1").index()].count_ones(), 2);
    }

    #[test]
    fn q2_railways_run_on_ranks_2_6_7_11_and_files_a_e_and_cross_at_c() {
        let g = Graph::new();
        // Ranks 2, 6, 7, 11 (5 posts each) and files a, e between them (6 more each).
        assert_eq!(g.on_rail.count_ones(), 4 * 5 + 2 * 6);
        assert!(g.rails[post("c6").index()] & post("c7").bit() != 0);
        assert!(g.rails[post("a6").index()] & post("a7").bit() != 0);
        assert_eq!(g.rails[post("b6").index()] & post("b7").bit(), 0);
        assert_eq!(g.on_rail & CAMPS, 0);
        assert_eq!(g.on_rail & HEADQUARTERS, 0);
    }
}
