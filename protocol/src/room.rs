//! What a room is made of, as clients see it: its options, its state, and its numbered events.

use fipsen_rules::{GameEvent, GameId, GameRules, Level, Seat};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The longest room title, in characters.
pub const MAX_TITLE_CHARS: usize = 60;
/// The longest grace period a seat can be held for a disconnected player: one day.
pub const MAX_GRACE_SECONDS: u32 = 86_400;
/// The longest pause between deals.
pub const MAX_NEXT_DEAL_SECONDS: u32 = 600;
/// The longest pause a bot takes before acting, in milliseconds.
pub const MAX_BOT_DELAY_MS: u32 = 5_000;
/// The shortest move clock, in seconds per decision.
pub const MIN_MOVE_SECONDS: u32 = 10;
/// The longest move clock, in seconds per decision.
pub const MAX_MOVE_SECONDS: u32 = 600;
/// How long a turn must have lasted before another player may `nudge`, in seconds.
pub const NUDGE_AFTER_SECONDS: u32 = 15;
/// The shortest time between two nudges in a room, in seconds.
pub const NUDGE_EVERY_SECONDS: u32 = 30;
/// How long one player's `reading` may hold the next deal back, in seconds.
pub const MAX_READING_SECONDS: u32 = 120;
/// How many rooms one `lobby` answer lists at most.
pub const LOBBY_PAGE: u32 = 50;

/// How a room behaves, chosen by its host when creating it. Every field has a default.
///
/// ```json
/// {"title": "Friday table", "public": false, "spectators_allowed": true,
///  "grace_seconds": 120, "next_deal_seconds": 10, "bot_takeover": "normal", "bot_delay_ms": 900,
///  "move_seconds": null, "public_replays": false}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct RoomOptions {
    /// The table's title in the lobby and the page header (at most 60 characters). Empty: the
    /// server names it after the host.
    pub title: String,
    /// Listed in the public lobby. Otherwise only the invite link leads to it.
    pub public: bool,
    /// Whether people may watch. Spectators see only what the rules show a spectator.
    pub spectators_allowed: bool,
    /// How long a disconnected player's seat is held for him alone (0 to 86400 s). After it, the
    /// seat is open: another player may take it over, and until then the owner gets it back by
    /// resuming.
    pub grace_seconds: u32,
    /// The pause after a deal before the next one is dealt (0 to 600 s; 0 deals at once).
    /// `null`: only when every connected player asks with `next_deal`. Asking always shortens it.
    pub next_deal_seconds: Option<u32>,
    /// A bot of this level plays for a seated player whose grace period has passed, until he
    /// comes back (he gets his seat back between tricks). `null`: nobody plays for him; the seat
    /// waits, and another player may take it over.
    pub bot_takeover: Option<Level>,
    /// How long a bot pauses before each action, in milliseconds (0 to 5000). Each pause varies
    /// around this like a person's: shorter for an obvious card, longer at the start of a trick.
    /// 0: bots act at once.
    pub bot_delay_ms: u32,
    /// The move clock: seconds a player has for each decision (10 to 600). When they run out, a
    /// bot (of the `bot_takeover` level, or normal) makes that one move for him. With the clock
    /// on, a pause between deals that waits for every player (`next_deal_seconds: null`) also
    /// ends after this time. `null`: no clock (other players can still `nudge`).
    pub move_seconds: Option<u32>,
    /// Whether spectators may replay the series' finished deals (`replay`); the seated players
    /// always may. A deal still being played is never replayed.
    pub public_replays: bool,
}

impl Default for RoomOptions {
    fn default() -> Self {
        RoomOptions {
            title: String::new(),
            public: false,
            spectators_allowed: true,
            grace_seconds: 120,
            next_deal_seconds: Some(10),
            bot_takeover: Some(Level::Normal),
            bot_delay_ms: 900,
            move_seconds: None,
            public_replays: false,
        }
    }
}

impl RoomOptions {
    /// Whether every option is within its range.
    pub fn is_valid(&self) -> bool {
        self.title.chars().count() <= MAX_TITLE_CHARS
            && self.grace_seconds <= MAX_GRACE_SECONDS
            && self.next_deal_seconds.is_none_or(|s| s <= MAX_NEXT_DEAL_SECONDS)
            && self.bot_delay_ms <= MAX_BOT_DELAY_MS
            && self.move_seconds.is_none_or(|s| (MIN_MOVE_SECONDS..=MAX_MOVE_SECONDS).contains(&s))
    }
}

