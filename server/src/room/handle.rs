//! A room task's handle, as the registry keeps it and connections reach the room through it.

use std::sync::Arc;

use fipsen_protocol::LobbyRoom;
use tokio::sync::{mpsc, watch};

use super::command::RoomCommand;
use crate::lease::RoomLease;

/// A room task's handle.
#[derive(Debug, Clone)]
pub struct RoomHandle {
    /// Which task (a room closed and opened again is a new instance).
    pub instance: u64,
    /// The invite code.
    pub code: Arc<str>,
    /// The room's command queue.
    pub tx: mpsc::Sender<RoomCommand>,
    /// The room's lobby entry, if it is public.
    pub lobby: watch::Receiver<Option<LobbyRoom>>,
    /// The room's lease, in cluster mode.
    pub lease: Option<Arc<RoomLease>>,
    /// When the task started, in milliseconds since 1970 (the lobby lists newer rooms first,
    /// across the servers of a cluster).
    pub opened: u64,
}
