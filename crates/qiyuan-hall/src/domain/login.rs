//! Defences of the password endpoints: a throttle on failed logins (per
//! account and per client address, with a delay that doubles after each
//! failure past a free allowance) and a small pool that runs argon2 off the
//! async workers, a few hashes at a time, so that guessing cannot take the
//! cores that games need.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use tokio::sync::Semaphore;

use crate::error::ErrorCode;
use crate::error::{HallError, HallResult};

/// Entries kept before idle ones are forgotten.
const MAX_ENTRIES: usize = 100_000;

#[derive(Clone, Copy)]
struct Strikes {
    failures: u32,
    blocked_until: Instant,
    last: Instant,
}

/// Failed-login counters by key (`user:NAMEKEY`, `ip:ADDR`).
pub struct LoginThrottle {
    max_delay: Duration,
    entries: Mutex<HashMap<String, Strikes>>,
}

impl LoginThrottle {
    /// A throttle whose delays stop growing at `max_delay`.
    pub fn new(max_delay: Duration) -> LoginThrottle {
        LoginThrottle {
            max_delay,
            entries: Mutex::new(HashMap::new()),
        }
    }

    /// How long until `key` may try again (zero: now).
    pub fn wait(&self, key: &str) -> Duration {
        let now = Instant::now();
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries.get(key).map_or(Duration::ZERO, |s| {
            s.blocked_until.saturating_duration_since(now)
        })
    }

    /// Counts a failure; past `free` failures each one blocks the key for
    /// 1 s, 2 s, 4 s … up to the maximum delay.
    pub fn fail(&self, key: &str, free: u32) {
        let now = Instant::now();
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if entries.len() >= MAX_ENTRIES {
            let keep = self.max_delay * 2;
            entries.retain(|_, s| now.saturating_duration_since(s.last) < keep);
            if entries.len() >= MAX_ENTRIES {
                // Under a flood of distinct keys: forget the oldest half.
                let mut ages: Vec<Instant> = entries.values().map(|s| s.last).collect();
                ages.sort_unstable();
                let cut = ages[ages.len() / 2];
                entries.retain(|_, s| s.last > cut);
            }
        }
        let s = entries.entry(key.to_string()).or_insert(Strikes {
            failures: 0,
            blocked_until: now,
            last: now,
        });
        // Failures long ago are forgiven.
        if now.saturating_duration_since(s.last) > self.max_delay * 2 {
            s.failures = 0;
        }
        s.failures = s.failures.saturating_add(1);
        s.last = now;
        if s.failures > free {
            let doublings = (s.failures - free - 1).min(20);
            let delay = Duration::from_secs(1u64 << doublings).min(self.max_delay);
            s.blocked_until = now + delay;
        }
    }

    /// Forgets the failures of `key` (a successful login).
    pub fn clear(&self, key: &str) {
        self.entries
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(key);
    }
}

/// The error a throttled login gets: 429 `login_throttled`.
pub fn throttled(wait: Duration) -> HallError {
    let secs = wait.as_secs().max(1);
    HallError::new(
        ErrorCode::LoginThrottled,
        format!("too many failed logins: try again in {secs} s"),
    )
    .with("seconds", secs)
}

/// Runs password hashes on blocking threads, `workers` at a time, with at
/// most `queue` more waiting.
pub struct HashPool {
    permits: Semaphore,
    admitted: AtomicUsize,
    capacity: usize,
    running: AtomicUsize,
    peak: AtomicUsize,
}

/// Releases a pool slot even when the request is dropped mid-way.
struct Admitted<'a>(&'a AtomicUsize);

impl Drop for Admitted<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl HashPool {
    /// A pool of `workers` hashing threads and `queue` waiting places.
    pub fn new(workers: usize, queue: usize) -> HashPool {
        let workers = workers.max(1);
        HashPool {
            permits: Semaphore::new(workers),
            admitted: AtomicUsize::new(0),
            capacity: workers + queue,
            running: AtomicUsize::new(0),
            peak: AtomicUsize::new(0),
        }
    }

    /// The most hashes that ever ran at once (for tests and metrics).
    pub fn peak(&self) -> usize {
        self.peak.load(Ordering::Acquire)
    }

    /// Runs `work` on a blocking thread once a worker is free; a 503 `busy`
    /// when the queue is full.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> HallResult<T> {
        if self.admitted.fetch_add(1, Ordering::AcqRel) >= self.capacity {
            self.admitted.fetch_sub(1, Ordering::AcqRel);
            return Err(HallError::busy(
                "too many password checks at once: try again in a moment",
            ));
        }
        let _slot = Admitted(&self.admitted);
        let _permit = self.permits.acquire().await.map_err(HallError::internal)?;
        let now = self.running.fetch_add(1, Ordering::AcqRel) + 1;
        self.peak.fetch_max(now, Ordering::AcqRel);
        let _running = Admitted(&self.running);
        tokio::task::spawn_blocking(work)
            .await
            .map_err(HallError::internal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_start_after_the_free_failures_and_double() {
        let t = LoginThrottle::new(Duration::from_secs(60));
        for _ in 0..3 {
            t.fail("user:a", 3);
            assert_eq!(t.wait("user:a"), Duration::ZERO);
        }
        t.fail("user:a", 3);
        let first = t.wait("user:a");
        assert!(first > Duration::from_millis(500) && first <= Duration::from_secs(1));
        t.fail("user:a", 3);
        assert!(t.wait("user:a") > Duration::from_millis(1500));
        assert_eq!(t.wait("user:b"), Duration::ZERO);
        t.clear("user:a");
        assert_eq!(t.wait("user:a"), Duration::ZERO);
    }

    #[test]
    fn delays_stop_at_the_maximum() {
        let t = LoginThrottle::new(Duration::from_secs(10));
        for _ in 0..40 {
            t.fail("ip:x", 0);
        }
        assert!(t.wait("ip:x") <= Duration::from_secs(10));
    }

    #[tokio::test]
    async fn the_pool_runs_at_most_its_workers_and_refuses_past_its_queue() {
        let pool = std::sync::Arc::new(HashPool::new(1, 2));
        let mut tasks = Vec::new();
        for _ in 0..3 {
            let p = pool.clone();
            tasks.push(tokio::spawn(async move {
                p.run(|| std::thread::sleep(Duration::from_millis(100)))
                    .await
            }));
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        let refused = pool.run(|| ()).await;
        assert_eq!(
            refused.map_err(|e| e.code.to_string()),
            Err("busy".to_string())
        );
        for t in tasks {
            assert!(t.await.expect("task").is_ok());
        }
        assert_eq!(pool.peak(), 1);
        assert!(pool.run(|| ()).await.is_ok());
    }
}
