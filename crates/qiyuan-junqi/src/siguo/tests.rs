//! S1-S15, each test named after the decision it checks; perft from small
//! hand-counted positions; the two-army board against the two-player
//! generator; and the four-army generator against a second one written
//! here from the text of S3-S6 alone (`reference`).

use super::cli::count;
use super::game::{Ending, Event, Game, Mode, PlayError};
use super::text::parse_move;
use super::*;
use crate::piece::Clash;
use crate::setup::Setup;
use std::collections::BTreeSet;

mod reference;

fn pos(text: &str) -> Position {
    Position::from_text(four_armies(), text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn mv(text: &str) -> Move {
    parse_move(four_armies(), text).unwrap_or_else(|e| panic!("{e}"))
}

fn move_set(p: &Position) -> BTreeSet<String> {
    p.legal_moves()
        .into_iter()
        .map(|m| p.move_text(m))
        .collect()
}

fn targets(p: &Position, from: &str) -> BTreeSet<String> {
    let g = four_armies();
    p.targets(g.parse(from).unwrap_or_else(|| panic!("{from}")))
        .iter()
        .map(|q| g.name(q).to_string())
        .collect()
}

fn set(words: &str) -> BTreeSet<String> {
    words.split_whitespace().map(str::to_string).collect()
}

/// A small generator for tests: xorshift.
fn rng(seed: u64) -> impl FnMut(u32) -> u32 {
    let mut s = seed.max(1);
    move |n| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s % u64::from(n.max(1))) as u32
    }
}

fn random_start(seed: u64) -> Position {
    let mut draw = rng(seed);
    let setups: Vec<Setup> = (0..4)
        .map(|_| Setup::random(crate::board::Side::Red, &mut draw))
        .collect();
    Position::from_setups(four_armies(), &setups).expect("four set-ups")
}

/// Flags in a headquarters of each army and one piece each on a road-only
/// post (own c1), so every army has two moves; South's 司令 in the centre.
const SMALL: &str = "sSi9,sFh1,sPi1,eFq8,ePq9,nFj17,nPi17,wFa10,wPa9 s - 0 1";

#[test]
fn s1_turns_go_counterclockwise_and_allies_sit_opposite() {
    let mut p = pos(SMALL);
    assert_eq!(p.turn(), 0);
    let r = Rules::default();
    let mut order = Vec::new();
    for m in ["i9i7", "q9p9", "i17i16", "a9b9"] {
        order.push(four_armies().army_letter(p.turn()).unwrap());
        p.make(mv(m), r);
    }
    assert_eq!(order, ['s', 'e', 'n', 'w']);
    assert_eq!(p.turn(), 0);
    // The room setting: clockwise s w n e.
    let mut p = pos(SMALL);
    let cw = Rules {
        clockwise: true,
        ..r
    };
    let mut order = Vec::new();
    for m in ["i9i7", "a9b9", "i17i16", "q9p9"] {
        order.push(four_armies().army_letter(p.turn()).unwrap());
        p.make(mv(m), cw);
    }
    assert_eq!(order, ['s', 'w', 'n', 'e']);
    assert_eq!((team_of(0), team_of(2)), (0, 0));
    assert_eq!((team_of(1), team_of(3)), (1, 1));
    assert!(Position::enemies(0, 1) && !Position::enemies(1, 3));
}

#[test]
fn s2_an_army_that_is_out_is_skipped_and_its_ally_plays_on() {
    let mut p = pos("sSi9,sFh1,eFq8,ePq9,nFj17,nPi17,wFa10,wPa9 s - 0 1");
    let r = Rules::default();
    let out = p.put_out(0, OutReason::Surrender, r);
    assert_eq!(out, vec![(0, OutReason::Surrender)]);
    assert_eq!(p.turn(), 1);
    p.make(mv("q9p9"), r);
    assert_eq!(p.turn(), 2);
    p.make(mv("i17i16"), r);
    p.make(mv("a9b9"), r);
    // South is skipped: East moves again.
    assert_eq!(p.turn(), 1);
    assert_eq!(p.to_string().split(' ').nth(2), Some("s"));
}

