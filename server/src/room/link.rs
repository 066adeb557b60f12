//! The room's end of a connection: its outbound queue and its kill switch.

use std::sync::Arc;

use axum::extract::ws::Utf8Bytes;
use fipsen_protocol::CloseCode;
use tokio::sync::mpsc;

use crate::metrics::{Metrics, inc};

/// A connection's number, unique in the process.
pub type ConnId = u64;

static NEXT_CONN: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// A new connection number.
pub fn new_conn_id() -> ConnId {
    NEXT_CONN.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// The time of a request as this server first saw it, in milliseconds since the Unix epoch: the
/// wall clock when the process began plus the monotonic time since. It never goes back within a
/// run (a step of the wall clock does not reorder two requests), and requests first seen by two
/// servers compare as well as their clocks agree. A room orders the connections of one seat by
/// it, so that a late request does not take the seat from a newer connection.
pub fn request_time() -> u64 {
    static BASE: std::sync::OnceLock<(std::time::Instant, u64)> = std::sync::OnceLock::new();
    let (start, unix_ms) = BASE.get_or_init(|| {
        let unix_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
        (std::time::Instant::now(), unix_ms)
    });
    unix_ms.saturating_add(u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX))
}

/// A frame on its way to one connection.
#[derive(Debug, Clone)]
pub enum Outgoing {
    /// A JSON text frame, as the socket sends it: shared bytes, so that every connection sent
    /// the same frame holds one copy, and the socket takes it without copying. Boxed: a queue
    /// keeps its first block of 32 slots for the connection's whole life, and a slot of 16
    /// bytes instead of 32 saves half a kilobyte per connection.
    Text(Box<Utf8Bytes>),
    /// Close the connection with this code after the frames before it.
    Close(CloseCode),
}

/// The room's end of a connection: its outbound queue and its kill switch.
#[derive(Debug, Clone)]
pub struct ConnLink {
    /// The connection's number.
    pub id: ConnId,
    /// The bounded outbound queue.
    pub tx: mpsc::Sender<Outgoing>,
    /// Set to close the connection at once (bypassing a full queue).
    pub kick: Arc<Kick>,
    /// The address the client connects from (for the limits each address has).
    pub addr: std::net::IpAddr,
}

/// A connection's kill switch: set once, with the close code, by whoever closes first (the
/// room, the reader or the writer), and awaited by the others. (A `watch` channel would do
/// the same at several times the bytes, kept for every connection's whole life.)
#[derive(Debug, Default)]
pub struct Kick {
    code: std::sync::Mutex<Option<CloseCode>>,
    notify: tokio::sync::Notify,
}

impl Kick {
    /// Sets the switch with this code unless it is already set; true if this call set it.
    pub fn set(&self, code: CloseCode) -> bool {
        {
            let mut current = self.code.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            if current.is_some() {
                return false;
            }
            *current = Some(code);
        }
        self.notify.notify_waiters();
        true
    }

    /// The code, once set.
    pub fn code(&self) -> Option<CloseCode> {
        *self.code.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Waits until the switch is set, and gives its code.
    pub async fn wait(&self) -> CloseCode {
        loop {
            let notified = self.notify.notified();
            tokio::pin!(notified);
            // Registered before the check, so that a `set` between the two is not missed.
            notified.as_mut().enable();
            if let Some(code) = self.code() {
                return code;
            }
            notified.await;
        }
    }
}

/// A frame's text, as a connection's queue takes it.
pub trait IntoFrame {
    /// The text as shared bytes.
    fn into_frame(self) -> Utf8Bytes;
}

impl IntoFrame for Utf8Bytes {
    fn into_frame(self) -> Utf8Bytes {
        self
    }
}

/// A frame built for one connection: its text is taken, not copied.
impl IntoFrame for String {
    fn into_frame(self) -> Utf8Bytes {
        Utf8Bytes::from(self)
    }
}

/// Copied once into shared bytes.
impl IntoFrame for Arc<str> {
    fn into_frame(self) -> Utf8Bytes {
        Utf8Bytes::from(&*self)
    }
}

impl ConnLink {
    /// Queues a frame; a full queue means the client does not read: it is dropped.
    /// Returns false if the connection is gone or was dropped.
    pub fn send(&self, frame: impl IntoFrame, metrics: &Metrics) -> bool {
        match self.tx.try_send(Outgoing::Text(Box::new(frame.into_frame()))) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                inc(&metrics.slow_clients);
                metrics.error("close/too_slow");
                self.close_now(CloseCode::TooSlow);
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => false,
        }
    }

    /// Whether the queue is at most half full: frames that may be left out (the spectators'
    /// count) are sent only then.
    pub fn has_room_to_spare(&self) -> bool {
        self.tx.capacity() * 2 >= self.tx.max_capacity()
    }

    /// Closes the connection without waiting for its queue.
    pub fn close_now(&self, code: CloseCode) {
        self.kick.set(code);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_kick_is_set_once_and_wakes_whoever_waits_for_it() {
        let kick = Arc::new(Kick::default());
        assert_eq!(kick.code(), None);
        let waiting = tokio::spawn({
            let kick = kick.clone();
            async move { kick.wait().await }
        });
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished(), "nothing has set the switch yet");
        assert!(kick.set(CloseCode::TooSlow));
        assert_eq!(waiting.await.ok(), Some(CloseCode::TooSlow));
        // The first code stays; a later waiter gets it at once.
        assert!(!kick.set(CloseCode::Normal));
        assert_eq!(kick.code(), Some(CloseCode::TooSlow));
        assert_eq!(kick.wait().await, CloseCode::TooSlow);
    }
}
