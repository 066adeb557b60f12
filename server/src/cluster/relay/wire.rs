//! Subjects here are the part after the cluster's name (`--cluster-name`, see
//! [`super::Relay::subject`]).
//!
//! What servers tell each other over NATS about rooms: a client's room messages, sent by the
//! server it is connected to (the edge) to the server holding the room (the owner), and the
//! owner's frames for that client, sent back.
//!
//! * To the owner: subject [`owner_subject`], one JSON [`ToOwner`] per message; joins, peeks and
//!   summaries are NATS requests answered with a JSON [`Reply`].
//! * To the edge: subject [`Edge::subject`], the frame's text as it is (already the viewer's
//!   own view, built by the owner) with the headers [`ROOM`], [`CONN`] (the edge's connection
//!   number) and [`EPOCH`] (the lease the owner serves the room under); a close has the header [`CLOSE`]
//!   with the close code's number, and no text.

use std::net::IpAddr;

use async_nats::HeaderMap;
use fipsen_protocol::{CloseCode, ErrorCode, RoomMessage};
use serde::{Deserialize, Serialize};

use crate::room::JoinKind;

/// The header with the edge's connection number.
pub const CONN: &str = "Fipsen-Conn";
/// The header with the epoch of the lease the owner serves the room under.
pub const EPOCH: &str = "Fipsen-Epoch";
/// The header with the room's invite code (or the tournament's link code).
pub const ROOM: &str = "Fipsen-Room";
/// The header of a close, with the close code's number.
pub const CLOSE: &str = "Fipsen-Close";
/// The header of a tournament's frame or close (a room's have none).
pub const TOURNAMENT: &str = "Fipsen-Tournament";
/// The header with a room's frame's number for its connection (1 for the first after the join).
pub const FRAME: &str = "Fipsen-Frame";
/// The header of a roll call ([`RollCall`]), with the owner's name.
pub const ROLL: &str = "Fipsen-Roll";

/// Where the rooms a server holds are told what their relayed clients send.
pub fn owner_subject(node: &str) -> String {
    format!("owner.{node}")
}

/// Where the tournaments a server holds are told what relayed clients and tables send.
pub fn tournament_subject(node: &str) -> String {
    format!("tournament.{node}")
}

/// An edge server in one run (a restarted server is another edge: its connections are new).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Edge {
    /// Its name.
    pub node: String,
    /// Its run: when its server started ([`super::Relay::this_edge`]).
    pub run: u64,
}

impl Edge {
    /// Where this edge gets the frames of its relayed clients.
    pub fn subject(&self) -> String {
        format!("edge.{}.{}", self.node, self.run)
    }
}

/// Where every server says, every second, that it is alive.
pub const ALIVE_SUBJECT: &str = "alive";

/// Where every server publishes its public rooms, every second.
pub const LOBBY_SUBJECT: &str = "lobby";

/// A relayed client's message for the room's owner.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ToOwner {
    /// A client enters the room (a request: answered with a [`Reply<Joined>`]).
    Join {
        /// The room.
        room: String,
        /// The lease the edge found the owner holding it under.
        epoch: u64,
        /// The edge server.
        edge: Edge,
        /// The client's connection number at the edge.
        conn: u64,
        /// The client's address (for the limits each address has).
        addr: IpAddr,
        /// How it enters.
        kind: JoinKind,
        /// When the edge first saw the request ([`crate::room::request_time`]), the same for
        /// each time it is sent again; absent from an older server (then the owner's time of
        /// reading it counts).
        #[serde(default)]
        seen: Option<u64>,
    },
    /// A message of the client in the room.
    Request {
        /// The edge server.
        edge: Edge,
        /// The client's connection number at the edge.
        conn: u64,
        /// The room, and the lease the edge relays it under (a close for a client unknown to
        /// the owner is sent under them).
        room: String,
        /// See `room`.
        epoch: u64,
        /// The message.
        request: RoomMessage,
    },
    /// The client leaves the room (or its connection closed).
    Leave {
        /// The edge server.
        edge: Edge,
        /// The client's connection number at the edge.
        conn: u64,
    },
    /// A player's summary of the room, for `my_rooms` (a request: [`Reply<Option<MyRoom>>`]).
    ///
    /// [`MyRoom`]: fipsen_protocol::MyRoom
    Summary {
        /// The room.
        room: String,
        /// The participant.
        participant: u32,
    },
    /// Open a room another server has just created and stored, and hold it here: it is placed
    /// on this server, the least loaded (a request: [`Reply<u64>`], the epoch of the lease it
    /// is held under).
    Open {
        /// The room.
        room: String,
    },
    /// The room as the lobby lists it, for `peek` (a request: [`Reply<LobbyRoom>`]).
    ///
    /// [`LobbyRoom`]: fipsen_protocol::LobbyRoom
    Peek {
        /// The room.
        room: String,
    },
}

