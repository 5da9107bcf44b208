//! Studies, the opening explorer's index of finished games and the named
//! openings games reached (issue 39): the records, their trait, and its
//! bodies written once for both SQL backends ([`sql_study!`], expanded in
//! each backend's module as [`super::shared`] is).

use async_trait::async_trait;
use serde::Serialize;

use super::{GameRow, StoreResult};

/// A saved study: an analysis board's tree, owned by one user.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Study {
    /// Short random id (the share link).
    pub id: String,
    /// The owner's user id.
    pub user_id: i64,
    /// The owner's name.
    pub owner: String,
    /// The owner's name for it.
    pub name: String,
    /// The variant it studies.
    pub variant: String,
    /// The page's tree as JSON text; `None` in lists.
    pub tree: Option<String>,
    /// When it was saved first, ms since the epoch.
    pub created_ms: i64,
    /// When it last changed.
    pub updated_ms: i64,
}

/// One move of a finished game, for the explorer.
#[derive(Clone, Debug, PartialEq)]
pub struct ExplorerRow {
    /// The position before the move (the spectator's view, no counters).
    pub position: String,
    /// The move.
    pub mv: String,
    /// The mover's result: 2 won, 1 drawn, 0 lost.
    pub score: i64,
    /// The mover's rating, if rated.
    pub rating: Option<f64>,
}

/// A move played from a position, summed over the indexed games.
#[derive(Clone, Debug, PartialEq)]
pub struct ExplorerMove {
    /// The move.
    pub mv: String,
    /// How many games played it.
    pub games: i64,
    /// Games the mover won, drew and lost.
    pub wins: i64,
    /// Drawn.
    pub draws: i64,
    /// Lost.
    pub losses: i64,
    /// The movers' average rating.
    pub rating: Option<f64>,
}

/// A named opening as stored: code, name, English name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredOpening {
    /// The code of the kind's classification.
    pub code: String,
    /// The name players of the game use.
    pub name: String,
    /// A short English name.
    pub name_en: String,
}

/// Studies, the explorer's index and games' openings.
#[async_trait]
pub trait StudyStore: Send + Sync {
    /// Saves a new study (its `tree` must be set).
    async fn insert_study(&self, study: &Study) -> StoreResult<()>;
    /// How many studies a user keeps.
    async fn study_count(&self, user_id: i64) -> StoreResult<i64>;
    /// A user's studies without their trees, latest change first.
    async fn studies_of(&self, user_id: i64, limit: i64) -> StoreResult<Vec<Study>>;
    /// One study with its tree.
    async fn study(&self, id: &str) -> StoreResult<Option<Study>>;
    /// Renames and/or rewrites a study of `user_id`; false if they have none by this id.
    async fn update_study(
        &self,
        id: &str,
        user_id: i64,
        name: Option<&str>,
        tree: Option<&str>,
    ) -> StoreResult<bool>;
    /// Deletes a study of `user_id`; false if they have none by this id.
    async fn delete_study(&self, id: &str, user_id: i64) -> StoreResult<bool>;
    /// Stores what a finished game adds to the explorer (its moves, for
    /// `variant`) and its named opening, in one transaction, once per game:
    /// false (and nothing written) if the game was read before.
    async fn index_game(
        &self,
        game_id: &str,
        variant: &str,
        moves: &[ExplorerRow],
        opening: Option<&StoredOpening>,
    ) -> StoreResult<bool>;
    /// The moves played from `position` in `variant`, most played first.
    async fn explorer_moves(
        &self,
        variant: &str,
        position: &str,
        limit: i64,
    ) -> StoreResult<Vec<ExplorerMove>>;
    /// Finished games not read for the explorer yet, latest first.
    async fn unindexed_games(&self, limit: i64) -> StoreResult<Vec<String>>;
    /// A user's latest finished games that reached a named opening.
    async fn openings_of(
        &self,
        user_id: i64,
        limit: i64,
    ) -> StoreResult<Vec<(GameRow, StoredOpening)>>;
}

