//! The leases of the rooms and tournaments held here (cluster mode): claimed, waited for while a
//! silent holder's runs out, released, and handed to another server to even out the load.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use fipsen_protocol::ErrorCode;
use tracing::{info, warn};

use super::Registry;
use crate::lease::{Cluster, RoomLease};
use crate::room::RoomHandle;
use crate::storage::{Claim, Fence};

/// How long past a lease a room held by a silent server is waited for (cluster mode).
const RELAY_GRACE: Duration = Duration::from_secs(2);
/// How often a room held by a silent server is claimed again while its lease runs.
const CLAIM_RETRY: Duration = Duration::from_millis(250);

impl Registry {
    /// Claims a room for this server, in cluster mode (`None` when the server is alone).
    ///
    /// # Errors
    /// `server/busy` when another server holds the room (logged), `server/shutting_down` when
    /// this one is stopping, `server/storage` when the store failed.
    pub(super) async fn claim(&self, code: &Arc<str>) -> Result<Option<Arc<RoomLease>>, ErrorCode> {
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
    pub(super) async fn claim_or_holder(
        &self,
        code: &Arc<str>,
    ) -> Result<Result<Option<Arc<RoomLease>>, Fence>, ErrorCode> {
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
    pub(super) async fn release(&self, code: &Arc<str>, lease: Option<Arc<RoomLease>>) {
        if let Some(lease) = lease
            && let Err(e) = self.storage.release(code.clone(), lease.fence.clone()).await
        {
            warn!(room = %code, error = %e, "cannot release a room's lease");
        }
    }

    /// Whether room `code` was handed to another server to even out the load less than a lease
    /// ago (forgotten after that).
    pub(super) fn moved_away_lately(&self, code: &str, cluster: &Cluster) -> bool {
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
        // Bounded by the rooms moved within a lease: older entries are forgotten here, not
        // only when their room is claimed again.
        if let Some(cluster) = &self.cluster {
            self.moved_away.retain(|_, at| at.elapsed() < cluster.lease);
        }
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
    pub(super) async fn until_claimed<T, F>(
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
}
