//! The event state machine the hall drives (H3-H8).
//!
//! ```text
//! Event::create(format, settings, players)
//! loop {
//!     event.next_round()?                      // pairings for the next round
//!     event.record_result(pairing, result, fouls)?   // once per pending game
//!     // knockout draws add play-off pairings (status NeedsPlayoff): play them too
//! }
//! event.standings()                            // any time
//! ```
//!
//! Everything is data: an `Event` serialises to JSON with its status, rounds
//! (pairings with red, black, game_id and result), fouls and internal plan,
//! and deserialises to continue where it stopped.

use crate::berger::{self, BergerRound};
use crate::dutch;
use crate::knockout::{Lots, seeded_bracket};
use crate::scoring::{Fouls, GameResult, ScoringSystem, Side};
use crate::standings::{
    self, ByeRecord, GameRecord, PlaceTie, Standings, StandingsInput, TieBreak, Unplayed, rank,
};
use crate::{Player, PlayerId};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

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
    /// tie on a place that may not be shared (see [`Event::playoffs_needed`]).
    NeedsPlayoff,
    /// The current round is complete; call [`Event::next_round`].
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
    /// The place to decide (standings ties); settle with [`Event::resolve_tie`].
    pub place: Option<u32>,
    /// Who plays off.
    pub players: Vec<PlayerId>,
    /// The game settings the event fixed.
    pub settings: PlayoffSettings,
}

/// A knockout round's slot: a game on a board, or a player through on a bye.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Slot {
    Game(u32),
    Bye(PlayerId),
}

/// The current stage's pairing state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Plan {
    RoundRobin {
        schedule: Vec<BergerRound>,
        next: usize,
    },
    Knockout {
        /// Per group, the entrants of the round being played, bracket order.
        brackets: Vec<Vec<Option<PlayerId>>>,
        /// Per group, the slots of the round being played.
        slots: Vec<Vec<Slot>>,
        /// Stop when each bracket is down to this many.
        target: usize,
        started: bool,
    },
    Swiss {
        total: u32,
        played: u32,
    },
}

/// A play-off outcome the organiser recorded for a tied place (H8).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct TieResolution {
    stage: u8,
    order: Vec<PlayerId>,
}

/// An event: format, settings, entrants, rounds and results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Event {
    status: EventStatus,
    format: Format,
    settings: EventSettings,
    players: Vec<Player>,
    rounds: Vec<Round>,
    /// Fouls per player over the whole event (X8).
    fouls: BTreeMap<PlayerId, u32>,
    stage: u8,
    /// The entrants of each stage so far, in seeding order.
    fields: Vec<Vec<PlayerId>>,
    plan: Plan,
    resolutions: Vec<TieResolution>,
    /// Ratings the hall gave (FIDE's ARO, the TRF export); none by default.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    ratings: BTreeMap<PlayerId, u32>,
}

fn is_pow2(x: u32) -> bool {
    x.is_power_of_two()
}

