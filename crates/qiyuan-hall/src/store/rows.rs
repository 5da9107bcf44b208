//! Rows decoded once for every backend: [`Cols`] reads a column of either
//! database's row, and the record decoders below are written over it.

use qiyuan_events::Rating;
use sqlx::Row;

use super::StoreResult;
use super::{ChatReport, GameRow, MoveRow, Preset, RatingChange, RatingPoint, SessionRow, User};

/// A row's columns by name, as the types the schema stores (integers are
/// `BIGINT` on every backend, reals double precision).
pub(crate) trait Cols {
    /// An integer column.
    fn int(&self, col: &str) -> StoreResult<i64>;
    /// A text column.
    fn text(&self, col: &str) -> StoreResult<String>;
    /// A nullable text column.
    fn opt_text(&self, col: &str) -> StoreResult<Option<String>>;
    /// A real column.
    fn real(&self, col: &str) -> StoreResult<f64>;
    /// A nullable real column.
    fn opt_real(&self, col: &str) -> StoreResult<Option<f64>>;
}

/// [`Cols`] for a backend's row type: `try_get` is the same call on each.
macro_rules! cols {
    ($row:ty) => {
        impl Cols for $row {
            fn int(&self, col: &str) -> StoreResult<i64> {
                Ok(self.try_get(col)?)
            }
            fn text(&self, col: &str) -> StoreResult<String> {
                Ok(self.try_get(col)?)
            }
            fn opt_text(&self, col: &str) -> StoreResult<Option<String>> {
                Ok(self.try_get(col)?)
            }
            fn real(&self, col: &str) -> StoreResult<f64> {
                Ok(self.try_get(col)?)
            }
            fn opt_real(&self, col: &str) -> StoreResult<Option<f64>> {
                Ok(self.try_get(col)?)
            }
        }
    };
}

cols!(sqlx::sqlite::SqliteRow);
cols!(sqlx::postgres::PgRow);

/// A count stored as an integer, never negative.
fn count(r: &impl Cols, col: &str) -> StoreResult<u32> {
    Ok(u32::try_from(r.int(col)?.max(0)).unwrap_or(u32::MAX))
}

/// A user (id, username, password_hash, guest, bot).
pub(crate) fn user(r: &impl Cols) -> StoreResult<User> {
    Ok(User {
        id: r.int("id")?,
        username: r.text("username")?,
        password_hash: r.opt_text("password_hash")?,
        guest: r.int("guest")? != 0,
        bot: r.int("bot")? != 0,
    })
}

/// A rating (value, rated_games, reached_top).
pub(crate) fn rating(r: &impl Cols) -> StoreResult<Rating> {
    Ok(Rating {
        value: r.real("value")?,
        rated_games: count(r, "rated_games")?,
        reached_top: r.int("reached_top")? != 0,
    })
}

/// A multi-player rating (value, deviation, rated_games); a missing
/// deviation is a fresh player's.
pub(crate) fn multi_rating(r: &impl Cols) -> StoreResult<qiyuan_events::multi::MultiRating> {
    let fresh = qiyuan_events::multi::MultiRating::default();
    Ok(qiyuan_events::multi::MultiRating {
        value: r.real("value")?,
        deviation: r.opt_real("deviation")?.unwrap_or(fresh.deviation),
        rated_games: count(r, "rated_games")?,
    })
}

/// A game row (the `GAME_COLUMNS`).
pub(crate) fn game(r: &impl Cols) -> StoreResult<GameRow> {
    Ok(GameRow {
        id: r.text("id")?,
        rules: r.text("rules")?,
        options: serde_json::from_str(&r.text("options")?)?,
        start_fen: r.opt_text("start_fen")?,
        initial_ms: r.int("initial_ms")?,
        increment_ms: r.int("increment_ms")?,
        rated: r.int("rated")? != 0,
        seats: serde_json::from_str(&r.text("seats")?)?,
        status: r.text("status")?,
        result: r.opt_text("result")?,
        reason: r.opt_text("reason")?,
        explanation: r.opt_text("explanation")?,
        clocks: serde_json::from_str(&r.text("clocks")?)?,
        created_ms: r.int("created_ms")?,
        updated_ms: r.int("updated_ms")?,
        rematch_of: r.opt_text("rematch_of")?,
        placings: r
            .opt_text("placings")?
            .map(|p| serde_json::from_str(&p))
            .transpose()?,
    })
}

