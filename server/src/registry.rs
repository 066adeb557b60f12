//! The rooms in memory: a map from invite code to the room task's handle, and nothing else.
//! No map guard is ever held across an `.await`: handles are cloned out first.

use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use dashmap::DashMap;
use dashmap::mapref::entry::Entry;
use fipsen_protocol::{
    DealReplay, ErrorCode, LOBBY_PAGE, LobbyRoom, MyRoom, RoomOptions, SeriesRecord, TournamentSummary,
};
use fipsen_rules::{GameRules, Prepared, Seat, Seed};
use futures_util::future::BoxFuture;
use tokio::sync::{mpsc, oneshot, watch};
use tracing::{debug, error, info, warn};

use crate::background::CONCURRENT_REVIEWS;
use crate::cluster::NodeRooms;
use crate::cluster::relay::Relay;
use crate::fair::{FairQueue, Turn};
use crate::lease::{Cluster, RoomLease};
use crate::metrics::{Metrics, dec, inc};
use crate::quota::{BotPace, QUOTA_ENTRIES};
pub use crate::quota::{Bucket, ROOM_REFILL, ROOMS_PER_CONNECTION_BURST};
pub use crate::room::RoomHandle;
use crate::room::TableReport;
use crate::room::series_index::{StoredSeries, Unread};
use crate::room::{Damaged, Record, Room, RoomCommand, RoomEnv, RoomHost, TableSeat};
use crate::secrets;
use crate::storage::{Claim, Fence, RoomMeta, Storage, StorageError, StoredRecord, StoredRoom};
pub use crate::text::{clean_name, clean_text, is_invisible};
use crate::tournaments::host::KeyClaim;
use crate::tournaments::{TournamentHandle, TournamentHost};

/// Commands queued for one room before senders wait.
const ROOM_QUEUE: usize = 256;
/// How long past a lease a room held by a silent server is waited for (cluster mode).
const RELAY_GRACE: Duration = Duration::from_secs(2);
/// How often a room held by a silent server is claimed again while its lease runs.
const CLAIM_RETRY: Duration = Duration::from_millis(250);

/// A public room in the lobby: here (its entry as it is now), or at another server (as that
/// server last published it).
enum Listed {
    Here(watch::Receiver<Option<LobbyRoom>>),
    Elsewhere(LobbyRoom),
}

/// Milliseconds since 1970.
fn now_millis() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(0))
}

/// Every room in memory.
#[derive(Debug)]
pub struct Registry {
    rooms: DashMap<Arc<str>, RoomHandle>,
    storage: Storage,
    metrics: Arc<Metrics>,
    idle: Duration,
    instances: AtomicU64,
    /// Set only by `--insecure-fixed-seed` (tests): the master seed of every new room.
    fixed_master: Option<Seed>,
    /// Turns at the reviews, replays and series pages computed in the background, shared
    /// fairly between addresses ([`crate::fair`]).
    reviews: Arc<FairQueue>,
    /// Most spectators one room lets watch at once.
    max_spectators: u32,
    /// Rooms each address may still create.
    room_quota: DashMap<IpAddr, Bucket>,
    /// Rooms one address may create in a burst (0: no limit).
    rooms_per_address: u32,
    /// The pace of the bots in the rooms of bots only watched from one address.
    bot_pace: BotPace,
    /// Where tournament tables send the deals they played (set once the tournaments run).
    reports: OnceLock<mpsc::UnboundedSender<TableReport>>,
    /// The stored rooms (and tournaments, as `tournament:<id>`) found broken since start: each is
    /// logged and counted once, and a broken room is not read again until the server restarts.
    broken: DashMap<String, ()>,
    /// Cluster mode's settings (`None`: the server is alone).
    cluster: Option<Cluster>,
    /// In cluster mode, one gate per room being opened, so that this server claims a room once
    /// at a time (a second claim would void the first one's lease).
    claiming: DashMap<Arc<str>, Arc<tokio::sync::Mutex<()>>>,
    /// The server is stopping: in cluster mode, no room is claimed any more.
    stopping: AtomicBool,
    /// The rooms this server handed to another to even out the load
    /// ([`Registry::move_room`]), and when: not claimed back here for a lease, so that their
    /// players, resuming through this server, are relayed to the room's new server.
    moved_away: DashMap<Arc<str>, Instant>,
    /// In cluster mode with `--nats`: the relay to the rooms other servers hold.
    relay: OnceLock<Arc<Relay>>,
    /// Leases held here for other things than rooms (tournaments), renewed and handed over
    /// with the rooms'.
    other_leases: DashMap<Arc<str>, Arc<RoomLease>>,
}

/// Computes, off the event loop, what a room of these rules needs before it opens (the game's
/// preparation hook, [`GameRules::prepare`]: for some rules a table costing up to a second of
/// CPU and some MiB, BENCHMARKS.md), which every listing of moves would otherwise wait for on
/// the room's task. The room's task keeps the answer while it runs, so that it is shared by
/// every room of those rules and its memory given back after the last one.
async fn prepare(rules: &GameRules) -> Prepared {
    if !rules.prepares() {
        // Most games prepare nothing: no blocking thread is set aside (opening many rooms at
        // once would otherwise grow the blocking pool, each thread with its stack).
        return Prepared::nothing();
    }
    let rules = rules.clone();
    let game = rules.game().code();
    match tokio::task::spawn_blocking(move || rules.prepare()).await {
        Ok(prepared) => prepared,
        Err(e) => {
            warn!(error = %e, game, "cannot prepare what a room of these rules needs");
            Prepared::nothing()
        }
    }
}

/// Checks the rules and options of a room to be created, before anything is counted against the
/// creator's allowance of rooms.
///
/// # Errors
/// `rules/invalid` or `options/invalid`, with a sentence.
pub fn check_new_room(rules: &GameRules, options: &RoomOptions) -> Result<(), (ErrorCode, String)> {
    rules.validate().map_err(|e| (ErrorCode::RulesInvalid, e.to_string()))?;
    if !options.is_valid() {
        return Err((ErrorCode::OptionsInvalid, ErrorCode::OptionsInvalid.to_string()));
    }
    Ok(())
}