impl Event {
    /// Creates an event. `players` are in seeding order (seed 1 first).
    pub fn create(
        format: Format,
        settings: EventSettings,
        players: Vec<Player>,
    ) -> Result<Event, EventError> {
        let n = players.len();
        let mut seen = BTreeSet::new();
        for p in &players {
            if !seen.insert(&p.id) {
                return Err(EventError::DuplicatePlayer(p.id.clone()));
            }
        }
        let min = match &format {
            Format::RoundRobin { .. } => 2,
            Format::Knockout { .. } | Format::Swiss { .. } => 2,
            Format::ThreeStage(t) => {
                (t.groups.saturating_mul(t.advance_per_group.max(1))).max(2) as usize
            }
        };
        if n < min {
            return Err(EventError::TooFewPlayers { min, got: n });
        }
        let invalid = |s: &str| Err(EventError::InvalidSettings(s.to_string()));
        match &format {
            Format::RoundRobin { cycles } if !(1..=2).contains(cycles) => {
                return invalid("a round robin has 1 or 2 cycles");
            }
            Format::Swiss { rounds: 0, .. } => {
                return invalid("a Swiss event needs at least one round");
            }
            Format::ThreeStage(t) => {
                if t.groups == 0 {
                    return invalid("at least one group");
                }
                if !is_pow2(t.advance_per_group) {
                    return invalid(
                        "advancers per group must be a power of two (knockout inside the group)",
                    );
                }
                let smallest = n as u32 / t.groups;
                if smallest < t.advance_per_group {
                    return invalid("a group has fewer players than advance from it");
                }
                let field2 = t.groups.saturating_mul(t.advance_per_group);
                if field2 < 2 {
                    return invalid("stage 2 needs at least two players");
                }
                if !is_pow2(t.final_bracket_size)
                    || t.final_bracket_size < 2
                    || t.final_bracket_size > field2
                {
                    return invalid(
                        "the stage-3 bracket must be a power of two, at least 2, at most the stage-2 field",
                    );
                }
            }
            _ => {}
        }
        let ids: Vec<PlayerId> = players.iter().map(|p| p.id.clone()).collect();
        let (field, plan) = match &format {
            Format::RoundRobin { cycles } => (
                ids.clone(),
                Plan::RoundRobin {
                    schedule: if *cycles == 2 {
                        berger::double(n)
                    } else {
                        berger::single(n)
                    },
                    next: 0,
                },
            ),
            Format::Swiss { rounds, .. } => (
                ids.clone(),
                Plan::Swiss {
                    total: *rounds,
                    played: 0,
                },
            ),
            Format::Knockout { seeding } => {
                let mut order = ids.clone();
                if *seeding == Seeding::Drawn {
                    Lots::new(settings.draw_seed).shuffle(&mut order);
                }
                (order.clone(), knockout_plan(vec![order], 1))
            }
            Format::ThreeStage(t) => {
                // Draw lots, then deal into groups so sizes differ by at most one.
                let mut order = ids.clone();
                Lots::new(settings.draw_seed).shuffle(&mut order);
                let g = t.groups as usize;
                let mut groups = vec![Vec::new(); g];
                for (i, p) in order.into_iter().enumerate() {
                    groups[i % g].push(p);
                }
                let field = groups.concat();
                (field, knockout_plan(groups, t.advance_per_group as usize))
            }
        };
        let mut event = Event {
            status: EventStatus::NotStarted,
            format,
            settings,
            players,
            rounds: Vec::new(),
            fouls: BTreeMap::new(),
            stage: 1,
            fields: vec![field],
            plan,
            resolutions: Vec::new(),
            ratings: BTreeMap::new(),
        };
        event.refresh();
        Ok(event)
    }

    /// The format.
    pub fn format(&self) -> &Format {
        &self.format
    }

    /// The settings.
    pub fn settings(&self) -> &EventSettings {
        &self.settings
    }

    /// The entrants in seeding order.
    pub fn players(&self) -> &[Player] {
        &self.players
    }

    /// All rounds so far.
    pub fn rounds(&self) -> &[Round] {
        &self.rounds
    }

    /// The current stage (1-3; always 1 outside three-stage events).
    pub fn stage(&self) -> u8 {
        self.stage
    }

    /// The entrants of `stage` in seeding order (for three-stage events: stage 1
    /// grouped by lot, stage 2 the advancers, stage 3 the bracket by stage-2 rank).
    pub fn stage_field(&self, stage: u8) -> Option<&[PlayerId]> {
        self.fields
            .get(usize::from(stage).checked_sub(1)?)
            .map(Vec::as_slice)
    }

    /// Records an entrant's rating (for FIDE's ARO and the TRF export).
    pub fn set_rating(&mut self, player: &PlayerId, rating: u32) {
        self.ratings.insert(player.clone(), rating);
    }

    /// The ratings recorded with [`Event::set_rating`].
    pub fn ratings(&self) -> &BTreeMap<PlayerId, u32> {
        &self.ratings
    }

    /// Fouls per player so far (X8).
    pub fn fouls(&self) -> &BTreeMap<PlayerId, u32> {
        &self.fouls
    }

