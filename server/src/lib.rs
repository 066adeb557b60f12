//! The authoritative Fipsen server.
//!
//! * [`accept`] — the accept loop: the socket caps (in all, per address), then HTTP/1 with a
//!   deadline and a size cap for each request head.
//! * [`listener`] — the one port: `/healthz` ([`health`]), `/metrics`, `/ws` and the web
//!   client's files ([`static_files`]), with the connection cap, the Origin check and the
//!   security headers.
//! * [`connection`] — one WebSocket: handshake, rate limit, frames in and out.
//! * [`registry`] — the rooms in memory (handles only), opened from storage on demand; it
//!   answers what the rooms, tournaments and cluster ask of the server.
//! * [`cluster`] — cluster mode (`--node-id`): room leases, their renewal, takeover, hand-over.
//! * [`room`] — one task per room: seats, spectators, chat, the series, reconnection.
//! * [`tournaments`] — one task per tournament: registration, rounds, its tables as rooms,
//!   the live standings.
//! * [`replay`] (in [`room`]) — finished deals rebuilt from storage, step by step with every hand open.
//! * [`analysis`] — the card-by-card analysis of finished deals, computed off the rooms' tasks and cached.
//! * [`storage`] — SQLite or PostgreSQL, one writer with group commit; persist before acknowledging.
//! * [`proxy`] — the client's address behind a trusted reverse proxy (`X-Forwarded-For`).
//! * [`metrics`], [`config`], [`secrets`] — counters, settings, invite codes and tokens.
//! * [`lease`], [`keys`], [`quota`], [`text`], [`state`] — a held lease, lease keys, per-address
//!   buckets and paces, text cleaning, and what every request handler shares.
//!
//! The modules stand in layers, each using only its own and those below (ARCHITECTURE.md,
//! "Server layers"; `tests/layers.rs` checks it).

pub mod accept;
pub mod analysis;
pub mod background;
pub mod cluster;
pub mod config;
pub mod connection;
pub mod fair;
pub mod frames;
pub mod health;
pub mod keys;
pub mod lease;
pub mod listener;
pub mod metrics;
pub mod proxy;
pub mod quota;
pub mod registry;
pub mod room;
pub mod secrets;
pub mod state;
pub mod static_files;
pub mod storage;
pub mod text;
pub mod tournaments;

pub use room::{replay, series_index};

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{Semaphore, watch};
use tracing::{info, warn};

use crate::accept::Acceptor;
use crate::config::{Config, Database};
use crate::metrics::Metrics;
use crate::registry::Registry;
use crate::state::AppState;
use crate::storage::{Storage, StorageOptions};
use crate::tournaments::Tournaments;

