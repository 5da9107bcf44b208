//! Schemas of answers the hall still builds as JSON values (the kinds, in
//! `GET /api/kinds`): these types describe those values for the OpenAPI
//! document and are never built. Some fields are `required = false`: the
//! values are assembled field by field. The API fuzzer (tests/fuzz/run.sh)
//! checks every answer it gets against them.
//!
//! Answers serialised from one type (sessions, errors, created games, and
//! the events, standings, ratings and profiles of `crate::tournaments`) are
//! documented by that type where the handler uses it.

#![allow(dead_code)] // Read by the schema derive only.

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
    /// Whether it reads game files (`POST /api/import`).
    imports: bool,
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
