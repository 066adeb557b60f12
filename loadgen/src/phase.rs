//! A measuring phase: a fixed move rate for a fixed time, an open-loop schedule per table, and
//! the statistics of the moves scheduled in it.
//!
//! Table `i` of `n` has its moves scheduled at `start + (i/n + k) * interval`, `k = 0, 1, …`,
//! whether or not the previous move has finished (open loop). A ticker thread wakes each table
//! at its scheduled times with a precise (`nanosleep`) sleep rather than tokio's 1 ms timer.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use tokio::sync::Notify;

use crate::stats::{Latency, Summary};

/// What a phase measured.
#[derive(Debug, Default)]
pub struct PhaseStats {
    /// From the scheduled time to the last recipient at the table having the move's event.
    pub from_scheduled: Latency,
    /// From the actual send to the last recipient having it.
    pub from_send: Latency,
    /// From the later of the scheduled time and the table becoming ready to the actual send:
    /// the generator's own lateness (timer and CPU).
    pub lateness: Latency,
    /// From the actual send to the acting player's `ack`.
    pub ack: Latency,
    /// Moves sent.
    pub sent: u64,
    /// Moves acknowledged.
    pub acked: u64,
    /// Moves whose event reached every recipient.
    pub resolved: u64,
    /// Moves refused with an `error`.
    pub refused: u64,
    /// Scheduled moves skipped while a table opened a new room after its series ended.
    pub skipped: u64,
}

/// One phase, shared by the orchestrator, the ticker and every table.
#[derive(Debug)]
pub struct Phase {
    /// A name for the report (`warmup`, `measure`, `1000/s`, …).
    pub label: String,
    /// The target rate over all tables, moves per second.
    pub rate: f64,
    /// The first scheduled time.
    pub start: Instant,
    /// No move is scheduled at or after this.
    pub end: Instant,
    /// Time between two moves of one table.
    pub interval: Duration,
    /// How many tables share the schedule.
    pub tables: usize,
    /// One wake-up per table.
    pub wake: Vec<Notify>,
    /// What was measured.
    pub stats: Mutex<PhaseStats>,
    stopped: AtomicBool,
}

impl Phase {
    /// A phase of `seconds` at `rate` moves per second over `tables` tables, starting at `start`.
    pub fn new(label: &str, rate: f64, seconds: f64, tables: usize, start: Instant) -> Phase {
        let tables = tables.max(1);
        let interval = Duration::from_secs_f64(tables as f64 / rate.max(1e-3));
        Phase {
            label: label.to_string(),
            rate,
            start,
            end: start + Duration::from_secs_f64(seconds.max(0.0)),
            interval,
            tables,
            wake: (0..tables).map(|_| Notify::new()).collect(),
            stats: Mutex::new(PhaseStats::default()),
            stopped: AtomicBool::new(false),
        }
    }

    /// When table `table` is to send its move number `k` of this phase.
    pub fn scheduled(&self, table: usize, k: u64) -> Instant {
        let offset = self.interval.mul_f64(table as f64 / self.tables as f64);
        self.start + offset + self.interval.mul_f64(k as f64)
    }

    /// The first move number of `table` scheduled at or after `t`.
    pub fn first_slot_from(&self, table: usize, t: Instant) -> u64 {
        let first = self.scheduled(table, 0);
        if t <= first {
            return 0;
        }
        let k = (t - first).as_secs_f64() / self.interval.as_secs_f64();
        k.ceil() as u64
    }

    /// Runs the ticker on its own thread until the phase ends or is stopped.
    pub fn spawn_ticker(self: &std::sync::Arc<Self>) -> std::thread::JoinHandle<()> {
        let phase = self.clone();
        std::thread::spawn(move || phase.tick())
    }

    /// Stops the ticker early.
    pub fn stop(&self) {
        self.stopped.store(true, Ordering::Relaxed);
    }

