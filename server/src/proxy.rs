//! Reverse proxies the operator trusts (`--trusted-proxy`): a request that comes from one of
//! them is counted, limited and logged under the client address its `X-Forwarded-For` header
//! names; from anyone else the header is ignored, so a client cannot pick an address of his own.

use std::fmt;
use std::net::IpAddr;
use std::str::FromStr;

use axum::http::HeaderMap;

/// The header a proxy adds the address of the client it talks to (nginx's
/// `$proxy_add_x_forwarded_for`, Caddy's `reverse_proxy`, HAProxy's `option forwardfor`).
pub const FORWARDED_FOR: &str = "x-forwarded-for";

/// An address (`10.0.0.5`, `::1`) or a network in CIDR notation (`10.0.0.0/8`, `fd00::/8`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Network {
    base: IpAddr,
    prefix: u8,
}

impl Network {
    /// Whether `address` lies in this network (an IPv4-mapped IPv6 address counts as its IPv4
    /// address).
    pub fn contains(&self, address: IpAddr) -> bool {
        let address = address.to_canonical();
        address.is_ipv4() == self.base.is_ipv4() && masked(address, self.prefix) == self.base
    }
}

/// `address` with every bit after the first `prefix` cleared.
fn masked(address: IpAddr, prefix: u8) -> IpAddr {
    match address {
        IpAddr::V4(v4) => {
            let mask = u32::MAX.checked_shl(32 - u32::from(prefix)).unwrap_or(0);
            IpAddr::V4((v4.to_bits() & mask).into())
        }
        IpAddr::V6(v6) => {
            let mask = u128::MAX.checked_shl(128 - u32::from(prefix)).unwrap_or(0);
            IpAddr::V6((v6.to_bits() & mask).into())
        }
    }
}

impl FromStr for Network {
    type Err = String;

    fn from_str(text: &str) -> Result<Network, String> {
        let text = text.trim();
        let (address, prefix) = match text.split_once('/') {
            Some((address, prefix)) => (address, Some(prefix)),
            None => (text, None),
        };
        let address = address
            .parse::<IpAddr>()
            .map_err(|_| format!("{text:?} is not an IP address or a network (e.g. 10.0.0.5, 10.0.0.0/8, fd00::/8)"))?
            .to_canonical();
        let longest = if address.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            None => longest,
            Some(prefix) => prefix
                .parse::<u8>()
                .ok()
                .filter(|prefix| *prefix <= longest)
                .ok_or_else(|| format!("{text:?}: a network's prefix length is 0 to {longest}"))?,
        };
        Ok(Network { base: masked(address, prefix), prefix })
    }
}

impl fmt::Display for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.base, self.prefix)
    }
}

/// Whether `peer` is one of the trusted proxies.
pub fn trusts(trusted: &[Network], peer: IpAddr) -> bool {
    trusted.iter().any(|network| network.contains(peer))
}

/// The address of the client behind a request that came from `peer`.
///
/// From anyone but a trusted proxy it is `peer` itself. From a trusted proxy it is read from
/// `X-Forwarded-For` from the right: each proxy appends the address it was connected from, so
/// the rightmost entry that is not itself a trusted proxy is the first address no trusted proxy
/// vouches for — what a client wrote into the header himself lies further left and is never
/// read. Without the header, or where an entry is not an address, the last address vouched for
/// is used (at worst the proxy's own: its clients then share one allowance, as without this).
pub fn client_address(trusted: &[Network], peer: IpAddr, headers: &HeaderMap) -> IpAddr {
    let peer = peer.to_canonical();
    if !trusts(trusted, peer) {
        return peer;
    }
    let lines: Vec<&str> = headers.get_all(FORWARDED_FOR).iter().filter_map(|value| value.to_str().ok()).collect();
    let mut client = peer;
    for entry in lines.iter().rev().flat_map(|line| line.rsplit(',')) {
        let Some(address) = parse_entry(entry) else { break };
        client = address;
        if !trusts(trusted, address) {
            break;
        }
    }
    client
}

