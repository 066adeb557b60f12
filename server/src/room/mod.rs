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
pub mod deal_index;
pub mod handle;
pub mod host;
pub mod link;
mod offload;
pub mod record;
pub mod replay;
mod send;
pub mod series_index;
pub mod shell;
mod snapshot;
pub mod table;

#[cfg(test)]
mod series_tests;
#[cfg(test)]
mod tests;

pub use command::{Join, JoinKind, JoinRefusal, RoomCommand};
pub use core::DEFAULT_AUDIENCE_CAP;
pub use handle::RoomHandle;
pub use host::RoomHost;
pub use link::{ConnId, ConnLink, Kick, Outgoing, new_conn_id, request_time};
pub use record::{Damaged, ReadRecord, Record};
pub use shell::{Room, RoomEnv};
pub use table::{TableLink, TableReport, TableSeat};
