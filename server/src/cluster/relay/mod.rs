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
//! * [`lobby`] — the lobby across the servers: each publishes its public rooms;
//! * [`owner`] — the owner's subscription: each relayed client becomes a connection of the
//!   room as a local one is, served by a task of its own;
//! * [`tournament`] — tournaments across the servers: relayed as rooms are; their tables
//!   report to the tournament's server;
//! * [`wire`] — what crosses NATS.
//!
//! When the owner dies or pauses, its heartbeats stop: the edges close its relayed clients
//! with 1012 and they resume (through the proxy, at any server), where the room is taken over
//! once its lease has run out. When an edge dies, the owners drop its clients from their rooms.
//! NATS may lose a message between two live servers (a close, a frame, a leave): every second
//! each owner calls the roll of each edge's clients in its rooms ([`wire::RollCall`]), and the
//! edge resumes a client the roll shows forgotten or short of frames, so none waits forever.

pub mod edge;
pub mod lobby;
pub mod owner;
pub mod tournament;
pub mod wire;

use std::sync::Arc;
use std::time::{Duration, Instant};

use dashmap::DashMap;
use futures_util::StreamExt;
use tracing::{info, warn};

use super::rooms::NodeRooms;
use crate::metrics::Metrics;
use crate::room::ConnId;
use crate::room::RoomHandle;
use crate::storage::Fence;
use crate::tournaments::{TournamentHandle, Tournaments};

/// Another server, as its heartbeats tell of it.
#[derive(Debug, Clone, Copy)]
struct Peer {
    /// When it was last heard from.
    seen: Instant,
    /// Its run (new at each start).
    incarnation: u64,
    /// It did not answer a request since its last heartbeat: no room is relayed to it until
    /// it is heard from again.
    suspected: bool,
    /// The rooms it held at its last heartbeat, and whether it was stopping (`None`: its
    /// heartbeat did not say).
    load: Option<(u64, bool)>,
    /// The new rooms this server placed on it since its last heartbeat.
    placed: u64,
}

impl Peer {
    /// Whether it may take rooms now: heard from lately, not suspected, and not stopping (as
    /// far as its heartbeats say).
    fn takes_rooms(&self) -> bool {
        self.seen.elapsed() < SILENCE && !self.suspected && !matches!(self.load, Some((_, true)))
    }
}

/// How often each server says it is alive.
pub const HEARTBEAT: Duration = Duration::from_secs(1);
/// A server not heard from for this long is taken for dead (or paused): its relayed clients
/// are closed with 1012 and resume elsewhere.
pub const SILENCE: Duration = Duration::from_secs(3);
/// How long a request to another server (a join, a peek, a summary) may take: longer than
/// any pause of a loaded server, since a join given up on may still be made there.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(5);

/// The server's NATS connection, and what the relay keeps of the other servers and of the
/// relayed connections.
#[derive(Debug)]
pub struct Relay {
    /// The NATS connection.
    pub client: async_nats::Client,
    /// This server's name.
    pub node: Arc<str>,
    /// The cluster's name (`--cluster-name`): the first part of every subject, so that several
    /// clusters may share one NATS server.
    cluster: String,
    /// The server's counters.
    pub metrics: Arc<Metrics>,
    /// Frames queued for a relayed connection of a room held here before it counts as too
    /// slow (`--outbound-queue`, as for a local connection).
    outbound_queue: usize,
    /// This process's run of the server: when it started (milliseconds since 1970), sent with
    /// the heartbeats, so that the others tell a restarted server (same name) from the one
    /// before, and which run is the later.
    incarnation: u64,
    /// Each other server: when it was last heard from, and the run it is in.
    peers: DashMap<String, Peer>,
    /// The relayed rooms at this edge, by invite code.
    pub(crate) edges: DashMap<Arc<str>, RoomHandle>,
    /// This edge's relayed connections, by number: where the owner's frames go.
    pub(crate) inbox: DashMap<ConnId, edge::Relayed>,
    /// The other servers' connections in the rooms held here, by edge and number.
    pub(crate) remotes: DashMap<(wire::Edge, u64), owner::Remote>,
    /// The other servers' public rooms and listed tournaments as each last published them.
    lobbies: DashMap<String, lobby::Published>,
    /// The relayed tournaments at this edge, by link code.
    pub(crate) tournament_edges: DashMap<Arc<str>, TournamentHandle>,
    /// This edge's connections that asked a relayed tournament something, by number.
    pub(crate) tournament_inbox: DashMap<ConnId, edge::Relayed>,
    /// The other servers' clients of the tournaments held here, by edge and number.
    pub(crate) tournament_remotes: DashMap<(wire::Edge, u64), tournament::TournamentRemote>,
}

