//! The SQL of leases and nodes (issue 17), for both stores: the statements
//! are written once, with numbered parameters (`?1`), which PostgreSQL reads
//! as `$1` after [`pg`]. See [`crate::lease`] for what they are for.

use sqlx::Row;

use crate::pg_store::PgStore;
use crate::store::{SqliteStore, StoreResult};

/// A node's hold on a game: the node's id and the fencing token of its lease.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fence {
    /// The node's id.
    pub owner: String,
    /// The lease's token when the node took it.
    pub token: i64,
}

/// A move refused because its node no longer holds the game's lease (it
/// names the game).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaleLease(pub String);

impl std::fmt::Display for StaleLease {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "stale lease on game {}: another node owns it", self.0)
    }
}

impl std::error::Error for StaleLease {}

impl StaleLease {
    /// Whether a store error is a refused stale lease.
    pub fn is(e: &anyhow::Error) -> bool {
        e.downcast_ref::<StaleLease>().is_some()
    }
}

/// Takes or renews a lease (game, owner, now, ttl); returns the token when
/// granted.
const LEASE: &str = "INSERT INTO leases (game_id, owner, token, expires_ms) VALUES (?1, ?2, 1, ?3 + ?4) \
     ON CONFLICT (game_id) DO UPDATE SET \
     token = CASE WHEN leases.owner = excluded.owner THEN leases.token ELSE leases.token + 1 END, \
     owner = excluded.owner, expires_ms = excluded.expires_ms \
     WHERE leases.owner = excluded.owner OR leases.expires_ms <= ?3 \
     RETURNING token";
/// Ends a lease now (game, owner).
const RELEASE: &str = "UPDATE leases SET expires_ms = 0 WHERE game_id = ?1 AND owner = ?2";
/// Records a node (id, addr, now).
const NODE: &str = "INSERT INTO nodes (id, addr, seen_ms) VALUES (?1, ?2, ?3) \
     ON CONFLICT (id) DO UPDATE SET addr = excluded.addr, seen_ms = excluded.seen_ms";
/// The holder of an unexpired lease (game, now).
const HOLDER: &str = "SELECT l.owner, n.addr FROM leases l JOIN nodes n ON n.id = l.owner \
     WHERE l.game_id = ?1 AND l.expires_ms > ?2";
/// Unfinished games with no running lease (now, limit).
const ORPHANS: &str = "SELECT g.id FROM games g LEFT JOIN leases l ON l.game_id = g.id \
     WHERE g.status <> 'finished' AND (l.game_id IS NULL OR l.expires_ms <= ?1) \
     ORDER BY g.updated_ms LIMIT ?2";

/// Whether a lease still carries `owner` and `token` (game, owner, token).
pub(crate) const HELD: &str =
    "SELECT 1 FROM leases WHERE game_id = ?1 AND owner = ?2 AND token = ?3";

/// Fails with [`StaleLease`] unless `fence` (if any) still holds on
/// `game_id`, inside the caller's SQLite transaction.
pub(crate) async fn sqlite_fence(
    conn: &mut sqlx::SqliteConnection,
    game_id: &str,
    fence: Option<&Fence>,
) -> StoreResult<()> {
    let Some(f) = fence else { return Ok(()) };
    let held: Option<i64> = sqlx::query_scalar(HELD)
        .bind(game_id)
        .bind(&f.owner)
        .bind(f.token)
        .fetch_optional(&mut *conn)
        .await?;
    if held.is_none() {
        anyhow::bail!(StaleLease(game_id.to_string()));
    }
    Ok(())
}

/// The same inside a PostgreSQL transaction; the lease row stays locked
/// (`FOR SHARE`) until it commits, so no takeover slips in between.
pub(crate) async fn pg_fence(
    conn: &mut sqlx::PgConnection,
    game_id: &str,
    fence: Option<&Fence>,
) -> StoreResult<()> {
    let Some(f) = fence else { return Ok(()) };
    let held: Option<i32> = sqlx::query_scalar(&format!("{} FOR SHARE", pg(HELD)))
        .bind(game_id)
        .bind(&f.owner)
        .bind(f.token)
        .fetch_optional(&mut *conn)
        .await?;
    if held.is_none() {
        anyhow::bail!(StaleLease(game_id.to_string()));
    }
    Ok(())
}

