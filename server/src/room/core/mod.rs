//! The room core: the state of one table and its rules of the table, without I/O.
//!
//! [`Core::decide`] checks a [`Command`] against the state at a given time and answers with the
//! [`Change`]s it makes (nothing is changed yet) and the [`Effect`]s the shell carries out for
//! it, or with the [`ErrorCode`] that refuses it, in which case nothing changes. [`Core::apply`]
//! makes one change and gives the room events it caused, numbered. A change is either a
//! [`Record`], which the shell stores **before** applying it, or a [`Passing`] fact (who is
//! connected, who reads, the timers), which is never stored: a room rebuilt from its records
//! ([`Core::restore`]) has every durable part of the state, with nobody connected.
//!
//! The core never reads a clock, never draws a random number and never waits: the time and any
//! fresh token come in with the command.
//!
//! Its parts, each a file: [`seating`] (joining, seats, bots, the host), [`pause`] (the time
//! between deals: asking for the next deal, reading, nudges), [`timers`] (deadlines: grace
//! periods, the move clock, the next deal), [`bots`] (which bot acts and when), [`apply`] (the
//! one place the state changes), [`views`] (the room as its frames, the lobby and `my_rooms`
//! show it) and [`tournament`] (a tournament table's results).

mod apply;
mod bots;
mod pause;
mod play;
mod requests;
mod seating;
mod timers;
mod tournament;
mod views;

#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::Arc;
use std::time::{Duration, Instant};

use fipsen_bots::Level;
use fipsen_bots::games::FinishedDeal;
use fipsen_protocol::{ChatLine, ErrorCode, RoomOptions, SeqEvent, ServerMessage};
use fipsen_rules::{AnyGame, GameAction, GameRules, Seat};
use tracing::warn;

pub use bots::BotCall;

use super::command::{JoinKind, RoomRequest};
use super::link::ConnId;
use super::record::Record;
use crate::storage::RoomMeta;
use crate::tournaments::TableLink;

