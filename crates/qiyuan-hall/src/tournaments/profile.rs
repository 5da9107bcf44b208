//! What a profile says about its owner's games: the seat the owner played,
//! the result from the owner's side (won, lost, drawn; the place in games
//! of more than two seats) and the totals per game kind. Worked out from
//! the stored result and placings through the registry, so no game is
//! named here.

use std::collections::BTreeMap;

use serde::Serialize;
use utoipa::ToSchema;

use crate::domain::registry::Registry;
use crate::store::{GameRow, SeatRow};

/// How many of a user's latest games the totals count.
pub const TOTALS_OVER: i64 = 1000;

/// A finished game from one player's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Won,
    Drawn,
    Lost,
}

/// Won, drawn and lost games of one kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, ToSchema)]
pub struct Totals {
    pub won: u32,
    pub drawn: u32,
    pub lost: u32,
}

impl Totals {
    fn add(&mut self, side: Side) {
        match side {
            Side::Won => self.won += 1,
            Side::Drawn => self.drawn += 1,
            Side::Lost => self.lost += 1,
        }
    }
}

/// The first seat `user_id` sat in.
pub fn seat_of(row: &GameRow, user_id: i64) -> Option<usize> {
    row.seats
        .iter()
        .position(|s| matches!(s, SeatRow::User { id, .. } if *id == user_id))
}

/// The result of a finished game for `seat`, and its place (from 1) in
/// the final ranking; `None` while unfinished and for an aborted game,
/// which has no result.
pub fn side_of(games: &Registry, row: &GameRow, seat: usize) -> Option<(Side, usize)> {
    if row.status != "finished" || row.result.as_deref() == Some("aborted") {
        return None;
    }
    let placings = match &row.placings {
        Some(p) => p.clone(),
        None => match games.winner_of(&row.rules, row.seats.len(), row.result.as_deref())? {
            Some(w) => vec![vec![w], (0..row.seats.len()).filter(|&s| s != w).collect()],
            None => vec![(0..row.seats.len()).collect()],
        },
    };
    let place = placings.iter().position(|g| g.contains(&seat))?;
    let side = if placings.len() < 2 {
        Side::Drawn
    } else if place == 0 {
        Side::Won
    } else {
        Side::Lost
    };
    Some((side, place + 1))
}

/// Won, drawn and lost games per kind (rating family) of `user_id` among
/// `rows`; a kind appears once the user has a game of it, finished or not.
pub fn totals(games: &Registry, rows: &[GameRow], user_id: i64) -> BTreeMap<String, Totals> {
    let mut out: BTreeMap<String, Totals> = BTreeMap::new();
    for row in rows {
        let Some(seat) = seat_of(row, user_id) else {
            continue;
        };
        let kind = games
            .family_of(&row.rules)
            .map_or_else(|| row.rules.clone(), str::to_string);
        let entry = out.entry(kind).or_default();
        if let Some((side, _)) = side_of(games, row, seat) {
            entry.add(side);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(status: &str, result: Option<&str>, placings: Option<Vec<Vec<usize>>>) -> GameRow {
        GameRow {
            id: "g".into(),
            rules: "none".into(),
            options: Default::default(),
            start_fen: None,
            initial_ms: 0,
            increment_ms: 0,
            rated: false,
            seats: vec![
                SeatRow::User {
                    id: 1,
                    name: "a".into(),
                    bot: false,
                },
                SeatRow::User {
                    id: 2,
                    name: "b".into(),
                    bot: false,
                },
                SeatRow::Ai { level: 3 },
            ],
            status: status.into(),
            result: result.map(str::to_string),
            reason: None,
            explanation: None,
            clocks: vec![],
            created_ms: 0,
            updated_ms: 0,
            rematch_of: None,
            placings,
        }
    }

    #[test]
    fn placings_give_each_seat_its_side_and_place() {
        let games = Registry::new();
        let r = row(
            "finished",
            Some("seat2"),
            Some(vec![vec![1], vec![2], vec![0]]),
        );
        assert_eq!(seat_of(&r, 2), Some(1));
        assert_eq!(side_of(&games, &r, 1), Some((Side::Won, 1)));
        assert_eq!(side_of(&games, &r, 0), Some((Side::Lost, 3)));
        let draw = row("finished", Some("draw"), Some(vec![vec![0, 1, 2]]));
        assert_eq!(side_of(&games, &draw, 0), Some((Side::Drawn, 1)));
        // An unknown variant's seats are seat1, seat2, …: the result names one.
        let named = row("finished", Some("seat1"), None);
        assert_eq!(side_of(&games, &named, 0), Some((Side::Won, 1)));
        assert_eq!(side_of(&games, &named, 1), Some((Side::Lost, 2)));
        assert_eq!(
            side_of(&games, &row("finished", Some("aborted"), None), 0),
            None
        );
        assert_eq!(side_of(&games, &row("playing", None, None), 0), None);
        let t = totals(&games, &[r, draw, named, row("playing", None, None)], 1);
        assert_eq!(
            t.get("none"),
            Some(&Totals {
                won: 1,
                drawn: 1,
                lost: 1
            })
        );
    }
}
