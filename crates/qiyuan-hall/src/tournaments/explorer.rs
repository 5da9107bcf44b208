//! The opening explorer and players' results by opening (issue 39), for
//! any kind: when a game finishes, the hall replays it once through the
//! registry and stores (a) for a rated game between people from the
//! start position, each of its first plies keyed by the spectator's view
//! of the position before it (move counters dropped), with the mover's
//! result and rating, and (b) the named opening the game reached
//! ([`qiyuan_core::Views::opening`]), if its kind names openings. Games
//! that hide information are never indexed: their views would not replay.
//! Games finished before this existed are read at start, newest first.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;
use utoipa::ToSchema;

use crate::domain::hall::{Hall, HallError, HallResult, Live, ServerChance};
use crate::error::ErrorCode;
use crate::store::{ExplorerRow, GameRow, SeatRow, StoredOpening};
use crate::tournaments::profile::{Side, seat_of, side_of};

/// How many plies of a game the explorer keeps (it is about openings).
pub const EXPLORER_PLIES: usize = 40;
/// Longest position text `GET /api/explorer` takes, in characters.
pub const MAX_POSITION_CHARS: usize = 256;
/// How many moves the explorer lists at most.
pub const TOP_MOVES: i64 = 20;
/// How many finished games the start reads at most (newest first).
pub const BACKFILL_GAMES: usize = 5000;
/// How many of a player's latest games the opening table counts.
pub const OPENINGS_OVER: i64 = 1000;

/// A position's key: the text without its move counters. A position text
/// in the FEN tradition carries a half-move clock and a move number as its
/// fifth and sixth fields; other fields (side to move, scores …) stay.
pub fn position_key(text: &str) -> String {
    let mut fields: Vec<&str> = text.split_whitespace().collect();
    let numeric = |f: &str| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit());
    if fields.len() >= 6 && numeric(fields[4]) && numeric(fields[5]) {
        fields.drain(4..6);
    }
    fields.join(" ")
}

/// The finisher's listener that indexes finished games.
pub struct ExplorerIndex;

#[async_trait::async_trait]
impl crate::domain::finisher::FinishListener for ExplorerIndex {
    async fn finished(&self, hall: &Hall, live: &Live) {
        let moves = live.table.history();
        if let Err(e) = index_game(hall, &live.row, &moves).await {
            tracing::warn!(game = %live.row.id, error = %e.message, "cannot index a finished game");
        }
    }
}

/// Reads the finished games not indexed yet (at most [`BACKFILL_GAMES`]).
pub async fn backfill(hall: Arc<Hall>) {
    let mut done = 0;
    while done < BACKFILL_GAMES {
        let ids = match hall.store.unindexed_games(100).await {
            Ok(ids) => ids,
            Err(e) => {
                tracing::warn!(error = %e, "cannot list games to index");
                return;
            }
        };
        if ids.is_empty() {
            break;
        }
        for id in &ids {
            let loaded = match hall.store.load_game(id).await {
                Ok(Some(g)) => g,
                _ => continue,
            };
            let moves: Vec<String> = loaded.1.into_iter().map(|m| m.mv).collect();
            if let Err(e) = index_game(&hall, &loaded.0, &moves).await {
                tracing::warn!(game = %id, error = %e.message, "cannot index a finished game");
                // Marked anyway, so a game that cannot be replayed is not read again.
                let _ = hall.store.index_game(id, &loaded.0.rules, &[], None).await;
            }
            done += 1;
        }
        tokio::task::yield_now().await;
    }
    if done > 0 {
        tracing::info!(games = done, "finished games indexed for the explorer");
    }
}

/// The mover's score: 2 won, 1 drawn, 0 lost.
fn score(side: Side) -> i64 {
    match side {
        Side::Won => 2,
        Side::Drawn => 1,
        Side::Lost => 0,
    }
}

