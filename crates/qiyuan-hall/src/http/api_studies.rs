//! Studies (a player's saved analysis boards), the opening explorer and a
//! player's results by opening (issue 39): thin handlers over the `Hall`
//! methods of `domain/studies.rs` and `tournaments/explorer.rs`.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::domain::hall::HallError;
use crate::domain::studies::{MAX_TREE_BYTES, shown_ply};
use crate::http::api::{AppState, JsonBody, QueryArgs};
use crate::http::api_bodies::Done;
use crate::http::auth::SignedIn;
use crate::http::responses::{
    BadRequest, Conflict, Forbidden, NotFound, PayloadTooLarge, TooManyRequests, Unauthorized,
};
use crate::store::Study;
use crate::tournaments::explorer::{ExplorerBody, OpeningsBody};

/// The routes' common start (their bodies may be [`MAX_STUDY_BODY`] long).
pub const STUDIES_PATH: &str = "/api/studies";
/// A study's body limit: its tree and a little JSON around it.
pub const MAX_STUDY_BODY: usize = MAX_TREE_BYTES + 4096;

/// `POST /api/studies`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewStudy {
    /// The owner's name for it (at most 80 characters; trimmed, control characters dropped).
    #[schema(max_length = 80)]
    name: String,
    /// The variant it studies (a `GET /api/kinds` variant name).
    #[schema(pattern = "^[a-z0-9-]{1,32}$")]
    variant: String,
    /// The board's tree, a JSON object in the page's own shape (at most 256 KiB as JSON text);
    /// its `at`, if set, is the index in its `moves` of the move shown (checked).
    #[schema(value_type = Object)]
    tree: serde_json::Map<String, serde_json::Value>,
}

/// `PATCH /api/studies/{id}`: what changes (at least one of them).
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StudyChange {
    /// A new name.
    #[schema(max_length = 80)]
    #[serde(default)]
    name: Option<String>,
    /// A new tree (the board saved again), a JSON object.
    #[schema(value_type = Option<Object>)]
    #[serde(default)]
    tree: Option<serde_json::Map<String, serde_json::Value>>,
}

/// A study as listed (no tree) or read (with it).
#[derive(Serialize, ToSchema)]
pub struct StudyBody {
    /// Its id: `#/analysis/study/{id}` on the page opens it for anyone.
    pub id: String,
    /// The owner's name.
    pub owner: String,
    /// Its name.
    pub name: String,
    /// The variant it studies.
    pub variant: String,
    /// The tree (a JSON object), when one study is read. Its `at`, if set,
    /// is the index in its `moves` of the move shown when it was saved.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(required = false, value_type = Option<Object>)]
    pub tree: Option<serde_json::Value>,
    /// The ply of the move the tree shows (its `at`; 0 for the start
    /// position), when one study is read.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(required = false, maximum = 20000)]
    pub ply: Option<u32>,
    /// Saved first, ms since the epoch.
    pub created_ms: i64,
    /// Changed last.
    pub updated_ms: i64,
}

impl From<Study> for StudyBody {
    fn from(s: Study) -> StudyBody {
        let tree: Option<serde_json::Value> = s.tree.and_then(|t| serde_json::from_str(&t).ok());
        // A tree saved before `at` was checked may name no move: the start.
        let ply = tree.as_ref().map(|t| {
            shown_ply(t)
                .ok()
                .and_then(|p| u32::try_from(p).ok())
                .unwrap_or(0)
        });
        StudyBody {
            id: s.id,
            owner: s.owner,
            name: s.name,
            variant: s.variant,
            tree,
            ply,
            created_ms: s.created_ms,
            updated_ms: s.updated_ms,
        }
    }
}

/// The caller's studies.
#[derive(Serialize, ToSchema)]
pub struct StudyList {
    /// Latest change first.
    pub studies: Vec<StudyBody>,
}

