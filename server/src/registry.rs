//! The rooms in memory: a map from invite code to the room task's handle, and nothing else.
//! No map guard is ever held across an `.await`: handles are cloned out first.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use dashmap::DashMap;
use dashmap::mapref::entry::Entry;
use fipsen_protocol::{ErrorCode, LobbyRoom, MAX_NAME_CHARS, MyRoom, RoomOptions};
use fipsen_rules::{RuleSet, Seed};
use tokio::sync::{mpsc, oneshot, watch};
use tracing::{info, warn};

use crate::metrics::{Metrics, dec, inc};
use crate::room::{Room, RoomCommand, RoomEnv};
use crate::secrets;
use crate::storage::{RoomMeta, Storage, StoredRoom};

/// Commands queued for one room before senders wait.
const ROOM_QUEUE: usize = 256;

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
}

/// Every room in memory.
#[derive(Debug)]
pub struct Registry {
    rooms: DashMap<Arc<str>, RoomHandle>,
    storage: Storage,
    metrics: Arc<Metrics>,
    idle: std::time::Duration,
    instances: AtomicU64,
    /// Set only by `--insecure-fixed-seed` (tests): the master seed of every new room.
    fixed_master: Option<Seed>,
    /// Bidding reviews being computed at once, across every room.
    reviews: Arc<tokio::sync::Semaphore>,
}

/// How many bidding reviews are computed at the same time (each takes a blocking thread for up
/// to a second or two); more requests get `review/busy`.
const CONCURRENT_REVIEWS: usize = 2;

/// Checks a player's name: 1 to 32 characters once trimmed, no control characters.
pub fn clean_name(name: &str) -> Result<String, ErrorCode> {
    let name = name.trim();
    let count = name.chars().count();
    if count == 0 || count > MAX_NAME_CHARS || name.chars().any(char::is_control) {
        return Err(ErrorCode::NameInvalid);
    }
    Ok(name.to_string())
}

impl Registry {
    /// An empty registry. `fixed_master`, for tests only, deals every new room from one seed.
    pub fn new(
        storage: Storage,
        metrics: Arc<Metrics>,
        idle: std::time::Duration,
        fixed_master: Option<Seed>,
    ) -> Arc<Registry> {
        Arc::new(Registry {
            rooms: DashMap::new(),
            storage,
            metrics,
            idle,
            instances: AtomicU64::new(1),
            fixed_master,
            reviews: Arc::new(tokio::sync::Semaphore::new(CONCURRENT_REVIEWS)),
        })
    }

    fn env(self: &Arc<Self>) -> RoomEnv {
        RoomEnv {
            storage: self.storage.clone(),
            metrics: self.metrics.clone(),
            registry: self.clone(),
            idle: self.idle,
            reviews: self.reviews.clone(),
        }
    }

