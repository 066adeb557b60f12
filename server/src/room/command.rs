//! What a room task is told: connections joining and leaving, their requests, and questions
//! about the room asked from outside.

use std::time::Instant;

use fipsen_protocol::{ErrorCode, LobbyRoom, MyRoom, RoomMessage};
use serde::{Deserialize, Serialize};
use tokio::sync::oneshot;

use super::link::{ConnId, ConnLink};

/// How a connection enters a room (in cluster mode also sent to the room's server over NATS).
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "as", rename_all = "snake_case")]
pub enum JoinKind {
    /// As a player, taking the first free seat (the creator takes seat 0 and is host).
    Player {
        /// The player's name.
        name: String,
        /// A seat token the client holds for this room: if it is valid, the player comes back
        /// as with `Resume` instead of taking a second seat.
        token: Option<String>,
        /// The client's key for this join (`join_room`'s `key`): the player an earlier join
        /// with it made comes back as with `Resume`; a new player's token is derived from it
        /// ([`crate::secrets::seat_token_for_key`]). Absent on the wire from an older server.
        #[serde(default)]
        key: Option<String>,
    },
    /// As a spectator.
    Spectator {
        /// The spectator's name.
        name: String,
    },
    /// With a seat token, after a lost connection.
    Resume {
        /// The token.
        token: String,
        /// The last sequence number the client saw.
        last_seq: Option<u64>,
    },
}

/// Why a join did not happen.
#[derive(Debug)]
pub enum JoinRefusal {
    /// Refused, with this code.
    Refused(ErrorCode),
    /// The room closed in the meantime; open it again and retry.
    Closed,
    /// The room is served by another server now (cluster mode): open it again and retry with
    /// this join.
    Elsewhere(JoinKind),
}

/// A connection entering a room ([`RoomCommand::Join`]).
#[derive(Debug)]
pub struct Join {
    /// The connection.
    pub link: ConnLink,
    /// How.
    pub kind: JoinKind,
    /// When the server the client is connected to first read the request
    /// ([`crate::room::request_time`]): the same for every attempt of it.
    pub seen: u64,
    /// Answered once the `joined` frame is queued (or with the refusal).
    pub reply: oneshot::Sender<Result<(), JoinRefusal>>,
}

/// What a room task is told. Kept small (40 bytes): a room's queue holds its commands in
/// blocks of 32 slots of this size, kept for the room's whole life.
#[derive(Debug)]
pub enum RoomCommand {
    /// A connection enters (boxed: the queue of every room keeps slots of the largest command).
    Join(Box<Join>),
    /// A request from a connection in the room.
    Request {
        /// The connection.
        conn: ConnId,
        /// What it asks (boxed, to keep the command small).
        request: Box<RoomMessage>,
        /// When the server read it (for the latency metric).
        received: Instant,
    },
    /// A connection leaves (closed, or `leave_room`).
    Leave {
        /// The connection.
        conn: ConnId,
        /// Answered once the connection is out of the room: no frame of the room follows.
        reply: Option<oneshot::Sender<()>>,
    },
    /// A player's summary of the room, for `my_rooms`.
    Summary {
        /// The participant.
        participant: u32,
        /// The answer.
        reply: oneshot::Sender<Option<MyRoom>>,
    },
    /// The room as the lobby would list it, for `peek`.
    Peek {
        /// The answer.
        reply: oneshot::Sender<LobbyRoom>,
    },
}

// Every room keeps its queue's blocks (32 commands each) for its whole life: a larger command
// would cost every room memory (a `Join` or a message inline took 104 bytes a slot).
const _: () = assert!(size_of::<RoomCommand>() <= 40);
