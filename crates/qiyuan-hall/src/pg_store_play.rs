//! The PostgreSQL side of ratings, events, fouls, set-ups, points ledgers,
//! takebacks, challenges, chat reports and presets: what
//! [`crate::pg_store::PgStore`]'s [`crate::store::Storage`] delegates to,
//! so that `pg_store.rs` stays about accounts, games and moves.

use sqlx::Row;

use crate::pg_store::{PgStore, now_ms, write_game};
use crate::presets::Preset;
use crate::store::{GameRow, RatingChange, RatingPoint, RatingUpdate, StoreResult};
use crate::store_play::ChatReport;

impl PgStore {
    pub(crate) async fn apply_ratings_pg(
        &self,
        game_id: &str,
        family: &str,
        updates: &[RatingUpdate],
    ) -> StoreResult<bool> {
        let mut tx = self.pool.begin().await?;
        let done: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM rating_history WHERE game_id = $1")
                .bind(game_id)
                .fetch_one(&mut *tx)
                .await?;
        if done > 0 {
            return Ok(false);
        }
        let now = now_ms();
        for u in updates {
            sqlx::query(
                "INSERT INTO ratings (user_id, family, value, rated_games, reached_top, updated_ms, deviation) VALUES ($1, $2, $3, $4, $5, $6, $7) \
                 ON CONFLICT (user_id, family) DO UPDATE SET value = $3, rated_games = $4, reached_top = $5, updated_ms = $6, deviation = $7",
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
                "INSERT INTO rating_history (user_id, family, game_id, before, after, at_ms) VALUES ($1, $2, $3, $4, $5, $6)",
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

    pub(crate) async fn rating_history_pg(&self, user_id: i64) -> StoreResult<Vec<RatingPoint>> {
        let rows = sqlx::query(
            "SELECT family, game_id, after, at_ms FROM rating_history WHERE user_id = $1 ORDER BY at_ms, rowid",
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

    pub(crate) async fn game_rating_changes_pg(
        &self,
        game_id: &str,
    ) -> StoreResult<Vec<RatingChange>> {
        let rows = sqlx::query(
            "SELECT h.user_id, u.username, h.family, h.before, h.after FROM rating_history h \
             JOIN users u ON u.id = h.user_id WHERE h.game_id = $1 ORDER BY h.rowid",
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

    pub(crate) async fn save_event_pg(
        &self,
        id: &str,
        status: &str,
        data: &str,
    ) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO events (id, status, data, created_ms, updated_ms) VALUES ($1, $2, $3, $4, $4) \
             ON CONFLICT (id) DO UPDATE SET status = $2, data = $3, updated_ms = $4",
        )
        .bind(id)
        .bind(status)
        .bind(data)
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub(crate) async fn load_events_pg(&self) -> StoreResult<Vec<(String, String)>> {
        let rows = sqlx::query("SELECT id, data FROM events ORDER BY created_ms, id")
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("id")?, r.try_get("data")?)))
            .collect()
    }

    pub(crate) async fn add_foul_pg(&self, game_id: &str, seat: usize) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO game_fouls (game_id, seat, fouls) VALUES ($1, $2, 1) \
             ON CONFLICT (game_id, seat) DO UPDATE SET fouls = game_fouls.fouls + 1",
        )
        .bind(game_id)
        .bind(seat as i64)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub(crate) async fn game_fouls_pg(&self, game_id: &str) -> StoreResult<Vec<(usize, u32)>> {
        let rows =
            sqlx::query("SELECT seat, fouls FROM game_fouls WHERE game_id = $1 ORDER BY seat")
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

    pub(crate) async fn save_game_setup_pg(&self, game_id: &str, setup: &str) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO game_setups (game_id, setup) VALUES ($1, $2) ON CONFLICT (game_id) DO UPDATE SET setup = excluded.setup, base = 1",
        )
        .bind(game_id)
        .bind(setup)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub(crate) async fn game_setup_pg(&self, game_id: &str) -> StoreResult<Option<String>> {
        let row: Option<Option<String>> =
            sqlx::query_scalar("SELECT setup FROM game_setups WHERE game_id = $1")
                .bind(game_id)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.flatten())
    }

    pub(crate) async fn settle_points_pg(
        &self,
        game_id: &str,
        family: &str,
        deltas: &[(i64, i64)],
    ) -> StoreResult<bool> {
        let mut tx = self.pool.begin().await?;
        let done: Option<i64> =
            sqlx::query_scalar("SELECT 1::bigint FROM game_points WHERE game_id = $1 LIMIT 1")
                .bind(game_id)
                .fetch_optional(&mut *tx)
                .await?;
        if done.is_some() {
            return Ok(false);
        }
        let at = now_ms();
        for (user, delta) in deltas {
            sqlx::query(
                "INSERT INTO game_points (game_id, user_id, family, delta, at_ms) VALUES ($1, $2, $3, $4, $5)",
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

    pub(crate) async fn points_balance_pg(&self, user_id: i64, family: &str) -> StoreResult<i64> {
        let sum: Option<i64> = sqlx::query_scalar(
            "SELECT SUM(delta)::bigint FROM game_points WHERE user_id = $1 AND family = $2",
        )
        .bind(user_id)
        .bind(family)
        .fetch_one(&self.pool)
        .await?;
        Ok(sum.unwrap_or(0))
    }

    pub(crate) async fn points_leaderboard_pg(
        &self,
        family: &str,
        limit: i64,
    ) -> StoreResult<Vec<(String, i64)>> {
        let rows = sqlx::query(
            "SELECT u.username AS username, SUM(p.delta)::bigint AS points FROM game_points p \
             JOIN users u ON u.id = p.user_id WHERE p.family = $1 \
             GROUP BY u.id, u.username ORDER BY points DESC, u.username LIMIT $2",
        )
        .bind(family)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("username")?, r.try_get("points")?)))
            .collect()
    }

    pub(crate) async fn take_back_pg(
        &self,
        game: &GameRow,
        from_ply: i64,
        by_seat: usize,
        fence: Option<&crate::store::Fence>,
    ) -> StoreResult<()> {
        let mut tx = self.pool.begin().await?;
        crate::store_cluster::pg_fence(&mut tx, &game.id, fence).await?;
        let rows = sqlx::query(
            "SELECT ply, seat, mv FROM moves WHERE game_id = $1 AND ply >= $2 ORDER BY ply",
        )
        .bind(&game.id)
        .bind(from_ply)
        .fetch_all(&mut *tx)
        .await?;
        let mut taken = Vec::with_capacity(rows.len());
        for r in &rows {
            let (ply, seat, mv): (i64, i64, String) =
                (r.try_get("ply")?, r.try_get("seat")?, r.try_get("mv")?);
            taken.push(serde_json::json!({"ply": ply, "seat": seat, "mv": mv}));
        }
        sqlx::query(
            "INSERT INTO takebacks (game_id, from_ply, by_seat, moves, at_ms) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(&game.id)
        .bind(from_ply)
        .bind(by_seat as i64)
        .bind(serde_json::to_string(&taken)?)
        .bind(game.updated_ms)
        .execute(&mut *tx)
        .await?;
        sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply >= $2")
            .bind(&game.id)
            .bind(from_ply)
            .execute(&mut *tx)
            .await?;
        write_game(&mut tx, game, false).await?;
        tx.commit().await?;
        Ok(())
    }

    pub(crate) async fn takeback_count_pg(&self, game_id: &str) -> StoreResult<i64> {
        Ok(
            sqlx::query_scalar("SELECT COUNT(*) FROM takebacks WHERE game_id = $1")
                .bind(game_id)
                .fetch_one(&self.pool)
                .await?,
        )
    }

    pub(crate) async fn unfinished_games_of_pg(
        &self,
        user_id: i64,
        limit: i64,
    ) -> StoreResult<Vec<String>> {
        Ok(sqlx::query_scalar(
            "SELECT g.id FROM games g JOIN game_players p ON p.game_id = g.id WHERE p.user_id = $1 AND g.status <> 'finished' ORDER BY g.updated_ms DESC LIMIT $2",
        )
        .bind(user_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?)
    }

    pub(crate) async fn save_challenge_pg(&self, game_id: &str, user_id: i64) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO challenges (game_id, user_id, at_ms) VALUES ($1, $2, $3) \
             ON CONFLICT (game_id) DO UPDATE SET user_id = excluded.user_id, at_ms = excluded.at_ms",
        )
        .bind(game_id)
        .bind(user_id)
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub(crate) async fn challenge_of_pg(
        &self,
        game_id: &str,
    ) -> StoreResult<Option<(i64, String)>> {
        let row = sqlx::query(
            "SELECT c.user_id, u.username FROM challenges c JOIN users u ON u.id = c.user_id WHERE c.game_id = $1",
        )
        .bind(game_id)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| Ok((r.try_get("user_id")?, r.try_get("username")?)))
            .transpose()
    }

    pub(crate) async fn challenges_for_pg(
        &self,
        user_id: i64,
        limit: i64,
    ) -> StoreResult<Vec<String>> {
        Ok(sqlx::query_scalar(
            "SELECT c.game_id FROM challenges c JOIN games g ON g.id = c.game_id WHERE c.user_id = $1 AND g.status = 'waiting' ORDER BY c.at_ms DESC LIMIT $2",
        )
        .bind(user_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?)
    }

    pub(crate) async fn add_chat_report_pg(&self, r: &ChatReport) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO chat_reports (game_id, reporter_id, author_id, text, sent_ms, at_ms) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&r.game_id)
        .bind(r.reporter_id)
        .bind(r.author_id)
        .bind(&r.text)
        .bind(r.sent_ms)
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub(crate) async fn chat_reports_pg(&self, game_id: &str) -> StoreResult<Vec<ChatReport>> {
        let rows = sqlx::query(
            "SELECT game_id, reporter_id, author_id, text, sent_ms FROM chat_reports WHERE game_id = $1 ORDER BY id",
        )
        .bind(game_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(ChatReport {
                    game_id: r.try_get("game_id")?,
                    reporter_id: r.try_get("reporter_id")?,
                    author_id: r.try_get("author_id")?,
                    text: r.try_get("text")?,
                    sent_ms: r.try_get("sent_ms")?,
                })
            })
            .collect()
    }

