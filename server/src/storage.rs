//! Durable storage: one SQLite file, written by one thread with group commit.
//!
//! A room is stored as its creation row (rules, options, the secret master seed) and the list of
//! every input it accepted (a [`Record`](crate::room::Record) as JSON, with the sequence number
//! the room stood at before it). Replaying the records through the rules crate rebuilds the room
//! exactly, so a record is written — and committed — **before** the action it holds is
//! acknowledged or broadcast. The writer thread takes every write waiting in its queue into one
//! transaction, so many rooms share one `fsync`.
//!
//! The file holds master seeds and token hashes: it must stay private to the server.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use fipsen_protocol::RoomOptions;
use fipsen_rules::{RuleSet, Seed};
use rusqlite::{Connection, OptionalExtension, params};
use tokio::sync::{mpsc, oneshot};

use crate::metrics::Metrics;

/// Why storage failed.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    /// SQLite refused.
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// A stored value could not be read back.
    #[error("stored data unreadable: {0}")]
    Corrupt(String),
    /// The writer thread is gone (the server is stopping).
    #[error("storage is closed")]
    Closed,
}

/// What a room is created with.
#[derive(Debug, Clone)]
pub struct RoomMeta {
    /// The invite code.
    pub code: String,
    /// Milliseconds since 1970.
    pub created_at: u64,
    /// The room's title.
    pub title: String,
    /// The table's rules.
    pub rules: RuleSet,
    /// The room's options as created (later changes are records).
    pub options: RoomOptions,
    /// The series' master seed. Secret: never logged, never sent.
    pub master: Seed,
}

/// One stored record of a room.
#[derive(Debug, Clone)]
pub struct StoredRecord {
    /// The room's sequence number before the record was applied.
    pub seq_before: u64,
    /// The record as JSON.
    pub json: String,
}

/// A room as stored: its creation and its records in order.
#[derive(Debug, Clone)]
pub struct StoredRoom {
    /// The creation row.
    pub meta: RoomMeta,
    /// Every record, oldest first.
    pub records: Vec<StoredRecord>,
}

type Reply<T> = oneshot::Sender<Result<T, StorageError>>;

enum Op {
    CreateRoom { meta: RoomMeta, reply: Reply<()> },
    Append { room: Arc<str>, index: u64, seq_before: u64, json: String, token: Option<(String, u32)>, reply: Reply<()> },
    SetActive { room: Arc<str>, active: bool, reply: Reply<()> },
    Load { room: String, reply: Reply<Option<StoredRoom>> },
    ActiveRooms { reply: Reply<Vec<String>> },
    FindTokens { hashes: Vec<String>, reply: Reply<Vec<(String, u32)>> },
}

impl Op {
    fn is_write(&self) -> bool {
        matches!(self, Op::CreateRoom { .. } | Op::Append { .. } | Op::SetActive { .. })
    }
}

/// A handle on the writer thread. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Storage {
    tx: mpsc::Sender<Op>,
}

impl std::fmt::Debug for Op {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Op")
    }
}

/// The most operations one transaction takes.
const BATCH: usize = 512;

