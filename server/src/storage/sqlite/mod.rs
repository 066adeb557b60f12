//! The SQLite engine: one file, written by one thread with group commit.
//!
//! The writer thread takes every operation waiting in its queue into one transaction, so many
//! rooms share one `fsync`; reads taken in the same batch are answered after that commit.
//!
//! Checkpoints (copying the write-ahead log into the database file) never run inside a commit:
//! the writer's connection has automatic checkpoints off, and a second thread with its own
//! connection runs `PASSIVE` checkpoints beside the writer. Because the log can only start over
//! once a checkpoint has copied all of it, and the writer keeps appending while a checkpoint
//! runs, the writer finishes one off itself between two transactions whenever the checkpoint
//! thread has found the log grown past [`StorageOptions::wal_limit_frames`]; that last step only
//! copies what was appended during the checkpoint before it. The checkpoint thread runs at a
//! lower scheduling priority (like the background threads): a checkpoint copies up to thousands
//! of pages at a time, and on a busy core it waits for the rooms' moves and their commits instead
//! of holding them up. It never holds the writer: a writer waiting for a thread of lower
//! priority would wait for everything else on the core.
//!
//! The schema's migration ladder is `server/migrations/V<n>__<name>.sql`, up to [`SCHEMA_VERSION`].
//!
//! The file holds master seeds and token hashes: it must stay private to the server.

mod checkpoint;
mod queries;
mod schema;
#[cfg(test)]
mod tests;
mod writer;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use futures_util::FutureExt as _;
use rusqlite::Connection;
use tokio::sync::{mpsc, oneshot};

pub use self::schema::SCHEMA_VERSION;
use super::{
    DealEntry, Fence, NewRecord, Pending, RoomMeta, Storage, StorageEngine, StorageError, StoredDeals, StoredRecord,
    StoredRoom, StoredTournament,
};
use crate::metrics::Metrics;
use crate::storage::SyncMode;

/// How the storage writes: how far a commit goes before it is acknowledged, and when the
/// write-ahead log is copied into the database file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StorageOptions {
    /// How commits reach the disk.
    pub sync: SyncMode,
    /// How often the checkpoint thread looks at the log (when something was committed since).
    pub checkpoint_interval: Duration,
    /// Log frames (pages) beyond which the writer finishes a checkpoint itself between two
    /// commits, so that the log can start over.
    pub wal_limit_frames: i64,
}

impl Default for StorageOptions {
    /// `synchronous=FULL`, a checkpoint every 200 ms, the log started over past 16,384 frames
    /// (64 MiB with 4 KiB pages).
    fn default() -> StorageOptions {
        StorageOptions {
            sync: SyncMode::Full,
            checkpoint_interval: Duration::from_millis(200),
            wal_limit_frames: 16_384,
        }
    }
}

type Reply<T> = oneshot::Sender<Result<T, StorageError>>;

/// An operation handed to the writer thread, with where its answer goes.
enum Op {
    CreateRoom { meta: RoomMeta, records: Vec<StoredRecord>, reply: Reply<()> },
    CreateTournament { id: String, created_at: u64, records: Vec<String>, reply: Reply<()> },
    AppendTournament { id: String, index: u64, records: Vec<String>, finished: bool, reply: Reply<()> },
    LoadTournament { id: String, reply: Reply<Option<StoredTournament>> },
    ActiveTournaments { reply: Reply<Vec<String>> },
    Append { room: Arc<str>, index: u64, seq_before: u64, json: String, token: Option<(String, u32)>, reply: Reply<()> },
    SetActive { room: Arc<str>, active: bool, reply: Reply<()> },
    Load { room: String, reply: Reply<Option<StoredRoom>> },
    LoadMeta { room: String, reply: Reply<Option<RoomMeta>> },
    LoadRecords { room: String, from: u64, to: u64, reply: Reply<Vec<StoredRecord>> },
    LoadDeals { room: String, from: u32, count: u32, reply: Reply<Option<StoredDeals>> },
    PutDeals { room: Arc<str>, deals: Vec<DealEntry>, reply: Reply<()> },
    ActiveRooms { reply: Reply<Vec<String>> },
    FindTokens { hashes: Vec<String>, reply: Reply<Vec<(String, u32)>> },
    Probe { reply: Reply<()> },
    DeleteRoom { room: Arc<str>, only_closed: bool, reply: Reply<()> },
    Closed { before_ms: u64, reply: Reply<Vec<String>> },
    Shutdown { reply: Reply<()> },
}

