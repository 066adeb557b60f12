//! Durable storage: the interface the rooms, the tournaments and retention use, and its engines.
//!
//! A room is stored as its creation row (rules, options, the secret master seed) and the list of
//! every input it accepted (a [`Record`](crate::room::Record) as JSON, with the sequence number
//! the room stood at before it). Replaying the records through the rules crate rebuilds the room
//! exactly, so a record is written — and committed — **before** the action it holds is
//! acknowledged or broadcast. A tournament is stored the same way, as its list of records.
//!
//! [`Storage`] is the handle everyone holds (cheap to clone, async methods). It hands each
//! operation to an engine, a [`StorageEngine`] behind an `Arc<dyn _>`: a trait object rather than
//! an enum of engines, so that an engine is a module of its own that no other file matches on,
//! and the engine test suite takes any of them. The boxed future each call costs is small beside
//! the commit it waits for.
//!
//! Engines:
//! * [`sqlite`] — one SQLite file, written by one thread with group commit (the default; `--db`
//!   names the file, and `--sync`, `--checkpoint-ms` and `--wal-limit-pages` are its options).
//! * [`postgres`] — a PostgreSQL database, written by one task with group commit and read through
//!   a pool of connections beside it, on a thread of its own (`--db postgres://…`).
//!
//! # Adding an engine
//! 1. One module beside [`sqlite`] and [`postgres`] (a file, or a folder when it has several
//!    concerns) with a type implementing [`StorageEngine`] and an `open` that returns
//!    `(Storage, std::thread::JoinHandle<()>)` through [`Storage::from_engine`], as
//!    [`Storage::open_with`] does for SQLite and [`Storage::open_postgres`] for PostgreSQL. Its
//!    driver's errors get a variant of [`StorageError`] beside [`StorageError::Sqlite`].
//! 2. Its schema ladder in `server/migrations/<engine>/` (the files directly in
//!    `server/migrations/` are SQLite's, where earlier builds had them; see the README there).
//! 3. How `--db` names it (`config.rs`, [`crate::config::Database`]: a PostgreSQL URL, or else a
//!    SQLite file), its own options beside it, and the choice in `lib.rs::run`.
//! 4. Its tests: a `conformance::Harness` (a new empty store, opened again) and one line,
//!    `engine_suite!(TheHarness);`, as `sqlite/tests.rs` has, run the engine test suite on it:
//!    ordering, the group commit, refused writes, tokens, flags, retention, tournaments,
//!    deletion, formats, shutdown, durability across SIGKILL.
//!
//! The store holds master seeds and token hashes: it must stay private to the server.

use std::sync::Arc;
use std::time::Duration;

use fipsen_protocol::RoomOptions;
use fipsen_rules::{GameRules, Seed};
use futures_util::future::BoxFuture;

/// How far a commit is pushed to the disk before an action is acknowledged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum SyncMode {
    /// Every commit is on the disk (fsync) before the action is acknowledged: nothing
    /// acknowledged is lost, even if the machine loses power.
    #[default]
    Full,
    /// Commits reach the operating system, not the disk; the log is synced at checkpoints (a few
    /// times a second). Nothing acknowledged is lost when the server process crashes or is killed,
    /// but the last acknowledged actions can be lost when the machine loses power or the
    /// operating system crashes.
    Normal,
}

#[cfg(test)]
#[macro_use]
pub(crate) mod conformance;
pub mod postgres;
pub mod sqlite;

pub use sqlite::{SCHEMA_VERSION, StorageOptions};