impl Storage {
    /// Opens (or creates) the database file and starts the writer thread.
    ///
    /// # Errors
    /// The file cannot be opened or its tables created.
    pub fn open(path: &Path, metrics: Arc<Metrics>) -> Result<(Storage, std::thread::JoinHandle<()>), StorageError> {
        let conn = Connection::open(path)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        // FULL: a commit is on disk before the server acknowledges, even across a power cut.
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.execute_batch(
            "CREATE TABLE IF NOT EXISTS rooms (
                code TEXT PRIMARY KEY,
                created_at INTEGER NOT NULL,
                title TEXT NOT NULL,
                rules TEXT NOT NULL,
                options TEXT NOT NULL,
                master_seed TEXT NOT NULL,
                active INTEGER NOT NULL DEFAULT 1
             );
             CREATE TABLE IF NOT EXISTS records (
                room TEXT NOT NULL REFERENCES rooms(code),
                idx INTEGER NOT NULL,
                seq_before INTEGER NOT NULL,
                record TEXT NOT NULL,
                PRIMARY KEY (room, idx)
             ) WITHOUT ROWID;
             CREATE TABLE IF NOT EXISTS tokens (
                hash TEXT PRIMARY KEY,
                room TEXT NOT NULL REFERENCES rooms(code),
                participant INTEGER NOT NULL
             ) WITHOUT ROWID;",
        )?;
        let (tx, rx) = mpsc::channel(4096);
        let handle = std::thread::Builder::new()
            .name("fipsen-storage".into())
            .spawn(move || writer(conn, rx, &metrics))
            .map_err(|e| StorageError::Corrupt(format!("cannot start the storage thread: {e}")))?;
        Ok((Storage { tx }, handle))
    }

    async fn call<T>(&self, make: impl FnOnce(Reply<T>) -> Op) -> Result<T, StorageError> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(make(reply)).await.map_err(|_| StorageError::Closed)?;
        rx.await.map_err(|_| StorageError::Closed)?
    }

    /// Stores a new room.
    ///
    /// # Errors
    /// The write failed; the room does not exist.
    pub async fn create_room(&self, meta: RoomMeta) -> Result<(), StorageError> {
        self.call(|reply| Op::CreateRoom { meta, reply }).await
    }

    /// Appends a room's record number `index`, with the seat token hash it introduces, if any.
    /// Returns once it is committed.
    ///
    /// # Errors
    /// The write failed; the record is not stored.
    pub async fn append(
        &self,
        room: Arc<str>,
        index: u64,
        seq_before: u64,
        json: String,
        token: Option<(String, u32)>,
    ) -> Result<(), StorageError> {
        self.call(|reply| Op::Append { room, index, seq_before, json, token, reply }).await
    }

    /// Marks a room open in memory (restored at start) or closed (loaded on demand).
    ///
    /// # Errors
    /// The write failed.
    pub async fn set_active(&self, room: Arc<str>, active: bool) -> Result<(), StorageError> {
        self.call(|reply| Op::SetActive { room, active, reply }).await
    }

    /// Reads a room and its records.
    ///
    /// # Errors
    /// The read failed or the row is unreadable.
    pub async fn load(&self, room: &str) -> Result<Option<StoredRoom>, StorageError> {
        let room = room.to_string();
        self.call(|reply| Op::Load { room, reply }).await
    }

    /// The codes of the rooms that were open when the server stopped.
    ///
    /// # Errors
    /// The read failed.
    pub async fn active_rooms(&self) -> Result<Vec<String>, StorageError> {
        self.call(|reply| Op::ActiveRooms { reply }).await
    }

    /// The rooms and participants these token hashes belong to.
    ///
    /// # Errors
    /// The read failed.
    pub async fn find_tokens(&self, hashes: Vec<String>) -> Result<Vec<(String, u32)>, StorageError> {
        self.call(|reply| Op::FindTokens { hashes, reply }).await
    }
}

fn writer(mut conn: Connection, mut rx: mpsc::Receiver<Op>, metrics: &Metrics) {
    while let Some(first) = rx.blocking_recv() {
        let mut batch = vec![first];
        while batch.len() < BATCH {
            match rx.try_recv() {
                Ok(op) => batch.push(op),
                Err(_) => break,
            }
        }
        let (writes, reads): (Vec<Op>, Vec<Op>) = batch.into_iter().partition(Op::is_write);
        if !writes.is_empty() {
            let started = Instant::now();
            let count = writes.len();
            commit(&mut conn, writes);
            metrics.observe_commit(started.elapsed(), count);
        }
        for op in reads {
            read(&conn, op);
        }
    }
}

fn commit(conn: &mut Connection, writes: Vec<Op>) {
    let tx = match conn.transaction() {
        Ok(tx) => tx,
        Err(e) => {
            tracing::error!(error = %e, "cannot begin a transaction");
            for op in writes {
                fail(op, &e);
            }
            return;
        }
    };
    let mut done = Vec::with_capacity(writes.len());
    for op in writes {
        let result = write(&tx, &op);
        done.push((op, result));
    }
    match tx.commit() {
        Ok(()) => {
            for (op, result) in done {
                answer(op, result);
            }
        }
        Err(e) => {
            tracing::error!(error = %e, "commit failed");
            for (op, _) in done {
                fail(op, &e);
            }
        }
    }
}

