//! Standings of an event (H6) and the ties on places that may not be
//! shared (H8): which play-offs are needed, and how their results reorder
//! the table.

use std::collections::{BTreeMap, BTreeSet};

use super::{
    ByePoints, Event, EventError, Format, PairingRef, PlayoffNeed, Round, RoundKind, TieResolution,
};
use crate::scoring::ScoringSystem;
use crate::standings::{
    self, ByeRecord, GameRecord, PlaceTie, Standings, StandingsInput, TieBreak, Unplayed, rank,
};
use crate::{Player, PlayerId};

impl Event {
    /// Unresolved ties on places that may not be shared, for the current stage
    /// once its games are all played: stage 2 of a three-stage event may not
    /// share the cut for stage 3; round robins and Swiss the configured places.
    pub(super) fn stage_ties(&self) -> Vec<PlaceTie> {
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

/// What a bye scores under the event's scoring.
pub(super) fn bye_points(scoring: ScoringSystem, bye: ByePoints) -> f64 {
    match bye {
        ByePoints::Win => scoring.win(),
        ByePoints::Draw => scoring.draw(),
        ByePoints::Zero => 0.0,
    }
}
