use super::*;
use crate::board;
use std::collections::BTreeSet;

fn post(g: &BoardGraph, s: &str) -> PostId {
    g.parse(s).unwrap_or_else(|| panic!("{s} is a post"))
}

fn names(g: &BoardGraph, list: &[PostId]) -> String {
    let v: Vec<&str> = list.iter().map(|&p| g.name(p)).collect();
    v.join(" ")
}

/// A line and its reverse are the same line.
fn normal(line: Vec<String>) -> Vec<String> {
    let mut back = line.clone();
    back.reverse();
    line.min(back)
}

fn line_set(lines: impl IntoIterator<Item = Vec<String>>) -> BTreeSet<Vec<String>> {
    lines.into_iter().map(normal).collect()
}

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_string).collect()
}

/// Each edge once, as "a-b" with the lower id first.
fn edges(g: &BoardGraph, adj: impl Fn(PostId) -> Vec<PostId>) -> BTreeSet<(PostId, PostId)> {
    let mut set = BTreeSet::new();
    for p in g.posts() {
        for q in adj(p) {
            set.insert((p.min(q), p.max(q)));
        }
    }
    set
}

fn pairs(g: &BoardGraph, text: &str) -> BTreeSet<(PostId, PostId)> {
    text.split_whitespace()
        .map(|w| {
            let (a, b) = w.split_once('-').expect("a-b");
            let (a, b) = (post(g, a), post(g, b));
            (a.min(b), a.max(b))
        })
        .collect()
}

#[test]
fn s3_four_armies_have_129_posts_nine_in_the_centre_and_no_other_square() {
    let g = BoardGraph::four_armies();
    assert_eq!(g.len(), 129);
    assert_eq!(g.armies(), 4);
    let centre: Vec<PostId> = g.posts().filter(|&p| g.block(p) == Block::Centre).collect();
    assert_eq!(names(&g, &centre), "g7 i7 k7 g9 i9 k9 g11 i11 k11");
    // Every square of the 17 × 17 grid: a post exactly where S3 puts one,
    // in the block S3 names (armies s e n w = 0 1 2 3).
    for file in 0..17u8 {
        for rank in 1..=17u8 {
            let expected = match (file, rank) {
                (6..=10, 1..=6) => Some(Block::Army(0)),
                (11..=16, 7..=11) => Some(Block::Army(1)),
                (6..=10, 12..=17) => Some(Block::Army(2)),
                (0..=5, 7..=11) => Some(Block::Army(3)),
                (6 | 8 | 10, 7 | 9 | 11) => Some(Block::Centre),
                _ => None,
            };
            let found = g.at(file, rank).map(|p| g.block(p));
            assert_eq!(found, expected, "file {file} rank {rank}");
        }
    }
    for army in 0..4u8 {
        let block: Vec<PostId> = g
            .posts()
            .filter(|&p| g.block(p) == Block::Army(army))
            .collect();
        assert_eq!(block.len(), 30);
        let count = |k| block.iter().filter(|&&p| g.kind(p) == k).count();
        assert_eq!(count(PostKind::Camp), 5);
        assert_eq!(count(PostKind::Headquarters), 2);
    }
    assert!(centre.iter().all(|&p| g.kind(p) == PostKind::Station));
    for p in g.posts() {
        assert_eq!(g.parse(g.name(p)), Some(p));
    }
    assert_eq!(g.at(17, 1), None);
    assert_eq!(g.at(0, 18), None);
    assert_eq!(g.at(0, 0), None);
    assert_eq!(g.parse("h8"), None);
}

