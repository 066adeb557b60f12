//! What the generator reads from a server frame: only the fields it needs, in one pass.
//!
//! The generator needs the sequence numbers (to match a move with its event at every recipient
//! and to find lost events), the acting player's prompt and hand (to choose a legal move), and
//! whether the series is over. A `joined` carries the whole state (room and game view); an
//! `update` carries patches to it, which each connection applies to its [`State`] as any client
//! does (a spectator's connection only until its series has started, unless the run is strict:
//! nothing the generator does depends on a spectator's state after that). Events are read for
//! their numbers only.

use fipsen_protocol::{Patch, PatchError, patch};
use fipsen_rules::{CardSet, Seat};
use serde_json::Value;
use serde_json::value::RawValue;

use crate::choose::Offer;
use serde::Deserialize;

/// The `type` of a server frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// `welcome`.
    Welcome,
    /// `joined`.
    Joined,
    /// `update`.
    Update,
    /// `ack`.
    Ack,
    /// `error`.
    Error,
    /// `left`.
    Left,
    /// `pong`.
    Pong,
    /// Anything else (`lobby`, `my_rooms`, a type added later).
    #[serde(other)]
    Other,
}

/// An event's sequence number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub struct EventSeq {
    /// The number.
    pub seq: u64,
}

/// The room fields the generator uses.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct RoomPart {
    /// The invite code.
    pub room: String,
    /// `waiting`, `playing`, `between_deals` or `over`.
    #[serde(default)]
    pub status: String,
}

/// The deal fields the generator uses.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
pub struct DealPart {
    /// Whose turn it is.
    #[serde(default)]
    pub turn: Option<Seat>,
    /// The viewer's hand (players only).
    #[serde(default)]
    pub hand: Option<CardSet>,
    /// What the viewer may do now, in any game.
    #[serde(default)]
    pub prompt: Offer,
}

/// The series fields the generator uses.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
pub struct GamePart {
    /// The series has played its last deal.
    #[serde(default)]
    pub over: bool,
    /// The current deal.
    #[serde(default)]
    pub deal: DealPart,
}

/// Who the connection is, from `joined`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct YouPart {
    /// The seat, if seated.
    #[serde(default)]
    pub seat: Option<Seat>,
    /// The seat token (players).
    #[serde(default)]
    pub token: Option<String>,
    /// The highest action id the server accepted from this player.
    #[serde(default)]
    pub last_act_id: Option<u64>,
}

/// A server frame, reduced to what the generator needs.
#[derive(Debug, Clone, Deserialize)]
pub struct Frame {
    /// The frame's type.
    #[serde(rename = "type")]
    pub kind: Kind,
    /// `joined`, `update`, `ack`: the room's sequence number.
    #[serde(default)]
    pub seq: Option<u64>,
    /// `ack`, `error`: the action's id.
    #[serde(default)]
    pub id: Option<u64>,
    /// `update`: the new events.
    #[serde(default)]
    pub events: Vec<EventSeq>,
    /// `joined`: the room.
    #[serde(default)]
    pub room: Option<Value>,
    /// `joined`: the series as the viewer sees it.
    #[serde(default)]
    pub game: Option<Value>,
    /// `update`: the changes to the connection's state, as they came: read (with
    /// [`Frame::patches`]) only by a connection that keeps its state.
    #[serde(default)]
    pub patches: Option<Box<RawValue>>,
    /// `joined`: who the connection is.
    #[serde(default)]
    pub you: Option<YouPart>,
    /// `joined` after `resume`: the snapshot replaces the client's state.
    #[serde(default)]
    pub resync: bool,
    /// `error`: the stable code.
    #[serde(default)]
    pub code: Option<String>,
}

impl Frame {
    /// Reads a frame.
    ///
    /// # Errors
    /// The text is not a JSON object of the expected shape.
    pub fn parse(text: &str) -> Result<Frame, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// The update's patches.
    ///
    /// # Errors
    /// They are not a list of patches.
    pub fn patches(&self) -> Result<Vec<Patch>, serde_json::Error> {
        self.patches.as_deref().map_or(Ok(Vec::new()), |raw| serde_json::from_str(raw.get()))
    }
}

/// A connection's state, `{"room": …, "game": …}`: the last `joined`, patched by every
/// `update` since.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct State(Value);

impl State {
    /// The state a `joined` gives.
    pub fn snapshot(room: Option<Value>, game: Option<Value>) -> State {
        State(patch::state(room.unwrap_or(Value::Null), game.unwrap_or(Value::Null)))
    }

    /// Applies an update's patches.
    ///
    /// # Errors
    /// A patch does not fit the state.
    pub fn patch(&mut self, patches: Vec<Patch>) -> Result<(), PatchError> {
        patch::apply_owned(&mut self.0, patches)
    }