/// A move (ply, seat, mv, clocks, at_ms, draws); moves stored before draws
/// existed have none.
pub(crate) fn move_row(r: &impl Cols) -> StoreResult<MoveRow> {
    Ok(MoveRow {
        ply: r.int("ply")?,
        seat: r.int("seat")?,
        mv: r.text("mv")?,
        clocks: serde_json::from_str(&r.text("clocks")?)?,
        at_ms: r.int("at_ms")?,
        draws: r
            .opt_text("draws")?
            .map(|d| serde_json::from_str(&d))
            .transpose()?
            .unwrap_or_default(),
    })
}

/// A session as its owner sees it.
pub(crate) fn session(r: &impl Cols) -> StoreResult<SessionRow> {
    Ok(SessionRow {
        id: r.text("id")?,
        created_ms: r.int("created_ms")?,
        last_seen_ms: r.int("last_seen_ms")?,
        expires_ms: r.int("expires_ms")?,
        agent: r.opt_text("agent")?,
        current: r.int("current")? != 0,
    })
}

/// A preset (kind, name, text, on_timeout).
pub(crate) fn preset(r: &impl Cols) -> StoreResult<Preset> {
    Ok(Preset {
        kind: r.text("kind")?,
        name: r.text("name")?,
        text: r.text("text")?,
        on_timeout: r.int("on_timeout")? != 0,
    })
}

/// A reported chat message.
pub(crate) fn chat_report(r: &impl Cols) -> StoreResult<ChatReport> {
    Ok(ChatReport {
        game_id: r.text("game_id")?,
        reporter_id: r.int("reporter_id")?,
        author_id: r.int("author_id")?,
        text: r.text("text")?,
        sent_ms: r.int("sent_ms")?,
    })
}

/// A point of a rating chart (family, game_id, after, at_ms).
pub(crate) fn rating_point(r: &impl Cols) -> StoreResult<RatingPoint> {
    Ok(RatingPoint {
        family: r.text("family")?,
        game_id: r.text("game_id")?,
        rating: r.real("after")?,
        at_ms: r.int("at_ms")?,
    })
}

/// One game's rating change for one player.
pub(crate) fn rating_change(r: &impl Cols) -> StoreResult<RatingChange> {
    Ok(RatingChange {
        user_id: r.int("user_id")?,
        username: r.text("username")?,
        family: r.text("family")?,
        before: r.real("before")?,
        after: r.real("after")?,
    })
}

/// Fouls of one seat (seat, fouls).
pub(crate) fn fouls(r: &impl Cols) -> StoreResult<(usize, u32)> {
    let seat = usize::try_from(r.int("seat")?.max(0)).unwrap_or(usize::MAX);
    Ok((seat, count(r, "fouls")?))
}

/// A puzzle (id, variant, fen, moves, themes, rating, deviation, volatility, plays).
pub(crate) fn puzzle(r: &impl Cols) -> StoreResult<super::PuzzleRow> {
    let words = |s: String| -> Vec<String> { s.split_whitespace().map(str::to_string).collect() };
    Ok(super::PuzzleRow {
        id: r.text("id")?,
        variant: r.text("variant")?,
        fen: r.text("fen")?,
        moves: words(r.text("moves")?),
        themes: words(r.text("themes")?),
        rating: glicko(r)?,
        plays: r.int("plays")?,
    })
}

/// A Glicko-2 rating (rating, deviation, volatility).
fn glicko(r: &impl Cols) -> StoreResult<qiyuan_events::puzzle::Glicko> {
    Ok(qiyuan_events::puzzle::Glicko {
        rating: r.real("rating")?,
        deviation: r.real("deviation")?,
        volatility: r.real("volatility")?,
    })
}

/// A user's puzzle rating (rating, deviation, volatility, plays).
pub(crate) fn puzzle_rating(r: &impl Cols) -> StoreResult<super::PuzzleRating> {
    Ok(super::PuzzleRating {
        rating: glicko(r)?,
        plays: r.int("plays")?,
    })
}

/// An attempt (puzzle_id, variant, win, rating_after, at_ms).
pub(crate) fn puzzle_attempt(r: &impl Cols) -> StoreResult<super::PuzzleAttempt> {
    Ok(super::PuzzleAttempt {
        puzzle_id: r.text("puzzle_id")?,
        variant: r.text("variant")?,
        win: r.int("win")? != 0,
        rating_after: r.real("rating_after")?,
        at_ms: r.int("at_ms")?,
    })
}
