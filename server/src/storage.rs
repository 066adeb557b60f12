//! Durable storage: one SQLite file, written by one thread with group commit.
//!
//! A room is stored as its creation row (rules, options, the secret master seed) and the list of
//! every input it accepted (a [`Record`](crate::room::Record) as JSON, with the sequence number
//! the room stood at before it). Replaying the records through the rules crate rebuilds the room
//! exactly, so a record is written — and committed — **before** the action it holds is
//! acknowledged or broadcast. The writer thread takes every write waiting in its queue into one
//! transaction, so many rooms share one `fsync`.
//!
//! Checkpoints (copying the write-ahead log into the database file) never run inside a commit:
//! the writer's connection has automatic checkpoints off, and a second thread with its own
//! connection runs `PASSIVE` checkpoints beside the writer. Because the log can only start over
//! once a checkpoint has copied all of it, and the writer keeps appending while a checkpoint
//! runs, the checkpoint thread finishes one off with the writer held between two transactions
//! whenever the log has grown past [`StorageOptions::wal_limit_frames`]; that last step only copies what was
//! appended during the checkpoint before it.
//!
//! The file holds master seeds and token hashes: it must stay private to the server.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use fipsen_protocol::RoomOptions;
use fipsen_rules::{GameRules, Seed};
use rusqlite::{Connection, OptionalExtension, params};
use tokio::sync::{mpsc, oneshot};

use crate::config::SyncMode;
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
    /// The database file cannot be created or kept private.
    #[error("database file: {0}")]
    File(String),
    /// The schema could not be brought to this build's version.
    #[error("schema migration: {0}")]
    Migration(String),
    /// The file was written by a newer build: its schema is past the last migration this build
    /// knows. The server does not open it (run the newer build, or restore a backup).
    #[error(
        "the database is at schema version {found}, newer than this build's {known}: \
         it was written by a newer build; run that build or restore a backup taken before the upgrade"
    )]
    TooNew {
        /// The file's schema version.
        found: i64,
        /// The last version this build knows.
        known: i64,
    },
}

/// The format of the room records this build writes ([`StoredRecord::format`]). A change to the
/// stored form of [`crate::room::Record`] that an older build could not read raises it (and
/// adds a migration when the schema changes too).
pub const ROOM_RECORD_FORMAT: u32 = 1;

/// The format of the tournament records this build writes.
pub const TOURNAMENT_RECORD_FORMAT: u32 = 1;

/// The schema's migration ladder, oldest first: `server/migrations/V<n>__<name>.sql`. A
/// migration, once released, is never edited: a change adds the next one.
const MIGRATIONS: [(&str, &str); 2] = [
    ("V1__initial", include_str!("../migrations/V1__initial.sql")),
    ("V2__record_format", include_str!("../migrations/V2__record_format.sql")),
];

/// The schema version this build brings a file to: the last migration's.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// Brings the file's schema to [`SCHEMA_VERSION`] through the migration ladder, oldest first,
/// each in its own transaction.
///
/// A file written before the ladder (its tables exist, but no migration is recorded) is adopted:
/// the columns later added by hand are added if it lacks them, so that it holds the first
/// migration's schema, which then finds every table in place. A file at a version past this
/// build's is refused ([`StorageError::TooNew`]) and left unchanged.
///
/// # Errors
/// The file is too new, or a migration failed (the file stays at the last migration that
/// succeeded).
fn migrate(conn: &mut Connection) -> Result<(), StorageError> {
    let failed = |e: refinery::Error| StorageError::Migration(e.to_string());
    let migrations = MIGRATIONS
        .iter()
        .map(|(name, sql)| refinery::Migration::unapplied(name, sql))
        .collect::<Result<Vec<_>, _>>()
        .map_err(failed)?;
    let runner = refinery::Runner::new(&migrations);
    let ladder = conn
        .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'refinery_schema_history'")?
        .exists([])?;
    if ladder {
        if let Some(last) = runner.get_last_applied_migration(conn).map_err(failed)? {
            let found = i64::from(last.version());
            if found > SCHEMA_VERSION {
                return Err(StorageError::TooNew { found, known: SCHEMA_VERSION });
            }
        }
    } else {
        adopt_unversioned(conn)?;
    }
    let report = runner.run(conn).map_err(failed)?;
    for migration in report.applied_migrations() {
        tracing::info!(version = migration.version(), name = migration.name(), "schema migrated");
    }
    Ok(())
}

/// Gives a file written before the migration ladder the first migration's schema: builds before
/// tournaments and before closing times were kept lack a column of `rooms` each.
fn adopt_unversioned(conn: &Connection) -> Result<(), StorageError> {
    let has_rooms = conn.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'rooms'")?.exists([])?;
    if !has_rooms {
        return Ok(());
    }
    for (column, kind) in [("tournament", "TEXT"), ("closed_at", "INTEGER")] {
        let has = conn.prepare("SELECT 1 FROM pragma_table_info('rooms') WHERE name = ?1")?.exists([column])?;
        if !has {
            conn.execute_batch(&format!("ALTER TABLE rooms ADD COLUMN {column} {kind}"))?;
        }
    }
    tracing::info!("adopting a database written before schema migrations were recorded");
    Ok(())
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
    pub rules: GameRules,
    /// The room's options as created (later changes are records).
    pub options: RoomOptions,
    /// The series' master seed. Secret: never logged, never sent.
    pub master: Seed,
    /// The tournament this room is a table of, as JSON ([`crate::tournaments::TableLink`]);
    /// `None` for an ordinary room.
    pub tournament: Option<String>,
}

