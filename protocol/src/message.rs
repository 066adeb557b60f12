//! The two message types: what a client sends, and what the server sends.

use fipsen_rules::Level;
use fipsen_rules::review::Review;
use fipsen_rules::{Card, GameAction, GameRules, GameView, Seat, wippen};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use fipsen_tournament::{EntrantId, Results, Settings, TournamentError};

use crate::error::ErrorCode;
use crate::replay::{DealReplay, SeriesRecord};
use crate::room::{ChatLine, LobbyRoom, MyRoom, Role, RoomOptions, RoomState, SeqEvent, You};
use crate::tournament::{TournamentState, TournamentSummary, TournamentTables};

/// What a client sends: one JSON object per WebSocket text frame, with a `type` field.
/// The first message on a connection must be [`ClientMessage::Hello`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMessage {
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
    /// {"type": "create_room", "name": "Antje", "rules": {"game": "prisdorf", "players": 4, "deals": 8},
    ///  "options": {"title": "Friday table", "public": false}}
    /// ```
    CreateRoom {
        /// The creator's name (1 to 32 characters).
        name: String,
        /// The game and its rules: `game` names it (default `prisdorf`), missing options take
        /// that game's defaults.
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
    /// Wippen: asks which moves the player to move can make with hand card `card` using
    /// exactly the table piles `piles` (loose cards by their card, buildings by their id).
    /// Answered with `options`: every such legal capture and build, each with one grouping
    /// that shows its arithmetic (the discard when `piles` is empty). Nothing changes.
    ///
    /// ```json
    /// {"type": "options", "card": "H10", "piles": [{"card": "S3"}, {"card": "D2"}, {"card": "C4"}]}
    /// ```
    Options {
        /// The hand card.
        card: Card,
        /// The table piles chosen.
        piles: Vec<wippen::PileRef>,
    },

    /// Creates a tournament; its creator is the organiser (and its first entrant if the settings
    /// say the organiser plays). Answered with `tournament_created` (the organiser's token: keep
    /// it, it is the only key to running the tournament) and then `tournament`: the creator
    /// watches it from then on. `tables` are the options of every table's room (their title and
    /// `public` are set by the server).
    ///
    /// ```json
    /// {"type": "create_tournament", "name": "Olli",
    ///  "settings": {"name": "Prisdorf, Friday", "game": "prisdorf",
    ///               "tables": [{"seats": 4, "deals": 100, "rules": {"game": "prisdorf", "players": 4, "deals": 100}},
    ///                          {"seats": 3, "deals": 120, "rules": {"game": "prisdorf", "players": 3, "deals": 120}}],
    ///               "max_short_tables": 3, "rounds": 1, "reseating": "by_standings", "duplicate": false,
    ///               "listed": true, "organiser_plays": true},
    ///  "tables": {"grace_seconds": 120, "next_deal_seconds": 10}}
    /// ```
    CreateTournament {
        /// The organiser's name (1 to 32 characters).
        name: String,
        /// The tournament: its game, the tables of each size with their rules and deals, the
        /// rounds, the reseating, duplicate deals, whether it is listed, whether the organiser
        /// plays.
        settings: Settings,
        /// The options of the tables' rooms; missing fields take their defaults. Unless it says
        /// `spectators_allowed`, the tables of a tournament with duplicate deals refuse
        /// spectators (a spectator of a table that is ahead would see deals the other tables have
        /// still to play).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tables: Option<TournamentTables>,
    },
    /// Asks what the tournament of a link code is, without watching it. Answered with
    /// `tournament`.
    ///
    /// ```json
    /// {"type": "peek_tournament", "tournament": "Tq7cW0pLx2Zr9Ks4NvB1"}
    /// ```
    PeekTournament {
        /// The link code.
        tournament: String,
    },
    /// Watches a tournament: `tournament` now and again whenever it changes (an entrant, the
    /// start, every deal a table plays, a round's end). With the token of its organiser or of an
    /// entrant, `you` says who you are. A connection watches one tournament at a time (besides
    /// being in one room); watching another ends the first.
    ///
    /// ```json
    /// {"type": "watch_tournament", "tournament": "Tq7cW0pLx2Zr9Ks4NvB1", "token": "Vq3m2b7YxkR0aL9cTdPz1w8eUj5nHs4F"}
    /// ```
    WatchTournament {
        /// The link code.
        tournament: String,
        /// Your organiser or entrant token, if you have one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token: Option<String>,
    },
    /// Stops watching the tournament. Answered with `unwatched`.
    ///
    /// ```json
    /// {"type": "unwatch_tournament"}
    /// ```
    UnwatchTournament,
    /// Registers for a tournament by name (no account) while registration is open. Answered with
    /// `registered` (your entrant token: it seats you at your tables and shows you as yourself)
    /// and then `tournament`: you watch it from then on.
    ///
    /// ```json
    /// {"type": "register", "tournament": "Tq7cW0pLx2Zr9Ks4NvB1", "name": "Hinnerk"}
    /// ```
    Register {
        /// The link code.
        tournament: String,
        /// Your name (1 to 32 characters, unique in the tournament).
        name: String,
    },
    /// The organiser removes an entrant before the start.
    ///
    /// ```json
    /// {"type": "remove_entrant", "tournament": "Tq7cW0pLx2Zr9Ks4NvB1", "token": "…", "entrant": 4}
    /// ```
    RemoveEntrant {
        /// The link code.
        tournament: String,
        /// The organiser's token.
        token: String,
        /// The entrant.
        entrant: EntrantId,
    },
    /// The organiser closes registration.
    ///
    /// ```json
    /// {"type": "close_registration", "tournament": "Tq7cW0pLx2Zr9Ks4NvB1", "token": "…"}
    /// ```
    CloseRegistration {
        /// The link code.
        tournament: String,
        /// The organiser's token.
        token: String,
    },
    /// The organiser starts the tournament: registration closes, round 1 is seated at random and
    /// every table's room opens with its players seated and its first deal dealt. Entrants that
    /// cannot be seated (5 at tables of four and three) are refused with
    /// `tournament/cannot_seat` unless `fill_with_bots` adds the fewest bots that seat them
    /// (marked as bots everywhere).
    ///
    /// ```json
    /// {"type": "start_tournament", "tournament": "Tq7cW0pLx2Zr9Ks4NvB1", "token": "…", "fill_with_bots": false}
    /// ```
    StartTournament {
        /// The link code.
        tournament: String,
        /// The organiser's token.
        token: String,
        /// Add bots if the entrants cannot be seated as they are.
        #[serde(default)]
        fill_with_bots: bool,
    },
    /// The organiser starts the next round once every table has played all its deals: the
    /// players are reseated as the settings say (by the standings or at random).
    ///
    /// ```json
    /// {"type": "next_round", "tournament": "Tq7cW0pLx2Zr9Ks4NvB1", "token": "…"}
    /// ```
    NextRound {
        /// The link code.
        tournament: String,
        /// The organiser's token.
        token: String,
    },
    /// Asks for a tournament's results, in parts so that no answer grows with both the players
    /// and the rounds. Without `round`: every player ranked with his rounds, and the standings as
    /// CSV. With `round`: that round's tables, and their seats as CSV. Answered with
    /// `tournament_results`.
    ///
    /// ```json
    /// {"type": "tournament_results", "tournament": "Tq7cW0pLx2Zr9Ks4NvB1"}
    /// {"type": "tournament_results", "tournament": "Tq7cW0pLx2Zr9Ks4NvB1", "round": 2}
    /// ```
    TournamentResults {
        /// The link code.
        tournament: String,
        /// The round whose tables are asked for.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        round: Option<u32>,
    },
    /// Asks for the listed tournaments not yet over, newest first, 50 at a time from `offset`.
    ///
    /// ```json
    /// {"type": "tournaments", "offset": 0}
    /// ```
    Tournaments {
        /// How many of the newest to skip.
        #[serde(default)]
        offset: u32,
    },
    /// Asks for a series as far as its deals are over (the series page, and the file to keep),
    /// in or out of any room. `key` is a seat token of the room (the asker's seat is then the
    /// perspective) or the room's share key (from `share_link`). Answered with `series`, or
    /// `series/not_found` for a wrong room or key alike.
    ///
    /// ```json
    /// {"type": "series", "room": "k3JX9a2LqP0vWm4Z", "key": "Vq3m2b7YxkR0aL9cTdPz1w"}
    /// ```
    Series {
        /// The room's invite code.
        room: String,
        /// A seat token of the room or its share key.
        key: String,
    },
    /// Asks for the replay of a finished deal of a series by its key, as `series` does
    /// (in or out of any room). Answered with `replay`; a deal still being played is
    /// `replay/unavailable`.
    ///
    /// ```json
    /// {"type": "series_replay", "room": "k3JX9a2LqP0vWm4Z", "key": "Vq3m2b7YxkR0aL9cTdPz1w", "deal": 2}
    /// ```
    SeriesReplay {
        /// The room's invite code.
        room: String,
        /// A seat token of the room or its share key.
        key: String,
        /// The deal's number in the series.
        deal: u32,
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
}

impl ClientMessage {
    /// Every `type` a client may send.
    pub const TYPES: [&'static str; 38] = [
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
        "my_rooms",
        "ping",
        "add_bot",
        "remove_bot",
        "review",
        "peek",
        "nudge",
        "reading",
        "replay",
        "options",
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
    ];

    /// Reads one frame's text, telling apart a frame that is not a JSON object with a string
    /// `type` (`proto/malformed`), an unknown type (`proto/unknown_type`) and a known type with
    /// wrong fields (`proto/malformed`, with serde's explanation).
    ///
    /// # Errors
    /// The code and a sentence for the client.
    pub fn parse(text: &str) -> Result<ClientMessage, (ErrorCode, String)> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| (ErrorCode::Malformed, format!("not valid JSON: {e}")))?;
        let Some(kind) = value.get("type").and_then(serde_json::Value::as_str) else {
            return Err((ErrorCode::Malformed, "a message is a JSON object with a string field `type`".into()));
        };
        let Some(kind) = ClientMessage::TYPES.iter().copied().find(|known| *known == kind) else {
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
        serde_json::from_value(value)
            .map_err(|e| (ErrorCode::Malformed, format!("the `{kind}` message is not of the expected shape: {e}")))
    }
}

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
    ///  "seq": 44, "game": {"game": "prisdorf", "number": 1, "...": "see GameView"},
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
        /// The series as you may see it, its game named in `game`; `null` before it starts.
        game: Option<GameView>,
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
    ///  "rules": {"game": "prisdorf", "players": 4, "...": "see GameRules"}}]}
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
    ///  "status": "playing", "game": "prisdorf", "deal": 3, "totals": [4, -2, 0, 6]}]}
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
    /// The answer to `replay`: a finished deal, step by step, every hand open.
    ///
    /// ```json
    /// {"type": "replay", "replay": {"format": 1, "game": "prisdorf", "deal": 3, "perspective": 0,
    ///  "steps": [{"seat": null, "action": null, "events": [], "deal": {}, "hands": [[], [], [], []]}]}}
    /// ```
    Replay {
        /// The deal.
        replay: DealReplay,
    },
    /// The answer to `options`: the moves with that card and exactly those piles, each ready to
    /// be sent back as the action of an `act`.
    ///
    /// ```json
    /// {"type": "options", "card": "H10", "piles": [{"card": "S3"}, {"card": "D2"}, {"card": "C4"}],
    ///  "moves": [{"kind": "capture", "card": "H10", "groups": [{"op": "+", "l": {"op": "*",
    ///             "l": {"card": "S3"}, "r": {"card": "D2"}}, "r": {"card": "C4"}}]}]}
    /// ```
    Options {
        /// The hand card asked about.
        card: Card,
        /// The piles asked about.
        piles: Vec<wippen::PileRef>,
        /// Every legal move with exactly them (none: no such move).
        moves: Vec<wippen::Move>,
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
    ///  "name": "Prisdorf, Friday", "organiser": "Olli", "game": "prisdorf",
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
    ///  "rules": {"game": "prisdorf"}, "players": ["Antje", "Hinnerk", "Fiete", "Meike"],
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

#[cfg(test)]
mod tests {
    use super::*;
    use fipsen_rules::{Action, Card};

    fn act(action: Action) -> serde_json::Value {
        serde_json::to_value(action).unwrap()
    }

    #[test]
    fn parse_tells_malformed_from_unknown() {
        assert_eq!(ClientMessage::parse("{nope").unwrap_err().0, ErrorCode::Malformed);
        assert_eq!(ClientMessage::parse("[1,2]").unwrap_err().0, ErrorCode::Malformed);
        assert_eq!(ClientMessage::parse(r#"{"type":5}"#).unwrap_err().0, ErrorCode::Malformed);
        assert_eq!(ClientMessage::parse(r#"{"type":"dance"}"#).unwrap_err().0, ErrorCode::UnknownType);
        assert_eq!(ClientMessage::parse(r#"{"type":"take_seat","seat":"x"}"#).unwrap_err().0, ErrorCode::Malformed);
        assert_eq!(ClientMessage::parse(r#"{"type":"ping"}"#), Ok(ClientMessage::Ping));
        assert_eq!(ClientMessage::parse(r#"{"type":"leave_seat"}"#), Ok(ClientMessage::LeaveSeat));
        // Fields added later are optional: the older forms still read.
        assert_eq!(ClientMessage::parse(r#"{"type":"lobby"}"#), Ok(ClientMessage::Lobby { offset: 0 }));
        let join = ClientMessage::parse(r#"{"type":"join_room","room":"r","name":"A"}"#);
        assert_eq!(
            join,
            Ok(ClientMessage::JoinRoom { room: "r".into(), name: "A".into(), role: Role::Player, token: None })
        );
    }

    #[test]
    fn rules_a_game_does_not_have_are_a_rules_error() {
        for rules in [
            r#"{"game": "duttfips", "players": 4}"#,
            r#"{"game": "anseggerfips", "players": 3}"#,
            r#"{"game": "chess"}"#,
            r#"{"game": "prisdorf", "players": "four"}"#,
            "7",
        ] {
            let text = format!(r#"{{"type": "create_room", "name": "A", "rules": {rules}}}"#);
            let (code, sentence) = ClientMessage::parse(&text).unwrap_err();
            assert_eq!(code, ErrorCode::RulesInvalid, "{rules}: {sentence}");
        }
        // Rules that a game has are read; a mistake elsewhere in the message stays malformed.
        let ok = ClientMessage::parse(r#"{"type": "create_room", "name": "A", "rules": {"game": "duttfips"}}"#);
        assert!(ok.is_ok(), "{ok:?}");
        let bad = ClientMessage::parse(r#"{"type": "create_room", "name": 5, "rules": {"game": "duttfips"}}"#);
        assert_eq!(bad.unwrap_err().0, ErrorCode::Malformed);
    }

    #[test]
    fn every_type_is_listed_and_round_trips() {
        let examples = vec![
            ClientMessage::Hello { protocol: 1, client: None },
            ClientMessage::CreateRoom {
                name: "A".into(),
                rules: GameRules::default(),
                options: RoomOptions::default(),
            },
            ClientMessage::JoinRoom { room: "r".into(), name: "B".into(), role: Role::Spectator, token: None },
            ClientMessage::Resume { room: "r".into(), token: "t".into(), last_seq: Some(3) },
            ClientMessage::TakeSeat { seat: Seat(2) },
            ClientMessage::LeaveSeat,
            ClientMessage::Start,
            ClientMessage::SetPublic { public: true },
            ClientMessage::Act { id: 1, seq: 2, action: act(Action::Play { card: Card::DIAMOND_SEVEN }) },
            ClientMessage::NextDeal,
            ClientMessage::Chat { text: "hi".into() },
            ClientMessage::LeaveRoom,
            ClientMessage::Lobby { offset: 50 },
            ClientMessage::MyRooms { tokens: vec!["t".into()] },
            ClientMessage::Ping,
            ClientMessage::AddBot { seat: Seat(3), level: Level::Strong },
            ClientMessage::RemoveBot { seat: Seat(3) },
            ClientMessage::Review { deal: None },
            ClientMessage::Peek { room: "r".into() },
            ClientMessage::Nudge,
            ClientMessage::Reading { reading: true },
            ClientMessage::Replay { deal: 3 },
            ClientMessage::Options { card: "H10".parse().unwrap(), piles: vec![] },
            ClientMessage::CreateTournament {
                name: "O".into(),
                settings: Settings::prisdorf("Club"),
                tables: Some(TournamentTables::given(RoomOptions::default())),
            },
            ClientMessage::PeekTournament { tournament: "t".into() },
            ClientMessage::WatchTournament { tournament: "t".into(), token: Some("k".into()) },
            ClientMessage::UnwatchTournament,
            ClientMessage::Register { tournament: "t".into(), name: "A".into() },
            ClientMessage::RemoveEntrant { tournament: "t".into(), token: "k".into(), entrant: EntrantId(2) },
            ClientMessage::CloseRegistration { tournament: "t".into(), token: "k".into() },
            ClientMessage::StartTournament { tournament: "t".into(), token: "k".into(), fill_with_bots: true },
            ClientMessage::NextRound { tournament: "t".into(), token: "k".into() },
            ClientMessage::TournamentResults { tournament: "t".into(), round: Some(2) },
            ClientMessage::Tournaments { offset: 0 },
            ClientMessage::Series { room: "r".into(), key: "k".into() },
            ClientMessage::SeriesReplay { room: "r".into(), key: "k".into(), deal: 2 },
            ClientMessage::ShareLink,
            ClientMessage::DeleteSeries { agree: true },
        ];
        assert_eq!(examples.len(), ClientMessage::TYPES.len());
        for (message, kind) in examples.iter().zip(ClientMessage::TYPES) {
            let json = serde_json::to_value(message).unwrap();
            assert_eq!(json["type"], kind);
            assert_eq!(&ClientMessage::parse(&json.to_string()).unwrap(), message);
        }
    }

    #[test]
    fn act_reads_the_documented_shape() {
        let m = ClientMessage::parse(r#"{"type":"act","id":17,"seq":40,"action":{"action":"play","card":"H10"}}"#);
        let card: Card = "H10".parse().unwrap();
        assert_eq!(m, Ok(ClientMessage::Act { id: 17, seq: 40, action: act(Action::Play { card }) }));
        let create = ClientMessage::parse(r#"{"type":"create_room","name":"A"}"#).unwrap();
        assert_eq!(
            create,
            ClientMessage::CreateRoom {
                name: "A".into(),
                rules: GameRules::default(),
                options: RoomOptions::default()
            }
        );
        let create =
            ClientMessage::parse(r#"{"type":"create_room","name":"A","rules":{"game":"grossenaspe"}}"#).unwrap();
        let ClientMessage::CreateRoom { rules, .. } = create else { panic!("{create:?}") };
        assert_eq!(rules.game(), fipsen_rules::GameId::Grossenaspe);
        let unknown = ClientMessage::parse(r#"{"type":"create_room","name":"A","rules":{"game":"skat"}}"#).unwrap_err();
        assert_eq!(unknown.0, ErrorCode::RulesInvalid);
        assert!(unknown.1.contains("unknown game `skat`"), "{}", unknown.1);
    }

    #[test]
    fn error_frames_carry_code_and_sentence() {
        let json = ServerMessage::error(ErrorCode::RoomNotFound, Some(4)).to_json();
        assert_eq!(
            json,
            r#"{"type":"error","id":4,"code":"room/not_found","message":"there is no room with that invite code"}"#
        );
    }
}
