//! One task per live game. The task owns the game's state ([`Live`]): every
//! action on the game is a [`GameCommand`] sent to its mailbox and run there, one at a
//! time, so no lock guards a game and no two actions interleave. Between
//! jobs the task sleeps until the earliest running flag falls (several
//! clocks may run in a simultaneous phase), starts the AI seats that are to
//! act after each change, and forgets a finished game nobody has touched for
//! a while. There is no polling sweeper: a game's timers are its own task's.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::{mpsc, oneshot};

use crate::domain::command::{GameCommand, Reply};
use crate::domain::hall::{Hall, HallError, HallResult, Live};

/// Jobs a game's mailbox holds before senders wait (back-pressure).
const MAILBOX: usize = 256;
/// How long a finished game stays in memory after its last change.
const KEEP_FINISHED: Duration = Duration::from_secs(600);
/// How long a node keeps a copy of a game another node plays (leases):
/// briefly, so that its reads come from storage, not from a stale copy.
const KEEP_NOT_OWNED: Duration = Duration::from_secs(2);
/// After a flag check that ended nothing (a clock that is not quite out,
/// or storage refusing the result), the next check waits this long.
const FLAG_RETRY: Duration = Duration::from_millis(50);

/// The way to a live game's task.
#[derive(Clone)]
pub(crate) struct GameHandle {
    jobs: mpsc::Sender<GameCommand>,
    /// Tells this task's handle from a later one for the same game.
    serial: u64,
}

impl Hall {
    /// Starts the task of `live` and lists it; returns its handle.
    pub(crate) fn spawn_game(&self, live: Live) -> GameHandle {
        let (tx, rx) = mpsc::channel(MAILBOX);
        let serial = self
            .game_serial
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let handle = GameHandle { jobs: tx, serial };
        let id = live.row.id.clone();
        let mut games = self.live_games.write().unwrap_or_else(|e| e.into_inner());
        if let Some(existing) = games.get(&id)
            && !existing.jobs.is_closed()
        {
            // Loaded twice at once: the first task stays, this copy goes.
            return existing.clone();
        }
        games.insert(id, handle.clone());
        drop(games);
        if let Some(hall) = self.me.get().and_then(std::sync::Weak::upgrade) {
            tokio::spawn(run(hall, live, rx, serial));
        }
        handle
    }

    /// The handle of game `id`, loading a finished game from storage.
    pub(crate) async fn handle(&self, id: &str) -> HallResult<GameHandle> {
        let listed = self
            .live_games
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .cloned();
        if let Some(h) = listed
            && !h.jobs.is_closed()
        {
            return Ok(h);
        }
        let live = self.load(id).await?;
        Ok(self.spawn_game(live))
    }

    /// Sends the command `make` builds to game `id`'s task and waits for
    /// its answer. Never call it for a game from its own task.
    pub(crate) async fn ask<R>(
        &self,
        id: &str,
        make: impl FnOnce(Reply<R>) -> GameCommand,
    ) -> HallResult<R> {
        let (tx, rx) = oneshot::channel();
        let mut pending = make(tx);
        // A task that has just forgotten its game refuses commands: the
        // game is then loaded again and the command goes to the new task.
        for _ in 0..3 {
            let handle = self.handle(id).await?;
            match handle.jobs.send(pending).await {
                Ok(()) => {
                    return rx
                        .await
                        .map_err(|_| HallError::busy("the game is shutting down"));
                }
                Err(mpsc::error::SendError(back)) => {
                    self.unlist(id, handle.serial);
                    pending = back;
                }
            }
        }
        Err(HallError::busy("the game is being reloaded; try again"))
    }

    /// Removes game `id` from the list if the listed task is `serial`.
    fn unlist(&self, id: &str, serial: u64) {
        let mut games = self.live_games.write().unwrap_or_else(|e| e.into_inner());
        if games.get(id).is_some_and(|h| h.serial == serial) {
            games.remove(id);
        }
    }

    /// Number of games held in memory (for tests and metrics).
    pub fn games_in_memory(&self) -> usize {
        self.live_games
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .len()
    }
}

