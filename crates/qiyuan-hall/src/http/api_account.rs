//! Accounts and sessions over HTTP: register, log in (or as a guest), log
//! out, list and revoke sessions, and who a token belongs to.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, Path, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::domain::hall::{Hall, HallError};
use crate::error::ErrorCode;
use crate::http::api::{AppState, JsonBody, require_user, ttl_ms};
use crate::http::api_bodies::{Done, Me, Revoked, SessionBody, SessionList};
use crate::http::auth;
use crate::http::auth::SignedIn;
use crate::http::responses::{
    BadRequest, Busy, Conflict, Forbidden, NotFound, PayloadTooLarge, TooManyRequests, Unauthorized,
};
use crate::store::{NewSession, User};

/// `{"username","password"}` of a new account.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    /// 3 to 20 characters: letters of any script, digits, '_' and '-';
    /// names starting with 'guest-' or 'ai-' (any case) are reserved.
    #[schema(min_length = 3, max_length = 20)]
    username: String,
    /// 6 to 200 characters.
    #[schema(min_length = 6, max_length = 200)]
    password: String,
}

/// `{"username","password"}` of a login: any strings (a wrong one is a 401).
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Login {
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
    let body = SessionBody {
        token: token.clone(),
        username: user.username.clone(),
        guest: user.guest,
        expires_in_s: hall.limits.session_ttl.as_secs(),
    };
    let mut r = axum::Json(body).into_response();
    if let Ok(v) = HeaderValue::from_str(&auth::session_cookie(&token, hall.limits.session_ttl)) {
        r.headers_mut().insert(header::SET_COOKIE, v);
    }
    Ok(r)
}

/// `POST /api/register`.
#[utoipa::path(
    post, path = "/api/register", summary = "Create an account and a session",
    request_body = Credentials,
    responses(
        (status = 200, description = "token", body = SessionBody),
        (status = 400, response = BadRequest),
        (status = 409, response = Conflict),
        (status = 413, response = PayloadTooLarge),
        (status = 429, response = TooManyRequests),
        (status = 503, response = Busy),
    )
)]
pub async fn register(
    State(hall): State<AppState>,
    headers: HeaderMap,
    JsonBody(c): JsonBody<Credentials>,
) -> Result<Response, HallError> {
    auth::check_username(&c.username)?;
    auth::check_password(&c.password)?;
    let taken = || {
        HallError::conflict(format!(
            "the name '{}' is taken (or looks like a name that is)",
            c.username
        ))
        .with_code(ErrorCode::NameTaken)
        .with("name", crate::error::shown(&c.username))
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
#[utoipa::path(
    post, path = "/api/login", summary = "Log in",
    description = "Failed logins are throttled per account and per client address: after a few free failures each further one blocks the account (or address) for a delay that doubles, answered 429 `login_throttled` with `Retry-After`.",
    request_body = Login,
    responses(
        (status = 200, description = "token", body = SessionBody),
        (status = 400, response = BadRequest),
        (status = 401, response = Unauthorized),
        (status = 413, response = PayloadTooLarge),
        (status = 429, response = TooManyRequests),
        (status = 503, response = Busy),
    )
)]
pub async fn login(
    State(hall): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    JsonBody(c): JsonBody<Login>,
) -> Result<Response, HallError> {
    let wrong = || HallError::new(ErrorCode::WrongCredentials, "wrong username or password");
    if c.username.chars().count() > 100 || c.password.len() > 1000 {
        return Err(wrong());
    }
    let user_key = format!("user:{}", auth::name_key(&c.username));
    let ip_key = format!("ip:{}", peer.ip());
    let wait = hall.login.wait(&user_key).max(hall.login.wait(&ip_key));
    if !wait.is_zero() {
        let mut r = crate::domain::login::throttled(wait).into_response();
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
#[utoipa::path(
    post, path = "/api/guest", summary = "A guest session (unrated games only)",
    responses(
        (status = 200, description = "token", body = SessionBody),
        (status = 429, response = TooManyRequests),
    )
)]
pub async fn guest(
    State(hall): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> Result<Response, HallError> {
    hall.presence
        .admit_guest(peer.ip(), hall.limits.guests_per_ip_hour)?;
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
#[utoipa::path(
    post, path = "/api/logout",
    summary = "End the session of the token or cookie sent (if any) and clear the cookie",
    responses(
        (status = 200, description = "done", body = Done),
        (status = 429, response = TooManyRequests),
    )
)]
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
    let mut r = axum::Json(Done { ok: true }).into_response();
    r.headers_mut().insert(
        header::SET_COOKIE,
        HeaderValue::from_static("qy_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0"),
    );
    Ok(r)
}

