//! One table: a connection per seat of its game and K spectator connections, driven by one task.
//!
//! The table opens its room (`create_room`, the others `join_room`, the host `start`s), then
//! makes moves when its schedule says so: the player whose turn it is (from the latest
//! `update`) chooses a legal move from his own prompt and hand. A move is measured from its
//! scheduled time and from its actual send to the moment the **last** connection at the table
//! has the `update` carrying its events (matched by the sequence number the `ack` gives).
//! Every connection's sequence numbers are checked for gaps.

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};

use fipsen_protocol::{ClientMessage, ConnectionMessage, Role, RoomMessage, RoomOptions, ServerMessage};
use fipsen_rules::{GameId, GameRules, Seat};
use futures_util::stream::{SelectAll, SplitSink};
use futures_util::{SinkExt, Stream, StreamExt};
use tokio::sync::watch;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};

use crate::choose::{Rng, choose};
use crate::counters::Counters;
use crate::frame::{Frame, GamePart, Kind, State};
use crate::net::{Target, Ws};
use crate::phase::Phase;

/// How long a setup step (a room opening, a series starting) may take.
const SETUP_PATIENCE: Duration = Duration::from_secs(60);
/// A table that is due to move but cannot for this long counts as stalled.
const STALL: Duration = Duration::from_secs(30);
/// How long a table waits at the end for its last move and its events.
const DRAIN: Duration = Duration::from_secs(15);
/// Updates remembered per connection to match a late `ack` with.
const RECENT: usize = 16;

/// What every table is told to do.
#[derive(Debug, Clone)]
pub enum Control {
    /// Stay at the table, make no moves (idle connections).
    Hold,
    /// Make moves on this phase's schedule.
    Run(Arc<Phase>),
    /// Finish: wait for the last move, then close every connection.
    Stop,
}

/// How tables are set up.
#[derive(Debug, Clone)]
pub struct TableConfig {
    /// Spectator connections per table.
    pub spectators: usize,
    /// The game the tables play.
    pub game: GameId,
    /// Seats at each table (`None`: the game's default); for the games played at several sizes.
    pub players: Option<u8>,
    /// Deals per series, or rounds in a game that counts rounds (`None`: endless). A table whose
    /// series ends opens a new room.
    pub deals: Option<u32>,
    /// Also parse every frame as a full protocol message (slower; finds malformed frames), and
    /// keep every spectator's state up to date after its series has started.
    pub strict: bool,
    /// Only connect and say `hello`: no rooms (for measuring bare connections).
    pub hello_only: bool,
    /// Seed for the tables' move choices.
    pub seed: u64,
    /// Keep the host's latest state (for comparing views).
    pub keep_last: bool,
}

impl TableConfig {
    /// The tables' rules: the game's defaults with the number of seats and the series' length
    /// asked for.
    ///
    /// # Errors
    /// The game cannot be played at that number of seats.
    pub fn rules(&self) -> Result<GameRules, String> {
        let rules = GameRules::default_for(self.game);
        let Ok(serde_json::Value::Object(mut options)) = serde_json::to_value(&rules) else { return Ok(rules) };
        if let Some(players) = self.players {
            if !options.contains_key("players") {
                return Err(format!("{} is played at one table size only", self.game.code()));
            }
            options.insert("players".into(), players.into());
        }
        // The series' length: deals, or rounds where a game counts those (Thedinghausen).
        if let Some(length) = ["rounds", "deals"].into_iter().find(|key| options.contains_key(*key)) {
            options.insert(length.into(), self.deals.into());
        }
        let rules: GameRules = serde_json::from_value(serde_json::Value::Object(options)).map_err(|e| e.to_string())?;
        rules.validate().map_err(|e| e.to_string())?;
        Ok(rules)
    }
}

type Incoming = (usize, Received);
/// What one connection's stream gives: a message, or its end.
type Received = Option<Result<Message, WsError>>;
type Streams = SelectAll<Pin<Box<dyn Stream<Item = Incoming> + Send>>>;

