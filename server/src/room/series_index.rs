//! The deal index of a room: one row per finished deal, kept as the room's records are stored,
//! so that a series page, its export, a replay or a review reads the rows and the records of the
//! deals asked for and never the room's whole log.
//!
//! A row ([`DealEntry`]) names the deal's records (the one that dealt it, the one that ended it)
//! and keeps the series as the deal left it, without the scoresheet's rows of earlier deals
//! ([`fipsen_rules::AnyGame::with_rows_from`]): its totals, and whatever a game carries from deal
//! to deal (a pot and its reserve, a round of deals, balances and slips), so that the
//! next deal is dealt again from it alone; and who sat where when it ended. What a row keeps is
//! for the server alone (hidden hands, the master seed): a page or a replay shows only what
//! [`crate::room::replay`] builds from it, for finished deals.
//!
//! The room core makes a deal's row when the record that ends the deal is applied
//! ([`Indexer`]); the room's task stores it before it tells anyone of that record's events. A
//! row lost to a crash between the two writes is made again when the room is restored (the
//! restore reads every record anyway, and makes the rows the index lacks), and a room stored
//! before the index existed gets its rows the first time its series is asked for
//! ([`read`]: the whole log read and checked once, as a restore does).
//!
//! A row is never taken on trust: every deal a page or a replay shows is dealt again from the
//! row before it and given its stored actions through the rules, and must end exactly as its
//! own row says, or the room is broken (see [`crate::room::replay`]).

use fipsen_rules::{AnyGame, Seat};

use crate::room::core::Core;
use crate::room::deal_index::kept;
pub use crate::room::deal_index::{Indexer, end_of, ends_as_kept};
use crate::room::record::{Damaged, Record};
use crate::storage::{DealEntry, RoomMeta, Storage, StorageError, StoredRecord, StoredRoom};

/// What a series page, a replay or a review reads of a stored room: its creation row, the index
/// rows of the deals asked for (with the row before the first, which the first is dealt from),
/// the records of the deals asked for, and who sits where.
#[derive(Debug, Clone)]
pub struct StoredSeries {
    /// The creation row.
    pub meta: RoomMeta,
    /// The row of the last finished deal, if a deal is finished.
    pub latest: Option<DealEntry>,
    /// Rows of consecutive deals: those asked for that are finished, and the one before them.
    pub deals: Vec<DealEntry>,
    /// The records of the deals asked for, in order.
    pub records: Vec<StoredRecord>,
    /// The name at each seat (when the last deal ended; the room's last when none has).
    pub players: Vec<Option<String>>,
    /// The participant at each seat, likewise.
    pub seats: Vec<Option<u32>>,
    /// The series as it stands, where no deal is finished yet (a page then shows its sheet).
    pub running: Option<AnyGame>,
}

impl StoredSeries {
    /// The row of deal `number`, if it is read.
    pub fn deal(&self, number: u32) -> Option<&DealEntry> {
        self.deals.iter().find(|d| d.number == number)
    }

    /// The seat of `participant`, if he has one.
    pub fn seat_of(&self, participant: u32) -> Option<Seat> {
        self.seats.iter().position(|&p| p == Some(participant)).map(|s| Seat(s as u8))
    }

    /// Deals `from` to `from + count - 1` of a room read whole (`stored`), with every row of its
    /// index (`rows`, in order) and the seating of the rebuilt room.
    fn of_room(stored: &StoredRoom, rows: &[DealEntry], core: &Core, from: u32, count: u32) -> StoredSeries {
        let asked = |number: u32| number + 1 >= from && number < from.saturating_add(count);
        let deals: Vec<DealEntry> = rows.iter().filter(|d| asked(d.number)).cloned().collect();
        let wanted = deals.iter().filter(|d| d.number >= from);
        let (low, high) = (wanted.clone().map(|d| d.first).min(), wanted.map(|d| d.last).max());
        let records = match (low, high) {
            (Some(low), Some(high)) => {
                stored.records.iter().filter(|r| r.index >= low && r.index <= high).cloned().collect()
            }
            _ => Vec::new(),
        };
        StoredSeries {
            meta: stored.meta.clone(),
            latest: rows.last().cloned(),
            deals,
            records,
            players: core.players(),
            seats: core.seated().to_vec(),
            running: if rows.is_empty() { core.series().cloned() } else { None },
        }
    }
}

/// Why a stored series could not be read.
#[derive(Debug)]
pub enum Unread {
    /// Storage failed.
    Storage(StorageError),
    /// The stored room does not rebuild what was acknowledged.
    Damaged(Damaged),
}