    pub(crate) async fn list_presets_pg(&self, user_id: i64) -> StoreResult<Vec<Preset>> {
        let rows = sqlx::query(
            "SELECT kind, name, text, on_timeout FROM presets WHERE user_id = $1 ORDER BY kind, name",
        )
        .bind(user_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(Preset {
                    kind: r.try_get("kind")?,
                    name: r.try_get("name")?,
                    text: r.try_get("text")?,
                    on_timeout: r.try_get::<i64, _>("on_timeout")? != 0,
                })
            })
            .collect()
    }

    pub(crate) async fn save_preset_pg(&self, user_id: i64, p: &Preset) -> StoreResult<()> {
        let mut tx = self.pool.begin().await?;
        if p.on_timeout {
            sqlx::query("UPDATE presets SET on_timeout = 0 WHERE user_id = $1 AND kind = $2")
                .bind(user_id)
                .bind(&p.kind)
                .execute(&mut *tx)
                .await?;
        }
        sqlx::query(
            "INSERT INTO presets (user_id, kind, name, text, on_timeout, updated_ms) VALUES ($1, $2, $3, $4, $5, $6) \
             ON CONFLICT (user_id, kind, name) DO UPDATE SET text = excluded.text, on_timeout = excluded.on_timeout, updated_ms = excluded.updated_ms",
        )
        .bind(user_id)
        .bind(&p.kind)
        .bind(&p.name)
        .bind(&p.text)
        .bind(i64::from(p.on_timeout))
        .bind(now_ms())
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    pub(crate) async fn delete_preset_pg(
        &self,
        user_id: i64,
        kind: &str,
        name: &str,
    ) -> StoreResult<bool> {
        let r = sqlx::query("DELETE FROM presets WHERE user_id = $1 AND kind = $2 AND name = $3")
            .bind(user_id)
            .bind(kind)
            .bind(name)
            .execute(&self.pool)
            .await?;
        Ok(r.rows_affected() > 0)
    }

    pub(crate) async fn timeout_preset_pg(
        &self,
        user_id: i64,
        kind: &str,
    ) -> StoreResult<Option<String>> {
        Ok(sqlx::query_scalar(
            "SELECT text FROM presets WHERE user_id = $1 AND kind = $2 AND on_timeout = 1",
        )
        .bind(user_id)
        .bind(kind)
        .fetch_optional(&self.pool)
        .await?)
    }
}
