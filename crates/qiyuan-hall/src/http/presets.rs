//! Presets: opening actions a player keeps between games, named, per game
//! kind (a hidden army's set-up, say). The kind says
//! what a valid preset is ([`qiyuan_core::GameKind::check_preset`]); the
//! hall stores them, lists them to their owner, and plays the one marked
//! `on_timeout` for a player whose time runs out before acting (Q4: "a
//! saved or random legal set-up is used").

use std::time::Instant;

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::hall::{Hall, HallError, Live, ServerChance};
use crate::error::ErrorCode;
use crate::http::api::{AppState, JsonBody, require_user};
use crate::http::api_bodies::Done;
use crate::http::auth::SignedIn;
use crate::http::responses::{
    BadRequest, NotFound, PayloadTooLarge, TooManyRequests, Unauthorized,
};
use crate::store::SeatRow;

/// Most presets one user keeps (all kinds together).
pub const MAX_PRESETS: usize = 20;
/// Longest preset name, in characters.
pub const MAX_NAME_CHARS: usize = 32;
/// Longest preset text, in bytes.
pub const MAX_TEXT_BYTES: usize = 256;

pub use crate::store::Preset;

/// The caller's presets.
#[derive(Serialize, ToSchema)]
pub struct PresetList {
    presets: Vec<Preset>,
}

/// `PUT /api/presets/{kind}/{name}`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SavePreset {
    /// The action's text, checked by the game kind.
    #[schema(max_length = 256)]
    text: String,
    /// Play it when one's time runs out (clears the mark on one's other
    /// presets of this kind).
    #[serde(default)]
    on_timeout: bool,
}

/// `GET /api/presets`: the caller's presets.
#[utoipa::path(
    get, path = "/api/presets", operation_id = "list_presets", summary = "The caller's saved presets (set-ups kept between games)",
    responses(
        (status = 200, description = "presets by kind, then name", body = PresetList),
        (status = 401, response = Unauthorized),
        (status = 429, response = TooManyRequests),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn list(State(hall): State<AppState>, headers: HeaderMap) -> Result<Response, HallError> {
    let u = require_user(&hall, &headers).await?;
    let presets = hall
        .store
        .list_presets(u.id)
        .await
        .map_err(HallError::internal)?;
    Ok(axum::Json(PresetList { presets }).into_response())
}

/// Checks a preset's name: 1-32 characters, no control characters.
fn check_name(name: &str) -> Result<(), HallError> {
    let n = name.chars().count();
    if n == 0 || n > MAX_NAME_CHARS || name.chars().any(char::is_control) || name.trim() != name {
        return Err(HallError::bad(format!(
            "a preset's name is 1 to {MAX_NAME_CHARS} characters, without control characters or surrounding spaces"
        ))
        .with_code(ErrorCode::BadPresetName));
    }
    Ok(())
}

/// `PUT /api/presets/{kind}/{name}`: saves or replaces one.
#[utoipa::path(
    put, path = "/api/presets/{kind}/{name}", operation_id = "save_preset", summary = "Save (or replace) a preset",
    params(
        ("kind" = String, Path, max_length = 32, description = "a game kind that has presets (see GET /api/kinds)"),
        ("name" = String, Path, max_length = 32, description = "the preset's name"),
    ),
    request_body = SavePreset,
    responses(
        (status = 200, description = "saved", body = Done),
        (status = 400, response = BadRequest),
        (status = 401, response = Unauthorized),
        (status = 404, response = NotFound),
        (status = 413, response = PayloadTooLarge),
        (status = 429, response = TooManyRequests),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn save(
    State(hall): State<AppState>,
    Path((kind, name)): Path<(String, String)>,
    SignedIn(u): SignedIn,
    JsonBody(body): JsonBody<SavePreset>,
) -> Result<Response, HallError> {
    check_name(&name)?;
    let game_kind = hall.games.kind(&kind).ok_or_else(|| {
        HallError::not_found(format!("no game kind '{}'", crate::error::shown(&kind)))
    })?;
    if body.text.len() > MAX_TEXT_BYTES {
        return Err(
            HallError::bad(format!("a preset's text is at most {MAX_TEXT_BYTES} bytes"))
                .with_code(ErrorCode::BadPreset),
        );
    }
    game_kind
        .check_preset(&body.text)
        .map_err(|why| HallError::bad(why).with_code(ErrorCode::BadPreset))?;
    let mine = hall
        .store
        .list_presets(u.id)
        .await
        .map_err(HallError::internal)?;
    let replaces = mine.iter().any(|p| p.kind == kind && p.name == name);
    if !replaces && mine.len() >= MAX_PRESETS {
        return Err(HallError::bad(format!(
            "you keep {MAX_PRESETS} presets at most: delete one first"
        ))
        .with_code(ErrorCode::TooManyPresets)
        .with("max", MAX_PRESETS));
    }
    let preset = Preset {
        kind: game_kind.id().to_string(),
        name,
        text: body.text,
        on_timeout: body.on_timeout,
    };
    hall.store
        .save_preset(u.id, &preset)
        .await
        .map_err(HallError::internal)?;
    Ok(axum::Json(Done { ok: true }).into_response())
}

/// `DELETE /api/presets/{kind}/{name}`.
#[utoipa::path(
    delete, path = "/api/presets/{kind}/{name}", operation_id = "delete_preset", summary = "Delete a preset",
    params(
        ("kind" = String, Path, max_length = 32, description = "its game kind"),
        ("name" = String, Path, max_length = 32, description = "its name"),
    ),
    responses(
        (status = 200, description = "deleted", body = Done),
        (status = 401, response = Unauthorized),
        (status = 404, response = NotFound),
        (status = 429, response = TooManyRequests),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn delete(
    State(hall): State<AppState>,
    Path((kind, name)): Path<(String, String)>,
    SignedIn(u): SignedIn,
) -> Result<Response, HallError> {
    let gone = kind.len() <= 32
        && name.chars().count() <= MAX_NAME_CHARS
        && hall
            .store
            .delete_preset(u.id, &kind, &name)
            .await
            .map_err(HallError::internal)?;
    if !gone {
        return Err(HallError::not_found(format!(
            "you have no preset '{}'",
            crate::error::shown(&name)
        )));
    }
    Ok(axum::Json(Done { ok: true }).into_response())
}

impl Hall {
    /// When `seat`'s flag falls: its owner's preset marked `on_timeout`, if
    /// the game accepts it as the seat's action now, played and stored like
    /// a move. `Some(ended)` when it was played; `None` to let the game's own
    /// rule for a fallen flag apply.
    pub(crate) async fn timeout_preset_turn(
        &self,
        live: &mut Live,
        seat: usize,
        now: Instant,
    ) -> Option<bool> {
        let Some(SeatRow::User { id, .. }) = live.row.seats.get(seat) else {
            return None;
        };
        let kind = self.games.kind_of(&live.row.rules).ok()?.0.id();
        let text = match self.store.timeout_preset(*id, kind).await {
            Ok(t) => t?,
            Err(e) => {
                tracing::warn!(game = %live.row.id, error = ?e, "cannot read a timeout preset");
                return None;
            }
        };
        let mut after = live.table.boxed_clone();
        let mut chance = ServerChance::default();
        after.play_for(seat, &text, &mut chance).ok()?;
        Some(self.preset_turn(live, seat, after, chance.draws, now).await)
    }
}
