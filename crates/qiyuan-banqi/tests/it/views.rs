//! B1: the public view never shows a face-down identity, and position texts
//! and moves never panic on bad input.

use proptest::prelude::*;
use qiyuan_banqi::ai::random_move;
use qiyuan_banqi::{Cell, Game, Move, Position, Preset, Square};
use qiyuan_core::{Viewer, Views};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha20Rng;

/// The same position with the face-down pieces shuffled among themselves.
fn reshuffled(pos: &Position, seed: u64) -> Position {
    let fen = pos.fen();
    let mut fields: Vec<String> = fen.split(' ').map(String::from).collect();
    if fields.len() == 11 {
        let mut ids: Vec<char> = fields[10].chars().collect();
        ids.shuffle(&mut ChaCha20Rng::seed_from_u64(seed));
        fields[10] = ids.into_iter().collect();
    }
    Position::from_fen(pos.preset(), &fields.join(" ")).expect("reshuffled position")
}

#[test]
fn b1_the_public_view_never_contains_a_face_down_identity() {
    let mut rng = ChaCha20Rng::seed_from_u64(77);
    for preset in Preset::ALL {
        for _ in 0..20 {
            let mut game = Game::random(preset, &mut rng);
            loop {
                let pos = game.position();
                let view = game.public_view();
                // Ten fields, no identities field.
                assert_eq!(view.split(' ').count(), 10, "{view}");
                for viewer in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator] {
                    assert_eq!(Views::view(&game, viewer), view);
                }
                // The view is a function of public information only: shuffling
                // the hidden pieces does not change it by one character.
                let other = reshuffled(pos, rng.random_range(0..u64::MAX));
                assert_eq!(other.public_fen(), view);
                // Every letter on the board field is a face-up piece.
                let board = view.split(' ').next().unwrap_or_default();
                let downs = Square::all()
                    .filter(|s| matches!(pos.cell(*s), Cell::Down(_)))
                    .count();
                assert_eq!(board.matches('?').count(), downs);
                let ups = Square::all()
                    .filter(|s| matches!(pos.cell(*s), Cell::Up(_)))
                    .count();
                assert_eq!(board.chars().filter(char::is_ascii_alphabetic).count(), ups);
                // The public text reads back as a position that knows nothing hidden.
                let back = Position::from_fen(preset, &view).expect("public view parses");
                assert_eq!(back, pos.public());
                assert!(downs == 0 || !back.is_full());
                // The full text round-trips exactly.
                assert_eq!(Position::from_fen(preset, &pos.fen()).as_ref(), Ok(pos));
                if game.turn().is_none() {
                    break;
                }
                let m = random_move(pos, &mut rng).expect("moves while not over");
                game.play_move(m).expect("legal");
            }
        }
    }
}

use rand::Rng;

proptest! {
    #[test]
    fn position_text_never_panics(s in "\\PC{0,80}") {
        let _ = Position::from_fen(Preset::Banqi, &s);
        let _ = Position::from_fen(Preset::Icga, &s);
    }

    #[test]
    fn position_text_from_pieces_never_panics(
        s in "[?KABRNCPkabrncp1-9/ ,:*\\-rb0-9a-h]{0,90}"
    ) {
        if let Ok(p) = Position::from_fen(Preset::Banqi, &s) {
            // Anything accepted is consistent enough to play on.
            let _ = p.legal_moves();
            let _ = p.status();
            let back = Position::from_fen(Preset::Banqi, &p.fen());
            prop_assert_eq!(back, Ok(p));
        }
    }

    #[test]
    fn move_text_never_panics(s in "\\PC{0,8}") {
        let _ = Move::parse(&s);
        let mut g = Game::from_fen(Preset::Banqi, "P6p/8/8/R6r 0 r").expect("position");
        let _ = g.play_text(&s);
    }
}
