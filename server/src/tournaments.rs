//! Tournaments: one task per tournament, owning its state (the pure [`Tournament`] of the
//! `fipsen-tournament` crate), its tokens, the invite codes of its tables and its watchers.
//!
//! * Every change is a list of [`TournamentEvent`]s (and the server's own records: the tokens,
//!   the tables' codes): checked on a copy, **stored**, and only then applied, answered and
//!   broadcast. Replaying the stored records with [`Tournament::from_events`] rebuilds the task
//!   after a restart.
//! * Each table of a round is an ordinary room ([`crate::room`]) created with the table's rules,
//!   the master seed [`Tournament::table_seed`] and a [`TableLink`]; its entrants sit where the
//!   round seats them and come in with their entrant token (the room holds its hash), bots
//!   entrants sit as bots. The room tells the tournament every deal that counted
//!   ([`TableReport`]); the tournament records each once and broadcasts the live standings.
//! * The tables of the round being played are opened when the task starts, so that a table
//!   whose last deals were stored by its room but not yet by the tournament (the server was
//!   killed in between) reports them again.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use dashmap::DashMap;
use dashmap::mapref::entry::Entry;
use fipsen_protocol::{
    CloseCode, ErrorCode, MAX_TITLE_CHARS, RoomOptions, SeatingPreview, ServerMessage, TOURNAMENT_PAGE,
    TournamentState, TournamentSummary, TournamentTables, TournamentYou,
};
use fipsen_rules::Seed;
use fipsen_tournament::{
    DealResult, EntrantId, Phase, Results, Settings, TIE_BREAK, TableId, Tournament, TournamentError, TournamentEvent,
    TournamentId,
};
use serde::{Deserialize, Serialize};
use tokio::sync::{mpsc, oneshot, watch};
use tracing::{error, info, warn};

use crate::keys::tournament_key;
use crate::lease::RoomLease;
use crate::metrics::{Metrics, inc};
use crate::quota::{Bucket, address_key};
use crate::registry::Registry;
use crate::room::{ConnId, ConnLink, Outgoing, TableSeat};
pub use crate::room::{TableLink, TableReport};
use crate::secrets;
use crate::storage::{RoomMeta, Storage, StorageError, StoredTournament, TOURNAMENT_RECORD_FORMAT};
use crate::text::{clean_name, clean_text};

/// Commands queued for one tournament before senders wait.
const TOURNAMENT_QUEUE: usize = 256;
/// How long a tournament waits before trying again what storage refused (opening a table,
/// recording a table's deals).
const RETRY: Duration = Duration::from_secs(2);
/// An address earns one more registration for a tournament this often (after its burst).
const REGISTRATION_REFILL: Duration = Duration::from_secs(15);

/// What the operator allows every tournament.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The most entrants a tournament may take (`--max-tournament-entrants`).
    pub max_entrants: u32,
    /// Registrations one address may make for one tournament in a burst
    /// (`--registrations-per-address`; 0: no limit).
    pub registrations_per_address: u32,
}

/// What a tournament stores: its events, and the server's own records beside them.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "record", rename_all = "snake_case")]
enum Stored {
    /// An event of the tournament crate (the first one is `created`).
    Event {
        /// The event.
        event: TournamentEvent,
    },
    /// The organiser's token (its hash) and the options of the tables' rooms.
    Organiser {
        /// SHA-256 of the organiser's token.
        token_hash: String,
        /// The options of every table's room.
        tables: RoomOptions,
    },
    /// An entrant's token (its hash).
    Entrant {
        /// The entrant.
        entrant: EntrantId,
        /// SHA-256 of his token.
        token_hash: String,
    },
    /// The invite codes of a round's tables, in table order.
    Rooms {
        /// The round.
        round: u32,
        /// The codes.
        rooms: Vec<String>,
    },
}

/// Why a request to a tournament was refused: a server code, or the tournament crate's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// A server code.
    Code(ErrorCode),
    /// The tournament crate's refusal.
    Tournament(TournamentError),
}

impl Refusal {
    /// The error frame.
    pub fn message(&self) -> ServerMessage {
        match self {
            Refusal::Code(code) => ServerMessage::error(*code, None),
            Refusal::Tournament(error) => ServerMessage::tournament_error(error),
        }
    }

    /// The stable code, for metrics.
    pub fn code(&self) -> &'static str {
        match self {
            Refusal::Code(code) => code.code(),
            Refusal::Tournament(error) => error.code(),
        }
    }
}

impl From<ErrorCode> for Refusal {
    fn from(code: ErrorCode) -> Self {
        Refusal::Code(code)
    }
}

impl From<TournamentError> for Refusal {
    fn from(error: TournamentError) -> Self {
        Refusal::Tournament(error)
    }
}

/// What only the organiser may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum OrganiserAction {
    /// Remove an entrant before the start.
    Remove(EntrantId),
    /// Close registration.
    Close,
    /// Start round 1.
    Start {
        /// Add the fewest bots that seat the entrants.
        fill_with_bots: bool,
    },
    /// Start the next round.
    NextRound,
}