/// One entry of `X-Forwarded-For`: an address, perhaps with a port (`192.0.2.7:4711`,
/// `[2001:db8::7]:4711`) as some proxies write it.
fn parse_entry(entry: &str) -> Option<IpAddr> {
    let entry = entry.trim();
    if let Ok(address) = entry.parse::<IpAddr>() {
        return Some(address.to_canonical());
    }
    if let Ok(socket) = entry.parse::<std::net::SocketAddr>() {
        return Some(socket.ip().to_canonical());
    }
    entry.strip_prefix('[').and_then(|rest| rest.strip_suffix(']')).and_then(|v6| v6.parse::<IpAddr>().ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn networks(list: &[&str]) -> Vec<Network> {
        list.iter().map(|text| text.parse().expect("a network")).collect()
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("an address")
    }

    fn forwarded(lines: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for line in lines {
            headers.append(FORWARDED_FOR, HeaderValue::from_str(line).expect("a header value"));
        }
        headers
    }

    #[test]
    fn networks_are_addresses_or_cidr_blocks() {
        let trusted = networks(&["10.0.0.0/8", "192.0.2.7", "fd00::/8", "::1"]);
        assert!(trusts(&trusted, ip("10.200.3.4")));
        assert!(trusts(&trusted, ip("::ffff:10.1.1.1")), "an IPv4-mapped address is its IPv4 address");
        assert!(trusts(&trusted, ip("192.0.2.7")));
        assert!(!trusts(&trusted, ip("192.0.2.8")), "a single address is a /32");
        assert!(trusts(&trusted, ip("fd12::1")));
        assert!(trusts(&trusted, ip("::1")));
        assert!(!trusts(&trusted, ip("11.0.0.1")));
        assert!(!trusts(&trusted, ip("::2")));
        assert!(trusts(&networks(&["0.0.0.0/0"]), ip("203.0.113.9")));
        assert_eq!("10.1.2.3/8".parse::<Network>().expect("a network").to_string(), "10.0.0.0/8");
        for bad in ["", "proxy.example", "10.0.0.0/33", "::/129", "10.0.0.0/x"] {
            assert!(bad.parse::<Network>().is_err(), "{bad:?} is refused");
        }
    }

    #[test]
    fn a_trusted_proxy_names_the_client() {
        let trusted = networks(&["127.0.0.1", "10.0.0.0/8"]);
        let proxy = ip("127.0.0.1");
        assert_eq!(client_address(&trusted, proxy, &forwarded(&["198.51.100.4"])), ip("198.51.100.4"));
        assert_eq!(client_address(&trusted, proxy, &HeaderMap::new()), proxy, "no header: the proxy itself");
        assert_eq!(
            client_address(&trusted, proxy, &forwarded(&["203.0.113.1, 198.51.100.4"])),
            ip("198.51.100.4"),
            "what the client wrote himself (left) is not read"
        );
        assert_eq!(
            client_address(&trusted, proxy, &forwarded(&["203.0.113.1, 198.51.100.4, 10.1.1.1"])),
            ip("198.51.100.4"),
            "a chain of trusted proxies is walked to the first address none of them is"
        );
        assert_eq!(
            client_address(&trusted, proxy, &forwarded(&["203.0.113.1", "198.51.100.4"])),
            ip("198.51.100.4"),
            "several header lines are one list"
        );
        assert_eq!(
            client_address(&trusted, proxy, &forwarded(&["nonsense, 198.51.100.4:4711"])),
            ip("198.51.100.4"),
            "a port is dropped; the entries before are not read"
        );
        assert_eq!(client_address(&trusted, proxy, &forwarded(&["[2001:db8::7]:4711"])), ip("2001:db8::7"));
        assert_eq!(
            client_address(&trusted, proxy, &forwarded(&["198.51.100.4, nonsense"])),
            proxy,
            "an entry that is not an address stops the walk at the last address vouched for"
        );
    }

    #[test]
    fn anyone_else_is_his_own_address() {
        let trusted = networks(&["10.0.0.1"]);
        let peer = ip("203.0.113.50");
        assert_eq!(client_address(&trusted, peer, &forwarded(&["198.51.100.4"])), peer);
        assert_eq!(client_address(&[], peer, &forwarded(&["198.51.100.4"])), peer, "no proxy trusted");
        assert_eq!(client_address(&[], ip("::ffff:203.0.113.50"), &HeaderMap::new()), peer);
    }
}
