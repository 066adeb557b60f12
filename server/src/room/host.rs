//! What a room asks of the server that holds it ([`RoomHost`]): the room sits below the
//! registry, which implements this for it, so that the room never names the registry.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Instant;

use fipsen_protocol::ErrorCode;
use futures_util::future::BoxFuture;

use super::record::Record;
use super::table::TableReport;
use crate::storage::RoomMeta;

/// What a room's task asks of the server holding its room.
pub trait RoomHost: Send + Sync + std::fmt::Debug {
    /// The room's task `instance` of room `code` ends: its handle is dropped, if it is still
    /// that task's.
    fn room_closed(&self, code: &str, instance: u64);

    /// A tournament table's deals, for its tournament (never waits: the table goes on).
    fn table_played(&self, report: TableReport);

    /// When a bot move in a room of bots only that `addr` watches, due at `due`, may be made
    /// (the rooms watched from one address share a pace); the time is taken for that move.
    fn bot_move_at(&self, addr: IpAddr, due: Instant) -> Instant;

    /// Creates, stores and opens a room to play again in: `template`'s rules, options and
    /// title, a new code and master seed, seated by `records`. Its invite code.
    ///
    /// # Errors
    /// `server/storage`, or in cluster mode `server/busy` or `server/shutting_down`.
    fn open_rematch(
        self: Arc<Self>,
        template: RoomMeta,
        records: Vec<Record>,
    ) -> BoxFuture<'static, Result<Arc<str>, ErrorCode>>;
}
