//! One room: a task that owns the series, the seats, the spectators and the chat.
//!
//! Connections talk to the room over a bounded channel ([`RoomCommand`]); the room answers
//! through each connection's own bounded outbound queue, and drops a connection whose queue is
//! full. The room's rules of the table live in a pure [`core`]: it decides each command into
//! changes, and every change that must survive a restart is a [`Record`], **stored** before it
//! is applied, acknowledged and broadcast. Replaying the stored records through the same
//! `apply` rebuilds the room, so a restarted server continues exactly where the last
//! acknowledged action left it.
//!
//! The parts: [`link`] (a connection's queue and kill switch), [`command`] (what the task is
//! told), [`record`] (the stored log), [`core`] (the state and its rules, no I/O), [`shell`]
//! (the task: decide, store, apply, send, sleep), `snapshot` (what a joining connection is
//! sent), `send` (frames to viewers and the lobby) and `offload` (reviews, replays and
//! deletion, done off the room's task or in storage).

pub mod command;
pub mod core;
pub mod link;
mod offload;
pub mod record;
mod send;
pub mod shell;
mod snapshot;

#[cfg(test)]
mod tests;

use std::sync::Arc;

use fipsen_bots::Level;
use fipsen_rules::Seat;

pub use command::{Join, JoinKind, JoinRefusal, RoomCommand};
pub use core::DEFAULT_AUDIENCE_CAP;
pub use link::{ConnId, ConnLink, Kick, Outgoing, new_conn_id, request_time};
pub use record::{Damaged, ReadRecord, Record};
pub use shell::{Room, RoomEnv};

use crate::frames::Base;

/// A connection in the room, as the shell keeps it.
#[derive(Debug)]
struct Member {
    link: ConnLink,
    /// The state (`{"room": …, "game": …}`) this connection was last sent: its next `update`
    /// patches it. Connections of one viewer share it after an update.
    base: Arc<Base>,
}

/// Who sits at a seat of a tournament table when its room opens.
#[derive(Debug, Clone)]
pub enum TableSeat {
    /// An entrant, who comes in with his tournament token.
    Person {
        /// His name.
        name: String,
        /// SHA-256 of his entrant token.
        token_hash: String,
    },
    /// A bot entrant.
    Bot {
        /// Its name.
        name: String,
    },
}

impl TableSeat {
    /// The records a tournament table starts with: everyone seated, then the start.
    pub fn records(seats: &[TableSeat]) -> Vec<Record> {
        let mut records: Vec<Record> = seats
            .iter()
            .enumerate()
            .map(|(i, seat)| match seat {
                TableSeat::Person { name, token_hash } => Record::Joined {
                    participant: i as u32,
                    name: name.clone(),
                    token_hash: token_hash.clone(),
                    seat: Some(Seat(i as u8)),
                },
                TableSeat::Bot { name } => Record::BotAdded {
                    participant: i as u32,
                    seat: Seat(i as u8),
                    level: Level::Normal,
                    name: name.clone(),
                },
            })
            .collect();
        records.push(Record::Started);
        records
    }
}
