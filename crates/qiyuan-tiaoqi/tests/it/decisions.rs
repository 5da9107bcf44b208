//! One test per decision of `shared/rules/tiaoqi.md` not covered by the
//! geometry (T1-T3, T9 distances, T11), text (T13) and movegen (T4-T6)
//! tests: T7, T8, T9, T10, T12, T14.

use crate::common;

use crate::common::{camp_less, setup, text_of};
use qiyuan_tiaoqi::{EndKind, Game, Move, Position, Score, Seat};

fn play(g: &mut Game, moves: &[&str]) {
    for m in moves {
        g.play_text(m)
            .unwrap_or_else(|e| panic!("{m}: {e} in {}", g.position()));
    }
}

fn refs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn t7_third_repetition_is_the_last_allowed() {
    let mut g = Game::start_of(setup(2, 10), false);
    play(&mut g, &["4.1-5.5", "pass", "5.5-4.1", "pass"]);
    assert_eq!(g.position().repetitions(Seat::A), 1);
    play(&mut g, &["4.1-5.5", "pass", "5.5-4.1", "pass"]);
    assert_eq!(g.position().repetitions(Seat::A), 3);
    // The fourth return is refused, in the list and as text; others stay.
    let texts = g.position().legal_move_texts();
    assert!(!texts.iter().any(|t| t == "4.1-5.5"), "{texts:?}");
    assert!(texts.iter().any(|t| t == "4.1-5.6"));
    let e = g.play_text("4.1-5.5").expect_err("T7");
    assert!(e.to_string().contains("T7"), "{e}");
    // Any other piece's back-and-forth is also barred once used up.
    play(&mut g, &["4.2-5.7", "pass"]);
    assert!(g.play_text("5.7-4.2").is_err());
    // d has its own count.
    assert_eq!(g.position().repetitions(Seat::D), 0);
}

#[test]
fn t7_a_pass_breaks_the_pattern() {
    let mut g = Game::start_of(setup(2, 10), false);
    play(&mut g, &["4.1-5.5", "pass", "pass", "pass", "5.5-4.1"]);
    assert_eq!(g.position().repetitions(Seat::A), 0);
}

fn near_finish_2p(stayer: bool) -> Position {
    // a fills d's camp but for 14.1; its tenth piece is on 13.5, next to it.
    // With `stayer`, d never left its tip 17.1 and a holds the rest.
    let mut a = camp_less(Seat::D, &["14.1"]);
    if stayer {
        a.retain(|c| c != "17.1");
        a.push("9.5".into());
    }
    a.push("13.5".into());
    let mut d: Vec<String> = (2..=9).map(|c| format!("8.{c}")).collect();
    d.push("9.1".into());
    d.push(if stayer { "17.1" } else { "9.2" }.into());
    let t = text_of(&[('a', &refs(&a)), ('d', &refs(&d))], 'a', "ad");
    Position::from_text(setup(2, 10), &t).unwrap_or_else(|e| panic!("{t}: {e}"))
}

#[test]
fn t8_filling_the_target_wins() {
    let mut g = Game::new(near_finish_2p(false), false);
    assert!(g.result().is_none());
    play(&mut g, &["13.5-14.1"]);
    let r = g.result().expect("a has filled d's camp");
    assert_eq!((r.kind, r.winner()), (EndKind::Finished, Some(Seat::A)));
    assert_eq!(r.scores, [(Seat::A, Score::WIN), (Seat::D, Score::LOSS)]);
    assert!(g.play_text("pass").is_err(), "over");
}

#[test]
fn t8_a_stayer_does_not_stop_the_win() {
    let mut g = Game::new(near_finish_2p(true), false);
    assert!(g.result().is_none());
    play(&mut g, &["13.5-14.1"]);
    assert_eq!(g.result().and_then(|r| r.winner()), Some(Seat::A));
}

#[test]
fn t8_nobody_wins_at_the_start() {
    // Every target is full at the start, of the opposite camp's pieces only.
    for (pl, pc) in common::SEATINGS {
        assert!(Game::start_of(setup(pl, pc), false).result().is_none());
    }
}

/// 2 players in the hexagon, both 92 rows to go, rearmost pieces on 5.7 (a)
/// and 13.7 (d).
fn dead_position() -> Game {
    let a = [
        "5.7", "8.2", "8.3", "8.4", "8.5", "8.6", "8.7", "8.8", "8.9", "9.5",
    ];
    let d = [
        "13.7", "10.2", "10.3", "10.4", "10.5", "10.6", "10.7", "10.8", "10.9", "9.3",
    ];
    let g = Game::from_text(
        setup(2, 10),
        &text_of(&[('a', &a), ('d', &d)], 'a', "ad"),
        false,
    )
    .expect("position");
    assert_eq!(g.position().total_distance(Seat::A), 12 + 8 * 9 + 8);
    assert_eq!(g.position().total_distance(Seat::D), 92);
    g
}

#[test]
fn t9_ten_rounds_without_progress_declare_a_dead_game() {
    let mut g = dead_position();
    for _ in 0..19 {
        play(&mut g, &["pass"]);
    }
    assert!(!g.is_dead_game());
    assert_eq!(g.moves_without_progress(), 19);
    // Progress resets the count …
    let mut h = g.clone();
    play(&mut h, &["13.7-12.7"]);
    assert_eq!(h.moves_without_progress(), 0);
    // … a 20th move without it (10 rounds of 2) declares the dead game.
    play(&mut g, &["pass"]);
    assert!(g.is_dead_game());
    // Both move the rearmost piece forward; a did it first, so a is half a
    // row ahead at 91 − ½ against 91: 0.75 and 0.25.
    play(&mut g, &["5.7-6.7", "13.7-12.7"]);
    let r = g.result().expect("dead game over");
    assert_eq!(r.kind, EndKind::DeadGame);
    assert_eq!(
        r.scores,
        [(Seat::A, Score::AHEAD), (Seat::D, Score::BEHIND)]
    );
    assert_eq!(r.places, [(Seat::A, 1), (Seat::D, 2)]);
    assert_eq!(Score::AHEAD.to_string(), "0.75");
    assert_eq!(Score::BEHIND.to_string(), "0.25");
}

