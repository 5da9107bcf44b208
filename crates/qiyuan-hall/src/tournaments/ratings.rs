//! Elo ratings per game family (H1) and rank titles (H2) in the hall; games
//! of more than two seats are rated on their own Weng-Lin scale, in the
//! family `{family}-multi` ([`multi_family`]).
//!
//! A rated game is rated once, when it ends, by the background hook task
//! (see [`crate::tournaments::events`]), so rating updates never race each other. The
//! arithmetic lives in `qiyuan-events`; this module decides *whether* and
//! *against whom* a game is rated and stores the result with its history.

use qiyuan_events::rating::{EloScore, Rating, rate_game, rate_vs_ai};
use qiyuan_events::title::RankTitle;
use std::collections::BTreeMap;

use serde::Serialize;
use utoipa::ToSchema;

use crate::domain::hall::{Hall, HallError, HallResult};
use crate::domain::points::PointsLeaderboard;
use crate::error::ErrorCode;
use crate::store::{GameRow, RatingUpdate, SeatRow};

/// The game family a rule set is rated in (H1): its kind's id (each
/// kind is one family, whatever its variants).
pub fn family_of(hall: &Hall, rules: &str) -> String {
    hall.games
        .family_of(rules)
        .map_or_else(|| rules.to_string(), str::to_string)
}

/// The family games of more than two seats of `rules`'s kind are rated in.
/// A kind played only by more than two seats has a single scale, named
/// after the kind itself.
pub fn multi_family(hall: &Hall, rules: &str) -> String {
    let family = family_of(hall, rules);
    let only_multi = hall
        .games
        .kind(&family)
        .is_some_and(|k| k.variants().iter().all(|v| v.seats.iter().all(|&n| n > 2)));
    if only_multi {
        family
    } else {
        format!("{family}{MULTI_SUFFIX}")
    }
}

/// What marks a multi-player rating family.
pub const MULTI_SUFFIX: &str = "-multi";

/// The fixed rating of an AI level (H1) in the kind of `rules`, from its
/// calibration; the start rating where the kind has no AI.
pub fn ai_rating(hall: &Hall, rules: &str, level: u8) -> f64 {
    // A multi-player family names its kind with a suffix.
    let rules = rules.strip_suffix(MULTI_SUFFIX).unwrap_or(rules);
    hall.games
        .find(rules)
        .or_else(|| hall.games.kind(rules).map(|k| (k, &k.variants()[0])))
        .and_then(|(k, _)| k.ai().map(|ai| ai.rating(level.clamp(1, 8))))
        .unwrap_or(Rating::default().value)
}

/// A rating as the API shows it: the rounded number, the title (H2) in
/// Chinese and its English gloss, and the games played. `None` is a player
/// without rated games: shown at the start rating.
pub fn rating_info(r: Option<&Rating>) -> RatingInfo {
    let r = r.copied().unwrap_or_default();
    let t = r.title();
    RatingInfo {
        rating: i64::from(r.shown()),
        title: t.chinese(),
        title_en: t.english(),
        games: Some(r.rated_games),
        guest: None,
    }
}

/// An AI level's fixed rating (H1) with its title; no games.
fn ai_info(hall: &Hall, rules: &str, level: u8) -> RatingInfo {
    let v = ai_rating(hall, rules, level);
    let t = RankTitle::for_rating(v);
    RatingInfo {
        rating: v.round() as i64,
        title: t.chinese(),
        title_en: t.english(),
        games: None,
        guest: None,
    }
}

/// A rating with its rank title (H2).
#[derive(Debug, Serialize, ToSchema)]
pub struct RatingInfo {
    /// Rounded.
    pub rating: i64,
    /// Rank title (H2), e.g. 草民.
    pub title: &'static str,
    /// English gloss.
    pub title_en: &'static str,
    /// Rated games (null for AI levels).
    pub games: Option<u32>,
    /// Whether the account is a guest: in `GET /api/ratings`, for accounts
    /// (not AI levels); absent elsewhere.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub guest: Option<bool>,
}

/// `GET /api/ratings`: name -> rating (unknown names are left out).
#[derive(Debug, Serialize, ToSchema)]
pub struct RatingsBody(pub BTreeMap<String, RatingInfo>);

/// `GET /api/leaderboard/{game}`: a rating family's top 100, or a points
/// ledger's balances for `{family}-points`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum LeaderboardBody {
    /// The top 100 by rating.
    Ratings(Leaderboard),
    /// A points ledger's highest balances.
    Points(PointsLeaderboard),
}

