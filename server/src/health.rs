//! `/healthz`: the server answers, and its storage can write; and `fipsen-server health`, which
//! asks a running server.

use std::io::{Read as _, Write as _};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use tokio::sync::Mutex;
use tracing::warn;

use crate::storage::Storage;

/// A probe's answer is reused for this long.
const FRESH: Duration = Duration::from_secs(1);

/// A probe that takes longer counts as failed: a disk that hangs is as bad as one that refuses.
const PROBE_TIMEOUT: Duration = Duration::from_secs(3);

/// The latest storage probe.
#[derive(Debug, Default)]
pub struct Health {
    last: Mutex<Option<(Instant, Result<(), String>)>>,
}

impl Health {
    /// Whether storage can write: a tiny write committed through the writer thread like any
    /// action (at most one a second, however often this is asked).
    ///
    /// # Errors
    /// Why storage cannot write, in a sentence.
    pub async fn check(&self, storage: &Storage) -> Result<(), String> {
        // Held across the probe on purpose: checks that come meanwhile wait for its answer
        // instead of each making a write of their own.
        let mut last = self.last.lock().await;
        if let Some((at, result)) = last.as_ref()
            && at.elapsed() < FRESH
        {
            return result.clone();
        }
        let result = match tokio::time::timeout(PROBE_TIMEOUT, storage.probe()).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(format!("storage cannot write: {e}")),
            Err(_) => Err(format!("storage did not complete a write within {} s", PROBE_TIMEOUT.as_secs())),
        };
        if let Err(reason) = &result {
            warn!(%reason, "unhealthy");
        }
        *last = Some((Instant::now(), result.clone()));
        result
    }
}

/// The most of an answer to `/healthz` that is read.
const MOST_ANSWER_BYTES: u64 = 16 * 1024;

/// Asks the server listening on `addr` for `/healthz` (over loopback when `addr` is every
/// interface), waiting at most `timeout` for each step.
///
/// # Errors
/// Why the server is not healthy: it cannot be reached, or it answered something other than 200
/// (with its answer).
pub fn probe(addr: SocketAddr, timeout: Duration) -> Result<String, String> {
    let target = match addr.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => SocketAddr::new(Ipv4Addr::LOCALHOST.into(), addr.port()),
        IpAddr::V6(ip) if ip.is_unspecified() => SocketAddr::new(Ipv6Addr::LOCALHOST.into(), addr.port()),
        _ => addr,
    };
    let failed = |e: std::io::Error| format!("no answer from {target}: {e}");
    let mut stream = TcpStream::connect_timeout(&target, timeout).map_err(failed)?;
    stream.set_read_timeout(Some(timeout)).map_err(failed)?;
    stream.set_write_timeout(Some(timeout)).map_err(failed)?;
    // One write: a server may answer (and close) as soon as it has the head.
    let request = format!("GET /healthz HTTP/1.1\r\nHost: {target}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).map_err(failed)?;
    let mut answer = Vec::new();
    stream.take(MOST_ANSWER_BYTES).read_to_end(&mut answer).map_err(failed)?;
    let answer = String::from_utf8_lossy(&answer);
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let status = head.lines().next().unwrap_or_default();
    let body = body.trim();
    if status.split(' ').nth(1) == Some("200") {
        Ok(format!("{target}: {body}"))
    } else if status.is_empty() {
        Err(format!("{target} closed the connection without an answer"))
    } else {
        Err(format!("{target} answered {status}: {body}"))
    }
}
