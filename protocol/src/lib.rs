//! The versioned JSON protocol between the Fipsen server and its clients.
//!
//! * A client opens a WebSocket on `/ws` and sends [`ConnectionMessage::Hello`] with
//!   [`PROTOCOL_VERSION`]; the server answers [`ServerMessage::Welcome`] or refuses with the
//!   error `proto/version` and closes with [`CloseCode::UnsupportedVersion`].
//! * Every frame is one JSON object with a `type` field, at most [`MAX_MESSAGE_BYTES`] bytes.
//!   A client's messages come in families ([`ConnectionMessage`], [`RoomMessage`],
//!   [`TournamentMessage`], [`SeriesMessage`]) that do not show on the wire; a server hands a
//!   [`RoomMessage`] to its room as it is.
//! * Refusals carry a stable [`ErrorCode`] string and a sentence; the rules crate's codes
//!   (`turn/not_yours`, `play/must_follow_suit`, …) pass through unchanged.
//! * A client holds one state, `{"room": …, "game": …}`: `joined` gives it whole, each `update`
//!   carries the new events and the [`patch::Patch`]es that bring the state up to date.
//! * Every room event has a sequence number ([`SeqEvent`]); a client that reconnects with
//!   [`ConnectionMessage::Resume`] and the last number it saw gets what it missed.
//!
//! * Tournaments ([`TournamentMessage::CreateTournament`] and after) are watched by link code;
//!   each table is an ordinary room, its state naming the tournament ([`TableOfTournament`]).
//!
//! `docs/PROTOCOL.md` walks through a session with an example of every message;
//! [`schema::protocol_schema`] generates the JSON Schema committed in `protocol/schema/`.

mod action;
mod close;
mod error;
mod message;
pub mod patch;
mod replay;
mod room;
pub mod schema;
mod tournament;

pub use action::read_action;
pub use close::CloseCode;
pub use error::{ErrorCode, every_rule_error};
pub use message::{ClientMessage, ConnectionMessage, RoomMessage, SeriesMessage, ServerMessage, TournamentMessage};
pub use patch::{Patch, PatchError, Step};
pub use replay::{
    AnalysisMethod, AnalysisUnit, CardCost, DealReplay, FinishedDeal, MAX_BEST_MOVES, PlayAnalysis, REPLAY_FORMAT,
    ReplayError, ReplayStep, SERIES_FORMAT, SeatAction, SeriesRecord, StepShown,
};
pub use room::{
    ChatLine, LOBBY_PAGE, LobbyRoom, MAX_GRACE_SECONDS, MAX_MOVE_SECONDS, MAX_NEXT_DEAL_SECONDS, MAX_READING_SECONDS,
    MAX_TITLE_CHARS, MIN_MOVE_SECONDS, MyRoom, NUDGE_AFTER_SECONDS, NUDGE_EVERY_SECONDS, Role, RoomEvent, RoomOptions,
    RoomState, RoomStatus, SeatInfo, SeqEvent, TurnClock, You,
};
pub use tournament::{
    SeatingPreview, TOURNAMENT_PAGE, TableOfTournament, TournamentState, TournamentSummary, TournamentTables,
    TournamentYou, every_tournament_error,
};

/// The protocol version this crate describes. It changes when a message changes incompatibly.
pub const PROTOCOL_VERSION: u32 = 3;
/// The versions a server built from this crate accepts in `hello`.
pub const SUPPORTED_VERSIONS: [u32; 1] = [PROTOCOL_VERSION];
/// The largest frame a client may send: 16 KiB.
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024;
/// The longest player name, in characters.
pub const MAX_NAME_CHARS: usize = 32;
/// The longest chat line, in characters.
pub const MAX_CHAT_CHARS: usize = 300;
/// The most tokens one `my_rooms` may ask about.
pub const MAX_TOKENS_PER_QUERY: usize = 50;
