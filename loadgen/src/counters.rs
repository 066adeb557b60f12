//! Counters every table adds to, for the whole run.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};

/// Whole-run counters.
#[derive(Debug, Default)]
pub struct Counters {
    errors: Mutex<BTreeMap<String, u64>>,
    error_total: AtomicU64,
    /// Connections closed that the generator did not close.
    pub disconnects: AtomicU64,
    /// Events missing from a connection's sequence (a gap, or never arrived by the end).
    pub lost_events: AtomicU64,
    /// Moves sent whose event had not reached every recipient when the run ended.
    pub unresolved: AtomicU64,
    /// Series played to their end (the table then opened a new room).
    pub series_completed: AtomicU64,
    /// Text frames received.
    pub frames_in: AtomicU64,
    /// Bytes of text frames received.
    pub bytes_in: AtomicU64,
    /// `update` frames received.
    pub updates_in: AtomicU64,
    /// Bytes of `update` frames received.
    pub update_bytes_in: AtomicU64,
    /// Frames sent.
    pub frames_out: AtomicU64,
    /// `update` frames of a room the connection had left (after its `left`).
    pub stray_updates: AtomicU64,
}

/// A copy of the counters at one moment.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct CounterSnapshot {
    /// Errors by code (server `error` frames by their code; the generator's own as `loadgen/…`).
    pub errors: BTreeMap<String, u64>,
    /// All errors.
    pub error_total: u64,
    /// Unexpected disconnections.
    pub disconnects: u64,
    /// Lost events.
    pub lost_events: u64,
    /// Moves never resolved.
    pub unresolved: u64,
    /// Series played to their end.
    pub series_completed: u64,
    /// Text frames received.
    pub frames_in: u64,
    /// Bytes received in text frames.
    pub bytes_in: u64,
    /// `update` frames received.
    pub updates_in: u64,
    /// Mean size of an `update` frame, bytes.
    pub mean_update_bytes: f64,
    /// Frames sent.
    pub frames_out: u64,
    /// `update` frames of a room the connection had already left.
    pub stray_updates: u64,
}

impl Counters {
    /// Counts an error by its code.
    pub fn error(&self, code: &str) {
        self.error_total.fetch_add(1, Ordering::Relaxed);
        let mut errors = self.errors.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        *errors.entry(code.to_string()).or_default() += 1;
    }

    /// Errors so far.
    pub fn error_total(&self) -> u64 {
        self.error_total.load(Ordering::Relaxed)
    }

    /// Adds to a counter.
    pub fn add(counter: &AtomicU64, n: u64) {
        counter.fetch_add(n, Ordering::Relaxed);
    }

    /// The counters now.
    pub fn snapshot(&self) -> CounterSnapshot {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        let updates = get(&self.updates_in);
        CounterSnapshot {
            errors: self.errors.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone(),
            error_total: get(&self.error_total),
            disconnects: get(&self.disconnects),
            lost_events: get(&self.lost_events),
            unresolved: get(&self.unresolved),
            series_completed: get(&self.series_completed),
            frames_in: get(&self.frames_in),
            bytes_in: get(&self.bytes_in),
            updates_in: updates,
            mean_update_bytes: if updates > 0 { get(&self.update_bytes_in) as f64 / updates as f64 } else { 0.0 },
            frames_out: get(&self.frames_out),
            stray_updates: get(&self.stray_updates),
        }
    }
}
