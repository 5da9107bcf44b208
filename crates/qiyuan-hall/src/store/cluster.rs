//! The nodes' registry (issue 17): which process runs each node id. The
//! leases themselves are [`super::ClusterStore`]'s; see `cluster::lease`
//! for what both are for.

use super::dialect::Dialect;
use super::rows::Cols as _;
use super::{StoreResult, sql};

/// The nodes' registrations in a store (see `cluster::lease`): the row of
/// a node id is held by the process that last claimed it, which refreshes
/// its `seen_ms` (a compare-and-set on the value it wrote last, so a
/// process whose id was claimed by another learns it at its next beat).
pub enum Nodes<'a> {
    /// A SQLite database.
    Sqlite(&'a sqlx::SqlitePool),
    /// A PostgreSQL database.
    Pg(&'a sqlx::PgPool),
}

impl<'a> From<&'a sqlx::SqlitePool> for Nodes<'a> {
    fn from(pool: &'a sqlx::SqlitePool) -> Self {
        Nodes::Sqlite(pool)
    }
}

impl<'a> From<&'a sqlx::PgPool> for Nodes<'a> {
    fn from(pool: &'a sqlx::PgPool) -> Self {
        Nodes::Pg(pool)
    }
}

/// Runs `$body` with `$pool` bound to the registry's pool and `$d` to its
/// dialect: the body is written once and compiled for each backend.
macro_rules! on_pool {
    ($nodes:expr, |$pool:ident, $d:ident| $body:expr) => {
        match $nodes {
            Nodes::Sqlite($pool) => {
                let $d = Dialect::Sqlite;
                $body
            }
            Nodes::Pg($pool) => {
                let $d = Dialect::Postgres;
                $body
            }
        }
    };
}

/// A player waiting in a pool, as every node sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct PoolEntry {
    pub user_id: i64,
    pub pool: String,
    pub username: String,
    pub guest: bool,
    pub rating: f64,
    /// The node the player is connected to (it keeps `seen_ms` fresh).
    pub node: String,
    pub since_ms: i64,
}

/// Registrations not seen for a day (and holding no lease) are forgotten:
/// generated node ids would otherwise pile up, one per start.
const FORGET_AFTER_MS: i64 = 24 * 3600 * 1000;

impl Nodes<'_> {
    /// Claims node `id` at `addr` for this process unless a registration
    /// seen at or after `stale_before_ms` holds it; on success the leases
    /// an earlier process of this id held are fenced off. The `seen_ms`
    /// written, or `None` while the id is held.
    pub async fn claim(
        &self,
        id: &str,
        addr: &str,
        stale_before_ms: i64,
    ) -> StoreResult<Option<i64>> {
        let now = crate::clock::wall_ms();
        on_pool!(self, |pool, d| {
            let seen: Option<i64> = sqlx::query_scalar(&d.sql(sql::NODE_CLAIM))
                .bind(id)
                .bind(addr)
                .bind(now)
                .bind(stale_before_ms)
                .fetch_optional(*pool)
                .await?;
            if seen.is_some() {
                sqlx::query(&d.sql(sql::NODE_FENCE_OFF))
                    .bind(id)
                    .execute(*pool)
                    .await?;
                sqlx::query(&d.sql(sql::NODES_PURGE))
                    .bind(now - FORGET_AFTER_MS)
                    .bind(now)
                    .execute(*pool)
                    .await?;
            }
            Ok(seen)
        })
    }

    /// `e` waits in its pool (leaving any other), seen now.
    pub async fn pool_join(&self, e: &PoolEntry) -> StoreResult<()> {
        on_pool!(self, |pool, d| {
            sqlx::query(&d.sql(sql::POOL_JOIN))
                .bind(e.user_id)
                .bind(&e.pool)
                .bind(&e.username)
                .bind(i64::from(e.guest))
                .bind(e.rating)
                .bind(&e.node)
                .bind(e.since_ms)
                .execute(*pool)
                .await?;
            Ok(())
        })
    }

    /// Takes `users` out of the pools; how many rows went.
    pub async fn pool_leave(&self, users: &[i64]) -> StoreResult<u64> {
        on_pool!(self, |pool, d| {
            let mut n = 0;
            for u in users {
                n += sqlx::query(&d.sql(sql::POOL_LEAVE))
                    .bind(u)
                    .execute(*pool)
                    .await?
                    .rows_affected();
            }
            Ok(n)
        })
    }

    /// `users` are still here at `now_ms`.
    pub async fn pool_seen(&self, users: &[i64], now_ms: i64) -> StoreResult<()> {
        on_pool!(self, |pool, d| {
            for u in users {
                sqlx::query(&d.sql(sql::POOL_SEEN))
                    .bind(u)
                    .bind(now_ms)
                    .execute(*pool)
                    .await?;
            }
            Ok(())
        })
    }

    /// Everyone waiting, after those not seen since `stale_before_ms` left.
    pub async fn pool_entries(&self, stale_before_ms: i64) -> StoreResult<Vec<PoolEntry>> {
        on_pool!(self, |pool, d| {
            sqlx::query(&d.sql(sql::POOL_PURGE))
                .bind(stale_before_ms)
                .execute(*pool)
                .await?;
            let rows = sqlx::query(&d.sql(sql::POOL_ENTRIES))
                .fetch_all(*pool)
                .await?;
            rows.iter()
                .map(|r| {
                    Ok(PoolEntry {
                        user_id: r.int("user_id")?,
                        pool: r.text("pool")?,
                        username: r.text("username")?,
                        guest: r.int("guest")? != 0,
                        rating: r.real("rating")?,
                        node: r.text("node")?,
                        since_ms: r.int("since_ms")?,
                    })
                })
                .collect()
        })
    }

    /// Where node `id` is reached and when it was last seen, if registered.
    pub async fn seen(&self, id: &str) -> StoreResult<Option<(String, i64)>> {
        on_pool!(self, |pool, d| {
            let row = sqlx::query(&d.sql(sql::NODE_SEEN))
                .bind(id)
                .fetch_optional(*pool)
                .await?;
            row.map(|r| Ok((r.text("addr")?, r.int("seen_ms")?)))
                .transpose()
        })
    }

    /// Refreshes node `id`'s registration, last written as `last_ms`, to
    /// `now_ms`; false if another process has claimed the id since.
    pub async fn beat(&self, id: &str, last_ms: i64, now_ms: i64) -> StoreResult<bool> {
        on_pool!(self, |pool, d| {
            let done = sqlx::query(&d.sql(sql::NODE_BEAT))
                .bind(id)
                .bind(last_ms)
                .bind(now_ms)
                .execute(*pool)
                .await?
                .rows_affected();
            Ok(done > 0)
        })
    }
}
