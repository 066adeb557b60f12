//! Rebalancing: the rooms a server holds stay with it until they close, so after a rolling
//! restart (each server in turn handing its rooms to the others) or a server added, one server
//! may hold most rooms and another none. Every [`Cluster::rebalance_every`], a server that
//! holds clearly more rooms than the least loaded live server (as its heartbeats say) hands it
//! a few of its rooms at rest: rooms nobody is connected to, or whose deal is over — never a
//! deal being played. A room handed over closes its connections here with 1012; its players
//! resume at once, through any server, relayed to the room's new one.
//!
//! Gentle by design: at most [`PER_PASS`] rooms a pass, only while the difference is more than
//! [`margin`], so that rooms do not swing back and forth between servers of about equal load.

use std::sync::Arc;

use tracing::info;

use super::relay::Relay;
use super::rooms::NodeRooms;
use crate::lease::Cluster;
use crate::metrics::inc;

/// Rooms handed over in one pass at most.
pub const PER_PASS: usize = 2;

/// How many more rooms than the least loaded server this one may hold and keep them all: two,
/// or a fifth of its rooms, whichever is more.
pub fn margin(held: u64) -> u64 {
    (held / 5).max(2)
}

impl Cluster {
    /// How often a server looks whether it holds too many rooms: every three leases (30 s by
    /// default), slower than the heartbeats that tell the others' loads.
    pub fn rebalance_every(&self) -> std::time::Duration {
        self.lease * 3
    }
}

/// Evens out the rooms with the other servers, every [`Cluster::rebalance_every`], until the
/// registry is dropped (cluster mode with the relay only).
pub async fn run(registry: Arc<dyn NodeRooms>, relay: Arc<Relay>) {
    let Some(cluster) = registry.cluster().cloned() else { return };
    let mut ticks = tokio::time::interval(cluster.rebalance_every());
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // Not at start: the other servers' heartbeats are not heard yet.
    ticks.tick().await;
    loop {
        ticks.tick().await;
        pass(&registry, &relay).await;
    }
}

/// One look: while this server holds more than [`margin`] rooms more than the least loaded
/// other server, hands that one rooms at rest, up to [`PER_PASS`]; returns how many it took.
pub async fn pass(registry: &Arc<dyn NodeRooms>, relay: &Relay) -> usize {
    if registry.is_stopping() {
        return 0;
    }
    let mut moved = 0;
    let mut rooms = registry.room_leases();
    // The same rooms first each pass, whatever the map's order.
    rooms.sort_by(|(a, _), (b, _)| a.cmp(b));
    let mut rooms = rooms.into_iter().filter(|(_, lease)| lease.is_at_rest() && !lease.is_lost());
    while moved < PER_PASS {
        let held = registry.metrics().rooms_owned.load(std::sync::atomic::Ordering::Relaxed);
        let Some((node, least)) = relay.lightest_peer() else { break };
        if held <= least.saturating_add(margin(held)) {
            break;
        }
        let Some((code, lease)) = rooms.next() else { break };
        relay.note_placed(&node);
        if registry.move_room(&code, &lease, &node).await {
            moved += 1;
            inc(&registry.metrics().rooms_rebalanced);
            info!(room = %code, to = %node, held, least, "room handed to a less loaded server");
        }
    }
    moved
}

#[cfg(test)]
mod tests {
    use super::margin;

    /// A few rooms more are never worth a move; a fifth more is, once a server holds many.
    #[test]
    fn the_margin_is_two_rooms_or_a_fifth() {
        assert_eq!(margin(0), 2);
        assert_eq!(margin(9), 2);
        assert_eq!(margin(25), 5);
        assert_eq!(margin(100), 20);
    }
}