#[derive(Debug)]
struct Conn {
    player: bool,
    seat: Option<Seat>,
    greeted: bool,
    joined: bool,
    left: bool,
    closed: bool,
    last_seq: u64,
    recent: VecDeque<(u64, Instant)>,
    status: String,
    game: Option<GamePart>,
    /// The state as the server sent it (`joined`, patched by each `update`).
    state: State,
    next_id: u64,
    token: Option<String>,
    /// The room this connection is in (from `joined`; cleared by `left`).
    room: Option<String>,
}

impl Conn {
    /// Whether the connection has seen its room's series start.
    fn started(&self) -> bool {
        self.status == "playing" && self.game.is_some()
    }

    fn new(player: bool) -> Conn {
        Conn {
            player,
            seat: None,
            greeted: false,
            joined: false,
            left: false,
            closed: false,
            last_seq: 0,
            recent: VecDeque::with_capacity(RECENT),
            status: String::new(),
            game: None,
            state: State::default(),
            next_id: 1,
            token: None,
            room: None,
        }
    }
}

#[derive(Debug)]
struct Inflight {
    id: u64,
    actor: usize,
    scheduled: Instant,
    sent: Instant,
    ack_seq: Option<u64>,
    arrivals: Vec<Option<Instant>>,
    phase: Arc<Phase>,
}

/// What is needed to come back to a room after a restart.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SavedRoom {
    /// The invite code.
    pub room: String,
    /// The latest sequence number every connection had.
    pub seq: u64,
    /// The seat tokens, seat 0 first.
    pub tokens: Vec<String>,
    /// The host's latest state, `{"room": …, "game": …}`, as JSON.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_frame: Option<String>,
}

/// A table's connections and state.
pub struct Table {
    index: usize,
    config: Arc<TableConfig>,
    counters: Arc<Counters>,
    sinks: Vec<SplitSink<Ws, Message>>,
    streams: Streams,
    conns: Vec<Conn>,
    room: String,
    rng: Rng,
    inflight: Option<Inflight>,
    /// When the table's state last changed (a frame was handled).
    changed: Instant,
    /// A refusal or a failure during setup.
    setup_error: Option<String>,
    /// Frames are being handled for a setup step: any refusal fails it.
    in_setup: bool,
    closing: bool,
    broken: bool,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table").field("index", &self.index).field("room", &self.room).finish_non_exhaustive()
    }
}

impl Table {
    /// Opens the table's connections and says `hello` on each, then opens its room (unless
    /// the config says `hello_only`).
    ///
    /// # Errors
    /// A connection failed, or the server refused a step.
    pub async fn open(
        index: usize,
        target: &Target,
        config: Arc<TableConfig>,
        counters: Arc<Counters>,
    ) -> Result<Table, String> {
        let players = config.rules()?.seats();
        let n = players + config.spectators;
        let mut sinks = Vec::with_capacity(n);
        let mut streams: Streams = SelectAll::new();
        for i in 0..n {
            let ws = target.connect().await?;
            let (sink, stream) = ws.split();
            sinks.push(sink);
            let tagged = stream.map(move |m| (i, Some(m))).chain(futures_util::stream::once(async move { (i, None) }));
            streams.push(Box::pin(tagged));
        }
        let mut table = Table {
            index,
            rng: Rng::new(config.seed ^ (index as u64).wrapping_mul(0x2545_F491_4F6C_DD1D)),
            config,
            counters,
            sinks,
            streams,
            conns: (0..n).map(|i| Conn::new(i < players)).collect(),
            room: String::new(),
            inflight: None,
            changed: Instant::now(),
            setup_error: None,
            in_setup: false,
            closing: false,
            broken: false,
        };
        for i in 0..n {
            table
                .send(i, &ConnectionMessage::Hello { protocol: fipsen_protocol::PROTOCOL_VERSION, client: None }.into())
                .await?;
        }
        table.wait_until("welcome", |t| t.conns.iter().all(|c| c.greeted)).await?;
        if !table.config.hello_only {
            table.open_room().await?;
        }
        Ok(table)
    }

