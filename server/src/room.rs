//! One room: a task that owns the series, the seats, the spectators and the chat.
//!
//! Connections talk to the room over a bounded channel ([`RoomCommand`]); the room answers
//! through each connection's own bounded outbound queue, and drops a connection whose queue is
//! full. Every input that changes the room is a [`Record`]: it is checked, **stored**, and only
//! then applied, acknowledged and broadcast. Replaying the stored records rebuilds the room, so
//! a restarted server continues exactly where the last acknowledged action left it.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use fipsen_bots::Level;
use fipsen_bots::games::FinishedDeal;
use fipsen_protocol::{
    ChatLine, CloseCode, ErrorCode, LobbyRoom, MAX_CHAT_CHARS, MAX_READING_SECONDS, MyRoom, NUDGE_AFTER_SECONDS,
    NUDGE_EVERY_SECONDS, Role, RoomEvent, RoomOptions, RoomState, RoomStatus, SeatInfo, SeqEvent, ServerMessage,
    TableOfTournament, TurnClock, You,
};
use fipsen_rules::{AnyGame, DealSeeds, GameAction, GameRules, RuleError, Seat};
use fipsen_tournament::DealResult;
use serde::{Deserialize, Serialize};
use tokio::sync::{Semaphore, mpsc, oneshot, watch};
use tokio::task::JoinHandle;
use tracing::{debug, info, warn};

use crate::frames::{Base, UpdateFrames, redact};
use crate::metrics::{Metrics, inc};
use crate::registry::{Registry, clean_text};
use crate::secrets;
use crate::storage::{ROOM_RECORD_FORMAT, RoomMeta, Storage, StoredRecord, StoredRoom};
use crate::tournaments::{TableLink, TableReport};

/// A connection's number, unique in the process.
pub type ConnId = u64;

/// Events kept for reconnecting clients.
const HISTORY: usize = 512;
/// Chat lines kept with the room and sent on joining.
const CHAT_LINES: usize = 50;
/// Recent action ids remembered per player, to acknowledge a resent action again.
const ACKED_IDS: usize = 32;
/// The most chat a `joined` frame carries, in bytes of its `chat` list as sent: the newest
/// lines that fit.
const CHAT_JOIN_BYTES: usize = 16 * 1024;
/// The most missed events a `joined` frame carries, in bytes of JSON; a longer gap is answered
/// with a snapshot (`resync`) instead.
const MISSED_BYTES: usize = 64 * 1024;
/// The least time left on the countdown to the next deal when the last reader is done (given
/// once a pause: later readers resume it with what it has left).
const RESUME_AFTER_READING: Duration = Duration::from_secs(3);
/// Chat lines a connection may send per [`CHAT_WINDOW`].
const CHAT_BURST: f64 = 5.0;
const CHAT_WINDOW: Duration = Duration::from_secs(10);

/// A frame on its way to one connection.
#[derive(Debug, Clone)]
pub enum Outgoing {
    /// A JSON text frame (shared by every viewer who gets the same one).
    Text(Arc<str>),
    /// Close the connection with this code after the frames before it.
    Close(CloseCode),
}

/// The room's end of a connection: its outbound queue and its kill switch.
#[derive(Debug, Clone)]
pub struct ConnLink {
    /// The connection's number.
    pub id: ConnId,
    /// The bounded outbound queue.
    pub tx: mpsc::Sender<Outgoing>,
    /// Set to close the connection at once (bypassing a full queue).
    pub kick: Arc<Kick>,
    /// The address the client connects from (for the limits each address has).
    pub addr: std::net::IpAddr,
}

/// A connection's kill switch: set once, with the close code, by whoever closes first (the
/// room, the reader or the writer), and awaited by the others. (A `watch` channel would do
/// the same at several times the bytes, kept for every connection's whole life.)
#[derive(Debug, Default)]
pub struct Kick {
    code: std::sync::Mutex<Option<CloseCode>>,
    notify: tokio::sync::Notify,
}

impl Kick {
    /// Sets the switch with this code unless it is already set; true if this call set it.
    pub fn set(&self, code: CloseCode) -> bool {
        {
            let mut current = self.code.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            if current.is_some() {
                return false;
            }
            *current = Some(code);
        }
        self.notify.notify_waiters();
        true
    }

    /// The code, once set.
    pub fn code(&self) -> Option<CloseCode> {
        *self.code.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Waits until the switch is set, and gives its code.
    pub async fn wait(&self) -> CloseCode {
        loop {
            let notified = self.notify.notified();
            tokio::pin!(notified);
            // Registered before the check, so that a `set` between the two is not missed.
            notified.as_mut().enable();
            if let Some(code) = self.code() {
                return code;
            }
            notified.await;
        }
    }
}

impl ConnLink {
    /// Queues a frame; a full queue means the client does not read: it is dropped.
    /// Returns false if the connection is gone or was dropped.
    pub fn send(&self, frame: Arc<str>, metrics: &Metrics) -> bool {
        match self.tx.try_send(Outgoing::Text(frame)) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                inc(&metrics.slow_clients);
                metrics.error("close/too_slow");
                self.close_now(CloseCode::TooSlow);
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => false,
        }
    }

    /// Closes the connection without waiting for its queue.
    pub fn close_now(&self, code: CloseCode) {
        self.kick.set(code);
    }
}

/// How a connection enters the room.
#[derive(Debug)]
pub enum JoinKind {
    /// As a player, taking the first free seat (the creator takes seat 0 and is host).
    Player {
        /// The player's name.
        name: String,
        /// A seat token the client holds for this room: if it is valid, the player comes back
        /// as with `Resume` instead of taking a second seat.
        token: Option<String>,
    },
    /// As a spectator.
    Spectator {
        /// The spectator's name.
        name: String,
    },
    /// With a seat token, after a lost connection.
    Resume {
        /// The token.
        token: String,
        /// The last sequence number the client saw.
        last_seq: Option<u64>,
    },
}

/// Why a join did not happen.
#[derive(Debug)]
pub enum JoinRefusal {
    /// Refused, with this code.
    Refused(ErrorCode),
    /// The room closed in the meantime; open it again and retry.
    Closed,
}

/// A message for a room from a connection in it.
#[derive(Debug)]
pub enum RoomRequest {
    /// `take_seat`.
    TakeSeat(Seat),
    /// `leave_seat`.
    LeaveSeat,
    /// `start`.
    Start,
    /// `set_public`.
    SetPublic(bool),
    /// `act`.
    Act {
        /// The client's id.
        id: u64,
        /// The last sequence number the client saw.
        seq: u64,
        /// The action, as JSON: read as an action of the room's game.
        action: serde_json::Value,
    },
    /// `next_deal`.
    NextDeal,
    /// `chat`.
    Chat(String),
    /// `add_bot`.
    AddBot {
        /// The seat.
        seat: Seat,
        /// Its level.
        level: Level,
    },
    /// `remove_bot`.
    RemoveBot(Seat),
    /// `review`: of the deal just ended, or of a finished deal by its number.
    Review(Option<u32>),
    /// `nudge`.
    Nudge,
    /// `reading`.
    Reading(bool),
    /// `replay`: the replay of a finished deal.
    Replay(u32),
    /// `options`: Wippen's moves with a hand card and a choice of table piles.
    Options {
        /// The hand card.
        card: fipsen_rules::Card,
        /// The piles.
        piles: Vec<fipsen_rules::wippen::PileRef>,
    },
    /// `share_link`: the key of the series page.
    ShareLink,
    /// `delete_series`: a seated player's agreement to delete the series, or its withdrawal.
    DeleteSeries(bool),
}

/// What a room task is told.
#[derive(Debug)]
pub enum RoomCommand {
    /// A connection enters.
    Join {
        /// The connection.
        link: ConnLink,
        /// How.
        kind: JoinKind,
        /// Answered once the `joined` frame is queued (or with the refusal).
        reply: oneshot::Sender<Result<(), JoinRefusal>>,
    },
    /// A request from a connection in the room.
    Request {
        /// The connection.
        conn: ConnId,
        /// What it asks.
        request: RoomRequest,
        /// When the server read it (for the latency metric).
        received: Instant,
    },
    /// A connection leaves (closed, or `leave_room`).
    Leave {
        /// The connection.
        conn: ConnId,
        /// Answered once the connection is out of the room: no frame of the room follows.
        reply: Option<oneshot::Sender<()>>,
    },
    /// A player's summary of the room, for `my_rooms`.
    Summary {
        /// The participant.
        participant: u32,
        /// The answer.
        reply: oneshot::Sender<Option<MyRoom>>,
    },
    /// The room as the lobby would list it, for `peek`.
    Peek {
        /// The answer.
        reply: oneshot::Sender<LobbyRoom>,
    },
}

/// An input that changed the room, as stored. Replaying them in order rebuilds the room.
///
/// A game action is a [`GameAction`]; as read from storage it is JSON (`Record<Value>`) until
/// [`Record::read_action`] reads it as an action of the room's game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "record", rename_all = "snake_case")]
pub enum Record<A = GameAction> {
    /// A player joined (and sat down, if a seat was free).
    Joined {
        /// His number.
        participant: u32,
        /// His name.
        name: String,
        /// SHA-256 of his seat token.
        token_hash: String,
        /// The seat he took.
        seat: Option<Seat>,
    },
    /// A player took a seat (leaving his old one, or taking over an open seat).
    Seated {
        /// Who.
        participant: u32,
        /// Where.
        seat: Seat,
    },
    /// A player left his seat before the start.
    LeftSeat {
        /// Who.
        participant: u32,
    },
    /// The series started.
    Started,
    /// Listed in the lobby or not.
    Public {
        /// Listed.
        public: bool,
    },
    /// A game action.
    Act {
        /// Who sent it.
        participant: u32,
        /// For which seat.
        seat: Seat,
        /// The client's id.
        id: u64,
        /// The action.
        action: A,
    },
    /// The next deal was dealt.
    NextDeal,
    /// A chat line.
    Chat {
        /// The line.
        line: ChatLine,
    },
    /// The host seated a bot (a participant of its own, without a token).
    BotAdded {
        /// The bot's participant number.
        participant: u32,
        /// Its seat.
        seat: Seat,
        /// Its level.
        level: Level,
        /// Its name.
        name: String,
    },
    /// The host took the bot at this seat off it.
    BotRemoved {
        /// The seat.
        seat: Seat,
    },
    /// The host was gone past his grace period: another player is host now.
    HostChanged {
        /// The new host.
        participant: u32,
    },
    /// A seated player agreed (or no longer agrees) that the series be deleted.
    DeleteVote {
        /// Who.
        participant: u32,
        /// Agrees or not.
        agree: bool,
    },
    /// A bot's game action, for a bot's seat or for an absent player's.
    BotAct {
        /// The seat it acted for.
        seat: Seat,
        /// The action.
        action: A,
    },
}

/// A stored record this build cannot read: of a format it does not know (written by a newer
/// build) or not parseable. A room holding one is not restored: it would come back different.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("record {index} cannot be read: {reason}")]
pub struct Unreadable {
    /// The record's number in the room's log, from 0.
    pub index: usize,
    /// Why.
    pub reason: String,
}

impl Record {
    /// Reads stored record number `index` of a room of `game`.
    ///
    /// # Errors
    /// The record is of a format other than [`ROOM_RECORD_FORMAT`], or does not parse.
    pub fn read_stored(stored: &StoredRecord, index: usize, game: fipsen_rules::GameId) -> Result<Record, Unreadable> {
        if stored.format != ROOM_RECORD_FORMAT {
            return Err(Unreadable {
                index,
                reason: format!("format {} (this build reads format {ROOM_RECORD_FORMAT})", stored.format),
            });
        }
        serde_json::from_str::<Record<serde_json::Value>>(&stored.json)
            .and_then(|r| r.read_action(game))
            .map_err(|e| Unreadable { index, reason: e.to_string() })
    }

    /// Every record of a stored room, read; the first that cannot be read stops the reading.
    ///
    /// # Errors
    /// A record cannot be read (see [`Record::read_stored`]).
    pub fn read_all(stored: &StoredRoom) -> Result<Vec<Record>, Unreadable> {
        let game = stored.meta.rules.game();
        stored.records.iter().enumerate().map(|(index, record)| Record::read_stored(record, index, game)).collect()
    }
}

