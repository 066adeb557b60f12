//! Tournaments across the servers: a tournament runs on the server holding its lease (see
//! [`crate::tournaments::Tournaments::open`]); at any other server, its clients' requests go to
//! that server over NATS, and its frames for them come back, as for a room. The tables of a
//! tournament may be held by any server: each sends the deals it played to the tournament's
//! server ([`ToTournament::Report`]).
//!
//! * At the edge, a relayed tournament is a task that the connections talk to as to a
//!   tournament (its [`TournamentHandle`] is like a tournament's).
//! * At the owner, each client of an edge that asked the tournament something has a connection
//!   end here ([`ConnLink`]) whose frames a task of its own publishes to the edge; it goes
//!   when the client stops watching, or is gone.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Instant;

use async_nats::Subject;
use bytes::Bytes;
use fipsen_protocol::CloseCode;
use futures_util::StreamExt;
use tokio::sync::{mpsc, oneshot, watch};
use tracing::{debug, info, warn};

use super::Relay;
use super::edge::{LINGER, Relayed, close_link};
use super::wire::{self, Addressed, Edge, Reply, ToTournament, TournamentCommand};
use crate::cluster::RoomLease;
use crate::room::{ConnId, ConnLink, Kick, Outgoing, new_conn_id};
use crate::storage::Fence;
use crate::tournaments::{Command, TournamentHandle, Tournaments};

/// Commands queued for a relayed tournament before senders wait.
const QUEUE: usize = 256;

/// A client of another server, as a tournament here knows it.
#[derive(Debug)]
pub struct TournamentRemote {
    /// Its end here.
    link: ConnLink,
    /// The tournament it asked.
    tournament: TournamentHandle,
    /// When it first asked.
    since: Instant,
}

impl Relay {
    /// The relayed tournament `id` at this edge, if one is running.
    pub fn tournament_edge(&self, id: &str) -> Option<TournamentHandle> {
        self.tournament_edges.get(id).map(|h| h.value().clone()).filter(|h| !h.tx.is_closed())
    }

    /// Relays tournament `id`, held by `owner`, from this edge.
    pub fn relay_tournament(self: &Arc<Self>, id: Arc<str>, owner: Fence) -> TournamentHandle {
        let mut entry = self
            .tournament_edges
            .entry(id.clone())
            .or_insert_with(|| self.start_tournament_edge(id.clone(), owner.clone()));
        if entry.tx.is_closed() || entry.lease.as_ref().is_some_and(|lease| lease.fence != owner) {
            *entry = self.start_tournament_edge(id, owner);
        }
        entry.clone()
    }

    fn start_tournament_edge(self: &Arc<Self>, id: Arc<str>, owner: Fence) -> TournamentHandle {
        let (tx, rx) = mpsc::channel(QUEUE);
        let (_, listing) = watch::channel(None);
        let lease = Arc::new(RoomLease::new(owner.clone(), Instant::now()));
        let handle = TournamentHandle {
            instance: 0,
            id: id.clone(),
            created_at: 0,
            tx: tx.clone(),
            listing,
            lease: Some(lease),
        };
        debug!(tournament = %id, owner = %owner.node, "relaying a tournament held by another server");
        let incarnation = self.owner_run(&owner.node);
        let edge = EdgeTournament { relay: self.clone(), id, owner, incarnation, users: HashSet::new(), tx };
        tokio::spawn(edge.run(rx));
        handle
    }

    /// Serves the messages other servers relay to the tournaments held here.
    pub(super) async fn serve_tournaments(
        self: Arc<Self>,
        mut requests: async_nats::Subscriber,
        tournaments: Arc<Tournaments>,
    ) {
        while let Some(message) = requests.next().await {
            let relayed = match serde_json::from_slice::<ToTournament>(&message.payload) {
                Ok(relayed) => relayed,
                Err(e) => {
                    warn!(error = %e, "a relayed tournament message cannot be read: dropped");
                    continue;
                }
            };
            match relayed {
                ToTournament::Command { tournament, epoch, edge, conn, addr, command } => {
                    let Some(handle) = tournaments.held(&tournament, epoch) else {
                        if let Some(reply_to) = message.reply {
                            self.answer(reply_to, &Reply::<bool>::NotHere).await;
                        }
                        continue;
                    };
                    let key = (edge, conn);
                    let link = self.tournament_link(&key, epoch, addr, &handle);
                    let command = match command {
                        TournamentCommand::Peek => Command::Peek { link },
                        TournamentCommand::Results { round } => Command::Results { link, round },
                        TournamentCommand::Organise { token, action } => Command::Organise { link, token, action },
                        TournamentCommand::Unwatch => {
                            self.tournament_remotes.remove(&key);
                            Command::Unwatch { conn: link.id }
                        }
                        TournamentCommand::Watch { token } => {
                            let (reply, answer) = oneshot::channel();
                            self.ask_tournament(message.reply, answer);
                            Command::Watch { link, token, reply }
                        }
                        TournamentCommand::Register { name } => {
                            let (reply, answer) = oneshot::channel();
                            self.ask_tournament(message.reply, answer);
                            Command::Register { link, peer: addr, name, reply }
                        }
                    };
                    if handle.tx.send(command).await.is_err() {
                        debug!(tournament = %tournament, "a relayed request for a tournament that stopped");
                    }
                }
                ToTournament::Report { tournament, results } => match tournaments.local(&tournament) {
                    Some(handle) => {
                        if handle.tx.send(Command::Report { results }).await.is_err() {
                            warn!(tournament = %tournament, "a tournament task is gone: a table's deals wait");
                        }
                    }
                    // Its table reports again once the tournament is back somewhere.
                    None => warn!(tournament = %tournament, "a table's deals for a tournament not held here"),
                },
                ToTournament::Gone { edge, conn } => self.forget_tournament_client(&(edge, conn)).await,
            }
        }
        warn!("the relayed tournament messages' subscription ended");
    }

