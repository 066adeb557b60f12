//! Counters for `/metrics`, in the Prometheus text format.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Upper bounds of the latency buckets, in seconds.
const BUCKETS: [f64; 12] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5];

/// A latency histogram with fixed buckets.
#[derive(Debug, Default)]
pub struct Histogram {
    counts: [AtomicU64; BUCKETS.len()],
    count: AtomicU64,
    sum_micros: AtomicU64,
}

impl Histogram {
    /// Records one duration.
    pub fn observe(&self, elapsed: Duration) {
        let secs = elapsed.as_secs_f64();
        for (bound, count) in BUCKETS.iter().zip(&self.counts) {
            if secs <= *bound {
                count.fetch_add(1, Ordering::Relaxed);
            }
        }
        self.count.fetch_add(1, Ordering::Relaxed);
        self.sum_micros.fetch_add(u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX), Ordering::Relaxed);
    }

    /// How many durations were recorded.
    pub fn count(&self) -> u64 {
        self.count.load(Ordering::Relaxed)
    }

    fn render(&self, out: &mut String, name: &str, help: &str) {
        let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} histogram");
        for (bound, count) in BUCKETS.iter().zip(&self.counts) {
            let _ = writeln!(out, "{name}_bucket{{le=\"{bound}\"}} {}", count.load(Ordering::Relaxed));
        }
        let count = self.count.load(Ordering::Relaxed);
        let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {count}");
        let sum = self.sum_micros.load(Ordering::Relaxed) as f64 / 1e6;
        let _ = writeln!(out, "{name}_sum {sum}\n{name}_count {count}");
    }
}

/// The server's counters. Shared by every task; all updates are lock-free except the error
/// counts, whose map is locked only for an increment.
#[derive(Debug, Default)]
pub struct Metrics {
    /// Open WebSocket connections.
    pub connections: AtomicU64,
    /// WebSocket connections accepted since start.
    pub connections_total: AtomicU64,
    /// Connections refused at the connection cap.
    pub connections_refused: AtomicU64,
    /// Rooms in memory.
    pub rooms: AtomicU64,
    /// Stored rooms found broken since start (a record this build cannot read): each is
    /// counted once, and stays closed.
    pub rooms_broken: AtomicU64,
    /// Rooms in memory held under a lease (cluster mode).
    pub rooms_owned: AtomicU64,
    /// Rooms this server took over from a server that died or stopped (cluster mode).
    pub lease_takeovers: AtomicU64,
    /// New rooms created here and handed to a less loaded server (cluster mode).
    pub rooms_placed: AtomicU64,
    /// Rooms at rest handed to a less loaded server to even out the load (cluster mode).
    pub rooms_rebalanced: AtomicU64,
    /// Rooms stopped here because their lease was lost (cluster mode).
    pub rooms_lost: AtomicU64,
    /// Connections here in a room another server holds, relayed to it over NATS (cluster mode).
    pub relayed: AtomicU64,
    /// Relayed connections closed to resume because a frame for them was lost between the
    /// servers (cluster mode).
    pub relayed_frames_lost: AtomicU64,
    /// Relayed connections closed to resume because their owner's roll call did not list them,
    /// or listed frames that never came.
    pub relayed_orphans: AtomicU64,
    /// Connections of other servers in the rooms held here (cluster mode).
    pub remote_viewers: AtomicU64,
    /// One round trip to the NATS server (cluster mode), measured every second.
    pub nats_round_trip: Histogram,
    /// Frames received from clients.
    pub messages_in: AtomicU64,
    /// Frames sent to clients.
    pub messages_out: AtomicU64,
    /// Game actions accepted (stored and acknowledged).
    pub actions: AtomicU64,
    /// Connections dropped because they did not read fast enough.
    pub slow_clients: AtomicU64,
    errors: Mutex<BTreeMap<&'static str, u64>>,
    /// From receiving an action to its acknowledgement (storage included).
    pub action_latency: Histogram,
    /// One storage transaction.
    pub commit_latency: Histogram,
    /// Writes per storage transaction, summed (with `commits` gives the group size).
    pub committed_writes: AtomicU64,
    /// Frames in the write-ahead log at the last checkpoint.
    pub wal_frames: AtomicU64,
    /// Frames of the write-ahead log copied to the database file by the last checkpoint.
    pub wal_copied: AtomicU64,
    /// Checkpoints run beside the writer.
    pub checkpoint_latency: Histogram,
    /// The last steps of checkpoints, run by the writer between two commits (so that the log can
    /// start over).
    pub checkpoint_held_latency: Histogram,
    /// Open TCP sockets of any kind (HTTP, upgrading, WebSocket).
    pub sockets: AtomicU64,
    /// TCP sockets accepted and served since start.
    pub sockets_total: AtomicU64,
    /// TCP sockets closed at once because the socket cap was reached.
    pub sockets_refused_cap: AtomicU64,
    /// TCP sockets closed at once because their address had its share of sockets.
    pub sockets_refused_address: AtomicU64,
    /// Frames not sent because they were larger than a connection's writer takes (the
    /// connection was closed with 1011).
    pub replies_too_large: AtomicU64,
}

