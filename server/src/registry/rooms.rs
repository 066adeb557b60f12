//! Rooms created and started: a new room, a tournament's table, a room to play again in; each
//! claimed and stored first, then placed on the least loaded server or started here.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use dashmap::mapref::entry::Entry;
use fipsen_protocol::{ErrorCode, LobbyRoom, RoomOptions};
use fipsen_rules::{GameRules, Prepared, Seed};
use tokio::sync::{mpsc, watch};
use tracing::{debug, info, warn};

use super::Registry;
use crate::lease::RoomLease;
use crate::metrics::{dec, inc};
use crate::room::RoomHandle;
use crate::room::TableReport;
use crate::room::{Record, Room, RoomEnv, TableSeat};
use crate::secrets;
use crate::storage::{RoomMeta, StoredRecord};
use crate::text::clean_text;

/// Commands queued for one room before senders wait.
const ROOM_QUEUE: usize = 256;
/// Milliseconds since 1970.
fn now_millis() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(0))
}

/// Computes, off the event loop, what a room of these rules needs before it opens (the game's
/// preparation hook, [`GameRules::prepare`]: for some rules a table costing up to a second of
/// CPU and some MiB, BENCHMARKS.md), which every listing of moves would otherwise wait for on
/// the room's task. The room's task keeps the answer while it runs, so that it is shared by
/// every room of those rules and its memory given back after the last one.
pub(super) async fn prepare(rules: &GameRules) -> Prepared {
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
    pub(super) async fn create_seated(
        self: &Arc<Self>,
        meta: RoomMeta,
        records: Vec<Record>,
    ) -> Result<RoomHandle, ErrorCode> {
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
    pub(super) async fn store_new(
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
    pub(super) async fn place(
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

    pub(super) fn env(self: &Arc<Self>) -> RoomEnv {
        RoomEnv {
            storage: self.storage.clone(),
            metrics: self.metrics.clone(),
            host: self.clone(),
            idle: self.idle,
            reviews: self.reviews.clone(),
            max_spectators: self.max_spectators,
        }
    }

    /// Starts a room's task and returns its handle (not yet in the map).
    /// `keep` is what the room's rules need prepared, held until the room's task ends; `lease`
    /// the room's lease in cluster mode, under which it stores every record.
    pub(super) fn start(
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
}
