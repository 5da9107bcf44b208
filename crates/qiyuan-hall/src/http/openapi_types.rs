//! Schemas of answers the hall builds as JSON values (game states, events,
//! standings, ratings, kinds) in modules that do not serialise one type:
//! these types describe those values for the OpenAPI document and are never
//! built. Most fields are `required = false`: the values are assembled field
//! by field and some fields appear only in some states (a result once a game
//! is over, a stage once an event runs). The API fuzzer (tests/fuzz/run.sh)
//! checks every answer it gets against them.
//!
//! Answers serialised from one type (sessions, errors, created games) are
//! documented by that type where the handler uses it.

#![allow(dead_code)] // Read by the schema derive only.

use std::collections::BTreeMap;

use utoipa::ToSchema;

/// `GET /api/kinds`.
#[derive(ToSchema)]
pub struct Kinds {
    kinds: Vec<KindInfo>,
}

/// One kind (rating family) on offer.
#[derive(ToSchema)]
pub struct KindInfo {
    id: String,
    /// The page's module for this kind.
    web_module: String,
    /// Whether it has an AI.
    ai: bool,
    /// The points ledger its games settle, if any.
    #[schema(required = false)]
    settlement: Option<String>,
    /// The default clock.
    #[schema(required = false, value_type = Object)]
    clock: serde_json::Value,
    variants: Vec<VariantInfo>,
}

/// One variant of a kind.
#[derive(ToSchema)]
pub struct VariantInfo {
    name: String,
    /// The seat counts it can be played with.
    seats: Vec<i64>,
    options: Vec<OptionInfo>,
}

/// An option a room may set, with its bounds.
#[derive(ToSchema)]
pub struct OptionInfo {
    #[schema(required = false)]
    name: String,
    #[schema(required = false)]
    min: i64,
    #[schema(required = false)]
    max: i64,
    #[schema(required = false)]
    about: String,
}

/// A rating with its rank title (H2).
#[derive(ToSchema)]
pub struct RatingInfo {
    #[schema(required = false)]
    rating: i64,
    /// Rank title (H2), e.g. 草民.
    #[schema(required = false)]
    title: String,
    /// English gloss.
    #[schema(required = false)]
    title_en: String,
    /// Rated games (null for AI levels).
    #[schema(required = false)]
    games: Option<i64>,
}

/// `GET /api/ratings`: name -> rating (unknown names are left out).
#[derive(ToSchema)]
pub struct RatingsBody(BTreeMap<String, RatingInfo>);

/// `GET /api/leaderboard/{game}`: a rating family's top 100, or a points
/// ledger's balances for `{family}-points`.
#[derive(ToSchema)]
#[serde(untagged)]
pub enum LeaderboardBody {
    /// The top 100 by rating.
    Ratings(Leaderboard),
    /// A points ledger's highest balances.
    Points(PointsLeaderboard),
}

/// The top 100 of a rating family.
#[derive(ToSchema)]
pub struct Leaderboard {
    /// The rating family.
    game: String,
    rows: Vec<LeaderboardRow>,
}

/// One row of a leaderboard.
#[derive(ToSchema)]
pub struct LeaderboardRow {
    #[serde(flatten)]
    rating: RatingInfo,
    #[schema(required = false)]
    rank: i64,
    #[schema(required = false)]
    username: String,
}

/// A points ledger's balances (B13-B17), highest first.
#[derive(ToSchema)]
pub struct PointsLeaderboard {
    /// The ledger.
    family: String,
    players: Vec<PointsRow>,
}

/// One balance of a points ledger.
#[derive(ToSchema)]
pub struct PointsRow {
    #[schema(required = false)]
    rank: i64,
    #[schema(required = false)]
    username: String,
    #[schema(required = false)]
    points: i64,
}
