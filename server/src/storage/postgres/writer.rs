//! The writer task: takes every write waiting in its queue, commits them in one transaction
//! (group commit), then answers each.

use std::borrow::Cow;
use std::sync::Arc;
use std::time::Instant;

use deadpool_postgres::{Pool, Transaction};
use tokio::sync::mpsc;

use super::{Reply, Write};
use crate::keys::tournament_key;
use crate::metrics::Metrics;
use crate::storage::{Fence, ROOM_RECORD_FORMAT, StorageError, TOURNAMENT_RECORD_FORMAT};

/// The most writes one transaction takes. Each is a subtransaction (its savepoint), and
/// PostgreSQL keeps 64 of them per transaction in shared memory before it spills them to disk,
/// which slows every reader's view of the transaction.
pub(super) const BATCH: usize = 64;

/// Commits the writes handed over, a batch at a time, until the queue is closed and empty.
pub(super) async fn run(pool: Pool, mut rx: mpsc::Receiver<Write>, metrics: Arc<Metrics>) {
    // Everything queued while the previous batch was being committed goes into the next one.
    while let Some(first) = rx.recv().await {
        let mut batch = vec![first];
        while batch.len() < BATCH {
            match rx.try_recv() {
                Ok(write) => batch.push(write),
                Err(_) => break,
            }
        }
        let started = Instant::now();
        let count = batch.len();
        let answers = commit(&pool, batch).await;
        // Counted before the answers: whoever waited for a write sees it counted.
        metrics.observe_commit(started.elapsed(), count);
        for (op, result) in answers {
            let _ = op.into_reply().send(result);
        }
    }
}

/// Commits the writes in one transaction, and returns each with its answer. When there are
/// several, every write runs inside the savepoint `write`, rolled back if the write fails, so
/// that it leaves nothing behind while the others are committed; a write alone is its
/// transaction, rolled back if it fails. A failure of the transaction itself (the connection
/// lost, the commit refused) fails every write of the batch.
///
/// The writes run in the order of their rooms (each room's in the order they came): the lease
/// rows a fenced append locks are then taken in one order, the order [`super::leases`]'s renewal
/// locks them in, so that neither waits for the other in a circle (a deadlock).
async fn commit(pool: &Pool, mut writes: Vec<Write>) -> Vec<(Write, Result<(), StorageError>)> {
    writes.sort_by(|a, b| a.lock_key().cmp(&b.lock_key()));
    let mut client = match pool.get().await {
        Ok(client) => client,
        Err(e) => return fail_all(writes, &StorageError::from(e)),
    };
    let tx = match client.transaction().await {
        Ok(tx) => tx,
        Err(e) => return fail_all(writes, &StorageError::from(e)),
    };
    let savepoints = writes.len() > 1;
    if savepoints && let Err(e) = tx.batch_execute("SAVEPOINT write").await {
        return fail_all(writes, &StorageError::from(e));
    }
    let mut done = Vec::with_capacity(writes.len());
    let mut writes = writes.into_iter();
    while let Some(op) = writes.next() {
        let result = write(&tx, &op).await;
        // After a rollback the savepoint is still there for the next write; the last write's,
        // if it succeeded, is released by the commit.
        let next = match (&result, writes.len()) {
            _ if !savepoints => None,
            (Ok(()), 0) => None,
            (Ok(()), _) => Some("RELEASE SAVEPOINT write; SAVEPOINT write"),
            (Err(_), _) => Some("ROLLBACK TO SAVEPOINT write"),
        };
        done.push((op, result));
        if let Some(next) = next
            && let Err(e) = tx.batch_execute(next).await
        {
            let error = StorageError::from(e);
            tracing::error!(error = %error, "a transaction failed: none of its writes is stored");
            return fail_all(done.into_iter().map(|(op, _)| op).chain(writes), &error);
        }
    }
    if !savepoints && done.iter().any(|(_, result)| result.is_err()) {
        // The one write failed: nothing to commit.
        let _ = tx.rollback().await;
        return done;
    }
    match tx.commit().await {
        Ok(()) => done,
        Err(e) => {
            let error = StorageError::from(e);
            tracing::error!(error = %error, "commit failed");
            fail_all(done.into_iter().map(|(op, _)| op), &error)
        }
    }
}

/// Every write, failed with the error that stopped the transaction.
fn fail_all(writes: impl IntoIterator<Item = Write>, error: &StorageError) -> Vec<(Write, Result<(), StorageError>)> {
    writes.into_iter().map(|op| (op, Err(StorageError::Postgres(format!("not committed: {error}"))))).collect()
}

/// A number as PostgreSQL's `BIGINT` holds it.
fn int(value: u64) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