impl Record<serde_json::Value> {
    /// The record with its action (if any) read as an action of `game`.
    ///
    /// # Errors
    /// The stored action is not one of that game.
    pub fn read_action(self, game: fipsen_rules::GameId) -> Result<Record, serde_json::Error> {
        let action = |value| GameAction::from_json(game, value);
        Ok(match self {
            Record::Act { participant, seat, id, action: value } => {
                Record::Act { participant, seat, id, action: action(value)? }
            }
            Record::BotAct { seat, action: value } => Record::BotAct { seat, action: action(value)? },
            Record::Joined { participant, name, token_hash, seat } => {
                Record::Joined { participant, name, token_hash, seat }
            }
            Record::Seated { participant, seat } => Record::Seated { participant, seat },
            Record::LeftSeat { participant } => Record::LeftSeat { participant },
            Record::Started => Record::Started,
            Record::Public { public } => Record::Public { public },
            Record::NextDeal => Record::NextDeal,
            Record::Chat { line } => Record::Chat { line },
            Record::BotAdded { participant, seat, level, name } => Record::BotAdded { participant, seat, level, name },
            Record::BotRemoved { seat } => Record::BotRemoved { seat },
            Record::HostChanged { participant } => Record::HostChanged { participant },
            Record::DeleteVote { participant, agree } => Record::DeleteVote { participant, agree },
        })
    }
}

#[derive(Debug)]
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

#[derive(Debug)]
struct Member {
    link: ConnLink,
    participant: Option<u32>,
    name: String,
    /// The state (`{"room": …, "game": …}`) this connection was last sent: its next `update`
    /// patches it. Connections of one viewer share it after an update.
    base: Arc<Base>,
    chat_tokens: f64,
    chat_refill: Instant,
}

#[derive(Debug, Default, Clone, Copy)]
struct SeatHold {
    /// When the disconnected occupant's grace period ends.
    grace_until: Option<Instant>,
    /// The grace period has passed: another player may take the seat.
    open: bool,
    /// A bot of this level plays for the absent occupant (until he is back, between tricks).
    stand_in: Option<Level>,
}

/// A bot's next move: when it is due, and for which state of the game.
#[derive(Debug)]
struct BotTurn {
    seat: Seat,
    /// `last_game_seq` when it was planned: a later game event makes it stale.
    game_seq: u64,
    /// When it starts thinking.
    at: Instant,
    /// The decision, once it is being computed on a blocking thread.
    thinking: Option<JoinHandle<Option<GameAction>>>,
}

/// Settings every room shares.
#[derive(Debug, Clone)]
pub struct RoomEnv {
    /// Storage.
    pub storage: Storage,
    /// Metrics.
    pub metrics: Arc<Metrics>,
    /// The registry, to leave it when closing.
    pub registry: Arc<Registry>,
    /// How long a room with nobody connected stays in memory.
    pub idle: Duration,
    /// Permits to compute a bidding review (shared by every room).
    pub reviews: Arc<Semaphore>,
}

/// A room's state, owned by its task.
#[derive(Debug)]
pub struct Room {
    code: Arc<str>,
    instance: u64,
    title: String,
    rules: GameRules,
    options: RoomOptions,
    master: fipsen_rules::Seed,
    participants: Vec<Participant>,
    /// The host's participant number: the creator, until he is gone past his grace period.
    host: u32,
    seats: Vec<Option<u32>>,
    holds: Vec<SeatHold>,
    series: Option<AnyGame>,
    seq: u64,
    /// The sequence number of the last game event: actions chosen before it are stale.
    last_game_seq: u64,
    /// Recent events, unredacted, for reconnecting clients; `history_start` is the first
    /// sequence number after which every event is in it.
    history: VecDeque<SeqEvent>,
    history_start: u64,
    records: u64,
    chat: VecDeque<ChatLine>,
    members: HashMap<ConnId, Member>,
    next_deal_asked: BTreeSet<Seat>,
    next_deal_at: Option<Instant>,
    /// While someone reads between deals: the time the countdown to the next deal has left.
    next_deal_left: Option<Duration>,
    /// Seats reading the result or their review, and until when their reading may hold the
    /// next deal back.
    reading: BTreeMap<Seat, Instant>,
    /// What is left of each seat's reading time in this pause, once it has read: a seat reads
    /// at most [`MAX_READING_SECONDS`] over the whole pause, however often it starts again.
    reading_left: BTreeMap<Seat, Duration>,
    /// The countdown was already given [`RESUME_AFTER_READING`] in this pause.
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
    bot_turn: Option<BotTurn>,
    /// Reviews computed off the room's task come back here, so that a connection gets its
    /// answer only while it is still in the room (never after its `left`). Boxed: the
    /// channel reserves a block of 32 entries when it is made, and a message is over 1 KiB.
    reviews_tx: mpsc::UnboundedSender<(ConnId, Box<ServerMessage>)>,
    reviews_rx: mpsc::UnboundedReceiver<(ConnId, Box<ServerMessage>)>,
    /// The last finished deal once the next one is dealt (its number and the deal), for reviews
    /// (in the games that have one).
    previous_deal: Option<(u32, FinishedDeal)>,
    /// The tournament this room is a table of.
    tournament: Option<TableLink>,
    /// A tournament table: each deal that counted, as the running totals after it and the
    /// dealing played (0 for its first, `j` after it was thrown in `j` times).
    counted: Vec<(Vec<i32>, u32)>,
    /// A tournament table: the deals thrown in since the last deal that counted.
    thrown_in: u32,
    /// The number of the last deal whose end was noted in `counted` or `thrown_in`.
    noted_deal: u32,
    lobby: watch::Sender<Option<LobbyRoom>>,
    env: RoomEnv,
    /// The participants who agree that the series be deleted.
    delete_votes: BTreeSet<u32>,
    /// Every seated person agreed: the room is deleted and its task ends.
    deleted: bool,
}

/// Who sits at a seat of a tournament table when its room opens.
#[derive(Debug, Clone)]
pub enum TableSeat {
    /// An entrant, who comes in with his tournament token.
    Person {
        /// His name.
        name: String,
        /// SHA-256 of his entrant token.
        token_hash: String,
    },
    /// A bot entrant.
    Bot {
        /// Its name.
        name: String,
    },
}

fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

impl Room {
    /// A new, empty room (already stored by the caller).
    pub fn new(meta: RoomMeta, instance: u64, lobby: watch::Sender<Option<LobbyRoom>>, env: RoomEnv) -> Room {
        let n = meta.rules.seats();
        let (reviews_tx, reviews_rx) = mpsc::unbounded_channel();
        let tournament = meta.tournament.as_deref().and_then(|json| match serde_json::from_str::<TableLink>(json) {
            Ok(link) => Some(link),
            Err(e) => {
                warn!(room = %meta.code, error = %e, "the room's tournament is unreadable");
                None
            }
        });
        Room {
            code: Arc::from(meta.code.as_str()),
            instance,
            title: meta.title,
            rules: meta.rules,
            options: meta.options,
            master: meta.master,
            participants: Vec::new(),
            host: 0,
            seats: vec![None; n],
            holds: vec![SeatHold::default(); n],
            series: None,
            seq: 0,
            last_game_seq: 0,
            // Grown as events come: most rooms in memory are quiet, and a reserved ring of
            // HISTORY events would cost tens of KiB each.
            history: VecDeque::new(),
            history_start: 0,
            records: 0,
            chat: VecDeque::new(),
            members: HashMap::new(),
            next_deal_asked: BTreeSet::new(),
            next_deal_at: None,
            next_deal_left: None,
            reading: BTreeMap::new(),
            reading_left: BTreeMap::new(),
            resumed_with_floor: false,
            turn_since: Instant::now(),
            clock_move: None,
            last_nudge: None,
            passed_out_of_turn: None,
            empty_since: Some(Instant::now()),
            bot_turn: None,
            reviews_tx,
            reviews_rx,
            previous_deal: None,
            tournament,
            counted: Vec::new(),
            thrown_in: 0,
            noted_deal: 0,
            lobby,
            env,
            delete_votes: BTreeSet::new(),
            deleted: false,
        }
    }

    /// Seats a new tournament table and starts its series: the records a new room of the
    /// tournament is stored with (each with the sequence number before it). Every person's seat
    /// is then held for him for the grace period, as after a restart, so that a bot stands in
    /// for an entrant who never comes.
    pub fn seat_table(&mut self, seats: &[TableSeat]) -> Vec<StoredRecord> {
        let mut records: Vec<Record> = seats
            .iter()
            .enumerate()
            .map(|(i, seat)| match seat {
                TableSeat::Person { name, token_hash } => Record::Joined {
                    participant: i as u32,
                    name: name.clone(),
                    token_hash: token_hash.clone(),
                    seat: Some(Seat(i as u8)),
                },
                TableSeat::Bot { name } => Record::BotAdded {
                    participant: i as u32,
                    seat: Seat(i as u8),
                    level: Level::Normal,
                    name: name.clone(),
                },
            })
            .collect();
        records.push(Record::Started);
        let mut stored = Vec::with_capacity(records.len());
        for record in records {
            let seq_before = self.seq;
            // Serialising a record cannot fail: every map key is a string.
            let json = serde_json::to_string(&record).unwrap_or_default();
            self.apply(&record);
            self.records += 1;
            stored.push(StoredRecord { seq_before, json, format: ROOM_RECORD_FORMAT });
        }
        self.hold_absent_seats();
        stored
    }

    /// Holds every seated person's seat for the grace period (nobody is connected yet).
    fn hold_absent_seats(&mut self) {
        let grace = Instant::now() + Duration::from_secs(u64::from(self.options.grace_seconds));
        for seat in 0..self.seats.len() {
            if self.seats[seat].is_some_and(|p| self.bot_level(p).is_none() && !self.is_connected(p)) {
                self.holds[seat] = SeatHold { grace_until: Some(grace), ..SeatHold::default() };
            }
        }
    }

    /// A tournament table has played every deal it plays in its round.
    fn table_done(&self) -> bool {
        self.tournament.as_ref().is_some_and(|link| self.counted.len() >= link.deals as usize)
    }

    /// A tournament table: notes the end of the current deal, once: a deal that counted (its
    /// running totals and which dealing it was), or one more thrown-in deal.
    fn note_deal_end(&mut self) {
        if self.tournament.is_none() {
            return;
        }
        let Some(series) = &self.series else { return };
        if !series.deal_over() || series.deal_number() == self.noted_deal {
            return;
        }
        self.noted_deal = series.deal_number();
        if series.counted() as usize > self.counted.len() {
            self.counted.push((series.totals().to_vec(), self.thrown_in));
            self.thrown_in = 0;
        } else {
            self.thrown_in += 1;
        }
    }

    /// A tournament table: tells its tournament every deal that counted so far (the tournament
    /// records each once; sending them all again after a restart loses nothing and doubles
    /// nothing).
    fn report(&self) {
        let Some(link) = &self.tournament else { return };
        if self.counted.is_empty() {
            return;
        }
        let totals: Vec<Vec<i32>> = self.counted.iter().map(|(totals, _)| totals.clone()).collect();
        let mut results = DealResult::from_running_totals(link.table, &totals);
        for (result, (_, redeal)) in results.iter_mut().zip(&self.counted) {
            result.redeal = *redeal;
        }
        results.truncate(link.deals as usize);
        self.env.registry.report_table(TableReport { tournament: link.tournament.clone(), results });
    }

    /// Rebuilds a room from storage by replaying its records. Nobody is connected afterwards:
    /// every seat is held for its player for the grace period, and a deal that was over waits
    /// for its pause again.
    ///
    /// # Errors
    /// A record cannot be read: the room is not rebuilt at all (it would come back different).
    pub fn restore(
        stored: StoredRoom,
        instance: u64,
        lobby: watch::Sender<Option<LobbyRoom>>,
        env: RoomEnv,
    ) -> Result<Room, Unreadable> {
        let records = Record::read_all(&stored)?;
        let seqs: Vec<u64> = stored.records.iter().map(|r| r.seq_before).collect();
        let mut room = Room::new(stored.meta, instance, lobby, env);
        for (record, seq_before) in records.iter().zip(seqs) {
            room.records += 1;
            room.seq = room.seq.max(seq_before);
            room.apply(record);
        }
        room.history.clear();
        room.history_start = room.seq;
        room.hold_absent_seats();
        room.schedule_next_deal();
        Ok(room)
    }

