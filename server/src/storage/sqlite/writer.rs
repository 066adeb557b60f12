//! The writer thread: takes every operation waiting in its queue, commits the writes among them
//! in one transaction (group commit), then answers the reads.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use rusqlite::{Connection, OptionalExtension, params};
use tokio::sync::mpsc;

use super::checkpoint::Shared;
use super::{Op, Reply, queries};
use crate::metrics::Metrics;
use crate::storage::{ROOM_RECORD_FORMAT, StorageError, StoredRoom, TOURNAMENT_RECORD_FORMAT};

/// The most operations one transaction takes.
const BATCH: usize = 512;

impl Op {
    fn is_write(&self) -> bool {
        matches!(
            self,
            Op::CreateRoom { .. }
                | Op::Append { .. }
                | Op::SetActive { .. }
                | Op::Probe { .. }
                | Op::CreateTournament { .. }
                | Op::AppendTournament { .. }
                | Op::DeleteRoom { .. }
                | Op::PutDeals { .. }
        )
    }

    /// Whether the write runs one statement only (which SQLite applies whole or not at all).
    fn is_one_statement(&self) -> bool {
        matches!(self, Op::Append { token: None, .. } | Op::SetActive { .. } | Op::Probe { .. })
    }
}

/// The writer thread's state.
pub(super) struct Writer {
    conn: Connection,
    shared: Arc<Shared>,
    /// The rooms read in one go by [`Op::ActiveRooms`], until they are loaded.
    restored: HashMap<String, StoredRoom>,
    /// Rooms known to be marked active in the file: marking them active again writes nothing.
    known_active: HashSet<String>,
}

impl Writer {
    pub(super) fn new(conn: Connection, shared: Arc<Shared>) -> Writer {
        // Room for every statement the writer runs (about 20), so that none is prepared twice.
        conn.set_prepared_statement_cache_capacity(32);
        Writer { conn, shared, restored: HashMap::new(), known_active: HashSet::new() }
    }

    /// Answers operations until every handle is dropped or one asks for a shutdown; returns
    /// the shutdowns asked for, to be answered once the file is closed.
    pub(super) fn run(&mut self, mut rx: mpsc::Receiver<Op>, metrics: &Metrics) -> Vec<Reply<()>> {
        let mut shutdowns = Vec::new();
        // Everything queued while the previous batch was being committed goes into the next one.
        while let Some(first) = rx.blocking_recv() {
            let mut batch = vec![first];
            while batch.len() < BATCH {
                match rx.try_recv() {
                    Ok(op) => batch.push(op),
                    Err(_) => break,
                }
            }
            if self.shared.log_full.load(Ordering::Relaxed) {
                self.finish_checkpoint(metrics);
            }
            let (writes, reads): (Vec<Op>, Vec<Op>) = batch.into_iter().partition(Op::is_write);
            let writes = self.skip_unchanged(writes);
            if !writes.is_empty() {
                let started = Instant::now();
                let count = writes.len();
                commit(&mut self.conn, writes);
                self.shared.commits.fetch_add(1, Ordering::Relaxed);
                metrics.observe_commit(started.elapsed(), count);
            }
            for op in reads {
                match op {
                    Op::Shutdown { reply } => {
                        // What is queued already is still answered; nothing more is taken.
                        rx.close();
                        shutdowns.push(reply);
                    }
                    op => self.read(op),
                }
            }
        }
        shutdowns
    }

