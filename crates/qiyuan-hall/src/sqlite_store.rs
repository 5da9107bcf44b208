//! The embedded SQLite store, the hall's default [`Storage`]: one file in
//! WAL mode, moves written through one writer thread (group commit).

use std::str::FromStr;

use async_trait::async_trait;
use qiyuan_events::Rating;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Row, SqlitePool};

use crate::store::{
    Fence, GameRow, MoveRow, NewSession, RatingChange, RatingPoint, RatingUpdate, SeatRow,
    SessionRow, Storage, StoreResult, User,
};

/// The embedded SQLite store (one file, WAL mode).
pub struct SqliteStore {
    pub(crate) pool: SqlitePool,
    /// Moves are written through one writer task, many games a transaction.
    moves: crate::group_commit::GroupCommit,
}

impl SqliteStore {
    /// Opens (creating if missing) the database at `url` (`sqlite://file.db`
    /// or `sqlite::memory:`) and applies the migrations.
    pub async fn open(url: &str) -> StoreResult<SqliteStore> {
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
        crate::migrations::sqlite().run(&pool).await?;
        let writer = if in_memory {
            crate::group_commit::SqliteMoves::Pool(pool.clone())
        } else {
            crate::group_commit::SqliteMoves::Thread(crate::sqlite_writer::ThreadWriter::open(
                &file,
            )?)
        };
        let moves = crate::group_commit::GroupCommit::start(std::sync::Arc::new(writer));
        let store = SqliteStore { pool, moves };
        store.fill_name_keys().await?;
        Ok(store)
    }

    /// Gives accounts made before name keys existed their key; two old
    /// accounts whose names collide keep working, the later one without a
    /// key (no new account can take either name).
    async fn fill_name_keys(&self) -> StoreResult<()> {
        let rows = sqlx::query("SELECT id, username FROM users WHERE name_key IS NULL")
            .fetch_all(&self.pool)
            .await?;
        for r in rows {
            let id: i64 = r.try_get("id")?;
            let name: String = r.try_get("username")?;
            let res = sqlx::query("UPDATE OR IGNORE users SET name_key = ? WHERE id = ?")
                .bind(crate::auth::name_key(&name))
                .bind(id)
                .execute(&self.pool)
                .await?;
            if res.rows_affected() == 0 {
                tracing::warn!(user = %name, "an older account's name collides with another's");
            }
        }
        Ok(())
    }
}

fn now_ms() -> i64 {
    crate::clock::wall_ms()
}

fn user_from_row(r: &sqlx::sqlite::SqliteRow) -> StoreResult<User> {
    Ok(User {
        id: r.try_get("id")?,
        username: r.try_get("username")?,
        password_hash: r.try_get("password_hash")?,
        guest: r.try_get::<i64, _>("guest")? != 0,
    })
}

fn rating_from_row(r: &sqlx::sqlite::SqliteRow) -> StoreResult<Rating> {
    Ok(Rating {
        value: r.try_get("value")?,
        rated_games: r.try_get::<i64, _>("rated_games")?.max(0) as u32,
        reached_top: r.try_get::<i64, _>("reached_top")? != 0,
    })
}

fn game_from_row(r: &sqlx::sqlite::SqliteRow) -> StoreResult<GameRow> {
    let seats: String = r.try_get("seats")?;
    let clocks: String = r.try_get("clocks")?;
    Ok(GameRow {
        id: r.try_get("id")?,
        rules: r.try_get("rules")?,
        options: serde_json::from_str(&r.try_get::<String, _>("options")?)?,
        start_fen: r.try_get("start_fen")?,
        initial_ms: r.try_get("initial_ms")?,
        increment_ms: r.try_get("increment_ms")?,
        rated: r.try_get::<i64, _>("rated")? != 0,
        seats: serde_json::from_str(&seats)?,
        status: r.try_get("status")?,
        result: r.try_get("result")?,
        reason: r.try_get("reason")?,
        explanation: r.try_get("explanation")?,
        clocks: serde_json::from_str(&clocks)?,
        created_ms: r.try_get("created_ms")?,
        updated_ms: r.try_get("updated_ms")?,
        rematch_of: r.try_get("rematch_of")?,
        placings: r
            .try_get::<Option<String>, _>("placings")?
            .map(|p| serde_json::from_str(&p))
            .transpose()?,
    })
}