impl std::fmt::Debug for Op {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Op")
    }
}

/// The SQLite engine as the handle sees it: the writer thread's queue.
#[derive(Debug)]
struct Sqlite {
    tx: mpsc::Sender<Op>,
}

impl Sqlite {
    /// Hands an operation to the writer thread and waits for its answer.
    fn call<T: Send + 'static>(&self, make: impl FnOnce(Reply<T>) -> Op) -> Pending<'_, T> {
        let (reply, rx) = oneshot::channel();
        let op = make(reply);
        async move {
            self.tx.send(op).await.map_err(|_| StorageError::Closed)?;
            rx.await.map_err(|_| StorageError::Closed)?
        }
        .boxed()
    }
}

impl StorageEngine for Sqlite {
    fn create_room(&self, meta: RoomMeta, records: Vec<StoredRecord>, fence: Option<Fence>) -> Pending<'_, ()> {
        if fence.is_some() {
            return refuse_fenced();
        }
        self.call(|reply| Op::CreateRoom { meta, records, reply })
    }

    fn append(&self, NewRecord { room, index, seq_before, json, token, fence }: NewRecord) -> Pending<'_, ()> {
        if fence.is_some() {
            return refuse_fenced();
        }
        self.call(|reply| Op::Append { room, index, seq_before, json, token, reply })
    }

    fn set_active(&self, room: Arc<str>, active: bool, fence: Option<Fence>) -> Pending<'_, ()> {
        if fence.is_some() {
            return refuse_fenced();
        }
        self.call(|reply| Op::SetActive { room, active, reply })
    }

    fn load(&self, room: String) -> Pending<'_, Option<StoredRoom>> {
        self.call(|reply| Op::Load { room, reply })
    }

    fn load_meta(&self, room: String) -> Pending<'_, Option<RoomMeta>> {
        self.call(|reply| Op::LoadMeta { room, reply })
    }

    fn load_records(&self, room: String, from: u64, to: u64) -> Pending<'_, Vec<StoredRecord>> {
        self.call(|reply| Op::LoadRecords { room, from, to, reply })
    }

    fn load_deals(&self, room: String, from: u32, count: u32) -> Pending<'_, Option<StoredDeals>> {
        self.call(|reply| Op::LoadDeals { room, from, count, reply })
    }

    fn put_deals(&self, room: Arc<str>, deals: Vec<DealEntry>) -> Pending<'_, ()> {
        self.call(|reply| Op::PutDeals { room, deals, reply })
    }

    fn active_rooms(&self) -> Pending<'_, Vec<String>> {
        self.call(|reply| Op::ActiveRooms { reply })
    }

    fn find_tokens(&self, hashes: Vec<String>) -> Pending<'_, Vec<(String, u32)>> {
        self.call(|reply| Op::FindTokens { hashes, reply })
    }

    fn delete_room(&self, room: Arc<str>, fence: Option<Fence>) -> Pending<'_, ()> {
        if fence.is_some() {
            return refuse_fenced();
        }
        self.call(|reply| Op::DeleteRoom { room, only_closed: false, reply })
    }

    fn delete_closed_room(&self, room: Arc<str>) -> Pending<'_, ()> {
        self.call(|reply| Op::DeleteRoom { room, only_closed: true, reply })
    }

    fn closed_before(&self, before_ms: u64) -> Pending<'_, Vec<String>> {
        self.call(|reply| Op::Closed { before_ms, reply })
    }

    fn create_tournament(
        &self,
        id: String,
        created_at: u64,
        records: Vec<String>,
        fence: Option<Fence>,
    ) -> Pending<'_, ()> {
        if fence.is_some() {
            return refuse_fenced();
        }
        self.call(|reply| Op::CreateTournament { id, created_at, records, reply })
    }

    fn append_tournament(
        &self,
        id: String,
        index: u64,
        records: Vec<String>,
        finished: bool,
        fence: Option<Fence>,
    ) -> Pending<'_, ()> {
        if fence.is_some() {
            return refuse_fenced();
        }
        self.call(|reply| Op::AppendTournament { id, index, records, finished, reply })
    }

    fn load_tournament(&self, id: String) -> Pending<'_, Option<StoredTournament>> {
        self.call(|reply| Op::LoadTournament { id, reply })
    }

    fn active_tournaments(&self) -> Pending<'_, Vec<String>> {
        self.call(|reply| Op::ActiveTournaments { reply })
    }

    fn probe(&self) -> Pending<'_, ()> {
        self.call(|reply| Op::Probe { reply })
    }

    fn shutdown(&self) -> Pending<'_, ()> {
        self.call(|reply| Op::Shutdown { reply })
    }
}

