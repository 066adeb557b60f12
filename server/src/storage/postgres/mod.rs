//! The PostgreSQL engine: one database, written by one task with group commit, read through a
//! pool of connections beside it.
//!
//! The engine runs on a thread of its own with its own single-threaded runtime, so that it works
//! the same whether the caller is the server's runtime or a test's. Every operation goes through
//! one queue, in the order it was handed over: the writes to the writer task, which takes every
//! write waiting into one transaction (each write in a savepoint of its own when there are
//! several, so that one that fails leaves nothing behind while the others are committed) and
//! answers them once it is committed; the reads each to a task of their own with a pooled connection, answered as soon
//! as they are read. One writer keeps the writes to a room or a tournament in the order they were
//! handed over; a read sees every write acknowledged before it was handed over, since a write is
//! only acknowledged once committed. The engine keeps no copy of what is stored.
//!
//! A commit whose answer is lost with the connection (the database or the network failed at that
//! moment) is reported as failed, though PostgreSQL may have stored it; no engine over a network
//! can tell. The room then holds a record number the store already has, and its next append
//! fails until it is opened again from what is stored.
//!
//! The connection is plain (no TLS): the database belongs on a private network, on the same
//! machine, or behind a unix socket (`postgres://user@%2Frun%2Fpostgresql/fipsen` or
//! `?host=/run/postgresql`). The URL's user must be allowed to create tables in its database
//! (the first start creates them).
//!
//! The schema's migration ladder is `server/migrations/postgres/V<n>__<name>.sql`, up to
//! [`SCHEMA_VERSION`], applied at start with the database locked against another server doing
//! the same; the records are stored in the same versioned formats as SQLite's.
//!
//! Cluster mode (several servers on one database) gives each room a lease (`leases.rs`): the
//! `room_leases` table holds each room's owner, its fencing epoch and until when (the database's
//! clock), and a fenced append checks, in the same savepoint as its insert, that its lease is
//! still the room's live one (`writer.rs`), storing the epoch beside the record. A server whose
//! lease was taken over, or ran out while it was paused, can no longer write to that room.
//!
//! The database holds master seeds and token hashes: it must stay private to the server.

mod connect;
mod dispatch;
mod leases;
mod queries;
mod schema;
#[cfg(test)]
mod tests;
mod writer;

use std::sync::Arc;

use futures_util::FutureExt as _;
use tokio::sync::{mpsc, oneshot};

pub use self::connect::{display_url, is_url};
pub use self::schema::SCHEMA_VERSION;
use super::{
    Claim, DealEntry, Fence, Lease, NewRecord, Pending, RoomMeta, Storage, StorageEngine, StorageError, StoredDeals,
    StoredRecord, StoredRoom, StoredTournament,
};
use crate::metrics::Metrics;

type Reply<T> = oneshot::Sender<Result<T, StorageError>>;

/// An operation handed to the engine, with where its answer goes.
enum Op {
    Write(Write),
    Read(Read),
    Lease(leases::LeaseOp),
    Shutdown(Reply<()>),
}

/// A write: answered once committed, or failed with nothing of it stored.
enum Write {
    CreateRoom {
        meta: RoomMeta,
        records: Vec<StoredRecord>,
        fence: Option<Fence>,
        reply: Reply<()>,
    },
    CreateTournament {
        id: String,
        created_at: u64,
        records: Vec<String>,
        fence: Option<Fence>,
        reply: Reply<()>,
    },
    AppendTournament {
        id: String,
        index: u64,
        records: Vec<String>,
        finished: bool,
        fence: Option<Fence>,
        reply: Reply<()>,
    },
    Append {
        record: NewRecord,
        reply: Reply<()>,
    },
    SetActive {
        room: Arc<str>,
        active: bool,
        fence: Option<Fence>,
        reply: Reply<()>,
    },
    DeleteRoom {
        room: Arc<str>,
        only_closed: bool,
        fence: Option<Fence>,
        reply: Reply<()>,
    },
    PutDeals {
        room: Arc<str>,
        deals: Vec<DealEntry>,
        reply: Reply<()>,
    },
    Probe {
        reply: Reply<()>,
    },
}

