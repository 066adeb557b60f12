//! A server's leases in cluster mode: the node's identity and lease settings ([`Cluster`]), and
//! a room's (or tournament's) lease as its task and the registry share it ([`RoomLease`]). The
//! cluster's own work with them (renewal, takeover, hand-over) is in `cluster/`.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use tokio::sync::Notify;

use crate::storage::Fence;

/// The node's identity and lease settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cluster {
    /// This server's name (`--node-id`), the holder of its leases.
    pub node: Arc<str>,
    /// How long a lease lasts without renewal (`--lease-ms`).
    pub lease: Duration,
}

impl Cluster {
    /// The settings of the node `node` with leases of `lease`.
    pub fn new(node: &str, lease: Duration) -> Cluster {
        Cluster { node: Arc::from(node), lease }
    }

    /// How often the leases are renewed: a third of a lease, so that two renewals may fail
    /// before one runs out.
    pub fn renew_every(&self) -> Duration {
        self.lease / 3
    }

    /// How often the rooms nobody holds are looked for: half a lease.
    pub fn takeover_every(&self) -> Duration {
        self.lease / 2
    }
}

/// A room's lease held by this server: its fence, when it was granted, and the signal that
/// stops the room's task because the lease is gone.
#[derive(Debug)]
pub struct RoomLease {
    /// The lease every record of the room is stored under.
    pub fence: Fence,
    /// When the claim was asked for: a renewal asked for before it does not know the lease.
    pub claimed_at: Instant,
    lost: AtomicBool,
    /// Lost because this server hands it over (a graceful stop), not taken from it.
    handed_over: AtomicBool,
    /// The room may move to another server without cutting into a deal: nobody is connected
    /// to it, or no deal is being played (set by the room's task as it changes).
    at_rest: AtomicBool,
    stop: Notify,
}

impl RoomLease {
    /// The lease `fence`, claimed at `claimed_at`.
    pub fn new(fence: Fence, claimed_at: Instant) -> RoomLease {
        RoomLease {
            fence,
            claimed_at,
            lost: AtomicBool::new(false),
            handed_over: AtomicBool::new(false),
            at_rest: AtomicBool::new(false),
            stop: Notify::new(),
        }
    }

    /// Says whether the room may move now without cutting into a deal (its task, after each
    /// change).
    pub fn set_at_rest(&self, at_rest: bool) {
        self.at_rest.store(at_rest, Ordering::Release);
    }

    /// Whether the room may move now without cutting into a deal ([`RoomLease::set_at_rest`]).
    pub fn is_at_rest(&self) -> bool {
        self.at_rest.load(Ordering::Acquire)
    }

    /// Tells the room's task that the lease is gone: it stops at once, applying nothing more.
    pub fn lose(&self) {
        self.lost.store(true, Ordering::Release);
        // A permit is kept if the task is not waiting right now.
        self.stop.notify_one();
    }

    /// Stops the room's task as [`RoomLease::lose`] does, because this server hands the room
    /// over (it is not counted lost).
    pub fn hand_over(&self) {
        self.handed_over.store(true, Ordering::Release);
        self.lose();
    }

    /// Whether the room is handed over ([`RoomLease::hand_over`]).
    pub fn is_handed_over(&self) -> bool {
        self.handed_over.load(Ordering::Acquire)
    }

    /// Whether the lease was lost ([`RoomLease::lose`]).
    pub fn is_lost(&self) -> bool {
        self.lost.load(Ordering::Acquire)
    }

    /// Resolves once the lease is lost.
    pub async fn lost(&self) {
        while !self.is_lost() {
            self.stop.notified().await;
        }
    }
}

/// Resolves once `lease` is lost; never without a lease (a server alone).
pub async fn until_lost(lease: Option<Arc<RoomLease>>) {
    match lease {
        Some(lease) => lease.lost().await,
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lease() -> RoomLease {
        RoomLease::new(Fence { node: Arc::from("a"), epoch: 3 }, Instant::now())
    }

    /// A room's task hears of a lost lease whether it waits already or starts waiting after;
    /// a hand-over is a loss that is told apart.
    #[tokio::test]
    async fn a_lost_lease_stops_the_waiting_task() {
        let held = Arc::new(lease());
        let waiting = tokio::spawn({
            let held = held.clone();
            async move { held.lost().await }
        });
        tokio::task::yield_now().await;
        assert!(!held.is_lost() && !waiting.is_finished());
        held.lose();
        tokio::time::timeout(Duration::from_secs(5), waiting).await.expect("woken").expect("ran");
        assert!(held.is_lost() && !held.is_handed_over());

        let handed = lease();
        handed.hand_over();
        tokio::time::timeout(Duration::from_secs(5), handed.lost()).await.expect("already lost");
        assert!(handed.is_lost() && handed.is_handed_over());
    }

    /// Leases are renewed three times and looked for twice in a lease.
    #[test]
    fn renewal_and_takeover_run_within_a_lease() {
        let cluster = Cluster::new("a", Duration::from_millis(1500));
        assert_eq!(cluster.renew_every(), Duration::from_millis(500));
        assert_eq!(cluster.takeover_every(), Duration::from_millis(750));
    }
}
