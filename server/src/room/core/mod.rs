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
//! Its parts, each a file: `seating` (joining, seats, bots, the host), `pause` (the time
//! between deals: asking for the next deal, reading, nudges), `timers` (deadlines: grace
//! periods, the move clock, the next deal), `bots` (which bot acts and when), `apply` (the
//! one place the state changes), `views` (the room as its frames, the lobby and `my_rooms`
//! show it) and `tournament` (a tournament table's results).

mod apply;
mod bots;
mod decision;
mod pause;
mod play;
mod rematch;
mod requests;
mod seating;
mod timers;
mod tournament;
mod views;

#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::sync::Arc;
use std::time::{Duration, Instant};

use fipsen_bots::Level;
use fipsen_bots::games::FinishedDeal;
use fipsen_protocol::{ChatLine, ErrorCode, RoomOptions, SeqEvent};
use fipsen_rules::{AnyGame, GameRules, Seat};
use tracing::warn;

pub use bots::BotCall;
pub use decision::{At, Change, Command, Decision, Effect, Passing};

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
    /// When the request that brought it in was first seen ([`crate::room::request_time`]).
    pub since: u64,
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
    /// The room the host opened to play again, once he did.
    rematch: Option<String>,

    // ----- passing: who is here, and the timers -----
    /// The connections in the room (a hash map: a tree's node would reserve room for eleven
    /// connections in every room, most of it unused).
    viewers: HashMap<ConnId, Viewer>,
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
            rematch: None,
            viewers: HashMap::new(),
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
            Command::Join { conn, kind, fresh_token, seen } => self.decide_join(conn, kind, fresh_token, seen),
            Command::Leave { conn } => Ok(self.decide_leave(conn)),
            Command::Request { conn, request } => self.decide_request(conn, request, at),
            Command::Tick => Ok(self.decide_tick(at.now)),
            Command::Bot { seat, game_seq, action } => Ok(self.decide_bot(seat, game_seq, action)),
            Command::Rematched { room } => Ok(self.decide_rematched(room)),
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
    pub fn viewers(&self) -> &HashMap<ConnId, Viewer> {
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

    /// The room's rules.
    pub fn rules(&self) -> &GameRules {
        &self.rules
    }

    /// The room's title.
    pub fn title(&self) -> &str {
        &self.title
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
