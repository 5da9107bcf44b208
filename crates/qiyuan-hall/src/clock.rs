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
//! added when a seat's turn ends, once per turn (a double-move turn earns it
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

/// The clocks of one game. Several may run at once (every seat that acts
/// in a simultaneous phase); each running clock counts from when its seat's
/// turn began.
#[derive(Clone, Debug)]
pub struct Clocks {
    /// Remaining ms per seat as of each running seat's `since`, or now.
    pub remaining: Vec<i64>,
    /// Increment per turn in ms.
    pub increment_ms: i64,
    /// The seats whose clocks run, and since when.
    pub running: Vec<(usize, Instant)>,
}

impl Clocks {
    /// Clocks with `remaining` ms per seat, none running.
    pub fn new(remaining: Vec<i64>, increment_ms: i64) -> Clocks {
        Clocks {
            remaining,
            increment_ms,
            running: Vec::new(),
        }
    }

    /// Starts the clocks of `seats` at `now` (the seats to act; a seat whose
    /// clock already runs keeps its start).
    pub fn start(&mut self, seats: &[usize], now: Instant) {
        self.running = seats
            .iter()
            .map(|&s| {
                let since = self
                    .running
                    .iter()
                    .find(|(r, _)| *r == s)
                    .map_or(now, |&(_, t)| t);
                (s, since)
            })
            .collect();
    }

    /// Restarts `seat`'s running clock at `now` (time it was not on turn,
    /// such as an AI waiting for a thinking slot).
    pub fn restart(&mut self, seat: usize, now: Instant) {
        for r in &mut self.running {
            if r.0 == seat {
                r.1 = now;
            }
        }
    }

    /// The first running seat, if any (for views of turn-based games).
    pub fn first_running(&self) -> Option<usize> {
        self.running.first().map(|&(s, _)| s)
    }

    /// Remaining ms per seat at `now` (running ones count down), never
    /// below 0: a flag that has fallen reads 0, however late it is noticed.
    pub fn at(&self, now: Instant) -> Vec<i64> {
        let mut r = self.remaining.clone();
        for &(seat, since) in &self.running {
            if let Some(x) = r.get_mut(seat) {
                let spent = i64::try_from(now.saturating_duration_since(since).as_millis())
                    .unwrap_or(i64::MAX);
                *x = x.saturating_sub(spent);
            }
        }
        r.iter_mut().for_each(|x| *x = (*x).max(0));
        r
    }

    /// A running seat whose flag has fallen at `now`, if any.
    pub fn flagged(&self, now: Instant) -> Option<usize> {
        let at = self.at(now);
        self.running
            .iter()
            .map(|&(s, _)| s)
            .find(|&s| at.get(s).copied().unwrap_or(1) <= 0)
    }

    /// When the first running clock will reach zero.
    pub fn deadline(&self) -> Option<Instant> {
        self.running
            .iter()
            .filter_map(|&(seat, since)| {
                let left = (*self.remaining.get(seat)?).max(0) as u64;
                Some(since + std::time::Duration::from_millis(left))
            })
            .min()
    }

    /// Charges a move by `seat` that arrived at `now` with `lag_credit_ms` of
    /// measured network time, then runs the clocks of `next` (the seats to
    /// act after it; those already running go on). Adds the increment when
    /// `seat`'s turn ended, which it did unless `seat` acts next. Returns
    /// what was charged.
    pub fn charge_move(
        &mut self,
        seat: usize,
        now: Instant,
        lag_credit_ms: i64,
        next: &[usize],
    ) -> i64 {
        self.charge_turn(seat, now, lag_credit_ms, next, !next.contains(&seat))
    }

    /// [`Clocks::charge_move`] where the game says whether `seat`'s turn
    /// ended (`turn_ends`: it earns the increment). A seat may end one turn
    /// and act in the next: a seat whose secret set-up (its turn of a
    /// simultaneous set-up phase) was sent or given on time and that moves
    /// first; only the first move of a multi-move turn (a double turn)
    /// earns none.
    pub fn charge_turn(
        &mut self,
        seat: usize,
        now: Instant,
        lag_credit_ms: i64,
        next: &[usize],
        turn_ends: bool,
    ) -> i64 {
        let mut charged = 0;
        if let Some(&(_, since)) = self.running.iter().find(|(r, _)| *r == seat) {
            let elapsed = now.saturating_duration_since(since).as_millis() as i64;
            let credit = lag_credit_ms.clamp(0, MAX_LAG_CREDIT_MS);
            charged = (elapsed - credit).max(0);
            if let Some(r) = self.remaining.get_mut(seat) {
                *r = (*r - charged).max(0);
            }
        }
        if turn_ends && let Some(r) = self.remaining.get_mut(seat) {
            *r += self.increment_ms;
        }
        // The mover's own clock (a multi-move turn) restarts from now.
        self.running.retain(|(r, _)| *r != seat);
        self.start(next, now);
        charged
    }