impl Registry {
    /// An empty registry. `fixed_master`, for tests only, deals every new room from one seed.
    pub fn new(storage: Storage, metrics: Arc<Metrics>, idle: Duration, fixed_master: Option<Seed>) -> Arc<Registry> {
        Arc::new(Registry {
            rooms: DashMap::new(),
            storage,
            metrics,
            idle,
            instances: AtomicU64::new(1),
            fixed_master,
            reviews: FairQueue::new(CONCURRENT_REVIEWS),
            max_spectators: crate::room::DEFAULT_AUDIENCE_CAP,
            room_quota: DashMap::new(),
            rooms_per_address: 0,
            bot_pace: BotPace::default(),
            reports: OnceLock::new(),
            broken: DashMap::new(),
            cluster: None,
            claiming: DashMap::new(),
            stopping: AtomicBool::new(false),
            moved_away: DashMap::new(),
            relay: OnceLock::new(),
            other_leases: DashMap::new(),
        })
    }

    /// The master seed `--insecure-fixed-seed` set, for tests only.
    pub fn fixed_master(&self) -> Option<Seed> {
        self.fixed_master
    }

    /// Sends the tables' reports of the deals they played to `reports` from now on (once).
    pub fn set_reports(&self, reports: mpsc::UnboundedSender<TableReport>) {
        let _ = self.reports.set(reports);
    }

    /// A tournament table's deals, for its tournament (never waits: the table goes on).
    pub fn report_table(&self, report: TableReport) {
        match self.reports.get() {
            Some(reports) => {
                if reports.send(report).is_err() {
                    warn!("the tournaments are gone: a table's deals are not passed on");
                }
            }
            None => warn!(tournament = %report.tournament, "no tournaments run: a table's deals are not passed on"),
        }
    }

    /// Creates, stores and opens a tournament table: a room with `meta` (its code chosen by
    /// the tournament), `seats` seated and the series started, all stored in one transaction.
    /// If a room with that code is open already, that one is returned.
    ///
    /// # Errors
    /// `server/storage`.
    pub async fn create_table(self: &Arc<Self>, meta: RoomMeta, seats: &[TableSeat]) -> Result<RoomHandle, ErrorCode> {
        let code = meta.code.clone();
        let handle = self.create_seated(meta, TableSeat::records(seats)).await?;
        info!(room = %code, "tournament table opened");
        Ok(handle)
    }

