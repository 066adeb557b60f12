//! What every request handler and connection shares: the settings, the rooms, the tournaments,
//! the counters, the cap on WebSockets and the shutdown signal.

use std::sync::Arc;

use tokio::sync::{Semaphore, watch};

use crate::config::Config;
use crate::health::Health;
use crate::metrics::Metrics;
use crate::registry::Registry;
use crate::storage::Storage;
use crate::tournaments::Tournaments;

/// What every request handler shares.
#[derive(Debug)]
pub struct AppState {
    /// The configuration.
    pub config: Config,
    /// The rooms.
    pub registry: Arc<Registry>,
    /// The tournaments.
    pub tournaments: Arc<Tournaments>,
    /// The counters.
    pub metrics: Arc<Metrics>,
    /// One permit per open WebSocket.
    pub connections: Arc<Semaphore>,
    /// Becomes true when the server shuts down.
    pub shutdown: watch::Receiver<bool>,
    /// Storage, for `/healthz`'s probe.
    pub storage: Storage,
    /// `/healthz`'s latest probe.
    pub health: Health,
}