/// Milliseconds since 1970, now.
fn now_ms() -> i64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    i64::try_from(now.as_millis()).unwrap_or(i64::MAX)
}

/// Runs one write's statements. Every room write passes here; a fenced append checks its lease
/// first ([`check_fence`]).
async fn write(tx: &Transaction<'_>, op: &Write) -> Result<(), StorageError> {
    match op {
        Write::CreateRoom { meta, records, fence, .. } => {
            let epoch = fenced(tx, &meta.code, fence.as_ref()).await?;
            let rules = serde_json::to_string(&meta.rules).map_err(|e| StorageError::Corrupt(e.to_string()))?;
            let options = serde_json::to_string(&meta.options).map_err(|e| StorageError::Corrupt(e.to_string()))?;
            let insert = tx
                .prepare_cached(
                    "INSERT INTO rooms (code, created_at, title, rules, options, master_seed, active, tournament) \
                     VALUES ($1, $2, $3, $4, $5, $6, TRUE, $7)",
                )
                .await?;
            tx.execute(
                &insert,
                &[
                    &meta.code,
                    &int(meta.created_at),
                    &meta.title,
                    &rules,
                    &options,
                    &meta.master.to_hex(),
                    &meta.tournament,
                ],
            )
            .await?;
            for (index, record) in records.iter().enumerate() {
                let format = i64::from(record.format);
                insert_record(tx, &meta.code, index as u64, record.seq_before, &record.json, format, epoch).await?;
            }
        }
        Write::Append { record, .. } => {
            let format = i64::from(ROOM_RECORD_FORMAT);
            let epoch = fenced(tx, &record.room, record.fence.as_ref()).await?;
            insert_record(tx, &record.room, record.index, record.seq_before, &record.json, format, epoch).await?;
            if let Some((hash, participant)) = &record.token {
                let insert =
                    tx.prepare_cached("INSERT INTO tokens (hash, room, participant) VALUES ($1, $2, $3)").await?;
                tx.execute(&insert, &[hash, &record.room.as_ref(), &i64::from(*participant)]).await?;
            }
        }
        Write::SetActive { room, active, fence, .. } => {
            fenced(tx, room, fence.as_ref()).await?;
            // Closing a room keeps the time: retention counts from it.
            let closed_at = (!*active).then(now_ms);
            let update = tx.prepare_cached("UPDATE rooms SET active = $2, closed_at = $3 WHERE code = $1").await?;
            tx.execute(&update, &[&room.as_ref(), active, &closed_at]).await?;
        }
        Write::DeleteRoom { room, only_closed, fence, .. } => {
            fenced(tx, room, fence.as_ref()).await?;
            // The row stays locked until the commit: it cannot be opened again meanwhile. A room
            // under a live lease is open at some server, whatever its flag says.
            let select = tx
                .prepare_cached(
                    "SELECT NOT r.active AND NOT EXISTS (SELECT 1 FROM room_leases l \
                         WHERE l.room = r.code AND l.expires_at > clock_timestamp()) \
                     FROM rooms r WHERE r.code = $1 FOR UPDATE OF r",
                )
                .await?;
            let closed = tx.query_opt(&select, &[&room.as_ref()]).await?.is_some_and(|row| row.get::<_, bool>(0));
            if closed || !*only_closed {
                for sql in [
                    "DELETE FROM records WHERE room = $1",
                    "DELETE FROM room_deals WHERE room = $1",
                    "DELETE FROM tokens WHERE room = $1",
                    "DELETE FROM room_leases WHERE room = $1",
                    "DELETE FROM rooms WHERE code = $1",
                ] {
                    let delete = tx.prepare_cached(sql).await?;
                    tx.execute(&delete, &[&room.as_ref()]).await?;
                }
            }
        }
        Write::CreateTournament { id, created_at, records, fence, .. } => {
            fenced(tx, &tournament_key(id), fence.as_ref()).await?;
            let insert =
                tx.prepare_cached("INSERT INTO tournaments (id, created_at, finished) VALUES ($1, $2, FALSE)").await?;
            tx.execute(&insert, &[id, &int(*created_at)]).await?;
            insert_tournament_records(tx, id, 0, records).await?;
        }
        Write::AppendTournament { id, index, records, finished, fence, .. } => {
            fenced(tx, &tournament_key(id), fence.as_ref()).await?;
            insert_tournament_records(tx, id, *index, records).await?;
            if *finished {
                let update = tx.prepare_cached("UPDATE tournaments SET finished = TRUE WHERE id = $1").await?;
                tx.execute(&update, &[id]).await?;
            }
        }
        Write::PutDeals { room, deals, .. } => {
            let upsert = tx
                .prepare_cached(
                    "INSERT INTO room_deals (room, number, first_idx, last_idx, data) VALUES ($1, $2, $3, $4, $5) \
                     ON CONFLICT (room, number) DO UPDATE SET first_idx = EXCLUDED.first_idx, \
                     last_idx = EXCLUDED.last_idx, data = EXCLUDED.data",
                )
                .await?;
            for deal in deals {
                tx.execute(
                    &upsert,
                    &[&room.as_ref(), &i64::from(deal.number), &int(deal.first), &int(deal.last), &deal.data],
                )
                .await?;
            }
        }
        Write::Probe { .. } => {
            let upsert = tx
                .prepare_cached(
                    "INSERT INTO health (id, checked_at) VALUES (1, $1) \
                     ON CONFLICT (id) DO UPDATE SET checked_at = EXCLUDED.checked_at",
                )
                .await?;
            tx.execute(&upsert, &[&now_ms()]).await?;
        }
    }
    Ok(())
}