#[test]
fn s4_own_frames_place_camps_and_headquarters_and_round_trip() {
    let g = BoardGraph::four_armies();
    let of_kind = |army: u8, kind| -> BTreeSet<String> {
        g.posts()
            .filter(|&p| g.block(p) == Block::Army(army) && g.kind(p) == kind)
            .map(|p| g.name(p).to_string())
            .collect()
    };
    let set = |s: &str| -> BTreeSet<String> { words(s).into_iter().collect() };
    assert_eq!(of_kind(0, PostKind::Camp), set("h3 j3 i4 h5 j5"));
    assert_eq!(of_kind(0, PostKind::Headquarters), set("h1 j1"));
    assert_eq!(of_kind(3, PostKind::Headquarters), set("a10 a8"));
    assert_eq!(of_kind(2, PostKind::Headquarters), set("j17 h17"));
    assert_eq!(of_kind(1, PostKind::Headquarters), set("q8 q10"));
    // The S4 mapping for every own post of every army, written out as
    // the rules state it (files and ranks 1-based here).
    for file in 0..5u8 {
        for rank in 1..=6u8 {
            let expect = [
                (7 + file, rank),       // South: a-e = g-k, r = r
                (18 - rank, 7 + file),  // East: a-e = ranks 7-11, r = file 18-r
                (11 - file, 18 - rank), // North: a-e = k-g, r = 18-r
                (rank, 11 - file),      // West: a-e = ranks 11-7, r = file r
            ];
            for (army, (f, r)) in expect.into_iter().enumerate() {
                let army = army as u8;
                let p = g.own_post(army, file, rank).expect("an own post");
                assert_eq!(
                    (g.file(p) + 1, g.rank(p)),
                    (f, r),
                    "army {army} own {file} {rank}"
                );
                assert_eq!(g.own_coords(p), Some((army, file, rank)));
                let kind = if OWN_CAMPS.contains(&(file, rank)) {
                    PostKind::Camp
                } else if OWN_HEADQUARTERS.contains(&(file, rank)) {
                    PostKind::Headquarters
                } else {
                    PostKind::Station
                };
                assert_eq!(g.kind(p), kind);
            }
        }
    }
    let own = |army, file, rank| g.own_post(army, file, rank).map(|p| g.name(p));
    assert_eq!(own(2, 0, 1), Some("k17"));
    assert_eq!(own(1, 0, 1), Some("q7"));
    assert_eq!(own(1, 4, 6), Some("l11"));
    assert_eq!(own(3, 4, 6), Some("f7"));
    assert_eq!(own(4, 0, 1), None);
    assert_eq!(own(0, 5, 1), None);
    assert_eq!(own(0, 0, 7), None);
    assert_eq!(own(0, 0, 0), None);
    assert_eq!(g.own_coords(post(&g, "i9")), None);
    let letters: String = (0..5).filter_map(|a| g.army_letter(a)).collect();
    assert_eq!(letters, "senw");
}