/// What a tournament task is told. Every answer goes to the connection's own queue, in order.
#[derive(Debug)]
pub enum Command {
    /// `peek_tournament`: the state, once.
    Peek {
        /// The connection.
        link: ConnLink,
    },
    /// `watch_tournament`: the state now and at every change. Answered `true` once watching.
    Watch {
        /// The connection.
        link: ConnLink,
        /// The organiser's or an entrant's token.
        token: Option<String>,
        /// Whether the connection watches now.
        reply: oneshot::Sender<bool>,
    },
    /// The connection no longer watches.
    Unwatch {
        /// The connection.
        conn: ConnId,
    },
    /// `register`. Answered `true` once registered (and watching).
    Register {
        /// The connection.
        link: ConnLink,
        /// Its address (for the registrations one address may make).
        peer: IpAddr,
        /// The name.
        name: String,
        /// Whether the connection registered (and watches now).
        reply: oneshot::Sender<bool>,
    },
    /// An organiser's request.
    Organise {
        /// The connection.
        link: ConnLink,
        /// The organiser's token.
        token: String,
        /// What he asks.
        action: OrganiserAction,
    },
    /// `tournament_results`: the standings, or one round's tables.
    Results {
        /// The connection.
        link: ConnLink,
        /// The round whose tables are asked for.
        round: Option<u32>,
    },
    /// A table's deals.
    Report {
        /// Every deal that counted at one table.
        results: Vec<DealResult>,
    },
}

/// A tournament task's handle.
#[derive(Debug, Clone)]
pub struct TournamentHandle {
    /// Which task.
    pub instance: u64,
    /// The link code.
    pub id: Arc<str>,
    /// When it was created (milliseconds since 1970): the public list is newest first.
    pub created_at: u64,
    /// The command queue.
    pub tx: mpsc::Sender<Command>,
    /// Its entry in the public list, while it is listed and not over.
    pub listing: watch::Receiver<Option<TournamentSummary>>,
    /// In cluster mode, the lease it runs under here (or, for a tournament relayed to another
    /// server, that server's lease).
    pub lease: Option<Arc<RoomLease>>,
}

/// Every tournament in memory (the ones not yet over, and those opened since the start).
#[derive(Debug)]
pub struct Tournaments {
    map: DashMap<Arc<str>, TournamentHandle>,
    storage: Storage,
    registry: Arc<Registry>,
    metrics: Arc<Metrics>,
    limits: Limits,
    instances: AtomicU64,
    /// Itself, for the tasks it starts.
    me: Weak<Tournaments>,
    /// In cluster mode, one tournament is claimed at a time (a second claim of the same one
    /// would void the first one's lease).
    claiming: tokio::sync::Mutex<()>,
}

fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

impl Tournaments {
    /// The tournaments, taking the tables' reports from `registry` from now on.
    pub fn start(storage: Storage, registry: Arc<Registry>, metrics: Arc<Metrics>, limits: Limits) -> Arc<Tournaments> {
        let tournaments = Arc::new_cyclic(|me| Tournaments {
            map: DashMap::new(),
            storage,
            registry: registry.clone(),
            metrics,
            limits,
            instances: AtomicU64::new(1),
            me: me.clone(),
            claiming: tokio::sync::Mutex::new(()),
        });
        let (tx, mut rx) = mpsc::unbounded_channel::<TableReport>();
        registry.set_reports(tx);
        let weak = Arc::downgrade(&tournaments);
        tokio::spawn(async move {
            while let Some(report) = rx.recv().await {
                let Some(tournaments) = weak.upgrade() else { break };
                match tournaments.open(&report.tournament).await {
                    Ok(handle) => {
                        if handle.tx.send(Command::Report { results: report.results }).await.is_err() {
                            warn!(tournament = %report.tournament, "a tournament task is gone: a table's deals wait");
                        }
                    }
                    Err(code) => {
                        warn!(tournament = %report.tournament, code = code.code(), "a table's tournament cannot be opened");
                    }
                }
            }
        });
        tournaments
    }

    /// Opens every tournament not yet over (and with it the tables of its round being played).
    ///
    /// # Errors
    /// Storage could not be read.
    pub async fn restore_active(self: &Arc<Self>) -> Result<usize, StorageError> {
        let ids = self.storage.active_tournaments().await?;
        let mut restored = 0;
        for id in ids {
            match self.open(&id).await {
                Ok(_) => restored += 1,
                Err(code) => warn!(tournament = %id, code = code.code(), "cannot restore a tournament"),
            }
        }
        Ok(restored)
    }

    /// Checks a new tournament's organiser name, settings and tables without storing anything
    /// or counting against any allowance: a refused tournament costs its creator nothing.
    ///
    /// A tournament takes at most `--max-tournament-entrants` players: settings without a cap get
    /// that one, and a larger cap is refused.
    ///
    /// # Errors
    /// `name/invalid`, `options/invalid`, or the tournament crate's refusal of the settings or the
    /// name.
    pub fn check(
        &self,
        organiser: &str,
        mut settings: Settings,
        tables: Option<TournamentTables>,
    ) -> Result<NewTournament, Refusal> {
        let organiser = clean_name(organiser)?;
        // Spectators of a table ahead would see deals that the other tables of its size have
        // still to play: duplicate tournaments have none unless the organiser asks for them.
        let tables = tables.unwrap_or_default().for_tournament(settings.duplicate);
        if !tables.is_valid() {
            return Err(ErrorCode::OptionsInvalid.into());
        }
        settings.name = clean_text(&settings.name);
        check_tables_end(&settings)?;
        let max = self.limits.max_entrants;
        match settings.max_entrants {
            None => settings.max_entrants = Some(max),
            Some(cap) if cap > max => {
                return Err(TournamentError::InvalidSettings(format!(
                    "this server takes at most {max} players in a tournament, not {cap}"
                ))
                .into());
            }
            Some(_) => {}
        }
        let id = secrets::invite_code();
        let (tournament, events) = Tournament::create(TournamentId(id.clone()), settings, &organiser)?;
        Ok(NewTournament { id, tournament, events, tables })
    }