/// A statement written with SQLite's numbered parameters (`?1`) in
/// PostgreSQL's spelling (`$1`).
pub(crate) fn pg(sql: &str) -> String {
    sql.replace('?', "$")
}

fn now() -> i64 {
    crate::clock::wall_ms()
}

fn fence(owner: &str, token: Option<i64>) -> Option<Fence> {
    token.map(|token| Fence {
        owner: owner.to_string(),
        token,
    })
}

impl SqliteStore {
    pub(crate) async fn acquire_lease_sql(
        &self,
        game_id: &str,
        owner: &str,
        ttl_ms: i64,
    ) -> StoreResult<Option<Fence>> {
        let token = sqlx::query_scalar(LEASE)
            .bind(game_id)
            .bind(owner)
            .bind(now())
            .bind(ttl_ms)
            .fetch_optional(&self.pool)
            .await?;
        Ok(fence(owner, token))
    }

    pub(crate) async fn release_lease_sql(&self, game_id: &str, owner: &str) -> StoreResult<bool> {
        let r = sqlx::query(RELEASE)
            .bind(game_id)
            .bind(owner)
            .execute(&self.pool)
            .await?;
        Ok(r.rows_affected() > 0)
    }

    pub(crate) async fn register_node_sql(&self, id: &str, addr: &str) -> StoreResult<()> {
        sqlx::query(NODE)
            .bind(id)
            .bind(addr)
            .bind(now())
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    pub(crate) async fn lease_holder_sql(
        &self,
        game_id: &str,
    ) -> StoreResult<Option<(String, String)>> {
        let row = sqlx::query(HOLDER)
            .bind(game_id)
            .bind(now())
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| Ok((r.try_get("owner")?, r.try_get("addr")?)))
            .transpose()
    }

    pub(crate) async fn orphaned_games_sql(&self, limit: i64) -> StoreResult<Vec<String>> {
        Ok(sqlx::query_scalar(ORPHANS)
            .bind(now())
            .bind(limit)
            .fetch_all(&self.pool)
            .await?)
    }
}

impl PgStore {
    pub(crate) async fn acquire_lease_pg(
        &self,
        game_id: &str,
        owner: &str,
        ttl_ms: i64,
    ) -> StoreResult<Option<Fence>> {
        let token = sqlx::query_scalar(&pg(LEASE))
            .bind(game_id)
            .bind(owner)
            .bind(now())
            .bind(ttl_ms)
            .fetch_optional(&self.pool)
            .await?;
        Ok(fence(owner, token))
    }

    pub(crate) async fn release_lease_pg(&self, game_id: &str, owner: &str) -> StoreResult<bool> {
        let r = sqlx::query(&pg(RELEASE))
            .bind(game_id)
            .bind(owner)
            .execute(&self.pool)
            .await?;
        Ok(r.rows_affected() > 0)
    }

    pub(crate) async fn register_node_pg(&self, id: &str, addr: &str) -> StoreResult<()> {
        sqlx::query(&pg(NODE))
            .bind(id)
            .bind(addr)
            .bind(now())
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    pub(crate) async fn lease_holder_pg(
        &self,
        game_id: &str,
    ) -> StoreResult<Option<(String, String)>> {
        let row = sqlx::query(&pg(HOLDER))
            .bind(game_id)
            .bind(now())
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| Ok((r.try_get("owner")?, r.try_get("addr")?)))
            .transpose()
    }

    pub(crate) async fn orphaned_games_pg(&self, limit: i64) -> StoreResult<Vec<String>> {
        Ok(sqlx::query_scalar(&pg(ORPHANS))
            .bind(now())
            .bind(limit)
            .fetch_all(&self.pool)
            .await?)
    }
}