/// Events kept for reconnecting clients.
pub const HISTORY: usize = 512;
/// Chat lines kept with the room and sent on joining.
const CHAT_LINES: usize = 50;
/// Recent action ids remembered per player, to acknowledge a resent action again.
const ACKED_IDS: usize = 32;

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
        /// A fresh seat token, given to the player if he joins as a new participant.
        fresh_token: String,
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
        request: RoomRequest,
    },
    /// Time passes: whatever is due happens (a grace period ends, the move clock runs out, the
    /// next deal is dealt, the host's part passes on, a returned player takes his seat back).
    /// Always safe to send: nothing happens before it is due.
    Tick,
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
    fn change(change: Change) -> Decision {
        Decision { changes: vec![change], effects: Vec::new() }
    }

    fn record(record: Record) -> Decision {
        Decision::change(Change::Record(record))
    }

    fn passing(passing: Passing) -> Decision {
        Decision::change(Change::Passing(passing))
    }

    fn effect(effect: Effect) -> Decision {
        Decision { changes: Vec::new(), effects: vec![effect] }
    }

    fn with(mut self, effect: Effect) -> Decision {
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
    /// A connection spent one of its chat allowance (refilled from now on at
    /// [`requests::CHAT_BURST`] lines per [`requests::CHAT_WINDOW`]).
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
    /// Every seated person agreed: delete the series from storage, tell everyone, end the room.
    Delete,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Participant {
    id: u32,
    name: String,
    token_hash: String,
    /// Recently accepted action ids and the sequence number after each.
    acked: VecDeque<(u64, u64)>,
    last_act_id: Option<u64>,
    /// A bot's level; `None` for a person.
    bot: Option<Level>,
}

/// A connection in the room, as the core knows it.
#[derive(Debug, Clone)]
pub struct Viewer {
    /// The participant it belongs to; `None` for a spectator.
    pub participant: Option<u32>,
    /// The name it goes by here.
    pub name: String,
    chat_tokens: f64,
    chat_refill: Instant,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct SeatHold {
    /// When the disconnected occupant's grace period ends.
    grace_until: Option<Instant>,
    /// The grace period has passed: another player may take the seat.
    open: bool,
    /// A bot of this level plays for the absent occupant (until he is back, between tricks).
    stand_in: Option<Level>,
}

/// The state of one room.
#[derive(Debug)]
pub struct Core {
    // ----- fixed when the room is made -----
    code: Arc<str>,
    title: String,
    rules: GameRules,
    options: RoomOptions,
    master: fipsen_rules::Seed,
    /// The tournament this room is a table of.
    tournament: Option<TableLink>,
    /// How long a room with nobody connected stays in memory.
    idle: Duration,

    // ----- durable: rebuilt from the records -----
    participants: Vec<Participant>,
    /// The host's participant number: the creator, until he is gone past his grace period.
    host: u32,
    seats: Vec<Option<u32>>,
    series: Option<AnyGame>,
    /// Records applied (stored ones, or read back from storage).
    records: u64,
    seq: u64,
    /// The sequence number of the last game event: actions chosen before it are stale.
    last_game_seq: u64,
    /// Recent events, unredacted, for reconnecting clients; `history_start` is the first
    /// sequence number after which every event is in it.
    history: VecDeque<SeqEvent>,
    history_start: u64,
    chat: VecDeque<ChatLine>,
    /// The last finished deal once the next one is dealt (its number and the deal), for reviews.
    previous_deal: Option<(u32, FinishedDeal)>,
    /// A tournament table: each deal that counted, as the running totals after it and the
    /// dealing played (0 for its first, `j` after it was thrown in `j` times).
    counted: Vec<(Vec<i32>, u32)>,
    /// A tournament table: the deals thrown in since the last deal that counted.
    thrown_in: u32,
    /// The number of the last deal whose end was noted in `counted` or `thrown_in`.
    noted_deal: u32,
    /// The participants who agree that the series be deleted.
    delete_votes: BTreeSet<u32>,

    // ----- passing: who is here, and the timers -----
    viewers: BTreeMap<ConnId, Viewer>,
    holds: Vec<SeatHold>,
    next_deal_asked: BTreeSet<Seat>,
    next_deal_at: Option<Instant>,
    /// While someone reads between deals: the time the countdown to the next deal has left.
    next_deal_left: Option<Duration>,
    /// Seats reading the result or their review, and until when their reading may hold the
    /// next deal back.
    reading: BTreeMap<Seat, Instant>,
    /// What is left of each seat's reading time in this pause, once it has read.
    reading_left: BTreeMap<Seat, Duration>,
    /// The countdown was already given [`pause::RESUME_AFTER_READING`] in this pause.
    resumed_with_floor: bool,
    /// When the last game event happened: the turn to act began then.
    turn_since: Instant,
    /// The move clock of this seat ran out at this game state: a bot of this level makes the move.
    clock_move: Option<(Seat, u64, Level)>,
    /// When the last nudge was sent.
    last_nudge: Option<Instant>,
    /// A bot chose to do nothing out of turn at this game state.
    passed_out_of_turn: Option<(Seat, u64)>,
    empty_since: Option<Instant>,
}

impl Core {
    /// A new, empty room of `meta`, made at `now`.
    pub fn new(meta: RoomMeta, idle: Duration, now: Instant) -> Core {
        let n = meta.rules.seats();
        let tournament = meta.tournament.as_deref().and_then(|json| match serde_json::from_str::<TableLink>(json) {
            Ok(link) => Some(link),
            Err(e) => {
                warn!(room = %meta.code, error = %e, "the room's tournament is unreadable");
                None
            }
        });
        Core {
            code: Arc::from(meta.code.as_str()),
            title: meta.title,
            rules: meta.rules,
            options: meta.options,
            master: meta.master,
            tournament,
            idle,
            participants: Vec::new(),
            host: 0,
            seats: vec![None; n],
            series: None,
            records: 0,
            seq: 0,
            last_game_seq: 0,
            // Grown as events come: most rooms in memory are quiet, and a reserved ring of
            // HISTORY events would cost tens of KiB each.
            history: VecDeque::new(),
            history_start: 0,
            chat: VecDeque::new(),
            previous_deal: None,
            counted: Vec::new(),
            thrown_in: 0,
            noted_deal: 0,
            delete_votes: BTreeSet::new(),
            viewers: BTreeMap::new(),
            holds: vec![SeatHold::default(); n],
            next_deal_asked: BTreeSet::new(),
            next_deal_at: None,
            next_deal_left: None,
            reading: BTreeMap::new(),
            reading_left: BTreeMap::new(),
            resumed_with_floor: false,
            turn_since: now,
            clock_move: None,
            last_nudge: None,
            passed_out_of_turn: None,
            empty_since: Some(now),
        }
    }

    /// Rebuilds a room by applying its stored records in order (each with the sequence number
    /// before it), at `now`. Nobody is connected afterwards: every seated person's seat is held
    /// for the grace period, and a deal that was over waits for its pause again.
    pub fn restore(meta: RoomMeta, idle: Duration, records: &[(Record, u64)], now: Instant) -> Core {
        let mut core = Core::new(meta, idle, now);
        for (record, seq_before) in records {
            core.seq = core.seq.max(*seq_before);
            core.apply(&Change::Record(record.clone()), now);
        }
        core.history.clear();
        core.history_start = core.seq;
        core.hold_absent_seats(now);
        core.reschedule(now);
        core
    }

    /// Decides `command` at `at`: the changes it makes and what the shell does for it, or the
    /// code that refuses it. Nothing changes here.
    ///
    /// # Errors
    /// The command is refused: the requester gets this code.
    pub fn decide(&self, command: Command, at: At) -> Result<Decision, ErrorCode> {
        match command {
            Command::Join { conn, kind, fresh_token } => self.decide_join(conn, kind, fresh_token),
            Command::Leave { conn } => Ok(self.decide_leave(conn)),
            Command::Request { conn, request } => self.decide_request(conn, request, at),
            Command::Tick => Ok(self.decide_tick(at.now)),
            Command::Bot { seat, game_seq, action } => Ok(self.decide_bot(seat, game_seq, action)),
        }
    }

    /// The invite code.
    pub fn code(&self) -> &Arc<str> {
        &self.code
    }

    /// The sequence number of the last event.
    pub fn seq(&self) -> u64 {
        self.seq
    }

    /// The number of records applied: the index the next stored record gets.
    pub fn records(&self) -> u64 {
        self.records
    }

    /// The series, once started.
    pub fn series(&self) -> Option<&AnyGame> {
        self.series.as_ref()
    }

    /// The room's options.
    pub fn options(&self) -> &RoomOptions {
        &self.options
    }

    /// The room's secret master seed.
    pub fn master(&self) -> &fipsen_rules::Seed {
        &self.master
    }

    /// Whether the room is a tournament table.
    pub fn is_tournament_table(&self) -> bool {
        self.tournament.is_some()
    }

    /// The connections in the room.
    pub fn viewers(&self) -> &BTreeMap<ConnId, Viewer> {
        &self.viewers
    }

    /// The seat of the participant a connection belongs to.
    pub fn seat_of_conn(&self, conn: ConnId) -> Option<Seat> {
        self.viewers.get(&conn).and_then(|v| v.participant).and_then(|p| self.seat_of(p))
    }

    /// The seat of a participant, if he has one.
    pub fn seat_of_participant(&self, participant: u32) -> Option<Seat> {
        self.seat_of(participant)
    }

    /// Seats whose absent player a bot stands in for (their own views get no prompt).
    pub fn stood_in(&self) -> Vec<Seat> {
        (0..self.seats.len()).filter(|&s| self.holds[s].stand_in.is_some()).map(|s| Seat(s as u8)).collect()
    }

    /// Events after `last` for a reconnecting client, unredacted; `None` if they are no longer
    /// all kept.
    pub fn events_after(&self, last: u64) -> Option<impl Iterator<Item = &SeqEvent>> {
        (last >= self.history_start && last <= self.seq).then(|| self.history.iter().filter(move |e| e.seq > last))
    }

    /// The newest chat lines, oldest first.
    pub fn chat(&self) -> &VecDeque<ChatLine> {
        &self.chat
    }

    /// The last action id a participant's action was accepted with.
    pub fn last_act_id(&self, participant: u32) -> Option<u64> {
        self.participants.get(participant as usize).and_then(|p| p.last_act_id)
    }

    /// The host's participant number.
    pub fn host(&self) -> u32 {
        self.host
    }

    /// Whether every seated person (bots have no say) agrees that the series be deleted,
    /// counting `extra` as agreeing too.
    fn everyone_agrees_to_delete(&self, extra: Option<u32>) -> bool {
        let mut people = self.seats.iter().flatten().filter(|&&p| self.bot_level(p).is_none()).peekable();
        people.peek().is_some() && people.all(|p| self.delete_votes.contains(p) || Some(*p) == extra)
    }

    fn seat_of(&self, participant: u32) -> Option<Seat> {
        self.seats.iter().position(|s| *s == Some(participant)).map(|s| Seat(s as u8))
    }

    fn bot_level(&self, participant: u32) -> Option<Level> {
        self.participants.get(participant as usize).and_then(|p| p.bot)
    }

    /// The level of the bot that plays `seat`: a bot sitting there, one standing in, or one
    /// making this one move because the seat's move clock ran out.
    pub fn controller(&self, seat: Seat) -> Option<Level> {
        let hold = self.holds.get(seat.index())?;
        let clocked = self
            .clock_move
            .filter(|(s, game_seq, _)| *s == seat && *game_seq == self.last_game_seq)
            .map(|(_, _, level)| level);
        hold.stand_in.or_else(|| self.seats[seat.index()].and_then(|p| self.bot_level(p))).or(clocked)
    }

    fn is_connected(&self, participant: u32) -> bool {
        self.viewers.values().any(|v| v.participant == Some(participant))
    }

    fn spectator_count(&self) -> u32 {
        self.viewers.values().filter(|v| v.participant.is_none()).count() as u32
    }

    fn name_of(&self, participant: u32) -> String {
        self.participants.get(participant as usize).map(|p| p.name.clone()).unwrap_or_default()
    }

    /// The next deal is due between deals: a deal is over, the series is not, and a tournament
    /// table still has deals to play.
    fn between_deals(&self) -> bool {
        self.series.as_ref().is_some_and(|s| s.deal_over() && !s.series_over()) && !self.table_done()
    }
}