impl Storage {
    /// Opens (or creates) the SQLite file with `synchronous=FULL` and starts the writer and
    /// checkpoint threads.
    ///
    /// # Errors
    /// The file cannot be opened or its tables created.
    pub fn open(path: &Path, metrics: Arc<Metrics>) -> Result<(Storage, std::thread::JoinHandle<()>), StorageError> {
        Storage::open_with(path, metrics, StorageOptions::default())
    }

    /// Opens (or creates) the SQLite file and starts the writer and checkpoint threads. The
    /// writer thread (returned) ends once every handle is dropped or [`Storage::shutdown`] is
    /// called, after the file is closed.
    ///
    /// # Errors
    /// The file cannot be opened or its tables created.
    pub fn open_with(
        path: &Path,
        metrics: Arc<Metrics>,
        options: StorageOptions,
    ) -> Result<(Storage, std::thread::JoinHandle<()>), StorageError> {
        let sync = options.sync;
        schema::keep_private(path)?;
        let mut conn = Connection::open(path)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        // FULL: a commit is on disk before the server acknowledges, even across a power cut.
        // NORMAL: the log is synced at checkpoints only; a commit survives a crash of the process.
        let synchronous = match sync {
            SyncMode::Full => "FULL",
            SyncMode::Normal => "NORMAL",
        };
        conn.pragma_update(None, "synchronous", synchronous)?;
        // The checkpoint thread checkpoints; a commit never does.
        conn.pragma_update(None, "wal_autocheckpoint", 0)?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(Duration::from_secs(5))?;
        schema::migrate(&mut conn)?;
        let checkpoints = Connection::open(path)?;
        // Checkpoints sync the log before and the database file after copying, in both modes.
        checkpoints.pragma_update(None, "synchronous", synchronous)?;
        checkpoints.pragma_update(None, "wal_autocheckpoint", 0)?;
        let shared = Arc::new(checkpoint::Shared::default());
        let (stop, stopped) = std::sync::mpsc::channel::<()>();
        let checkpoint_shared = shared.clone();
        let checkpoint_metrics = metrics.clone();
        let checkpointer = std::thread::Builder::new()
            .name("fipsen-checkpoint".into())
            .spawn(move || {
                crate::background::lower_priority();
                checkpoint::run(&checkpoints, options, &checkpoint_shared, &checkpoint_metrics, &stopped);
            })
            .map_err(|e| StorageError::Corrupt(format!("cannot start the checkpoint thread: {e}")))?;
        let (tx, rx) = mpsc::channel(4096);
        let handle = std::thread::Builder::new()
            .name("fipsen-storage".into())
            .spawn(move || {
                let mut writer = writer::Writer::new(conn, shared);
                let shutdowns = writer.run(rx, &metrics);
                // Closes the file, then ends the checkpoint thread and waits for it to close its
                // connection too.
                drop(writer);
                drop(stop);
                let _ = checkpointer.join();
                for reply in shutdowns {
                    let _ = reply.send(Ok(()));
                }
            })
            .map_err(|e| StorageError::Corrupt(format!("cannot start the storage thread: {e}")))?;
        Ok((Storage::from_engine(Arc::new(Sqlite { tx })), handle))
    }
}

/// One server alone writes an SQLite file: a fenced write (cluster mode's) is a mistake of the
/// caller, refused.
fn refuse_fenced() -> Pending<'static, ()> {
    Box::pin(std::future::ready(Err(StorageError::SingleServer("a fenced write"))))
}
