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

/// A statement in PostgreSQL's parameter spelling.
fn pg(sql: &str) -> String {
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