    /// Creates, stores and opens a new room. The caller then joins it as its first player.
    ///
    /// # Errors
    /// `rules/invalid`, `options/invalid`, `name/invalid`, or `server/storage`.
    pub async fn create(
        self: &Arc<Self>,
        host: &str,
        rules: RuleSet,
        options: RoomOptions,
    ) -> Result<RoomHandle, (ErrorCode, String)> {
        rules.validate().map_err(|e| (ErrorCode::RulesInvalid, e.to_string()))?;
        if !options.is_valid() {
            return Err((ErrorCode::OptionsInvalid, ErrorCode::OptionsInvalid.to_string()));
        }
        let title = match options.title.trim() {
            "" => format!("{host}'s table"),
            title => title.to_string(),
        };
        let meta = RoomMeta {
            code: secrets::invite_code(),
            created_at: SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(0)),
            title: title.clone(),
            rules,
            options: RoomOptions { title, ..options },
            master: self.fixed_master.unwrap_or_else(|| Seed(secrets::random_bytes::<32>())),
        };
        self.storage.create_room(meta.clone()).await.map_err(|e| {
            warn!(error = %e, "cannot store a new room");
            (ErrorCode::Storage, ErrorCode::Storage.to_string())
        })?;
        info!(room = %meta.code, players = rules.players.count(), "room created");
        let instance = self.instances.fetch_add(1, Ordering::Relaxed);
        let (lobby_tx, lobby_rx) = watch::channel(None);
        let room = Room::new(meta, instance, lobby_tx, self.env());
        let handle = self.start(room, instance, lobby_rx);
        self.rooms.insert(handle.code.clone(), handle.clone());
        Ok(handle)
    }

    /// Starts a room's task and returns its handle (not yet in the map).
    fn start(&self, room: Room, instance: u64, lobby: watch::Receiver<Option<LobbyRoom>>) -> RoomHandle {
        let (tx, rx) = mpsc::channel(ROOM_QUEUE);
        let handle = RoomHandle { instance, code: room.code().clone(), tx, lobby };
        inc(&self.metrics.rooms);
        let metrics = self.metrics.clone();
        tokio::spawn(async move {
            room.run(rx).await;
            dec(&metrics.rooms);
        });
        handle
    }

    /// The room with this invite code, from memory or storage.
    ///
    /// # Errors
    /// `room/not_found`, or `server/storage` if it could not be read.
    pub async fn open(self: &Arc<Self>, code: &str) -> Result<RoomHandle, ErrorCode> {
        if let Some(handle) = self.rooms.get(code).map(|r| r.value().clone()) {
            return Ok(handle);
        }
        if !secrets::looks_like_invite(code) {
            return Err(ErrorCode::RoomNotFound);
        }
        let stored: StoredRoom = match self.storage.load(code).await {
            Ok(Some(stored)) => stored,
            Ok(None) => return Err(ErrorCode::RoomNotFound),
            Err(e) => {
                warn!(room = %code, error = %e, "cannot load a room");
                return Err(ErrorCode::Storage);
            }
        };
        let instance = self.instances.fetch_add(1, Ordering::Relaxed);
        let (lobby_tx, lobby_rx) = watch::channel(None);
        let records = stored.records.len();
        let room = Room::restore(stored, instance, lobby_tx, self.env());
        let handle = match self.rooms.entry(room.code().clone()) {
            // Another connection opened it meanwhile: use that one.
            Entry::Occupied(existing) => return Ok(existing.get().clone()),
            Entry::Vacant(vacant) => {
                let handle = self.start(room, instance, lobby_rx);
                vacant.insert(handle.clone());
                handle
            }
        };
        if let Err(e) = self.storage.set_active(handle.code.clone(), true).await {
            warn!(room = %code, error = %e, "cannot mark the room open");
        }
        info!(room = %code, records, "room restored from storage");
        Ok(handle)
    }

    /// Removes a room task's handle, if it is still that task's.
    pub fn forget(&self, code: &str, instance: u64) {
        self.rooms.remove_if(code, |_, handle| handle.instance == instance);
    }

    /// Drops a handle whose task is gone.
    pub fn forget_handle(&self, handle: &RoomHandle) {
        self.rooms.remove_if(&handle.code, |_, h| h.tx.same_channel(&handle.tx));
    }

    /// Opens every room that was open when the server last stopped.
    ///
    /// # Errors
    /// Storage could not be read.
    pub async fn restore_active(self: &Arc<Self>) -> Result<usize, crate::storage::StorageError> {
        let codes = self.storage.active_rooms().await?;
        let mut restored = 0;
        for code in codes {
            if self.open(&code).await.is_ok() {
                restored += 1;
            }
        }
        Ok(restored)
    }

    /// The public rooms.
    /// Newest first: rooms opened later (created, or reopened after a rest) come first.
    pub fn lobby(&self) -> Vec<LobbyRoom> {
        let mut rooms: Vec<(u64, LobbyRoom)> = self
            .rooms
            .iter()
            .filter_map(|entry| entry.value().lobby.borrow().clone().map(|room| (entry.value().instance, room)))
            .collect();
        rooms.sort_unstable_by_key(|r| std::cmp::Reverse(r.0));
        rooms.into_iter().map(|(_, room)| room).collect()
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
            for _attempt in 0..2 {
                let Ok(handle) = self.open(&code).await else { break };
                let (reply, answer) = oneshot::channel();
                if handle.tx.send(RoomCommand::Summary { participant, reply }).await.is_err() {
                    self.forget_handle(&handle);
                    continue;
                }
                if let Ok(summary) = answer.await {
                    rooms.extend(summary);
                }
                break;
            }
        }
        rooms
    }
}