/// Whether one joins a room to play or to watch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// To take a seat (the first free one on joining).
    #[default]
    Player,
    /// To watch; sees only what a spectator may.
    Spectator,
}

/// Where a room's series stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RoomStatus {
    /// Players gather and take seats; the host starts when every seat is taken.
    Waiting,
    /// A deal is being played.
    Playing,
    /// A deal is over; the next one is dealt after the pause or when the players ask.
    BetweenDeals,
    /// The series has played its last deal.
    Over,
}

/// One seat at the table.
///
/// ```json
/// {"seat": 2, "name": "Hinnerk", "connected": true, "open": false, "host": false,
///  "bot": null, "stand_in": null}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SeatInfo {
    /// The seat number.
    pub seat: Seat,
    /// Who sits there; `null` while the seat is free.
    pub name: Option<String>,
    /// Whether that player has a live connection.
    pub connected: bool,
    /// The grace period of a disconnected player has passed: another player may take the seat.
    pub open: bool,
    /// Whether the seated player is the room's host.
    pub host: bool,
    /// A bot of this level sits here (added by the host); `name` is the bot's.
    pub bot: Option<Level>,
    /// A bot of this level plays for the seated player while he is away past his grace period.
    pub stand_in: Option<Level>,
}

/// A room as everyone in it sees it (it holds no cards).
///
/// ```json
/// {"room": "k3JX9a2LqP0vWm4Z", "title": "Friday table", "host": "Antje",
///  "rules": {"players": 4, "min_bid": 2, "kontra": false, "first_lead": "forehand",
///            "kieker_show": "left_opponent", "deals": 8},
///  "options": {"title": "Friday table", "public": false, "spectators_allowed": true,
///              "grace_seconds": 120, "next_deal_seconds": 10},
///  "seats": [{"seat": 0, "name": "Antje", "connected": true, "open": false, "host": true}],
///  "spectators": 1, "status": "playing", "turn": {"seat": 2, "waited_ms": 4200, "left_ms": null},
///  "next_deal_asked": [], "next_deal_in_ms": null, "next_deal_paused": false, "reading": []}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RoomState {
    /// The invite code.
    pub room: String,
    /// The title.
    pub title: String,
    /// The host's name.
    pub host: String,
    /// The game and its rules.
    pub rules: GameRules,
    /// The room's options.
    pub options: RoomOptions,
    /// Every seat, by number.
    pub seats: Vec<SeatInfo>,
    /// How many spectators are connected.
    pub spectators: u32,
    /// Where the series stands.
    pub status: RoomStatus,
    /// During a deal: whose turn it is and for how long (as of this frame).
    pub turn: Option<TurnClock>,
    /// Between deals: the seats that asked for the next deal.
    pub next_deal_asked: Vec<Seat>,
    /// Between deals: milliseconds until the next deal is dealt on its own, if it will be
    /// (while `next_deal_paused`, the time that will be left when the pause ends).
    pub next_deal_in_ms: Option<u64>,
    /// Between deals: the countdown to the next deal stands still while someone reads.
    pub next_deal_paused: bool,
    /// Between deals: the seats reading the result or their review (see `reading`).
    pub reading: Vec<Seat>,
    /// The tournament this room is a table of, with the round and the deals played; absent for
    /// an ordinary room.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<crate::TableOfTournament>,
    /// The seats whose players agree that the series be deleted (see `delete_series`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub delete_votes: Vec<Seat>,
    /// Once the series is over and the host offered to play again: the new room's invite code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rematch: Option<String>,
}

/// Whose turn it is, how long it has lasted and how long the move clock leaves, in
/// milliseconds as of the frame that carries it.
///
/// ```json
/// {"seat": 2, "waited_ms": 4200, "left_ms": 25800}
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TurnClock {
    /// The seat to act.
    pub seat: Seat,
    /// How long this turn has lasted.
    pub waited_ms: u64,
    /// The time left on the move clock; `null` when the room has no clock.
    pub left_ms: Option<u64>,
}