    /// Creates the room, lets the other players and the spectators join, and starts the series.
    async fn open_room(&mut self) -> Result<(), String> {
        let rules = self.config.rules()?;
        let options = RoomOptions { next_deal_seconds: Some(0), ..RoomOptions::default() };
        let name = format!("t{}p0", self.index);
        self.send(0, &ConnectionMessage::CreateRoom { name, rules, options }.into()).await?;
        self.wait_until("the new room", |t| t.conns[0].joined).await?;
        for i in 1..self.conns.len() {
            let role = if self.conns[i].player { Role::Player } else { Role::Spectator };
            let name = format!("t{}{}{i}", self.index, if role == Role::Player { "p" } else { "s" });
            self.send(
                i,
                &ConnectionMessage::JoinRoom { room: self.room.clone(), name, role, token: None, key: None }.into(),
            )
            .await?;
        }
        self.wait_until("every join", |t| t.conns.iter().all(|c| c.joined)).await?;
        let seats: Vec<Option<Seat>> = self.conns.iter().filter(|c| c.player).map(|c| c.seat).collect();
        if seats.iter().any(Option::is_none) {
            return Err(format!("a player got no seat: {seats:?}"));
        }
        self.send(0, &RoomMessage::Start.into()).await?;
        self.wait_until("the series to start", |t| t.conns.iter().all(|c| c.status == "playing" && c.game.is_some()))
            .await
    }

    /// Leaves the room on every connection and opens a new one.
    ///
    /// # Errors
    /// The server refused a step, or a connection closed.
    pub async fn new_room(&mut self) -> Result<(), String> {
        for i in 0..self.conns.len() {
            self.conns[i].left = false;
            self.send(i, &ConnectionMessage::LeaveRoom.into()).await?;
        }
        self.wait_until("leaving the room", |t| t.conns.iter().all(|c| c.left)).await?;
        for conn in &mut self.conns {
            *conn = Conn { next_id: 1, ..Conn::new(conn.player) };
            conn.greeted = true;
        }
        self.open_room().await
    }

    async fn send(&mut self, i: usize, message: &ClientMessage) -> Result<(), String> {
        let text = serde_json::to_string(message).map_err(|e| format!("serialise: {e}"))?;
        Counters::add(&self.counters.frames_out, 1);
        if let Err(e) = self.sinks[i].send(Message::text(text)).await {
            self.disconnected(i, &format!("send failed: {e}"));
            return Err(format!("connection {i} of table {}: send failed: {e}", self.index));
        }
        Ok(())
    }

    /// Handles frames until `done` holds.
    async fn wait_until(&mut self, what: &str, done: impl Fn(&Table) -> bool) -> Result<(), String> {
        self.in_setup = true;
        let result = self.wait_until_inner(what, done).await;
        self.in_setup = false;
        result
    }

    async fn wait_until_inner(&mut self, what: &str, done: impl Fn(&Table) -> bool) -> Result<(), String> {
        let deadline = tokio::time::Instant::now() + SETUP_PATIENCE;
        while !done(self) {
            if let Some(error) = self.setup_error.take() {
                return Err(format!("table {} waiting for {what}: {error}", self.index));
            }
            if self.broken {
                return Err(format!("table {} waiting for {what}: a connection closed", self.index));
            }
            match tokio::time::timeout_at(deadline, self.streams.next()).await {
                Ok(Some((i, message))) => self.on_message(i, message, Instant::now()),
                Ok(None) => return Err(format!("table {}: every connection closed", self.index)),
                Err(_) => return Err(format!("table {}: timed out waiting for {what}", self.index)),
            }
        }
        if let Some(error) = self.setup_error.take() {
            return Err(format!("table {} waiting for {what}: {error}", self.index));
        }
        Ok(())
    }

