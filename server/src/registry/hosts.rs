//! What the rooms, the tournaments and the cluster ask of the server, answered by the registry
//! ([`RoomHost`], [`TournamentHost`], [`NodeRooms`]).

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Instant;

use fipsen_protocol::{ErrorCode, LobbyRoom, TournamentSummary};
use fipsen_rules::Seed;
use futures_util::future::BoxFuture;
use tokio::sync::mpsc;

use super::Registry;
use crate::cluster::NodeRooms;
use crate::lease::{Cluster, RoomLease};
use crate::metrics::Metrics;
use crate::room::RoomHandle;
use crate::room::TableReport;
use crate::room::{Record, RoomHost, TableSeat};
use crate::storage::{Fence, RoomMeta, Storage};
use crate::tournaments::host::KeyClaim;
use crate::tournaments::{TournamentHandle, TournamentHost};

impl RoomHost for Registry {
    fn room_closed(&self, code: &str, instance: u64) {
        self.forget(code, instance);
    }

    fn table_played(&self, report: TableReport) {
        self.report_table(report);
    }

    fn bot_move_at(&self, addr: IpAddr, due: Instant) -> Instant {
        self.unattended_bot_move(addr, due)
    }

    fn open_rematch(
        self: Arc<Self>,
        template: RoomMeta,
        records: Vec<Record>,
    ) -> BoxFuture<'static, Result<Arc<str>, ErrorCode>> {
        Box::pin(async move { self.create_rematch(template, records).await.map(|handle| handle.code) })
    }
}

impl TournamentHost for Registry {
    fn cluster(&self) -> Option<&Cluster> {
        Registry::cluster(self)
    }

    fn fixed_master(&self) -> Option<Seed> {
        Registry::fixed_master(self)
    }

    fn set_reports(&self, reports: mpsc::UnboundedSender<TableReport>) {
        Registry::set_reports(self, reports);
    }

    fn claim_key<'a>(&'a self, key: &'a Arc<str>) -> BoxFuture<'a, Result<KeyClaim, ErrorCode>> {
        Box::pin(Registry::claim_key(self, key))
    }

    fn hold_lease(&self, key: Arc<str>, lease: Arc<RoomLease>) {
        Registry::hold_lease(self, key, lease);
    }

    fn drop_lease<'a>(&'a self, key: &'a Arc<str>, lease: &'a Arc<RoomLease>) -> BoxFuture<'a, ()> {
        Box::pin(Registry::drop_lease(self, key, lease))
    }

    fn broken_tournament(&self, id: &str, reason: &str) -> ErrorCode {
        Registry::broken_tournament(self, id, reason)
    }

    fn open_table(self: Arc<Self>, meta: RoomMeta, seats: Vec<TableSeat>) -> BoxFuture<'static, Result<(), ErrorCode>> {
        Box::pin(async move { Registry::open_table(&self, meta, &seats).await.map(|_| ()) })
    }

    fn tournament_edge(&self, id: &str) -> Option<TournamentHandle> {
        self.relay()?.tournament_edge(id)
    }

    fn relay_tournament(&self, id: Arc<str>, holder: Fence) -> Option<TournamentHandle> {
        Some(self.relay()?.relay_tournament(id, holder))
    }

    fn remote_tournaments(&self) -> Vec<(u64, TournamentSummary)> {
        self.relay().map(|relay| relay.remote_tournaments()).unwrap_or_default()
    }
}

impl NodeRooms for Registry {
    fn cluster(&self) -> Option<&Cluster> {
        Registry::cluster(self)
    }

    fn storage(&self) -> &Storage {
        Registry::storage(self)
    }

    fn metrics(&self) -> &Metrics {
        Registry::metrics(self)
    }

    fn leases(&self) -> Vec<(Arc<str>, Arc<RoomLease>)> {
        Registry::leases(self)
    }

    fn room_leases(&self) -> Vec<(Arc<str>, Arc<RoomLease>)> {
        Registry::room_leases(self)
    }

    fn stop_claiming(&self) {
        Registry::stop_claiming(self);
    }

    fn is_stopping(&self) -> bool {
        Registry::is_stopping(self)
    }

    fn holds(&self, code: &str) -> bool {
        Registry::holds(self, code)
    }

    fn local(&self, code: &str) -> Option<RoomHandle> {
        Registry::local(self, code)
    }

    fn held(&self, code: &str, epoch: u64) -> Option<RoomHandle> {
        Registry::held(self, code, epoch)
    }

    fn public_rooms(&self, limit: usize) -> Vec<(u64, LobbyRoom)> {
        Registry::public_rooms(self, limit)
    }

    fn adopt(self: Arc<Self>, code: String) -> BoxFuture<'static, bool> {
        Box::pin(async move { Registry::adopt(&self, &code).await })
    }

    fn open_placed(self: Arc<Self>, code: String) -> BoxFuture<'static, Option<u64>> {
        Box::pin(async move { Registry::open_placed(&self, &code).await })
    }

    fn move_room<'a>(&'a self, code: &'a Arc<str>, lease: &'a Arc<RoomLease>, node: &'a str) -> BoxFuture<'a, bool> {
        Box::pin(Registry::move_room(self, code, lease, node))
    }
}