    /// Where the event stands.
    pub fn status(&self) -> EventStatus {
        self.status
    }

    /// The pairings still waiting for a result.
    pub fn pending(&self) -> Vec<PairingRef> {
        self.rounds
            .iter()
            .flat_map(|r| {
                r.pairings
                    .iter()
                    .filter(|p| p.result.is_none())
                    .map(|p| PairingRef {
                        round: r.number,
                        board: p.board,
                    })
            })
            .collect()
    }

    /// A pairing by reference.
    pub fn pairing(&self, at: PairingRef) -> Option<&Pairing> {
        self.round(at.round)?
            .pairings
            .iter()
            .find(|p| p.board == at.board)
    }

    fn round(&self, number: u32) -> Option<&Round> {
        self.rounds.get((number as usize).checked_sub(1)?)
    }

    /// Records the hall's game id for a pairing, so results can be recorded by game.
    pub fn set_game_id(
        &mut self,
        at: PairingRef,
        game_id: impl Into<String>,
    ) -> Result<(), EventError> {
        let p = self.pairing_mut(at)?;
        p.game_id = Some(game_id.into());
        Ok(())
    }

    /// The pairing that plays `game_id`.
    pub fn find_game(&self, game_id: &str) -> Option<PairingRef> {
        self.rounds.iter().find_map(|r| {
            r.pairings
                .iter()
                .find(|p| p.game_id.as_deref() == Some(game_id))
                .map(|p| PairingRef {
                    round: r.number,
                    board: p.board,
                })
        })
    }

    fn pairing_mut(&mut self, at: PairingRef) -> Result<&mut Pairing, EventError> {
        self.rounds
            .get_mut((at.round as usize).wrapping_sub(1))
            .and_then(|r| r.pairings.iter_mut().find(|p| p.board == at.board))
            .ok_or(EventError::NoSuchPairing {
                round: at.round,
                board: at.board,
            })
    }

    /// Records a finished game's result and its fouls (X8). In a knockout
    /// round a drawn (or time-capped) game that leaves the tie undecided adds a
    /// play-off pairing to the round, with colours reversed (H4).
    pub fn record_result(
        &mut self,
        at: PairingRef,
        result: GameResult,
        fouls: Fouls,
    ) -> Result<(), EventError> {
        let p = self.pairing_mut(at)?;
        if p.result.is_some() {
            return Err(EventError::AlreadyRecorded {
                round: at.round,
                board: at.board,
            });
        }
        p.result = Some(result);
        p.fouls = fouls;
        let (red, black) = (p.red.clone(), p.black.clone());
        let base = p.playoff_of.unwrap_or(p.board);
        let group = p.group;
        for (who, n) in [(red.clone(), fouls.red), (black.clone(), fouls.black)] {
            if n > 0 {
                *self.fouls.entry(who).or_insert(0) += n;
            }
        }
        let round = &self.rounds[at.round as usize - 1];
        if round.kind == RoundKind::Knockout && self.ko_winner(round, base).is_none() {
            let board = round.pairings.len() as u32 + 1;
            self.rounds[at.round as usize - 1].pairings.push(Pairing {
                board,
                red: black,
                black: red,
                game_id: None,
                result: None,
                fouls: Fouls::NONE,
                group,
                playoff_of: Some(base),
            });
        }
        self.refresh();
        Ok(())
    }

    /// Records a result by the hall's game id.
    pub fn record_game(
        &mut self,
        game_id: &str,
        result: GameResult,
        fouls: Fouls,
    ) -> Result<(), EventError> {
        let at = self
            .find_game(game_id)
            .ok_or_else(|| EventError::NoSuchGame(game_id.to_string()))?;
        self.record_result(at, result, fouls)
    }

    /// Adds fouls outside any recorded game (X8: fouls are per player per event).
    pub fn add_fouls(&mut self, player: &PlayerId, n: u32) {
        *self.fouls.entry(player.clone()).or_insert(0) += n;
    }