    fn disconnected(&mut self, i: usize, why: &str) {
        if !self.conns[i].closed {
            self.conns[i].closed = true;
            if !self.closing {
                Counters::add(&self.counters.disconnects, 1);
                self.counters.error("loadgen/disconnected");
                self.broken = true;
                self.setup_error.get_or_insert_with(|| why.to_string());
            }
        }
    }

    fn on_message(&mut self, i: usize, message: Option<Result<Message, WsError>>, now: Instant) {
        match message {
            Some(Ok(Message::Text(text))) => self.on_text(i, text.as_str(), now),
            Some(Ok(Message::Close(frame))) => {
                let code = frame.map_or(1005, |f| u16::from(f.code));
                self.disconnected(i, &format!("closed by the server with {code}"));
            }
            Some(Ok(_)) => {}
            Some(Err(e)) => self.disconnected(i, &format!("connection error: {e}")),
            None => self.disconnected(i, "connection ended"),
        }
    }

    fn on_text(&mut self, i: usize, text: &str, now: Instant) {
        self.changed = now;
        Counters::add(&self.counters.frames_in, 1);
        Counters::add(&self.counters.bytes_in, text.len() as u64);
        if self.config.strict && serde_json::from_str::<ServerMessage>(text).is_err() {
            self.counters.error("loadgen/not_a_protocol_message");
        }
        let frame = match Frame::parse(text) {
            Ok(frame) => frame,
            Err(_) => {
                self.counters.error("loadgen/unreadable_frame");
                return;
            }
        };
        match frame.kind {
            Kind::Welcome => self.conns[i].greeted = true,
            Kind::Joined => {
                let conn = &mut self.conns[i];
                conn.joined = true;
                conn.last_seq = frame.seq.unwrap_or(0);
                if let Some(you) = &frame.you {
                    conn.seat = you.seat;
                    conn.token.clone_from(&you.token);
                    conn.next_id = you.last_act_id.map_or(1, |id| id + 1);
                }
                conn.state = State::snapshot(frame.room, frame.game);
                if let Some(room) = conn.state.room() {
                    conn.status = room.status;
                    if i == 0 {
                        self.room.clone_from(&room.room);
                    }
                    conn.room = Some(room.room);
                }
                conn.game = conn.state.game();
            }
            Kind::Update => {
                if self.conns[i].room.is_none() {
                    // An update of a room this connection has left (or not yet joined).
                    Counters::add(&self.counters.stray_updates, 1);
                    return;
                }
                Counters::add(&self.counters.updates_in, 1);
                Counters::add(&self.counters.update_bytes_in, text.len() as u64);
                let conn = &mut self.conns[i];
                let mut expected = conn.last_seq + 1;
                for event in &frame.events {
                    if event.seq > expected {
                        Counters::add(&self.counters.lost_events, event.seq - expected);
                        self.counters.error("loadgen/lost_event");
                    } else if event.seq < expected {
                        self.counters.error("loadgen/repeated_event");
                    }
                    expected = event.seq + 1;
                }
                conn.last_seq = frame.seq.unwrap_or(expected - 1).max(conn.last_seq);
                if conn.recent.len() == RECENT {
                    conn.recent.pop_front();
                }
                conn.recent.push_back((conn.last_seq, now));
                // A spectator's state is kept until its series has started (the setup waits for
                // that), and after only in a strict run: the moves are chosen from the players'.
                let keeps_state = conn.player || self.config.strict || !conn.started();
                if keeps_state {
                    match frame.patches() {
                        Ok(patches) => {
                            if conn.state.patch(patches).is_err() {
                                self.counters.error("loadgen/patch_does_not_fit");
                            }
                        }
                        Err(_) => self.counters.error("loadgen/unreadable_patches"),
                    }
                    if let Some(room) = conn.state.room() {
                        conn.status = room.status;
                    }
                    conn.game = conn.state.game();
                }
                self.resolve();
            }
            Kind::Ack => {
                if let Some(inflight) = &mut self.inflight
                    && inflight.actor == i
                    && Some(inflight.id) == frame.id
                    && inflight.ack_seq.is_none()
                {
                    inflight.ack_seq = frame.seq;
                    let mut stats = inflight.phase.stats.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                    stats.acked += 1;
                    stats.ack.record(now - inflight.sent);
                    drop(stats);
                    self.resolve();
                }
            }
            Kind::Error => {
                let code = frame.code.unwrap_or_else(|| "unknown".into());
                self.counters.error(&code);
                if let Some(inflight) = &self.inflight
                    && inflight.actor == i
                    && frame.id == Some(inflight.id)
                {
                    let mut stats = inflight.phase.stats.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                    stats.refused += 1;
                    drop(stats);
                    self.inflight = None;
                }
                if self.in_setup {
                    self.setup_error.get_or_insert_with(|| format!("the server refused: {code}"));
                }
            }
            Kind::Left => {
                self.conns[i].left = true;
                self.conns[i].room = None;
            }
            Kind::Pong | Kind::Other => {}
        }
    }

