//! The data an event is made of and shows: its format and settings, rounds
//! and pairings, its status and errors. All of it serialises to JSON.

use serde::{Deserialize, Serialize};

use crate::PlayerId;
use crate::scoring::{Fouls, GameResult, ScoringSystem};
use crate::standings::TieBreak;

/// Why an event refused a call.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EventError {
    /// Not enough entrants for the format.
    #[error("this format needs at least {min} players, got {got}")]
    TooFewPlayers {
        /// The minimum.
        min: usize,
        /// How many were given.
        got: usize,
    },
    /// The same id was entered twice.
    #[error("player {0} is entered twice")]
    DuplicatePlayer(PlayerId),
    /// Settings that cannot work (e.g. more advancers than a group holds).
    #[error("invalid settings: {0}")]
    InvalidSettings(String),
    /// The current round still has games without a result.
    #[error("round {0} is not finished")]
    RoundInProgress(u32),
    /// A tie on a place that may not be shared must be played off first (H8).
    #[error("a tie for place {0} must be played off first")]
    PlayoffPending(u32),
    /// Nothing left to play.
    #[error("the event is finished")]
    Finished,
    /// No such pairing.
    #[error("no pairing {round}.{board}")]
    NoSuchPairing {
        /// Round number.
        round: u32,
        /// Board number.
        board: u32,
    },
    /// No pairing carries this game id.
    #[error("no pairing has game {0}")]
    NoSuchGame(String),
    /// A result was already recorded for this pairing.
    #[error("pairing {round}.{board} already has a result")]
    AlreadyRecorded {
        /// Round number.
        round: u32,
        /// Board number.
        board: u32,
    },
    /// The Swiss pairing found no round without repeat pairings.
    #[error("no pairing without repeats exists for round {0}")]
    NoPairing(u32),
    /// `resolve_tie` was given players who are not exactly a pending tie.
    #[error("those players are not a tie awaiting a play-off")]
    NotATie,
}

/// How single-elimination brackets are filled (H4).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Seeding {
    /// In entry order (seed 1 first); byes to the top seeds.
    Seeded,
    /// By lot from the event's `draw_seed`; the lots then act as seeds.
    Drawn,
}

/// The three-stage event of H5 (三轮赛制).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ThreeStageSettings {
    /// Groups drawn by lot in stage 1.
    #[cfg_attr(feature = "openapi", schema(minimum = 1))]
    pub groups: u32,
    /// Players each group sends to stage 2 (a power of two: knockout inside
    /// the group stops when this many are left; 1 = the group winner).
    #[cfg_attr(feature = "openapi", schema(minimum = 1))]
    pub advance_per_group: u32,
    /// Players in the stage-3 bracket (a power of two), the top of stage 2.
    #[cfg_attr(feature = "openapi", schema(minimum = 2))]
    pub final_bracket_size: u32,
}

/// An event format (H4, H5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Format {
    /// 单循环 (`cycles` 1) or double round robin (2), Berger tables.
    RoundRobin {
        /// 1 or 2.
        #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 2))]
        cycles: u8,
    },
    /// 单淘汰.
    Knockout {
        /// Seeded or drawn bracket.
        seeding: Seeding,
    },
    /// Swiss by the FIDE Dutch system (C.04.3) over a fixed number of rounds.
    Swiss {
        /// Rounds to play.
        #[cfg_attr(feature = "openapi", schema(minimum = 1))]
        rounds: u32,
        /// Baku acceleration (C.04.5.1): the top half gets virtual points in
        /// the first rounds so that the leaders meet sooner.
        #[serde(default)]
        accelerated: bool,
    },
    /// 三轮赛制.
    ThreeStage(ThreeStageSettings),
}

/// The kind of play-off game (H4, H8).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum PlayoffKind {
    /// A drawn game counts as a win for black (black has less time).
    Armageddon,
    /// A drawn game is followed by another play-off with colours reversed.
    Blitz,
}

/// The play-off game an event fixes in advance (H4, H8).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PlayoffSettings {
    /// Armageddon or blitz.
    pub kind: PlayoffKind,
    /// Red's base time.
    pub red_base_ms: u64,
    /// Black's base time.
    pub black_base_ms: u64,
    /// Increment per move.
    pub increment_ms: u64,
}