/// One stored record of a room.
#[derive(Debug, Clone)]
pub struct StoredRecord {
    /// The room's sequence number before the record was applied.
    pub seq_before: u64,
    /// The record as JSON.
    pub json: String,
    /// The format it was written in ([`ROOM_RECORD_FORMAT`] when this build wrote it).
    pub format: u32,
}

/// A tournament as stored: its records in order, as JSON
/// ([`crate::tournaments`] reads them).
#[derive(Debug, Clone)]
pub struct StoredTournament {
    /// The link code.
    pub id: String,
    /// Milliseconds since 1970.
    pub created_at: u64,
    /// Every record, oldest first.
    pub records: Vec<String>,
    /// The format each record was written in ([`TOURNAMENT_RECORD_FORMAT`] when this build
    /// wrote it), in the order of `records`.
    pub formats: Vec<u32>,
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
    CreateRoom { meta: RoomMeta, records: Vec<StoredRecord>, reply: Reply<()> },
    CreateTournament { id: String, created_at: u64, records: Vec<String>, reply: Reply<()> },
    AppendTournament { id: String, index: u64, records: Vec<String>, finished: bool, reply: Reply<()> },
    LoadTournament { id: String, reply: Reply<Option<StoredTournament>> },
    ActiveTournaments { reply: Reply<Vec<String>> },
    Append { room: Arc<str>, index: u64, seq_before: u64, json: String, token: Option<(String, u32)>, reply: Reply<()> },
    SetActive { room: Arc<str>, active: bool, reply: Reply<()> },
    Load { room: String, reply: Reply<Option<StoredRoom>> },
    ActiveRooms { reply: Reply<Vec<String>> },
    FindTokens { hashes: Vec<String>, reply: Reply<Vec<(String, u32)>> },
    Probe { reply: Reply<()> },
    DeleteRoom { room: Arc<str>, only_closed: bool, reply: Reply<()> },
    Closed { before_ms: u64, reply: Reply<Vec<String>> },
}

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
        )
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

/// How the storage writes: how far a commit goes before it is acknowledged, and when the
/// write-ahead log is copied into the database file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StorageOptions {
    /// How commits reach the disk.
    pub sync: SyncMode,
    /// How often the checkpoint thread looks at the log (when something was committed since).
    pub checkpoint_interval: Duration,
    /// Log frames (pages) beyond which the checkpoint thread holds the writer for a moment so
    /// that the log can start over.
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

/// The database holds every room's secret seed and the hashes of its tokens: the file is
/// created readable and writable by its owner only, and an existing one readable by others is
/// made so too. SQLite gives its `-wal` and `-shm` files the database file's mode, so they follow
/// (existing ones are corrected here as well).
///
/// # Errors
/// The file cannot be created or its mode changed.
fn keep_private(path: &Path) -> Result<(), StorageError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt as _, PermissionsExt as _};
        let failed = |e: std::io::Error| StorageError::File(format!("cannot keep {} private: {e}", path.display()));
        match std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(path) {
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(failed(e)),
        }
        let mut companions = [path.as_os_str().to_owned(), path.as_os_str().to_owned()];
        companions[0].push("-wal");
        companions[1].push("-shm");
        for file in std::iter::once(path).chain(companions.iter().map(Path::new)) {
            let Ok(metadata) = std::fs::metadata(file) else { continue };
            let mode = metadata.permissions().mode();
            if mode & 0o077 != 0 {
                std::fs::set_permissions(file, std::fs::Permissions::from_mode(mode & 0o700)).map_err(failed)?;
                tracing::warn!(
                    file = %file.display(),
                    was = format_args!("{:o}", mode & 0o777),
                    now = format_args!("{:o}", mode & 0o700),
                    "the database was readable by others than its owner: it is no longer"
                );
            }
        }
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

impl Storage {
    /// Opens (or creates) the database file with `synchronous=FULL` and starts the writer and
    /// checkpoint threads.
    ///
    /// # Errors
    /// The file cannot be opened or its tables created.
    pub fn open(path: &Path, metrics: Arc<Metrics>) -> Result<(Storage, std::thread::JoinHandle<()>), StorageError> {
        Storage::open_with(path, metrics, StorageOptions::default())
    }

