//! The room core: the state of one table and its rules of the table, without I/O.
//!
//! [`Core::decide`] checks a [`Command`] against the state at a given time and answers with the
//! [`Change`]s it makes (nothing is changed yet) and the [`Effect`]s the shell carries out for
//! it, or with the [`ErrorCode`] that refuses it, in which case nothing changes. [`Core::apply`]
//! makes one change and gives the room events it caused, numbered. A change is either a
//! [`Record`](crate::room::Record), which the shell stores **before** applying it, or a [`Passing`] fact (who is
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

pub use apply::start_series;
pub use bots::BotCall;
pub use decision::{At, Change, Command, Decision, Effect, Passing};

use super::link::ConnId;
use super::record::{Damaged, ReadRecord};
use crate::room::table::TableLink;
use crate::storage::RoomMeta;

/// Events kept for reconnecting clients.
pub const HISTORY: usize = 512;
/// Chat lines kept with the room and sent on joining.
const CHAT_LINES: usize = 50;
/// How often at most the room is told the spectators' count: the changes in between are told
/// together.
pub const AUDIENCE_EVERY: Duration = Duration::from_secs(1);
/// Most spectators a room lets watch at once unless the operator says otherwise
/// (`--max-spectators`).
pub const DEFAULT_AUDIENCE_CAP: u32 = 500;
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
    /// The people (not bots) who sat at the table since the series started: seated when it
    /// started, or at a seat taken later. The series is theirs: it is deleted only when all of
    /// them agree, whether they sit now or not.
    series_people: BTreeSet<u32>,
    /// The room the host opened to play again, once he did.
    rematch: Option<String>,
    /// The rows of the deal index made as deals end, until the room's task stores them
    /// ([`crate::room::series_index`]).
    index: crate::room::deal_index::Indexer,

    // ----- passing: who is here, and the timers -----
    /// The connections in the room (a hash map: a tree's node would reserve room for eleven
    /// connections in every room, most of it unused).
    viewers: HashMap<ConnId, Viewer>,
    /// How many of `viewers` are spectators, kept as they come and go, so that the room's
    /// state (every snapshot and update) does not count them.
    spectators: u32,
    /// Each participant's connections among `viewers` (a participant with none is absent).
    present: HashMap<u32, u32>,
    /// The names the viewers go by, lowercased, with how many go by each: a newcomer's name
    /// is checked against them without reading every viewer.
    names_here: HashMap<String, u32>,
    /// The spectators' count changed: it is told to the room at this time, with whatever other
    /// changes came meanwhile ([`AUDIENCE_EVERY`]).
    audience_due: Option<Instant>,
    /// The spectators' count last told to the room.
    audience_told: u32,
    /// Most spectators at once (the operator's `--max-spectators`).
    audience_cap: u32,
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
            series_people: BTreeSet::new(),
            rematch: None,
            index: crate::room::deal_index::Indexer::default(),
            viewers: HashMap::new(),
            spectators: 0,
            present: HashMap::new(),
            names_here: HashMap::new(),
            audience_due: None,
            audience_told: 0,
            audience_cap: DEFAULT_AUDIENCE_CAP,
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

    /// Rebuilds a room by applying its stored records in order, at `now`, exactly as they were
    /// acknowledged ([`Core::restore_record`]). Nobody is connected afterwards: every seated
    /// person's seat is held for the grace period, and a deal that was over waits for its pause
    /// again.
    ///
    /// # Errors
    /// The creation row or a record does not rebuild what was acknowledged (see [`Damaged`]):
    /// the room must stay closed rather than come back different.
    pub fn restore(meta: RoomMeta, idle: Duration, records: &[ReadRecord], now: Instant) -> Result<Core, Damaged> {
        Core::restore_indexing(meta, idle, records, now, 0)
    }

    /// [`Core::restore`], making the deal index's rows of the deals after deal `indexed` (those
    /// the stored index lacks) for the room's task to store ([`Core::take_index`]).
    ///
    /// # Errors
    /// As [`Core::restore`].
    pub fn restore_indexing(
        meta: RoomMeta,
        idle: Duration,
        records: &[ReadRecord],
        now: Instant,
        indexed: u32,
    ) -> Result<Core, Damaged> {
        Core::check_creation(&meta)?;
        let mut core = Core::new(meta, idle, now);
        core.index = crate::room::deal_index::Indexer::after(indexed);
        for read in records {
            core.restore_record(read, now)?;
        }
        core.history.clear();
        core.history_start = core.seq;
        core.hold_absent_seats(now);
        core.reschedule(now);
        Ok(core)
    }

    /// Checks a stored room's creation row before it is rebuilt: rules the rules crate accepts,
    /// and a tournament link that reads (a table rebuilt without it would deal other cards).
    ///
    /// # Errors
    /// [`Damaged::Creation`], naming the field.
    pub fn check_creation(meta: &RoomMeta) -> Result<(), Damaged> {
        meta.rules.validate().map_err(|e| Damaged::Creation { field: "rules", reason: e.to_string() })?;
        if let Some(json) = &meta.tournament {
            serde_json::from_str::<TableLink>(json)
                .map_err(|e| Damaged::Creation { field: "tournament", reason: e.to_string() })?;
        }
        Ok(())
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

    /// The deal index's rows made since they were last taken, to store
    /// ([`crate::room::series_index`]).
    pub fn take_index(&mut self) -> Vec<crate::storage::DealEntry> {
        self.index.take()
    }

    /// Rows taken by [`Core::take_index`] that could not be stored: kept to store with the next.
    pub fn put_back_index(&mut self, rows: Vec<crate::storage::DealEntry>) {
        self.index.put_back(rows);
    }

    /// The participant at each seat.
    pub fn seated(&self) -> &[Option<u32>] {
        &self.seats
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
    /// Whether everyone whose series it is agrees to delete it (`extra` counted as agreeing):
    /// once the series started, every person who sat at the table since, seated now or not (a
    /// newcomer in an absent player's seat does not speak for him); before, the people seated.
    fn everyone_agrees_to_delete(&self, extra: Option<u32>) -> bool {
        let agrees = |p: &u32| self.delete_votes.contains(p) || Some(*p) == extra;
        if self.series.is_some() {
            return !self.series_people.is_empty() && self.series_people.iter().all(agrees);
        }
        let mut people = self.seats.iter().flatten().filter(|&&p| self.bot_level(p).is_none()).peekable();
        people.peek().is_some() && people.all(agrees)
    }

    /// Whether `participant` has a say in deleting the series: a person seated now, or one who
    /// sat at the table since the series started.
    fn may_vote_to_delete(&self, participant: u32, seated: bool) -> bool {
        (seated && self.bot_level(participant).is_none()) || self.series_people.contains(&participant)
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
        self.present.contains_key(&participant)
    }

    fn spectator_count(&self) -> u32 {
        self.spectators
    }

    /// Lets at most `cap` spectators watch at once (the operator's `--max-spectators`).
    pub fn set_audience_cap(&mut self, cap: u32) {
        self.audience_cap = cap;
    }

    /// A connection comes in: kept with the counts of who is here.
    fn add_viewer(&mut self, conn: ConnId, viewer: Viewer) {
        self.remove_viewer(conn);
        match viewer.participant {
            Some(p) => *self.present.entry(p).or_insert(0) += 1,
            None => self.spectators += 1,
        }
        *self.names_here.entry(viewer.name.to_lowercase()).or_insert(0) += 1;
        self.viewers.insert(conn, viewer);
    }

    /// A connection goes: taken out of the counts of who is here.
    fn remove_viewer(&mut self, conn: ConnId) -> Option<Viewer> {
        let viewer = self.viewers.remove(&conn)?;
        match viewer.participant {
            Some(p) => {
                if let Some(n) = self.present.get_mut(&p) {
                    *n -= 1;
                    if *n == 0 {
                        self.present.remove(&p);
                    }
                }
            }
            None => self.spectators = self.spectators.saturating_sub(1),
        }
        let name = viewer.name.to_lowercase();
        if let Some(n) = self.names_here.get_mut(&name) {
            *n -= 1;
            if *n == 0 {
                self.names_here.remove(&name);
            }
        }
        Some(viewer)
    }

    /// The spectators' count changed at `now`: it is told to the room with the next
    /// [`AUDIENCE_EVERY`] (a crowd coming in costs the room one update a second, not one for
    /// each of them).
    fn audience_changed(&mut self, now: Instant) {
        if self.audience_due.is_none() {
            self.audience_due = Some(now + AUDIENCE_EVERY);
        }
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
