//! Waiting for one's turn over HTTP (`GET /api/games/{id}/wait`): an HTTP
//! move is answered before the AI (or the other player) replies, so a bot
//! that moves again at once gets 409 `not_your_turn`. Instead it waits
//! here: the answer comes as soon as it is the caller's turn or the game is
//! over, or after at most [`MAX_WAIT_S`] seconds with `timed_out`.

use std::time::Duration;

use tokio::sync::broadcast::error::RecvError;

use crate::domain::game_log::Audience;
use crate::domain::hall::{Hall, HallError, HallResult, not_a_player};
use crate::domain::view::topic;
use crate::http::api_bodies::WaitBody;
use crate::store::User;

/// The longest wait a request may ask for, in seconds.
pub const MAX_WAIT_S: i64 = 60;
/// The wait of a request that names none, in seconds.
pub const DEFAULT_WAIT_S: i64 = 30;

/// Whether `state` (as seat `seat` sees it) is the caller's turn, and
/// whether the game is over.
fn turn_of(status: &str, seats_to_move: &[usize], seat: usize) -> (bool, bool) {
    let over = status == "finished";
    let mine = status == "playing" && seats_to_move.contains(&seat);
    (mine, over)
}

impl Hall {
    /// The state of game `id` for `user` once it is their turn or the game
    /// is over, or after `timeout` (then `timed_out`). Only players wait.
    pub async fn wait_turn(
        &self,
        id: &str,
        user: &User,
        timeout: Duration,
    ) -> HallResult<WaitBody> {
        let seat = self.seat_in(id, user).await?.ok_or_else(not_a_player)?;
        // Subscribe before reading the state, so no change falls in between.
        let mut rx = self.bus.subscribe(&topic(id, Audience::Seat(seat)));
        let mut shutdown = self.shutdown.clone();
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let state = self.state(id, Some(user)).await?;
            let (your_turn, game_over) = turn_of(&state.status, &state.seats_to_move, seat);
            if your_turn || game_over {
                return Ok(WaitBody {
                    your_turn,
                    game_over,
                    timed_out: false,
                    state,
                });
            }
            tokio::select! {
                ev = rx.recv() => match ev {
                    // Any change (or missed ones): read the state again.
                    Ok(_) | Err(RecvError::Lagged(_)) => {}
                    Err(RecvError::Closed) => {
                        return Err(HallError::busy("the game is shutting down"));
                    }
                },
                _ = tokio::time::sleep_until(deadline) => {
                    return Ok(WaitBody {
                        your_turn: false,
                        game_over: false,
                        timed_out: true,
                        state,
                    });
                }
                _ = shutdown.changed() => {
                    return Err(HallError::busy("the server is shutting down"));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_is_the_seat_to_move_in_a_game_in_play() {
        assert_eq!(turn_of("playing", &[1], 1), (true, false));
        assert_eq!(turn_of("playing", &[1], 0), (false, false));
        assert_eq!(turn_of("finished", &[], 0), (false, true));
        assert_eq!(turn_of("waiting", &[0], 0), (false, false));
    }
}
