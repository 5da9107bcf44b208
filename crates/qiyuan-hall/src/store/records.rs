//! The records the storage traits read and write. They live here, not in
//! the modules that use them, so that storage depends on no other part of
//! the hall.

use qiyuan_events::Rating;
use serde::{Deserialize, Serialize};

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
    /// A bot account: plays through the API, shown as BOT, not in pools.
    #[serde(default)]
    pub bot: bool,
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
        /// A bot account (shown as BOT).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        bot: bool,
    },
    /// The built-in AI at this level (1-8).
    Ai {
        /// Strength, 1 (weakest) to 8.
        level: u8,
    },
}

impl SeatRow {
    /// The seat of `user`.
    pub fn user(user: &User) -> SeatRow {
        SeatRow::User {
            id: user.id,
            name: user.username.clone(),
            bot: user.bot,
        }
    }
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

/// One saved preset (an opening action a player keeps between games).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Preset {
    /// The game kind (a `GET /api/kinds` id).
    pub kind: String,
    /// The owner's name for it.
    pub name: String,
    /// The action's text, as the kind reads it.
    pub text: String,
    /// Played for its owner when their time runs out before they acted.
    pub on_timeout: bool,
}

/// A node's hold on a game: the node's id and the fencing token of its lease.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fence {
    /// The node's id.
    pub owner: String,
    /// The lease's token when the node took it.
    pub token: i64,
}

/// A stored puzzle (issue 40): a position of a variant, the opponent's move
/// that sets it up and the solution, with its Glicko-2 rating.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleRow {
    /// Its id (as the shipped set names it).
    pub id: String,
    /// The variant (rule set) it is played in.
    pub variant: String,
    /// The position before the opponent's setting-up move.
    pub fen: String,
    /// The opponent's move, then the solution, in the game's notation.
    pub moves: Vec<String>,
    /// Its themes.
    pub themes: Vec<String>,
    /// Its rating.
    pub rating: qiyuan_events::puzzle::Glicko,
    /// How many rated attempts it has had.
    pub plays: i64,
}

/// A user's puzzle rating in one variant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PuzzleRating {
    /// The rating.
    pub rating: qiyuan_events::puzzle::Glicko,
    /// How many rated attempts.
    pub plays: i64,
}

/// One rated attempt at a puzzle.
#[derive(Clone, Debug, PartialEq, Serialize, utoipa::ToSchema)]
pub struct PuzzleAttempt {
    /// The puzzle.
    pub puzzle_id: String,
    /// Its variant.
    pub variant: String,
    /// Solved (true) or missed.
    pub win: bool,
    /// The player's puzzle rating after it.
    pub rating_after: f64,
    /// When, ms since the epoch.
    pub at_ms: i64,
}

/// A rated attempt to store: the player's and the puzzle's new ratings.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleResult {
    /// The player.
    pub user_id: i64,
    /// The puzzle.
    pub puzzle_id: String,
    /// Its variant.
    pub variant: String,
    /// Solved (true) or missed.
    pub win: bool,
    /// The player's rating after the attempt, with their attempts so far.
    pub player: PuzzleRating,
    /// The puzzle's rating after it.
    pub puzzle: qiyuan_events::puzzle::Glicko,
}