/// Why storage failed.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    /// SQLite refused.
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// PostgreSQL refused, or could not be reached: the driver's or the connection pool's
    /// message, with its causes.
    #[error("PostgreSQL: {0}")]
    Postgres(String),
    /// A stored value could not be read back.
    #[error("stored data unreadable: {0}")]
    Corrupt(String),
    /// The engine is stopped (the server is stopping).
    #[error("storage is closed")]
    Closed,
    /// The database file cannot be created or kept private.
    #[error("database file: {0}")]
    File(String),
    /// The schema could not be brought to this build's version.
    #[error("schema migration: {0}")]
    Migration(String),
    /// A fenced write ([`Storage::append_fenced`]) carried a lease this server no longer holds:
    /// another server took the room over (or the lease ran out). Nothing of it is stored; the
    /// room must stop here.
    #[error("room {room}: the lease of epoch {epoch} is no longer this server's; another server owns the room")]
    Fenced {
        /// The room.
        room: String,
        /// The epoch the write carried.
        epoch: u64,
    },
    /// The engine serves one server alone and keeps no leases (SQLite): cluster mode needs an
    /// engine that several servers share.
    #[error("{0}: this storage engine serves one server; leases need PostgreSQL")]
    SingleServer(&'static str),
    /// The store was written by a newer build: its schema is past the last migration this build
    /// knows. The server does not open it (run the newer build, or restore a backup).
    #[error(
        "the database is at schema version {found}, newer than this build's {known}: \
         it was written by a newer build; run that build or restore a backup taken before the upgrade"
    )]
    TooNew {
        /// The store's schema version.
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
    /// Its number in the room's log, from 0, as read back (a restore checks that none is
    /// missing). A room's first records ([`Storage::create_room_under`]) are numbered in the
    /// order given, whatever this says.
    pub index: u64,
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

/// A record a room appends ([`Storage::append`]).
#[derive(Debug, Clone)]
pub struct NewRecord {
    /// The room's invite code.
    pub room: Arc<str>,
    /// The record's number in the room, from 0.
    pub index: u64,
    /// The room's sequence number before the record was applied.
    pub seq_before: u64,
    /// The record as JSON (stored in [`ROOM_RECORD_FORMAT`]).
    pub json: String,
    /// The seat token hash the record introduces, and its participant.
    pub token: Option<(String, u32)>,
    /// The lease the writing server holds on the room, in cluster mode: the record is stored
    /// only if the lease is still this one (see [`Fence`]).
    pub fence: Option<Fence>,
}

/// A server's lease on a room, in cluster mode: the room's owner and the fencing epoch every
/// write of the room carries. Each lease granted gets a higher epoch than the room's last, and
/// the store refuses a write whose epoch is not the room's live lease: a server that paused past
/// its lease (or lost it any other way) can no longer write, whatever it believes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fence {
    /// The server (its `--node-id`).
    pub node: Arc<str>,
    /// The lease's epoch, rising from 1.
    pub epoch: u64,
}

/// What a claim on a room's lease found ([`Storage::claim`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// The room is this server's, under this new lease.
    Granted(Fence),
    /// Another server holds a live lease on it.
    Held(Fence),
}

/// A room's lease as stored ([`Storage::owner`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lease {
    /// Who holds it, and its epoch.
    pub fence: Fence,
    /// It has not run out.
    pub live: bool,
}

/// A room as stored: its creation and its records in order.
#[derive(Debug, Clone)]
pub struct StoredRoom {
    /// The creation row.
    pub meta: RoomMeta,
    /// Every record, oldest first.
    pub records: Vec<StoredRecord>,
}

/// One finished deal of a room as the room's deal index keeps it ([`Storage::put_deals`]):
/// written when the deal ends, so that a series page or a replay reads the index rows and the
/// records of the deals it shows, never the room's whole log ([`crate::room::series_index`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DealEntry {
    /// The deal's number in the series, from 1.
    pub number: u32,
    /// The number of the record that dealt it (the start of the series, or a next deal).
    pub first: u64,
    /// The number of the record that ended it.
    pub last: u64,
    /// The rest, as JSON ([`crate::room::series_index`] writes and reads it): the series as the deal
    /// left it (hidden hands and the master seed included: storage only), who sat where.
    pub data: String,
}

/// Rows of a room's deal index ([`Storage::load_deals`]).
#[derive(Debug, Clone)]
pub struct StoredDeals {
    /// The room's creation row.
    pub meta: RoomMeta,
    /// The row of the last deal indexed, if any.
    pub latest: Option<DealEntry>,
    /// The rows asked for that are stored, in order of their numbers.
    pub deals: Vec<DealEntry>,
}

/// An operation under way in an engine: resolves once it is done (a write: committed, or
/// failed with nothing of it stored).
pub type Pending<'a, T> = BoxFuture<'a, Result<T, StorageError>>;

