//! Team events (H7), a minimal version: teams are named lists of players
//! (user names or `ai:N`), all of the same size; the teams play a single
//! round robin (Berger tables, one round at a time) and each match is played
//! on as many boards as a team has players, board k pitting the k-th players
//! of both teams against each other (the home team has red on odd boards).
//! Standings follow H7 through `qiyuan_events::team` (match points 2/1/0,
//! then total game points, game wins, direct encounter, fewer team fouls,
//! otherwise a shared place, except the places that may not be shared, which
//! are played off: `playoffs.rs`, H8). With an odd
//! number of teams one team sits out each round and scores nothing for it.
//!
//! Team events live beside the individual ones: stored in the same table
//! (ids start with `t`), driven by the same hook task, so results never race.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::{Arc, RwLock};

use qiyuan_events::team::{self, TeamMatch, TeamTieBreak};
use qiyuan_events::{GameResult, Player, PlayerId, ScoringSystem};
use serde::{Deserialize, Serialize};
use tokio::sync::Mutex;

use crate::clock::wall_ms;
use crate::domain::hall::{ClockSpec, Hall, HallError, HallResult};
use crate::store::{GameRow, SeatRow, User};
use crate::tournaments::events::hooks;
use crate::tournaments::events::{game_fouls, game_result};
use crate::tournaments::views::{
    BoardView, ClockView, EventLine, Invitation, InvitationKind, TeamEventList, TeamEventState,
    TeamEventSummary, TeamEventView, TeamMatchView, TeamPlaceTie, TeamPlayoffView, TeamRoundView,
    TeamStandingRow, TeamStandings, TeamView, TieBreakName,
};

pub use crate::limits::{MAX_BOARDS, MAX_TEAMS};

mod playoffs;
use crate::error::ErrorCode;
use playoffs::Playoff;

/// Team events in memory, by id, and which team event each game belongs to.
#[derive(Default)]
pub struct TeamEvents {
    events: RwLock<HashMap<String, Arc<Mutex<TeamEvent>>>>,
    games: std::sync::Mutex<HashMap<String, String>>,
}

impl TeamEvents {
    fn get(&self, id: &str) -> Option<Arc<Mutex<TeamEvent>>> {
        self.events
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .cloned()
    }

    fn insert(&self, te: TeamEvent) {
        self.events
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(te.id.clone(), Arc::new(Mutex::new(te)));
    }

    fn link(&self, game: &str, event: &str) {
        self.games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(game.to_string(), event.to_string());
    }

    pub(crate) fn event_of_game(&self, game: &str) -> Option<String> {
        self.games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(game)
            .cloned()
    }
}

/// A member of a team: the name shown and the seat it takes.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Member {
    name: String,
    seat: SeatRow,
}

/// A team as stored.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Team {
    name: String,
    members: Vec<Member>,
}

/// One board of a match.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Board {
    /// Whether the home team's player has red.
    home_red: bool,
    game_id: Option<String>,
    /// The game's result (red/black, as played).
    result: Option<GameResult>,
    /// Fouls (X8) of the home and the away player.
    fouls: (u32, u32),
}

/// One match of a round: team indices and boards.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Match {
    home: usize,
    away: usize,
    boards: Vec<Board>,
}

/// A round: its matches and the team sitting out.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Round {
    matches: Vec<Match>,
    bye: Option<usize>,
}

/// A team event as the hall keeps it.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct TeamEvent {
    id: String,
    name: String,
    game: String,
    initial_s: i64,
    increment_s: i64,
    organiser: String,
    /// Waiting for the people named to accept, running, finished,
    /// declined (someone turned the invitation down) or stopped by an error.
    status: TeamEventState,
    error: Option<String>,
    teams: Vec<Team>,
    /// Users named by the organiser who have not accepted yet; the event
    /// starts when none is left.
    #[serde(default)]
    invited: BTreeSet<i64>,
    /// Every round of the Berger table; games start one round at a time.
    rounds: Vec<Round>,
    /// Places that may not be shared (H8): decided by play-offs.
    #[serde(default = "title_only")]
    unshareable: Vec<u32>,
    /// The play-offs played or under way, in order.
    #[serde(default)]
    playoffs: Vec<Playoff>,
    created_ms: i64,
}

fn title_only() -> Vec<u32> {
    vec![1]
}