/// `POST /api/studies`: saves the board as a new study.
#[utoipa::path(
    post, path = "/api/studies", operation_id = "create_study", summary = "Save an analysis board as a study (registered players; at most 100 each)",
    request_body = NewStudy,
    responses(
        (status = 201, description = "saved (without its tree)", body = StudyBody),
        (status = 400, response = BadRequest),
        (status = 401, response = Unauthorized),
        (status = 403, response = Forbidden),
        (status = 404, response = NotFound),
        (status = 409, response = Conflict),
        (status = 413, response = PayloadTooLarge),
        (status = 429, response = TooManyRequests),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn create(
    State(hall): State<AppState>,
    SignedIn(u): SignedIn,
    JsonBody(body): JsonBody<NewStudy>,
) -> Result<Response, HallError> {
    let tree = serde_json::to_string(&body.tree).map_err(HallError::internal)?;
    let s = hall
        .save_study(&u, &body.name, &body.variant, &tree)
        .await?;
    Ok((StatusCode::CREATED, axum::Json(StudyBody::from(s))).into_response())
}

/// `GET /api/studies`: the caller's studies.
#[utoipa::path(
    get, path = "/api/studies", operation_id = "list_studies", summary = "The caller's studies, latest change first",
    responses(
        (status = 200, description = "the studies, without their trees", body = StudyList),
        (status = 401, response = Unauthorized),
        (status = 429, response = TooManyRequests),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn list(
    State(hall): State<AppState>,
    SignedIn(u): SignedIn,
) -> Result<Response, HallError> {
    let studies = hall.studies_of(&u).await?;
    Ok(axum::Json(StudyList {
        studies: studies.into_iter().map(StudyBody::from).collect(),
    })
    .into_response())
}

/// `GET /api/studies/{id}`: one study, for anyone with its id.
#[utoipa::path(
    get, path = "/api/studies/{id}", operation_id = "get_study", summary = "A study with its tree (anyone with its id may read it)",
    params(("id" = String, Path, max_length = 16, description = "the study's id")),
    responses(
        (status = 200, description = "the study", body = StudyBody),
        (status = 404, response = NotFound),
        (status = 429, response = TooManyRequests),
    )
)]
pub async fn get(
    State(hall): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, HallError> {
    Ok(axum::Json(StudyBody::from(hall.study(&id).await?)).into_response())
}

/// `PATCH /api/studies/{id}`: renames it or saves the board over it.
#[utoipa::path(
    patch, path = "/api/studies/{id}", operation_id = "update_study", summary = "Rename a study, or save the board over it (its owner only)",
    params(("id" = String, Path, max_length = 16, description = "the study's id")),
    request_body = StudyChange,
    responses(
        (status = 200, description = "changed (without its tree)", body = StudyBody),
        (status = 400, response = BadRequest),
        (status = 401, response = Unauthorized),
        (status = 403, response = Forbidden),
        (status = 404, response = NotFound),
        (status = 413, response = PayloadTooLarge),
        (status = 429, response = TooManyRequests),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn update(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    SignedIn(u): SignedIn,
    JsonBody(body): JsonBody<StudyChange>,
) -> Result<Response, HallError> {
    let tree = body
        .tree
        .map(|t| serde_json::to_string(&t))
        .transpose()
        .map_err(HallError::internal)?;
    let s = hall
        .update_study(&u, &id, body.name.as_deref(), tree.as_deref())
        .await?;
    Ok(axum::Json(StudyBody::from(s)).into_response())
}

/// `DELETE /api/studies/{id}`.
#[utoipa::path(
    delete, path = "/api/studies/{id}", operation_id = "delete_study", summary = "Delete a study (its owner only)",
    params(("id" = String, Path, max_length = 16, description = "the study's id")),
    responses(
        (status = 200, description = "deleted", body = Done),
        (status = 401, response = Unauthorized),
        (status = 403, response = Forbidden),
        (status = 404, response = NotFound),
        (status = 429, response = TooManyRequests),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn delete(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    SignedIn(u): SignedIn,
) -> Result<Response, HallError> {
    hall.delete_study(&u, &id).await?;
    Ok(axum::Json(Done { ok: true }).into_response())
}

/// `?variant=VARIANT&fen=POSITION`.
#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ExplorerQuery {
    /// A variant (a `GET /api/kinds` variant name).
    #[param(pattern = "^[a-z0-9-]{1,32}$")]
    variant: String,
    /// The position, as the game writes it (move counters are ignored).
    #[param(max_length = 256)]
    fen: String,
}

/// `GET /api/explorer`: the moves played from a position in finished rated games.
#[utoipa::path(
    get, path = "/api/explorer", operation_id = "explorer", summary = "The opening explorer: moves played from a position in the hall's finished rated games, with results and average rating",
    params(ExplorerQuery),
    responses(
        (status = 200, description = "the moves, most played first", body = ExplorerBody),
        (status = 400, response = BadRequest),
        (status = 404, response = NotFound),
        (status = 429, response = TooManyRequests),
    )
)]
pub async fn explorer(
    State(hall): State<AppState>,
    QueryArgs(q): QueryArgs<ExplorerQuery>,
) -> Result<Response, HallError> {
    Ok(axum::Json(hall.explore(&q.variant, &q.fen).await?).into_response())
}

/// `GET /api/users/{name}/openings`.
#[utoipa::path(
    get, path = "/api/users/{name}/openings", operation_id = "user_openings", summary = "A player's results by named opening over their latest 1000 finished games that have one",
    params(("name" = String, Path, max_length = 20, description = "a user name")),
    responses(
        (status = 200, description = "results by opening, most played first", body = OpeningsBody),
        (status = 400, response = BadRequest),
        (status = 404, response = NotFound),
        (status = 429, response = TooManyRequests),
    )
)]
pub async fn openings(
    State(hall): State<AppState>,
    Path(name): Path<String>,
) -> Result<Response, HallError> {
    Ok(axum::Json(hall.openings_of(&name).await?).into_response())
}