/// A line of table chat. Kept with the room; the last lines come with `joined`.
///
/// ```json
/// {"from": "Antje", "seat": 0, "role": "player", "text": "Moin!", "at": 1767225600000}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ChatLine {
    /// The writer's name (unique in the room).
    pub from: String,
    /// The writer's seat; `null` for a spectator or a player without a seat.
    pub seat: Option<Seat>,
    /// Whether the writer plays or watches.
    #[serde(default)]
    pub role: Role,
    /// The text (at most 300 characters).
    pub text: String,
    /// When it was said: milliseconds since 1970 (UTC).
    pub at: u64,
}

/// Something that happened in a room. Game events are redacted for each viewer by the rules
/// crate ([`GameEvent::for_viewer`]): a viewer gets the event with the cards he may not see
/// emptied, never a missing event, so sequence numbers have no gaps.
///
/// ```json
/// {"kind": "game", "event": {"event": "card_played", "seat": 1, "card": "H10"}}
/// {"kind": "seated", "seat": 1, "name": "Hinnerk"}
/// {"kind": "chat", "from": "Antje", "seat": 0, "text": "Moin!", "at": 1767225600000}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RoomEvent {
    /// Something happened in the game.
    Game {
        /// The rules crate's event of the room's game, as this viewer may see it.
        event: GameEvent,
    },
    /// A player took a seat.
    Seated {
        /// The seat.
        seat: Seat,
        /// The player's name.
        name: String,
    },
    /// A player left a seat (before the series started).
    LeftSeat {
        /// The seat now free.
        seat: Seat,
    },
    /// A seated player connected.
    Connected {
        /// The seat.
        seat: Seat,
    },
    /// A seated player lost his connection; the seat is held for the grace period.
    Disconnected {
        /// The seat.
        seat: Seat,
    },
    /// A disconnected player's grace period passed: another player may take the seat.
    SeatOpen {
        /// The seat.
        seat: Seat,
    },
    /// The number of spectators changed.
    Spectators {
        /// How many watch now.
        count: u32,
    },
    /// The host started the series; the first deal follows.
    Started,
    /// The host listed the room in the lobby, or took it off.
    Public {
        /// Listed now or not.
        public: bool,
    },
    /// A player asked for the next deal.
    NextDealAsked {
        /// The seat that asked.
        seat: Seat,
    },
    /// A chat line.
    Chat(ChatLine),
    /// The host seated a bot.
    BotAdded {
        /// The seat.
        seat: Seat,
        /// Its level.
        level: Level,
        /// Its name.
        name: String,
    },
    /// The host took a bot off its seat; the seat is free.
    BotRemoved {
        /// The seat now free.
        seat: Seat,
    },
    /// A bot plays for the player at this seat, who is away past his grace period.
    StandIn {
        /// The seat.
        seat: Seat,
        /// The bot's level.
        level: Level,
    },
    /// The player at this seat is back and plays on himself.
    StandInEnded {
        /// The seat.
        seat: Seat,
    },
    /// The host was gone past his grace period; this player is the host now (he starts the
    /// series, seats bots, lists the room).
    HostChanged {
        /// The new host's name.
        name: String,
        /// His seat, if he sits.
        seat: Option<Seat>,
    },
    /// A player reminded the player whose turn it is.
    Nudged {
        /// The seat reminded.
        seat: Seat,
        /// The seat of the player who nudged.
        by: Seat,
    },
    /// The move clock of this seat ran out: a bot of this level makes this one move for it.
    ClockRanOut {
        /// The seat.
        seat: Seat,
        /// The bot's level.
        level: Level,
    },
    /// A player started or stopped reading the result or his review; while anyone reads, the
    /// countdown to the next deal stands still (at most 120 s per reader).
    Reading {
        /// The seat.
        seat: Seat,
        /// Reading now or not.
        reading: bool,
    },
    /// A seated player agreed (or no longer agrees) that the series be deleted.
    DeleteVote {
        /// The seat.
        seat: Seat,
        /// Agrees now or not.
        agree: bool,
    },
    /// The host offered to play again: a new room with the same rules and seats is open, and
    /// each player of this one accepts by entering it with his seat token (or leaves).
    Rematch {
        /// The new room's invite code.
        room: String,
    },
}

