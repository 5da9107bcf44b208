//! One test (or more) per rules decision B1-B17 of `shared/rules/banqi.md`,
//! in both presets where the decision applies to both.

use qiyuan_banqi::{
    Cell, Colour, Game, GameError, Kind, Move, Piece, PointsInput, Position, Preset, Square,
    game_points,
};
use qiyuan_core::{EndReason, GameRules};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;

fn sq(s: &str) -> Square {
    Square::parse(s).expect("test square")
}

fn game(preset: Preset, fen: &str) -> Game {
    Game::from_fen(preset, fen).unwrap_or_else(|e| panic!("test position {fen}: {e}"))
}

fn moves(g: &Game) -> Vec<String> {
    let mut v = GameRules::legal_moves(g);
    v.sort();
    v
}

fn play(g: &mut Game, mv: &str) {
    g.play_text(mv)
        .unwrap_or_else(|e| panic!("{mv} in {}: {e}", g.full_fen()));
}

fn both() -> [Preset; 2] {
    Preset::ALL
}

#[test]
fn b1_start_has_all_32_pieces_face_down_and_the_layout_comes_from_the_rng() {
    for preset in both() {
        let a = Position::random(preset, &mut ChaCha20Rng::seed_from_u64(7));
        let b = Position::random(preset, &mut ChaCha20Rng::seed_from_u64(7));
        let c = Position::random(preset, &mut ChaCha20Rng::seed_from_u64(8));
        assert_eq!(a, b, "the same seed gives the same layout");
        assert_ne!(a.fen(), c.fen(), "another seed gives another layout");
        let mut count = [0u8; 14];
        for s in Square::all() {
            match a.cell(s) {
                Cell::Down(Some(p)) => count[p.index()] += 1,
                other => panic!("{s} is {other:?}, not face down"),
            }
        }
        assert_eq!(count, qiyuan_banqi::types::full_set());
        assert_eq!(a.colour_of(0), None, "no colours before the first flip");
        assert_eq!(
            a.public_fen(),
            format!(
                "????????/????????/????????/???????? {} - 0 0 - -- - -,- 0,0",
                a.turn()
            )
        );
    }
}

#[test]
fn b1_layout_is_uniform_enough() {
    // The red general should land on a1 about 1/32 of the time, and each of
    // the 32 squares should see it.
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let mut seen = [0u32; 32];
    let n = 6400;
    for _ in 0..n {
        let p = Position::random(Preset::Banqi, &mut rng);
        for s in Square::all() {
            if p.cell(s) == Cell::Down(Some(Piece::new(Colour::Red, Kind::General))) {
                seen[s.index()] += 1;
            }
        }
    }
    // Expected 200 per square; 5 sigma is about 70.
    for (i, &k) in seen.iter().enumerate() {
        assert!((130..=270).contains(&k), "square {i}: {k} of {n}");
    }
}

#[test]
fn b2_the_first_flip_decides_the_colours_and_the_first_seat_is_random() {
    for preset in both() {
        let mut firsts = [0; 2];
        for seed in 0..40 {
            let mut g = Game::random(preset, &mut ChaCha20Rng::seed_from_u64(seed));
            let seat = g.turn().expect("not over");
            firsts[seat] += 1;
            let e = g.play_text("c2c2").expect("a flip is legal at the start");
            let revealed = e.revealed.expect("a flip reveals a piece");
            assert_eq!(g.position().colour_of(seat), Some(revealed.colour));
            assert_eq!(
                g.position().colour_of(1 - seat),
                Some(revealed.colour.flip())
            );
            assert_eq!(g.turn(), Some(1 - seat));
        }
        assert!(firsts[0] > 5 && firsts[1] > 5, "first seats {firsts:?}");
    }
}

#[test]
fn b3_a_turn_is_a_flip_a_one_square_move_or_a_capture_of_a_lower_rank() {
    for preset in both() {
        // Red chariot b2 next to a black horse c2 and a black advisor b3;
        // one face-down piece on h4 (a black soldier).
        let fen = "7?/1a6/1Rn5/8 0 r 10 0 \
                   KAABBRNNCCPPPPPkabbrrnccpppp -- - -,- 0,0 p";
        let g = game(preset, fen);
        assert_eq!(
            moves(&g),
            ["b2a2", "b2b1", "b2c2", "h4h4"],
            "no capture of the higher advisor, no diagonal, one square only"
        );
        // The horse may not take the chariot (the advisor may).
        let g = game(preset, &fen.replace(" 0 r 10", " 1 r 10"));
        let horse: Vec<String> = moves(&g)
            .into_iter()
            .filter(|m| m.starts_with("c2"))
            .collect();
        assert_eq!(horse, ["c2c1", "c2c3", "c2d2"]);
        assert!(moves(&g).contains(&"b3b2".to_string()));
    }
}

