//! The relay (`--nats`): any server of a cluster accepts any client. A client's room may be
//! held by another server; then the server it is connected to (the edge) passes the client's
//! room messages to the one holding the room (the owner) over NATS, and the owner's frames for
//! that client back, each already built for that viewer by the owner (nothing hidden crosses
//! over that the client could not see). The proxy in front needs no sticky sessions.
//!
//! * this file — the server's NATS connection and what both sides share ([`Relay`]); the
//!   heartbeats by which each server knows which others are alive;
//! * [`edge`] — a relayed room at the edge: a task that the edge's connections talk to as to
//!   a room, and the subscription that delivers the owner's frames;
//! * [`owner`] — the owner's subscription: each relayed client becomes a connection of the
//!   room as a local one is, served by a task of its own;
//! * [`wire`] — what crosses NATS.
//!
//! When the owner dies or pauses, its heartbeats stop: the edges close its relayed clients
//! with 1012 and they resume (through the proxy, at any server), where the room is taken over
//! once its lease has run out. When an edge dies, the owners drop its clients from their rooms.

pub mod edge;
pub mod owner;
pub mod wire;

use std::sync::Arc;
use std::time::{Duration, Instant};

use dashmap::DashMap;
use futures_util::StreamExt;
use tracing::{info, warn};

use crate::metrics::Metrics;
use crate::registry::{Registry, RoomHandle};
use crate::room::ConnId;

/// How often each server says it is alive.
pub const HEARTBEAT: Duration = Duration::from_secs(1);
/// A server not heard from for this long is taken for dead (or paused): its relayed clients
/// are closed with 1012 and resume elsewhere.
pub const SILENCE: Duration = Duration::from_secs(3);
/// How long a request to another server (a join, a peek, a summary) may take.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(3);

/// The server's NATS connection, and what the relay keeps of the other servers and of the
/// relayed connections.
#[derive(Debug)]
pub struct Relay {
    /// The NATS connection.
    pub client: async_nats::Client,
    /// This server's name.
    pub node: Arc<str>,
    /// The server's counters.
    pub metrics: Arc<Metrics>,
    /// Frames queued for a relayed connection of a room held here before it counts as too
    /// slow (`--outbound-queue`, as for a local connection).
    outbound_queue: usize,
    /// When each other server was last heard from.
    peers: DashMap<String, Instant>,
    /// The relayed rooms at this edge, by invite code.
    pub(crate) edges: DashMap<Arc<str>, RoomHandle>,
    /// This edge's relayed connections, by number: where the owner's frames go.
    pub(crate) inbox: DashMap<ConnId, edge::Relayed>,
    /// The other servers' connections in the rooms held here, by edge and number.
    pub(crate) remotes: DashMap<(Arc<str>, u64), owner::Remote>,
}

impl Relay {
    /// Connects to the NATS server at `url` as server `node`; the relayed connections of the
    /// rooms held here get queues of `outbound_queue` frames.
    ///
    /// # Errors
    /// The NATS server cannot be reached.
    pub async fn connect(
        url: &str,
        node: Arc<str>,
        metrics: Arc<Metrics>,
        outbound_queue: usize,
    ) -> Result<Arc<Relay>, async_nats::ConnectError> {
        let client = async_nats::ConnectOptions::new()
            .name(format!("fipsen-server {node}"))
            .connection_timeout(Duration::from_secs(5))
            .request_timeout(Some(REQUEST_TIMEOUT))
            .connect(url)
            .await?;
        info!(node = %node, "connected to NATS");
        Ok(Arc::new(Relay {
            client,
            node,
            metrics,
            outbound_queue: outbound_queue.max(4),
            peers: DashMap::new(),
            edges: DashMap::new(),
            inbox: DashMap::new(),
            remotes: DashMap::new(),
        }))
    }

    /// Starts the relay's tasks: the heartbeats, the edge's inbox and the owner's subscription.
    ///
    /// # Errors
    /// A subscription could not be made.
    pub async fn start(self: &Arc<Self>, registry: Arc<Registry>) -> Result<(), async_nats::SubscribeError> {
        let alive = self.client.subscribe(wire::ALIVE_SUBJECT).await?;
        let inbox = self.client.subscribe(wire::edge_subject(&self.node)).await?;
        let requests = self.client.subscribe(wire::owner_subject(&self.node)).await?;
        tokio::spawn(self.clone().hear(alive));
        tokio::spawn(self.clone().beat());
        tokio::spawn(self.clone().deliver(inbox));
        tokio::spawn(self.clone().serve(requests, registry));
        Ok(())
    }

    /// Whether server `node` was heard from lately (this server always is).
    pub fn alive(&self, node: &str) -> bool {
        node == &*self.node || self.peers.get(node).is_some_and(|seen| seen.elapsed() < SILENCE)
    }

    /// Says every [`HEARTBEAT`] that this server is alive, measuring the round trip to NATS;
    /// drops the other servers' connections whose server has gone silent.
    async fn beat(self: Arc<Self>) {
        let mut ticks = tokio::time::interval(HEARTBEAT);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            if let Err(e) = self.client.publish(wire::ALIVE_SUBJECT, self.node.as_bytes().to_vec().into()).await {
                warn!(error = %e, "cannot say this server is alive over NATS");
            }
            let sent = Instant::now();
            match tokio::time::timeout(REQUEST_TIMEOUT, self.client.flush()).await {
                Ok(Ok(())) => self.metrics.nats_round_trip.observe(sent.elapsed()),
                Ok(Err(e)) => warn!(error = %e, "NATS does not answer"),
                Err(_) => warn!("NATS does not answer in time"),
            }
            owner::drop_silent_edges(&self);
        }
    }

    /// Notes every other server's heartbeat.
    async fn hear(self: Arc<Self>, mut alive: async_nats::Subscriber) {
        while let Some(message) = alive.next().await {
            let Ok(node) = std::str::from_utf8(&message.payload) else { continue };
            if node != &*self.node {
                if !self.peers.contains_key(node) {
                    info!(peer = node, "another server is alive");
                }
                self.peers.insert(node.to_string(), Instant::now());
            }
        }
        warn!("the heartbeat subscription ended");
    }
}