    /// Stores a tournament that [`Tournaments::check`] accepted, and starts its task. Returns its
    /// handle and the organiser's token.
    ///
    /// # Errors
    /// `server/storage`.
    pub async fn create(self: &Arc<Self>, new: NewTournament) -> Result<(TournamentHandle, String), Refusal> {
        let NewTournament { id, tournament, events, tables } = new;
        let token = secrets::seat_token();
        let token_hash = secrets::token_hash(&token);
        // A tournament cannot wait for ever for a player who is gone: a bot stands in.
        let tables = RoomOptions {
            title: String::new(),
            public: false,
            bot_takeover: tables.bot_takeover.or(Some(fipsen_bots::Level::Normal)),
            ..tables
        };
        let mut records: Vec<Stored> = Vec::new();
        let mut events = events.into_iter();
        records.extend(events.next().map(|event| Stored::Event { event }));
        records.push(Stored::Organiser { token_hash: token_hash.clone(), tables: tables.clone() });
        for event in events {
            if let TournamentEvent::Registered { entrant } = &event {
                records.push(Stored::Event { event: event.clone() });
                records.push(Stored::Entrant { entrant: entrant.id, token_hash: token_hash.clone() });
            } else {
                records.push(Stored::Event { event });
            }
        }
        let json = records.iter().map(to_json).collect::<Result<Vec<_>, _>>()?;
        let created_at = now_ms();
        // A new tournament is this server's (in cluster mode): nobody else knows its code yet.
        // It is claimed first, and stored under its lease.
        let key = tournament_key(&id);
        let lease = match self.registry.claim_key(&key).await? {
            Ok(lease) => lease,
            Err(_) => return Err(Refusal::Code(ErrorCode::ServerBusy)),
        };
        let fence = lease.as_ref().map(|lease| lease.fence.clone());
        if let Err(e) = self.storage.create_tournament_under(fence, id.clone(), created_at, json).await {
            warn!(error = %e, "cannot store a new tournament");
            if let Some(lease) = &lease {
                self.registry.drop_lease(&key, lease).await;
            }
            return Err(Refusal::Code(ErrorCode::Storage));
        }
        info!(tournament = %id, game = tournament.settings().game.code(), "tournament created");
        let state = TaskState {
            tournament,
            records: records.len() as u64,
            organiser_hash: token_hash.clone(),
            tables,
            entrants: records_entrants(&records),
            rooms: Vec::new(),
        };
        let handle = self.spawn(Arc::from(id.as_str()), created_at, state, lease);
        self.map.insert(handle.id.clone(), handle.clone());
        Ok((handle, token))
    }

    /// The tournament with this link code, from memory or storage. In cluster mode it is
    /// claimed first and runs here under its lease; one another live server holds is relayed
    /// to that server (with `--nats`).
    ///
    /// # Errors
    /// `tournament/not_found`, or `server/storage`; in cluster mode `server/busy` when another
    /// server holds it and cannot be reached.
    pub async fn open(self: &Arc<Self>, id: &str) -> Result<TournamentHandle, ErrorCode> {
        if let Some(handle) = self.map.get(id).map(|h| h.value().clone()) {
            return Ok(handle);
        }
        if !secrets::looks_like_invite(id) {
            return Err(ErrorCode::TournamentNotFound);
        }
        if let Some(handle) = self.registry.relay().and_then(|relay| relay.tournament_edge(id)) {
            return Ok(handle);
        }
        let _claiming = match self.registry.cluster() {
            Some(_) => Some(self.claiming.lock().await),
            None => None,
        };
        if let Some(handle) = self.map.get(id).map(|h| h.value().clone()) {
            return Ok(handle);
        }
        let key = tournament_key(id);
        let lease = match self.registry.claim_key(&key).await? {
            Ok(lease) => lease,
            Err(holder) => {
                let relay = self.registry.relay().ok_or(ErrorCode::ServerBusy)?;
                return Ok(relay.relay_tournament(Arc::from(id), holder));
            }
        };
        let loaded = self.load(id).await;
        let (created_at, state) = match loaded {
            Ok(loaded) => loaded,
            Err(code) => {
                if let Some(lease) = &lease {
                    self.registry.drop_lease(&key, lease).await;
                }
                return Err(code);
            }
        };
        let handle_id: Arc<str> = Arc::from(id);
        match self.map.entry(handle_id.clone()) {
            Entry::Occupied(existing) => Ok(existing.get().clone()),
            Entry::Vacant(vacant) => {
                let records = state.records;
                let handle = self.spawn(handle_id, created_at, state, lease);
                vacant.insert(handle.clone());
                info!(tournament = %id, records, "tournament restored from storage");
                Ok(handle)
            }
        }
    }

    /// A stored tournament's creation time and state.
    async fn load(&self, id: &str) -> Result<(u64, TaskState), ErrorCode> {
        let stored = match self.storage.load_tournament(id).await {
            Ok(Some(stored)) => stored,
            Ok(None) => return Err(ErrorCode::TournamentNotFound),
            Err(e) => {
                warn!(tournament = %id, error = %e, "cannot load a tournament");
                return Err(ErrorCode::Storage);
            }
        };
        // Answered as a broken room is: what is stored stays as it is, and nothing is rebuilt
        // differently.
        let state = TaskState::rebuild(&stored).map_err(|e| self.registry.broken_tournament(id, &e))?;
        Ok((stored.created_at, state))
    }