#[test]
fn b3_the_general_may_not_take_a_soldier_but_a_soldier_takes_the_general() {
    for preset in both() {
        let g = game(preset, "8/8/8/Kp6 0 r");
        assert!(
            !moves(&g).contains(&"a1b1".to_string()),
            "general takes soldier"
        );
        let mut g = game(preset, "8/8/8/Kp6 1 r");
        assert!(
            moves(&g).contains(&"b1a1".to_string()),
            "soldier takes general"
        );
        play(&mut g, "b1a1");
        let o = g.result().expect("red has nothing left");
        assert_eq!(o.winner, Some(1));
        // And the general takes every other lower or equal rank.
        let g = game(preset, "8/8/8/Ka6 0 r");
        assert!(moves(&g).contains(&"a1b1".to_string()));
    }
}

#[test]
fn b4_equal_ranks_both_removed_in_banqi_capturer_survives_in_icga() {
    let fen = "p7/8/8/Rr6 0 r";
    let mut g = game(Preset::Banqi, fen);
    let e = g.play_text("a1b1").expect("equal ranks may capture");
    assert!(e.capturer_removed);
    assert_eq!(g.position().cell(sq("a1")), Cell::Empty);
    assert_eq!(g.position().cell(sq("b1")), Cell::Empty);

    let mut g = game(Preset::Icga, fen);
    let e = g.play_text("a1b1").expect("equal ranks may capture");
    assert!(!e.capturer_removed);
    assert_eq!(
        g.position().cell(sq("b1")),
        Cell::Up(Piece::new(Colour::Red, Kind::Chariot))
    );
}

#[test]
fn b5_the_cannon_steps_one_square_and_captures_only_by_jumping_one_screen() {
    for preset in both() {
        // Red cannon a1, black soldier b1 next to it (no capture), black
        // advisor d1 beyond it (capture over the one screen b1).
        let fen = "k7/8/?7/Cp1a4 0 r 10 0 \
                   KABBRRNNCPPPPPabbrrnnccpppp -- - -,- 0,0 A";
        let g = game(preset, fen);
        let m = moves(&g);
        assert!(m.contains(&"a1d1".into()), "jump over b1 onto d1: {m:?}");
        assert!(!m.contains(&"a1b1".into()), "no adjacent capture");
        assert!(m.contains(&"a1a4".into()), "over the face-down a2 onto a4");
    }
}

#[test]
fn b5_the_cannon_jumps_any_distance_over_a_face_down_screen_onto_any_rank() {
    for preset in both() {
        let fen = "k7/8/?7/C7 0 r 10 0 KABBRRNNCPPPPPaabbrrnnccppppp -- - -,- 0,0 A";
        let g = game(preset, fen);
        let m = moves(&g);
        assert!(
            m.contains(&"a1a4".to_string()),
            "over a2 onto the general: {m:?}"
        );
        assert!(m.contains(&"a1b1".to_string()), "and steps one square");
        // Two screens: no capture.
        let g = game(
            preset,
            "k7/?7/?7/C7 0 r 10 0 KBBRRNNCPPPPPaabbrrnnccppppp -- - -,- 0,0 AA",
        );
        assert!(!moves(&g).contains(&"a1a4".to_string()));
    }
}

#[test]
fn b5_cannon_takes_cannon_both_removed_in_banqi() {
    let fen = "p7/8/8/CPc5 0 r";
    let mut g = game(Preset::Banqi, fen);
    let e = g.play_text("a1c1").expect("cannon jump");
    assert!(e.capturer_removed);
    assert_eq!(g.position().cell(sq("c1")), Cell::Empty);
    let mut g = game(Preset::Icga, fen);
    g.play_text("a1c1").expect("cannon jump");
    assert_eq!(
        g.position().cell(sq("c1")),
        Cell::Up(Piece::new(Colour::Red, Kind::Cannon))
    );
}

#[test]
fn b6_face_down_pieces_cannot_be_captured() {
    for preset in both() {
        let fen = "8/8/8/K?6 0 r 10 0 AABBRRNNCCPPPPPkaabbrrnnccpppp -- - -,- 0,0 p";
        let g = game(preset, fen);
        assert_eq!(moves(&g), ["a1a2", "b1b1"]);
        let mut g = game(preset, fen);
        let err = g
            .play_text("a1b1")
            .expect_err("capture of a face-down piece");
        assert!(err.to_string().contains("B6"), "{err}");
    }
}

