//! The one port: HTTP routes, the WebSocket upgrade, the connection cap and the Origin check.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use fipsen_protocol::{CloseCode, ErrorCode, MAX_MESSAGE_BYTES, ServerMessage};
use tokio::sync::{Semaphore, watch};

use crate::config::Config;
use crate::connection;
use crate::metrics::{Metrics, inc};
use crate::registry::Registry;
use crate::static_files;

/// Each WebSocket's read buffer, allocated for the connection's whole life.
pub const READ_BUFFER_BYTES: usize = 1024;

/// What every request handler shares.
#[derive(Debug)]
pub struct AppState {
    /// The configuration.
    pub config: Config,
    /// The rooms.
    pub registry: Arc<Registry>,
    /// The counters.
    pub metrics: Arc<Metrics>,
    /// One permit per open WebSocket.
    pub connections: Arc<Semaphore>,
    /// Becomes true when the server shuts down.
    pub shutdown: watch::Receiver<bool>,
}

/// The routes: `/healthz`, `/metrics`, `/ws`, and the web client for everything else.
pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/healthz", get(|| async { "ok\n" }))
        .route("/metrics", get(metrics))
        .route("/ws", get(websocket))
        .fallback(static_files::serve)
        .with_state(state)
}

async fn metrics(State(state): State<Arc<AppState>>) -> Response {
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], state.metrics.render()).into_response()
}

async fn websocket(
    State(state): State<Arc<AppState>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
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
    // small (an action is about 100 bytes) and the buffer grows for a larger one (at most 16 KiB);
    // the write buffer is capped so that a client that does not read holds little memory before
    // it is dropped.
    let upgrade = upgrade
        .read_buffer_size(READ_BUFFER_BYTES)
        .write_buffer_size(16 * 1024)
        .max_write_buffer_size(256 * 1024)
        .max_message_size(2 * MAX_MESSAGE_BYTES)
        .max_frame_size(2 * MAX_MESSAGE_BYTES);
    match state.connections.clone().try_acquire_owned() {
        Ok(permit) => upgrade.on_upgrade(move |socket| connection::serve(socket, state, permit, peer.ip())),
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