    /// The tournament `id` if it runs here under the lease of epoch `epoch` (cluster mode).
    pub fn held(&self, id: &str, epoch: u64) -> Option<TournamentHandle> {
        self.local(id)
            .filter(|handle| handle.lease.as_ref().is_some_and(|lease| lease.fence.epoch == epoch && !lease.is_lost()))
    }

    /// The tournament `id` if it runs here.
    pub fn local(&self, id: &str) -> Option<TournamentHandle> {
        self.map.get(id).map(|h| h.value().clone())
    }

    /// Takes over (claims and opens here) the tournaments not yet over that no live server
    /// holds; returns how many (cluster mode). At start it opens them instead of every
    /// tournament not yet over.
    pub async fn take_over(self: &Arc<Self>) -> usize {
        let ids = match self.storage.active_tournaments().await {
            Ok(ids) => ids,
            Err(e) => {
                warn!(error = %e, "cannot list the tournaments not yet over");
                return 0;
            }
        };
        let mut taken = 0;
        for id in ids {
            if self.map.contains_key(id.as_str()) {
                continue;
            }
            let me = self.registry.cluster().map(|c| c.node.clone());
            match self.storage.owner(&tournament_key(&id)).await {
                // Live and another's; this server's own from before a restart is claimed again.
                Ok(Some(lease)) if lease.live && Some(&lease.fence.node) != me.as_ref() => continue,
                Ok(_) => {}
                Err(e) => {
                    warn!(tournament = %id, error = %e, "cannot read a tournament's lease");
                    continue;
                }
            }
            if self
                .open(&id)
                .await
                .is_ok_and(|handle| self.map.get(&handle.id).is_some_and(|h| h.instance == handle.instance))
            {
                inc(&self.metrics.lease_takeovers);
                info!(tournament = %id, "tournament taken over");
                taken += 1;
            }
        }
        taken
    }

    fn spawn(
        &self,
        id: Arc<str>,
        created_at: u64,
        state: TaskState,
        lease: Option<Arc<RoomLease>>,
    ) -> TournamentHandle {
        let instance = self.instances.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = mpsc::channel(TOURNAMENT_QUEUE);
        let (listing_tx, listing) = watch::channel(None);
        let handle = TournamentHandle { instance, id: id.clone(), created_at, tx, listing, lease: lease.clone() };
        if let Some(lease) = &lease {
            self.registry.hold_lease(tournament_key(&id), lease.clone());
        }
        let task = Task {
            instance,
            lease,
            id,
            state,
            watchers: HashMap::new(),
            listing: listing_tx,
            tournaments: self.me.clone(),
            storage: self.storage.clone(),
            registry: self.registry.clone(),
            metrics: self.metrics.clone(),
            rooms_open: false,
            pending: Vec::new(),
            retry_at: None,
            limits: self.limits,
            allowances: HashMap::new(),
        };
        tokio::spawn(task.run(rx));
        handle
    }

    /// The listed tournaments here, each with when it was created.
    pub fn listed(&self) -> Vec<(u64, TournamentSummary)> {
        self.map
            .iter()
            .filter_map(|entry| entry.value().listing.borrow().clone().map(|s| (entry.value().created_at, s)))
            .collect()
    }

    /// One page of the listed tournaments not yet over, newest first: how many there are, and
    /// at most [`TOURNAMENT_PAGE`] of them from `offset` on.
    /// In a cluster with the relay, the other servers' tournaments are listed too.
    pub fn list(&self, offset: u32) -> (u32, Vec<TournamentSummary>) {
        let mut listed = self.listed();
        if let Some(relay) = self.registry.relay() {
            let here: std::collections::HashSet<String> = listed.iter().map(|(_, s)| s.code.clone()).collect();
            listed.extend(relay.remote_tournaments().into_iter().filter(|(_, s)| !here.contains(&s.code)));
        }
        listed.sort_unstable_by_key(|(created, _)| std::cmp::Reverse(*created));
        let total = u32::try_from(listed.len()).unwrap_or(u32::MAX);
        let page = listed.into_iter().skip(offset as usize).take(TOURNAMENT_PAGE as usize).map(|(_, s)| s).collect();
        (total, page)
    }
}

/// A new tournament checked by [`Tournaments::check`], not yet stored.
#[derive(Debug)]
pub struct NewTournament {
    id: String,
    tournament: Tournament,
    events: Vec<TournamentEvent>,
    tables: RoomOptions,
}

/// Refuses tables whose series could end before their deals: a table plays its deals, so a
/// game that also ends by rounds (Thedinghausen) must be given none.
fn check_tables_end(settings: &Settings) -> Result<(), TournamentError> {
    for format in &settings.tables {
        let rules = serde_json::to_value(&format.rules).unwrap_or_default();
        if format.rules.deals().is_none() && rules.get("rounds").is_some_and(|r| !r.is_null()) {
            return Err(TournamentError::InvalidSettings(format!(
                "the tables of {} play {} deals: give their rules no number of rounds",
                format.seats, format.deals
            )));
        }
    }
    Ok(())
}

fn to_json(record: &Stored) -> Result<String, Refusal> {
    serde_json::to_string(record).map_err(|_| Refusal::Code(ErrorCode::Storage))
}

