//! The HTTP API (for bots and the page) and its error shape: every failure is
//! a 4xx/5xx with `{"error": "..."}`.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, Path, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::json;
use std::net::SocketAddr;

use crate::auth;
use crate::hall::{Hall, HallError, NewGame};
use crate::store::{NewSession, User};

impl IntoResponse for HallError {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        (status, axum::Json(self.body())).into_response()
    }
}

/// A query string whose rejection is a JSON 400 like every other error.
pub struct QueryArgs<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for QueryArgs<T> {
    type Rejection = HallError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        axum::extract::Query::<T>::try_from_uri(&parts.uri)
            .map(|q| QueryArgs(q.0))
            .map_err(|e| {
                HallError::bad(format!("bad query string: {}", e.body_text()))
                    .with_code("bad_query")
            })
    }
}

/// A JSON body whose every rejection (bad syntax, wrong fields, wrong
/// content) is a 400 or 413 with `{"error": ...}`.
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = HallError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = Bytes::from_request(req, state).await.map_err(|e| {
            let status = e.status().as_u16();
            HallError::new(
                status,
                crate::error::code_for_status(status),
                format!("cannot read the body: {}", e.body_text()),
            )
        })?;
        // serde reads a struct from an array too; a body must be an object.
        if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
            return Err(HallError::bad("the body must be a JSON object").with_code("invalid_body"));
        }
        serde_json::from_slice(&bytes).map(JsonBody).map_err(|e| {
            let code = if e.is_data() {
                "invalid_body"
            } else {
                "malformed_json"
            };
            HallError::bad(format!("malformed JSON: {e}")).with_code(code)
        })
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
        .session_user(&token, ttl_ms(hall))
        .await
        .map_err(HallError::internal)
}

fn ttl_ms(hall: &Hall) -> i64 {
    i64::try_from(hall.limits.session_ttl.as_millis()).unwrap_or(i64::MAX)
}

/// The signed-in user of a request, or a 401.
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

async fn start_session(
    hall: &Hall,
    user: &User,
    headers: &HeaderMap,
) -> Result<Response, HallError> {
    let token = auth::new_token();
    let agent = headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .map(|a| a.chars().take(120).collect::<String>());
    let new = NewSession {
        ttl_ms: ttl_ms(hall),
        keep: hall.limits.sessions_per_user,
        agent,
    };
    hall.store
        .create_session(&token, user.id, &new)
        .await
        .map_err(HallError::internal)?;
    let body = json!({
        "token": token, "username": user.username, "guest": user.guest,
        "expires_in_s": hall.limits.session_ttl.as_secs(),
    });
    let mut r = axum::Json(body).into_response();
    if let Ok(v) = HeaderValue::from_str(&auth::session_cookie(&token, hall.limits.session_ttl)) {
        r.headers_mut().insert(header::SET_COOKIE, v);
    }
    Ok(r)
}

/// `POST /api/register`.
pub async fn register(
    State(hall): State<AppState>,
    headers: HeaderMap,
    JsonBody(c): JsonBody<Credentials>,
) -> Result<Response, HallError> {
    auth::check_username(&c.username)
        .map_err(|e| HallError::bad(e).with_code("invalid_username"))?;
    auth::check_password(&c.password)
        .map_err(|e| HallError::bad(e).with_code("invalid_password"))?;
    let taken = || {
        HallError::conflict(format!(
            "the name '{}' is taken (or looks like a name that is)",
            c.username
        ))
        .with_code("name_taken")
    };
    // Refuse before hashing: a taken name costs no argon2 work.
    if hall
        .store
        .user_by_name(&c.username)
        .await
        .map_err(HallError::internal)?
        .is_some()
    {
        return Err(taken());
    }
    let pw = c.password.clone();
    let hash = hall
        .hashes
        .run(move || auth::hash_password(&pw))
        .await?
        .map_err(HallError::internal)?;
    let user = hall
        .store
        .create_user(&c.username, Some(&hash), false)
        .await
        .map_err(HallError::internal)?
        .ok_or_else(taken)?;
    tracing::info!(user = %user.username, "registered");
    start_session(&hall, &user, &headers).await
}