#[test]
fn s3_s4_set_ups_land_in_each_army_s_own_frame() {
    let p = Position::standard(four_armies());
    let g = four_armies();
    let standard = Setup::standard(crate::board::Side::Red);
    for army in 0..4u8 {
        for (post, rank) in standard.pieces() {
            let own = g
                .own_post(army, post.file(), post.rank())
                .expect("own post");
            assert_eq!(p.at(own), Some(Unit { army, rank }));
        }
        assert_eq!(p.occupied_by(army).len(), 25);
    }
    // S4's worked example: West's headquarters a10 and a8, South's h1 j1.
    for (army, hq) in [
        (0, ["h1", "j1"]),
        (3, ["a10", "a8"]),
        (1, ["q8", "q10"]),
        (2, ["j17", "h17"]),
    ] {
        for (i, name) in hq.iter().enumerate() {
            let own = g.own_post(army, 1 + 2 * i as u8, 1).expect("hq");
            assert_eq!(g.name(own), *name);
        }
    }
}

#[test]
fn s5_no_road_crosses_between_armies_the_links_are_railways() {
    // A 排长 on South's front g6 reaches the centre only by rail (file g),
    // and the arc to f7, but never steps onto a road of West's block.
    let p = pos("sPg6,sFh1,eFq8,nFj17,wFa10 s - 0 1");
    assert_eq!(
        targets(&p, "g6"),
        set("g5 g4 g3 g2 h5 h6 i6 j6 k6 g7 g9 g11 g12 g13 g14 g15 g16 f7 e7 d7 c7 b7")
    );
}

#[test]
fn s6_straight_lines_follow_the_arcs_but_never_turn_a_corner() {
    let p = pos("sLg4,sFh1,eFq8,nFj17,wFa10 s - 0 1");
    let t = targets(&p, "g4");
    // Along file g both ways, on through the centre to North's block and
    // round the arc onto rank 7.
    for q in ["g2", "g3", "g5", "g6", "g7", "g9", "g16", "f7", "b7"] {
        assert!(t.contains(q), "{q} from g4: {t:?}");
    }
    // Never onto rank 6 at g6, nor onto file f at f7, nor onto rank 2.
    for q in ["h6", "f8", "f11", "h2"] {
        assert!(!t.contains(q), "{q} from g4: {t:?}");
    }
    // Road steps: h4, and the camps h3 and h5 on the diagonals.
    assert!(t.contains("h4") && t.contains("h5") && t.contains("h3"));
    // The engineer turns anywhere.
    let p = pos("sGg4,sFh1,eFq8,nFj17,wFa10 s - 0 1");
    let t = targets(&p, "g4");
    for q in ["h6", "f8", "f11", "h2", "p11", "k16"] {
        assert!(t.contains(q), "engineer {q}: {t:?}");
    }
}

#[test]
fn s6_an_engineer_alone_reaches_every_railway_post() {
    // 16 railway posts in each block and 9 in the centre: 73; from g2 the
    // other 72, and the road steps g1 and the camp h3.
    let p = pos("sGg2,sFh1,eFq8,nFj17,wFa10 s - 0 1");
    assert_eq!(targets(&p, "g2").len(), 74);
}

#[test]
fn s7_allies_are_never_attacked_passed_or_landed_on() {
    // South's 司令 in the centre; North's 排长 on i11 above it, East's on k9.
    let p = pos("sSi9,sFh1,nPi11,nFj17,ePk9,eFq8,wFa10 s - 0 1");
    assert_eq!(targets(&p, "i9"), set("i7 i6 g9 f9 k9"));
    // An engineer's path stops at an ally too.
    let p = pos("sGg6,sFh1,nPg7,nFj17,eFq8,wFa10 s - 0 1");
    let t = targets(&p, "g6");
    assert!(!t.contains("g7"), "{t:?}");
    // ... but goes round it through West's front to the centre.
    assert!(t.contains("g9"), "{t:?}");
    // An ally's headquarters is entered like any: the piece stays there.
    let mut p = pos("sPj16,sFh1,nFh17,nPi17,eFq8,ePq9,wFa10,wPa9 s - 0 1");
    assert!(targets(&p, "j16").contains("j17"));
    p.make(mv("j16j17"), Rules::default());
    let j17 = four_armies().parse("j17").unwrap();
    assert_eq!(
        p.at(j17),
        Some(Unit {
            army: 0,
            rank: crate::piece::Rank::Platoon
        })
    );
    assert!(p.targets_of(j17).is_empty());
}