    /// Stops the clocks at `now`, keeping what is left.
    pub fn stop(&mut self, now: Instant) {
        self.remaining = self.at(now);
        self.running.clear();
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
        c.start(&[0], t0);
        let charged = c.charge_move(0, t0 + Duration::from_millis(3_000), 500, &[1]);
        assert_eq!(charged, 2_500);
        assert_eq!(c.remaining, vec![10_000 - 2_500 + 2_000, 10_000]);
        // A huge claimed lag is capped.
        let t1 = t0 + Duration::from_millis(3_000);
        let charged = c.charge_move(1, t1 + Duration::from_millis(4_000), 60_000, &[1]);
        assert_eq!(charged, 3_000);
        // Same seat again (double turn): no increment yet.
        assert_eq!(c.remaining[1], 7_000);
    }

    #[test]
    fn a_clock_never_reads_below_zero() {
        let t0 = Instant::now();
        let mut c = Clocks::new(vec![1_000, 1_000], 0);
        c.start(&[0], t0);
        // The flag is noticed 90 ms late: the clock reads 0, not -90.
        let late = t0 + Duration::from_millis(1_090);
        assert_eq!(c.at(late), vec![0, 1_000]);
        assert_eq!(c.flagged(late), Some(0));
        c.stop(late);
        assert_eq!(c.remaining, vec![0, 1_000]);
        // A move charged past the remaining time leaves 0 (plus increment).
        let mut c = Clocks::new(vec![500, 500], 0);
        c.start(&[1], t0);
        c.charge_move(1, t0 + Duration::from_millis(800), 0, &[0]);
        assert_eq!(c.remaining, vec![500, 0]);
    }

    #[test]
    fn flag_falls_at_zero() {
        let t0 = Instant::now();
        let mut c = Clocks::new(vec![1_000, 1_000], 0);
        c.start(&[1], t0);
        assert_eq!(c.flagged(t0 + Duration::from_millis(999)), None);
        assert_eq!(c.flagged(t0 + Duration::from_millis(1_000)), Some(1));
        assert_eq!(c.deadline(), Some(t0 + Duration::from_millis(1_000)));
    }

    #[test]
    fn clocks_of_a_simultaneous_phase_run_together_and_stop_one_by_one() {
        let t0 = Instant::now();
        let mut c = Clocks::new(vec![10_000, 8_000, 5_000], 1_000);
        c.start(&[0, 1, 2], t0);
        let t1 = t0 + Duration::from_millis(2_000);
        assert_eq!(c.at(t1), vec![8_000, 6_000, 3_000]);
        assert_eq!(c.deadline(), Some(t0 + Duration::from_millis(5_000)));
        // Seat 1 acts: charged 2 s plus its increment; 0 and 2 keep running.
        assert_eq!(c.charge_move(1, t1, 0, &[0, 2]), 2_000);
        let t2 = t1 + Duration::from_millis(1_000);
        assert_eq!(c.at(t2), vec![7_000, 7_000, 2_000]);
        assert_eq!(c.flagged(t0 + Duration::from_millis(5_000)), Some(2));
        c.stop(t2);
        assert!(c.running.is_empty());
        assert_eq!(c.remaining, vec![7_000, 7_000, 2_000]);
    }

    #[test]
    fn a_seat_that_ends_its_set_up_and_moves_first_earns_its_increment_like_the_other() {
        // Both set-ups run out together: each seat is charged to 0 and earns
        // its increment, whether it acts next (red, moving first) or not.
        let t0 = Instant::now();
        let late = t0 + Duration::from_millis(1_000);
        let mut c = Clocks::new(vec![1_000, 1_000], 2_000);
        c.start(&[0, 1], t0);
        c.charge_turn(1, late, 0, &[0], true);
        c.charge_turn(0, late, 0, &[0], true);
        assert_eq!(c.remaining, vec![2_000, 2_000]);
        assert_eq!(c.flagged(late), None);
        // The first move of a double turn earns none.
        let mut c = Clocks::new(vec![1_000, 1_000], 2_000);
        c.start(&[0], t0);
        c.charge_turn(0, t0 + Duration::from_millis(400), 0, &[0], false);
        assert_eq!(c.remaining, vec![600, 1_000]);
    }
}
