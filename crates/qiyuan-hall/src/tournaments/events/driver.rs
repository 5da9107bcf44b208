//! The hook task: every change to a running event happens here, one
//! message at a time (game ends, time caps, "drive this event" requests), so a
//! result never races the pairing that waits for it.

use std::sync::Arc;
use std::time::Duration;

use qiyuan_core::{EndReason, Outcome};
use qiyuan_events::{EventError, EventStatus, Fouls, GameResult, PlayoffKind};

use tokio::sync::Mutex;

use super::{HallEvent, HookMsg, TieGame, TiePlayoff};
use crate::clock::wall_ms;
use crate::domain::hall::Hall;
use crate::tournaments::events::hooks;
use crate::tournaments::views::{EventLine, EventState};

/// Arms the time cap (X6) of an event game that started at `created_ms`.
fn arm_cap(hall: &Arc<Hall>, game_id: &str, cap_ms: u64, created_ms: i64) {
    {
        let hooks = hooks(hall);
        let mut armed = hooks.armed.lock().unwrap_or_else(|e| e.into_inner());
        if !armed.insert(game_id.to_string()) {
            return;
        }
    }
    let elapsed = (wall_ms() - created_ms).max(0) as u64;
    let wait = Duration::from_millis(cap_ms.saturating_sub(elapsed));
    let hall = hall.clone();
    let id = game_id.to_string();
    tokio::spawn(async move {
        tokio::time::sleep(wait).await;
        hooks(&hall).send(HookMsg::Cap(id));
    });
}

/// The result of a finished game row, as an event records it.
/// Events pair two seats: the first is "red", the second "black".
pub(crate) fn game_result(
    hall: &Hall,
    row: &crate::store::GameRow,
    capped: bool,
) -> Option<GameResult> {
    if row.status != "finished" {
        return None;
    }
    if capped {
        return Some(GameResult::TimeCapExceeded);
    }
    match hall
        .games
        .winner_of(&row.rules, row.seats.len(), row.result.as_deref())?
    {
        Some(0) => Some(GameResult::RedWins),
        Some(_) => Some(GameResult::BlackWins),
        None => Some(GameResult::Draw),
    }
}

/// The fouls (X8) each side of a game committed, as an event records them.
pub(crate) async fn game_fouls(hall: &Hall, game_id: &str) -> Fouls {
    let mut f = Fouls::NONE;
    match hall.store.game_fouls(game_id).await {
        Ok(rows) => {
            for (seat, n) in rows {
                match seat {
                    0 => f.red += n,
                    1 => f.black += n,
                    _ => {}
                }
            }
        }
        Err(e) => tracing::error!(game = %game_id, error = %e, "cannot read fouls"),
    }
    f
}

/// Moves an event as far as it can go now: records results of finished
/// games, pairs the next round, starts games (and play-offs). Never waits
/// for a game.
async fn drive(hall: &Arc<Hall>, he: &mut HallEvent) {
    if he.status != EventState::Running {
        return;
    }
    // Bounded: each pass either makes progress or stops.
    for _ in 0..256 {
        let Some(ev) = he.event.as_mut() else { return };
        // Catch up on games that ended without us hearing (restart).
        let mut recorded = false;
        for at in ev.pending() {
            let Some(gid) = ev.pairing(at).and_then(|p| p.game_id.clone()) else {
                continue;
            };
            let Ok(row) = hall.game_row(&gid).await else {
                continue;
            };
            if let Some(result) = game_result(hall, &row, he.capped.contains(&gid)) {
                let fouls = game_fouls(hall, &gid).await;
                if ev.record_result(at, result, fouls).is_ok() {
                    recorded = true;
                }
            } else if let Some(cap) = he.settings.game_time_cap_ms {
                arm_cap(hall, &gid, cap, row.created_ms);
            }
        }
        if recorded {
            continue;
        }
        match ev.status() {
            EventStatus::Finished => {
                he.status = EventState::Finished;
                return;
            }
            EventStatus::NotStarted | EventStatus::RoundComplete => {
                if let Err(e) = ev.next_round() {
                    he.status = EventState::Error;
                    he.error = Some(e.to_string());
                    return;
                }
            }
            EventStatus::InProgress | EventStatus::NeedsPlayoff => {
                let pending: Vec<_> = ev
                    .pending()
                    .into_iter()
                    .filter_map(|at| ev.pairing(at).cloned().map(|p| (at, p)))
                    .collect();
                let waiting = !pending.is_empty();
                for (at, p) in pending {
                    if p.game_id.is_some() {
                        continue;
                    }
                    let snapshot = he.clone();
                    match snapshot
                        .start_game(hall, &p.red, &p.black, p.playoff_of.is_some())
                        .await
                    {
                        Ok(gid) => {
                            hooks(hall).link_game(&gid, &he.id);
                            if let Some(cap) = he.settings.game_time_cap_ms {
                                arm_cap(hall, &gid, cap, wall_ms());
                            }
                            if let Some(ev) = he.event.as_mut() {
                                let _ = ev.set_game_id(at, gid);
                            }
                        }
                        Err(e) => {
                            he.status = EventState::Error;
                            he.error = Some(format!("cannot start a game: {}", e.message));
                            return;
                        }
                    }
                }
                if waiting {
                    return;
                }
                // No game pending: a tie on a place that may not be shared (H8).
                if !tie_step(hall, he).await {
                    return;
                }
            }
        }
    }
}

