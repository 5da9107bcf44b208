//! Watching for the technical fouls of X8 that the hall can see itself:
//! a draw offer repeated before the opponent has made two moves since the
//! last one was declined. (Untrue move-limit claims are judged by the rules
//! crate; the hall counts them where it refuses the claim.) Counts are stored
//! per game and seat; events add them up per player.

use std::collections::HashMap;
use std::sync::Mutex;

/// Opponent moves that must follow a declined draw offer before the same
/// player may offer again without a foul (X8).
pub const MOVES_BEFORE_NEW_OFFER: u32 = 2;

/// Per game and seat: opponent moves since that seat's last declined offer
/// (`None`: no declined offer to wait out).
#[derive(Default)]
pub struct FoulWatch {
    games: Mutex<HashMap<String, [Option<u32>; 2]>>,
}

impl FoulWatch {
    fn with<R>(&self, game: &str, f: impl FnOnce(&mut [Option<u32>; 2]) -> R) -> R {
        let mut g = self.games.lock().unwrap_or_else(|e| e.into_inner());
        if g.len() > 100_000 {
            // Bounded memory: forget old games rather than grow (a lost entry
            // only forgives a repeated offer).
            g.clear();
        }
        f(g.entry(game.to_string()).or_default())
    }

    /// `seat`'s draw offer was declined (explicitly or by the opponent moving on).
    pub fn declined(&self, game: &str, seat: usize) {
        self.with(game, |w| {
            if let Some(s) = w.get_mut(seat) {
                *s = Some(0);
            }
        });
    }

    /// `seat` moved: counts towards the waits of the other seats.
    pub fn moved(&self, game: &str, seat: usize) {
        self.with(game, |w| {
            for (i, s) in w.iter_mut().enumerate() {
                if i != seat
                    && let Some(n) = s
                {
                    *n += 1;
                }
            }
        });
    }

    /// `seat` offers a draw; true if that is a foul (X8). The new offer
    /// starts a new wait once it is declined.
    pub fn offered(&self, game: &str, seat: usize) -> bool {
        self.with(game, |w| {
            let Some(s) = w.get_mut(seat) else {
                return false;
            };
            let foul = s.is_some_and(|n| n < MOVES_BEFORE_NEW_OFFER);
            *s = None;
            foul
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn x8_repeated_offer_before_two_opponent_moves_is_a_foul() {
        let w = FoulWatch::default();
        assert!(!w.offered("g", 0), "a first offer is fine");
        w.declined("g", 0);
        w.moved("g", 0); // red's own moves do not count
        w.moved("g", 1);
        assert!(w.offered("g", 0), "only one black move since the refusal");
        w.declined("g", 0);
        w.moved("g", 1);
        w.moved("g", 0);
        w.moved("g", 1);
        assert!(!w.offered("g", 0), "two black moves since the refusal");
        // Other games and seats are separate.
        assert!(!w.offered("h", 0));
        assert!(!w.offered("g", 1));
    }
}