    /// The winner of the knockout tie on `board` (its game and play-offs),
    /// or `None` while undecided.
    fn ko_winner(&self, round: &Round, board: u32) -> Option<PlayerId> {
        let last = round
            .pairings
            .iter()
            .filter(|p| p.board == board || p.playoff_of == Some(board))
            .max_by_key(|p| p.board)?;
        let result = last.result?;
        match result.winner() {
            Some(Side::Red) => Some(last.red.clone()),
            Some(Side::Black) => Some(last.black.clone()),
            // Armageddon: black has draw odds, but only in the play-off game itself.
            None if last.playoff_of.is_some()
                && self.settings.playoff.kind == PlayoffKind::Armageddon =>
            {
                Some(last.black.clone())
            }
            None => None,
        }
    }

    /// Pairs and returns the next round. Errors while the current round has
    /// games (or play-offs) outstanding, while a tie needs a play-off, or when
    /// the event is over.
    pub fn next_round(&mut self) -> Result<&Round, EventError> {
        match self.status {
            EventStatus::Finished => return Err(EventError::Finished),
            EventStatus::InProgress => {
                return Err(EventError::RoundInProgress(self.rounds.len() as u32));
            }
            EventStatus::NeedsPlayoff => {
                return Err(match self.playoffs_needed().first() {
                    Some(PlayoffNeed { place: Some(p), .. }) => EventError::PlayoffPending(*p),
                    _ => EventError::RoundInProgress(self.rounds.len() as u32),
                });
            }
            EventStatus::NotStarted | EventStatus::RoundComplete => {}
        }
        if !self.plan_has_more() {
            self.start_next_stage()?;
        }
        self.pair_round()?;
        self.refresh();
        Ok(self.rounds.last().expect("a round was just paired"))
    }

    fn plan_has_more(&self) -> bool {
        match &self.plan {
            Plan::RoundRobin { schedule, next } => *next < schedule.len(),
            Plan::Swiss { total, played } => played < total,
            Plan::Knockout {
                brackets,
                target,
                started,
                ..
            } => {
                if *started {
                    brackets.iter().any(|b| b.len() / 2 > *target)
                } else {
                    brackets.iter().any(|b| b.len() > *target)
                }
            }
        }
    }

    fn has_next_stage(&self) -> bool {
        matches!(self.format, Format::ThreeStage(_)) && self.stage < 3
    }

    fn start_next_stage(&mut self) -> Result<(), EventError> {
        let Format::ThreeStage(t) = self.format else {
            return Err(EventError::Finished);
        };
        match self.stage {
            1 => {
                self.fold_knockout();
                let Plan::Knockout { brackets, .. } = &self.plan else {
                    unreachable!("stage 1 is a knockout")
                };
                let field: Vec<PlayerId> = brackets.iter().flatten().flatten().cloned().collect();
                self.plan = Plan::RoundRobin {
                    schedule: berger::single(field.len()),
                    next: 0,
                };
                self.fields.push(field);
                self.stage = 2;
            }
            2 => {
                let order = self.stage_standings(2).order();
                let field: Vec<PlayerId> = order
                    .into_iter()
                    .take(t.final_bracket_size as usize)
                    .collect();
                self.plan = knockout_plan(vec![field.clone()], 1);
                self.fields.push(field);
                self.stage = 3;
            }
            _ => return Err(EventError::Finished),
        }
        Ok(())
    }

    /// Replaces each knockout bracket by the winners of the round just played.
    fn fold_knockout(&mut self) {
        let round = self.rounds.last().cloned();
        let Plan::Knockout {
            slots, brackets, ..
        } = &self.plan
        else {
            return;
        };
        let Some(round) = round else { return };
        let next: Vec<Vec<Option<PlayerId>>> = slots
            .iter()
            .map(|group| {
                group
                    .iter()
                    .map(|s| match s {
                        Slot::Bye(p) => Some(p.clone()),
                        Slot::Game(b) => self.ko_winner(&round, *b),
                    })
                    .collect()
            })
            .collect();
        debug_assert_eq!(next.len(), brackets.len());
        if let Plan::Knockout {
            brackets, slots, ..
        } = &mut self.plan
        {
            *brackets = next;
            slots.clear();
        }
    }