/// The top 100 of a rating family.
#[derive(Debug, Serialize, ToSchema)]
pub struct Leaderboard {
    /// The rating family.
    pub game: String,
    pub rows: Vec<LeaderboardRow>,
}

/// One row of a leaderboard.
#[derive(Debug, Serialize, ToSchema)]
pub struct LeaderboardRow {
    #[serde(flatten)]
    pub rating: RatingInfo,
    /// From 1.
    pub rank: usize,
    pub username: String,
}

/// Rates a finished game if it counts (H1): the room was rated, it started
/// from the normal position, every person in it has an account (guests are
/// never rated) and it has a result. Against the AI only the person's rating
/// moves, against the level's fixed rating. Returns whether it rated.
pub async fn rate_finished_game(hall: &Hall, row: &GameRow) -> anyhow::Result<bool> {
    if !row.rated || row.start_fen.is_some() || row.status != "finished" {
        return Ok(false);
    }
    if row.seats.len() > 2 {
        return rate_multi_player_game(hall, row).await;
    }
    if row.seats.len() != 2 {
        return Ok(false);
    }
    let score_red = match hall.games.winner_of(&row.rules, 2, row.result.as_deref()) {
        Some(Some(0)) => EloScore::Win,
        Some(Some(_)) => EloScore::Loss,
        Some(None) => EloScore::Draw,
        None => return Ok(false),
    };
    let family = family_of(hall, &row.rules);
    // Who sits where: a person (their id and current rating) or an AI level.
    let mut sides = Vec::with_capacity(2);
    for seat in &row.seats {
        match seat {
            SeatRow::User { id, name, .. } => {
                if !registered(hall, *id, name).await? {
                    return Ok(false);
                }
                let r = hall.store.rating(*id, &family).await?.unwrap_or_default();
                sides.push(Err((*id, r)));
            }
            SeatRow::Ai { level } => sides.push(Ok(ai_rating(hall, &row.rules, *level))),
            SeatRow::Open => return Ok(false),
        }
    }
    let updates = match (&sides[0], &sides[1]) {
        (Err((red, rr)), Err((black, br))) => {
            let (ra, ba) = rate_game(rr, br, score_red);
            vec![
                RatingUpdate {
                    user_id: *red,
                    before: *rr,
                    after: ra,
                    deviation: None,
                },
                RatingUpdate {
                    user_id: *black,
                    before: *br,
                    after: ba,
                    deviation: None,
                },
            ]
        }
        (Err((red, rr)), Ok(level)) => vec![RatingUpdate {
            user_id: *red,
            before: *rr,
            after: rate_vs_ai(rr, *level, score_red),
            deviation: None,
        }],
        (Ok(level), Err((black, br))) => vec![RatingUpdate {
            user_id: *black,
            before: *br,
            after: rate_vs_ai(br, *level, score_red.reversed()),
            deviation: None,
        }],
        // Two engines: nothing to rate.
        (Ok(_), Ok(_)) => return Ok(false),
    };
    Ok(hall.store.apply_ratings(&row.id, &family, &updates).await?)
}

/// Rates a finished game of more than two seats by its placings (Weng-Lin,
/// H1): every person against everyone else; AI seats count at their level's
/// fixed rating and are not changed.
async fn rate_multi_player_game(hall: &Hall, row: &GameRow) -> anyhow::Result<bool> {
    use qiyuan_events::multi::{MultiRating, rate_places};
    let placings = match (
        &row.placings,
        hall.games
            .winner_of(&row.rules, row.seats.len(), row.result.as_deref()),
    ) {
        (Some(p), _) => p.clone(),
        (None, Some(Some(w))) => vec![vec![w], (0..row.seats.len()).filter(|&s| s != w).collect()],
        (None, Some(None)) => vec![(0..row.seats.len()).collect()],
        (None, None) => return Ok(false),
    };
    let place = |seat: usize| {
        placings
            .iter()
            .position(|g| g.contains(&seat))
            .map(|p| p + 1)
    };
    let family = multi_family(hall, &row.rules);
    let mut players = Vec::with_capacity(row.seats.len());
    let mut people = Vec::new();
    for (i, seat) in row.seats.iter().enumerate() {
        let Some(p) = place(i) else { return Ok(false) };
        match seat {
            SeatRow::User { id, name, .. } => {
                if !registered(hall, *id, name).await? {
                    return Ok(false);
                }
                let r = hall
                    .store
                    .multi_rating(*id, &family)
                    .await?
                    .unwrap_or_default();
                people.push((players.len(), *id));
                players.push((r, p));
            }
            SeatRow::Ai { level } => {
                players.push((MultiRating::fixed(ai_rating(hall, &row.rules, *level)), p));
            }
            SeatRow::Open => return Ok(false),
        }
    }
    if people.is_empty() {
        return Ok(false);
    }
    let teams = hall
        .games
        .find(&row.rules)
        .and_then(|(k, v)| k.teams(v.name, row.seats.len()));
    let after = match teams {
        Some(teams) => rate_team_places(&players, &teams),
        None => rate_places(&players),
    };
    let shown = |r: &MultiRating| Rating {
        value: r.value,
        rated_games: r.rated_games,
        reached_top: false,
    };
    let updates: Vec<RatingUpdate> = people
        .iter()
        .map(|&(i, user_id)| RatingUpdate {
            user_id,
            before: shown(&players[i].0),
            after: shown(&after[i]),
            deviation: Some(after[i].deviation),
        })
        .collect();
    Ok(hall.store.apply_ratings(&row.id, &family, &updates).await?)
}

