//! Clearing what nobody uses (issue 34): rooms whose people have gone and
//! guests that never played. The SQL is written once, with SQLite's
//! numbered parameters (`?1`); PostgreSQL runs it in its own spelling
//! ([`crate::store_cluster::pg`]), so both stores run the same statements.

use std::borrow::Cow;

/// Whether a game is still a room waiting for players.
const IS_WAITING: &str = "SELECT COUNT(*) FROM games WHERE id = ?1 AND status = 'waiting'";
/// What a room that never started holds besides its row, in delete order.
const ROOM_PARTS: [&str; 3] = [
    "DELETE FROM challenges WHERE game_id = ?1",
    "DELETE FROM game_setups WHERE game_id = ?1",
    "DELETE FROM game_players WHERE game_id = ?1",
];
const ROOM_ROW: &str = "DELETE FROM games WHERE id = ?1 AND status = 'waiting'";
/// A guest that never played (no seat in any game, no challenge, no preset)
/// created before the cutoff (`?1`).
const IDLE_GUEST: &str = "SELECT u.id FROM users u WHERE u.guest = 1 AND u.created_ms < ?1 \
     AND NOT EXISTS (SELECT 1 FROM game_players p WHERE p.user_id = u.id) \
     AND NOT EXISTS (SELECT 1 FROM challenges c WHERE c.user_id = u.id) \
     AND NOT EXISTS (SELECT 1 FROM presets r WHERE r.user_id = u.id)";

/// `sql` as it is (SQLite).
fn as_written(sql: &str) -> Cow<'_, str> {
    Cow::Borrowed(sql)
}

/// `sql` in PostgreSQL's spelling.
fn for_postgres(sql: &str) -> Cow<'_, str> {
    Cow::Owned(crate::store_cluster::pg(sql))
}

/// The sessions of idle guests not used since the cutoff.
fn idle_guest_sessions() -> String {
    format!(
        "DELETE FROM sessions WHERE user_id IN ({IDLE_GUEST} \
         AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.user_id = u.id AND s.last_seen_ms >= ?1))"
    )
}

/// Idle guests left without a session.
fn idle_guest_users() -> String {
    format!(
        "DELETE FROM users WHERE id IN ({IDLE_GUEST} \
         AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.user_id = u.id))"
    )
}

/// The same two operations on either backend: the pool type and the
/// placeholder spelling are all that differ.
macro_rules! room_store {
    ($store:ty, $spell:expr) => {
        impl $store {
            /// [`crate::store::Storage::delete_open_room`].
            pub(crate) async fn delete_open_room_sql(
                &self,
                id: &str,
            ) -> crate::store::StoreResult<bool> {
                let spell: fn(&str) -> Cow<'_, str> = $spell;
                let mut tx = self.pool.begin().await?;
                let waiting: i64 = sqlx::query_scalar(&spell(IS_WAITING))
                    .bind(id)
                    .fetch_one(&mut *tx)
                    .await?;
                if waiting == 0 {
                    return Ok(false);
                }
                for part in ROOM_PARTS {
                    sqlx::query(&spell(part)).bind(id).execute(&mut *tx).await?;
                }
                let gone = sqlx::query(&spell(ROOM_ROW))
                    .bind(id)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
                tx.commit().await?;
                Ok(gone > 0)
            }

            /// [`crate::store::Storage::purge_idle_guests`].
            pub(crate) async fn purge_idle_guests_sql(
                &self,
                cutoff_ms: i64,
            ) -> crate::store::StoreResult<u64> {
                let spell: fn(&str) -> Cow<'_, str> = $spell;
                let mut tx = self.pool.begin().await?;
                sqlx::query(&spell(&idle_guest_sessions()))
                    .bind(cutoff_ms)
                    .execute(&mut *tx)
                    .await?;
                let gone = sqlx::query(&spell(&idle_guest_users()))
                    .bind(cutoff_ms)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
                tx.commit().await?;
                Ok(gone)
            }
        }
    };
}

room_store!(crate::store::SqliteStore, as_written);
room_store!(crate::pg_store::PgStore, for_postgres);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_statement_has_numbered_parameters_for_postgres() {
        let all = [IS_WAITING, ROOM_ROW]
            .into_iter()
            .chain(ROOM_PARTS)
            .map(str::to_string)
            .chain([idle_guest_sessions(), idle_guest_users()]);
        for sql in all {
            let pg = for_postgres(&sql);
            assert!(!pg.contains('?'), "{pg}");
            assert!(pg.contains("$1"), "{pg}");
        }
    }
}