    fn pair_round(&mut self) -> Result<(), EventError> {
        let number = self.rounds.len() as u32 + 1;
        let field = self.fields[usize::from(self.stage) - 1].clone();
        let mut round = Round {
            number,
            stage: self.stage,
            kind: RoundKind::RoundRobin,
            pairings: Vec::new(),
            byes: Vec::new(),
        };
        let new = |board: usize, red: &PlayerId, black: &PlayerId, group: Option<u32>| Pairing {
            board: board as u32 + 1,
            red: red.clone(),
            black: black.clone(),
            game_id: None,
            result: None,
            fouls: Fouls::NONE,
            group,
            playoff_of: None,
        };
        let already_started = matches!(self.plan, Plan::Knockout { started: true, .. });
        if already_started {
            self.fold_knockout();
        }
        let reds = self.red_counts();
        let grouped = matches!(self.format, Format::ThreeStage(_)) && self.stage == 1;
        match &mut self.plan {
            Plan::RoundRobin { schedule, next } => {
                let r = &schedule[*next];
                *next += 1;
                round.pairings = r
                    .pairs
                    .iter()
                    .enumerate()
                    .map(|(i, &(a, b))| new(i, &field[a], &field[b], None))
                    .collect();
                round.byes = r.bye.map(|b| field[b].clone()).into_iter().collect();
            }
            Plan::Swiss { played, total } => {
                round.kind = RoundKind::Swiss;
                let accelerated = matches!(
                    self.format,
                    Format::Swiss {
                        accelerated: true,
                        ..
                    }
                );
                let pairing_field = dutch_field(
                    &self.rounds,
                    &field,
                    self.settings.scoring,
                    self.settings.bye_points,
                    *total as usize,
                    accelerated,
                );
                let boards =
                    dutch::pair(&pairing_field).map_err(|_| EventError::NoPairing(number))?;
                *played += 1;
                round.pairings = boards
                    .iter()
                    .filter_map(|b| b.black.map(|black| (b.white, black)))
                    .enumerate()
                    .map(|(i, (a, b))| new(i, &field[a], &field[b], None))
                    .collect();
                round.byes = boards
                    .iter()
                    .filter(|b| b.black.is_none())
                    .map(|b| field[b.white].clone())
                    .collect();
            }
            Plan::Knockout {
                brackets,
                slots,
                started,
                ..
            } => {
                round.kind = RoundKind::Knockout;
                *started = true;
                slots.clear();
                for (g, bracket) in brackets.iter().enumerate() {
                    let group = grouped.then_some(g as u32 + 1);
                    let mut group_slots = Vec::new();
                    for pair in bracket.chunks(2) {
                        match (pair[0].clone(), pair.get(1).cloned().flatten()) {
                            (Some(a), Some(b)) => {
                                // Higher seed (first) is red unless they have had red more often.
                                let (red, black) = if reds.get(&b).copied().unwrap_or(0)
                                    < reds.get(&a).copied().unwrap_or(0)
                                {
                                    (b, a)
                                } else {
                                    (a, b)
                                };
                                let board = round.pairings.len();
                                round.pairings.push(new(board, &red, &black, group));
                                group_slots.push(Slot::Game(board as u32 + 1));
                            }
                            (Some(a), None) | (None, Some(a)) => {
                                round.byes.push(a.clone());
                                group_slots.push(Slot::Bye(a));
                            }
                            (None, None) => {}
                        }
                    }
                    slots.push(group_slots);
                }
            }
        }
        self.rounds.push(round);
        Ok(())
    }

    fn red_counts(&self) -> BTreeMap<PlayerId, u32> {
        let mut m = BTreeMap::new();
        for p in self.rounds.iter().flat_map(|r| &r.pairings) {
            *m.entry(p.red.clone()).or_insert(0) += 1;
        }
        m
    }

