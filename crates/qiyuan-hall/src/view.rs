//! What clients see: the JSON state of a game per viewer, the lobby, the
//! PGN record and profiles. Views are built here and nowhere else.

use std::sync::Arc;
use std::time::Instant;

use qiyuan_core::Outcome;
use serde_json::{Value, json};

use crate::bus::LOBBY;
use crate::hall::{Hall, HallError, HallResult, Live};
use crate::store::SeatRow;

/// A result as stored and shown: the winning seat's name, or `draw`.
pub(crate) fn result_name(names: &[String], o: &Outcome) -> String {
    o.winner
        .and_then(|w| names.get(w).cloned())
        .unwrap_or_else(|| "draw".into())
}

/// The placings of an outcome: seat groups, best first (a draw is one group).
pub fn placings(o: &Outcome, seats: usize) -> Vec<Vec<usize>> {
    match o.winner {
        Some(w) => vec![vec![w], (0..seats).filter(|&s| s != w).collect()],
        None => vec![(0..seats).collect()],
    }
}

fn pgn_result(o: Option<&Outcome>) -> &'static str {
    match o.map(|o| o.winner) {
        Some(Some(0)) => "1-0",
        Some(Some(_)) => "0-1",
        Some(None) => "1/2-1/2",
        None => "*",
    }
}

impl Hall {
    /// The state of a game as `viewer` sees it (with legal moves for the seat to move).
    pub fn state_json(live: &Live, viewer: Option<usize>) -> Value {
        let now = Instant::now();
        let t = &live.table;
        let view = t.view(qiyuan_core::viewer_of(viewer));
        let records: Vec<Value> = t
            .move_records_for(qiyuan_core::viewer_of(viewer))
            .into_iter()
            .enumerate()
            .map(|(i, r)| {
                let mut o = json!({"iccs": r.text});
                for (k, v) in r.notations {
                    o[k] = json!(v);
                }
                if let Some(s) = r.scores {
                    o["scores"] = json!(s);
                }
                if let Some(c) = live.move_clocks.get(i) {
                    o["clocks"] = json!(c);
                }
                o
            })
            .collect();
        let moves: Vec<&Value> = records.iter().map(|r| &r["iccs"]).collect();
        let mut s = json!({
            "t": "state",
            "id": live.row.id,
            "game": live.row.rules,
            "status": live.row.status,
            "fen": view,
            // A secret set-up (a hidden layout, even a set-up position's
            // eleventh field) is never sent while the game is in play.
            "start_fen": if t.secret_setup().is_some() && t.result().is_none() {
                None
            } else {
                live.row.start_fen.as_deref()
            },
            "moves": moves,
            "records": records,
            "clocks": live.clocks.at(now),
            "running": live.clocks.first_running(),
            "running_seats": live.clocks.running.iter().map(|&(s, _)| s).collect::<Vec<_>>(),
            "clock": {"initial_s": live.row.initial_ms / 1000, "increment_s": live.row.increment_ms / 1000},
            "rated": live.row.rated,
            "seats": live.row.seats,
            "to_move": if live.row.status == "playing" { t.seats_to_move().first().copied() } else { None },
            "seats_to_move": if live.row.status == "playing" { t.seats_to_move() } else { Vec::new() },
            "turn_state": t.turn_phase(),
            "alerts": t.alerts(),
            "draw_offer": live.draw_offer,
            "rematch_offer": live.rematch_offer,
            "rematch_id": live.rematch_id,
            "rematch_of": live.row.rematch_of,
            "version": live.version,
        });
        if let Some(sc) = t.scores() {
            s["scores"] = json!(sc);
            s["target"] = json!(t.target());
        }
        if let Some(o) = t.result() {
            s["result"] = json!(result_name(&live.seat_names, o));
            let ranked = live.row.placings.clone().or_else(|| t.placings());
            s["placings"] = json!(ranked.unwrap_or_else(|| placings(o, live.row.seats.len())));
            s["reason"] = json!(o.reason.as_str());
            s["explanation"] = json!(o.explanation);
        }
        if let Some(seat) = viewer {
            s["seat"] = json!(seat);
            if live.row.status == "playing" {
                s["legal"] = json!(t.legal_moves_for(seat));
            }
        }
        s
    }

