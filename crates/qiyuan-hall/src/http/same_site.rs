//! Defences against other sites acting with a visitor's session cookie
//! (cross-site request forgery, cross-site WebSocket hijacking, framing).
//!
//! The session cookie is `SameSite=Lax`, which still lets a same-site page
//! (another port or subdomain) and a cross-site top-level navigation send
//! it, and a WebSocket handshake is never held by CORS. So every request
//! that could act with the cookie, that is every request without a bearer
//! token which changes something or opens a socket, must come from the
//! hall's own page:
//! - its `Origin`, when the browser sends one (they do on every non-GET
//!   request and every WebSocket handshake), must be the host the request
//!   was sent to; `Sec-Fetch-Site: cross-site` is refused too;
//! - its body, if it has one or says what it is, must be JSON: an HTML form
//!   can send only form data or plain text, never `application/json`
//!   without a CORS preflight that this server never grants.
//!
//! One route acts for nobody and takes files, not JSON: `POST /api/import`
//! reads a game file and stores nothing, so what another site could make a
//! browser send there changes nothing; only its origin is checked.
//!
//! Bots authenticate with `Authorization: Bearer`, which no other site can
//! make a browser send, so their requests are not looked at. Every answer
//! carries a strict Content-Security-Policy and refuses to be framed.

use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ErrorCode;
use crate::error::HallError;

/// The page's policy: its own scripts (and WebAssembly for the analysis
/// worker), styles (inline `style` attributes included), fonts, images and
/// connections; no plugins, no `<base>`, no framing by anyone.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; \
     style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; \
     worker-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Whether the request authenticates with a bearer token (a bot).
fn has_bearer(headers: &HeaderMap) -> bool {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("Bearer "))
}

/// Whether the request is a WebSocket handshake.
fn is_upgrade(headers: &HeaderMap) -> bool {
    headers
        .get(header::UPGRADE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("websocket"))
}

/// The `host[:port]` of an origin such as `http://127.0.0.1:8080`.
fn origin_authority(origin: &str) -> Option<&str> {
    let rest = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))?;
    Some(rest.trim_end_matches('/'))
}

/// Why a request without a bearer token may not act, if it may not.
/// `any_body`: the route acts for nobody, so its body may be of any type.
fn refusal(
    method: &Method,
    headers: &HeaderMap,
    body_len: Option<u64>,
    any_body: bool,
) -> Option<HallError> {
    let cross = || {
        HallError::forbidden("requests from another site may not act for a signed-in visitor")
            .with_code(ErrorCode::CrossOrigin)
    };
    if let Some(origin) = headers.get(header::ORIGIN) {
        let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
        let same = origin
            .to_str()
            .ok()
            .and_then(origin_authority)
            .zip(host)
            .is_some_and(|(o, h)| o.eq_ignore_ascii_case(h));
        if !same {
            return Some(cross());
        }
    }
    if headers
        .get("sec-fetch-site")
        .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"cross-site"))
    {
        return Some(cross());
    }
    if any_body || matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS) {
        return None;
    }
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| {
            v.split(';')
                .next()
                .unwrap_or("")
                .trim()
                .eq_ignore_ascii_case("application/json")
        });
    let has_body = body_len.is_none_or(|n| n > 0);
    match json {
        Some(true) => None,
        None if !has_body => None,
        _ => Some(HallError::new(
            ErrorCode::JsonRequired,
            "the body of a request must be JSON (Content-Type: application/json)",
        )),
    }
}

/// The middleware: refuses what [`refusal`] names, and adds the page's
/// security headers to every answer.
pub async fn guard(req: Request, next: Next) -> Response {
    let acts = !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS)
        || is_upgrade(req.headers());
    let mut response = if acts && !has_bearer(req.headers()) {
        let body_len = req
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok())
            .or_else(|| (!req.headers().contains_key(header::TRANSFER_ENCODING)).then_some(0));
        let any_body = req.uri().path() == crate::http::api_import::IMPORT_PATH;
        match refusal(req.method(), req.headers(), body_len, any_body) {
            Some(e) => e.into_response(),
            None => next.run(req).await,
        }
    } else {
        next.run(req).await
    };
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_static(v));
        }
        h
    }

    #[test]
    fn only_the_pages_own_origin_and_json_bodies_may_act() {
        let code = |m: Method, h: &[(&'static str, &'static str)], len| {
            refusal(&m, &headers(h), len, false).map(|e| e.code.to_string())
        };
        let host = ("host", "127.0.0.1:8080");
        let own = ("origin", "http://127.0.0.1:8080");
        let json = ("content-type", "application/json; charset=utf-8");
        assert_eq!(code(Method::POST, &[host, own, json], Some(2)), None);
        assert_eq!(code(Method::POST, &[host, own], Some(0)), None);
        assert_eq!(code(Method::POST, &[host], Some(0)), None);
        assert_eq!(
            code(
                Method::POST,
                &[host, ("origin", "http://evil.example"), json],
                Some(2)
            ),
            Some("cross_origin".into())
        );
        assert_eq!(
            code(
                Method::GET,
                &[host, ("origin", "http://127.0.0.1:8081")],
                None
            ),
            Some("cross_origin".into())
        );
        assert_eq!(
            code(
                Method::POST,
                &[host, ("sec-fetch-site", "cross-site"), json],
                Some(2)
            ),
            Some("cross_origin".into())
        );
        assert_eq!(code(Method::GET, &[host, own], None), None);
        for ct in [
            "text/plain",
            "application/x-www-form-urlencoded",
            "multipart/form-data",
        ] {
            assert_eq!(
                code(Method::POST, &[host, own, ("content-type", ct)], Some(0)),
                Some("json_required".into()),
                "{ct}"
            );
        }
        assert_eq!(
            code(Method::PUT, &[host], Some(5)),
            Some("json_required".into())
        );
        // A route that acts for nobody (the import of a file) takes any
        // body from the page's own origin, and still no other origin's.
        let file = ("content-type", "application/octet-stream");
        let any = |h: &[(&'static str, &'static str)]| {
            refusal(&Method::POST, &headers(h), Some(9), true).map(|e| e.code.to_string())
        };
        assert_eq!(any(&[host, own, file]), None);
        assert_eq!(any(&[host, file]), None);
        assert_eq!(
            any(&[host, ("origin", "http://evil.example"), file]),
            Some("cross_origin".into())
        );
    }
}
