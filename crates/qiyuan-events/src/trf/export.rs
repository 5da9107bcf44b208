//! An event as a TRF file, and a TRF file as a standings table.
//!
//! Red is white (red moves first). Only complete rounds are exported: TRF
//! records results, and has no code for a game paired but not finished.
//! Knockout play-off games are left out (TRF has one game per player per
//! round; the standings leave them out too). A time-capped game (X6, both
//! score nothing) is written as a loss on both lines.
//!
//! Team events are not exported: TRF's team lines (`013`, `310`) are not
//! read by bbpPairings ("team tournaments are not supported"), and
//! qiyuan's team matches record board results from the home team's side
//! without each board's colours, which a player line needs.

use super::{Colour, Line, PointSystem, Trf, TrfPlayer, TrfResult, TrfRound};
use crate::event::{ByePoints, Event, Format};
use crate::scoring::{GameResult, Side};
use crate::standings::{
    self, ByeRecord, GamePoints, GameRecord, Standings, StandingsInput, TieBreak, Unplayed,
};
use crate::{Player, PlayerId};
use std::collections::BTreeMap;

/// Tenths for points in a [`crate::ScoringSystem`] (halves and wholes).
fn to_tenths(points: f64) -> u32 {
    (points * 10.0).round().max(0.0) as u32
}

/// The event's result for the player on `side`.
fn result_for(result: GameResult, side: Side) -> TrfResult {
    match result {
        GameResult::Draw => TrfResult::Draw,
        GameResult::TimeCapExceeded => TrfResult::Loss,
        r if r.winner() == Some(side) => TrfResult::Win,
        _ => TrfResult::Loss,
    }
}

/// The event as a TRF file: a `012` line with `title`, one `001` line per
/// entrant (start numbers in seeding order, ratings where the hall set
/// them), then `XXR` (Swiss and round robin), `XXC` and the `BBx` lines the
/// event's scoring needs. Byes are pairing-allocated (`U`), worth the Swiss
/// bye points (nothing in other formats). Points are recounted from the
/// exported rounds; ranks follow the event's standings.
pub fn event_to_trf(event: &Event, title: &str) -> Trf {
    let players = event.players();
    let start: BTreeMap<&PlayerId, u32> = players
        .iter()
        .enumerate()
        .map(|(i, p)| (&p.id, i as u32 + 1))
        .collect();
    let settings = event.settings();
    let win = to_tenths(settings.scoring.win());
    let swiss = matches!(event.format(), Format::Swiss { .. });
    let pairing_bye = if swiss {
        match settings.bye_points {
            ByePoints::Win => win,
            ByePoints::Draw => to_tenths(settings.scoring.draw()),
            ByePoints::Zero => 0,
        }
    } else {
        0
    };
    let points = PointSystem {
        win,
        draw: to_tenths(settings.scoring.draw()),
        loss: 0,
        zero_bye: 0,
        forfeit_loss: 0,
        pairing_bye,
    };
    let complete: Vec<_> = event
        .rounds()
        .iter()
        .take_while(|r| {
            r.pairings
                .iter()
                .filter(|p| p.playoff_of.is_none())
                .all(|p| p.result.is_some())
        })
        .collect();
    let mut rounds: Vec<Vec<TrfRound>> =
        vec![vec![TrfRound::bye(TrfResult::Absent); complete.len()]; players.len()];
    for (k, round) in complete.iter().enumerate() {
        for p in round.pairings.iter().filter(|p| p.playoff_of.is_none()) {
            let (Some(&red), Some(&black), Some(result)) =
                (start.get(&p.red), start.get(&p.black), p.result)
            else {
                continue;
            };
            rounds[red as usize - 1][k] = TrfRound {
                opponent: Some(black),
                colour: Some(Colour::White),
                result: result_for(result, Side::Red),
            };
            rounds[black as usize - 1][k] = TrfRound {
                opponent: Some(red),
                colour: Some(Colour::Black),
                result: result_for(result, Side::Black),
            };
        }
        for b in &round.byes {
            if let Some(&s) = start.get(b) {
                rounds[s as usize - 1][k] = TrfRound::bye(TrfResult::PairingBye);
            }
        }
    }
    // Ranks: the standings' order, then anyone not in them (other stages).
    let table = event.standings();
    let mut rank: BTreeMap<&PlayerId, u32> = BTreeMap::new();
    for (i, row) in table.rows.iter().enumerate() {
        rank.insert(&row.player, i as u32 + 1);
    }
    let mut trf_players: Vec<TrfPlayer> = players
        .iter()
        .zip(rounds)
        .enumerate()
        .map(|(i, (p, rounds))| {
            let pts = rounds.iter().map(|r| points.points(r)).sum();
            // Trailing absences are not written.
            let mut rounds = rounds;
            while rounds.last().is_some_and(|r| r.result == TrfResult::Absent) {
                rounds.pop();
            }
            TrfPlayer {
                start: i as u32 + 1,
                name: p.name.clone(),
                rating: event.ratings().get(&p.id).copied().unwrap_or(0).min(9999),
                points_tenths: pts,
                rank: rank.get(&p.id).copied().unwrap_or(0),
                rounds,
                ..TrfPlayer::default()
            }
        })
        .collect();
    let mut next = rank.len() as u32;
    let mut unranked: Vec<usize> = (0..trf_players.len())
        .filter(|&i| trf_players[i].rank == 0)
        .collect();
    unranked.sort_by_key(|&i| std::cmp::Reverse(trf_players[i].points_tenths));
    for i in unranked {
        next += 1;
        trf_players[i].rank = next;
    }
    let n = players.len() as u32;
    let total_rounds = match event.format() {
        Format::Swiss { rounds, .. } => Some(*rounds),
        Format::RoundRobin { cycles } => Some(
            (if n.is_multiple_of(2) {
                n.saturating_sub(1)
            } else {
                n
            }) * u32::from(*cycles),
        ),
        _ => None,
    }
    .map(|r| r.clamp(1, super::MAX_ROUNDS));
    let initial_colour = trf_players
        .first()
        .and_then(|p| p.rounds.first())
        .filter(|r| r.opponent.is_some())
        .and_then(|r| r.colour);
    let name = title.replace(['\r', '\n'], " ");
    let mut layout = vec![Line::Other(format!("012 {name}").trim_end().to_string())];
    layout.extend(trf_players.iter().map(|p| Line::Player(p.start)));
    Trf {
        players: trf_players,
        total_rounds,
        initial_colour,
        points,
        accelerations: Vec::new(),
        forbidden: Vec::new(),
        announced_byes: Vec::new(),
        line_ending: super::LineEnding::Lf,
        final_newline: true,
        layout,
        as_read: super::AsRead::default(),
    }
}