/// A relayed message for a tournament's owner.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ToTournament {
    /// A client's request (`watch` and `register` are NATS requests answered with a
    /// [`Reply<bool>`]: whether the client watches now).
    Command {
        /// The tournament.
        tournament: String,
        /// The lease the edge found the owner holding it under.
        epoch: u64,
        /// The edge server.
        edge: Edge,
        /// The client's connection number at the edge.
        conn: u64,
        /// The client's address (for the registrations one address may make).
        addr: IpAddr,
        /// What it asks.
        command: TournamentCommand,
    },
    /// A table's deals, from the server holding the table.
    Report {
        /// The tournament.
        tournament: String,
        /// Every deal that counted at one table.
        results: Vec<fipsen_tournament::DealResult>,
    },
    /// A client of the edge that asked something of a tournament here is gone.
    Gone {
        /// The edge server.
        edge: Edge,
        /// The client's connection number at the edge.
        conn: u64,
    },
}

/// A client's tournament request on the wire.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "c", rename_all = "snake_case")]
pub enum TournamentCommand {
    /// The state, once.
    Peek,
    /// The state now and at every change, as the holder of `token`.
    Watch {
        /// The organiser's or an entrant's token.
        token: Option<String>,
    },
    /// No longer watching.
    Unwatch,
    /// Registers as a player.
    Register {
        /// The name.
        name: String,
    },
    /// An organiser's request.
    Organise {
        /// The organiser's token.
        token: String,
        /// What he asks.
        action: crate::tournaments::OrganiserAction,
    },
    /// The standings, or one round's tables.
    Results {
        /// The round.
        round: Option<u32>,
    },
}

/// The owner's answer to a request.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reply<T> {
    /// The answer.
    Here(T),
    /// The room is not served here (any more) under that lease: the edge looks for it again.
    NotHere,
}

/// How a join went, in a [`Reply`].
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Joined {
    /// In the room: its frames follow.
    Joined,
    /// Refused, with this code (its stable string).
    Refused(String),
}

/// The error code named by its stable string; an unknown one (from a newer server) is
/// `server/busy`, which tells the client to try again.
pub fn error_code(code: &str) -> ErrorCode {
    ErrorCode::SERVER.iter().copied().find(|c| c.code() == code).unwrap_or(ErrorCode::ServerBusy)
}

/// An owner's roll call to one edge, every [`super::HEARTBEAT`]: the edge's connections in the
/// rooms held there, each with the number of frames sent to it since its join. Sent on the
/// edge's subject after those frames, it tells the edge what it should have received: a
/// connection missing from the roll, or short of frames, lost a message between the servers (a
/// close, a frame, a leave) and resumes; a connection on the roll that the edge no longer has
/// is told to leave. So no lost message leaves a client waiting for frames that never come.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollCall {
    /// Each connection: its number at the edge, and the frames sent to it.
    pub conns: Vec<(u64, u64)>,
}

/// The headers of a roll call from owner `owner`.
pub fn roll_headers(owner: &str) -> HeaderMap {
    let mut headers = HeaderMap::new();
    headers.insert(ROLL, owner);
    headers
}

/// The owner whose roll call a message is, if it is one.
pub fn read_roll(headers: &HeaderMap) -> Option<&str> {
    headers.get(ROLL).map(async_nats::HeaderValue::as_str)
}

