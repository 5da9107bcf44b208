//! The PostgreSQL store (issue 17): the same [`Storage`] as
//! [`crate::store::SqliteStore`], on a database that several hall nodes
//! share. `synchronous_commit` is on for every connection, so a commit (and
//! so an acknowledged move) is on disk before the hall hears of it. Moves go
//! through the same group commit as on SQLite; here a batch is three
//! statements whatever its size (the fence check, the moves, the game rows),
//! each over arrays (`unnest`), so a batch costs a few round trips, not a
//! few per move. Accounts, sessions, games and moves are here; what players
//! do around their moves is in [`crate::pg_store_play`].

use std::str::FromStr;
use std::sync::Arc;

use anyhow::Context;
use async_trait::async_trait;
use qiyuan_events::Rating;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions, PgRow};
use sqlx::{PgPool, Row};

use crate::group_commit::{GroupCommit, MoveWriter, PendingMove};
use crate::store::{
    Fence, GameRow, MoveRow, NewSession, RatingChange, RatingPoint, RatingUpdate, SeatRow,
    SessionRow, StaleLease, Storage, StoreResult, User,
};

/// Connections a node keeps to PostgreSQL.
const POOL: u32 = 8;

/// The PostgreSQL store.
pub struct PgStore {
    pub(crate) pool: PgPool,
    moves: GroupCommit,
}

