//! `POST /api/import`: a game file (text or binary, as saved by another
//! program) read by the kind that knows its formats into a start position
//! and a move tree, for bots and the page's analysis board. Pure: nothing is
//! stored and nobody needs to be signed in.

use axum::body::{Body, Bytes};
use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::error::{ErrorCode, HallError};
use crate::http::api::{AppState, QueryArgs};
use crate::http::responses::{BadRequest, ImportTooLarge, NotFound, TooManyRequests};
use crate::limits::MAX_IMPORT_BODY;

/// Where the route is served (its body limit is [`MAX_IMPORT_BODY`]).
pub const IMPORT_PATH: &str = "/api/import";

/// The query of `POST /api/import`.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ImportQuery {
    /// The kind whose files to read (one of those `GET /api/kinds` marks
    /// `imports`): lower-case letters, digits and `-`.
    #[param(pattern = "^[a-z0-9-]{1,32}$")]
    game: String,
}

/// The file, as saved (documentation only: the body is read as bytes),
/// at most [`MAX_IMPORT_BODY`] bytes.
pub struct ImportFile;

// Written by hand: the derive takes no bound on a binary string, and this
// one is the route's own limit.
impl utoipa::PartialSchema for ImportFile {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
        ObjectBuilder::new()
            .schema_type(Type::String)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Binary)))
            .max_length(Some(MAX_IMPORT_BODY))
            .description(Some("the file as saved, text or binary"))
            .into()
    }
}

impl ToSchema for ImportFile {}

/// A header tag of an imported file.
#[derive(Serialize, ToSchema)]
pub struct ImportTag {
    /// Its name (`Event`, `Red`, `Date` …).
    pub name: String,
    /// Its value.
    pub value: String,
}

/// One move of the tree.
#[derive(Serialize, ToSchema)]
pub struct ImportMove {
    /// The index (in `moves`) of the move this one follows, always smaller
    /// than its own; null: from the start position.
    #[schema(minimum = 0)]
    pub parent: Option<usize>,
    /// The move in the game's notation (what `POST /api/games/{id}/moves` takes).
    #[serde(rename = "move")]
    pub mv: String,
    /// What the file says about it.
    #[schema(required = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
}

/// A game read from a file.
#[derive(Serialize, ToSchema)]
pub struct ImportedBody {
    /// The kind that read it.
    pub game: String,
    /// The format it was read as (`pgn`, `xqf`, `cbf`, `fen`, `moves` …).
    pub format: String,
    /// The start position (the game's set-up text, a FEN).
    pub start: String,
    /// Header tags in the file's order.
    pub tags: Vec<ImportTag>,
    /// The comment on the game as a whole.
    #[schema(required = false)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// Every move of every line, parents before children; the moves after
    /// one position in the file's order, the main continuation first.
    pub moves: Vec<ImportMove>,
}

/// `POST /api/import?game=KIND`.
#[utoipa::path(
    post, path = "/api/import", operation_id = "import_game",
    summary = "Read a game file into a start position and a move tree",
    description = "The body is the file as saved by another program, text or binary, at most 1 MiB (this route's own limit; a larger body is a 413 `body_too_large`). The kind named by `game` tells its formats apart from the content. Nothing is stored and no session is needed. A file the kind cannot read is a 400 `import_invalid` whose details carry `why` (the kind of problem: `empty`, `syntax`, `position`, `move`, `limit`) and, where the file has one, `place`: `{line, column}` (1-based) for text, `{byte}` (the offset) for binary files. A kind the hall lacks, or one that reads no files, is a 404.",
    params(ImportQuery),
    request_body(
        content(
            (ImportFile = "application/octet-stream"),
            (ImportFile = "text/plain"),
        ),
        description = "the file, as saved",
    ),
    responses(
        (status = 200, description = "the game", body = ImportedBody),
        (status = 400, response = BadRequest),
        (status = 404, response = NotFound),
        (status = 413, response = ImportTooLarge),
        (status = 429, response = TooManyRequests),
    )
)]
pub async fn import(
    State(hall): State<AppState>,
    QueryArgs(q): QueryArgs<ImportQuery>,
    body: Body,
) -> Result<axum::Json<ImportedBody>, HallError> {
    // Read here rather than through `Bytes`, whose limit is the router's
    // general one ([`crate::limits::MAX_BODY`]); the outer middleware has
    // already read the body and bounded it by this route's limit.
    let body: Bytes = axum::body::to_bytes(body, MAX_IMPORT_BODY)
        .await
        .map_err(|_| {
            HallError::new(
                ErrorCode::BodyTooLarge,
                format!("the file is larger than {MAX_IMPORT_BODY} bytes"),
            )
            .with("max", MAX_IMPORT_BODY)
        })?;
    // Parsing a large file takes milliseconds of CPU: off the async workers.
    let game = q.game;
    let read =
        tokio::task::spawn_blocking(move || hall.games.import(&game, &body).map(|g| (game, g)))
            .await
            .map_err(HallError::internal)?;
    let (game, g) = read?;
    Ok(axum::Json(ImportedBody {
        game,
        format: g.format,
        start: g.start,
        tags: g
            .tags
            .into_iter()
            .map(|(name, value)| ImportTag { name, value })
            .collect(),
        comment: g.comment,
        moves: g
            .moves
            .into_iter()
            .map(|m| ImportMove {
                parent: m.parent,
                mv: m.mv,
                comment: m.comment,
            })
            .collect(),
    }))
}
