//! What a room task is told: connections joining and leaving, their requests, and questions
//! about the room asked from outside.

use std::time::Instant;

use fipsen_bots::Level;
use fipsen_protocol::{ErrorCode, LobbyRoom, MyRoom};
use fipsen_rules::Seat;
use tokio::sync::oneshot;

use super::link::{ConnId, ConnLink};

#[derive(Debug)]
pub enum JoinKind {
    /// As a player, taking the first free seat (the creator takes seat 0 and is host).
    Player {
        /// The player's name.
        name: String,
        /// A seat token the client holds for this room: if it is valid, the player comes back
        /// as with `Resume` instead of taking a second seat.
        token: Option<String>,
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
}

/// A message for a room from a connection in it.
#[derive(Debug)]
pub enum RoomRequest {
    /// `take_seat`.
    TakeSeat(Seat),
    /// `leave_seat`.
    LeaveSeat,
    /// `start`.
    Start,
    /// `set_public`.
    SetPublic(bool),
    /// `act`.
    Act {
        /// The client's id.
        id: u64,
        /// The last sequence number the client saw.
        seq: u64,
        /// The action, as JSON: read as an action of the room's game.
        action: serde_json::Value,
    },
    /// `next_deal`.
    NextDeal,
    /// `chat`.
    Chat(String),
    /// `add_bot`.
    AddBot {
        /// The seat.
        seat: Seat,
        /// Its level.
        level: Level,
    },
    /// `remove_bot`.
    RemoveBot(Seat),
    /// `review`: of the deal just ended, or of a finished deal by its number.
    Review(Option<u32>),
    /// `nudge`.
    Nudge,
    /// `reading`.
    Reading(bool),
    /// `replay`: the replay of a finished deal.
    Replay(u32),
    /// `options`: Wippen's moves with a hand card and a choice of table piles.
    Options {
        /// The hand card.
        card: fipsen_rules::Card,
        /// The piles.
        piles: Vec<fipsen_rules::wippen::PileRef>,
    },
    /// `share_link`: the key of the series page.
    ShareLink,
    /// `delete_series`: a seated player's agreement to delete the series, or its withdrawal.
    DeleteSeries(bool),
}

/// What a room task is told.
#[derive(Debug)]
pub enum RoomCommand {
    /// A connection enters.
    Join {
        /// The connection.
        link: ConnLink,
        /// How.
        kind: JoinKind,
        /// Answered once the `joined` frame is queued (or with the refusal).
        reply: oneshot::Sender<Result<(), JoinRefusal>>,
    },
    /// A request from a connection in the room.
    Request {
        /// The connection.
        conn: ConnId,
        /// What it asks.
        request: RoomRequest,
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
