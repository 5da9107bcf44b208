//! The SQL of leases and nodes (issue 17), for both stores: the statements
//! are written once, with numbered parameters (`?1`), which PostgreSQL reads
//! as `$1` after [`pg`]. See [`crate::lease`] for what they are for.

use sqlx::Row;

use crate::pg_store::PgStore;
use crate::store::{Fence, SqliteStore, StoreResult};

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
