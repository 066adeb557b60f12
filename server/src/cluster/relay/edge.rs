//! A relayed room at the edge: the edge's connections talk to it as to a room (it has a
//! [`RoomHandle`] like a room's), and it passes what they say to the room's owner over NATS.
//! The owner's frames come back through the relay's inbox, straight to each connection's
//! queue. The task ends (its connections closed with 1012, to resume wherever the room is now)
//! when the owner goes silent or says the room is not served there any more; it also ends after
//! a while without connections.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use fipsen_protocol::CloseCode;
use futures_util::StreamExt;
use serde::de::DeserializeOwned;
use tokio::sync::{mpsc, watch};
use tracing::{debug, info, warn};

use super::Relay;
use super::wire::{self, Addressed, Joined, Reply, ToOwner};
use crate::metrics::{dec, inc};
use crate::room::{ConnId, ConnLink, Join, JoinRefusal, Outgoing, RoomCommand, RoomHandle};
use crate::storage::Fence;

/// Commands queued for a relayed room before senders wait (as for a room).
const QUEUE: usize = 256;
/// How long a relayed room stays without connections before its task ends.
pub(super) const LINGER: Duration = Duration::from_secs(10);

/// Roll calls in a row ([`wire::RollCall`]) that find a connection missing or short of frames
/// before it resumes: two, since the roll call made just before the owner took a connection
/// (or replaced its service, on a join sent again) may come after the edge heard its join
/// answered.
pub(super) const ROLL_STRIKES: u8 = 2;

/// A relayed connection at the edge: where the owner's frames for it go, and the lease under
/// which the owner serves its room (frames under another lease are dropped).
#[derive(Debug)]
pub struct Relayed {
    /// The connection.
    pub link: ConnLink,
    /// The room (or tournament) it is relayed to.
    pub room: Arc<str>,
    /// The server holding it.
    pub owner: Arc<str>,
    /// The owner's lease epoch.
    pub epoch: u64,
    /// The number of the last room frame delivered (see [`wire::Addressed::frame`]).
    delivered: u64,
    /// Whether the owner answered its join: only then is it on the owner's roll calls.
    joined: bool,
    /// The owner's roll calls in a row that found it missing or short of frames.
    strikes: u8,
}

impl Relayed {
    /// A connection relayed to `owner` from its join on.
    pub fn new(link: ConnLink, room: Arc<str>, owner: Arc<str>, epoch: u64) -> Relayed {
        Relayed { link, room, owner, epoch, delivered: 0, joined: false, strikes: 0 }
    }

    /// Reads its line of its owner's roll call: the frames sent to it, or `None` when the owner
    /// does not list it. Whether it must resume: the owner no longer serves it, or frames for
    /// it were lost, at [`ROLL_STRIKES`] roll calls in a row.
    fn answer_roll(&mut self, sent: Option<u64>) -> bool {
        if !self.joined {
            return false;
        }
        if sent.is_some_and(|sent| sent <= self.delivered) {
            self.strikes = 0;
            return false;
        }
        self.strikes = self.strikes.saturating_add(1);
        self.strikes >= ROLL_STRIKES
    }

    /// Whether a frame numbered `frame` comes next (counting it delivered); `false` when a
    /// frame before it was lost on the way. Frames without a number (a tournament's) always do.
    fn next_in_order(&mut self, frame: Option<u64>) -> bool {
        let Some(frame) = frame else { return true };
        if frame != self.delivered + 1 {
            return false;
        }
        self.delivered = frame;
        true
    }
}

impl Relay {
    /// The relayed room `code` at this edge, if one is running.
    pub fn edge(&self, code: &str) -> Option<RoomHandle> {
        self.edges.get(code).map(|handle| handle.value().clone()).filter(|handle| !handle.tx.is_closed())
    }