    /// Opens (or creates) the database file and starts the writer and checkpoint threads.
    ///
    /// # Errors
    /// The file cannot be opened or its tables created.
    pub fn open_with(
        path: &Path,
        metrics: Arc<Metrics>,
        options: StorageOptions,
    ) -> Result<(Storage, std::thread::JoinHandle<()>), StorageError> {
        let sync = options.sync;
        keep_private(path)?;
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
        migrate(&mut conn)?;
        let checkpoints = Connection::open(path)?;
        // Checkpoints sync the log before and the database file after copying, in both modes.
        checkpoints.pragma_update(None, "synchronous", synchronous)?;
        checkpoints.pragma_update(None, "wal_autocheckpoint", 0)?;
        let shared = Arc::new(Shared { gate: Mutex::new(()), commits: AtomicU64::new(0) });
        let (stop, stopped) = std::sync::mpsc::channel::<()>();
        let checkpoint_shared = shared.clone();
        let checkpoint_metrics = metrics.clone();
        std::thread::Builder::new()
            .name("fipsen-checkpoint".into())
            .spawn(move || checkpointer(&checkpoints, options, &checkpoint_shared, &checkpoint_metrics, &stopped))
            .map_err(|e| StorageError::Corrupt(format!("cannot start the checkpoint thread: {e}")))?;
        let (tx, rx) = mpsc::channel(4096);
        let handle = std::thread::Builder::new()
            .name("fipsen-storage".into())
            .spawn(move || {
                let mut writer = Writer { conn, shared, restored: HashMap::new(), known_active: HashSet::new() };
                writer.run(rx, &metrics);
                // Ends the checkpoint thread.
                drop(stop);
            })
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
        self.create_room_with(meta, Vec::new()).await
    }

    /// Stores a new room with its first records (numbered from 0), in one transaction: a
    /// tournament table, seated and started (its token hashes are the entrants', kept by the
    /// tournament, so none is added to the room tokens).
    ///
    /// # Errors
    /// The write failed; the room does not exist.
    pub async fn create_room_with(&self, meta: RoomMeta, records: Vec<StoredRecord>) -> Result<(), StorageError> {
        self.call(|reply| Op::CreateRoom { meta, records, reply }).await
    }

    /// Stores a new tournament with its first records.
    ///
    /// # Errors
    /// The write failed; the tournament does not exist.
    pub async fn create_tournament(
        &self,
        id: String,
        created_at: u64,
        records: Vec<String>,
    ) -> Result<(), StorageError> {
        self.call(|reply| Op::CreateTournament { id, created_at, records, reply }).await
    }

    /// Appends a tournament's records from number `index` on, in one transaction, and marks it
    /// finished if `finished`. Returns once they are committed.
    ///
    /// # Errors
    /// The write failed; none of the records is stored.
    pub async fn append_tournament(
        &self,
        id: String,
        index: u64,
        records: Vec<String>,
        finished: bool,
    ) -> Result<(), StorageError> {
        self.call(|reply| Op::AppendTournament { id, index, records, finished, reply }).await
    }

    /// Reads a tournament's records.
    ///
    /// # Errors
    /// The read failed.
    pub async fn load_tournament(&self, id: &str) -> Result<Option<StoredTournament>, StorageError> {
        let id = id.to_string();
        self.call(|reply| Op::LoadTournament { id, reply }).await
    }

