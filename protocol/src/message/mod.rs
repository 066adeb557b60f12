//! The two message types: what a client sends, and what the server sends.
//!
//! A client's message belongs to one family, each an enum of its own file:
//! [`ConnectionMessage`] (`connection.rs`: the handshake, keep-alive, the lobby, entering and
//! leaving a room), [`RoomMessage`] (`room.rs`: everything asked of the room one is in),
//! [`TournamentMessage`] (`tournament.rs`) and [`SeriesMessage`] (`series.rs`: a series by its
//! key). [`ClientMessage`] holds one of them. The server's messages are one enum,
//! [`ServerMessage`] (`server.rs`).

use std::borrow::Cow;

use fipsen_rules::GameRules;
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use crate::error::ErrorCode;

mod connection;
mod room;
mod series;
mod server;
#[cfg(test)]
mod tests;
mod tournament;

pub use connection::ConnectionMessage;
pub use room::RoomMessage;
pub use series::SeriesMessage;
pub use server::ServerMessage;
pub use tournament::TournamentMessage;

/// What a client sends: one JSON object per WebSocket text frame, with a `type` field.
/// The first message on a connection must be [`ConnectionMessage::Hello`].
///
/// Each message is of one family, and this enum holds the family's own type: the connection
/// answers a [`ConnectionMessage`] itself and hands a [`RoomMessage`] to its room as it is.
///
/// The families do not show on the wire: a message is one flat object whose `type` names it.
/// Writing one writes the family's own form. Reading one is written by hand
/// ([`ClientMessage::parse`], and `Deserialize`): it reads `type`, finds the family that has
/// it, and lets that family's derived reader read the object, so a field of the wrong shape is
/// explained as precisely as one flat enum would explain it. An outer `#[serde(untagged)]`
/// would answer every mistake with "data did not match any variant", and reading a flat enum to
/// split it afterwards would keep every message twice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum ClientMessage {
    /// The handshake, keep-alive, the lobby, entering and leaving a room.
    Connection(ConnectionMessage),
    /// A request to the room the connection is in.
    Room(RoomMessage),
    /// A tournament's creation, running, watching and results.
    Tournament(TournamentMessage),
    /// A series' page and replays by its key.
    Series(SeriesMessage),
}

/// The family of a message type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Family {
    Connection,
    Room,
    Tournament,
    Series,
}

impl Family {
    /// The family that has message type `kind`, if any.
    fn of(kind: &str) -> Option<Family> {
        let has = |types: &[&str]| types.contains(&kind);
        if has(&ConnectionMessage::TYPES) {
            Some(Family::Connection)
        } else if has(&RoomMessage::TYPES) {
            Some(Family::Room)
        } else if has(&TournamentMessage::TYPES) {
            Some(Family::Tournament)
        } else if has(&SeriesMessage::TYPES) {
            Some(Family::Series)
        } else {
            None
        }
    }

    /// Reads a message of this family from its JSON object.
    fn read(self, value: Value) -> Result<ClientMessage, serde_json::Error> {
        match self {
            Family::Connection => serde_json::from_value(value).map(ClientMessage::Connection),
            Family::Room => serde_json::from_value(value).map(ClientMessage::Room),
            Family::Tournament => serde_json::from_value(value).map(ClientMessage::Tournament),
            Family::Series => serde_json::from_value(value).map(ClientMessage::Series),
        }
    }
}

impl ClientMessage {
    /// Every `type` a client may send, in the order the schema lists them.
    pub const TYPES: [&'static str; 39] = [
        "hello",
        "create_room",
        "join_room",
        "resume",
        "take_seat",
        "leave_seat",
        "start",
        "set_public",
        "act",
        "next_deal",
        "chat",
        "leave_room",
        "lobby",
        "peek",
        "my_rooms",
        "ping",
        "add_bot",
        "remove_bot",
        "review",
        "nudge",
        "reading",
        "replay",
        "query",
        "create_tournament",
        "peek_tournament",
        "watch_tournament",
        "unwatch_tournament",
        "register",
        "remove_entrant",
        "close_registration",
        "start_tournament",
        "next_round",
        "tournament_results",
        "tournaments",
        "series",
        "series_replay",
        "share_link",
        "delete_series",
        "rematch",
    ];