    /// Completes the move in flight once every connection has its event.
    fn resolve(&mut self) {
        let Some(inflight) = &mut self.inflight else { return };
        let Some(seq) = inflight.ack_seq else { return };
        for (j, conn) in self.conns.iter().enumerate() {
            if inflight.arrivals[j].is_none() {
                inflight.arrivals[j] = conn.recent.iter().find(|(s, _)| *s >= seq).map(|(_, t)| *t);
            }
        }
        if inflight.arrivals.iter().any(Option::is_none) {
            return;
        }
        let last = inflight.arrivals.iter().flatten().max().copied().unwrap_or(inflight.sent);
        let mut stats = inflight.phase.stats.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        stats.resolved += 1;
        stats.from_scheduled.record(last.saturating_duration_since(inflight.scheduled));
        stats.from_send.record(last.saturating_duration_since(inflight.sent));
        drop(stats);
        self.inflight = None;
    }

    /// The table's latest sequence number, if every player has seen it.
    fn synced_seq(&self) -> Option<u64> {
        let max = self.conns.iter().map(|c| c.last_seq).max()?;
        self.conns.iter().filter(|c| c.player).all(|c| c.last_seq == max).then_some(max)
    }

    /// Whether the room's series has played its last deal.
    pub fn series_over(&self) -> bool {
        self.conns.iter().any(|c| c.status == "over" || c.game.as_ref().is_some_and(|g| g.over))
    }

    /// The next move: who makes it, what, and the sequence number it answers. `None` while
    /// nobody may move (a broadcast still on its way).
    fn next_move(&mut self) -> Option<(usize, serde_json::Value, u64)> {
        let seq = self.synced_seq()?;
        let turn = self.conns.iter().filter(|c| c.player).find_map(|c| c.game.as_ref().and_then(|g| g.deal.turn));
        let actor = match turn {
            Some(turn) => self.conns.iter().position(|c| c.player && c.seat == Some(turn))?,
            None => self
                .conns
                .iter()
                .position(|c| c.player && c.game.as_ref().is_some_and(|g| !g.deal.prompt.is_empty()))?,
        };
        let deal = &self.conns[actor].game.as_ref()?.deal;
        let action = choose(&deal.prompt, deal.hand, &mut self.rng)?;
        Some((actor, action, seq))
    }

    /// Sends a move and starts measuring it.
    async fn make_move(
        &mut self,
        phase: &Arc<Phase>,
        scheduled: Instant,
        actor: usize,
        action: serde_json::Value,
        seq: u64,
    ) -> Result<(), String> {
        let id = self.conns[actor].next_id;
        self.conns[actor].next_id += 1;
        let ready = self.changed.max(scheduled);
        let sent = Instant::now();
        self.inflight = Some(Inflight {
            id,
            actor,
            scheduled,
            sent,
            ack_seq: None,
            arrivals: vec![None; self.conns.len()],
            phase: phase.clone(),
        });
        {
            let mut stats = phase.stats.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            stats.sent += 1;
            stats.lateness.record(sent.saturating_duration_since(ready));
        }
        self.send(actor, &RoomMessage::Act { id, seq, action }.into()).await
    }