fn records_entrants(records: &[Stored]) -> HashMap<String, EntrantId> {
    records
        .iter()
        .filter_map(|r| match r {
            Stored::Entrant { entrant, token_hash } => Some((token_hash.clone(), *entrant)),
            _ => None,
        })
        .collect()
}

/// A tournament's durable state: what its records rebuild.
#[derive(Debug)]
struct TaskState {
    tournament: Tournament,
    /// Records stored so far.
    records: u64,
    organiser_hash: String,
    tables: RoomOptions,
    /// Token hash → entrant.
    entrants: HashMap<String, EntrantId>,
    /// The codes of each round's tables.
    rooms: Vec<Vec<String>>,
}

impl TaskState {
    /// Replays a stored tournament.
    fn rebuild(stored: &StoredTournament) -> Result<TaskState, String> {
        let mut events = Vec::new();
        let mut organiser = None;
        let mut entrants = HashMap::new();
        let mut rooms: Vec<Vec<String>> = Vec::new();
        for (index, json) in stored.records.iter().enumerate() {
            let format = stored.formats.get(index).copied().unwrap_or(TOURNAMENT_RECORD_FORMAT);
            if format != TOURNAMENT_RECORD_FORMAT {
                return Err(format!(
                    "record {index} is of format {format} (this build reads format {TOURNAMENT_RECORD_FORMAT})"
                ));
            }
            match serde_json::from_str::<Stored>(json).map_err(|e| format!("record {index}: {e}"))? {
                Stored::Event { event } => events.push(event),
                Stored::Organiser { token_hash, tables } => organiser = Some((token_hash, tables)),
                Stored::Entrant { entrant, token_hash } => {
                    entrants.insert(token_hash, entrant);
                }
                Stored::Rooms { round, rooms: codes } => {
                    let index = round.checked_sub(1).ok_or("round 0")? as usize;
                    if rooms.len() <= index {
                        rooms.resize(index + 1, Vec::new());
                    }
                    rooms[index] = codes;
                }
            }
        }
        let tournament = Tournament::from_events(&events).map_err(|e| e.to_string())?;
        let (organiser_hash, tables) = organiser.ok_or("no organiser")?;
        Ok(TaskState { tournament, records: stored.records.len() as u64, organiser_hash, tables, entrants, rooms })
    }
}

#[derive(Debug)]
struct Watcher {
    link: ConnLink,
    you: TournamentYou,
}

/// One tournament's task.
struct Task {
    instance: u64,
    /// Its lease, in cluster mode: the task stops when it is lost.
    lease: Option<Arc<RoomLease>>,
    id: Arc<str>,
    state: TaskState,
    watchers: HashMap<ConnId, Watcher>,
    listing: watch::Sender<Option<TournamentSummary>>,
    tournaments: Weak<Tournaments>,
    storage: Storage,
    registry: Arc<Registry>,
    metrics: Arc<Metrics>,
    /// Every table of the round being played is open.
    rooms_open: bool,
    /// Tables' deals storage refused, to record again.
    pending: Vec<DealResult>,
    /// When to try again.
    retry_at: Option<Instant>,
    limits: Limits,
    /// The registrations each address may still make (IPv6: each /64).
    /// The registrations each address may still make for this tournament: a bucket of
    /// [`Limits::registrations_per_address`] refilled by one every [`REGISTRATION_REFILL`].
    allowances: HashMap<IpAddr, Bucket>,
}

impl Task {
    async fn run(mut self, mut rx: mpsc::Receiver<Command>) {
        self.publish_listing();
        self.open_tables().await;
        loop {
            tokio::select! {
                command = rx.recv() => match command {
                    Some(command) => self.handle(command).await,
                    None => break,
                },
                () = sleep_until(self.retry_at) => {
                    self.retry_at = None;
                    if !self.rooms_open {
                        self.open_tables().await;
                    }
                    let pending = std::mem::take(&mut self.pending);
                    if !pending.is_empty() {
                        self.record(pending).await;
                    }
                }
                () = crate::cluster::until_lost(self.lease.clone()) => break,
            }
        }
        if let Some(tournaments) = self.tournaments.upgrade() {
            tournaments.map.remove_if(&self.id, |_, handle| handle.instance == self.instance);
        }
        if let Some(lease) = self.lease.take() {
            // Another server holds it now (or takes it over): its watchers here watch it
            // there, after resuming.
            info!(tournament = %self.id, watchers = self.watchers.len(), "the tournament's lease is gone: stopped here");
            for (_, watcher) in self.watchers.drain() {
                let _ = watcher.link.tx.try_send(Outgoing::Close(CloseCode::Restart));
                watcher.link.close_now(CloseCode::Restart);
            }
            self.registry.drop_lease(&tournament_key(&self.id), &lease).await;
        }
    }

