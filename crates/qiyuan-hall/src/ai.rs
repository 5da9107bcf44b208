//! The computer opponent behind a small trait, so the real engine
//! (`qiyuan-engine`) can replace the built-in mover without touching the hall.
//!
//! Thinking is CPU work: the hall calls [`AiPlayer::choose`] on a blocking
//! thread (`spawn_blocking`), never on the async runtime.

use qiyuan_core::{GameRules, TableGame, Viewer};
use qiyuan_xiangqi::{Color, Game, PieceKind, Position, Variant};
use rand::Rng;

/// Picks a move for the seat to move.
pub trait AiPlayer: Send + Sync {
    /// A move (in the game's notation) for `seat` at `level` (1-8), or `None`
    /// when the AI does not play this game or has no move.
    fn choose(&self, game: &dyn TableGame, seat: usize, level: u8) -> Option<String>;
}

/// A weak built-in mover for the Xiangqi family: level 1 plays 1 ply with a
/// lot of randomness; higher levels look 2 plies (its move and the best
/// reply) and add less noise. Material plus the Jifen score difference.
#[derive(Default)]
pub struct MaterialAi;

fn value(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::King => 0,
        PieceKind::Advisor | PieceKind::Elephant => 20,
        PieceKind::Horse => 40,
        PieceKind::Cannon => 45,
        PieceKind::Rook => 90,
        PieceKind::Pawn => 10,
    }
}

/// Static evaluation for `side`: material, plus points for Jifen scores, and
/// a decisive value for a finished game.
fn eval(game: &Game, side: Color) -> i32 {
    if let Some(o) = game.outcome() {
        return match o.winner {
            Some(w) if w == side.index() => 100_000,
            Some(_) => -100_000,
            None => 0,
        };
    }
    let pos = game.position();
    let mut s = 0;
    for (_, p) in pos.pieces(side) {
        s += value(p.kind());
    }
    for (_, p) in pos.pieces(side.flip()) {
        s -= value(p.kind());
    }
    if pos.variant().is_jifen() {
        let sc = pos.scores();
        s += 15 * (sc[side.index()] - sc[side.flip().index()]);
    }
    s
}

impl MaterialAi {
    fn best(&self, pos: &Position, level: u8) -> Option<String> {
        let side = pos.side_to_move();
        let root = Game::new(pos.clone());
        let moves = pos.legal_moves();
        let mut rng = rand::rng();
        let noise = match level {
            0 | 1 => 60,
            2 => 30,
            3 => 15,
            _ => 5,
        };
        let mut best: Option<(i32, String)> = None;
        for m in moves.iter() {
            let mut g = root.clone();
            if g.play_move(*m).is_err() {
                continue;
            }
            let mut score = eval(&g, side);
            // From level 2 on, assume the best reply (when the turn passed).
            if level >= 2 && g.outcome().is_none() && g.position().side_to_move() != side {
                let mut worst = i32::MAX;
                for r in g.position().legal_moves().iter() {
                    let mut h = g.clone();
                    if h.play_move(*r).is_ok() {
                        worst = worst.min(eval(&h, side));
                    }
                }
                if worst != i32::MAX {
                    score = worst;
                }
            }
            score += rng.random_range(0..=noise);
            if best.as_ref().is_none_or(|(b, _)| score > *b) {
                best = Some((score, m.to_string()));
            }
        }
        best.map(|(_, m)| m)
    }
}

impl AiPlayer for MaterialAi {
    fn choose(&self, game: &dyn TableGame, seat: usize, level: u8) -> Option<String> {
        let variant = Variant::from_name(game.rules_name())?;
        let pos =
            Position::from_fen_variant(&game.view(Viewer::Seat(seat)), variant, game.target())
                .ok()?;
        if pos.side_to_move().index() != seat {
            return None;
        }
        self.best(&pos, level)
    }
}

/// The real engine (`qiyuan-engine`) at levels 1-8; falls back to
/// [`MaterialAi`] if the engine finds nothing. Thinking time grows with the
/// level (100 ms at level 1 to 1.5 s at level 8) so the hall stays responsive.
#[derive(Default)]
pub struct EngineAi;

impl AiPlayer for EngineAi {
    fn choose(&self, game: &dyn TableGame, seat: usize, level: u8) -> Option<String> {
        let variant = Variant::from_name(game.rules_name())?;
        let pos =
            Position::from_fen_variant(&game.view(Viewer::Seat(seat)), variant, game.target())
                .ok()?;
        if pos.side_to_move().index() != seat {
            return None;
        }
        let budget =
            std::time::Duration::from_millis(100 + 200 * u64::from(level.saturating_sub(1)));
        // Keys of the positions after each earlier move, so the search sees
        // repetitions (perpetual check loses; a drawn repetition is a draw).
        let records = game.move_records();
        let history: Vec<u64> = records
            .iter()
            .take(records.len().saturating_sub(1))
            .filter_map(|r| r.notations.iter().find(|(k, _)| k == "fen"))
            .filter_map(|(_, fen)| Position::from_fen_variant(fen, variant, game.target()).ok())
            .map(|p| p.hash())
            .collect();
        qiyuan_engine::best_move(&pos, &history, qiyuan_engine::Level::new(level), budget)
            .map(|m| m.to_string())
            .or_else(|| MaterialAi.choose(game, seat, level))
    }
}

