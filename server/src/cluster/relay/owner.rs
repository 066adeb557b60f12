//! The owner's side of the relay: the messages other servers relay to the rooms held here.
//! Each relayed client becomes a connection of its room as a local one is (a [`ConnLink`] with
//! its own queue), served by a task of its own that publishes the room's frames for it to its
//! edge and passes its messages to the room, in the order the edge sent them.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use async_nats::Subject;
use bytes::Bytes;
use fipsen_protocol::{CloseCode, RoomMessage};
use futures_util::StreamExt;
use serde::Serialize;
use tokio::sync::{mpsc, oneshot};
use tracing::{debug, info, warn};

use super::super::rooms::NodeRooms;
use super::Relay;
use super::wire::{self, Addressed, Edge, Joined, Reply, ToOwner};
use crate::metrics::{dec, inc};
use crate::room::RoomHandle;
use crate::room::{ConnLink, Join, JoinKind, JoinRefusal, Kick, Outgoing, RoomCommand, new_conn_id, request_time};

/// Another server's connection in a room held here.
#[derive(Debug)]
pub struct Remote {
    /// Its number here.
    id: u64,
    /// When it joined.
    since: Instant,
    /// What its edge relays from it, in order.
    inbound: mpsc::UnboundedSender<Inbound>,
    /// The frames sent to its edge for it so far (counted once each is on its way: a roll call
    /// made after goes after it).
    sent: Arc<AtomicU64>,
}

/// What an edge relays from one of its connections.
#[derive(Debug)]
pub(crate) enum Inbound {
    /// A room message, and when it arrived here.
    Request(Box<RoomMessage>, Instant),
    /// The connection left the room.
    Leave,
    /// The connection's edge is gone (or restarted): out of the room, and the edge is told to
    /// close it with 1012 in case it is still there.
    Drop,
}

impl Relay {
    /// Serves the messages the other servers relay to the rooms held here.
    pub(super) async fn serve(self: Arc<Self>, mut requests: async_nats::Subscriber, registry: Arc<dyn NodeRooms>) {
        while let Some(message) = requests.next().await {
            let to_owner = match serde_json::from_slice::<ToOwner>(&message.payload) {
                Ok(to_owner) => to_owner,
                Err(e) => {
                    warn!(error = %e, "a relayed message cannot be read: dropped");
                    continue;
                }
            };
            match to_owner {
                ToOwner::Join { room, epoch, edge, conn, addr, kind, seen } => {
                    let seen = seen.unwrap_or_else(request_time);
                    let Some(reply_to) = message.reply else { continue };
                    let Some(handle) = registry.held(&room, epoch) else {
                        if registry.local(&room).is_none() {
                            // Perhaps this server's own from before a restart: claimed again
                            // here if so, and the edge finds it under the new lease.
                            let registry = registry.clone();
                            tokio::spawn(registry.adopt(room.clone()));
                        }
                        self.answer(reply_to, &Reply::<Joined>::NotHere).await;
                        continue;
                    };
                    let key = (edge, conn);
                    let (inbound, inbound_rx) = mpsc::unbounded_channel();
                    let (tx, out) = mpsc::channel(self.outbound_queue);
                    let link = ConnLink { id: new_conn_id(), tx, kick: Arc::new(Kick::default()), addr };
                    let sent = Arc::new(AtomicU64::new(0));
                    let remote = Remote { id: link.id, since: Instant::now(), inbound, sent: sent.clone() };
                    if let Some(replaced) = self.remotes.insert(key.clone(), remote) {
                        let _ = replaced.inbound.send(Inbound::Leave);
                    }
                    inc(&self.metrics.remote_viewers);
                    let served = Served { room: handle, code: Arc::from(room), key, epoch, link, sent };
                    tokio::spawn(self.clone().remote(served, out, inbound_rx, (kind, seen), reply_to));
                }
                ToOwner::Request { edge, conn, room, epoch, request } => {
                    let known = self.remotes.get(&(edge.clone(), conn)).map(|remote| {
                        let _ = remote.inbound.send(Inbound::Request(Box::new(request), Instant::now()));
                    });
                    if known.is_none() {
                        // Not in a room here (this server restarted, or dropped it): the
                        // client resumes and finds its room again.
                        debug!(conn, "a relayed message for a connection not in a room here: closed with 1012");
                        let to = Addressed {
                            room: &room,
                            conn,
                            epoch,
                            close: Some(CloseCode::Restart),
                            tournament: false,
                            frame: None,
                        };
                        self.send_edge(&Subject::from(self.subject(&edge.subject())), to, Bytes::new()).await;
                    }
                }
                ToOwner::Leave { edge, conn } => {
                    if let Some((_, remote)) = self.remotes.remove(&(edge, conn)) {
                        let _ = remote.inbound.send(Inbound::Leave);
                    }
                }
                ToOwner::Summary { room, participant } => {
                    let Some(reply_to) = message.reply else { continue };
                    let relay = self.clone();
                    let handle = registry.local(&room);
                    tokio::spawn(async move {
                        let summary = match handle {
                            Some(handle) => ask(&handle, |reply| RoomCommand::Summary { participant, reply }).await,
                            None => None,
                        };
                        relay.answer(reply_to, &summary.map_or(Reply::NotHere, Reply::Here)).await;
                    });
                }
                ToOwner::Open { room } => {
                    let Some(reply_to) = message.reply else { continue };
                    let relay = self.clone();
                    let registry = registry.clone();
                    tokio::spawn(async move {
                        let epoch = registry.open_placed(room.clone()).await;
                        relay.answer(reply_to, &epoch.map_or(Reply::NotHere, Reply::Here)).await;
                    });
                }
                ToOwner::Peek { room } => {
                    let Some(reply_to) = message.reply else { continue };
                    let relay = self.clone();
                    let handle = registry.local(&room);
                    tokio::spawn(async move {
                        let info = match handle {
                            Some(handle) => ask(&handle, |reply| RoomCommand::Peek { reply }).await,
                            None => None,
                        };
                        relay.answer(reply_to, &info.map_or(Reply::NotHere, Reply::Here)).await;
                    });
                }
            }
        }
        warn!("the relayed messages' subscription ended");
    }

