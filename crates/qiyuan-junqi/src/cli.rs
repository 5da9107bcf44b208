//! The `qiyuan moves` / `perft` / `apply` / `setup` commands for Junqi, on
//! full-information positions (the open game). They return the lines to
//! print.

use crate::board::Side;
use crate::game::{Game, Visibility};
use crate::perft::perft as count;
use crate::position::{Position, Rules};
use crate::setup::Setup;
use crate::text::PositionError;

/// A command that cannot run.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The position did not parse.
    #[error("bad position: {0}")]
    Position(#[from] PositionError),
    /// A move did not parse or is illegal.
    #[error("move {index} ('{text}'): {why}")]
    Move {
        /// 1-based number among the moves given.
        index: usize,
        /// The move as given.
        text: String,
        /// Why.
        why: String,
    },
}

fn position(fen: Option<&str>) -> Result<Position, CliError> {
    Ok(match fen {
        Some(f) => Position::from_text(f)?,
        None => Position::standard(),
    })
}

/// `qiyuan moves --variant junqi-open [--fen POS]`: every legal move.
pub fn moves(fen: Option<&str>) -> Result<Vec<String>, CliError> {
    let g = Game::new(position(fen)?, Rules::default(), Visibility::Open);
    Ok(g.legal().into_iter().map(|m| m.to_string()).collect())
}

/// `qiyuan perft --variant junqi-open [--fen POS] DEPTH`: `nodes N`.
pub fn perft(fen: Option<&str>, depth: u32) -> Result<Vec<String>, CliError> {
    let p = position(fen)?;
    Ok(vec![format!(
        "nodes {}",
        count(&p, depth, Rules::default())
    )])
}

/// `qiyuan apply --variant junqi-open [--fen POS] MOVE...`: plays the
/// moves, printing each clash (`c6c7 attacker-wins`), then `fen POS` and,
/// once over, `result red|blue|draw REASON` and the explanation.
pub fn apply(fen: Option<&str>, moves: &[String]) -> Result<Vec<String>, CliError> {
    let mut g = Game::new(position(fen)?, Rules::default(), Visibility::Open);
    let mut out = Vec::new();
    for (i, text) in moves.iter().enumerate() {
        let played = g.play_text(text).map_err(|e| CliError::Move {
            index: i + 1,
            text: text.chars().take(16).collect(),
            why: e.to_string(),
        })?;
        out.push(format!(
            "{} {}",
            played.mv,
            played.clash.map_or("move", |c| c.word())
        ));
    }
    out.push(format!("fen {}", g.position()));
    if let Some(r) = g.result() {
        let who = match r.winner {
            Some(Side::Red) => "red",
            Some(Side::Blue) => "blue",
            None => "draw",
        };
        let why = match r.reason {
            crate::game::EndReason::FlagTaken => "flag-taken",
            crate::game::EndReason::NoMoves => "no-moves",
            crate::game::EndReason::QuietLimit => "quiet-limit",
        };
        out.push(format!("result {who} {why}"));
        out.push(r.explanation());
    }
    Ok(out)
}

/// `qiyuan setup --side red|blue TEXT`: `ok`, or every reason the set-up is
/// illegal, one per line.
pub fn setup(side: Side, text: &str) -> Vec<String> {
    match Setup::parse(side, text) {
        Ok(_) => vec!["ok".into()],
        Err(errors) => errors.iter().map(ToString::to_string).collect(),
    }
}
