//! The web page, embedded in the binary: plain HTML, CSS and ES modules from
//! `web/` at the repository root (games' modules under `web/games/`), no
//! build step. Every file of the folder is embedded; none is named here.

use axum::extract::Path;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};

/// The `web/` folder, embedded at compile time.
#[derive(rust_embed::Embed)]
#[folder = "../../web/"]
struct Assets;

fn content_type(name: &str) -> &'static str {
    match name.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("wasm") => "application/wasm",
        Some("woff2") => "font/woff2",
        _ => "application/octet-stream",
    }
}

fn serve_file(name: &str) -> Response {
    match Assets::get(name) {
        Some(file) => {
            let mut r = file.data.into_owned().into_response();
            r.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static(content_type(name)),
            );
            r.headers_mut()
                .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
            r
        }
        None => crate::error::HallError::not_found("no such file").into_response(),
    }
}

/// `GET /`: the page.
pub async fn index() -> Response {
    serve_file("index.html")
}

/// `GET /favicon.ico`: the page's icon (`web/favicon.svg`, which the page
/// links), for browsers and tools that ask the old path by themselves: a
/// 404 there would be logged on every first visit.
pub async fn favicon() -> Response {
    serve_file("favicon.svg")
}

/// `GET /static/{path}`: any file of the folder, subfolders included (the
/// games' modules, the catalogue). Only embedded names answer, so a path
/// cannot reach outside the folder.
pub async fn asset(Path(name): Path<String>) -> Response {
    serve_file(&name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_and_its_modules_are_embedded() {
        for f in [
            "index.html",
            "app.js",
            "style.css",
            "kinds.js",
            "favicon.svg",
        ] {
            assert!(Assets::get(f).is_some(), "{f}");
        }
        assert!(Assets::iter().any(|f| f.starts_with("games/")));
        assert!(Assets::get("strings/common.js").is_some());
        assert!(Assets::get("../Cargo.toml").is_none());
        assert_eq!(content_type("games/x.js"), "text/javascript; charset=utf-8");
    }
}
