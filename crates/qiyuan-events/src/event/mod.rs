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
use crate::{Player, PlayerId};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

mod ranking;
mod settings;

use ranking::bye_points;
pub use settings::{
    ByePoints, EventError, EventSettings, EventStatus, Format, Pairing, PairingRef, PlayoffKind,
    PlayoffNeed, PlayoffSettings, Round, RoundKind, Seeding, ThreeStageSettings,
};

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
