//! The keys leases are held under: a room's is its invite code, a tournament's its id behind
//! [`TOURNAMENT_KEY_PREFIX`].

use std::sync::Arc;

/// What a tournament's lease key starts with (rooms' leases are keyed by their invite codes).
pub const TOURNAMENT_KEY_PREFIX: &str = "tournament:";

/// The key of a tournament's lease.
pub fn tournament_key(id: &str) -> Arc<str> {
    Arc::from(format!("{TOURNAMENT_KEY_PREFIX}{id}"))
}
