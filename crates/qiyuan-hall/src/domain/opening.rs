//! How a two-seat game starts and what happens when a player leaves it
//! (issue 36, as on lichess):
//!
//! - Each side's clock starts with its first move. Until then the side has
//!   a grace ([`crate::limits::Limits::first_move_grace`], never more than
//!   the clock's base or per-move time) to make it; a side that lets it pass
//!   aborts the game. Either player may abort before both have moved. An
//!   aborted game has no result and is never rated or settled.
//! - A player whose sockets have all been gone during their turn for the
//!   absence time ([`absence_limit`]) can be claimed against: the opponent
//!   takes the win or a draw.
//!
//! Event games are not abortable (their pairings wait for a result) and run
//! their clocks from the start, as the events' rules say.

use std::time::{Duration, Instant};

use qiyuan_core::{EndReason, Outcome, TableGame};

use crate::domain::command::GameCommand;
use crate::domain::hall::{Hall, HallError, HallResult, Live, not_a_player};
use crate::domain::state_view::GameStateView;
use crate::error::ErrorCode;
use crate::store::{GameRow, SeatRow, User};

/// One day in ms: a clock of a day or more per move is a correspondence
/// clock (live clocks end at three hours).
pub const DAY_MS: i64 = 86_400_000;

/// The days a correspondence game allows per move (`None`: a live game).
/// Each move gets the full time again.
pub fn correspondence_days(row: &GameRow) -> Option<i64> {
    (row.initial_ms >= DAY_MS).then_some(row.initial_ms / DAY_MS)
}

/// The first-move grace of `live`: the configured grace, never more than
/// the game's base (or per-move) time; a correspondence game's whole time
/// per move.
pub(crate) fn first_move_grace(hall: &Hall, live: &Live) -> Duration {
    let base = Duration::from_millis(live.row.initial_ms.max(0) as u64);
    if correspondence_days(&live.row).is_some() {
        return base;
    }
    hall.limits.first_move_grace.min(base)
}

/// How long a player must have been gone during their turn before the
/// opponent may claim: the configured time, shorter in fast games (a sixth
/// of the base time), but never under a third of it.
pub(crate) fn absence_limit(hall: &Hall, live: &Live) -> Duration {
    let full = hall.limits.absence_claim;
    let base = Duration::from_millis(live.row.initial_ms.max(0) as u64);
    full.min(base / 6).max(full / 3)
}

/// Whether both seats of `live` have moved.
fn both_moved(live: &Live) -> bool {
    (0..live.row.seats.len()).all(|s| live.move_seats.contains(&s))
}

impl Hall {
    /// Whether a game of `row` starting at `table` can be aborted: two seats
    /// taking turns from the first move. A game that opens with a phase in
    /// which both act at once (a secret set-up) keeps the kind's own rule
    /// for a seat that does not act (its set-up is given on time).
    pub(crate) fn may_abort(row: &GameRow, table: &dyn TableGame) -> bool {
        row.seats.len() == 2 && table.seats_to_move().len() == 1
    }

    /// Holds the clock of a seat that has yet to make its first move in an
    /// abortable game: it does not run; the seat has until the grace ends.
    /// Call after every change of whose clock runs.
    pub(crate) fn hold_first_move(&self, live: &mut Live, now: Instant) {
        live.first_move_deadline = None;
        if !live.abortable || live.row.status != "playing" {
            return;
        }
        let to_move = live.table.seats_to_move();
        let [seat] = to_move.as_slice() else {
            return;
        };
        if live.move_seats.contains(seat) {
            return;
        }
        live.clocks.running.retain(|(s, _)| s != seat);
        live.first_move_deadline = Some(now + first_move_grace(self, live));
    }

    /// Ends `live` as aborted: no result, unrated, nothing settled.
    async fn abort_game(&self, live: &mut Live, why: &str) -> HallResult<()> {
        let rated_before = live.row.rated;
        live.row.rated = false;
        let outcome = Outcome {
            winner: None,
            partners: Vec::new(),
            reason: EndReason::Aborted,
            explanation: why.to_string(),
        };
        let done = self.finish(live, outcome).await;
        if done.is_err() {
            live.row.rated = rated_before;
        }
        done
    }

