//! TV (`GET /api/tv`): the featured game in play of each game kind, the
//! one whose seats have the highest mean rating. Each seat counts at its
//! rating in the family the game is rated in ([`family_of`] for two
//! seats, [`multi_family`] for more; the start rating before a first
//! rated game), an AI seat at its level's fixed rating ([`ai_rating`]), as
//! pools and the rating of finished games count them. Nothing is kept: each
//! request looks at the games in play then, so once the featured game
//! ends the next request features the next one. What is shown of the game
//! is the spectators' view (a game that hides anything shows only what
//! every spectator sees).

use std::collections::{BTreeMap, HashMap};

use qiyuan_events::rating::Rating;
use serde::Serialize;
use utoipa::ToSchema;

use crate::domain::hall::{Hall, HallError, HallResult};
use crate::domain::state_view::GameClock;
use crate::domain::view::InPlay;
use crate::error::ErrorCode;
use crate::store::SeatRow;
use crate::tournaments::ratings::{ai_rating, family_of, multi_family};

/// `GET /api/tv`: the featured game of each kind with a game in play.
#[derive(Serialize, ToSchema)]
#[schema(as = Tv)]
pub struct TvBody {
    /// One entry per kind with a game in play, in the order of
    /// `GET /api/kinds`.
    pub featured: Vec<TvGame>,
}

/// A kind's featured game.
#[derive(Serialize, ToSchema)]
pub struct TvGame {
    /// The game kind (its id in `GET /api/kinds`).
    pub kind: String,
    /// The game's id (`GET /api/games/{id}`, its socket and stream).
    pub id: String,
    /// The variant.
    pub game: String,
    /// The rating family the seats are counted in.
    pub family: String,
    /// The mean of the seats' ratings, rounded: what made it featured.
    pub rating: i64,
    /// Who sits where, with their ratings.
    pub players: Vec<TvPlayer>,
    /// Remaining ms per seat, when the answer was made.
    pub clocks: Vec<i64>,
    /// Every seat whose clock runs.
    pub running_seats: Vec<usize>,
    pub clock: GameClock,
    /// How many moves the game has.
    pub plies: usize,
    /// The position as spectators see it.
    pub fen: String,
    /// How many watch it (see `watchers` in GameState).
    pub watchers: usize,
    /// The game's newest change.
    pub version: u64,
}

/// One seat of a featured game.
#[derive(Serialize, ToSchema)]
pub struct TvPlayer {
    pub seat: usize,
    /// The person's name (absent for an AI seat).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The AI's level (1-8), for an AI seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ai_level: Option<u8>,
    /// The rating the seat counts at, rounded.
    pub rating: i64,
}

/// A game in play with its seats' ratings.
struct Candidate {
    game: InPlay,
    family: String,
    ratings: Vec<f64>,
    mean: f64,
}

/// Ratings looked up once per request.
type Cache = HashMap<(i64, String), f64>;

/// The rating `seat` of a game of `rules` counts at in `family`
/// (`multi`: the multi-player family), or none for an open seat.
async fn seat_rating(
    hall: &Hall,
    rules: &str,
    family: &str,
    multi: bool,
    seat: &SeatRow,
    cache: &mut Cache,
) -> HallResult<Option<f64>> {
    Ok(match seat {
        SeatRow::Open => None,
        SeatRow::Ai { level } => Some(ai_rating(hall, rules, *level)),
        SeatRow::User { id, .. } => {
            let key = (*id, family.to_string());
            if let Some(r) = cache.get(&key) {
                return Ok(Some(*r));
            }
            let r = if multi {
                hall.store
                    .multi_rating(*id, family)
                    .await
                    .map_err(HallError::internal)?
                    .unwrap_or_default()
                    .value
            } else {
                hall.store
                    .rating(*id, family)
                    .await
                    .map_err(HallError::internal)?
                    .unwrap_or_default()
                    .value
            };
            cache.insert(key, r);
            Some(r)
        }
    })
}

/// The featured game of each kind (of `kind` alone, if given: a 404
/// `not_found` for a kind the hall does not have, as for an unknown
/// leaderboard: the name is well formed, the thing is not there).
pub async fn tv(hall: &Hall, kind: Option<&str>) -> HallResult<TvBody> {
    if let Some(k) = kind
        && hall.games.kind(k).is_none()
    {
        return Err(
            HallError::not_found(format!("no game kind '{}'", crate::error::shown(k)))
                .with_code(ErrorCode::NotFound),
        );
    }
    let mut cache = Cache::new();
    let mut by_kind: BTreeMap<&'static str, Vec<Candidate>> = BTreeMap::new();
    for game in hall.games_in_play() {
        let Some(k) = hall.games.family_of(&game.game) else {
            continue;
        };
        if kind.is_some_and(|want| want != k) {
            continue;
        }
        let multi = game.seats.len() > 2;
        let family = if multi {
            multi_family(hall, &game.game)
        } else {
            family_of(hall, &game.game)
        };
        let mut ratings = Vec::with_capacity(game.seats.len());
        for s in &game.seats {
            let r = seat_rating(hall, &game.game, &family, multi, s, &mut cache).await?;
            ratings.push(r.unwrap_or_else(|| Rating::default().value));
        }
        let mean = ratings.iter().sum::<f64>() / ratings.len().max(1) as f64;
        by_kind.entry(k).or_default().push(Candidate {
            game,
            family,
            ratings,
            mean,
        });
    }
    let mut featured = Vec::new();
    for k in hall.games.kinds() {
        let Some(mut list) = by_kind.remove(k.id()) else {
            continue;
        };
        // Highest mean first; of equals, the game that started first.
        list.sort_by(|a, b| {
            b.mean
                .total_cmp(&a.mean)
                .then(a.game.created_ms.cmp(&b.game.created_ms))
                .then(a.game.id.cmp(&b.game.id))
        });
        // The list is of a moment ago: a game that has ended since gives
        // way to the next.
        for c in list {
            let Ok(state) = hall.state(&c.game.id, None).await else {
                continue;
            };
            if state.status != "playing" {
                continue;
            }
            featured.push(TvGame {
                kind: k.id().to_string(),
                id: c.game.id,
                game: c.game.game,
                family: c.family,
                rating: c.mean.round() as i64,
                players: c
                    .game
                    .seats
                    .iter()
                    .zip(&c.ratings)
                    .enumerate()
                    .map(|(i, (s, r))| TvPlayer {
                        seat: i,
                        name: match s {
                            SeatRow::User { name, .. } => Some(name.clone()),
                            _ => None,
                        },
                        ai_level: match s {
                            SeatRow::Ai { level } => Some(*level),
                            _ => None,
                        },
                        rating: r.round() as i64,
                    })
                    .collect(),
                clocks: state.clocks,
                running_seats: state.running_seats,
                clock: state.clock,
                plies: state.plies,
                fen: state.fen,
                watchers: state.watchers,
                version: state.version,
            });
            break;
        }
    }
    Ok(TvBody { featured })
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_start_rating_is_the_same_in_both_scales() {
        // A seat without rated games counts at the start rating, whichever
        // scale its family uses, so a new player ranks the same in both.
        let elo = super::Rating::default().value;
        let multi = qiyuan_events::multi::MultiRating::default().value;
        assert!((elo - multi).abs() < 1.0, "{elo} vs {multi}");
    }
}