    /// Answers a request.
    pub(super) async fn answer<T: Serialize>(&self, reply_to: Subject, answer: &T) {
        let Ok(payload) = serde_json::to_vec(answer) else { return };
        if let Err(e) = self.client.publish(reply_to, payload.into()).await {
            warn!(error = %e, "cannot answer a relayed request");
        }
    }

    /// Serves one relayed connection: joins it to the room, answers the edge, then publishes
    /// the room's frames for it and passes on what it sends, until it leaves or is closed.
    async fn remote(
        self: Arc<Self>,
        served: Served,
        mut out: mpsc::Receiver<Outgoing>,
        mut inbound: mpsc::UnboundedReceiver<Inbound>,
        (kind, seen): (JoinKind, u64),
        reply_to: Subject,
    ) {
        let Served { room, code, key, epoch, link, sent: counted } = served;
        let edge = Subject::from(self.subject(&key.0.subject()));
        // Once the edge has sent this connection's join again (its answer lost), the newer
        // service speaks for it: frames or a close from this one would reach the client's
        // connection at the edge (the same number there) as its own.
        let current = || self.remotes.get(&key).is_none_or(|remote| remote.id == link.id);
        let to = |close| Addressed { room: &code, conn: key.1, epoch, close, tournament: false, frame: None };
        // The frames sent for this connection since its join, numbered for the edge.
        let mut sent: u64 = 0;
        let (reply, answer) = oneshot::channel();
        let join = RoomCommand::Join(Box::new(Join { link: link.clone(), kind, seen, reply }));
        let joined = if room.tx.send(join).await.is_err() {
            Reply::NotHere
        } else {
            match answer.await {
                Ok(Ok(())) => Reply::Here(Joined::Joined),
                Ok(Err(JoinRefusal::Refused(code))) => Reply::Here(Joined::Refused(code.code().to_string())),
                Ok(Err(JoinRefusal::Closed | JoinRefusal::Elsewhere(_))) | Err(_) => Reply::NotHere,
            }
        };
        let in_room = matches!(joined, Reply::Here(Joined::Joined));
        self.answer(reply_to, &joined).await;
        if in_room {
            let leave = loop {
                tokio::select! {
                    frame = out.recv() => match frame {
                        Some(Outgoing::Text(text)) => {
                            sent += 1;
                            let numbered = Addressed { frame: Some(sent), ..to(None) };
                            self.send_edge_if(current(), &edge, numbered, Bytes::copy_from_slice(text.as_bytes())).await;
                            counted.store(sent, Ordering::Release);
                        }
                        Some(Outgoing::Close(close)) => {
                            self.send_edge_if(current(), &edge, to(Some(close)), Bytes::new()).await;
                            break true;
                        }
                        None => {
                            self.send_edge_if(current(), &edge, to(Some(CloseCode::Restart)), Bytes::new()).await;
                            break false;
                        }
                    },
                    message = inbound.recv() => match message {
                        Some(Inbound::Request(request, received)) => {
                            let command = RoomCommand::Request { conn: link.id, request, received };
                            if room.tx.send(command).await.is_err() {
                                self.send_edge_if(current(), &edge, to(Some(CloseCode::Restart)), Bytes::new()).await;
                                break false;
                            }
                        }
                        Some(Inbound::Leave) | None => break true,
                        Some(Inbound::Drop) => {
                            self.send_edge_if(current(), &edge, to(Some(CloseCode::Restart)), Bytes::new()).await;
                            break true;
                        }
                    },
                    close = link.kick.wait() => {
                        self.send_edge_if(current(), &edge, to(Some(close)), Bytes::new()).await;
                        break true;
                    }
                }
            };
            if leave {
                let _ = room.tx.send(RoomCommand::Leave { conn: link.id, reply: None }).await;
            }
        }
        self.remotes.remove_if(&key, |_, remote| remote.id == link.id);
        dec(&self.metrics.remote_viewers);
        debug!(room = %code, edge = %key.0.node, conn = key.1, in_room, "a relayed connection's service ended");
    }