    /// The invite code.
    pub fn code(&self) -> &Arc<str> {
        &self.code
    }

    /// Runs the room until it has been empty for the idle time, or every sender is gone. The
    /// room comes boxed, so that the task that runs it holds it once.
    pub async fn run(mut self: Box<Self>, mut rx: mpsc::Receiver<RoomCommand>) {
        self.publish_lobby();
        // A table restored after a crash may hold deals its tournament never stored.
        self.report();
        // The handlers' futures are boxed while they run: held inline, the largest of them
        // would make every room's task several KiB larger for its whole life, idle or not.
        loop {
            Box::pin(self.pass_host_if_gone()).await;
            self.plan_bots();
            let wake = self.next_wake();
            tokio::select! {
                command = rx.recv() => match command {
                    Some(command) => {
                        Box::pin(self.handle(command)).await;
                        if self.deleted {
                            break;
                        }
                    }
                    None => break,
                },
                () = sleep_until(wake) => {
                    Box::pin(self.on_timer()).await;
                    if self.idle_expired() {
                        break;
                    }
                }
                decision = bot_decision(&mut self.bot_turn) => Box::pin(self.on_bot_decision(decision)).await,
                Some((conn, review)) = self.reviews_rx.recv() => {
                    if self.members.contains_key(&conn) {
                        self.send_to(conn, &review);
                    }
                }
            }
        }
        if let Some(thinking) = self.bot_turn.take().and_then(|turn| turn.thinking) {
            thinking.abort();
        }
        Box::pin(self.close(&mut rx)).await;
    }

    async fn close(&mut self, rx: &mut mpsc::Receiver<RoomCommand>) {
        if !self.deleted {
            info!(room = %self.code, "closing the room in memory (kept in storage)");
            if let Err(e) = self.env.storage.set_active(self.code.clone(), false).await {
                warn!(room = %self.code, error = %e, "cannot mark the room closed");
            }
        }
        self.env.registry.forget(&self.code, self.instance);
        rx.close();
        // Whoever reached the room before it left the registry opens it again.
        while let Some(command) = rx.recv().await {
            match command {
                RoomCommand::Join { reply, .. } => {
                    let _ = reply.send(Err(JoinRefusal::Closed));
                }
                RoomCommand::Summary { participant, reply } => {
                    let _ = reply.send(self.summary(participant).filter(|_| !self.deleted));
                }
                RoomCommand::Peek { reply } => {
                    let _ = reply.send(self.info());
                }
                RoomCommand::Leave { reply, .. } => {
                    if let Some(reply) = reply {
                        let _ = reply.send(());
                    }
                }
                RoomCommand::Request { .. } => {}
            }
        }
        self.lobby.send_replace(None);
    }

    /// A tournament table plays its deals whether or not anybody is in the room (its absent
    /// players' bots stand in), since the round cannot end without it — once no seat is held
    /// for a player who may still come back (after a restart, say, every player has his grace
    /// time to return before bots play on).
    fn plays_unattended(&self) -> bool {
        self.tournament.is_some() && !self.table_done() && self.holds.iter().all(|h| h.grace_until.is_none())
    }

    /// Nobody is in the room, and nothing goes on in it.
    fn dormant(&self) -> bool {
        self.members.is_empty() && !self.plays_unattended()
    }

    fn idle_expired(&self) -> bool {
        self.dormant() && self.empty_since.is_some_and(|since| since.elapsed() >= self.env.idle)
    }

    fn next_wake(&self) -> Option<Instant> {
        let grace = self.holds.iter().filter_map(|h| h.grace_until).min();
        let idle = self.empty_since.map(|since| since + self.env.idle);
        if self.dormant() {
            // Nobody is here: the game waits (bots play only while a person is in the room).
            return [grace, idle].into_iter().flatten().min();
        }
        let bot = self.bot_turn.as_ref().filter(|turn| turn.thinking.is_none()).map(|turn| turn.at);
        let clock = self.clock_deadline().map(|(_, at)| at);
        let reading = self.reading.values().min().copied();
        [grace, idle, self.next_deal_at, bot, clock, reading].into_iter().flatten().min()
    }

    /// The seat whose move clock runs now, and when it runs out: a person's turn in a room
    /// with a clock, unless a bot already makes that move.
    fn clock_deadline(&self) -> Option<(Seat, Instant)> {
        let seconds = self.options.move_seconds?;
        let series = self.series.as_ref().filter(|s| !s.series_over() && !s.deal_over())?;
        let seat = series.turn()?;
        if self.controller(seat).is_some() {
            return None;
        }
        Some((seat, self.turn_since + Duration::from_secs(u64::from(seconds))))
    }

    async fn on_timer(&mut self) {
        let now = Instant::now();
        let mut events = Vec::new();
        let takeover = self.options.bot_takeover.filter(|_| self.series.as_ref().is_some_and(|s| !s.series_over()));
        for seat in 0..self.holds.len() {
            if self.holds[seat].grace_until.is_some_and(|t| t <= now) {
                let already = self.holds[seat].stand_in;
                let stand_in = already.or(takeover);
                self.holds[seat] = SeatHold { grace_until: None, open: true, stand_in };
                events.push(RoomEvent::SeatOpen { seat: Seat(seat as u8) });
                if let (Some(level), None) = (stand_in, already) {
                    info!(room = %self.code, seat, level = level.name(), "a bot stands in for an absent player");
                    events.push(RoomEvent::StandIn { seat: Seat(seat as u8), level });
                }
            }
        }
        if self.dormant() {
            if !events.is_empty() {
                let events = self.number(events);
                self.broadcast(&events, None);
            }
            return;
        }
        if let Some((seat, at)) = self.clock_deadline()
            && at <= now
        {
            let level = self.options.bot_takeover.unwrap_or(Level::Normal);
            info!(room = %self.code, seat = seat.0, "the move clock ran out: a bot makes the move");
            self.clock_move = Some((seat, self.last_game_seq, level));
            events.push(RoomEvent::ClockRanOut { seat, level });
        }
        events.extend(self.end_spent_reading(now));
        self.schedule_next_deal_at(now);
        if !events.is_empty() {
            let events = self.number(events);
            self.broadcast(&events, None);
        }
        if self.next_deal_at.is_some_and(|t| t <= Instant::now()) {
            self.next_deal_at = None;
            self.deal_next().await;
        }
        self.start_thinking(now);
    }

    async fn handle(&mut self, command: RoomCommand) {
        match command {
            RoomCommand::Join { link, kind, reply } => {
                let result = self.join(link, kind).await.map_err(JoinRefusal::Refused);
                let _ = reply.send(result);
            }
            RoomCommand::Request { conn, request, received } => {
                let id = match &request {
                    RoomRequest::Act { id, .. } => Some(*id),
                    _ => None,
                };
                let is_act = id.is_some();
                if let Err(code) = self.request(conn, request).await {
                    self.env.metrics.error(code.code());
                    self.send_to(conn, &ServerMessage::error(code, id));
                } else if is_act {
                    self.env.metrics.action_latency.observe(received.elapsed());
                }
            }
            RoomCommand::Leave { conn, reply } => {
                self.leave(conn);
                if let Some(reply) = reply {
                    let _ = reply.send(());
                }
            }
            RoomCommand::Summary { participant, reply } => {
                let _ = reply.send(self.summary(participant));
            }
            RoomCommand::Peek { reply } => {
                let _ = reply.send(self.info());
            }
        }
        self.schedule_next_deal();
        self.publish_lobby();
    }

    // ----- joining and leaving -----

    async fn join(&mut self, link: ConnLink, kind: JoinKind) -> Result<(), ErrorCode> {
        let conn = link.id;
        // One participant, one seat: a player joining with a token he already holds here comes
        // back as that participant instead of taking a second seat.
        let kind = match kind {
            JoinKind::Player { name, token: Some(token) } => {
                if self.token_holder(&token).is_some() {
                    JoinKind::Resume { token, last_seq: None }
                } else {
                    JoinKind::Player { name, token: None }
                }
            }
            kind => kind,
        };
        let (participant, name, missed) = match kind {
            JoinKind::Spectator { name } => {
                if !self.options.spectators_allowed {
                    return Err(ErrorCode::NoSpectators);
                }
                (None, self.unique_name(&name), None)
            }
            JoinKind::Player { .. } if self.tournament.is_some() => return Err(ErrorCode::TournamentTable),
            JoinKind::Player { name, .. } => {
                let name = self.unique_name(&name);
                let seat = self.free_seat_for_newcomer()?;
                let token = secrets::seat_token();
                let id = self.participants.len() as u32;
                let record = Record::Joined {
                    participant: id,
                    name: name.clone(),
                    token_hash: secrets::token_hash(&token),
                    seat,
                };
                let events = self.commit(record, Some((secrets::token_hash(&token), id))).await?;
                info!(room = %self.code, participant = id, seat = ?seat.map(|s| s.0), "player joined");
                self.admit(link, Some(id), name, Some(token), None);
                self.broadcast(&events, Some(conn));
                return Ok(());
            }
            JoinKind::Resume { token, last_seq } => {
                let Some(id) = self.token_holder(&token) else {
                    return Err(ErrorCode::TokenInvalid);
                };
                let name = self.name_of(id);
                // The same player on an older connection (another tab, a dead socket): replaced.
                let older: Vec<ConnId> =
                    self.members.iter().filter(|(_, m)| m.participant == Some(id)).map(|(c, _)| *c).collect();
                for old in older {
                    if let Some(member) = self.members.remove(&old) {
                        let _ = member.link.tx.try_send(Outgoing::Close(CloseCode::Replaced));
                        member.link.close_now(CloseCode::Replaced);
                    }
                }
                info!(room = %self.code, participant = id, "player resumed");
                (Some(id), name, Some(last_seq.unwrap_or(u64::MAX)).map(|s| (s, token)))
            }
        };
        let token = missed.as_ref().map(|(_, t)| t.clone());
        let last_seq = missed.map(|(s, _)| s);
        let mut events = Vec::new();
        if let Some(id) = participant {
            if let Some(seat) = self.seat_of(id) {
                // A bot standing in plays on until the trick in progress is over (`hand_back`).
                let stand_in = self.holds[seat.index()].stand_in;
                self.holds[seat.index()] = SeatHold { stand_in, ..SeatHold::default() };
                events.push(RoomEvent::Connected { seat });
            }
        } else {
            let count = self.spectator_count() + 1;
            events.push(RoomEvent::Spectators { count });
        }
        let events = self.number(events);
        self.admit(link, participant, name, token, last_seq);
        self.broadcast(&events, Some(conn));
        Ok(())
    }

    /// The person (never a bot) whose seat token this is.
    fn token_holder(&self, token: &str) -> Option<u32> {
        let hash = secrets::token_hash(token);
        self.participants.iter().find(|p| p.bot.is_none() && p.token_hash == hash).map(|p| p.id)
    }

    /// `name`, or `name (2)`, `name (3)`, … if someone in the room (a player, a bot or a
    /// spectator here now) already goes by it, so that nobody can pass for another.
    fn unique_name(&self, name: &str) -> String {
        let taken = |candidate: &str| {
            let candidate = candidate.to_lowercase();
            self.participants.iter().any(|p| p.name.to_lowercase() == candidate)
                || self.members.values().any(|m| m.name.to_lowercase() == candidate)
        };
        if !taken(name) {
            return name.to_string();
        }
        (2..).map(|n| format!("{name} ({n})")).find(|candidate| !taken(candidate)).unwrap_or_else(|| name.to_string())
    }

    /// The seat a newly joining player takes: the first free seat before the start, the first
    /// open seat after it.
    fn free_seat_for_newcomer(&self) -> Result<Option<Seat>, ErrorCode> {
        let started = self.series.is_some();
        let free = (0..self.seats.len())
            .find(|&s| self.seats[s].is_none() || (started && self.holds[s].open))
            .or_else(|| (0..self.seats.len()).find(|&s| self.bot_gives_way(Seat(s as u8))));
        match (free, started) {
            (Some(s), _) => Ok(Some(Seat(s as u8))),
            (None, true) => Err(ErrorCode::RoomStarted),
            (None, false) => Err(ErrorCode::RoomFull),
        }
    }

