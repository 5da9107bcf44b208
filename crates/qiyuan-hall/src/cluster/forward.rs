//! Forwarding (issue 17): with several nodes, a change of a game (any
//! `POST /api/games/{id}/…`) that reaches a node other than the one holding
//! the game's lease is sent on to that node, with the client's credentials
//! (sessions live in the shared database, so the owner knows them), and its
//! answer comes back as it is. A forwarded request carries
//! [`FORWARDED`] and is never forwarded again; a game with no running lease
//! is served where the request arrived (that node takes the lease). Reads
//! are served by any node from storage, and events reach every node's
//! sockets over the bus. A move sent over a WebSocket to such a node is
//! sent on the same way ([`action_to`], as HTTP: a move gets no lag
//! credit), and so is every other action of a player's socket.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::domain::hall::Hall;
use crate::error::HallError;

/// The header a forwarded request carries (its value: the forwarding node).
pub const FORWARDED: &str = "x-qiyuan-forwarded";

/// The credentials a client connected with (`Authorization`, `Cookie`),
/// kept by a socket to send its moves on to another node.
#[derive(Clone, Debug, Default)]
pub struct Credentials(Vec<(&'static str, String)>);

impl Credentials {
    /// The credential headers of a request.
    pub fn of(headers: &axum::http::HeaderMap) -> Credentials {
        Credentials(
            ["authorization", "cookie"]
                .into_iter()
                .filter_map(|n| {
                    let v = headers.get(n)?.to_str().ok()?;
                    Some((n, v.to_string()))
                })
                .collect(),
        )
    }
}

/// The address of the node holding game `id`'s lease, when leases are on
/// and it is another node.
pub async fn owner_elsewhere(hall: &Hall, id: &str) -> Option<String> {
    let config = hall.lease.get()?;
    match hall.store.lease_holder(id).await {
        Ok(Some((owner, addr))) if owner != config.node => Some(addr),
        Ok(_) => None,
        Err(e) => {
            tracing::warn!(game = %id, error = %e, "cannot read a game's lease");
            None
        }
    }
}

/// Sends a player's socket action on game `id` to the node at `addr` as
/// its HTTP `POST /api/games/{id}/{action}` (a move, resign, draw,
/// takeback, chat, claim, rematch), and returns that node's JSON answer.
pub async fn action_to(
    addr: &str,
    id: &str,
    creds: &Credentials,
    action: &str,
    body: Option<serde_json::Value>,
) -> Result<serde_json::Value, HallError> {
    let body = body.map(|b| b.to_string());
    let mut extra: Vec<(&str, &str)> = vec![(FORWARDED, "socket")];
    extra.extend(creds.0.iter().map(|(k, v)| (*k, v.as_str())));
    let path = format!("/api/games/{id}/{action}");
    let sent = body.as_ref().map(|b| b.as_bytes());
    match crate::client::request(addr, "POST", &path, None, sent, &extra).await {
        Ok(r) if r.status == 200 => Ok(r.json()),
        Ok(r) => Err(HallError::relayed_body(r.status, &r.json())),
        Err(e) => {
            tracing::warn!(game = %id, node = %addr, error = %e, "cannot forward a socket action");
            Err(HallError::busy(
                "the node playing this game cannot be reached; try again",
            ))
        }
    }
}

/// The game a path changes, for `/api/games/{id}/{something}`.
fn game_of(path: &str) -> Option<&str> {
    let (id, rest) = path.strip_prefix("/api/games/")?.split_once('/')?;
    (!id.is_empty() && !rest.is_empty()).then_some(id)
}

/// The middleware: forwards a game's `POST` to the node holding its lease.
pub async fn to_owner(State(hall): State<Arc<Hall>>, req: Request, next: Next) -> Response {
    let Some(config) = hall.lease.get() else {
        return next.run(req).await;
    };
    if req.method() != axum::http::Method::POST || req.headers().contains_key(FORWARDED) {
        return next.run(req).await;
    }
    let Some(id) = game_of(req.uri().path()).map(str::to_string) else {
        return next.run(req).await;
    };
    let addr = match hall.store.lease_holder(&id).await {
        Ok(Some((owner, addr))) if owner != config.node => addr,
        Ok(_) => return next.run(req).await,
        Err(e) => return HallError::internal(e).into_response(),
    };
    let (parts, body) = req.into_parts();
    // The body was read to its end (and bounded) by the outer middleware.
    let Ok(body) = axum::body::to_bytes(body, crate::limits::MAX_BODY).await else {
        return HallError::bad("the request body broke off").into_response();
    };
    let mut extra: Vec<(&str, &str)> = vec![(FORWARDED, config.node.as_str())];
    for name in ["authorization", "cookie", "user-agent"] {
        if let Some(v) = parts.headers.get(name).and_then(|v| v.to_str().ok()) {
            extra.push((name, v));
        }
    }
    let path = parts
        .uri
        .path_and_query()
        .map(|p| p.as_str())
        .unwrap_or_else(|| parts.uri.path());
    match crate::client::request(&addr, "POST", path, None, Some(&body), &extra).await {
        Ok(reply) => {
            let kind = reply
                .header("content-type")
                .unwrap_or("application/json")
                .to_string();
            Response::builder()
                .status(reply.status)
                .header(header::CONTENT_TYPE, kind)
                .body(axum::body::Body::from(reply.body))
                .unwrap_or_else(|_| HallError::internal("a bad forwarded answer").into_response())
        }
        Err(e) => {
            tracing::warn!(game = %id, node = %addr, error = %e, "cannot forward to the game's node");
            HallError::busy("the node playing this game cannot be reached; try again")
                .into_response()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_games_own_paths_are_forwarded() {
        assert_eq!(game_of("/api/games/abc/moves"), Some("abc"));
        assert_eq!(game_of("/api/games/abc/draw/accept"), Some("abc"));
        assert_eq!(game_of("/api/games"), None);
        assert_eq!(game_of("/api/games/abc"), None);
        assert_eq!(game_of("/api/games//moves"), None);
        assert_eq!(game_of("/api/users/x/y"), None);
    }
}
