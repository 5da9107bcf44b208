//! What clients see: the JSON state of a game per viewer, the lobby, the
//! PGN record and profiles. Views are built here and nowhere else.

use std::sync::Arc;
use std::time::Instant;

use qiyuan_core::Outcome;
use serde_json::{Value, json};

use crate::domain::bus::LOBBY;
use crate::domain::command::GameCommand;
use crate::domain::game_log::Audience;
use crate::domain::hall::{Hall, HallError, HallResult, Live};
use crate::domain::state_view::{GameClock, GameStateView, MoveRecordView};
use crate::store::SeatRow;

/// The most open rooms, and games in play, a lobby snapshot lists.
pub const MAX_LOBBY_LIST: usize = 300;

/// A game in play as the lobby lists it.
pub struct InPlay {
    pub id: String,
    /// The variant.
    pub game: String,
    pub seats: Vec<SeatRow>,
    pub created_ms: i64,
}

/// The bus topic of a game's frames for `audience`.
pub(crate) fn topic(id: &str, audience: Audience) -> String {
    match audience {
        Audience::Spectators => id.to_string(),
        Audience::Seat(s) => format!("{id}/seat/{s}"),
    }
}

/// When a lobby entry was created (ms).
fn created(entry: &Value) -> i64 {
    entry["created_ms"].as_i64().unwrap_or(0)
}

/// A result as stored and shown: the winning seat's name, or `draw`.
pub(crate) fn result_name(names: &[String], o: &Outcome) -> String {
    if o.reason == qiyuan_core::EndReason::Aborted {
        return "aborted".into();
    }
    o.winner
        .and_then(|w| names.get(w).cloned())
        .unwrap_or_else(|| "draw".into())
}

