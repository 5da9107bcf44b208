//! Tournaments and ratings: events, team events, the rating ledger; they hear of finished games through the hall's hooks.

pub(crate) mod events;
pub(crate) mod ratings;
pub(crate) mod team_events;