/// Runs the server until `stop` resolves, then shuts down gracefully: says it is stopping on
/// `/healthz` and serves on for the drain (`--stop-drain-seconds`), hands its rooms over in
/// cluster mode, stops accepting, lets every connection finish what it sent, and closes them
/// with 1012 so that clients reconnect.
///
/// # Errors
/// The database cannot be opened or the address cannot be bound.
pub async fn run(
    config: Config,
    stop: impl Future<Output = ()> + Send + 'static,
) -> Result<(), Box<dyn std::error::Error>> {
    let cluster = config.cluster();
    if let Some(cluster) = &cluster
        && !matches!(config.database(), Database::Postgres(_))
    {
        return Err(format!(
            "--node-id {} turns cluster mode on, which needs a PostgreSQL database shared by the servers \
             (--db postgres://…); --db names a SQLite file",
            cluster.node
        )
        .into());
    }
    if config.nats.is_some() && cluster.is_none() {
        return Err(
            "--nats relays rooms between the servers of a cluster: it needs --node-id (and a PostgreSQL --db)".into()
        );
    }
    let metrics = Arc::new(Metrics::default());
    let (storage, writer) = match config.database() {
        Database::Sqlite(path) => Storage::open_with(path, metrics.clone(), config.storage())?,
        Database::Postgres(url) => {
            if config.storage() != StorageOptions::default() {
                warn!(
                    "--sync, --checkpoint-ms and --wal-limit-pages are SQLite's: ignored with PostgreSQL \
                     (its own settings, such as synchronous_commit, decide how commits reach the disk)"
                );
            }
            Storage::open_postgres(url, metrics.clone())?
        }
    };
    let db = match config.database() {
        Database::Sqlite(path) => path.display().to_string(),
        Database::Postgres(url) => storage::postgres::display_url(url),
    };
    let closing = storage.clone();
    if config.insecure_fixed_seed.is_some() {
        warn!("--insecure-fixed-seed is set: every new room's deals are known in advance; for tests only");
    }
    let registry = Registry::new(storage.clone(), metrics.clone(), config.room_idle(), config.insecure_fixed_seed)
        .with_room_quota(config.rooms_per_address)
        .with_watched_bots_rate(config.watched_bots_rate)
        .with_max_spectators(config.max_spectators)
        .with_cluster(cluster.clone());
    let limits = tournaments::Limits {
        max_entrants: config.max_tournament_entrants,
        registrations_per_address: config.registrations_per_address,
    };
    let tournaments = Tournaments::start(storage.clone(), registry.clone(), metrics.clone(), limits);
    let restored = match &cluster {
        // The rooms nobody holds: those other live servers hold stay theirs.
        Some(cluster) => {
            info!(node = %cluster.node, lease_ms = cluster.lease.as_millis(), "cluster mode");
            if let Some(url) = &config.nats {
                let relay = cluster::relay::Relay::connect(
                    url,
                    &config.cluster_name,
                    cluster.node.clone(),
                    metrics.clone(),
                    config.outbound_queue,
                )
                .await
                .map_err(|e| format!("cannot connect to NATS at {url}: {e}"))?;
                relay.start(registry.clone(), tournaments.clone()).await?;
                registry.set_relay(relay);
            }
            let mut passed_over = std::collections::HashSet::new();
            let rooms: Arc<dyn cluster::NodeRooms> = registry.clone();
            let relay = registry.relay().cloned();
            let restored = cluster::takeover::adopt_own(&rooms).await
                + cluster::takeover::pass(&rooms, relay.as_deref(), &mut passed_over).await;
            tokio::spawn(cluster::renewal::run(rooms.clone()));
            tokio::spawn(cluster::takeover::run(rooms.clone(), relay.clone(), passed_over));
            if config.rebalance
                && let Some(relay) = relay
            {
                tokio::spawn(cluster::rebalance::run(rooms, relay));
            }
            restored
        }
        None => registry.restore_active().await?,
    };
    let restored_tournaments = match &cluster {
        // Those nobody holds; the others' stay theirs, and are looked for again as rooms are.
        Some(cluster) => {
            let restored = tournaments.take_over().await;
            let (tournaments, every) = (tournaments.clone(), cluster.takeover_every());
            tokio::spawn(async move {
                loop {
                    tokio::time::sleep(every).await;
                    tournaments.take_over().await;
                }
            });
            restored
        }
        None => tournaments.restore_active().await?,
    };
    if let Some(retention) = config.retention() {
        // Old series go at start and then every hour.
        let registry = registry.clone();
        tokio::spawn(async move {
            loop {
                registry.expire(retention).await;
                tokio::time::sleep(Duration::from_secs(3600)).await;
            }
        });
    }
    let listener = tokio::net::TcpListener::bind(config.addr).await?;
    let addr = listener.local_addr()?;
    let (shutdown_tx, shutdown_rx) = watch::channel(false);
    let max = config.max_connections.clamp(1, Semaphore::MAX_PERMITS);
    let connections = Arc::new(Semaphore::new(max));
    let max_sockets = fit_to_open_files(config.max_sockets()).clamp(1, Semaphore::MAX_PERMITS);
    if max_sockets < max {
        warn!(max_sockets, max_connections = max, "fewer sockets than WebSocket connections allowed");
    }
    let sockets = Arc::new(Semaphore::new(max_sockets));
    let handing_over = registry.clone();
    let state = Arc::new(AppState {
        config: config.clone(),
        registry,
        tournaments,
        metrics,
        connections,
        shutdown: shutdown_rx,
        storage,
        health: health::Health::default(),
    });
    info!(%addr, %db, restored, restored_tournaments, client_files = static_files::count(), max_sockets, "listening");
    // The one line tests and operators look for.
    println!("Fipsen server listening on http://{addr}");
    let acceptor = Acceptor::new(listener, listener::router(state.clone()), state, sockets.clone());
    let accepting = tokio::spawn(acceptor.run());
    stop.await;
    // First the drain: `/healthz` answers `stopping` (and, in cluster mode, no room is claimed
    // here and the other servers hear so), while the rooms here play on and new connections are
    // still accepted, until a load balancer checking `/healthz` has taken this server out of
    // rotation.
    handing_over.stop_claiming();
    let drain = config.stop_drain();
    if !drain.is_zero() {
        info!(drain_seconds = drain.as_secs(), "shutting down: /healthz says stopping; serving on meanwhile");
        tokio::time::sleep(drain).await;
    }
    if cluster.is_some() {
        // Then another server takes the rooms at once (instead of once their leases run out):
        // each room stops here and closes its connections with 1012, this server's and the
        // other servers' relayed ones alike, so that they resume where the room goes next.
        // Meanwhile no room is claimed or joined here any more.
        info!("shutting down: handing the rooms over");
        cluster::handover::release_all(&*handing_over).await;
        if let Some(relay) = handing_over.relay() {
            // The closes of the relayed connections leave before the NATS connection does.
            tokio::time::sleep(Duration::from_millis(200)).await;
            let _ = tokio::time::timeout(Duration::from_secs(2), relay.client.flush()).await;
        }
    }
    info!("shutting down: closing connections with 1012");
    // Stops the accept loop, ends HTTP connections once their response is out, and closes
    // WebSockets with 1012.
    let _ = shutdown_tx.send(true);
    let _ = tokio::time::timeout(Duration::from_secs(5), accepting).await;
    // Every socket, WebSockets included, holds a permit until it has closed.
    let drained = tokio::time::timeout(Duration::from_secs(10), sockets.acquire_many(max_sockets as u32)).await;
    if drained.is_err() {
        warn!("some connections did not close in time");
    }
    // What rooms and tournaments handed over is written; the store is closed (its log folded
    // into the database file), and the writer's thread has ended.
    if let Err(e) = closing.shutdown().await {
        warn!(error = %e, "storage did not close cleanly");
    }
    if tokio::time::timeout(Duration::from_secs(10), tokio::task::spawn_blocking(move || writer.join())).await.is_err()
    {
        warn!("the storage writer did not stop in time");
    }
    info!("stopped");
    Ok(())
}

/// File descriptors kept for everything but sockets: the database and its log, standard
/// streams, the runtime's own.
const RESERVED_FILES: usize = 64;

/// The socket cap, lowered if the process may not open that many files: beyond the limit
/// `accept` fails and new users would wait in the listen queue without an answer.
fn fit_to_open_files(max_sockets: usize) -> usize {
    #[cfg(unix)]
    {
        let limit = rustix::process::getrlimit(rustix::process::Resource::Nofile).current;
        if let Some(limit) = limit.and_then(|limit| usize::try_from(limit).ok()) {
            let fits = limit.saturating_sub(RESERVED_FILES).max(1);
            if fits < max_sockets {
                warn!(
                    max_sockets,
                    open_file_limit = limit,
                    lowered_to = fits,
                    "the socket cap is above the open-file limit: lowered"
                );
                return fits;
            }
        }
    }
    max_sockets
}
