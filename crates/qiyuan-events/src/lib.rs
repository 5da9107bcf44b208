//! Ratings, rank titles, events, pairings and standings for the Qiyuan hall
//! (decisions H1-H9 in `shared/rules/hall.md`, X6 and X8 in `xiangqi.md`).
//!
//! Pure logic like the rules crates: no I/O, no async, no clock, and no
//! hidden randomness (drawing lots uses a seed the event stores), so an event
//! replays identically from its stored JSON. The hall drives an [`Event`]:
//! [`Event::create`], [`Event::next_round`], [`Event::record_result`],
//! [`Event::standings`], [`Event::status`].
//!
//! - [`rating`]: Elo (H1) and [`title`]: rank titles (H2); [`puzzle`]: Glicko-2
//!   puzzle ratings (issue 40).
//! - [`scoring`]: game results and game scores (H3, X6), fouls (X8).
//! - [`berger`], [`swiss`], [`knockout`]: pairing systems (H4).
//! - [`event`]: the event state machine, including the three-stage format (H5).
//! - [`standings`]: tie-breaks, standings and CSV (H6, H8, H9); [`team`]: team
//!   events (H7); [`fide`]: FIDE's C.07 tie-breaks beside them.
//! - [`trf`]: FIDE's tournament report file (TRF-16, TRF-2026): read, write,
//!   export an event.

pub mod berger;
pub mod dutch;
pub mod event;
pub mod fide;
pub mod knockout;
pub mod multi;
pub mod puzzle;
pub mod rating;
pub mod scoring;
pub mod standings;
pub mod team;
pub mod title;
pub mod trf;

pub use event::{
    Event, EventError, EventSettings, EventStatus, Format, Pairing, PairingRef, PlayoffKind,
    PlayoffNeed, PlayoffSettings, Round, Seeding, ThreeStageSettings,
};
pub use rating::{EloScore, Rating};
pub use scoring::{Fouls, GameResult, ScoringSystem, Side};
pub use standings::{ByeRecord, GameRecord, PlaceTie, StandingRow, Standings, TieBreak};
pub use title::RankTitle;

use serde::{Deserialize, Serialize};
use std::fmt;

/// An opaque player id: a user id or an AI level as the hall names them
/// (e.g. `"u:42"`, `"ai:5"`). Events never look inside it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PlayerId(pub String);

impl From<&str> for PlayerId {
    fn from(s: &str) -> Self {
        PlayerId(s.to_string())
    }
}

impl From<String> for PlayerId {
    fn from(s: String) -> Self {
        PlayerId(s)
    }
}

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// An entrant: the id events work with and the name standings show. The
/// order entrants are given in is their seeding (pairing number 1 first).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// The opaque id.
    pub id: PlayerId,
    /// The display name, copied into standings rows and CSV.
    pub name: String,
}

impl Player {
    /// An entrant with the given id and name.
    pub fn new(id: impl Into<PlayerId>, name: impl Into<String>) -> Self {
        Player {
            id: id.into(),
            name: name.into(),
        }
    }
}
