//! The HTTP API (for bots and the page) and its error shape: every failure is
//! a 4xx/5xx with `{"error": "..."}`.

use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, Path, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::auth;
use crate::hall::{Hall, HallError, NewGame};
use crate::store::User;

impl IntoResponse for HallError {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        (status, axum::Json(json!({"error": self.message}))).into_response()
    }
}

/// A JSON body whose every rejection (bad syntax, wrong fields, wrong
/// content) is a 400 or 413 with `{"error": ...}`.
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = HallError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = Bytes::from_request(req, state)
            .await
            .map_err(|e| HallError {
                status: e.status().as_u16(),
                message: format!("cannot read the body: {}", e.body_text()),
            })?;
        serde_json::from_slice(&bytes)
            .map(JsonBody)
            .map_err(|e| HallError::bad(format!("malformed JSON: {e}")))
    }
}

/// Shared state of the handlers.
pub type AppState = Arc<Hall>;

/// The user of a request (bearer token or cookie), if any.
pub async fn current_user(hall: &Hall, headers: &HeaderMap) -> Result<Option<User>, HallError> {
    let Some(token) = auth::token_from_headers(headers) else {
        return Ok(None);
    };
    if token.len() > 128 {
        return Ok(None);
    }
    hall.store
        .session_user(&token)
        .await
        .map_err(HallError::internal)
}

pub async fn require_user(hall: &Hall, headers: &HeaderMap) -> Result<User, HallError> {
    current_user(hall, headers)
        .await?
        .ok_or_else(HallError::unauthorized)
}

/// `{"username","password"}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    username: String,
    password: String,
}

fn with_session(token: &str, body: Value) -> Response {
    let mut r = axum::Json(body).into_response();
    if let Ok(v) = HeaderValue::from_str(&auth::session_cookie(token)) {
        r.headers_mut().insert(header::SET_COOKIE, v);
    }
    r
}

async fn start_session(hall: &Hall, user: &User) -> Result<Response, HallError> {
    let token = auth::new_token();
    hall.store
        .create_session(&token, user.id)
        .await
        .map_err(HallError::internal)?;
    Ok(with_session(
        &token,
        json!({"token": token, "username": user.username, "guest": user.guest}),
    ))
}

/// `POST /api/register`.
pub async fn register(
    State(hall): State<AppState>,
    JsonBody(c): JsonBody<Credentials>,
) -> Result<Response, HallError> {
    auth::check_username(&c.username).map_err(HallError::bad)?;
    auth::check_password(&c.password).map_err(HallError::bad)?;
    let pw = c.password.clone();
    let hash = tokio::task::spawn_blocking(move || auth::hash_password(&pw))
        .await
        .map_err(HallError::internal)?
        .map_err(HallError::internal)?;
    let user = hall
        .store
        .create_user(&c.username, Some(&hash), false)
        .await
        .map_err(HallError::internal)?
        .ok_or_else(|| HallError::conflict(format!("the name '{}' is taken", c.username)))?;
    tracing::info!(user = %user.username, "registered");
    start_session(&hall, &user).await
}

/// `POST /api/login`.
pub async fn login(
    State(hall): State<AppState>,
    JsonBody(c): JsonBody<Credentials>,
) -> Result<Response, HallError> {
    let wrong = || HallError {
        status: 401,
        message: "wrong username or password".into(),
    };
    if c.username.len() > 100 || c.password.len() > 1000 {
        return Err(wrong());
    }
    let user = hall
        .store
        .user_by_name(&c.username)
        .await
        .map_err(HallError::internal)?
        .ok_or_else(wrong)?;
    let Some(hash) = user.password_hash.clone() else {
        return Err(wrong());
    };
    let pw = c.password.clone();
    let ok = tokio::task::spawn_blocking(move || auth::verify_password(&pw, &hash))
        .await
        .map_err(HallError::internal)?;
    if !ok {
        return Err(wrong());
    }
    start_session(&hall, &user).await
}

/// `POST /api/guest`: a guest account for unrated play.
pub async fn guest(State(hall): State<AppState>) -> Result<Response, HallError> {
    for _ in 0..5 {
        let name = format!("guest-{}", &auth::new_token()[..6]);
        if let Some(user) = hall
            .store
            .create_user(&name, None, true)
            .await
            .map_err(HallError::internal)?
        {
            return start_session(&hall, &user).await;
        }
    }
    Err(HallError::internal("no free guest name"))
}

