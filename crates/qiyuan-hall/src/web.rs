//! The web page, embedded in the binary: plain HTML, CSS and ES modules from
//! `web/` at the repository root, no build step.

use axum::extract::Path;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

/// (name, content type, bytes) of every embedded file.
const FILES: &[(&str, &str, &str)] = &[
    (
        "index.html",
        "text/html; charset=utf-8",
        include_str!("../../../web/index.html"),
    ),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("../../../web/style.css"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/app.js"),
    ),
    (
        "board.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/board.js"),
    ),
    (
        "i18n.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/i18n.js"),
    ),
    (
        "banqi.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/banqi.js"),
    ),
    (
        "titles.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/titles.js"),
    ),
    (
        "leaderboard.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/leaderboard.js"),
    ),
    (
        "events.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/events.js"),
    ),
    (
        "kinds.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../web/kinds.js"),
    ),
];

fn serve_file(name: &str) -> Response {
    match FILES.iter().find(|(n, _, _)| *n == name) {
        Some((_, ctype, body)) => {
            let mut r = (*body).into_response();
            r.headers_mut()
                .insert(header::CONTENT_TYPE, HeaderValue::from_static(ctype));
            r.headers_mut()
                .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
            r
        }
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}

/// `GET /`: the page.
pub async fn index() -> Response {
    serve_file("index.html")
}

/// `GET /static/{file}`.
pub async fn asset(Path(name): Path<String>) -> Response {
    serve_file(&name)
}