/// Replays a finished game and stores what it adds (once per game).
async fn index_game(hall: &Hall, row: &GameRow, moves: &[String]) -> HallResult<()> {
    let ended = row.status == "finished"
        && row.reason.as_deref() != Some(qiyuan_core::EndReason::Aborted.as_str())
        && row.start_fen.is_none();
    if !ended {
        hall.store
            .index_game(&row.id, &row.rules, &[], None)
            .await?;
        return Ok(());
    }
    let mut table = hall.games.new_table(&row.rules, &row.options, None)?;
    if table.hides_information() {
        hall.store
            .index_game(&row.id, &row.rules, &[], None)
            .await?;
        return Ok(());
    }
    let people = row.seats.len() == 2
        && row.rated
        && row.seats.iter().all(|s| matches!(s, SeatRow::User { .. }));
    let mut rows = Vec::new();
    // (ply's seat, position, move), ratings looked up after.
    for (ply, mv) in moves.iter().enumerate() {
        let seats = table.seats_to_move();
        let [seat] = seats[..] else { break };
        if people && ply < EXPLORER_PLIES {
            rows.push((
                seat,
                position_key(&table.view(qiyuan_core::Viewer::Spectator)),
                mv.clone(),
            ));
        }
        let mut chance = ServerChance::default();
        if table.play_for(seat, mv, &mut chance).is_err() {
            return Err(HallError::internal(format!(
                "game {} does not replay at ply {ply}",
                row.id
            )));
        }
    }
    let opening = table.opening().map(|o| StoredOpening {
        code: o.code,
        name: o.name,
        name_en: o.name_en,
    });
    let mut stored = Vec::new();
    if people {
        let family = crate::tournaments::ratings::family_of(hall, &row.rules);
        let changes = hall.store.game_rating_changes(&row.id).await?;
        let mut rating_of: BTreeMap<usize, Option<f64>> = BTreeMap::new();
        for (seat, s) in row.seats.iter().enumerate() {
            let SeatRow::User { id, .. } = s else {
                continue;
            };
            let before = changes
                .iter()
                .find(|c| c.user_id == *id && c.family == family)
                .map(|c| c.before);
            let r = match before {
                Some(b) => Some(b),
                // Not rated yet when the game ends: the rating it was played at.
                None => Some(
                    hall.store
                        .rating(*id, &family)
                        .await?
                        .unwrap_or_default()
                        .value,
                ),
            };
            rating_of.insert(seat, r);
        }
        for (seat, position, mv) in rows {
            let Some((side, _)) = side_of(&hall.games, row, seat) else {
                continue;
            };
            stored.push(ExplorerRow {
                position,
                mv,
                score: score(side),
                rating: rating_of.get(&seat).copied().flatten(),
            });
        }
    }
    hall.store
        .index_game(&row.id, &row.rules, &stored, opening.as_ref())
        .await?;
    Ok(())
}

/// A move played from the position asked about.
#[derive(Serialize, ToSchema)]
pub struct ExplorerMoveBody {
    /// The move, in the game's move text.
    #[serde(rename = "move")]
    pub mv: String,
    /// Games that played it.
    pub games: i64,
    /// Of those, won by the side that played it.
    pub wins: i64,
    /// Drawn.
    pub draws: i64,
    /// Lost by the side that played it.
    pub losses: i64,
    /// The average rating of the players who played it, rounded; null if none was rated.
    pub rating: Option<i64>,
}

/// `GET /api/explorer`'s answer.
#[derive(Serialize, ToSchema)]
pub struct ExplorerBody {
    /// The variant asked about.
    pub variant: String,
    /// The position as keyed (no move counters).
    pub position: String,
    /// Games that reached the position (the sum of the moves' games).
    pub games: i64,
    /// The moves, most played first (at most 20).
    pub moves: Vec<ExplorerMoveBody>,
}

