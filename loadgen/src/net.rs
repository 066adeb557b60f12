//! Opening WebSocket connections, spread over several loopback source addresses so that the
//! generator does not run out of ephemeral ports (about 28,000 per source address).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

/// A client connection.
pub type Ws = WebSocketStream<TcpStream>;

/// Where to connect, and from which source addresses.
#[derive(Debug)]
pub struct Target {
    /// The server's address.
    pub addr: SocketAddr,
    /// The WebSocket URL (`ws://host:port/ws`).
    pub url: String,
    /// Source addresses used in turn; empty: let the system choose.
    pub sources: Vec<IpAddr>,
    next: AtomicUsize,
}

impl Target {
    /// A target at `addr` (path `/ws`) with `sources` loopback source addresses 127.0.0.2,
    /// 127.0.0.3, … when the server is on loopback (0: the system's choice).
    pub fn new(addr: SocketAddr, sources: usize) -> Target {
        let sources = if addr.ip().is_loopback() && addr.is_ipv4() {
            (0..sources.min(250)).map(|i| IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2 + i as u8))).collect()
        } else {
            Vec::new()
        };
        Target { addr, url: format!("ws://{addr}/ws"), sources, next: AtomicUsize::new(0) }
    }

    /// Opens a connection and completes the WebSocket upgrade (no protocol `hello` yet).
    ///
    /// # Errors
    /// The TCP connection or the upgrade failed.
    pub async fn connect(&self) -> Result<Ws, String> {
        let socket = if self.addr.is_ipv4() { TcpSocket::new_v4() } else { TcpSocket::new_v6() }
            .map_err(|e| format!("socket: {e}"))?;
        if !self.sources.is_empty() {
            let source = self.sources[self.next.fetch_add(1, Ordering::Relaxed) % self.sources.len()];
            socket.bind(SocketAddr::new(source, 0)).map_err(|e| format!("bind {source}: {e}"))?;
        }
        let stream = socket.connect(self.addr).await.map_err(|e| format!("connect {}: {e}", self.addr))?;
        stream.set_nodelay(true).map_err(|e| format!("nodelay: {e}"))?;
        let (ws, _) = tokio_tungstenite::client_async_with_config(self.url.as_str(), stream, Some(ws_config()))
            .await
            .map_err(|e| format!("upgrade: {e}"))?;
        Ok(ws)
    }
}

/// Small buffers: the generator holds up to 18,000 connections, and frames are a few KiB.
pub fn ws_config() -> WebSocketConfig {
    WebSocketConfig::default().read_buffer_size(8 * 1024).write_buffer_size(0).max_message_size(Some(1 << 20))
}
