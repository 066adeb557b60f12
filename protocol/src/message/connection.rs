//! The connection family: what the connection answers itself. The handshake, keep-alive, the
//! lobby and the invitation page, and entering or leaving a room.

use fipsen_rules::GameRules;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::room::{Role, RoomOptions};

/// A message of the connection family. Its JSON form is that of [`super::ClientMessage`]: one
/// object with a `type` field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ConnectionMessage {
    /// The handshake: the protocol version the client speaks.
    ///
    /// ```json
    /// {"type": "hello", "protocol": 3, "client": "fipsen-web/0.1.0"}
    /// ```
    Hello {
        /// The protocol version (see `PROTOCOL_VERSION`).
        protocol: u32,
        /// The client's name and version, for the server's logs.
        #[serde(default)]
        client: Option<String>,
    },
    /// Creates a room; its creator is the host and sits at seat 0.
    ///
    /// ```json
    /// {"type": "create_room", "name": "Antje", "rules": {"players": 4, "deals": 8},
    ///  "options": {"title": "Friday table", "public": false}}
    /// ```
    CreateRoom {
        /// The creator's name (1 to 32 characters).
        name: String,
        /// The game and its rules: `game` names it (default: the first game of the rules'
        /// registry), missing options take that game's defaults.
        #[serde(default)]
        rules: GameRules,
        /// The room's options; missing fields take their defaults.
        #[serde(default)]
        options: RoomOptions,
    },
    /// Joins a room by its invite code, as a player (taking the first free seat) or a spectator.
    ///
    /// A name already used in the room gets a number (`Anna (2)`): `you.name` says which.
    ///
    /// ```json
    /// {"type": "join_room", "room": "k3JX9a2LqP0vWm4Z", "name": "Hinnerk", "role": "player"}
    /// ```
    JoinRoom {
        /// The invite code.
        room: String,
        /// Your name (1 to 32 characters).
        name: String,
        /// Player (default) or spectator.
        #[serde(default)]
        role: Role,
        /// A seat token this client already holds for this room (from another tab, say): the
        /// server then gives that player back (as `resume` does) instead of a second seat.
        /// One participant, one seat.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token: Option<String>,
        /// A key the client chose for this join, the same each time it sends this join again
        /// (its answer was lost with the connection, say): the player the first of them made
        /// comes back, with his seat and token, instead of a second player joining. 16 to 64
        /// characters of `A`–`Z`, `a`–`z`, `0`–`9`, `-` and `_`, as random as a seat token (128
        /// bits or more): whoever sends it gets the seat. A player's only (a spectator has no
        /// seat to take twice).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        key: Option<String>,
    },
    /// Comes back to a room with a seat token after a lost connection or a server restart.
    ///
    /// ```json
    /// {"type": "resume", "room": "k3JX9a2LqP0vWm4Z", "token": "Vq3m2b7YxkR0aL9cTdPz1w8eUj5nHs4F",
    ///  "last_seq": 41}
    /// ```
    Resume {
        /// The invite code.
        room: String,
        /// The seat token `joined` gave.
        token: String,
        /// The last sequence number this client saw; the server sends what came after.
        #[serde(default)]
        last_seq: Option<u64>,
    },
    /// Leaves the room (a player keeps his seat and token; the seat is held as after a lost
    /// connection). The connection stays open for another room.
    ///
    /// ```json
    /// {"type": "leave_room"}
    /// ```
    LeaveRoom,
    /// Asks for the list of public rooms, newest first, 50 at a time from `offset`.
    ///
    /// ```json
    /// {"type": "lobby", "offset": 0}
    /// ```
    Lobby {
        /// How many of the newest rooms to skip.
        #[serde(default)]
        offset: u32,
    },
    /// Asks what the room of an invite code is (its title, host, game, seats and status),
    /// without joining it: for the invitation page. Answered with `room_info`.
    ///
    /// ```json
    /// {"type": "peek", "room": "k3JX9a2LqP0vWm4Z"}
    /// ```
    Peek {
        /// The invite code.
        room: String,
    },
    /// Asks which rooms these seat tokens belong to (a client keeps its tokens, the server
    /// keeps no accounts).
    ///
    /// ```json
    /// {"type": "my_rooms", "tokens": ["Vq3m2b7YxkR0aL9cTdPz1w8eUj5nHs4F"]}
    /// ```
    MyRooms {
        /// Seat tokens (at most 50).
        tokens: Vec<String>,
    },
    /// Keeps the connection alive.
    ///
    /// ```json
    /// {"type": "ping"}
    /// ```
    Ping,
}

impl ConnectionMessage {
    /// Every `type` of this family.
    pub const TYPES: [&'static str; 9] =
        ["hello", "create_room", "join_room", "resume", "leave_room", "lobby", "peek", "my_rooms", "ping"];
}
