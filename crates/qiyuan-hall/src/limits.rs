//! Every bound the hall enforces, in one place. Request fields are checked
//! against the constants *before* anything is allocated from them (an event
//! of `groups: 2147483648` is refused, not built); the OpenAPI document
//! states the same numbers. [`Limits`] holds the bounds an operator (or a
//! test) may change at start.

use std::time::Duration;

/// Largest request body accepted (bytes).
pub const MAX_BODY: usize = 16 * 1024;
/// Largest game file `POST /api/import` reads (bytes): its own body limit,
/// the only route allowed more than [`MAX_BODY`] (1 MiB, the most a kind's
/// importer reads; a long commented game is a few tens of KiB).
pub const MAX_IMPORT_BODY: usize = 1 << 20;
/// Largest WebSocket message or frame accepted from a client (bytes).
pub const MAX_FRAME: usize = 4 * 1024;
/// Longest move text: room for a Chinese-checkers jump chain of 60 hops
/// (`ROW.COL-` is at most 6 bytes a cell). (Game options such as a target
/// score or a room base are bounded by their kind's `OptionSpec`s, listed at
/// `GET /api/kinds`.)
pub const MAX_MOVE_LEN: usize = 384;
/// Longest set-up position text.
pub const MAX_FEN_LEN: usize = 256;
/// Longest event or team name (characters).
pub const MAX_NAME_CHARS: usize = 100;
/// A clock's base time: 1 s to 3 h.
pub const MAX_CLOCK_INITIAL_S: i64 = 3 * 3600;
/// A clock's increment: 0 to 600 s.
pub const MAX_CLOCK_INCREMENT_S: i64 = 600;
/// Entrants of one event.
pub const MAX_EVENT_PLAYERS: usize = 256;
/// Groups of a three-stage event.
pub const MAX_GROUPS: u32 = 64;
/// Advancers per group of a three-stage event (a power of two).
pub const MAX_ADVANCE_PER_GROUP: u32 = 64;
/// The stage-3 bracket of a three-stage event (a power of two).
pub const MAX_FINAL_BRACKET: u32 = 256;
/// Rounds of a Swiss event.
pub const MAX_SWISS_ROUNDS: u32 = 64;
/// Tie-breaks named by one event.
pub const MAX_TIE_BREAKS: usize = 8;
/// Unshareable places named by one event.
pub const MAX_UNSHAREABLE_PLACES: usize = 64;
/// The event game time cap (X6): 1 s to 24 h.
pub const MAX_GAME_TIME_CAP_S: u64 = 24 * 3600;
/// Teams of one team event.
pub const MAX_TEAMS: usize = 16;
/// Players (boards) per team.
pub const MAX_BOARDS: usize = 8;
/// The `players` list of `GET /api/ratings`.
pub const MAX_RATINGS_PLAYERS: usize = 64;
/// The most a connection buffers of a request head (request line and
/// headers) or of unread body bytes: a longer head is a 431. This bounds the
/// memory a slow or stalled client can hold per connection.
pub const MAX_HEAD: usize = 16 * 1024;
/// Headers of one request; more is a 431.
pub const MAX_HEADERS: usize = 64;
/// File descriptors kept back from connections for the database, its
/// journal, logs, the listener and refusals being answered.
pub const FD_RESERVE: usize = 128;

/// Checks `value` against `min..=max`; the error names the field and the bounds.
pub fn check_range<T: Into<i64> + Copy>(
    field: &str,
    value: T,
    min: i64,
    max: i64,
) -> crate::error::HallResult<()> {
    let v: i64 = value.into();
    if (min..=max).contains(&v) {
        Ok(())
    } else {
        Err(crate::error::HallError::out_of_range(field, min, max))
    }
}

/// Checks a list's length; the error names the field and the bound.
pub fn check_len(field: &str, len: usize, max: usize) -> crate::error::HallResult<()> {
    if len <= max {
        Ok(())
    } else {
        Err(crate::error::HallError::range(
            format!("{field}: at most {max} entries"),
            field,
            0,
            max as i64,
        ))
    }
}