/// How often a waiting room checks whether its people have gone.
fn room_check_every(hall: &Hall) -> Duration {
    (hall.limits.open_room_idle / 4).clamp(Duration::from_millis(20), Duration::from_secs(60))
}

/// Sleeps until `at`, or forever without one.
async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(tokio::time::Instant::from_std(at)).await,
        None => std::future::pending().await,
    }
}

/// The game's task: its mailbox, its flags, its AI seats, its eviction.
async fn run(hall: Arc<Hall>, mut live: Live, mut jobs: mpsc::Receiver<GameCommand>, serial: u64) {
    let id = live.row.id.clone();
    let mut shutdown = hall.shutdown.clone();
    let mut ai_for: Option<u64> = None;
    let mut no_flag_before = Instant::now();
    // Leases (several nodes): the first is taken before any job runs.
    let mut last_lease = Instant::now();
    let mut last_job = Instant::now();
    let mut last_room_check = Instant::now();
    hall.lease_tick(&mut live).await;
    loop {
        let owner = hall.owns(&live);
        if owner && ai_for != Some(live.version()) {
            // Every change may put AI seats to act (or make their thinking stale).
            ai_for = Some(live.version());
            hall.schedule_ai(&live);
        }
        // A fallen flag, or a first move not made in time (`opening`).
        let flag_at = (owner && live.row.status == "playing" && !hall.ai_pool.is_queued(&id))
            .then(
                || match (live.clocks.deadline(), live.first_move_deadline) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                },
            )
            .flatten()
            .map(|d| d.max(no_flag_before));
        let forget_at = if live.row.status == "finished" {
            Some(live.touched + KEEP_FINISHED)
        } else {
            (!owner).then(|| last_job + KEEP_NOT_OWNED)
        };
        let lease_at = (live.row.status != "finished")
            .then(|| hall.lease_due(last_lease))
            .flatten();
        // A room waiting for players is looked at now and then: closed once
        // its people have gone (issue 34: rooms are not kept for ever).
        let room_check_at = (owner && live.row.status == "waiting")
            .then(|| last_room_check + room_check_every(&hall));
        tokio::select! {
            next = jobs.recv() => match next {
                Some(command) => {
                    if !owner && live.row.status != "finished" {
                        // Another node plays it: read what it stored.
                        match hall.load(&id).await {
                            Ok(mut fresh) => {
                                fresh.lease_tried = true;
                                live = fresh;
                            }
                            Err(e) => tracing::warn!(game = %id, error = %e.message, "cannot reload a game"),
                        }
                    }
                    hall.run_command(&mut live, command).await;
                    last_job = Instant::now();
                }
                None => return,
            },
            _ = sleep_until(flag_at) => {
                let now = Instant::now();
                if !hall.flag_check(&mut live, now).await {
                    no_flag_before = now + FLAG_RETRY;
                }
            }
            _ = sleep_until(forget_at) => {
                hall.unlist(&id, serial);
                // Jobs already in the mailbox still run; later ones reload the game.
                jobs.close();
                while let Some(command) = jobs.recv().await {
                    hall.run_command(&mut live, command).await;
                }
                return;
            }
            _ = sleep_until(room_check_at) => {
                last_room_check = Instant::now();
                if jobs.is_empty() && hall.room_abandoned(&live, last_room_check) {
                    hall.close_abandoned_room(&mut live).await;
                }
            }
            _ = sleep_until(lease_at) => {
                last_lease = Instant::now();
                if hall.lease_tick(&mut live).await == crate::domain::ownership::Tick::Taken {
                    match hall.reload_taken(&live).await {
                        Ok(fresh) => {
                            tracing::info!(game = %id, "game taken over from another node");
                            live = fresh;
                        }
                        Err(e) => tracing::error!(game = %id, error = ?e, "cannot take a game over"),
                    }
                }
            }
            _ = shutdown.changed() => return,
        }
        if live.closed {
            // A room withdrawn or abandoned is deleted from storage, so it
            // is forgotten here too; jobs already sent still get answers.
            hall.unlist(&id, serial);
            jobs.close();
            while let Some(command) = jobs.recv().await {
                hall.run_command(&mut live, command).await;
            }
            return;
        }
    }
}