#[test]
fn s7_a_flag_taken_puts_its_army_out_and_a_bomb_goes_with_it() {
    let r = Rules::default();
    // East's flag on q8 (a headquarters) next to South's 工兵 on q7? Posts:
    // East's own a1 is q7, a road step from q8.
    let mut p = pos("sGq7,sFh1,nFj17,nPi17,eFq8,ePq9,wFa10,wPa9 s - 0 1");
    let played = p.make(mv("q7q8"), r);
    assert_eq!(played.clash, Some(Clash::FlagTaken));
    assert_eq!(played.out, vec![(1, OutReason::FlagTaken)]);
    assert!(p.is_out(1) && p.occupied_by(1).is_empty());
    assert_eq!(
        p.at(four_armies().parse("q8").unwrap()).map(|u| u.army),
        Some(0)
    );
    // East is skipped: North moves next.
    assert_eq!(p.turn(), 2);
    let mut p = pos("sZq7,sFh1,nFj17,nPi17,eFq8,ePq9,wFa10,wPa9 s - 0 1");
    p.make(mv("q7q8"), r);
    assert_eq!(p.at(four_armies().parse("q8").unwrap()), None);
    assert!(p.is_out(1));
}

#[test]
fn s8_a_fallen_commander_shows_the_flag_to_all() {
    let start = pos("sSi9,sFh1,sPi1,eSk9,eFq8,ePq9,nFj17,nPi17,wFa10,wPa9 s - 0 1");
    let mut g = Game::new(start, Rules::default(), Mode::Dark);
    assert!(!g.view(Some(2)).contains("eFq8"));
    g.play(mv("i9k9")).expect("legal");
    // Both 司令 removed: both flags shown to everyone, spectators too.
    for viewer in [None, Some(0), Some(1), Some(3)] {
        let v = g.view(viewer);
        assert!(v.contains("eFq8") && v.contains("sFh1"), "{viewer:?}: {v}");
    }
    assert!(!g.view(None).contains("ePq9"));
}

#[test]
fn s9_each_mode_shows_what_it_says() {
    let start = pos("sSi9,sFh1,eFq8,ePq9,nFj17,nPi17,wFa10,wPa9 s - 0 1");
    let dark = Game::new(start.clone(), Rules::default(), Mode::Dark);
    let v = dark.view(Some(0));
    assert!(
        v.contains("sSi9") && v.contains("nXi17") && v.contains("eXq9"),
        "{v}"
    );
    let spectator = dark.view(None);
    assert!(
        spectator.contains("sXi9") && !spectator.contains("sS"),
        "{spectator}"
    );
    let allies = Game::new(start.clone(), Rules::default(), Mode::Allies);
    let v = allies.view(Some(0));
    assert!(v.contains("nPi17") && v.contains("eXq9"), "{v}");
    let v = allies.view(None);
    assert!(v.contains("nXi17"), "{v}");
    let open = Game::new(start, Rules::default(), Mode::Open);
    assert!(open.view(None).contains("ePq9"));
    // The path of a move is shown: a 司令's straight line.
    let mut g = dark;
    let played = g.play(mv("i9i12")).expect("legal").clone();
    let names: Vec<&str> = played.path.iter().map(|&p| four_armies().name(p)).collect();
    assert_eq!(names, ["i9", "i11", "i12"]);
}

