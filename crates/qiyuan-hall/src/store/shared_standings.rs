//! The rest of the storage traits, implemented once for every SQL backend
//! as [`super::shared`] does: ratings, points ledgers, events and conduct
//! (fouls, chat reports).

/// Implements [`super::RatingStore`], [`super::PointsStore`],
/// [`super::EventStore`] and [`super::ConductStore`] for `$store`.
macro_rules! sql_standings {
    ($store:ident) => {
        mod shared_standings {
            use async_trait::async_trait;
            use qiyuan_events::Rating;

            use super::$store;
            use crate::store::rows::{self, Cols as _};
            use crate::store::sql;
            use crate::store::{
                ChatReport, ConductStore, EventStore, PointsStore, RatingChange, RatingPoint,
                RatingStore, RatingUpdate, StoreResult,
            };

            fn now_ms() -> i64 {
                crate::clock::wall_ms()
            }

            #[async_trait]
            impl RatingStore for $store {
                async fn rating(&self, user_id: i64, family: &str) -> StoreResult<Option<Rating>> {
                    let row = sqlx::query(&Self::DIALECT.sql(sql::RATING))
                        .bind(user_id)
                        .bind(family)
                        .fetch_optional(&self.pool)
                        .await?;
                    row.as_ref().map(rows::rating).transpose()
                }

                async fn multi_rating(
                    &self,
                    user_id: i64,
                    family: &str,
                ) -> StoreResult<Option<qiyuan_events::multi::MultiRating>> {
                    let row = sqlx::query(&Self::DIALECT.sql(sql::MULTI_RATING))
                        .bind(user_id)
                        .bind(family)
                        .fetch_optional(&self.pool)
                        .await?;
                    row.as_ref().map(rows::multi_rating).transpose()
                }

                async fn ratings_of(&self, user_id: i64) -> StoreResult<Vec<(String, Rating)>> {
                    let rows = sqlx::query(&Self::DIALECT.sql(sql::RATINGS_OF))
                        .bind(user_id)
                        .fetch_all(&self.pool)
                        .await?;
                    rows.iter()
                        .map(|r| Ok((r.text("family")?, rows::rating(r)?)))
                        .collect()
                }

                async fn apply_ratings(
                    &self,
                    game_id: &str,
                    family: &str,
                    updates: &[RatingUpdate],
                ) -> StoreResult<bool> {
                    let mut tx = self.pool.begin().await?;
                    let done: i64 = sqlx::query_scalar(&Self::DIALECT.sql(sql::RATED_BEFORE))
                        .bind(game_id)
                        .fetch_one(&mut *tx)
                        .await?;
                    if done > 0 {
                        return Ok(false);
                    }
                    let now = now_ms();
                    for u in updates {
                        sqlx::query(&Self::DIALECT.sql(sql::RATING_SAVE))
                            .bind(u.user_id)
                            .bind(family)
                            .bind(u.after.value)
                            .bind(i64::from(u.after.rated_games))
                            .bind(i64::from(u.after.reached_top))
                            .bind(now)
                            .bind(u.deviation)
                            .execute(&mut *tx)
                            .await?;
                        sqlx::query(&Self::DIALECT.sql(sql::RATING_HISTORY_INSERT))
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

                async fn leaderboard(
                    &self,
                    family: &str,
                    limit: i64,
                ) -> StoreResult<Vec<(String, Rating)>> {
                    let rows = sqlx::query(&Self::DIALECT.sql(sql::LEADERBOARD))
                        .bind(family)
                        .bind(limit)
                        .fetch_all(&self.pool)
                        .await?;
                    rows.iter()
                        .map(|r| Ok((r.text("username")?, rows::rating(r)?)))
                        .collect()
                }

                async fn rating_history(&self, user_id: i64) -> StoreResult<Vec<RatingPoint>> {
                    let rows = sqlx::query(&Self::DIALECT.sql(sql::RATING_HISTORY))
                        .bind(user_id)
                        .fetch_all(&self.pool)
                        .await?;
                    rows.iter().map(rows::rating_point).collect()
                }

                async fn game_rating_changes(
                    &self,
                    game_id: &str,
                ) -> StoreResult<Vec<RatingChange>> {
                    let rows = sqlx::query(&Self::DIALECT.sql(sql::GAME_RATING_CHANGES))
                        .bind(game_id)
                        .fetch_all(&self.pool)
                        .await?;
                    rows.iter().map(rows::rating_change).collect()
                }
            }

            #[async_trait]
            impl PointsStore for $store {
                async fn settle_points(
                    &self,
                    game_id: &str,
                    family: &str,
                    deltas: &[(i64, i64)],
                ) -> StoreResult<bool> {
                    let mut tx = self.pool.begin().await?;
                    let done: i64 = sqlx::query_scalar(&Self::DIALECT.sql(sql::POINTS_SETTLED))
                        .bind(game_id)
                        .fetch_one(&mut *tx)
                        .await?;
                    if done > 0 {
                        return Ok(false);
                    }
                    let at = now_ms();
                    for (user, delta) in deltas {
                        sqlx::query(&Self::DIALECT.sql(sql::POINTS_INSERT))
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
                    let sum: Option<i64> =
                        sqlx::query_scalar(&Self::DIALECT.sql(sql::POINTS_BALANCE))
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
                    let rows = sqlx::query(&Self::DIALECT.sql(sql::POINTS_LEADERBOARD))
                        .bind(family)
                        .bind(limit)
                        .fetch_all(&self.pool)
                        .await?;
                    rows.iter()
                        .map(|r| Ok((r.text("username")?, r.int("points")?)))
                        .collect()
                }
            }

            #[async_trait]
            impl EventStore for $store {
                async fn save_event(&self, id: &str, status: &str, data: &str) -> StoreResult<()> {
                    sqlx::query(&Self::DIALECT.sql(sql::EVENT_SAVE))
                        .bind(id)
                        .bind(status)
                        .bind(data)
                        .bind(now_ms())
                        .execute(&self.pool)
                        .await?;
                    Ok(())
                }

                async fn load_events(&self) -> StoreResult<Vec<(String, String)>> {
                    let rows = sqlx::query(&Self::DIALECT.sql(sql::EVENTS))
                        .fetch_all(&self.pool)
                        .await?;
                    rows.iter()
                        .map(|r| Ok((r.text("id")?, r.text("data")?)))
                        .collect()
                }
            }

            #[async_trait]
            impl ConductStore for $store {
                async fn add_foul(&self, game_id: &str, seat: usize) -> StoreResult<()> {
                    sqlx::query(&Self::DIALECT.sql(sql::FOUL_ADD))
                        .bind(game_id)
                        .bind(i64::try_from(seat).unwrap_or(i64::MAX))
                        .execute(&self.pool)
                        .await?;
                    Ok(())
                }

                async fn game_fouls(&self, game_id: &str) -> StoreResult<Vec<(usize, u32)>> {
                    let rows = sqlx::query(&Self::DIALECT.sql(sql::FOULS_OF))
                        .bind(game_id)
                        .fetch_all(&self.pool)
                        .await?;
                    rows.iter().map(rows::fouls).collect()
                }

                async fn add_chat_report(&self, r: &ChatReport) -> StoreResult<()> {
                    sqlx::query(&Self::DIALECT.sql(sql::CHAT_REPORT_INSERT))
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

                async fn chat_reports(&self, game_id: &str) -> StoreResult<Vec<ChatReport>> {
                    let rows = sqlx::query(&Self::DIALECT.sql(sql::CHAT_REPORTS_OF))
                        .bind(game_id)
                        .fetch_all(&self.pool)
                        .await?;
                    rows.iter().map(rows::chat_report).collect()
                }
            }
        }
    };
}

pub(crate) use sql_standings;