impl Metrics {
    /// Counts an error frame or close by its code.
    pub fn error(&self, code: &'static str) {
        if let Ok(mut errors) = self.errors.lock() {
            *errors.entry(code).or_default() += 1;
        }
    }

    /// Records a storage transaction of `writes` writes.
    pub fn observe_commit(&self, elapsed: Duration, writes: usize) {
        self.commit_latency.observe(elapsed);
        self.committed_writes.fetch_add(writes as u64, Ordering::Relaxed);
    }

    /// Records a checkpoint; `held`: its last step, run by the writer between two commits.
    pub fn observe_checkpoint(&self, elapsed: Duration, held: bool) {
        if held {
            self.checkpoint_held_latency.observe(elapsed);
        } else {
            self.checkpoint_latency.observe(elapsed);
        }
    }

    /// The Prometheus text exposition.
    pub fn render(&self) -> String {
        let mut out = String::with_capacity(4096);
        let gauge = |out: &mut String, name: &str, help: &str, kind: &str, value: &AtomicU64| {
            let _ =
                writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {}", value.load(Ordering::Relaxed));
        };
        gauge(&mut out, "fipsen_connections", "Open WebSocket connections.", "gauge", &self.connections);
        gauge(
            &mut out,
            "fipsen_connections_total",
            "WebSocket connections accepted.",
            "counter",
            &self.connections_total,
        );
        gauge(
            &mut out,
            "fipsen_connections_refused_total",
            "Connections refused at the connection cap.",
            "counter",
            &self.connections_refused,
        );
        gauge(&mut out, "fipsen_rooms", "Rooms open in memory.", "gauge", &self.rooms);
        gauge(
            &mut out,
            "fipsen_rooms_broken_total",
            "Stored rooms not restored because a record of theirs cannot be read.",
            "counter",
            &self.rooms_broken,
        );
        gauge(
            &mut out,
            "fipsen_rooms_owned",
            "Rooms in memory held under a lease (cluster mode).",
            "gauge",
            &self.rooms_owned,
        );
        gauge(
            &mut out,
            "fipsen_lease_takeovers_total",
            "Rooms taken over from a server that died or stopped (cluster mode).",
            "counter",
            &self.lease_takeovers,
        );
        gauge(
            &mut out,
            "fipsen_rooms_placed_total",
            "New rooms created here and handed to a less loaded server (cluster mode).",
            "counter",
            &self.rooms_placed,
        );
        gauge(
            &mut out,
            "fipsen_rooms_rebalanced_total",
            "Rooms at rest handed to a less loaded server to even out the load (cluster mode).",
            "counter",
            &self.rooms_rebalanced,
        );
        gauge(
            &mut out,
            "fipsen_relayed_frames_lost_total",
            "Relayed connections closed to resume because a frame for them was lost between the servers (cluster mode).",
            "counter",
            &self.relayed_frames_lost,
        );
        gauge(
            &mut out,
            "fipsen_relayed_orphans_total",
            "Relayed connections closed to resume because the room's server no longer served them or their frames were lost, as its roll call showed (cluster mode).",
            "counter",
            &self.relayed_orphans,
        );
        gauge(
            &mut out,
            "fipsen_rooms_lost_total",
            "Rooms stopped here because their lease was lost (cluster mode).",
            "counter",
            &self.rooms_lost,
        );
        gauge(
            &mut out,
            "fipsen_relayed_connections",
            "Connections here in a room another server holds, relayed to it over NATS (cluster mode).",
            "gauge",
            &self.relayed,
        );
        gauge(
            &mut out,
            "fipsen_remote_viewers",
            "Connections of other servers in the rooms held here (cluster mode).",
            "gauge",
            &self.remote_viewers,
        );
        gauge(&mut out, "fipsen_messages_in_total", "Frames received from clients.", "counter", &self.messages_in);
        gauge(&mut out, "fipsen_messages_out_total", "Frames sent to clients.", "counter", &self.messages_out);
        gauge(&mut out, "fipsen_actions_total", "Game actions accepted.", "counter", &self.actions);
        gauge(
            &mut out,
            "fipsen_slow_clients_total",
            "Connections dropped for not reading.",
            "counter",
            &self.slow_clients,
        );
        gauge(
            &mut out,
            "fipsen_storage_writes_total",
            "Records written to storage.",
            "counter",
            &self.committed_writes,
        );
        gauge(
            &mut out,
            "fipsen_storage_wal_frames",
            "Frames in the write-ahead log at the last checkpoint.",
            "gauge",
            &self.wal_frames,
        );
        gauge(
            &mut out,
            "fipsen_storage_wal_copied_frames",
            "Frames of the write-ahead log the last checkpoint had copied to the database file.",
            "gauge",
            &self.wal_copied,
        );
        gauge(&mut out, "fipsen_sockets", "Open TCP sockets (HTTP, upgrading, WebSocket).", "gauge", &self.sockets);
        gauge(&mut out, "fipsen_sockets_total", "TCP sockets accepted and served.", "counter", &self.sockets_total);
        let _ = writeln!(
            out,
            "# HELP fipsen_sockets_refused_total TCP sockets closed at once, by the cap they hit.\n\
             # TYPE fipsen_sockets_refused_total counter\n\
             fipsen_sockets_refused_total{{reason=\"cap\"}} {}\n\
             fipsen_sockets_refused_total{{reason=\"address\"}} {}",
            self.sockets_refused_cap.load(Ordering::Relaxed),
            self.sockets_refused_address.load(Ordering::Relaxed),
        );
        gauge(
            &mut out,
            "fipsen_replies_too_large_total",
            "Frames not sent because they were over the largest reply (connection closed with 1011).",
            "counter",
            &self.replies_too_large,
        );
        let _ = writeln!(out, "# HELP fipsen_errors_total Error frames and error closes, by code.");
        let _ = writeln!(out, "# TYPE fipsen_errors_total counter");
        if let Ok(errors) = self.errors.lock() {
            for (code, count) in errors.iter() {
                let _ = writeln!(out, "fipsen_errors_total{{code=\"{code}\"}} {count}");
            }
        }
        self.action_latency.render(
            &mut out,
            "fipsen_action_latency_seconds",
            "From receiving a game action to acknowledging it, storage included.",
        );
        self.commit_latency.render(
            &mut out,
            "fipsen_storage_commit_seconds",
            "One storage transaction (group commit).",
        );
        self.checkpoint_latency.render(
            &mut out,
            "fipsen_storage_checkpoint_seconds",
            "One checkpoint of the write-ahead log, beside the writer.",
        );
        self.checkpoint_held_latency.render(
            &mut out,
            "fipsen_storage_checkpoint_held_seconds",
            "The last step of a checkpoint, run by the writer between two commits so that the write-ahead log starts over.",
        );
        self.nats_round_trip.render(
            &mut out,
            "fipsen_nats_round_trip_seconds",
            "One round trip to the NATS server (cluster mode), measured every second.",
        );
        out
    }
}

/// Adds one to a counter.
pub fn inc(counter: &AtomicU64) {
    counter.fetch_add(1, Ordering::Relaxed);
}

/// Takes one from a gauge.
pub fn dec(counter: &AtomicU64) {
    counter.fetch_sub(1, Ordering::Relaxed);
}
