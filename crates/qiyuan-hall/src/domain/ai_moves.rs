//! AI seats: after every change of a game, its task starts a thinker for
//! each AI seat that is to act (several in a simultaneous phase). A thinker
//! waits for a slot in [`crate::domain::ai::AiPool`], takes a copy of the game as
//! it is, lets the kind's AI choose on a blocking thread and plays through
//! the same commit sequence as a person. A thinker whose game changed
//! meanwhile drops its move: the task has already started a new one.

use std::sync::Arc;
use std::time::Instant;

use crate::domain::command::GameCommand;
use crate::domain::hall::{Hall, Live};
use crate::store::SeatRow;

impl Hall {
    /// Starts a thinker for every AI seat to act in `live` as it is now.
    pub(crate) fn schedule_ai(self: &Arc<Self>, live: &Live) {
        if live.row.status != "playing" {
            return;
        }
        let people = live
            .row
            .seats
            .iter()
            .any(|s| matches!(s, SeatRow::User { .. }));
        for seat in live.table.seats_to_move() {
            if let Some(SeatRow::Ai { level }) = live.row.seats.get(seat) {
                let hall = self.clone();
                let id = live.row.id.clone();
                let (level, version) = (*level, live.version());
                tokio::spawn(async move {
                    hall.think_and_play(id, seat, level, version, people).await;
                });
            }
        }
    }

    /// One AI seat's move on game `id` at `version`.
    async fn think_and_play(&self, id: String, seat: usize, level: u8, version: u64, people: bool) {
        let Some(_slot) = self.ai_pool.slot(people, &id).await else {
            return;
        };
        let probe = self
            .ask(&id, |reply| GameCommand::AiProbe {
                seat,
                version,
                people,
                reply,
            })
            .await
            .ok()
            .flatten();
        let Some(probe) = probe else { return };
        let Some((kind, _)) = self.games.find(probe.rules_name()) else {
            return;
        };
        let kind = kind.clone();
        let budget = self.ai_budget;
        // If the AI fails (finds nothing, or its thread panics), the seat
        // plays its first legal move rather than stall the game.
        let fallback = probe.legal_moves_for(seat).into_iter().next();
        let chosen = match tokio::task::spawn_blocking(move || {
            kind.ai()?.choose(probe.as_ref(), seat, level, budget)
        })
        .await
        {
            Ok(m) => m,
            Err(e) => {
                tracing::error!(game = %id, error = %e, "the AI's thread failed");
                None
            }
        };
        let Some(mv) = chosen.or(fallback) else {
            tracing::warn!(game = %id, "the AI found no move");
            return;
        };
        let played = self
            .ask(&id, |reply| GameCommand::AiMove {
                seat,
                version,
                mv,
                reply,
            })
            .await;
        if let Ok(Err(e)) | Err(e) = played {
            tracing::warn!(game = %id, error = ?e, "AI move refused");
        }
    }

    /// A copy of the table for the AI seat `seat` to think on, if the game
    /// is still at `version` (on the game's task).
    pub(crate) fn ai_probe_in(
        live: &mut Live,
        seat: usize,
        version: u64,
        people: bool,
    ) -> Option<Box<dyn qiyuan_core::TableGame>> {
        if live.version() != version {
            return None;
        }
        if !people {
            // The wait for the background slot is not the AI's
            // thinking time: its turn starts now.
            live.clocks.restart(seat, Instant::now());
        }
        // The AI sees the game as its seat does (the table's own
        // per-seat views; hidden information stays hidden).
        Some(live.table.boxed_clone())
    }
}
