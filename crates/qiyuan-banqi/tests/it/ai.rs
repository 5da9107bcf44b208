//! The AI: legal, blind to face-down identities, and strong enough against a
//! random player (level 8 wins every game of the sample, level 1 at least 90%).
//! Level 8's games and the long legality run are the slow tier.
//! Bigger matches are run by hand (`examples/banqi_match.rs`, docs/banqi.md).

use qiyuan_banqi::ai::{choose, play_game};
use qiyuan_banqi::{Game, Preset};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;

fn wins(preset: Preset, level: u8, games: u32, seed: u64) -> (u32, u32) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let mut won = 0;
    for g in 0..games {
        // The AI takes seat 0 and seat 1 in turn.
        let r = if g % 2 == 0 {
            play_game(preset, Some(level), None, &mut rng) == Some(0)
        } else {
            play_game(preset, None, Some(level), &mut rng) == Some(1)
        };
        won += u32::from(r);
    }
    (won, games)
}

#[test]
#[ignore = "slow tier"]
fn level_8_beats_a_random_player_in_every_game_of_the_sample() {
    let (w, n) = wins(Preset::Banqi, 8, 8, 11);
    assert_eq!(w, n, "level 8 won {w} of {n} (banqi)");
    let (w, n) = wins(Preset::Icga, 8, 4, 12);
    assert_eq!(w, n, "level 8 won {w} of {n} (icga)");
}

#[test]
fn level_1_beats_a_random_player_at_least_90_percent() {
    let (w, n) = wins(Preset::Banqi, 1, 20, 21);
    assert!(w * 10 >= n * 9, "level 1 won {w} of {n} (banqi)");
    let (w, n) = wins(Preset::Icga, 1, 10, 22);
    assert!(w * 10 >= n * 9, "level 1 won {w} of {n} (icga)");
}

#[test]
fn the_ai_plays_legal_moves_and_never_looks_under_face_down_pieces() {
    legal_and_blind_for(12);
}

#[test]
#[ignore = "slow tier"]
fn the_ai_plays_legal_moves_and_never_looks_under_face_down_pieces_for_60_plies() {
    legal_and_blind_for(60);
}

/// For the first `plies` of a random game of every preset, levels 1, 4 and 8
/// play a legal move, the same on the full and the public position.
fn legal_and_blind_for(plies: usize) {
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    for preset in Preset::ALL {
        let mut game = Game::random(preset, &mut rng);
        for _ in 0..plies {
            if game.turn().is_none() {
                break;
            }
            let full = game.position().clone();
            let public = full.public();
            for level in [1, 4, 8] {
                // Same generator state, full or public position: the same move.
                let a = choose(&full, level, &mut ChaCha20Rng::seed_from_u64(9));
                let b = choose(&public, level, &mut ChaCha20Rng::seed_from_u64(9));
                assert_eq!(a, b, "level {level} in {}", full.public_fen());
                let m = a.expect("a move while the game goes on");
                assert!(full.is_legal(m), "{m} in {}", full.public_fen());
            }
            let m = choose(&full, 3, &mut rng).expect("move");
            game.play_move(m).expect("legal");
        }
    }
}

#[test]
fn the_ai_takes_a_free_piece() {
    // Red chariot a1 next to an undefended black horse b1; black soldier far away.
    let g = Game::from_fen(Preset::Banqi, "7p/8/8/Rn6 0 r").expect("position");
    for level in 1..=8 {
        let m = choose(g.position(), level, &mut ChaCha20Rng::seed_from_u64(3));
        assert_eq!(
            m.map(|m| m.to_string()),
            Some("a1b1".into()),
            "level {level}"
        );
    }
}