    /// Relays room `code`, held by `owner`, from this edge: a relayed room already running for
    /// that lease, or a new one.
    pub fn relay_room(self: &Arc<Self>, code: Arc<str>, owner: Fence) -> RoomHandle {
        let mut entry = self.edges.entry(code.clone()).or_insert_with(|| self.start_edge(code.clone(), owner.clone()));
        if entry.tx.is_closed() || entry.lease.as_ref().is_some_and(|lease| lease.fence != owner) {
            *entry = self.start_edge(code, owner);
        }
        entry.clone()
    }

    fn start_edge(self: &Arc<Self>, code: Arc<str>, owner: Fence) -> RoomHandle {
        let (tx, rx) = mpsc::channel(QUEUE);
        let (_, lobby) = watch::channel(None);
        // The owner's lease, kept in the handle so that a new lease makes a new relayed room (it
        // is never held here: no record is written at the edge).
        let lease = Arc::new(crate::cluster::RoomLease::new(owner.clone(), Instant::now()));
        let handle =
            RoomHandle { instance: 0, code: code.clone(), tx: tx.clone(), lobby, lease: Some(lease), opened: 0 };
        debug!(room = %code, owner = %owner.node, epoch = owner.epoch, "relaying a room held by another server");
        let incarnation = self.owner_run(&owner.node);
        let subject = async_nats::Subject::from(self.subject(&wire::owner_subject(&owner.node)));
        let room = EdgeRoom { relay: self.clone(), code, owner, subject, incarnation, members: HashSet::new(), tx };
        tokio::spawn(room.run(rx));
        handle
    }

    /// Delivers the owners' frames and closes to this edge's relayed connections.
    pub(super) async fn deliver(self: Arc<Self>, mut inbox: async_nats::Subscriber) {
        while let Some(message) = inbox.next().await {
            if let Some(owner) = message.headers.as_ref().and_then(wire::read_roll) {
                self.answer_roll(owner, &message.payload).await;
                continue;
            }
            let Some(to) = message.headers.as_ref().and_then(wire::read_headers) else { continue };
            let Addressed { room, conn, epoch, close, tournament, frame } = to;
            let inbox = if tournament { &self.tournament_inbox } else { &self.inbox };
            let ours = |relayed: &Relayed| relayed.epoch == epoch && &*relayed.room == room;
            match close {
                None => {
                    let Some(mut relayed) = inbox.get_mut(&conn) else {
                        debug!(conn, room, epoch, "a relayed frame for a connection not relayed here: dropped");
                        continue;
                    };
                    if !ours(&relayed) {
                        debug!(conn, room, epoch, relayed_room = %relayed.room, relayed_epoch = relayed.epoch, "a relayed frame of another room or lease: dropped");
                        continue;
                    }
                    if !relayed.next_in_order(frame) {
                        // A frame was lost between the servers: the client resumes and gets a
                        // snapshot instead of patches to a state it does not have.
                        warn!(
                            conn,
                            room,
                            epoch,
                            frame,
                            delivered = relayed.delivered,
                            "a relayed frame was lost on the way: the connection resumes"
                        );
                        inc(&self.metrics.relayed_frames_lost);
                        drop(relayed);
                        if let Some((_, relayed)) = inbox.remove(&conn) {
                            close_link(&relayed.link, CloseCode::Restart);
                        }
                        continue;
                    }
                    let Ok(text) = std::str::from_utf8(&message.payload) else {
                        warn!(conn, "a relayed frame is not UTF-8: dropped");
                        continue;
                    };
                    relayed.link.send(Arc::from(text), &self.metrics);
                }
                Some(code) => {
                    if let Some((_, relayed)) = inbox.remove_if(&conn, |_, r| ours(r)) {
                        close_link(&relayed.link, code);
                    }
                }
            }
        }
        warn!("the relayed frames' subscription ended");
    }
}