    /// Creates, stores and opens a room to play again in: `template`'s rules, options and
    /// title, a new code and master seed, seated by `records` (not started). The players
    /// then join it with their seat tokens.
    ///
    /// # Errors
    /// `server/storage`.
    pub async fn create_rematch(
        self: &Arc<Self>,
        template: RoomMeta,
        records: Vec<Record>,
    ) -> Result<RoomHandle, ErrorCode> {
        let meta = RoomMeta {
            code: secrets::invite_code(),
            created_at: SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(0)),
            master: self.fixed_master.unwrap_or_else(|| Seed(secrets::random_bytes::<32>())),
            tournament: None,
            ..template
        };
        self.create_seated(meta, records).await
    }

    /// Creates, stores and opens a room seated by its first records. If a room with that code
    /// is open already, that one is returned. In cluster mode the room is claimed first and
    /// stored under its lease, then placed on the least loaded server ([`Registry::place`]).
    async fn create_seated(self: &Arc<Self>, meta: RoomMeta, records: Vec<Record>) -> Result<RoomHandle, ErrorCode> {
        if let Some(handle) = self.rooms.get(meta.code.as_str()).map(|r| r.value().clone()) {
            return Ok(handle);
        }
        let keep = prepare(&meta.rules).await;
        let instance = self.instances.fetch_add(1, Ordering::Relaxed);
        let (lobby_tx, lobby_rx) = watch::channel(None);
        let mut room = Room::new(meta.clone(), instance, lobby_tx, self.env());
        let records = room.seat(records);
        let code = room.code().clone();
        let lease = self.claim(&code).await?;
        self.store_new(&code, &lease, meta, records).await?;
        if let Some(placed) = self.place(&code, &lease).await {
            return placed;
        }
        match self.rooms.entry(code.clone()) {
            Entry::Occupied(existing) => {
                self.release(&code, lease).await;
                Ok(existing.get().clone())
            }
            Entry::Vacant(vacant) => {
                let handle = self.start(room, instance, lobby_rx, keep, lease);
                vacant.insert(handle.clone());
                Ok(handle)
            }
        }
    }

    /// Stores a new room with its first records, under `lease` in cluster mode (released if
    /// storing fails).
    async fn store_new(
        &self,
        code: &Arc<str>,
        lease: &Option<Arc<RoomLease>>,
        meta: RoomMeta,
        records: Vec<StoredRecord>,
    ) -> Result<(), ErrorCode> {
        let fence = lease.as_ref().map(|lease| lease.fence.clone());
        if let Err(e) = self.storage.create_room_under(fence, meta, records).await {
            warn!(room = %code, error = %e, "cannot store a new room");
            self.release(code, lease.clone()).await;
            return Err(ErrorCode::Storage);
        }
        Ok(())
    }

    /// In cluster mode with the relay, hands a room just created and stored here under `lease`
    /// to the server holding the fewest rooms, when that is another one
    /// ([`Relay::placement`]): ends the lease, asks that server to open the room, and relays it
    /// there. If that server does not take it, the room is opened here after all (or relayed to
    /// whichever server took it meanwhile). `None`: the room stays here, under `lease`.
    async fn place(
        self: &Arc<Self>,
        code: &Arc<str>,
        lease: &Option<Arc<RoomLease>>,
    ) -> Option<Result<RoomHandle, ErrorCode>> {
        let (relay, lease) = (self.relay()?, lease.as_ref()?);
        let node = relay.placement()?;
        self.release(code, Some(lease.clone())).await;
        match relay.place_at(&node, code).await {
            Some(holder) => {
                inc(&self.metrics.rooms_placed);
                debug!(room = %code, holder = %holder.node, epoch = holder.epoch, "a new room placed on a less loaded server");
                Some(Ok(relay.relay_room(code.clone(), holder)))
            }
            None => Some(self.open(code).await),
        }
    }

    /// Opens here a room that another server created and placed on this one
    /// (`Registry::place`): the epoch of the lease it is held under, or `None` when this
    /// server does not hold it (it is stopping, another server holds the room, or it cannot be
    /// read).
    pub async fn open_placed(self: &Arc<Self>, code: &str) -> Option<u64> {
        if self.cluster.is_none() || self.is_stopping() || !secrets::looks_like_invite(code) {
            return None;
        }
        match self.open_once(&Arc::from(code)).await {
            Ok(Ok(handle)) => handle.lease.as_ref().filter(|lease| !lease.is_lost()).map(|lease| lease.fence.epoch),
            Ok(Err(e)) => {
                warn!(room = %code, code = e.code(), "cannot open a room placed here");
                None
            }
            Err(_) => None,
        }
    }

    /// The tournament table with `meta.code`, from memory or storage, or created if it was
    /// never stored (the tournament stored its code, and the server stopped before the room).
    ///
    /// # Errors
    /// `server/storage`.
    pub async fn open_table(self: &Arc<Self>, meta: RoomMeta, seats: &[TableSeat]) -> Result<RoomHandle, ErrorCode> {
        match self.open(&meta.code).await {
            Err(ErrorCode::RoomNotFound) => self.create_table(meta, seats).await,
            other => other,
        }
    }

    /// The same registry, letting each address create `burst` rooms at once and one more
    /// every [`ROOM_REFILL`] (0: no limit). Call before sharing it.
    #[must_use]
    pub fn with_room_quota(mut self: Arc<Self>, burst: u32) -> Arc<Self> {
        if let Some(registry) = Arc::get_mut(&mut self) {
            registry.rooms_per_address = burst;
        }
        self
    }

    /// The same registry, letting at most `cap` spectators watch each room at once. Call
    /// before sharing it.
    #[must_use]
    pub fn with_max_spectators(mut self: Arc<Self>, cap: u32) -> Arc<Self> {
        if let Some(registry) = Arc::get_mut(&mut self) {
            registry.max_spectators = cap;
        }
        self
    }

    /// The same registry, letting the rooms of bots only watched from one address make `rate`
    /// bot moves a second between them (0: no limit). Call before sharing it.
    #[must_use]
    pub fn with_watched_bots_rate(mut self: Arc<Self>, rate: u32) -> Arc<Self> {
        if let Some(registry) = Arc::get_mut(&mut self) {
            registry.bot_pace = BotPace::new(rate);
        }
        self
    }

    /// The same registry in cluster mode: every room it opens or creates is claimed first, and
    /// runs under its lease. Call before sharing it.
    #[must_use]
    pub fn with_cluster(mut self: Arc<Self>, cluster: Option<Cluster>) -> Arc<Self> {
        if let Some(registry) = Arc::get_mut(&mut self) {
            registry.cluster = cluster;
        }
        self
    }

    /// Cluster mode's settings, if it is on.
    pub fn cluster(&self) -> Option<&Cluster> {
        self.cluster.as_ref()
    }

    /// The server's counters.
    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    /// The storage the rooms are kept in.
    pub fn storage(&self) -> &Storage {
        &self.storage
    }

    /// Claims a room for this server, in cluster mode (`None` when the server is alone).
    ///
    /// # Errors
    /// `server/busy` when another server holds the room (logged), `server/shutting_down` when
    /// this one is stopping, `server/storage` when the store failed.
    async fn claim(&self, code: &Arc<str>) -> Result<Option<Arc<RoomLease>>, ErrorCode> {
        match self.claim_or_holder(code).await? {
            Ok(lease) => Ok(lease),
            Err(holder) => {
                info!(room = %code, holder = %holder.node, epoch = holder.epoch, "the room is another server's: not opened here");
                Err(ErrorCode::ServerBusy)
            }
        }
    }

    /// Claims a room as [`Registry::claim`] does, giving the lease of the server that holds it
    /// instead of `server/busy`.
    async fn claim_or_holder(&self, code: &Arc<str>) -> Result<Result<Option<Arc<RoomLease>>, Fence>, ErrorCode> {
        let Some(cluster) = &self.cluster else { return Ok(Ok(None)) };
        if self.stopping.load(Ordering::Acquire) || self.moved_away_lately(code, cluster) {
            // Claimed no more here; the server that took it over, if one has, serves it.
            return match self.storage.owner(code).await {
                Ok(Some(lease)) if lease.live && lease.fence.node != cluster.node => Ok(Err(lease.fence)),
                _ => Err(ErrorCode::ShuttingDown),
            };
        }
        let claimed_at = Instant::now();
        match self.storage.claim(code.clone(), cluster.node.clone(), cluster.lease).await {
            Ok(Claim::Granted(fence)) => Ok(Ok(Some(Arc::new(RoomLease::new(fence, claimed_at))))),
            Ok(Claim::Held(holder)) => Ok(Err(holder)),
            Err(e) => {
                warn!(room = %code, error = %e, "cannot claim a room");
                Err(ErrorCode::Storage)
            }
        }
    }

    /// Relays the rooms other servers hold through `relay` from now on (cluster mode with
    /// `--nats`; once).
    pub fn set_relay(&self, relay: Arc<Relay>) {
        let _ = self.relay.set(relay);
    }

    /// The relay, in cluster mode with `--nats`.
    pub fn relay(&self) -> Option<&Arc<Relay>> {
        self.relay.get()
    }

    /// The room `code` if it runs here under the lease of epoch `epoch`.
    pub fn held(&self, code: &str, epoch: u64) -> Option<RoomHandle> {
        self.local(code)
            .filter(|handle| handle.lease.as_ref().is_some_and(|lease| lease.fence.epoch == epoch && !lease.is_lost()))
    }

    /// The room `code` if it runs here.
    pub fn local(&self, code: &str) -> Option<RoomHandle> {
        self.rooms.get(code).map(|r| r.value().clone())
    }

    /// Ends a lease this server no longer uses, so that another server may claim the room.
    async fn release(&self, code: &Arc<str>, lease: Option<Arc<RoomLease>>) {
        if let Some(lease) = lease
            && let Err(e) = self.storage.release(code.clone(), lease.fence.clone()).await
        {
            warn!(room = %code, error = %e, "cannot release a room's lease");
        }
    }

    /// Whether room `code` was handed to another server to even out the load less than a lease
    /// ago (forgotten after that).
    fn moved_away_lately(&self, code: &str, cluster: &Cluster) -> bool {
        let lately = self.moved_away.get(code).is_some_and(|at| at.elapsed() < cluster.lease);
        if !lately {
            self.moved_away.remove_if(code, |_, at| at.elapsed() >= cluster.lease);
        }
        lately
    }

    /// The rooms in memory here held under a lease, with it (tournaments' leases left out).
    pub fn room_leases(&self) -> Vec<(Arc<str>, Arc<RoomLease>)> {
        self.rooms
            .iter()
            .filter_map(|entry| entry.value().lease.clone().map(|lease| (entry.key().clone(), lease)))
            .collect()
    }

    /// Hands room `code`, held here under `lease`, to server `node` to even out the load: stops
    /// it here (its connections closed with 1012, to resume), ends the lease, and asks `node`
    /// to open it. Whether `node` took it; if not, any server takes it at its next look (this
    /// one only after a lease).
    pub async fn move_room(&self, code: &Arc<str>, lease: &Arc<RoomLease>, node: &str) -> bool {
        let Some(relay) = self.relay() else { return false };
        self.moved_away.insert(code.clone(), Instant::now());
        lease.hand_over();
        if let Err(e) = self.storage.release(code.clone(), lease.fence.clone()).await {
            warn!(room = %code, error = %e, "cannot release a room's lease: it runs out instead");
        }
        relay.place_at(node, code).await.is_some()
    }

    /// The rooms in memory held under a lease, with it, and the other leases held here
    /// ([`Registry::hold_lease`]).
    pub fn leases(&self) -> Vec<(Arc<str>, Arc<RoomLease>)> {
        self.rooms
            .iter()
            .filter_map(|entry| entry.value().lease.clone().map(|lease| (entry.key().clone(), lease)))
            .chain(self.other_leases.iter().map(|entry| (entry.key().clone(), entry.value().clone())))
            .collect()
    }

    /// Keeps a lease claimed with [`Registry::claim_key`] for something else than a room (a
    /// tournament): renewed with the rooms', lost with them, handed over with them.
    pub fn hold_lease(&self, key: Arc<str>, lease: Arc<RoomLease>) {
        self.other_leases.insert(key, lease);
    }

    /// Forgets a lease kept by [`Registry::hold_lease`] (if it is still that one) and releases
    /// it unless it was lost.
    pub async fn drop_lease(&self, key: &Arc<str>, lease: &Arc<RoomLease>) {
        self.other_leases.remove_if(key, |_, held| Arc::ptr_eq(held, lease));
        if !lease.is_lost() {
            self.release(key, Some(lease.clone())).await;
        }
    }

    /// Claims `key` (a tournament's lease) as [`Registry::open`] claims a room: the lease, or
    /// the live holder's fence; waits while a silent holder's lease runs out.
    ///
    /// # Errors
    /// As [`Registry::open`].
    pub async fn claim_key(&self, key: &Arc<str>) -> Result<Result<Option<Arc<RoomLease>>, Fence>, ErrorCode> {
        self.until_claimed(key, || self.claim_or_holder(key)).await
    }

    /// Makes `attempt` (a claim of `key`) until it is answered, or another server that is alive
    /// holds `key` (`Ok(Err(holder))`). While the holder is silent (dead, or paused), or this
    /// server is stopping and hands over, it waits for the lease to run out or be taken over,
    /// trying again every [`CLAIM_RETRY`], for at most a lease and [`RELAY_GRACE`].
    ///
    /// # Errors
    /// `server/busy` when another server holds `key` and there is no relay to reach it, or its
    /// lease does not run out in time; else what `attempt` failed with.
    async fn until_claimed<T, F>(
        &self,
        key: &str,
        mut attempt: impl FnMut() -> F,
    ) -> Result<Result<T, Fence>, ErrorCode>
    where
        F: Future<Output = Result<Result<T, Fence>, ErrorCode>>,
    {
        // A silent holder's lease runs out within a lease of its last renewal.
        let deadline = Instant::now() + self.cluster.as_ref().map_or(Duration::ZERO, |c| c.lease) + RELAY_GRACE;
        loop {
            match attempt().await {
                Ok(Err(holder)) => {
                    let Some(relay) = self.relay() else { return Err(ErrorCode::ServerBusy) };
                    if relay.alive(&holder.node) {
                        return Ok(Err(holder));
                    }
                    if Instant::now() >= deadline {
                        warn!(key, holder = %holder.node, "the holder is silent and its lease does not run out");
                        return Err(ErrorCode::ServerBusy);
                    }
                }
                // Stopping here: another server takes it over in a moment.
                Err(ErrorCode::ShuttingDown) if self.relay().is_some() && Instant::now() < deadline => {}
                answer => return answer,
            }
            tokio::time::sleep(CLAIM_RETRY).await;
        }
    }

    /// Whether a room is in memory here.
    pub fn holds(&self, code: &str) -> bool {
        self.rooms.contains_key(code)
    }

    /// Whether the server is stopping ([`Registry::stop_claiming`]).
    pub fn is_stopping(&self) -> bool {
        self.stopping.load(Ordering::Acquire)
    }

    /// The server is stopping: in cluster mode no room is claimed from now on.
    pub fn stop_claiming(&self) {
        self.stopping.store(true, Ordering::Release);
    }

    fn env(self: &Arc<Self>) -> RoomEnv {
        RoomEnv {
            storage: self.storage.clone(),
            metrics: self.metrics.clone(),
            host: self.clone(),
            idle: self.idle,
            reviews: self.reviews.clone(),
            max_spectators: self.max_spectators,
        }
    }

    /// Creates, stores and opens a new room (claimed first, in cluster mode). The caller then
    /// joins it as its first player.
    ///
    /// # Errors
    /// `rules/invalid`, `options/invalid`, `name/invalid`, or `server/storage`.
    pub async fn create(
        self: &Arc<Self>,
        host: &str,
        rules: GameRules,
        options: RoomOptions,
    ) -> Result<RoomHandle, (ErrorCode, String)> {
        check_new_room(&rules, &options)?;
        let keep = prepare(&rules).await;
        let title = match clean_text(&options.title) {
            title if title.is_empty() => format!("{host}'s table"),
            title => title,
        };
        let meta = RoomMeta {
            code: secrets::invite_code(),
            created_at: SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(0)),
            title: title.clone(),
            rules,
            options: RoomOptions { title, ..options },
            master: self.fixed_master.unwrap_or_else(|| Seed(secrets::random_bytes::<32>())),
            tournament: None,
        };
        let code: Arc<str> = Arc::from(meta.code.as_str());
        let lease = self.claim(&code).await.map_err(|e| (e, e.to_string()))?;
        self.store_new(&code, &lease, meta.clone(), Vec::new()).await.map_err(|e| (e, e.to_string()))?;
        info!(room = %meta.code, game = meta.rules.game().code(), players = meta.rules.seats(), "room created");
        if let Some(placed) = self.place(&code, &lease).await {
            return placed.map_err(|e| (e, e.to_string()));
        }
        let instance = self.instances.fetch_add(1, Ordering::Relaxed);
        let (lobby_tx, lobby_rx) = watch::channel(None);
        let room = Room::new(meta, instance, lobby_tx, self.env());
        let handle = self.start(room, instance, lobby_rx, keep, lease);
        self.rooms.insert(handle.code.clone(), handle.clone());
        Ok(handle)
    }

    /// Starts a room's task and returns its handle (not yet in the map).
    /// `keep` is what the room's rules need prepared, held until the room's task ends; `lease`
    /// the room's lease in cluster mode, under which it stores every record.
    fn start(
        &self,
        mut room: Room,
        instance: u64,
        lobby: watch::Receiver<Option<LobbyRoom>>,
        keep: Prepared,
        lease: Option<Arc<RoomLease>>,
    ) -> RoomHandle {
        let (tx, rx) = mpsc::channel(ROOM_QUEUE);
        let handle =
            RoomHandle { instance, code: room.code().clone(), tx, lobby, lease: lease.clone(), opened: now_millis() };
        let owned = lease.is_some();
        room.hold(lease);
        inc(&self.metrics.rooms);
        if owned {
            inc(&self.metrics.rooms_owned);
        }
        let metrics = self.metrics.clone();
        let room = Box::new(room);
        tokio::spawn(async move {
            room.run(rx).await;
            drop(keep);
            dec(&metrics.rooms);
            if owned {
                dec(&metrics.rooms_owned);
            }
        });
        handle
    }

    /// The room with this invite code, from memory or storage. In cluster mode a room not in
    /// memory is claimed first (one claim at a time per room), then restored under its lease;
    /// with the relay (`--nats`), a room another live server holds is relayed to it, and one
    /// held by a server gone silent is waited for until its lease runs out (then claimed here).
    ///
    /// # Errors
    /// `room/not_found`, or `server/storage` if it could not be read; in cluster mode
    /// `server/busy` when another server holds the room (without the relay, or past the wait),
    /// `server/shutting_down` when this one is stopping.
    pub async fn open(self: &Arc<Self>, code: &str) -> Result<RoomHandle, ErrorCode> {
        if let Some(handle) = self.rooms.get(code).map(|r| r.value().clone()) {
            return Ok(handle);
        }
        if !secrets::looks_like_invite(code) {
            return Err(ErrorCode::RoomNotFound);
        }
        if self.cluster.is_none() {
            return self.restore(code, None).await;
        }
        if let Some(handle) = self.relay().and_then(|relay| relay.edge(code)) {
            return Ok(handle);
        }
        let code: Arc<str> = Arc::from(code);
        let opened = self
            .until_claimed(&code, || async {
                match self.open_once(&code).await {
                    Ok(Ok(handle)) => Ok(Ok(handle)),
                    Ok(Err(e)) => Err(e),
                    Err(holder) => Ok(Err(holder)),
                }
            })
            .await?;
        match (opened, self.relay()) {
            (Ok(handle), _) => Ok(handle),
            (Err(holder), Some(relay)) => Ok(relay.relay_room(code, holder)),
            (Err(_), None) => Err(ErrorCode::ServerBusy),
        }
    }

    /// Opens room `code` here if this server may claim it (its lease ran out, or it is this
    /// server's own from before a restart); a room another server holds stays there. Whether it
    /// was opened here now.
    pub async fn adopt(self: &Arc<Self>, code: &str) -> bool {
        if self.cluster.is_none()
            || self.stopping.load(Ordering::Acquire)
            || !secrets::looks_like_invite(code)
            || self.rooms.contains_key(code)
        {
            return false;
        }
        match self.open_once(&Arc::from(code)).await {
            Ok(Ok(_)) => true,
            Ok(Err(e)) => {
                warn!(room = %code, code = e.code(), "cannot open a room claimed here");
                false
            }
            Err(_) => false,
        }
    }

    /// One attempt of [`Registry::open`] in cluster mode: the room opened here (or why not), or
    /// `Err(holder)` when another server holds it.
    async fn open_once(self: &Arc<Self>, code: &Arc<str>) -> Result<Result<RoomHandle, ErrorCode>, Fence> {
        let gate = self.claiming.entry(code.clone()).or_default().clone();
        let result = {
            let _open = gate.lock().await;
            match self.rooms.get(code).map(|r| r.value().clone()) {
                // Opened while this waited at the gate.
                Some(handle) => Ok(Ok(handle)),
                None => match self.claim_or_holder(code).await {
                    Ok(Ok(lease)) => {
                        let result = self.restore(code, lease.clone()).await;
                        if result.is_err() {
                            self.release(code, lease).await;
                        }
                        Ok(result)
                    }
                    Ok(Err(holder)) => Err(holder),
                    Err(e) => Ok(Err(e)),
                },
            }
        };
        // The gate goes once nobody else waits at it (they hold it only through the map's
        // entry, taken under the same shard lock).
        self.claiming.remove_if(code, |_, g| Arc::ptr_eq(g, &gate) && Arc::strong_count(g) == 2);
        result
    }

    /// Reads a room from storage and starts its task (under `lease`, in cluster mode).
    async fn restore(self: &Arc<Self>, code: &str, lease: Option<Arc<RoomLease>>) -> Result<RoomHandle, ErrorCode> {
        if self.broken.contains_key(code) {
            // Found broken since start: not read and rebuilt again for every visitor.
            return Err(ErrorCode::RoomBroken);
        }
        let stored: StoredRoom = match self.storage.load(code).await {
            Ok(Some(stored)) => stored,
            Ok(None) => return Err(ErrorCode::RoomNotFound),
            Err(e) => return Err(self.unloadable(code, &e)),
        };
        // The deals the stored index holds already; the restore makes the rows of the others.
        let indexed = match self.storage.load_deals(code, u32::MAX, 0).await {
            Ok(found) => found.and_then(|f| f.latest).map_or(0, |latest| latest.number),
            Err(e) => {
                warn!(room = %code, error = %e, "cannot read the deal index: made again whole");
                0
            }
        };
        let keep = prepare(&stored.meta.rules).await;
        let instance = self.instances.fetch_add(1, Ordering::Relaxed);
        let (lobby_tx, lobby_rx) = watch::channel(None);
        let records = stored.records.len();
        let mut room =
            Room::restore(stored, instance, lobby_tx, self.env(), indexed).map_err(|e| self.broken(code, &e))?;
        room.store_index().await;
        let handle = match self.rooms.entry(room.code().clone()) {
            // Another connection opened it meanwhile: use that one.
            Entry::Occupied(existing) => {
                let handle = existing.get().clone();
                drop(existing);
                self.release(&room.code().clone(), lease).await;
                return Ok(handle);
            }
            Entry::Vacant(vacant) => {
                let handle = self.start(room, instance, lobby_rx, keep, lease);
                vacant.insert(handle.clone());
                handle
            }
        };
        let fence = handle.lease.as_ref().map(|lease| lease.fence.clone());
        if let Err(e) = self.storage.set_active_under(fence, handle.code.clone(), true).await {
            warn!(room = %code, error = %e, "cannot mark the room open");
        }
        info!(room = %code, records, "room restored from storage");
        Ok(handle)
    }

    /// Reports a stored room that does not rebuild what was acknowledged (logged at error level
    /// with its code and the record or field at fault, and counted, the first time); it is left
    /// closed and unchanged. Returns the code its visitors get.
    fn broken(&self, code: &str, damaged: &Damaged) -> ErrorCode {
        if self.broken.insert(code.to_string(), ()).is_none() {
            inc(&self.metrics.rooms_broken);
            error!(
                room = %code,
                record = damaged.record(),
                error = %damaged,
                "a stored room does not rebuild as it was played: it is not restored and stays closed, unchanged"
            );
        }
        ErrorCode::RoomBroken
    }

    /// Reports a stored tournament whose records do not rebuild it (logged at error level and
    /// counted with the broken rooms, the first time); it is not restored. Returns the code its
    /// visitors get.
    pub fn broken_tournament(&self, id: &str, reason: &str) -> ErrorCode {
        if self.broken.insert(format!("tournament:{id}"), ()).is_none() {
            inc(&self.metrics.rooms_broken);
            error!(tournament = %id, error = %reason, "a stored tournament does not rebuild: it is not restored and stays unchanged");
        }
        ErrorCode::RoomBroken
    }

    /// The code for a room storage could not load: `room/broken` when what is stored cannot be
    /// read back (its creation row is damaged), `server/storage` when storage failed.
    fn unloadable(&self, code: &str, e: &StorageError) -> ErrorCode {
        match e {
            StorageError::Corrupt(reason) => {
                self.broken(code, &Damaged::Creation { field: "creation row", reason: reason.clone() })
            }
            e => {
                warn!(room = %code, error = %e, "cannot load a room");
                ErrorCode::Storage
            }
        }
    }

    /// Removes a room task's handle, if it is still that task's.
    pub fn forget(&self, code: &str, instance: u64) {
        self.rooms.remove_if(code, |_, handle| handle.instance == instance);
    }

    /// Deletes every series whose room has been closed in memory for longer than `retention`
    /// (a room open in memory now is kept); returns how many were deleted.
    pub async fn expire(&self, retention: Duration) -> usize {
        let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
        let before = u64::try_from(now.saturating_sub(retention).as_millis()).unwrap_or(u64::MAX);
        let codes = match self.storage.closed_before(before).await {
            Ok(codes) => codes,
            Err(e) => {
                warn!(error = %e, "cannot list the series past retention");
                return 0;
            }
        };
        let mut deleted = 0;
        for code in codes {
            if self.rooms.contains_key(code.as_str()) {
                continue;
            }
            match self.storage.delete_closed_room(Arc::from(code.as_str())).await {
                Ok(()) => deleted += 1,
                Err(e) => warn!(room = %code, error = %e, "cannot delete a series past retention"),
            }
        }
        if deleted > 0 {
            info!(deleted, "deleted series past their retention");
        }
        deleted
    }

    /// Drops a handle whose task is gone (a room's, or a relayed room's).
    pub fn forget_handle(&self, handle: &RoomHandle) {
        self.rooms.remove_if(&handle.code, |_, h| h.tx.same_channel(&handle.tx));
        if let Some(relay) = self.relay() {
            relay.edges.remove_if(&handle.code, |_, h| h.tx.same_channel(&handle.tx));
        }
    }

    /// Opens every room that was open when the server last stopped.
    ///
    /// # Errors
    /// Storage could not be read.
    pub async fn restore_active(self: &Arc<Self>) -> Result<usize, StorageError> {
        let codes = self.storage.active_rooms().await?;
        let mut restored = 0;
        for code in codes {
            if self.open(&code).await.is_ok() {
                restored += 1;
            }
        }
        Ok(restored)
    }

    /// One page of the public rooms: how many there are, and at most [`LOBBY_PAGE`] of them
    /// from `offset` on. Newest first: rooms opened later (created, or reopened after a rest)
    /// come first. A page is bounded, so the answer stays small however many rooms are public.
    /// In a cluster with the relay, the other servers' public rooms are listed too.
    pub fn lobby(&self, offset: u32) -> (u32, Vec<LobbyRoom>) {
        let mut public: Vec<(u64, u64, Listed)> = self
            .rooms
            .iter()
            .filter(|entry| entry.value().lobby.borrow().is_some())
            .map(|entry| (entry.value().opened, entry.value().instance, Listed::Here(entry.value().lobby.clone())))
            .collect();
        if let Some(relay) = self.relay() {
            public.extend(
                relay
                    .remote_lobby()
                    .into_iter()
                    // A room that moved here lists once, as it is here.
                    .filter(|(_, room)| !self.rooms.contains_key(room.room.as_str()))
                    .map(|(opened, room)| (opened, 0, Listed::Elsewhere(room))),
            );
        }
        public.sort_unstable_by_key(|r| std::cmp::Reverse((r.0, r.1)));
        let total = u32::try_from(public.len()).unwrap_or(u32::MAX);
        let page = public
            .into_iter()
            .skip(offset as usize)
            .filter_map(|(_, _, listed)| match listed {
                Listed::Here(lobby) => lobby.borrow().clone(),
                Listed::Elsewhere(room) => Some(room),
            })
            .take(LOBBY_PAGE as usize)
            .collect();
        (total, page)
    }

    /// The public rooms here, newest first, at most `limit`, each with when it was opened.
    pub fn public_rooms(&self, limit: usize) -> Vec<(u64, LobbyRoom)> {
        let mut public: Vec<(u64, u64, watch::Receiver<Option<LobbyRoom>>)> = self
            .rooms
            .iter()
            .filter(|entry| entry.value().lobby.borrow().is_some())
            .map(|entry| (entry.value().opened, entry.value().instance, entry.value().lobby.clone()))
            .collect();
        public.sort_unstable_by_key(|r| std::cmp::Reverse((r.0, r.1)));
        public
            .into_iter()
            .filter_map(|(opened, _, lobby)| Some((opened, lobby.borrow().clone()?)))
            .take(limit)
            .collect()
    }

    /// The room of an invite code as the lobby would show it, public or not (for the
    /// invitation page).
    ///
    /// # Errors
    /// `room/not_found`, or `server/storage`.
    pub async fn peek(self: &Arc<Self>, code: &str) -> Result<LobbyRoom, ErrorCode> {
        for _attempt in 0..2 {
            let handle = self.open(code).await?;
            let (reply, answer) = oneshot::channel();
            if handle.tx.send(RoomCommand::Peek { reply }).await.is_err() {
                self.forget_handle(&handle);
                continue;
            }
            if let Ok(info) = answer.await {
                return Ok(info);
            }
        }
        Err(ErrorCode::RoomNotFound)
    }

    /// Whether `addr` may create another room now: each address has a bucket of
    /// `--rooms-per-address` rooms that refills by one every [`ROOM_REFILL`].
    pub fn may_create_room(&self, addr: IpAddr) -> bool {
        if self.rooms_per_address == 0 {
            return true;
        }
        let burst = f64::from(self.rooms_per_address);
        let now = Instant::now();
        if self.room_quota.len() > QUOTA_ENTRIES {
            // Full buckets say nothing: forget them, so the map stays small.
            self.room_quota.retain(|_, bucket| !bucket.is_full(now));
        }
        // One IPv6 /64 is one address, as for the sockets per address.
        let mut bucket =
            self.room_quota.entry(crate::quota::address_key(addr)).or_insert_with(|| Bucket::with_burst(burst, now));
        bucket.take(now)
    }

    /// When a bot move in a room of bots only that `addr` watches, due at `due`, may be made:
    /// the bots of all such rooms watched from one address make one move in each step of their
    /// pace (`--watched-bots-rate`) between them, and each room one at most. The time is taken
    /// for that move.
    pub fn unattended_bot_move(&self, addr: IpAddr, due: Instant) -> Instant {
        self.bot_pace.move_at(addr, due)
    }

    /// Checks `key` for the series of `room`: its share key (`None`), or a seat token of the
    /// room (`Some` of its participant). A wrong room and a wrong key are the same error.
    ///
    /// The key is checked against the room's creation row alone (and, for a seat token, the
    /// token's own row): a wrong key costs two small reads, never the room's records.
    async fn series_key(&self, room: &str, key: &str) -> Result<Option<u32>, ErrorCode> {
        if !secrets::looks_like_invite(room) || key.is_empty() || key.len() > 64 {
            return Err(ErrorCode::SeriesNotFound);
        }
        let meta = match self.storage.load_meta(room).await {
            Ok(Some(meta)) => meta,
            Ok(None) => return Err(ErrorCode::SeriesNotFound),
            Err(e) => return Err(self.unloadable(room, &e)),
        };
        if secrets::same_key(key, &secrets::share_key(&meta.master)) {
            return Ok(None);
        }
        let found = self.storage.find_tokens(vec![secrets::token_hash(key)]).await.map_err(|e| {
            warn!(error = %e, "cannot look a token up");
            ErrorCode::Storage
        })?;
        match found.into_iter().find(|(code, _)| code == room) {
            Some((_, participant)) => Ok(Some(participant)),
            None => Err(ErrorCode::SeriesNotFound),
        }
    }

    /// Deals `from` to `from + count - 1` of the stored series of `room`, its key checked
    /// already ([`Registry::series_key`]): their deal index rows and records, never the room's
    /// whole log ([`crate::room::series_index::read`]); they are checked where they are dealt again
    /// ([`Registry::with_series`]).
    async fn load_series(&self, room: &str, from: u32, count: u32) -> Result<StoredSeries, ErrorCode> {
        match crate::room::series_index::read(&self.storage, room, from, count).await {
            Ok(Some(stored)) => Ok(stored),
            Ok(None) => Err(ErrorCode::SeriesNotFound),
            Err(Unread::Storage(e)) => Err(self.unloadable(room, &e)),
            Err(Unread::Damaged(damage)) => Err(self.broken(room, &damage)),
        }
    }

    /// Opens deals `from` to `from + count - 1` of the series of `room` for the holder of `key`
    /// and runs `work` on them, with the asker's seat (if he asked with his seat token and has
    /// one), on a background thread once it is the turn of `addr` at the reviews' queue
    /// ([`crate::fair`]). The key is checked before the turn is waited for, and the room is read
    /// only once the turn has come, so a waiting request holds nothing of it.
    async fn with_series<T: Send + 'static>(
        &self,
        addr: IpAddr,
        room: &str,
        key: &str,
        (from, count): (u32, u32),
        work: impl FnOnce(&StoredSeries, Option<Seat>) -> Result<T, Damaged> + Send + 'static,
    ) -> Result<T, ErrorCode> {
        let participant = self.series_key(room, key).await?;
        if self.broken.contains_key(room) {
            return Err(ErrorCode::RoomBroken);
        }
        let turn = self.turn(addr, room).await?;
        let stored = self.load_series(room, from, count).await?;
        let done = crate::background::run(move || {
            let _turn = turn;
            // The work deals the deals again, and only deals that rebuild exactly what was
            // acknowledged show anything of the series (see `crate::room::replay`).
            let seat = participant.and_then(|participant| stored.seat_of(participant));
            work(&stored, seat)
        })
        .await
        .map_err(|_| ErrorCode::ServerBusy)?;
        done.map_err(|damage| self.broken(room, &damage))
    }

    /// Waits for `addr`'s turn at the reviews' queue for a job about `room`, to be held while
    /// the job is prepared and run (take it before loading what the job needs, so that a
    /// waiting job holds nothing).
    ///
    /// # Errors
    /// `server/busy` when `addr`'s queue (or `room`'s, or the server's) is full.
    pub async fn turn(&self, addr: IpAddr, room: &str) -> Result<Turn, ErrorCode> {
        self.reviews.turn(addr, room).await.map_err(|_| ErrorCode::ServerBusy)
    }

    /// Page `page` of the series of `room` as far as its deals are over, for the holder of
    /// `key` asking from `addr`; with the series' share key for a seated player who asked with
    /// his seat token (as `share_link` gives it).
    ///
    /// # Errors
    /// `series/not_found`, `room/broken`, `server/busy` or `server/storage`.
    pub async fn series(
        &self,
        addr: IpAddr,
        room: &str,
        key: &str,
        page: crate::room::replay::SeriesPage,
    ) -> Result<(SeriesRecord, Option<String>), ErrorCode> {
        self.with_series(addr, room, key, (page.from, page.count), move |stored, perspective| {
            let share = perspective.map(|_| secrets::share_key(&stored.meta.master));
            Ok((crate::room::replay::series_record(stored, perspective, page)?, share))
        })
        .await
    }

    /// The replay of finished deal `deal` of `room`'s series, for the holder of `key` asking
    /// from `addr`.
    ///
    /// # Errors
    /// `series/not_found`, `room/broken`, `replay/unavailable` (a deal still being played, or
    /// none such), `server/busy` or `server/storage`.
    pub async fn series_replay(&self, addr: IpAddr, room: &str, key: &str, deal: u32) -> Result<DealReplay, ErrorCode> {
        self.with_series(addr, room, key, (deal, 1), move |stored, perspective| {
            crate::room::replay::replay_deal(stored, deal, perspective)
        })
        .await?
        .ok_or(ErrorCode::ReplayUnavailable)
    }

    /// The rooms these seat tokens belong to.
    pub async fn my_rooms(self: &Arc<Self>, tokens: &[String]) -> Vec<MyRoom> {
        let hashes = tokens.iter().map(|t| secrets::token_hash(t)).collect();
        let found = match self.storage.find_tokens(hashes).await {
            Ok(found) => found,
            Err(e) => {
                warn!(error = %e, "cannot look tokens up");
                return Vec::new();
            }
        };
        let mut rooms = Vec::new();
        for (code, participant) in found {
            for attempt in 0..3 {
                let handle = match self.open(&code).await {
                    Ok(handle) => handle,
                    // Listed as it is, not left out: the player sees why he cannot return.
                    Err(ErrorCode::RoomBroken) => {
                        rooms.push(MyRoom::broken(code.clone()));
                        break;
                    }
                    Err(e) => {
                        warn!(room = %code, code = e.code(), "a room of the tokens cannot be opened: left out");
                        break;
                    }
                };
                let (reply, answer) = oneshot::channel();
                if handle.tx.send(RoomCommand::Summary { participant, reply }).await.is_err() {
                    self.forget_handle(&handle);
                    continue;
                }
                match answer.await {
                    Ok(summary) => {
                        rooms.extend(summary);
                        break;
                    }
                    // The room (or, in a cluster, the server relaying it) stopped meanwhile:
                    // asked again wherever it is now.
                    Err(_) => {
                        warn!(room = %code, attempt, "a room's summary did not come: asking again");
                        self.forget_handle(&handle);
                    }
                }
            }
        }
        rooms
    }
}

