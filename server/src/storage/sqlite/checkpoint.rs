//! The checkpoint thread: copies the write-ahead log into the database file beside the writer,
//! and tells the writer when the log has grown so long that it must start over.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use rusqlite::Connection;

use super::StorageOptions;
use crate::metrics::Metrics;

/// What the writer and the checkpoint thread share.
#[derive(Debug, Default)]
pub(super) struct Shared {
    /// Set by the checkpoint thread when the log has grown past the limit: the writer finishes
    /// the checkpoint itself before its next commit, which then starts the log over.
    pub(super) log_full: AtomicBool,
    /// Write transactions committed so far.
    pub(super) commits: AtomicU64,
}

/// One `PASSIVE` checkpoint: (frames in the log, frames copied to the database file), or `None`
/// when another connection's checkpoint was running (the writer's or this thread's).
pub(super) fn passive_checkpoint(conn: &Connection) -> Result<Option<(i64, i64)>, rusqlite::Error> {
    conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |row| {
        let blocked = row.get::<_, i64>(0)? != 0;
        Ok((!blocked).then_some((row.get::<_, i64>(1)?, row.get::<_, i64>(2)?)))
    })
}

/// The checkpoint thread: a `PASSIVE` checkpoint every `checkpoint_interval` if something was
/// committed, beside the writer; when the log has grown past `wal_limit_frames`, it asks the
/// writer to finish the checkpoint between two commits, so that the next commit starts the log
/// over. The writer does that last step itself, at its own priority: this thread runs at a lower
/// one, and a writer waiting for it would hold up every room. Ends when the writer ends.
pub(super) fn run(
    conn: &Connection,
    options: StorageOptions,
    shared: &Shared,
    metrics: &Metrics,
    stopped: &std::sync::mpsc::Receiver<()>,
) {
    let mut seen = 0;
    loop {
        match stopped.recv_timeout(options.checkpoint_interval) {
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
            Ok(()) | Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return,
        }
        let commits = shared.commits.load(Ordering::Relaxed);
        if commits == seen {
            continue;
        }
        seen = commits;
        let started = Instant::now();
        let (log, copied) = match passive_checkpoint(conn) {
            Ok(Some(frames)) => frames,
            Ok(None) => continue,
            Err(e) => {
                tracing::warn!(error = %e, "checkpoint failed");
                continue;
            }
        };
        metrics.observe_checkpoint(started.elapsed(), false);
        metrics.wal_frames.store(u64::try_from(log).unwrap_or(0), Ordering::Relaxed);
        metrics.wal_copied.store(u64::try_from(copied).unwrap_or(0), Ordering::Relaxed);
        // The log only starts over after a checkpoint that copied all of it with no commit
        // appending meanwhile; while commits keep coming, it grows (the figures a checkpoint
        // reports are those of the log as it found it, so they look complete).
        if log >= options.wal_limit_frames {
            shared.log_full.store(true, Ordering::Relaxed);
        }
    }
}