/// `POST /api/login`.
/// Failed logins are throttled per account and per client address: after a
/// few free failures each further one blocks the account (or address) for a
/// delay that doubles, answered 429 `login_throttled` with `Retry-After`.
pub async fn login(
    State(hall): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    JsonBody(c): JsonBody<Credentials>,
) -> Result<Response, HallError> {
    let wrong = || HallError::new(401, "wrong_credentials", "wrong username or password");
    if c.username.chars().count() > 100 || c.password.len() > 1000 {
        return Err(wrong());
    }
    let user_key = format!("user:{}", auth::name_key(&c.username));
    let ip_key = format!("ip:{}", peer.ip());
    let wait = hall.login.wait(&user_key).max(hall.login.wait(&ip_key));
    if !wait.is_zero() {
        let mut r = crate::login::throttled(wait).into_response();
        if let Ok(v) = HeaderValue::from_str(&wait.as_secs().max(1).to_string()) {
            r.headers_mut().insert(header::RETRY_AFTER, v);
        }
        return Ok(r);
    }
    let user = hall
        .store
        .user_by_name(&c.username)
        .await
        .map_err(HallError::internal)?;
    // An unknown name costs the same hash as a known one, so that timing
    // does not tell which names exist.
    let hash = user
        .as_ref()
        .and_then(|u| u.password_hash.clone())
        .unwrap_or_else(|| auth::DECOY_HASH.to_string());
    let pw = c.password.clone();
    let ok = hall
        .hashes
        .run(move || auth::verify_password(&pw, &hash))
        .await?;
    match user {
        Some(user) if ok && user.password_hash.is_some() => {
            hall.login.clear(&user_key);
            start_session(&hall, &user, &headers).await
        }
        _ => {
            hall.login.fail(&user_key, hall.limits.login_free_failures);
            hall.login.fail(&ip_key, hall.limits.login_ip_free_failures);
            hall.metrics.login_failures.inc();
            Err(wrong())
        }
    }
}

/// `POST /api/guest`: a guest account for unrated play.
pub async fn guest(
    State(hall): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, HallError> {
    for _ in 0..5 {
        let name = format!("guest-{}", &auth::new_token()[..6]);
        if let Some(user) = hall
            .store
            .create_user(&name, None, true)
            .await
            .map_err(HallError::internal)?
        {
            return start_session(&hall, &user, &headers).await;
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

/// `GET /api/sessions`: the caller's sessions (never their tokens).
pub async fn sessions(
    State(hall): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, HallError> {
    let u = require_user(&hall, &headers).await?;
    let token = auth::token_from_headers(&headers).unwrap_or_default();
    let list = hall
        .store
        .list_sessions(u.id, &token)
        .await
        .map_err(HallError::internal)?;
    Ok(axum::Json(json!({"sessions": list})).into_response())
}

/// `DELETE /api/sessions/{id}`: revokes one of the caller's sessions.
pub async fn revoke_session(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, HallError> {
    let u = require_user(&hall, &headers).await?;
    let gone = id.len() <= 64
        && hall
            .store
            .revoke_session(u.id, &id)
            .await
            .map_err(HallError::internal)?;
    if !gone {
        return Err(HallError::not_found(format!(
            "you have no session '{}'",
            crate::error::shown(&id)
        )));
    }
    Ok(axum::Json(json!({"ok": true})).into_response())
}

/// `DELETE /api/sessions`: revokes every session of the caller but this one.
pub async fn revoke_other_sessions(
    State(hall): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, HallError> {
    let u = require_user(&hall, &headers).await?;
    let token = auth::token_from_headers(&headers).unwrap_or_default();
    let n = hall
        .store
        .revoke_other_sessions(u.id, &token)
        .await
        .map_err(HallError::internal)?;
    Ok(axum::Json(json!({"revoked": n})).into_response())
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
    let state = hall.play(&id, &user, &body.mv, 0, true).await?;
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
    } else if body.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Err(HallError::bad("the body must be a JSON object").with_code("invalid_body"));
    } else {
        serde_json::from_slice(&body).map_err(|e| {
            HallError::bad(format!("malformed JSON: {e}")).with_code(if e.is_data() {
                "invalid_body"
            } else {
                "malformed_json"
            })
        })?
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

/// `GET /api/games/{id}/stream`: NDJSON, the current state then a diff per
/// change (as on the spectators' socket; a reader that fell behind gets the
/// full state again); it ends when the game is over. An unknown id is a
/// 404 before anything is subscribed.
pub async fn stream(
    State(hall): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, HallError> {
    hall.state(&id, None).await?;
    // Subscribe before reading the state again so no event falls in between.
    let rx = hall.bus.subscribe(&id);
    let first = hall.state(&id, None).await?;
    let resync: crate::stream::Resync = {
        let (hall, id) = (hall.clone(), id.clone());
        std::sync::Arc::new(move || {
            let (hall, id) = (hall.clone(), id.clone());
            Box::pin(async move { hall.state(&id, None).await.ok().map(|s| s.to_string()) })
        })
    };
    Ok(crate::stream::ndjson(
        first,
        rx,
        hall.shutdown.clone(),
        |v| v["status"] == "finished",
        Some(resync),
    ))
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

/// `GET /api/kinds`: the games on offer, their variants, seats, options
/// and clocks (the page builds its lists from it).
pub async fn kinds(State(hall): State<AppState>) -> Response {
    axum::Json(hall.games.to_json()).into_response()
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