/// The nodes' registrations in a store (see [`crate::lease`]): the row of
/// a node id is held by the process that last claimed it, which refreshes
/// its `seen_ms` (a compare-and-set on the value it wrote last, so a
/// process whose id was claimed by another learns it at its next beat).
pub enum Nodes<'a> {
    /// A SQLite database.
    Sqlite(&'a sqlx::SqlitePool),
    /// A PostgreSQL database.
    Pg(&'a sqlx::PgPool),
}

/// Claims node `id` at `addr` (id, addr, now, stale before): granted when
/// the id is new or its registration was last seen before `?4`.
const CLAIM: &str = "INSERT INTO nodes (id, addr, seen_ms) VALUES (?1, ?2, ?3) \
     ON CONFLICT (id) DO UPDATE SET addr = excluded.addr, seen_ms = excluded.seen_ms \
     WHERE nodes.seen_ms < ?4 \
     RETURNING seen_ms";
/// Where node `id` is and when it was seen (id).
const SEEN: &str = "SELECT addr, seen_ms FROM nodes WHERE id = ?1";
/// A heartbeat (id, last, now): only if the row is still the one written.
const BEAT: &str = "UPDATE nodes SET seen_ms = ?3 WHERE id = ?1 AND seen_ms = ?2";
/// Ends the leases of node `id` and moves their tokens on (id): whatever
/// an earlier process with this id still holds no longer commits.
const FENCE_OFF: &str = "UPDATE leases SET token = token + 1, expires_ms = 0 WHERE owner = ?1";
/// Forgets nodes not seen since `?1` that hold no running lease (now).
const PURGE: &str = "DELETE FROM nodes WHERE seen_ms < ?1 \
     AND id NOT IN (SELECT owner FROM leases WHERE expires_ms > ?2)";

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
        let now = now();
        let seen: Option<i64> = match self {
            Nodes::Sqlite(pool) => {
                sqlx::query_scalar(CLAIM)
                    .bind(id)
                    .bind(addr)
                    .bind(now)
                    .bind(stale_before_ms)
                    .fetch_optional(*pool)
                    .await?
            }
            Nodes::Pg(pool) => {
                sqlx::query_scalar(&pg(CLAIM))
                    .bind(id)
                    .bind(addr)
                    .bind(now)
                    .bind(stale_before_ms)
                    .fetch_optional(*pool)
                    .await?
            }
        };
        if seen.is_some() {
            match self {
                Nodes::Sqlite(pool) => {
                    sqlx::query(FENCE_OFF).bind(id).execute(*pool).await?;
                    sqlx::query(PURGE)
                        .bind(now - FORGET_AFTER_MS)
                        .bind(now)
                        .execute(*pool)
                        .await?;
                }
                Nodes::Pg(pool) => {
                    sqlx::query(&pg(FENCE_OFF)).bind(id).execute(*pool).await?;
                    sqlx::query(&pg(PURGE))
                        .bind(now - FORGET_AFTER_MS)
                        .bind(now)
                        .execute(*pool)
                        .await?;
                }
            }
        }
        Ok(seen)
    }

    /// Where node `id` is reached and when it was last seen, if registered.
    pub async fn seen(&self, id: &str) -> StoreResult<Option<(String, i64)>> {
        let row = match self {
            Nodes::Sqlite(pool) => sqlx::query(SEEN)
                .bind(id)
                .fetch_optional(*pool)
                .await?
                .map(|r| -> StoreResult<_> { Ok((r.try_get("addr")?, r.try_get("seen_ms")?)) }),
            Nodes::Pg(pool) => sqlx::query(&pg(SEEN))
                .bind(id)
                .fetch_optional(*pool)
                .await?
                .map(|r| -> StoreResult<_> { Ok((r.try_get("addr")?, r.try_get("seen_ms")?)) }),
        };
        row.transpose()
    }

    /// Refreshes node `id`'s registration, last written as `last_ms`, to
    /// `now_ms`; false if another process has claimed the id since.
    pub async fn beat(&self, id: &str, last_ms: i64, now_ms: i64) -> StoreResult<bool> {
        let done = match self {
            Nodes::Sqlite(pool) => sqlx::query(BEAT)
                .bind(id)
                .bind(last_ms)
                .bind(now_ms)
                .execute(*pool)
                .await?
                .rows_affected(),
            Nodes::Pg(pool) => sqlx::query(&pg(BEAT))
                .bind(id)
                .bind(last_ms)
                .bind(now_ms)
                .execute(*pool)
                .await?
                .rows_affected(),
        };
        Ok(done > 0)
    }
}