/// A red chariot on b1 behind a black horse on c1 that keeps running; two
/// soldiers in row 4 keep both sides alive.
const CHASE: &str = "P6p/8/8/1Rn5 1 r";
const HORSE_RUN: [&str; 11] = [
    "c1d1", "d1e1", "e1f1", "f1g1", "g1h1", "h1h2", "h2g2", "g2f2", "f2e2", "e2d2", "d2c2",
];
const CHARIOT_FOLLOW: [&str; 11] = [
    "b1c1", "c1d1", "d1e1", "e1f1", "f1g1", "g1h1", "h1h2", "h2g2", "g2f2", "f2e2", "e2d2",
];

#[test]
fn b7_an_eleventh_consecutive_chase_step_is_illegal_in_banqi() {
    let mut g = game(Preset::Banqi, CHASE);
    for i in 0..10 {
        play(&mut g, HORSE_RUN[i]);
        play(&mut g, CHARIOT_FOLLOW[i]);
        assert_eq!(g.position().chase(0).map(|c| c.steps), Some(i as u8 + 1));
    }
    play(&mut g, HORSE_RUN[10]);
    let err = g
        .play_text(CHARIOT_FOLLOW[10])
        .expect_err("11th chase step");
    assert!(err.to_string().contains("B7"), "{err}");
    assert!(!moves(&g).contains(&CHARIOT_FOLLOW[10].to_string()));
    // Other moves stay legal, and a step that does not threaten is fine.
    assert!(moves(&g).contains(&"e2e1".to_string()));
}

#[test]
fn b7_another_move_resets_the_chase_count() {
    let mut g = game(Preset::Banqi, CHASE);
    for i in 0..5 {
        play(&mut g, HORSE_RUN[i]);
        play(&mut g, CHARIOT_FOLLOW[i]);
    }
    play(&mut g, HORSE_RUN[5]);
    play(&mut g, "a4b4"); // the red soldier moves instead
    assert_eq!(g.position().chase(0), None);
    play(&mut g, "h4g4");
    // The horse did not move last: the chariot's step is no chase step.
    play(&mut g, CHARIOT_FOLLOW[5]);
    assert_eq!(g.position().chase(0), None);
    for i in 6..11 {
        play(&mut g, HORSE_RUN[i]);
        play(&mut g, CHARIOT_FOLLOW[i]);
    }
    assert_eq!(g.position().chase(0).map(|c| c.steps), Some(5));
}

#[test]
fn b7_icga_has_no_chase_limit() {
    let mut g = game(Preset::Icga, CHASE);
    for i in 0..11 {
        play(&mut g, HORSE_RUN[i]);
        play(&mut g, CHARIOT_FOLLOW[i]);
    }
    assert!(g.result().is_none());
}

#[test]
fn b7_chase_state_survives_the_position_text() {
    let mut g = game(Preset::Banqi, CHASE);
    for i in 0..10 {
        play(&mut g, HORSE_RUN[i]);
        play(&mut g, CHARIOT_FOLLOW[i]);
    }
    play(&mut g, HORSE_RUN[10]);
    let mut again = game(Preset::Banqi, &g.full_fen());
    assert!(again.play_text(CHARIOT_FOLLOW[10]).is_err());
}

#[test]
fn b8_capturing_the_last_piece_wins() {
    for preset in both() {
        let mut g = game(preset, "8/8/8/Rn6 0 r");
        play(&mut g, "a1b1");
        let o = g.result().expect("black has nothing left");
        assert_eq!(o.winner, Some(0));
        assert_eq!(o.reason, EndReason::Checkmate);
    }
}

#[test]
fn b8_face_down_pieces_still_count_as_pieces() {
    for preset in both() {
        // Black's last face-up piece is taken, but a black piece is still face down.
        let fen = "?7/8/8/Rn6 0 r 10 0 KAABBRNNCCPPPPPkaabbrrccppppp -- - -,- 0,0 n";
        let mut g = game(preset, fen);
        play(&mut g, "a1b1");
        assert!(g.result().is_none(), "{:?}", g.result());
    }
}