/// A TRF file as a standings table: players by start number (ids are the
/// start numbers as text), the file's point system, byes and forfeits as
/// unplayed rounds, ratings for ARO, and the given tie-breaks.
pub fn trf_standings(trf: &Trf, tie_breaks: &[TieBreak]) -> Standings {
    let players: Vec<Player> = trf
        .players
        .iter()
        .map(|p| Player::new(p.start.to_string(), p.name.clone()))
        .collect();
    let ps = trf.points;
    let tenth = |v: u32| f64::from(v) / 10.0;
    let mut games = Vec::new();
    let mut byes = Vec::new();
    for p in &trf.players {
        for (i, r) in p.rounds.iter().enumerate() {
            let round = i as u32 + 1;
            let me = PlayerId(p.start.to_string());
            if r.is_game() {
                // Each game once, from white's line.
                let (Some(o), Some(Colour::White)) = (r.opponent, r.colour) else {
                    continue;
                };
                let result = match r.result {
                    TrfResult::Win | TrfResult::UnratedWin => GameResult::RedWins,
                    TrfResult::Loss | TrfResult::UnratedLoss => GameResult::BlackWins,
                    _ => GameResult::Draw,
                };
                games.push(GameRecord::new(me, o.to_string(), result).in_round(round));
                continue;
            }
            let kind = match r.result {
                TrfResult::ForfeitWin if r.opponent.is_some() => Unplayed::ForfeitWin,
                TrfResult::ForfeitWin | TrfResult::PairingBye => Unplayed::PairingBye,
                TrfResult::ForfeitLoss if r.opponent.is_some() => Unplayed::ForfeitLoss,
                TrfResult::HalfBye | TrfResult::Draw | TrfResult::UnratedDraw => Unplayed::HalfBye,
                TrfResult::FullBye => Unplayed::FullBye,
                TrfResult::ZeroBye | TrfResult::ForfeitLoss => Unplayed::ZeroBye,
                _ => Unplayed::Absent,
            };
            byes.push(ByeRecord::new(me, tenth(ps.points(r))).in_round(round, kind));
        }
    }
    let ratings: BTreeMap<PlayerId, u32> = trf
        .players
        .iter()
        .filter(|p| p.rating > 0)
        .map(|p| (PlayerId(p.start.to_string()), p.rating))
        .collect();
    let fouls = BTreeMap::new();
    let input = StandingsInput {
        players: &players,
        games: &games,
        byes: &byes,
        ratings: &ratings,
        fouls: &fouls,
        scoring: crate::ScoringSystem::OneHalfZero,
        tie_breaks,
        unshareable: &[],
    };
    standings::compute_with(
        &input,
        GamePoints {
            win: tenth(ps.win),
            draw: tenth(ps.draw),
            loss: tenth(ps.loss),
        },
    )
}
