//! Points ledgers of kinds with a settlement (game points,
//! B13-B17): a finished game settles each seat's change into the players'
//! balances, once (the ledger refuses a second settlement of the same game).
//! Games with an AI seat and rooms from a set-up position settle nothing:
//! their points could be farmed.

use std::collections::BTreeMap;

use serde::Serialize;
use utoipa::ToSchema;

use crate::domain::hall::{Hall, HallError, HallResult, Live};
use crate::store::SeatRow;

/// The finisher's listener that settles points ledgers.
pub struct Ledgers;

#[async_trait::async_trait]
impl crate::domain::finisher::FinishListener for Ledgers {
    async fn finished(&self, hall: &Hall, live: &Live) {
        hall.settle_points(live).await;
    }
}

impl Hall {
    /// Settles a finished game's points into its players' balances.
    async fn settle_points(&self, live: &Live) {
        if live.row.status != "finished"
            || live.row.reason.as_deref() == Some(qiyuan_core::EndReason::Aborted.as_str())
            || live.row.start_fen.is_some()
            || live
                .row
                .seats
                .iter()
                .any(|s| !matches!(s, SeatRow::User { .. }))
        {
            return;
        }
        let Some(family) = self
            .games
            .find(&live.row.rules)
            .and_then(|(k, _)| k.settlement())
        else {
            return;
        };
        let base = live
            .row
            .options
            .get(qiyuan_core::kind::BASE_OPTION)
            .copied()
            .unwrap_or(1);
        let Some(deltas) = live.table.game_points(base) else {
            return;
        };
        let rows: Vec<(i64, i64)> = live
            .row
            .seats
            .iter()
            .zip(deltas)
            .filter_map(|(s, d)| match s {
                SeatRow::User { id, .. } => Some((*id, d)),
                _ => None,
            })
            .collect();
        if let Err(e) = self.store.settle_points(&live.row.id, family, &rows).await {
            tracing::error!(game = %live.row.id, error = %e, "cannot settle game points");
        }
    }
}

/// Whether `family` names a points ledger.
pub fn is_ledger(hall: &Hall, family: &str) -> bool {
    hall.games
        .kinds()
        .iter()
        .any(|k| k.settlement() == Some(family))
}

/// A user's balance in every ledger, by family.
pub async fn balances(hall: &Hall, user_id: i64) -> HallResult<BTreeMap<String, i64>> {
    let mut out = BTreeMap::new();
    for k in hall.games.kinds() {
        if let Some(family) = k.settlement() {
            let b = hall
                .store
                .points_balance(user_id, family)
                .await
                .map_err(HallError::internal)?;
            out.insert(family.to_string(), b);
        }
    }
    Ok(out)
}

/// A points ledger's balances (B13-B17), highest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct PointsLeaderboard {
    /// The ledger.
    pub family: String,
    pub players: Vec<PointsRow>,
}

/// One balance of a points ledger.
#[derive(Debug, Serialize, ToSchema)]
pub struct PointsRow {
    /// From 1.
    pub rank: usize,
    pub username: String,
    pub points: i64,
}

/// `GET /api/leaderboard/{family}-points`: the highest balances of a ledger.
pub async fn leaderboard(hall: &Hall, family: &str) -> HallResult<PointsLeaderboard> {
    let rows = hall
        .store
        .points_leaderboard(family, 100)
        .await
        .map_err(HallError::internal)?;
    let players = rows
        .into_iter()
        .enumerate()
        .map(|(i, (username, points))| PointsRow {
            rank: i + 1,
            username,
            points,
        })
        .collect();
    Ok(PointsLeaderboard {
        family: family.to_string(),
        players,
    })
}
