//! The vocabulary of the core: the commands it decides, the changes and effects a decision
//! consists of.

use std::time::Instant;

use fipsen_bots::Level;
use fipsen_bots::games::FinishedDeal;
use fipsen_protocol::{ErrorCode, ServerMessage};
use fipsen_rules::{GameAction, Seat};

use fipsen_protocol::RoomMessage;

use crate::room::command::JoinKind;
use crate::room::link::ConnId;
use crate::room::record::Record;

/// The time a command is decided at: the monotonic clock for deadlines, and the wall clock in
/// milliseconds since 1970 for what is shown to people (a chat line's time).
#[derive(Debug, Clone, Copy)]
pub struct At {
    /// The monotonic time.
    pub now: Instant,
    /// The wall clock, in milliseconds since the Unix epoch.
    pub unix_ms: u64,
}

/// What the room core is asked to decide.
#[derive(Debug)]
pub enum Command {
    /// A connection enters the room.
    Join {
        /// The connection.
        conn: ConnId,
        /// How it enters.
        kind: JoinKind,
        /// A fresh seat token, given to the player if he joins as a new participant without a
        /// join key.
        fresh_token: String,
        /// When the server first saw the request ([`crate::room::request_time`]).
        seen: u64,
    },
    /// A connection leaves (closed, dropped, or `leave_room`).
    Leave {
        /// The connection.
        conn: ConnId,
    },
    /// A request of a connection in the room.
    Request {
        /// The connection.
        conn: ConnId,
        /// What it asks.
        request: RoomMessage,
    },
    /// Time passes: whatever is due happens (a grace period ends, the move clock runs out, the
    /// next deal is dealt, the host's part passes on, a returned player takes his seat back).
    /// Always safe to send: nothing happens before it is due.
    Tick,
    /// The room to play again in is open (the shell opened it for [`Effect::OpenRematch`]).
    Rematched {
        /// Its invite code.
        room: String,
    },
    /// A bot's decision for `seat`, asked when the game's events were numbered up to `game_seq`.
    Bot {
        /// The seat it acts for.
        seat: Seat,
        /// The game state it decided for.
        game_seq: u64,
        /// What it chose (`None`: nothing, which out of turn is a choice).
        action: Option<GameAction>,
    },
}

/// What a decided command changes and what the shell does for it.
#[derive(Debug, Default)]
pub struct Decision {
    /// The changes, to be applied in order; each [`Change::Record`] is stored first.
    pub changes: Vec<Change>,
    /// What the shell does once the changes are applied, in order, before it broadcasts their
    /// events.
    pub effects: Vec<Effect>,
}

impl Decision {
    pub(super) fn change(change: Change) -> Decision {
        Decision { changes: vec![change], effects: Vec::new() }
    }

    pub(super) fn record(record: Record) -> Decision {
        Decision::change(Change::Record(record))
    }

    pub(super) fn passing(passing: Passing) -> Decision {
        Decision::change(Change::Passing(passing))
    }

    pub(super) fn effect(effect: Effect) -> Decision {
        Decision { changes: Vec::new(), effects: vec![effect] }
    }

    pub(super) fn with(mut self, effect: Effect) -> Decision {
        self.effects.push(effect);
        self
    }
}

/// One change of the room's state.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// A durable change: stored, then applied.
    Record(Record),
    /// A change that is not stored: gone when the room is rebuilt.
    Passing(Passing),
}