/// Rebuilds a room read whole as a restore does, with every row of its deal index: what a room
/// stored before the index existed is read through once (and a test's room built in memory).
///
/// # Errors
/// The stored room does not rebuild what was acknowledged.
pub fn index_room(stored: &StoredRoom) -> Result<(Core, Vec<DealEntry>), Damaged> {
    let records = Record::read_all(stored)?;
    let mut core =
        Core::restore_indexing(stored.meta.clone(), std::time::Duration::ZERO, &records, std::time::Instant::now(), 0)?;
    let rows = core.take_index();
    Ok((core, rows))
}

/// Deals `from` to `from + count - 1` of `room` as far as they are finished (see
/// [`StoredSeries`]); `None` if the room is not stored. Reads the index rows and the records of
/// those deals alone; a room whose index lacks a row it should have (stored before the index
/// existed, or a row lost) is read whole once, checked as a restore checks it, and its rows
/// stored.
///
/// # Errors
/// Storage failed, or the room (read whole) does not rebuild what was acknowledged.
pub async fn read(storage: &Storage, room: &str, from: u32, count: u32) -> Result<Option<StoredSeries>, Unread> {
    let (from, count) = (from.max(1), count.max(1));
    let start = from - 1;
    // The row before the first asked for, where there is one.
    let ask = if start == 0 { count } else { count.saturating_add(1) };
    let Some(found) = storage.load_deals(room, start.max(1), ask).await.map_err(Unread::Storage)? else {
        return Ok(None);
    };
    let whole = match &found.latest {
        None => true,
        Some(latest) => {
            // Every deal asked for up to the last finished one must have its row, and so must
            // the one before the first (which the first is dealt from).
            let last = latest.number.min(from.saturating_add(count - 1));
            let expected: Vec<u32> = (start.max(1)..=last).collect();
            let numbers: Vec<u32> = found.deals.iter().map(|d| d.number).collect();
            numbers != expected
        }
    };
    if whole {
        return read_whole(storage, room, from, count).await;
    }
    let latest = found.latest.clone();
    let wanted: Vec<&DealEntry> = found.deals.iter().filter(|d| d.number >= from).collect();
    let records = match (wanted.first(), wanted.last()) {
        (Some(first), Some(last)) => {
            storage.load_records(room, first.first, last.last.saturating_add(1)).await.map_err(Unread::Storage)?
        }
        _ => Vec::new(),
    };
    let Some(latest) = latest else { return read_whole(storage, room, from, count).await };
    let seating = kept(&latest).map_err(Unread::Damaged)?;
    Ok(Some(StoredSeries {
        meta: found.meta,
        latest: Some(latest),
        deals: found.deals,
        records,
        players: seating.players,
        seats: seating.seats,
        running: None,
    }))
}

/// [`read`] of a room whose index lacks rows: the whole room read, rebuilt and checked (off the
/// async threads), and the rows it makes stored.
async fn read_whole(storage: &Storage, room: &str, from: u32, count: u32) -> Result<Option<StoredSeries>, Unread> {
    let Some(stored) = storage.load(room).await.map_err(Unread::Storage)? else { return Ok(None) };
    let built = crate::background::run(move || {
        let (core, rows) = index_room(&stored)?;
        let series = StoredSeries::of_room(&stored, &rows, &core, from, count);
        Ok::<_, Damaged>((series, rows))
    })
    .await
    .map_err(|_| Unread::Storage(StorageError::Closed))?;
    let (series, rows) = built.map_err(Unread::Damaged)?;
    if let Err(e) = storage.put_deals(std::sync::Arc::from(room), rows).await {
        tracing::warn!(room, error = %e, "cannot store the deal index");
    }
    Ok(Some(series))
}

/// A room held whole in memory (a test's, or one built by [`crate::room::replay::played_by_bots`]),
/// rebuilt once with every row of its deal index, to read pages and deals of as [`read`] does.
#[derive(Debug)]
pub struct InMemory {
    stored: StoredRoom,
    core: Core,
    rows: Vec<DealEntry>,
}

impl InMemory {
    /// The room rebuilt and indexed.
    ///
    /// # Errors
    /// The room does not rebuild what was acknowledged.
    pub fn new(stored: StoredRoom) -> Result<InMemory, Damaged> {
        let (core, rows) = index_room(&stored)?;
        Ok(InMemory { stored, core, rows })
    }

    /// The rebuilt room.
    pub fn core(&self) -> &Core {
        &self.core
    }

    /// Deals `from` to `from + count - 1`, as [`read`] gives them.
    pub fn read(&self, from: u32, count: u32) -> StoredSeries {
        StoredSeries::of_room(&self.stored, &self.rows, &self.core, from.max(1), count)
    }
}
