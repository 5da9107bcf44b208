//! The board as a graph for any number of armies: the two-player board of
//! Q1/Q2/Q6 (60 posts) and the four-army board of S3-S6 (129 posts).
//!
//! Both boards are built from the same description of one army's block of
//! 30 posts in its own frame (files a-e, ranks 1 back to 6 front, S4),
//! placed on the board once per army through that army's frame, plus the
//! centre posts, the links from each army's front to whatever lies ahead,
//! and (four armies) the arcs between neighbouring armies' front corners.
//! Only the nine centre posts are listed by hand, so the blocks of the two
//! boards cannot drift apart.
//!
//! Post ids are indices in (rank, file) order, so on the two-army board a
//! post's id is the index [`crate::board::Post`] gives it.
//!
//! The N-army move generator ([`crate::siguo`]) runs on this graph; the
//! two-player generator still runs on [`crate::board::Graph`], and the
//! tests check that both agree on the two-army board.

use crate::board::PostKind;

/// Files of one army's block in its own frame (a-e).
const OWN_FILES: u8 = 5;
/// Ranks of one army's block in its own frame (1 back to 6 front).
const OWN_RANKS: u8 = 6;
/// Posts of one army's block.
const BLOCK_POSTS: usize = (OWN_FILES * OWN_RANKS) as usize;

/// Camps in the own frame (Q1, Q12, S4): b3 d3 c4 b5 d5, as (file, rank).
const OWN_CAMPS: [(u8, u8); 5] = [(1, 3), (3, 3), (2, 4), (1, 5), (3, 5)];
/// Headquarters in the own frame: b1 d1.
const OWN_HEADQUARTERS: [(u8, u8); 2] = [(1, 1), (3, 1)];
/// The own files whose front post leads on towards the rest of the board
/// (Q2's columns 1, 3, 5; S5's links): a, c and e. Files a and e are
/// railways from rank 2 to 6, file c only at rank 6.
const CROSSING_FILES: [u8; 3] = [0, 2, 4];

/// A post of a [`BoardGraph`]: its index, in (rank, file) order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PostId(u8);

impl PostId {
    /// The index, 0..[`BoardGraph::len`].
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The id with index `i` (callers check it against the board's length).
    pub(crate) const fn from_index(i: u8) -> PostId {
        PostId(i)
    }
}

/// Which part of the board a post belongs to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Block {
    /// The block of army `n` (0-based, in the order of
    /// [`BoardGraph::army_letter`]).
    Army(u8),
    /// The centre (九宫, S3), which belongs to no army.
    Centre,
}

/// How an army's own frame sits on the board: the board square of own a1
/// and the board steps of one own file to the right and one own rank
/// forward. Board squares are 0-based (file, rank).
#[derive(Copy, Clone, Debug)]
struct Frame {
    origin: (i8, i8),
    file_step: (i8, i8),
    rank_step: (i8, i8),
}

impl Frame {
    /// The board square of own `file` (0 = a) and own `rank` (1-6).
    const fn place(self, file: u8, rank: u8) -> (i8, i8) {
        let (f, r) = (file as i8, rank as i8 - 1);
        (
            self.origin.0 + f * self.file_step.0 + r * self.rank_step.0,
            self.origin.1 + f * self.file_step.1 + r * self.rank_step.1,
        )
    }
}

/// What a board is made of; see the constructors of [`BoardGraph`].
struct Layout {
    files: u8,
    ranks: u8,
    letters: &'static [char],
    frames: &'static [Frame],
    /// Centre posts as 0-based (file, rank).
    centre: &'static [(u8, u8)],
    /// Q2: the two halves touch, so each crossing is a road as well as a
    /// railway; S5: armies are joined by railways only.
    crossings_are_roads: bool,
    /// S5: the four arcs between neighbouring armies.
    arcs: bool,
}

/// Q12 and Q13: red as the board is drawn; blue's half read like its set-up
/// text (files a-e as on the board, its back rank 12 first).
const TWO_ARMIES: Layout = Layout {
    files: 5,
    ranks: 12,
    letters: &['r', 'b'],
    frames: &[
        Frame {
            origin: (0, 0),
            file_step: (1, 0),
            rank_step: (0, 1),
        },
        Frame {
            origin: (0, 11),
            file_step: (1, 0),
            rank_step: (0, -1),
        },
    ],
    centre: &[],
    crossings_are_roads: true,
    arcs: false,
};

