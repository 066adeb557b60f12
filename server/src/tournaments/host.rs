//! What a tournament asks of the server ([`TournamentHost`]): its leases, its tables as rooms,
//! and the relay to the tournaments other servers hold. The tournaments sit below the registry
//! and the cluster, and the registry implements this for them.

use std::sync::Arc;

use fipsen_protocol::{ErrorCode, TournamentSummary};
use fipsen_rules::Seed;
use futures_util::future::BoxFuture;
use tokio::sync::mpsc;

use super::command::TournamentHandle;
use crate::lease::{Cluster, RoomLease};
use crate::room::{TableReport, TableSeat};
use crate::storage::{Fence, RoomMeta};

/// A claim of a lease key: the lease (`None` when the server is alone), or the fence of the
/// live server that holds it.
pub type KeyClaim = Result<Option<Arc<RoomLease>>, Fence>;

/// What the tournaments ask of the server they run in.
pub trait TournamentHost: Send + Sync + std::fmt::Debug {
    /// Cluster mode's settings, if it is on.
    fn cluster(&self) -> Option<&Cluster>;

    /// The master seed `--insecure-fixed-seed` set, for tests only.
    fn fixed_master(&self) -> Option<Seed>;

    /// Sends the tables' reports of the deals they played to `reports` from now on (once).
    fn set_reports(&self, reports: mpsc::UnboundedSender<TableReport>);

    /// Claims lease key `key` as a room is claimed: the lease, or the live holder's fence; waits
    /// while a silent holder's lease runs out.
    ///
    /// # Errors
    /// `server/busy`, `server/shutting_down` or `server/storage`.
    fn claim_key<'a>(&'a self, key: &'a Arc<str>) -> BoxFuture<'a, Result<KeyClaim, ErrorCode>>;

    /// Keeps a lease claimed with [`TournamentHost::claim_key`]: renewed, lost and handed over
    /// with the rooms'.
    fn hold_lease(&self, key: Arc<str>, lease: Arc<RoomLease>);

    /// Forgets a lease kept by [`TournamentHost::hold_lease`] (if it is still that one) and
    /// releases it unless it was lost.
    fn drop_lease<'a>(&'a self, key: &'a Arc<str>, lease: &'a Arc<RoomLease>) -> BoxFuture<'a, ()>;

    /// Reports a stored tournament whose records do not rebuild it (once); the code its
    /// visitors get.
    fn broken_tournament(&self, id: &str, reason: &str) -> ErrorCode;

    /// The tournament table with `meta.code`, from memory or storage, or created (seated by
    /// `seats` and started) if it was never stored.
    ///
    /// # Errors
    /// `server/storage`, or in cluster mode `server/busy` or `server/shutting_down`.
    fn open_table(self: Arc<Self>, meta: RoomMeta, seats: Vec<TableSeat>) -> BoxFuture<'static, Result<(), ErrorCode>>;

    /// With the relay (`--nats`): the relayed tournament `id`, if it is relayed from here now.
    fn tournament_edge(&self, id: &str) -> Option<TournamentHandle>;

    /// With the relay: tournament `id`, held by `holder`, relayed to it (`None`: no relay).
    fn relay_tournament(&self, id: Arc<str>, holder: Fence) -> Option<TournamentHandle>;

    /// With the relay: the other servers' listed tournaments, each with when it was created.
    fn remote_tournaments(&self) -> Vec<(u64, TournamentSummary)>;
}