    /// Answers a relayed `watch` or `register` once the tournament has.
    fn ask_tournament(self: &Arc<Self>, reply_to: Option<Subject>, answer: oneshot::Receiver<bool>) {
        let Some(reply_to) = reply_to else { return };
        let relay = self.clone();
        tokio::spawn(async move {
            let watching = answer.await.unwrap_or(false);
            relay.answer(reply_to, &Reply::Here(watching)).await;
        });
    }

    /// The end here of an edge's client for tournament `handle`: the one it has, or a new one
    /// whose frames a task publishes to the edge.
    fn tournament_link(
        self: &Arc<Self>,
        key: &(Edge, u64),
        epoch: u64,
        addr: std::net::IpAddr,
        handle: &TournamentHandle,
    ) -> ConnLink {
        if let Some(remote) = self.tournament_remotes.get(key)
            && remote.tournament.instance == handle.instance
        {
            return remote.link.clone();
        }
        let (tx, out) = mpsc::channel(self.outbound_queue);
        let link = ConnLink { id: new_conn_id(), tx, kick: Arc::new(Kick::default()), addr };
        let remote = TournamentRemote { link: link.clone(), tournament: handle.clone(), since: Instant::now() };
        self.tournament_remotes.insert(key.clone(), remote);
        let edge = Subject::from(self.subject(&key.0.subject()));
        let to = Forwarded { edge, id: handle.id.clone(), conn: key.1, epoch };
        tokio::spawn(self.clone().forward_tournament(to, out, link.kick.clone()));
        link
    }

    /// Publishes a tournament's frames for one client of an edge, until nothing here holds its
    /// end any more, or it is closed.
    async fn forward_tournament(
        self: Arc<Self>,
        forwarded: Forwarded,
        mut out: mpsc::Receiver<Outgoing>,
        kick: Arc<Kick>,
    ) {
        let Forwarded { edge, id, conn, epoch } = forwarded;
        let to = |close| Addressed { room: &id, conn, epoch, close, tournament: true, frame: None };
        loop {
            let (close, payload) = tokio::select! {
                frame = out.recv() => match frame {
                    Some(Outgoing::Text(text)) => (None, Bytes::copy_from_slice(text.as_bytes())),
                    Some(Outgoing::Close(code)) => (Some(code), Bytes::new()),
                    None => break,
                },
                code = kick.wait() => (Some(code), Bytes::new()),
            };
            self.send_edge(&edge, to(close), payload).await;
            if close.is_some() {
                break;
            }
        }
    }

    /// Forgets an edge's client: it no longer watches its tournament.
    async fn forget_tournament_client(&self, key: &(Edge, u64)) {
        if let Some((_, remote)) = self.tournament_remotes.remove(key) {
            let _ = remote.tournament.tx.send(Command::Unwatch { conn: remote.link.id }).await;
        }
    }

    /// Forgets the clients of servers gone silent.
    pub(super) async fn drop_silent_tournament_clients(&self) {
        let silent: Vec<(Edge, u64)> = self
            .tournament_remotes
            .iter()
            .filter(|remote| self.edge_gone(&remote.key().0, remote.since))
            .map(|remote| remote.key().clone())
            .collect();
        for key in silent {
            self.forget_tournament_client(&key).await;
        }
    }
}

/// Where a tournament's frames for one client of an edge go.
struct Forwarded {
    edge: Subject,
    id: Arc<str>,
    conn: u64,
    epoch: u64,
}

/// The task of a relayed tournament at the edge.
struct EdgeTournament {
    relay: Arc<Relay>,
    id: Arc<str>,
    owner: Fence,
    /// The owner's run when this began: a restarted owner no longer has the tournament.
    incarnation: super::OwnerRun,
    /// The connections here that asked it something (their frames come back).
    users: HashSet<ConnId>,
    tx: mpsc::Sender<Command>,
}

/// The owner is gone, or no longer holds the tournament under that lease.
struct Moved;

