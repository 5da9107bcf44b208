//! The PostgreSQL store (issue 17): the same [`super::Storage`] as
//! [`super::SqliteStore`], on a database that several hall nodes share,
//! with the same statements and method bodies ([`super::shared`]).
//! `synchronous_commit` is on for every connection, so a commit (and so an
//! acknowledged move) is on disk before the hall hears of it. Moves go
//! through the same group commit as on SQLite; here a batch is three
//! statements whatever its size (the fence check, the moves, the game rows),
//! each over arrays (`unnest`), so a batch costs a few round trips, not a
//! few per move: that writer is PostgreSQL's own.

use std::str::FromStr;
use std::sync::Arc;

use async_trait::async_trait;
use sqlx::PgPool;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};

use super::dialect::Dialect;
use super::group_commit::{GroupCommit, MoveWriter, PendingMove};
use super::{GameRow, SeatRow, StoreError, StoreResult, sql};

/// Connections a node keeps to PostgreSQL.
const POOL: u32 = 8;

/// The PostgreSQL store.
pub(crate) struct PgStore {
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
    const DIALECT: Dialect = Dialect::Postgres;

    /// Connects to the database at `url` (`postgres://USER:PASSWORD@HOST/DB`)
    /// and applies the migrations (in PostgreSQL's spelling, see
    /// [`super::migrations`]).
    pub(crate) async fn open(url: &str) -> StoreResult<PgStore> {
        let failed = |what: &str, e: &dyn std::fmt::Display| {
            StoreError::Open(format!("{what} {}: {e}", redacted(url)))
        };
        let opts = PgConnectOptions::from_str(url)
            .map_err(|e| failed("bad PostgreSQL URL", &e))?
            .options([("synchronous_commit", "on")]);
        // One plain connection first: a wrong address or password is told at
        // once, not after the pool's retries.
        let first = sqlx::ConnectOptions::connect(&opts)
            .await
            .map_err(|e| failed("cannot connect to PostgreSQL at", &e))?;
        sqlx::Connection::close(first).await?;
        let pool = PgPoolOptions::new()
            .max_connections(POOL)
            .acquire_timeout(std::time::Duration::from_secs(10))
            .connect_with(opts)
            .await
            .map_err(|e| failed("cannot connect to PostgreSQL at", &e))?;
        super::migrations::for_dialect(Self::DIALECT)
            .run(&pool)
            .await
            .map_err(|e| failed("cannot apply the migrations to PostgreSQL at", &e))?;
        let moves = GroupCommit::start(Arc::new(PgMoves(pool.clone())));
        Ok(PgStore { pool, moves })
    }
}

super::shared::sql_store!(PgStore, sqlx::PgConnection);
super::shared_standings::sql_standings!(PgStore);
super::shared_puzzles::sql_puzzles!(PgStore);

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

    /// Rewrites the rows, and records who played which game.
    async fn write(self, conn: &mut sqlx::PgConnection) -> StoreResult<()> {
        let sql = format!(
            "UPDATE games SET rules = u.rules, options = u.options, start_fen = u.start_fen, initial_ms = u.initial_ms, \
             increment_ms = u.increment_ms, rated = u.rated, seats = u.seats, status = u.status, result = u.result, \
             reason = u.reason, explanation = u.explanation, clocks = u.clocks, created_ms = u.created_ms, \
             updated_ms = u.updated_ms, rematch_of = u.rematch_of, placings = u.placings \
             FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::bigint[], $7::bigint[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::bigint[], $15::bigint[], $16::text[], $17::text[]) \
             AS u({}) WHERE games.id = u.id",
            sql::GAME_COLUMNS
        );
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
                return Err(StoreError::StaleLease(stale.game.id.clone()));
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
        games.write(&mut tx).await?;
        tx.commit().await?;
        Ok(())
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