    /// Copies what is left of the log into the database file, with no commit running, so that
    /// the next commit starts the log over. Most of the log was copied by the checkpoint thread
    /// beside the commits; this copies what was appended since. When the checkpoint thread is
    /// in a checkpoint of its own just then, the next batch tries again.
    fn finish_checkpoint(&mut self, metrics: &Metrics) {
        let started = Instant::now();
        match super::checkpoint::passive_checkpoint(&self.conn) {
            Ok(Some((log, copied))) if log == copied => {
                self.shared.log_full.store(false, Ordering::Relaxed);
                metrics.observe_checkpoint(started.elapsed(), true);
            }
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "checkpoint failed"),
        }
    }

    /// Answers at once the writes that would change nothing (a room marked active that is known
    /// to be active), and forgets what the others make stale.
    fn skip_unchanged(&mut self, writes: Vec<Op>) -> Vec<Op> {
        let mut keep = Vec::with_capacity(writes.len());
        for op in writes {
            match &op {
                Op::SetActive { room, active: true, .. } if self.known_active.remove(room.as_ref()) => {
                    answer(op, Ok(()));
                    continue;
                }
                Op::SetActive { room, .. } | Op::Append { room, .. } | Op::DeleteRoom { room, .. } => {
                    self.known_active.remove(room.as_ref());
                    self.restored.remove(room.as_ref());
                }
                _ => {}
            }
            keep.push(op);
        }
        keep
    }

    fn read(&mut self, op: Op) {
        match op {
            Op::Load { room, reply } => {
                let result = match self.restored.remove(&room) {
                    Some(stored) => Ok(Some(stored)),
                    None => queries::load(&self.conn, &room),
                };
                let _ = reply.send(result);
            }
            Op::LoadMeta { room, reply } => {
                let result = match self.restored.get(&room) {
                    Some(stored) => Ok(Some(stored.meta.clone())),
                    None => queries::load_meta(&self.conn, &room),
                };
                let _ = reply.send(result);
            }
            Op::LoadRecords { room, from, to, reply } => {
                let _ = reply.send(queries::load_records(&self.conn, &room, from, to));
            }
            Op::LoadDeals { room, from, count, reply } => {
                let _ = reply.send(queries::load_deals(&self.conn, &room, from, count));
            }
            Op::ActiveRooms { reply } => {
                let result = queries::load_active(&self.conn).map(|(codes, rooms)| {
                    self.known_active = codes.iter().cloned().collect();
                    self.restored = rooms;
                    codes
                });
                let _ = reply.send(result);
            }
            Op::FindTokens { hashes, reply } => {
                let _ = reply.send(queries::find_tokens(&self.conn, &hashes));
            }
            Op::LoadTournament { id, reply } => {
                let _ = reply.send(queries::load_tournament(&self.conn, &id));
            }
            Op::ActiveTournaments { reply } => {
                let _ = reply.send(queries::active_tournaments(&self.conn));
            }
            Op::Closed { before_ms, reply } => {
                let _ = reply.send(queries::closed_before(&self.conn, before_ms));
            }
            Op::Shutdown { reply } => {
                let _ = reply.send(Err(StorageError::Corrupt("a shutdown reached the read path".into())));
            }
            write @ (Op::CreateRoom { .. }
            | Op::Append { .. }
            | Op::SetActive { .. }
            | Op::Probe { .. }
            | Op::CreateTournament { .. }
            | Op::AppendTournament { .. }
            | Op::DeleteRoom { .. }
            | Op::PutDeals { .. }) => {
                answer(write, Err(StorageError::Corrupt("a write reached the read path".into())));
            }
        }
    }
}

/// Commits the writes in one transaction, then answers each. A write of several statements
/// runs inside a savepoint of its own, so that one that fails leaves nothing behind while the
/// others are committed. The transaction's own statements (`BEGIN`, `COMMIT`, the savepoint's)
/// are kept prepared like the writes' (a `rusqlite::Transaction` prepares them anew each time).
fn commit(conn: &mut Connection, writes: Vec<Op>) {
    if let Err(e) = run(conn, "BEGIN") {
        tracing::error!(error = %e, "cannot begin a transaction");
        for op in writes {
            fail(op, &e);
        }
        return;
    }
    let mut done = Vec::with_capacity(writes.len());
    for op in writes {
        let result = if op.is_one_statement() { write(conn, &op) } else { in_savepoint(conn, &op) };
        done.push((op, result));
    }
    match run(conn, "COMMIT") {
        Ok(()) => {
            for (op, result) in done {
                answer(op, result);
            }
        }
        Err(e) => {
            tracing::error!(error = %e, "commit failed");
            // Nothing of the batch stays (a failed COMMIT may leave the transaction open).
            if !conn.is_autocommit() {
                let _ = run(conn, "ROLLBACK");
            }
            for (op, _) in done {
                fail(op, &e);
            }
        }
    }
}

/// Runs `op` inside a savepoint: all of it, or (on an error) none of it.
fn in_savepoint(conn: &Connection, op: &Op) -> Result<(), StorageError> {
    run(conn, "SAVEPOINT one_write")?;
    match write(conn, op) {
        Ok(()) => Ok(run(conn, "RELEASE one_write")?),
        Err(e) => {
            let _ = run(conn, "ROLLBACK TO one_write");
            let _ = run(conn, "RELEASE one_write");
            Err(e)
        }
    }
}

/// Runs a statement without parameters, kept prepared.
fn run(conn: &Connection, sql: &str) -> rusqlite::Result<()> {
    conn.prepare_cached(sql)?.execute([])?;
    Ok(())
}

