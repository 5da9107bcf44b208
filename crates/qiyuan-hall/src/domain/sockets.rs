//! Caps on long-lived connections (WebSockets, NDJSON streams and long
//! polls, one count for all three): per client address, per user and in
//! all, counted from the admission until the socket, stream or poll ends (a
//! [`SocketSlot`] gives its place back when dropped, however it ends). The
//! cap in all ([`Limits::max_long_lived`]) stays below the connection cap,
//! so short requests (health checks, logins) keep descriptors.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use crate::error::ErrorCode;
use crate::error::{HallError, HallResult};
use crate::limits::Limits;

#[derive(Default)]
struct Counts {
    total: usize,
    by_ip: HashMap<IpAddr, usize>,
    by_user: HashMap<i64, usize>,
}

/// Open sockets per address and per user.
#[derive(Default)]
pub struct SocketCounts {
    counts: Arc<Mutex<Counts>>,
}

/// One admitted socket; dropping it frees its place.
pub struct SocketSlot {
    counts: Arc<Mutex<Counts>>,
    ip: IpAddr,
    user: Option<i64>,
}

impl SocketCounts {
    /// Admits a socket from `ip` for `user`, or a 429 `too_many_sockets`
    /// (its address or user has too many), or a 503 `busy` (the server has
    /// [`Limits::max_long_lived`] already).
    pub fn admit(&self, ip: IpAddr, user: Option<i64>, limits: &Limits) -> HallResult<SocketSlot> {
        let mut c = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        if limits.max_long_lived > 0 && c.total >= limits.max_long_lived {
            return Err(HallError::busy(
                "the server has as many open sockets and streams as it takes: try again later",
            ));
        }
        // 0 turns a cap off (load tests from one address).
        if limits.sockets_per_ip > 0
            && c.by_ip.get(&ip).copied().unwrap_or(0) >= limits.sockets_per_ip
        {
            return Err(HallError::new(
                ErrorCode::TooManySockets,
                format!(
                    "at most {} open sockets per address: close one first",
                    limits.sockets_per_ip
                ),
            )
            .with("max", limits.sockets_per_ip));
        }
        if let Some(u) = user
            && limits.sockets_per_user > 0
            && c.by_user.get(&u).copied().unwrap_or(0) >= limits.sockets_per_user
        {
            return Err(HallError::new(
                ErrorCode::TooManySockets,
                format!(
                    "at most {} open sockets per user: close one first",
                    limits.sockets_per_user
                ),
            )
            .with("max", limits.sockets_per_user));
        }
        c.total += 1;
        *c.by_ip.entry(ip).or_default() += 1;
        if let Some(u) = user {
            *c.by_user.entry(u).or_default() += 1;
        }
        Ok(SocketSlot {
            counts: self.counts.clone(),
            ip,
            user,
        })
    }

    /// Sockets `user` has open now (a person still around).
    pub fn of_user(&self, user: i64) -> usize {
        let c = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        c.by_user.get(&user).copied().unwrap_or(0)
    }

    /// Sockets open from `ip` now.
    pub fn open_from(&self, ip: IpAddr) -> usize {
        let c = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        c.by_ip.get(&ip).copied().unwrap_or(0)
    }
}

fn release<K: std::hash::Hash + Eq>(map: &mut HashMap<K, usize>, k: &K) {
    if let Some(n) = map.get_mut(k) {
        *n -= 1;
        if *n == 0 {
            map.remove(k);
        }
    }
}

impl Drop for SocketSlot {
    fn drop(&mut self) {
        let mut c = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        c.total = c.total.saturating_sub(1);
        release(&mut c.by_ip, &self.ip);
        if let Some(u) = self.user {
            release(&mut c.by_user, &u);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_per_address_and_user_and_frees_on_drop() {
        let limits = Limits {
            sockets_per_ip: 2,
            sockets_per_user: 1,
            ..Limits::default()
        };
        let counts = SocketCounts::default();
        let ip: IpAddr = [127, 0, 0, 1].into();
        let a = counts.admit(ip, Some(7), &limits).expect("first");
        assert_eq!(
            counts
                .admit(ip, Some(7), &limits)
                .err()
                .map(|e| e.code.to_string()),
            Some("too_many_sockets".to_string())
        );
        let b = counts.admit(ip, None, &limits).expect("anonymous");
        assert!(counts.admit(ip, None, &limits).is_err());
        drop(a);
        assert_eq!(counts.open_from(ip), 1);
        let _c = counts.admit(ip, Some(7), &limits).expect("after a close");
        drop(b);
        assert_eq!(counts.open_from(ip), 1);
    }

    #[test]
    fn caps_in_all_with_busy() {
        let limits = Limits {
            max_long_lived: 2,
            ..Limits::default()
        };
        let counts = SocketCounts::default();
        let a = counts
            .admit([10, 0, 0, 1].into(), None, &limits)
            .expect("1");
        let _b = counts
            .admit([10, 0, 0, 2].into(), None, &limits)
            .expect("2");
        let e = counts.admit([10, 0, 0, 3].into(), None, &limits).err();
        assert_eq!(
            e.map(|e| (e.status, e.code.to_string())),
            Some((503, "busy".to_string()))
        );
        drop(a);
        assert!(counts.admit([10, 0, 0, 3].into(), None, &limits).is_ok());
    }
}