/// What an engine does: every operation of [`Storage`], with the same meaning (each
/// [`Storage`] method says it). The engine test suite (`conformance.rs`) holds an engine to
/// it.
///
/// A write resolves only once it is durable (as far as the engine's sync setting goes), and a
/// write that fails stores nothing of itself. Writes to one room or tournament are stored in
/// the order they were handed over; reads see every write acknowledged before them.
pub trait StorageEngine: Send + Sync + std::fmt::Debug {
    /// [`Storage::create_room_under`] (`fence`: the lease it is created under, in cluster mode).
    fn create_room(&self, meta: RoomMeta, records: Vec<StoredRecord>, fence: Option<Fence>) -> Pending<'_, ()>;
    /// [`Storage::append`].
    fn append(&self, record: NewRecord) -> Pending<'_, ()>;
    /// [`Storage::set_active_under`].
    fn set_active(&self, room: Arc<str>, active: bool, fence: Option<Fence>) -> Pending<'_, ()>;
    /// [`Storage::load`].
    fn load(&self, room: String) -> Pending<'_, Option<StoredRoom>>;
    /// [`Storage::load_meta`].
    fn load_meta(&self, room: String) -> Pending<'_, Option<RoomMeta>>;
    /// [`Storage::load_records`].
    fn load_records(&self, room: String, from: u64, to: u64) -> Pending<'_, Vec<StoredRecord>>;
    /// [`Storage::load_deals`].
    fn load_deals(&self, room: String, from: u32, count: u32) -> Pending<'_, Option<StoredDeals>>;
    /// [`Storage::put_deals`].
    fn put_deals(&self, room: Arc<str>, deals: Vec<DealEntry>) -> Pending<'_, ()>;
    /// [`Storage::active_rooms`].
    fn active_rooms(&self) -> Pending<'_, Vec<String>>;
    /// [`Storage::find_tokens`].
    fn find_tokens(&self, hashes: Vec<String>) -> Pending<'_, Vec<(String, u32)>>;
    /// [`Storage::delete_room_under`].
    fn delete_room(&self, room: Arc<str>, fence: Option<Fence>) -> Pending<'_, ()>;
    /// [`Storage::delete_closed_room`].
    fn delete_closed_room(&self, room: Arc<str>) -> Pending<'_, ()>;
    /// [`Storage::closed_before`].
    fn closed_before(&self, before_ms: u64) -> Pending<'_, Vec<String>>;
    /// [`Storage::create_tournament_under`].
    fn create_tournament(
        &self,
        id: String,
        created_at: u64,
        records: Vec<String>,
        fence: Option<Fence>,
    ) -> Pending<'_, ()>;
    /// [`Storage::append_tournament_under`].
    fn append_tournament(
        &self,
        id: String,
        index: u64,
        records: Vec<String>,
        finished: bool,
        fence: Option<Fence>,
    ) -> Pending<'_, ()>;
    /// [`Storage::load_tournament`].
    fn load_tournament(&self, id: String) -> Pending<'_, Option<StoredTournament>>;
    /// [`Storage::active_tournaments`].
    fn active_tournaments(&self) -> Pending<'_, Vec<String>>;
    /// [`Storage::probe`].
    fn probe(&self) -> Pending<'_, ()>;
    /// [`Storage::shutdown`].
    fn shutdown(&self) -> Pending<'_, ()>;

    // Leases, for cluster mode: an engine that serves one server alone keeps none (these
    // defaults refuse with [`StorageError::SingleServer`]).

    /// [`Storage::claim`].
    fn claim(&self, _room: Arc<str>, _node: Arc<str>, _ttl: Duration) -> Pending<'_, Claim> {
        single_server("claiming a room")
    }
    /// [`Storage::renew`].
    fn renew(&self, _node: Arc<str>, _ttl: Duration) -> Pending<'_, Vec<(String, u64)>> {
        single_server("renewing leases")
    }
    /// [`Storage::release`].
    fn release(&self, _room: Arc<str>, _fence: Fence) -> Pending<'_, ()> {
        single_server("releasing a room")
    }
    /// [`Storage::owner`].
    fn owner(&self, _room: String) -> Pending<'_, Option<Lease>> {
        single_server("finding a room's owner")
    }
    /// [`Storage::unowned`].
    fn unowned(&self, _limit: u32) -> Pending<'_, Vec<String>> {
        single_server("listing rooms without an owner")
    }
}

/// An engine's migration ladder (`(name, sql)`, oldest first) as refinery runs it, and a check
/// that refuses a store written by a newer build: shared by the engines' `schema.rs`.
pub(crate) struct Ladder {
    migrations: Vec<refinery::Migration>,
    /// The last version this build knows.
    known: i64,
}