fn write(tx: &Connection, op: &Op) -> Result<(), StorageError> {
    match op {
        Op::CreateRoom { meta, records, .. } => {
            let rules = serde_json::to_string(&meta.rules).map_err(|e| StorageError::Corrupt(e.to_string()))?;
            let options = serde_json::to_string(&meta.options).map_err(|e| StorageError::Corrupt(e.to_string()))?;
            tx.prepare_cached(
                "INSERT INTO rooms (code, created_at, title, rules, options, master_seed, active, tournament) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, 1, ?7)",
            )?
            .execute(params![
                meta.code,
                meta.created_at as i64,
                meta.title,
                rules,
                options,
                meta.master.to_hex(),
                meta.tournament
            ])?;
            for (index, record) in records.iter().enumerate() {
                tx.prepare_cached(
                    "INSERT INTO records (room, idx, seq_before, record, format) VALUES (?1, ?2, ?3, ?4, ?5)",
                )?
                .execute(params![
                    meta.code,
                    index as i64,
                    record.seq_before as i64,
                    record.json,
                    record.format
                ])?;
            }
        }
        Op::CreateTournament { id, created_at, records, .. } => {
            tx.prepare_cached("INSERT INTO tournaments (id, created_at, finished) VALUES (?1, ?2, 0)")?
                .execute(params![id, *created_at as i64])?;
            for (index, record) in records.iter().enumerate() {
                tx.prepare_cached(
                    "INSERT INTO tournament_records (tournament, idx, record, format) VALUES (?1, ?2, ?3, ?4)",
                )?
                .execute(params![id, index as i64, record, TOURNAMENT_RECORD_FORMAT])?;
            }
        }
        Op::AppendTournament { id, index, records, finished, .. } => {
            for (i, record) in records.iter().enumerate() {
                tx.prepare_cached(
                    "INSERT INTO tournament_records (tournament, idx, record, format) VALUES (?1, ?2, ?3, ?4)",
                )?
                .execute(params![id, (*index as i64) + i as i64, record, TOURNAMENT_RECORD_FORMAT])?;
            }
            if *finished {
                tx.prepare_cached("UPDATE tournaments SET finished = 1 WHERE id = ?1")?.execute(params![id])?;
            }
        }
        Op::Append { room, index, seq_before, json, token, .. } => {
            tx.prepare_cached(
                "INSERT INTO records (room, idx, seq_before, record, format) VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .execute(params![
                room.as_ref(),
                *index as i64,
                *seq_before as i64,
                json,
                ROOM_RECORD_FORMAT
            ])?;
            if let Some((hash, participant)) = token {
                tx.prepare_cached("INSERT INTO tokens (hash, room, participant) VALUES (?1, ?2, ?3)")?
                    .execute(params![hash, room.as_ref(), participant])?;
            }
        }
        Op::SetActive { room, active, .. } => {
            // Closing a room keeps the time: retention counts from it.
            let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
            let closed_at = (!*active).then(|| i64::try_from(now.as_millis()).unwrap_or(i64::MAX));
            tx.prepare_cached("UPDATE rooms SET active = ?2, closed_at = ?3 WHERE code = ?1")?.execute(params![
                room.as_ref(),
                i64::from(*active),
                closed_at
            ])?;
        }
        Op::DeleteRoom { room, only_closed, .. } => {
            let closed: bool = tx
                .prepare_cached("SELECT active = 0 FROM rooms WHERE code = ?1")?
                .query_row([room.as_ref()], |row| row.get(0))
                .optional()?
                .unwrap_or(false);
            if closed || !*only_closed {
                for sql in [
                    "DELETE FROM records WHERE room = ?1",
                    "DELETE FROM room_deals WHERE room = ?1",
                    "DELETE FROM tokens WHERE room = ?1",
                    "DELETE FROM rooms WHERE code = ?1",
                ] {
                    tx.prepare_cached(sql)?.execute([room.as_ref()])?;
                }
            }
        }
        Op::PutDeals { room, deals, .. } => {
            for deal in deals {
                tx.prepare_cached(
                    "INSERT INTO room_deals (room, number, first_idx, last_idx, data) VALUES (?1, ?2, ?3, ?4, ?5) \
                     ON CONFLICT (room, number) DO UPDATE SET first_idx = ?3, last_idx = ?4, data = ?5",
                )?
                .execute(params![
                    room.as_ref(),
                    i64::from(deal.number),
                    i64::try_from(deal.first).unwrap_or(i64::MAX),
                    i64::try_from(deal.last).unwrap_or(i64::MAX),
                    deal.data
                ])?;
            }
        }
        Op::Probe { .. } => {
            let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
            tx.prepare_cached(
                "INSERT INTO health (id, checked_at) VALUES (1, ?1) ON CONFLICT (id) DO UPDATE SET checked_at = ?1",
            )?
            .execute(params![i64::try_from(now.as_millis()).unwrap_or(i64::MAX)])?;
        }
        _ => {}
    }
    Ok(())
}

fn answer(op: Op, result: Result<(), StorageError>) {
    match op {
        Op::CreateRoom { reply, .. }
        | Op::Append { reply, .. }
        | Op::SetActive { reply, .. }
        | Op::Probe { reply }
        | Op::CreateTournament { reply, .. }
        | Op::AppendTournament { reply, .. }
        | Op::DeleteRoom { reply, .. }
        | Op::PutDeals { reply, .. } => {
            let _ = reply.send(result);
        }
        _ => {}
    }
}

fn fail(op: Op, error: &rusqlite::Error) {
    answer(op, Err(StorageError::Corrupt(format!("commit failed: {error}"))));
}