impl Relay {
    /// Checks this edge's connections relayed to `owner` against its roll call: those it
    /// no longer serves, or whose frames were lost, resume (closed with 1012); those it serves
    /// but this edge no longer has are told to leave.
    async fn answer_roll(&self, owner: &str, payload: &[u8]) {
        let call = match serde_json::from_slice::<wire::RollCall>(payload) {
            Ok(call) => call,
            Err(e) => {
                warn!(owner, error = %e, "a roll call cannot be read: dropped");
                return;
            }
        };
        let listed: HashMap<u64, u64> = call.conns.into_iter().collect();
        let mut resume = Vec::new();
        for mut relayed in self.inbox.iter_mut() {
            let conn = *relayed.key();
            if &*relayed.owner == owner && relayed.answer_roll(listed.get(&conn).copied()) {
                resume.push(conn);
            }
        }
        for conn in resume {
            if let Some((_, relayed)) = self.inbox.remove(&conn) {
                warn!(conn, room = %relayed.room, owner, delivered = relayed.delivered,
                    "the room's server no longer serves a relayed connection, or its frames were lost: it resumes");
                inc(&self.metrics.relayed_orphans);
                close_link(&relayed.link, CloseCode::Restart);
            }
        }
        let ghosts: Vec<u64> = listed
            .keys()
            .copied()
            .filter(|conn| self.inbox.get(conn).is_none_or(|relayed| &*relayed.owner != owner))
            .collect();
        if ghosts.is_empty() {
            return;
        }
        debug!(owner, connections = ghosts.len(), "connections gone here are still served there: told to leave");
        let subject = async_nats::Subject::from(self.subject(&wire::owner_subject(owner)));
        for conn in ghosts {
            let Ok(payload) = serde_json::to_vec(&ToOwner::Leave { edge: self.this_edge(), conn }) else { continue };
            if let Err(e) = self.client.publish(subject.clone(), payload.into()).await {
                warn!(owner, error = %e, "cannot tell the room's server that a connection is gone");
                return;
            }
        }
    }
}

/// Closes a connection with `code` after the frames queued before.
pub(super) fn close_link(link: &ConnLink, code: CloseCode) {
    if link.tx.try_send(Outgoing::Close(code)).is_err() {
        link.close_now(code);
    }
}

/// Why a relayed room stops.
#[derive(Debug, Clone, Copy)]
enum End {
    /// The owner went silent, does not answer, or no longer serves the room under that lease.
    Moved,
    /// No connection used it for a while.
    Unused,
}

/// The task of a relayed room at the edge.
struct EdgeRoom {
    relay: Arc<Relay>,
    code: Arc<str>,
    owner: Fence,
    /// The owner's subject, where the room's messages go.
    subject: async_nats::Subject,
    /// The owner's run when this began: a restarted owner no longer has the room.
    incarnation: super::OwnerRun,
    /// The connections in the room through this edge.
    members: HashSet<ConnId>,
    /// Its own queue's sender, to leave the map by.
    tx: mpsc::Sender<RoomCommand>,
}

impl EdgeRoom {
    async fn run(mut self, mut rx: mpsc::Receiver<RoomCommand>) {
        let mut check = tokio::time::interval(super::HEARTBEAT);
        check.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut unused_since = Some(Instant::now());
        let end = loop {
            tokio::select! {
                Some(command) = rx.recv() => {
                    if let Err(end) = self.handle(command).await {
                        break end;
                    }
                    unused_since = match unused_since {
                        _ if !self.members.is_empty() => None,
                        None => Some(Instant::now()),
                        since => since,
                    };
                }
                _ = check.tick() => {
                    if !self.relay.owner_still(&self.owner.node, &mut self.incarnation) {
                        break End::Moved;
                    }
                    if unused_since.is_some_and(|since| since.elapsed() >= LINGER) {
                        break End::Unused;
                    }
                }
            }
        };
        self.leave_map();
        if matches!(end, End::Moved) && !self.members.is_empty() {
            info!(room = %self.code, owner = %self.owner.node, connections = self.members.len(),
                "the room's server is gone or no longer serves it: relayed connections closed with 1012");
        }
        for conn in std::mem::take(&mut self.members) {
            dec(&self.relay.metrics.relayed);
            if let Some((_, relayed)) = self.relay.inbox.remove(&conn) {
                close_link(&relayed.link, CloseCode::Restart);
                relayed.link.close_now(CloseCode::Restart);
            }
        }
        rx.close();
        // Whoever reached this relayed room before it left the map looks for the room again.
        while let Some(command) = rx.recv().await {
            match command {
                RoomCommand::Join(join) => {
                    let Join { kind, reply, .. } = *join;
                    let _ = reply.send(Err(JoinRefusal::Elsewhere(kind)));
                }
                RoomCommand::Leave { reply: Some(reply), .. } => {
                    let _ = reply.send(());
                }
                _ => {}
            }
        }
    }

