//! Storage behind a small trait: accounts, sessions, games and moves.
//!
//! The hall talks only to [`Storage`]; [`SqliteStore`] is the embedded
//! default, [`crate::pg_store::PgStore`] the shared one for several nodes;
//! [`open`] picks one by the URL's scheme.

use async_trait::async_trait;
use qiyuan_events::Rating;
use serde::{Deserialize, Serialize};

/// Storage errors are reported, never shown to users in detail.
pub type StoreResult<T> = Result<T, anyhow::Error>;

/// A user account (guests included: they get a row so that games can name them).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct User {
    /// Row id.
    pub id: i64,
    /// Unique name shown everywhere.
    pub username: String,
    /// Argon2id PHC string; `None` for guests.
    #[serde(skip)]
    pub password_hash: Option<String>,
    /// Guests may only play unrated games.
    pub guest: bool,
}

/// Who sits in a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum SeatRow {
    /// Nobody yet: anyone may join.
    Open,
    /// A person (or bot) with an account.
    User {
        /// The user's id.
        id: i64,
        /// The user's name, copied so the lobby needs no join.
        name: String,
    },
    /// The built-in AI at this level (1-8).
    Ai {
        /// Strength, 1 (weakest) to 8.
        level: u8,
    },
}

/// A game's stored record (everything but the moves).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// Short random id used in URLs.
    pub id: String,
    /// Variant name (as the registry lists it).
    pub rules: String,
    /// The room's options (a target score, a base, …), as the kind declares them.
    pub options: qiyuan_core::Options,
    /// Set-up FEN, `None` for the start position.
    pub start_fen: Option<String>,
    /// Base time per seat in ms.
    pub initial_ms: i64,
    /// Increment per turn in ms.
    pub increment_ms: i64,
    /// Whether the game counts for ratings.
    pub rated: bool,
    /// One entry per seat.
    pub seats: Vec<SeatRow>,
    /// `waiting`, `playing` or `finished`.
    pub status: String,
    /// `red`, `black` or `draw` once finished (seat names for 2-seat games).
    pub result: Option<String>,
    /// The [`qiyuan_core::EndReason`] word.
    pub reason: Option<String>,
    /// The sentence explaining the end.
    pub explanation: Option<String>,
    /// Remaining ms per seat as of the last stored event.
    pub clocks: Vec<i64>,
    /// Creation time, ms since the epoch.
    pub created_ms: i64,
    /// Last change, ms since the epoch.
    pub updated_ms: i64,
    /// The game this one is a rematch of.
    pub rematch_of: Option<String>,
    /// The final ranking once finished (seat groups, best first).
    pub placings: Option<Vec<Vec<usize>>>,
}

/// How a new session is made.
#[derive(Clone, Debug)]
pub struct NewSession {
    /// Lifetime from now (and after each renewal), ms.
    pub ttl_ms: i64,
    /// Sessions the user keeps at most (the oldest go).
    pub keep: usize,
    /// The client's user agent, shortened (shown in the session list).
    pub agent: Option<String>,
}

/// A session as its owner sees it in the list (never the token).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = SessionInfo)]
pub struct SessionRow {
    /// Public id, for revoking.
    pub id: String,
    /// When it was made, ms since the epoch.
    pub created_ms: i64,
    /// When it was last renewed by use, ms since the epoch.
    pub last_seen_ms: i64,
    /// When it expires unless used, ms since the epoch.
    pub expires_ms: i64,
    /// The user agent that made it.
    pub agent: Option<String>,
    /// Whether this is the session of the request.
    pub current: bool,
}

/// One stored move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRow {
    /// 0-based index in the game.
    pub ply: i64,
    /// The seat that played it.
    pub seat: i64,
    /// The move text.
    pub mv: String,
    /// Remaining ms per seat right after the move.
    pub clocks: Vec<i64>,
    /// When it was played, ms since the epoch.
    pub at_ms: i64,
    /// The chance draws the move made, in order (replayed with it).
    pub draws: Vec<u32>,
}