    async fn handle(&mut self, command: Command) {
        match command {
            Command::Peek { link } => {
                let message = ServerMessage::Tournament { tournament: self.view_for(TournamentYou::default()) };
                self.send(&link, &message);
            }
            Command::Watch { link, token, reply } => {
                let you = match token.as_deref().map(|t| self.who(t)) {
                    None => TournamentYou::default(),
                    Some(Some(you)) => you,
                    Some(None) => {
                        self.refuse(&link, &Refusal::Code(ErrorCode::TournamentTokenInvalid));
                        let _ = reply.send(false);
                        return;
                    }
                };
                self.watch(link, you);
                let _ = reply.send(true);
            }
            Command::Unwatch { conn } => {
                self.watchers.remove(&conn);
            }
            Command::Register { link, peer, name, reply } => match self.register(&link, peer, &name).await {
                Ok(()) => {
                    let _ = reply.send(true);
                }
                Err(refusal) => {
                    self.refuse(&link, &refusal);
                    let _ = reply.send(false);
                }
            },
            Command::Organise { link, token, action } => {
                let result = if secrets::token_hash(&token) == self.state.organiser_hash {
                    self.organise(action).await
                } else {
                    Err(Refusal::Code(ErrorCode::NotOrganiser))
                };
                match result {
                    Ok(()) => {
                        self.broadcast();
                        if !self.watchers.contains_key(&link.id) {
                            let you = self.who(&token).unwrap_or_default();
                            let message = ServerMessage::Tournament { tournament: self.view_for(you) };
                            self.send(&link, &message);
                        }
                    }
                    Err(refusal) => self.refuse(&link, &refusal),
                }
            }
            Command::Results { link, round } => {
                // In a duplicate round being played, only what every table of a size has played.
                let t = &self.state.tournament.public();
                let tournament = self.id.to_string();
                let message = match round {
                    None => ServerMessage::TournamentResults {
                        tournament,
                        round,
                        results: t.results_summary(),
                        csv: t.standings_csv(),
                        tables_csv: String::new(),
                    },
                    Some(r) => ServerMessage::TournamentResults {
                        tournament,
                        round,
                        results: Results {
                            tie_break: TIE_BREAK.to_owned(),
                            standings: Vec::new(),
                            rounds: t.round_results(r).into_iter().collect(),
                        },
                        csv: String::new(),
                        tables_csv: t.round_tables_csv(r),
                    },
                };
                self.send(&link, &message);
            }
            Command::Report { results } => self.record(results).await,
        }
    }

    /// Who holds this token: the organiser (and entrant, if he plays) or an entrant.
    fn who(&self, token: &str) -> Option<TournamentYou> {
        let hash = secrets::token_hash(token);
        let organiser = hash == self.state.organiser_hash;
        let entrant = self.state.entrants.get(&hash).copied().filter(|id| self.state.tournament.entrant(*id).is_some());
        (organiser || entrant.is_some()).then_some(TournamentYou { organiser, entrant })
    }

    fn watch(&mut self, link: ConnLink, you: TournamentYou) {
        let message = ServerMessage::Tournament { tournament: self.view_for(you) };
        if self.send(&link, &message) {
            self.watchers.insert(link.id, Watcher { link, you });
        }
    }

    async fn register(&mut self, link: &ConnLink, peer: IpAddr, name: &str) -> Result<(), Refusal> {
        let name = clean_name(name)?;
        let mut next = self.state.tournament.clone();
        let (entrant, events) = next.register(&name)?;
        // Counted only for a registration that would be taken; the organiser registers players
        // at the door without a limit.
        let organiser = self.watchers.get(&link.id).is_some_and(|w| w.you.organiser);
        if !organiser && !self.allow_registration(peer) {
            info!(tournament = %self.id, peer = %peer, "registration refused: too many from this address");
            return Err(ErrorCode::TooManyRegistrations.into());
        }
        let token = secrets::seat_token();
        let token_hash = secrets::token_hash(&token);
        let mut records: Vec<Stored> = events.into_iter().map(|event| Stored::Event { event }).collect();
        records.push(Stored::Entrant { entrant, token_hash: token_hash.clone() });
        self.store(records, false).await?;
        self.state.tournament = next;
        self.state.entrants.insert(token_hash, entrant);
        let name = self.state.tournament.entrant(entrant).map(|e| e.name.clone()).unwrap_or(name);
        info!(tournament = %self.id, entrant = entrant.0, "entrant registered");
        let registered = ServerMessage::Registered { tournament: self.id.to_string(), entrant, name, token };
        self.send(link, &registered);
        let organiser = self.watchers.get(&link.id).is_some_and(|w| w.you.organiser);
        self.watchers.remove(&link.id);
        self.broadcast();
        self.watch(link.clone(), TournamentYou { organiser, entrant: Some(entrant) });
        Ok(())
    }

    /// Whether `peer` may register one more player now (and counts it).
    fn allow_registration(&mut self, peer: IpAddr) -> bool {
        let burst = self.limits.registrations_per_address;
        if burst == 0 {
            return true;
        }
        let burst = f64::from(burst);
        let now = Instant::now();
        if self.allowances.len() > 4096 {
            // Addresses that earned their whole burst back say nothing: forget them.
            self.allowances.retain(|_, allowance| !allowance.is_full(now));
        }
        let allowance = self
            .allowances
            .entry(address_key(peer))
            .or_insert_with(|| Bucket::refilled_every(REGISTRATION_REFILL, burst, now));
        allowance.take(now)
    }