/// Team Weng-Lin: each team's players with the team's place (its best
/// seat's, as a team's seats share one), rated together; the result in
/// seat order. A seat in no team is a team of its own.
fn rate_team_places(
    players: &[(qiyuan_events::multi::MultiRating, usize)],
    teams: &[Vec<usize>],
) -> Vec<qiyuan_events::multi::MultiRating> {
    let mut groups: Vec<Vec<usize>> = teams
        .iter()
        .map(|t| t.iter().copied().filter(|&s| s < players.len()).collect())
        .filter(|t: &Vec<usize>| !t.is_empty())
        .collect();
    for s in 0..players.len() {
        if !groups.iter().any(|g| g.contains(&s)) {
            groups.push(vec![s]);
        }
    }
    let input: Vec<_> = groups
        .iter()
        .map(|g| {
            let place = g.iter().map(|&s| players[s].1).min().unwrap_or(1);
            (g.iter().map(|&s| players[s].0).collect::<Vec<_>>(), place)
        })
        .collect();
    let rated = qiyuan_events::multi::rate_teams(&input);
    let mut out: Vec<_> = players.iter().map(|(r, _)| *r).collect();
    for (g, team) in groups.iter().zip(rated) {
        for (&s, r) in g.iter().zip(team) {
            out[s] = r;
        }
    }
    out
}

/// Whether the seat's user is still the registered account `id` (guests
/// and renamed or deleted accounts are not rated).
async fn registered(hall: &Hall, id: i64, name: &str) -> anyhow::Result<bool> {
    Ok(hall
        .store
        .user_by_name(name)
        .await?
        .is_some_and(|u| !u.guest && u.id == id))
}

/// A 400 `unknown_game` unless `game` is a rule set or a family name (a
/// kind with variants of more than two seats also has `{family}-multi`).
fn known_family(hall: &Hall, game: &str) -> HallResult<()> {
    let multi = game
        .strip_suffix(MULTI_SUFFIX)
        .and_then(|f| hall.games.kind(f))
        .is_some_and(|k| k.variants().iter().any(|v| v.seats.iter().any(|&n| n > 2)));
    if multi || hall.games.find(game).is_some() || hall.games.kind(game).is_some() {
        return Ok(());
    }
    Err(HallError::bad(format!(
        "no game family '{}' (known: {})",
        crate::error::shown(game),
        hall.games.variant_names().join(", ")
    ))
    .with_code(ErrorCode::UnknownGame)
    .with("game", crate::error::shown(game)))
}

/// `GET /api/leaderboard/{game}`: the top 100 of a family.
pub async fn leaderboard(hall: &Hall, game: &str) -> HallResult<LeaderboardBody> {
    // `{family}-points`: a points ledger, not a rating family.
    if let Some(family) = game.strip_suffix("-points")
        && crate::domain::points::is_ledger(hall, family)
    {
        return Ok(LeaderboardBody::Points(
            crate::domain::points::leaderboard(hall, family).await?,
        ));
    }
    known_family(hall, game).map_err(|mut e| {
        e.status = 404;
        e
    })?;
    let family = family_of(hall, game);
    let rows = hall
        .store
        .leaderboard(&family, 100)
        .await
        .map_err(HallError::internal)?;
    let rows = rows
        .into_iter()
        .enumerate()
        .map(|(i, (username, r))| LeaderboardRow {
            rating: rating_info(Some(&r)),
            rank: i + 1,
            username,
        })
        .collect();
    Ok(LeaderboardBody::Ratings(Leaderboard { game: family, rows }))
}

