//! One tournament's task: it owns the tournament's state, stores each change before it applies
//! it, opens the tables of each round as rooms, and broadcasts to its watchers.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use dashmap::DashMap;
use fipsen_protocol::{
    CloseCode, ErrorCode, RoomOptions, SeatingPreview, ServerMessage, TournamentState, TournamentSummary, TournamentYou,
};
use fipsen_rules::Seed;
use fipsen_tournament::{DealResult, EntrantId, Phase, Results, TIE_BREAK, TournamentEvent};
use tokio::sync::{mpsc, watch};
use tracing::{error, info, warn};

use super::command::{Command, OrganiserAction, Refusal, TournamentHandle};
use super::host::TournamentHost;
use super::stored::{Stored, TaskState, next_round_number, table_title, to_json};
use crate::keys::tournament_key;
use crate::lease::RoomLease;
use crate::metrics::{Metrics, inc};
use crate::quota::{Bucket, address_key};
use crate::room::TableLink;
use crate::room::{ConnId, ConnLink, Outgoing, TableSeat};
use crate::secrets;
use crate::storage::{RoomMeta, Storage, StorageError};
use crate::text::clean_name;

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

#[derive(Debug)]
pub(super) struct Watcher {
    link: ConnLink,
    you: TournamentYou,
}

/// One tournament's task.
pub(super) struct Task {
    pub(super) instance: u64,
    /// Its lease, in cluster mode: the task stops when it is lost.
    pub(super) lease: Option<Arc<RoomLease>>,
    pub(super) id: Arc<str>,
    pub(super) state: TaskState,
    pub(super) watchers: HashMap<ConnId, Watcher>,
    pub(super) listing: watch::Sender<Option<TournamentSummary>>,
    /// The tournaments in memory, to leave when the task ends.
    pub(super) directory: Weak<DashMap<Arc<str>, TournamentHandle>>,
    pub(super) storage: Storage,
    /// The server ([`TournamentHost`]).
    pub(super) host: Arc<dyn TournamentHost>,
    pub(super) metrics: Arc<Metrics>,
    /// Every table of the round being played is open.
    pub(super) rooms_open: bool,
    /// Tables' deals storage refused, to record again.
    pub(super) pending: Vec<DealResult>,
    /// When to try again.
    pub(super) retry_at: Option<Instant>,
    pub(super) limits: Limits,
    /// The registrations each address may still make (IPv6: each /64).
    /// The registrations each address may still make for this tournament: a bucket of
    /// [`Limits::registrations_per_address`] refilled by one every [`REGISTRATION_REFILL`].
    pub(super) allowances: HashMap<IpAddr, Bucket>,
}

impl Task {
    pub(super) async fn run(mut self, mut rx: mpsc::Receiver<Command>) {
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
                () = crate::lease::until_lost(self.lease.clone()) => break,
            }
        }
        if let Some(directory) = self.directory.upgrade() {
            directory.remove_if(&self.id, |_, handle| handle.instance == self.instance);
        }
        if let Some(lease) = self.lease.take() {
            // Another server holds it now (or takes it over): its watchers here watch it
            // there, after resuming.
            info!(tournament = %self.id, watchers = self.watchers.len(), "the tournament's lease is gone: stopped here");
            for (_, watcher) in self.watchers.drain() {
                let _ = watcher.link.tx.try_send(Outgoing::Close(CloseCode::Restart));
                watcher.link.close_now(CloseCode::Restart);
            }
            self.host.drop_lease(&tournament_key(&self.id), &lease).await;
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
        match self.host.fixed_master() {
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
            if let Err(code) = self.host.clone().open_table(meta, seats).await {
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

/// Milliseconds since 1970.
pub(super) fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

async fn sleep_until(wake: Option<Instant>) {
    match wake {
        Some(t) => tokio::time::sleep_until(t.into()).await,
        None => std::future::pending().await,
    }
}