/// Bounds set at start (`qiyuan serve` flags; tests lower them).
#[derive(Clone, Debug)]
pub struct Limits {
    /// A session lives this long after its last use (sliding renewal).
    pub session_ttl: Duration,
    /// Sessions kept per user; the oldest go first.
    pub sessions_per_user: usize,
    /// Open WebSockets per client address.
    pub sockets_per_ip: usize,
    /// Open WebSockets per user.
    pub sockets_per_user: usize,
    /// A socket that sends nothing (not even a pong) for this long is closed.
    pub socket_idle: Duration,
    /// Failed logins for one account before each further try is delayed.
    pub login_free_failures: u32,
    /// Failed logins from one address before each further try is delayed.
    pub login_ip_free_failures: u32,
    /// The longest delay a throttled login is made to wait.
    pub login_max_delay: Duration,
    /// Password hashes computed at once (argon2 is slow on purpose; the rest
    /// wait, so guessing cannot take the cores that play needs).
    pub hash_workers: usize,
    /// Password checks that may wait for a hash worker; more get a 503.
    pub hash_queue: usize,
    /// Games against the AI a user may have in play at once.
    pub ai_games_per_user: usize,
    /// Unfinished events with AI entrants one user may organise at once.
    pub ai_events_per_user: usize,
    /// AI entrants in an event a registered user organises; guests may
    /// enter none.
    pub event_ai_entrants: usize,
    /// Rooms waiting for players that one user may have open at once.
    pub open_rooms_per_user: usize,
    /// A room waiting for players is closed once its creator has not been
    /// seen (no open socket, no request) for this long.
    pub open_room_idle: Duration,
    /// How often each pool pairs the players waiting in it.
    pub pool_wave: Duration,
    /// A player waiting in a pool with no socket open for this long leaves it.
    pub pool_presence_grace: Duration,
    /// The time a side has for its first move before the game is aborted
    /// (never more than the clock's base or per-move time).
    pub first_move_grace: Duration,
    /// How long a player must be gone during their turn before the
    /// opponent may claim the game (shorter in fast games).
    pub absence_claim: Duration,
    /// Guest accounts one address may create per hour (0: no cap).
    pub guests_per_ip_hour: u32,
    /// A guest that never played and has not been seen for this long is
    /// deleted with its sessions.
    pub guest_idle: Duration,
    /// A connection waiting for a request head (a new one, or a kept-alive
    /// one between requests) is closed if the whole head has not arrived
    /// within this time: this bounds both slow headers and idle keep-alive.
    pub header_timeout: Duration,
    /// A request body must arrive whole within this time (after its head),
    /// else 408 `timeout` and the connection is closed.
    pub body_timeout: Duration,
    /// Open connections per client address (WebSockets included); more are
    /// answered 429 `too_many_connections` and closed. 0: no cap.
    pub connections_per_ip: usize,
    /// Open connections in all; more are answered 503 `busy` and closed.
    /// 0: as many as the open-files limit allows less [`FD_RESERVE`]; a
    /// larger value is lowered to that at start.
    pub max_connections: usize,
    /// WebSockets, NDJSON streams and long polls open at once in all; more
    /// are answered 503 `busy`. 0: `max_connections` less one eighth, kept
    /// for short requests (health checks, logins); a larger value is
    /// lowered to that at start.
    pub max_long_lived: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            session_ttl: Duration::from_secs(30 * 24 * 3600),
            sessions_per_user: 20,
            sockets_per_ip: 64,
            sockets_per_user: 16,
            socket_idle: Duration::from_secs(60),
            login_free_failures: 5,
            login_ip_free_failures: 20,
            login_max_delay: Duration::from_secs(15 * 60),
            hash_workers: std::thread::available_parallelism().map_or(1, |n| (n.get() / 2).max(1)),
            hash_queue: 32,
            ai_games_per_user: 4,
            ai_events_per_user: 1,
            event_ai_entrants: 16,
            open_rooms_per_user: 8,
            open_room_idle: Duration::from_secs(15),
            pool_wave: Duration::from_secs(2),
            pool_presence_grace: Duration::from_secs(5),
            first_move_grace: Duration::from_secs(30),
            absence_claim: Duration::from_secs(30),
            guests_per_ip_hour: 30,
            guest_idle: Duration::from_secs(24 * 3600),
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            connections_per_ip: 256,
            max_connections: 0,
            max_long_lived: 0,
        }
    }
}

impl Limits {
    /// These limits with the connection caps fitted to `open_files`, the
    /// process's open-files limit (`None`: unlimited): connections stay
    /// [`FD_RESERVE`] below it, and long-lived ones (sockets, streams, long
    /// polls) leave an eighth of the connections (1 to 1024) to short
    /// requests, so health checks and logins still get through when
    /// streams pile up.
    pub fn fit_to_descriptors(mut self, open_files: Option<u64>) -> Limits {
        let budget = open_files.map_or(usize::MAX, |n| {
            usize::try_from(n)
                .unwrap_or(usize::MAX)
                .saturating_sub(FD_RESERVE)
                .max(8)
        });
        self.max_connections = match self.max_connections {
            0 => budget,
            n => n.min(budget),
        };
        let room = if self.max_connections == usize::MAX {
            usize::MAX
        } else {
            let short = (self.max_connections / 8).clamp(1, 1024);
            self.max_connections.saturating_sub(short).max(1)
        };
        self.max_long_lived = match self.max_long_lived {
            0 => room,
            n => n.min(room),
        };
        self
    }
}

#[cfg(test)]
mod connection_cap_tests {
    use super::*;

    #[test]
    fn connection_caps_fit_the_descriptors() {
        let l = Limits::default().fit_to_descriptors(Some(300));
        assert_eq!(l.max_connections, 300 - FD_RESERVE);
        assert_eq!(l.max_long_lived, 172 - 21);
        let l = Limits {
            max_connections: 10_000,
            max_long_lived: 50,
            ..Limits::default()
        }
        .fit_to_descriptors(Some(1024));
        assert_eq!((l.max_connections, l.max_long_lived), (896, 50));
        let l = Limits::default().fit_to_descriptors(None);
        assert_eq!(l.max_connections, usize::MAX);
        assert_eq!(l.max_long_lived, usize::MAX);
        let l = Limits {
            max_connections: 4,
            ..Limits::default()
        }
        .fit_to_descriptors(Some(100));
        assert_eq!((l.max_connections, l.max_long_lived), (4, 3));
    }
}