/// What a frame for an edge's connection is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Addressed<'a> {
    /// The room (or tournament) the frame is of.
    pub room: &'a str,
    /// The connection's number at the edge.
    pub conn: u64,
    /// The owner's lease epoch.
    pub epoch: u64,
    /// A close with this code (no text), or `None` for a frame.
    pub close: Option<CloseCode>,
    /// A tournament's, not a room's.
    pub tournament: bool,
    /// A room's frame's number for its connection, counted from 1 after each join: an edge that
    /// sees a number skipped lost a frame on the way, and the frames after it would patch a
    /// state the client does not have.
    pub frame: Option<u64>,
}

/// The headers of a frame or close for an edge's connection.
pub fn headers(to: Addressed<'_>) -> HeaderMap {
    let mut headers = HeaderMap::new();
    headers.insert(ROOM, to.room);
    headers.insert(CONN, to.conn.to_string().as_str());
    headers.insert(EPOCH, to.epoch.to_string().as_str());
    if let Some(close) = to.close {
        headers.insert(CLOSE, close.code().to_string().as_str());
    }
    if to.tournament {
        headers.insert(TOURNAMENT, "1");
    }
    if let Some(frame) = to.frame {
        headers.insert(FRAME, frame.to_string().as_str());
    }
    headers
}

/// What the edge reads from a message's headers; `None` when the headers are not ours.
pub fn read_headers(headers: &HeaderMap) -> Option<Addressed<'_>> {
    let room = headers.get(ROOM)?.as_str();
    let conn = headers.get(CONN)?.as_str().parse().ok()?;
    let epoch = headers.get(EPOCH)?.as_str().parse().ok()?;
    let close = match headers.get(CLOSE) {
        Some(code) => Some(CloseCode::from_code(code.as_str().parse().ok()?)?),
        None => None,
    };
    let frame = match headers.get(FRAME) {
        Some(number) => Some(number.as_str().parse().ok()?),
        None => None,
    };
    Some(Addressed { room, conn, epoch, close, tournament: headers.get(TOURNAMENT).is_some(), frame })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every join kind, every error code and every close code comes back as it went.
    #[test]
    fn what_crosses_the_wire_comes_back_the_same() {
        let kinds = [
            JoinKind::Player { name: "Anna".into(), token: Some("t".into()), key: Some("k".repeat(16)) },
            JoinKind::Spectator { name: "Ben".into() },
            JoinKind::Resume { token: "t".into(), last_seq: Some(7) },
        ];
        for kind in kinds {
            let before = format!("{kind:?}");
            let wire = serde_json::to_string(&kind).expect("a join kind in JSON");
            let back: JoinKind = serde_json::from_str(&wire).expect("read back");
            assert_eq!(format!("{back:?}"), before);
        }
        for code in ErrorCode::SERVER {
            assert_eq!(error_code(code.code()), code);
        }
        assert_eq!(error_code("no/such_code"), ErrorCode::ServerBusy);
        for close in CloseCode::ALL {
            for tournament in [false, true] {
                let to = Addressed { room: "R", conn: 12, epoch: 3, close: Some(close), tournament, frame: None };
                assert_eq!(read_headers(&headers(to)), Some(to));
            }
        }
        let to =
            Addressed { room: "ABC", conn: u64::MAX, epoch: u64::MAX - 1, close: None, tournament: false, frame: None };
        assert_eq!(read_headers(&headers(to)), Some(to));
        let numbered = Addressed { frame: Some(u64::MAX), ..to };
        assert_eq!(read_headers(&headers(numbered)), Some(numbered));
        assert_eq!(read_headers(&HeaderMap::new()), None);
        assert_eq!(read_roll(&roll_headers("node-b")), Some("node-b"));
        assert_eq!(read_roll(&headers(to)), None, "a frame is no roll call");
        assert_eq!(read_headers(&roll_headers("node-b")), None, "a roll call is no frame");
        let call = RollCall { conns: vec![(1, 0), (u64::MAX, 17)] };
        let back: RollCall = serde_json::from_slice(&serde_json::to_vec(&call).expect("in JSON")).expect("read back");
        assert_eq!(back, call);
    }
}
