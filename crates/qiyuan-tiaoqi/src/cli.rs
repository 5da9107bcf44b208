//! The `qiyuan moves` / `apply` / `perft` commands for Tiaoqi. They return
//! the lines to print, so the binary keeps its own output handling (and its
//! clock, for nodes per second).

use crate::game::Game;
use crate::geometry::{Setup, SetupError};
use crate::perft::{divide, perft as count};
use crate::position::Position;
use crate::text::PositionError;

/// A command that cannot run, with the reason.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The seating is not one of T2/T3.
    #[error("bad seating: {0}")]
    Setup(#[from] SetupError),
    /// The position did not parse.
    #[error("bad position: {0}")]
    Position(#[from] PositionError),
    /// A move did not parse or is illegal.
    #[error("move {index} ('{text}'): {why}")]
    Move {
        /// 1-based number of the move among those given.
        index: usize,
        /// The move as given.
        text: String,
        /// Why it could not be played.
        why: String,
    },
}

fn position(players: u8, pieces: u8, fen: Option<&str>) -> Result<Position, CliError> {
    let setup = Setup::new(players, pieces)?;
    Ok(match fen {
        Some(f) => Position::from_text(setup, f)?,
        None => Position::start(setup),
    })
}

/// `qiyuan moves --variant tiaoqi [--fen POS]`: every legal move, each
/// (start, end) pair once with one shortest path, then `pass` (T13). Nothing
/// when the position is already decided (T8, T14).
pub fn moves(players: u8, pieces: u8, fen: Option<&str>) -> Result<Vec<String>, CliError> {
    let game = Game::new(position(players, pieces, fen)?, false);
    let p = game.position();
    Ok(game.legal().into_iter().map(|m| p.move_text(m)).collect())
}

/// `qiyuan perft --variant tiaoqi [--fen POS] DEPTH`: `nodes N`, after one
/// `MOVE N` line per root move with `divide`.
pub fn perft(
    players: u8,
    pieces: u8,
    fen: Option<&str>,
    depth: u32,
    split: bool,
) -> Result<Vec<String>, CliError> {
    let p = position(players, pieces, fen)?;
    let mut out = Vec::new();
    let nodes = if split && depth > 0 {
        let parts = divide(&p, depth);
        out.extend(
            parts
                .iter()
                .map(|(m, n)| format!("{} {n}", p.move_text(*m))),
        );
        parts.iter().map(|(_, n)| n).sum()
    } else {
        count(&p, depth)
    };
    out.push(format!("nodes {nodes}"));
    Ok(out)
}

/// `qiyuan apply --variant tiaoqi [--fen POS] MOVE...`: plays the moves
/// (full chains or `start-end`, T13), then prints `fen POS`, and once over
/// `result` with each seat's score (`result a:1 d:0 finished`), the places
/// (`places a:1 d:2`) and the explanation. `rank_rest` is the T10 room
/// option.
pub fn apply(
    players: u8,
    pieces: u8,
    fen: Option<&str>,
    rank_rest: bool,
    moves: &[String],
) -> Result<Vec<String>, CliError> {
    let mut game = Game::new(position(players, pieces, fen)?, rank_rest);
    for (i, text) in moves.iter().enumerate() {
        game.play_text(text).map_err(|e| CliError::Move {
            index: i + 1,
            text: text.clone(),
            why: e.to_string(),
        })?;
    }
    let mut out = vec![format!("fen {}", game.position())];
    if let Some(r) = game.result() {
        let scores: Vec<String> = r.scores.iter().map(|(s, sc)| format!("{s}:{sc}")).collect();
        let kind = match r.kind {
            crate::game::EndKind::Finished => "finished",
            crate::game::EndKind::DeadGame => "dead-game",
            crate::game::EndKind::Left => "left",
        };
        out.push(format!("result {} {kind}", scores.join(" ")));
        let places: Vec<String> = r.places.iter().map(|(s, p)| format!("{s}:{p}")).collect();
        out.push(format!("places {}", places.join(" ")));
        out.push(r.explanation.clone());
    }
    Ok(out)
}