impl EdgeTournament {
    async fn run(mut self, mut rx: mpsc::Receiver<Command>) {
        let mut check = tokio::time::interval(super::HEARTBEAT);
        check.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut unused_since = Some(Instant::now());
        let moved = loop {
            tokio::select! {
                Some(command) = rx.recv() => {
                    if self.handle(command).await.is_err() {
                        break true;
                    }
                }
                _ = check.tick() => {
                    if !self.relay.owner_still(&self.owner.node, &mut self.incarnation) {
                        break true;
                    }
                    self.prune().await;
                    if unused_since.is_some_and(|since| since.elapsed() >= LINGER) {
                        break false;
                    }
                }
            }
            unused_since = match unused_since {
                _ if !self.users.is_empty() => None,
                None => Some(Instant::now()),
                since => since,
            };
        };
        self.relay.tournament_edges.remove_if(&self.id, |_, handle| handle.tx.same_channel(&self.tx));
        if moved && !self.users.is_empty() {
            info!(tournament = %self.id, owner = %self.owner.node, connections = self.users.len(),
                "the tournament's server is gone or no longer holds it: its relayed watchers are closed with 1012");
        }
        for conn in std::mem::take(&mut self.users) {
            if let Some((_, relayed)) = self.relay.tournament_inbox.remove(&conn) {
                close_link(&relayed.link, CloseCode::Restart);
            }
        }
        rx.close();
        while let Some(command) = rx.recv().await {
            match command {
                Command::Watch { reply, .. } | Command::Register { reply, .. } => {
                    let _ = reply.send(false);
                }
                Command::Report { results } => {
                    // Not lost: the table reports its deals again when its tournament is
                    // found again.
                    debug!(tournament = %self.id, deals = results.len(), "a table's deals wait for their tournament");
                }
                _ => {}
            }
        }
    }

    /// Tells the owner a client of this edge that has gone (its connection closed).
    async fn prune(&mut self) {
        let gone: Vec<ConnId> = self
            .users
            .iter()
            .copied()
            .filter(|conn| self.relay.tournament_inbox.get(conn).is_none_or(|relayed| relayed.link.tx.is_closed()))
            .collect();
        for conn in gone {
            self.users.remove(&conn);
            self.relay.tournament_inbox.remove(&conn);
            let _ = self.tell(&ToTournament::Gone { edge: self.relay.this_edge(), conn }).await;
        }
    }

    async fn handle(&mut self, command: Command) -> Result<(), Moved> {
        let (link, command, reply) = match command {
            Command::Peek { link } => (link, TournamentCommand::Peek, None),
            Command::Results { link, round } => (link, TournamentCommand::Results { round }, None),
            Command::Organise { link, token, action } => (link, TournamentCommand::Organise { token, action }, None),
            Command::Watch { link, token, reply } => (link, TournamentCommand::Watch { token }, Some(reply)),
            Command::Register { link, name, reply, .. } => (link, TournamentCommand::Register { name }, Some(reply)),
            Command::Unwatch { conn } => {
                if self.users.remove(&conn)
                    && let Some((_, relayed)) = self.relay.tournament_inbox.remove(&conn)
                {
                    let message = self.command(&relayed.link, TournamentCommand::Unwatch);
                    self.tell(&message).await?;
                }
                return Ok(());
            }
            Command::Report { results } => {
                return self.tell(&ToTournament::Report { tournament: self.id.to_string(), results }).await;
            }
        };
        let message = self.command(&link, command);
        if self.users.insert(link.id) {
            self.relay
                .tournament_inbox
                .insert(link.id, Relayed::new(link, self.id.clone(), self.owner.node.clone(), self.owner.epoch));
        }
        match reply {
            None => self.tell(&message).await,
            Some(reply) => {
                let answer = self.ask(&message).await;
                let _ = reply.send(*answer.as_ref().unwrap_or(&false));
                answer.map(|_| ())
            }
        }
    }

    fn command(&self, link: &ConnLink, command: TournamentCommand) -> ToTournament {
        ToTournament::Command {
            tournament: self.id.to_string(),
            epoch: self.owner.epoch,
            edge: self.relay.this_edge(),
            conn: link.id,
            addr: link.addr,
            command,
        }
    }

    async fn tell(&self, message: &ToTournament) -> Result<(), Moved> {
        let payload = serde_json::to_vec(message).map_err(|_| Moved)?;
        self.relay
            .client
            .publish(self.relay.subject(&wire::tournament_subject(&self.owner.node)), payload.into())
            .await
            .map_err(|e| {
                warn!(tournament = %self.id, error = %e, "cannot relay a message to the tournament's server");
                Moved
            })
    }

    async fn ask(&self, message: &ToTournament) -> Result<bool, Moved> {
        let payload = serde_json::to_vec(message).map_err(|_| Moved)?;
        let answer = self
            .relay
            .client
            .request(self.relay.subject(&wire::tournament_subject(&self.owner.node)), payload.into())
            .await
            .map_err(|e| {
                info!(tournament = %self.id, owner = %self.owner.node, error = %e, "the tournament's server does not answer");
                self.relay.suspect(&self.owner.node);
                Moved
            })?;
        match serde_json::from_slice::<Reply<bool>>(&answer.payload) {
            Ok(Reply::Here(watching)) => Ok(watching),
            Ok(Reply::NotHere) | Err(_) => Err(Moved),
        }
    }
}
