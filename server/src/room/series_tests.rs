//! The deal index read from storage ([`read`]) and the pages and replays built from it
//! ([`crate::room::replay`]): each reads the records of its own deals alone, and a damaged row is caught.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use fipsen_rules::GameRules;

use crate::room::replay::{SERIES_PAGE_DEALS, SeriesPage, played_by_bots, replay_deal, series_record};
use crate::room::series_index::read;
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
    let room = crate::room::series_index::InMemory::new(played_by_bots(GameRules::default(), 12)).expect("sound");
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
    let stored = played_by_bots(GameRules::default(), 2_000);
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
    assert!(crate::room::replay::finished_deal(&series, 1_999).expect("a sound deal").is_some());
}
