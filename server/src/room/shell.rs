//! The room's task: a thin shell around the [`Core`]. It receives a command, has the core
//! decide it, stores each record the decision makes, applies the changes, carries out the
//! effects, sends every viewer his frame, and sleeps until the next deadline or input.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use fipsen_protocol::{CloseCode, ErrorCode, LobbyRoom, ServerMessage};
use fipsen_rules::{GameAction, Seat};
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;
use tracing::{debug, error, info, warn};

use super::command::{JoinKind, JoinRefusal, RoomCommand};
use super::core::{At, Change, Command, Core, Decision, Effect};
use super::host::RoomHost;
use super::link::{ConnId, ConnLink, Outgoing};
use super::record::{Damaged, Record};
use crate::fair::FairQueue;
use crate::frames::Base;
use crate::lease::RoomLease;
use crate::metrics::{Metrics, inc};
use crate::secrets;
use crate::storage::{Fence, NewRecord, ROOM_RECORD_FORMAT, RoomMeta, Storage, StorageError, StoredRecord, StoredRoom};

/// A connection in the room, as the shell keeps it.
#[derive(Debug)]
pub(super) struct Member {
    pub(super) link: ConnLink,
    /// The state (`{"room": …, "game": …}`) this connection was last sent: its next `update`
    /// patches it. Connections of one viewer share it after an update.
    pub(super) base: Arc<Base>,
}

/// Settings every room shares.
#[derive(Debug, Clone)]
pub struct RoomEnv {
    /// Storage.
    pub storage: Storage,
    /// Metrics.
    pub metrics: Arc<Metrics>,
    /// The server holding the room ([`RoomHost`]: the registry).
    pub host: Arc<dyn RoomHost>,
    /// How long a room with nobody connected stays in memory.
    pub idle: Duration,
    /// Turns to compute a review or a replay, shared fairly between addresses by every room.
    pub reviews: Arc<FairQueue>,
    /// Most spectators one room lets watch at once (`--max-spectators`).
    pub max_spectators: u32,
}

/// A bot's next move: when it is due, and for which state of the game.
#[derive(Debug)]
struct BotTurn {
    seat: Seat,
    /// The game state it was planned at: a later game event makes it stale.
    game_seq: u64,
    /// When it starts thinking.
    at: Instant,
    /// The decision, once it is being computed on a blocking thread.
    thinking: Option<JoinHandle<Option<GameAction>>>,
}

/// A room, owned by its task.
#[derive(Debug)]
pub struct Room {
    pub(super) core: Core,
    instance: u64,
    pub(super) members: HashMap<ConnId, Member>,
    bot_turn: Option<BotTurn>,
    /// Storing failed: what is due waits until then (a second later), so that a failing disk
    /// does not spin the task.
    retry_at: Option<Instant>,
    /// Reviews and replays computed off the room's task come back here, so that a connection
    /// gets its answer only while it is still in the room (never after its `left`). Boxed: the
    /// channel reserves a block of 32 entries when it is made, and a message is over 1 KiB.
    answers_tx: mpsc::UnboundedSender<(ConnId, Box<ServerMessage>)>,
    answers_rx: mpsc::UnboundedReceiver<(ConnId, Box<ServerMessage>)>,
    lobby: watch::Sender<Option<LobbyRoom>>,
    pub(super) env: RoomEnv,
    /// Every seated person agreed: the room is deleted and its task ends.
    deleted: bool,
    /// The room's lease, in cluster mode: every record is stored under it.
    lease: Option<Arc<RoomLease>>,
    /// What tells the series' scoresheet from another's, once it has a row
    /// ([`crate::frames::first_row`]): worked out once, as a room plays one series only.
    pub(super) sheet: Option<u64>,
}

/// The time now, for the core.
fn at_now() -> At {
    let unix_ms =
        SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
    At { now: Instant::now(), unix_ms }
}