    /// A bot sits at `seat` and would give it up to a person now: before the series or between
    /// deals (bots fill seats until people come).
    fn bot_gives_way(&self, seat: Seat) -> bool {
        let mid_deal = self.series.as_ref().is_some_and(|s| !s.deal_over());
        !mid_deal && self.seats[seat.index()].is_some_and(|p| self.bot_level(p).is_some())
    }

    /// Adds a connection and sends it the snapshot.
    fn admit(
        &mut self,
        link: ConnLink,
        participant: Option<u32>,
        name: String,
        token: Option<String>,
        last_seq: Option<u64>,
    ) {
        let conn = link.id;
        let member = Member {
            link,
            participant,
            name,
            base: Arc::new(Base::empty()),
            chat_tokens: CHAT_BURST,
            chat_refill: Instant::now(),
        };
        self.members.insert(conn, member);
        self.empty_since = None;
        let viewer = participant.and_then(|p| self.seat_of(p));
        let (missed, resync) = match last_seq {
            None => (Vec::new(), false),
            Some(last) if last == self.seq => (Vec::new(), false),
            Some(last) if last >= self.history_start && last < self.seq => {
                let missed: Vec<SeqEvent> =
                    self.history.iter().filter(|e| e.seq > last).map(|e| redact(e, viewer)).collect();
                // A long gap (a chatty table, a long absence) is answered with the snapshot
                // alone, so that the frame stays small.
                let bytes: usize = missed.iter().map(|e| serde_json::to_string(e).map_or(0, |j| j.len())).sum();
                if bytes > MISSED_BYTES { (Vec::new(), true) } else { (missed, false) }
            }
            Some(_) => (Vec::new(), true),
        };
        let you = You {
            participant,
            name: self.members.get(&conn).map(|m| m.name.clone()).unwrap_or_default(),
            role: if participant.is_some() { Role::Player } else { Role::Spectator },
            seat: viewer,
            host: participant == Some(self.host),
            token,
            last_act_id: participant.and_then(|p| self.participants.get(p as usize)).and_then(|p| p.last_act_id),
        };
        let joined = ServerMessage::Joined {
            room: self.state(),
            you,
            seq: self.seq,
            game: self.series.as_ref().map(|s| {
                let mut view = s.view(viewer);
                if viewer.is_some_and(|v| self.holds[v.index()].stand_in.is_some()) {
                    view.clear_prompt();
                }
                view
            }),
            missed,
            resync,
            chat: self.recent_chat(),
        };
        if let ServerMessage::Joined { room, .. } = &joined {
            let prompt = viewer.is_none_or(|v| self.holds[v.index()].stand_in.is_none());
            let base = Base::now(room, self.series.as_ref(), viewer, prompt);
            if let Some(member) = self.members.get_mut(&conn) {
                member.base = Arc::new(base);
            }
        }
        self.send_to(conn, &joined);
    }

    /// The newest chat lines that fit in [`CHAT_JOIN_BYTES`] as sent (the `chat` list's JSON,
    /// escapes included), oldest first.
    fn recent_chat(&self) -> Vec<ChatLine> {
        // The brackets of the list, and a comma before every line but the first.
        let mut bytes = 1;
        let mut lines: Vec<ChatLine> = self
            .chat
            .iter()
            .rev()
            .take_while(|line| {
                bytes += 1 + serde_json::to_string(line).map_or(usize::MAX / 2, |json| json.len());
                bytes <= CHAT_JOIN_BYTES
            })
            .cloned()
            .collect();
        lines.reverse();
        lines
    }

    fn leave(&mut self, conn: ConnId) {
        let Some(member) = self.members.remove(&conn) else { return };
        let mut events = Vec::new();
        match member.participant {
            Some(id) => {
                let still_here = self.members.values().any(|m| m.participant == Some(id));
                if let (Some(seat), false) = (self.seat_of(id), still_here) {
                    let grace = Duration::from_secs(u64::from(self.options.grace_seconds));
                    let stand_in = self.holds[seat.index()].stand_in;
                    self.holds[seat.index()] =
                        SeatHold { grace_until: Some(Instant::now() + grace), open: false, stand_in };
                    events.push(RoomEvent::Disconnected { seat });
                }
            }
            None => events.push(RoomEvent::Spectators { count: self.spectator_count() }),
        }
        if self.members.is_empty() {
            self.empty_since = Some(Instant::now());
        }
        let events = self.number(events);
        self.broadcast(&events, None);
    }

    // ----- requests -----

    async fn request(&mut self, conn: ConnId, request: RoomRequest) -> Result<(), ErrorCode> {
        let Some(member) = self.members.get(&conn) else { return Err(ErrorCode::NotInRoom) };
        let participant = member.participant;
        let seat = participant.and_then(|p| self.seat_of(p));
        let reseats = matches!(
            request,
            RoomRequest::TakeSeat(_)
                | RoomRequest::LeaveSeat
                | RoomRequest::Start
                | RoomRequest::SetPublic(_)
                | RoomRequest::AddBot { .. }
                | RoomRequest::RemoveBot(_)
                | RoomRequest::DeleteSeries(_)
        );
        if reseats && self.tournament.is_some() {
            return Err(ErrorCode::TournamentTable);
        }
        match request {
            RoomRequest::TakeSeat(target) => {
                let id = participant.ok_or(ErrorCode::NotSeated)?;
                if target.index() >= self.seats.len() {
                    return Err(ErrorCode::SeatInvalid);
                }
                let started = self.series.is_some();
                let occupant = self.seats[target.index()];
                if occupant == Some(id) {
                    return Err(ErrorCode::SeatTaken);
                }
                if occupant.is_some() && !self.holds[target.index()].open && !self.bot_gives_way(target) {
                    return Err(ErrorCode::SeatTaken);
                }
                if started && seat.is_some() {
                    return Err(ErrorCode::RoomStarted);
                }
                let events = self.commit(Record::Seated { participant: id, seat: target }, None).await?;
                self.broadcast(&events, None);
            }
            RoomRequest::LeaveSeat => {
                let id = participant.ok_or(ErrorCode::NotSeated)?;
                if seat.is_none() {
                    return Err(ErrorCode::NotSeated);
                }
                if self.series.is_some() {
                    return Err(ErrorCode::RoomStarted);
                }
                let events = self.commit(Record::LeftSeat { participant: id }, None).await?;
                self.broadcast(&events, None);
            }
            RoomRequest::Start => {
                if participant != Some(self.host) {
                    return Err(ErrorCode::NotHost);
                }
                if self.series.is_some() {
                    return Err(ErrorCode::RoomStarted);
                }
                if self.seats.iter().any(Option::is_none) {
                    return Err(ErrorCode::SeatsNotFull);
                }
                let events = self.commit(Record::Started, None).await?;
                info!(room = %self.code, "series started");
                self.broadcast(&events, None);
            }
            RoomRequest::SetPublic(public) => {
                if participant != Some(self.host) {
                    return Err(ErrorCode::NotHost);
                }
                let events = self.commit(Record::Public { public }, None).await?;
                self.broadcast(&events, None);
            }
            RoomRequest::Act { id, seq, action } => {
                let (Some(p), Some(seat)) = (participant, seat) else { return Err(ErrorCode::NotSeated) };
                self.act(conn, p, seat, id, seq, action).await?;
            }
            RoomRequest::NextDeal => {
                let Some(seat) = seat else { return Err(ErrorCode::NotSeated) };
                let Some(series) = &self.series else { return Err(ErrorCode::RoomNotStarted) };
                if series.series_over() || self.table_done() {
                    return Err(ErrorCode::Rule(RuleError::SeriesOver));
                }
                if !series.deal_over() {
                    return Err(ErrorCode::Rule(RuleError::DealNotOver));
                }
                if self.next_deal_asked.insert(seat) {
                    let mut events = vec![RoomEvent::NextDealAsked { seat }];
                    if self.stop_reading(seat, Instant::now()) {
                        events.push(RoomEvent::Reading { seat, reading: false });
                    }
                    let events = self.number(events);
                    self.broadcast(&events, None);
                }
                if self.every_player_asked() {
                    self.deal_next().await;
                }
            }
            RoomRequest::Chat(text) => {
                let text = clean_text(&text);
                if text.is_empty() {
                    return Err(ErrorCode::ChatEmpty);
                }
                if text.chars().count() > MAX_CHAT_CHARS {
                    return Err(ErrorCode::ChatTooLong);
                }
                if let Some(member) = self.members.get_mut(&conn) {
                    let now = Instant::now();
                    let refill = now.duration_since(member.chat_refill).as_secs_f64() / CHAT_WINDOW.as_secs_f64();
                    member.chat_tokens = (member.chat_tokens + refill * CHAT_BURST).min(CHAT_BURST);
                    member.chat_refill = now;
                    if member.chat_tokens < 1.0 {
                        return Err(ErrorCode::RateLimited);
                    }
                    member.chat_tokens -= 1.0;
                }
                let from = self.members.get(&conn).map(|m| m.name.clone()).unwrap_or_default();
                let role = if participant.is_some() { Role::Player } else { Role::Spectator };
                let line = ChatLine { from, seat, role, text, at: now_ms() };
                let events = self.commit(Record::Chat { line }, None).await?;
                self.broadcast(&events, None);
            }
            RoomRequest::AddBot { seat: target, level } => {
                self.check_bot_change(participant, target)?;
                let occupant = self.seats[target.index()];
                if occupant.is_some() && !self.holds[target.index()].open {
                    return Err(ErrorCode::SeatTaken);
                }
                let record = Record::BotAdded {
                    participant: self.participants.len() as u32,
                    seat: target,
                    level,
                    name: self.unique_name(&format!("Bot {}", target.0 + 1)),
                };
                let events = self.commit(record, None).await?;
                info!(room = %self.code, seat = target.0, level = level.name(), "bot added");
                self.broadcast(&events, None);
            }
            RoomRequest::RemoveBot(target) => {
                self.check_bot_change(participant, target)?;
                if self.seats[target.index()].and_then(|p| self.bot_level(p)).is_none() {
                    return Err(ErrorCode::NotABot);
                }
                let events = self.commit(Record::BotRemoved { seat: target }, None).await?;
                info!(room = %self.code, seat = target.0, "bot removed");
                self.broadcast(&events, None);
            }
            RoomRequest::Review(deal) => self.review(conn, seat, deal)?,
            RoomRequest::Nudge => self.nudge(seat)?,
            RoomRequest::Reading(reading) => self.set_reading(seat, reading, Instant::now())?,
            RoomRequest::Replay(deal) => self.replay(conn, seat, deal)?,
            RoomRequest::ShareLink => {
                if seat.is_none() && !self.options.public_replays {
                    return Err(ErrorCode::ReplayUnavailable);
                }
                let key = secrets::share_key(&self.master);
                self.send_to(conn, &ServerMessage::ShareLink { room: self.code.to_string(), key });
            }
            RoomRequest::DeleteSeries(agree) => {
                let (Some(p), Some(_)) = (participant, seat) else { return Err(ErrorCode::NotSeated) };
                if self.delete_votes.contains(&p) != agree {
                    let events = self.commit(Record::DeleteVote { participant: p, agree }, None).await?;
                    self.broadcast(&events, None);
                }
                if self.everyone_agrees_to_delete() {
                    self.delete().await?;
                }
            }
            RoomRequest::Options { card, piles } => {
                let seat = seat.ok_or(ErrorCode::NotSeated)?;
                let series = self.series.as_ref().ok_or(ErrorCode::RoomNotStarted)?;
                let moves = series.wippen_options(seat, card, &piles).map_err(ErrorCode::Rule)?;
                self.send_to(conn, &ServerMessage::Options { card, piles, moves });
            }
        }
        Ok(())
    }

    /// A seated player reminds the person whose turn it is, once that turn has lasted a while;
    /// between deals, the connected players who have not asked for the next deal yet.
    /// Whether every seated person (bots have no say) agrees that the series be deleted.
    fn everyone_agrees_to_delete(&self) -> bool {
        let mut people = self.seats.iter().flatten().filter(|&&p| self.bot_level(p).is_none()).peekable();
        people.peek().is_some() && people.all(|p| self.delete_votes.contains(p))
    }