/// Writes every column of a game's row but the id (`?1`), in
/// [`GAME_COLUMNS`] order.
pub(crate) const UPDATE_GAME: &str = "UPDATE games SET rules=?2, options=?3, start_fen=?4, initial_ms=?5, increment_ms=?6, rated=?7, seats=?8, status=?9, result=?10, reason=?11, explanation=?12, clocks=?13, created_ms=?14, updated_ms=?15, rematch_of=?16, placings=?17 WHERE id=?1";

const GAME_COLUMNS: &str = "id, rules, options, start_fen, initial_ms, increment_ms, rated, seats, status, result, reason, explanation, clocks, created_ms, updated_ms, rematch_of, placings";

pub(crate) async fn write_game(
    conn: &mut sqlx::SqliteConnection,
    g: &GameRow,
    insert: bool,
) -> StoreResult<()> {
    let seats = serde_json::to_string(&g.seats)?;
    let clocks = serde_json::to_string(&g.clocks)?;
    let sql = if insert {
        format!(
            "INSERT INTO games ({GAME_COLUMNS}) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17)"
        )
    } else {
        UPDATE_GAME.to_string()
    };
    sqlx::query(&sql)
        .bind(&g.id)
        .bind(&g.rules)
        .bind(serde_json::to_string(&g.options)?)
        .bind(&g.start_fen)
        .bind(g.initial_ms)
        .bind(g.increment_ms)
        .bind(i64::from(g.rated))
        .bind(seats)
        .bind(&g.status)
        .bind(&g.result)
        .bind(&g.reason)
        .bind(&g.explanation)
        .bind(clocks)
        .bind(g.created_ms)
        .bind(g.updated_ms)
        .bind(&g.rematch_of)
        .bind(g.placings.as_ref().map(serde_json::to_string).transpose()?)
        .execute(&mut *conn)
        .await?;
    // Who played which game, for profiles.
    for s in &g.seats {
        if let SeatRow::User { id, .. } = s {
            sqlx::query("INSERT OR IGNORE INTO game_players (game_id, user_id) VALUES (?, ?)")
                .bind(&g.id)
                .bind(id)
                .execute(&mut *conn)
                .await?;
        }
    }
    Ok(())
}

fn move_from_row(r: &sqlx::sqlite::SqliteRow) -> StoreResult<MoveRow> {
    let clocks: String = r.try_get("clocks")?;
    Ok(MoveRow {
        ply: r.try_get("ply")?,
        seat: r.try_get("seat")?,
        mv: r.try_get("mv")?,
        clocks: serde_json::from_str(&clocks)?,
        at_ms: r.try_get("at_ms")?,
        draws: r
            .try_get::<Option<String>, _>("draws")?
            .map(|d| serde_json::from_str(&d))
            .transpose()?
            .unwrap_or_default(),
    })
}

impl SqliteStore {
    async fn moves_of(&self, id: &str) -> StoreResult<Vec<MoveRow>> {
        let rows = sqlx::query(
            "SELECT ply, seat, mv, clocks, at_ms, draws FROM moves WHERE game_id = ? ORDER BY ply",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(move_from_row).collect()
    }
}

#[async_trait]
impl Storage for SqliteStore {
    async fn create_user(
        &self,
        username: &str,
        password_hash: Option<&str>,
        guest: bool,
    ) -> StoreResult<Option<User>> {
        let res = sqlx::query(
            "INSERT INTO users (username, name_key, password_hash, guest, created_ms) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
        )
        .bind(username)
        .bind(crate::auth::name_key(username))
        .bind(password_hash)
        .bind(i64::from(guest))
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        if res.rows_affected() == 0 {
            return Ok(None);
        }
        Ok(Some(User {
            id: res.last_insert_rowid(),
            username: username.to_string(),
            password_hash: password_hash.map(str::to_string),
            guest,
        }))
    }

    async fn user_by_name(&self, username: &str) -> StoreResult<Option<User>> {
        let row =
            sqlx::query("SELECT id, username, password_hash, guest FROM users WHERE name_key = ? OR username = ? ORDER BY username = ? DESC LIMIT 1")
                .bind(crate::auth::name_key(username))
                .bind(username)
                .bind(username)
                .fetch_optional(&self.pool)
                .await?;
        row.as_ref().map(user_from_row).transpose()
    }