/// A read.
enum Read {
    Load { room: String, reply: Reply<Option<StoredRoom>> },
    LoadMeta { room: String, reply: Reply<Option<RoomMeta>> },
    LoadRecords { room: String, from: u64, to: u64, reply: Reply<Vec<StoredRecord>> },
    LoadDeals { room: String, from: u32, count: u32, reply: Reply<Option<StoredDeals>> },
    ActiveRooms { reply: Reply<Vec<String>> },
    FindTokens { hashes: Vec<String>, reply: Reply<Vec<(String, u32)>> },
    Closed { before_ms: u64, reply: Reply<Vec<String>> },
    LoadTournament { id: String, reply: Reply<Option<StoredTournament>> },
    ActiveTournaments { reply: Reply<Vec<String>> },
}

/// The PostgreSQL engine as the handle sees it: the engine thread's queue.
#[derive(Debug)]
struct Postgres {
    tx: mpsc::Sender<Op>,
}

impl Postgres {
    /// Hands an operation to the engine thread and waits for its answer.
    fn call<T: Send + 'static>(&self, make: impl FnOnce(Reply<T>) -> Op) -> Pending<'_, T> {
        let (reply, rx) = oneshot::channel();
        let op = make(reply);
        async move {
            self.tx.send(op).await.map_err(|_| StorageError::Closed)?;
            rx.await.map_err(|_| StorageError::Closed)?
        }
        .boxed()
    }

    fn write(&self, make: impl FnOnce(Reply<()>) -> Write) -> Pending<'_, ()> {
        self.call(|reply| Op::Write(make(reply)))
    }

    fn read<T: Send + 'static>(&self, make: impl FnOnce(Reply<T>) -> Read) -> Pending<'_, T> {
        self.call(|reply| Op::Read(make(reply)))
    }

    fn lease<T: Send + 'static>(&self, make: impl FnOnce(Reply<T>) -> leases::LeaseOp) -> Pending<'_, T> {
        self.call(|reply| Op::Lease(make(reply)))
    }
}

impl StorageEngine for Postgres {
    fn create_room(&self, meta: RoomMeta, records: Vec<StoredRecord>, fence: Option<Fence>) -> Pending<'_, ()> {
        self.write(|reply| Write::CreateRoom { meta, records, fence, reply })
    }

    fn append(&self, record: NewRecord) -> Pending<'_, ()> {
        self.write(|reply| Write::Append { record, reply })
    }

    fn set_active(&self, room: Arc<str>, active: bool, fence: Option<Fence>) -> Pending<'_, ()> {
        self.write(|reply| Write::SetActive { room, active, fence, reply })
    }

    fn load(&self, room: String) -> Pending<'_, Option<StoredRoom>> {
        self.read(|reply| Read::Load { room, reply })
    }

    fn load_meta(&self, room: String) -> Pending<'_, Option<RoomMeta>> {
        self.read(|reply| Read::LoadMeta { room, reply })
    }

    fn load_records(&self, room: String, from: u64, to: u64) -> Pending<'_, Vec<StoredRecord>> {
        self.read(|reply| Read::LoadRecords { room, from, to, reply })
    }

    fn load_deals(&self, room: String, from: u32, count: u32) -> Pending<'_, Option<StoredDeals>> {
        self.read(|reply| Read::LoadDeals { room, from, count, reply })
    }

    fn put_deals(&self, room: Arc<str>, deals: Vec<DealEntry>) -> Pending<'_, ()> {
        self.write(|reply| Write::PutDeals { room, deals, reply })
    }

    fn active_rooms(&self) -> Pending<'_, Vec<String>> {
        self.read(|reply| Read::ActiveRooms { reply })
    }

    fn find_tokens(&self, hashes: Vec<String>) -> Pending<'_, Vec<(String, u32)>> {
        self.read(|reply| Read::FindTokens { hashes, reply })
    }

    fn delete_room(&self, room: Arc<str>, fence: Option<Fence>) -> Pending<'_, ()> {
        self.write(|reply| Write::DeleteRoom { room, only_closed: false, fence, reply })
    }

    fn delete_closed_room(&self, room: Arc<str>) -> Pending<'_, ()> {
        self.write(|reply| Write::DeleteRoom { room, only_closed: true, fence: None, reply })
    }

    fn closed_before(&self, before_ms: u64) -> Pending<'_, Vec<String>> {
        self.read(|reply| Read::Closed { before_ms, reply })
    }

    fn create_tournament(
        &self,
        id: String,
        created_at: u64,
        records: Vec<String>,
        fence: Option<Fence>,
    ) -> Pending<'_, ()> {
        self.write(|reply| Write::CreateTournament { id, created_at, records, fence, reply })
    }

    fn append_tournament(
        &self,
        id: String,
        index: u64,
        records: Vec<String>,
        finished: bool,
        fence: Option<Fence>,
    ) -> Pending<'_, ()> {
        self.write(|reply| Write::AppendTournament { id, index, records, finished, fence, reply })
    }

    fn load_tournament(&self, id: String) -> Pending<'_, Option<StoredTournament>> {
        self.read(|reply| Read::LoadTournament { id, reply })
    }

    fn active_tournaments(&self) -> Pending<'_, Vec<String>> {
        self.read(|reply| Read::ActiveTournaments { reply })
    }

    fn probe(&self) -> Pending<'_, ()> {
        self.write(|reply| Write::Probe { reply })
    }

    fn shutdown(&self) -> Pending<'_, ()> {
        self.call(Op::Shutdown)
    }

    fn claim(&self, room: Arc<str>, node: Arc<str>, ttl: std::time::Duration) -> Pending<'_, Claim> {
        self.lease(|reply| leases::LeaseOp::Claim { room, node, ttl, reply })
    }

    fn renew(&self, node: Arc<str>, ttl: std::time::Duration) -> Pending<'_, Vec<(String, u64)>> {
        self.lease(|reply| leases::LeaseOp::Renew { node, ttl, reply })
    }

    fn release(&self, room: Arc<str>, fence: Fence) -> Pending<'_, ()> {
        self.lease(|reply| leases::LeaseOp::Release { room, fence, reply })
    }

    fn owner(&self, room: String) -> Pending<'_, Option<Lease>> {
        self.lease(|reply| leases::LeaseOp::Owner { room, reply })
    }

    fn unowned(&self, limit: u32) -> Pending<'_, Vec<String>> {
        self.lease(|reply| leases::LeaseOp::Unowned { limit, reply })
    }
}

