//! The storage traits implemented once for every SQL backend: accounts,
//! presets, games and moves, rooms, and the cluster's leases (ratings,
//! points, events and conduct are in [`super::shared_standings`]).
//! [`sql_store!`] is expanded in each backend's module for its store type
//! and connection type; the store provides `pool`, `moves` (its group
//! commit) and `DIALECT`, and the statements come from [`super::sql`] in
//! the dialect's spelling. Only the types differ between the expansions,
//! so the bodies are written here once, not once per database.

/// Implements [`super::AccountStore`], [`super::PresetStore`],
/// [`super::GameStore`], [`super::RoomStore`] and [`super::ClusterStore`]
/// for `$store`, whose transactions deref to `$conn`.
macro_rules! sql_store {
    ($store:ident, $conn:ty) => {
        mod shared_core {
            use async_trait::async_trait;

            use super::$store;
            use crate::store::rows::{self, Cols as _};
            use crate::store::sql;
            use crate::store::{
                AccountStore, ClusterStore, Fence, GameRow, GameStore, MoveRow, NewSession, Nodes,
                Preset, PresetStore, RoomStore, SeatRow, SessionRow, StoreError, StoreResult,
                User,
            };

            fn now_ms() -> i64 {
                crate::clock::wall_ms()
            }

            impl $store {
                /// Fails with [`StoreError::StaleLease`] unless `fence` (if
                /// any) still holds on `game_id`, inside the caller's
                /// transaction; the lease row stays locked until it commits,
                /// so no takeover slips in between.
                pub(crate) async fn check_fence(
                    conn: &mut $conn,
                    game_id: &str,
                    fence: Option<&Fence>,
                ) -> StoreResult<()> {
                    let Some(f) = fence else { return Ok(()) };
                    let held = sqlx::query(&Self::DIALECT.locked(sql::LEASE_HELD))
                        .bind(game_id)
                        .bind(&f.owner)
                        .bind(f.token)
                        .fetch_optional(&mut *conn)
                        .await?;
                    match held {
                        Some(_) => Ok(()),
                        None => Err(StoreError::StaleLease(game_id.to_string())),
                    }
                }

                /// Writes a game's row (inserted, or rewritten) and who plays it.
                pub(crate) async fn write_game(
                    conn: &mut $conn,
                    g: &GameRow,
                    insert: bool,
                ) -> StoreResult<()> {
                    let sql = if insert { sql::GAME_INSERT } else { sql::GAME_UPDATE };
                    sqlx::query(&Self::DIALECT.sql(sql))
                        .bind(&g.id)
                        .bind(&g.rules)
                        .bind(serde_json::to_string(&g.options)?)
                        .bind(&g.start_fen)
                        .bind(g.initial_ms)
                        .bind(g.increment_ms)
                        .bind(i64::from(g.rated))
                        .bind(serde_json::to_string(&g.seats)?)
                        .bind(&g.status)
                        .bind(&g.result)
                        .bind(&g.reason)
                        .bind(&g.explanation)
                        .bind(serde_json::to_string(&g.clocks)?)
                        .bind(g.created_ms)
                        .bind(g.updated_ms)
                        .bind(&g.rematch_of)
                        .bind(g.placings.as_ref().map(serde_json::to_string).transpose()?)
                        .execute(&mut *conn)
                        .await?;
                    // Who played which game, for profiles.
                    for s in &g.seats {
                        if let SeatRow::User { id, .. } = s {
                            sqlx::query(&Self::DIALECT.sql(sql::GAME_PLAYER))
                                .bind(&g.id)
                                .bind(id)
                                .execute(&mut *conn)
                                .await?;
                        }
                    }
                    Ok(())
                }

                async fn moves_of(&self, id: &str) -> StoreResult<Vec<MoveRow>> {
                    let rows = sqlx::query(&Self::DIALECT.sql(sql::MOVES_OF))
                        .bind(id)
                        .fetch_all(&self.pool)
                        .await?;
                    rows.iter().map(rows::move_row).collect()
                }

                async fn execute(&self, sql: &'static str, id: &str) -> StoreResult<u64> {
                    Ok(sqlx::query(&Self::DIALECT.sql(sql))
                        .bind(id)
                        .execute(&self.pool)
                        .await?
                        .rows_affected())
                }
            }

            #[async_trait]
            impl AccountStore for $store {
                async fn create_user(
                    &self,
                    username: &str,
                    password_hash: Option<&str>,
                    guest: bool,
                ) -> StoreResult<Option<User>> {
                    let id: Option<i64> = sqlx::query_scalar(&Self::DIALECT.sql(sql::USER_INSERT))
                        .bind(username)
                        .bind(crate::store::name_key(username))
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
                        bot: false,
                    }))
                }

                async fn make_bot(&self, user_id: i64) -> StoreResult<bool> {
                    let done = sqlx::query(&Self::DIALECT.sql(sql::USER_MAKE_BOT))
                        .bind(user_id)
                        .execute(&self.pool)
                        .await?;
                    Ok(done.rows_affected() == 1)
                }

                async fn user_by_name(&self, username: &str) -> StoreResult<Option<User>> {
                    let row = sqlx::query(&Self::DIALECT.sql(sql::USER_BY_NAME))
                        .bind(crate::store::name_key(username))
                        .bind(username)
                        .fetch_optional(&self.pool)
                        .await?;
                    row.as_ref().map(rows::user).transpose()
                }

                async fn users_with_prefix(
                    &self,
                    prefix: &str,
                    limit: i64,
                ) -> StoreResult<Vec<String>> {
                    // The prefix is matched literally: LIKE's wildcards and
                    // its escape character are escaped.
                    let mut pattern = String::with_capacity(prefix.len() + 1);
                    for c in prefix.to_lowercase().chars() {
                        if matches!(c, '%' | '_' | '\\') {
                            pattern.push('\\');
                        }
                        pattern.push(c);
                    }
                    pattern.push('%');
                    let rows = sqlx::query(&Self::DIALECT.sql(sql::USERS_BY_PREFIX))
                        .bind(pattern)
                        .bind(limit)
                        .fetch_all(&self.pool)
                        .await?;
                    rows.iter().map(|r| r.text("username")).collect()
                }

                async fn create_session(
                    &self,
                    token: &str,
                    user_id: i64,
                    s: &NewSession,
                ) -> StoreResult<()> {
                    let now = now_ms();
                    let mut tx = self.pool.begin().await?;
                    sqlx::query(&Self::DIALECT.sql(sql::SESSION_INSERT))
                        .bind(token)
                        .bind(user_id)
                        .bind(now)
                        .bind(format!("{:016x}", rand::random::<u64>()))
                        .bind(now.saturating_add(s.ttl_ms))
                        .bind(&s.agent)
                        .execute(&mut *tx)
                        .await?;
                    // Keep the newest few: old sessions of a user go first.
                    sqlx::query(&Self::DIALECT.sql(sql::SESSIONS_TRIM))
                        .bind(user_id)
                        .bind(i64::try_from(s.keep).unwrap_or(i64::MAX))
                        .execute(&mut *tx)
                        .await?;
                    tx.commit().await?;
                    Ok(())
                }

                async fn session_user(&self, token: &str, ttl_ms: i64) -> StoreResult<Option<User>> {
                    let now = now_ms();
                    let row = sqlx::query(&Self::DIALECT.sql(sql::SESSION_USER))
                        .bind(token)
                        .bind(now)
                        .fetch_optional(&self.pool)
                        .await?;
                    let Some(row) = row else { return Ok(None) };
                    // Sliding renewal, written at most once per step (not every request).
                    let expires = row.int("expires_ms")?;
                    let step = (ttl_ms / 8).min(3_600_000);
                    if expires - now < ttl_ms - step {
                        sqlx::query(&Self::DIALECT.sql(sql::SESSION_RENEW))
                            .bind(now.saturating_add(ttl_ms))
                            .bind(now)
                            .bind(token)
                            .execute(&self.pool)
                            .await?;
                    }
                    rows::user(&row).map(Some)
                }

                async fn delete_session(&self, token: &str) -> StoreResult<()> {
                    self.execute(sql::SESSION_DELETE, token).await?;
                    Ok(())
                }

                async fn list_sessions(
                    &self,
                    user_id: i64,
                    current: &str,
                ) -> StoreResult<Vec<SessionRow>> {
                    let rows = sqlx::query(&Self::DIALECT.sql(sql::SESSIONS_OF))
                        .bind(current)
                        .bind(user_id)
                        .bind(now_ms())
                        .fetch_all(&self.pool)
                        .await?;
                    rows.iter().map(rows::session).collect()
                }

                async fn revoke_session(&self, user_id: i64, id: &str) -> StoreResult<bool> {
                    let res = sqlx::query(&Self::DIALECT.sql(sql::SESSION_REVOKE))
                        .bind(user_id)
                        .bind(id)
                        .execute(&self.pool)
                        .await?;
                    Ok(res.rows_affected() > 0)
                }

                async fn revoke_other_sessions(
                    &self,
                    user_id: i64,
                    current: &str,
                ) -> StoreResult<u64> {
                    let res = sqlx::query(&Self::DIALECT.sql(sql::SESSIONS_REVOKE_OTHERS))
                        .bind(user_id)
                        .bind(current)
                        .execute(&self.pool)
                        .await?;
                    Ok(res.rows_affected())
                }

                async fn purge_expired_sessions(&self) -> StoreResult<u64> {
                    let res = sqlx::query(&Self::DIALECT.sql(sql::SESSIONS_EXPIRED))
                        .bind(now_ms())
                        .execute(&self.pool)
                        .await?;
                    Ok(res.rows_affected())
                }

                async fn purge_idle_guests(&self, cutoff_ms: i64) -> StoreResult<u64> {
                    let mut tx = self.pool.begin().await?;
                    sqlx::query(&Self::DIALECT.sql(sql::IDLE_GUEST_SESSIONS))
                        .bind(cutoff_ms)
                        .execute(&mut *tx)
                        .await?;
                    let gone = sqlx::query(&Self::DIALECT.sql(sql::IDLE_GUEST_USERS))
                        .bind(cutoff_ms)
                        .execute(&mut *tx)
                        .await?
                        .rows_affected();
                    tx.commit().await?;
                    Ok(gone)
                }
            }

            #[async_trait]
            impl PresetStore for $store {
                async fn list_presets(&self, user_id: i64) -> StoreResult<Vec<Preset>> {
                    let rows = sqlx::query(&Self::DIALECT.sql(sql::PRESETS_OF))
                        .bind(user_id)
                        .fetch_all(&self.pool)
                        .await?;
                    rows.iter().map(rows::preset).collect()
                }

                async fn save_preset(&self, user_id: i64, p: &Preset) -> StoreResult<()> {
                    let mut tx = self.pool.begin().await?;
                    if p.on_timeout {
                        sqlx::query(&Self::DIALECT.sql(sql::PRESETS_UNMARK))
                            .bind(user_id)
                            .bind(&p.kind)
                            .execute(&mut *tx)
                            .await?;
                    }
                    sqlx::query(&Self::DIALECT.sql(sql::PRESET_SAVE))
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

                async fn delete_preset(&self, user_id: i64, kind: &str, name: &str) -> StoreResult<bool> {
                    let r = sqlx::query(&Self::DIALECT.sql(sql::PRESET_DELETE))
                        .bind(user_id)
                        .bind(kind)
                        .bind(name)
                        .execute(&self.pool)
                        .await?;
                    Ok(r.rows_affected() > 0)
                }

                async fn timeout_preset(&self, user_id: i64, kind: &str) -> StoreResult<Option<String>> {
                    Ok(sqlx::query_scalar(&Self::DIALECT.sql(sql::PRESET_ON_TIMEOUT))
                        .bind(user_id)
                        .bind(kind)
                        .fetch_optional(&self.pool)
                        .await?)
                }
            }

            #[async_trait]
            impl GameStore for $store {
                async fn insert_game(&self, game: &GameRow) -> StoreResult<()> {
                    let mut tx = self.pool.begin().await?;
                    Self::write_game(&mut tx, game, true).await?;
                    tx.commit().await?;
                    Ok(())
                }

                async fn update_game(&self, game: &GameRow, fence: Option<&Fence>) -> StoreResult<()> {
                    let mut tx = self.pool.begin().await?;
                    Self::check_fence(&mut tx, &game.id, fence).await?;
                    Self::write_game(&mut tx, game, false).await?;
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

                async fn take_back(
                    &self,
                    game: &GameRow,
                    from_ply: i64,
                    by_seat: usize,
                    fence: Option<&Fence>,
                ) -> StoreResult<()> {
                    let mut tx = self.pool.begin().await?;
                    Self::check_fence(&mut tx, &game.id, fence).await?;
                    let rows = sqlx::query(&Self::DIALECT.sql(sql::MOVES_TAKEN))
                        .bind(&game.id)
                        .bind(from_ply)
                        .fetch_all(&mut *tx)
                        .await?;
                    let mut taken = Vec::with_capacity(rows.len());
                    for r in &rows {
                        let (ply, seat, mv) = (r.int("ply")?, r.int("seat")?, r.text("mv")?);
                        taken.push(serde_json::json!({"ply": ply, "seat": seat, "mv": mv}));
                    }
                    sqlx::query(&Self::DIALECT.sql(sql::TAKEBACK_INSERT))
                        .bind(&game.id)
                        .bind(from_ply)
                        .bind(i64::try_from(by_seat).unwrap_or(i64::MAX))
                        .bind(serde_json::to_string(&taken)?)
                        .bind(game.updated_ms)
                        .execute(&mut *tx)
                        .await?;
                    sqlx::query(&Self::DIALECT.sql(sql::MOVES_DELETE_FROM))
                        .bind(&game.id)
                        .bind(from_ply)
                        .execute(&mut *tx)
                        .await?;
                    Self::write_game(&mut tx, game, false).await?;
                    tx.commit().await?;
                    Ok(())
                }

                async fn takeback_count(&self, game_id: &str) -> StoreResult<i64> {
                    Ok(sqlx::query_scalar(&Self::DIALECT.sql(sql::TAKEBACK_COUNT))
                        .bind(game_id)
                        .fetch_one(&self.pool)
                        .await?)
                }

                async fn load_game(&self, id: &str) -> StoreResult<Option<(GameRow, Vec<MoveRow>)>> {
                    let row = sqlx::query(&Self::DIALECT.sql(sql::GAME_BY_ID))
                        .bind(id)
                        .fetch_optional(&self.pool)
                        .await?;
                    let Some(row) = row else { return Ok(None) };
                    let game = rows::game(&row)?;
                    let moves = self.moves_of(id).await?;
                    Ok(Some((game, moves)))
                }

                async fn unfinished_games(&self) -> StoreResult<Vec<(GameRow, Vec<MoveRow>)>> {
                    let rows = sqlx::query(&Self::DIALECT.sql(sql::GAMES_UNFINISHED))
                        .fetch_all(&self.pool)
                        .await?;
                    let mut out = Vec::with_capacity(rows.len());
                    for r in &rows {
                        let g = rows::game(r)?;
                        let moves = self.moves_of(&g.id).await?;
                        out.push((g, moves));
                    }
                    Ok(out)
                }

                async fn finished_rated_games(
                    &self,
                    rules: &str,
                    after: (i64, &str),
                    limit: i64,
                ) -> StoreResult<Vec<(GameRow, Vec<MoveRow>)>> {
                    let rows = sqlx::query(&Self::DIALECT.sql(sql::GAMES_FINISHED_RATED))
                        .bind(rules)
                        .bind(after.0)
                        .bind(after.1)
                        .bind(limit)
                        .fetch_all(&self.pool)
                        .await?;
                    let mut out = Vec::with_capacity(rows.len());
                    for r in &rows {
                        let g = rows::game(r)?;
                        let moves = self.moves_of(&g.id).await?;
                        out.push((g, moves));
                    }
                    Ok(out)
                }

                async fn user_games(&self, user_id: i64, limit: i64) -> StoreResult<Vec<GameRow>> {
                    let rows = sqlx::query(&Self::DIALECT.sql(sql::GAMES_OF_USER))
                        .bind(user_id)
                        .bind(limit)
                        .fetch_all(&self.pool)
                        .await?;
                    rows.iter().map(rows::game).collect()
                }

                async fn unfinished_games_of(&self, user_id: i64, limit: i64) -> StoreResult<Vec<String>> {
                    Ok(sqlx::query_scalar(&Self::DIALECT.sql(sql::GAMES_UNFINISHED_OF))
                        .bind(user_id)
                        .bind(limit)
                        .fetch_all(&self.pool)
                        .await?)
                }

                async fn ai_games_in_play(&self, user_id: i64) -> StoreResult<i64> {
                    Ok(sqlx::query_scalar(&Self::DIALECT.sql(sql::AI_GAMES_IN_PLAY))
                        .bind(user_id)
                        .fetch_one(&self.pool)
                        .await?)
                }

                async fn save_game_setup(&self, game_id: &str, setup: &str) -> StoreResult<()> {
                    sqlx::query(&Self::DIALECT.sql(sql::SETUP_SAVE))
                        .bind(game_id)
                        .bind(setup)
                        .execute(&self.pool)
                        .await?;
                    Ok(())
                }

                async fn game_setup(&self, game_id: &str) -> StoreResult<Option<String>> {
                    let row = sqlx::query(&Self::DIALECT.sql(sql::SETUP_OF))
                        .bind(game_id)
                        .fetch_optional(&self.pool)
                        .await?;
                    Ok(row.map(|r| r.opt_text("setup")).transpose()?.flatten())
                }
            }

            #[async_trait]
            impl RoomStore for $store {
                async fn delete_open_room(&self, id: &str) -> StoreResult<bool> {
                    let mut tx = self.pool.begin().await?;
                    let waiting: i64 = sqlx::query_scalar(&Self::DIALECT.sql(sql::ROOM_IS_WAITING))
                        .bind(id)
                        .fetch_one(&mut *tx)
                        .await?;
                    if waiting == 0 {
                        return Ok(false);
                    }
                    for part in sql::ROOM_PARTS {
                        sqlx::query(&Self::DIALECT.sql(part))
                            .bind(id)
                            .execute(&mut *tx)
                            .await?;
                    }
                    let gone = sqlx::query(&Self::DIALECT.sql(sql::ROOM_ROW))
                        .bind(id)
                        .execute(&mut *tx)
                        .await?
                        .rows_affected();
                    tx.commit().await?;
                    Ok(gone > 0)
                }

                async fn save_challenge(&self, game_id: &str, user_id: i64) -> StoreResult<()> {
                    sqlx::query(&Self::DIALECT.sql(sql::CHALLENGE_SAVE))
                        .bind(game_id)
                        .bind(user_id)
                        .bind(now_ms())
                        .execute(&self.pool)
                        .await?;
                    Ok(())
                }

                async fn challenge_of(&self, game_id: &str) -> StoreResult<Option<(i64, String)>> {
                    let row = sqlx::query(&Self::DIALECT.sql(sql::CHALLENGE_OF))
                        .bind(game_id)
                        .fetch_optional(&self.pool)
                        .await?;
                    row.map(|r| Ok((r.int("user_id")?, r.text("username")?)))
                        .transpose()
                }

                async fn challenges_for(&self, user_id: i64, limit: i64) -> StoreResult<Vec<String>> {
                    Ok(sqlx::query_scalar(&Self::DIALECT.sql(sql::CHALLENGES_FOR))
                        .bind(user_id)
                        .bind(limit)
                        .fetch_all(&self.pool)
                        .await?)
                }
            }

            #[async_trait]
            impl ClusterStore for $store {
                async fn acquire_lease(
                    &self,
                    game_id: &str,
                    owner: &str,
                    ttl_ms: i64,
                ) -> StoreResult<Option<Fence>> {
                    let token: Option<i64> = sqlx::query_scalar(&Self::DIALECT.sql(sql::LEASE))
                        .bind(game_id)
                        .bind(owner)
                        .bind(now_ms())
                        .bind(ttl_ms)
                        .fetch_optional(&self.pool)
                        .await?;
                    Ok(token.map(|token| Fence {
                        owner: owner.to_string(),
                        token,
                    }))
                }

                async fn release_lease(&self, game_id: &str, owner: &str) -> StoreResult<bool> {
                    let r = sqlx::query(&Self::DIALECT.sql(sql::RELEASE))
                        .bind(game_id)
                        .bind(owner)
                        .execute(&self.pool)
                        .await?;
                    Ok(r.rows_affected() > 0)
                }

                async fn register_node(&self, id: &str, addr: &str) -> StoreResult<()> {
                    sqlx::query(&Self::DIALECT.sql(sql::NODE))
                        .bind(id)
                        .bind(addr)
                        .bind(now_ms())
                        .execute(&self.pool)
                        .await?;
                    Ok(())
                }

                async fn lease_holder(&self, game_id: &str) -> StoreResult<Option<(String, String)>> {
                    let row = sqlx::query(&Self::DIALECT.sql(sql::HOLDER))
                        .bind(game_id)
                        .bind(now_ms())
                        .fetch_optional(&self.pool)
                        .await?;
                    row.map(|r| Ok((r.text("owner")?, r.text("addr")?)))
                        .transpose()
                }

                async fn orphaned_games(&self, limit: i64) -> StoreResult<Vec<String>> {
                    Ok(sqlx::query_scalar(&Self::DIALECT.sql(sql::ORPHANS))
                        .bind(now_ms())
                        .bind(limit)
                        .fetch_all(&self.pool)
                        .await?)
                }

                fn nodes(&self) -> Nodes<'_> {
                    Nodes::from(&self.pool)
                }

                async fn close(&self) {
                    self.pool.close().await;
                }
            }
        }
    };
}

pub(crate) use sql_store;
