//! The AI: legal moves in every seating, a win or a forward move before a
//! pass, level 8 against the greedy player, and determinism.

use crate::common::{SEATINGS, camp_less, random_position, setup, text_of};
use qiyuan_tiaoqi::ai::{self, Method};
use qiyuan_tiaoqi::{Game, Move, Position, Seat};

fn refs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn every_level_and_method_plays_a_legal_move_in_every_seating() {
    legal_moves_at(&[1, 2, 3]);
}

#[test]
#[ignore = "slow tier"]
fn the_strong_levels_play_a_legal_move_in_every_seating_and_method() {
    legal_moves_at(&[5, 8]);
}

/// Each of `levels` with each method plays a legal move in every seating,
/// from the start and two random positions.
fn legal_moves_at(levels: &[u8]) {
    for (players, pieces) in SEATINGS {
        for (k, plies) in [0usize, 7, 40].into_iter().enumerate() {
            let p = random_position(setup(players, pieces), 11 + k as u64, plies);
            let g = Game::new(p, false);
            if g.result().is_some() {
                continue;
            }
            for &level in levels {
                for method in [Method::Brs, Method::Paranoid] {
                    let m = ai::choose_with(&g, level, 3, method)
                        .unwrap_or_else(|| panic!("no move at level {level}"));
                    assert!(
                        g.legal().contains(&m),
                        "{players}/{pieces} level {level} {method:?}: {m} in {}",
                        g.position()
                    );
                }
            }
        }
    }
}

#[test]
fn no_move_once_the_game_is_over() {
    let mut g = Game::new(near_finish(), false);
    g.play_text("13.5-14.1").expect("the winning step");
    assert!(g.result().is_some());
    assert_eq!(ai::choose(&g, 8, 1), None);
}

/// a fills d's camp but for 14.1; its tenth piece is on 13.5, next to it.
fn near_finish() -> Position {
    let mut a = camp_less(Seat::D, &["14.1"]);
    a.push("13.5".into());
    let mut d: Vec<String> = (2..=9).map(|c| format!("8.{c}")).collect();
    d.push("9.1".into());
    d.push("9.2".into());
    let t = text_of(&[('a', &refs(&a)), ('d', &refs(&d))], 'a', "ad");
    Position::from_text(setup(2, 10), &t).unwrap_or_else(|e| panic!("{t}: {e}"))
}

#[test]
fn every_level_takes_the_winning_move() {
    let g = Game::new(near_finish(), false);
    let win = g.position().parse_move("13.5-14.1").expect("a move");
    for level in 1..=8 {
        assert_eq!(ai::choose(&g, level, 9), Some(win), "level {level}");
    }
}

#[test]
fn a_forward_move_before_a_pass() {
    forward_at_the_start(1..=5);
}

#[test]
#[ignore = "slow tier"]
fn a_forward_move_before_a_pass_at_the_strong_levels() {
    forward_at_the_start(6..=8);
}

/// Each of `levels` moves a piece forward (not a pass) at the start of
/// every seating.
fn forward_at_the_start(levels: std::ops::RangeInclusive<u8>) {
    for (players, pieces) in SEATINGS {
        let g = Game::start_of(setup(players, pieces), false);
        for level in levels.clone() {
            let m = ai::choose(&g, level, 5).expect("a move");
            let seat = g.position().turn();
            let Move::Go { from, to } = m else {
                panic!("{players} players, level {level}: a pass at the start");
            };
            assert!(
                seat.rows_to_go(to) < seat.rows_to_go(from),
                "{players} players, level {level}: {m} is not forward"
            );
        }
    }
}

