//! What the lobby shows: the public rooms (here and, with the relay, at the other servers), a
//! room peeked at by its invite code, and the rooms of a player's seat tokens.

use std::sync::Arc;

use fipsen_protocol::{ErrorCode, LOBBY_PAGE, LobbyRoom, MyRoom};
use tokio::sync::{oneshot, watch};
use tracing::warn;

use super::Registry;
use crate::room::RoomCommand;
use crate::secrets;

/// A public room in the lobby: here (its entry as it is now), or at another server (as that
/// server last published it).
enum Listed {
    Here(watch::Receiver<Option<LobbyRoom>>),
    Elsewhere(LobbyRoom),
}

impl Registry {
    /// One page of the public rooms: how many there are, and at most [`LOBBY_PAGE`] of them
    /// from `offset` on. Newest first: rooms opened later (created, or reopened after a rest)
    /// come first. A page is bounded, so the answer stays small however many rooms are public.
    /// In a cluster with the relay, the other servers' public rooms are listed too.
    pub fn lobby(&self, offset: u32) -> (u32, Vec<LobbyRoom>) {
        let mut public: Vec<(u64, u64, Listed)> = self
            .rooms
            .iter()
            .filter(|entry| entry.value().lobby.borrow().is_some())
            .map(|entry| (entry.value().opened, entry.value().instance, Listed::Here(entry.value().lobby.clone())))
            .collect();
        if let Some(relay) = self.relay() {
            public.extend(
                relay
                    .remote_lobby()
                    .into_iter()
                    // A room that moved here lists once, as it is here.
                    .filter(|(_, room)| !self.rooms.contains_key(room.room.as_str()))
                    .map(|(opened, room)| (opened, 0, Listed::Elsewhere(room))),
            );
        }
        public.sort_unstable_by_key(|r| std::cmp::Reverse((r.0, r.1)));
        let total = u32::try_from(public.len()).unwrap_or(u32::MAX);
        let page = public
            .into_iter()
            .skip(offset as usize)
            .filter_map(|(_, _, listed)| match listed {
                Listed::Here(lobby) => lobby.borrow().clone(),
                Listed::Elsewhere(room) => Some(room),
            })
            .take(LOBBY_PAGE as usize)
            .collect();
        (total, page)
    }

    /// The public rooms here, newest first, at most `limit`, each with when it was opened.
    pub fn public_rooms(&self, limit: usize) -> Vec<(u64, LobbyRoom)> {
        let mut public: Vec<(u64, u64, watch::Receiver<Option<LobbyRoom>>)> = self
            .rooms
            .iter()
            .filter(|entry| entry.value().lobby.borrow().is_some())
            .map(|entry| (entry.value().opened, entry.value().instance, entry.value().lobby.clone()))
            .collect();
        public.sort_unstable_by_key(|r| std::cmp::Reverse((r.0, r.1)));
        public
            .into_iter()
            .filter_map(|(opened, _, lobby)| Some((opened, lobby.borrow().clone()?)))
            .take(limit)
            .collect()
    }

    /// The room of an invite code as the lobby would show it, public or not (for the
    /// invitation page).
    ///
    /// # Errors
    /// `room/not_found`, or `server/storage`.
    pub async fn peek(self: &Arc<Self>, code: &str) -> Result<LobbyRoom, ErrorCode> {
        for _attempt in 0..2 {
            let handle = self.open(code).await?;
            let (reply, answer) = oneshot::channel();
            if handle.tx.send(RoomCommand::Peek { reply }).await.is_err() {
                self.forget_handle(&handle);
                continue;
            }
            if let Ok(info) = answer.await {
                return Ok(info);
            }
        }
        Err(ErrorCode::RoomNotFound)
    }

    /// The rooms these seat tokens belong to.
    pub async fn my_rooms(self: &Arc<Self>, tokens: &[String]) -> Vec<MyRoom> {
        let hashes = tokens.iter().map(|t| secrets::token_hash(t)).collect();
        let found = match self.storage.find_tokens(hashes).await {
            Ok(found) => found,
            Err(e) => {
                warn!(error = %e, "cannot look tokens up");
                return Vec::new();
            }
        };
        let mut rooms = Vec::new();
        for (code, participant) in found {
            for attempt in 0..3 {
                let handle = match self.open(&code).await {
                    Ok(handle) => handle,
                    // Listed as it is, not left out: the player sees why he cannot return.
                    Err(ErrorCode::RoomBroken) => {
                        rooms.push(MyRoom::broken(code.clone()));
                        break;
                    }
                    Err(e) => {
                        warn!(room = %code, code = e.code(), "a room of the tokens cannot be opened: left out");
                        break;
                    }
                };
                let (reply, answer) = oneshot::channel();
                if handle.tx.send(RoomCommand::Summary { participant, reply }).await.is_err() {
                    self.forget_handle(&handle);
                    continue;
                }
                match answer.await {
                    Ok(summary) => {
                        rooms.extend(summary);
                        break;
                    }
                    // The room (or, in a cluster, the server relaying it) stopped meanwhile:
                    // asked again wherever it is now.
                    Err(_) => {
                        warn!(room = %code, attempt, "a room's summary did not come: asking again");
                        self.forget_handle(&handle);
                    }
                }
            }
        }
        rooms
    }
}