    /// Deletes the room and its series from storage for good, tells everyone in it, and ends
    /// the room's task. If storage fails, nothing is deleted and the room goes on.
    async fn delete(&mut self) -> Result<(), ErrorCode> {
        if let Err(e) = self.env.storage.delete_room(self.code.clone()).await {
            warn!(room = %self.code, error = %e, "cannot delete the room");
            return Err(ErrorCode::Storage);
        }
        info!(room = %self.code, "deleted by its players' agreement");
        let message = ServerMessage::Deleted { room: self.code.to_string() };
        let members: Vec<ConnId> = self.members.keys().copied().collect();
        for conn in members {
            self.send_to(conn, &message);
        }
        self.members.clear();
        self.deleted = true;
        Ok(())
    }

    fn nudge(&mut self, by: Option<Seat>) -> Result<(), ErrorCode> {
        let by = by.ok_or(ErrorCode::NotSeated)?;
        let series = self.series.as_ref().filter(|s| !s.series_over()).ok_or(ErrorCode::NudgeNobody)?;
        let person = |seat: Seat| seat != by && self.controller(seat).is_none();
        let targets: Vec<Seat> = if series.deal_over() {
            (0..self.seats.len())
                .map(|s| Seat(s as u8))
                .filter(|&s| person(s) && !self.next_deal_asked.contains(&s))
                .filter(|s| self.seats[s.index()].is_some_and(|p| self.is_connected(p)))
                .collect()
        } else {
            series.turn().filter(|&seat| person(seat)).into_iter().collect()
        };
        if targets.is_empty() {
            return Err(ErrorCode::NudgeNobody);
        }
        let now = Instant::now();
        let too_early = now.duration_since(self.turn_since) < Duration::from_secs(u64::from(NUDGE_AFTER_SECONDS));
        let too_often = self
            .last_nudge
            .is_some_and(|last| now.duration_since(last) < Duration::from_secs(u64::from(NUDGE_EVERY_SECONDS)));
        if too_early || too_often {
            return Err(ErrorCode::NudgeTooSoon);
        }
        self.last_nudge = Some(now);
        let events = self.number(targets.into_iter().map(|seat| RoomEvent::Nudged { seat, by }).collect());
        self.broadcast(&events, None);
        Ok(())
    }

    /// A seated player starts or stops reading between deals; the countdown to the next deal
    /// stands still while anyone reads ([`Room::schedule_next_deal`]). Each seat has
    /// [`MAX_READING_SECONDS`] of reading for the whole pause: once they are spent, starting
    /// again changes nothing (the seat is not shown as reading).
    fn set_reading(&mut self, seat: Option<Seat>, reading: bool, now: Instant) -> Result<(), ErrorCode> {
        let seat = seat.ok_or(ErrorCode::NotSeated)?;
        let changed = if reading {
            let Some(series) = &self.series else { return Err(ErrorCode::RoomNotStarted) };
            if series.series_over() || self.table_done() {
                return Err(ErrorCode::Rule(RuleError::SeriesOver));
            }
            if !series.deal_over() {
                return Err(ErrorCode::Rule(RuleError::DealNotOver));
            }
            let left =
                self.reading_left.get(&seat).copied().unwrap_or(Duration::from_secs(u64::from(MAX_READING_SECONDS)));
            !left.is_zero() && self.reading.insert(seat, now + left).is_none()
        } else {
            // Done reading: harmless when the next deal has come meanwhile.
            self.stop_reading(seat, now)
        };
        if changed {
            self.schedule_next_deal_at(now);
            let events = self.number(vec![RoomEvent::Reading { seat, reading }]);
            self.broadcast(&events, None);
        }
        Ok(())
    }

    /// `seat` stops reading (if it read), keeping what is left of its reading time for this
    /// pause; true if it was reading.
    fn stop_reading(&mut self, seat: Seat, now: Instant) -> bool {
        let Some(until) = self.reading.remove(&seat) else { return false };
        self.reading_left.insert(seat, until.saturating_duration_since(now));
        true
    }

    /// Ends the reading of every seat whose reading time for this pause is spent.
    fn end_spent_reading(&mut self, now: Instant) -> Vec<RoomEvent> {
        let done: Vec<Seat> = self.reading.iter().filter(|(_, until)| **until <= now).map(|(s, _)| *s).collect();
        done.into_iter()
            .map(|seat| {
                self.stop_reading(seat, now);
                RoomEvent::Reading { seat, reading: false }
            })
            .collect()
    }

    /// Whether `participant` may add or remove a bot at `seat` now: the host, a real seat,
    /// before the series or between deals.
    fn check_bot_change(&self, participant: Option<u32>, seat: Seat) -> Result<(), ErrorCode> {
        if participant != Some(self.host) {
            return Err(ErrorCode::NotHost);
        }
        if seat.index() >= self.seats.len() {
            return Err(ErrorCode::SeatInvalid);
        }
        match &self.series {
            None => Ok(()),
            Some(series) if series.series_over() => Err(ErrorCode::Rule(RuleError::SeriesOver)),
            Some(series) if series.deal_over() => Ok(()),
            Some(_) => Err(ErrorCode::BotMidDeal),
        }
    }

    /// Starts computing the review of `seat`'s hand in the last finished deal; the answer goes
    /// straight to the connection's queue when it is ready.
    fn review(&mut self, conn: ConnId, seat: Option<Seat>, asked: Option<u32>) -> Result<(), ErrorCode> {
        let seat = seat.ok_or(ErrorCode::ReviewUnavailable)?;
        let series = self.series.as_ref().ok_or(ErrorCode::ReviewUnavailable)?;
        let current = series.deal_number();
        // The deal just ended is at hand (or kept since the next was dealt); an older one is
        // rebuilt from storage. A deal still being played has no review.
        let at_hand = if series.deal_over() {
            Some((current, FinishedDeal::of(series).ok_or(ErrorCode::ReviewUnavailable)?))
        } else {
            self.previous_deal.clone()
        };
        let number = asked.or(at_hand.as_ref().map(|(n, _)| *n)).ok_or(ErrorCode::ReviewUnavailable)?;
        let finished = number >= 1 && (number < current || (number == current && series.deal_over()));
        if !finished || !FinishedDeal::reviewed(self.rules.game()) {
            return Err(ErrorCode::ReviewUnavailable);
        }
        let at_hand = at_hand.filter(|(n, _)| *n == number).map(|(_, deal)| deal);
        let permit = self.env.reviews.clone().try_acquire_owned().map_err(|_| ErrorCode::ReviewBusy)?;
        let seed = self.bot_seed(u64::from(number) << 8 | u64::from(seat.0));
        let (code, answer, storage) = (self.code.clone(), self.reviews_tx.clone(), self.env.storage.clone());
        tokio::spawn(async move {
            let stored = match at_hand {
                Some(_) => None,
                None => storage.load(&code).await.ok().flatten(),
            };
            let computed = tokio::task::spawn_blocking(move || {
                let _permit = permit;
                let deal = at_hand.or_else(|| stored.and_then(|s| crate::replay::finished_deal(&s, number)))?;
                deal.review(seat, Level::Strong, seed)
            })
            .await;
            let message = match computed {
                Ok(Some(review)) => ServerMessage::Review { deal: number, review },
                _ => {
                    warn!(room = %code, "a review could not be computed");
                    ServerMessage::error(ErrorCode::ReviewUnavailable, None)
                }
            };
            // The room may have closed meanwhile: then nobody is left to answer.
            let _ = answer.send((conn, Box::new(message)));
        });
        Ok(())
    }

    /// Starts rebuilding a finished deal from storage for a seated player (or, where the room
    /// makes its replays public, for anyone in it); the answer goes straight to the connection's
    /// queue when it is ready. A deal still being played is refused before anything is read.
    fn replay(&mut self, conn: ConnId, seat: Option<Seat>, deal: u32) -> Result<(), ErrorCode> {
        if seat.is_none() && !self.options.public_replays {
            return Err(ErrorCode::ReplayUnavailable);
        }
        let series = self.series.as_ref().ok_or(ErrorCode::ReplayUnavailable)?;
        let current = series.deal_number();
        let finished = deal >= 1 && (deal < current || (deal == current && series.deal_over()));
        if !finished {
            return Err(ErrorCode::ReplayUnavailable);
        }
        let permit = self.env.reviews.clone().try_acquire_owned().map_err(|_| ErrorCode::ServerBusy)?;
        let (code, answer, storage) = (self.code.clone(), self.reviews_tx.clone(), self.env.storage.clone());
        tokio::spawn(async move {
            let message = match storage.load(&code).await {
                Ok(Some(stored)) => {
                    let built = tokio::task::spawn_blocking(move || {
                        let _permit = permit;
                        crate::replay::replay_deal(&stored, deal, seat)
                    })
                    .await;
                    match built {
                        Ok(Some(replay)) => ServerMessage::Replay { replay },
                        _ => ServerMessage::error(ErrorCode::ReplayUnavailable, None),
                    }
                }
                Ok(None) => ServerMessage::error(ErrorCode::ReplayUnavailable, None),
                Err(e) => {
                    warn!(room = %code, error = %e, "a replay could not be read from storage");
                    ServerMessage::error(ErrorCode::Storage, None)
                }
            };
            // The room may have closed meanwhile: then nobody is left to answer.
            let _ = answer.send((conn, Box::new(message)));
        });
        Ok(())
    }

    async fn act(
        &mut self,
        conn: ConnId,
        participant: u32,
        seat: Seat,
        id: u64,
        seq: u64,
        action: serde_json::Value,
    ) -> Result<(), ErrorCode> {
        let Some(series) = &self.series else { return Err(ErrorCode::RoomNotStarted) };
        let action = match fipsen_protocol::read_action(series.game(), action) {
            Ok(action) => action,
            Err((code, message)) => {
                // The sentence names the game and what was wrong (never a card of the game).
                self.env.metrics.error(code.code());
                self.send_to(conn, &ServerMessage::error_with(code, Some(id), message));
                return Ok(());
            }
        };
        if let Some(p) = self.participants.get(participant as usize) {
            if let Some(&(_, acked_seq)) = p.acked.iter().find(|(acked, _)| *acked == id) {
                self.send_to(conn, &ServerMessage::Ack { id, seq: acked_seq });
                return Ok(());
            }
            if p.last_act_id.is_some_and(|last| id <= last) {
                return Err(ErrorCode::ActionIdReused);
            }
        }
        if seq < self.last_game_seq {
            return Err(ErrorCode::ActionStale);
        }
        if series.series_over() {
            return Err(ErrorCode::Rule(RuleError::SeriesOver));
        }
        if self.holds[seat.index()].stand_in.is_some() {
            return Err(ErrorCode::BotStandingIn);
        }
        series.check(seat, &action).map_err(ErrorCode::Rule)?;
        let kind = action.kind();
        let events = self.commit(Record::Act { participant, seat, id, action }, None).await?;
        inc(&self.env.metrics.actions);
        debug!(room = %self.code, seat = seat.0, kind, "action accepted");
        self.send_to(conn, &ServerMessage::Ack { id, seq: self.seq });
        self.broadcast(&events, None);
        self.after_game_change().await;
        Ok(())
    }

    /// After a game action: deals the next deal at once if the pause is zero.
    async fn after_game_change(&mut self) {
        self.schedule_next_deal();
        if self.next_deal_at.is_some_and(|t| t <= Instant::now()) {
            self.next_deal_at = None;
            self.deal_next().await;
        }
    }

    /// After a deal ends: when the next one comes on its own.
    fn schedule_next_deal(&mut self) {
        self.schedule_next_deal_at(Instant::now());
    }

