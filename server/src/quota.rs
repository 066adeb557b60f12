//! What each address may do, and how fast: a bucket of things to create that refills, and the
//! key an address is counted under.

use std::net::{IpAddr, Ipv6Addr};
use std::time::{Duration, Instant};

use dashmap::DashMap;

/// Rooms one connection may create at once; then one more every [`ROOM_REFILL`].
pub const ROOMS_PER_CONNECTION_BURST: f64 = 5.0;
/// How long it takes to earn one more room.
pub const ROOM_REFILL: Duration = Duration::from_secs(60);
/// Addresses remembered (for a quota, or a pace) before the ones that say nothing are forgotten.
pub const QUOTA_ENTRIES: usize = 10_000;

/// What counts as one address: an IPv4 address, or an IPv6 /64 network (one household or
/// host usually has a whole /64 to pick addresses from).
pub fn address_key(peer: IpAddr) -> IpAddr {
    match peer {
        IpAddr::V4(_) => peer,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(Ipv6Addr::from_bits(v6.to_bits() & !u128::from(u64::MAX))),
        },
    }
}

/// A bucket of things to create (rooms, registrations): full at the burst, refilled by one every
/// `refill` ([`ROOM_REFILL`] for rooms).
#[derive(Debug, Clone, Copy)]
pub struct Bucket {
    level: f64,
    at: Instant,
    burst: f64,
    refill: Duration,
}

impl Bucket {
    /// A full bucket of `burst` rooms.
    pub fn with_burst(burst: f64, now: Instant) -> Bucket {
        Bucket::refilled_every(ROOM_REFILL, burst, now)
    }

    /// A full bucket of `burst`, earning one more every `refill`.
    pub fn refilled_every(refill: Duration, burst: f64, now: Instant) -> Bucket {
        Bucket { level: burst, at: now, burst, refill }
    }

    /// The level now.
    pub fn level(&self, now: Instant) -> f64 {
        let earned = now.saturating_duration_since(self.at).as_secs_f64() / self.refill.as_secs_f64();
        (self.level + earned).min(self.burst)
    }

    /// Whether the bucket is full again at `now` (it says nothing then and can be forgotten).
    pub fn is_full(&self, now: Instant) -> bool {
        self.level(now) >= self.burst
    }

    /// Takes one from the bucket, if there is one.
    pub fn take(&mut self, now: Instant) -> bool {
        self.level = self.level(now);
        self.at = now;
        if self.level >= 1.0 {
            self.level -= 1.0;
            true
        } else {
            false
        }
    }
}

/// The pace of the bots in the rooms of bots only watched from one address: the bots of all
/// such rooms make one move in each step of the pace (`--watched-bots-rate`) between them.
#[derive(Debug, Default)]
pub struct BotPace {
    /// The time between two moves (`None`: no pace).
    every: Option<Duration>,
    /// For each address: when its next bot move may be made.
    next: DashMap<IpAddr, Instant>,
}

impl BotPace {
    /// `rate` bot moves a second between the rooms watched from one address (0: no pace).
    pub fn new(rate: u32) -> BotPace {
        BotPace { every: (rate > 0).then(|| Duration::from_secs(1) / rate), next: DashMap::new() }
    }

    /// When a bot move in a room of bots only that `addr` watches, due at `due`, may be made
    /// (each room one at most in a step); the time is taken for that move.
    pub fn move_at(&self, addr: IpAddr, due: Instant) -> Instant {
        let Some(every) = self.every else { return due };
        if self.next.len() > QUOTA_ENTRIES {
            // A pace that has passed says nothing: forget it, so the map stays small.
            let now = Instant::now();
            self.next.retain(|_, next| *next > now);
        }
        let mut next = self.next.entry(address_key(addr)).or_insert(due);
        let at = (*next).max(due);
        *next = at + every;
        at
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("an address")
    }

    #[test]
    fn an_address_is_an_ipv4_address_or_an_ipv6_network() {
        let v4 = ip("203.0.113.7");
        assert_eq!(address_key(v4), v4);
        let mapped = ip("::ffff:203.0.113.7");
        assert_eq!(address_key(mapped), v4, "an IPv4 client on an IPv6 socket is its IPv4 address");
        let one = ip("2001:db8:1:2:aaaa:bbbb:cccc:dddd");
        let other = ip("2001:db8:1:2::1");
        let elsewhere = ip("2001:db8:1:3::1");
        assert_eq!(address_key(one), address_key(other), "one /64 is one address");
        assert_ne!(address_key(one), address_key(elsewhere));
    }
}
