//! Who is around: when each user was last seen (a signed-in request, or
//! the end of a socket; an open socket counts as being here), so that rooms whose people have gone can be
//! closed ([`Hall::close_abandoned_room`]), and how many guest accounts each
//! address made lately, so that guests cannot be minted without bound.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::domain::command::GameCommand;
use crate::domain::hall::{Hall, Live, not_a_player};
use crate::domain::user_events::UserEvent;
use crate::error::ErrorCode;
use crate::error::{HallError, HallResult};
use crate::store::{SeatRow, User};

/// Entries kept before old ones are forgotten.
const MAX_ENTRIES: usize = 100_000;
/// The window of [`crate::limits::Limits::guests_per_ip_hour`].
const GUEST_WINDOW: Duration = Duration::from_secs(3600);

/// Last sightings of users and recent guest accounts per address.
#[derive(Default)]
pub struct Presence {
    seen: Mutex<HashMap<i64, Instant>>,
    guests: Mutex<HashMap<IpAddr, (u32, Instant)>>,
}

impl Presence {
    /// Notes that `user` is around now.
    pub fn seen(&self, user: i64) {
        let now = Instant::now();
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        if seen.len() >= MAX_ENTRIES {
            // Forget the long gone rather than grow: a sighting older than
            // an hour closes nothing that a fresh one would keep.
            seen.retain(|_, t| now.saturating_duration_since(*t) < GUEST_WINDOW);
        }
        seen.insert(user, now);
    }

    /// When `user` was last seen, if since the start.
    pub fn last_seen(&self, user: i64) -> Option<Instant> {
        let seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        seen.get(&user).copied()
    }

    /// Counts a guest account for `ip`, or refuses one past `per_hour` in
    /// the current hour's window (0: no cap).
    pub fn admit_guest(&self, ip: IpAddr, per_hour: u32) -> HallResult<()> {
        if per_hour == 0 {
            return Ok(());
        }
        let now = Instant::now();
        let mut guests = self.guests.lock().unwrap_or_else(|e| e.into_inner());
        if guests.len() >= MAX_ENTRIES {
            guests.retain(|_, (_, at)| now.saturating_duration_since(*at) < GUEST_WINDOW);
        }
        let (count, since) = guests.entry(ip).or_insert((0, now));
        if now.saturating_duration_since(*since) >= GUEST_WINDOW {
            *count = 0;
            *since = now;
        }
        if *count >= per_hour {
            return Err(HallError::new(
                ErrorCode::GuestRateLimited,
                format!(
                    "at most {per_hour} guest accounts an hour from one address: sign in or wait"
                ),
            )
            .with("max", per_hour));
        }
        *count += 1;
        Ok(())
    }
}

impl Hall {
    /// Whether the room `live` (waiting for players) has been left: none of
    /// the people seated in it has been seen for the room's idle time, and
    /// nothing has changed in it for as long.
    pub(crate) fn room_abandoned(&self, live: &Live, now: Instant) -> bool {
        if live.row.status != "waiting" {
            return false;
        }
        let people = || {
            live.row.seats.iter().filter_map(|s| match s {
                SeatRow::User { id, .. } => Some(*id),
                _ => None,
            })
        };
        // Someone with a socket open (the room's page, the lobby) is here.
        if people().any(|u| self.sockets.of_user(u) > 0) {
            return false;
        }
        let last = live
            .row
            .seats
            .iter()
            .filter_map(|s| match s {
                SeatRow::User { id, .. } => self.presence.last_seen(*id),
                _ => None,
            })
            .fold(live.touched, Instant::max);
        // A correspondence room waits days for an opponent: a week.
        let idle = if crate::domain::opening::correspondence_days(&live.row).is_some() {
            Duration::from_secs(7 * 86_400).max(self.limits.open_room_idle)
        } else {
            self.limits.open_room_idle
        };
        now.saturating_duration_since(last) >= idle
    }