/// `GET /api/ratings?game=G&players=a,b,ai:3`: the rating and title of each
/// named player (users by name, AI levels as `ai:N`) in one family, for the
/// page to show titles next to names. Unknown names are left out.
pub async fn ratings_for(hall: &Hall, game: &str, players: &str) -> HallResult<RatingsBody> {
    known_family(hall, game)?;
    let family = family_of(hall, game);
    let max = crate::limits::MAX_RATINGS_PLAYERS;
    let names: Vec<&str> = players
        .split(',')
        .filter(|s| !s.is_empty())
        .take(max + 1)
        .collect();
    crate::limits::check_len("players", names.len(), max)?;
    let mut out = BTreeMap::new();
    for name in names {
        if let Some(level) = name.strip_prefix("ai:").and_then(|n| n.parse::<u8>().ok()) {
            if (1..=8).contains(&level) {
                out.insert(name.to_string(), ai_info(hall, game, level));
            }
            continue;
        }
        if name.len() > 64 {
            continue;
        }
        let Some(user) = hall
            .store
            .user_by_name(name)
            .await
            .map_err(HallError::internal)?
        else {
            continue;
        };
        let r = hall
            .store
            .rating(user.id, &family)
            .await
            .map_err(HallError::internal)?;
        let mut v = rating_info(r.as_ref());
        v.guest = Some(user.guest);
        out.insert(name.to_string(), v);
    }
    Ok(RatingsBody(out))
}

/// `GET /api/games/{id}/ratings`: whether game `id`'s room was rated and
/// the rating changes the game made, by seat, rounded as shown, with the
/// title after the game. A 404 for an unknown game.
pub async fn game_ratings(hall: &Hall, id: &str) -> HallResult<GameRatingsBody> {
    let row = hall.game_row(id).await?;
    let stored = hall
        .store
        .game_rating_changes(&row.id)
        .await
        .map_err(HallError::internal)?;
    let mut changes: Vec<RatingChangeBody> = stored
        .into_iter()
        .filter_map(|c| {
            let seat = row
                .seats
                .iter()
                .position(|s| matches!(s, SeatRow::User { id, .. } if *id == c.user_id))?;
            let title = RankTitle::for_rating(c.after);
            Some(RatingChangeBody {
                seat,
                username: c.username,
                family: c.family,
                before: c.before.round() as i64,
                after: c.after.round() as i64,
                title: title.chinese(),
                title_en: title.english(),
            })
        })
        .collect();
    changes.sort_by_key(|c| c.seat);
    Ok(GameRatingsBody {
        rated: row.rated,
        changes,
    })
}

/// A profile's ratings by family and its rating history (for the chart).
pub async fn profile_ratings(
    hall: &Hall,
    user_id: i64,
) -> HallResult<(BTreeMap<String, RatingInfo>, Vec<RatingPointView>)> {
    let ratings = hall
        .store
        .ratings_of(user_id)
        .await
        .map_err(HallError::internal)?;
    let by_family = ratings
        .iter()
        .map(|(family, r)| (family.clone(), rating_info(Some(r))))
        .collect();
    let history = hall
        .store
        .rating_history(user_id)
        .await
        .map_err(HallError::internal)?;
    let history = history
        .into_iter()
        .map(|p| RatingPointView {
            game: p.family,
            game_id: p.game_id,
            rating: (p.rating * 10.0).round() / 10.0,
            at_ms: p.at_ms,
        })
        .collect();
    Ok((by_family, history))
}

/// One point of a rating history.
#[derive(Debug, Serialize, ToSchema)]
pub struct RatingPointView {
    /// The rating family.
    pub game: String,
    /// The game that moved the rating.
    pub game_id: String,
    /// The rating after it, to a tenth.
    pub rating: f64,
    pub at_ms: i64,
}

/// `GET /api/users/{name}`: a profile.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = Profile)]
pub struct ProfileView {
    pub username: String,
    pub guest: bool,
    /// A bot account (`POST /api/account/bot`).
    pub bot: bool,
    /// The 50 most recent games, newest first.
    pub games: Vec<ProfileGame>,
    /// Ratings by family (H1, H2).
    pub ratings: BTreeMap<String, RatingInfo>,
    pub rating_history: Vec<RatingPointView>,
    /// Balances by points ledger (B13-B17), only of ledgers whose kind the
    /// user has played (or with a balance): a ledger never touched is not
    /// a "0 points" to show.
    pub points: BTreeMap<String, i64>,
    /// Won, drawn and lost games by kind (rating family), over the user's
    /// latest 1000 games; a kind is listed once the user has a game of it.
    pub totals: BTreeMap<String, crate::tournaments::profile::Totals>,
}