impl Room {
    fn with_core(mut core: Core, instance: u64, lobby: watch::Sender<Option<LobbyRoom>>, env: RoomEnv) -> Room {
        core.set_audience_cap(env.max_spectators);
        let (answers_tx, answers_rx) = mpsc::unbounded_channel();
        Room {
            core,
            instance,
            members: HashMap::new(),
            bot_turn: None,
            retry_at: None,
            answers_tx,
            answers_rx,
            lobby,
            env,
            deleted: false,
            lease: None,
            sheet: None,
        }
    }

    /// Stores every record under `lease` from now on (cluster mode); the room stops at once when
    /// the lease is lost.
    pub fn hold(&mut self, lease: Option<Arc<RoomLease>>) {
        self.lease = lease;
    }

    /// The lease every write of the room carries, in cluster mode.
    pub(super) fn fence(&self) -> Option<Fence> {
        self.lease.as_ref().map(|lease| lease.fence.clone())
    }

    /// Whether the room's lease is gone: it must stop at once, applying nothing more.
    fn lost(&self) -> bool {
        self.lease.as_ref().is_some_and(|lease| lease.is_lost())
    }

    /// Whether the room may move to another server without cutting into a deal: nobody is
    /// connected to it, or no deal is being played (before the series, between deals, after it).
    /// A tournament table never moves: its bots play on with nobody there, it reports each deal
    /// to its tournament, and it lives for one round only.
    fn at_rest(&self) -> bool {
        !self.core.is_tournament_table()
            && (self.members.is_empty()
                || self.core.series().is_none_or(|series| series.deal_over() || series.series_over()))
    }

    /// A new, empty room (already stored by the caller).
    pub fn new(meta: RoomMeta, instance: u64, lobby: watch::Sender<Option<LobbyRoom>>, env: RoomEnv) -> Room {
        let core = Core::new(meta, env.idle, Instant::now());
        Room::with_core(core, instance, lobby, env)
    }

    /// Seats a new room by its first records (a tournament table's seats and start, or the
    /// seats of a room to play again in): the records the room is stored with, each with the
    /// sequence number before it. Every person's seat is then held for him for the grace period,
    /// as after a restart, so that it opens (and a bot may stand in) if he never comes.
    pub fn seat(&mut self, records: Vec<Record>) -> Vec<StoredRecord> {
        let now = Instant::now();
        let mut stored = Vec::new();
        for record in records {
            let seq_before = self.core.seq();
            // Serialising a record cannot fail: every map key is a string.
            let json = serde_json::to_string(&record).unwrap_or_default();
            self.core.apply(&Change::Record(record), now);
            stored.push(StoredRecord { index: stored.len() as u64, seq_before, json, format: ROOM_RECORD_FORMAT });
        }
        self.core.hold_absent_seats(now);
        stored
    }

    /// Rebuilds a room from storage by replaying its records. Nobody is connected afterwards:
    /// every seat is held for its player for the grace period, and a deal that was over waits
    /// for its pause again.
    ///
    /// # Errors
    /// The stored room does not rebuild exactly what was acknowledged (see [`Damaged`]): it is
    /// not rebuilt at all (it would come back different).
    ///
    /// `indexed` is the last deal the stored deal index holds: the rows of the deals after it
    /// are made as the records are replayed, to be stored by [`Room::store_index`].
    pub fn restore(
        stored: StoredRoom,
        instance: u64,
        lobby: watch::Sender<Option<LobbyRoom>>,
        env: RoomEnv,
        indexed: u32,
    ) -> Result<Room, Damaged> {
        let records = Record::read_all(&stored)?;
        let core = Core::restore_indexing(stored.meta, env.idle, &records, Instant::now(), indexed)?;
        Ok(Room::with_core(core, instance, lobby, env))
    }

    /// Stores the deal index's rows of the deals that ended since it last did
    /// ([`crate::room::series_index`]). A row that cannot be stored is kept and stored with the next
    /// (and a row lost with the process is made again at the room's restore): the room plays on.
    pub async fn store_index(&mut self) {
        let rows = self.core.take_index();
        if rows.is_empty() {
            return;
        }
        if let Err(e) = self.env.storage.put_deals(self.core.code().clone(), rows.clone()).await {
            warn!(room = %self.core.code(), error = %e, "cannot store the deal index; kept to store with the next deal");
            self.core.put_back_index(rows);
        }
    }