/// `url` without its password, for messages.
fn redacted(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(s), Some(at)) if at > s => {
            let cred = &url[s + 3..at];
            match cred.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &url[..s + 3], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

impl PgStore {
    /// Connects to the database at `url` (`postgres://USER:PASSWORD@HOST/DB`)
    /// and applies the migrations (translated from the one SQL source, see
    /// [`crate::migrations`]).
    pub async fn open(url: &str) -> StoreResult<PgStore> {
        let opts = PgConnectOptions::from_str(url)
            .with_context(|| format!("bad PostgreSQL URL {:?}", redacted(url)))?
            .options([("synchronous_commit", "on")]);
        // One plain connection first: a wrong address or password is told at
        // once, not after the pool's retries.
        let first = sqlx::ConnectOptions::connect(&opts)
            .await
            .with_context(|| format!("cannot connect to PostgreSQL at {}", redacted(url)))?;
        sqlx::Connection::close(first).await?;
        let pool = PgPoolOptions::new()
            .max_connections(POOL)
            .acquire_timeout(std::time::Duration::from_secs(10))
            .connect_with(opts)
            .await
            .with_context(|| format!("cannot connect to PostgreSQL at {}", redacted(url)))?;
        crate::migrations::postgres()
            .run(&pool)
            .await
            .context("cannot apply the migrations to PostgreSQL")?;
        let moves = GroupCommit::start(Arc::new(PgMoves(pool.clone())));
        Ok(PgStore { pool, moves })
    }
}

pub(crate) fn now_ms() -> i64 {
    crate::clock::wall_ms()
}

fn user_from_row(r: &PgRow) -> StoreResult<User> {
    Ok(User {
        id: r.try_get("id")?,
        username: r.try_get("username")?,
        password_hash: r.try_get("password_hash")?,
        guest: r.try_get::<i64, _>("guest")? != 0,
    })
}

fn rating_from_row(r: &PgRow) -> StoreResult<Rating> {
    Ok(Rating {
        value: r.try_get("value")?,
        rated_games: r.try_get::<i64, _>("rated_games")?.max(0) as u32,
        reached_top: r.try_get::<i64, _>("reached_top")? != 0,
    })
}

pub(crate) fn game_from_row(r: &PgRow) -> StoreResult<GameRow> {
    Ok(GameRow {
        id: r.try_get("id")?,
        rules: r.try_get("rules")?,
        options: serde_json::from_str(&r.try_get::<String, _>("options")?)?,
        start_fen: r.try_get("start_fen")?,
        initial_ms: r.try_get("initial_ms")?,
        increment_ms: r.try_get("increment_ms")?,
        rated: r.try_get::<i64, _>("rated")? != 0,
        seats: serde_json::from_str(&r.try_get::<String, _>("seats")?)?,
        status: r.try_get("status")?,
        result: r.try_get("result")?,
        reason: r.try_get("reason")?,
        explanation: r.try_get("explanation")?,
        clocks: serde_json::from_str(&r.try_get::<String, _>("clocks")?)?,
        created_ms: r.try_get("created_ms")?,
        updated_ms: r.try_get("updated_ms")?,
        rematch_of: r.try_get("rematch_of")?,
        placings: r
            .try_get::<Option<String>, _>("placings")?
            .map(|p| serde_json::from_str(&p))
            .transpose()?,
    })
}

fn move_from_row(r: &PgRow) -> StoreResult<MoveRow> {
    Ok(MoveRow {
        ply: r.try_get("ply")?,
        seat: r.try_get("seat")?,
        mv: r.try_get("mv")?,
        clocks: serde_json::from_str(&r.try_get::<String, _>("clocks")?)?,
        at_ms: r.try_get("at_ms")?,
        draws: r
            .try_get::<Option<String>, _>("draws")?
            .map(|d| serde_json::from_str(&d))
            .transpose()?
            .unwrap_or_default(),
    })
}

const GAME_COLUMNS: &str = "id, rules, options, start_fen, initial_ms, increment_ms, rated, seats, status, result, reason, explanation, clocks, created_ms, updated_ms, rematch_of, placings";

/// The game rows of a batch as one array per column.
#[derive(Default)]
struct GameArrays {
    id: Vec<String>,
    rules: Vec<String>,
    options: Vec<String>,
    start_fen: Vec<Option<String>>,
    initial_ms: Vec<i64>,
    increment_ms: Vec<i64>,
    rated: Vec<i64>,
    seats: Vec<String>,
    status: Vec<String>,
    result: Vec<Option<String>>,
    reason: Vec<Option<String>>,
    explanation: Vec<Option<String>>,
    clocks: Vec<String>,
    created_ms: Vec<i64>,
    updated_ms: Vec<i64>,
    rematch_of: Vec<Option<String>>,
    placings: Vec<Option<String>>,
    player_game: Vec<String>,
    player_user: Vec<i64>,
}

impl GameArrays {
    fn push(&mut self, g: &GameRow) -> StoreResult<()> {
        self.id.push(g.id.clone());
        self.rules.push(g.rules.clone());
        self.options.push(serde_json::to_string(&g.options)?);
        self.start_fen.push(g.start_fen.clone());
        self.initial_ms.push(g.initial_ms);
        self.increment_ms.push(g.increment_ms);
        self.rated.push(i64::from(g.rated));
        self.seats.push(serde_json::to_string(&g.seats)?);
        self.status.push(g.status.clone());
        self.result.push(g.result.clone());
        self.reason.push(g.reason.clone());
        self.explanation.push(g.explanation.clone());
        self.clocks.push(serde_json::to_string(&g.clocks)?);
        self.created_ms.push(g.created_ms);
        self.updated_ms.push(g.updated_ms);
        self.rematch_of.push(g.rematch_of.clone());
        self.placings
            .push(g.placings.as_ref().map(serde_json::to_string).transpose()?);
        for s in &g.seats {
            if let SeatRow::User { id, .. } = s {
                self.player_game.push(g.id.clone());
                self.player_user.push(*id);
            }
        }
        Ok(())
    }

    /// Inserts (or, with `insert` false, rewrites) the rows, and records who
    /// played which game.
    async fn write(self, conn: &mut sqlx::PgConnection, insert: bool) -> StoreResult<()> {
        let source = "FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::bigint[], $7::bigint[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::bigint[], $15::bigint[], $16::text[], $17::text[]) \
             AS u(id, rules, options, start_fen, initial_ms, increment_ms, rated, seats, status, result, reason, explanation, clocks, created_ms, updated_ms, rematch_of, placings)";
        let sql = if insert {
            format!("INSERT INTO games ({GAME_COLUMNS}) SELECT {GAME_COLUMNS} {source}")
        } else {
            format!(
                "UPDATE games SET rules = u.rules, options = u.options, start_fen = u.start_fen, initial_ms = u.initial_ms, \
                 increment_ms = u.increment_ms, rated = u.rated, seats = u.seats, status = u.status, result = u.result, \
                 reason = u.reason, explanation = u.explanation, clocks = u.clocks, created_ms = u.created_ms, \
                 updated_ms = u.updated_ms, rematch_of = u.rematch_of, placings = u.placings {source} WHERE games.id = u.id"
            )
        };
        sqlx::query(&sql)
            .bind(self.id)
            .bind(self.rules)
            .bind(self.options)
            .bind(self.start_fen)
            .bind(self.initial_ms)
            .bind(self.increment_ms)
            .bind(self.rated)
            .bind(self.seats)
            .bind(self.status)
            .bind(self.result)
            .bind(self.reason)
            .bind(self.explanation)
            .bind(self.clocks)
            .bind(self.created_ms)
            .bind(self.updated_ms)
            .bind(self.rematch_of)
            .bind(self.placings)
            .execute(&mut *conn)
            .await?;
        if !self.player_game.is_empty() {
            sqlx::query(
                "INSERT INTO game_players (game_id, user_id) SELECT * FROM unnest($1::text[], $2::bigint[]) ON CONFLICT DO NOTHING",
            )
            .bind(self.player_game)
            .bind(self.player_user)
            .execute(&mut *conn)
            .await?;
        }
        Ok(())
    }
}

/// Writes one game row (insert or rewrite) on `conn`.
pub(crate) async fn write_game(
    conn: &mut sqlx::PgConnection,
    g: &GameRow,
    insert: bool,
) -> StoreResult<()> {
    let mut a = GameArrays::default();
    a.push(g)?;
    a.write(conn, insert).await
}

/// PostgreSQL's move writer: a batch in three statements.
struct PgMoves(PgPool);

#[async_trait]
impl MoveWriter for PgMoves {
    async fn write_moves(&self, moves: &[PendingMove]) -> StoreResult<()> {
        let mut tx = self.0.begin().await?;
        let fenced: Vec<&PendingMove> = moves.iter().filter(|p| p.fence.is_some()).collect();
        if !fenced.is_empty() {
            // The rows stay locked to the commit: a node taking a lease over
            // waits for this batch, or this batch sees its new token.
            let held: Vec<String> = sqlx::query_scalar(
                "SELECT l.game_id FROM leases l JOIN unnest($1::text[], $2::text[], $3::bigint[]) AS f(game_id, owner, token) \
                 ON l.game_id = f.game_id AND l.owner = f.owner AND l.token = f.token FOR SHARE OF l",
            )
            .bind(fenced.iter().map(|p| p.game.id.clone()).collect::<Vec<_>>())
            .bind(
                fenced
                    .iter()
                    .filter_map(|p| p.fence.as_ref().map(|f| f.owner.clone()))
                    .collect::<Vec<_>>(),
            )
            .bind(
                fenced
                    .iter()
                    .filter_map(|p| p.fence.as_ref().map(|f| f.token))
                    .collect::<Vec<_>>(),
            )
            .fetch_all(&mut *tx)
            .await?;
            if let Some(stale) = fenced.iter().find(|p| !held.contains(&p.game.id)) {
                anyhow::bail!(StaleLease(stale.game.id.clone()));
            }
        }
        let mut draws = Vec::with_capacity(moves.len());
        let mut clocks = Vec::with_capacity(moves.len());
        for p in moves {
            clocks.push(serde_json::to_string(&p.mv.clocks)?);
            draws.push(
                (!p.mv.draws.is_empty())
                    .then(|| serde_json::to_string(&p.mv.draws))
                    .transpose()?,
            );
        }
        sqlx::query(
            "INSERT INTO moves (game_id, ply, seat, mv, clocks, at_ms, draws) \
             SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::text[], $5::text[], $6::bigint[], $7::text[])",
        )
        .bind(moves.iter().map(|p| p.game.id.clone()).collect::<Vec<_>>())
        .bind(moves.iter().map(|p| p.mv.ply).collect::<Vec<_>>())
        .bind(moves.iter().map(|p| p.mv.seat).collect::<Vec<_>>())
        .bind(moves.iter().map(|p| p.mv.mv.clone()).collect::<Vec<_>>())
        .bind(clocks)
        .bind(moves.iter().map(|p| p.mv.at_ms).collect::<Vec<_>>())
        .bind(draws)
        .execute(&mut *tx)
        .await?;
        let mut games = GameArrays::default();
        for p in moves {
            games.push(&p.game)?;
        }
        games.write(&mut tx, false).await?;
        tx.commit().await?;
        Ok(())
    }
}

impl PgStore {
    async fn moves_of(&self, id: &str) -> StoreResult<Vec<MoveRow>> {
        let rows = sqlx::query(
            "SELECT ply, seat, mv, clocks, at_ms, draws FROM moves WHERE game_id = $1 ORDER BY ply",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(move_from_row).collect()
    }
}

#[async_trait]
impl Storage for PgStore {
    async fn create_user(
        &self,
        username: &str,
        password_hash: Option<&str>,
        guest: bool,
    ) -> StoreResult<Option<User>> {
        let id: Option<i64> = sqlx::query_scalar(
            "INSERT INTO users (username, name_key, password_hash, guest, created_ms) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING id",
        )
        .bind(username)
        .bind(crate::auth::name_key(username))
        .bind(password_hash)
        .bind(i64::from(guest))
        .bind(now_ms())
        .fetch_optional(&self.pool)
        .await?;
        Ok(id.map(|id| User {
            id,
            username: username.to_string(),
            password_hash: password_hash.map(str::to_string),
            guest,
        }))
    }

    async fn user_by_name(&self, username: &str) -> StoreResult<Option<User>> {
        let row = sqlx::query(
            "SELECT id, username, password_hash, guest FROM users WHERE name_key = $1 OR username = $2 ORDER BY username = $2 DESC LIMIT 1",
        )
        .bind(crate::auth::name_key(username))
        .bind(username)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(user_from_row).transpose()
    }

    async fn create_session(&self, token: &str, user_id: i64, s: &NewSession) -> StoreResult<()> {
        let now = now_ms();
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO sessions (token, user_id, created_ms, id, expires_ms, last_seen_ms, agent) VALUES ($1, $2, $3, $4, $5, $3, $6)",
        )
        .bind(token)
        .bind(user_id)
        .bind(now)
        .bind(format!("{:016x}", rand::random::<u64>()))
        .bind(now.saturating_add(s.ttl_ms))
        .bind(&s.agent)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "DELETE FROM sessions WHERE user_id = $1 AND token NOT IN (SELECT token FROM sessions WHERE user_id = $1 ORDER BY last_seen_ms DESC, created_ms DESC, rowid DESC LIMIT $2)",
        )
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
            "SELECT u.id, u.username, u.password_hash, u.guest, s.expires_ms FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token = $1 AND s.expires_ms > $2",
        )
        .bind(token)
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let expires: i64 = row.try_get("expires_ms")?;
        let step = (ttl_ms / 8).min(3_600_000);
        if expires - now < ttl_ms - step {
            sqlx::query("UPDATE sessions SET expires_ms = $1, last_seen_ms = $2 WHERE token = $3")
                .bind(now.saturating_add(ttl_ms))
                .bind(now)
                .bind(token)
                .execute(&self.pool)
                .await?;
        }
        user_from_row(&row).map(Some)
    }

    async fn delete_session(&self, token: &str) -> StoreResult<()> {
        sqlx::query("DELETE FROM sessions WHERE token = $1")
            .bind(token)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn list_sessions(&self, user_id: i64, current: &str) -> StoreResult<Vec<SessionRow>> {
        let rows = sqlx::query(
            "SELECT id, created_ms, last_seen_ms, expires_ms, agent, token = $1 AS current FROM sessions WHERE user_id = $2 AND expires_ms > $3 ORDER BY last_seen_ms DESC",
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
                    current: r.try_get("current")?,
                })
            })
            .collect()
    }

    async fn revoke_session(&self, user_id: i64, id: &str) -> StoreResult<bool> {
        let res = sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND id = $2")
            .bind(user_id)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(res.rows_affected() > 0)
    }

    async fn revoke_other_sessions(&self, user_id: i64, current: &str) -> StoreResult<u64> {
        let res = sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND token <> $2")
            .bind(user_id)
            .bind(current)
            .execute(&self.pool)
            .await?;
        Ok(res.rows_affected())
    }

    async fn purge_expired_sessions(&self) -> StoreResult<u64> {
        let res = sqlx::query("DELETE FROM sessions WHERE expires_ms <= $1")
            .bind(now_ms())
            .execute(&self.pool)
            .await?;
        Ok(res.rows_affected())
    }

    async fn delete_open_room(&self, id: &str) -> StoreResult<bool> {
        self.delete_open_room_sql(id).await
    }

    async fn purge_idle_guests(&self, cutoff_ms: i64) -> StoreResult<u64> {
        self.purge_idle_guests_sql(cutoff_ms).await
    }

    async fn list_presets(&self, user_id: i64) -> StoreResult<Vec<crate::presets::Preset>> {
        self.list_presets_pg(user_id).await
    }

    async fn save_preset(&self, user_id: i64, preset: &crate::presets::Preset) -> StoreResult<()> {
        self.save_preset_pg(user_id, preset).await
    }

    async fn delete_preset(&self, user_id: i64, kind: &str, name: &str) -> StoreResult<bool> {
        self.delete_preset_pg(user_id, kind, name).await
    }

    async fn timeout_preset(&self, user_id: i64, kind: &str) -> StoreResult<Option<String>> {
        self.timeout_preset_pg(user_id, kind).await
    }

    async fn ai_games_in_play(&self, user_id: i64) -> StoreResult<i64> {
        Ok(sqlx::query_scalar(
            "SELECT COUNT(*) FROM games g JOIN game_players p ON p.game_id = g.id WHERE p.user_id = $1 AND g.status <> 'finished' AND g.seats LIKE '%\"kind\":\"ai\"%'",
        )
        .bind(user_id)
        .fetch_one(&self.pool)
        .await?)
    }

    async fn insert_game(&self, game: &GameRow) -> StoreResult<()> {
        let mut tx = self.pool.begin().await?;
        write_game(&mut tx, game, true).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn update_game(&self, game: &GameRow, fence: Option<&Fence>) -> StoreResult<()> {
        let mut tx = self.pool.begin().await?;
        crate::store_cluster::pg_fence(&mut tx, &game.id, fence).await?;
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
        self.acquire_lease_pg(game_id, owner, ttl_ms).await
    }

    async fn release_lease(&self, game_id: &str, owner: &str) -> StoreResult<bool> {
        self.release_lease_pg(game_id, owner).await
    }

    async fn register_node(&self, id: &str, addr: &str) -> StoreResult<()> {
        self.register_node_pg(id, addr).await
    }

    async fn lease_holder(&self, game_id: &str) -> StoreResult<Option<(String, String)>> {
        self.lease_holder_pg(game_id).await
    }

    async fn orphaned_games(&self, limit: i64) -> StoreResult<Vec<String>> {
        self.orphaned_games_pg(limit).await
    }

    fn nodes(&self) -> crate::store_cluster::Nodes<'_> {
        crate::store_cluster::Nodes::Pg(&self.pool)
    }

    async fn load_game(&self, id: &str) -> StoreResult<Option<(GameRow, Vec<MoveRow>)>> {
        let row = sqlx::query(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"))
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
            "SELECT {GAME_COLUMNS} FROM games WHERE status <> 'finished'"
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
            "SELECT {cols} FROM games g JOIN game_players p ON p.game_id = g.id WHERE p.user_id = $1 ORDER BY g.created_ms DESC LIMIT $2"
        ))
        .bind(user_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(game_from_row).collect()
    }

    async fn rating(&self, user_id: i64, family: &str) -> StoreResult<Option<Rating>> {
        let row = sqlx::query(
            "SELECT value, rated_games, reached_top FROM ratings WHERE user_id = $1 AND family = $2",
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
            "SELECT value, deviation, rated_games FROM ratings WHERE user_id = $1 AND family = $2",
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
            "SELECT family, value, rated_games, reached_top FROM ratings WHERE user_id = $1 ORDER BY family",
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
        self.apply_ratings_pg(game_id, family, updates).await
    }

    async fn leaderboard(&self, family: &str, limit: i64) -> StoreResult<Vec<(String, Rating)>> {
        let rows = sqlx::query(
            "SELECT u.username, r.value, r.rated_games, r.reached_top FROM ratings r JOIN users u ON u.id = r.user_id \
             WHERE r.family = $1 AND u.guest = 0 ORDER BY r.value DESC, u.username LIMIT $2",
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
        self.rating_history_pg(user_id).await
    }

    async fn game_rating_changes(&self, game_id: &str) -> StoreResult<Vec<RatingChange>> {
        self.game_rating_changes_pg(game_id).await
    }

    async fn save_event(&self, id: &str, status: &str, data: &str) -> StoreResult<()> {
        self.save_event_pg(id, status, data).await
    }

    async fn load_events(&self) -> StoreResult<Vec<(String, String)>> {
        self.load_events_pg().await
    }

    async fn add_foul(&self, game_id: &str, seat: usize) -> StoreResult<()> {
        self.add_foul_pg(game_id, seat).await
    }

    async fn game_fouls(&self, game_id: &str) -> StoreResult<Vec<(usize, u32)>> {
        self.game_fouls_pg(game_id).await
    }

    async fn save_game_setup(&self, game_id: &str, setup: &str) -> StoreResult<()> {
        self.save_game_setup_pg(game_id, setup).await
    }

    async fn game_setup(&self, game_id: &str) -> StoreResult<Option<String>> {
        self.game_setup_pg(game_id).await
    }

    async fn settle_points(
        &self,
        game_id: &str,
        family: &str,
        deltas: &[(i64, i64)],
    ) -> StoreResult<bool> {
        self.settle_points_pg(game_id, family, deltas).await
    }

    async fn points_balance(&self, user_id: i64, family: &str) -> StoreResult<i64> {
        self.points_balance_pg(user_id, family).await
    }

    async fn points_leaderboard(
        &self,
        family: &str,
        limit: i64,
    ) -> StoreResult<Vec<(String, i64)>> {
        self.points_leaderboard_pg(family, limit).await
    }

    async fn take_back(
        &self,
        game: &GameRow,
        from_ply: i64,
        by_seat: usize,
        fence: Option<&Fence>,
    ) -> StoreResult<()> {
        self.take_back_pg(game, from_ply, by_seat, fence).await
    }

    async fn takeback_count(&self, game_id: &str) -> StoreResult<i64> {
        self.takeback_count_pg(game_id).await
    }

    async fn unfinished_games_of(&self, user_id: i64, limit: i64) -> StoreResult<Vec<String>> {
        self.unfinished_games_of_pg(user_id, limit).await
    }

    async fn save_challenge(&self, game_id: &str, user_id: i64) -> StoreResult<()> {
        self.save_challenge_pg(game_id, user_id).await
    }

    async fn challenge_of(&self, game_id: &str) -> StoreResult<Option<(i64, String)>> {
        self.challenge_of_pg(game_id).await
    }

    async fn challenges_for(&self, user_id: i64, limit: i64) -> StoreResult<Vec<String>> {
        self.challenges_for_pg(user_id, limit).await
    }

    async fn add_chat_report(&self, report: &crate::store_play::ChatReport) -> StoreResult<()> {
        self.add_chat_report_pg(report).await
    }

    async fn chat_reports(&self, game_id: &str) -> StoreResult<Vec<crate::store_play::ChatReport>> {
        self.chat_reports_pg(game_id).await
    }

    async fn close(&self) {
        self.pool.close().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_stay_out_of_messages() {
        assert_eq!(
            redacted("postgres://hall:secret@db:5432/qiyuan"),
            "postgres://hall:***@db:5432/qiyuan"
        );
        assert_eq!(redacted("postgres://db/qiyuan"), "postgres://db/qiyuan");
    }
}