    /// The ids of the tournaments not yet finished, oldest first.
    ///
    /// # Errors
    /// The read failed.
    pub async fn active_tournaments(&self) -> Result<Vec<String>, StorageError> {
        self.call(|reply| Op::ActiveTournaments { reply }).await
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

    /// Deletes a room, its records and its seat tokens for good.
    ///
    /// # Errors
    /// The write failed; nothing was deleted.
    pub async fn delete_room(&self, room: Arc<str>) -> Result<(), StorageError> {
        self.call(|reply| Op::DeleteRoom { room, only_closed: false, reply }).await
    }

    /// Deletes a room as [`Storage::delete_room`] does, but only if it is closed in memory
    /// (not marked active): a room someone opened meanwhile stays.
    ///
    /// # Errors
    /// The write failed; nothing was deleted.
    pub async fn delete_closed_room(&self, room: Arc<str>) -> Result<(), StorageError> {
        self.call(|reply| Op::DeleteRoom { room, only_closed: true, reply }).await
    }

    /// The rooms closed in memory (not active) since before `before_ms` (milliseconds since
    /// 1970; a room closed before closing times were kept counts from its creation), except
    /// the tables of tournaments not yet finished (a restart opens the tables of the round
    /// being played again).
    ///
    /// # Errors
    /// The read failed.
    pub async fn closed_before(&self, before_ms: u64) -> Result<Vec<String>, StorageError> {
        self.call(|reply| Op::Closed { before_ms, reply }).await
    }

    /// Writes one tiny row (the time of the check), committed like any record: succeeds only if
    /// storage can write.
    ///
    /// # Errors
    /// The write failed.
    pub async fn probe(&self) -> Result<(), StorageError> {
        self.call(|reply| Op::Probe { reply }).await
    }
}

/// What the writer and the checkpoint thread share.
#[derive(Debug)]
struct Shared {
    /// Held by the writer for each batch, and by the checkpoint thread to finish a checkpoint
    /// with no commit running.
    gate: Mutex<()>,
    /// Write transactions committed so far.
    commits: AtomicU64,
}

/// The writer thread's state.
struct Writer {
    conn: Connection,
    shared: Arc<Shared>,
    /// The rooms read in one go by [`Op::ActiveRooms`], until they are loaded.
    restored: HashMap<String, StoredRoom>,
    /// Rooms known to be marked active in the file: marking them active again writes nothing.
    known_active: HashSet<String>,
}

impl Writer {
    fn run(&mut self, mut rx: mpsc::Receiver<Op>, metrics: &Metrics) {
        // Everything queued while the previous batch was being committed goes into the next one.
        while let Some(first) = rx.blocking_recv() {
            let mut batch = vec![first];
            while batch.len() < BATCH {
                match rx.try_recv() {
                    Ok(op) => batch.push(op),
                    Err(_) => break,
                }
            }
            let shared = self.shared.clone();
            let _gate = shared.gate.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
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
                self.read(op);
            }
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
                    None => load(&self.conn, &room),
                };
                let _ = reply.send(result);
            }
            Op::ActiveRooms { reply } => {
                let result = load_active(&self.conn).map(|(codes, rooms)| {
                    self.known_active = codes.iter().cloned().collect();
                    self.restored = rooms;
                    codes
                });
                let _ = reply.send(result);
            }
            Op::FindTokens { hashes, reply } => {
                let result = (|| {
                    let mut stmt = self.conn.prepare_cached("SELECT room, participant FROM tokens WHERE hash = ?1")?;
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
            Op::LoadTournament { id, reply } => {
                let _ = reply.send(load_tournament(&self.conn, &id));
            }
            Op::ActiveTournaments { reply } => {
                let result = (|| {
                    let mut stmt = self
                        .conn
                        .prepare_cached("SELECT id FROM tournaments WHERE finished = 0 ORDER BY created_at")?;
                    let ids = stmt.query_map([], |row| row.get::<_, String>(0))?.collect::<Result<Vec<_>, _>>()?;
                    Ok(ids)
                })();
                let _ = reply.send(result);
            }
            Op::Closed { before_ms, reply } => {
                let result = (|| {
                    let mut stmt = self.conn.prepare_cached(
                        "SELECT code FROM rooms WHERE active = 0 AND COALESCE(closed_at, created_at) < ?1
                         AND (tournament IS NULL OR json_extract(tournament, '$.tournament') NOT IN
                              (SELECT id FROM tournaments WHERE finished = 0))
                         ORDER BY code",
                    )?;
                    let before = i64::try_from(before_ms).unwrap_or(i64::MAX);
                    let codes =
                        stmt.query_map([before], |row| row.get::<_, String>(0))?.collect::<Result<Vec<_>, _>>()?;
                    Ok(codes)
                })();
                let _ = reply.send(result);
            }
            write @ (Op::CreateRoom { .. }
            | Op::Append { .. }
            | Op::SetActive { .. }
            | Op::Probe { .. }
            | Op::CreateTournament { .. }
            | Op::AppendTournament { .. }
            | Op::DeleteRoom { .. }) => {
                answer(write, Err(StorageError::Corrupt("a write reached the read path".into())));
            }
        }
    }
}

/// One `PASSIVE` checkpoint: (frames in the log, frames copied to the database file).
fn passive_checkpoint(conn: &Connection) -> Result<(i64, i64), rusqlite::Error> {
    conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |row| Ok((row.get::<_, i64>(1)?, row.get::<_, i64>(2)?)))
}

/// The checkpoint thread: a `PASSIVE` checkpoint every `checkpoint_interval` if something was
/// committed, beside the writer; when the log has grown past `wal_limit_frames`, one more with
/// the writer held, so that the next commit starts the log over. Ends when the writer ends.
fn checkpointer(
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
            Ok(frames) => frames,
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
            let _gate = shared.gate.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            let started = Instant::now();
            if let Err(e) = passive_checkpoint(conn) {
                tracing::warn!(error = %e, "checkpoint failed");
            }
            metrics.observe_checkpoint(started.elapsed(), true);
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
                    "DELETE FROM tokens WHERE room = ?1",
                    "DELETE FROM rooms WHERE code = ?1",
                ] {
                    tx.prepare_cached(sql)?.execute([room.as_ref()])?;
                }
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
        | Op::DeleteRoom { reply, .. } => {
            let _ = reply.send(result);
        }
        _ => {}
    }
}

fn fail(op: Op, error: &rusqlite::Error) {
    answer(op, Err(StorageError::Corrupt(format!("commit failed: {error}"))));
}

/// The columns of a room's creation row, as read.
const ROOM_COLUMNS: &str = "code, created_at, title, rules, options, master_seed, tournament";

type RoomRow = (String, i64, String, String, String, String, Option<String>);

fn room_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<RoomRow> {
    Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?, row.get(4)?, row.get(5)?, row.get(6)?))
}