/// Plays the next game of the pending place play-off (H8), or settles it.
/// True if the event can move on at once.
async fn tie_step(hall: &Arc<Hall>, he: &mut HallEvent) -> bool {
    let Some(ev) = he.event.as_ref() else {
        return false;
    };
    let Some(need) = ev.playoffs_needed().into_iter().find(|n| n.place.is_some()) else {
        return false;
    };
    let place = need.place.unwrap_or(0);
    let idx = match he
        .ties
        .iter()
        .position(|t| !t.done && t.place == place && t.players == need.players)
    {
        Some(i) => i,
        None => {
            let Some(first) = need.players.first().cloned() else {
                return false;
            };
            he.ties.push(TiePlayoff {
                place,
                players: need.players.clone(),
                champion: first,
                next: 1,
                knocked_out: Vec::new(),
                games: Vec::new(),
                done: false,
            });
            he.ties.len() - 1
        }
    };
    let t = &he.ties[idx];
    if t.games.last().is_some_and(|g| g.result.is_none()) {
        return false; // a play-off game is being played
    }
    if t.next >= t.players.len() {
        let mut order = vec![t.champion.clone()];
        order.extend(t.knocked_out.iter().rev().cloned());
        he.ties[idx].done = true;
        if let Some(ev) = he.event.as_mut()
            && let Err(e) = ev.resolve_tie(order)
        {
            he.status = EventState::Error;
            he.error = Some(e.to_string());
            return false;
        }
        return true;
    }
    // Champion (better placed) takes red; a blitz replay after a draw swaps colours.
    let challenger = t.players[t.next].clone();
    let (red, black) = match t.games.last() {
        Some(g)
            if g.result.is_some_and(|r| r.winner().is_none())
                && [&g.red, &g.black].contains(&&challenger) =>
        {
            (g.black.clone(), g.red.clone())
        }
        _ => (t.champion.clone(), challenger),
    };
    let snapshot = he.clone();
    match snapshot.start_game(hall, &red, &black, true).await {
        Ok(gid) => {
            hooks(hall).link_game(&gid, &he.id);
            he.ties[idx].games.push(TieGame {
                red,
                black,
                game_id: gid,
                result: None,
            });
        }
        Err(e) => {
            he.status = EventState::Error;
            he.error = Some(format!("cannot start a play-off: {}", e.message));
        }
    }
    false
}

/// A place play-off game ended: who stays champion.
fn tie_game_over(he: &mut HallEvent, game_id: &str, result: GameResult, fouls: Fouls) {
    let kind = he.settings.playoff.kind;
    let Some(t) = he
        .ties
        .iter_mut()
        .find(|t| t.games.iter().any(|g| g.game_id == game_id))
    else {
        return;
    };
    let Some(g) = t.games.iter_mut().find(|g| g.game_id == game_id) else {
        return;
    };
    if g.result.is_some() {
        return;
    }
    g.result = Some(result);
    let (red, black) = (g.red.clone(), g.black.clone());
    let drawn_replays = t
        .games
        .iter()
        .rev()
        .take_while(|g| g.result.is_some_and(|r| r.winner().is_none()))
        .count();
    let winner = match result.winner() {
        Some(qiyuan_events::Side::Red) => Some(red.clone()),
        Some(qiyuan_events::Side::Black) => Some(black.clone()),
        // Armageddon: black's draw odds. Blitz: replay with colours swapped,
        // but not forever: after four drawn blitz games black's odds decide.
        None if kind == PlayoffKind::Armageddon || drawn_replays >= 4 => Some(black.clone()),
        None => None,
    };
    if let Some(w) = winner {
        let loser = if w == red { black.clone() } else { red.clone() };
        t.champion = w;
        t.knocked_out.push(loser);
        t.next += 1;
    }
    if let Some(ev) = he.event.as_mut() {
        ev.add_fouls(&red, fouls.red);
        ev.add_fouls(&black, fouls.black);
    }
}

/// Stores the event (JSON) and publishes it to its watchers.
pub(super) async fn save(hall: &Hall, he: &HallEvent) {
    match serde_json::to_string(he) {
        Ok(data) => {
            if let Err(e) = hall
                .store
                .save_event(&he.id, he.status.as_str(), &data)
                .await
            {
                tracing::error!(event = %he.id, error = %e, "cannot store an event");
            }
        }
        Err(e) => tracing::error!(event = %he.id, error = %e, "cannot encode an event"),
    }
    hall.bus.publish(
        &format!("event:{}", he.id),
        Arc::from(EventLine::Event(Box::new(he.view())).to_text()),
    );
}