impl RoomHost for Registry {
    fn room_closed(&self, code: &str, instance: u64) {
        self.forget(code, instance);
    }

    fn table_played(&self, report: TableReport) {
        self.report_table(report);
    }

    fn bot_move_at(&self, addr: IpAddr, due: Instant) -> Instant {
        self.unattended_bot_move(addr, due)
    }

    fn open_rematch(
        self: Arc<Self>,
        template: RoomMeta,
        records: Vec<Record>,
    ) -> BoxFuture<'static, Result<Arc<str>, ErrorCode>> {
        Box::pin(async move { self.create_rematch(template, records).await.map(|handle| handle.code) })
    }
}

impl TournamentHost for Registry {
    fn cluster(&self) -> Option<&Cluster> {
        Registry::cluster(self)
    }

    fn fixed_master(&self) -> Option<Seed> {
        Registry::fixed_master(self)
    }

    fn set_reports(&self, reports: mpsc::UnboundedSender<TableReport>) {
        Registry::set_reports(self, reports);
    }

    fn claim_key<'a>(&'a self, key: &'a Arc<str>) -> BoxFuture<'a, Result<KeyClaim, ErrorCode>> {
        Box::pin(Registry::claim_key(self, key))
    }

    fn hold_lease(&self, key: Arc<str>, lease: Arc<RoomLease>) {
        Registry::hold_lease(self, key, lease);
    }

