//! The authoritative Fipsen server.
//!
//! * [`listener`] — the one port: `/healthz`, `/metrics`, `/ws` and the web client's files
//!   ([`static_files`]), with the connection cap and the Origin check.
//! * [`connection`] — one WebSocket: handshake, rate limit, frames in and out.
//! * [`registry`] — the rooms in memory (handles only), opened from storage on demand.
//! * [`room`] — one task per room: seats, spectators, chat, the series, reconnection.
//! * [`storage`] — SQLite, one writer thread with group commit; persist before acknowledging.
//! * [`metrics`], [`config`], [`secrets`] — counters, settings, invite codes and tokens.

pub mod config;
pub mod connection;
pub mod frames;
pub mod listener;
pub mod metrics;
pub mod registry;
pub mod room;
pub mod secrets;
pub mod static_files;
pub mod storage;

use std::sync::Arc;
use std::time::Duration;

use axum::serve::ListenerExt;
use tokio::sync::{Semaphore, watch};
use tracing::{info, warn};

use crate::config::Config;
use crate::listener::AppState;
use crate::metrics::Metrics;
use crate::registry::Registry;
use crate::storage::Storage;

/// Runs the server until `stop` resolves, then shuts down gracefully: stops accepting, lets
/// every connection finish what it sent, and closes them with 1012 so that clients reconnect.
///
/// # Errors
/// The database cannot be opened or the address cannot be bound.
pub async fn run(
    config: Config,
    stop: impl Future<Output = ()> + Send + 'static,
) -> Result<(), Box<dyn std::error::Error>> {
    let metrics = Arc::new(Metrics::default());
    let (storage, writer) = Storage::open_with(&config.db, metrics.clone(), config.sync)?;
    if config.insecure_fixed_seed.is_some() {
        warn!("--insecure-fixed-seed is set: every new room's deals are known in advance; for tests only");
    }
    let registry = Registry::new(storage, metrics.clone(), config.room_idle(), config.insecure_fixed_seed)
        .with_room_quota(config.rooms_per_address);
    let restored = registry.restore_active().await?;
    let listener = tokio::net::TcpListener::bind(config.addr).await?;
    let addr = listener.local_addr()?;
    let (shutdown_tx, shutdown_rx) = watch::channel(false);
    let max = config.max_connections.clamp(1, Semaphore::MAX_PERMITS);
    let connections = Arc::new(Semaphore::new(max));
    let state = Arc::new(AppState {
        config: config.clone(),
        registry,
        metrics,
        connections: connections.clone(),
        shutdown: shutdown_rx,
    });
    info!(%addr, db = %config.db.display(), restored, client_files = static_files::count(), "listening");
    // The one line tests and operators look for.
    println!("Fipsen server listening on http://{addr}");
    let listener = listener.tap_io(|tcp| {
        if let Err(e) = tcp.set_nodelay(true) {
            warn!(error = %e, "cannot set TCP_NODELAY");
        }
    });
    let (stopped_tx, stopped_rx) = tokio::sync::oneshot::channel::<()>();
    let app = listener::router(state).into_make_service_with_connect_info::<std::net::SocketAddr>();
    let server = axum::serve(listener, app).with_graceful_shutdown(async move {
        let _ = stopped_rx.await;
    });
    let server = tokio::spawn(async move { server.await });
    stop.await;
    info!("shutting down: closing connections with 1012");
    let _ = shutdown_tx.send(true);
    let _ = stopped_tx.send(());
    // Every connection holds a permit until it has finished and closed.
    let drained = tokio::time::timeout(Duration::from_secs(10), connections.acquire_many(max as u32)).await;
    if drained.is_err() {
        warn!("some connections did not close in time");
    }
    let _ = tokio::time::timeout(Duration::from_secs(5), server).await;
    drop(writer);
    info!("stopped");
    Ok(())
}