/// S1, S3, S4: armies s e n w (turn order), each block placed by S4.
const FOUR_ARMIES: Layout = Layout {
    files: 17,
    ranks: 17,
    letters: &['s', 'e', 'n', 'w'],
    frames: &[
        // South: own a-e = g-k, own rank r = rank r.
        Frame {
            origin: (6, 0),
            file_step: (1, 0),
            rank_step: (0, 1),
        },
        // East: own a-e = ranks 7-11, own rank r = file 18-r.
        Frame {
            origin: (16, 6),
            file_step: (0, 1),
            rank_step: (-1, 0),
        },
        // North: own a-e = k-g, own rank r = rank 18-r.
        Frame {
            origin: (10, 16),
            file_step: (-1, 0),
            rank_step: (0, -1),
        },
        // West: own a-e = ranks 11-7, own rank r = file r.
        Frame {
            origin: (0, 10),
            file_step: (0, -1),
            rank_step: (1, 0),
        },
    ],
    centre: &[
        (6, 6),
        (8, 6),
        (10, 6),
        (6, 8),
        (8, 8),
        (10, 8),
        (6, 10),
        (8, 10),
        (10, 10),
    ],
    crossings_are_roads: false,
    arcs: true,
};

/// One post's fixed facts.
#[derive(Clone, Debug)]
struct PostInfo {
    name: String,
    file: u8,
    rank: u8,
    kind: PostKind,
    block: Block,
    /// Own file (0-4) and rank (1-6) in its army's frame; unused for the
    /// centre.
    own: (u8, u8),
}

/// A board of N armies: posts, their kinds and blocks, roads, railways,
/// the straight railway lines and each army's own frame.
#[derive(Clone, Debug)]
pub struct BoardGraph {
    files: u8,
    ranks: u8,
    letters: Vec<char>,
    posts: Vec<PostInfo>,
    /// Post at each board square, `rank0 * files + file0`.
    grid: Vec<Option<PostId>>,
    /// Each army's 30 posts, `(own rank − 1) * 5 + own file`.
    own: Vec<[PostId; BLOCK_POSTS]>,
    roads: Vec<Vec<PostId>>,
    rails: Vec<Vec<PostId>>,
    lines: Vec<Vec<PostId>>,
    lines_at: Vec<Vec<usize>>,
}

impl BoardGraph {
    /// The two-player board (Q1, Q2, Q6, Q12): red (`r`, ranks 1-6) and
    /// blue (`b`, ranks 7-12), files a-e.
    pub fn two_armies() -> BoardGraph {
        BoardGraph::build(&TWO_ARMIES)
    }

    /// The four-army board (S3-S6): armies `s e n w` in turn order, files
    /// a-q, ranks 1-17, the nine-post centre and the four arcs.
    pub fn four_armies() -> BoardGraph {
        BoardGraph::build(&FOUR_ARMIES)
    }