/// One team in `POST /api/team-events`.
#[derive(Deserialize, Debug, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewTeam {
    /// The team's name: 1 to 64 characters after trimming; unique in the event.
    #[schema(min_length = 1, max_length = 64)]
    name: String,
    /// Players in board order: user names or `ai:N`.
    #[schema(min_items = 1, max_items = 8)]
    players: Vec<String>,
}

/// `POST /api/team-events`: the event starts at once. (The served document
/// lists the registered two-seat variants for `game`.)
#[derive(Deserialize, Debug, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewTeamEvent {
    /// Shown in lists.
    #[serde(default)]
    #[schema(max_length = 100)]
    name: Option<String>,
    /// Rule set of every game (a two-seat variant; others are refused with
    /// `not_two_seats`).
    game: String,
    /// Clock of every game (default 10 minutes, no increment).
    #[serde(default)]
    clock: Option<ClockSpec>,
    /// 2 to 16 teams, all with the same number of players (1 to 8).
    #[schema(min_items = 2, max_items = 16)]
    teams: Vec<NewTeam>,
}

/// The board result from the home team's side (`RedWins`: home won).
fn home_result(b: &Board) -> Option<GameResult> {
    let r = b.result?;
    Some(match (r, b.home_red) {
        (GameResult::RedWins, false) => GameResult::BlackWins,
        (GameResult::BlackWins, false) => GameResult::RedWins,
        (r, _) => r,
    })
}

impl TeamEvent {
    fn team_player(&self, i: usize) -> Player {
        Player::new(format!("team:{i}").as_str(), self.teams[i].name.as_str())
    }

    fn standings(&self) -> team::TeamStandings {
        let teams: Vec<Player> = (0..self.teams.len()).map(|i| self.team_player(i)).collect();
        let mut matches = Vec::new();
        let mut fouls: BTreeMap<PlayerId, u32> = BTreeMap::new();
        for r in &self.rounds {
            for m in &r.matches {
                for b in &m.boards {
                    *fouls.entry(teams[m.home].id.clone()).or_default() += b.fouls.0;
                    *fouls.entry(teams[m.away].id.clone()).or_default() += b.fouls.1;
                }
                let boards: Option<Vec<GameResult>> = m.boards.iter().map(home_result).collect();
                if let Some(boards) = boards {
                    matches.push(TeamMatch {
                        home: teams[m.home].id.clone(),
                        away: teams[m.away].id.clone(),
                        boards,
                    });
                }
            }
        }
        let mut table = team::compute(
            &teams,
            &matches,
            &fouls,
            ScoringSystem::TwoOneZero,
            ScoringSystem::TwoOneZero,
            &TeamTieBreak::defaults(),
            &self.unshareable,
        );
        for p in &self.playoffs {
            if let Some(order) = &p.order {
                let ids: Vec<PlayerId> = order.iter().map(|&t| teams[t].id.clone()).collect();
                table.settle(&ids);
            }
        }
        table
    }

    /// Every board, of the round robin and of the play-offs.
    fn boards_mut(&mut self) -> impl Iterator<Item = &mut Board> {
        self.rounds
            .iter_mut()
            .chain(self.playoffs.iter_mut().flat_map(|p| p.rounds.iter_mut()))
            .flat_map(|r| r.matches.iter_mut())
            .flat_map(|m| m.boards.iter_mut())
    }

    fn team_name(&self, i: usize) -> Option<String> {
        self.teams.get(i).map(|t| t.name.clone())
    }

    fn clock(&self) -> ClockView {
        ClockView {
            initial_s: self.initial_s,
            increment_s: self.increment_s,
        }
    }

    fn round_view(&self, number: usize, r: &Round) -> TeamRoundView {
        TeamRoundView {
            number,
            bye: r.bye.and_then(|i| self.team_name(i)),
            matches: r
                .matches
                .iter()
                .map(|m| TeamMatchView {
                    home: self.team_name(m.home),
                    away: self.team_name(m.away),
                    boards: m
                        .boards
                        .iter()
                        .enumerate()
                        .map(|(k, b)| {
                            let (hp, ap) = (
                                &self.teams[m.home].members[k].name,
                                &self.teams[m.away].members[k].name,
                            );
                            let (red, black) = if b.home_red { (hp, ap) } else { (ap, hp) };
                            BoardView {
                                board: k + 1,
                                red: red.clone(),
                                black: black.clone(),
                                game_id: b.game_id.clone(),
                                result: b.result,
                            }
                        })
                        .collect(),
                })
                .collect(),
        }
    }