async fn on_game_over(hall: &Arc<Hall>, game_id: &str) {
    let row = match hall.game_row(game_id).await {
        Ok(r) => r,
        Err(e) => {
            tracing::error!(game = %game_id, error = ?e, "finished game not found");
            return;
        }
    };
    match crate::tournaments::ratings::rate_finished_game(hall, &row).await {
        Ok(true) => tracing::info!(game = %game_id, "rated"),
        Ok(false) => {}
        Err(e) => tracing::error!(game = %game_id, error = %e, "cannot rate a game"),
    }
    if crate::tournaments::team_events::game_over(hall, &row).await {
        return;
    }
    let Some(eid) = hooks(hall).event_of_game(game_id) else {
        return;
    };
    let Some(e) = hooks(hall).event(&eid) else {
        return;
    };
    let mut he = e.lock().await;
    let capped = he.capped.contains(game_id);
    let Some(result) = game_result(hall, &row, capped) else {
        return;
    };
    let fouls = game_fouls(hall, game_id).await;
    let in_round = he
        .event
        .as_ref()
        .and_then(|ev| ev.find_game(game_id))
        .is_some();
    if in_round {
        if let Some(ev) = he.event.as_mut() {
            match ev.record_game(game_id, result, fouls) {
                Ok(()) | Err(EventError::AlreadyRecorded { .. }) => {}
                Err(e) => tracing::error!(event = %eid, error = %e, "cannot record a result"),
            }
        }
    } else {
        tie_game_over(&mut he, game_id, result, fouls);
    }
    drive(hall, &mut he).await;
    save(hall, &he).await;
}

async fn on_cap(hall: &Arc<Hall>, game_id: &str) {
    let Some(eid) = hooks(hall).event_of_game(game_id) else {
        return;
    };
    let Some(e) = hooks(hall).event(&eid) else {
        return;
    };
    let mut he = e.lock().await;
    let outcome = Outcome {
        winner: None,
        partners: Vec::new(),
        reason: EndReason::Timeout,
        explanation: "超过比赛限时, 双方均不得分 / the event's game time cap passed: no points for either side (X6)".into(),
    };
    he.capped.insert(game_id.to_string());
    match hall.end_game(game_id, outcome).await {
        Ok(true) => {}
        // It ended by itself meanwhile: its own result stands.
        Ok(false) | Err(_) => {
            he.capped.remove(game_id);
        }
    }
}

/// The hook task: runs until shutdown. Call once (the server does).
pub async fn run(hall: Arc<Hall>) {
    let rx = hooks(&hall)
        .rx
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take();
    let Some(mut rx) = rx else { return };
    let mut shutdown = hall.shutdown.clone();
    loop {
        let msg = tokio::select! {
            m = rx.recv() => m,
            _ = shutdown.changed() => return,
        };
        let Some(msg) = msg else { return };
        match msg {
            HookMsg::GameOver(id) => on_game_over(&hall, &id).await,
            HookMsg::Cap(id) => on_cap(&hall, &id).await,
            HookMsg::Drive(id) => {
                if let Some(e) = hooks(&hall).event(&id) {
                    let mut he = e.lock().await;
                    drive(&hall, &mut he).await;
                    save(&hall, &he).await;
                }
            }
        }
    }
}

/// Loads stored events at start and drives the running ones (games that
/// ended while the hall was down are recorded then).
pub async fn resume(hall: &Arc<Hall>) -> anyhow::Result<usize> {
    let stored = hall.store.load_events().await?;
    let mut n = 0;
    for (id, data) in stored {
        if crate::tournaments::team_events::is_team_event_id(&id) {
            if crate::tournaments::team_events::resume_one(hall, &id, &data).await {
                n += 1;
            }
            continue;
        }
        let he: HallEvent = match serde_json::from_str(&data) {
            Ok(e) => e,
            Err(e) => {
                tracing::error!(event = %id, error = %e, "cannot load an event");
                continue;
            }
        };
        if let Some(ev) = &he.event {
            for r in ev.rounds() {
                for p in &r.pairings {
                    if let Some(g) = &p.game_id {
                        hooks(hall).link_game(g, &id);
                    }
                }
            }
        }
        for t in &he.ties {
            for g in &t.games {
                hooks(hall).link_game(&g.game_id, &id);
            }
        }
        let running = he.status == EventState::Running;
        hooks(hall)
            .events
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id.clone(), Arc::new(Mutex::new(he)));
        if running {
            hooks(hall).send(HookMsg::Drive(id));
        }
        n += 1;
    }
    Ok(n)
}