/// Everything the hall stores. Async, object safe, shareable.
#[async_trait]
pub trait Storage: Send + Sync {
    /// Creates a user; `Ok(None)` when the name is taken.
    async fn create_user(
        &self,
        username: &str,
        password_hash: Option<&str>,
        guest: bool,
    ) -> StoreResult<Option<User>>;
    /// Looks a user up by name: by its key (case folded, look-alikes mapped
    /// together, see [`crate::auth::name_key`]).
    async fn user_by_name(&self, username: &str) -> StoreResult<Option<User>>;
    /// Stores a session token for a user and drops the user's oldest
    /// sessions beyond `s.keep`.
    async fn create_session(&self, token: &str, user_id: i64, s: &NewSession) -> StoreResult<()>;
    /// The user an unexpired session token belongs to; renews the session
    /// to `ttl_ms` from now (sliding expiry).
    async fn session_user(&self, token: &str, ttl_ms: i64) -> StoreResult<Option<User>>;
    /// Deletes a session (log out).
    async fn delete_session(&self, token: &str) -> StoreResult<()>;
    /// A user's unexpired sessions, most recently used first; `current`
    /// marks the one with this token.
    async fn list_sessions(&self, user_id: i64, current: &str) -> StoreResult<Vec<SessionRow>>;
    /// Revokes one of a user's sessions by its public id; false if none.
    async fn revoke_session(&self, user_id: i64, id: &str) -> StoreResult<bool>;
    /// Revokes every session of a user but the one with this token.
    async fn revoke_other_sessions(&self, user_id: i64, current: &str) -> StoreResult<u64>;
    /// Deletes expired sessions.
    async fn purge_expired_sessions(&self) -> StoreResult<u64>;
    /// Deletes game `id` if it is still a room waiting for players (with
    /// its seats, challenge and set-up); false if it is not (any more).
    async fn delete_open_room(&self, id: &str) -> StoreResult<bool>;
    /// Deletes the guests created before `cutoff_ms` that never sat in a
    /// game, hold no challenge or preset and used no session since then,
    /// with their sessions; returns how many.
    async fn purge_idle_guests(&self, cutoff_ms: i64) -> StoreResult<u64>;
    /// A user's presets, by kind then name.
    async fn list_presets(&self, user_id: i64) -> StoreResult<Vec<crate::presets::Preset>>;
    /// Saves (or replaces) a preset; one marked `on_timeout` clears that mark
    /// on the user's other presets of its kind.
    async fn save_preset(&self, user_id: i64, preset: &crate::presets::Preset) -> StoreResult<()>;
    /// Deletes a preset; false if there was none.
    async fn delete_preset(&self, user_id: i64, kind: &str, name: &str) -> StoreResult<bool>;
    /// The text of the user's preset of `kind` marked to play on timeout.
    async fn timeout_preset(&self, user_id: i64, kind: &str) -> StoreResult<Option<String>>;
    /// Unfinished games of a user with an AI seat (the per-user AI budget).
    async fn ai_games_in_play(&self, user_id: i64) -> StoreResult<i64>;
    /// Inserts a new game.
    async fn insert_game(&self, game: &GameRow) -> StoreResult<()>;
    /// Rewrites a game's row (seats, status, result, clocks); with a
    /// `fence`, only if the lease still carries it (as [`Storage::append_move`]).
    async fn update_game(&self, game: &GameRow, fence: Option<&Fence>) -> StoreResult<()>;
    /// Appends a move and rewrites the game row in one transaction: a move is
    /// durable before anyone hears of it. With a `fence`, the transaction
    /// first checks that the lease still carries that owner and token, and
    /// writes nothing (a [`StaleLease`] error) if not.
    async fn append_move(
        &self,
        game: &GameRow,
        mv: &MoveRow,
        fence: Option<&Fence>,
    ) -> StoreResult<()>;
    /// Takes the lease on a game for `owner` until `ttl_ms` from now, or
    /// renews it. Granted when nobody holds it (token 1), when `owner` holds
    /// it already (same token), or when the holder's lease has run out (the
    /// token grows by one); `None` while another owner's lease runs.
    async fn acquire_lease(
        &self,
        game_id: &str,
        owner: &str,
        ttl_ms: i64,
    ) -> StoreResult<Option<Fence>>;
    /// Ends `owner`'s lease on a game now (the token stays), so that another
    /// node may take the game at once; false if `owner` did not hold it.
    async fn release_lease(&self, game_id: &str, owner: &str) -> StoreResult<bool>;
    /// Records (or updates) where node `id` is reached (`host:port`).
    async fn register_node(&self, id: &str, addr: &str) -> StoreResult<()>;
    /// The node holding an unexpired lease on a game, with its address.
    async fn lease_holder(&self, game_id: &str) -> StoreResult<Option<(String, String)>>;
    /// Games not finished whose lease is missing or has run out (their
    /// node died), at most `limit`.
    async fn orphaned_games(&self, limit: i64) -> StoreResult<Vec<String>>;
    /// The registrations of the nodes sharing this database: which process
    /// runs each node id ([`crate::store_cluster::Nodes`]).
    fn nodes(&self) -> crate::store_cluster::Nodes<'_>;
    /// A game and its moves.
    async fn load_game(&self, id: &str) -> StoreResult<Option<(GameRow, Vec<MoveRow>)>>;
    /// Every game not finished (to resume after a restart).
    async fn unfinished_games(&self) -> StoreResult<Vec<(GameRow, Vec<MoveRow>)>>;
    /// A user's most recent games, newest first.
    async fn user_games(&self, user_id: i64, limit: i64) -> StoreResult<Vec<GameRow>>;
    /// A user's rating in a game family (`None` before their first rated game).
    async fn rating(&self, user_id: i64, family: &str) -> StoreResult<Option<Rating>>;
    /// A user's multi-player rating in `family`, if rated there.
    async fn multi_rating(
        &self,
        user_id: i64,
        family: &str,
    ) -> StoreResult<Option<qiyuan_events::multi::MultiRating>>;
    /// Every rating a user has, by family.
    async fn ratings_of(&self, user_id: i64) -> StoreResult<Vec<(String, Rating)>>;
    /// Stores new ratings after a rated game, with history rows, in one
    /// transaction. Returns false (and changes nothing) if the game was rated before.
    async fn apply_ratings(
        &self,
        game_id: &str,
        family: &str,
        updates: &[RatingUpdate],
    ) -> StoreResult<bool>;
    /// The best-rated players of a family: name and rating, best first.
    async fn leaderboard(&self, family: &str, limit: i64) -> StoreResult<Vec<(String, Rating)>>;
    /// A user's rating after each rated game, oldest first.
    async fn rating_history(&self, user_id: i64) -> StoreResult<Vec<RatingPoint>>;
    /// The rating changes one game made, in the order they were stored
    /// (none before it was rated, or if it was not).
    async fn game_rating_changes(&self, game_id: &str) -> StoreResult<Vec<RatingChange>>;
    /// Inserts or rewrites an event's stored state.
    async fn save_event(&self, id: &str, status: &str, data: &str) -> StoreResult<()>;
    /// Every stored event as `(id, data)`, oldest first.
    async fn load_events(&self) -> StoreResult<Vec<(String, String)>>;
    /// Adds a technical foul (X8) for `seat` in a game.
    async fn add_foul(&self, game_id: &str, seat: usize) -> StoreResult<()>;
    /// Fouls per seat in a game (missing seats have none).
    async fn game_fouls(&self, game_id: &str) -> StoreResult<Vec<(usize, u32)>>;
    /// Stores a game's hidden set-up (a layout) before the game row itself,
    /// so a stored game can always be replayed.
    async fn save_game_setup(&self, game_id: &str, setup: &str) -> StoreResult<()>;
    /// A game's hidden set-up, if it has one. Never sent to clients.
    async fn game_setup(&self, game_id: &str) -> StoreResult<Option<String>>;
    /// Adds a finished game's points changes `(user_id, delta)` to `family`'s
    /// balances in one transaction; false (and nothing changed) if settled before.
    async fn settle_points(
        &self,
        game_id: &str,
        family: &str,
        deltas: &[(i64, i64)],
    ) -> StoreResult<bool>;
    /// A user's points balance in `family` (0 before any game).
    async fn points_balance(&self, user_id: i64, family: &str) -> StoreResult<i64>;
    /// The highest balances of `family`: name and balance, best first.
    async fn points_leaderboard(&self, family: &str, limit: i64)
    -> StoreResult<Vec<(String, i64)>>;
    /// An accepted takeback: moves `from_ply` on leave `moves` for the
    /// `takebacks` record (with `by_seat`, who asked), with the game row, in
    /// one transaction, if `fence` (this node's lease) still holds.
    async fn take_back(
        &self,
        game: &GameRow,
        from_ply: i64,
        by_seat: usize,
        fence: Option<&Fence>,
    ) -> StoreResult<()>;
    /// How many takebacks a game has had.
    async fn takeback_count(&self, game_id: &str) -> StoreResult<i64>;
    /// Ids of the unfinished games `user_id` sits in, latest change first.
    async fn unfinished_games_of(&self, user_id: i64, limit: i64) -> StoreResult<Vec<String>>;
    /// Reserves a waiting game's open seat for `user_id` (a challenge).
    async fn save_challenge(&self, game_id: &str, user_id: i64) -> StoreResult<()>;
    /// The user (id, name) a game's open seat is reserved for, if any.
    async fn challenge_of(&self, game_id: &str) -> StoreResult<Option<(i64, String)>>;
    /// Waiting games whose open seat is reserved for `user_id`, newest first.
    async fn challenges_for(&self, user_id: i64, limit: i64) -> StoreResult<Vec<String>>;
    /// Stores a reported chat message.
    async fn add_chat_report(&self, report: &crate::store_play::ChatReport) -> StoreResult<()>;
    /// A game's reported chat messages, oldest first.
    async fn chat_reports(&self, game_id: &str) -> StoreResult<Vec<crate::store_play::ChatReport>>;
    /// Releases connections (graceful shutdown).
    async fn close(&self);
}