    /// The countdown runs from the end of the deal; it stands still while anyone reads, and goes
    /// on with at least [`RESUME_AFTER_READING`] left the first time in a pause, with what it
    /// has left after that. As each seat's reading time is bounded over the pause, so is the
    /// pause: at most its length, the longest reading of each seat, and the resume time once.
    /// Without a pause of its own the room waits for every player, but no longer than the move
    /// clock when there is one.
    fn schedule_next_deal_at(&mut self, now: Instant) {
        let between = self.series.as_ref().is_some_and(|s| s.deal_over() && !s.series_over()) && !self.table_done();
        if !between {
            self.next_deal_at = None;
            self.next_deal_left = None;
            self.next_deal_asked.clear();
            self.reading.clear();
            self.reading_left.clear();
            self.resumed_with_floor = false;
            return;
        }
        if self.seats.iter().any(Option::is_none) {
            // A seat emptied between deals (a bot taken off): the next deal waits for it.
            self.next_deal_at = None;
            return;
        }
        if self.every_player_asked() {
            self.next_deal_at = Some(self.next_deal_at.map_or(now, |at| at.min(now)));
            self.next_deal_left = None;
            return;
        }
        let pause =
            self.options.next_deal_seconds.or(self.options.move_seconds).map(|s| Duration::from_secs(u64::from(s)));
        if !self.reading.is_empty() {
            if let Some(at) = self.next_deal_at.take() {
                self.next_deal_left = Some(at.saturating_duration_since(now));
            } else if self.next_deal_left.is_none() {
                self.next_deal_left = pause;
            }
            return;
        }
        if let Some(left) = self.next_deal_left.take() {
            let left = if self.resumed_with_floor || left >= RESUME_AFTER_READING {
                left
            } else {
                self.resumed_with_floor = true;
                RESUME_AFTER_READING
            };
            self.next_deal_at = Some(now + left);
        } else if self.next_deal_at.is_none() {
            self.next_deal_at = pause.map(|pause| now + pause);
        }
    }

    /// Every connected seated person asked for the next deal (and at least one did; bots and
    /// absent players never hold it up).
    fn every_player_asked(&self) -> bool {
        let mut connected = (0..self.seats.len())
            .map(|s| Seat(s as u8))
            .filter(|s| self.seats[s.index()].is_some_and(|p| self.is_connected(p)))
            .peekable();
        !self.next_deal_asked.is_empty()
            && connected.peek().is_some()
            && connected.all(|s| self.next_deal_asked.contains(&s))
    }

    async fn deal_next(&mut self) {
        let between = self.series.as_ref().is_some_and(|s| s.deal_over() && !s.series_over()) && !self.table_done();
        if !between || self.seats.iter().any(Option::is_none) {
            return;
        }
        match self.commit(Record::NextDeal, None).await {
            Ok(events) => self.broadcast(&events, None),
            Err(code) => {
                warn!(room = %self.code, code = code.code(), "cannot deal the next deal; retrying in a second");
                self.next_deal_at = Some(Instant::now() + Duration::from_secs(1));
            }
        }
    }

    // ----- the host -----

    /// Passes the host's part to another player once the host is gone: disconnected past his
    /// grace period (or disconnected without a seat to hold). The first connected player by seat
    /// takes it (a seatless one if nobody sits); the old host does not get it back by returning.
    async fn pass_host_if_gone(&mut self) {
        if self.participants.is_empty() || self.is_connected(self.host) {
            return;
        }
        let gone = match self.seat_of(self.host) {
            Some(seat) => self.holds[seat.index()].open,
            None => true,
        };
        if !gone {
            return;
        }
        let seated = self.seats.iter().flatten().copied();
        let everyone = self.participants.iter().map(|p| p.id);
        let Some(next) =
            seated.chain(everyone).find(|&p| p != self.host && self.bot_level(p).is_none() && self.is_connected(p))
        else {
            return;
        };
        match self.commit(Record::HostChanged { participant: next }, None).await {
            Ok(events) => {
                info!(room = %self.code, participant = next, "the host is gone; another player is host now");
                self.broadcast(&events, None);
                // Each connection learns from `room.host` and its own `you.host`; tell the new host.
                self.publish_lobby();
            }
            Err(code) => warn!(room = %self.code, code = code.code(), "cannot store the new host"),
        }
    }

    // ----- bots -----

    /// Hands seats back to returned players between tricks, and plans the next bot move: the
    /// bot to act (the seat whose turn it is first, then any bot holding a Siebener Fips).
    fn plan_bots(&mut self) {
        self.hand_back();
        if self.dormant() {
            // Bots play only while a person (a player or a spectator) is in the room: a table
            // of bots that nobody watches would only burn the server's time. A tournament
            // table is the exception: the round waits for it.
            if let Some(thinking) = self.bot_turn.take().and_then(|turn| turn.thinking) {
                thinking.abort();
            }
            return;
        }
        if let Some(turn) = &self.bot_turn {
            if turn.game_seq == self.last_game_seq && self.controller(turn.seat).is_some() {
                return;
            }
            // The game moved on (or the seat changed hands): that plan is void.
            if let Some(thinking) = self.bot_turn.take().and_then(|turn| turn.thinking) {
                thinking.abort();
            }
        }
        let Some(series) = &self.series else { return };
        if series.series_over() || series.deal_over() {
            return;
        }
        let seats = (0..self.seats.len()).map(|s| Seat(s as u8));
        for seat in series.turn().into_iter().chain(seats) {
            if self.controller(seat).is_none() || self.passed_out_of_turn == Some((seat, self.last_game_seq)) {
                continue;
            }
            // Out of turn, a bot is asked only where its game says it may act (so that nobody
            // waits for a bot that will do nothing).
            let asked = if series.turn() == Some(seat) { series.can_act(seat) } else { series.bot_out_of_turn(seat) };
            if !asked {
                continue;
            }
            let leading = series.leading();
            // A move the clock gave to a bot has been waited for long enough.
            let clocked = self.clock_move.is_some_and(|(s, game_seq, _)| s == seat && game_seq == self.last_game_seq);
            let pause = if clocked { Duration::ZERO } else { self.bot_pause(leading) };
            let at = self.paced(Instant::now() + pause);
            self.bot_turn = Some(BotTurn { seat, game_seq: self.last_game_seq, at, thinking: None });
            return;
        }
    }

    /// When a bot move planned for `at` may be made. A practice table (a person seated and
    /// connected) plays at the room's own pace. A table whose bots play only for those watching
    /// plays fast, but never as fast as the server can: it takes its turn in the pace of the
    /// address watching it longest, shared by every such room watched from there
    /// ([`Registry::unattended_bot_move`]). A tournament table is left at its pace: it plays as
    /// many deals as its round has.
    fn paced(&self, at: Instant) -> Instant {
        if self.tournament.is_some() || self.person_at_table() {
            return at;
        }
        match self.members.iter().min_by_key(|(conn, _)| **conn) {
            Some((_, watcher)) => self.env.registry.unattended_bot_move(watcher.link.addr, at),
            None => at,
        }
    }

    /// A person sits at the table and is connected.
    fn person_at_table(&self) -> bool {
        self.seats.iter().flatten().any(|&p| self.bot_level(p).is_none() && self.is_connected(p))
    }

    /// How long a bot waits before acting ([`bot_pause`]).
    fn bot_pause(&self, leading: bool) -> Duration {
        bot_pause(self.options.bot_delay_ms, self.bot_seed(self.seq), leading)
    }

    /// Once a planned bot move is due, computes it on a blocking thread from that seat's view.
    fn start_thinking(&mut self, now: Instant) {
        let Some(turn) = &self.bot_turn else { return };
        if turn.thinking.is_some() || turn.at > now {
            return;
        }
        let (Some(series), Some(level)) = (&self.series, self.controller(turn.seat)) else { return };
        let view = series.view(Some(turn.seat));
        let seed = self.bot_seed(self.seq << 8 | u64::from(turn.seat.0));
        let handle = tokio::task::spawn_blocking(move || fipsen_bots::games::choose(level, seed, &view));
        if let Some(turn) = &mut self.bot_turn {
            turn.thinking = Some(handle);
        }
    }

    /// A bot's decision is ready: check it like a person's action, store it, apply it.
    async fn on_bot_decision(&mut self, decision: Result<Option<GameAction>, tokio::task::JoinError>) {
        let Some(turn) = self.bot_turn.take() else { return };
        if turn.game_seq != self.last_game_seq || self.controller(turn.seat).is_none() {
            return;
        }
        let Some(series) = &self.series else { return };
        let seat = turn.seat;
        let action = match decision {
            Ok(Some(action)) if series.check(seat, &action).is_ok() => action,
            Ok(None) if series.turn() != Some(seat) => {
                // Out of turn (a Siebener Fips or a Kieker give-up on offer) doing nothing is a
                // choice: ask again only once the game has moved on.
                self.passed_out_of_turn = Some((seat, turn.game_seq));
                return;
            }
            other => {
                // Never expected; the table must not stall, so the bot makes the first legal move.
                warn!(room = %self.code, seat = seat.0, decision = ?other.ok(), "a bot chose no legal action");
                match series.legal_actions(seat).first() {
                    Some(action) => action,
                    None => return,
                }
            }
        };
        let kind = action.kind();
        match self.commit(Record::BotAct { seat, action }, None).await {
            Ok(events) => {
                inc(&self.env.metrics.actions);
                debug!(room = %self.code, seat = seat.0, kind, "bot action");
                self.broadcast(&events, None);
                self.after_game_change().await;
            }
            Err(code) => {
                warn!(room = %self.code, code = code.code(), "cannot store a bot action; retrying in a second");
                let at = Instant::now() + Duration::from_secs(1);
                self.bot_turn = Some(BotTurn { seat, game_seq: turn.game_seq, at, thinking: None });
            }
        }
        self.publish_lobby();
    }

    /// A returned player takes his seat back from the bot standing in, once no trick is in
    /// progress (at once during the auction or between deals).
    fn hand_back(&mut self) {
        let between_tricks = self.series.as_ref().is_none_or(|s| !s.trick_in_progress());
        if !between_tricks {
            return;
        }
        let mut events = Vec::new();
        for seat in 0..self.seats.len() {
            let back = self.seats[seat].is_some_and(|p| self.is_connected(p));
            if back && self.holds[seat].stand_in.take().is_some() {
                info!(room = %self.code, seat, "the player is back; the bot stands down");
                events.push(RoomEvent::StandInEnded { seat: Seat(seat as u8) });
            }
        }
        if !events.is_empty() {
            let events = self.number(events);
            self.broadcast(&events, None);
        }
    }

    // ----- records: store, then apply -----

    /// Stores a record, then applies it. Nothing changes if storing fails.
    async fn commit(&mut self, record: Record, token: Option<(String, u32)>) -> Result<Vec<SeqEvent>, ErrorCode> {
        let json = serde_json::to_string(&record).map_err(|_| ErrorCode::Storage)?;
        if let Err(e) = self.env.storage.append(self.code.clone(), self.records, self.seq, json, token).await {
            warn!(room = %self.code, error = %e, "storing a record failed");
            return Err(ErrorCode::Storage);
        }
        self.records += 1;
        let counted = self.counted.len();
        let events = self.apply(&record);
        if self.counted.len() > counted {
            self.report();
        }
        Ok(events)
    }