    async fn create_session(&self, token: &str, user_id: i64, s: &NewSession) -> StoreResult<()> {
        let now = now_ms();
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO sessions (token, user_id, created_ms, id, expires_ms, last_seen_ms, agent) VALUES (?, ?, ?, lower(hex(randomblob(8))), ?, ?, ?)",
        )
        .bind(token)
        .bind(user_id)
        .bind(now)
        .bind(now.saturating_add(s.ttl_ms))
        .bind(now)
        .bind(&s.agent)
        .execute(&mut *tx)
        .await?;
        // Keep the newest few: old sessions of a user go first.
        sqlx::query(
            "DELETE FROM sessions WHERE user_id = ? AND token NOT IN (SELECT token FROM sessions WHERE user_id = ? ORDER BY last_seen_ms DESC, created_ms DESC, rowid DESC LIMIT ?)",
        )
        .bind(user_id)
        .bind(user_id)
        .bind(s.keep as i64)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn session_user(&self, token: &str, ttl_ms: i64) -> StoreResult<Option<User>> {
        let now = now_ms();
        let row = sqlx::query(
            "SELECT u.id, u.username, u.password_hash, u.guest, s.expires_ms FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token = ? AND s.expires_ms > ?",
        )
        .bind(token)
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(None) };
        // Sliding renewal, written at most once per step (not every request).
        let expires: i64 = row.try_get("expires_ms")?;
        let step = (ttl_ms / 8).min(3_600_000);
        if expires - now < ttl_ms - step {
            sqlx::query("UPDATE sessions SET expires_ms = ?, last_seen_ms = ? WHERE token = ?")
                .bind(now.saturating_add(ttl_ms))
                .bind(now)
                .bind(token)
                .execute(&self.pool)
                .await?;
        }
        user_from_row(&row).map(Some)
    }

