//! Every tournament in memory ([`Tournaments`]): created, opened from storage or relayed, each
//! run by its task.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use dashmap::DashMap;
use dashmap::mapref::entry::Entry;
use fipsen_protocol::{ErrorCode, RoomOptions, TOURNAMENT_PAGE, TournamentSummary, TournamentTables};
use fipsen_tournament::{Settings, Tournament, TournamentError, TournamentEvent, TournamentId};
use tokio::sync::{mpsc, watch};
use tracing::{info, warn};

use super::command::{Command, Refusal, TournamentHandle};
use super::host::TournamentHost;
use super::stored::{Stored, TaskState, check_tables_end, records_entrants, to_json};
use super::task::{Limits, Task, now_ms};
use crate::keys::tournament_key;
use crate::lease::RoomLease;
use crate::metrics::{Metrics, inc};
use crate::room::TableReport;
use crate::secrets;
use crate::storage::{Storage, StorageError};
use crate::text::{clean_name, clean_text};

/// Commands queued for one tournament before senders wait.
const TOURNAMENT_QUEUE: usize = 256;

/// Every tournament in memory (the ones not yet over, and those opened since the start).
#[derive(Debug)]
pub struct Tournaments {
    map: Arc<DashMap<Arc<str>, TournamentHandle>>,
    storage: Storage,
    /// The server ([`TournamentHost`]: the registry).
    host: Arc<dyn TournamentHost>,
    metrics: Arc<Metrics>,
    limits: Limits,
    instances: AtomicU64,
    /// In cluster mode, one tournament is claimed at a time (a second claim of the same one
    /// would void the first one's lease).
    claiming: tokio::sync::Mutex<()>,
}

impl Tournaments {
    /// The tournaments, taking the tables' reports from `host` (the registry) from now on.
    pub fn start(
        storage: Storage,
        host: Arc<dyn TournamentHost>,
        metrics: Arc<Metrics>,
        limits: Limits,
    ) -> Arc<Tournaments> {
        let tournaments = Arc::new(Tournaments {
            map: Arc::new(DashMap::new()),
            storage,
            host: host.clone(),
            metrics,
            limits,
            instances: AtomicU64::new(1),
            claiming: tokio::sync::Mutex::new(()),
        });
        let (tx, mut rx) = mpsc::unbounded_channel::<TableReport>();
        host.set_reports(tx);
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
        let lease = match self.host.claim_key(&key).await? {
            Ok(lease) => lease,
            Err(_) => return Err(Refusal::Code(ErrorCode::ServerBusy)),
        };
        let fence = lease.as_ref().map(|lease| lease.fence.clone());
        if let Err(e) = self.storage.create_tournament_under(fence, id.clone(), created_at, json).await {
            warn!(error = %e, "cannot store a new tournament");
            if let Some(lease) = &lease {
                self.host.drop_lease(&key, lease).await;
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
        if let Some(handle) = self.host.tournament_edge(id) {
            return Ok(handle);
        }
        let _claiming = match self.host.cluster() {
            Some(_) => Some(self.claiming.lock().await),
            None => None,
        };
        if let Some(handle) = self.map.get(id).map(|h| h.value().clone()) {
            return Ok(handle);
        }
        let key = tournament_key(id);
        let lease = match self.host.claim_key(&key).await? {
            Ok(lease) => lease,
            Err(holder) => {
                return self.host.relay_tournament(Arc::from(id), holder).ok_or(ErrorCode::ServerBusy);
            }
        };
        let loaded = self.load(id).await;
        let (created_at, state) = match loaded {
            Ok(loaded) => loaded,
            Err(code) => {
                if let Some(lease) = &lease {
                    self.host.drop_lease(&key, lease).await;
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
        let state = TaskState::rebuild(&stored).map_err(|e| self.host.broken_tournament(id, &e))?;
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
            let me = self.host.cluster().map(|c| c.node.clone());
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
            self.host.hold_lease(tournament_key(&id), lease.clone());
        }
        let task = Task {
            instance,
            lease,
            id,
            state,
            watchers: HashMap::new(),
            listing: listing_tx,
            directory: Arc::downgrade(&self.map),
            storage: self.storage.clone(),
            host: self.host.clone(),
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
        let remote = self.host.remote_tournaments();
        if !remote.is_empty() {
            let here: std::collections::HashSet<String> = listed.iter().map(|(_, s)| s.code.clone()).collect();
            listed.extend(remote.into_iter().filter(|(_, s)| !here.contains(&s.code)));
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