#[test]
fn b8_both_last_pieces_removed_together_is_a_draw_in_banqi() {
    let mut g = game(Preset::Banqi, "8/8/8/Rr6 0 r");
    play(&mut g, "a1b1");
    let o = g.result().expect("nothing left on the board");
    assert_eq!(o.winner, None);
    // icga: the capturer survives and wins.
    let mut g = game(Preset::Icga, "8/8/8/Rr6 0 r");
    play(&mut g, "a1b1");
    assert_eq!(g.result().map(|o| o.winner), Some(Some(0)));
}

#[test]
fn b9_a_player_who_cannot_move_loses() {
    for preset in both() {
        // The red soldier is boxed in by an advisor and an elephant.
        let g = game(preset, "8/8/a7/Pb6 0 r");
        let o = g.result().expect("red cannot move");
        assert_eq!(o.winner, Some(1));
        assert_eq!(o.reason, EndReason::Stalemate);
        // With a face-down piece left there is always a flip.
        let g = game(
            preset,
            "7?/8/a7/Pb6 0 r 10 0 KAABBRRNNCCPPPkabrrnnccppppp -- - -,- 0,0 P",
        );
        assert_eq!(moves(&g), ["h4h4"]);
    }
}

#[test]
fn b10_banqi_is_drawn_after_300_plies() {
    let mut g = game(Preset::Banqi, "P6p/8/8/R6r 0 r 298 100");
    play(&mut g, "a1a2");
    assert!(g.result().is_none(), "ply 299 is still play");
    play(&mut g, "h1h2");
    let o = g.result().expect("ply 300");
    assert_eq!((o.winner, o.reason), (None, EndReason::MoveLimit));
}

#[test]
fn b10_icga_is_drawn_after_180_quiet_plies_not_at_300() {
    let mut g = game(Preset::Icga, "P6p/8/8/R6r 0 r 400 178");
    play(&mut g, "a1a2");
    assert!(
        g.result().is_none(),
        "179 quiet plies; ply 401 is no limit in icga"
    );
    play(&mut g, "h1h2");
    let o = g.result().expect("180 quiet plies");
    assert_eq!((o.winner, o.reason), (None, EndReason::MoveLimit));
    // A capture resets the count (quiet 0 after it).
    let mut g = game(Preset::Icga, "P6p/8/8/Rn5r 0 r 200 179");
    play(&mut g, "a1b1");
    assert_eq!(g.position().quiet_plies(), 0);
    assert!(g.result().is_none());
}

#[test]
fn b10_icga_threefold_repetition_is_a_draw_and_banqi_plays_on() {
    let cycle = ["a1a2", "h1h2", "a2a1", "h2h1"];
    let mut g = game(Preset::Icga, "P6p/8/8/R6r 0 r");
    for m in cycle.iter().chain(&cycle) {
        assert!(g.result().is_none());
        play(&mut g, m);
    }
    let o = g.result().expect("third occurrence of the start");
    assert_eq!((o.winner, o.reason), (None, EndReason::Repetition));
    let mut g = game(Preset::Banqi, "P6p/8/8/R6r 0 r");
    for m in cycle.iter().chain(&cycle).chain(&cycle) {
        play(&mut g, m);
    }
    assert!(g.result().is_none());
}

#[test]
fn b11_no_resignation_or_draw_before_ply_40() {
    for preset in both() {
        let mut g = game(preset, "P6p/8/8/R6r 0 r 39 0");
        assert_eq!(
            g.resign(0),
            Err(GameError::TooEarly {
                what: "resignation",
                ply: 39
            })
        );
        assert!(matches!(g.agree_draw(), Err(GameError::TooEarly { .. })));
        assert!(!g.may_resign());
        play(&mut g, "a1a2");
        assert!(g.may_resign());
        g.resign(1).expect("ply 40");
        let o = g.result().expect("resigned");
        assert_eq!((o.winner, o.reason), (Some(0), EndReason::Resignation));
    }
}