    fn round_views(&self, rounds: &[Round]) -> Vec<TeamRoundView> {
        rounds
            .iter()
            .enumerate()
            .map(|(n, r)| self.round_view(n + 1, r))
            .collect()
    }

    /// The event as `GET /api/team-events/{id}` shows it.
    fn view(&self) -> TeamEventView {
        let names = |ts: &[usize]| ts.iter().map(|&t| self.team_name(t)).collect();
        let playoffs = self
            .playoffs
            .iter()
            .map(|p| TeamPlayoffView {
                place: p.place,
                teams: names(&p.teams),
                order: p.order.as_deref().map(names),
                rounds: self.round_views(&p.rounds),
            })
            .collect();
        let invited = self
            .teams
            .iter()
            .flat_map(|t| &t.members)
            .filter(|m| matches!(&m.seat, SeatRow::User { id, .. } if self.invited.contains(id)))
            .map(|m| m.name.clone())
            .collect();
        TeamEventView {
            id: self.id.clone(),
            name: self.name.clone(),
            game: self.game.clone(),
            clock: self.clock(),
            organiser: self.organiser.clone(),
            status: self.status,
            error: self.error.clone(),
            invited,
            teams: self
                .teams
                .iter()
                .map(|t| TeamView {
                    name: t.name.clone(),
                    players: t.members.iter().map(|m| m.name.clone()).collect(),
                })
                .collect(),
            rounds: self.round_views(&self.rounds),
            playoffs,
        }
    }

    /// Moves the event on: starts the games of the first round robin round
    /// not finished; after the last one, the play-offs for places that may
    /// not be shared (H8); marks the event finished when nothing is left.
    async fn drive(&mut self, hall: &Arc<Hall>) {
        if self.status != TeamEventState::Running {
            return;
        }
        let unfinished = |r: &Round| {
            r.matches
                .iter()
                .any(|m| m.boards.iter().any(|b| b.result.is_none()))
        };
        if let Some(r) = self.rounds.iter().position(unfinished) {
            let clocks = vec![self.initial_s * 1000; 2];
            self.start_round(hall, None, r, clocks, self.increment_s * 1000)
                .await;
            return;
        }
        let boards = self.teams.first().map_or(0, |t| t.members.len());
        loop {
            if let Some(pi) = self.playoffs.iter().position(|p| p.order.is_none()) {
                self.playoffs[pi].decide(boards);
                if self.playoffs[pi].order.is_some() {
                    continue;
                }
                let Some(r) = self.playoffs[pi].rounds.iter().position(unfinished) else {
                    return;
                };
                let c = playoffs::clock();
                let clocks = vec![c.red_base_ms as i64, c.black_base_ms as i64];
                self.start_round(hall, Some(pi), r, clocks, c.increment_ms as i64)
                    .await;
                return;
            }
            let table = self.standings();
            let Some(tie) = table.needs_playoff.first() else {
                break;
            };
            let teams: Vec<usize> = tie
                .players
                .iter()
                .filter_map(|p| p.0.strip_prefix("team:")?.parse().ok())
                .collect();
            if teams.len() < 2 || self.playoffs.iter().any(|p| p.place == tie.place) {
                tracing::error!(event = %self.id, place = tie.place, "a play-off did not settle its place");
                break;
            }
            self.playoffs.push(Playoff::new(tie.place, teams, boards));
        }
        self.status = TeamEventState::Finished;
    }

    /// Starts the games of one round (of the round robin, or of play-off
    /// `playoff`) that have not started yet, with these clocks.
    async fn start_round(
        &mut self,
        hall: &Arc<Hall>,
        playoff: Option<usize>,
        r: usize,
        clocks: Vec<i64>,
        increment_ms: i64,
    ) {
        let round = match playoff {
            Some(p) => &self.playoffs[p].rounds[r],
            None => &self.rounds[r],
        };
        let mut todo = Vec::new();
        for (mi, m) in round.matches.iter().enumerate() {
            for (k, b) in m.boards.iter().enumerate() {
                if b.game_id.is_some() {
                    continue;
                }
                let (h, a) = (
                    self.teams[m.home].members[k].seat.clone(),
                    self.teams[m.away].members[k].seat.clone(),
                );
                todo.push((mi, k, if b.home_red { vec![h, a] } else { vec![a, h] }));
            }
        }
        for (mi, k, seats) in todo {
            let started = hall
                .start_seated_game(&self.game, None, clocks.clone(), increment_ms, seats, false)
                .await;
            match started {
                Ok(gid) => {
                    hooks(hall).teams.link(&gid, &self.id);
                    let round = match playoff {
                        Some(p) => &mut self.playoffs[p].rounds[r],
                        None => &mut self.rounds[r],
                    };
                    round.matches[mi].boards[k].game_id = Some(gid);
                }
                Err(e) => {
                    self.status = TeamEventState::Error;
                    self.error = Some(format!("cannot start a game: {}", e.message));
                    return;
                }
            }
        }
    }
}