    /// Recomputes the status after any change.
    fn refresh(&mut self) {
        let Some(last) = self.rounds.last() else {
            self.status = EventStatus::NotStarted;
            return;
        };
        let open: Vec<&Pairing> = last
            .pairings
            .iter()
            .filter(|p| p.result.is_none())
            .collect();
        self.status = if open.iter().any(|p| p.playoff_of.is_some()) {
            EventStatus::NeedsPlayoff
        } else if !open.is_empty() {
            EventStatus::InProgress
        } else if !self.plan_has_more() && !self.stage_ties().is_empty() {
            EventStatus::NeedsPlayoff
        } else if self.plan_has_more() || self.has_next_stage() {
            EventStatus::RoundComplete
        } else {
            EventStatus::Finished
        };
    }

    /// Unresolved ties on places that may not be shared, for the current stage
    /// once its games are all played: stage 2 of a three-stage event may not
    /// share the cut for stage 3; round robins and Swiss the configured places.
    fn stage_ties(&self) -> Vec<PlaceTie> {
        match (&self.format, self.stage) {
            (Format::ThreeStage(t), 2) => {
                let s = self.stage_standings(2);
                let cut = t.final_bracket_size;
                let mut out = Vec::new();
                let mut i = 0;
                while i < s.rows.len() {
                    let r = s.rows[i].rank;
                    let group: Vec<PlayerId> = s.rows[i..]
                        .iter()
                        .take_while(|x| x.rank == r)
                        .map(|x| x.player.clone())
                        .collect();
                    let size = group.len() as u32;
                    if size > 1 && r <= cut && r + size - 1 > cut {
                        out.push(PlaceTie {
                            place: cut,
                            players: group.clone(),
                        });
                    }
                    i += group.len();
                }
                out
            }
            (Format::RoundRobin { .. } | Format::Swiss { .. }, _) => self.standings().needs_playoff,
            _ => Vec::new(),
        }
    }

    /// Pending play-offs: knockout play-off pairings to play, and tied places
    /// that may not be shared (H8), each with the event's play-off settings.
    pub fn playoffs_needed(&self) -> Vec<PlayoffNeed> {
        let settings = self.settings.playoff;
        let mut out: Vec<PlayoffNeed> = self
            .rounds
            .iter()
            .flat_map(|r| {
                r.pairings
                    .iter()
                    .filter(|p| p.playoff_of.is_some() && p.result.is_none())
                    .map(move |p| PlayoffNeed {
                        pairing: Some(PairingRef {
                            round: r.number,
                            board: p.board,
                        }),
                        place: None,
                        players: vec![p.red.clone(), p.black.clone()],
                        settings,
                    })
            })
            .collect();
        let round_done = self
            .rounds
            .last()
            .is_some_and(|r| r.pairings.iter().all(|p| p.result.is_some()));
        if round_done && !self.plan_has_more() {
            out.extend(self.stage_ties().into_iter().map(|t| PlayoffNeed {
                pairing: None,
                place: Some(t.place),
                players: t.players,
                settings,
            }));
        }
        out
    }

    /// Records the order the play-off games settled for a tied group (H8):
    /// `order` must be exactly the players of one pending tie, best first.
    pub fn resolve_tie(&mut self, order: Vec<PlayerId>) -> Result<(), EventError> {
        let want: BTreeSet<&PlayerId> = order.iter().collect();
        let ok = self.stage_ties().iter().any(|t| {
            let have: BTreeSet<&PlayerId> = t.players.iter().collect();
            have == want && order.len() == t.players.len()
        });
        if !ok {
            return Err(EventError::NotATie);
        }
        self.resolutions.push(TieResolution {
            stage: self.stage,
            order,
        });
        self.refresh();
        Ok(())
    }

    /// The standings of the current stage.
    pub fn standings(&self) -> Standings {
        self.stage_standings(self.stage)
    }

