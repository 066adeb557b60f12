//! The server's tests over real sockets (and its storage, cluster and operating tests), one
//! binary: each former test file is a module. Kept apart: `cluster_drill` (run by
//! `scripts/cluster-test`), and `architecture` and `layers`, which read the source tree.

mod analysis;
mod audience;
mod bots;
mod cluster;
mod common;
mod damage;
mod durability;
mod fixed_seed;
mod frame_sizes;
mod games;
mod golden;
mod host;
mod hostile;
mod lean;
mod lobby;
mod long_series;
mod operating;
mod play;
mod postgres;
mod proxy;
mod reconnect;
mod relay;
mod rematch;
mod replay;
mod replay_bytes;
mod review_fairness;
mod reviews;
mod room_limits;
mod rooms_hardened;
mod series;
mod slow_reader;
mod stored_format;
mod table_sizes;
mod tippen;
mod tournament;
mod tournament_limits;
mod transport;
mod wippen;