async fn save(hall: &Hall, te: &TeamEvent) {
    match serde_json::to_string(te) {
        Ok(data) => {
            if let Err(e) = hall
                .store
                .save_event(&te.id, te.status.as_str(), &data)
                .await
            {
                tracing::error!(event = %te.id, error = %e, "cannot store a team event");
            }
        }
        Err(e) => tracing::error!(event = %te.id, error = %e, "cannot encode a team event"),
    }
    hall.bus.publish(
        &format!("event:{}", te.id),
        Arc::from(EventLine::TeamEvent(Box::new(te.view())).to_text()),
    );
}

/// Whether a stored event id is a team event's.
pub fn is_team_event_id(id: &str) -> bool {
    id.starts_with('t')
}

/// Records a finished game of a team event and moves the event on. False if
/// the game belongs to no team event. Runs on the hook task.
pub async fn game_over(hall: &Arc<Hall>, row: &GameRow) -> bool {
    let Some(eid) = hooks(hall).teams.event_of_game(&row.id) else {
        return false;
    };
    let Some(e) = hooks(hall).teams.get(&eid) else {
        return true;
    };
    let Some(result) = game_result(hall, row, false) else {
        return true;
    };
    let fouls = game_fouls(hall, &row.id).await;
    let mut te = e.lock().await;
    for b in te.boards_mut() {
        if b.game_id.as_deref() == Some(row.id.as_str()) && b.result.is_none() {
            b.result = Some(result);
            b.fouls = if b.home_red {
                (fouls.red, fouls.black)
            } else {
                (fouls.black, fouls.red)
            };
        }
    }
    te.drive(hall).await;
    save(hall, &te).await;
    true
}

/// Loads a stored team event at start; a running one picks up games that
/// ended while the hall was down (their results are recorded as they are
/// found) and carries on.
pub async fn resume_one(hall: &Arc<Hall>, id: &str, data: &str) -> bool {
    let mut te: TeamEvent = match serde_json::from_str(data) {
        Ok(t) => t,
        Err(e) => {
            tracing::error!(event = %id, error = %e, "cannot load a team event");
            return false;
        }
    };
    let mut ended = Vec::new();
    for b in te.boards_mut() {
        if let Some(g) = &b.game_id {
            hooks(hall).teams.link(g, id);
            if b.result.is_none() {
                ended.push(g.clone());
            }
        }
    }
    hooks(hall).teams.insert(te);
    for g in ended {
        if let Ok(row) = hall.game_row(&g).await
            && row.status == "finished"
        {
            hooks(hall).game_over(&g);
        }
    }
    true
}

fn new_id() -> String {
    use rand::Rng;
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let mut rng = rand::rng();
    let s: String = (0..8)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect();
    format!("t{s}")
}

async fn member(hall: &Hall, who: &str) -> HallResult<Member> {
    if let Some(n) = who.strip_prefix("ai:") {
        let level = crate::tournaments::events::entrant_ai_level(who, n)?;
        return Ok(Member {
            name: who.to_string(),
            seat: SeatRow::Ai { level },
        });
    }
    let user = crate::tournaments::events::entrant_user(hall, who).await?;
    Ok(Member {
        name: user.username.clone(),
        seat: SeatRow::user(&user),
    })
}