impl Relay {
    /// Connects to the NATS server at `url` as server `node`; the relayed connections of the
    /// rooms held here get queues of `outbound_queue` frames.
    ///
    /// # Errors
    /// The NATS server cannot be reached.
    pub async fn connect(
        url: &str,
        cluster: &str,
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
            cluster: cluster.to_string(),
            metrics,
            outbound_queue: outbound_queue.max(4),
            incarnation: now_ms(),
            peers: DashMap::new(),
            edges: DashMap::new(),
            inbox: DashMap::new(),
            remotes: DashMap::new(),
            lobbies: DashMap::new(),
            tournament_edges: DashMap::new(),
            tournament_inbox: DashMap::new(),
            tournament_remotes: DashMap::new(),
        }))
    }

    /// Starts the relay's tasks: the heartbeats, the lobby, the edge's inbox and the owner's
    /// subscription.
    ///
    /// # Errors
    /// A subscription could not be made.
    pub async fn start(
        self: &Arc<Self>,
        registry: Arc<dyn NodeRooms>,
        tournaments: Arc<Tournaments>,
    ) -> Result<(), async_nats::SubscribeError> {
        let alive = self.client.subscribe(self.subject(wire::ALIVE_SUBJECT)).await?;
        let tournament_requests = self.client.subscribe(self.subject(&wire::tournament_subject(&self.node))).await?;
        tokio::spawn(self.clone().serve_tournaments(tournament_requests, tournaments.clone()));
        let inbox = self.client.subscribe(self.subject(&self.this_edge().subject())).await?;
        let requests = self.client.subscribe(self.subject(&wire::owner_subject(&self.node))).await?;
        let lobbies = self.client.subscribe(self.subject(wire::LOBBY_SUBJECT)).await?;
        tokio::spawn(self.clone().hear(alive));
        tokio::spawn(self.clone().hear_lobbies(lobbies));
        tokio::spawn(self.clone().share_lobby(registry.clone(), tournaments));
        tokio::spawn(self.clone().beat(registry.clone()));
        tokio::spawn(self.clone().deliver(inbox));
        tokio::spawn(self.clone().serve(requests, registry));
        Ok(())
    }

    /// The full subject of `tail` in this cluster.
    pub fn subject(&self, tail: &str) -> String {
        format!("{}.{tail}", self.cluster)
    }

    /// This server as an edge, in this run.
    pub fn this_edge(&self) -> wire::Edge {
        wire::Edge { node: self.node.to_string(), run: self.incarnation }
    }

    /// Whether an edge's run is over: its server was heard from in a later run, or has been
    /// silent (for clients known for longer than `SILENCE`).
    pub fn edge_gone(&self, edge: &wire::Edge, since: Instant) -> bool {
        (since.elapsed() >= SILENCE && !self.heard(&edge.node))
            || self.incarnation(&edge.node).is_some_and(|run| run > edge.run)
    }

    /// Whether rooms may be relayed to server `node`: it was heard from lately, and has not
    /// failed to answer since (this server always may).
    pub fn alive(&self, node: &str) -> bool {
        node == &*self.node || self.peers.get(node).is_some_and(|peer| peer.seen.elapsed() < SILENCE && !peer.suspected)
    }

    /// Whether server `node` was heard from lately, whatever it answered.
    fn heard(&self, node: &str) -> bool {
        node == &*self.node || self.peers.get(node).is_some_and(|peer| peer.seen.elapsed() < SILENCE)
    }

    /// The run server `node` is in, as last heard (`None`: never heard, or taken for dead).
    pub fn incarnation(&self, node: &str) -> Option<u64> {
        if node == &*self.node {
            return Some(self.incarnation);
        }
        self.peers.get(node).filter(|peer| peer.seen.elapsed() < SILENCE).map(|peer| peer.incarnation)
    }

    /// The run of server `node` that a relayed room (or tournament) beginning now talks to, as
    /// far as this server knows it yet.
    pub fn owner_run(&self, node: &str) -> OwnerRun {
        OwnerRun { known: self.incarnation(node), began: now_ms() }
    }

    /// Whether the owner a relayed room began with is still heard from, in the same run (see
    /// [`OwnerRun::still`]). A server that failed to answer once ([`Relay::suspect`]) still is:
    /// what is relayed to it goes on until its heartbeats stop.
    pub fn owner_still(&self, node: &str, run: &mut OwnerRun) -> bool {
        self.heard(node) && run.still(self.incarnation(node))
    }

    /// Takes server `node` for dead until it is heard from again: it did not answer a request
    /// (nobody listens on its subject, or it did not answer in time).
    pub fn suspect(&self, node: &str) {
        if let Some(mut peer) = self.peers.get_mut(node)
            && !peer.suspected
        {
            peer.suspected = true;
            info!(peer = node, "another server does not answer: no room is relayed to it until it is heard from again");
        }
    }

    /// The server a new room goes to: of this one and the others alive and not stopping, the
    /// one holding the fewest rooms (as each last said, with the rooms placed on it since);
    /// `None` when that is this one (a tie stays here: its creator needs no relay).
    pub fn placement(&self) -> Option<String> {
        let own = self.metrics.rooms_owned.load(std::sync::atomic::Ordering::Relaxed);
        let mut best: Option<(u64, String)> = None;
        for peer in &self.peers {
            let Some((rooms, _)) = peer.load.filter(|_| peer.takes_rooms()) else { continue };
            let load = rooms.saturating_add(peer.placed);
            if load < best.as_ref().map_or(own, |(least, _)| *least) {
                best = Some((load, peer.key().clone()));
            }
        }
        let (_, node) = best?;
        if let Some(mut peer) = self.peers.get_mut(&node) {
            peer.placed += 1;
        }
        Some(node)
    }

    /// Of the other servers that may take rooms now and said how many they hold, the one
    /// holding the fewest (with the rooms placed on it since its last heartbeat), and how many.
    pub fn lightest_peer(&self) -> Option<(String, u64)> {
        self.peers
            .iter()
            .filter(|peer| peer.takes_rooms())
            .filter_map(|peer| peer.load.map(|(rooms, _)| (peer.key().clone(), rooms.saturating_add(peer.placed))))
            .min_by(|(a, x), (b, y)| x.cmp(y).then_with(|| a.cmp(b)))
    }

    /// Counts a room handed to `node` until its next heartbeat says how many it holds.
    pub fn note_placed(&self, node: &str) {
        if let Some(mut peer) = self.peers.get_mut(node) {
            peer.placed += 1;
        }
    }

    /// The servers that may take rooms now: this one, and every other alive and not stopping
    /// (as its heartbeats say), by name.
    pub fn live_nodes(&self) -> Vec<String> {
        let mut nodes: Vec<String> =
            self.peers.iter().filter(|peer| peer.takes_rooms()).map(|peer| peer.key().clone()).collect();
        nodes.push(self.node.to_string());
        nodes
    }

    /// Asks server `node` to open room `code`, just stored here, and hold it: the lease it
    /// holds it under, or `None` when it did not (it does not answer, is stopping, or another
    /// server holds the room).
    pub async fn place_at(&self, node: &str, code: &str) -> Option<Fence> {
        let message = serde_json::to_vec(&wire::ToOwner::Open { room: code.to_string() }).ok()?;
        let answer = match self.client.request(self.subject(&wire::owner_subject(node)), message.into()).await {
            Ok(answer) => answer,
            Err(e) => {
                info!(room = code, peer = node, error = %e, "another server does not answer: the new room stays here");
                self.suspect(node);
                return None;
            }
        };
        match serde_json::from_slice::<wire::Reply<u64>>(&answer.payload) {
            Ok(wire::Reply::Here(epoch)) => Some(Fence { node: Arc::from(node), epoch }),
            _ => None,
        }
    }

    /// Says every [`HEARTBEAT`] that this server is alive, in which run, how many rooms it
    /// holds and whether it is stopping; measures the round trip to NATS; drops the other
    /// servers' connections whose server has gone silent, and calls the roll of the others'
    /// ([`owner::call_the_roll`]).
    async fn beat(self: Arc<Self>, registry: Arc<dyn NodeRooms>) {
        let mut ticks = tokio::time::interval(HEARTBEAT);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            let rooms = self.metrics.rooms_owned.load(std::sync::atomic::Ordering::Relaxed);
            let beat = format!("{} {} {rooms} {}", self.node, self.incarnation, u8::from(registry.is_stopping()));
            if let Err(e) = self.client.publish(self.subject(wire::ALIVE_SUBJECT), beat.into_bytes().into()).await {
                warn!(error = %e, "cannot say this server is alive over NATS");
            }
            let sent = Instant::now();
            match tokio::time::timeout(REQUEST_TIMEOUT, self.client.flush()).await {
                Ok(Ok(())) => self.metrics.nats_round_trip.observe(sent.elapsed()),
                Ok(Err(e)) => warn!(error = %e, "NATS does not answer"),
                Err(_) => warn!("NATS does not answer in time"),
            }
            owner::drop_silent_edges(&self);
            owner::call_the_roll(&self).await;
            self.drop_silent_tournament_clients().await;
        }
    }

    /// Notes every other server's heartbeat.
    async fn hear(self: Arc<Self>, mut alive: async_nats::Subscriber) {
        while let Some(message) = alive.next().await {
            let Ok(beat) = std::str::from_utf8(&message.payload) else { continue };
            let mut fields = beat.split(' ');
            let (Some(node), Some(Ok(incarnation))) = (fields.next(), fields.next().map(str::parse)) else { continue };
            let load = match (fields.next().map(str::parse), fields.next()) {
                (Some(Ok(rooms)), Some(stopping)) => Some((rooms, stopping == "1")),
                _ => None,
            };
            if node != &*self.node {
                let peer = Peer { seen: Instant::now(), incarnation, suspected: false, load, placed: 0 };
                match self.peers.insert(node.to_string(), peer) {
                    None => info!(peer = node, "another server is alive"),
                    Some(before) if before.incarnation != incarnation => info!(peer = node, "another server restarted"),
                    Some(_) => {}
                }
            }
        }
        warn!("the heartbeat subscription ended");
    }
}

