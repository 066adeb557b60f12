//! The web client's files, embedded in the binary at compile time (see `build.rs`).
//!
//! Every file is served with `Cache-Control: no-cache` and an `ETag` made from its contents: a
//! browser keeps its copy but asks each time whether it is still current, and gets `304 Not
//! Modified` (no body) while it is. So after an upgrade a page never runs new modules beside
//! old ones out of its cache — the modules import each other by plain names, and a cache that
//! trusted its copies for a while could mix two versions.

use std::sync::OnceLock;

use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use sha2::{Digest as _, Sha256};

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

/// A file of the client: its contents and its entity tag.
struct File {
    bytes: &'static [u8],
    etag: &'static HeaderValue,
}

/// Each file's entity tag (in [`embedded::FILES`]' order), computed once: a quoted prefix of its
/// contents' SHA-256.
fn etags() -> &'static [HeaderValue] {
    static ETAGS: OnceLock<Vec<HeaderValue>> = OnceLock::new();
    ETAGS.get_or_init(|| {
        embedded::FILES
            .iter()
            .map(|(_, bytes)| {
                let digest = Sha256::digest(bytes);
                let hex: String = digest.iter().take(12).map(|byte| format!("{byte:02x}")).collect();
                HeaderValue::from_str(&format!("\"{hex}\"")).unwrap_or(HeaderValue::from_static("\"\""))
            })
            .collect()
    })
}

fn find(path: &str) -> Option<File> {
    let index = embedded::FILES.iter().position(|(p, _)| *p == path)?;
    Some(File { bytes: embedded::FILES[index].1, etag: &etags()[index] })
}

/// Whether `If-None-Match` names `etag` (or is `*`); weak tags match too, as RFC 9110 asks for
/// this header.
fn still_current(headers: &HeaderMap, etag: &HeaderValue) -> bool {
    let Ok(etag) = etag.to_str() else { return false };
    headers.get_all(header::IF_NONE_MATCH).iter().filter_map(|value| value.to_str().ok()).any(|value| {
        value.split(',').map(str::trim).any(|tag| tag == "*" || tag.strip_prefix("W/").unwrap_or(tag) == etag)
    })
}

/// Serves a file of the client; unknown paths without an extension get `index.html`, so
/// links like `/r/<invite code>` open the client. A request whose `If-None-Match` names the
/// file's current tag gets 304.
pub async fn serve(uri: Uri, headers: HeaderMap) -> Response {
    let path = uri.path().trim_start_matches('/');
    let path = if path.is_empty() { "index.html" } else { path };
    if path.split('/').any(|part| part == "..") {
        return StatusCode::NOT_FOUND.into_response();
    }
    let (path, file) = match find(path) {
        Some(file) => (path, file),
        None if !path.rsplit('/').next().unwrap_or("").contains('.') => match find("index.html") {
            Some(file) => ("index.html", file),
            None => return placeholder(),
        },
        None => return StatusCode::NOT_FOUND.into_response(),
    };
    let validators = [(header::ETAG, file.etag.clone()), (header::CACHE_CONTROL, HeaderValue::from_static("no-cache"))];
    if still_current(&headers, file.etag) {
        return (StatusCode::NOT_MODIFIED, validators).into_response();
    }
    (
        validators,
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(content_type(path))),
            (header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")),
        ],
        file.bytes,
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