    /// The standings of one stage: round robin and Swiss stages by score and
    /// tie-breaks (H6); knockout stages by how far each player got (players
    /// out in the same round share the place), with the same columns (H9).
    pub fn stage_standings(&self, stage: u8) -> Standings {
        let field = self.stage_field(stage).unwrap_or_default();
        let players: Vec<Player> = field
            .iter()
            .map(|id| {
                self.players
                    .iter()
                    .find(|p| &p.id == id)
                    .cloned()
                    .expect("stage fields hold entrants")
            })
            .collect();
        let rounds: Vec<&Round> = self.rounds.iter().filter(|r| r.stage == stage).collect();
        let games: Vec<GameRecord> = rounds
            .iter()
            .flat_map(|r| r.pairings.iter().map(move |p| (r.number, p)))
            .filter(|(_, p)| p.playoff_of.is_none())
            .filter_map(|(number, p)| {
                Some(GameRecord {
                    red: p.red.clone(),
                    black: p.black.clone(),
                    result: p.result?,
                    round: number,
                })
            })
            .collect();
        let bye_pts = bye_points(self.settings.scoring, self.settings.bye_points);
        // Swiss byes score; round-robin byes score nothing but are still
        // unplayed rounds for FIDE's tie-breaks.
        let byes: Vec<ByeRecord> = rounds
            .iter()
            .filter(|r| r.kind != RoundKind::Knockout)
            .flat_map(|r| {
                let pts = if r.kind == RoundKind::Swiss {
                    bye_pts
                } else {
                    0.0
                };
                r.byes.iter().map(move |b| {
                    ByeRecord::new(b.clone(), pts).in_round(r.number, Unplayed::PairingBye)
                })
            })
            .collect();
        let knockout = rounds.iter().any(|r| r.kind == RoundKind::Knockout)
            || matches!(
                (&self.format, stage),
                (Format::Knockout { .. }, _) | (Format::ThreeStage(_), 1 | 3)
            );
        let unshareable: Vec<u32> = match &self.format {
            Format::RoundRobin { .. } | Format::Swiss { .. } => {
                self.settings.unshareable_places.clone()
            }
            _ => Vec::new(),
        };
        let no_tbs: [TieBreak; 0] = [];
        let mut table = standings::compute(&StandingsInput {
            players: &players,
            games: &games,
            byes: &byes,
            ratings: &self.ratings,
            fouls: &self.fouls,
            scoring: self.settings.scoring,
            tie_breaks: if knockout {
                &no_tbs
            } else {
                &self.settings.tie_breaks
            },
            unshareable: &unshareable,
        });
        if knockout {
            self.rank_by_progress(&mut table, &rounds, &players);
        }
        for res in self.resolutions.iter().filter(|r| r.stage == stage) {
            apply_resolution(&mut table, &res.order);
        }
        table
    }

    fn rank_by_progress(&self, table: &mut Standings, rounds: &[&Round], players: &[Player]) {
        let mut progress: BTreeMap<&PlayerId, f64> = BTreeMap::new();
        for r in rounds {
            for b in &r.byes {
                *progress.entry(b).or_default() += 1.0;
            }
            for p in r.pairings.iter().filter(|p| p.playoff_of.is_none()) {
                if let Some(w) = self.ko_winner(r, p.board) {
                    let w = if w == p.red { &p.red } else { &p.black };
                    *progress.entry(w).or_default() += 1.0;
                }
            }
        }
        let values: Vec<f64> = players
            .iter()
            .map(|p| progress.get(&p.id).copied().unwrap_or(0.0))
            .collect();
        let ranked = rank(players.len(), &[standings::Criterion::Static(values)]);
        let mut rows = Vec::with_capacity(players.len());
        for &i in &ranked.order {
            let mut row = table
                .row(&players[i].id)
                .expect("every player has a row")
                .clone();
            row.rank = ranked.rank[i];
            row.shared = ranked.shared[i];
            row.direct = None;
            rows.push(row);
        }
        table.rows = rows;
        table.tie_breaks.clear();
    }
}

