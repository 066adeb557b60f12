//! The accept loop: every TCP socket takes a place under the socket cap and its address's share
//! before a byte of it is read, and keeps that place until it closes — as an HTTP connection or,
//! once upgraded, as a WebSocket. A socket beyond either cap is closed at once. The others are
//! served by hyper's HTTP/1 with a deadline for each request head and a cap on its size, so a
//! socket that sends half a request and stops costs a few KiB for a few seconds.
//!
//! The shape is mini-redis's `Listener`: accept, take a permit, spawn the socket's task.
//!
//! Behind a reverse proxy every socket comes from the proxy, and which client it serves is known
//! only from the request head. So a socket from a trusted proxy (`--trusted-proxy`) is counted
//! under the socket cap only, not under the proxy's address, and each of its requests takes a
//! place under its client's address (named by `X-Forwarded-For`, see [`crate::proxy`]) for as
//! long as it is served — a WebSocket for its whole life —, or gets 503 when the client has
//! them all. What a proxy never passes on (a request head sent slowly or not at all) the proxy
//! itself has to bound.

use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::ConnectInfo;
use axum::extract::Request;
use dashmap::DashMap;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tower_service::Service as _;
use tracing::{debug, warn};

use crate::metrics::{Metrics, dec, inc};
use crate::proxy;
pub use crate::quota::address_key;
use crate::state::AppState;

/// The largest HTTP request head (request line and headers); a larger one gets 431.
pub const MAX_HEADER_BYTES: usize = 16 * 1024;

/// How long a plain HTTP connection may last: then it is closed once its response is out.
/// Browsers open a new one when they need it; it stops a client that never reads its response
/// from holding a socket for good.
const HTTP_LIFETIME: Duration = Duration::from_secs(60);

/// How long an HTTP connection may take to finish once asked to close.
const CLOSE_GRACE: Duration = Duration::from_secs(5);

/// At most one log line per this long for each kind of refusal.
const LOG_EVERY: Duration = Duration::from_secs(10);

/// Sent (if the socket takes it at once) to a socket closed at a cap.
const BUSY_RESPONSE: &[u8] =
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\nconnection: close\r\nretry-after: 10\r\n\r\n";

/// Answer to a request through a trusted proxy whose client has all its places.
const CLIENT_BUSY_BODY: &str = "too many connections from this address\n";

/// The sockets open from each address.
#[derive(Debug)]
pub struct Addresses {
    counts: DashMap<IpAddr, usize>,
    max: usize,
    /// Log lines about refusals.
    refusals: std::sync::Mutex<Throttle>,
}

impl Addresses {
    /// At most `max` sockets per address; 0: no limit.
    pub fn new(max: usize) -> Arc<Addresses> {
        Arc::new(Addresses { counts: DashMap::default(), max, refusals: std::sync::Mutex::default() })
    }

    /// Counts a socket or request refused because `address` has its share, with a log line
    /// now and then.
    fn refused(&self, address: IpAddr, metrics: &Metrics, proxied: bool) {
        inc(&metrics.sockets_refused_address);
        let due = self.refusals.lock().map(|mut throttle| throttle.event()).unwrap_or(None);
        if let Some(refused) = due {
            warn!(
                address = %address_key(address),
                proxied,
                refused,
                max_per_address = self.max,
                "an address has its share of sockets: refusing its new ones at once"
            );
        }
    }

    /// Takes one of `peer`'s places, or `None` when its address has them all.
    fn claim(self: &Arc<Addresses>, peer: IpAddr) -> Option<AddressPlace> {
        if self.max == 0 {
            return Some(AddressPlace { addresses: None, key: peer });
        }
        let key = address_key(peer);
        let mut count = self.counts.entry(key).or_insert(0);
        if *count >= self.max {
            return None;
        }
        *count += 1;
        Some(AddressPlace { addresses: Some(self.clone()), key })
    }
}

/// One socket's (or, through a trusted proxy, one request's) share of its address; given back
/// when dropped.
#[derive(Debug)]
pub struct AddressPlace {
    addresses: Option<Arc<Addresses>>,
    key: IpAddr,
}

impl Drop for AddressPlace {
    fn drop(&mut self) {
        if let Some(addresses) = &self.addresses {
            addresses.counts.remove_if_mut(&self.key, |_, count| {
                *count -= 1;
                *count == 0
            });
        }
    }
}

/// The client a request comes from, in the request's extensions: its address (behind a trusted
/// proxy, the one the proxy names) and, behind a trusted proxy, the place the request holds under
/// that address. A handler that keeps a clone (the WebSocket's task) keeps the place.
#[derive(Debug, Clone)]
pub struct Client {
    /// The client's address: every per-address limit and log line uses it.
    pub address: IpAddr,
    /// The request's place under its client's address (only through a trusted proxy: any other
    /// socket holds its place itself).
    _place: Option<Arc<AddressPlace>>,
}

/// A socket's place under both caps; given back when the socket closes.
#[derive(Debug)]
struct Place {
    _permit: OwnedSemaphorePermit,
    _address: AddressPlace,
    metrics: Arc<Metrics>,
}