impl Ladder {
    /// The ladder of `files`.
    ///
    /// # Errors
    /// A file's name is not `V<n>__<name>`.
    pub(crate) fn new(files: &[(&str, &str)]) -> Result<Ladder, StorageError> {
        let migrations = files
            .iter()
            .map(|(name, sql)| refinery::Migration::unapplied(name, sql))
            .collect::<Result<Vec<_>, _>>()
            .map_err(migration_failed)?;
        Ok(Ladder { known: migrations.len() as i64, migrations })
    }

    /// The runner that applies what a store lacks.
    pub(crate) fn runner(&self) -> refinery::Runner {
        refinery::Runner::new(&self.migrations)
    }

    /// Refuses a store whose last applied migration is past this build's.
    ///
    /// # Errors
    /// [`StorageError::TooNew`].
    pub(crate) fn refuse_newer(&self, last: Option<refinery::Migration>) -> Result<(), StorageError> {
        match last.map(|last| i64::from(last.version())) {
            Some(found) if found > self.known => Err(StorageError::TooNew { found, known: self.known }),
            _ => Ok(()),
        }
    }
}

/// Logs the migrations a run applied.
pub(crate) fn log_applied(report: &refinery::Report) {
    for migration in report.applied_migrations() {
        tracing::info!(version = migration.version(), name = migration.name(), "schema migrated");
    }
}

/// A migration's failure as a storage error.
pub(crate) fn migration_failed(e: refinery::Error) -> StorageError {
    StorageError::Migration(e.to_string())
}

/// The answer of an engine that keeps no leases.
fn single_server<T: Send + 'static>(what: &'static str) -> Pending<'static, T> {
    Box::pin(std::future::ready(Err(StorageError::SingleServer(what))))
}

/// A handle on the storage engine. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Storage {
    engine: Arc<dyn StorageEngine>,
}

impl Storage {
    /// A handle on this engine (an engine's `open` ends with it).
    pub fn from_engine(engine: Arc<dyn StorageEngine>) -> Storage {
        Storage { engine }
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
        self.engine.create_room(meta, records, None).await
    }

    /// Stores a new room as [`Storage::create_room_with`] does; in cluster mode under the lease
    /// `fence` (claimed before: the store refuses the room unless `fence` is its live lease, and
    /// keeps the epoch with each record).
    ///
    /// # Errors
    /// [`StorageError::Fenced`] when `fence` is not the room's live lease, or the write failed;
    /// the room does not exist.
    pub async fn create_room_under(
        &self,
        fence: Option<Fence>,
        meta: RoomMeta,
        records: Vec<StoredRecord>,
    ) -> Result<(), StorageError> {
        self.engine.create_room(meta, records, fence).await
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
        self.engine.create_tournament(id, created_at, records, None).await
    }

    /// Stores a new tournament as [`Storage::create_tournament`] does; in cluster mode under the
    /// lease `fence` of its key ([`crate::cluster::tournament_key`]), claimed before.
    ///
    /// # Errors
    /// [`StorageError::Fenced`] when `fence` is not the live lease, or the write failed.
    pub async fn create_tournament_under(
        &self,
        fence: Option<Fence>,
        id: String,
        created_at: u64,
        records: Vec<String>,
    ) -> Result<(), StorageError> {
        self.engine.create_tournament(id, created_at, records, fence).await
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
        self.engine.append_tournament(id, index, records, finished, None).await
    }

    /// Appends a tournament's records as [`Storage::append_tournament`] does; in cluster mode
    /// under the lease `fence` of its key: a server whose lease ran out (paused, cut off) cannot
    /// write the tournament any more.
    ///
    /// # Errors
    /// [`StorageError::Fenced`] when `fence` is not the live lease, or the write failed; none
    /// of the records is stored.
    pub async fn append_tournament_under(
        &self,
        fence: Option<Fence>,
        id: String,
        index: u64,
        records: Vec<String>,
        finished: bool,
    ) -> Result<(), StorageError> {
        self.engine.append_tournament(id, index, records, finished, fence).await
    }

    /// Reads a tournament's records.
    ///
    /// # Errors
    /// The read failed.
    pub async fn load_tournament(&self, id: &str) -> Result<Option<StoredTournament>, StorageError> {
        self.engine.load_tournament(id.to_string()).await
    }