#[test]
fn s10_an_army_with_no_move_on_its_turn_goes_out_and_pieces_leave() {
    let r = Rules::default();
    // North has only its flag: after East moves, North is put out and
    // West moves.
    let mut p = pos("sSi9,sFh1,eFq8,ePq9,nFj17,nMi17,wFa10,wPa9 e - 0 1");
    let played = p.make(mv("q9p9"), r);
    assert_eq!(played.out, vec![(2, OutReason::NoMoves)]);
    assert_eq!(p.turn(), 3);
    assert!(p.occupied_by(2).is_empty());
}

#[test]
fn s10_surrender_from_the_twentieth_move_and_five_lost_turns() {
    let start = pos(SMALL);
    let mut g = Game::new(start, Rules::default(), Mode::Dark);
    assert!(matches!(
        g.surrender(0),
        Err(PlayError::TooEarly { made: 0 })
    ));
    for _ in 0..4 {
        g.lose_turn().expect("playing");
    }
    assert_eq!(g.position().turn(), 0, "four lost turns: a full round");
    // South loses four turns in the next rounds; the fifth puts it out.
    for round in 0..4 {
        assert_eq!(g.position().turn(), 0);
        g.lose_turn().expect("playing");
        if round < 3 {
            for _ in 0..3 {
                g.lose_turn().expect("playing");
            }
        }
    }
    assert_eq!(g.timeouts(0), 5);
    assert!(g.position().is_out(0));
    assert!(matches!(
        g.events().last(),
        Some(Event::TurnLost { army: 0, out }) if out[0] == (0, OutReason::Timeout)
    ));
    // Surrender is open once an army has made 19 moves.
    let mut g = Game::new(pos(SMALL), Rules::default(), Mode::Dark);
    for i in 0..19 {
        let round = if i % 2 == 0 {
            ["i9i7", "q9p9", "i17i16", "a9b9"]
        } else {
            ["i7i9", "p9q9", "i16i17", "b9a9"]
        };
        for m in round {
            g.play(mv(m)).expect("legal");
        }
    }
    assert_eq!(g.moves_made(0), 19);
    g.surrender(0).expect("open");
    assert!(g.position().is_out(0));
}

#[test]
fn s11_a_team_wins_when_both_enemies_are_out_and_120_quiet_plies_draw() {
    let r = Rules::default();
    let mut g = Game::new(pos(SMALL), r, Mode::Dark);
    // East surrenders early: refused; so it runs out of time five times.
    let mut guard = 0;
    while !g.position().is_out(1) && guard < 100 {
        guard += 1;
        let turn = g.position().turn();
        if turn == 1 {
            g.lose_turn().expect("e");
        } else {
            let m = to_and_fro(&g);
            g.play(m).expect("legal");
        }
    }
    assert!(g.position().is_out(1));
    assert_eq!(g.ending(), None, "West plays on");
    // West goes the same way: South and North win.
    while g.ending().is_none() && guard < 300 {
        guard += 1;
        if g.position().turn() == 3 {
            g.lose_turn().expect("w");
        } else {
            let m = to_and_fro(&g);
            g.play(m).expect("legal");
        }
    }
    assert_eq!(
        g.ending(),
        Some(Ending::Won {
            team: 0,
            why: OutReason::Timeout
        })
    );
    assert_eq!(
        g.ending().unwrap().line(&['s', 'e', 'n', 'w']),
        "result sn timeout"
    );
    // The draw: decided right after the 120th quiet ply.
    let mut p = pos("sSi9,sFh1,sPi1,eFq8,ePq9,nFj17,nPi17,wFa10,wPa9 s - 119 30");
    p.make(mv("i9i7"), r);
    assert_eq!(p.verdict(r), Verdict::Drawn);
    let p = pos("sSi9,sFh1,sPi1,eFq8,ePq9,nFj17,nPi17,wFa10,wPa9 s - 118 30");
    assert_eq!(p.after(mv("i9i7"), r).verdict(r), Verdict::Playing);
}

/// South, North and West step back and forth without meeting anyone.
fn to_and_fro(g: &Game) -> Move {
    let pairs = [("i9", "i7"), ("", ""), ("i17", "i16"), ("a9", "b9")];
    let (a, b) = pairs[g.position().turn() as usize];
    let board = four_armies();
    let here = |s: &str| g.position().at(board.parse(s).expect("post")).is_some();
    if here(a) {
        mv(&format!("{a}{b}"))
    } else {
        mv(&format!("{b}{a}"))
    }
}