    /// Plays `moves` moves one after the other (closed loop), each measured in `phase`.
    ///
    /// # Errors
    /// A move was refused, the series ended, or a connection closed.
    /// Returns how many moves were made: fewer if the series ended first.
    pub async fn play(&mut self, moves: usize, phase: &Arc<Phase>) -> Result<usize, String> {
        for made in 0..moves {
            self.wait_until("a move to make", |t| t.series_over() || t.can_move()).await?;
            if self.series_over() {
                return Ok(made);
            }
            let Some((actor, action, seq)) = self.next_move() else { return Err("no move offered".into()) };
            let now = Instant::now();
            self.make_move(phase, now, actor, action, seq).await?;
            self.wait_until("the move's events", |t| t.inflight.is_none()).await?;
        }
        // Every connection has the last event, and a deal that ended has been followed by the next.
        self.wait_until("the last events", |t| t.series_over() || t.can_move()).await?;
        Ok(moves)
    }

    fn can_move(&self) -> bool {
        self.synced_seq().is_some()
            && self.conns.iter().any(|c| c.player && c.game.as_ref().is_some_and(|g| !g.deal.prompt.is_empty()))
    }

    /// The room, its seat tokens by seat, the latest sequence number, and the host's latest
    /// frame (if kept).
    pub fn saved(&self) -> SavedRoom {
        let mut tokens: Vec<(u8, String)> =
            self.conns.iter().filter_map(|c| Some((c.seat?.0, c.token.clone()?))).collect();
        tokens.sort();
        SavedRoom {
            room: self.room.clone(),
            seq: self.conns.iter().map(|c| c.last_seq).max().unwrap_or(0),
            tokens: tokens.into_iter().map(|(_, t)| t).collect(),
            host_frame: self.config.keep_last.then(|| self.conns[0].state.value().to_string()),
        }
    }

    /// Plays on the schedules it is given until told to stop, then finishes its last move
    /// and closes its connections.
    pub async fn serve(mut self, mut control: watch::Receiver<Control>) {
        let mut phase: Option<Arc<Phase>> = None;
        let mut k: u64 = 0;
        let mut due_since: Option<Instant> = None;
        loop {
            if self.broken {
                break;
            }
            let mut wake_at = None;
            if let Some(p) = phase.clone()
                && self.inflight.is_none()
                && !self.config.hello_only
            {
                let due = p.scheduled(self.index, k);
                let now = Instant::now();
                if due < p.end && now >= due {
                    if self.series_over() {
                        Counters::add(&self.counters.series_completed, 1);
                        if let Err(e) = self.new_room().await {
                            self.counters.error("loadgen/new_room_failed");
                            eprintln!("{e}");
                            break;
                        }
                        let next = p.first_slot_from(self.index, Instant::now());
                        p.stats.lock().unwrap_or_else(std::sync::PoisonError::into_inner).skipped += next - k;
                        k = next;
                        continue;
                    }
                    if let Some((actor, action, seq)) = self.next_move() {
                        due_since = None;
                        if self.make_move(&p, due, actor, action, seq).await.is_err() {
                            break;
                        }
                        k += 1;
                        continue;
                    }
                    let since = *due_since.get_or_insert(now);
                    if now - since > STALL {
                        self.counters.error("loadgen/stalled");
                        eprintln!("table {} stalled: nobody may move (room {})", self.index, self.room);
                        break;
                    }
                } else if due < p.end {
                    wake_at = Some((p.clone(), due));
                }
            }
            let index = self.index;
            let wake = async {
                match &wake_at {
                    // The ticker wakes the table on time; the timer is only a safety net.
                    Some((p, due)) => {
                        let late = tokio::time::Instant::from_std(*due + Duration::from_millis(20));
                        tokio::select! {
                            () = p.wake[index].notified() => {}
                            () = tokio::time::sleep_until(late) => {}
                        }
                    }
                    None => std::future::pending::<()>().await,
                }
            };
            tokio::select! {
                biased;
                changed = control.changed() => {
                    if changed.is_err() {
                        break;
                    }
                    let now_control = control.borrow_and_update().clone();
                    match now_control {
                        Control::Hold => phase = None,
                        Control::Run(p) => {
                            phase = Some(p);
                            k = 0;
                            due_since = None;
                        }
                        Control::Stop => break,
                    }
                }
                item = self.streams.next() => match item {
                    Some((i, message)) => {
                        let first = (i, message, Instant::now());
                        for (i, message, at) in self.with_waiting(first).await {
                            self.on_message(i, message, at);
                        }
                    }
                    None => break,
                },
                () = wake => {}
            }
        }
        self.finish().await;
    }

