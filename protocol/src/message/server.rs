//! What the server sends. One flat enum, as the room and the connection build its frames.

use fipsen_rules::GameView;
use fipsen_rules::decisions::GameDecisions;
use fipsen_rules::review::Review;
use fipsen_tournament::{EntrantId, Results, TournamentError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::ErrorCode;
use crate::replay::{DealReplay, SeriesRecord};
use crate::room::{ChatLine, LobbyRoom, MyRoom, RoomState, SeqEvent, You};
use crate::tournament::{TournamentState, TournamentSummary};

/// What the server sends: one JSON object per WebSocket text frame, with a `type` field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
#[allow(clippy::large_enum_variant)]
pub enum ServerMessage {
    /// The handshake's answer: the protocol version the server uses on this connection.
    ///
    /// ```json
    /// {"type": "welcome", "protocol": 3, "server": "fipsen/0.1.0", "max_message_bytes": 16384}
    /// ```
    Welcome {
        /// The protocol version in use.
        protocol: u32,
        /// The server's name and version.
        server: String,
        /// The largest frame the server accepts.
        max_message_bytes: u32,
    },
    /// You are in a room: a full snapshot of what you may see, and the events you missed if
    /// you resumed.
    ///
    /// ```json
    /// {"type": "joined", "room": {"room": "k3JX9a2LqP0vWm4Z", "...": "see RoomState"},
    ///  "you": {"participant": 3, "name": "Hinnerk", "role": "player", "seat": 1, "host": false,
    ///          "token": "Vq3m2b7YxkR0aL9cTdPz1w8eUj5nHs4F"},
    ///  "seq": 44, "game": {"game": "…", "number": 1, "...": "see GameView"},
    ///  "missed": [{"seq": 42, "kind": "game", "event": {"event": "card_played", "seat": 3, "card": "S8"}}],
    ///  "resync": false, "chat": []}
    /// ```
    Joined {
        /// The room.
        room: RoomState,
        /// Who you are in it.
        you: You,
        /// The room's latest sequence number: the snapshot is as of this event.
        seq: u64,
        /// The series as you may see it, its game named in `game`; `null` before it starts. A
        /// long series' scoresheet holds its newest rows only, as many as fit in a few tens of
        /// KiB (`rows_before` says how many older rows are left out; the series page has them).
        game: Option<GameView>,
        /// How many of the scoresheet's oldest rows `game` leaves out (0: it holds them all).
        /// The rows that `update`s add later are appended after those it holds.
        #[serde(default, skip_serializing_if = "is_zero")]
        rows_before: u32,
        /// On `resume`: the events after `last_seq`, redacted for you (empty if none were missed
        /// or the gap was too old).
        missed: Vec<SeqEvent>,
        /// On `resume`: the gap was older than the server's event buffer (or the server was
        /// restarted), so `missed` is empty and the snapshot must replace the client's state.
        resync: bool,
        /// The last lines of table chat, oldest first.
        chat: Vec<ChatLine>,
    },
    /// Something happened: the new events (redacted for you) and what changed in your state.
    /// Your state is `{"room": RoomState, "game": GameView | null}` as the last `joined` gave it
    /// and the `update`s since changed it; `patches`, applied in order, make it the state now.
    /// `events` are for animation and the log.
    ///
    /// ```json
    /// {"type": "update", "seq": 45,
    ///  "events": [{"seq": 45, "kind": "game", "event": {"event": "card_played", "seat": 0, "card": "CA"}}],
    ///  "patches": [{"op": "set", "path": ["game", "deal", "turn"], "value": 1},
    ///              {"op": "append", "path": ["game", "deal", "trick"], "values": [{"seat": 0, "card": "CA"}]}]}
    /// ```
    Update {
        /// The sequence number of the last event in `events`.
        seq: u64,
        /// The new events, oldest first.
        events: Vec<SeqEvent>,
        /// The changes to your state, in order (see [`crate::patch`]).
        patches: Vec<crate::Patch>,
    },
    /// Your action `id` was accepted and stored; its events carry numbers up to `seq`.
    ///
    /// ```json
    /// {"type": "ack", "id": 17, "seq": 45}
    /// ```
    Ack {
        /// The action's id.
        id: u64,
        /// The room's sequence number after the action.
        seq: u64,
    },
    /// A refusal: a stable code and a sentence. `id` names the refused action, if it was one.
    ///
    /// ```json
    /// {"type": "error", "id": 18, "code": "play/must_follow_suit", "message": "you must follow suit (Hearts)"}
    /// ```
    Error {
        /// The refused action's id.
        id: Option<u64>,
        /// The stable code, e.g. `turn/not_yours`.
        #[schemars(schema_with = "crate::schema::error_code_schema")]
        code: String,
        /// A sentence for people.
        message: String,
    },
    /// The public rooms.
    ///
    /// ```json
    /// {"type": "lobby", "total": 1, "offset": 0, "rooms": [{"room": "k3JX9a2LqP0vWm4Z",
    ///  "title": "Friday table", "host": "Antje", "players": ["Antje", null, null, null],
    ///  "spectators": 0, "spectators_allowed": true, "status": "waiting",
    ///  "rules": {"players": 4, "...": "see GameRules"}}]}
    /// ```
    Lobby {
        /// How many public rooms there are in all.
        total: u32,
        /// The position of the first room listed among them.
        offset: u32,
        /// Public rooms, newest first: at most 50 from `offset`.
        rooms: Vec<LobbyRoom>,
    },
    /// The answer to `peek`: the room of that invite code, as the lobby would list it (whether
    /// it is public or not).
    ///
    /// ```json
    /// {"type": "room_info", "room": {"room": "k3JX9a2LqP0vWm4Z", "title": "Friday table",
    ///  "host": "Antje", "...": "see LobbyRoom"}}
    /// ```
    RoomInfo {
        /// The room.
        room: LobbyRoom,
    },
    /// The rooms of the tokens sent with `my_rooms` (unknown tokens are left out).
    ///
    /// ```json
    /// {"type": "my_rooms", "rooms": [{"room": "k3JX9a2LqP0vWm4Z", "title": "Friday table",
    ///  "name": "Hinnerk", "seat": 1, "players": ["Antje", "Hinnerk", "Fiete", "Meike"],
    ///  "status": "playing", "game": "…", "deal": 3, "totals": [4, -2, 0, 6]}]}
    /// ```
    MyRooms {
        /// The rooms.
        rooms: Vec<MyRoom>,
    },
    /// You left the room; the connection may join another.
    ///
    /// ```json
    /// {"type": "left"}
    /// ```
    Left,
    /// The answer to `ping`.
    ///
    /// ```json
    /// {"type": "pong"}
    /// ```
    Pong,
    /// The answer to `review`: your hand in deal `deal`, reviewed.
    ///
    /// ```json
    /// {"type": "review", "deal": 3, "review": {"seat": 1, "dealt": ["C7", "CA", "SK", "H10", "HA"],
    ///  "estimates": [{"game": {"kind": "tricks", "tricks": 2}, "win": 0.81, "score": 1.9}],
    ///  "calls": [{"standing": null, "call": {"call": "bid", "bid": {"kind": "tricks", "tricks": 2}},
    ///             "score": 1.9, "best": {"call": "bid", "bid": {"kind": "tricks", "tricks": 3}},
    ///             "best_score": 2.3, "options": []}],
    ///  "play": null, "durch": null}}
    /// ```
    Review {
        /// The deal's number in the series.
        deal: u32,
        /// The review.
        review: Review,
    },
    /// The answer to `review` in a game whose decisions are reviewed (as its bots say): your
    /// decisions in deal `deal`, each with every option you had, its expected result over
    /// sampled deals of the cards you could not see, the bot's choice and yours (in a game of
    /// moves rather than tricks: each of your moves against the moves the bot preferred).
    ///
    /// ```json
    /// {"type": "decisions", "deal": 2, "review": {"game": "…", "review": {"seat": 1,
    ///  "decisions": [{"decision": "announcement", "samples": 64,
    ///    "options": [{"action": {"action": "pass"}, "value": 0.0, "margin": 0.0},
    ///                {"action": {"action": "fipsen"}, "value": 1.2, "margin": 0.5}],
    ///    "bot": {"action": "fipsen"}, "chosen": {"action": "pass"}}]}}}
    /// ```
    Decisions {
        /// The deal's number in the series.
        deal: u32,
        /// The review, tagged with its game.
        review: GameDecisions,
    },
    /// The answer to `replay`: a finished deal, step by step, every hand open.
    ///
    /// ```json
    /// {"type": "replay", "replay": {"format": 1, "game": "…", "deal": 3, "perspective": 0,
    ///  "steps": [{"seat": null, "action": null, "events": [], "deal": {}, "hands": [[], [], [], []]}]}}
    /// ```
    Replay {
        /// The deal.
        replay: DealReplay,
    },
    /// The answer to `query`: the game's own answer (`GameAnswer`), such as the moves a hand
    /// card makes with exactly the piles asked about, each ready to be sent back as the action
    /// of an `act`.
    ///
    /// ```json
    /// {"type": "answer", "answer": {"card": "H10", "piles": [{"card": "S3"}, {"card": "D2"}, {"card": "C4"}],
    ///  "moves": [{"kind": "capture", "card": "H10", "groups": [{"op": "+", "l": {"op": "*",
    ///             "l": {"card": "S3"}, "r": {"card": "D2"}}, "r": {"card": "C4"}}]}]}}
    /// ```
    Answer {
        /// The answer, as the room's game gives it.
        #[schemars(with = "fipsen_rules::GameAnswer")]
        answer: serde_json::Value,
    },

    /// A tournament as you may see it: the answer to `create_tournament`, `register`,
    /// `peek_tournament` and `watch_tournament`, and to watchers again whenever it changes (the
    /// standings are live: each deal a table plays comes as soon as it is stored).
    ///
    /// ```json
    /// {"type": "tournament", "tournament": {"code": "Tq7cW0pLx2Zr9Ks4NvB1", "...": "see TournamentState"}}
    /// ```
    Tournament {
        /// The tournament.
        tournament: TournamentState,
    },
    /// Your tournament is created: the organiser's token, the one key to running it (keep it
    /// private). When the organiser plays, it is also his entrant token.
    ///
    /// ```json
    /// {"type": "tournament_created", "tournament": "Tq7cW0pLx2Zr9Ks4NvB1", "token": "Vq3m2b7YxkR0aL9cTdPz1w8eUj5nHs4F"}
    /// ```
    TournamentCreated {
        /// The link code.
        tournament: String,
        /// The organiser's token.
        token: String,
    },
    /// You are registered: your entrant id and token. The token shows you as yourself when you
    /// watch the tournament, and seats you at your table in every round (`resume` the table's
    /// room with it). Keep it private: whoever holds it plays for you.
    ///
    /// ```json
    /// {"type": "registered", "tournament": "Tq7cW0pLx2Zr9Ks4NvB1", "entrant": 4, "name": "Hinnerk",
    ///  "token": "Vq3m2b7YxkR0aL9cTdPz1w8eUj5nHs4F"}
    /// ```
    Registered {
        /// The link code.
        tournament: String,
        /// Your entrant id.
        entrant: EntrantId,
        /// Your name as registered (trimmed).
        name: String,
        /// Your entrant token.
        token: String,
    },
    /// You no longer watch the tournament.
    ///
    /// ```json
    /// {"type": "unwatched"}
    /// ```
    Unwatched,
    /// The answer to `tournament_results` (CSV as RFC 4180, CRLF line ends). Without `round`:
    /// every player ranked with his rounds, each round of `results.rounds` without its tables,
    /// the standings as CSV, `tables_csv` empty. With `round`: `results.standings` empty,
    /// `results.rounds` that round with its tables (nothing for a round not started), `csv`
    /// empty, and the round's tables as CSV (a header row, then one line per seat).
    ///
    /// ```json
    /// {"type": "tournament_results", "tournament": "Tq7cW0pLx2Zr9Ks4NvB1",
    ///  "results": {"tie_break": "Players are ranked by …", "standings": [], "rounds": [{"round": 1, "over": true, "tables": []}]},
    ///  "csv": "rank,name,bot,total,duplicate,tables,deals,round 1\r\n", "tables_csv": ""}
    /// {"type": "tournament_results", "tournament": "Tq7cW0pLx2Zr9Ks4NvB1", "round": 1,
    ///  "results": {"tie_break": "Players are ranked by …", "standings": [], "rounds": [{"round": 1, "over": true, "tables": []}]},
    ///  "csv": "", "tables_csv": "round,table,seat,name,bot,points,duplicate,deals,played\r\n"}
    /// ```
    TournamentResults {
        /// The link code.
        tournament: String,
        /// The round whose tables these are; none for the standings.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        round: Option<u32>,
        /// The players ranked with their rounds, or one round's tables.
        results: Results,
        /// The standings as CSV: one line per player in rank order (empty with `round`).
        csv: String,
        /// The round's tables as CSV: one line per seat (empty without `round`).
        tables_csv: String,
    },
    /// The answer to `tournaments`: the listed tournaments not yet over.
    ///
    /// ```json
    /// {"type": "tournaments", "total": 1, "offset": 0, "tournaments": [{"code": "Tq7cW0pLx2Zr9Ks4NvB1",
    ///  "name": "Club night, Friday", "organiser": "Olli", "game": "…",
    ///  "phase": {"phase": "registration"}, "entrants": 9, "rounds": 1}]}
    /// ```
    Tournaments {
        /// How many are listed in all.
        total: u32,
        /// The position of the first one given.
        offset: u32,
        /// At most 50 from `offset`, newest first.
        tournaments: Vec<TournamentSummary>,
    },
    /// The answer to `series`: the series as far as its deals are over.
    ///
    /// ```json
    /// {"type": "series", "series": {"format": 1, "room": "k3JX9a2LqP0vWm4Z", "title": "Friday table",
    ///  "rules": {}, "players": ["Antje", "Hinnerk", "Fiete", "Meike"],
    ///  "perspective": null, "over": false, "master_seed": null, "deals": [], "sheet": {}},
    ///  "share_key": null}
    /// ```
    Series {
        /// The series.
        series: SeriesRecord,
        /// The series' share key, for a seated player who asked with his seat token (so that
        /// he can share the page); `null` through the share key itself.
        #[serde(default)]
        share_key: Option<String>,
    },
    /// The answer to `share_link`: the key that opens the room's series page and its replays
    /// to anyone who has it (never a deal still being played).
    ///
    /// ```json
    /// {"type": "share_link", "room": "k3JX9a2LqP0vWm4Z", "key": "Vq3m2b7YxkR0aL9cTdPz1w"}
    /// ```
    ShareLink {
        /// The room's invite code.
        room: String,
        /// The share key.
        key: String,
    },
    /// Every seated person agreed: the room and its series are deleted, and the connection is
    /// out of the room.
    ///
    /// ```json
    /// {"type": "deleted", "room": "k3JX9a2LqP0vWm4Z"}
    /// ```
    Deleted {
        /// The room's invite code.
        room: String,
    },
}

impl ServerMessage {
    /// An error frame with the code's own sentence.
    pub fn error(code: ErrorCode, id: Option<u64>) -> ServerMessage {
        ServerMessage::Error { id, code: code.code().to_string(), message: code.to_string() }
    }

    /// An error frame with a more specific sentence.
    pub fn error_with(code: ErrorCode, id: Option<u64>, message: impl Into<String>) -> ServerMessage {
        ServerMessage::Error { id, code: code.code().to_string(), message: message.into() }
    }

    /// An error frame for a refusal of the tournament crate: its stable code (`tournament/…`)
    /// and its sentence.
    pub fn tournament_error(error: &TournamentError) -> ServerMessage {
        ServerMessage::Error { id: None, code: error.code().to_string(), message: error.to_string() }
    }

    /// The message as a JSON text frame.
    pub fn to_json(&self) -> String {
        // Serialising these types cannot fail: every map key is a string.
        serde_json::to_string(self).unwrap_or_else(|_| {
            String::from(r#"{"type":"error","id":null,"code":"server/storage","message":"internal error"}"#)
        })
    }
}

impl From<fipsen_rules::GameAnswer> for ServerMessage {
    /// A game's answer to a player's question, as the frame that carries it (`answer`).
    fn from(answer: fipsen_rules::GameAnswer) -> ServerMessage {
        // A game's answer is plain data: it always has a JSON form.
        ServerMessage::Answer { answer: serde_json::to_value(&answer).unwrap_or(serde_json::Value::Null) }
    }
}

/// Whether a count is zero (a field left out of a frame when it is).
#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_zero(n: &u32) -> bool {
    *n == 0
}