    /// The ids of the tournaments not yet finished, oldest first.
    ///
    /// # Errors
    /// The read failed.
    pub async fn active_tournaments(&self) -> Result<Vec<String>, StorageError> {
        self.engine.active_tournaments().await
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
        self.engine.append(NewRecord { room, index, seq_before, json, token, fence: None }).await
    }

    /// Appends a room's record as [`Storage::append`] does, in cluster mode: stored only if
    /// `fence` is still the room's live lease, in the same transaction as the write, with its
    /// epoch beside the record.
    ///
    /// # Errors
    /// [`StorageError::Fenced`]: the lease is no longer this one (nothing is stored; the room
    /// must stop); or the write failed; the record is not stored.
    pub async fn append_fenced(&self, fence: Fence, record: NewRecord) -> Result<(), StorageError> {
        self.engine.append(NewRecord { fence: Some(fence), ..record }).await
    }

    /// Claims the lease of `room` for the server `node`, for `ttl`: granted, with an epoch above
    /// every earlier one of the room, when nobody holds a live lease on it or `node` itself does
    /// (a server claiming again starts a new lease: writes under its older one are refused);
    /// otherwise the live holder. The store's clock decides what is live, not the servers'.
    ///
    /// # Errors
    /// The store failed, or keeps no leases ([`StorageError::SingleServer`]).
    pub async fn claim(&self, room: Arc<str>, node: Arc<str>, ttl: Duration) -> Result<Claim, StorageError> {
        self.engine.claim(room, node, ttl).await
    }

    /// Extends every live lease of `node` by `ttl` from now, and returns the rooms it still
    /// holds with their epochs: a room missing from the answer was lost (its lease ran out) and
    /// must stop at once.
    ///
    /// # Errors
    /// The store failed (no lease was extended), or keeps no leases.
    pub async fn renew(&self, node: Arc<str>, ttl: Duration) -> Result<Vec<(String, u64)>, StorageError> {
        self.engine.renew(node, ttl).await
    }

    /// Ends the lease `fence` on `room` now, if it is still that one, so that another server may
    /// claim the room at once (a graceful hand-over).
    ///
    /// # Errors
    /// The store failed, or keeps no leases.
    pub async fn release(&self, room: Arc<str>, fence: Fence) -> Result<(), StorageError> {
        self.engine.release(room, fence).await
    }

    /// The lease of `room`, live or run out; `None` if it never had one.
    ///
    /// # Errors
    /// The store failed, or keeps no leases.
    pub async fn owner(&self, room: &str) -> Result<Option<Lease>, StorageError> {
        self.engine.owner(room.to_string()).await
    }

    /// Up to `limit` rooms open in memory (marked active) that no server holds a live lease on,
    /// oldest first: the rooms of a server that died, for the others to take over.
    ///
    /// # Errors
    /// The store failed, or keeps no leases.
    pub async fn unowned(&self, limit: u32) -> Result<Vec<String>, StorageError> {
        self.engine.unowned(limit).await
    }

    /// Marks a room open in memory (restored at start) or closed (loaded on demand).
    ///
    /// # Errors
    /// The write failed.
    pub async fn set_active(&self, room: Arc<str>, active: bool) -> Result<(), StorageError> {
        self.engine.set_active(room, active, None).await
    }

    /// Marks a room open or closed as [`Storage::set_active`] does; in cluster mode under the
    /// room's lease `fence`.
    ///
    /// # Errors
    /// [`StorageError::Fenced`] when `fence` is not the room's live lease, or the write failed.
    pub async fn set_active_under(
        &self,
        fence: Option<Fence>,
        room: Arc<str>,
        active: bool,
    ) -> Result<(), StorageError> {
        self.engine.set_active(room, active, fence).await
    }

    /// Reads a room and its records.
    ///
    /// # Errors
    /// The read failed or the row is unreadable.
    pub async fn load(&self, room: &str) -> Result<Option<StoredRoom>, StorageError> {
        self.engine.load(room.to_string()).await
    }

    /// Reads a room's creation row alone (one small row, however long its history): what a
    /// request checks a key against before it reads any record.
    ///
    /// # Errors
    /// The read failed or the row is unreadable.
    pub async fn load_meta(&self, room: &str) -> Result<Option<RoomMeta>, StorageError> {
        self.engine.load_meta(room.to_string()).await
    }