    /// Applies a stored record: the one place where the room's durable state changes.
    fn apply(&mut self, record: &Record) -> Vec<SeqEvent> {
        let mut events = Vec::new();
        match record {
            Record::Joined { participant, name, token_hash, seat } => {
                self.participants.push(Participant {
                    id: *participant,
                    name: name.clone(),
                    token_hash: token_hash.clone(),
                    acked: VecDeque::new(),
                    last_act_id: None,
                    bot: None,
                });
                if let Some(seat) = seat {
                    self.sit(*participant, *seat, &mut events);
                }
            }
            Record::BotAdded { participant, seat, level, name } => {
                self.participants.push(Participant {
                    id: *participant,
                    name: name.clone(),
                    token_hash: String::new(),
                    acked: VecDeque::new(),
                    last_act_id: None,
                    bot: Some(*level),
                });
                self.sit(*participant, *seat, &mut events);
            }
            Record::DeleteVote { participant, agree } => {
                if *agree {
                    self.delete_votes.insert(*participant);
                } else {
                    self.delete_votes.remove(participant);
                }
                if let Some(seat) = self.seat_of(*participant) {
                    events.push(RoomEvent::DeleteVote { seat, agree: *agree });
                }
            }
            Record::HostChanged { participant } => {
                self.host = *participant;
                let seat = self.seat_of(*participant);
                events.push(RoomEvent::HostChanged { name: self.name_of(*participant), seat });
            }
            Record::BotRemoved { seat } => {
                if let Some(slot) = self.seats.get_mut(seat.index()) {
                    *slot = None;
                    self.holds[seat.index()] = SeatHold::default();
                    events.push(RoomEvent::BotRemoved { seat: *seat });
                }
            }
            Record::BotAct { seat, action } => {
                if let Some(series) = &mut self.series {
                    match series.apply(*seat, action) {
                        Ok(game) => events.extend(game.into_iter().map(|event| RoomEvent::Game { event })),
                        Err(e) => warn!(room = %self.code, code = e.code(), "a stored bot action was refused"),
                    }
                }
            }
            Record::Seated { participant, seat } => self.sit(*participant, *seat, &mut events),
            Record::LeftSeat { participant } => {
                if let Some(seat) = self.seat_of(*participant) {
                    self.seats[seat.index()] = None;
                    self.holds[seat.index()] = SeatHold::default();
                    events.push(RoomEvent::LeftSeat { seat });
                }
            }
            Record::Started => match AnyGame::start(&self.rules, self.master) {
                Ok((mut series, dealt)) => {
                    if self.tournament.is_some() {
                        // The d-th counted deal from the same stream at every table of a size.
                        series.set_deal_seeds(DealSeeds::ByCountedDeal);
                    }
                    self.series = Some(series);
                    events.push(RoomEvent::Started);
                    events.extend(dealt.into_iter().map(|event| RoomEvent::Game { event }));
                }
                Err(e) => warn!(room = %self.code, error = %e, "the stored rules are invalid"),
            },
            Record::Public { public } => {
                self.options.public = *public;
                events.push(RoomEvent::Public { public: *public });
            }
            Record::Act { seat, action, .. } => {
                if let Some(series) = &mut self.series {
                    match series.apply(*seat, action) {
                        Ok(game) => events.extend(game.into_iter().map(|event| RoomEvent::Game { event })),
                        Err(e) => warn!(room = %self.code, code = e.code(), "a stored action was refused"),
                    }
                }
            }
            Record::NextDeal => {
                if let Some(series) = &mut self.series {
                    if let Some(finished) = FinishedDeal::of(series) {
                        self.previous_deal = Some((series.deal_number(), finished));
                    }
                    match series.next_deal() {
                        Ok(game) => events.extend(game.into_iter().map(|event| RoomEvent::Game { event })),
                        Err(e) => warn!(room = %self.code, code = e.code(), "a stored next deal was refused"),
                    }
                }
                self.next_deal_asked.clear();
                self.next_deal_at = None;
            }
            Record::Chat { line } => {
                if self.chat.len() == CHAT_LINES {
                    self.chat.pop_front();
                }
                self.chat.push_back(line.clone());
                events.push(RoomEvent::Chat(line.clone()));
            }
        }
        self.note_deal_end();
        let numbered = self.number(events);
        if let Record::Act { participant, id, .. } = record
            && let Some(p) = self.participants.get_mut(*participant as usize)
        {
            if p.acked.len() == ACKED_IDS {
                p.acked.pop_front();
            }
            p.acked.push_back((*id, self.seq));
            p.last_act_id = Some(p.last_act_id.map_or(*id, |last| last.max(*id)));
        }
        numbered
    }

    fn sit(&mut self, participant: u32, seat: Seat, events: &mut Vec<RoomEvent>) {
        let Some(slot) = self.seats.get(seat.index()).copied() else { return };
        if let Some(old) = self.seat_of(participant) {
            self.seats[old.index()] = None;
            self.holds[old.index()] = SeatHold::default();
            events.push(RoomEvent::LeftSeat { seat: old });
        }
        if let Some(previous) = slot {
            if self.bot_level(previous).is_some() {
                // A person takes a bot's seat: the bot leaves the table.
                events.push(RoomEvent::BotRemoved { seat });
            }
            // An open seat taken over: its former player keeps his token but no seat; his
            // connections now watch as he may (a seatless player sees what a spectator sees).
            debug!(room = %self.code, seat = seat.0, previous, "seat taken over");
        }
        self.seats[seat.index()] = Some(participant);
        self.holds[seat.index()] = SeatHold::default();
        let name = self.name_of(participant);
        events.push(match self.bot_level(participant) {
            Some(level) => RoomEvent::BotAdded { seat, level, name },
            None => RoomEvent::Seated { seat, name },
        });
    }

    /// Gives events their sequence numbers and keeps them for reconnecting clients.
    fn number(&mut self, events: Vec<RoomEvent>) -> Vec<SeqEvent> {
        events
            .into_iter()
            .map(|event| {
                self.seq += 1;
                if matches!(event, RoomEvent::Game { .. }) {
                    self.last_game_seq = self.seq;
                    self.turn_since = Instant::now();
                }
                let numbered = SeqEvent { seq: self.seq, event };
                if self.history.len() == HISTORY
                    && let Some(dropped) = self.history.pop_front()
                {
                    self.history_start = dropped.seq;
                }
                self.history.push_back(numbered.clone());
                numbered
            })
            .collect()
    }

    // ----- views and frames -----

    fn seat_of(&self, participant: u32) -> Option<Seat> {
        self.seats.iter().position(|s| *s == Some(participant)).map(|s| Seat(s as u8))
    }

    fn bot_level(&self, participant: u32) -> Option<Level> {
        self.participants.get(participant as usize).and_then(|p| p.bot)
    }

    /// The level of the bot that plays `seat`: a bot sitting there, one standing in, or one
    /// making this one move because the seat's move clock ran out.
    fn controller(&self, seat: Seat) -> Option<Level> {
        let hold = self.holds.get(seat.index())?;
        let clocked = self
            .clock_move
            .filter(|(s, game_seq, _)| *s == seat && *game_seq == self.last_game_seq)
            .map(|(_, _, level)| level);
        hold.stand_in.or_else(|| self.seats[seat.index()].and_then(|p| self.bot_level(p))).or(clocked)
    }

    /// A seed for a bot's choice, from the room's secret master seed and `salt`.
    fn bot_seed(&self, salt: u64) -> u64 {
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(&self.master.0[..8]);
        splitmix(u64::from_le_bytes(bytes) ^ splitmix(salt))
    }

    fn is_connected(&self, participant: u32) -> bool {
        self.members.values().any(|m| m.participant == Some(participant))
    }

    fn spectator_count(&self) -> u32 {
        self.members.values().filter(|m| m.participant.is_none()).count() as u32
    }

    fn status(&self) -> RoomStatus {
        match &self.series {
            None => RoomStatus::Waiting,
            Some(s) if s.series_over() || self.table_done() => RoomStatus::Over,
            Some(s) if s.deal_over() => RoomStatus::BetweenDeals,
            Some(_) => RoomStatus::Playing,
        }
    }

    fn name_of(&self, participant: u32) -> String {
        self.participants.get(participant as usize).map(|p| p.name.clone()).unwrap_or_default()
    }

    fn state(&self) -> RoomState {
        let seats = self
            .seats
            .iter()
            .enumerate()
            .map(|(i, p)| SeatInfo {
                seat: Seat(i as u8),
                name: p.map(|p| self.name_of(p)),
                connected: p.is_some_and(|p| self.bot_level(p).is_some() || self.is_connected(p)),
                open: self.holds[i].open,
                host: *p == Some(self.host),
                bot: p.and_then(|p| self.bot_level(p)),
                stand_in: self.holds[i].stand_in,
            })
            .collect();
        let now = Instant::now();
        let ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        let turn = self.series.as_ref().filter(|s| !s.series_over() && !s.deal_over()).and_then(|s| {
            let seat = s.turn()?;
            let left_ms = self.clock_deadline().map(|(_, at)| ms(at.saturating_duration_since(now)));
            Some(TurnClock { seat, waited_ms: ms(now.saturating_duration_since(self.turn_since)), left_ms })
        });
        RoomState {
            room: self.code.to_string(),
            title: self.title.clone(),
            host: self.name_of(self.host),
            rules: self.rules.clone(),
            options: RoomOptions { title: self.title.clone(), ..self.options.clone() },
            seats,
            spectators: self.spectator_count(),
            status: self.status(),
            turn,
            next_deal_asked: self.next_deal_asked.iter().copied().collect(),
            next_deal_in_ms: match self.next_deal_left {
                Some(left) => Some(ms(left)),
                None => self.next_deal_at.map(|t| ms(t.saturating_duration_since(now))),
            },
            next_deal_paused: self.next_deal_left.is_some(),
            reading: self.reading.keys().copied().collect(),
            tournament: self.table_of_tournament(),
            delete_votes: self.delete_votes.iter().filter_map(|&p| self.seat_of(p)).collect(),
        }
    }

    /// The tournament this room is a table of, as its views show it.
    fn table_of_tournament(&self) -> Option<TableOfTournament> {
        self.tournament.as_ref().map(|link| TableOfTournament {
            tournament: link.tournament.clone(),
            name: link.name.clone(),
            round: link.table.round,
            rounds: link.rounds,
            table: link.table.table,
            deals: link.deals,
            played: self.counted.len() as u32,
            duplicate: link.duplicate,
        })
    }

    fn players(&self) -> Vec<Option<String>> {
        self.seats.iter().map(|p| p.map(|p| self.name_of(p))).collect()
    }

    fn summary(&self, participant: u32) -> Option<MyRoom> {
        let p = self.participants.get(participant as usize)?;
        Some(MyRoom {
            room: self.code.to_string(),
            title: self.title.clone(),
            name: p.name.clone(),
            seat: self.seat_of(participant),
            players: self.players(),
            status: self.status(),
            game: self.rules.game(),
            deal: self.series.as_ref().map_or(0, AnyGame::deal_number),
            totals: self.series.as_ref().map_or_else(|| vec![0; self.seats.len()], |s| s.totals().to_vec()),
        })
    }

    /// The room as the lobby lists it.
    fn info(&self) -> LobbyRoom {
        LobbyRoom {
            room: self.code.to_string(),
            title: self.title.clone(),
            host: self.name_of(self.host),
            players: self.players(),
            spectators: self.spectator_count(),
            spectators_allowed: self.options.spectators_allowed,
            status: self.status(),
            rules: self.rules.clone(),
            tournament: self.table_of_tournament(),
        }
    }

    fn publish_lobby(&self) {
        let entry = self.options.public.then(|| self.info());
        self.lobby.send_if_modified(|current| {
            if *current == entry {
                false
            } else {
                *current = entry.clone();
                true
            }
        });
    }

    fn send_to(&mut self, conn: ConnId, message: &ServerMessage) {
        let frame: Arc<str> = Arc::from(message.to_json());
        let alive = self.members.get(&conn).is_none_or(|m| m.link.send(frame, &self.env.metrics));
        if alive {
            inc(&self.env.metrics.messages_out);
        } else {
            self.leave(conn);
        }
    }

    /// Sends every member (but `except`) an update with these events, redacted for each.
    fn broadcast(&mut self, events: &[SeqEvent], except: Option<ConnId>) {
        if events.is_empty() {
            return;
        }
        // The frame tells when the next deal comes as soon as a deal ends.
        self.schedule_next_deal();
        let room = self.state();
        let stood_in: Vec<Seat> =
            (0..self.seats.len()).filter(|&s| self.holds[s].stand_in.is_some()).map(|s| Seat(s as u8)).collect();
        let mut frames = UpdateFrames::new(self.seq, events, &room, self.series.as_ref()).without_prompt(&stood_in);
        let mut dropped = Vec::new();
        // The bases replaced, kept until every frame is built: frames are shared by base, told
        // apart by address, and no new state may take the address of a base still compared.
        let mut replaced = Vec::with_capacity(self.members.len());
        let viewers: Vec<(ConnId, Option<Seat>)> = self
            .members
            .iter()
            .filter(|(conn, _)| Some(**conn) != except)
            .map(|(conn, member)| (*conn, member.participant.and_then(|p| self.seat_of(p))))
            .collect();
        for (conn, viewer) in viewers {
            let Some(member) = self.members.get_mut(&conn) else { continue };
            let (frame, state) = frames.frame(viewer, &member.base);
            replaced.push(std::mem::replace(&mut member.base, state));
            if member.link.send(frame, &self.env.metrics) {
                self.env.metrics.messages_out.fetch_add(1, Ordering::Relaxed);
            } else {
                dropped.push(conn);
            }
        }
        drop(replaced);
        for conn in dropped {
            self.leave(conn);
        }
    }
}

