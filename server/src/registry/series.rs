//! A stored series for the holder of its key: its pages and its replays, computed on a
//! background thread in the asking address's turn.

use std::net::IpAddr;

use fipsen_protocol::{DealReplay, ErrorCode, SeriesRecord};
use fipsen_rules::Seat;
use tracing::warn;

use super::Registry;
use crate::fair::Turn;
use crate::room::Damaged;
use crate::room::series_index::{StoredSeries, Unread};
use crate::secrets;

impl Registry {
    /// Checks `key` for the series of `room`: its share key (`None`), or a seat token of the
    /// room (`Some` of its participant). A wrong room and a wrong key are the same error.
    ///
    /// The key is checked against the room's creation row alone (and, for a seat token, the
    /// token's own row): a wrong key costs two small reads, never the room's records.
    pub(super) async fn series_key(&self, room: &str, key: &str) -> Result<Option<u32>, ErrorCode> {
        if !secrets::looks_like_invite(room) || key.is_empty() || key.len() > 64 {
            return Err(ErrorCode::SeriesNotFound);
        }
        let meta = match self.storage.load_meta(room).await {
            Ok(Some(meta)) => meta,
            Ok(None) => return Err(ErrorCode::SeriesNotFound),
            Err(e) => return Err(self.unloadable(room, &e)),
        };
        if secrets::same_key(key, &secrets::share_key(&meta.master)) {
            return Ok(None);
        }
        let found = self.storage.find_tokens(vec![secrets::token_hash(key)]).await.map_err(|e| {
            warn!(error = %e, "cannot look a token up");
            ErrorCode::Storage
        })?;
        match found.into_iter().find(|(code, _)| code == room) {
            Some((_, participant)) => Ok(Some(participant)),
            None => Err(ErrorCode::SeriesNotFound),
        }
    }

    /// Deals `from` to `from + count - 1` of the stored series of `room`, its key checked
    /// already ([`Registry::series_key`]): their deal index rows and records, never the room's
    /// whole log ([`crate::room::series_index::read`]); they are checked where they are dealt again
    /// ([`Registry::with_series`]).
    pub(super) async fn load_series(&self, room: &str, from: u32, count: u32) -> Result<StoredSeries, ErrorCode> {
        match crate::room::series_index::read(&self.storage, room, from, count).await {
            Ok(Some(stored)) => Ok(stored),
            Ok(None) => Err(ErrorCode::SeriesNotFound),
            Err(Unread::Storage(e)) => Err(self.unloadable(room, &e)),
            Err(Unread::Damaged(damage)) => Err(self.broken(room, &damage)),
        }
    }

    /// Opens deals `from` to `from + count - 1` of the series of `room` for the holder of `key`
    /// and runs `work` on them, with the asker's seat (if he asked with his seat token and has
    /// one), on a background thread once it is the turn of `addr` at the reviews' queue
    /// ([`crate::fair`]). The key is checked before the turn is waited for, and the room is read
    /// only once the turn has come, so a waiting request holds nothing of it.
    pub(super) async fn with_series<T: Send + 'static>(
        &self,
        addr: IpAddr,
        room: &str,
        key: &str,
        (from, count): (u32, u32),
        work: impl FnOnce(&StoredSeries, Option<Seat>) -> Result<T, Damaged> + Send + 'static,
    ) -> Result<T, ErrorCode> {
        let participant = self.series_key(room, key).await?;
        if self.broken.contains_key(room) {
            return Err(ErrorCode::RoomBroken);
        }
        let turn = self.turn(addr, room).await?;
        let stored = self.load_series(room, from, count).await?;
        let done = crate::background::run(move || {
            let _turn = turn;
            // The work deals the deals again, and only deals that rebuild exactly what was
            // acknowledged show anything of the series (see `crate::room::replay`).
            let seat = participant.and_then(|participant| stored.seat_of(participant));
            work(&stored, seat)
        })
        .await
        .map_err(|_| ErrorCode::ServerBusy)?;
        done.map_err(|damage| self.broken(room, &damage))
    }

    /// Waits for `addr`'s turn at the reviews' queue for a job about `room`, to be held while
    /// the job is prepared and run (take it before loading what the job needs, so that a
    /// waiting job holds nothing).
    ///
    /// # Errors
    /// `server/busy` when `addr`'s queue (or `room`'s, or the server's) is full.
    pub async fn turn(&self, addr: IpAddr, room: &str) -> Result<Turn, ErrorCode> {
        self.reviews.turn(addr, room).await.map_err(|_| ErrorCode::ServerBusy)
    }

    /// Page `page` of the series of `room` as far as its deals are over, for the holder of
    /// `key` asking from `addr`; with the series' share key for a seated player who asked with
    /// his seat token (as `share_link` gives it).
    ///
    /// # Errors
    /// `series/not_found`, `room/broken`, `server/busy` or `server/storage`.
    pub async fn series(
        &self,
        addr: IpAddr,
        room: &str,
        key: &str,
        page: crate::room::replay::SeriesPage,
    ) -> Result<(SeriesRecord, Option<String>), ErrorCode> {
        self.with_series(addr, room, key, (page.from, page.count), move |stored, perspective| {
            let share = perspective.map(|_| secrets::share_key(&stored.meta.master));
            Ok((crate::room::replay::series_record(stored, perspective, page)?, share))
        })
        .await
    }

    /// The replay of finished deal `deal` of `room`'s series, for the holder of `key` asking
    /// from `addr`.
    ///
    /// # Errors
    /// `series/not_found`, `room/broken`, `replay/unavailable` (a deal still being played, or
    /// none such), `server/busy` or `server/storage`.
    pub async fn series_replay(&self, addr: IpAddr, room: &str, key: &str, deal: u32) -> Result<DealReplay, ErrorCode> {
        self.with_series(addr, room, key, (deal, 1), move |stored, perspective| {
            crate::room::replay::replay_deal(stored, deal, perspective)
        })
        .await?
        .ok_or(ErrorCode::ReplayUnavailable)
    }
}
