//! `qiyuan moves|perft|apply --variant siguo-open --fen POS` (S15): the
//! lines to print, on full-information positions.

use super::four_armies;
use super::game::{Event, Game, Mode};
use super::position::{Position, Rules, Verdict};
use super::text::PositionTextError;

/// A command that cannot run.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The position did not parse.
    #[error("bad position: {0}")]
    Position(#[from] PositionTextError),
    /// A move did not parse or is illegal.
    #[error("move {index} ('{text}'): {why}")]
    Move {
        /// 1-based number among the moves given.
        index: usize,
        /// The move as given (cut to 16 characters).
        text: String,
        /// Why.
        why: String,
    },
}

fn position(fen: Option<&str>) -> Result<Position, CliError> {
    let g = four_armies();
    Ok(match fen {
        Some(f) => Position::from_text(g, f)?,
        None => Position::standard(g),
    })
}

/// Every legal move of the army to move, one a line.
pub fn moves(fen: Option<&str>) -> Result<Vec<String>, CliError> {
    let g = Game::new(position(fen)?, Rules::default(), Mode::Open);
    let p = g.position();
    Ok(g.legal().into_iter().map(|m| p.move_text(m)).collect())
}

/// `nodes N`: the leaves `depth` plies down (a finished game has none).
pub fn perft(fen: Option<&str>, depth: u32) -> Result<Vec<String>, CliError> {
    let p = position(fen)?;
    Ok(vec![format!(
        "nodes {}",
        count(&p, depth, Rules::default())
    )])
}

/// Counts the leaves `depth` plies below `p`.
pub fn count(p: &Position, depth: u32, rules: Rules) -> u64 {
    if p.verdict(rules) != Verdict::Playing {
        return 0;
    }
    let moves = p.legal_moves();
    if depth <= 1 {
        return if depth == 0 { 1 } else { moves.len() as u64 };
    }
    moves
        .into_iter()
        .map(|m| count(&p.after(m, rules), depth - 1, rules))
        .sum()
}

/// Plays the moves, printing each (`g6g7 move`, `i9i11 attacker-wins`,
/// and `out e flag-taken` for each army put out), then `fen POS` and, once
/// over, `result sn|ew|draw REASON`.
pub fn apply(fen: Option<&str>, moves: &[String]) -> Result<Vec<String>, CliError> {
    let mut g = Game::new(position(fen)?, Rules::default(), Mode::Open);
    let letters: Vec<char> = (0..g.position().graph().armies() as u8)
        .filter_map(|a| g.position().graph().army_letter(a))
        .collect();
    let mut out = Vec::new();
    for (i, text) in moves.iter().enumerate() {
        let board = g.position().graph();
        let played = g.play_text(text).map_err(|e| CliError::Move {
            index: i + 1,
            text: text.chars().take(16).collect(),
            why: e.to_string(),
        })?;
        out.push(format!(
            "{}{} {}",
            board.name(played.mv.from),
            board.name(played.mv.to),
            played.clash.map_or("move", |c| c.word())
        ));
        if let Some(Event::Move(p)) = g.events().last() {
            for (army, why) in &p.out {
                out.push(format!("out {} {}", letters[*army as usize], why.word()));
            }
        }
    }
    out.push(format!("fen {}", g.position()));
    if let Some(e) = g.ending() {
        out.push(e.line(&letters));
    }
    Ok(out)
}
