//! AI seats: when an AI is to move, its kind's AI thinks on a blocking
//! thread (scheduled by [`crate::ai::AiPool`]) and plays through the same
//! commit sequence as a person.

use std::sync::Arc;
use std::time::Instant;

use crate::hall::Hall;
use crate::store::SeatRow;

impl Hall {
    /// If the seat to move is the AI, thinks on a blocking thread and plays.
    pub fn maybe_ai_move<'a>(
        self: &'a Arc<Self>,
        id: &'a str,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send + 'a>> {
        // Boxed because AI moves and player moves call each other.
        Box::pin(async move {
            let Some(g) = self.live(id) else { return };
            let (probe, seat, level, version, people) = {
                let live = g.lock().await;
                if live.row.status != "playing" {
                    return;
                }
                let Some(&seat) = live.table.seats_to_move().first() else {
                    return;
                };
                let Some(SeatRow::Ai { level }) = live.row.seats.get(seat) else {
                    return;
                };
                let people = live
                    .row
                    .seats
                    .iter()
                    .any(|s| matches!(s, SeatRow::User { .. }));
                (live.table.boxed_clone(), seat, *level, live.version, people)
            };
            let hall = self.clone();
            let id = id.to_string();
            tokio::spawn(async move {
                let Some(_slot) = hall.ai_pool.slot(people, &id).await else {
                    return;
                };
                if !people {
                    // The wait for the background slot is not the AI's
                    // thinking time: its turn starts now.
                    let Some(g) = hall.live(&id) else { return };
                    let mut live = g.lock().await;
                    if live.version != version {
                        return;
                    }
                    if live.clocks.running.is_some_and(|(s, _)| s == seat) {
                        live.clocks.running = Some((seat, Instant::now()));
                    }
                }
                let Some((kind, _)) = hall.games.find(probe.rules_name()) else {
                    return;
                };
                let kind = kind.clone();
                let budget = hall.ai_budget;
                let chosen = tokio::task::spawn_blocking(move || {
                    kind.ai()?.choose(probe.as_ref(), seat, level, budget)
                })
                .await
                .ok()
                .flatten();
                let Some(mv) = chosen else {
                    tracing::warn!(game = %id, "the AI found no move");
                    return;
                };
                let Some(g) = hall.live(&id) else { return };
                {
                    let mut live = g.lock().await;
                    if live.version != version {
                        // Something happened meanwhile (resignation, timeout).
                        return;
                    }
                    if let Err(e) = hall.play_locked(&mut live, seat, &mv, 0).await {
                        tracing::warn!(game = %id, error = ?e, "AI move refused");
                        return;
                    }
                }
                // A Jifen double turn: the AI may move again.
                hall.maybe_ai_move(&id).await;
            });
        })
    }
}
