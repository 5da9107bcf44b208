//! One test per decision of `shared/rules/junqi.md` that the rules crate
//! implements (Q1-Q2 and Q3/Q8 are also tested in the modules).

use qiyuan_junqi::board::posts;
use qiyuan_junqi::game::EndReason;
use qiyuan_junqi::text::parse_post;
use qiyuan_junqi::{Clash, Game, Position, Rules, Setup, SetupError, Side, Visibility};

fn post(s: &str) -> qiyuan_junqi::Post {
    parse_post(s).expect("a post")
}

/// A position with `pieces` (post, letter) and `turn` to move; both flags
/// tucked into the far corners' headquarters unless given.
fn position(pieces: &[(&str, char)], turn: char) -> Position {
    let mut rows = vec![vec!['.'; 5]; 12];
    let mut put = |p: &str, c: char| {
        let p = post(p);
        rows[12 - usize::from(p.rank())][usize::from(p.file())] = c;
    };
    if !pieces.iter().any(|&(_, c)| c == 'F') {
        put("b1", 'F');
    }
    if !pieces.iter().any(|&(_, c)| c == 'f') {
        put("d12", 'f');
    }
    for &(p, c) in pieces {
        put(p, c);
    }
    let board: Vec<String> = rows.iter().map(|r| r.iter().collect()).collect();
    Position::from_text(&format!("{} {turn} 0 1", board.join("/"))).expect("a position")
}

fn targets(p: &Position, from: &str) -> Vec<String> {
    let mut v: Vec<String> = posts(p.targets(post(from)))
        .map(|q| q.to_string())
        .collect();
    v.sort();
    v
}

fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

#[test]
fn q4_the_standard_set_up_is_legal_and_every_reason_is_named() {
    for side in [Side::Red, Side::Blue] {
        let s = Setup::standard(side);
        assert_eq!(Setup::parse(side, &s.to_string()), Ok(s));
    }
    // The flag out of headquarters, a mine forward, a bomb on the front row,
    // a piece in a camp and an empty post, all at once.
    let bad = "CMFMD\
               GMZLJ\
               SMP.T\
               PZ.GY\
               L.DGT\
               YZCP.";
    let errors = Setup::parse(Side::Red, bad).expect_err("illegal");
    let has = |f: &dyn Fn(&SetupError) -> bool| errors.iter().any(f);
    assert!(has(
        &|e| matches!(e, SetupError::FlagOutsideHeadquarters { post } if post.to_string() == "c1")
    ));
    assert!(has(
        &|e| matches!(e, SetupError::MineTooFarForward { post } if post.to_string() == "b3")
    ));
    assert!(has(
        &|e| matches!(e, SetupError::InCamp { post } if post.to_string() == "b3")
    ));
    assert!(has(
        &|e| matches!(e, SetupError::InCamp { post } if post.to_string() == "d5")
    ));
    assert!(has(
        &|e| matches!(e, SetupError::BombOnFrontRow { post } if post.to_string() == "b6")
    ));
    assert!(has(
        &|e| matches!(e, SetupError::Empty { post } if post.to_string() == "e6")
    ));
    assert!(has(&|e| matches!(
        e,
        SetupError::Count {
            letter: 'M',
            found: 4,
            ..
        }
    )));
    assert!(Setup::parse(Side::Red, "short").is_err());
    assert!(Setup::parse(Side::Blue, &"?".repeat(30)).is_err());
}

#[test]
fn q5_flag_mines_and_pieces_in_a_headquarters_never_move() {
    let p = position(&[("c3", 'M'), ("d1", 'S'), ("a3", 'P'), ("e12", 'p')], 'r');
    assert!(targets(&p, "b1").is_empty(), "the flag");
    assert!(targets(&p, "c3").is_empty(), "a mine");
    assert!(targets(&p, "d1").is_empty(), "a piece in a headquarters");
    // A piece that enters a headquarters stays there.
    let p = position(
        &[("b11", 'P'), ("d12", '.'), ("b12", 'f'), ("e1", 'p')],
        'r',
    );
    let mut g = Game::new(p, Rules::default(), Visibility::Open);
    g.play_text("b11c11").expect("a step");
    g.play_text("e1e2").expect("a step");
    g.play_text("c11d11").expect("a step");
    g.play_text("e2e3").expect("a step");
    g.play_text("d11d12").expect("into the empty headquarters");
    g.play_text("e3e4").expect("a step");
    assert!(targets(g.position(), "d12").is_empty());
}