#[test]
fn t9_not_moving_the_rearmost_piece_in_five_moves_loses() {
    let mut g = dead_position();
    for _ in 0..20 {
        play(&mut g, &["pass"]);
    }
    assert!(g.is_dead_game());
    // a passes or moves other pieces five times; d complies at once.
    play(
        &mut g,
        &[
            "pass",
            "13.7-12.7",
            "9.5-9.6",
            "pass",
            "pass",
            "pass",
            "pass",
            "pass",
        ],
    );
    assert!(g.result().is_none(), "a has one move left");
    play(&mut g, &["pass"]);
    let r = g.result().expect("over");
    assert_eq!(r.scores, [(Seat::A, Score::LOSS), (Seat::D, Score::WIN)]);
    // Moving a piece that is not the rearmost forward does not count.
    let mut h = dead_position();
    for _ in 0..20 {
        play(&mut h, &["pass"]);
    }
    assert!(
        !h.position()
            .moves_rearmost_forward(h.position().parse_move("9.5-9.6").expect("step"))
    );
    assert!(
        h.position()
            .moves_rearmost_forward(h.position().parse_move("5.7-6.6").expect("step"))
    );
    assert!(!h.position().moves_rearmost_forward(Move::Pass));
}

/// 3 players: a one step from filling d's camp, c one step from filling
/// f's, e at home.
fn near_finish_3p() -> Position {
    let mut a = camp_less(Seat::D, &["14.1"]);
    a.push("13.5".into());
    let mut c = camp_less(Seat::F, &["5.10"]);
    c.push("5.9".into());
    let e = camp_less(Seat::E, &[]);
    let t = text_of(
        &[('a', &refs(&a)), ('c', &refs(&c)), ('e', &refs(&e))],
        'a',
        "ace",
    );
    Position::from_text(setup(3, 10), &t).unwrap_or_else(|err| panic!("{t}: {err}"))
}

#[test]
fn t10_first_to_finish_wins_and_the_rest_score_zero() {
    let mut g = Game::new(near_finish_3p(), false);
    play(&mut g, &["13.5-14.1"]);
    let r = g.result().expect("over at the first finish");
    assert_eq!(
        r.scores,
        [
            (Seat::A, Score::WIN),
            (Seat::C, Score::LOSS),
            (Seat::E, Score::LOSS)
        ]
    );
    assert_eq!(r.places, [(Seat::A, 1), (Seat::C, 2), (Seat::E, 2)]);
}

#[test]
fn t10_ranking_the_rest_plays_on() {
    let mut g = Game::new(near_finish_3p(), true);
    play(&mut g, &["13.5-14.1"]);
    assert!(g.result().is_none(), "ranking goes on");
    assert!(
        g.position().to_string().ends_with(" c ce"),
        "{}",
        g.position()
    );
    play(&mut g, &["5.9-5.10"]);
    let r = g.result().expect("one left");
    assert_eq!(r.places, [(Seat::A, 1), (Seat::C, 2), (Seat::E, 3)]);
    assert_eq!(r.winner(), Some(Seat::A));
    assert_eq!(r.score(Seat::C), Score::LOSS);
}

#[test]
fn t12_play_order_skips_empty_camps() {
    let mut g = Game::start_of(setup(4, 10), false);
    let mut order = String::new();
    for _ in 0..5 {
        order.push(g.position().turn().letter());
        play(&mut g, &["pass"]);
    }
    assert_eq!(order, "acdfa");
    let mut g = Game::start_of(setup(3, 10), false);
    let mut order = String::new();
    for _ in 0..4 {
        order.push(g.position().turn().letter());
        play(&mut g, &["pass"]);
    }
    assert_eq!(order, "acea");
}

#[test]
fn t14_leaving_takes_the_pieces_off_and_play_goes_on() {
    let mut g = Game::start_of(setup(3, 10), false);
    g.leave(Seat::C).expect("c leaves");
    assert_eq!(g.position().pieces(Seat::C), 0);
    assert!(g.position().to_string().ends_with(" a ae"));
    assert!(g.result().is_none());
    play(&mut g, &["pass"]);
    assert_eq!(g.turn(), Some(Seat::E), "c is skipped");
    // The one to move leaves: the last one wins; c, who left first, is last.
    g.leave(Seat::E).expect("e leaves");
    let r = g.result().expect("one left");
    assert_eq!((r.kind, r.winner()), (EndKind::Left, Some(Seat::A)));
    assert_eq!(r.places, [(Seat::A, 1), (Seat::C, 3), (Seat::E, 2)]);
    assert!(g.leave(Seat::A).is_err());
    // Two players: the other wins.
    let mut g = Game::start_of(setup(2, 10), false);
    g.leave(Seat::A).expect("a resigns");
    assert_eq!(g.result().and_then(|r| r.winner()), Some(Seat::D));
    // Leaving on one's own turn passes the turn on.
    let mut g = Game::start_of(setup(4, 10), false);
    g.leave(Seat::A).expect("a leaves");
    assert_eq!(g.turn(), Some(Seat::C));
    assert!(g.leave(Seat::A).is_err(), "already out");
}
