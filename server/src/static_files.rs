//! The web client's files, embedded in the binary at compile time (see `build.rs`).

use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/client_files.rs"));
}

/// Shown when the server was built without the web client's files.
const PLACEHOLDER: &str = "<!doctype html>
<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Fipsen</title></head>
<body><h1>Fipsen server</h1>
<p>The server runs, but it was built without the web client (no <code>client-web/index.html</code>).
WebSocket clients connect to <code>/ws</code>; see <code>docs/PROTOCOL.md</code>.</p>
</body></html>
";

fn content_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map(|(_, ext)| ext) {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("json" | "map") => "application/json",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        Some("webp") => "image/webp",
        Some("woff2") => "font/woff2",
        Some("txt") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

fn find(path: &str) -> Option<&'static [u8]> {
    embedded::FILES.iter().find(|(p, _)| *p == path).map(|(_, bytes)| *bytes)
}

/// Serves a file of the client; unknown paths without an extension get `index.html`, so
/// links like `/r/<invite code>` open the client.
pub async fn serve(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    let path = if path.is_empty() { "index.html" } else { path };
    if path.split('/').any(|part| part == "..") {
        return StatusCode::NOT_FOUND.into_response();
    }
    let (path, bytes) = match find(path) {
        Some(bytes) => (path, bytes),
        None if !path.rsplit('/').next().unwrap_or("").contains('.') => match find("index.html") {
            Some(bytes) => ("index.html", bytes),
            None => return placeholder(),
        },
        None => return StatusCode::NOT_FOUND.into_response(),
    };
    let cache = if path == "index.html" { "no-cache" } else { "public, max-age=300" };
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(content_type(path))),
            (header::CACHE_CONTROL, HeaderValue::from_static(cache)),
            (header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")),
        ],
        bytes,
    )
        .into_response()
}

fn placeholder() -> Response {
    ([(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"))], PLACEHOLDER).into_response()
}

/// How many files of the client are embedded.
pub fn count() -> usize {
    embedded::FILES.len()
}