#[test]
fn s12_a_lost_turn_passes_the_move_and_is_no_ply() {
    let mut g = Game::new(pos(SMALL), Rules::default(), Mode::Dark);
    g.lose_turn().expect("s");
    assert_eq!(g.position().turn(), 1);
    assert_eq!(g.plies(), 0);
    assert_eq!(g.position().quiet_plies(), 0);
    assert_eq!(g.timeouts(0), 1);
}

#[test]
fn s14_moves_are_two_posts() {
    let g = four_armies();
    let m = mv("g2g16");
    assert_eq!((g.name(m.from), g.name(m.to)), ("g2", "g16"));
    let m = mv("l11k11");
    assert_eq!((g.name(m.from), g.name(m.to)), ("l11", "k11"));
    for bad in [
        "", "g2", "g2g", "a1a2", "g02g3", "G2G3", "g2g3g4", "h7i7", "z1z2",
    ] {
        assert!(parse_move(g, bad).is_err(), "{bad}");
    }
}

#[test]
fn s15_position_text_round_trips_and_counts_moves_from_west() {
    let p = Position::standard(four_armies());
    let text = p.to_string();
    assert!(text.ends_with(" s - 0 1"), "{text}");
    assert_eq!(Position::from_text(four_armies(), &text), Ok(p.clone()));
    // Tokens in any order.
    let shuffled = "wPa9,sFh1,eFq8,sSi9,sPi1,ePq9,nFj17,nPi17,wFa10 s - 0 1";
    assert_eq!(pos(shuffled), pos(SMALL));
    // The move number goes up when the turn leaves West, also when West
    // is out and skipped.
    let r = Rules::default();
    let mut p = pos(SMALL);
    for m in ["i9i7", "q9p9", "i17i16", "a9b9"] {
        assert_eq!(p.move_number(), 1);
        p.make(mv(m), r);
    }
    assert_eq!(p.move_number(), 2);
    let mut p = pos("sSi9,sFh1,eFq8,ePq9,nFj17,nPi17 n w 3 7");
    p.make(mv("i17i16"), r);
    assert_eq!(p.to_string(), "sFh1,eFq8,sSi9,ePq9,nPi16,nFj17 s w 4 8");
    // What is refused.
    for bad in [
        "",
        "sSi9 s - 0",
        "sSi9,sSi7 s - 0 1",
        "sSi9,sSi9 s - 0 1",
        "sXi9 s - 0 1",
        "xSi9 s - 0 1",
        "sSh7 s - 0 1",
        "sSi9 e e 0 1",
        "sSi9,eFq8 s e 0 1",
        "sSi9 s ne 0 1",
        "sSi9 s - -1 1",
        "sSi9 s - 0 0",
        "sSi9 s - 0 +1",
        "ssi9 s - 0 1",
    ] {
        assert!(Position::from_text(four_armies(), bad).is_err(), "{bad}");
    }
    // A finished game's text reads back, with no moves.
    let over = pos("sSi9,sFh1 e ew 0 5");
    assert!(over.legal_moves().is_empty());
    assert_eq!(count(&over, 1, r), 0);
}

#[test]
fn perft_of_small_positions_counted_by_hand() {
    let r = Rules::default();
    // South's 司令 on i9: i7 i6 i11 i12 g9 f9 k9 l9; everyone else two
    // road steps from own c1, which South never reaches in one move.
    let p = pos("sSi9,sFh1,eFq8,ePq9,nFj17,nPi17,wFa10,wPa9 s - 0 1");
    assert_eq!(count(&p, 1, r), 8);
    assert_eq!(count(&p, 2, r), 16);
    assert_eq!(count(&p, 3, r), 32);
    // A lone flag: South has no move at all.
    assert_eq!(count(&pos("sFh1,eFq8,ePq9 s - 0 1"), 1, r), 0);
    // Without anything to move, the others go out in turn after South's
    // move and South's team wins: nothing below.
    let p = pos("sSi9,sFh1,eFq8,nFj17,wFa10 s - 0 1");
    assert_eq!(count(&p, 1, r), 8);
    assert_eq!(count(&p, 2, r), 0);
}

