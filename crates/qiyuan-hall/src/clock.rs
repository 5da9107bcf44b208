//! Game clocks and lag compensation.
//!
//! Each seat has a remaining time. The clock of the seat to move runs from the
//! moment its turn started (the previous move was stored and sent). When a
//! move arrives, the mover is charged the time since then **minus a lag
//! credit**: the round-trip time the server measured on that player's
//! WebSocket (the median of its recent pings), which covers the state's trip
//! to the player and the move's trip back. The credit is capped at
//! [`MAX_LAG_CREDIT_MS`] per move so a slow link cannot buy unlimited time, and
//! a move is never charged less than 0. Moves sent over the HTTP API get no
//! credit (the server cannot measure their network time). The increment is
//! added when a seat's turn ends, once per turn (a Jifen double turn earns it
//! once). Time while the server is down is not charged: a resumed game's clocks
//! are those stored with its last move, and the turn starts again on resume.

use std::time::{Instant, SystemTime, UNIX_EPOCH};

/// The most network time credited back for one move.
pub const MAX_LAG_CREDIT_MS: i64 = 1000;

/// Milliseconds since the Unix epoch (for stored timestamps).
pub fn wall_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// The clocks of one game.
#[derive(Clone, Debug)]
pub struct Clocks {
    /// Remaining ms per seat as of `since` (for the running seat) or now.
    pub remaining: Vec<i64>,
    /// Increment per turn in ms.
    pub increment_ms: i64,
    /// The seat whose clock runs, and since when.
    pub running: Option<(usize, Instant)>,
}

impl Clocks {
    /// Clocks with `remaining` ms per seat, none running.
    pub fn new(remaining: Vec<i64>, increment_ms: i64) -> Clocks {
        Clocks {
            remaining,
            increment_ms,
            running: None,
        }
    }

    /// Remaining ms per seat at `now` (the running one counts down).
    pub fn at(&self, now: Instant) -> Vec<i64> {
        let mut r = self.remaining.clone();
        if let Some((seat, since)) = self.running
            && let Some(x) = r.get_mut(seat)
        {
            *x -= now.saturating_duration_since(since).as_millis() as i64;
        }
        r
    }

    /// The seat whose flag has fallen at `now`, if any.
    pub fn flagged(&self, now: Instant) -> Option<usize> {
        let (seat, _) = self.running?;
        (self.at(now).get(seat).copied().unwrap_or(1) <= 0).then_some(seat)
    }

    /// When the running clock will reach zero.
    pub fn deadline(&self) -> Option<Instant> {
        let (seat, since) = self.running?;
        let left = (*self.remaining.get(seat)?).max(0) as u64;
        Some(since + std::time::Duration::from_millis(left))
    }

    /// Charges a move by `seat` that arrived at `now` with `lag_credit_ms` of
    /// measured network time, then starts the clock of `next` (if any). Adds
    /// the increment when the turn passed to another seat. Returns what was
    /// charged.
    pub fn charge_move(
        &mut self,
        seat: usize,
        now: Instant,
        lag_credit_ms: i64,
        next: Option<usize>,
    ) -> i64 {
        let mut charged = 0;
        if let Some((running, since)) = self.running
            && running == seat
        {
            let elapsed = now.saturating_duration_since(since).as_millis() as i64;
            let credit = lag_credit_ms.clamp(0, MAX_LAG_CREDIT_MS);
            charged = (elapsed - credit).max(0);
            if let Some(r) = self.remaining.get_mut(seat) {
                *r -= charged;
            }
        }
        if next != Some(seat)
            && let Some(r) = self.remaining.get_mut(seat)
        {
            *r += self.increment_ms;
        }
        self.running = next.map(|n| (n, now));
        charged
    }

    /// Stops the clocks at `now`, keeping what is left.
    pub fn stop(&mut self, now: Instant) {
        self.remaining = self.at(now);
        self.running = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn charges_elapsed_minus_capped_lag_and_adds_increment_per_turn() {
        let t0 = Instant::now();
        let mut c = Clocks::new(vec![10_000, 10_000], 2_000);
        c.running = Some((0, t0));
        let charged = c.charge_move(0, t0 + Duration::from_millis(3_000), 500, Some(1));
        assert_eq!(charged, 2_500);
        assert_eq!(c.remaining, vec![10_000 - 2_500 + 2_000, 10_000]);
        // A huge claimed lag is capped.
        let t1 = t0 + Duration::from_millis(3_000);
        let charged = c.charge_move(1, t1 + Duration::from_millis(4_000), 60_000, Some(1));
        assert_eq!(charged, 3_000);
        // Same seat again (double turn): no increment yet.
        assert_eq!(c.remaining[1], 7_000);
    }

    #[test]
    fn flag_falls_at_zero() {
        let t0 = Instant::now();
        let mut c = Clocks::new(vec![1_000, 1_000], 0);
        c.running = Some((1, t0));
        assert_eq!(c.flagged(t0 + Duration::from_millis(999)), None);
        assert_eq!(c.flagged(t0 + Duration::from_millis(1_000)), Some(1));
        assert_eq!(c.deadline(), Some(t0 + Duration::from_millis(1_000)));
    }
}
