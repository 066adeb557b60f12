//! Takeover: every half lease, the rooms marked open that no server holds a live lease on (their
//! server died, paused or stopped) are claimed and restored here. At start this restores the
//! rooms in cluster mode, instead of every room marked open: the others' stay theirs.

use std::sync::Arc;

use tracing::{info, warn};

use crate::metrics::inc;
use crate::registry::Registry;

/// Rooms looked for in one pass.
const PER_PASS: u32 = 100;

/// Takes over the rooms nobody holds, every half lease, until the registry is dropped (in
/// cluster mode only).
pub async fn run(registry: Arc<Registry>) {
    let Some(cluster) = registry.cluster().cloned() else { return };
    let mut ticks = tokio::time::interval(cluster.takeover_every());
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // The first tick is at once: `pass` ran at start.
    ticks.tick().await;
    loop {
        ticks.tick().await;
        pass(&registry).await;
    }
}

/// At start: claims again and restores the rooms whose lease still names this server (it was
/// killed and restarted before they ran out), instead of leaving them until they do. Returns
/// how many.
pub async fn adopt_own(registry: &Arc<Registry>) -> usize {
    let Some(cluster) = registry.cluster().cloned() else { return 0 };
    let own = match registry.storage().renew(cluster.node.clone(), cluster.lease).await {
        Ok(own) => own,
        Err(e) => {
            warn!(error = %e, "cannot list the leases this server held before it started");
            return 0;
        }
    };
    let mut adopted = 0;
    for (key, _) in own {
        if key.starts_with(crate::cluster::TOURNAMENT_KEY_PREFIX) || registry.holds(&key) {
            continue;
        }
        registry.adopt(&key).await;
        if registry.holds(&key) {
            info!(room = %key, "room held before the restart opened again");
            adopted += 1;
        }
    }
    adopted
}

/// Claims and restores here the rooms marked open that nobody holds; returns how many were
/// taken over. A room another server claims first stays that server's.
pub async fn pass(registry: &Arc<Registry>) -> usize {
    let codes = match registry.storage().unowned(PER_PASS).await {
        Ok(codes) => codes,
        Err(e) => {
            warn!(error = %e, "cannot list the rooms nobody holds");
            return 0;
        }
    };
    let mut taken = 0;
    for code in codes {
        if registry.holds(&code) {
            continue;
        }
        if registry.open(&code).await.is_ok() {
            inc(&registry.metrics().lease_takeovers);
            info!(room = %code, "room taken over");
            taken += 1;
        }
    }
    taken
}
