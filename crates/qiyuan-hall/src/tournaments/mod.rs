//! Tournaments and ratings: events, team events, the rating ledger. They hear of finished games from the finisher and keep their state on the hall as an extension (`domain::extensions`), so the domain never names them.

pub(crate) mod events;
pub(crate) mod explorer;
pub mod profile;
pub(crate) mod ratings;
pub(crate) mod team_events;
pub(crate) mod tv;
pub mod views;
