//! What each address may do: rooms to create, and the pace of the bots it watches alone.

use std::net::IpAddr;
use std::time::Instant;

use super::Registry;
use crate::quota::Bucket;
use crate::quota::QUOTA_ENTRIES;

impl Registry {
    /// Whether `addr` may create another room now: each address has a bucket of
    /// `--rooms-per-address` rooms that refills by one every [`ROOM_REFILL`](crate::quota::ROOM_REFILL).
    pub fn may_create_room(&self, addr: IpAddr) -> bool {
        if self.rooms_per_address == 0 {
            return true;
        }
        let burst = f64::from(self.rooms_per_address);
        let now = Instant::now();
        if self.room_quota.len() > QUOTA_ENTRIES {
            // Full buckets say nothing: forget them, so the map stays small.
            self.room_quota.retain(|_, bucket| !bucket.is_full(now));
        }
        // One IPv6 /64 is one address, as for the sockets per address.
        let mut bucket =
            self.room_quota.entry(crate::quota::address_key(addr)).or_insert_with(|| Bucket::with_burst(burst, now));
        bucket.take(now)
    }

    /// When a bot move in a room of bots only that `addr` watches, due at `due`, may be made:
    /// the bots of all such rooms watched from one address make one move in each step of their
    /// pace (`--watched-bots-rate`) between them, and each room one at most. The time is taken
    /// for that move.
    pub fn unattended_bot_move(&self, addr: IpAddr, due: Instant) -> Instant {
        self.bot_pace.move_at(addr, due)
    }
}
