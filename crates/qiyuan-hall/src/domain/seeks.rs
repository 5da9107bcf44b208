//! Seeks (issue 36): an open room is a seek others see in the lobby, with
//! its variant, options, clock, rated or casual, the creator's colour and
//! an optional rating range. A new seek that matches an open one takes its
//! seat instead of adding a duplicate; a seek out of a player's range is
//! refused to them; the creator cancels it (`POST /api/games/{id}/cancel`),
//! and it is closed a few seconds after the creator's last socket is gone
//! (the lobby's room rule, [`crate::limits::Limits::open_room_idle`]).
//!
//! The index is the node's memory, kept in step with the lobby. A seek's
//! rating range lives there too and is not kept over a restart (the room
//! is: it is open to anyone after one).

use std::collections::HashMap;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::hall::{Hall, HallError, HallResult, Live};
use crate::error::ErrorCode;
use crate::store::{SeatRow, User};

/// The lowest and highest rating a seek accepts (inclusive).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
pub struct RatingRange {
    pub min: i64,
    pub max: i64,
}

impl RatingRange {
    /// Checks the bounds: 0..=4000, `min` <= `max`.
    pub fn check(&self) -> HallResult<()> {
        crate::limits::check_range("rating_range.min", self.min, 0, 4000)?;
        crate::limits::check_range("rating_range.max", self.max, 0, 4000)?;
        if self.min > self.max {
            return Err(
                HallError::new(ErrorCode::OutOfRange, "rating_range: min above max")
                    .with("field", "rating_range")
                    .with("why", "min_above_max"),
            );
        }
        Ok(())
    }

    /// Whether `rating` is inside.
    pub fn accepts(&self, rating: f64) -> bool {
        (self.min as f64..=self.max as f64).contains(&rating)
    }
}

/// What a seek asks of an opponent, kept with its room.
#[derive(Clone, Debug)]
pub struct SeekTerms {
    /// The creator's rating in the family when the seek was made.
    pub creator_rating: f64,
    /// The ratings the seek accepts, if limited.
    pub range: Option<RatingRange>,
    /// Whether the creator let the hall choose their seat.
    pub any_seat: bool,
}

/// One open seek as the index keeps it.
#[derive(Clone, Debug)]
struct Seek {
    creator: i64,
    rules: String,
    options: qiyuan_core::Options,
    initial_ms: i64,
    increment_ms: i64,
    rated: bool,
    open_seat: usize,
    terms: SeekTerms,
}

/// A seek being made, to match against the open ones.
pub(crate) struct Wanted<'a> {
    pub user: &'a User,
    pub rating: f64,
    pub rules: &'a str,
    pub options: &'a qiyuan_core::Options,
    pub initial_ms: i64,
    pub increment_ms: i64,
    pub rated: bool,
    /// The seat asked for (`None`: any).
    pub seat: Option<usize>,
    pub range: Option<RatingRange>,
}

/// The open seeks of this node, by room id.
#[derive(Default)]
pub struct Seeks {
    open: Mutex<HashMap<String, Seek>>,
}

impl Seeks {
    fn open(&self) -> std::sync::MutexGuard<'_, HashMap<String, Seek>> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Keeps the index in step with room `live` (called with every lobby change).
    pub(crate) fn sync(&self, live: &Live) {
        let seek = (live.row.status == "waiting" && live.challenge.is_none())
            .then(|| {
                let terms = live.seek.clone()?;
                let open_seat = live.row.seats.iter().position(|s| *s == SeatRow::Open)?;
                let creator = live.row.seats.iter().find_map(|s| match s {
                    SeatRow::User { id, .. } => Some(*id),
                    _ => None,
                })?;
                Some(Seek {
                    creator,
                    rules: live.row.rules.clone(),
                    options: live.row.options.clone(),
                    initial_ms: live.row.initial_ms,
                    increment_ms: live.row.increment_ms,
                    rated: live.row.rated,
                    open_seat,
                    terms,
                })
            })
            .flatten();
        let mut open = self.open();
        match seek {
            Some(s) => {
                open.insert(live.row.id.clone(), s);
            }
            None => {
                open.remove(&live.row.id);
            }
        }
    }

    /// Forgets room `id`.
    pub(crate) fn remove(&self, id: &str) {
        self.open().remove(id);
    }

    /// The open seek `w` should take instead of opening its own: same
    /// variant, options, clock and ratedness, a seat `w` accepts, each
    /// side within the other's range; the closest creator rating first.
    pub(crate) fn matching(&self, w: &Wanted<'_>) -> Option<String> {
        let open = self.open();
        open.iter()
            .filter(|(_, s)| {
                s.creator != w.user.id
                    && s.rules == w.rules
                    && s.options == *w.options
                    && s.initial_ms == w.initial_ms
                    && s.increment_ms == w.increment_ms
                    && s.rated == w.rated
                    && w.seat.is_none_or(|seat| seat == s.open_seat)
                    && s.terms.range.is_none_or(|r| r.accepts(w.rating))
                    && w.range.is_none_or(|r| r.accepts(s.terms.creator_rating))
            })
            .min_by(|a, b| {
                let gap = |s: &Seek| (s.terms.creator_rating - w.rating).abs();
                gap(a.1).total_cmp(&gap(b.1))
            })
            .map(|(id, _)| id.clone())
    }
}

impl Hall {
    /// `user`'s rating in the family of `rules` (the start rating before
    /// their first rated game).
    pub(crate) async fn rating_for(&self, user: &User, rules: &str) -> HallResult<f64> {
        let family = self.games.family_of(rules).unwrap_or_default();
        Ok(self
            .store
            .rating(user.id, family)
            .await
            .map_err(HallError::internal)?
            .unwrap_or_default()
            .value)
    }

    /// Refuses `user` a seat in a seek whose range leaves them out.
    pub(crate) async fn check_seek_range(&self, live: &Live, user: &User) -> HallResult<()> {
        let Some(range) = live.seek.as_ref().and_then(|t| t.range) else {
            return Ok(());
        };
        let rating = self.rating_for(user, &live.row.rules).await?;
        if range.accepts(rating) {
            return Ok(());
        }
        Err(HallError::new(
            ErrorCode::RatingOutOfRange,
            format!(
                "this seek is for ratings {} to {}; yours is {}",
                range.min,
                range.max,
                rating.round()
            ),
        )
        .with("min", range.min)
        .with("max", range.max)
        .with("rating", rating.round()))
    }
}