#[test]
fn t9_in_a_declared_dead_game_every_level_moves_its_rearmost_piece_forward_at_once() {
    let mut checked = 0;
    for (players, pieces) in SEATINGS {
        let mut g = Game::start_of(setup(players, pieces), false);
        // Some greedy moves, then nobody gains for ten full rounds: the
        // server declares a dead game.
        for _ in 0..8 * usize::from(players) {
            let m = ai::greedy(g.position()).expect("a move");
            g.play(m).expect("legal");
        }
        while !g.is_dead_game() {
            g.play(Move::Pass).expect("a pass");
        }
        let p = g.position();
        assert!(g.dead_countdown(p.turn()).is_some());
        if !g.legal().into_iter().any(|m| p.moves_rearmost_forward(m)) {
            continue;
        }
        checked += 1;
        for level in 1..=8 {
            let m = ai::choose(&g, level, 3).expect("a move");
            assert!(
                p.moves_rearmost_forward(m),
                "{players} players, level {level}: {m} leaves the rearmost piece"
            );
        }
    }
    assert!(checked >= 3, "only {checked} seatings had a rearmost move");
}

/// Plays a game with one AI seat at `level` and greedy players elsewhere;
/// at every AI move where a move fills the target, checks that it plays
/// one. Returns the seats placed first.
fn play_against_greedy(players: u8, ai_seat: usize, level: u8, seed: u64) -> Vec<Seat> {
    let s = setup(players, 10);
    let seats: Vec<Seat> = s.seats().collect();
    let mut g = Game::start_of(s, false);
    for ply in 0..1500u64 {
        let Some(turn) = g.turn() else { break };
        let m = if turn == seats[ai_seat] {
            let m = ai::choose(&g, level, seed + ply).expect("a move");
            let p = g.position();
            let wins = |m: Move| m != Move::Pass && p.after(m).has_reached_target(turn);
            if g.legal().into_iter().any(wins) {
                assert!(wins(m), "{m} does not win in {p}");
            }
            m
        } else {
            ai::greedy(g.position()).expect("a move")
        };
        g.play(m).expect("a legal move");
    }
    let r = g.result().expect("the game ended");
    r.places
        .iter()
        .filter(|(_, p)| *p == 1)
        .map(|(s, _)| *s)
        .collect()
}

#[test]
#[ignore = "slow tier"]
fn level_8_beats_greedy_in_two_player_games() {
    for k in 0..4 {
        let ai_seat = k % 2;
        let first = play_against_greedy(2, ai_seat, 8, 100 + k as u64);
        let me = if ai_seat == 0 { Seat::A } else { Seat::D };
        assert_eq!(first, [me], "game {k}, AI seat {me}");
    }
}

#[test]
fn level_5_finishes_first_against_two_greedy_players() {
    let first = play_against_greedy(3, 1, 5, 7);
    assert_eq!(first, [Seat::C]);
}

#[test]
fn a_fixed_seed_gives_the_same_move() {
    same_move_for_a_seed(&[1, 2, 4]);
}

#[test]
#[ignore = "slow tier"]
fn a_fixed_seed_gives_the_same_move_at_level_8() {
    same_move_for_a_seed(&[8]);
}

/// Each of `levels` plays the same move twice for one seed, on the game and
/// on its clone, in every seating.
fn same_move_for_a_seed(levels: &[u8]) {
    for (players, pieces) in SEATINGS {
        let p = random_position(setup(players, pieces), 77, 20);
        let g = Game::new(p, false);
        if g.result().is_some() {
            continue;
        }
        for &level in levels {
            let a = ai::choose(&g, level, 42);
            assert_eq!(a, ai::choose(&g, level, 42), "level {level}");
            assert_eq!(a, ai::choose(&g.clone(), level, 42), "level {level}");
        }
    }
}

#[test]
fn level_1_varies_with_the_seed() {
    let g = Game::start_of(setup(6, 10), false);
    let moves: std::collections::BTreeSet<Move> =
        (0..40).filter_map(|seed| ai::choose(&g, 1, seed)).collect();
    assert!(moves.len() > 1, "{moves:?}");
}

#[test]
fn the_levels_spend_rising_budgets() {
    let specs: Vec<_> = (1..=8).map(ai::level_spec).collect();
    assert!(specs.windows(2).all(|w| w[0].nodes < w[1].nodes));
    assert!(specs.windows(2).all(|w| w[0].noise >= w[1].noise));
}
