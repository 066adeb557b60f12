//! The rooms in memory: a map from invite code to the room task's handle, and nothing else.
//! No map guard is ever held across an `.await`: handles are cloned out first.
//!
//! The parts: `rooms` (created and started), `opening` (opened from storage, or relayed),
//! `leases` (cluster mode's claims), `lobby` (public rooms, peeks, a player's rooms), `series`
//! (stored series' pages and replays), `quotas` (per address) and `hosts` (what the rooms,
//! tournaments and cluster ask of the server).

mod hosts;
mod leases;
mod lobby;
mod opening;
mod quotas;
mod rooms;
mod series;

pub use crate::quota::{Bucket, ROOM_REFILL, ROOMS_PER_CONNECTION_BURST};
pub use crate::room::RoomHandle;
pub use crate::text::{clean_name, clean_text, is_invisible};
pub use rooms::check_new_room;

use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use dashmap::DashMap;
use fipsen_rules::Seed;
use tokio::sync::mpsc;

use crate::background::CONCURRENT_REVIEWS;
use crate::cluster::relay::Relay;
use crate::fair::FairQueue;
use crate::lease::{Cluster, RoomLease};
use crate::metrics::Metrics;
use crate::quota::BotPace;
use crate::room::TableReport;
use crate::storage::Storage;

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

    /// Relays the rooms other servers hold through `relay` from now on (cluster mode with
    /// `--nats`; once).
    pub fn set_relay(&self, relay: Arc<Relay>) {
        let _ = self.relay.set(relay);
    }

    /// The relay, in cluster mode with `--nats`.
    pub fn relay(&self) -> Option<&Arc<Relay>> {
        self.relay.get()
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

    /// Removes a room task's handle, if it is still that task's.
    pub fn forget(&self, code: &str, instance: u64) {
        self.rooms.remove_if(code, |_, handle| handle.instance == instance);
    }

    /// Drops a handle whose task is gone (a room's, or a relayed room's).
    pub fn forget_handle(&self, handle: &RoomHandle) {
        self.rooms.remove_if(&handle.code, |_, h| h.tx.same_channel(&handle.tx));
        if let Some(relay) = self.relay() {
            relay.edges.remove_if(&handle.code, |_, h| h.tx.same_channel(&handle.tx));
        }
    }
}
