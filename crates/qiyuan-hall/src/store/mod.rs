//! Storage: accounts, sessions, games and moves, rooms, ratings, points,
//! events, chat reports and the cluster's leases, behind one small trait per
//! kind of data. [`SqliteStore`] is the embedded default, [`PgStore`] the
//! shared one for several nodes; [`open`] picks one by the URL's scheme.
//!
//! Every statement is written once ([`sql`]); what the two databases spell
//! differently is in [`dialect`]; the method bodies are written once
//! ([`shared`]) and compiled for each backend. A new backend is a dialect,
//! an `open`, and the contract test (`tests/it/store_contract.rs`).

use async_trait::async_trait;
use qiyuan_events::Rating;

pub(crate) mod cluster;
pub(crate) mod dialect;
pub(crate) mod group_commit;
pub(crate) mod migrations;
mod pg;
mod records;
mod rows;
mod shared;
mod shared_puzzles;
mod shared_standings;
pub(crate) mod sql;
mod sqlite;
mod sqlite_writer;
pub(crate) mod study;

pub use cluster::{Nodes, PoolEntry};
pub(crate) use pg::PgStore;
pub use records::{
    ChatReport, Fence, GameRow, MoveRow, NewSession, Preset, PuzzleAttempt, PuzzleRating,
    PuzzleResult, PuzzleRow, RatingChange, RatingPoint, RatingUpdate, SeatRow, SessionRow, User,
};
pub(crate) use sqlite::SqliteStore;
pub use study::{ExplorerMove, ExplorerRow, StoredOpening, Study, StudyStore};