/// `POST /api/team-events`: creates a team event and starts round 1.
pub async fn create(hall: &Arc<Hall>, user: &User, req: NewTeamEvent) -> HallResult<TeamEventView> {
    crate::limits::check_len("teams", req.teams.len(), MAX_TEAMS)?;
    for t in &req.teams {
        crate::limits::check_len("teams[].players", t.players.len(), MAX_BOARDS)?;
    }
    hall.games.event_variant(&req.game)?;
    hall.games
        .new_table(&req.game, &qiyuan_core::Options::new(), None)?;
    let clock = req.clock.unwrap_or(ClockSpec {
        initial_s: 600,
        increment_s: 0,
    });
    clock.check()?;
    let ai_members = req
        .teams
        .iter()
        .flat_map(|t| &t.players)
        .filter(|p| p.starts_with("ai:"))
        .count();
    crate::tournaments::events::check_ai_budget(hall, user, ai_members).await?;
    let name = req
        .name
        .unwrap_or_else(|| format!("{} team event", req.game));
    if name.chars().count() > crate::limits::MAX_NAME_CHARS {
        return Err(HallError::range(
            format!("name: at most {} characters", crate::limits::MAX_NAME_CHARS),
            "name",
            1,
            crate::limits::MAX_NAME_CHARS as i64,
        ));
    }
    if !(2..=MAX_TEAMS).contains(&req.teams.len()) {
        return Err(HallError::bad(format!("2 to {MAX_TEAMS} teams")));
    }
    let size = req.teams[0].players.len();
    if !(1..=MAX_BOARDS).contains(&size) {
        return Err(HallError::bad(format!(
            "a team has 1 to {MAX_BOARDS} players"
        )));
    }
    let mut teams: Vec<Team> = Vec::with_capacity(req.teams.len());
    let mut seen = std::collections::HashSet::new();
    for t in &req.teams {
        let tn = t.name.trim();
        if tn.is_empty() || tn.chars().count() > 64 {
            return Err(HallError::bad("a team name has 1 to 64 characters"));
        }
        if teams.iter().any(|o| o.name == tn) {
            return Err(HallError::bad(format!("two teams are named '{tn}'")));
        }
        if t.players.len() != size {
            return Err(HallError::bad(format!(
                "every team has the same number of players ({size})"
            )));
        }
        let mut members = Vec::with_capacity(size);
        for p in &t.players {
            if !seen.insert(p.clone()) {
                return Err(HallError::bad(format!("'{p}' is entered twice")));
            }
            members.push(member(hall, p).await?);
        }
        teams.push(Team {
            name: tn.to_string(),
            members,
        });
    }
    let rounds = qiyuan_events::berger::single(teams.len())
        .into_iter()
        .map(|br| Round {
            matches: br
                .pairs
                .iter()
                .map(|&(home, away)| Match {
                    home,
                    away,
                    boards: (0..size)
                        .map(|k| Board {
                            home_red: k % 2 == 0,
                            game_id: None,
                            result: None,
                            fouls: (0, 0),
                        })
                        .collect(),
                })
                .collect(),
            bye: br.bye,
        })
        .collect();
    // People named (other than the organiser) must accept first.
    let invited: BTreeSet<i64> = teams
        .iter()
        .flat_map(|t| &t.members)
        .filter_map(|m| match m.seat {
            SeatRow::User { id, .. } if id != user.id => Some(id),
            _ => None,
        })
        .collect();
    let te = TeamEvent {
        id: new_id(),
        name,
        game: req.game,
        initial_s: clock.initial_s,
        increment_s: clock.increment_s,
        organiser: user.username.clone(),
        status: if invited.is_empty() {
            TeamEventState::Running
        } else {
            TeamEventState::Invited
        },
        error: None,
        teams,
        invited,
        rounds,
        unshareable: title_only(),
        playoffs: Vec::new(),
        created_ms: wall_ms(),
    };
    // In the map before any game starts, so a game ending at once finds it.
    let id = te.id.clone();
    hooks(hall).teams.insert(te);
    let e = find(hall, &id)?;
    let mut te = e.lock().await;
    te.drive(hall).await;
    save(hall, &te).await;
    Ok(te.view())
}

/// `POST /api/team-events/{id}/accept` or `/decline`: answers an
/// invitation. The event starts once everyone named has accepted; one
/// refusal cancels it (teams must stay complete).
pub async fn answer(
    hall: &Arc<Hall>,
    id: &str,
    user: &User,
    accept: bool,
) -> HallResult<TeamEventView> {
    let e = find(hall, id)?;
    let mut te = e.lock().await;
    if te.status != TeamEventState::Invited || !te.invited.remove(&user.id) {
        return Err(
            HallError::conflict("you have no open invitation to this team event")
                .with_code(ErrorCode::NotInvited),
        );
    }
    if !accept {
        te.status = TeamEventState::Declined;
        te.error = Some(format!("{} declined the invitation", user.username));
    } else if te.invited.is_empty() {
        te.status = TeamEventState::Running;
        te.drive(hall).await;
    }
    save(hall, &te).await;
    Ok(te.view())
}