    /// Aborts `live` if its first-move grace has passed; true if it did.
    pub(crate) async fn abort_on_time(&self, live: &mut Live, now: Instant) -> bool {
        match live.first_move_deadline {
            Some(d) if now >= d && live.row.status == "playing" => {}
            _ => return false,
        }
        match self
            .abort_game(live, "首着超时, 对局取消 / no first move in time: aborted")
            .await
        {
            Ok(()) => true,
            Err(e) => {
                tracing::error!(game = %live.row.id, error = ?e, "cannot abort a game");
                false
            }
        }
    }

    /// A player aborts the game (before both sides have moved).
    pub async fn abort(&self, id: &str, user: &User) -> HallResult<GameStateView> {
        let user = user.clone();
        self.ask(id, |reply| GameCommand::Abort { user, reply })
            .await?
    }

    pub(crate) async fn abort_in(&self, live: &mut Live, user: User) -> HallResult<GameStateView> {
        let seat = Hall::seat_of(live, &user).ok_or_else(not_a_player)?;
        if live.row.status != "playing" {
            return Err(
                HallError::conflict("the game is not in play").with_code(ErrorCode::GameOver)
            );
        }
        if !live.abortable || both_moved(live) {
            return Err(HallError::conflict(
                "a game can be aborted only before both sides have moved (event games never)",
            )
            .with_code(ErrorCode::CannotAbort));
        }
        self.abort_game(live, "对局取消 / aborted by a player")
            .await?;
        tracing::info!(game = %live.row.id, seat, "game aborted");
        Ok(Hall::state_view(live, Some(seat)))
    }

    /// How long the person in `seat` has had no socket open, if they have none.
    fn gone_for(&self, live: &Live, seat: usize, now: Instant) -> Option<Duration> {
        let SeatRow::User { id, .. } = live.row.seats.get(seat)? else {
            return None;
        };
        if self.sockets.of_user(*id) > 0 {
            return None;
        }
        let last = self.presence.last_seen(*id).unwrap_or(live.touched);
        Some(now.saturating_duration_since(last.max(live.touched)))
    }

    /// For the player in `seat`: how long until they may claim the game
    /// against an opponent who left (zero: now), if the opponent is gone.
    pub(crate) fn claim_absence_in(
        &self,
        live: &Live,
        seat: usize,
        now: Instant,
    ) -> Option<Duration> {
        // A correspondence player is away between moves by design.
        if live.row.status != "playing"
            || live.row.seats.len() != 2
            || correspondence_days(&live.row).is_some()
        {
            return None;
        }
        let to_move = live.table.seats_to_move();
        let [opponent] = to_move.as_slice() else {
            return None;
        };
        if *opponent == seat {
            return None;
        }
        let gone = self.gone_for(live, *opponent, now)?;
        Some(absence_limit(self, live).saturating_sub(gone))
    }

    /// A player claims the game (`draw`: a draw, else the win) against an
    /// opponent who left during their turn.
    pub async fn claim_victory(
        &self,
        id: &str,
        user: &User,
        draw: bool,
    ) -> HallResult<GameStateView> {
        let user = user.clone();
        self.ask(id, |reply| GameCommand::ClaimVictory { user, draw, reply })
            .await?
    }

    pub(crate) async fn claim_victory_in(
        &self,
        live: &mut Live,
        user: User,
        draw: bool,
    ) -> HallResult<GameStateView> {
        let seat = Hall::seat_of(live, &user).ok_or_else(not_a_player)?;
        if live.row.status != "playing" {
            return Err(
                HallError::conflict("the game is not in play").with_code(ErrorCode::GameOver)
            );
        }
        match self.claim_absence_in(live, seat, Instant::now()) {
            Some(wait) if wait.is_zero() => {}
            Some(wait) => {
                return Err(HallError::conflict(format!(
                    "the opponent may still come back: claim in {} s",
                    wait.as_secs() + 1
                ))
                .with_code(ErrorCode::OpponentPresent));
            }
            None => {
                return Err(HallError::conflict(
                    "only against an opponent whose turn it is and who has left the game",
                )
                .with_code(ErrorCode::OpponentPresent));
            }
        }
        let outcome = if draw {
            Outcome {
                winner: None,
                partners: Vec::new(),
                reason: EndReason::Abandoned,
                explanation: "对手离开, 和棋 / the opponent left: draw claimed".into(),
            }
        } else {
            Outcome {
                winner: Some(seat),
                partners: Vec::new(),
                reason: EndReason::Abandoned,
                explanation: "对手离开, 判胜 / the opponent left: win claimed".into(),
            }
        };
        self.finish(live, outcome).await?;
        Ok(Hall::state_view(live, Some(seat)))
    }
}