pub use crate::store_cluster::{Fence, StaleLease};

/// Opens the store a database URL names: `sqlite://FILE` (or
/// `sqlite::memory:`) or `postgres://USER:PASSWORD@HOST/DB`.
pub async fn open(url: &str) -> StoreResult<std::sync::Arc<dyn Storage>> {
    if url.starts_with("sqlite:") {
        Ok(std::sync::Arc::new(SqliteStore::open(url).await?))
    } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        Ok(std::sync::Arc::new(
            crate::pg_store::PgStore::open(url).await?,
        ))
    } else {
        anyhow::bail!(
            "unknown database URL {url:?}: use sqlite://FILE (the default) or postgres://USER:PASSWORD@HOST/DB"
        )
    }
}

/// One player's rating change in a rated game.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingUpdate {
    /// The user.
    pub user_id: i64,
    /// Before the game.
    pub before: Rating,
    /// After the game.
    pub after: Rating,
    /// The uncertainty after the game (multi-player ratings only).
    pub deviation: Option<f64>,
}

/// One player's rating change in one game, as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingChange {
    /// The user.
    pub user_id: i64,
    /// Their name now.
    pub username: String,
    /// The family rated in (a kind's id, or `{id}-multi`).
    pub family: String,
    /// Before the game (unrounded).
    pub before: f64,
    /// After the game (unrounded).
    pub after: f64,
}

/// A point of a rating chart.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RatingPoint {
    /// Game family.
    pub family: String,
    /// The game that moved the rating.
    pub game_id: String,
    /// The rating after it (unrounded).
    pub rating: f64,
    /// When, ms since the epoch.
    pub at_ms: i64,
}

pub use crate::sqlite_store::SqliteStore;
pub(crate) use crate::sqlite_store::{UPDATE_GAME, write_game};