    fn drop_lease<'a>(&'a self, key: &'a Arc<str>, lease: &'a Arc<RoomLease>) -> BoxFuture<'a, ()> {
        Box::pin(Registry::drop_lease(self, key, lease))
    }

    fn broken_tournament(&self, id: &str, reason: &str) -> ErrorCode {
        Registry::broken_tournament(self, id, reason)
    }

    fn open_table(self: Arc<Self>, meta: RoomMeta, seats: Vec<TableSeat>) -> BoxFuture<'static, Result<(), ErrorCode>> {
        Box::pin(async move { Registry::open_table(&self, meta, &seats).await.map(|_| ()) })
    }

    fn tournament_edge(&self, id: &str) -> Option<TournamentHandle> {
        self.relay()?.tournament_edge(id)
    }

    fn relay_tournament(&self, id: Arc<str>, holder: Fence) -> Option<TournamentHandle> {
        Some(self.relay()?.relay_tournament(id, holder))
    }

    fn remote_tournaments(&self) -> Vec<(u64, TournamentSummary)> {
        self.relay().map(|relay| relay.remote_tournaments()).unwrap_or_default()
    }
}

impl NodeRooms for Registry {
    fn cluster(&self) -> Option<&Cluster> {
        Registry::cluster(self)
    }

    fn storage(&self) -> &Storage {
        Registry::storage(self)
    }