impl Storage {
    /// Connects to the PostgreSQL database at `url` (`postgres://…` or `postgresql://…`, plain,
    /// without TLS), brings its schema to [`SCHEMA_VERSION`] and starts the engine's thread. The
    /// thread (returned) ends once every handle is dropped or [`Storage::shutdown`] is called,
    /// after its connections are closed.
    ///
    /// # Errors
    /// The URL is not one, the database cannot be reached, it was written by a newer build
    /// ([`StorageError::TooNew`]), or its schema cannot be brought to this build's.
    pub fn open_postgres(
        url: &str,
        metrics: Arc<Metrics>,
    ) -> Result<(Storage, std::thread::JoinHandle<()>), StorageError> {
        let config = connect::config(url)?;
        let (ready, started) = std::sync::mpsc::channel();
        let (tx, rx) = mpsc::channel(4096);
        let handle = std::thread::Builder::new()
            .name("fipsen-storage".into())
            .spawn(move || {
                let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
                    Ok(runtime) => runtime,
                    Err(e) => {
                        let _ = ready.send(Err(StorageError::Postgres(format!("cannot start the runtime: {e}"))));
                        return;
                    }
                };
                runtime.block_on(async move {
                    let opened = async {
                        let pool = connect::pool(config)?;
                        schema::migrate(&pool).await?;
                        Ok::<_, StorageError>(pool)
                    };
                    match opened.await {
                        Ok(pool) => {
                            let _ = ready.send(Ok(()));
                            dispatch::run(pool, rx, metrics).await;
                        }
                        Err(e) => {
                            let _ = ready.send(Err(e));
                        }
                    }
                });
            })
            .map_err(|e| StorageError::Postgres(format!("cannot start the storage thread: {e}")))?;
        match started.recv() {
            Ok(Ok(())) => Ok((Storage::from_engine(Arc::new(Postgres { tx })), handle)),
            Ok(Err(e)) => {
                let _ = handle.join();
                Err(e)
            }
            Err(_) => {
                let _ = handle.join();
                Err(StorageError::Postgres("the storage thread ended before the database was opened".into()))
            }
        }
    }
}