/// Why a storage call failed. Callers branch on [`StoreError::StaleLease`];
/// the rest are reported, never shown to users in detail.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A change refused because this node no longer holds the game's lease
    /// (another node took the game over); it names the game.
    #[error("stale lease on game {0}: another node owns it")]
    StaleLease(String),
    /// The database refused or failed a statement.
    #[error(transparent)]
    Db(#[from] sqlx::Error),
    /// The schema's migrations could not be applied.
    #[error(transparent)]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// SQLite's move writer thread failed a statement.
    #[error(transparent)]
    Writer(#[from] rusqlite::Error),
    /// A stored JSON column does not decode (or a record does not encode).
    #[error(transparent)]
    Data(#[from] serde_json::Error),
    /// A file or thread of the store could not be set up.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// The store cannot be opened as asked (a bad URL, no server, a
    /// database in the wrong mode); the sentence says why.
    #[error("{0}")]
    Open(String),
    /// The move writer has stopped (the store is shutting down).
    #[error("the move writer has stopped")]
    Stopped,
}

/// The result of a storage call.
pub type StoreResult<T> = Result<T, StoreError>;

/// Accounts and their sessions.
#[async_trait]
pub trait AccountStore: Send + Sync {
    /// Creates a user; `Ok(None)` when the name is taken.
    async fn create_user(
        &self,
        username: &str,
        password_hash: Option<&str>,
        guest: bool,
    ) -> StoreResult<Option<User>>;
    /// Makes a registered user who has never sat in a game a bot; false
    /// (and nothing changed) otherwise.
    async fn make_bot(&self, user_id: i64) -> StoreResult<bool>;
    /// Looks a user up by name: by its key (case folded, look-alikes mapped
    /// together, see [`name_key`]).
    async fn user_by_name(&self, username: &str) -> StoreResult<Option<User>>;
    /// Up to `limit` registered (not guest) user names that start with
    /// `prefix`, ignoring case, in alphabetical order (player pickers).
    async fn users_with_prefix(&self, prefix: &str, limit: i64) -> StoreResult<Vec<String>>;
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
    /// Deletes the guests created before `cutoff_ms` that never sat in a
    /// game, hold no challenge or preset and used no session since then,
    /// with their sessions; returns how many.
    async fn purge_idle_guests(&self, cutoff_ms: i64) -> StoreResult<u64>;
}

/// Presets: opening actions a user keeps between games.
#[async_trait]
pub trait PresetStore: Send + Sync {
    /// A user's presets, by kind then name.
    async fn list_presets(&self, user_id: i64) -> StoreResult<Vec<Preset>>;
    /// Saves (or replaces) a preset; one marked `on_timeout` clears that mark
    /// on the user's other presets of its kind.
    async fn save_preset(&self, user_id: i64, preset: &Preset) -> StoreResult<()>;
    /// Deletes a preset; false if there was none.
    async fn delete_preset(&self, user_id: i64, kind: &str, name: &str) -> StoreResult<bool>;
    /// The text of the user's preset of `kind` marked to play on timeout.
    async fn timeout_preset(&self, user_id: i64, kind: &str) -> StoreResult<Option<String>>;
}

/// Games and their moves.
#[async_trait]
pub trait GameStore: Send + Sync {
    /// Inserts a new game.
    async fn insert_game(&self, game: &GameRow) -> StoreResult<()>;
    /// Rewrites a game's row (seats, status, result, clocks); with a
    /// `fence`, only if the lease still carries it (as [`GameStore::append_move`]).
    async fn update_game(&self, game: &GameRow, fence: Option<&Fence>) -> StoreResult<()>;
    /// Appends a move and rewrites the game row in one transaction: a move is
    /// durable before anyone hears of it. With a `fence`, the transaction
    /// first checks that the lease still carries that owner and token, and
    /// writes nothing ([`StoreError::StaleLease`]) if not.
    async fn append_move(
        &self,
        game: &GameRow,
        mv: &MoveRow,
        fence: Option<&Fence>,
    ) -> StoreResult<()>;
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
    /// A game and its moves.
    async fn load_game(&self, id: &str) -> StoreResult<Option<(GameRow, Vec<MoveRow>)>>;
    /// Every game not finished (to resume after a restart).
    async fn unfinished_games(&self) -> StoreResult<Vec<(GameRow, Vec<MoveRow>)>>;
    /// Finished rated games of `rules` with their moves, oldest first: the
    /// ones after `after` (the creation time and id of the last one read,
    /// `(i64::MIN, "")` to start), at most `limit` (offline tools such as
    /// `qiyuan puzzles from-games` page through them).
    async fn finished_rated_games(
        &self,
        rules: &str,
        after: (i64, &str),
        limit: i64,
    ) -> StoreResult<Vec<(GameRow, Vec<MoveRow>)>>;
    /// A user's most recent games, newest first.
    async fn user_games(&self, user_id: i64, limit: i64) -> StoreResult<Vec<GameRow>>;
    /// Ids of the unfinished games `user_id` sits in, latest change first.
    async fn unfinished_games_of(&self, user_id: i64, limit: i64) -> StoreResult<Vec<String>>;
    /// Unfinished games of a user with an AI seat (the per-user AI budget).
    async fn ai_games_in_play(&self, user_id: i64) -> StoreResult<i64>;
    /// Stores a game's hidden set-up (a layout) before the game row itself,
    /// so a stored game can always be replayed.
    async fn save_game_setup(&self, game_id: &str, setup: &str) -> StoreResult<()>;
    /// A game's hidden set-up, if it has one. Never sent to clients.
    async fn game_setup(&self, game_id: &str) -> StoreResult<Option<String>>;
}

/// Rooms waiting for players, and the challenges that reserve their seats.
#[async_trait]
pub trait RoomStore: Send + Sync {
    /// Deletes game `id` if it is still a room waiting for players (with
    /// its seats, challenge and set-up); false if it is not (any more).
    async fn delete_open_room(&self, id: &str) -> StoreResult<bool>;
    /// Reserves a waiting game's open seat for `user_id` (a challenge).
    async fn save_challenge(&self, game_id: &str, user_id: i64) -> StoreResult<()>;
    /// The user (id, name) a game's open seat is reserved for, if any.
    async fn challenge_of(&self, game_id: &str) -> StoreResult<Option<(i64, String)>>;
    /// Waiting games whose open seat is reserved for `user_id`, newest first.
    async fn challenges_for(&self, user_id: i64, limit: i64) -> StoreResult<Vec<String>>;
}

/// Conduct: technical fouls and reported chat messages.
#[async_trait]
pub trait ConductStore: Send + Sync {
    /// Adds a technical foul (X8) for `seat` in a game.
    async fn add_foul(&self, game_id: &str, seat: usize) -> StoreResult<()>;
    /// Fouls per seat in a game (missing seats have none).
    async fn game_fouls(&self, game_id: &str) -> StoreResult<Vec<(usize, u32)>>;
    /// Stores a reported chat message.
    async fn add_chat_report(&self, report: &ChatReport) -> StoreResult<()>;
    /// A game's reported chat messages, oldest first.
    async fn chat_reports(&self, game_id: &str) -> StoreResult<Vec<ChatReport>>;
}

/// Ratings and their history.
#[async_trait]
pub trait RatingStore: Send + Sync {
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
}

/// Points ledgers: game points per family, settled once per game.
#[async_trait]
pub trait PointsStore: Send + Sync {
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
}

/// Events (tournaments and the like), stored as opaque state.
#[async_trait]
pub trait EventStore: Send + Sync {
    /// Inserts or rewrites an event's stored state.
    async fn save_event(&self, id: &str, status: &str, data: &str) -> StoreResult<()>;
    /// Every stored event as `(id, data)`, oldest first.
    async fn load_events(&self) -> StoreResult<Vec<(String, String)>>;
}

/// The most attempts [`PuzzleStore::puzzle_history`] returns.
pub const PUZZLE_HISTORY_MAX: i64 = 100;

/// Puzzles (issue 40): the shipped sets with their ratings, each player's
/// puzzle rating per variant and their rated attempts.
#[async_trait]
pub trait PuzzleStore: Send + Sync {
    /// Stores puzzles in one transaction: a new one with its given rating,
    /// a known one (same id) with its position, moves and themes rewritten
    /// and its rating and plays kept, so loading the same set twice
    /// changes nothing.
    async fn upsert_puzzles(&self, puzzles: &[PuzzleRow]) -> StoreResult<()>;
    /// A puzzle by id.
    async fn puzzle(&self, id: &str) -> StoreResult<Option<PuzzleRow>>;
    /// Up to `limit` puzzles of `variant` closest to `rating` that carry
    /// every one of `themes` (at most three) and that `user_id` never
    /// attempted (`None`: leave none out), closest first.
    async fn puzzles_near(
        &self,
        variant: &str,
        rating: f64,
        themes: &[&str],
        user_id: Option<i64>,
        limit: i64,
    ) -> StoreResult<Vec<PuzzleRow>>;
    /// How many puzzles `variant` has.
    async fn puzzle_count(&self, variant: &str) -> StoreResult<i64>;
    /// The puzzle at place `index` of `variant`'s puzzles ordered by id.
    async fn puzzle_at(&self, variant: &str, index: i64) -> StoreResult<Option<PuzzleRow>>;
    /// A user's puzzle rating in `variant` (`None` before their first attempt).
    async fn puzzle_rating(&self, user_id: i64, variant: &str)
    -> StoreResult<Option<PuzzleRating>>;
    /// Whether a user has a rated attempt at a puzzle.
    async fn puzzle_attempted(&self, user_id: i64, puzzle_id: &str) -> StoreResult<bool>;
    /// Stores a rated attempt in one transaction: the attempt, the
    /// player's and the puzzle's new ratings. False (and nothing changed)
    /// if the user attempted this puzzle before: only the first counts.
    async fn record_puzzle_result(&self, result: &PuzzleResult) -> StoreResult<bool>;
    /// A user's latest attempts (of `variant`, or all), newest first, at
    /// most `limit` (itself at most [`PUZZLE_HISTORY_MAX`]).
    async fn puzzle_history(
        &self,
        user_id: i64,
        variant: Option<&str>,
        limit: i64,
    ) -> StoreResult<Vec<PuzzleAttempt>>;
}

/// The cluster: game leases, the nodes sharing the database, and the
/// connections themselves.
#[async_trait]
pub trait ClusterStore: Send + Sync {
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
    /// runs each node id ([`Nodes`]).
    fn nodes(&self) -> Nodes<'_>;
    /// Releases connections (graceful shutdown).
    async fn close(&self);
}

/// Everything the hall stores: every kind of data above. Async, object
/// safe, shareable (`Arc<dyn Storage>`); any type with all of them is one.
pub trait Storage:
    AccountStore
    + PresetStore
    + GameStore
    + RoomStore
    + ConductStore
    + RatingStore
    + PointsStore
    + EventStore
    + PuzzleStore
    + ClusterStore
    + StudyStore
{
}

impl<T> Storage for T where
    T: AccountStore
        + PresetStore
        + GameStore
        + RoomStore
        + ConductStore
        + RatingStore
        + PointsStore
        + EventStore
        + PuzzleStore
        + ClusterStore
        + StudyStore
{
}

/// Opens the store a database URL names: `sqlite://FILE` (or
/// `sqlite::memory:`) or `postgres://USER:PASSWORD@HOST/DB`.
pub async fn open(url: &str) -> StoreResult<std::sync::Arc<dyn Storage>> {
    if url.starts_with("sqlite:") {
        Ok(std::sync::Arc::new(SqliteStore::open(url).await?))
    } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        Ok(std::sync::Arc::new(PgStore::open(url).await?))
    } else {
        Err(StoreError::Open(format!(
            "unknown database URL {url:?}: use sqlite://FILE (the default) or postgres://USER:PASSWORD@HOST/DB"
        )))
    }
}

/// A storage failure as the API reports it: a stale lease (another node
/// took the game over) is a 503 the client retries; anything else is a 500
/// whose detail goes to the log.
impl From<StoreError> for crate::error::HallError {
    fn from(e: StoreError) -> crate::error::HallError {
        match e {
            StoreError::StaleLease(_) => crate::error::HallError::busy(
                "this game is played on another node just now; try again",
            ),
            other => crate::error::HallError::internal(other),
        }
    }
}

/// The key two names collide on: case folded, then mapped to its UTS #39
/// confusable skeleton, so `Admin`, `ADMIN` and `аdmin` (Cyrillic `а`) all
/// give `admin`. Chinese names map to themselves.
pub fn name_key(name: &str) -> String {
    let lower = name.to_lowercase();
    let skeleton: String = unicode_security::confusable_detection::skeleton(&lower).collect();
    skeleton.to_lowercase()
}