#[test]
fn the_standard_start_is_the_same_for_every_army() {
    // The board turns onto itself a quarter at a time, so every army has
    // as many moves from the same set-up.
    let p = Position::standard(four_armies());
    let counts: Vec<usize> = (0..4).map(|a| p.moves_of(a).len()).collect();
    assert!(
        counts[0] > 0 && counts.iter().all(|&n| n == counts[0]),
        "{counts:?}"
    );
    assert_eq!(move_set(&p).len(), counts[0]);
}

#[test]
fn two_armies_on_the_graph_agree_with_the_two_player_generator() {
    use crate::position::{Position as Old, Rules as OldRules};
    let r = Rules {
        quiet_limit: 0,
        ..Rules::default()
    };
    for seed in 1..=12u64 {
        let mut draw = rng(seed * 7919);
        let red = Setup::random(crate::board::Side::Red, &mut draw);
        let blue = Setup::random(crate::board::Side::Blue, &mut draw);
        let mut old = Old::from_setups(&red, &blue);
        let mut new = Position::empty(two_armies());
        for p in crate::board::Post::all() {
            if let Some(x) = old.at(p) {
                let id = two_armies().post(p.index()).expect("same ids");
                new.put(
                    id,
                    Some(Unit {
                        army: x.side.index() as u8,
                        rank: x.rank,
                    }),
                );
            }
        }
        for ply in 0..300 {
            let olds: BTreeSet<String> = old.legal_moves().iter().map(|m| m.to_string()).collect();
            let news = move_set(&new);
            assert_eq!(olds, news, "seed {seed} ply {ply}: {old}");
            if olds.is_empty() || !old.has_flag(old.turn()) || new.verdict(r) != Verdict::Playing {
                break;
            }
            let moves = old.legal_moves();
            let m = moves[draw(moves.len() as u32) as usize];
            let played = old.make(m, OldRules::default());
            let p2 = new.make(mv2(&m.to_string()), r);
            assert_eq!(played.clash, p2.clash);
            if played.clash == Some(Clash::FlagTaken) {
                break;
            }
        }
    }
    assert_eq!(
        count(&Position::standard(two_armies()), 3, Rules::default()),
        crate::perft::perft(&Old::standard(), 3, OldRules::default())
    );
}

fn mv2(text: &str) -> Move {
    parse_move(two_armies(), text).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn four_armies_agree_with_the_reference_generator_over_random_games() {
    let r = Rules::default();
    let mut positions = 0;
    for seed in 1..=10u64 {
        let mut p = random_start(seed * 104_729);
        let mut draw = rng(seed);
        for _ in 0..400 {
            let ours = move_set(&p);
            let theirs = reference::moves(&p);
            assert_eq!(ours, theirs, "seed {seed}: {p}");
            positions += 1;
            if ours.is_empty() || p.verdict(r) != Verdict::Playing {
                break;
            }
            let moves = p.legal_moves();
            p.make(moves[draw(moves.len() as u32) as usize], r);
        }
    }
    assert!(positions > 1000, "{positions}");
}

proptest::proptest! {
    #[test]
    fn no_position_or_move_text_panics(s in "\\PC{0,200}") {
        let _ = Position::from_text(four_armies(), &s);
        let _ = parse_move(four_armies(), &s);
    }

    #[test]
    fn edited_position_texts_never_panic(cut in 0usize..400, c in proptest::char::any()) {
        let text = Position::standard(four_armies()).to_string();
        let mut chars: Vec<char> = text.chars().collect();
        let at = cut % chars.len();
        chars[at] = c;
        let edited: String = chars.into_iter().collect();
        if let Ok(p) = Position::from_text(four_armies(), &edited) {
            let _ = count(&p, 1, Rules::default());
            proptest::prop_assert_eq!(Position::from_text(four_armies(), &p.to_string()), Ok(p));
        }
    }
}