    async fn organise(&mut self, action: OrganiserAction) -> Result<(), Refusal> {
        let mut next = self.state.tournament.clone();
        let round_seed = || self.round_seed(next_round_number(&self.state.tournament));
        let events = match action {
            OrganiserAction::Remove(entrant) => next.remove(entrant)?,
            OrganiserAction::Close => next.close_registration()?,
            OrganiserAction::Start { fill_with_bots } => next.start(round_seed(), fill_with_bots)?,
            OrganiserAction::NextRound => next.next_round(round_seed())?,
        };
        let mut records: Vec<Stored> = events.iter().map(|event| Stored::Event { event: event.clone() }).collect();
        let mut new_round = None;
        for event in &events {
            if let TournamentEvent::RoundStarted { round, tables, .. } = event {
                let rooms: Vec<String> = tables.iter().map(|_| secrets::invite_code()).collect();
                records.push(Stored::Rooms { round: *round, rooms: rooms.clone() });
                new_round = Some((*round, rooms));
            }
        }
        self.store(records, false).await?;
        self.state.tournament = next;
        if let Some((round, rooms)) = new_round {
            let index = round as usize - 1;
            if self.state.rooms.len() <= index {
                self.state.rooms.resize(index + 1, Vec::new());
            }
            self.state.rooms[index] = rooms;
            info!(tournament = %self.id, round, "round started");
            self.rooms_open = false;
            self.open_tables().await;
        }
        Ok(())
    }

    /// The seed of a new round: from the operating system's secure generator (or, with
    /// `--insecure-fixed-seed`, for tests, from that seed).
    fn round_seed(&self, round: u32) -> Seed {
        match self.registry.fixed_master() {
            Some(fixed) => fixed.derive(u64::from(round) << 32 | 0x746f_7572),
            None => Seed(secrets::random_bytes::<32>()),
        }
    }

    /// Records the deals of a table: each new one is stored, then applied, then broadcast.
    async fn record(&mut self, results: Vec<DealResult>) {
        let mut next = self.state.tournament.clone();
        let events = match next.record(&results) {
            Ok(events) => events,
            Err(e) => {
                warn!(tournament = %self.id, code = e.code(), error = %e, "a table's deals were refused");
                return;
            }
        };
        if events.is_empty() {
            return;
        }
        let finished = next.phase() == Phase::Finished;
        let records = events.iter().map(|event| Stored::Event { event: event.clone() }).collect();
        if self.store(records, finished).await.is_err() {
            // Tried again shortly; the table also sends every deal again with its next one.
            self.pending = results;
            self.retry_at = Some(Instant::now() + RETRY);
            return;
        }
        for event in &events {
            if let TournamentEvent::RoundEnded { round } = event {
                info!(tournament = %self.id, round, "round over: its secret is revealed");
            }
        }
        self.state.tournament = next;
        self.broadcast();
    }

    /// Stores records after those stored; nothing changes if storing fails.
    async fn store(&mut self, records: Vec<Stored>, finished: bool) -> Result<(), Refusal> {
        let json = records.iter().map(to_json).collect::<Result<Vec<_>, _>>()?;
        let count = json.len() as u64;
        let fence = self.lease.as_ref().map(|lease| lease.fence.clone());
        let stored =
            self.storage.append_tournament_under(fence, self.id.to_string(), self.state.records, json, finished);
        match stored.await {
            Ok(()) => {}
            Err(e @ StorageError::Fenced { .. }) => {
                // Another server holds the tournament now: it stops here at once.
                error!(tournament = %self.id, error = %e, "a tournament's records were refused: another server owns it");
                if let Some(lease) = &self.lease {
                    lease.lose();
                }
                return Err(Refusal::Code(ErrorCode::ServerBusy));
            }
            Err(e) => {
                warn!(tournament = %self.id, error = %e, "storing a tournament's records failed");
                return Err(Refusal::Code(ErrorCode::Storage));
            }
        }
        self.state.records += count;
        Ok(())
    }

    /// Opens (creating where needed) the room of every table of the round being played.
    async fn open_tables(&mut self) {
        let t = &self.state.tournament;
        let Some(round) = t.current_round() else {
            self.rooms_open = true;
            return;
        };
        let Some(codes) = self.state.rooms.get(round.number as usize - 1) else {
            warn!(tournament = %self.id, round = round.number, "a round without the codes of its tables");
            self.rooms_open = true;
            return;
        };
        let mut all_open = true;
        for (table, code) in round.tables.iter().zip(codes) {
            let Some(format) = t.settings().format(table.seats.len()) else { continue };
            let link = TableLink {
                tournament: self.id.to_string(),
                name: t.settings().name.clone(),
                table: table.id,
                rounds: t.settings().rounds,
                deals: table.deals,
                duplicate: t.settings().duplicate,
            };
            let title = table_title(&t.settings().name, table.id);
            let meta = RoomMeta {
                code: code.clone(),
                created_at: now_ms(),
                title: title.clone(),
                rules: format.rules.clone(),
                options: RoomOptions { title, public: false, ..self.state.tables.clone() },
                master: t.table_seed(table.id).unwrap_or(Seed([0; 32])),
                tournament: serde_json::to_string(&link).ok(),
            };
            let hashes: HashMap<EntrantId, &String> = self.state.entrants.iter().map(|(h, id)| (*id, h)).collect();
            let seats: Vec<TableSeat> = table
                .seats
                .iter()
                .map(|id| {
                    let entrant = t.entrant(*id);
                    let name = entrant.map(|e| e.name.clone()).unwrap_or_else(|| id.to_string());
                    match entrant {
                        Some(e) if e.bot => TableSeat::Bot { name },
                        _ => TableSeat::Person {
                            name,
                            token_hash: hashes.get(id).map(|h| (*h).clone()).unwrap_or_default(),
                        },
                    }
                })
                .collect();
            if let Err(code) = self.registry.open_table(meta, &seats).await {
                warn!(tournament = %self.id, table = %table.id, code = code.code(), "cannot open a table; trying again");
                all_open = false;
            }
        }
        self.rooms_open = all_open;
        if !all_open {
            self.retry_at = Some(Instant::now() + RETRY);
        }
    }