impl Default for PlayoffSettings {
    /// Armageddon, red 5 minutes, black 4, no increment.
    fn default() -> Self {
        PlayoffSettings {
            kind: PlayoffKind::Armageddon,
            red_base_ms: 5 * 60_000,
            black_base_ms: 4 * 60_000,
            increment_ms: 0,
        }
    }
}

/// What a Swiss bye scores.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ByePoints {
    /// A win's points (FIDE custom).
    Win,
    /// A draw's points.
    Draw,
    /// Nothing.
    Zero,
}

/// Settings an organiser chooses (with defaults per format).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EventSettings {
    /// Points per result (H3).
    pub scoring: ScoringSystem,
    /// Tie-breaks in order (H6).
    pub tie_breaks: Vec<TieBreak>,
    /// The play-off game for drawn knockout games and unshareable ties (H4, H8).
    pub playoff: PlayoffSettings,
    /// The seed for drawing lots (drawn brackets, three-stage groups).
    pub draw_seed: u64,
    /// What a Swiss bye scores. Round-robin byes score nothing.
    pub bye_points: ByePoints,
    /// Places that may not be shared in a round robin or Swiss (H8).
    pub unshareable_places: Vec<u32>,
    /// The cap on a game's total time (X6); the hall enforces it and records
    /// [`GameResult::TimeCapExceeded`].
    pub game_time_cap_ms: Option<u64>,
}

impl EventSettings {
    /// The defaults for `format`: 2/1/0, H6 tie-breaks (Buchholz first for
    /// Swiss), armageddon play-offs, the title (place 1) not shareable.
    pub fn defaults_for(format: &Format) -> EventSettings {
        EventSettings {
            scoring: ScoringSystem::TwoOneZero,
            tie_breaks: match format {
                Format::Swiss { .. } => TieBreak::swiss_defaults(),
                _ => TieBreak::round_robin_defaults(),
            },
            playoff: PlayoffSettings::default(),
            draw_seed: 0,
            bye_points: ByePoints::Win,
            unshareable_places: vec![1],
            game_time_cap_ms: None,
        }
    }
}

/// Where an event stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum EventStatus {
    /// No round paired yet.
    NotStarted,
    /// The current round has games without results.
    InProgress,
    /// A play-off is pending: a drawn knockout game's play-off pairing, or a
    /// tie on a place that may not be shared (see [`Event::playoffs_needed`](super::Event::playoffs_needed)).
    NeedsPlayoff,
    /// The current round is complete; call [`Event::next_round`](super::Event::next_round).
    RoundComplete,
    /// Everything is decided.
    Finished,
}

/// How a round was paired.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum RoundKind {
    /// Berger table.
    RoundRobin,
    /// Swiss pairing.
    Swiss,
    /// Single elimination.
    Knockout,
}

/// One game to play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pairing {
    /// Board number in the round, from 1.
    pub board: u32,
    /// Red.
    pub red: PlayerId,
    /// Black.
    pub black: PlayerId,
    /// The hall's game id, once it has started the game.
    pub game_id: Option<String>,
    /// The result, once known.
    pub result: Option<GameResult>,
    /// Fouls recorded with the result (X8).
    pub fouls: Fouls,
    /// The stage-1 group (three-stage events), from 1.
    pub group: Option<u32>,
    /// For a play-off game: the board whose drawn game it decides.
    pub playoff_of: Option<u32>,
}

/// A round of an event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    /// Round number over the whole event, from 1.
    pub number: u32,
    /// Stage, from 1 (always 1 except in three-stage events).
    pub stage: u8,
    /// How it was paired.
    pub kind: RoundKind,
    /// The games.
    pub pairings: Vec<Pairing>,
    /// Players without a game this round.
    pub byes: Vec<PlayerId>,
}

/// Names a pairing: round number and board number.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PairingRef {
    /// Round number, from 1.
    pub round: u32,
    /// Board number, from 1.
    pub board: u32,
}

/// A pending play-off (H4, H8).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayoffNeed {
    /// The play-off game to play (knockout draws), already paired.
    pub pairing: Option<PairingRef>,
    /// The place to decide (standings ties); settle with [`Event::resolve_tie`](super::Event::resolve_tie).
    pub place: Option<u32>,
    /// Who plays off.
    pub players: Vec<PlayerId>,
    /// The game settings the event fixed.
    pub settings: PlayoffSettings,
}
