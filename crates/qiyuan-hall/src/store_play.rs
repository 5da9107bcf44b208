//! The SQLite side of what players do around their moves (issue 18):
//! takebacks, challenges addressed to one user, the games one is playing,
//! reported chat messages. [`crate::store::Storage`] delegates here so that
//! `store.rs` stays about accounts, games and moves.

use sqlx::Row;

use crate::store::{GameRow, SqliteStore, StoreResult, write_game};

/// A reported chat message, as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatReport {
    /// The game it was sent in.
    pub game_id: String,
    /// Who reported it.
    pub reporter_id: i64,
    /// Who sent it.
    pub author_id: i64,
    /// The message as it was sent.
    pub text: String,
    /// When it was sent, ms since the epoch.
    pub sent_ms: i64,
}

impl SqliteStore {
    pub(crate) async fn take_back_sql(
        &self,
        game: &GameRow,
        from_ply: i64,
        by_seat: usize,
        fence: Option<&crate::store::Fence>,
    ) -> StoreResult<()> {
        let mut tx = self.pool.begin().await?;
        crate::store_cluster::sqlite_fence(&mut tx, &game.id, fence).await?;
        let rows = sqlx::query(
            "SELECT ply, seat, mv FROM moves WHERE game_id = ? AND ply >= ? ORDER BY ply",
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
            "INSERT INTO takebacks (game_id, from_ply, by_seat, moves, at_ms) VALUES (?, ?, ?, ?, ?)",
        )
        .bind(&game.id)
        .bind(from_ply)
        .bind(by_seat as i64)
        .bind(serde_json::to_string(&taken)?)
        .bind(game.updated_ms)
        .execute(&mut *tx)
        .await?;
        sqlx::query("DELETE FROM moves WHERE game_id = ? AND ply >= ?")
            .bind(&game.id)
            .bind(from_ply)
            .execute(&mut *tx)
            .await?;
        write_game(&mut tx, game, false).await?;
        tx.commit().await?;
        Ok(())
    }

    pub(crate) async fn takeback_count_sql(&self, game_id: &str) -> StoreResult<i64> {
        Ok(
            sqlx::query_scalar("SELECT COUNT(*) FROM takebacks WHERE game_id = ?")
                .bind(game_id)
                .fetch_one(&self.pool)
                .await?,
        )
    }

    pub(crate) async fn unfinished_games_of_sql(
        &self,
        user_id: i64,
        limit: i64,
    ) -> StoreResult<Vec<String>> {
        let rows = sqlx::query(
            "SELECT g.id FROM games g JOIN game_players p ON p.game_id = g.id WHERE p.user_id = ? AND g.status <> 'finished' ORDER BY g.updated_ms DESC LIMIT ?",
        )
        .bind(user_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| r.try_get("id").map_err(Into::into))
            .collect()
    }

    pub(crate) async fn save_challenge_sql(&self, game_id: &str, user_id: i64) -> StoreResult<()> {
        sqlx::query("INSERT OR REPLACE INTO challenges (game_id, user_id, at_ms) VALUES (?, ?, ?)")
            .bind(game_id)
            .bind(user_id)
            .bind(crate::clock::wall_ms())
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    pub(crate) async fn challenge_of_sql(
        &self,
        game_id: &str,
    ) -> StoreResult<Option<(i64, String)>> {
        let row = sqlx::query(
            "SELECT c.user_id, u.username FROM challenges c JOIN users u ON u.id = c.user_id WHERE c.game_id = ?",
        )
        .bind(game_id)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| Ok((r.try_get("user_id")?, r.try_get("username")?)))
            .transpose()
    }

    pub(crate) async fn challenges_for_sql(
        &self,
        user_id: i64,
        limit: i64,
    ) -> StoreResult<Vec<String>> {
        let rows = sqlx::query(
            "SELECT c.game_id FROM challenges c JOIN games g ON g.id = c.game_id WHERE c.user_id = ? AND g.status = 'waiting' ORDER BY c.at_ms DESC LIMIT ?",
        )
        .bind(user_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| r.try_get("game_id").map_err(Into::into))
            .collect()
    }

    pub(crate) async fn add_chat_report_sql(&self, r: &ChatReport) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO chat_reports (game_id, reporter_id, author_id, text, sent_ms, at_ms) VALUES (?, ?, ?, ?, ?, ?)",
        )
        .bind(&r.game_id)
        .bind(r.reporter_id)
        .bind(r.author_id)
        .bind(&r.text)
        .bind(r.sent_ms)
        .bind(crate::clock::wall_ms())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub(crate) async fn chat_reports_sql(&self, game_id: &str) -> StoreResult<Vec<ChatReport>> {
        let rows = sqlx::query(
            "SELECT game_id, reporter_id, author_id, text, sent_ms FROM chat_reports WHERE game_id = ? ORDER BY id",
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
}