#[test]
fn b12_a_timeout_loses_the_turn_and_the_third_mark_loses() {
    for preset in both() {
        let mut g = game(preset, "P6p/8/8/R6r 0 r 50 0");
        let board = g.position().public_fen();
        assert_eq!(g.timeout(), Ok(1));
        assert_eq!(g.turn(), Some(1), "the turn passes");
        assert_eq!(g.position().ply(), 50, "a lost turn is not a ply");
        assert_eq!(board.split(' ').next(), g.public_view().split(' ').next());
        play(&mut g, "h1h2");
        assert_eq!(g.timeout(), Ok(2));
        play(&mut g, "h2h1");
        assert_eq!(g.position().marks(), [2, 0]);
        assert_eq!(g.timeout(), Ok(3));
        let o = g.result().expect("third mark");
        assert_eq!((o.winner, o.reason), (Some(1), EndReason::Timeout));
        // The record replays, lost turns included.
        let texts: Vec<String> = qiyuan_core::Rules::history(&g);
        let again = Game::replay(g.start().clone(), &texts).expect("replay");
        assert_eq!(again.full_fen(), g.full_fen());
        assert_eq!(again.result().map(|o| o.winner), Some(Some(1)));
        // And a player cannot pass on purpose.
        let mut g = game(preset, "P6p/8/8/R6r 0 r 50 0");
        assert!(g.play_text("0000").is_err());
    }
}

fn input(winner: Option<usize>, plies: u32, pieces: u32, general_first: bool) -> PointsInput {
    PointsInput {
        winner,
        plies,
        winner_pieces: pieces,
        general_first,
    }
}

#[test]
fn b13_a_game_decided_in_fewer_than_40_plies_costs_the_loser_10() {
    assert_eq!(game_points(&input(Some(0), 39, 12, false), 1), [0, -10]);
    assert_eq!(game_points(&input(Some(1), 20, 16, false), 1), [-10, 0]);
}

#[test]
fn b14_from_40_to_300_plies_the_winner_takes_its_pieces_left() {
    assert_eq!(game_points(&input(Some(0), 40, 7, false), 1), [7, -7]);
    assert_eq!(game_points(&input(Some(1), 300, 3, false), 1), [-3, 3]);
}

#[test]
fn b15_a_draw_moves_no_points() {
    assert_eq!(game_points(&input(None, 300, 0, false), 1), [0, 0]);
    assert_eq!(game_points(&input(None, 12, 0, true), 5), [0, 0]);
}

#[test]
fn b16_taking_the_general_first_adds_5_for_the_winner() {
    assert_eq!(game_points(&input(Some(0), 120, 4, true), 1), [9, -4]);
    assert_eq!(game_points(&input(Some(1), 30, 9, true), 1), [-10, 5]);
}

#[test]
fn b17_everything_is_multiplied_by_the_base() {
    assert_eq!(game_points(&input(Some(0), 120, 4, true), 10), [90, -40]);
    assert_eq!(game_points(&input(Some(0), 10, 4, false), 3), [0, -30]);
    assert_eq!(game_points(&input(None, 100, 4, false), 3), [0, 0]);
}

#[test]
fn b14_b16_points_from_a_played_game() {
    // Red took the black general first (field 7 `k-`), now takes the last piece
    // at ply 60 with 2 red pieces left: 2 + 5.
    let mut g = game(Preset::Banqi, "8/8/8/RnP5 0 r 59 3 * k- - -,- 0,0");
    let fen_captured = g.position().captured();
    assert!(fen_captured.iter().sum::<u8>() == 29);
    play(&mut g, "a1b1");
    assert_eq!(g.game_points(1), Some([7, -2]));
    assert_eq!(g.game_points(2), Some([14, -4]));
    // Red's first capture was not the general: no bonus.
    let mut g = game(Preset::Banqi, "8/8/8/RnP5 0 r 59 3 * n- - -,- 0,0");
    play(&mut g, "a1b1");
    assert_eq!(g.game_points(1), Some([2, -2]));
}

#[test]
fn b16_the_first_capture_is_recorded() {
    let mut g = game(Preset::Banqi, "8/8/k7/RnP5 0 r");
    play(&mut g, "a1b1");
    assert_eq!(
        g.position().first_capture(0),
        Some(Piece::new(Colour::Black, Kind::Horse))
    );
    assert_eq!(g.position().first_capture(1), None);
}

#[test]
fn flips_are_written_as_the_same_square_twice() {
    assert_eq!(Move::parse("a1a1"), Ok(Move::Flip(sq("a1"))));
    assert_eq!(
        Move::parse("a1a2"),
        Ok(Move::Step {
            from: sq("a1"),
            to: sq("a2")
        })
    );
    assert!(Move::parse("a5a1").is_err());
    assert!(Move::parse("i1a1").is_err());
}

#[test]
fn a_public_position_lists_flips_but_refuses_to_play_them() {
    let mut g = game(Preset::Banqi, "????????/????????/????????/???????? 0 -");
    assert_eq!(moves(&g).len(), 32);
    let err = g.play_text("a1a1").expect_err("identity unknown");
    assert!(err.to_string().contains("public view"), "{err}");
}