/// Checks, in the write's transaction, that `fence` is the live lease of `room`, and keeps the
/// lease's row locked (shared) until the commit: a claim that would take the room over waits
/// for this write, then finds the record in the log. Returns the epoch to store.
///
/// # Errors
/// [`StorageError::Fenced`] when the lease is another's, a later one, or has run out.
async fn check_fence(tx: &Transaction<'_>, room: &str, fence: &Fence) -> Result<i64, StorageError> {
    let epoch = int(fence.epoch);
    let select = tx
        .prepare_cached(
            "SELECT 1 FROM room_leases WHERE room = $1 AND holder = $2 AND epoch = $3 \
             AND expires_at > clock_timestamp() FOR SHARE",
        )
        .await?;
    match tx.query_opt(&select, &[&room, &fence.node.as_ref(), &epoch]).await? {
        Some(_) => Ok(epoch),
        None => Err(StorageError::Fenced { room: room.to_string(), epoch: fence.epoch }),
    }
}

/// [`check_fence`] when the write carries a lease (cluster mode): the epoch to store with its
/// records, or none.
async fn fenced(tx: &Transaction<'_>, key: &str, fence: Option<&Fence>) -> Result<Option<i64>, StorageError> {
    match fence {
        Some(fence) => Ok(Some(check_fence(tx, key, fence).await?)),
        None => Ok(None),
    }
}

/// Inserts a room's record number `index`, written under the lease of `epoch` (cluster mode).
async fn insert_record(
    tx: &Transaction<'_>,
    room: &str,
    index: u64,
    seq_before: u64,
    json: &str,
    format: i64,
    epoch: Option<i64>,
) -> Result<(), StorageError> {
    let insert = tx
        .prepare_cached(
            "INSERT INTO records (room, idx, seq_before, record, format, epoch) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .await?;
    tx.execute(&insert, &[&room, &int(index), &int(seq_before), &json, &format, &epoch]).await?;
    Ok(())
}

/// Inserts a tournament's records from number `first` on.
async fn insert_tournament_records(
    tx: &Transaction<'_>,
    id: &str,
    first: u64,
    records: &[String],
) -> Result<(), StorageError> {
    let insert = tx
        .prepare_cached("INSERT INTO tournament_records (tournament, idx, record, format) VALUES ($1, $2, $3, $4)")
        .await?;
    for (i, record) in records.iter().enumerate() {
        let index = int(first).saturating_add(i as i64);
        tx.execute(&insert, &[&id, &index, record, &i64::from(TOURNAMENT_RECORD_FORMAT)]).await?;
    }
    Ok(())
}

impl Write {
    /// The lease row the write may lock: its room's, or its tournament's key (a probe: none,
    /// first).
    fn lock_key(&self) -> Cow<'_, str> {
        match self {
            Write::CreateRoom { meta, .. } => Cow::Borrowed(&meta.code),
            Write::Append { record, .. } => Cow::Borrowed(&record.room),
            Write::SetActive { room, .. } | Write::DeleteRoom { room, .. } | Write::PutDeals { room, .. } => {
                Cow::Borrowed(room)
            }
            Write::CreateTournament { id, .. } | Write::AppendTournament { id, .. } => {
                Cow::Owned(tournament_key(id).to_string())
            }
            Write::Probe { .. } => Cow::Borrowed(""),
        }
    }

    /// Where the write's answer goes.
    fn into_reply(self) -> Reply<()> {
        match self {
            Write::CreateRoom { reply, .. }
            | Write::CreateTournament { reply, .. }
            | Write::AppendTournament { reply, .. }
            | Write::Append { reply, .. }
            | Write::SetActive { reply, .. }
            | Write::DeleteRoom { reply, .. }
            | Write::PutDeals { reply, .. }
            | Write::Probe { reply } => reply,
        }
    }
}