/// The decision of the bot thinking now; never ready while none is.
async fn bot_decision(turn: &mut Option<BotTurn>) -> Result<Option<GameAction>, tokio::task::JoinError> {
    match turn.as_mut().and_then(|turn| turn.thinking.as_mut()) {
        Some(thinking) => thinking.await,
        None => std::future::pending().await,
    }
}

/// How long a bot waits before acting: about `base_ms`, varied like a person's pause by
/// `seed` (0.6 to 1.4 times), 1.3 times longer when leading to a new trick. Every input is
/// public or secret to everyone alike, never the bot's cards nor how many of them it may play,
/// so the pause tells the table nothing about its hand.
fn bot_pause(base_ms: u32, seed: u64, leading: bool) -> Duration {
    if base_ms == 0 {
        return Duration::ZERO;
    }
    let spread = (seed % 1000) as f64 / 1000.0;
    let mut ms = f64::from(base_ms) * (0.6 + 0.8 * spread);
    if leading {
        ms *= 1.3;
    }
    Duration::from_secs_f64(ms / 1000.0)
}

/// A 64-bit mixing function (SplitMix64's finaliser).
fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

async fn sleep_until(wake: Option<Instant>) {
    match wake {
        Some(t) => tokio::time::sleep_until(t.into()).await,
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::SyncMode;
    use crate::storage::StorageOptions;

    #[tokio::test]
    async fn a_kick_is_set_once_and_wakes_whoever_waits_for_it() {
        let kick = Arc::new(Kick::default());
        assert_eq!(kick.code(), None);
        let waiting = tokio::spawn({
            let kick = kick.clone();
            async move { kick.wait().await }
        });
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished(), "nothing has set the switch yet");
        assert!(kick.set(CloseCode::TooSlow));
        assert_eq!(waiting.await.ok(), Some(CloseCode::TooSlow));
        // The first code stays; a later waiter gets it at once.
        assert!(!kick.set(CloseCode::Normal));
        assert_eq!(kick.code(), Some(CloseCode::TooSlow));
        assert_eq!(kick.wait().await, CloseCode::TooSlow);
    }

    /// A room of four bots (`Room::new`, as the registry makes it) with one watcher and the
    /// series started, on a throw-away database.
    fn room_of_bots(dir: &std::path::Path, master: u8) -> Room {
        let metrics = Arc::new(Metrics::default());
        let (storage, _writer) = Storage::open_with(
            &dir.join("db.sqlite3"),
            metrics.clone(),
            StorageOptions { sync: SyncMode::Normal, ..StorageOptions::default() },
        )
        .unwrap();
        let registry = Registry::new(storage.clone(), metrics.clone(), Duration::from_secs(60), None);
        let options = RoomOptions { bot_delay_ms: 1000, ..RoomOptions::default() };
        let meta = RoomMeta {
            code: "k3JX9a2LqP0vWm4Zb7Ya".into(),
            created_at: 0,
            title: "Bots".into(),
            rules: GameRules::default(),
            options,
            master: fipsen_rules::Seed([master; 32]),
            tournament: None,
        };
        let env =
            RoomEnv { storage, metrics, registry, idle: Duration::from_secs(60), reviews: Arc::new(Semaphore::new(1)) };
        let (lobby, _) = watch::channel(None);
        let mut room = Room::new(meta, 1, lobby, env);
        for seat in 0..4u8 {
            let record = Record::BotAdded {
                participant: u32::from(seat),
                seat: Seat(seat),
                level: Level::Easy,
                name: format!("Bot {seat}"),
            };
            room.apply(&record);
        }
        room.apply(&Record::Started);
        let (tx, _rx) = mpsc::channel(4);
        let addr = std::net::IpAddr::from([192, 0, 2, 1]);
        let link = ConnLink { id: 1, tx, kick: Arc::new(Kick::default()), addr };
        let member = Member {
            link,
            participant: None,
            name: "Oma".into(),
            base: Arc::new(Base::empty()),
            chat_tokens: 0.0,
            chat_refill: Instant::now(),
        };
        room.members.insert(1, member);
        room
    }

    /// Bots' pauses before following to a trick, over many deals, split by whether the bot
    /// could play one card only (a fact hidden from the table) or several: the two must not
    /// differ, or the pause tells everyone what the bot holds.
    #[test]
    fn a_bots_pause_does_not_tell_whether_it_had_a_choice() {
        let dir = tempfile::tempdir().unwrap();
        let (mut forced, mut free) = (Vec::new(), Vec::new());
        for master in 1..=12u8 {
            let mut room = room_of_bots(dir.path(), master);
            let mut pick = u64::from(master);
            for _step in 0..2000 {
                let Some(series) = &room.series else { break };
                if series.series_over() {
                    break;
                }
                if series.deal_over() {
                    let events = room.apply(&Record::NextDeal);
                    assert!(!events.is_empty());
                    continue;
                }
                let Some(seat) = series.turn() else { break };
                let legal = series.legal_actions(seat);
                let following = series.trick_in_progress();
                room.plan_bots();
                let turn = room.bot_turn.as_ref().expect("a bot plans its move");
                assert_eq!(turn.seat, seat);
                let pause = turn.at.saturating_duration_since(Instant::now()).as_secs_f64();
                if following {
                    if legal.len() == 1 { forced.push(pause) } else { free.push(pause) }
                }
                pick = splitmix(pick);
                let action = legal.get((pick % legal.len() as u64) as usize).expect("in range");
                room.apply(&Record::BotAct { seat, action });
            }
        }
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
        assert!(forced.len() >= 100 && free.len() >= 100, "{} forced, {} free", forced.len(), free.len());
        let ratio = mean(&forced) / mean(&free);
        assert!((0.85..1.15).contains(&ratio), "forced {:.3} s, free {:.3} s", mean(&forced), mean(&free));
    }

    /// Plays the room's current deal to its end with the first legal action of each turn.
    fn finish_deal(room: &mut Room) {
        for _step in 0..2000 {
            let Some(series) = &room.series else { return };
            if series.deal_over() {
                return;
            }
            let Some(seat) = series.turn() else { return };
            let action = series.legal_actions(seat).first().expect("a legal action");
            room.apply(&Record::BotAct { seat, action });
        }
        panic!("the deal did not end");
    }

    /// The time from the end of a deal until the next deal is due, while seat 0 switches
    /// `reading` on for `on` and off for `off`, over and over, on a simulated clock (the room's
    /// timer runs every 10 ms of it); `None` if no deal came within an hour.
    fn pause_while_switching(on: Duration, off: Duration) -> Option<Duration> {
        let dir = tempfile::tempdir().unwrap();
        let mut room = room_of_bots(dir.path(), 5);
        finish_deal(&mut room);
        let start = Instant::now();
        room.schedule_next_deal_at(start);
        assert!(room.next_deal_at.is_some(), "the room has a pause of its own");
        let tick = Duration::from_millis(10);
        let (mut reading, mut switch_at) = (false, start);
        let mut now = start;
        while now < start + Duration::from_secs(3600) {
            // The room's timer: spent reading ends, and the deal comes when it is due.
            room.end_spent_reading(now);
            room.schedule_next_deal_at(now);
            if room.next_deal_at.is_some_and(|at| at <= now) {
                return Some(now - start);
            }
            if now >= switch_at {
                reading = !reading;
                room.set_reading(Some(Seat(0)), reading, now).unwrap();
                switch_at = now + if reading { on } else { off };
            }
            now += tick;
        }
        None
    }

    /// However a player switches `reading` on and off, his reading holds the next deal back for
    /// at most 120 s over the whole pause: the 10 s pause ends within 10 + 120 + 3 s.
    #[test]
    fn switching_reading_on_and_off_never_holds_the_next_deal_for_ever() {
        let bound = Duration::from_secs(10 + u64::from(MAX_READING_SECONDS) + 3) + Duration::from_millis(100);
        for (on, off) in [(10_000, 1_000), (50, 2_900), (30_000, 10), (110_000, 2_000), (10, 10)] {
            let (on, off) = (Duration::from_millis(on), Duration::from_millis(off));
            let pause = pause_while_switching(on, off);
            assert!(pause.is_some_and(|p| p <= bound), "on {on:?}, off {off:?}: the next deal after {pause:?}");
        }
        // Reading without switching holds it for the reading time, and no longer.
        let pause = pause_while_switching(Duration::from_secs(3600), Duration::ZERO).unwrap();
        assert!(pause >= Duration::from_secs(u64::from(MAX_READING_SECONDS)) && pause <= bound, "{pause:?}");
    }

    /// When the bot to move in `room` plans to act, from now.
    fn planned_in(room: &mut Room) -> Duration {
        room.bot_turn = None;
        room.plan_bots();
        room.bot_turn.as_ref().expect("a bot plans its move").at.saturating_duration_since(Instant::now())
    }

    /// Bots with no pause of their own, in rooms that a person only watches, ten moves a second
    /// from one address: the rooms watched from there share that pace; once a person sits at
    /// the table and is connected, they act at once.
    #[test]
    fn bots_playing_for_watchers_only_keep_a_pace_shared_by_the_address() {
        let dir = tempfile::tempdir().unwrap();
        let mut first = room_of_bots(dir.path(), 3);
        let mut second = room_of_bots(dir.path(), 4);
        let env = &first.env;
        let registry =
            Registry::new(env.storage.clone(), env.metrics.clone(), env.idle, None).with_watched_bots_rate(10);
        for room in [&mut first, &mut second] {
            room.options.bot_delay_ms = 0;
            room.env.registry = registry.clone();
        }
        let pace = Duration::from_millis(100);
        // The address's first move in a while is made at once.
        let a = planned_in(&mut first);
        assert!(a < Duration::from_millis(20), "{a:?}");
        // The same address's other room, and the first one again: each a step further.
        let b = planned_in(&mut second);
        let c = planned_in(&mut first);
        assert!(
            b >= a + pace - Duration::from_millis(20) && c >= b + pace - Duration::from_millis(20),
            "{a:?} {b:?} {c:?}"
        );
        // Another address watching has its own pace.
        let (tx, _rx) = mpsc::channel(4);
        let addr = std::net::IpAddr::from([198, 51, 100, 7]);
        let link = ConnLink { id: 0, tx, kick: Arc::new(Kick::default()), addr };
        let watcher = Member {
            link,
            participant: None,
            name: "Opa".into(),
            base: Arc::new(Base::empty()),
            chat_tokens: 0.0,
            chat_refill: Instant::now(),
        };
        second.members.insert(0, watcher);
        let d = planned_in(&mut second);
        assert!(d < b, "{d:?} {b:?}");
        // A person sits down (in a seat whose turn it is not) and is connected: no pace.
        let turn = first.series.as_ref().and_then(AnyGame::turn).expect("a turn");
        let seat = Seat((turn.0 + 1) % 4);
        let record =
            Record::Joined { participant: 4, name: "Antje".into(), token_hash: String::new(), seat: Some(seat) };
        first.apply(&record);
        assert!(first.members.get_mut(&1).is_some());
        if let Some(member) = first.members.get_mut(&1) {
            member.participant = Some(4);
        }
        let e = planned_in(&mut first);
        assert!(e < Duration::from_millis(20), "{e:?}");
    }

    #[test]
    fn a_bots_pause_varies_like_a_persons_and_depends_on_public_facts_only() {
        assert_eq!(bot_pause(0, 7, true), Duration::ZERO);
        let pauses: Vec<Duration> = (0..1000).map(|i| bot_pause(1000, splitmix(i), false)).collect();
        let (min, max) = (pauses.iter().min().unwrap(), pauses.iter().max().unwrap());
        assert!(*min >= Duration::from_millis(600) && *max <= Duration::from_millis(1400), "{min:?}..{max:?}");
        assert!(*max - *min > Duration::from_millis(600), "the pauses vary");
        for i in 0..100 {
            let seed = splitmix(i);
            let ratio = bot_pause(1000, seed, true).as_secs_f64() / bot_pause(1000, seed, false).as_secs_f64();
            assert!((ratio - 1.3).abs() < 1e-9);
        }
    }
}