    fn build(layout: &Layout) -> BoardGraph {
        let armies = layout.frames.len();
        // Every post with its square, then ids in (rank, file) order.
        let mut found: Vec<PostInfo> = Vec::new();
        for (army, frame) in layout.frames.iter().enumerate() {
            for rank in 1..=OWN_RANKS {
                for file in 0..OWN_FILES {
                    let (f, r) = frame.place(file, rank);
                    let kind = if OWN_CAMPS.contains(&(file, rank)) {
                        PostKind::Camp
                    } else if OWN_HEADQUARTERS.contains(&(file, rank)) {
                        PostKind::Headquarters
                    } else {
                        PostKind::Station
                    };
                    found.push(PostInfo {
                        name: String::new(),
                        file: f as u8,
                        rank: r as u8 + 1,
                        kind,
                        block: Block::Army(army as u8),
                        own: (file, rank),
                    });
                }
            }
        }
        for &(f, r) in layout.centre {
            found.push(PostInfo {
                name: String::new(),
                file: f,
                rank: r + 1,
                kind: PostKind::Station,
                block: Block::Centre,
                own: (0, 0),
            });
        }
        found.sort_by_key(|p| (p.rank, p.file));
        let mut grid = vec![None; layout.files as usize * layout.ranks as usize];
        let mut own = vec![[PostId(0); BLOCK_POSTS]; armies];
        for (i, p) in found.iter_mut().enumerate() {
            p.name = format!("{}{}", (b'a' + p.file) as char, p.rank);
            let id = PostId(i as u8);
            grid[(p.rank as usize - 1) * layout.files as usize + p.file as usize] = Some(id);
            if let Block::Army(a) = p.block {
                own[a as usize][own_index(p.own.0, p.own.1)] = id;
            }
        }
        let mut g = BoardGraph {
            files: layout.files,
            ranks: layout.ranks,
            letters: layout.letters.to_vec(),
            lines_at: vec![Vec::new(); found.len()],
            roads: vec![Vec::new(); found.len()],
            rails: vec![Vec::new(); found.len()],
            posts: found,
            grid,
            own,
            lines: Vec::new(),
        };
        g.link_blocks();
        g.link_crossings(layout);
        g.add_lines(layout);
        for list in g.roads.iter_mut().chain(g.rails.iter_mut()) {
            list.sort();
            list.dedup();
        }
        for (i, line) in g.lines.iter().enumerate() {
            for p in line {
                g.lines_at[p.index()].push(i);
            }
        }
        g
    }

    /// Roads and railways inside each block (Q2, S5).
    fn link_blocks(&mut self) {
        for army in 0..self.armies() as u8 {
            let at = |f: u8, r: u8| self.own_slot(army, f, r);
            let mut roads = Vec::new();
            let mut rails = Vec::new();
            for rank in 1..=OWN_RANKS {
                for file in 0..OWN_FILES {
                    let p = at(file, rank);
                    if file + 1 < OWN_FILES {
                        roads.push((p, at(file + 1, rank)));
                        if rank == 2 || rank == 6 {
                            rails.push((p, at(file + 1, rank)));
                        }
                    }
                    if rank < OWN_RANKS {
                        roads.push((p, at(file, rank + 1)));
                        if rank >= 2 && (file == 0 || file == OWN_FILES - 1) {
                            rails.push((p, at(file, rank + 1)));
                        }
                    }
                }
            }
            // Camps sit off the grid lines, so they also reach their four
            // diagonal neighbours, all inside the block.
            for (f, r) in OWN_CAMPS {
                for (nf, nr) in [
                    (f - 1, r - 1),
                    (f - 1, r + 1),
                    (f + 1, r - 1),
                    (f + 1, r + 1),
                ] {
                    roads.push((at(f, r), at(nf, nr)));
                }
            }
            for (a, b) in roads {
                self.join_road(a, b);
            }
            for (a, b) in rails {
                self.join_rail(a, b);
            }
        }
    }

    /// Railways from each army's front (own a6, c6, e6) straight ahead
    /// through the centre to the next block, and the arcs (Q2, S5).
    fn link_crossings(&mut self, layout: &Layout) {
        for army in 0..self.armies() as u8 {
            for file in CROSSING_FILES {
                let path = self.ahead(layout, army, file);
                for w in path.windows(2) {
                    self.join_rail(w[0], w[1]);
                }
                // Q2: with no centre in between the halves simply touch.
                if layout.crossings_are_roads && path.len() == 2 {
                    self.join_road(path[0], path[1]);
                }
            }
            if layout.arcs {
                let a = self.own_slot(army, 0, OWN_RANKS);
                let b = self.own_slot(self.left_of(army), OWN_FILES - 1, OWN_RANKS);
                self.join_rail(a, b);
            }
        }
    }