/// Results with one opening.
#[derive(Serialize, ToSchema)]
pub struct OpeningRow {
    /// The opening's code.
    pub code: String,
    /// Its name as the game's players say it.
    pub name: String,
    /// A short English name.
    pub name_en: String,
    /// Games.
    pub games: u32,
    /// Won, drawn, lost.
    pub won: u32,
    /// Drawn.
    pub drawn: u32,
    /// Lost.
    pub lost: u32,
}

/// `GET /api/users/{name}/openings`'s answer.
#[derive(Serialize, ToSchema)]
pub struct OpeningsBody {
    /// The user.
    pub username: String,
    /// How many of their games were counted (their latest with a named opening, at most 1000).
    pub games: u32,
    /// Results by opening, most played first.
    pub openings: Vec<OpeningRow>,
}

impl Hall {
    /// The moves played from position `text` in `variant`'s indexed games.
    pub async fn explore(&self, variant: &str, text: &str) -> HallResult<ExplorerBody> {
        if text.chars().count() > MAX_POSITION_CHARS {
            return Err(HallError::new(
                ErrorCode::BadQuery,
                format!("a position is at most {MAX_POSITION_CHARS} characters"),
            )
            .with("field", "fen")
            .with("max", MAX_POSITION_CHARS));
        }
        if self.games.find(variant).is_none() {
            return Err(HallError::not_found(format!(
                "no game '{}'",
                crate::error::shown(variant)
            )));
        }
        let position = position_key(text);
        let moves = self
            .store
            .explorer_moves(variant, &position, TOP_MOVES)
            .await?;
        Ok(ExplorerBody {
            variant: variant.to_string(),
            games: moves.iter().map(|m| m.games).sum(),
            position,
            moves: moves
                .into_iter()
                .map(|m| ExplorerMoveBody {
                    mv: m.mv,
                    games: m.games,
                    wins: m.wins,
                    draws: m.draws,
                    losses: m.losses,
                    rating: m.rating.map(|r| r.round() as i64),
                })
                .collect(),
        })
    }

    /// A player's results by named opening over their latest finished games.
    pub async fn openings_of(&self, name: &str) -> HallResult<OpeningsBody> {
        let user = self.store.user_by_name(name).await?.ok_or_else(|| {
            HallError::not_found(format!("no user '{}'", crate::error::shown(name)))
                .with("name", crate::error::shown(name))
        })?;
        let rows = self.store.openings_of(user.id, OPENINGS_OVER).await?;
        let mut by_code: BTreeMap<String, OpeningRow> = BTreeMap::new();
        let mut games = 0;
        for (row, o) in rows {
            let Some(seat) = seat_of(&row, user.id) else {
                continue;
            };
            let Some((side, _)) = side_of(&self.games, &row, seat) else {
                continue;
            };
            games += 1;
            let e = by_code.entry(o.code.clone()).or_insert(OpeningRow {
                code: o.code,
                name: o.name,
                name_en: o.name_en,
                games: 0,
                won: 0,
                drawn: 0,
                lost: 0,
            });
            e.games += 1;
            match side {
                Side::Won => e.won += 1,
                Side::Drawn => e.drawn += 1,
                Side::Lost => e.lost += 1,
            }
        }
        let mut openings: Vec<OpeningRow> = by_code.into_values().collect();
        openings.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.code.cmp(&b.code)));
        Ok(OpeningsBody {
            username: user.username,
            games,
            openings,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::position_key;

    #[test]
    fn a_position_key_drops_only_the_move_counters() {
        assert_eq!(
            position_key("rnbakabnr/9/9 w - - 3 12"),
            "rnbakabnr/9/9 w - -"
        );
        // Fields after the counters (scores, turn state) stay.
        assert_eq!(
            position_key("rnbakabnr/9/9 w - - 0 1 12 30 0 -"),
            "rnbakabnr/9/9 w - - 12 30 0 -"
        );
        // A text of another shape is kept as it is.
        assert_eq!(position_key("abc w 3"), "abc w 3");
    }
}