/// `GET /api/sessions`: the caller's sessions (never their tokens).
#[utoipa::path(
    get, path = "/api/sessions", summary = "The caller's sessions (never their tokens)",
    responses(
        (status = 200, description = "sessions, most recently used first", body = SessionList),
        (status = 401, response = Unauthorized),
        (status = 429, response = TooManyRequests),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
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
    Ok(axum::Json(SessionList { sessions: list }).into_response())
}

/// `DELETE /api/sessions/{id}`: revokes one of the caller's sessions.
#[utoipa::path(
    delete, path = "/api/sessions/{id}", summary = "Revoke one of the caller's sessions",
    params(("id" = String, Path, max_length = 64, description = "the session's public id")),
    responses(
        (status = 200, description = "revoked", body = Done),
        (status = 401, response = Unauthorized),
        (status = 404, response = NotFound),
        (status = 429, response = TooManyRequests),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn revoke_session(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    SignedIn(u): SignedIn,
) -> Result<Response, HallError> {
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
    Ok(axum::Json(Done { ok: true }).into_response())
}

/// `DELETE /api/sessions`: revokes every session of the caller but this one.
#[utoipa::path(
    delete, path = "/api/sessions",
    summary = "Revoke every session of the caller but this one",
    responses(
        (status = 200, description = "how many were revoked", body = Revoked),
        (status = 401, response = Unauthorized),
        (status = 429, response = TooManyRequests),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
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
    Ok(axum::Json(Revoked { revoked: n }).into_response())
}

/// `GET /api/me`.
#[utoipa::path(
    get, path = "/api/me", summary = "Who the token belongs to",
    responses(
        (status = 200, description = "user", body = Me),
        (status = 401, response = Unauthorized),
        (status = 429, response = TooManyRequests),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn me(State(hall): State<AppState>, headers: HeaderMap) -> Result<Response, HallError> {
    let u = require_user(&hall, &headers).await?;
    Ok(axum::Json(Me {
        username: u.username,
        guest: u.guest,
        bot: u.bot,
    })
    .into_response())
}

/// `POST /api/account/bot`.
#[utoipa::path(
    post, path = "/api/account/bot", operation_id = "upgrade_to_bot",
    summary = "Turn one's account into a bot account (once, before its first game)",
    description = "A bot plays through the API: challenges, seeks and its event stream (`GET /api/stream/event`), not the pools (403 `bots_not_in_pools`). Its seats say `\"bot\": true` and the page shows BOT; it is rated like anyone. Only a registered account that has never sat in a game may become one (409 `has_played`; guests 403); it cannot be undone.",
    responses(
        (status = 200, description = "the account", body = Me),
        (status = 401, response = Unauthorized),
        (status = 403, response = Forbidden),
        (status = 409, response = Conflict),
        (status = 429, response = TooManyRequests),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn upgrade_to_bot(
    State(hall): State<AppState>,
    SignedIn(u): SignedIn,
) -> Result<Response, HallError> {
    if u.guest {
        return Err(HallError::forbidden(
            "a guest cannot become a bot: register first",
        ));
    }
    if !u.bot {
        let made = hall
            .store
            .make_bot(u.id)
            .await
            .map_err(HallError::internal)?;
        if !made {
            return Err(HallError::new(
                ErrorCode::HasPlayed,
                "only an account that has never played may become a bot",
            ));
        }
        tracing::info!(user = %u.username, "account upgraded to a bot");
    }
    Ok(axum::Json(Me {
        username: u.username,
        guest: false,
        bot: true,
    })
    .into_response())
}
