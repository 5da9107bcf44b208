//! Clearing what nobody uses (issue 34): rooms whose people have gone and
//! guests that never played. The SQL is written once, with `?` placeholders;
//! [`numbered`] gives PostgreSQL its `$1, $2, …` spelling, so both stores run
//! the same statements.

use std::borrow::Cow;

/// Whether a game is still a room waiting for players.
const IS_WAITING: &str = "SELECT COUNT(*) FROM games WHERE id = ? AND status = 'waiting'";
/// What a room that never started holds besides its row, in delete order.
const ROOM_PARTS: [&str; 3] = [
    "DELETE FROM challenges WHERE game_id = ?",
    "DELETE FROM game_setups WHERE game_id = ?",
    "DELETE FROM game_players WHERE game_id = ?",
];
const ROOM_ROW: &str = "DELETE FROM games WHERE id = ? AND status = 'waiting'";
/// A guest that never played (no seat in any game, no challenge, no preset)
/// created before the cutoff (the first `?`).
const IDLE_GUEST: &str = "SELECT u.id FROM users u WHERE u.guest = 1 AND u.created_ms < ? \
     AND NOT EXISTS (SELECT 1 FROM game_players p WHERE p.user_id = u.id) \
     AND NOT EXISTS (SELECT 1 FROM challenges c WHERE c.user_id = u.id) \
     AND NOT EXISTS (SELECT 1 FROM presets r WHERE r.user_id = u.id)";

/// `sql` with its `?` placeholders numbered `$1, $2, …` (PostgreSQL).
/// None of these statements has a `?` inside a string.
pub(crate) fn numbered(sql: &str) -> Cow<'_, str> {
    if !sql.contains('?') {
        return Cow::Borrowed(sql);
    }
    let mut out = String::with_capacity(sql.len() + 8);
    let mut n = 0;
    for c in sql.chars() {
        if c == '?' {
            n += 1;
            out.push('$');
            out.push_str(&n.to_string());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `sql` as it is (SQLite).
fn as_written(sql: &str) -> Cow<'_, str> {
    Cow::Borrowed(sql)
}

/// The sessions of idle guests not used since the cutoff (the second `?`).
fn idle_guest_sessions() -> String {
    format!(
        "DELETE FROM sessions WHERE user_id IN ({IDLE_GUEST} \
         AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.user_id = u.id AND s.last_seen_ms >= ?))"
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
room_store!(crate::pg_store::PgStore, numbered);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_numbered_for_postgres() {
        assert_eq!(
            numbered("DELETE FROM x WHERE a = ? AND b < ?"),
            "DELETE FROM x WHERE a = $1 AND b < $2"
        );
        assert!(matches!(numbered("SELECT 1"), Cow::Borrowed(_)));
        assert_eq!(numbered(&idle_guest_sessions()).matches('$').count(), 2);
    }
}
