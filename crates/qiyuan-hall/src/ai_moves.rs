//! AI seats: when an AI is to move, its kind's AI thinks on a blocking
//! thread (scheduled by [`crate::ai::AiPool`]) and plays through the same
//! commit sequence as a person.

use std::sync::Arc;
use std::time::Instant;

use crate::hall::Hall;
use crate::store::SeatRow;

impl Hall {
    /// For every AI seat that is to act (several in a simultaneous phase),
    /// thinks on a blocking thread and plays.
    pub fn maybe_ai_move<'a>(
        self: &'a Arc<Self>,
        id: &'a str,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send + 'a>> {
        // Boxed because AI moves and player moves call each other.
        Box::pin(async move {
            let Some(g) = self.live(id) else { return };
            let (jobs, version, people) = {
                let live = g.lock().await;
                if live.row.status != "playing" {
                    return;
                }
                let jobs: Vec<(usize, u8)> = live
                    .table
                    .seats_to_move()
                    .into_iter()
                    .filter_map(|seat| match live.row.seats.get(seat) {
                        Some(SeatRow::Ai { level }) => Some((seat, *level)),
                        _ => None,
                    })
                    .collect();
                let people = live
                    .row
                    .seats
                    .iter()
                    .any(|s| matches!(s, SeatRow::User { .. }));
                (jobs, live.version, people)
            };
            for (seat, level) in jobs {
                self.spawn_ai_move(id, seat, level, version, people);
            }
        })
    }

    /// Thinks for one AI seat and plays its move; if the game changed
    /// meanwhile, schedules the AI again on the game as it is.
    fn spawn_ai_move(
        self: &Arc<Self>,
        id: &str,
        seat: usize,
        level: u8,
        version: u64,
        people: bool,
    ) {
        let hall = self.clone();
        let id = id.to_string();
        tokio::spawn(async move {
            let Some(_slot) = hall.ai_pool.slot(people, &id).await else {
                return;
            };
            let Some(g) = hall.live(&id) else { return };
            let probe = {
                let mut live = g.lock().await;
                if live.version != version {
                    drop(live);
                    // A draw offer or another seat's move changed the game:
                    // think again on the game as it is now.
                    hall.maybe_ai_move(&id).await;
                    return;
                }
                if !people {
                    // The wait for the background slot is not the AI's
                    // thinking time: its turn starts now.
                    live.clocks.restart(seat, Instant::now());
                }
                // The AI sees the game as its seat does (the table's own
                // per-seat views; hidden information stays hidden).
                live.table.boxed_clone()
            };
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
            {
                let mut live = g.lock().await;
                if live.version != version {
                    // Something happened meanwhile (a move, an offer, a
                    // resignation, a timeout): think again if still to act.
                    drop(live);
                    hall.maybe_ai_move(&id).await;
                    return;
                }
                if let Err(e) = hall.play_locked(&mut live, seat, &mv, 0).await {
                    tracing::warn!(game = %id, error = ?e, "AI move refused");
                    return;
                }
            }
            // A multi-move turn or the next AI seat: schedule again.
            hall.maybe_ai_move(&id).await;
        });
    }
}