impl Drop for Place {
    fn drop(&mut self) {
        dec(&self.metrics.sockets);
    }
}

/// A TCP stream that holds its place under the caps for as long as it lives, through hyper's
/// upgrade into the WebSocket.
#[derive(Debug)]
pub struct CountedStream {
    stream: TcpStream,
    _place: Place,
}

impl AsyncRead for CountedStream {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for CountedStream {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}

/// Log lines about one kind of event, at most one per [`LOG_EVERY`], each saying how many
/// events it stands for.
#[derive(Debug, Default)]
struct Throttle {
    last: Option<Instant>,
    unlogged: u64,
}

impl Throttle {
    /// Counts an event; `Some(events since the last line)` when a line is due.
    fn event(&mut self) -> Option<u64> {
        self.unlogged += 1;
        let now = Instant::now();
        if self.last.is_some_and(|last| now.duration_since(last) < LOG_EVERY) {
            return None;
        }
        self.last = Some(now);
        Some(std::mem::take(&mut self.unlogged))
    }
}

/// The accept loop and what it needs.
#[derive(Debug)]
pub struct Acceptor {
    listener: TcpListener,
    router: Router,
    state: Arc<AppState>,
    /// One permit per open socket.
    sockets: Arc<Semaphore>,
    max_sockets: usize,
    addresses: Arc<Addresses>,
    http: hyper::server::conn::http1::Builder,
    at_cap: Throttle,
    failing: Throttle,
}

impl Acceptor {
    /// Serves `router` on `listener`, at most `sockets`' permits at a time.
    pub fn new(listener: TcpListener, router: Router, state: Arc<AppState>, sockets: Arc<Semaphore>) -> Acceptor {
        let mut http = hyper::server::conn::http1::Builder::new();
        http.timer(TokioTimer::new())
            .header_read_timeout(state.config.header_timeout())
            .max_header_size(MAX_HEADER_BYTES)
            .max_buf_size(MAX_HEADER_BYTES);
        let max_sockets = sockets.available_permits();
        let addresses = Addresses::new(state.config.max_per_address);
        Acceptor {
            listener,
            router,
            state,
            sockets,
            max_sockets,
            addresses,
            http,
            at_cap: Throttle::default(),
            failing: Throttle::default(),
        }
    }

    /// Accepts sockets until the server shuts down.
    pub async fn run(mut self) {
        let mut shutdown = self.state.shutdown.clone();
        loop {
            let accepted = tokio::select! {
                biased;
                () = shutting_down(&mut shutdown) => break,
                accepted = self.listener.accept() => accepted,
            };
            match accepted {
                Ok((stream, peer)) => self.admit(stream, peer),
                Err(error) => self.accept_failed(error).await,
            }
        }
        debug!("no longer accepting");
    }

    fn admit(&mut self, stream: TcpStream, peer: SocketAddr) {
        let metrics = &self.state.metrics;
        let Ok(permit) = self.sockets.clone().try_acquire_owned() else {
            inc(&metrics.sockets_refused_cap);
            if let Some(refused) = self.at_cap.event() {
                warn!(refused, max_sockets = self.max_sockets, "at the socket cap: closing new sockets at once");
            }
            return refuse(stream);
        };
        // A trusted proxy's sockets count under the addresses of the clients its requests name.
        let proxied = proxy::trusts(&self.state.config.trusted_proxies, peer.ip());
        let address = if proxied {
            AddressPlace { addresses: None, key: peer.ip() }
        } else {
            let Some(address) = self.addresses.claim(peer.ip()) else {
                self.addresses.refused(peer.ip(), metrics, false);
                return refuse(stream);
            };
            address
        };
        if let Err(e) = stream.set_nodelay(true) {
            debug!(error = %e, "cannot set TCP_NODELAY");
        }
        inc(&metrics.sockets);
        inc(&metrics.sockets_total);
        let place = Place { _permit: permit, _address: address, metrics: metrics.clone() };
        let stream = CountedStream { stream, _place: place };
        let addresses = proxied.then(|| self.addresses.clone());
        let socket = Socket { peer, addresses, router: self.router.clone(), state: self.state.clone() };
        tokio::spawn(serve(stream, socket, self.http.clone()));
    }

