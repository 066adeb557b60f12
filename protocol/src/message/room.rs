//! The room family: what a connection in a room asks of it. A server passes one to the room as
//! one value, without looking inside.

use fipsen_rules::{GameAction, Level, Seat};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A message of the room family: the seats, the start, the moves, the chat, the bots, and what
/// a room tells about its finished deals. Its JSON form is that of [`super::ClientMessage`]: one
/// object with a `type` field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RoomMessage {
    /// Takes (or changes to) a free seat before the series starts, or an open seat after.
    ///
    /// ```json
    /// {"type": "take_seat", "seat": 2}
    /// ```
    TakeSeat {
        /// The seat.
        seat: Seat,
    },
    /// Stands up from one's seat before the series starts.
    ///
    /// ```json
    /// {"type": "leave_seat"}
    /// ```
    LeaveSeat,
    /// The host starts the series once every seat is taken.
    ///
    /// ```json
    /// {"type": "start"}
    /// ```
    Start,
    /// The host lists the room in the lobby, or takes it off.
    ///
    /// ```json
    /// {"type": "set_public", "public": true}
    /// ```
    SetPublic {
        /// Listed or not.
        public: bool,
    },
    /// A move in the game. `id` is chosen by the client and rises with every new action of
    /// this player; an action sent again with the same id is acknowledged again, never applied
    /// twice. `seq` is the last sequence number the client saw: an action chosen before the
    /// game's last change is refused with `action/stale`.
    ///
    /// ```json
    /// {"type": "act", "id": 17, "seq": 40, "action": {"action": "play", "card": "H10"}}
    /// ```
    Act {
        /// The client's id for this action.
        id: u64,
        /// The last sequence number the client saw.
        seq: u64,
        /// The action, in the rules crate's form for the room's game (read knowing the game:
        /// an action of another shape is refused with `proto/malformed`).
        #[schemars(with = "GameAction")]
        action: serde_json::Value,
    },
    /// Asks for the next deal once a deal is over.
    ///
    /// ```json
    /// {"type": "next_deal"}
    /// ```
    NextDeal,
    /// A line of table chat.
    ///
    /// ```json
    /// {"type": "chat", "text": "Moin!"}
    /// ```
    Chat {
        /// 1 to 300 characters.
        text: String,
    },
    /// The host seats a bot of this level at a free seat (or at an open seat, whose absent
    /// player then loses it), before the series or between deals.
    ///
    /// ```json
    /// {"type": "add_bot", "seat": 3, "level": "normal"}
    /// ```
    AddBot {
        /// The seat.
        seat: Seat,
        /// How well it plays: `easy`, `normal` or `strong`.
        level: Level,
    },
    /// The host takes a bot off its seat, before the series or between deals.
    ///
    /// ```json
    /// {"type": "remove_bot", "seat": 3}
    /// ```
    RemoveBot {
        /// The bot's seat.
        seat: Seat,
    },
    /// Asks for the review of your own hand in a finished deal (the one that has just ended, or
    /// the finished deal `deal` of the series): what each game was worth with it, your calls
    /// against the best ones, and (as declarer) your cards against the best ones with every card
    /// known. Answered with `review`; only once the deal is over.
    ///
    /// ```json
    /// {"type": "review"}
    /// {"type": "review", "deal": 2}
    /// ```
    Review {
        /// The deal's number in the series; none: the deal just ended.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        deal: Option<u32>,
    },
    /// Reminds the player whose turn it is (a seated player, once that turn has lasted 15 s; at
    /// most once every 30 s in a room); between deals, 15 s after the deal ended, the connected
    /// players who have not asked for the next deal. Everyone gets the event `nudged`.
    ///
    /// ```json
    /// {"type": "nudge"}
    /// ```
    Nudge,
    /// Between deals: a seated player reads the result or his review (`true`), or is done
    /// (`false`). While anyone reads, the countdown to the next deal stands still, at most 120 s
    /// per reader; `next_deal` also ends one's reading.
    ///
    /// ```json
    /// {"type": "reading", "reading": true}
    /// ```
    Reading {
        /// Reading now or not.
        reading: bool,
    },
    /// Asks for the replay of a finished deal of this room's series: every step with every
    /// hand open. A seated player may replay any deal once it is over; a spectator only where
    /// the room's `public_replays` is on. Answered with `replay`, or `replay/unavailable` for a
    /// deal still being played (its cards are never shown).
    ///
    /// ```json
    /// {"type": "replay", "deal": 3}
    /// ```
    Replay {
        /// The deal's number in the series.
        deal: u32,
    },
    /// Asks the room's game a read-only question about one's moves: `query` is the game's own
    /// question (`GameQuery`: its shape for each game that takes questions, such as which moves
    /// a hand card makes with exactly the table piles chosen). Answered with `answer`; a game
    /// that takes no questions refuses it (`action/wrong_game`). Nothing changes.
    ///
    /// ```json
    /// {"type": "query", "query": {"card": "H10", "piles": [{"card": "S3"}, {"card": "D2"}, {"card": "C4"}]}}
    /// ```
    Query {
        /// The question, as the room's game reads it.
        #[schemars(with = "fipsen_rules::GameQuery")]
        query: serde_json::Value,
    },
    /// In a room: asks for the share key of its series (seated players; spectators where the
    /// room's `public_replays` is on). Answered with `share_link`.
    ///
    /// ```json
    /// {"type": "share_link"}
    /// ```
    ShareLink,
    /// In a room: a seated player agrees (or no longer agrees) that the series be deleted. Once
    /// every seated person agrees, the room, its series and its replays are deleted for good,
    /// and everyone in it gets `deleted`.
    ///
    /// ```json
    /// {"type": "delete_series", "agree": true}
    /// ```
    DeleteSeries {
        /// Agrees or takes the agreement back.
        agree: bool,
    },
    /// In a room whose series is over: the host offers to play again. The server opens a new
    /// room with the same rules, options and seats (the same people, who keep their seat
    /// tokens, and the same bots) and the same host, not yet started; this room's state then
    /// names it (`room.rematch`), with a `rematch` event. Each player accepts by entering the new
    /// room with `join_room` and the seat token he holds for this one, or leaves.
    ///
    /// ```json
    /// {"type": "rematch"}
    /// ```
    Rematch,
}

impl RoomMessage {
    /// Every `type` of this family.
    pub const TYPES: [&'static str; 17] = [
        "take_seat",
        "leave_seat",
        "start",
        "set_public",
        "act",
        "next_deal",
        "chat",
        "add_bot",
        "remove_bot",
        "review",
        "nudge",
        "reading",
        "replay",
        "query",
        "share_link",
        "delete_series",
        "rematch",
    ];

    /// The client's id of the request, for the refusal that names it: an `act`'s id, or none.
    pub fn id(&self) -> Option<u64> {
        match self {
            RoomMessage::Act { id, .. } => Some(*id),
            _ => None,
        }
    }
}
