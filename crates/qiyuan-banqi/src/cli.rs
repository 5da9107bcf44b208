//! The `qiyuan moves` / `apply` / `perft` commands for the Banqi presets. They
//! return the lines to print, so the binary keeps its own output handling.

use crate::game::Game;
use crate::position::{FenError, Position};
use crate::types::{Move, Preset};

/// The position `moves` starts from without `--fen`: all 32 pieces face down,
/// seat 0 to flip (the public view of any start).
pub const PUBLIC_START: &str = "????????/????????/????????/???????? 0 -";

/// A command that cannot run, with the reason.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The position did not parse.
    #[error("bad position: {0}")]
    Fen(#[from] FenError),
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
    /// Something the Banqi presets do not support.
    #[error("{0}")]
    Unsupported(String),
}

fn no_target(target: Option<i32>) -> Result<(), CliError> {
    match target {
        Some(_) => Err(CliError::Unsupported(
            "--target applies only to the Jifen rule sets".into(),
        )),
        None => Ok(()),
    }
}

/// `qiyuan moves --variant banqi --fen FEN`: every legal flip, move and
/// capture, one per line (flips as `a1a1`). A public position is enough.
pub fn moves(
    preset: Preset,
    fen: Option<&str>,
    target: Option<i32>,
) -> Result<Vec<String>, CliError> {
    no_target(target)?;
    let game = Game::new(Position::from_fen(preset, fen.unwrap_or(PUBLIC_START))?);
    Ok(game.legal().iter().map(Move::to_string).collect())
}

/// `qiyuan apply --variant banqi --fen FULL MOVE...`: plays the moves on a
/// full (server) position. Prints a line per flip or capture (`a1a1 revealed K`,
/// `b2b3 captured p`), then `fen` (full), `view` (public), and once over
/// `result`, the explanation and `points` (B13-B17 at base 1).
pub fn apply(
    preset: Preset,
    fen: Option<&str>,
    target: Option<i32>,
    moves: &[String],
) -> Result<Vec<String>, CliError> {
    no_target(target)?;
    let fen = fen.ok_or_else(|| {
        CliError::Unsupported(
            "apply needs --fen with a full position (the 11th field names the face-down \
             pieces); the start is drawn at random"
                .into(),
        )
    })?;
    let mut game = Game::new(Position::from_fen(preset, fen)?);
    let mut out = Vec::new();
    for (i, text) in moves.iter().enumerate() {
        let e = game.play_text(text).map_err(|e| CliError::Move {
            index: i + 1,
            text: text.clone(),
            why: e.to_string(),
        })?;
        if let Some(p) = e.revealed {
            out.push(format!("{} revealed {p}", text.trim()));
        }
        if let Some(p) = e.captured {
            let both = if e.capturer_removed {
                " both-removed"
            } else {
                ""
            };
            out.push(format!("{} captured {p}{both}", text.trim()));
        }
    }
    out.push(format!("fen {}", game.full_fen()));
    out.push(format!("view {}", game.public_view()));
    if let Some(o) = game.result() {
        let who = match o.winner {
            None => "draw".to_string(),
            Some(w) => game
                .position()
                .colour_of(w)
                .map_or_else(|| format!("seat{w}"), |c| c.names().1.to_string()),
        };
        out.push(format!("result {who} {}", o.reason));
        out.push(o.explanation.clone());
        if let Some([a, b]) = game.game_points(1) {
            out.push(format!("points {a} {b}"));
        }
    }
    Ok(out)
}

/// `qiyuan perft` is not defined for Banqi: a flip is a chance event, and
/// counting it as one move would not match any published number.
pub fn perft(_preset: Preset) -> Result<Vec<String>, CliError> {
    Err(CliError::Unsupported(
        "perft is not defined for Banqi (flips are chance events); use `moves`".into(),
    ))
}
