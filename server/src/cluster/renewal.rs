//! Lease renewal: every third of a lease, one statement extends every lease of this server;
//! a room in memory missing from the answer lost its lease and stops at once. When renewals
//! fail for longer than a lease, the leases may all have run out: every room stops.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Instant;

use tracing::{error, warn};

use super::rooms::NodeRooms;

/// Renews this server's leases until the registry is dropped (in cluster mode only).
pub async fn run(registry: Arc<dyn NodeRooms>) {
    let Some(cluster) = registry.cluster().cloned() else { return };
    let mut renewed = Instant::now();
    let mut ticks = tokio::time::interval(cluster.renew_every());
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        let asked = Instant::now();
        match registry.storage().renew(cluster.node.clone(), cluster.lease).await {
            Ok(held) => {
                renewed = asked;
                let held: HashSet<(String, u64)> = held.into_iter().collect();
                stop_missing(&registry, &held, asked);
            }
            Err(e) => {
                warn!(error = %e, "cannot renew the rooms' leases");
                if asked.duration_since(renewed) > cluster.lease {
                    let leases = registry.leases();
                    if !leases.is_empty() {
                        error!(rooms = leases.len(), "no lease renewed for longer than a lease: every room stops here");
                    }
                    for (_, lease) in leases {
                        lease.lose();
                    }
                }
            }
        }
    }
}

/// Stops every room in memory whose lease, claimed before the renewal was `asked` for, is not
/// among those `held`.
fn stop_missing(registry: &Arc<dyn NodeRooms>, held: &HashSet<(String, u64)>, asked: Instant) {
    for (code, lease) in registry.leases() {
        if lease.claimed_at < asked && !held.contains(&(code.to_string(), lease.fence.epoch)) {
            warn!(room = %code, epoch = lease.fence.epoch, "the room's lease was not renewed: it is lost");
            lease.lose();
        }
    }
}