    /// The message just taken and every other one already waiting on the table's connections,
    /// each stamped when it was taken, before any is handled: a frame's arrival is not put off
    /// by the handling of the frames that came with it (a real table's clients each handle their
    /// own).
    async fn with_waiting(&mut self, first: (usize, Received, Instant)) -> Vec<(usize, Received, Instant)> {
        let mut taken = vec![first];
        // Polled with the task's own waker: a connection with nothing waiting wakes the task
        // when something comes, as `next()` would have it.
        while let Some(Some((i, message))) = std::future::poll_fn(|cx| {
            std::task::Poll::Ready(match self.streams.poll_next_unpin(cx) {
                std::task::Poll::Ready(item) => Some(item),
                std::task::Poll::Pending => None,
            })
        })
        .await
        {
            taken.push((i, message, Instant::now()));
        }
        taken
    }

    /// Waits for the move in flight and for every connection to reach the table's last
    /// sequence number, then closes the connections.
    async fn finish(mut self) {
        let deadline = tokio::time::Instant::now() + DRAIN;
        while !self.broken {
            let max = self.conns.iter().map(|c| c.last_seq).max().unwrap_or(0);
            let caught_up = self.conns.iter().all(|c| c.last_seq == max);
            if self.inflight.is_none() && caught_up {
                break;
            }
            match tokio::time::timeout_at(deadline, self.streams.next()).await {
                Ok(Some((i, message))) => self.on_message(i, message, Instant::now()),
                Ok(None) | Err(_) => break,
            }
        }
        if !self.broken {
            if self.inflight.take().is_some() {
                Counters::add(&self.counters.unresolved, 1);
                self.counters.error("loadgen/unresolved_move");
            }
            let max = self.conns.iter().map(|c| c.last_seq).max().unwrap_or(0);
            let behind: u64 = self.conns.iter().map(|c| max - c.last_seq).sum();
            if behind > 0 {
                Counters::add(&self.counters.lost_events, behind);
                self.counters.error("loadgen/lost_event");
            }
        }
        self.closing = true;
        for sink in &mut self.sinks {
            let _ = tokio::time::timeout(Duration::from_secs(2), sink.close()).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(game: GameId, players: Option<u8>) -> TableConfig {
        TableConfig {
            game,
            players,
            spectators: 0,
            deals: Some(3),
            strict: false,
            hello_only: false,
            seed: 1,
            keep_last: false,
        }
    }

    #[test]
    fn tables_take_the_size_and_length_asked_for() {
        let tippen = config(GameId::Tippen, Some(6)).rules().unwrap();
        assert_eq!(tippen.seats(), 6);
        let wippen = config(GameId::Wippen, Some(4)).rules().unwrap();
        assert_eq!(wippen.seats(), 4);
        assert_eq!(serde_json::to_value(&wippen).unwrap()["deals"], 3);
        let prisdorf = config(GameId::Prisdorf, None).rules().unwrap();
        assert_eq!(prisdorf.seats(), GameRules::default_for(GameId::Prisdorf).seats());
        assert_eq!(serde_json::to_value(&prisdorf).unwrap()["deals"], 3);
        // A size the game is not played at.
        assert!(config(GameId::Tippen, Some(1)).rules().is_err());
    }
}
