//! The deal index of a room: one row per finished deal, kept as the room's records are stored,
//! so that a series page, its export, a replay or a review reads the rows and the records of the
//! deals asked for and never the room's whole log.
//!
//! A row ([`DealEntry`]) names the deal's records (the one that dealt it, the one that ended it)
//! and keeps the series as the deal left it, without the scoresheet's rows of earlier deals
//! ([`fipsen_rules::AnyGame::with_rows_from`]): its totals, and whatever a game carries from deal
//! to deal (Tippen's pot and reserve, Thedinghausen's round, balances and slips), so that the
//! next deal is dealt again from it alone; and who sat where when it ended. What a row keeps is
//! for the server alone (hidden hands, the master seed): a page or a replay shows only what
//! [`crate::replay`] builds from it, for finished deals.
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
//! own row says, or the room is broken (see [`crate::replay`]).

use fipsen_rules::{AnyGame, Seat};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::room::core::Core;
use crate::room::{Damaged, Record};
use crate::storage::{DealEntry, RoomMeta, Storage, StorageError, StoredRecord, StoredRoom};

/// What a deal's row keeps beside its number and records ([`DealEntry::data`]).
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Kept {
    /// The series as the deal left it, without the rows of earlier deals
    /// ([`AnyGame::state_json`]).
    end: Value,
    /// The name at each seat when the deal ended.
    players: Vec<Option<String>>,
    /// The participant at each seat when the deal ended.
    seats: Vec<Option<u32>>,
}

/// A row's data, read.
///
/// # Errors
/// [`Damaged::Refused`] at the deal's last record: the row does not read.
fn kept(entry: &DealEntry) -> Result<Kept, Damaged> {
    serde_json::from_str(&entry.data).map_err(|e| Damaged::Refused {
        index: entry.last,
        reason: format!("the deal index's row of deal {} does not read: {e}", entry.number),
    })
}

/// The series as deal `entry` left it (without the rows of earlier deals), read from its row.
///
/// # Errors
/// The row does not read, or is not a series of `meta`'s game.
pub fn end_of(meta: &RoomMeta, entry: &DealEntry) -> Result<AnyGame, Damaged> {
    AnyGame::from_state_json(meta.rules.game(), kept(entry)?.end).map_err(|e| Damaged::Refused {
        index: entry.last,
        reason: format!("the deal index's series after deal {} does not read: {e}", entry.number),
    })
}

/// Whether `end` (a series at the end of a deal, with the rows from `rows_from` on) is what
/// `entry` keeps.
pub fn ends_as_kept(end: &AnyGame, rows_from: usize, entry: &DealEntry) -> Result<bool, Damaged> {
    Ok(end.with_rows_from(rows_from).state_json() == kept(entry)?.end)
}

/// Follows a room's records as the core applies them and makes the row of each deal that ends
/// (kept until the room's task takes them to store).
#[derive(Debug, Default)]
pub struct Indexer {
    /// The record that dealt the deal being played, and the scoresheet's rows before it.
    dealt: Option<(u64, usize)>,
    /// The last deal whose row is made (or was stored before: a restore makes only the rows
    /// after it).
    done: u32,
    /// Rows made and not yet stored.
    pending: Vec<DealEntry>,
}

impl Indexer {
    /// An indexer that makes the rows of the deals after deal `done` (0: of every deal).
    pub fn after(done: u32) -> Indexer {
        Indexer { done, ..Indexer::default() }
    }

    /// Follows record number `index`, just applied: `series` is the series after it, and
    /// `seating` tells the name and the participant at each seat (asked only when a deal ended).
    pub fn follow(
        &mut self,
        index: u64,
        record: &Record,
        series: Option<&AnyGame>,
        seating: impl FnOnce() -> (Vec<Option<String>>, Vec<Option<u32>>),
    ) {
        let Some(series) = series else { return };
        if matches!(record, Record::Started | Record::NextDeal) {
            self.dealt = Some((index, series.rows()));
        }
        let number = series.deal_number();
        if !series.deal_over() || number <= self.done {
            return;
        }
        let Some((first, rows)) = self.dealt else { return };
        let (players, seats) = seating();
        let kept = Kept { end: series.with_rows_from(rows).state_json(), players, seats };
        let data = serde_json::to_string(&kept).unwrap_or_default();
        self.pending.push(DealEntry { number, first, last: index, data });
        self.done = number;
    }

    /// The rows made and not yet stored, taken to store.
    pub fn take(&mut self) -> Vec<DealEntry> {
        std::mem::take(&mut self.pending)
    }

    /// Rows taken that could not be stored, kept to try again with the next.
    pub fn put_back(&mut self, mut rows: Vec<DealEntry>) {
        rows.append(&mut self.pending);
        self.pending = rows;
    }
}

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