fn room_meta((code, created_at, title, rules, options, seed, tournament): RoomRow) -> Result<RoomMeta, StorageError> {
    let corrupt = |what: &str| StorageError::Corrupt(format!("room {code}: {what}"));
    Ok(RoomMeta {
        rules: serde_json::from_str(&rules).map_err(|_| corrupt("rules"))?,
        options: serde_json::from_str(&options).map_err(|_| corrupt("options"))?,
        master: Seed::from_hex(&seed).ok_or_else(|| corrupt("seed"))?,
        created_at: u64::try_from(created_at).unwrap_or(0),
        title,
        code: code.clone(),
        tournament,
    })
}

fn load_tournament(conn: &Connection, id: &str) -> Result<Option<StoredTournament>, StorageError> {
    let created_at = conn
        .prepare_cached("SELECT created_at FROM tournaments WHERE id = ?1")?
        .query_row([id], |row| row.get::<_, i64>(0))
        .optional()?;
    let Some(created_at) = created_at else { return Ok(None) };
    let mut stmt =
        conn.prepare_cached("SELECT record, format FROM tournament_records WHERE tournament = ?1 ORDER BY idx")?;
    let (records, formats) = stmt
        .query_map([id], |row| Ok((row.get::<_, String>(0)?, row.get::<_, u32>(1)?)))?
        .collect::<Result<(Vec<_>, Vec<_>), _>>()?;
    Ok(Some(StoredTournament {
        id: id.to_string(),
        created_at: u64::try_from(created_at).unwrap_or(0),
        records,
        formats,
    }))
}

fn record_row(row: &rusqlite::Row<'_>, first: usize) -> rusqlite::Result<StoredRecord> {
    Ok(StoredRecord {
        seq_before: u64::try_from(row.get::<_, i64>(first)?).unwrap_or(0),
        json: row.get(first + 1)?,
        format: row.get(first + 2)?,
    })
}

fn load(conn: &Connection, room: &str) -> Result<Option<StoredRoom>, StorageError> {
    let row = conn
        .prepare_cached(&format!("SELECT {ROOM_COLUMNS} FROM rooms WHERE code = ?1"))?
        .query_row([room], room_row)
        .optional()?;
    let Some(row) = row else { return Ok(None) };
    let meta = room_meta(row)?;
    let mut stmt =
        conn.prepare_cached("SELECT seq_before, record, format FROM records WHERE room = ?1 ORDER BY idx")?;
    let records = stmt.query_map([room], |row| record_row(row, 0))?.collect::<Result<Vec<_>, _>>()?;
    Ok(Some(StoredRoom { meta, records }))
}