    pub(crate) fn lobby_entry(live: &Live) -> Value {
        json!({
            "id": live.row.id,
            "game": live.row.rules,
            "status": live.row.status,
            "seats": live.row.seats,
            "rated": live.row.rated,
            "target": live.table.target(),
            "clock": {"initial_s": live.row.initial_ms / 1000, "increment_s": live.row.increment_ms / 1000},
            "moves": live.table.history().len(),
            // A room from a set-up position: unrated, settles no points.
            "setup": live.row.start_fen.is_some(),
        })
    }

    pub(crate) fn update_lobby(&self, live: &Live) {
        let entry = Hall::lobby_entry(live);
        {
            let mut lobby = self.lobby.lock().unwrap_or_else(|e| e.into_inner());
            if live.row.status == "finished" {
                lobby.remove(&live.row.id);
            } else {
                lobby.insert(live.row.id.clone(), entry.clone());
            }
        }
        self.bus.publish(
            LOBBY,
            Arc::from(json!({"t": "lobby", "game": entry}).to_string()),
        );
    }

    /// Open rooms and games in play.
    pub fn lobby(&self) -> Value {
        let lobby = self.lobby.lock().unwrap_or_else(|e| e.into_inner());
        let (open, playing): (Vec<&Value>, Vec<&Value>) =
            lobby.values().partition(|g| g["status"] == "waiting");
        json!({"t": "lobby", "open": open, "playing": playing})
    }

    /// The game record as PGN.
    pub async fn pgn(&self, id: &str) -> HallResult<String> {
        let g = self.get(id).await?;
        let live = g.lock().await;
        let name = |s: &SeatRow| match s {
            SeatRow::User { name, .. } => name.clone(),
            SeatRow::Ai { level } => format!("AI level {level}"),
            SeatRow::Open => "?".into(),
        };
        let mut tags = vec![
            ("Event".to_string(), "Qiyuan".to_string()),
            ("Site".to_string(), format!("qiyuan game {}", live.row.id)),
        ];
        if let Some(s) = live.row.seats.first() {
            tags.push(("Red".into(), name(s)));
        }
        if let Some(s) = live.row.seats.get(1) {
            tags.push(("Black".into(), name(s)));
        }
        tags.push((
            "TimeControl".into(),
            format!(
                "{}+{}",
                live.row.initial_ms / 1000,
                live.row.increment_ms / 1000
            ),
        ));
        if let Some(r) = &live.row.reason {
            tags.push(("Termination".into(), r.clone()));
        }
        live.table
            .export_record(&tags, pgn_result(live.table.result()))
            .ok_or_else(|| HallError::not_found("this game has no PGN export"))
    }

    /// A user's profile: name and recent games.
    pub async fn profile(&self, name: &str) -> HallResult<Value> {
        let user = self
            .store
            .user_by_name(name)
            .await
            .map_err(HallError::internal)?
            .ok_or_else(|| {
                HallError::not_found(format!("no user '{}'", crate::error::shown(name)))
            })?;
        let games = self
            .store
            .user_games(user.id, 50)
            .await
            .map_err(HallError::internal)?;
        let list: Vec<Value> = games
            .iter()
            .map(|g| {
                json!({
                    "id": g.id, "game": g.rules, "status": g.status, "seats": g.seats,
                    "result": g.result, "reason": g.reason, "rated": g.rated, "created_ms": g.created_ms,
                    "setup": g.start_fen.is_some(),
                })
            })
            .collect();
        let (ratings, history) = crate::ratings::profile_ratings(self, user.id).await?;
        let points = crate::points::balances(self, user.id).await?;
        Ok(json!({
            "username": user.username, "guest": user.guest, "games": list,
            "ratings": ratings, "rating_history": history, "points": points,
        }))
    }
}