#[test]
fn q6_railway_runs_are_straight_for_all_but_the_engineer() {
    let p = position(&[("a3", 'D'), ("e12", 'p')], 'r');
    // File a from rank 2 to 11, never turning onto rank 2 or rank 11; the
    // road steps a2, a4 and the empty camp b3.
    let mut want = vec!["a2", "b3"];
    let file_a: Vec<String> = (4..=11).map(|r| format!("a{r}")).collect();
    want.extend(file_a.iter().map(String::as_str));
    assert_eq!(targets(&p, "a3"), sorted(&want));
    // An engineer turns at will: every railway post, and its road steps.
    let p = position(&[("a3", 'G'), ("e12", 'p')], 'r');
    let t = targets(&p, "a3");
    assert!(
        t.contains(&"e11".to_string())
            && t.contains(&"c7".to_string())
            && t.contains(&"e2".to_string())
    );
    assert_eq!(t.len(), 31 + 1, "31 other railway posts and the camp b3");
    // A run stops before a piece and may end by attacking an enemy one.
    let p = position(&[("a3", 'D'), ("a8", 'p'), ("a5", '.'), ("e12", 'p')], 'r');
    let t = targets(&p, "a3");
    assert!(t.contains(&"a8".to_string()) && !t.contains(&"a9".to_string()));
    let p = position(&[("a3", 'D'), ("a8", 'P')], 'r');
    assert!(
        !targets(&p, "a3").contains(&"a8".to_string()),
        "not onto its own piece"
    );
    // From rank 6 a non-engineer does not turn at c6 onto the crossing.
    let p = position(&[("a6", 'D')], 'r');
    let t = targets(&p, "a6");
    assert!(t.contains(&"e6".to_string()) && !t.contains(&"c7".to_string()));
    // The crossing c6-c7 is one railway line.
    let p = position(&[("c6", 'D')], 'r');
    assert!(targets(&p, "c6").contains(&"c7".to_string()));
    // The mountains: no step from b6 to b7.
    let p = position(&[("b6", 'D')], 'r');
    assert!(!targets(&p, "b6").contains(&"b7".to_string()));
    // The engineer may not pass a piece on its path.
    let p = position(&[("a3", 'G'), ("a2", 'P'), ("a4", 'P'), ("b3", 'P')], 'r');
    assert!(targets(&p, "a3").is_empty());
}

#[test]
fn q7_camps_are_entered_only_empty_and_their_pieces_cannot_be_attacked() {
    let p = position(&[("b4", 'D'), ("c4", 'p'), ("b5", 'P'), ("a5", 'p')], 'r');
    let t = targets(&p, "b4");
    assert!(!t.contains(&"c4".to_string()), "an enemy in a camp is safe");
    assert!(!t.contains(&"b5".to_string()), "an own piece in a camp");
    // A piece in a camp attacks out of it.
    let p = position(&[("c4", 'D'), ("c5", 'p')], 'r');
    assert!(targets(&p, "c4").contains(&"c5".to_string()));
}

#[test]
fn q8_clashes_are_judged_by_the_referee() {
    let p = position(
        &[
            ("c5", 'S'),
            ("c6", 'j'),
            ("a5", 'G'),
            ("a6", 'm'),
            ("e5", 'D'),
            ("e6", 'z'),
            ("e11", 'p'),
        ],
        'r',
    );
    let mut g = Game::new(p, Rules::default(), Visibility::Open);
    assert_eq!(
        g.play_text("c5c6").expect("legal").clash,
        Some(Clash::AttackerWins)
    );
    assert!(g.play_text("d12e12").is_err(), "the flag never moves");
    g.play_text("e11e10").expect("legal");
    let swept = g.play_text("a5a6").expect("legal");
    assert_eq!(
        swept.clash,
        Some(Clash::AttackerWins),
        "an engineer sweeps a mine"
    );
    g.play_text("e10e11").expect("legal");
    assert_eq!(
        g.play_text("e5e6").expect("legal").clash,
        Some(Clash::BothRemoved),
        "a bomb"
    );
    assert_eq!(g.position().at(post("e6")), None);
    // Any other piece dies on a mine, which stays (the default setting).
    let p = position(&[("c5", 'S'), ("c6", 'm')], 'r');
    let mut g = Game::new(p, Rules::default(), Visibility::Open);
    assert_eq!(
        g.play_text("c5c6").expect("legal").clash,
        Some(Clash::DefenderWins)
    );
    assert!(g.position().at(post("c6")).is_some());
}

