//! The one port: HTTP routes, the WebSocket upgrade, the connection cap, the Origin check and
//! the security headers of every response.

use std::sync::Arc;

use axum::Router;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{Extension, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use fipsen_protocol::{CloseCode, ErrorCode, MAX_MESSAGE_BYTES, ServerMessage};
use futures_util::FutureExt as _;
use tracing::Instrument as _;

use crate::accept::Client;
use crate::connection;
use crate::metrics::inc;
pub use crate::state::AppState;
use crate::static_files;

/// Each WebSocket's read buffer, allocated for the connection's whole life.
pub const READ_BUFFER_BYTES: usize = 512;

/// Outgoing frames are gathered up to this size before they are written to the socket.
const WRITE_BUFFER_BYTES: usize = 16 * 1024;

/// The routes: `/healthz`, `/metrics`, `/ws`, and the web client for everything else; every
/// response carries the security headers.
pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/metrics", get(metrics))
        .route("/ws", get(websocket))
        .fallback(static_files::serve)
        .layer(axum::middleware::from_fn(security_headers))
        .with_state(state)
}

/// `ok`, or 503 with the reason when storage cannot write.
async fn healthz(State(state): State<Arc<AppState>>) -> Response {
    if state.registry.is_stopping() {
        // A proxy sends new clients elsewhere while this server hands its rooms over.
        return (StatusCode::SERVICE_UNAVAILABLE, "stopping\n").into_response();
    }
    match state.health.check(&state.storage).await {
        Ok(()) => "ok\n".into_response(),
        Err(reason) => {
            state.metrics.error("health/storage");
            (StatusCode::SERVICE_UNAVAILABLE, format!("{reason}\n")).into_response()
        }
    }
}

/// The page may load only its own files, connect only back to this server, and be shown in no
/// frame; links out of it carry no referrer (the address holds the room's invite code).
/// `style-src` allows `style` attributes (the client sets a few custom properties that way) but
/// `style-src-elem` allows only the stylesheet's file.
async fn security_headers(request: Request, next: Next) -> Response {
    let websocket = request
        .headers()
        .get(header::HOST)
        .and_then(|host| host.to_str().ok())
        .filter(|host| is_plain_authority(host))
        .map(|host| format!(" ws://{host} wss://{host}"))
        .unwrap_or_default();
    let mut response = next.run(request).await;
    let policy = format!(
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; style-src-elem 'self'; \
         img-src 'self' data:; connect-src 'self'{websocket}; object-src 'none'; frame-ancestors 'none'; \
         base-uri 'none'; form-action 'self'"
    );
    let headers = response.headers_mut();
    if let Ok(policy) = HeaderValue::from_str(&policy) {
        headers.insert(header::CONTENT_SECURITY_POLICY, policy);
    }
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    response
}

/// A host name or address with an optional port, and nothing that could end a policy's source.
fn is_plain_authority(host: &str) -> bool {
    !host.is_empty()
        && host.len() <= 255
        && host.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':' | b'[' | b']'))
}

async fn metrics(State(state): State<Arc<AppState>>) -> Response {
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], state.metrics.render()).into_response()
}

async fn websocket(
    State(state): State<Arc<AppState>>,
    Extension(client): Extension<Client>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    if !state.config.allowed_origins.is_empty() {
        let origin = headers.get(header::ORIGIN).and_then(|o| o.to_str().ok()).unwrap_or("");
        if !state.config.allowed_origins.iter().any(|allowed| allowed == origin) {
            state.metrics.error("http/origin_forbidden");
            return (StatusCode::FORBIDDEN, "origin not allowed\n").into_response();
        }
    }
    if *state.shutdown.borrow() {
        return (StatusCode::SERVICE_UNAVAILABLE, "restarting\n").into_response();
    }
    // Small buffers: every connection keeps its read buffer for its whole life, client frames are
    // small (an action is about 100 bytes) and the buffer grows for a larger one (at most 16 KiB).
    // The write buffer holds one frame at a time (each send waits for the socket to take it): its
    // cap is the largest reply plus room for a frame header and a pong (and above the size at
    // which the buffer is written out, as tungstenite requires); the writer checks every frame
    // against the largest reply before sending it (connection.rs).
    let upgrade = upgrade
        .read_buffer_size(READ_BUFFER_BYTES)
        .write_buffer_size(WRITE_BUFFER_BYTES)
        .max_write_buffer_size(state.config.max_reply_bytes.max(WRITE_BUFFER_BYTES).saturating_add(1024))
        .max_message_size(2 * MAX_MESSAGE_BYTES)
        .max_frame_size(2 * MAX_MESSAGE_BYTES);
    match state.connections.clone().try_acquire_owned() {
        Ok(permit) => upgrade.on_upgrade(move |socket| {
            // Every log line of the connection names its client (behind a trusted proxy, the
            // address the proxy names); the client's place, if it holds one, lasts as long.
            let span = tracing::info_span!("client", address = %client.address);
            let connection = span.in_scope(|| connection::serve(socket, state, permit, client.address));
            // The client is let go when the connection ends. A combinator, not an async block:
            // a block would keep the connection's future twice (captured, and awaited).
            connection.map(move |()| drop(client)).instrument(span)
        }),
        Err(_) => {
            inc(&state.metrics.connections_refused);
            state.metrics.error(ErrorCode::ServerBusy.code());
            upgrade.on_upgrade(refuse_busy)
        }
    }
}

async fn refuse_busy(mut socket: axum::extract::ws::WebSocket) {
    use axum::extract::ws::{CloseFrame, Message, Utf8Bytes};
    let error = ServerMessage::error(ErrorCode::ServerBusy, None).to_json();
    let _ = socket.send(Message::Text(Utf8Bytes::from(error))).await;
    let code = CloseCode::TryAgainLater;
    let frame = CloseFrame { code: code.code(), reason: Utf8Bytes::from_static(code.reason()) };
    let _ = socket.send(Message::Close(Some(frame))).await;
}