    async fn handle(&mut self, command: RoomCommand) -> Result<(), End> {
        let edge = self.relay.this_edge();
        match command {
            RoomCommand::Join(join) => {
                let Join { link, kind, seen, reply } = *join;
                let conn = link.id;
                let message = ToOwner::Join {
                    room: self.code.to_string(),
                    epoch: self.owner.epoch,
                    edge: edge.clone(),
                    conn,
                    addr: link.addr,
                    kind,
                    seen: Some(seen),
                };
                // Registered first: the owner's first frames may come before its answer.
                let relayed = Relayed::new(link, self.code.clone(), self.owner.node.clone(), self.owner.epoch);
                self.relay.inbox.insert(conn, relayed);
                let answer = self.ask::<Joined>(&message).await;
                let ToOwner::Join { kind, .. } = message else { unreachable!("built as a join above") };
                match answer {
                    Ok(Joined::Joined) => {
                        if reply.send(Ok(())).is_err() {
                            // The client gave up while the owner was asked (its socket closed):
                            // out of the room at once, instead of holding the seat.
                            debug!(room = %self.code, conn, "a relayed join whose connection is gone: it leaves");
                            self.relay.inbox.remove(&conn);
                            return self.tell(&ToOwner::Leave { edge, conn }).await;
                        }
                        if let Some(mut relayed) = self.relay.inbox.get_mut(&conn) {
                            relayed.joined = true;
                        }
                        self.members.insert(conn);
                        inc(&self.relay.metrics.relayed);
                        Ok(())
                    }
                    Ok(Joined::Refused(code)) => {
                        self.relay.inbox.remove(&conn);
                        let _ = reply.send(Err(JoinRefusal::Refused(wire::error_code(&code))));
                        Ok(())
                    }
                    Err(end) => {
                        self.relay.inbox.remove(&conn);
                        // Out of the map first: the connection looks for the room again at once.
                        self.leave_map();
                        let _ = reply.send(Err(JoinRefusal::Elsewhere(kind)));
                        Err(end)
                    }
                }
            }
            RoomCommand::Request { conn, request, .. } => {
                if self.members.contains(&conn) {
                    let room = self.code.to_string();
                    self.tell(&ToOwner::Request { edge, conn, room, epoch: self.owner.epoch, request: *request })
                        .await?;
                }
                Ok(())
            }
            RoomCommand::Leave { conn, reply } => {
                if self.members.remove(&conn) {
                    dec(&self.relay.metrics.relayed);
                    self.relay.inbox.remove(&conn);
                    self.tell(&ToOwner::Leave { edge, conn }).await?;
                }
                if let Some(reply) = reply {
                    let _ = reply.send(());
                }
                Ok(())
            }
            RoomCommand::Summary { participant, reply } => {
                let summary = self.ask(&ToOwner::Summary { room: self.code.to_string(), participant }).await?;
                let _ = reply.send(summary);
                Ok(())
            }
            RoomCommand::Peek { reply } => {
                let info = self.ask(&ToOwner::Peek { room: self.code.to_string() }).await?;
                let _ = reply.send(info);
                Ok(())
            }
        }
    }

    /// Takes this relayed room out of the map: nobody finds it any more.
    fn leave_map(&self) {
        self.relay.edges.remove_if(&self.code, |_, handle| handle.tx.same_channel(&self.tx));
    }

