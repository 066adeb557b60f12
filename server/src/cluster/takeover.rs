//! Takeover: every half lease, the rooms marked open that no server holds a live lease on (their
//! server died, paused or stopped) are claimed and restored here. At start this restores the
//! rooms in cluster mode, instead of every room marked open: the others' stay theirs.
//!
//! The rooms of a dead server are spread over the servers left: with the relay, each server
//! knows the others alive, and a room nobody holds goes first to the one its code hashes to
//! ([`preferred`], rendezvous hashing); the others take it at their next pass if that one did
//! not. Several rooms are restored at once.

use std::collections::HashSet;
use std::sync::Arc;

use futures_util::StreamExt as _;
use tracing::{info, warn};

use super::relay::Relay;
use super::rooms::NodeRooms;
use crate::metrics::inc;

/// Rooms looked for in one pass.
const PER_PASS: u32 = 1000;
/// Rooms restored at once (each a claim, a read and a rebuild).
const AT_ONCE: usize = 4;

/// Takes over the rooms nobody holds, every half lease, until the registry is dropped (in
/// cluster mode only). `passed_over`: what the pass at start left to other servers.
pub async fn run(registry: Arc<dyn NodeRooms>, relay: Option<Arc<Relay>>, mut passed_over: HashSet<String>) {
    let Some(cluster) = registry.cluster().cloned() else { return };
    let mut ticks = tokio::time::interval(cluster.takeover_every());
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // The first tick is at once: `pass` ran at start.
    ticks.tick().await;
    loop {
        ticks.tick().await;
        pass(&registry, relay.as_deref(), &mut passed_over).await;
    }
}

/// At start: claims again and restores the rooms whose lease still names this server (it was
/// killed and restarted before they ran out), instead of leaving them until they do. Returns
/// how many.
pub async fn adopt_own(registry: &Arc<dyn NodeRooms>) -> usize {
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
        if key.starts_with(crate::keys::TOURNAMENT_KEY_PREFIX) || registry.holds(&key) {
            continue;
        }
        if registry.clone().adopt(key.clone()).await {
            info!(room = %key, "room held before the restart opened again");
            adopted += 1;
        }
    }
    adopted
}

/// Claims and restores here the rooms marked open that nobody holds, those this server is
/// preferred for ([`preferred`]) and those it passed over last time (`passed_over`, replaced by
/// what it passes over now); returns how many were taken over. A room another server claims
/// first stays that server's.
pub async fn pass(registry: &Arc<dyn NodeRooms>, relay: Option<&Relay>, passed_over: &mut HashSet<String>) -> usize {
    let codes = match registry.storage().unowned(PER_PASS).await {
        Ok(codes) => codes,
        Err(e) => {
            warn!(error = %e, "cannot list the rooms nobody holds");
            return 0;
        }
    };
    let nodes = relay.map(Relay::live_nodes);
    let me = registry.cluster().map(|cluster| cluster.node.to_string());
    let mut mine = Vec::new();
    let mut left = HashSet::new();
    for code in codes {
        if registry.holds(&code) {
            continue;
        }
        let first = nodes.as_deref().and_then(|nodes| preferred(&code, nodes));
        if first.is_none() || first == me.as_deref() || passed_over.contains(&code) {
            mine.push(code);
        } else {
            left.insert(code);
        }
    }
    *passed_over = left;
    futures_util::stream::iter(mine)
        .map(|code| async move {
            let taken = registry.clone().adopt(code.clone()).await;
            if taken {
                inc(&registry.metrics().lease_takeovers);
                info!(room = %code, "room taken over");
            }
            taken
        })
        .buffer_unordered(AT_ONCE)
        .filter(|taken| std::future::ready(*taken))
        .count()
        .await
}

/// The server a room nobody holds goes to first: of `nodes`, the one whose name hashed with the
/// room's code is the highest (rendezvous hashing: when a server dies, its rooms spread evenly
/// over the others, and no other room moves).
pub fn preferred<'a>(code: &str, nodes: &'a [String]) -> Option<&'a str> {
    nodes.iter().max_by_key(|node| (score(code, node), node.as_str())).map(String::as_str)
}

/// A well-mixed hash of a room's code and a server's name (FNV-1a, then a 64-bit finaliser),
/// the same on every server and build.
fn score(code: &str, node: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in code.bytes().chain([0xff]).chain(node.bytes()) {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash ^= hash >> 33;
    hash = hash.wrapping_mul(0xff51_afd7_ed55_8ccd);
    hash ^= hash >> 33;
    hash = hash.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    hash ^ (hash >> 33)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nodes(names: &[&str]) -> Vec<String> {
        names.iter().map(|n| (*n).to_string()).collect()
    }

    /// The rooms of three servers spread about evenly, and when one goes, only its rooms move,
    /// about half to each of the two left.
    #[test]
    fn rooms_spread_evenly_and_only_a_gone_servers_move() {
        let three = nodes(&["a", "b", "c"]);
        let two = nodes(&["a", "c"]);
        let codes: Vec<String> = (0..3000).map(|i| format!("R{i:05}")).collect();
        let mut count = std::collections::HashMap::new();
        let mut moved = std::collections::HashMap::new();
        for code in &codes {
            let before = preferred(code, &three).unwrap();
            *count.entry(before).or_insert(0) += 1;
            let after = preferred(code, &two).unwrap();
            if before == "b" {
                *moved.entry(after).or_insert(0) += 1;
            } else {
                assert_eq!(after, before, "{code} moved though its server stayed");
            }
        }
        for node in ["a", "b", "c"] {
            let share = count[node];
            assert!((850..=1150).contains(&share), "{node} gets {share} of 3000: {count:?}");
        }
        let (to_a, to_c): (u32, u32) = (moved["a"], moved["c"]);
        assert!(to_a.abs_diff(to_c) < count["b"] / 4, "b's rooms go {to_a} to a, {to_c} to c");
        assert_eq!(preferred("R1", &[]), None);
        assert_eq!(preferred("R1", &nodes(&["x"])), Some("x"));
    }
}