/// Milliseconds since the Unix epoch: a server's run is named by when it began.
fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// How far apart two servers' clocks may be when one tells whether the other's run began
/// before something it did.
const CLOCK_SKEW_MS: u64 = 1_000;

/// The run of the server that holds a room relayed here. A relayed room must end (its
/// connections closed with 1012, to resume where the room is now) once its owner restarts:
/// the new run holds none of its connections, and frames for them never come. The run is
/// known when the owner was heard lately as the relayed room began; when it was not (it had
/// just started, and its first heartbeat was still on its way), the first run heard after is
/// taken, but only if it began before the relayed room did: a run that began later is a restart
/// since (within the clocks' skew, taken for one: the connections then resume once more).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OwnerRun {
    /// The owner's run, once known.
    known: Option<u64>,
    /// When the relayed room began (milliseconds since the Unix epoch).
    began: u64,
}

impl OwnerRun {
    /// Whether the owner, heard now in run `heard` (`None`: not heard lately), is still the
    /// run this relayed room began with; learns that run when it was unknown.
    pub fn still(&mut self, heard: Option<u64>) -> bool {
        match (self.known, heard) {
            (Some(known), Some(heard)) => known == heard,
            (Some(_), None) | (None, None) => true,
            (None, Some(heard)) => {
                if heard.saturating_add(CLOCK_SKEW_MS) <= self.began {
                    self.known = Some(heard);
                    true
                } else {
                    false
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{CLOCK_SKEW_MS, OwnerRun};

    /// A known run holds while it is the one heard, and ends when another is.
    #[test]
    fn a_known_run_ends_when_the_owner_restarts() {
        let mut run = OwnerRun { known: Some(5_000), began: 9_000 };
        assert!(run.still(Some(5_000)));
        assert!(run.still(None), "not heard for a moment: silence is judged elsewhere");
        assert!(!run.still(Some(12_000)), "a new run of the owner");
    }

    /// An owner not heard yet as the relayed room began: its first run heard is taken if it
    /// began before, and a run that began after means it restarted meanwhile.
    #[test]
    fn an_unknown_run_is_learnt_or_found_to_be_a_restart() {
        let began = 100_000;
        let mut before = OwnerRun { known: None, began };
        assert!(before.still(None));
        assert!(before.still(Some(began - 2 * CLOCK_SKEW_MS)));
        assert_eq!(before.known, Some(began - 2 * CLOCK_SKEW_MS));
        assert!(!before.still(Some(began + 5_000)), "learnt once, a later run is a restart");

        let mut after = OwnerRun { known: None, began };
        assert!(!after.still(Some(began + 5_000)), "the owner restarted after the relayed room began");
        let mut within_skew = OwnerRun { known: None, began };
        assert!(!within_skew.still(Some(began - CLOCK_SKEW_MS / 2)), "too close to tell: taken for a restart");
    }
}