    /// Sends an edge a frame (or a close) for one of its connections, if `current` (see
    /// [`Relay::remote`]).
    async fn send_edge_if(&self, current: bool, edge: &Subject, to: Addressed<'_>, payload: Bytes) {
        if current {
            self.send_edge(edge, to, payload).await;
        }
    }

    /// Sends an edge a frame (or a close) for one of its connections.
    pub(super) async fn send_edge(&self, edge: &Subject, to: Addressed<'_>, payload: Bytes) {
        if let Err(e) = self.client.publish_with_headers(edge.clone(), wire::headers(to), payload).await {
            warn!(error = %e, "cannot relay a frame to another server");
        }
    }
}

/// A relayed connection as its task serves it.
struct Served {
    /// Its room.
    room: RoomHandle,
    /// The room's invite code.
    code: Arc<str>,
    /// Its edge and number there.
    key: (Edge, u64),
    /// The lease the room is served under.
    epoch: u64,
    /// Its end in the room.
    link: ConnLink,
    /// The frames sent for it ([`Remote::sent`]).
    sent: Arc<AtomicU64>,
}

/// Asks a room a question; `None` when the room is gone.
async fn ask<T>(handle: &RoomHandle, command: impl FnOnce(oneshot::Sender<T>) -> RoomCommand) -> Option<T> {
    let (reply, answer) = oneshot::channel();
    handle.tx.send(command(reply)).await.ok()?;
    answer.await.ok()
}

/// Calls the roll of every other live server's connections in the rooms held here
/// ([`wire::RollCall`]): one message to each, listing its connections served here (none, for
/// a server with none) with the frames sent to each so far.
pub(super) async fn call_the_roll(relay: &Relay) {
    let mut rolls: HashMap<Edge, wire::RollCall> = relay
        .peers
        .iter()
        .filter(|peer| peer.seen.elapsed() < super::SILENCE)
        .map(|peer| (Edge { node: peer.key().clone(), run: peer.incarnation }, wire::RollCall::default()))
        .collect();
    for remote in relay.remotes.iter() {
        let (edge, conn) = remote.key();
        if let Some(roll) = rolls.get_mut(edge) {
            roll.conns.push((*conn, remote.sent.load(Ordering::Acquire)));
        }
    }
    for (edge, roll) in rolls {
        let Ok(payload) = serde_json::to_vec(&roll) else { continue };
        let subject = Subject::from(relay.subject(&edge.subject()));
        if let Err(e) =
            relay.client.publish_with_headers(subject, wire::roll_headers(&relay.node), payload.into()).await
        {
            warn!(error = %e, "cannot send another server its roll call");
        }
    }
}

/// Drops from their rooms the connections of servers gone silent (dead, or cut off): their
/// clients resume elsewhere.
pub(super) fn drop_silent_edges(relay: &Relay) {
    let silent: Vec<(Edge, u64)> = relay
        .remotes
        .iter()
        .filter(|remote| relay.edge_gone(&remote.key().0, remote.since))
        .map(|remote| remote.key().clone())
        .collect();
    if silent.is_empty() {
        return;
    }
    info!(connections = silent.len(), "dropping the connections of servers gone silent");
    for key in silent {
        if let Some((_, remote)) = relay.remotes.remove(&key) {
            let _ = remote.inbound.send(Inbound::Drop);
        }
    }
}