    /// Closes the abandoned room `live` (see [`Hall::close_room`]); a
    /// challenge in it is cancelled on both sides.
    pub(crate) async fn close_abandoned_room(&self, live: &mut Live) -> bool {
        match self.close_room(live).await {
            Ok(closed) => {
                if closed {
                    self.metrics.rooms_closed.inc();
                    self.tell_challenge(live, |challenge| UserEvent::ChallengeCanceled {
                        challenge,
                    });
                    tracing::info!(game = %live.row.id, "abandoned room closed");
                }
                closed
            }
            Err(e) => {
                tracing::warn!(game = %live.row.id, error = %e, "cannot close an abandoned room");
                false
            }
        }
    }

    /// Closes the waiting room `live`: it is deleted from storage (it never
    /// started: no move, no result) and leaves the lobby. Returns whether it
    /// was closed (false: it had started meanwhile); the game's task then
    /// ends. Jobs that reach it after that see a finished room and change
    /// nothing.
    pub(crate) async fn close_room(
        &self,
        live: &mut Live,
    ) -> Result<bool, crate::store::StoreError> {
        if !self.store.delete_open_room(&live.row.id).await? {
            return Ok(false);
        }
        live.row.status = "finished".into();
        live.closed = true;
        self.unlist_room(&live.row.id);
        self.announce(live);
        Ok(true)
    }

    /// Withdraws a waiting room: its creator cancels it, or the user a
    /// challenge is for declines it. Both sides hear of it.
    pub async fn withdraw(&self, id: &str, user: &User) -> HallResult<()> {
        let user = user.clone();
        self.ask(id, |reply| GameCommand::Withdraw { user, reply })
            .await?
    }

    pub(crate) async fn withdraw_in(&self, live: &mut Live, user: User) -> HallResult<()> {
        let seated = Hall::seat_of(live, &user).is_some();
        let challenged = live
            .challenge
            .as_ref()
            .is_some_and(|(id, _)| *id == user.id);
        if !seated && !challenged {
            return Err(not_a_player());
        }
        if live.row.status != "waiting" {
            return Err(
                HallError::conflict("only a room waiting for players can be withdrawn")
                    .with_code(ErrorCode::NotWaiting),
            );
        }
        self.check_owner(live)?;
        match self.close_room(live).await {
            Ok(true) => {}
            Ok(false) => {
                return Err(
                    HallError::conflict("the game has started").with_code(ErrorCode::NotWaiting)
                );
            }
            Err(e) => return Err(self.refused(live, e)),
        }
        if seated {
            self.tell_challenge(live, |challenge| UserEvent::ChallengeCanceled { challenge });
        } else {
            self.tell_challenge(live, |challenge| UserEvent::ChallengeDeclined { challenge });
        }
        tracing::info!(game = %live.row.id, user = %user.username, "room withdrawn");
        Ok(())
    }

    /// Deletes guests that never played and have not been seen for the
    /// guest idle time; returns how many.
    pub async fn purge_idle_guests(&self) -> HallResult<u64> {
        let idle = i64::try_from(self.limits.guest_idle.as_millis()).unwrap_or(i64::MAX);
        let cutoff = crate::clock::wall_ms().saturating_sub(idle);
        self.store
            .purge_idle_guests(cutoff)
            .await
            .map_err(HallError::internal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guests_per_address_are_capped_per_hour() {
        let p = Presence::default();
        let a: IpAddr = [127, 0, 0, 1].into();
        let b: IpAddr = [127, 0, 0, 2].into();
        for _ in 0..3 {
            assert!(p.admit_guest(a, 3).is_ok());
        }
        assert_eq!(
            p.admit_guest(a, 3).err().map(|e| e.code.to_string()),
            Some("guest_rate_limited".to_string())
        );
        assert!(p.admit_guest(b, 3).is_ok(), "another address has its own");
        assert!(p.admit_guest(a, 0).is_ok(), "0 turns the cap off");
    }

    #[test]
    fn a_user_is_seen_when_noted() {
        let p = Presence::default();
        assert!(p.last_seen(7).is_none());
        let before = Instant::now();
        p.seen(7);
        assert!(p.last_seen(7).is_some_and(|t| t >= before));
    }
}