#[test]
fn s5_roads_stay_inside_blocks_and_only_the_links_and_arcs_join_them() {
    let g = BoardGraph::four_armies();
    let roads = edges(&g, |p| g.roads(p).to_vec());
    let rails = edges(&g, |p| g.rails(p).to_vec());
    for &(a, b) in &roads {
        assert!(
            matches!(g.block(a), Block::Army(_)),
            "{} has a road",
            g.name(a)
        );
        assert_eq!(g.block(a), g.block(b), "road {}-{}", g.name(a), g.name(b));
    }
    let links = pairs(
        &g,
        "g6-g7 i6-i7 k6-k7 g12-g11 i12-i11 k12-k11 f7-g7 f9-g9 f11-g11 l7-k7 l9-k9 l11-k11",
    );
    let arcs = pairs(&g, "g6-f7 k6-l7 k12-l11 g12-f11");
    let between: BTreeSet<_> = rails
        .iter()
        .copied()
        .filter(|&(a, b)| g.block(a) != g.block(b))
        .collect();
    assert_eq!(between, &links | &arcs);
    for &(a, b) in &between {
        assert!(!g.is_road(a, b), "{}-{} is no road", g.name(a), g.name(b));
        assert!(g.is_rail(a, b) && g.is_rail(b, a));
    }
    let centre: BTreeSet<_> = rails
        .iter()
        .copied()
        .filter(|&(a, b)| g.block(a) == Block::Centre && g.block(b) == Block::Centre)
        .collect();
    let expected = pairs(
        &g,
        "g7-g9 g9-g11 i7-i9 i9-i11 k7-k9 k9-k11 g7-i7 i7-k7 g9-i9 i9-k9 g11-i11 i11-k11",
    );
    assert_eq!(centre, expected);
    // Inside each block, as Q2 draws the red half, read in the own frame.
    let south = pairs(
        &g,
        "g2-h2 h2-i2 i2-j2 j2-k2 g6-h6 h6-i6 i6-j6 j6-k6 \
         g2-g3 g3-g4 g4-g5 g5-g6 k2-k3 k3-k4 k4-k5 k5-k6",
    );
    let own_edges = |army: u8, set: &BTreeSet<(PostId, PostId)>| -> BTreeSet<_> {
        set.iter()
            .filter(|&&(a, b)| g.block(a) == Block::Army(army) && g.block(b) == Block::Army(army))
            .map(|&(a, b)| {
                let (x, y) = (g.own_coords(a), g.own_coords(b));
                let (x, y) = (x.map(|c| (c.1, c.2)), y.map(|c| (c.1, c.2)));
                (x.min(y), x.max(y))
            })
            .collect()
    };
    let south_rails: BTreeSet<_> = rails
        .iter()
        .copied()
        .filter(|&(a, b)| g.block(a) == Block::Army(0) && g.block(b) == Block::Army(0))
        .collect();
    assert_eq!(south_rails, south);
    assert_eq!(own_edges(0, &rails), own_edges(0, &south));
    for army in 1..4 {
        assert_eq!(own_edges(army, &rails), own_edges(0, &rails), "army {army}");
        assert_eq!(own_edges(army, &roads), own_edges(0, &roads), "army {army}");
    }
    // Camps, headquarters and rank 1 are off the railway; a camp has
    // eight road neighbours, a back corner two.
    for p in g.posts() {
        if g.kind(p) != PostKind::Station || g.own_coords(p).is_some_and(|c| c.2 == 1) {
            assert!(!g.on_rail(p), "{}", g.name(p));
        }
    }
    assert_eq!(g.roads(post(&g, "i4")).len(), 8);
    assert_eq!(g.roads(post(&g, "g1")).len(), 2);
    assert_eq!(g.roads(post(&g, "q11")).len(), 2);
    assert!(g.is_road(post(&g, "h3"), post(&g, "g2")));
    assert!(!g.is_road(post(&g, "g6"), post(&g, "f7")));
    assert!(g.is_road(post(&g, "f7"), post(&g, "f8")));
}

#[test]
fn s6_the_straight_lines_are_exactly_those_listed() {
    let g = BoardGraph::four_armies();
    let found = line_set(g.lines().iter().map(|l| words(&names(&g, l))));
    let expected = line_set(
        [
            "g2 g3 g4 g5 g6 g7 g9 g11 g12 g13 g14 g15 g16",
            "k2 k3 k4 k5 k6 k7 k9 k11 k12 k13 k14 k15 k16",
            "i6 i7 i9 i11 i12",
            "b7 c7 d7 e7 f7 g7 i7 k7 l7 m7 n7 o7 p7",
            "b11 c11 d11 e11 f11 g11 i11 k11 l11 m11 n11 o11 p11",
            "f9 g9 i9 k9 l9",
            "g2 h2 i2 j2 k2",
            "g6 h6 i6 j6 k6",
            "g16 h16 i16 j16 k16",
            "g12 h12 i12 j12 k12",
            "b7 b8 b9 b10 b11",
            "f7 f8 f9 f10 f11",
            "p7 p8 p9 p10 p11",
            "l7 l8 l9 l10 l11",
            "g2 g3 g4 g5 g6 f7 e7 d7 c7 b7",
            "k2 k3 k4 k5 k6 l7 m7 n7 o7 p7",
            "k16 k15 k14 k13 k12 l11 m11 n11 o11 p11",
            "g16 g15 g14 g13 g12 f11 e11 d11 c11 b11",
        ]
        .map(words),
    );
    assert_eq!(found, expected);
    assert_eq!(g.lines().len(), 18);
    // No other turn is straight: the only line through g6 and h6 is
    // rank 6, the only one through f7 and f8 is file f.
    let with = |a: &str, b: &str| -> Vec<Vec<String>> {
        let (a, b) = (post(&g, a), post(&g, b));
        g.lines()
            .iter()
            .filter(|l| l.contains(&a) && l.contains(&b))
            .map(|l| normal(words(&names(&g, l))))
            .collect()
    };
    assert_eq!(with("g6", "h6"), [normal(words("g6 h6 i6 j6 k6"))]);
    assert_eq!(with("f7", "f8"), [normal(words("f7 f8 f9 f10 f11"))]);
    assert!(with("g5", "h6").is_empty());
    // g6 lies on its file, its army's rank 6 and one arc.
    assert_eq!(g.lines_at(post(&g, "g6")).len(), 3);
    assert_eq!(g.lines_at(post(&g, "i9")).len(), 2);
    // The lines run only along railways, and cover every railway (S5
    // and S6 agree); each bend is an arc.
    let mut line_edges = BTreeSet::new();
    for l in g.lines() {
        for w in l.windows(2) {
            assert!(g.is_rail(w[0], w[1]), "{}-{}", g.name(w[0]), g.name(w[1]));
            line_edges.insert((w[0].min(w[1]), w[0].max(w[1])));
        }
        for w in l.windows(3) {
            let dir = |a: PostId, b: PostId| {
                let d = |x: u8, y: u8| (y as i8 - x as i8).signum();
                (d(g.file(a), g.file(b)), d(g.rank(a), g.rank(b)))
            };
            let (d1, d2) = (dir(w[0], w[1]), dir(w[1], w[2]));
            let diagonal = |d: (i8, i8)| d.0 != 0 && d.1 != 0;
            assert!(d1 == d2 || diagonal(d1) || diagonal(d2), "{}", names(&g, w));
        }
    }
    assert_eq!(line_edges, edges(&g, |p| g.rails(p).to_vec()));
}