/// The engine with one fixed budget per move whatever the level (the level
/// still sets depth and noise): engine-only events and tests that play many
/// AI games run fast with a budget of a few milliseconds.
pub struct FixedBudgetAi {
    budget: std::time::Duration,
}

impl FixedBudgetAi {
    /// Thinks at most `budget` per move.
    pub fn new(budget: std::time::Duration) -> FixedBudgetAi {
        FixedBudgetAi { budget }
    }
}

impl AiPlayer for FixedBudgetAi {
    fn choose(&self, game: &dyn TableGame, seat: usize, level: u8) -> Option<String> {
        let variant = Variant::from_name(game.rules_name())?;
        let pos =
            Position::from_fen_variant(&game.view(Viewer::Seat(seat)), variant, game.target())
                .ok()?;
        if pos.side_to_move().index() != seat {
            return None;
        }
        qiyuan_engine::best_move(&pos, &[], qiyuan_engine::Level::new(level), self.budget)
            .map(|m| m.to_string())
            .or_else(|| MaterialAi.choose(game, seat, level))
    }
}

/// Where AI moves are thought: games with a person in them get up to one
/// search per core, games between AIs (event games) share a single search
/// slot, so however many AI-only games run, people's games and the async
/// workers keep the other cores. An AI-only game waiting for the slot is
/// marked queued: its clock is not charged for the wait (its turn restarts
/// when the slot is granted) and its flag is not checked meanwhile.
pub struct AiPool {
    people: tokio::sync::Semaphore,
    background: tokio::sync::Semaphore,
    queued: std::sync::Mutex<std::collections::HashSet<String>>,
    background_running: std::sync::atomic::AtomicUsize,
    background_peak: std::sync::atomic::AtomicUsize,
}

impl Default for AiPool {
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        AiPool {
            people: tokio::sync::Semaphore::new(cores.max(1)),
            background: tokio::sync::Semaphore::new(1),
            queued: Default::default(),
            background_running: Default::default(),
            background_peak: Default::default(),
        }
    }
}

/// A granted thinking slot; dropping it frees the slot.
pub struct AiSlot<'a> {
    _permit: tokio::sync::SemaphorePermit<'a>,
    background: Option<&'a std::sync::atomic::AtomicUsize>,
}

impl Drop for AiSlot<'_> {
    fn drop(&mut self) {
        if let Some(n) = self.background {
            n.fetch_sub(1, std::sync::atomic::Ordering::AcqRel);
        }
    }
}

impl AiPool {
    /// Waits for a slot: a people's slot if `for_people`, else the single
    /// background slot (game `id` counts as queued while it waits).
    pub async fn slot(&self, for_people: bool, id: &str) -> Option<AiSlot<'_>> {
        use std::sync::atomic::Ordering;
        if for_people {
            let permit = self.people.acquire().await.ok()?;
            return Some(AiSlot {
                _permit: permit,
                background: None,
            });
        }
        self.queued
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id.to_string());
        let permit = self.background.acquire().await;
        self.queued
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(id);
        let permit = permit.ok()?;
        let now = self.background_running.fetch_add(1, Ordering::AcqRel) + 1;
        self.background_peak.fetch_max(now, Ordering::AcqRel);
        Some(AiSlot {
            _permit: permit,
            background: Some(&self.background_running),
        })
    }

    /// Whether AI-only game `id` is waiting for the background slot.
    pub fn is_queued(&self, id: &str) -> bool {
        self.queued
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains(id)
    }

    /// The most AI-only searches that ever ran at once.
    pub fn background_peak(&self) -> usize {
        self.background_peak
            .load(std::sync::atomic::Ordering::Acquire)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_a_free_chariot_at_level_2() {
        // Red chariot a0 can take the undefended black chariot a9.
        let t = crate::games::new_table("xiangqi", Some("r3k4/9/9/9/9/9/9/9/9/R2K5 w"), None)
            .expect("fen");
        let m = MaterialAi.choose(t.as_ref(), 0, 4).expect("a move");
        assert_eq!(m, "a0a9");
        // Not its seat: no move.
        assert_eq!(MaterialAi.choose(t.as_ref(), 1, 4), None);
    }
}