fn write(tx: &rusqlite::Transaction<'_>, op: &Op) -> Result<(), StorageError> {
    match op {
        Op::CreateRoom { meta, .. } => {
            let rules = serde_json::to_string(&meta.rules).map_err(|e| StorageError::Corrupt(e.to_string()))?;
            let options = serde_json::to_string(&meta.options).map_err(|e| StorageError::Corrupt(e.to_string()))?;
            tx.execute(
                "INSERT INTO rooms (code, created_at, title, rules, options, master_seed, active) VALUES (?1, ?2, ?3, ?4, ?5, ?6, 1)",
                params![meta.code, meta.created_at as i64, meta.title, rules, options, meta.master.to_hex()],
            )?;
        }
        Op::Append { room, index, seq_before, json, token, .. } => {
            tx.execute(
                "INSERT INTO records (room, idx, seq_before, record) VALUES (?1, ?2, ?3, ?4)",
                params![room.as_ref(), *index as i64, *seq_before as i64, json],
            )?;
            if let Some((hash, participant)) = token {
                tx.execute(
                    "INSERT INTO tokens (hash, room, participant) VALUES (?1, ?2, ?3)",
                    params![hash, room.as_ref(), participant],
                )?;
            }
        }
        Op::SetActive { room, active, .. } => {
            tx.execute("UPDATE rooms SET active = ?2 WHERE code = ?1", params![room.as_ref(), i64::from(*active)])?;
        }
        _ => {}
    }
    Ok(())
}

fn answer(op: Op, result: Result<(), StorageError>) {
    match op {
        Op::CreateRoom { reply, .. } | Op::Append { reply, .. } | Op::SetActive { reply, .. } => {
            let _ = reply.send(result);
        }
        _ => {}
    }
}

fn fail(op: Op, error: &rusqlite::Error) {
    answer(op, Err(StorageError::Corrupt(format!("commit failed: {error}"))));
}

fn read(conn: &Connection, op: Op) {
    match op {
        Op::Load { room, reply } => {
            let _ = reply.send(load(conn, &room));
        }
        Op::ActiveRooms { reply } => {
            let result = (|| {
                let mut stmt = conn.prepare("SELECT code FROM rooms WHERE active = 1 ORDER BY created_at")?;
                let codes = stmt.query_map([], |row| row.get::<_, String>(0))?.collect::<Result<Vec<_>, _>>()?;
                Ok(codes)
            })();
            let _ = reply.send(result);
        }
        Op::FindTokens { hashes, reply } => {
            let result = (|| {
                let mut stmt = conn.prepare("SELECT room, participant FROM tokens WHERE hash = ?1")?;
                let mut found = Vec::new();
                for hash in &hashes {
                    let row = stmt
                        .query_row([hash], |row| Ok((row.get::<_, String>(0)?, row.get::<_, u32>(1)?)))
                        .optional()?;
                    found.extend(row);
                }
                Ok(found)
            })();
            let _ = reply.send(result);
        }
        write @ (Op::CreateRoom { .. } | Op::Append { .. } | Op::SetActive { .. }) => {
            answer(write, Err(StorageError::Corrupt("a write reached the read path".into())));
        }
    }
}

fn load(conn: &Connection, room: &str) -> Result<Option<StoredRoom>, StorageError> {
    let row = conn
        .query_row(
            "SELECT code, created_at, title, rules, options, master_seed FROM rooms WHERE code = ?1",
            [room],
            |row| {
                Ok((
                    row.get::<_, String>(0)?,
                    row.get::<_, i64>(1)?,
                    row.get::<_, String>(2)?,
                    row.get::<_, String>(3)?,
                    row.get::<_, String>(4)?,
                    row.get::<_, String>(5)?,
                ))
            },
        )
        .optional()?;
    let Some((code, created_at, title, rules, options, seed)) = row else { return Ok(None) };
    let corrupt = |what: &str| StorageError::Corrupt(format!("room {code}: {what}"));
    let meta = RoomMeta {
        rules: serde_json::from_str(&rules).map_err(|_| corrupt("rules"))?,
        options: serde_json::from_str(&options).map_err(|_| corrupt("options"))?,
        master: Seed::from_hex(&seed).ok_or_else(|| corrupt("seed"))?,
        created_at: u64::try_from(created_at).unwrap_or(0),
        title,
        code: code.clone(),
    };
    let mut stmt = conn.prepare("SELECT seq_before, record FROM records WHERE room = ?1 ORDER BY idx")?;
    let records = stmt
        .query_map([room], |row| {
            Ok(StoredRecord { seq_before: u64::try_from(row.get::<_, i64>(0)?).unwrap_or(0), json: row.get(1)? })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Some(StoredRoom { meta, records }))
}