#[test]
fn two_armies_match_the_board_module_post_by_post() {
    let g = BoardGraph::two_armies();
    let b = board::Graph::new();
    assert_eq!(g.len(), board::POSTS);
    assert_eq!(
        (g.files(), g.ranks(), g.armies()),
        (board::FILES, board::RANKS, 2)
    );
    let listed =
        |set: board::Posts| -> Vec<String> { board::posts(set).map(|q| q.to_string()).collect() };
    let mine =
        |list: &[PostId]| -> Vec<String> { list.iter().map(|&q| g.name(q).to_string()).collect() };
    for q in board::Post::all() {
        let p = g.at(q.file(), q.rank()).expect("the same square");
        assert_eq!(p.index(), q.index());
        assert_eq!(g.name(p), q.to_string());
        assert_eq!(g.kind(p), q.kind());
        assert_eq!(g.block(p), Block::Army(q.half().index() as u8));
        assert_eq!(mine(g.roads(p)), listed(b.roads[q.index()]), "roads of {q}");
        assert_eq!(mine(g.rails(p)), listed(b.rails[q.index()]), "rails of {q}");
        assert_eq!(g.on_rail(p), b.on_rail & q.bit() != 0);
    }
    let ours = line_set(g.lines().iter().map(|l| words(&names(&g, l))));
    let theirs = line_set(
        b.lines
            .iter()
            .map(|l| l.iter().map(|q| q.to_string()).collect()),
    );
    assert_eq!(ours, theirs);
}

#[test]
fn q13_two_army_own_frames_read_like_the_setup_text() {
    let g = BoardGraph::two_armies();
    for (army, side) in [(0u8, board::Side::Red), (1, board::Side::Blue)] {
        for i in 0..30 {
            let own = g
                .own_post(army, (i % 5) as u8, (i / 5) as u8 + 1)
                .expect("own post");
            assert_eq!(own.index(), crate::setup::setup_post(side, i).index());
        }
    }
    assert_eq!(g.army_letter(1), Some('b'));
}

#[test]
fn post_text_that_is_no_post_is_refused() {
    for g in [BoardGraph::two_armies(), BoardGraph::four_armies()] {
        for text in [
            "",
            "a",
            "a0",
            "a01",
            "a+1",
            "a-1",
            "A1",
            "é1",
            "a٣",
            "1a",
            "g6 ",
            " g6",
            "a999999999999",
            "r1",
            "z17",
            "a18",
        ] {
            assert_eq!(g.parse(text), None, "{text:?}");
        }
        assert!(g.post(g.len()).is_none());
        assert!(g.post(g.len() - 1).is_some());
    }
    assert_eq!(BoardGraph::two_armies().parse("f1"), None);
    assert!(BoardGraph::four_armies().parse("q11").is_some());
}