/// Implements [`StudyStore`] for `$store`.
macro_rules! sql_study {
    ($store:ident) => {
        mod shared_study {
            use async_trait::async_trait;

            use super::$store;
            use crate::store::rows::{self, Cols as _};
            use crate::store::sql;
            use crate::store::study::{
                ExplorerMove, ExplorerRow, StoredOpening, Study, StudyStore,
            };
            use crate::store::{GameRow, StoreResult};

            fn now_ms() -> i64 {
                crate::clock::wall_ms()
            }

            fn study_row(r: &impl crate::store::rows::Cols, tree: bool) -> StoreResult<Study> {
                Ok(Study {
                    id: r.text("id")?,
                    user_id: r.int("user_id")?,
                    owner: r.text("username")?,
                    name: r.text("name")?,
                    variant: r.text("variant")?,
                    tree: if tree { Some(r.text("tree")?) } else { None },
                    created_ms: r.int("created_ms")?,
                    updated_ms: r.int("updated_ms")?,
                })
            }

            #[async_trait]
            impl StudyStore for $store {
                async fn insert_study(&self, s: &Study) -> StoreResult<()> {
                    sqlx::query(&Self::DIALECT.sql(sql::STUDY_INSERT))
                        .bind(&s.id)
                        .bind(s.user_id)
                        .bind(&s.name)
                        .bind(&s.variant)
                        .bind(s.tree.as_deref().unwrap_or("{}"))
                        .bind(now_ms())
                        .execute(&self.pool)
                        .await?;
                    Ok(())
                }

                async fn study_count(&self, user_id: i64) -> StoreResult<i64> {
                    let row = sqlx::query(&Self::DIALECT.sql(sql::STUDY_COUNT))
                        .bind(user_id)
                        .fetch_one(&self.pool)
                        .await?;
                    row.int("n")
                }

                async fn studies_of(&self, user_id: i64, limit: i64) -> StoreResult<Vec<Study>> {
                    let rows = sqlx::query(&Self::DIALECT.sql(sql::STUDIES_OF))
                        .bind(user_id)
                        .bind(limit)
                        .fetch_all(&self.pool)
                        .await?;
                    rows.iter().map(|r| study_row(r, false)).collect()
                }

                async fn study(&self, id: &str) -> StoreResult<Option<Study>> {
                    let row = sqlx::query(&Self::DIALECT.sql(sql::STUDY_BY_ID))
                        .bind(id)
                        .fetch_optional(&self.pool)
                        .await?;
                    row.as_ref().map(|r| study_row(r, true)).transpose()
                }

                async fn update_study(
                    &self,
                    id: &str,
                    user_id: i64,
                    name: Option<&str>,
                    tree: Option<&str>,
                ) -> StoreResult<bool> {
                    let done = sqlx::query(&Self::DIALECT.sql(sql::STUDY_UPDATE))
                        .bind(id)
                        .bind(user_id)
                        .bind(name)
                        .bind(tree)
                        .bind(now_ms())
                        .execute(&self.pool)
                        .await?;
                    Ok(done.rows_affected() > 0)
                }

                async fn delete_study(&self, id: &str, user_id: i64) -> StoreResult<bool> {
                    let done = sqlx::query(&Self::DIALECT.sql(sql::STUDY_DELETE))
                        .bind(id)
                        .bind(user_id)
                        .execute(&self.pool)
                        .await?;
                    Ok(done.rows_affected() > 0)
                }

                async fn index_game(
                    &self,
                    game_id: &str,
                    variant: &str,
                    moves: &[ExplorerRow],
                    opening: Option<&StoredOpening>,
                ) -> StoreResult<bool> {
                    let mut tx = self.pool.begin().await?;
                    let fresh = sqlx::query(&Self::DIALECT.sql(sql::GAME_INDEXED))
                        .bind(game_id)
                        .execute(&mut *tx)
                        .await?
                        .rows_affected()
                        > 0;
                    if !fresh {
                        return Ok(false);
                    }
                    for m in moves {
                        sqlx::query(&Self::DIALECT.sql(sql::EXPLORER_INSERT))
                            .bind(variant)
                            .bind(&m.position)
                            .bind(&m.mv)
                            .bind(game_id)
                            .bind(m.score)
                            .bind(m.rating)
                            .execute(&mut *tx)
                            .await?;
                    }
                    if let Some(o) = opening {
                        sqlx::query(&Self::DIALECT.sql(sql::OPENING_INSERT))
                            .bind(game_id)
                            .bind(&o.code)
                            .bind(&o.name)
                            .bind(&o.name_en)
                            .execute(&mut *tx)
                            .await?;
                    }
                    tx.commit().await?;
                    Ok(true)
                }

                async fn explorer_moves(
                    &self,
                    variant: &str,
                    position: &str,
                    limit: i64,
                ) -> StoreResult<Vec<ExplorerMove>> {
                    let rows = sqlx::query(&Self::DIALECT.sql(sql::EXPLORER_MOVES))
                        .bind(variant)
                        .bind(position)
                        .bind(limit)
                        .fetch_all(&self.pool)
                        .await?;
                    rows.iter()
                        .map(|r| {
                            Ok(ExplorerMove {
                                mv: r.text("mv")?,
                                games: r.int("games")?,
                                wins: r.int("wins")?,
                                draws: r.int("draws")?,
                                losses: r.int("losses")?,
                                rating: r.opt_real("rating")?,
                            })
                        })
                        .collect()
                }

                async fn unindexed_games(&self, limit: i64) -> StoreResult<Vec<String>> {
                    let rows = sqlx::query(&Self::DIALECT.sql(sql::GAMES_UNINDEXED))
                        .bind(limit)
                        .fetch_all(&self.pool)
                        .await?;
                    rows.iter().map(|r| r.text("id")).collect()
                }

                async fn openings_of(
                    &self,
                    user_id: i64,
                    limit: i64,
                ) -> StoreResult<Vec<(GameRow, StoredOpening)>> {
                    let rows = sqlx::query(&Self::DIALECT.sql(sql::OPENINGS_OF_USER))
                        .bind(user_id)
                        .bind(limit)
                        .fetch_all(&self.pool)
                        .await?;
                    rows.iter()
                        .map(|r| {
                            Ok((
                                rows::game(r)?,
                                StoredOpening {
                                    code: r.text("opening_code")?,
                                    name: r.text("opening_name")?,
                                    name_en: r.text("opening_name_en")?,
                                },
                            ))
                        })
                        .collect()
                }
            }
        }
    };
}

pub(crate) use sql_study;