    /// A failed accept: a socket that went away before it was accepted is nothing; otherwise
    /// (out of file descriptors, memory) waits a little, so that sockets can close meanwhile.
    async fn accept_failed(&mut self, error: io::Error) {
        if matches!(
            error.kind(),
            io::ErrorKind::ConnectionAborted | io::ErrorKind::ConnectionReset | io::ErrorKind::ConnectionRefused
        ) {
            return;
        }
        self.state.metrics.error("accept/failed");
        if let Some(failures) = self.failing.event() {
            warn!(error = %error, failures, "cannot accept sockets");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Closes a socket at once, with a 503 if its buffer takes it without waiting.
fn refuse(stream: TcpStream) {
    let _ = stream.try_write(BUSY_RESPONSE);
}

/// What serving one socket's requests needs.
struct Socket {
    peer: SocketAddr,
    /// The places per address, when the socket comes from a trusted proxy: then each request
    /// takes one under its client's address.
    addresses: Option<Arc<Addresses>>,
    router: Router,
    state: Arc<AppState>,
}

impl Socket {
    /// Serves one request: finds its client, takes the client's place if the socket is a
    /// trusted proxy's (and holds it until the response is out), and routes it.
    fn request(
        &self,
        mut request: Request<Incoming>,
    ) -> impl Future<Output = Result<axum::response::Response, std::convert::Infallible>> + use<> {
        let peer = self.peer;
        let mut router = self.router.clone();
        // `None`: the client behind the proxy has all his places.
        let client = match &self.addresses {
            None => Some(Client { address: peer.ip().to_canonical(), _place: None }),
            Some(addresses) => {
                let address = proxy::client_address(&self.state.config.trusted_proxies, peer.ip(), request.headers());
                let place = addresses.claim(address);
                if place.is_none() {
                    addresses.refused(address, &self.state.metrics, true);
                }
                place.map(|place| Client { address, _place: Some(Arc::new(place)) })
            }
        };
        async move {
            let Some(client) = client else { return Ok(client_busy()) };
            request.extensions_mut().insert(ConnectInfo(peer));
            request.extensions_mut().insert(client.clone());
            let response = router.call(request.map(axum::body::Body::new)).await;
            drop(client);
            response
        }
    }
}

/// 503 to a request through a trusted proxy whose client has all its places.
fn client_busy() -> axum::response::Response {
    use axum::response::IntoResponse as _;
    (axum::http::StatusCode::SERVICE_UNAVAILABLE, [(axum::http::header::RETRY_AFTER, "10")], CLIENT_BUSY_BODY)
        .into_response()
}

/// Serves one socket's HTTP requests, and hands it over when it is upgraded to a WebSocket.
async fn serve(stream: CountedStream, socket: Socket, http: hyper::server::conn::http1::Builder) {
    let state = socket.state.clone();
    // Whether a request head came: a timeout before any is a half-open socket, a timeout after
    // one is a keep-alive socket that was not needed again; at shutdown, a socket that never
    // sent a whole head has nothing to finish.
    let requested = Arc::new(AtomicBool::new(false));
    let service = {
        let requested = requested.clone();
        hyper::service::service_fn(move |request: Request<Incoming>| {
            requested.store(true, Ordering::Relaxed);
            socket.request(request)
        })
    };
    let connection = http.serve_connection(TokioIo::new(stream), service).with_upgrades();
    tokio::pin!(connection);
    let mut shutdown = state.shutdown.clone();
    let result = tokio::select! {
        result = connection.as_mut() => result,
        () = shutting_down(&mut shutdown) => {
            if !requested.load(Ordering::Relaxed) {
                return;
            }
            connection.as_mut().graceful_shutdown();
            tokio::time::timeout(CLOSE_GRACE, connection.as_mut()).await.unwrap_or(Ok(()))
        }
        () = tokio::time::sleep(HTTP_LIFETIME) => {
            connection.as_mut().graceful_shutdown();
            tokio::time::timeout(CLOSE_GRACE, connection.as_mut()).await.unwrap_or(Ok(()))
        }
    };
    if let Err(error) = result {
        if error.is_timeout() {
            if !requested.load(Ordering::Relaxed) {
                state.metrics.error("http/header_timeout");
            }
        } else if error.is_parse_too_large() {
            state.metrics.error("http/header_too_large");
        } else {
            debug!(%error, "HTTP connection failed");
        }
    }
}

async fn shutting_down(shutdown: &mut tokio::sync::watch::Receiver<bool>) {
    if shutdown.wait_for(|stop| *stop).await.is_err() {
        std::future::pending::<()>().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("an address")
    }

    #[test]
    fn an_address_gets_its_places_back_as_its_sockets_close() {
        let addresses = Addresses::new(2);
        let peer = ip("192.0.2.1");
        let first = addresses.claim(peer);
        let second = addresses.claim(peer);
        assert!(first.is_some() && second.is_some());
        assert!(addresses.claim(peer).is_none(), "a third is refused");
        drop(first);
        assert!(addresses.claim(peer).is_some(), "a closed socket's place is free again");
        drop(second);
        assert!(addresses.counts.is_empty(), "an address with no socket is forgotten");
        assert!((0..1000).all(|_| Addresses::new(0).claim(peer).is_some()), "0: no limit");
    }

    #[test]
    fn a_throttled_log_says_how_many_events_each_line_stands_for() {
        let mut throttle = Throttle::default();
        assert_eq!(throttle.event(), Some(1));
        assert_eq!((0..99).filter_map(|_| throttle.event()).count(), 0, "then quiet for a while");
        throttle.last = throttle.last.and_then(|last| last.checked_sub(LOG_EVERY));
        assert_eq!(throttle.event(), Some(100), "the next line counts the quiet ones too");
    }
}