/// A room held whole in memory (a test's, or one built by [`crate::replay::played_by_bots`]),
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

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use fipsen_rules::{GameId, GameRules};

    use super::read;
    use crate::replay::{SERIES_PAGE_DEALS, SeriesPage, played_by_bots, replay_deal, series_record};
    use crate::storage::{
        DealEntry, Fence, NewRecord, Pending, RoomMeta, Storage, StorageEngine, StoredDeals, StoredRecord, StoredRoom,
        StoredTournament,
    };

    /// An engine that hands everything to another and counts the room records it reads back.
    #[derive(Debug)]
    struct Counting {
        inner: Storage,
        records: AtomicUsize,
    }

    impl Counting {
        fn read(&self) -> usize {
            self.records.swap(0, Ordering::SeqCst)
        }
    }

    impl StorageEngine for Counting {
        fn create_room(&self, meta: RoomMeta, records: Vec<StoredRecord>, _: Option<Fence>) -> Pending<'_, ()> {
            Box::pin(self.inner.create_room_with(meta, records))
        }
        fn append(&self, r: NewRecord) -> Pending<'_, ()> {
            Box::pin(async move { self.inner.append(r.room, r.index, r.seq_before, r.json, r.token).await })
        }
        fn set_active(&self, room: Arc<str>, active: bool, _: Option<Fence>) -> Pending<'_, ()> {
            Box::pin(self.inner.set_active(room, active))
        }
        fn load(&self, room: String) -> Pending<'_, Option<StoredRoom>> {
            Box::pin(async move {
                let stored = self.inner.load(&room).await?;
                self.records.fetch_add(stored.as_ref().map_or(0, |s| s.records.len()), Ordering::SeqCst);
                Ok(stored)
            })
        }
        fn load_meta(&self, room: String) -> Pending<'_, Option<RoomMeta>> {
            Box::pin(async move { self.inner.load_meta(&room).await })
        }
        fn load_records(&self, room: String, from: u64, to: u64) -> Pending<'_, Vec<StoredRecord>> {
            Box::pin(async move {
                let records = self.inner.load_records(&room, from, to).await?;
                self.records.fetch_add(records.len(), Ordering::SeqCst);
                Ok(records)
            })
        }
        fn load_deals(&self, room: String, from: u32, count: u32) -> Pending<'_, Option<StoredDeals>> {
            Box::pin(async move { self.inner.load_deals(&room, from, count).await })
        }
        fn put_deals(&self, room: Arc<str>, deals: Vec<DealEntry>) -> Pending<'_, ()> {
            Box::pin(self.inner.put_deals(room, deals))
        }
        fn active_rooms(&self) -> Pending<'_, Vec<String>> {
            Box::pin(self.inner.active_rooms())
        }
        fn find_tokens(&self, hashes: Vec<String>) -> Pending<'_, Vec<(String, u32)>> {
            Box::pin(self.inner.find_tokens(hashes))
        }
        fn delete_room(&self, room: Arc<str>, _: Option<Fence>) -> Pending<'_, ()> {
            Box::pin(self.inner.delete_room(room))
        }
        fn delete_closed_room(&self, room: Arc<str>) -> Pending<'_, ()> {
            Box::pin(self.inner.delete_closed_room(room))
        }
        fn closed_before(&self, before_ms: u64) -> Pending<'_, Vec<String>> {
            Box::pin(self.inner.closed_before(before_ms))
        }
        fn create_tournament(&self, id: String, at: u64, records: Vec<String>, _: Option<Fence>) -> Pending<'_, ()> {
            Box::pin(self.inner.create_tournament(id, at, records))
        }
        fn append_tournament(
            &self,
            id: String,
            index: u64,
            records: Vec<String>,
            finished: bool,
            _: Option<Fence>,
        ) -> Pending<'_, ()> {
            Box::pin(self.inner.append_tournament(id, index, records, finished))
        }
        fn load_tournament(&self, id: String) -> Pending<'_, Option<StoredTournament>> {
            Box::pin(async move { self.inner.load_tournament(&id).await })
        }
        fn active_tournaments(&self) -> Pending<'_, Vec<String>> {
            Box::pin(self.inner.active_tournaments())
        }
        fn probe(&self) -> Pending<'_, ()> {
            Box::pin(self.inner.probe())
        }
        fn shutdown(&self) -> Pending<'_, ()> {
            Box::pin(self.inner.shutdown())
        }
    }

    /// A page's deals are checked, not taken on trust: a record of theirs missing, an action
    /// of theirs changed, or an index row that does not say how its deal ended makes the page
    /// (and the deal's replay) refused as damaged.
    #[test]
    fn a_page_whose_deal_does_not_end_as_its_row_says_is_refused() {
        let room = super::InMemory::new(played_by_bots(GameRules::default_for(GameId::Prisdorf), 12)).expect("sound");
        let page = SeriesPage::asked(Some(5), Some(3));
        let sound = room.read(page.from, page.count);
        assert_eq!(series_record(&sound, None, page).expect("a sound page").deals.len(), 3);

        let mut missing = sound.clone();
        let middle = missing.records.len() / 2;
        missing.records.remove(middle);
        assert!(matches!(series_record(&missing, None, page), Err(crate::room::Damaged::Missing { .. })));

        // Deal 6's last action replaced by deal 7's first: the rules refuse it, or the deal
        // ends otherwise.
        let mut changed = sound.clone();
        let (six, seven) = (changed.deal(6).expect("deal 6").clone(), changed.deal(7).expect("deal 7").clone());
        let at = |index: u64| changed.records.iter().position(|r| r.index == index).expect("a record");
        let (last, other) = (at(six.last), at(seven.first + 1));
        changed.records[last].json = changed.records[other].json.clone();
        assert!(series_record(&changed, None, page).is_err());
        assert!(replay_deal(&changed, 6, None).is_err());
        assert!(replay_deal(&changed, 5, None).is_ok(), "another deal is not touched");

        // Deal 5's row says another end: its totals changed.
        let mut kept = sound.clone();
        let five = kept.deals.iter_mut().find(|d| d.number == 5).expect("deal 5");
        let mut data: serde_json::Value = serde_json::from_str(&five.data).expect("a row");
        data["end"]["totals"][0] = serde_json::json!(999);
        five.data = data.to_string();
        assert!(matches!(series_record(&kept, None, page), Err(crate::room::Damaged::Refused { .. })));
    }

    /// The records of deals `from` to `to` of a stored room, by its index.
    async fn records_of(storage: &Storage, room: &str, from: u32, to: u32) -> usize {
        let rows = storage.load_deals(room, from, to - from + 1).await.expect("a read").expect("the room").deals;
        assert_eq!(rows.len() as u32, to - from + 1, "every deal has its row");
        rows.iter().map(|d| (d.last - d.first + 1) as usize).sum()
    }

    /// In a stored room of 2,000 finished deals, the last page of the series and the replay of
    /// a late deal read the records of their own deals from storage, and nothing else of the
    /// room's 65,000 records; a room stored before the index existed is read whole once, the
    /// first time its series is asked for, and never again.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_page_and_a_replay_of_a_late_deal_read_the_records_of_their_own_deals_alone() {
        let stored = played_by_bots(GameRules::default_for(GameId::Prisdorf), 2_000);
        let (room, total) = (stored.meta.code.clone(), stored.records.len());
        let dir = tempfile::tempdir().expect("a folder");
        let metrics = Arc::new(crate::metrics::Metrics::default());
        let (inner, _thread) = Storage::open(&dir.path().join("index.sqlite3"), metrics).expect("a store");
        inner.create_room_with(stored.meta, stored.records).await.expect("stored");
        let counting = Arc::new(Counting { inner, records: AtomicUsize::new(0) });
        let storage = Storage::from_engine(counting.clone());

        // Stored without an index: read whole once, and its rows stored.
        let first = read(&storage, &room, 1, 1).await.expect("a sound room").expect("the room");
        assert_eq!(counting.read(), total, "the room is read whole once");
        assert_eq!(first.latest.as_ref().map(|d| d.number), Some(2_000));

        let page = SeriesPage::asked(Some(1_951), None);
        let series = read(&storage, &room, page.from, page.count).await.expect("a sound room").expect("the room");
        let record = series_record(&series, None, page).expect("a sound page");
        let numbers: Vec<u32> = record.deals.iter().map(|d| d.number).collect();
        assert_eq!(numbers, (1_951..=2_000).collect::<Vec<_>>());
        assert_eq!(record.finished, 2_000);
        assert_eq!(counting.read(), records_of(&storage, &room, 1_951, 2_000).await, "the page's deals alone");
        assert_eq!(SERIES_PAGE_DEALS, 50);

        let series = read(&storage, &room, 1_999, 1).await.expect("a sound room").expect("the room");
        let replay = replay_deal(&series, 1_999, None).expect("a sound deal").expect("deal 1999 is over");
        assert_eq!(replay.deal, 1_999);
        assert_eq!(counting.read(), records_of(&storage, &room, 1_999, 1_999).await, "deal 1999's records alone");
        assert!(crate::replay::finished_deal(&series, 1_999).expect("a sound deal").is_some());
    }
}