    /// The straight lines of Q6 and S6: each army's own ranks 2 and 6; the
    /// lines straight ahead from the opposite armies' own files a, c and e
    /// through the centre; and the arc lines.
    fn add_lines(&mut self, layout: &Layout) {
        let armies = self.armies() as u8;
        for army in 0..armies {
            for rank in [2, OWN_RANKS] {
                let line = (0..OWN_FILES).map(|f| self.own_slot(army, f, rank));
                self.lines.push(line.collect());
            }
        }
        for army in 0..armies {
            // Each straight line between two opposite armies once.
            if army >= self.opposite(army) {
                continue;
            }
            for file in CROSSING_FILES {
                let mut line = self.own_file(army, file);
                for &p in self.ahead(layout, army, file).iter().skip(1) {
                    let info = &self.posts[p.index()];
                    match info.block {
                        Block::Centre => line.push(p),
                        // The far army's file, read from its front back.
                        Block::Army(other) => {
                            let mut back = self.own_file(other, info.own.0);
                            back.reverse();
                            line.extend(back);
                        }
                    }
                }
                self.lines.push(line);
            }
        }
        if layout.arcs {
            for army in 0..armies {
                let mut line = self.own_file(army, 0);
                let mut back = self.own_file(self.left_of(army), OWN_FILES - 1);
                back.reverse();
                line.extend(back);
                self.lines.push(line);
            }
        }
    }

    /// The railway part of an own file, back to front: ranks 2-6 for files
    /// a and e, rank 6 alone for the others.
    fn own_file(&self, army: u8, file: u8) -> Vec<PostId> {
        let from = if file == 0 || file == OWN_FILES - 1 {
            2
        } else {
            OWN_RANKS
        };
        (from..=OWN_RANKS)
            .map(|r| self.own_slot(army, file, r))
            .collect()
    }

    /// The posts straight ahead of own `file` rank 6: that post, the centre
    /// posts passed, and the first post of another block.
    fn ahead(&self, layout: &Layout, army: u8, file: u8) -> Vec<PostId> {
        let frame = layout.frames[army as usize];
        let (mut f, mut r) = frame.place(file, OWN_RANKS);
        let mut path = vec![self.own_slot(army, file, OWN_RANKS)];
        let steps = self.files.max(self.ranks);
        for _ in 0..steps {
            f += frame.rank_step.0;
            r += frame.rank_step.1;
            let Some(p) = self.square(f, r) else {
                continue;
            };
            path.push(p);
            if self.posts[p.index()].block != Block::Centre {
                break;
            }
        }
        path
    }

    fn square(&self, f: i8, r: i8) -> Option<PostId> {
        if f < 0 || r < 0 || f as u8 >= self.files || r as u8 >= self.ranks {
            return None;
        }
        self.grid[r as usize * self.files as usize + f as usize]
    }

    /// An own post known to exist (the layout's own indices only).
    fn own_slot(&self, army: u8, file: u8, rank: u8) -> PostId {
        self.own[army as usize][own_index(file, rank)]
    }

    /// The army across the centre.
    fn opposite(&self, army: u8) -> u8 {
        let n = self.armies() as u8;
        (army + n / 2) % n
    }

    /// The army on this army's left as it faces the centre (S4): the one
    /// before it in turn order (South's left is West).
    fn left_of(&self, army: u8) -> u8 {
        let n = self.armies() as u8;
        (army + n - 1) % n
    }

    fn join_road(&mut self, a: PostId, b: PostId) {
        self.roads[a.index()].push(b);
        self.roads[b.index()].push(a);
    }

    fn join_rail(&mut self, a: PostId, b: PostId) {
        self.rails[a.index()].push(b);
        self.rails[b.index()].push(a);
    }

    /// Number of posts (60 or 129).
    pub fn len(&self) -> usize {
        self.posts.len()
    }

    /// Always false: a board has posts (for clippy's `len` convention).
    pub fn is_empty(&self) -> bool {
        self.posts.is_empty()
    }

    /// Every post, in id order.
    pub fn posts(&self) -> impl Iterator<Item = PostId> + use<> {
        (0..self.posts.len() as u8).map(PostId)
    }

    /// The post with index `i`, if there is one.
    pub fn post(&self, i: usize) -> Option<PostId> {
        (i < self.posts.len()).then_some(PostId(i as u8))
    }

    /// Number of armies (2 or 4).
    pub fn armies(&self) -> usize {
        self.own.len()
    }

    /// The army's letter (`r b`, or `s e n w` of S14), if there is such an
    /// army.
    pub fn army_letter(&self, army: u8) -> Option<char> {
        self.letters.get(army as usize).copied()
    }