/// A room event with its sequence number. Numbers rise by one per event in a room.
///
/// ```json
/// {"seq": 41, "kind": "game", "event": {"event": "trick_taken", "seat": 3}}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SeqEvent {
    /// The event's sequence number in its room.
    pub seq: u64,
    /// The event.
    #[serde(flatten)]
    pub event: RoomEvent,
}

/// Who the receiving connection is in the room.
///
/// ```json
/// {"participant": 3, "name": "Hinnerk", "role": "player", "seat": 1, "host": false,
///  "token": "Vq3m2b7YxkR0aL9cTdPz1w8eUj5nHs4F", "last_act_id": 16}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct You {
    /// Players: your number in this room (stable across reconnects); `null` for a spectator.
    pub participant: Option<u32>,
    /// Your name.
    pub name: String,
    /// Player or spectator.
    pub role: Role,
    /// Your seat, if you sit.
    pub seat: Option<Seat>,
    /// Whether you are the host.
    pub host: bool,
    /// Players only: the secret seat token, to `resume` after a lost connection. Keep it private:
    /// whoever holds it plays for you.
    pub token: Option<String>,
    /// The highest `act` id the server accepted from you so far: continue above it (after a
    /// page reload, for instance). `null` before your first action.
    pub last_act_id: Option<u64>,
}

/// A public room, as the lobby lists it.
///
/// ```json
/// {"room": "k3JX9a2LqP0vWm4Z", "title": "Friday table", "host": "Antje",
///  "players": ["Antje", null, null, null], "spectators": 0, "spectators_allowed": true,
///  "status": "waiting", "rules": {"players": 4, "min_bid": 2, "kontra": false,
///  "first_lead": "forehand", "kieker_show": "left_opponent", "deals": null}}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct LobbyRoom {
    /// The invite code.
    pub room: String,
    /// The title.
    pub title: String,
    /// The host's name.
    pub host: String,
    /// The name at each seat; `null` for a free seat.
    pub players: Vec<Option<String>>,
    /// How many watch.
    pub spectators: u32,
    /// Whether one may watch.
    pub spectators_allowed: bool,
    /// Where the series stands.
    pub status: RoomStatus,
    /// The game and its rules.
    pub rules: GameRules,
    /// The tournament the room is a table of: its players come in from the tournament's page
    /// (with their tournament tokens), others may only watch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<crate::TableOfTournament>,
}

/// A room one of the given tokens belongs to, for a player's list of his rooms (open in
/// memory or not).
///
/// ```json
/// {"room": "k3JX9a2LqP0vWm4Z", "title": "Friday table", "name": "Hinnerk", "seat": 1,
///  "players": ["Antje", "Hinnerk", "Fiete", "Meike"], "status": "playing", "game": "…",
///  "deal": 3, "totals": [4, -2, 0, 6]}
/// ```
///
/// A room whose stored history the server cannot rebuild as it was played is listed as
/// broken, with its code alone (it stays closed; joining it answers `room/broken`), so that
/// the player learns it is there rather than seeing it vanish:
///
/// ```json
/// {"room": "k3JX9a2LqP0vWm4Z", "broken": true, "title": "", "name": "", "seat": null,
///  "players": [], "status": "waiting", "deal": 0, "totals": []}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct MyRoom {
    /// The invite code.
    pub room: String,
    /// The title.
    pub title: String,
    /// Your name there.
    pub name: String,
    /// Your seat there, if any.
    pub seat: Option<Seat>,
    /// The name at each seat.
    pub players: Vec<Option<String>>,
    /// Where the series stands.
    pub status: RoomStatus,
    /// The game played there (absent for a broken room: its rules may be what cannot be read).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<GameId>,
    /// The current deal's number (0 before the series starts).
    pub deal: u32,
    /// Each seat's total.
    pub totals: Vec<i32>,
    /// The room's stored history cannot be rebuilt as it was played: it stays closed, and
    /// every other field is empty.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub broken: bool,
}

impl MyRoom {
    /// The entry of a broken room: its code, nothing else known.
    pub fn broken(room: String) -> MyRoom {
        MyRoom {
            room,
            title: String::new(),
            name: String::new(),
            seat: None,
            players: Vec::new(),
            status: RoomStatus::Waiting,
            game: None,
            deal: 0,
            totals: Vec::new(),
            broken: true,
        }
    }
}