/// The placings of an outcome: seat groups, best first (a draw is one group).
pub fn placings(o: &Outcome, seats: usize) -> Vec<Vec<usize>> {
    o.placings(seats)
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
    /// The state of a game as `viewer` sees it (with legal moves for the seat
    /// to move): a `state` frame, which a client takes as the whole game.
    pub fn state_view(live: &Live, viewer: Option<usize>) -> GameStateView {
        Hall::view_of(live, viewer, 0, "state", live.log.version())
    }

    /// A frame of `kind` (`state`, or `diff` for the event log) as `viewer`
    /// sees the game: everything but the move records before ply `from`
    /// (the game may start them earlier when a reveal changed old ones);
    /// `from` is in the frame; its `plies` is how many records the viewer
    /// has once it applied the frame. `version` is the change the frame
    /// is of. Typed: serialised only where it leaves the hall.
    pub(crate) fn view_of(
        live: &Live,
        viewer: Option<usize>,
        from: usize,
        kind: &'static str,
        version: u64,
    ) -> GameStateView {
        let t = &live.table;
        let who = qiyuan_core::viewer_of(viewer);
        let (from, recs) = t.move_records_for(who, from);
        let records: Vec<MoveRecordView> = recs
            .into_iter()
            .enumerate()
            .map(|(i, r)| MoveRecordView {
                iccs: r.text,
                notations: r.notations.into_iter().collect(),
                scores: r.scores,
                clocks: live
                    .move_clocks
                    .get(from + i)
                    .map(|c| c.iter().map(|&ms| ms.max(0)).collect()),
            })
            .collect();
        let playing = live.row.status == "playing";
        let to_act = if playing {
            t.seats_to_move()
        } else {
            Vec::new()
        };
        let outcome = t.result();
        let scores = t.scores();
        GameStateView {
            t: kind,
            id: live.row.id.clone(),
            game: live.row.rules.clone(),
            status: live.row.status.clone(),
            fen: t.view(who),
            // The start of a game that hides anything (a drawn layout, the
            // face-down identities or hidden ranks of a set-up position)
            // is never sent while the game is in play.
            start_fen: if t.hides_information() && outcome.is_none() {
                None
            } else {
                live.row.start_fen.clone()
            },
            from,
            moves: records.iter().map(|r| r.iccs.clone()).collect(),
            plies: from + records.len(),
            records,
            clocks: live.clocks.at(Instant::now()),
            running: live.clocks.first_running(),
            running_seats: live.clocks.running.iter().map(|&(s, _)| s).collect(),
            clock: GameClock::of(&live.row),
            rated: live.row.rated,
            seats: live.row.seats.clone(),
            to_move: to_act.first().copied(),
            seats_to_move: to_act,
            turn_state: t.turn_phase(),
            alerts: t.alerts(),
            opening: t.opening().map(|o| crate::domain::state_view::OpeningView {
                code: o.code,
                name: o.name,
                name_en: o.name_en,
            }),
            draw_offer: live.draw_offer,
            draw_agreed: live.draw_agreed.clone(),
            draw_declined: live
                .draw_declined
                .filter(|&(_, v)| v == version)
                .map(|(s, _)| s),
            challenge: live
                .challenge
                .as_ref()
                .filter(|_| live.row.status == "waiting")
                .map(|(_, name)| name.clone()),
            takeback: crate::domain::takeback::offered(live),
            takeback_possible: viewer
                .filter(|_| crate::domain::takeback::offered(live))
                .map(|s| crate::domain::takeback::possible_for(live, s)),
            takeback_offer: live.takeback.offer,
            takeback_declined: live
                .takeback
                .declined
                .filter(|&(_, v)| v == version)
                .map(|(s, _)| s),
            takeback_accepted: live
                .takeback
                .accepted
                .filter(|&(_, v)| v == version)
                .map(|(s, _)| s),
            abortable: playing
                && live.abortable
                && !(0..live.row.seats.len()).all(|s| live.move_seats.contains(&s)),
            first_move_ms: live
                .first_move_deadline
                .map(|d| d.saturating_duration_since(Instant::now()).as_millis() as i64),
            claim_victory_in_ms: None,
            claimable: playing && viewer.is_some_and(|s| t.claimable(s)),
            rematch_offer: live.rematch_offer,
            rematch_id: live.rematch_id.clone(),
            rematch_of: live.row.rematch_of.clone(),
            version,
            target: scores.as_ref().and(t.target()),
            scores,
            result: outcome.map(|o| result_name(&live.seat_names, o)),
            placings: outcome.map(|o| {
                live.row
                    .placings
                    .clone()
                    .or_else(|| t.placings())
                    .unwrap_or_else(|| placings(o, live.row.seats.len()))
            }),
            reason: outcome.map(|o| o.reason.as_str().to_string()),
            explanation: outcome.map(|o| o.explanation.clone()),
            progress: t.progress().map(Into::into),
            watchers: live.watchers,
            seat: viewer,
            legal: viewer.filter(|_| playing).map(|s| t.legal_moves_for(s)),
        }
    }

    /// Records a change of `live`: the next version of its event log, with a
    /// diff frame for spectators and one for each seated person, published
    /// on the game's topics (see [`crate::domain::game_log`]).
    pub(crate) fn announce(&self, live: &mut Live) {
        live.watchers = self.watchers.of(&live.row.id);
        let mut audiences = vec![Audience::Spectators];
        audiences.extend(
            live.row
                .seats
                .iter()
                .enumerate()
                .filter(|(_, s)| matches!(s, SeatRow::User { .. }))
                .map(|(i, _)| Audience::Seat(i)),
        );
        let version = live.log.version() + 1;
        let mut frames = Vec::with_capacity(audiences.len());
        let mut sent = Vec::with_capacity(audiences.len());
        for a in audiences {
            let viewer = match a {
                Audience::Spectators => None,
                Audience::Seat(s) => Some(s),
            };
            // A takeback shortens the record: the diff starts no later than its end.
            let from = live.log.records_sent(a).min(live.table.plies());
            // Written out straight from the typed view (a `Value` in
            // between cost about 8 % of the hall's CPU under load).
            let view = Hall::view_of(live, viewer, from, "diff", version);
            let records = view.plies;
            let frame = serde_json::to_string(&view).unwrap_or_default();
            frames.push((a, Arc::<str>::from(frame)));
            sent.push((a, records));
        }
        for (a, f) in &frames {
            self.bus.publish(&topic(&live.row.id, *a), f.clone());
        }
        live.log.push(frames, sent);
        live.touched = Instant::now();
    }

    pub(crate) fn lobby_entry(live: &Live) -> Value {
        json!({
            "id": live.row.id,
            "game": live.row.rules,
            "status": live.row.status,
            "seats": live.row.seats,
            "rated": live.row.rated,
            "target": live.table.target(),
            "clock": crate::domain::state_view::GameClock::of(&live.row),
            "moves": live.table.plies(),
            // A room from a set-up position: unrated, settles no points.
            "setup": live.row.start_fen.is_some(),
            // A challenge: the one user who may take the open seat.
            "challenge": live.challenge.as_ref().map(|(_, name)| name),
            // A seek's rating range: who may take the open seat.
            "rating_range": live.seek.as_ref().and_then(|t| t.range),
            "created_ms": live.row.created_ms,
        })
    }

    /// Puts `live`'s entry in the lobby (or takes it out once it is over)
    /// and tells the lobby sockets of this change alone.
    pub(crate) fn update_lobby(&self, live: &Live) {
        let entry = Hall::lobby_entry(live);
        let listed = live.row.status != "finished";
        self.seeks.sync(live);
        {
            let mut lobby = self.lobby.lock().unwrap_or_else(|e| e.into_inner());
            if listed {
                lobby.insert(live.row.id.clone(), entry.clone());
            } else {
                lobby.remove(&live.row.id);
            }
        }
        // A challenge is for one user: the lobby shows it nobody else.
        let public = entry["status"] != "waiting" || entry["challenge"].is_null();
        let change = if listed && public {
            json!({"t": "lobby_change", "game": entry})
        } else {
            json!({"t": "lobby_change", "removed": live.row.id})
        };
        self.bus.publish(LOBBY, Arc::from(change.to_string()));
    }

    /// Takes a room that never started out of the lobby.
    pub(crate) fn unlist_room(&self, id: &str) {
        self.seeks.remove(id);
        self.lobby
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(id);
        let change = json!({"t": "lobby_change", "removed": id});
        self.bus.publish(LOBBY, Arc::from(change.to_string()));
    }

    /// Open rooms and games in play: the newest [`MAX_LOBBY_LIST`] of each.
    pub fn lobby(&self) -> Value {
        let (open, playing) = self.lobby_lists();
        json!({"t": "lobby", "open": open, "playing": playing})
    }

    /// The lists of [`Hall::lobby`], each newest first.
    fn lobby_lists(&self) -> (Vec<Value>, Vec<Value>) {
        let lobby = self.lobby.lock().unwrap_or_else(|e| e.into_inner());
        let (open, playing): (Vec<&Value>, Vec<&Value>) =
            lobby.values().partition(|g| g["status"] == "waiting");
        fn newest(mut list: Vec<&Value>) -> Vec<Value> {
            list.sort_by_key(|g| std::cmp::Reverse(created(g)));
            list.truncate(MAX_LOBBY_LIST);
            list.into_iter().cloned().collect()
        }
        // A challenge is for one user: it is not an open room.
        let open = newest(
            open.into_iter()
                .filter(|g| g["challenge"].is_null())
                .collect(),
        );
        (open, newest(playing))
    }

    /// [`Hall::lobby`] as a lobby socket sends it: one `lobby` frame when it
    /// is at most `budget` bytes; a larger lobby as a `lobby` frame with
    /// its oldest entries (up to about `budget` bytes), then one
    /// `lobby_change` frame per newer entry, oldest first, so that a client
    /// that applies them in order, as it applies any change (an entry
    /// listed is put first), has the whole lobby, newest first. No frame is
    /// much larger than `budget` (a big frame would leave each socket's
    /// write buffer that large for as long as the socket is open).
    pub fn lobby_frames(&self, budget: usize) -> Vec<Arc<str>> {
        let (open, playing) = self.lobby_lists();
        // Every entry, oldest first, with its list and its JSON: each list
        // reversed, merged by a stable sort, so entries made in the same ms
        // keep the lobby's order too.
        let mut all: Vec<(i64, bool, String)> = open
            .iter()
            .rev()
            .map(|g| (created(g), true, g.to_string()))
            .chain(
                playing
                    .iter()
                    .rev()
                    .map(|g| (created(g), false, g.to_string())),
            )
            .collect();
        all.sort_by_key(|(at, _, _)| *at);
        let mut size = 40;
        let head = all
            .iter()
            .take_while(|(_, _, json)| {
                size += json.len() + 1;
                size <= budget
            })
            .count();
        let rest = all.split_off(head);
        // The head's lists, newest first like the lobby's.
        let list = |open: bool| {
            all.iter()
                .rev()
                .filter(|(_, o, _)| *o == open)
                .map(|(_, _, json)| json.as_str())
                .collect::<Vec<_>>()
                .join(",")
        };
        let mut frames = Vec::with_capacity(1 + rest.len());
        frames.push(Arc::from(format!(
            r#"{{"t":"lobby","open":[{}],"playing":[{}]}}"#,
            list(true),
            list(false)
        )));
        frames.extend(
            rest.into_iter()
                .map(|(_, _, json)| Arc::from(format!(r#"{{"t":"lobby_change","game":{json}}}"#))),
        );
        frames
    }

    /// Every game in play on this node, as the lobby lists it (the whole
    /// list, not the newest [`MAX_LOBBY_LIST`]).
    pub fn games_in_play(&self) -> Vec<InPlay> {
        let lobby = self.lobby.lock().unwrap_or_else(|e| e.into_inner());
        lobby
            .values()
            .filter(|g| g["status"] == "playing")
            .filter_map(|g| {
                Some(InPlay {
                    id: g["id"].as_str()?.to_string(),
                    game: g["game"].as_str()?.to_string(),
                    seats: serde_json::from_value(g["seats"].clone()).ok()?,
                    created_ms: g["created_ms"].as_i64().unwrap_or(0),
                })
            })
            .collect()
    }

    /// Rooms `user_id` has open (waiting for players) on this node.
    pub(crate) fn open_rooms_of(&self, user_id: i64) -> usize {
        let lobby = self.lobby.lock().unwrap_or_else(|e| e.into_inner());
        lobby
            .values()
            .filter(|g| g["status"] == "waiting")
            .filter(|g| {
                g["seats"]
                    .as_array()
                    .is_some_and(|s| s.iter().any(|s| s["id"] == user_id))
            })
            .count()
    }

    /// The game record as PGN, in `notation` (one the game offers; `None`:
    /// its default), with `site` (a link to the game) as its `Site`.
    pub async fn pgn(
        &self,
        id: &str,
        notation: Option<String>,
        site: Option<String>,
    ) -> HallResult<String> {
        self.ask(id, |reply| GameCommand::Pgn {
            notation,
            site,
            reply,
        })
        .await?
    }

    pub(crate) fn pgn_of(
        live: &Live,
        notation: Option<&str>,
        site: Option<String>,
    ) -> HallResult<String> {
        // The notation is the game's own name, passed through unread.
        let offered = live.table.export_notations();
        if let Some(n) = notation
            && !offered.contains(&n)
        {
            // A well-formed name of nothing is a 404, as for a kind the hall lacks.
            let why = if offered.is_empty() {
                "this game's record has one notation only".to_string()
            } else {
                format!("unknown notation; this game offers {}", offered.join(", "))
            };
            return Err(HallError::not_found(why)
                .with("notation", n)
                .with("offered", offered.join(", ")));
        }
        let name = |s: &SeatRow| match s {
            SeatRow::User { name, .. } => name.clone(),
            SeatRow::Ai { level } => format!("AI level {level}"),
            SeatRow::Open => "?".into(),
        };
        let mut tags = vec![
            ("Event".to_string(), "Qiyuan".to_string()),
            (
                "Site".to_string(),
                site.unwrap_or_else(|| format!("qiyuan game {}", live.row.id)),
            ),
            ("Date".to_string(), pgn_date(live.row.created_ms)),
        ];
        let names = &live.seat_names;
        for (i, s) in live.row.seats.iter().enumerate() {
            // PGN's own tags for two seats; other games name the seat.
            let tag = match (live.row.seats.len(), i) {
                (2, 0) => "Red".to_string(),
                (2, 1) => "Black".to_string(),
                _ => format!("Seat{}", names.get(i).map_or(i.to_string(), |n| n.clone())),
            };
            tags.push((tag, name(s)));
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
        let result = pgn_result(live.table.result());
        match notation {
            Some(n) => live.table.export_record_in(&tags, result, n),
            None => live.table.export_record(&tags, result),
        }
        .ok_or_else(|| HallError::not_found("this game has no PGN export"))
    }
}

/// PGN's `Date` (`YYYY.MM.DD`, UTC) of a time in ms since 1970.
pub(crate) fn pgn_date(ms: i64) -> String {
    // Days to a civil date (H. Hinnant's algorithm, proleptic Gregorian).
    let z = ms.div_euclid(86_400_000) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn pgn_dates_are_utc_days() {
        assert_eq!(super::pgn_date(0), "1970.01.01");
        assert_eq!(super::pgn_date(951_782_400_000), "2000.02.29");
        assert_eq!(super::pgn_date(1_767_225_599_999), "2025.12.31");
    }
}
