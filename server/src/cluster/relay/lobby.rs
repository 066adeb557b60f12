//! The lobby across the cluster: every server publishes its public rooms every
//! [`LOBBY_EVERY`], and lists the others' beside its own (those of servers gone silent are
//! left out). A room lists as its own server last saw it, at most [`LOBBY_EVERY`] ago.

use std::sync::Arc;
use std::time::Duration;

use fipsen_protocol::{LobbyRoom, TournamentSummary};
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use tracing::warn;

use super::super::rooms::NodeRooms;
use super::Relay;
use super::wire::LOBBY_SUBJECT;
use crate::tournaments::Tournaments;

/// How often each server publishes its public rooms.
pub const LOBBY_EVERY: Duration = Duration::from_secs(1);
/// Public rooms one server publishes at most (the newest): a NATS message stays well under
/// its size limit.
pub const LOBBY_SHARED: usize = 2_000;

/// One server's public rooms and listed tournaments, each with when it was opened or created
/// (milliseconds since 1970, for the order of the lists).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Published {
    node: String,
    rooms: Vec<(u64, LobbyRoom)>,
    #[serde(default)]
    tournaments: Vec<(u64, TournamentSummary)>,
}

impl Relay {
    /// The other live servers' public rooms, with when each was opened.
    pub fn remote_lobby(&self) -> Vec<(u64, LobbyRoom)> {
        self.lobbies
            .iter()
            .filter(|entry| entry.key() != &*self.node && self.alive(entry.key()))
            .flat_map(|entry| entry.value().rooms.clone())
            .collect()
    }

    /// The other live servers' listed tournaments, with when each was created.
    pub fn remote_tournaments(&self) -> Vec<(u64, TournamentSummary)> {
        self.lobbies
            .iter()
            .filter(|entry| entry.key() != &*self.node && self.alive(entry.key()))
            .flat_map(|entry| entry.value().tournaments.clone())
            .collect()
    }

    /// Publishes this server's public rooms every [`LOBBY_EVERY`] (an empty list too, so
    /// that rooms gone from it go from the others' lobbies).
    pub(super) async fn share_lobby(self: Arc<Self>, registry: Arc<dyn NodeRooms>, tournaments: Arc<Tournaments>) {
        let mut ticks = tokio::time::interval(LOBBY_EVERY);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            let published = Published {
                node: self.node.to_string(),
                rooms: registry.public_rooms(LOBBY_SHARED),
                tournaments: tournaments.listed(),
            };
            let Ok(payload) = serde_json::to_vec(&published) else { continue };
            if let Err(e) = self.client.publish(self.subject(LOBBY_SUBJECT), payload.into()).await {
                warn!(error = %e, "cannot publish the public rooms over NATS");
            }
        }
    }

    /// Keeps the other servers' latest public rooms.
    pub(super) async fn hear_lobbies(self: Arc<Self>, mut lobbies: async_nats::Subscriber) {
        while let Some(message) = lobbies.next().await {
            match serde_json::from_slice::<Published>(&message.payload) {
                Ok(published) if published.node != *self.node => {
                    self.lobbies.insert(published.node.clone(), published);
                }
                Ok(_) => {}
                Err(e) => warn!(error = %e, "another server's public rooms cannot be read"),
            }
        }
        warn!("the lobby subscription ended");
    }
}
