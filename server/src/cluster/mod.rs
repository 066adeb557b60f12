//! Cluster mode (`--node-id`): several servers share one PostgreSQL database, and each room is
//! served by the one server holding its lease ([`crate::storage::Storage::claim`]).
//!
//! * `lease.rs` — the node's identity and lease settings ([`Cluster`]), and a room's lease as
//!   its task and the registry share it ([`RoomLease`]); `keys.rs` — the keys leases are held
//!   under;
//! * [`renewal`] — renews every lease of the node a third of the lease apart, and stops the
//!   rooms whose lease is gone (or every room, when renewals fail for longer than a lease);
//! * [`takeover`] — opens here, half a lease apart, the rooms no live server holds (a server
//!   that died or stopped), and at start instead of the rooms marked active;
//! * [`handover`] — at a graceful stop, releases every lease so that another server takes the
//!   rooms at once;
//! * [`rebalance`] — a server holding more rooms than the others (after a rolling restart, or
//!   a server added) hands rooms at rest, a few at a time, to the one holding the fewest;
//! * [`relay`] — with `--nats`, any server accepts any client: a room another server holds is
//!   relayed to it over NATS.
//!
//! Every record a room stores carries its lease ([`crate::storage::Storage::append_fenced`]):
//! once another server holds the room, this one can no longer write it, whatever it believes;
//! the room then stops here at once (its connections closed with 1012, to resume elsewhere).

pub mod handover;
pub mod rebalance;
pub mod relay;
pub mod renewal;
pub mod rooms;
pub mod takeover;

pub use crate::keys::{TOURNAMENT_KEY_PREFIX, tournament_key};
pub use crate::lease::{Cluster, RoomLease, until_lost};
pub use rooms::NodeRooms;
