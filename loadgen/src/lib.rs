//! Load generator for the Fipsen server, and a bare fan-out baseline to compare it with.
//!
//! * [`table`] — one table: four players and K spectators on their own connections, one task.
//! * [`phase`] — an open-loop schedule at a fixed move rate, woken by a precise ticker thread.
//! * [`run`] — set up N tables, hold them, play through the phases, report.
//! * [`baseline`] — a fan-out server without game logic or storage, driven by the same tables.
//! * [`restore`] — fill a database through the protocol, then check every room after a restart.
//! * [`analyses`] — rooms of bots whose every finished deal is replayed (analysed) at once.
//! * [`bot_rooms`] — rooms of bots only, each watched by its creator (what one address can start).
//! * [`frame`], [`choose`] — reading server frames; choosing a legal move from a prompt.
//! * [`stats`], [`procfs`], [`counters`], [`report`] — histograms, `/proc`, counters, text.

pub mod analyses;
pub mod baseline;
pub mod bot_rooms;
pub mod choose;
pub mod counters;
pub mod frame;
pub mod net;
pub mod phase;
pub mod procfs;
pub mod report;
pub mod restore;
pub mod run;
pub mod stats;
pub mod table;