    /// Sends the owner a message that needs no answer.
    async fn tell(&self, message: &ToOwner) -> Result<(), End> {
        let payload = serde_json::to_vec(message).map_err(|_| End::Moved)?;
        self.relay.client.publish(self.subject.clone(), payload.into()).await.map_err(|e| {
            warn!(room = %self.code, error = %e, "cannot relay a message to the room's server");
            End::Moved
        })
    }

    /// Asks the owner, and reads its answer; `End::Moved` when it does not answer, or answers
    /// that the room is not served there under that lease.
    async fn ask<T: DeserializeOwned>(&self, message: &ToOwner) -> Result<T, End> {
        let payload = serde_json::to_vec(message).map_err(|_| End::Moved)?;
        let answer = match self.relay.client.request(self.subject.clone(), payload.into()).await {
            Ok(answer) => answer,
            Err(e) => {
                info!(room = %self.code, owner = %self.owner.node, error = %e, "the room's server does not answer");
                self.relay.suspect(&self.owner.node);
                return Err(End::Moved);
            }
        };
        match serde_json::from_slice::<Reply<T>>(&answer.payload) {
            Ok(Reply::Here(answer)) => Ok(answer),
            Ok(Reply::NotHere) => {
                info!(room = %self.code, owner = %self.owner.node, "the room's server no longer serves it");
                Err(End::Moved)
            }
            Err(e) => {
                warn!(room = %self.code, error = %e, "an answer of the room's server cannot be read");
                Err(End::Moved)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use tokio::sync::mpsc;

    use super::Relayed;
    use crate::room::{ConnLink, Kick};

    fn relayed() -> Relayed {
        let (tx, _rx) = mpsc::channel(4);
        let link = ConnLink { id: 1, tx, kick: Arc::new(Kick::default()), addr: std::net::Ipv4Addr::LOCALHOST.into() };
        Relayed::new(link, Arc::from("ROOM"), Arc::from("owner"), 3)
    }

    /// A connection the owner lists with every frame delivered is fine; one it does not list,
    /// or lists with more frames than came, resumes at the second such roll call in a row.
    /// Before its join is answered it is not checked.
    #[test]
    fn a_connection_missing_from_its_owners_roll_calls_resumes() {
        let mut r = relayed();
        assert!(!r.answer_roll(None), "not joined yet: the owner may not list it");
        assert!(!r.answer_roll(None));
        r.joined = true;
        assert!(!r.answer_roll(Some(0)));
        assert!(!r.answer_roll(None), "one roll call may have been made before the join");
        assert!(!r.answer_roll(Some(0)), "listed again: the count starts over");
        assert!(!r.answer_roll(None));
        assert!(r.answer_roll(None), "missing twice in a row");

        let mut r = relayed();
        r.joined = true;
        assert!(r.next_in_order(Some(1)) && r.next_in_order(Some(2)));
        assert!(!r.answer_roll(Some(2)) && !r.answer_roll(Some(1)), "every frame sent came");
        assert!(!r.answer_roll(Some(3)), "a roll call of the service before a join sent again");
        assert!(!r.answer_roll(Some(2)));
        assert!(!r.answer_roll(Some(3)));
        assert!(r.answer_roll(Some(3)), "frame 3 was sent and never came");
    }

    /// The room's frames come numbered 1, 2, 3…: each in turn is delivered; a number skipped
    /// means a frame lost on the way, and so does one that comes again.
    #[test]
    fn a_skipped_frame_number_is_a_lost_frame() {
        let mut r = relayed();
        assert!(r.next_in_order(Some(1)));
        assert!(r.next_in_order(Some(2)));
        assert!(!r.next_in_order(Some(4)), "frame 3 was lost");
        assert!(!r.next_in_order(Some(2)), "frame 2 again");
        assert!(r.next_in_order(Some(3)), "the count stands where it was");
        assert!(r.next_in_order(None), "a tournament's frames carry no number");
    }
}
