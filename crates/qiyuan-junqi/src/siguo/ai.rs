//! The four-army AI (first version: a random legal move; the searching AI
//! replaces it).

use super::game::Game;
use super::position::Move;

/// A move for army `me` (the army to move) at `level`, from what `me` may
/// see; `draw(n)` is uniform in `0..n`.
pub fn choose(game: &Game, me: u8, level: u8, draw: &mut dyn FnMut(u32) -> u32) -> Option<Move> {
    let _ = level;
    if game.position().turn() != me {
        return None;
    }
    let moves = game.legal();
    (!moves.is_empty()).then(|| moves[draw(moves.len() as u32) as usize % moves.len()])
}