    /// Reads a room's records numbered from `from` up to (not including) `to`, in order: what a
    /// series page or a replay reads of a room's log, the deals it shows and nothing else.
    ///
    /// # Errors
    /// The read failed.
    pub async fn load_records(&self, room: &str, from: u64, to: u64) -> Result<Vec<StoredRecord>, StorageError> {
        self.engine.load_records(room.to_string(), from, to).await
    }

    /// Reads a room's creation row, the row of its last indexed deal, and the rows of deals
    /// `from` to `from + count - 1` that its deal index holds; `None` if the room does not
    /// exist.
    ///
    /// # Errors
    /// The read failed or the creation row is unreadable.
    pub async fn load_deals(&self, room: &str, from: u32, count: u32) -> Result<Option<StoredDeals>, StorageError> {
        self.engine.load_deals(room.to_string(), from, count).await
    }

    /// Stores rows of a room's deal index, each replacing the row of its number if there is one.
    /// Unfenced in cluster mode: a row follows from the room's stored records alone, so that
    /// whoever writes it writes the same.
    ///
    /// # Errors
    /// The write failed; none of the rows is stored.
    pub async fn put_deals(&self, room: Arc<str>, deals: Vec<DealEntry>) -> Result<(), StorageError> {
        if deals.is_empty() {
            return Ok(());
        }
        self.engine.put_deals(room, deals).await
    }

    /// The codes of the rooms that were open when the server stopped, oldest first.
    ///
    /// # Errors
    /// The read failed.
    pub async fn active_rooms(&self) -> Result<Vec<String>, StorageError> {
        self.engine.active_rooms().await
    }

    /// The rooms and participants these token hashes belong to, in the order of the hashes
    /// (an unknown hash is left out).
    ///
    /// # Errors
    /// The read failed.
    pub async fn find_tokens(&self, hashes: Vec<String>) -> Result<Vec<(String, u32)>, StorageError> {
        self.engine.find_tokens(hashes).await
    }

    /// Deletes a room, its records, its deal index and its seat tokens for good.
    ///
    /// # Errors
    /// The write failed; nothing was deleted.
    pub async fn delete_room(&self, room: Arc<str>) -> Result<(), StorageError> {
        self.engine.delete_room(room, None).await
    }

    /// Deletes a room as [`Storage::delete_room`] does; in cluster mode under the room's lease
    /// `fence` (its lease goes with it).
    ///
    /// # Errors
    /// [`StorageError::Fenced`] when `fence` is not the room's live lease, or the write failed;
    /// nothing was deleted.
    pub async fn delete_room_under(&self, fence: Option<Fence>, room: Arc<str>) -> Result<(), StorageError> {
        self.engine.delete_room(room, fence).await
    }

    /// Deletes a room as [`Storage::delete_room`] does, but only if it is closed in memory
    /// (not marked active) and, in cluster mode, no server holds a live lease on it: a room
    /// someone opened meanwhile stays.
    ///
    /// # Errors
    /// The write failed; nothing was deleted.
    pub async fn delete_closed_room(&self, room: Arc<str>) -> Result<(), StorageError> {
        self.engine.delete_closed_room(room).await
    }

    /// The rooms closed in memory (not active) since before `before_ms` (milliseconds since
    /// 1970; a room closed before closing times were kept counts from its creation), except
    /// the tables of tournaments not yet finished (a restart opens the tables of the round
    /// being played again), by code.
    ///
    /// # Errors
    /// The read failed.
    pub async fn closed_before(&self, before_ms: u64) -> Result<Vec<String>, StorageError> {
        self.engine.closed_before(before_ms).await
    }

    /// Writes one tiny row (the time of the check), committed like any record: succeeds only if
    /// storage can write.
    ///
    /// # Errors
    /// The write failed.
    pub async fn probe(&self) -> Result<(), StorageError> {
        self.engine.probe().await
    }

    /// Stops the engine for every handle: the operations handed over before this one are
    /// finished (the writes committed), the store is closed and the engine's thread ends; once
    /// this has resolved, every operation fails with [`StorageError::Closed`]. Dropping every
    /// handle stops the engine the same way, without waiting.
    ///
    /// # Errors
    /// The engine was already stopped.
    pub async fn shutdown(&self) -> Result<(), StorageError> {
        self.engine.shutdown().await
    }
}