/// `POST /api/logout`.
pub async fn logout(
    State(hall): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, HallError> {
    if let Some(t) = auth::token_from_headers(&headers) {
        hall.store
            .delete_session(&t)
            .await
            .map_err(HallError::internal)?;
    }
    let mut r = axum::Json(json!({"ok": true})).into_response();
    r.headers_mut().insert(
        header::SET_COOKIE,
        HeaderValue::from_static("qy_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0"),
    );
    Ok(r)
}

/// `GET /api/me`.
pub async fn me(State(hall): State<AppState>, headers: HeaderMap) -> Result<Response, HallError> {
    let u = require_user(&hall, &headers).await?;
    Ok(axum::Json(json!({"username": u.username, "guest": u.guest})).into_response())
}

/// `POST /api/games`.
pub async fn create_game(
    State(hall): State<AppState>,
    headers: HeaderMap,
    JsonBody(req): JsonBody<NewGame>,
) -> Result<Response, HallError> {
    let user = require_user(&hall, &headers).await?;
    let (id, seat) = hall.create(&user, req).await?;
    Ok((
        StatusCode::CREATED,
        axum::Json(json!({"id": id, "seat": seat})),
    )
        .into_response())
}

/// `POST /api/games/{id}/join`.
pub async fn join(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, HallError> {
    let user = require_user(&hall, &headers).await?;
    let seat = hall.join(&id, &user).await?;
    Ok(axum::Json(json!({"seat": seat})).into_response())
}

/// `{"move": "h2e2"}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveBody {
    #[serde(rename = "move")]
    mv: String,
}

/// `POST /api/games/{id}/moves`.
pub async fn play(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    JsonBody(body): JsonBody<MoveBody>,
) -> Result<Response, HallError> {
    let user = require_user(&hall, &headers).await?;
    let state = hall.play(&id, &user, &body.mv, 0).await?;
    Ok(axum::Json(state).into_response())
}

/// `GET /api/games/{id}`.
pub async fn get_game(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, HallError> {
    let user = current_user(&hall, &headers).await?;
    Ok(axum::Json(hall.state(&id, user.as_ref()).await?).into_response())
}

/// `POST /api/games/{id}/resign`.
pub async fn resign(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, HallError> {
    let user = require_user(&hall, &headers).await?;
    Ok(axum::Json(hall.resign(&id, &user).await?).into_response())
}

/// Optional `{"action": "offer"|"accept"|"decline"}`.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct DrawBody {
    #[serde(default)]
    action: Option<String>,
}

/// `POST /api/games/{id}/draw`: offer, or accept a standing offer.
pub async fn draw(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, HallError> {
    let user = require_user(&hall, &headers).await?;
    let body: DrawBody = if body.iter().all(u8::is_ascii_whitespace) {
        DrawBody::default()
    } else {
        serde_json::from_slice(&body).map_err(|e| HallError::bad(format!("malformed JSON: {e}")))?
    };
    let action = body.action.as_deref().unwrap_or("offer");
    Ok(axum::Json(hall.draw(&id, &user, action).await?).into_response())
}

/// `POST /api/games/{id}/claim`.
pub async fn claim(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, HallError> {
    let user = require_user(&hall, &headers).await?;
    Ok(axum::Json(hall.claim(&id, &user).await?).into_response())
}

/// `POST /api/games/{id}/rematch`.
pub async fn rematch(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, HallError> {
    let user = require_user(&hall, &headers).await?;
    let new_id = hall.rematch(&id, &user).await?;
    Ok(axum::Json(json!({"rematch_id": new_id})).into_response())
}

/// `GET /api/games/{id}/pgn`.
pub async fn pgn(
    State(hall): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, HallError> {
    let text = hall.pgn(&id).await?;
    let mut r = text.into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/x-chess-pgn; charset=utf-8"),
    );
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"qiyuan-{id}.pgn\"")) {
        r.headers_mut().insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(r)
}

/// `GET /api/games/{id}/stream`: NDJSON, the current state then every change.
pub async fn stream(
    State(hall): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, HallError> {
    // Subscribe before reading the state so no event falls in between.
    let rx = hall.bus.subscribe(&id);
    let first = hall.state(&id, None).await?;
    let shutdown = hall.shutdown.clone();
    let head = futures_util::stream::once(async move {
        Ok::<_, std::convert::Infallible>(format!("{first}\n"))
    });
    let rest = futures_util::stream::unfold((rx, shutdown), |(mut rx, mut shutdown)| async move {
        loop {
            tokio::select! {
                ev = rx.recv() => match ev {
                    Ok(e) => return Some((Ok(format!("{e}\n")), (rx, shutdown))),
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(_) => return None,
                },
                _ = shutdown.changed() => return None,
            }
        }
    });
    use futures_util::StreamExt;
    let body = Body::from_stream(head.chain(rest));
    let mut r = body.into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/x-ndjson"),
    );
    Ok(r)
}

/// `GET /api/lobby`.
pub async fn lobby(State(hall): State<AppState>) -> Response {
    axum::Json(hall.lobby()).into_response()
}

/// `GET /api/users/{name}`.
pub async fn profile(
    State(hall): State<AppState>,
    Path(name): Path<String>,
) -> Result<Response, HallError> {
    Ok(axum::Json(hall.profile(&name).await?).into_response())
}

/// `GET /api/openapi.json`.
pub async fn openapi() -> Response {
    let mut r = include_str!("../openapi.json").into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    r
}