    fn view_for(&self, you: TournamentYou) -> TournamentState {
        self.state_with(self.state.tournament.view(), you)
    }

    fn state_with(&self, view: fipsen_tournament::TournamentView, you: TournamentYou) -> TournamentState {
        TournamentState {
            code: self.id.to_string(),
            view,
            rooms: self.state.rooms.clone(),
            seating: self.seating(),
            tables: self.state.tables.clone(),
            you,
        }
    }

    /// Before the start: how the entrants would sit now.
    fn seating(&self) -> Option<SeatingPreview> {
        let t = &self.state.tournament;
        if !matches!(t.phase(), Phase::Registration | Phase::Closed) {
            return None;
        }
        let players = t.entrants().len();
        let settings = t.settings();
        let sizes = |plan: &fipsen_tournament::Plan| plan.sizes().map(|s| s as u32).collect::<Vec<_>>();
        let deals = |plan: &fipsen_tournament::Plan| {
            plan.sizes().map(|s| settings.format(s).map_or(0, |f| f.deals)).collect::<Vec<_>>()
        };
        Some(match t.plan() {
            Ok(plan) => SeatingPreview {
                tables: sizes(&plan),
                deals: deals(&plan),
                bots_needed: 0,
                bot_tables: Vec::new(),
                bot_deals: Vec::new(),
                problem: None,
            },
            Err(e) => {
                let bots = settings.bots_needed(players).unwrap_or(0);
                let with_bots = if players > 0 { settings.plan(players + bots).ok() } else { None };
                SeatingPreview {
                    tables: Vec::new(),
                    deals: Vec::new(),
                    bots_needed: bots as u32,
                    bot_tables: with_bots.as_ref().map(sizes).unwrap_or_default(),
                    bot_deals: with_bots.as_ref().map(deals).unwrap_or_default(),
                    problem: Some(e.code().to_string()),
                }
            }
        })
    }

    /// Sends every watcher the tournament as it is now.
    fn broadcast(&mut self) {
        let view = self.state.tournament.view();
        let mut gone = Vec::new();
        for (conn, watcher) in &self.watchers {
            let message = ServerMessage::Tournament { tournament: self.state_with(view.clone(), watcher.you) };
            if watcher.link.send(Arc::from(message.to_json()), &self.metrics) {
                inc(&self.metrics.messages_out);
            } else {
                gone.push(*conn);
            }
        }
        for conn in gone {
            self.watchers.remove(&conn);
        }
        self.publish_listing();
    }

    fn publish_listing(&self) {
        let t = &self.state.tournament;
        let entry = (t.settings().listed && t.phase() != Phase::Finished).then(|| TournamentSummary {
            code: self.id.to_string(),
            name: t.settings().name.clone(),
            organiser: t.organiser().to_string(),
            game: t.settings().game,
            phase: t.phase(),
            entrants: t.entrants().len() as u32,
            rounds: t.settings().rounds,
        });
        self.listing.send_if_modified(|current| {
            if *current == entry {
                false
            } else {
                *current = entry.clone();
                true
            }
        });
    }

    fn send(&self, link: &ConnLink, message: &ServerMessage) -> bool {
        let sent = link.send(Arc::from(message.to_json()), &self.metrics);
        if sent {
            inc(&self.metrics.messages_out);
        }
        sent
    }

    fn refuse(&self, link: &ConnLink, refusal: &Refusal) {
        self.metrics.error(refusal.code());
        self.send(link, &refusal.message());
    }
}

/// The round that `start` or `next_round` would begin.
fn next_round_number(t: &Tournament) -> u32 {
    t.rounds().len() as u32 + 1
}

/// A table's room title: the tournament's name (shortened to fit) and the table.
fn table_title(name: &str, table: TableId) -> String {
    let suffix = format!(" · R{} T{}", table.round, table.table);
    let room = MAX_TITLE_CHARS.saturating_sub(suffix.chars().count());
    let mut title: String = name.chars().take(room).collect();
    if title.chars().count() < name.chars().count() {
        title.pop();
        title.push('…');
    }
    title + &suffix
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

    #[test]
    fn table_titles_fit_a_room_title() {
        let table = TableId { round: 2, table: 11 };
        assert_eq!(table_title("Prisdorf", table), "Prisdorf · R2 T11");
        let long = "x".repeat(64);
        let title = table_title(&long, table);
        assert_eq!(title.chars().count(), MAX_TITLE_CHARS);
        assert!(title.ends_with("… · R2 T11"), "{title}");
    }

    #[test]
    fn stored_records_read_back() {
        let records = [
            Stored::Organiser { token_hash: "h".into(), tables: RoomOptions::default() },
            Stored::Entrant { entrant: EntrantId(3), token_hash: "e".into() },
            Stored::Rooms { round: 1, rooms: vec!["a".into()] },
            Stored::Event { event: TournamentEvent::RegistrationClosed },
        ];
        for record in &records {
            let json = serde_json::to_string(record).unwrap_or_default();
            let back: Stored = serde_json::from_str(&json).unwrap_or(Stored::Rooms { round: 0, rooms: vec![] });
            assert_eq!(serde_json::to_string(&back).unwrap_or_default(), json);
        }
        assert_eq!(
            serde_json::to_string(&records[3]).unwrap_or_default(),
            r#"{"record":"event","event":{"event":"registration_closed"}}"#
        );
    }
}
