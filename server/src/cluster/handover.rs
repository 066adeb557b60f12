//! Hand-over at a graceful stop: once the drain is over (`--stop-drain-seconds`, while
//! `/healthz` said `stopping`, no room was claimed here and the rooms here played on), every
//! room here stops (staying marked open), closing its connections with 1012, and its lease is
//! released, so that another server takes the room at its next look instead of waiting for the
//! lease to run out.

use tracing::{info, warn};

use super::rooms::NodeRooms;

/// Stops claiming rooms (if the drain has not already), stops every room held under a lease
/// and releases its lease; returns how many were released.
pub async fn release_all(registry: &dyn NodeRooms) -> usize {
    registry.stop_claiming();
    let mut released = 0;
    for (code, lease) in registry.leases() {
        lease.hand_over();
        match registry.storage().release(code.clone(), lease.fence.clone()).await {
            Ok(()) => released += 1,
            Err(e) => warn!(room = %code, error = %e, "cannot release a room's lease: it runs out instead"),
        }
    }
    if released > 0 {
        info!(released, "rooms handed over");
    }
    released
}