    /// The room fields the generator uses.
    pub fn room(&self) -> Option<RoomPart> {
        RoomPart::deserialize(&self.0["room"]).ok()
    }

    /// The series fields the generator uses; `None` before the series.
    pub fn game(&self) -> Option<GamePart> {
        let game = &self.0["game"];
        if game.is_null() { None } else { GamePart::deserialize(game).ok() }
    }

    /// The whole state.
    pub fn value(&self) -> &Value {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_joined_and_an_update_of_the_documented_shape() {
        let joined = r#"{"type": "joined", "seq": 4, "missed": [], "resync": false, "chat": [],
 "you": {"participant": 1, "name": "b", "role": "player", "seat": 1, "host": false, "token": "t"},
 "room": {"room": "k3JX9a2LqP0vWm4Zb7Ya", "status": "waiting", "seats": [], "spectators": 0}, "game": null}"#;
        let frame = Frame::parse(joined).unwrap();
        assert_eq!(frame.kind, Kind::Joined);
        let mut state = State::snapshot(frame.room, frame.game);
        assert_eq!(state.room().unwrap().status, "waiting");
        assert!(state.game().is_none());
        let text = r#"{"type": "update", "seq": 6,
 "events": [{"seq": 5, "kind": "started"},
            {"seq": 6, "kind": "game", "event": {"event": "dealt", "number": 1, "dealer": 3, "vorhand": 0,
                                                 "hands": [null, ["C7", "C10", "SA", "H8", "D7"], null, null]}}],
 "patches": [{"op": "set", "path": ["room", "status"], "value": "playing"},
  {"op": "set", "path": ["game"], "value": {"number": 1, "counted": 0, "scoresheet": [], "totals": [0, 0, 0, 0], "over": false,
          "deal": {"viewer": 1, "phase": "auction", "turn": 1, "hand": ["C7", "C10", "SA", "H8", "D7"],
                   "hand_sizes": [5, 5, 5, 5], "prompt": {"pass": true, "bids": [{"kind": "tricks", "tricks": 2, "hand": false, "ruten": false}]}}}}]}"#;
        let frame = Frame::parse(text).unwrap();
        assert_eq!(frame.kind, Kind::Update);
        assert_eq!(frame.seq, Some(6));
        assert_eq!(frame.events, vec![EventSeq { seq: 5 }, EventSeq { seq: 6 }]);
        state.patch(frame.patches().unwrap()).unwrap();
        assert_eq!(state.room().unwrap().status, "playing");
        let game = state.game().unwrap();
        assert!(!game.over);
        assert_eq!(game.deal.turn, Some(Seat(1)));
        assert_eq!(game.deal.hand.unwrap().len(), 5);
        assert_eq!(game.deal.prompt.get("pass"), &Value::Bool(true));
        assert_eq!(game.deal.prompt.get("bids").as_array().map(Vec::len), Some(1));
        // A patch that does not fit is refused.
        let stray = Frame::parse(
            r#"{"type":"update","seq":7,"events":[],"patches":[{"op":"append","path":["room"],"values":[1]}]}"#,
        );
        assert!(state.patch(stray.unwrap().patches().unwrap()).is_err());
    }

    #[test]
    fn reads_acks_errors_and_unknown_types() {
        let ack = Frame::parse(r#"{"type":"ack","id":18,"seq":45}"#).unwrap();
        assert_eq!((ack.kind, ack.id, ack.seq), (Kind::Ack, Some(18), Some(45)));
        let error =
            Frame::parse(r#"{"type":"error","id":null,"code":"room/not_found","message":"no such room"}"#).unwrap();
        assert_eq!((error.kind, error.id, error.code.as_deref()), (Kind::Error, None, Some("room/not_found")));
        let lobby = Frame::parse(r#"{"type":"lobby","rooms":[]}"#).unwrap();
        assert_eq!(lobby.kind, Kind::Other);
        assert!(Frame::parse("[1]").is_err());
    }

    #[test]
    fn reads_a_spectators_joined_without_game() {
        let text = r#"{"type":"joined","room":{"room":"abc","status":"waiting"},
            "you":{"participant":null,"name":"s","role":"spectator","seat":null,"host":false,"token":null},
            "seq":3,"game":null,"missed":[],"resync":false,"chat":[]}"#;
        let frame = Frame::parse(text).unwrap();
        assert_eq!(frame.kind, Kind::Joined);
        assert_eq!(frame.seq, Some(3));
        assert!(frame.game.is_none());
        assert_eq!(frame.you.unwrap().seat, None);
    }
}