    /// Reads one frame's text, telling apart a frame that is not a JSON object with a string
    /// `type` (`proto/malformed`), an unknown type (`proto/unknown_type`) and a known type with
    /// wrong fields (`proto/malformed`, with serde's explanation).
    ///
    /// # Errors
    /// The code and a sentence for the client.
    pub fn parse(text: &str) -> Result<ClientMessage, (ErrorCode, String)> {
        let value: Value =
            serde_json::from_str(text).map_err(|e| (ErrorCode::Malformed, format!("not valid JSON: {e}")))?;
        let Some(kind) = value.get("type").and_then(Value::as_str) else {
            return Err((ErrorCode::Malformed, "a message is a JSON object with a string field `type`".into()));
        };
        let Some((kind, family)) = ClientMessage::TYPES
            .iter()
            .copied()
            .find(|known| *known == kind)
            .and_then(|known| Some((known, Family::of(known)?)))
        else {
            let shown: String = kind.chars().take(32).collect();
            return Err((ErrorCode::UnknownType, format!("this server knows no message of type `{shown}`")));
        };
        if kind == "create_room"
            && let Some(rules) = value.get("rules")
            && let Err(e) = GameRules::deserialize(rules)
        {
            // An unknown game, or an option its rules do not have: a mistake in the rules.
            return Err((ErrorCode::RulesInvalid, format!("these are not rules of a game here: {e}")));
        }
        family
            .read(value)
            .map_err(|e| (ErrorCode::Malformed, format!("the `{kind}` message is not of the expected shape: {e}")))
    }
}

impl<'de> Deserialize<'de> for ClientMessage {
    /// Reads the object's `type` and then the object as a message of that type's family.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<ClientMessage, D::Error> {
        let value = Value::deserialize(deserializer)?;
        let Some(kind) = value.get("type").and_then(Value::as_str) else {
            return Err(D::Error::missing_field("type"));
        };
        let Some(family) = Family::of(kind) else {
            return Err(D::Error::unknown_variant(kind, &ClientMessage::TYPES));
        };
        family.read(value).map_err(D::Error::custom)
    }
}

impl JsonSchema for ClientMessage {
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("ClientMessage")
    }

    fn schema_id() -> Cow<'static, str> {
        Cow::Borrowed(concat!(module_path!(), "::ClientMessage"))
    }

    /// One flat choice of every family's messages, in the order of [`ClientMessage::TYPES`]:
    /// the schema of the wire, where families do not show.
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let families = [
            ConnectionMessage::json_schema(generator),
            RoomMessage::json_schema(generator),
            TournamentMessage::json_schema(generator),
            SeriesMessage::json_schema(generator),
        ];
        let mut variants: Vec<Value> =
            families.iter().filter_map(|f| f.get("oneOf")?.as_array()).flatten().cloned().collect();
        variants.sort_by_key(|v| {
            let kind = v.pointer("/properties/type/const").and_then(Value::as_str);
            kind.and_then(|kind| ClientMessage::TYPES.iter().position(|t| *t == kind))
        });
        schemars::json_schema!({
            "description": "What a client sends: one JSON object per WebSocket text frame, with a `type` field.\n\
                            The first message on a connection must be [`ClientMessage::Hello`].",
            "oneOf": variants,
        })
    }
}

impl From<ConnectionMessage> for ClientMessage {
    fn from(message: ConnectionMessage) -> ClientMessage {
        ClientMessage::Connection(message)
    }
}

impl From<RoomMessage> for ClientMessage {
    fn from(message: RoomMessage) -> ClientMessage {
        ClientMessage::Room(message)
    }
}

impl From<TournamentMessage> for ClientMessage {
    fn from(message: TournamentMessage) -> ClientMessage {
        ClientMessage::Tournament(message)
    }
}

impl From<SeriesMessage> for ClientMessage {
    fn from(message: SeriesMessage) -> ClientMessage {
        ClientMessage::Series(message)
    }
}
