//! What the cluster asks of the server's rooms ([`NodeRooms`]): the cluster sits below the
//! registry, which implements this for it, so that renewal, takeover, hand-over, rebalancing and
//! the relay never name the registry.
//!
//! The relay is handed to the work that needs it beside this (it is not reached through it).

use std::sync::Arc;

use fipsen_protocol::LobbyRoom;
use futures_util::future::BoxFuture;

use crate::lease::{Cluster, RoomLease};
use crate::metrics::Metrics;
use crate::room::RoomHandle;
use crate::storage::Storage;

/// The rooms of this server, as the cluster's work sees them.
pub trait NodeRooms: Send + Sync + std::fmt::Debug + 'static {
    /// Cluster mode's settings, if it is on.
    fn cluster(&self) -> Option<&Cluster>;

    /// The storage the rooms and their leases are kept in.
    fn storage(&self) -> &Storage;

    /// The server's counters.
    fn metrics(&self) -> &Metrics;

    /// The rooms in memory held under a lease, with it, and the other leases held here (the
    /// tournaments').
    fn leases(&self) -> Vec<(Arc<str>, Arc<RoomLease>)>;

    /// The rooms in memory here held under a lease, with it (tournaments' leases left out).
    fn room_leases(&self) -> Vec<(Arc<str>, Arc<RoomLease>)>;

    /// The server is stopping: no room is claimed from now on.
    fn stop_claiming(&self);

    /// Whether the server is stopping.
    fn is_stopping(&self) -> bool;

    /// Whether room `code` is in memory here.
    fn holds(&self, code: &str) -> bool;

    /// Room `code` if it runs here.
    fn local(&self, code: &str) -> Option<RoomHandle>;

    /// Room `code` if it runs here under the lease of epoch `epoch`.
    fn held(&self, code: &str, epoch: u64) -> Option<RoomHandle>;

    /// The public rooms here, newest first, at most `limit`, each with when it was opened.
    fn public_rooms(&self, limit: usize) -> Vec<(u64, LobbyRoom)>;

    /// Opens room `code` here if this server may claim it; whether it was opened here now.
    fn adopt(self: Arc<Self>, code: String) -> BoxFuture<'static, bool>;

    /// Opens here a room another server created and placed on this one: the epoch of the
    /// lease it is held under, or `None` when this server does not hold it.
    fn open_placed(self: Arc<Self>, code: String) -> BoxFuture<'static, Option<u64>>;

    /// Hands room `code`, held here under `lease`, to server `node`; whether `node` took it.
    fn move_room<'a>(&'a self, code: &'a Arc<str>, lease: &'a Arc<RoomLease>, node: &'a str) -> BoxFuture<'a, bool>;
}