    async fn delete_session(&self, token: &str) -> StoreResult<()> {
        sqlx::query("DELETE FROM sessions WHERE token = ?")
            .bind(token)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn delete_open_room(&self, id: &str) -> StoreResult<bool> {
        self.delete_open_room_sql(id).await
    }

    async fn purge_idle_guests(&self, cutoff_ms: i64) -> StoreResult<u64> {
        self.purge_idle_guests_sql(cutoff_ms).await
    }

    async fn list_presets(&self, user_id: i64) -> StoreResult<Vec<crate::presets::Preset>> {
        self.list_presets_sql(user_id).await
    }

    async fn save_preset(&self, user_id: i64, preset: &crate::presets::Preset) -> StoreResult<()> {
        self.save_preset_sql(user_id, preset).await
    }

    async fn delete_preset(&self, user_id: i64, kind: &str, name: &str) -> StoreResult<bool> {
        self.delete_preset_sql(user_id, kind, name).await
    }

    async fn timeout_preset(&self, user_id: i64, kind: &str) -> StoreResult<Option<String>> {
        self.timeout_preset_sql(user_id, kind).await
    }

    async fn list_sessions(&self, user_id: i64, current: &str) -> StoreResult<Vec<SessionRow>> {
        let rows = sqlx::query(
            "SELECT id, created_ms, last_seen_ms, expires_ms, agent, token = ? AS current FROM sessions WHERE user_id = ? AND expires_ms > ? ORDER BY last_seen_ms DESC",
        )
        .bind(current)
        .bind(user_id)
        .bind(now_ms())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(SessionRow {
                    id: r.try_get("id")?,
                    created_ms: r.try_get("created_ms")?,
                    last_seen_ms: r.try_get("last_seen_ms")?,
                    expires_ms: r.try_get("expires_ms")?,
                    agent: r.try_get("agent")?,
                    current: r.try_get::<i64, _>("current")? != 0,
                })
            })
            .collect()
    }

    async fn revoke_session(&self, user_id: i64, id: &str) -> StoreResult<bool> {
        let res = sqlx::query("DELETE FROM sessions WHERE user_id = ? AND id = ?")
            .bind(user_id)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(res.rows_affected() > 0)
    }

    async fn revoke_other_sessions(&self, user_id: i64, current: &str) -> StoreResult<u64> {
        let res = sqlx::query("DELETE FROM sessions WHERE user_id = ? AND token <> ?")
            .bind(user_id)
            .bind(current)
            .execute(&self.pool)
            .await?;
        Ok(res.rows_affected())
    }

    async fn ai_games_in_play(&self, user_id: i64) -> StoreResult<i64> {
        let n: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM games g JOIN game_players p ON p.game_id = g.id WHERE p.user_id = ? AND g.status <> 'finished' AND g.seats LIKE '%\"kind\":\"ai\"%'",
        )
        .bind(user_id)
        .fetch_one(&self.pool)
        .await?;
        Ok(n)
    }

    async fn purge_expired_sessions(&self) -> StoreResult<u64> {
        let res = sqlx::query("DELETE FROM sessions WHERE expires_ms <= ?")
            .bind(now_ms())
            .execute(&self.pool)
            .await?;
        Ok(res.rows_affected())
    }

    async fn insert_game(&self, game: &GameRow) -> StoreResult<()> {
        let mut tx = self.pool.begin().await?;
        write_game(&mut tx, game, true).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn update_game(&self, game: &GameRow, fence: Option<&Fence>) -> StoreResult<()> {
        let mut tx = self.pool.begin().await?;
        crate::store_cluster::sqlite_fence(&mut tx, &game.id, fence).await?;
        write_game(&mut tx, game, false).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn append_move(
        &self,
        game: &GameRow,
        mv: &MoveRow,
        fence: Option<&Fence>,
    ) -> StoreResult<()> {
        self.moves.append(game, mv, fence).await
    }

    async fn acquire_lease(
        &self,
        game_id: &str,
        owner: &str,
        ttl_ms: i64,
    ) -> StoreResult<Option<Fence>> {
        self.acquire_lease_sql(game_id, owner, ttl_ms).await
    }

    async fn release_lease(&self, game_id: &str, owner: &str) -> StoreResult<bool> {
        self.release_lease_sql(game_id, owner).await
    }

    async fn register_node(&self, id: &str, addr: &str) -> StoreResult<()> {
        self.register_node_sql(id, addr).await
    }

    async fn lease_holder(&self, game_id: &str) -> StoreResult<Option<(String, String)>> {
        self.lease_holder_sql(game_id).await
    }

    async fn orphaned_games(&self, limit: i64) -> StoreResult<Vec<String>> {
        self.orphaned_games_sql(limit).await
    }

    fn nodes(&self) -> crate::store_cluster::Nodes<'_> {
        crate::store_cluster::Nodes::Sqlite(&self.pool)
    }

    async fn load_game(&self, id: &str) -> StoreResult<Option<(GameRow, Vec<MoveRow>)>> {
        let row = sqlx::query(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else { return Ok(None) };
        let game = game_from_row(&row)?;
        let moves = self.moves_of(id).await?;
        Ok(Some((game, moves)))
    }

    async fn unfinished_games(&self) -> StoreResult<Vec<(GameRow, Vec<MoveRow>)>> {
        let rows = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE status != 'finished'"
        ))
        .fetch_all(&self.pool)
        .await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in &rows {
            let g = game_from_row(r)?;
            let moves = self.moves_of(&g.id).await?;
            out.push((g, moves));
        }
        Ok(out)
    }

    async fn user_games(&self, user_id: i64, limit: i64) -> StoreResult<Vec<GameRow>> {
        let cols = GAME_COLUMNS
            .split(", ")
            .map(|c| format!("g.{c}"))
            .collect::<Vec<_>>()
            .join(", ");
        let rows = sqlx::query(&format!(
            "SELECT {cols} FROM games g JOIN game_players p ON p.game_id = g.id WHERE p.user_id = ? ORDER BY g.created_ms DESC LIMIT ?"
        ))
        .bind(user_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(game_from_row).collect()
    }

    async fn rating(&self, user_id: i64, family: &str) -> StoreResult<Option<Rating>> {
        let row = sqlx::query(
            "SELECT value, rated_games, reached_top FROM ratings WHERE user_id = ? AND family = ?",
        )
        .bind(user_id)
        .bind(family)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(rating_from_row).transpose()
    }

    async fn multi_rating(
        &self,
        user_id: i64,
        family: &str,
    ) -> StoreResult<Option<qiyuan_events::multi::MultiRating>> {
        let row = sqlx::query(
            "SELECT value, deviation, rated_games FROM ratings WHERE user_id = ? AND family = ?",
        )
        .bind(user_id)
        .bind(family)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| {
            let fresh = qiyuan_events::multi::MultiRating::default();
            Ok(qiyuan_events::multi::MultiRating {
                value: r.try_get("value")?,
                deviation: r
                    .try_get::<Option<f64>, _>("deviation")?
                    .unwrap_or(fresh.deviation),
                rated_games: r.try_get::<i64, _>("rated_games")?.max(0) as u32,
            })
        })
        .transpose()
    }

    async fn ratings_of(&self, user_id: i64) -> StoreResult<Vec<(String, Rating)>> {
        let rows = sqlx::query(
            "SELECT family, value, rated_games, reached_top FROM ratings WHERE user_id = ? ORDER BY family",
        )
        .bind(user_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("family")?, rating_from_row(r)?)))
            .collect()
    }

    async fn apply_ratings(
        &self,
        game_id: &str,
        family: &str,
        updates: &[RatingUpdate],
    ) -> StoreResult<bool> {
        let mut tx = self.pool.begin().await?;
        let done: i64 = sqlx::query("SELECT COUNT(*) FROM rating_history WHERE game_id = ?")
            .bind(game_id)
            .fetch_one(&mut *tx)
            .await?
            .try_get(0)?;
        if done > 0 {
            return Ok(false);
        }
        let now = now_ms();
        for u in updates {
            sqlx::query(
                "INSERT INTO ratings (user_id, family, value, rated_games, reached_top, updated_ms, deviation) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) \
                 ON CONFLICT(user_id, family) DO UPDATE SET value = ?3, rated_games = ?4, reached_top = ?5, updated_ms = ?6, deviation = ?7",
            )
            .bind(u.user_id)
            .bind(family)
            .bind(u.after.value)
            .bind(i64::from(u.after.rated_games))
            .bind(i64::from(u.after.reached_top))
            .bind(now)
            .bind(u.deviation)
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "INSERT INTO rating_history (user_id, family, game_id, before, after, at_ms) VALUES (?, ?, ?, ?, ?, ?)",
            )
            .bind(u.user_id)
            .bind(family)
            .bind(game_id)
            .bind(u.before.value)
            .bind(u.after.value)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    async fn leaderboard(&self, family: &str, limit: i64) -> StoreResult<Vec<(String, Rating)>> {
        let rows = sqlx::query(
            "SELECT u.username, r.value, r.rated_games, r.reached_top FROM ratings r JOIN users u ON u.id = r.user_id \
             WHERE r.family = ? AND u.guest = 0 ORDER BY r.value DESC, u.username LIMIT ?",
        )
        .bind(family)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("username")?, rating_from_row(r)?)))
            .collect()
    }

    async fn rating_history(&self, user_id: i64) -> StoreResult<Vec<RatingPoint>> {
        let rows = sqlx::query(
            "SELECT family, game_id, after, at_ms FROM rating_history WHERE user_id = ? ORDER BY at_ms, rowid",
        )
        .bind(user_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(RatingPoint {
                    family: r.try_get("family")?,
                    game_id: r.try_get("game_id")?,
                    rating: r.try_get("after")?,
                    at_ms: r.try_get("at_ms")?,
                })
            })
            .collect()
    }

    async fn game_rating_changes(&self, game_id: &str) -> StoreResult<Vec<RatingChange>> {
        let rows = sqlx::query(
            "SELECT h.user_id, u.username, h.family, h.before, h.after FROM rating_history h \
             JOIN users u ON u.id = h.user_id WHERE h.game_id = ? ORDER BY h.rowid",
        )
        .bind(game_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(RatingChange {
                    user_id: r.try_get("user_id")?,
                    username: r.try_get("username")?,
                    family: r.try_get("family")?,
                    before: r.try_get("before")?,
                    after: r.try_get("after")?,
                })
            })
            .collect()
    }

    async fn save_event(&self, id: &str, status: &str, data: &str) -> StoreResult<()> {
        let now = now_ms();
        sqlx::query(
            "INSERT INTO events (id, status, data, created_ms, updated_ms) VALUES (?1, ?2, ?3, ?4, ?4) \
             ON CONFLICT(id) DO UPDATE SET status = ?2, data = ?3, updated_ms = ?4",
        )
        .bind(id)
        .bind(status)
        .bind(data)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn load_events(&self) -> StoreResult<Vec<(String, String)>> {
        let rows = sqlx::query("SELECT id, data FROM events ORDER BY created_ms, id")
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("id")?, r.try_get("data")?)))
            .collect()
    }

    async fn add_foul(&self, game_id: &str, seat: usize) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO game_fouls (game_id, seat, fouls) VALUES (?, ?, 1) \
             ON CONFLICT(game_id, seat) DO UPDATE SET fouls = fouls + 1",
        )
        .bind(game_id)
        .bind(seat as i64)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn game_fouls(&self, game_id: &str) -> StoreResult<Vec<(usize, u32)>> {
        let rows =
            sqlx::query("SELECT seat, fouls FROM game_fouls WHERE game_id = ? ORDER BY seat")
                .bind(game_id)
                .fetch_all(&self.pool)
                .await?;
        rows.iter()
            .map(|r| {
                let seat: i64 = r.try_get("seat")?;
                let n: i64 = r.try_get("fouls")?;
                Ok((seat.max(0) as usize, n.max(0) as u32))
            })
            .collect()
    }

    async fn save_game_setup(&self, game_id: &str, setup: &str) -> StoreResult<()> {
        sqlx::query("INSERT OR REPLACE INTO game_setups (game_id, setup) VALUES (?, ?)")
            .bind(game_id)
            .bind(setup)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn game_setup(&self, game_id: &str) -> StoreResult<Option<String>> {
        let row = sqlx::query("SELECT setup FROM game_setups WHERE game_id = ?")
            .bind(game_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row
            .map(|r| r.try_get::<Option<String>, _>("setup"))
            .transpose()?
            .flatten())
    }

    async fn settle_points(
        &self,
        game_id: &str,
        family: &str,
        deltas: &[(i64, i64)],
    ) -> StoreResult<bool> {
        let mut tx = self.pool.begin().await?;
        let done: Option<i64> =
            sqlx::query_scalar("SELECT 1 FROM game_points WHERE game_id = ? LIMIT 1")
                .bind(game_id)
                .fetch_optional(&mut *tx)
                .await?;
        if done.is_some() {
            return Ok(false);
        }
        let at = now_ms();
        for (user, delta) in deltas {
            sqlx::query(
                "INSERT INTO game_points (game_id, user_id, family, delta, at_ms) VALUES (?, ?, ?, ?, ?)",
            )
            .bind(game_id)
            .bind(user)
            .bind(family)
            .bind(delta)
            .bind(at)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    async fn points_balance(&self, user_id: i64, family: &str) -> StoreResult<i64> {
        let sum: Option<i64> = sqlx::query_scalar(
            "SELECT SUM(delta) FROM game_points WHERE user_id = ? AND family = ?",
        )
        .bind(user_id)
        .bind(family)
        .fetch_one(&self.pool)
        .await?;
        Ok(sum.unwrap_or(0))
    }

    async fn points_leaderboard(
        &self,
        family: &str,
        limit: i64,
    ) -> StoreResult<Vec<(String, i64)>> {
        let rows = sqlx::query(
            "SELECT u.username AS username, SUM(p.delta) AS points FROM game_points p \
             JOIN users u ON u.id = p.user_id WHERE p.family = ? \
             GROUP BY p.user_id ORDER BY points DESC, u.username LIMIT ?",
        )
        .bind(family)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("username")?, r.try_get("points")?)))
            .collect()
    }

    async fn take_back(
        &self,
        game: &GameRow,
        from_ply: i64,
        by_seat: usize,
        fence: Option<&Fence>,
    ) -> StoreResult<()> {
        self.take_back_sql(game, from_ply, by_seat, fence).await
    }

    async fn takeback_count(&self, game_id: &str) -> StoreResult<i64> {
        self.takeback_count_sql(game_id).await
    }

    async fn unfinished_games_of(&self, user_id: i64, limit: i64) -> StoreResult<Vec<String>> {
        self.unfinished_games_of_sql(user_id, limit).await
    }

    async fn save_challenge(&self, game_id: &str, user_id: i64) -> StoreResult<()> {
        self.save_challenge_sql(game_id, user_id).await
    }

    async fn challenge_of(&self, game_id: &str) -> StoreResult<Option<(i64, String)>> {
        self.challenge_of_sql(game_id).await
    }

    async fn challenges_for(&self, user_id: i64, limit: i64) -> StoreResult<Vec<String>> {
        self.challenges_for_sql(user_id, limit).await
    }

    async fn add_chat_report(&self, report: &crate::store_play::ChatReport) -> StoreResult<()> {
        self.add_chat_report_sql(report).await
    }

    async fn chat_reports(&self, game_id: &str) -> StoreResult<Vec<crate::store_play::ChatReport>> {
        self.chat_reports_sql(game_id).await
    }

    async fn close(&self) {
        self.pool.close().await;
    }
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use super::*;

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
            let mut old = crate::migrations::sqlite();
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