    /// Files of the board's square grid (5 or 17).
    pub fn files(&self) -> u8 {
        self.files
    }

    /// Ranks of the board's square grid (12 or 17).
    pub fn ranks(&self) -> u8 {
        self.ranks
    }

    /// The post at `file` (0 = a) and `rank` (from 1), if that square is one.
    pub fn at(&self, file: u8, rank: u8) -> Option<PostId> {
        if rank == 0 {
            return None;
        }
        self.square(i8::try_from(file).ok()?, i8::try_from(rank - 1).ok()?)
    }

    /// The post written `text` (file letter + rank, S14/Q12), if any.
    pub fn parse(&self, text: &str) -> Option<PostId> {
        let mut chars = text.chars();
        let letter = chars.next()?;
        if !letter.is_ascii_lowercase() {
            return None;
        }
        let digits = chars.as_str();
        // Only plain digits, no sign or leading zero, so each post has one
        // spelling.
        if digits.is_empty()
            || digits.starts_with('0')
            || !digits.bytes().all(|b| b.is_ascii_digit())
        {
            return None;
        }
        let rank: u8 = digits.parse().ok()?;
        self.at(letter as u8 - b'a', rank)
    }

    /// The post's coordinate text (`g6`, `l11`).
    pub fn name(&self, p: PostId) -> &str {
        &self.posts[p.index()].name
    }

    /// The post's file, 0 = a.
    pub fn file(&self, p: PostId) -> u8 {
        self.posts[p.index()].file
    }

    /// The post's rank, from 1.
    pub fn rank(&self, p: PostId) -> u8 {
        self.posts[p.index()].rank
    }

    /// Station, camp or headquarters.
    pub fn kind(&self, p: PostId) -> PostKind {
        self.posts[p.index()].kind
    }

    /// The army block holding the post, or the centre.
    pub fn block(&self, p: PostId) -> Block {
        self.posts[p.index()].block
    }

    /// S4: the post at `army`'s own `file` (0 = a) and own `rank` (1 back
    /// to 6 front), if both are in range.
    pub fn own_post(&self, army: u8, file: u8, rank: u8) -> Option<PostId> {
        if file >= OWN_FILES || rank == 0 || rank > OWN_RANKS {
            return None;
        }
        Some(self.own.get(army as usize)?[own_index(file, rank)])
    }

    /// S4 the other way: the army, own file and own rank of a post; `None`
    /// for a centre post.
    pub fn own_coords(&self, p: PostId) -> Option<(u8, u8, u8)> {
        let info = &self.posts[p.index()];
        match info.block {
            Block::Army(a) => Some((a, info.own.0, info.own.1)),
            Block::Centre => None,
        }
    }

    /// Road neighbours (Q2, S5), in id order.
    pub fn roads(&self, p: PostId) -> &[PostId] {
        &self.roads[p.index()]
    }

    /// Railway neighbours, in id order: the engineer's steps (Q6).
    pub fn rails(&self, p: PostId) -> &[PostId] {
        &self.rails[p.index()]
    }

    /// Whether a road joins `a` and `b`.
    pub fn is_road(&self, a: PostId, b: PostId) -> bool {
        self.roads[a.index()].binary_search(&b).is_ok()
    }

    /// Whether a railway joins `a` and `b`.
    pub fn is_rail(&self, a: PostId, b: PostId) -> bool {
        self.rails[a.index()].binary_search(&b).is_ok()
    }

    /// Whether the post is on a railway.
    pub fn on_rail(&self, p: PostId) -> bool {
        !self.rails[p.index()].is_empty()
    }

    /// The straight railway lines (Q6, S6), each its posts in order: the
    /// only ways a non-engineer travels by rail.
    pub fn lines(&self) -> &[Vec<PostId>] {
        &self.lines
    }

    /// Indices into [`BoardGraph::lines`] of the lines through `p`.
    pub fn lines_at(&self, p: PostId) -> &[usize] {
        &self.lines_at[p.index()]
    }
}

const fn own_index(file: u8, rank: u8) -> usize {
    (rank as usize - 1) * OWN_FILES as usize + file as usize
}

#[cfg(test)]
mod tests;