fn apply_resolution(table: &mut Standings, order: &[PlayerId]) {
    let Some(base) = table
        .rows
        .iter()
        .filter(|r| order.contains(&r.player))
        .map(|r| r.rank)
        .min()
    else {
        return;
    };
    for row in table.rows.iter_mut() {
        if let Some(k) = order.iter().position(|p| p == &row.player) {
            row.rank = base + k as u32;
            row.shared = false;
        }
    }
    table.rows.sort_by_key(|r| r.rank);
    table
        .needs_playoff
        .retain(|t| !t.players.iter().all(|p| order.contains(p)));
}

fn bye_points(scoring: ScoringSystem, bye: ByePoints) -> f64 {
    match bye {
        ByePoints::Win => scoring.win(),
        ByePoints::Draw => scoring.draw(),
        ByePoints::Zero => 0.0,
    }
}

fn knockout_plan(groups: Vec<Vec<PlayerId>>, target: usize) -> Plan {
    let brackets = groups
        .into_iter()
        .map(|g| {
            seeded_bracket(g.len())
                .into_iter()
                .map(|s| s.map(|i| g[i].clone()))
                .collect()
        })
        .collect();
    Plan::Knockout {
        brackets,
        slots: Vec::new(),
        target,
        started: false,
    }
}

/// The field as the Dutch pairing sees it before the next Swiss round: every
/// member's games, colours (red plays white's part), results and byes.
fn dutch_field(
    rounds: &[Round],
    field: &[PlayerId],
    scoring: ScoringSystem,
    bye: ByePoints,
    total_rounds: usize,
    accelerated: bool,
) -> dutch::Field {
    let tenths = |p: f64| (p * 10.0).round() as u32;
    let points = dutch::Points {
        win: tenths(scoring.win()),
        draw: tenths(scoring.draw()),
        loss: 0,
        zero_bye: 0,
        forfeit_loss: 0,
        pairing_bye: tenths(bye_points(scoring, bye)),
    };
    let index: BTreeMap<&PlayerId, usize> = field.iter().enumerate().map(|(i, p)| (p, i)).collect();
    let swiss: Vec<&Round> = rounds
        .iter()
        .filter(|r| r.kind == RoundKind::Swiss)
        .collect();
    let mut entrants = vec![dutch::Entrant::default(); field.len()];
    for r in &swiss {
        let mut this = vec![dutch::Match::absent(); field.len()];
        for p in &r.pairings {
            let (Some(&a), Some(&b)) = (index.get(&p.red), index.get(&p.black)) else {
                continue;
            };
            let outcome = |side: Side| match p.result {
                Some(GameResult::Draw) => dutch::Outcome::Draw,
                Some(res) if res.winner() == Some(side) => dutch::Outcome::Win,
                _ => dutch::Outcome::Loss,
            };
            for (me, them, side, colour) in [
                (a, b, Side::Red, dutch::Colour::White),
                (b, a, Side::Black, dutch::Colour::Black),
            ] {
                this[me] = dutch::Match {
                    opponent: Some(them),
                    colour: Some(colour),
                    outcome: outcome(side),
                    played: true,
                    paired: true,
                };
            }
        }
        for b in &r.byes {
            if let Some(&i) = index.get(b) {
                this[i] = dutch::Match {
                    opponent: None,
                    colour: None,
                    outcome: match bye {
                        ByePoints::Win => dutch::Outcome::Win,
                        ByePoints::Draw => dutch::Outcome::Draw,
                        ByePoints::Zero => dutch::Outcome::Loss,
                    },
                    played: false,
                    paired: true,
                };
            }
        }
        for (e, m) in entrants.iter_mut().zip(this) {
            e.matches.push(m);
        }
    }
    if accelerated {
        for (e, a) in entrants.iter_mut().zip(dutch::baku_accelerations(
            field.len(),
            total_rounds,
            &points,
        )) {
            e.accelerations = a;
        }
    }
    dutch::Field {
        entrants,
        played_rounds: swiss.len(),
        total_rounds,
        points,
        initial_colour: dutch::Colour::White,
        forbidden: Vec::new(),
    }
}