/// A change of the room that is not stored.
#[derive(Debug, Clone, PartialEq)]
pub enum Passing {
    /// A connection came in: a participant's (seated or not) or a spectator's.
    Connected {
        /// The connection.
        conn: ConnId,
        /// The participant it belongs to; `None` for a spectator.
        participant: Option<u32>,
        /// The name it goes by here.
        name: String,
        /// Whether the room is told (a seated player's return, a spectator's count); a new
        /// player's own joining is told by his record's events.
        announce: bool,
        /// When its request was first seen ([`crate::room::request_time`]): a later request of
        /// the same participant replaces it, an earlier one does not.
        since: u64,
    },
    /// A connection of the same participant was replaced by a newer one.
    Replaced {
        /// The older connection.
        conn: ConnId,
    },
    /// A connection left.
    Disconnected {
        /// The connection.
        conn: ConnId,
    },
    /// The room is told how many spectators watch now (the changes since it was last told,
    /// together).
    AudienceTold,
    /// A connection spent one of its chat allowance (refilled from now on at
    /// five lines per ten seconds).
    ChatSpent {
        /// The connection.
        conn: ConnId,
        /// Its allowance after the line.
        tokens: f64,
    },
    /// A seat asked for the next deal.
    NextDealAsked {
        /// The seat.
        seat: Seat,
    },
    /// A seat started or stopped reading between deals.
    Reading {
        /// The seat.
        seat: Seat,
        /// Reading or not.
        reading: bool,
    },
    /// A seated player reminded these seats.
    Nudged {
        /// Who reminded.
        by: Seat,
        /// Whom.
        seats: Vec<Seat>,
    },
    /// An absent player's grace period ended: his seat is open, and a bot may stand in.
    GraceOver {
        /// The seat.
        seat: Seat,
        /// The bot that now stands in (`None`: none, or one already did).
        stand_in: Option<Level>,
    },
    /// The move clock of this seat ran out: a bot of this level makes the move.
    ClockRanOut {
        /// The seat.
        seat: Seat,
        /// The bot's level.
        level: Level,
    },
    /// A returned player takes his seat back from the bot standing in.
    StandInEnded {
        /// The seat.
        seat: Seat,
    },
    /// A bot chose to do nothing out of turn at the current game state.
    PassedOutOfTurn {
        /// The seat.
        seat: Seat,
    },
}

/// What the shell does for a decided command, after its changes are applied.
#[derive(Debug)]
pub enum Effect {
    /// Acknowledge the player's action `id` with the sequence number now.
    Ack {
        /// The connection.
        conn: ConnId,
        /// The client's action id.
        id: u64,
    },
    /// Send a message to one connection.
    Send {
        /// The connection.
        conn: ConnId,
        /// The message.
        message: Box<ServerMessage>,
    },
    /// Refuse a request with a sentence saying what was wrong.
    Refuse {
        /// The connection.
        conn: ConnId,
        /// The code.
        code: ErrorCode,
        /// The client's action id, for an action.
        id: Option<u64>,
        /// The sentence.
        message: String,
    },
    /// Close a connection (replaced by a newer one of the same player).
    Close {
        /// The connection.
        conn: ConnId,
    },
    /// Send the newly entered connection its snapshot (`joined`).
    Admit {
        /// The connection.
        conn: ConnId,
        /// The seat token, for a new player.
        token: Option<String>,
        /// The last sequence number the client saw, for a resume.
        last_seq: Option<u64>,
    },
    /// Compute the review of `seat`'s hand in deal `deal` off the room's task (`at_hand`, if
    /// that deal is still in memory; otherwise it is rebuilt from storage).
    Review {
        /// The connection to answer.
        conn: ConnId,
        /// The seat.
        seat: Seat,
        /// The deal's number.
        deal: u32,
        /// The deal, if it is at hand.
        at_hand: Option<Box<FinishedDeal>>,
        /// The bots' seed for it.
        seed: u64,
    },
    /// Rebuild the replay of `deal` from storage off the room's task.
    Replay {
        /// The connection to answer.
        conn: ConnId,
        /// Seen from this seat (`None`: as a spectator).
        seat: Option<Seat>,
        /// The deal's number.
        deal: u32,
    },
    /// Open a new room to play again, seated by these records (the same people with their seat
    /// tokens, the same bots, the same host), then tell the core with [`Command::Rematched`].
    OpenRematch {
        /// The new room's first records.
        records: Vec<Record>,
    },
    /// Every seated person agreed: delete the series from storage, tell everyone, end the room.
    Delete,
}