/// One game of a profile.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProfileGame {
    pub id: String,
    /// The rule set.
    pub game: String,
    pub status: String,
    pub seats: Vec<SeatRow>,
    pub result: Option<String>,
    pub reason: Option<String>,
    pub explanation: Option<String>,
    pub rated: bool,
    pub created_ms: i64,
    /// Whether it started from a set-up position.
    pub setup: bool,
    /// The seat the profile's owner played (from 0), if any.
    pub seat: Option<usize>,
    /// The result from the owner's side once finished (none for an
    /// aborted game).
    pub outcome: Option<crate::tournaments::profile::Side>,
    /// The owner's place in the final ranking, from 1 (games of more than
    /// two seats rank everyone).
    pub place: Option<usize>,
}

/// `GET /api/games/{id}/ratings`: what a game did to its players' ratings.
#[derive(Serialize, ToSchema)]
#[schema(as = GameRatings)]
pub struct GameRatingsBody {
    /// Whether the room was rated (a rated room whose game did not count,
    /// such as one with a guest, has no changes).
    pub(crate) rated: bool,
    /// One entry per rated person, by seat; empty for unrated games and
    /// until the finished game has been rated (moments after its end).
    /// AI seats keep their fixed ratings and have no entry.
    pub(crate) changes: Vec<RatingChangeBody>,
}

/// One person's rating change in a game, as shown: rounded.
#[derive(Serialize, ToSchema)]
#[schema(as = RatingChange)]
pub struct RatingChangeBody {
    pub(crate) seat: usize,
    pub(crate) username: String,
    /// The rating family (the kind's id; `{id}-multi` for more than two seats).
    pub(crate) family: String,
    /// The rating before the game, rounded.
    pub(crate) before: i64,
    /// The rating after the game, rounded.
    pub(crate) after: i64,
    /// The rank title after the game (H2), in Chinese.
    pub(crate) title: &'static str,
    /// Its English gloss.
    pub(crate) title_en: &'static str,
}

impl Hall {
    /// A user's profile: name and recent games.
    pub async fn profile(&self, name: &str) -> HallResult<ProfileView> {
        let user = self
            .store
            .user_by_name(name)
            .await
            .map_err(HallError::internal)?
            .ok_or_else(|| {
                HallError::not_found(format!("no user '{}'", crate::error::shown(name)))
                    .with("name", crate::error::shown(name))
            })?;
        // The latest games, for the totals; the list shows the first 50.
        let rows = self
            .store
            .user_games(user.id, crate::tournaments::profile::TOTALS_OVER)
            .await
            .map_err(HallError::internal)?;
        let totals = crate::tournaments::profile::totals(&self.games, &rows, user.id);
        let games = rows
            .into_iter()
            .take(50)
            .map(|g| {
                let seat = crate::tournaments::profile::seat_of(&g, user.id);
                let side =
                    seat.and_then(|s| crate::tournaments::profile::side_of(&self.games, &g, s));
                ProfileGame {
                    setup: g.start_fen.is_some(),
                    id: g.id,
                    game: g.rules,
                    status: g.status,
                    seats: g.seats,
                    result: g.result,
                    reason: g.reason,
                    explanation: g.explanation,
                    rated: g.rated,
                    created_ms: g.created_ms,
                    seat,
                    outcome: side.map(|(o, _)| o),
                    place: side.map(|(_, p)| p),
                }
            })
            .collect();
        let (ratings, rating_history) = profile_ratings(self, user.id).await?;
        let mut points = crate::domain::points::balances(self, user.id).await?;
        // Only the ledgers of kinds played (a balance, even 0 after a game,
        // shows; a ledger never touched does not).
        points.retain(|family, balance| {
            *balance != 0
                || self
                    .games
                    .kinds()
                    .iter()
                    .any(|k| k.settlement() == Some(family.as_str()) && totals.contains_key(k.id()))
        });
        Ok(ProfileView {
            username: user.username,
            guest: user.guest,
            bot: user.bot,
            games,
            ratings,
            rating_history,
            points,
            totals,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratings_show_rating_title_and_games() {
        // H2 titles come with an English gloss.
        let v = serde_json::to_value(rating_info(None)).expect("json");
        assert_eq!(v["rating"], 1000);
        assert_eq!(v["title"], "草民");
        assert_eq!(v["title_en"], "Commoner");
    }
}