#[test]
fn q9_each_side_sees_its_own_ranks_and_a_fallen_commander_shows_the_flag() {
    let p = position(&[("c5", 'Z'), ("c6", 's'), ("a2", 'P'), ("e11", 'p')], 'r');
    let mut g = Game::new(p, Rules::default(), Visibility::Hidden);
    let red = g.view(Some(Side::Red));
    assert!(
        red.contains('Z') && !red.contains('s') && red.contains('x'),
        "{red}"
    );
    let blue = g.view(Some(Side::Blue));
    assert!(
        blue.contains('s') && !blue.contains('Z') && blue.contains('X'),
        "{blue}"
    );
    let spectator = g.view(None);
    assert!(
        !spectator
            .chars()
            .any(|c| c.is_ascii_alphabetic() && !"xXrb".contains(c)),
        "{spectator}"
    );
    // The bomb removes blue's commander: blue's flag is shown to everyone,
    // red and spectators alike, and to blue itself as before.
    g.play_text("c5c6").expect("legal");
    let red = g.view(Some(Side::Red));
    assert!(red.contains('f'), "{red}");
    let spectator = g.view(None);
    assert!(spectator.contains('f'), "{spectator}");
    assert!(g.view(Some(Side::Blue)).contains('f'));
    // Only the flag: blue's other ranks and red's flag stay hidden.
    assert!(!spectator.contains(['F', 'p']), "{spectator}");
    assert!(!red.contains('p'), "{red}");
    // An open game shows everything.
    let g = Game::new(
        position(&[("a2", 'P')], 'r'),
        Rules::default(),
        Visibility::Open,
    );
    assert!(g.view(Some(Side::Blue)).contains('P'));
}

#[test]
fn q11_the_flag_no_moves_and_the_quiet_limit_end_the_game() {
    let p = position(&[("d11", 'P'), ("a1", 'p')], 'r');
    let mut g = Game::new(p, Rules::default(), Visibility::Open);
    g.play_text("d11d12").expect("legal");
    let r = g.result().expect("over");
    assert_eq!(
        (r.winner, r.reason),
        (Some(Side::Red), EndReason::FlagTaken)
    );
    assert!(r.explanation().contains("flag"));
    // Blue has only its flag and a mine: no movable piece on its turn.
    let p = position(&[("a2", 'P'), ("e11", 'm')], 'b');
    let g = Game::new(p, Rules::default(), Visibility::Open);
    assert_eq!(
        g.result().map(|r| (r.winner, r.reason)),
        Some((Some(Side::Red), EndReason::NoMoves))
    );
    // Sixty plies without a clash draw.
    let p = position(&[("a2", 'P'), ("e11", 'p')], 'r');
    let mut g = Game::new(p, Rules::default(), Visibility::Open);
    let shuffle = ["a2a3", "e11e10", "a3a2", "e10e11"];
    for i in 0..60 {
        g.play_text(shuffle[i % 4]).expect("legal");
    }
    assert_eq!(
        g.result().map(|r| (r.winner, r.reason)),
        Some((None, EndReason::QuietLimit))
    );
}

#[test]
fn q13_texts_name_posts_and_moves_as_the_rules_fix_them() {
    let p = Position::standard();
    let text = p.to_string();
    let ranks: Vec<&str> = text.split(' ').next().unwrap_or("").split('/').collect();
    assert_eq!(ranks.len(), 12);
    assert_eq!(ranks[11], "CFMMD", "rank 1, files a-e: red's back rank");
    assert_eq!(
        ranks[0], "cfmmd",
        "blue's back rank, files a-e as red sees them"
    );
    assert!(p.legal_moves().iter().all(|m| m.to_string().len() >= 4));
}

#[test]
fn q10_face_down_pieces_neither_move_nor_can_be_attacked_and_a_flip_gives_colours() {
    use qiyuan_junqi::{Piece, Rank};
    // Fifty pieces face down, in post order: red's army then blue's.
    let pieces: Vec<Piece> = [Side::Red, Side::Blue]
        .into_iter()
        .flat_map(|side| {
            Rank::ALL.into_iter().flat_map(move |rank| {
                std::iter::repeat_n(Piece { side, rank }, usize::from(rank.count()))
            })
        })
        .collect();
    let p = Position::face_down_layout(&pieces).expect("fifty pieces");
    assert_eq!(p.legal_moves().len(), 50, "only flips before the first one");
    assert!(p.legal_moves().iter().all(|m| m.from == m.to));
    let mut g = Game::new(p, Rules::default(), Visibility::Open);
    // The first flip turns a blue piece over: the flipper plays blue, red moves next.
    let blue_post = posts(g.position().face_down())
        .find(|&q| g.position().at(q).is_some_and(|x| x.side == Side::Blue))
        .expect("a blue piece");
    g.play(qiyuan_junqi::Move {
        from: blue_post,
        to: blue_post,
    })
    .expect("a flip");
    assert_eq!(g.position().turn(), Side::Red);
    assert!(g.view(None).contains('?'));
    // No move may attack a face-down piece or move one.
    for m in g.legal() {
        if m.from != m.to {
            assert_eq!(
                g.position().face_down() & (m.from.bit() | m.to.bit()),
                0,
                "{m}"
            );
        }
    }
    assert!(Position::face_down_layout(&pieces[..10]).is_none());
}
