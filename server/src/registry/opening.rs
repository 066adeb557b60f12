//! Rooms opened from storage (claimed first in cluster mode, or relayed to the server holding
//! them), and the rooms found broken.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use dashmap::mapref::entry::Entry;
use fipsen_protocol::ErrorCode;
use tokio::sync::watch;
use tracing::{error, info, warn};

use super::Registry;
use super::rooms::prepare;
use crate::lease::RoomLease;
use crate::metrics::inc;
use crate::room::RoomHandle;
use crate::room::{Damaged, Room};
use crate::secrets;
use crate::storage::{Fence, StorageError, StoredRoom};

impl Registry {
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

    /// One attempt of [`Registry::open`] in cluster mode: the room opened here (or why not), or
    /// `Err(holder)` when another server holds it.
    pub(super) async fn open_once(self: &Arc<Self>, code: &Arc<str>) -> Result<Result<RoomHandle, ErrorCode>, Fence> {
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
    pub(super) async fn restore(
        self: &Arc<Self>,
        code: &str,
        lease: Option<Arc<RoomLease>>,
    ) -> Result<RoomHandle, ErrorCode> {
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
    pub(super) fn broken(&self, code: &str, damaged: &Damaged) -> ErrorCode {
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
    pub(super) fn unloadable(&self, code: &str, e: &StorageError) -> ErrorCode {
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
}