    fn tick(&self) {
        let mut heap: BinaryHeap<Reverse<(Instant, usize, u64)>> =
            (0..self.tables).map(|t| Reverse((self.scheduled(t, 0), t, 0))).collect();
        while let Some(Reverse((due, table, k))) = heap.pop() {
            if due >= self.end || self.stopped.load(Ordering::Relaxed) {
                break;
            }
            let now = Instant::now();
            if due > now {
                // Long sleeps in slices, so that a stop is seen.
                std::thread::sleep((due - now).min(Duration::from_millis(100)));
                heap.push(Reverse((due, table, k)));
                continue;
            }
            self.wake[table].notify_one();
            heap.push(Reverse((self.scheduled(table, k + 1), table, k + 1)));
        }
    }

    /// The summary of what was measured, with the duration the rate is computed over.
    pub fn report(&self) -> PhaseReport {
        let seconds = (self.end - self.start).as_secs_f64();
        let stats = self.stats.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        PhaseReport {
            label: self.label.clone(),
            target_moves_per_s: self.rate,
            seconds,
            sent: stats.sent,
            acked: stats.acked,
            resolved: stats.resolved,
            refused: stats.refused,
            skipped: stats.skipped,
            moves_per_s: if seconds > 0.0 { stats.resolved as f64 / seconds } else { 0.0 },
            from_scheduled: stats.from_scheduled.summary(),
            from_send: stats.from_send.summary(),
            lateness: stats.lateness.summary(),
            ack: stats.ack.summary(),
            ..PhaseReport::default()
        }
    }
}

/// A phase's figures.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct PhaseReport {
    /// The phase's name.
    pub label: String,
    /// The rate asked for.
    pub target_moves_per_s: f64,
    /// The phase's length.
    pub seconds: f64,
    /// Moves sent.
    pub sent: u64,
    /// Moves acknowledged.
    pub acked: u64,
    /// Moves whose event reached every recipient at the table.
    pub resolved: u64,
    /// Moves refused.
    pub refused: u64,
    /// Scheduled moves skipped while tables opened new rooms.
    pub skipped: u64,
    /// Resolved moves per second.
    pub moves_per_s: f64,
    /// Move scheduled → last recipient has the event (open loop: includes waiting).
    pub from_scheduled: Summary,
    /// Move sent → last recipient has the event.
    pub from_send: Summary,
    /// The generator's own lateness in sending.
    pub lateness: Summary,
    /// Move sent → the acting player's `ack`.
    pub ack: Summary,
    /// The server's CPU use during the phase, in cores (1.0 = one core busy).
    pub server_cpu: f64,
    /// The generator's CPU use during the phase, in cores.
    pub generator_cpu: f64,
    /// Time the server's threads were ready to run but waited for a CPU taken by other work,
    /// per second of the phase.
    pub server_cpu_wait: f64,
    /// The same for the generator's threads.
    pub generator_cpu_wait: f64,
    /// The server's resident memory at the end of the phase, KiB.
    pub server_rss_kib: u64,
    /// Errors during the phase.
    pub errors: u64,
    /// Disconnections during the phase.
    pub disconnects: u64,
    /// Events lost during the phase (gaps in a connection's sequence numbers).
    pub lost_events: u64,
    /// The machine's 1-minute load average at the end of the phase.
    pub loadavg: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_spread_over_the_interval() {
        let start = Instant::now();
        let phase = Phase::new("t", 100.0, 10.0, 50, start);
        assert_eq!(phase.interval, Duration::from_millis(500));
        assert_eq!(phase.scheduled(0, 0), start);
        assert_eq!(phase.scheduled(25, 0), start + Duration::from_millis(250));
        assert_eq!(phase.scheduled(25, 2), start + Duration::from_millis(1250));
        assert_eq!(phase.first_slot_from(25, start), 0);
        assert_eq!(phase.first_slot_from(25, start + Duration::from_millis(251)), 1);
        assert_eq!(phase.first_slot_from(25, start + Duration::from_millis(1250)), 2);
    }

    #[test]
    fn the_ticker_wakes_every_table_and_stops_at_the_end() {
        let phase = std::sync::Arc::new(Phase::new("t", 2000.0, 0.05, 4, Instant::now()));
        let ticker = phase.spawn_ticker();
        ticker.join().unwrap();
        // Every table was woken at least once: a permit is stored for it.
        let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap();
        runtime.block_on(async {
            for wake in &phase.wake {
                tokio::time::timeout(Duration::from_secs(1), wake.notified()).await.unwrap();
            }
        });
    }
}