/// Team events organised by `name` with AI members that are not over.
pub(crate) async fn unfinished_ai_events_of(hall: &Hall, name: &str) -> usize {
    crate::tournaments::events::collect_from(&hooks(hall).teams.events, |te: &TeamEvent| {
        let has_ai = te
            .teams
            .iter()
            .flat_map(|t| &t.members)
            .any(|m| matches!(m.seat, SeatRow::Ai { .. }));
        (te.organiser == name
            && has_ai
            && matches!(te.status, TeamEventState::Invited | TeamEventState::Running))
        .then_some(())
    })
    .await
    .len()
}

/// Team events that invite user `id` and wait for an answer.
pub(crate) async fn invitations_of(hall: &Hall, id: i64) -> Vec<Invitation> {
    crate::tournaments::events::collect_from(&hooks(hall).teams.events, |te: &TeamEvent| {
        (te.status == TeamEventState::Invited && te.invited.contains(&id)).then(|| Invitation {
            kind: InvitationKind::TeamEvent,
            id: te.id.clone(),
            name: te.name.clone(),
            game: te.game.clone(),
            organiser: Some(te.organiser.clone()),
            rated: false,
            clock: te.clock(),
        })
    })
    .await
}

fn find(hall: &Hall, id: &str) -> HallResult<Arc<Mutex<TeamEvent>>> {
    hooks(hall)
        .teams
        .get(id)
        .ok_or_else(|| HallError::not_found(format!("no team event '{}'", crate::error::shown(id))))
}

/// `GET /api/team-events`: every team event, running ones first, then by name.
pub async fn list(hall: &Hall) -> TeamEventList {
    let mut out =
        crate::tournaments::events::collect_from(&hooks(hall).teams.events, |te: &TeamEvent| {
            Some(TeamEventSummary {
                id: te.id.clone(),
                name: te.name.clone(),
                game: te.game.clone(),
                status: te.status,
                organiser: te.organiser.clone(),
                teams: te.teams.len(),
                boards: te.teams.first().map_or(0, |t| t.members.len()),
            })
        })
        .await;
    let order = |v: &TeamEventSummary| match v.status {
        TeamEventState::Running => 0,
        TeamEventState::Invited => 1,
        _ => 2,
    };
    out.sort_by(|a, b| {
        order(a)
            .cmp(&order(b))
            .then_with(|| a.name.cmp(&b.name))
            .then_with(|| a.id.cmp(&b.id))
    });
    TeamEventList { team_events: out }
}

/// `GET /api/team-events/{id}`.
pub async fn get(hall: &Hall, id: &str) -> HallResult<TeamEventView> {
    Ok(find(hall, id)?.lock().await.view())
}

/// `GET /api/team-events/{id}/standings.csv` (H9).
pub async fn standings_csv(hall: &Hall, id: &str) -> HallResult<String> {
    Ok(find(hall, id)?.lock().await.standings().to_csv())
}

/// `GET /api/team-events/{id}/standings`: team standings with every H7
/// tie-break column (H9).
pub async fn standings(hall: &Hall, id: &str) -> HallResult<TeamStandings> {
    let te = find(hall, id)?;
    let te = te.lock().await;
    let s = te.standings();
    let name_of = |p: &PlayerId| {
        p.0.strip_prefix("team:")
            .and_then(|i| i.parse::<usize>().ok())
            .and_then(|i| te.team_name(i))
    };
    let needs_playoff = s
        .needs_playoff
        .iter()
        .map(|t| TeamPlaceTie {
            place: t.place,
            teams: t.players.iter().map(name_of).collect(),
        })
        .collect();
    let rows = s
        .rows
        .into_iter()
        .map(|r| TeamStandingRow {
            rank: r.rank,
            shared: r.shared,
            name: r.name,
            match_points: r.match_points,
            game_points: r.game_points,
            game_wins: r.game_wins,
            direct: r.direct,
            fouls: r.fouls,
        })
        .collect();
    let tie_breaks = s
        .tie_breaks
        .iter()
        .map(|&t| TieBreakName {
            name: t,
            chinese: t.chinese(),
            fide: t.fide(),
        })
        .collect();
    Ok(TeamStandings {
        tie_breaks,
        rows,
        needs_playoff,
    })
}
