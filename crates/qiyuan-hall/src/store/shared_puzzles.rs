//! [`super::PuzzleStore`] implemented once for every SQL backend, as
//! [`super::shared`] does for the other traits.

/// Implements [`super::PuzzleStore`] for `$store`.
macro_rules! sql_puzzles {
    ($store:ident) => {
        mod shared_puzzles {
            use async_trait::async_trait;

            use super::$store;
            use crate::store::rows;
            use crate::store::sql;
            use crate::store::{
                PUZZLE_HISTORY_MAX, PuzzleAttempt, PuzzleRating, PuzzleResult, PuzzleRow,
                PuzzleStore, StoreResult,
            };

            /// A theme as a LIKE pattern over the stored ` a b c ` text;
            /// `%` matches every puzzle. Themes are checked words (letters,
            /// digits, `-`), so no LIKE wildcard gets in.
            fn theme_pattern(theme: Option<&&str>) -> String {
                match theme {
                    Some(t) => format!("% {t} %"),
                    None => "%".to_string(),
                }
            }

            #[async_trait]
            impl PuzzleStore for $store {
                async fn upsert_puzzles(&self, puzzles: &[PuzzleRow]) -> StoreResult<()> {
                    let mut tx = self.pool.begin().await?;
                    for p in puzzles {
                        sqlx::query(&Self::DIALECT.sql(sql::PUZZLE_UPSERT))
                            .bind(&p.id)
                            .bind(&p.variant)
                            .bind(&p.fen)
                            .bind(p.moves.join(" "))
                            .bind(format!(" {} ", p.themes.join(" ")))
                            .bind(p.rating.rating)
                            .bind(p.rating.deviation)
                            .bind(p.rating.volatility)
                            .execute(&mut *tx)
                            .await?;
                    }
                    tx.commit().await?;
                    Ok(())
                }

                async fn puzzle(&self, id: &str) -> StoreResult<Option<PuzzleRow>> {
                    let row = sqlx::query(&Self::DIALECT.sql(sql::PUZZLE_BY_ID))
                        .bind(id)
                        .fetch_optional(&self.pool)
                        .await?;
                    row.as_ref().map(rows::puzzle).transpose()
                }

                async fn puzzles_near(
                    &self,
                    variant: &str,
                    rating: f64,
                    themes: &[&str],
                    user_id: Option<i64>,
                    limit: i64,
                ) -> StoreResult<Vec<PuzzleRow>> {
                    let rows = sqlx::query(&Self::DIALECT.sql(sql::PUZZLES_NEAR))
                        .bind(variant)
                        .bind(rating)
                        // No user has id 0: nothing is left out.
                        .bind(user_id.unwrap_or(0))
                        .bind(theme_pattern(themes.first()))
                        .bind(theme_pattern(themes.get(1)))
                        .bind(theme_pattern(themes.get(2)))
                        .bind(limit.clamp(1, 500))
                        .fetch_all(&self.pool)
                        .await?;
                    rows.iter().map(rows::puzzle).collect()
                }

                async fn puzzle_count(&self, variant: &str) -> StoreResult<i64> {
                    Ok(sqlx::query_scalar(&Self::DIALECT.sql(sql::PUZZLE_COUNT))
                        .bind(variant)
                        .fetch_one(&self.pool)
                        .await?)
                }

                async fn puzzle_at(
                    &self,
                    variant: &str,
                    index: i64,
                ) -> StoreResult<Option<PuzzleRow>> {
                    let row = sqlx::query(&Self::DIALECT.sql(sql::PUZZLE_AT))
                        .bind(variant)
                        .bind(index.max(0))
                        .fetch_optional(&self.pool)
                        .await?;
                    row.as_ref().map(rows::puzzle).transpose()
                }

                async fn puzzle_rating(
                    &self,
                    user_id: i64,
                    variant: &str,
                ) -> StoreResult<Option<PuzzleRating>> {
                    let row = sqlx::query(&Self::DIALECT.sql(sql::PUZZLE_RATING))
                        .bind(user_id)
                        .bind(variant)
                        .fetch_optional(&self.pool)
                        .await?;
                    row.as_ref().map(rows::puzzle_rating).transpose()
                }

                async fn puzzle_attempted(
                    &self,
                    user_id: i64,
                    puzzle_id: &str,
                ) -> StoreResult<bool> {
                    let n: i64 = sqlx::query_scalar(&Self::DIALECT.sql(sql::PUZZLE_ATTEMPTED))
                        .bind(user_id)
                        .bind(puzzle_id)
                        .fetch_one(&self.pool)
                        .await?;
                    Ok(n > 0)
                }

                async fn record_puzzle_result(&self, r: &PuzzleResult) -> StoreResult<bool> {
                    let now = crate::clock::wall_ms();
                    let mut tx = self.pool.begin().await?;
                    // The attempt goes in first and only once (a unique
                    // index): a second attempt, even a concurrent one,
                    // inserts nothing and changes no rating.
                    let done = sqlx::query(&Self::DIALECT.sql(sql::PUZZLE_ATTEMPT_INSERT))
                        .bind(r.user_id)
                        .bind(&r.puzzle_id)
                        .bind(&r.variant)
                        .bind(i64::from(r.win))
                        .bind(r.player.rating.rating)
                        .bind(now)
                        .execute(&mut *tx)
                        .await?;
                    if done.rows_affected() == 0 {
                        return Ok(false);
                    }
                    sqlx::query(&Self::DIALECT.sql(sql::PUZZLE_RATING_SAVE))
                        .bind(r.user_id)
                        .bind(&r.variant)
                        .bind(r.player.rating.rating)
                        .bind(r.player.rating.deviation)
                        .bind(r.player.rating.volatility)
                        .bind(r.player.plays)
                        .bind(now)
                        .execute(&mut *tx)
                        .await?;
                    sqlx::query(&Self::DIALECT.sql(sql::PUZZLE_RATE))
                        .bind(&r.puzzle_id)
                        .bind(r.puzzle.rating)
                        .bind(r.puzzle.deviation)
                        .bind(r.puzzle.volatility)
                        .execute(&mut *tx)
                        .await?;
                    tx.commit().await?;
                    Ok(true)
                }

                async fn puzzle_history(
                    &self,
                    user_id: i64,
                    variant: Option<&str>,
                    limit: i64,
                ) -> StoreResult<Vec<PuzzleAttempt>> {
                    let rows = sqlx::query(&Self::DIALECT.sql(sql::PUZZLE_HISTORY))
                        .bind(user_id)
                        .bind(variant.unwrap_or(""))
                        .bind(limit.clamp(0, PUZZLE_HISTORY_MAX))
                        .fetch_all(&self.pool)
                        .await?;
                    rows.iter().map(rows::puzzle_attempt).collect()
                }
            }
        }
    };
}

pub(crate) use sql_puzzles;