    /// The invite code.
    pub fn code(&self) -> &Arc<str> {
        self.core.code()
    }

    /// Runs the room until it has been empty for the idle time, or every sender is gone. The
    /// room comes boxed, so that the task that runs it holds it once.
    pub async fn run(mut self: Box<Self>, mut rx: mpsc::Receiver<RoomCommand>) {
        // A table restored after a crash may hold deals its tournament never stored.
        self.report();
        // The handlers' futures are boxed while they run: held inline, the largest of them
        // would make every room's task several KiB larger for its whole life, idle or not.
        loop {
            if self.lost() {
                break;
            }
            Box::pin(self.settle()).await;
            if self.lost() || self.deleted || self.core.idle_expired(Instant::now()) {
                break;
            }
            self.plan_bots();
            self.start_thinking(Instant::now());
            self.publish_lobby();
            if let Some(lease) = &self.lease {
                lease.set_at_rest(self.at_rest());
            }
            let wake = self.next_wake();
            tokio::select! {
                command = rx.recv() => match command {
                    Some(command) => Box::pin(self.handle(command)).await,
                    None => break,
                },
                () = sleep_until(wake) => {}
                decision = bot_decision(&mut self.bot_turn) => Box::pin(self.on_bot_decision(decision)).await,
                Some((conn, answer)) = self.answers_rx.recv() => {
                    if self.members.contains_key(&conn) {
                        self.send_to(conn, &answer);
                    }
                }
                () = crate::lease::until_lost(self.lease.clone()) => {}
            }
        }
        if let Some(thinking) = self.bot_turn.take().and_then(|turn| turn.thinking) {
            thinking.abort();
        }
        Box::pin(self.close(&mut rx)).await;
    }

