//! Frames to the room's viewers, each redacted for its viewer, and the room's lobby entry.

use std::sync::atomic::Ordering;
use std::time::Instant;

use fipsen_protocol::{CloseCode, RoomEvent, SeqEvent, ServerMessage};
use fipsen_rules::Seat;

use super::link::{ConnId, Outgoing};
use super::shell::Room;
use crate::frames::{UpdateFrames, first_row};
use crate::metrics::inc;

impl Room {
    /// Sends one connection a message; a connection that does not read is dropped.
    pub(super) fn send_to(&mut self, conn: ConnId, message: &ServerMessage) {
        let frame = message.to_json();
        let alive = self.members.get(&conn).is_none_or(|m| m.link.send(frame, &self.env.metrics));
        if alive {
            inc(&self.env.metrics.messages_out);
        } else {
            self.leave(conn);
        }
    }

    /// Closes a connection replaced by a newer one of the same player.
    pub(super) fn replace(&mut self, conn: ConnId) {
        if let Some(member) = self.members.remove(&conn) {
            let _ = member.link.tx.try_send(Outgoing::Close(CloseCode::Replaced));
            member.link.close_now(CloseCode::Replaced);
        }
    }

    /// Sends every member (but `except`) an update with these events, redacted for each.
    pub(super) fn broadcast(&mut self, events: &[SeqEvent], except: Option<ConnId>) {
        if events.is_empty() {
            return;
        }
        let room = self.core.state(Instant::now());
        let stood_in = self.core.stood_in();
        let series = self.core.series();
        let sheet = match series {
            Some(game) if game.rows() > 0 => *self.sheet.get_or_insert_with(|| first_row(series)),
            _ => 0,
        };
        // An update that only tells the spectators' count can wait: a connection whose queue is
        // half full is not sent it (its next update patches the count from the state it was
        // last sent), so that a crowd coming and going never fills a player's queue.
        let spare = events.iter().all(|e| matches!(e.event, RoomEvent::Spectators { .. }));
        let mut frames =
            UpdateFrames::with_sheet(self.core.seq(), events, &room, series, sheet).without_prompt(&stood_in);
        let mut dropped = Vec::new();
        // The bases replaced, kept until every frame is built: frames are shared by base, told
        // apart by address, and no new state may take the address of a base still compared.
        let mut replaced = Vec::with_capacity(self.members.len());
        let viewers: Vec<(ConnId, Option<Seat>)> = self
            .members
            .keys()
            .filter(|conn| Some(**conn) != except)
            .map(|conn| (*conn, self.core.seat_of_conn(*conn)))
            .collect();
        for (conn, viewer) in viewers {
            let Some(member) = self.members.get_mut(&conn) else { continue };
            if spare && !member.link.has_room_to_spare() {
                continue;
            }
            let (frame, state) = frames.frame(viewer, &member.base);
            replaced.push(std::mem::replace(&mut member.base, state));
            if member.link.send(frame, &self.env.metrics) {
                self.env.metrics.messages_out.fetch_add(1, Ordering::Relaxed);
            } else {
                dropped.push(conn);
            }
        }
        drop(replaced);
        for conn in dropped {
            self.leave(conn);
        }
    }

    /// Updates the room's lobby entry (none unless the room is public), if it changed.
    pub(super) fn publish_lobby(&self) {
        let entry = self.core.options().public.then(|| self.core.info());
        self.lobby_entry(entry);
    }
}
