//! The embedded SQLite store, the hall's default [`super::Storage`]: one
//! file in WAL mode, moves written through one writer thread (group
//! commit). Its statements and method bodies are the shared ones
//! ([`super::shared`]); what is SQLite's own is opening the file and the
//! move writers ([`super::group_commit`], [`super::sqlite_writer`]).

use std::str::FromStr;

use sqlx::SqlitePool;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};

use super::dialect::Dialect;
use super::group_commit::{GroupCommit, SqliteMoves};
use super::rows::Cols;
use super::{StoreResult, sql};

/// The embedded SQLite store (one file, WAL mode).
pub(crate) struct SqliteStore {
    pub(crate) pool: SqlitePool,
    /// Moves are written through one writer task, many games a transaction.
    moves: GroupCommit,
}

impl SqliteStore {
    const DIALECT: Dialect = Dialect::Sqlite;

    /// Opens (creating if missing) the database at `url` (`sqlite://file.db`
    /// or `sqlite::memory:`) and applies the migrations.
    pub(crate) async fn open(url: &str) -> StoreResult<SqliteStore> {
        let opts = SqliteConnectOptions::from_str(url)?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            .busy_timeout(std::time::Duration::from_secs(5));
        // An in-memory database exists per connection: keep exactly one.
        let in_memory = url.contains(":memory:");
        let max = if in_memory { 1 } else { 4 };
        let file = opts.get_filename().to_path_buf();
        let pool = SqlitePoolOptions::new()
            .max_connections(max)
            .connect_with(opts)
            .await?;
        super::migrations::for_dialect(Self::DIALECT)
            .run(&pool)
            .await?;
        let writer = if in_memory {
            SqliteMoves::Pool(pool.clone())
        } else {
            SqliteMoves::Thread(super::sqlite_writer::ThreadWriter::open(&file)?)
        };
        let moves = GroupCommit::start(std::sync::Arc::new(writer));
        let store = SqliteStore { pool, moves };
        store.fill_name_keys().await?;
        Ok(store)
    }

    /// Gives accounts made before name keys existed their key; two old
    /// accounts whose names collide keep working, the later one without a
    /// key (no new account can take either name).
    async fn fill_name_keys(&self) -> StoreResult<()> {
        let rows = sqlx::query(sql::USERS_WITHOUT_KEY)
            .fetch_all(&self.pool)
            .await?;
        for r in rows {
            let name = r.text("username")?;
            let res = sqlx::query(sql::USER_KEY_FILL)
                .bind(crate::store::name_key(&name))
                .bind(r.int("id")?)
                .execute(&self.pool)
                .await?;
            if res.rows_affected() == 0 {
                tracing::warn!(user = %name, "an older account's name collides with another's");
            }
        }
        Ok(())
    }
}

super::shared::sql_store!(SqliteStore, sqlx::SqliteConnection);
super::shared_standings::sql_standings!(SqliteStore);
super::shared_puzzles::sql_puzzles!(SqliteStore);

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use super::*;
    use crate::store::GameStore;

    /// Games stored before migration 6 keep their target and room base, now
    /// as options; their moves replay with no draws.
    #[tokio::test]
    async fn old_targets_and_bases_become_options() {
        let path = std::env::temp_dir().join(format!("qiyuan-store-{}.db", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let url = format!("sqlite://{}", path.display());
        {
            let opts = SqliteConnectOptions::from_str(&url)
                .expect("url")
                .create_if_missing(true);
            let pool = SqlitePoolOptions::new()
                .max_connections(1)
                .connect_with(opts)
                .await
                .expect("pool");
            let mut old = super::super::migrations::for_dialect(Dialect::Sqlite);
            old.migrations = Cow::Owned(old.migrations[..5].to_vec());
            old.run(&pool).await.expect("migrations 1-5");
            for (id, rules, target) in [("j1", "kind-a", Some(30)), ("b1", "kind-b", None)] {
                sqlx::query(
                    "INSERT INTO games (id, rules, target, initial_ms, increment_ms, rated, seats, status, clocks, created_ms, updated_ms) VALUES (?, ?, ?, 1000, 0, 0, '[]', 'finished', '[1000,1000]', 1, 1)",
                )
                .bind(id)
                .bind(rules)
                .bind(target)
                .execute(&pool)
                .await
                .expect("old game");
            }
            sqlx::query(
                "INSERT INTO game_setups (game_id, setup, base) VALUES ('b1', 'layout', 3)",
            )
            .execute(&pool)
            .await
            .expect("old set-up");
            sqlx::query("INSERT INTO moves (game_id, ply, seat, mv, clocks, at_ms) VALUES ('j1', 0, 0, 'h2e2', '[1000,1000]', 1)")
                .execute(&pool)
                .await
                .expect("old move");
        }
        let store = SqliteStore::open(&url).await.expect("migrates");
        let (j, moves) = store.load_game("j1").await.expect("load").expect("j1");
        assert_eq!(
            j.options,
            qiyuan_core::Options::from([("target".into(), 30)])
        );
        assert_eq!(moves[0].draws, Vec::<u32>::new());
        let (b, _) = store.load_game("b1").await.expect("load").expect("b1");
        assert_eq!(b.options, qiyuan_core::Options::from([("base".into(), 3)]));
        assert_eq!(
            store.game_setup("b1").await.expect("setup").as_deref(),
            Some("layout")
        );
        let _ = std::fs::remove_file(&path);
    }
}