    async fn close(&mut self, rx: &mut mpsc::Receiver<RoomCommand>) {
        let code = self.core.code().clone();
        if self.lost() {
            // Another server owns the room now: it stays marked open, for that one, and every
            // connection goes there.
            if self.lease.as_ref().is_some_and(|lease| lease.is_handed_over()) {
                info!(room = %code, connections = self.members.len(), "the room is handed over: stopped here");
            } else {
                inc(&self.env.metrics.rooms_lost);
                warn!(room = %code, connections = self.members.len(), "the room's lease is lost: stopped here, connections closed with 1012");
            }
            for (_, member) in self.members.drain() {
                let _ = member.link.tx.try_send(Outgoing::Close(CloseCode::Restart));
                member.link.close_now(CloseCode::Restart);
            }
        } else if !self.deleted {
            info!(room = %code, "closing the room in memory (kept in storage)");
            if let Err(e) = self.env.storage.set_active_under(self.fence(), code.clone(), false).await {
                warn!(room = %code, error = %e, "cannot mark the room closed");
            }
            // Closed here: any server may open it next.
            if let Some(lease) = &self.lease
                && let Err(e) = self.env.storage.release(code.clone(), lease.fence.clone()).await
            {
                warn!(room = %code, error = %e, "cannot release the room's lease");
            }
        }
        self.env.host.room_closed(&code, self.instance);
        rx.close();
        // Whoever reached the room before it left the registry opens it again.
        while let Some(command) = rx.recv().await {
            match command {
                RoomCommand::Join(join) => {
                    let _ = join.reply.send(Err(JoinRefusal::Closed));
                }
                RoomCommand::Summary { participant, reply } => {
                    let _ = reply.send(self.core.summary(participant).filter(|_| !self.deleted));
                }
                RoomCommand::Peek { reply } => {
                    let _ = reply.send(self.core.info());
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

    async fn handle(&mut self, command: RoomCommand) {
        match command {
            RoomCommand::Join(join) => {
                let super::command::Join { link, kind, seen, reply } = *join;
                let conn = link.id;
                let result = self.join(link, kind, seen).await.map_err(JoinRefusal::Refused);
                let admitted = result.is_ok();
                // Nobody waits for the answer any more (the client's socket closed while the
                // join waited): the connection leaves at once instead of holding the seat.
                if reply.send(result).is_err() && admitted {
                    debug!(room = %self.core.code(), conn, "a join whose connection is gone: it leaves");
                    self.leave(conn);
                }
            }
            RoomCommand::Request { conn, request, received } => {
                let id = request.id();
                match self.execute(Command::Request { conn, request: *request }, None).await {
                    // The lease is gone: the connection is closed with 1012 and resumes where
                    // the room went, which answers the request again.
                    Err(_) if self.lost() => {}
                    Err(code) => {
                        self.env.metrics.error(code.code());
                        self.send_to(conn, &ServerMessage::error(code, id));
                    }
                    Ok(()) if id.is_some() => self.env.metrics.action_latency.observe(received.elapsed()),
                    Ok(()) => {}
                }
            }
            RoomCommand::Leave { conn, reply } => {
                self.leave(conn);
                if let Some(reply) = reply {
                    let _ = reply.send(());
                }
            }
            RoomCommand::Summary { participant, reply } => {
                let _ = reply.send(self.core.summary(participant));
            }
            RoomCommand::Peek { reply } => {
                let _ = reply.send(self.core.info());
            }
        }
    }

    /// A connection enters: refused, or admitted with its snapshot while the room hears of it.
    async fn join(&mut self, link: ConnLink, kind: JoinKind, seen: u64) -> Result<(), ErrorCode> {
        let conn = link.id;
        let fresh_token = secrets::seat_token();
        let decision = self.core.decide(Command::Join { conn, kind, fresh_token, seen }, at_now())?;
        self.members.insert(conn, Member { link, base: Arc::new(Base::empty()) });
        let result = self.carry_out(decision, Some(conn)).await;
        if result.is_err() {
            self.members.remove(&conn);
        }
        result
    }

    /// A connection leaves the room (closed, dropped, or `leave_room`); the room hears of it.
    pub(super) fn leave(&mut self, conn: ConnId) {
        self.members.remove(&conn);
        let Ok(decision) = self.core.decide(Command::Leave { conn }, at_now()) else { return };
        let now = Instant::now();
        let events: Vec<_> = decision.changes.iter().flat_map(|change| self.core.apply(change, now)).collect();
        self.broadcast(&events, None);
    }

    /// Decides `command` and carries the decision out.
    pub(super) async fn execute(&mut self, command: Command, origin: Option<ConnId>) -> Result<(), ErrorCode> {
        let decision = self.core.decide(command, at_now())?;
        self.carry_out(decision, origin).await
    }

    /// Stores each record of a decision and applies each change, then carries out its effects
    /// and broadcasts the events (to everyone but `joining`, who got the snapshot). If storing
    /// fails, that change and those after it are not made.
    async fn carry_out(&mut self, decision: Decision, joining: Option<ConnId>) -> Result<(), ErrorCode> {
        let mut events = Vec::new();
        let mut result = Ok(());
        for change in &decision.changes {
            if let Change::Record(record) = change
                && let Err(code) = self.store(record).await
            {
                result = Err(code);
                break;
            }
            let counted = self.core.counted_deals();
            events.extend(self.core.apply(change, Instant::now()));
            if self.core.counted_deals() > counted {
                self.report();
            }
        }
        // A deal that ended has its index row stored before anyone hears of it, so that its
        // series page and replay are there as soon as it is seen over.
        self.store_index().await;
        if result.is_ok() {
            for effect in decision.effects {
                if let Err(code) = self.effect(effect).await {
                    result = Err(code);
                    break;
                }
            }
        }
        self.broadcast(&events, joining);
        result
    }

    /// Stores a record before it is applied.
    async fn store(&mut self, record: &Record) -> Result<(), ErrorCode> {
        let code = self.core.code().clone();
        let json = serde_json::to_string(record).map_err(|_| ErrorCode::Storage)?;
        let token = match record {
            Record::Joined { participant, token_hash, .. } => Some((token_hash.clone(), *participant)),
            _ => None,
        };
        let (index, seq_before) = (self.core.records(), self.core.seq());
        let stored = match &self.lease {
            None => self.env.storage.append(code.clone(), index, seq_before, json, token).await,
            Some(lease) => {
                let record = NewRecord { room: code.clone(), index, seq_before, json, token, fence: None };
                self.env.storage.append_fenced(lease.fence.clone(), record).await
            }
        };
        match stored {
            Ok(()) => {}
            Err(e @ StorageError::Fenced { .. }) => {
                error!(room = %code, error = %e, "a record was refused: another server owns the room; stopping here");
                if let Some(lease) = &self.lease {
                    lease.lose();
                }
                return Err(ErrorCode::Storage);
            }
            Err(e) => {
                warn!(room = %code, error = %e, "storing a record failed");
                return Err(ErrorCode::Storage);
            }
        }
        match record {
            Record::Act { seat, action, .. } | Record::BotAct { seat, action } => {
                inc(&self.env.metrics.actions);
                debug!(room = %code, seat = seat.0, kind = action.kind(), "action accepted");
            }
            Record::Joined { participant, seat, .. } => {
                info!(room = %code, participant, seat = ?seat.map(|s| s.0), "player joined");
            }
            Record::Started => info!(room = %code, "series started"),
            Record::BotAdded { seat, level, .. } => {
                info!(room = %code, seat = seat.0, level = level.name(), "bot added")
            }
            Record::BotRemoved { seat } => info!(room = %code, seat = seat.0, "bot removed"),
            Record::HostChanged { participant } => {
                info!(room = %code, participant, "the host is gone; another player is host now");
            }
            _ => {}
        }
        Ok(())
    }

    /// Carries out one effect of a decision.
    async fn effect(&mut self, effect: Effect) -> Result<(), ErrorCode> {
        match effect {
            Effect::Ack { conn, id } => {
                let seq = self.core.seq();
                self.send_to(conn, &ServerMessage::Ack { id, seq });
            }
            Effect::Send { conn, message } => self.send_to(conn, &message),
            Effect::Refuse { conn, code, id, message } => {
                self.env.metrics.error(code.code());
                self.send_to(conn, &ServerMessage::error_with(code, id, message));
            }
            Effect::Close { conn } => self.replace(conn),
            Effect::Admit { conn, token, last_seq } => self.admit(conn, token, last_seq),
            Effect::Review { conn, seat, deal, at_hand, seed } => self.review(conn, seat, deal, at_hand, seed)?,
            Effect::Replay { conn, seat, deal } => self.replay(conn, seat, deal)?,
            Effect::Delete => self.delete().await?,
            Effect::OpenRematch { records } => self.open_rematch(records).await?,
        }
        Ok(())
    }

    /// Whatever is due now: see [`Command::Tick`]. A tick's changes may make more due (a seat
    /// opened past its grace period passes the host's part on), so it ticks until nothing is.
    async fn settle(&mut self) {
        let now = Instant::now();
        if self.retry_at.is_some_and(|at| at > now) {
            return;
        }
        self.retry_at = None;
        for _ in 0..4 {
            let Ok(decision) = self.core.decide(Command::Tick, at_now()) else { return };
            if decision.changes.is_empty() {
                return;
            }
            if self.carry_out(decision, None).await.is_err() {
                warn!(room = %self.core.code(), "cannot store what is due; retrying in a second");
                self.retry_at = Some(now + Duration::from_secs(1));
                return;
            }
        }
    }

    /// Where reviews and replays computed off the task send their answers.
    pub(super) fn answers_tx(&self) -> mpsc::UnboundedSender<(ConnId, Box<ServerMessage>)> {
        self.answers_tx.clone()
    }

    /// The series was deleted: the task ends after this command.
    pub(super) fn mark_deleted(&mut self) {
        self.deleted = true;
    }

    /// Sets the room's lobby entry, if it changed.
    pub(super) fn lobby_entry(&self, entry: Option<LobbyRoom>) {
        self.lobby.send_if_modified(|current| {
            if *current == entry {
                false
            } else {
                *current = entry.clone();
                true
            }
        });
    }

    fn next_wake(&self) -> Option<Instant> {
        let due = self.core.next_deadline().map(|at| self.retry_at.map_or(at, |retry| at.max(retry)));
        let bot = self.bot_turn.as_ref().filter(|turn| turn.thinking.is_none()).map(|turn| turn.at);
        [due, bot].into_iter().flatten().min()
    }

    /// Tells a tournament table's tournament every deal that counted so far.
    fn report(&self) {
        if let Some(report) = self.core.table_report() {
            self.env.host.table_played(report);
        }
    }

    // ----- bots -----

    /// Forgets the planned bot move (tests plan it again).
    #[cfg(test)]
    pub(super) fn forget_bot_turn(&mut self) {
        self.bot_turn = None;
    }

    /// When the planned bot move is due.
    #[cfg(test)]
    pub(super) fn bot_turn_at(&self) -> Option<Instant> {
        self.bot_turn.as_ref().map(|turn| turn.at)
    }

    /// Plans the next bot move the core calls for, keeping a plan that still stands.
    pub(super) fn plan_bots(&mut self) {
        let call = self.core.bot_call();
        let stands = self.bot_turn.as_ref().is_some_and(|turn| self.core.bot_call_stands(turn.seat, turn.game_seq));
        if stands && call.is_some() {
            // The plan stands (or is being retried after storing failed).
            return;
        }
        // The game moved on (or the seat changed hands, or nobody is here): that plan is void.
        if let Some(thinking) = self.bot_turn.take().and_then(|turn| turn.thinking) {
            thinking.abort();
        }
        if let Some(call) = call {
            let at = self.paced(Instant::now() + call.pause);
            self.bot_turn = Some(BotTurn { seat: call.seat, game_seq: call.game_seq, at, thinking: None });
        }
    }

    /// When a bot move planned for `at` may be made. A practice table (a person seated and
    /// connected) plays at the room's own pace. A table whose bots play only for those watching
    /// plays fast, but never as fast as the server can: it takes its turn in the pace of the
    /// address watching it longest, shared by every such room watched from there
    /// ([`Registry::unattended_bot_move`]). A tournament table is left at its pace: it plays as
    /// many deals as its round has.
    fn paced(&self, at: Instant) -> Instant {
        if self.core.is_tournament_table() || self.core.person_at_table() {
            return at;
        }
        match self.members.iter().min_by_key(|(conn, _)| **conn) {
            Some((_, watcher)) => self.env.host.bot_move_at(watcher.link.addr, at),
            None => at,
        }
    }

    /// Once a planned bot move is due, computes it on a blocking thread from that seat's view.
    fn start_thinking(&mut self, now: Instant) {
        let Some(turn) = &self.bot_turn else { return };
        if turn.thinking.is_some() || turn.at > now {
            return;
        }
        let Some((level, seed, view)) = self.core.bot_job(turn.seat) else { return };
        let handle = tokio::task::spawn_blocking(move || fipsen_bots::games::choose(level, seed, &view));
        if let Some(turn) = &mut self.bot_turn {
            turn.thinking = Some(handle);
        }
    }

    /// A bot's decision is ready: the core checks it like a person's action.
    async fn on_bot_decision(&mut self, decision: Result<Option<GameAction>, tokio::task::JoinError>) {
        let Some(turn) = self.bot_turn.take() else { return };
        let action = decision.ok().flatten();
        let command = Command::Bot { seat: turn.seat, game_seq: turn.game_seq, action };
        if let Err(code) = self.execute(command, None).await {
            warn!(room = %self.core.code(), code = code.code(), "cannot store a bot action; retrying in a second");
            let at = Instant::now() + Duration::from_secs(1);
            self.bot_turn = Some(BotTurn { seat: turn.seat, game_seq: turn.game_seq, at, thinking: None });
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

/// Resolves once the room's lease is lost; never without a lease.
async fn sleep_until(wake: Option<Instant>) {
    match wake {
        Some(t) => tokio::time::sleep_until(t.into()).await,
        None => std::future::pending().await,
    }
}