/// Every active room with its records, oldest room first, in two queries. A room whose creation
/// row cannot be read is left out here (its code is still listed), so that loading it on its own
/// reports the error.
fn load_active(conn: &Connection) -> Result<(Vec<String>, HashMap<String, StoredRoom>), StorageError> {
    let mut stmt = conn.prepare(&format!("SELECT {ROOM_COLUMNS} FROM rooms WHERE active = 1 ORDER BY created_at"))?;
    let rows = stmt.query_map([], room_row)?.collect::<Result<Vec<_>, _>>()?;
    let codes: Vec<String> = rows.iter().map(|row| row.0.clone()).collect();
    let mut rooms: HashMap<String, StoredRoom> = rows
        .into_iter()
        .filter_map(|row| room_meta(row).ok())
        .map(|meta| (meta.code.clone(), StoredRoom { meta, records: Vec::new() }))
        .collect();
    let mut stmt = conn.prepare(
        "SELECT r.room, r.seq_before, r.record, r.format FROM records r JOIN rooms m ON m.code = r.room \
         WHERE m.active = 1 ORDER BY r.room, r.idx",
    )?;
    let mut rows = stmt.query([])?;
    while let Some(row) = rows.next()? {
        let code = row.get_ref(0)?.as_str().map_err(rusqlite::Error::from)?;
        if let Some(room) = rooms.get_mut(code) {
            room.records.push(record_row(row, 1)?);
        }
    }
    Ok((codes, rooms))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(code: &str, created_at: u64) -> RoomMeta {
        RoomMeta {
            code: code.into(),
            created_at,
            title: format!("Room {code}"),
            rules: GameRules::default(),
            options: RoomOptions::default(),
            master: Seed([created_at as u8; 32]),
            tournament: None,
        }
    }

    async fn fill(storage: &Storage, code: &str, created_at: u64, records: u64) {
        storage.create_room(meta(code, created_at)).await.expect("create");
        for i in 0..records {
            let token = (i == 0).then(|| (format!("hash-{code}"), 0));
            storage.append(Arc::from(code), i, i * 2, format!("{{\"r\":{i}}}"), token).await.expect("append");
        }
    }

    /// The tables of a tournament not yet finished are kept past the retention; once it is
    /// finished they go like any series.
    #[tokio::test]
    async fn retention_keeps_the_tables_of_tournaments_not_yet_finished() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (storage, _writer) =
            Storage::open(&dir.path().join("t.sqlite3"), Arc::new(Metrics::default())).expect("open");
        storage.create_tournament("TTTT".into(), 1, vec!["{}".into()]).await.expect("tournament");
        let table = RoomMeta { tournament: Some(r#"{"tournament":"TTTT","name":"T"}"#.into()), ..meta("TAB1", 1) };
        storage.create_room(table).await.expect("table");
        fill(&storage, "ROOM", 1, 0).await;
        for code in ["TAB1", "ROOM"] {
            storage.set_active(Arc::from(code), false).await.expect("close");
        }
        let later = u64::MAX / 2;
        assert_eq!(storage.closed_before(later).await.expect("closed"), vec!["ROOM".to_string()]);
        storage.append_tournament("TTTT".into(), 1, vec!["{}".into()], true).await.expect("finish");
        assert_eq!(storage.closed_before(later).await.expect("closed"), vec!["ROOM".to_string(), "TAB1".to_string()]);
    }

    /// The checkpoint settings take effect: a commit that writes more pages than the log limit
    /// makes the next checkpoint hold the writer so that the log starts over; with a limit the
    /// log never reaches, checkpoints only run beside the writer.
    #[tokio::test]
    async fn the_log_limit_decides_when_a_checkpoint_holds_the_writer() {
        for (limit, held) in [(256, true), (i64::MAX, false)] {
            let dir = tempfile::tempdir().expect("tempdir");
            let metrics = Arc::new(Metrics::default());
            let options = StorageOptions {
                sync: SyncMode::Normal,
                checkpoint_interval: Duration::from_millis(10),
                wal_limit_frames: limit,
            };
            let (storage, _writer) =
                Storage::open_with(&dir.path().join("t.sqlite3"), metrics.clone(), options).expect("open");
            storage.create_room(meta("ROOM", 1)).await.expect("create");
            // About 2 MiB in one commit: some 500 pages of 4 KiB.
            let big = format!("{{\"r\":\"{}\"}}", "x".repeat(2 << 20));
            storage.append(Arc::from("ROOM"), 0, 0, big, None).await.expect("append");
            let seen =
                |m: &Metrics| if held { m.checkpoint_held_latency.count() } else { m.checkpoint_latency.count() };
            for _ in 0..500 {
                if seen(&metrics) > 0 {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            assert!(metrics.checkpoint_latency.count() > 0, "a checkpoint ran");
            assert_eq!(metrics.checkpoint_held_latency.count() > 0, held, "limit {limit}");
        }
    }

    fn records(room: &StoredRoom) -> Vec<(u64, String)> {
        room.records.iter().map(|r| (r.seq_before, r.json.clone())).collect()
    }

    /// The rooms read in one go at start-up are the rooms as stored, a write after loading is
    /// seen by the next load, and the active flags written or skipped survive a restart.
    #[tokio::test]
    async fn rooms_read_at_start_up_are_the_stored_rooms_and_writes_stay_visible() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("t.sqlite3");
        {
            let (storage, _writer) = Storage::open(&path, Arc::new(Metrics::default())).expect("open");
            fill(&storage, "AAAA", 1, 5).await;
            fill(&storage, "BBBB", 2, 3).await;
            fill(&storage, "CCCC", 3, 0).await;
            storage.set_active(Arc::from("BBBB"), false).await.expect("close");
        }
        let (storage, _writer) = Storage::open(&path, Arc::new(Metrics::default())).expect("reopen");
        assert_eq!(storage.active_rooms().await.expect("active"), vec!["AAAA".to_string(), "CCCC".to_string()]);
        let a = storage.load("AAAA").await.expect("load").expect("AAAA stored");
        assert_eq!(a.meta.title, "Room AAAA");
        assert_eq!(a.meta.master.to_hex(), Seed([1; 32]).to_hex());
        assert_eq!(records(&a), (0..5).map(|i| (i * 2, format!("{{\"r\":{i}}}"))).collect::<Vec<_>>());
        let b = storage.load("BBBB").await.expect("load").expect("BBBB stored");
        assert_eq!(records(&b).len(), 3);
        assert!(storage.load("DDDD").await.expect("load").is_none());
        let c = storage.load("CCCC").await.expect("load").expect("CCCC stored");
        assert!(c.records.is_empty());
        // Marking an active room active again; then a record appended after it was loaded.
        storage.set_active(Arc::from("AAAA"), true).await.expect("mark");
        storage.append(Arc::from("AAAA"), 5, 10, "{\"r\":5}".into(), None).await.expect("append");
        let a = storage.load("AAAA").await.expect("load").expect("AAAA stored");
        assert_eq!(records(&a).len(), 6);
        assert_eq!(records(&a)[5], (10, "{\"r\":5}".to_string()));
        storage.set_active(Arc::from("CCCC"), false).await.expect("close");
        storage.set_active(Arc::from("BBBB"), true).await.expect("open");
        assert_eq!(
            storage.find_tokens(vec!["hash-AAAA".into(), "hash-BBBB".into(), "nope".into()]).await.expect("tokens"),
            vec![("AAAA".to_string(), 0), ("BBBB".to_string(), 0)]
        );
        drop(storage);
        let (storage, _writer) = Storage::open(&path, Arc::new(Metrics::default())).expect("reopen");
        assert_eq!(storage.active_rooms().await.expect("active"), vec!["AAAA".to_string(), "BBBB".to_string()]);
    }

    /// The schema as builds before the migration ladder created it, before tournaments and
    /// closing times were kept (the oldest shape such a file has).
    const UNVERSIONED_SCHEMA: &str = "CREATE TABLE rooms (code TEXT PRIMARY KEY, created_at INTEGER NOT NULL,
            title TEXT NOT NULL, rules TEXT NOT NULL, options TEXT NOT NULL, master_seed TEXT NOT NULL,
            active INTEGER NOT NULL DEFAULT 1);
         CREATE TABLE records (room TEXT NOT NULL REFERENCES rooms(code), idx INTEGER NOT NULL,
            seq_before INTEGER NOT NULL, record TEXT NOT NULL, PRIMARY KEY (room, idx)) WITHOUT ROWID;
         CREATE TABLE tokens (hash TEXT PRIMARY KEY, room TEXT NOT NULL REFERENCES rooms(code),
            participant INTEGER NOT NULL) WITHOUT ROWID;
         CREATE TABLE health (id INTEGER PRIMARY KEY, checked_at INTEGER NOT NULL);";

    /// Every table's columns (name, type, not null, default, key position), by table.
    /// A column as `pragma_table_info` lists it: name, type, not null, default, key position.
    type Column = (String, String, bool, Option<String>, i64);

    fn columns(path: &Path) -> Vec<(String, Vec<Column>)> {
        let conn = Connection::open(path).expect("open");
        let tables: Vec<String> = conn
            .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            .expect("tables")
            .query_map([], |row| row.get(0))
            .expect("tables")
            .collect::<Result<_, _>>()
            .expect("tables");
        tables
            .into_iter()
            .filter(|t| t != "refinery_schema_history")
            .map(|table| {
                let columns = conn
                    .prepare("SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?1)")
                    .expect("columns")
                    .query_map([&table], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?, row.get(4)?)))
                    .expect("columns")
                    .collect::<Result<_, _>>()
                    .expect("columns");
                (table, columns)
            })
            .collect()
    }

    fn applied(path: &Path) -> Vec<i64> {
        let conn = Connection::open(path).expect("open");
        conn.prepare("SELECT version FROM refinery_schema_history ORDER BY version")
            .expect("history")
            .query_map([], |row| row.get(0))
            .expect("history")
            .collect::<Result<_, _>>()
            .expect("history")
    }

    /// A file written before the ladder (without the later columns, or with them) is adopted:
    /// its rooms load as they were, their records are of the first format, it ends with the
    /// schema a new file gets, and every migration is recorded as applied.
    #[tokio::test]
    async fn a_file_written_before_the_migration_ladder_is_adopted() {
        let dir = tempfile::tempdir().expect("tempdir");
        let fresh = dir.path().join("fresh.sqlite3");
        drop(Storage::open(&fresh, Arc::new(Metrics::default())).expect("open a new file"));
        for with_later_columns in [false, true] {
            let path = dir.path().join(format!("old-{with_later_columns}.sqlite3"));
            {
                let conn = Connection::open(&path).expect("create");
                conn.execute_batch(UNVERSIONED_SCHEMA).expect("old schema");
                if with_later_columns {
                    conn.execute_batch(
                        "ALTER TABLE rooms ADD COLUMN tournament TEXT; ALTER TABLE rooms ADD COLUMN closed_at INTEGER;
                         CREATE TABLE tournaments (id TEXT PRIMARY KEY, created_at INTEGER NOT NULL,
                            finished INTEGER NOT NULL DEFAULT 0);
                         CREATE TABLE tournament_records (tournament TEXT NOT NULL REFERENCES tournaments(id),
                            idx INTEGER NOT NULL, record TEXT NOT NULL, PRIMARY KEY (tournament, idx)) WITHOUT ROWID;
                         INSERT INTO tournaments VALUES ('TTTT', 5, 0);
                         INSERT INTO tournament_records VALUES ('TTTT', 0, '{}');",
                    )
                    .expect("later columns");
                }
                let m = meta("OLDR", 7);
                conn.execute(
                    "INSERT INTO rooms (code, created_at, title, rules, options, master_seed) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    params![
                        m.code,
                        7,
                        m.title,
                        serde_json::to_string(&m.rules).expect("rules"),
                        serde_json::to_string(&m.options).expect("options"),
                        m.master.to_hex()
                    ],
                )
                .expect("room");
                conn.execute_batch(
                    "INSERT INTO records VALUES ('OLDR', 0, 0, '{\"r\":0}'), ('OLDR', 1, 3, '{\"r\":1}');
                     INSERT INTO tokens VALUES ('hash-OLDR', 'OLDR', 0);",
                )
                .expect("records");
            }
            let (storage, _writer) = Storage::open(&path, Arc::new(Metrics::default())).expect("adopt");
            let room = storage.load("OLDR").await.expect("load").expect("stored");
            assert_eq!(room.meta.title, "Room OLDR");
            assert_eq!(records(&room), vec![(0, "{\"r\":0}".to_string()), (3, "{\"r\":1}".to_string())]);
            assert!(room.records.iter().all(|r| r.format == 1));
            assert_eq!(storage.active_rooms().await.expect("active"), vec!["OLDR".to_string()]);
            assert_eq!(storage.find_tokens(vec!["hash-OLDR".into()]).await.expect("tokens"), vec![("OLDR".into(), 0)]);
            if with_later_columns {
                let t = storage.load_tournament("TTTT").await.expect("load").expect("tournament");
                assert_eq!((t.records, t.formats), (vec!["{}".to_string()], vec![1]));
            }
            // Written on after adoption, closed and counted for retention like any room.
            storage.append(Arc::from("OLDR"), 2, 4, "{}".into(), None).await.expect("append");
            storage.set_active(Arc::from("OLDR"), false).await.expect("close");
            assert_eq!(storage.closed_before(u64::MAX / 2).await.expect("closed"), vec!["OLDR".to_string()]);
            drop(storage);
            assert_eq!(columns(&path), columns(&fresh), "adopted with later columns: {with_later_columns}");
            assert_eq!(applied(&path), (1..=SCHEMA_VERSION).collect::<Vec<_>>());
        }
        assert_eq!(applied(&fresh), (1..=SCHEMA_VERSION).collect::<Vec<_>>());
    }

    /// A file a newer build migrated past this build's last migration is refused with a clear
    /// error, and left as it was.
    #[test]
    fn a_file_from_a_newer_build_is_refused() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("t.sqlite3");
        drop(Storage::open(&path, Arc::new(Metrics::default())).expect("open"));
        let newer = SCHEMA_VERSION + 1;
        Connection::open(&path)
            .expect("open")
            .execute_batch(&format!(
                "CREATE TABLE later (x INTEGER);
                 INSERT INTO refinery_schema_history (version, name, applied_on, checksum)
                 VALUES ({newer}, 'later', '2030-01-01T00:00:00Z', '1')"
            ))
            .expect("a later migration");
        let before = columns(&path);
        let error = Storage::open(&path, Arc::new(Metrics::default())).expect_err("a newer file is refused");
        assert!(matches!(error, StorageError::TooNew { found, known } if found == newer && known == SCHEMA_VERSION));
        let message = error.to_string();
        assert!(message.contains(&format!("schema version {newer}")) && message.contains("newer build"), "{message}");
        assert_eq!(columns(&path), before);
        assert_eq!(applied(&path), (1..=newer).collect::<Vec<_>>());
    }

    /// Every record is stored with the format this build writes, and read back with the format
    /// it was stored with.
    #[tokio::test]
    async fn records_name_their_format() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("t.sqlite3");
        let (storage, _writer) = Storage::open(&path, Arc::new(Metrics::default())).expect("open");
        fill(&storage, "AAAA", 1, 2).await;
        storage
            .create_room_with(
                meta("BBBB", 2),
                vec![StoredRecord { seq_before: 0, json: "{}".into(), format: ROOM_RECORD_FORMAT }],
            )
            .await
            .expect("create");
        storage.create_tournament("TTTT".into(), 1, vec!["{}".into()]).await.expect("tournament");
        storage.append_tournament("TTTT".into(), 1, vec!["{}".into()], false).await.expect("append");
        drop(storage);
        let conn = Connection::open(&path).expect("open");
        let formats = |sql: &str| -> Vec<u32> {
            conn.prepare(sql)
                .expect("formats")
                .query_map([], |row| row.get(0))
                .expect("formats")
                .collect::<Result<_, _>>()
                .expect("formats")
        };
        assert_eq!(formats("SELECT format FROM records ORDER BY room, idx"), vec![ROOM_RECORD_FORMAT; 3]);
        assert_eq!(formats("SELECT format FROM tournament_records ORDER BY idx"), vec![TOURNAMENT_RECORD_FORMAT; 2]);
        conn.execute_batch(
            "UPDATE records SET format = 7 WHERE room = 'AAAA' AND idx = 1;
             UPDATE tournament_records SET format = 9 WHERE idx = 0;",
        )
        .expect("a newer format");
        drop(conn);
        let (storage, _writer) = Storage::open(&path, Arc::new(Metrics::default())).expect("reopen");
        let a = storage.load("AAAA").await.expect("load").expect("stored");
        assert_eq!(a.records.iter().map(|r| r.format).collect::<Vec<_>>(), vec![ROOM_RECORD_FORMAT, 7]);
        let t = storage.load_tournament("TTTT").await.expect("load").expect("stored");
        assert_eq!(t.formats, vec![9, TOURNAMENT_RECORD_FORMAT]);
    }
}
