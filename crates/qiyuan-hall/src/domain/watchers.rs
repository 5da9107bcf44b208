//! Who is watching a game: the sockets and streams open on it (on this
//! node) by anyone who is not seated in it — spectators, signed in or not,
//! and people whose account plays no seat of the game. A seated player's
//! sockets (their extra tabs too) are not counted.
//!
//! The count lives in memory only: a socket or stream takes a [`Watching`]
//! for as long as it is open and not a seat's, and gives it back when
//! dropped, however it ends. An entry goes when its count reaches zero, so
//! the map never holds more entries than there are open sockets and
//! streams (capped by [`crate::limits::Limits::max_long_lived`]). Views read
//! a copy of the count that the game's task refreshes before each command
//! and each change ([`crate::domain::hall::Live::watchers`]), so building a
//! view stays free of locks and I/O.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

type Counts = Arc<Mutex<HashMap<String, usize>>>;

/// Open non-seat sockets and streams per game.
#[derive(Default)]
pub struct Watchers {
    counts: Counts,
}

/// One socket or stream watching a game; dropping it stops counting it.
pub struct Watching {
    counts: Counts,
    id: String,
}

impl Watchers {
    /// Counts one more watcher of game `id` until the guard is dropped.
    pub fn watch(&self, id: &str) -> Watching {
        let mut c = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        *c.entry(id.to_string()).or_default() += 1;
        Watching {
            counts: self.counts.clone(),
            id: id.to_string(),
        }
    }

    /// How many watch game `id` now.
    pub fn of(&self, id: &str) -> usize {
        let c = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        c.get(id).copied().unwrap_or(0)
    }

    /// Games with at least one watcher (for tests: entries never outlive
    /// their watchers).
    pub fn games_watched(&self) -> usize {
        self.counts.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

impl Drop for Watching {
    fn drop(&mut self) {
        let mut c = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = c.get_mut(&self.id) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                c.remove(&self.id);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_per_game_and_forgets_a_game_at_zero() {
        let w = Watchers::default();
        let a = w.watch("g1");
        let b = w.watch("g1");
        let c = w.watch("g2");
        assert_eq!((w.of("g1"), w.of("g2"), w.of("g3")), (2, 1, 0));
        drop(a);
        assert_eq!(w.of("g1"), 1);
        drop(b);
        drop(c);
        assert_eq!((w.of("g1"), w.games_watched()), (0, 0));
    }
}