    fn metrics(&self) -> &Metrics {
        Registry::metrics(self)
    }

    fn leases(&self) -> Vec<(Arc<str>, Arc<RoomLease>)> {
        Registry::leases(self)
    }

    fn room_leases(&self) -> Vec<(Arc<str>, Arc<RoomLease>)> {
        Registry::room_leases(self)
    }

    fn stop_claiming(&self) {
        Registry::stop_claiming(self);
    }

    fn is_stopping(&self) -> bool {
        Registry::is_stopping(self)
    }

    fn holds(&self, code: &str) -> bool {
        Registry::holds(self, code)
    }

    fn local(&self, code: &str) -> Option<RoomHandle> {
        Registry::local(self, code)
    }

    fn held(&self, code: &str, epoch: u64) -> Option<RoomHandle> {
        Registry::held(self, code, epoch)
    }

    fn public_rooms(&self, limit: usize) -> Vec<(u64, LobbyRoom)> {
        Registry::public_rooms(self, limit)
    }

    fn adopt(self: Arc<Self>, code: String) -> BoxFuture<'static, bool> {
        Box::pin(async move { Registry::adopt(&self, &code).await })
    }

    fn open_placed(self: Arc<Self>, code: String) -> BoxFuture<'static, Option<u64>> {
        Box::pin(async move { Registry::open_placed(&self, &code).await })
    }

    fn move_room<'a>(&'a self, code: &'a Arc<str>, lease: &'a Arc<RoomLease>, node: &'a str) -> BoxFuture<'a, bool> {
        Box::pin(Registry::move_room(self, code, lease, node))
    }
}
