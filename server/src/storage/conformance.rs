//! The engine test suite: what every storage engine must do, written once over any engine.
//!
//! An engine's tests implement [`Harness`] (a new store, and the same store opened again, in
//! this process or in a child) and run `engine_suite!(TheirHarness);`, which makes one test of
//! each check below. Every check goes through [`Storage`], the handle the server holds.

use std::collections::BTreeMap;
use std::io::BufRead as _;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use fipsen_protocol::RoomOptions;
use fipsen_rules::{GameRules, Seed};
use futures_util::future::join_all;

use super::{
    DealEntry, ROOM_RECORD_FORMAT, RoomMeta, Storage, StorageError, StoredRecord, StoredRoom, TOURNAMENT_RECORD_FORMAT,
};

/// What the suite needs of an engine.
pub(crate) trait Harness: Sized {
    /// A new, empty store, kept until the harness is dropped.
    fn create() -> Self;
    /// The store's address, for [`Harness::at`] in a child process.
    fn address(&self) -> String;
    /// The store at `address`, made by [`Harness::create`] in another process.
    fn at(address: &str) -> Self;
    /// Opens the store: a handle, and the engine's thread (it ends after a shutdown).
    fn open(&self) -> (Storage, JoinHandle<()>);
    /// Whether the engine can be tested here (an engine that needs a database server says no,
    /// having said why, when none is given); each check returns at once if not.
    fn available() -> bool {
        true
    }
}

/// Makes one test of each check of the suite for the engine that `$harness` opens.
macro_rules! engine_suite {
    ($harness:ty) => {
        engine_suite!(@checks $harness;
            appends_come_back_in_order,
            concurrent_appends_of_many_rooms_are_all_committed_in_order,
            a_refused_write_leaves_nothing,
            tokens_are_found_by_hash,
            active_flags_decide_what_is_restored,
            retention_lists_closed_rooms_but_tables_of_unfinished_tournaments,
            tournaments_are_stored_in_order,
            deleting_a_room_removes_everything_of_it,
            rooms_and_formats_read_back_as_written,
            a_room_s_creation_row_reads_alone,
            ranges_of_records_and_deal_index_rows_read_alone,
            shutdown_finishes_what_was_handed_over_and_refuses_the_rest
        );

        /// The writes a child process had acknowledged when it was killed with SIGKILL are all
        /// there when the store is opened again.
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn acknowledged_writes_survive_sigkill() {
            if !<$harness as $crate::storage::conformance::Harness>::available() {
                return;
            }
            let test = concat!(module_path!(), "::acknowledged_writes_survive_sigkill");
            $crate::storage::conformance::acknowledged_writes_survive_sigkill::<$harness>(test).await;
        }
    };
    (@checks $harness:ty; $($check:ident),*) => {
        $(
            #[tokio::test]
            async fn $check() {
                if !<$harness as $crate::storage::conformance::Harness>::available() {
                    return;
                }
                $crate::storage::conformance::$check::<$harness>().await;
            }
        )*
    };
}

/// Closes the store (a shutdown, then its thread ended) and opens it again.
async fn reopen<H: Harness>(harness: &H, (storage, thread): (Storage, JoinHandle<()>)) -> (Storage, JoinHandle<()>) {
    storage.shutdown().await.expect("shutdown");
    thread.join().expect("the engine's thread ends");
    harness.open()
}

/// A room's creation row: `created_at` also makes its seed.
pub(crate) fn meta(code: &str, created_at: u64) -> RoomMeta {
    RoomMeta {
        code: code.into(),
        created_at,
        title: format!("Room {code}"),
        rules: GameRules::default(),
        options: RoomOptions::default(),
        master: Seed([created_at as u8; 32]),
        tournament: None,
    }
}

/// The JSON of a room's record `i`.
fn record(code: &str, i: u64) -> String {
    format!("{{\"room\":\"{code}\",\"r\":{i}}}")
}

/// Creates a room with `records` records (`seq_before` twice the index); the first introduces
/// the token `hash-<code>` of participant 0.
pub(crate) async fn fill(storage: &Storage, code: &str, created_at: u64, records: u64) {
    storage.create_room(meta(code, created_at)).await.expect("create");
    for i in 0..records {
        let token = (i == 0).then(|| (format!("hash-{code}"), 0));
        storage.append(Arc::from(code), i, i * 2, record(code, i), token).await.expect("append");
    }
}

/// Rooms AAAA, BBBB and CCCC, created in this order, with 5, 3 and no records.
async fn three_rooms(storage: &Storage) {
    fill(storage, "AAAA", 1, 5).await;
    fill(storage, "BBBB", 2, 3).await;
    fill(storage, "CCCC", 3, 0).await;
}

/// A room's records as (`seq_before`, JSON).
pub(crate) fn records(room: &StoredRoom) -> Vec<(u64, String)> {
    room.records.iter().map(|r| (r.seq_before, r.json.clone())).collect()
}

/// What [`fill`] stores for a room of `count` records.
fn filled(code: &str, count: u64) -> Vec<(u64, String)> {
    (0..count).map(|i| (i * 2, record(code, i))).collect()
}

async fn stored(storage: &Storage, code: &str) -> Vec<(u64, String)> {
    records(&storage.load(code).await.expect("load").unwrap_or_else(|| panic!("{code} stored")))
}

/// Records come back in the order they were appended, with their `seq_before`, before and after
/// a restart; a room unknown is `None`, a room without records has none.
pub(crate) async fn appends_come_back_in_order<H: Harness>() {
    let harness = H::create();
    let (storage, thread) = harness.open();
    three_rooms(&storage).await;
    // Appended between the others' records: each room keeps its own order.
    storage.append(Arc::from("AAAA"), 5, 40, record("AAAA", 5), None).await.expect("append");
    let mut a = filled("AAAA", 5);
    a.push((40, record("AAAA", 5)));
    assert_eq!(stored(&storage, "AAAA").await, a);
    assert_eq!(stored(&storage, "BBBB").await, filled("BBBB", 3));
    assert!(stored(&storage, "CCCC").await.is_empty());
    assert!(storage.load("DDDD").await.expect("load").is_none());
    let (storage, _thread) = reopen(&harness, (storage, thread)).await;
    assert_eq!(stored(&storage, "AAAA").await, a);
    assert_eq!(stored(&storage, "BBBB").await, filled("BBBB", 3));
    assert!(storage.load("DDDD").await.expect("load").is_none());
}

/// Many rooms appending at once (the group commit's case): every append is acknowledged, and
/// after a restart every room holds all of its records, in order.
pub(crate) async fn concurrent_appends_of_many_rooms_are_all_committed_in_order<H: Harness>() {
    const ROOMS: u64 = 24;
    const RECORDS: u64 = 30;
    let harness = H::create();
    let (storage, thread) = harness.open();
    let codes: Vec<String> = (0..ROOMS).map(|i| format!("R{i:03}")).collect();
    join_all(codes.iter().enumerate().map(|(i, code)| {
        let storage = storage.clone();
        async move { fill(&storage, code, i as u64, RECORDS).await }
    }))
    .await;
    let (storage, _thread) = reopen(&harness, (storage, thread)).await;
    for code in &codes {
        assert_eq!(stored(&storage, code).await, filled(code, RECORDS), "{code}");
    }
    let hashes = codes.iter().map(|c| format!("hash-{c}")).collect();
    let found = storage.find_tokens(hashes).await.expect("tokens");
    assert_eq!(found, codes.iter().map(|c| (c.clone(), 0)).collect::<Vec<_>>());
}

/// A write that fails stores nothing of itself, even with other writes committed beside it:
/// an append to an unknown room, at a number already taken, with a token hash already taken;
/// a room created twice; tournament records of which one is at a number already taken.
pub(crate) async fn a_refused_write_leaves_nothing<H: Harness>() {
    let harness = H::create();
    let (storage, thread) = harness.open();
    fill(&storage, "AAAA", 1, 2).await;
    fill(&storage, "BBBB", 2, 1).await;
    let good = storage.append(Arc::from("AAAA"), 2, 4, record("AAAA", 2), Some(("hash-new".into(), 1)));
    let unknown = storage.append(Arc::from("ZZZZ"), 0, 0, record("ZZZZ", 0), Some(("hash-zzzz".into(), 0)));
    let taken_index = storage.append(Arc::from("BBBB"), 0, 9, "{\"again\":0}".into(), None);
    let taken_token = storage.append(Arc::from("BBBB"), 1, 2, record("BBBB", 1), Some(("hash-AAAA".into(), 3)));
    let twice = storage.create_room(RoomMeta { title: "again".into(), ..meta("AAAA", 9) });
    let (good, unknown, taken_index, taken_token, twice) =
        futures_util::future::join5(good, unknown, taken_index, taken_token, twice).await;
    good.expect("the good append beside the refused ones");
    assert!(unknown.is_err() && taken_index.is_err() && taken_token.is_err() && twice.is_err());
    storage.create_tournament("TTTT".into(), 1, vec!["t0".into()]).await.expect("tournament");
    storage.append_tournament("TTTT".into(), 2, vec!["t2".into()], false).await.expect("a later number");
    let overlapping = storage.append_tournament("TTTT".into(), 1, vec!["t1".into(), "t2 again".into()], true).await;
    assert!(overlapping.is_err(), "a record at a number already taken");
    check_refused(&storage, "before a restart").await;
    let (storage, _thread) = reopen(&harness, (storage, thread)).await;
    check_refused(&storage, "after a restart").await;
}

/// What [`a_refused_write_leaves_nothing`] finds stored: the good writes only.
async fn check_refused(storage: &Storage, when: &str) {
    let a = storage.load("AAAA").await.expect("load").expect("AAAA");
    assert_eq!(a.meta.title, "Room AAAA", "{when}");
    let mut expected = filled("AAAA", 2);
    expected.push((4, record("AAAA", 2)));
    assert_eq!(records(&a), expected, "{when}");
    assert_eq!(stored(storage, "BBBB").await, filled("BBBB", 1), "{when}");
    assert!(storage.load("ZZZZ").await.expect("load").is_none(), "{when}");
    let hashes = ["hash-AAAA", "hash-new", "hash-zzzz", "hash-BBBB"].map(String::from).to_vec();
    let tokens = storage.find_tokens(hashes).await.expect("tokens");
    assert_eq!(tokens, vec![("AAAA".into(), 0), ("AAAA".into(), 1), ("BBBB".into(), 0)], "{when}");
    let t = storage.load_tournament("TTTT").await.expect("load").expect("TTTT");
    assert_eq!(t.records, ["t0", "t2"], "{when}");
    assert_eq!(storage.active_tournaments().await.expect("active"), ["TTTT"], "not finished: {when}");
}

/// Token hashes lead to their room and participant, in the order asked, an unknown one left
/// out.
pub(crate) async fn tokens_are_found_by_hash<H: Harness>() {
    let harness = H::create();
    let (storage, thread) = harness.open();
    fill(&storage, "AAAA", 1, 1).await;
    fill(&storage, "BBBB", 2, 1).await;
    storage.append(Arc::from("AAAA"), 1, 2, record("AAAA", 1), Some(("hash-second".into(), 3))).await.expect("append");
    let ask = || ["hash-second", "nope", "hash-BBBB", "hash-AAAA"].map(String::from).to_vec();
    let expected = vec![("AAAA".to_string(), 3), ("BBBB".to_string(), 0), ("AAAA".to_string(), 0)];
    assert_eq!(storage.find_tokens(ask()).await.expect("tokens"), expected);
    assert!(storage.find_tokens(Vec::new()).await.expect("none asked").is_empty());
    let (storage, _thread) = reopen(&harness, (storage, thread)).await;
    assert_eq!(storage.find_tokens(ask()).await.expect("tokens"), expected);
}

/// The rooms marked active are the ones listed at start (oldest first) and read back as
/// stored; a write after they were listed is seen; the flags survive a restart.
pub(crate) async fn active_flags_decide_what_is_restored<H: Harness>() {
    let harness = H::create();
    let (storage, thread) = harness.open();
    three_rooms(&storage).await;
    storage.set_active(Arc::from("BBBB"), false).await.expect("close");
    let (storage, thread) = reopen(&harness, (storage, thread)).await;
    assert_eq!(storage.active_rooms().await.expect("active"), ["AAAA", "CCCC"]);
    let a = storage.load("AAAA").await.expect("load").expect("AAAA stored");
    assert_eq!((a.meta.title.as_str(), a.meta.master), ("Room AAAA", Seed([1; 32])));
    assert_eq!(records(&a), filled("AAAA", 5));
    assert_eq!(stored(&storage, "BBBB").await, filled("BBBB", 3), "a closed room loads too");
    assert!(stored(&storage, "CCCC").await.is_empty());
    // Listed again, marked active again, then a record appended: the next load has it.
    assert_eq!(storage.active_rooms().await.expect("active"), ["AAAA", "CCCC"]);
    storage.set_active(Arc::from("AAAA"), true).await.expect("mark");
    storage.append(Arc::from("AAAA"), 5, 10, record("AAAA", 5), None).await.expect("append");
    let mut a = filled("AAAA", 5);
    a.push((10, record("AAAA", 5)));
    assert_eq!(stored(&storage, "AAAA").await, a);
    storage.set_active(Arc::from("CCCC"), false).await.expect("close");
    storage.set_active(Arc::from("BBBB"), true).await.expect("open");
    assert_eq!(storage.active_rooms().await.expect("active"), ["AAAA", "BBBB"]);
    let (storage, _thread) = reopen(&harness, (storage, thread)).await;
    assert_eq!(storage.active_rooms().await.expect("active"), ["AAAA", "BBBB"]);
    assert_eq!(stored(&storage, "AAAA").await, a);
}

fn now_ms() -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    u64::try_from(now.as_millis()).expect("milliseconds")
}

/// Retention lists the rooms closed before a time (counted from their closing), by code, not
/// the active ones nor the tables of a tournament not yet finished; deleting a closed room
/// keeps it if it was opened again meanwhile.
pub(crate) async fn retention_lists_closed_rooms_but_tables_of_unfinished_tournaments<H: Harness>() {
    let harness = H::create();
    let (storage, thread) = harness.open();
    storage.create_tournament("TTTT".into(), 1, vec!["{}".into()]).await.expect("tournament");
    let table = RoomMeta { tournament: Some(r#"{"tournament":"TTTT","name":"T"}"#.into()), ..meta("TAB1", 1) };
    storage.create_room(table).await.expect("table");
    fill(&storage, "ROOM", 1, 2).await;
    fill(&storage, "OPEN", 1, 1).await;
    fill(&storage, "BACK", 1, 1).await;
    let before_closing = now_ms();
    for code in ["TAB1", "ROOM", "BACK"] {
        storage.set_active(Arc::from(code), false).await.expect("close");
    }
    let later = now_ms() + 60_000;
    assert!(storage.closed_before(0).await.expect("closed").is_empty());
    // Created long ago, but closed only now: not yet.
    assert!(storage.closed_before(before_closing.saturating_sub(1)).await.expect("closed").is_empty());
    assert_eq!(storage.closed_before(later).await.expect("closed"), ["BACK", "ROOM"]);
    storage.append_tournament("TTTT".into(), 1, vec!["{}".into()], true).await.expect("finish");
    let (storage, _thread) = reopen(&harness, (storage, thread)).await;
    assert_eq!(storage.closed_before(later).await.expect("closed"), ["BACK", "ROOM", "TAB1"]);
    // Opened again before retention got to it: stays; an active room stays too.
    storage.set_active(Arc::from("BACK"), true).await.expect("open again");
    for code in ["BACK", "ROOM", "OPEN"] {
        storage.delete_closed_room(Arc::from(code)).await.expect("delete if closed");
    }
    assert!(storage.load("ROOM").await.expect("load").is_none());
    assert!(storage.find_tokens(vec!["hash-ROOM".into()]).await.expect("tokens").is_empty());
    assert_eq!(stored(&storage, "BACK").await, filled("BACK", 1));
    assert_eq!(stored(&storage, "OPEN").await, filled("OPEN", 1));
    assert_eq!(storage.closed_before(later).await.expect("closed"), ["TAB1"]);
    assert_eq!(storage.active_rooms().await.expect("active"), ["OPEN", "BACK"]);
}

/// Tournaments keep their records in order, with their format; the unfinished ones are listed
/// oldest first, and a finished one no more.
pub(crate) async fn tournaments_are_stored_in_order<H: Harness>() {
    let harness = H::create();
    let (storage, thread) = harness.open();
    storage.create_tournament("T1".into(), 5, vec!["a".into(), "b".into()]).await.expect("T1");
    storage.create_tournament("T2".into(), 3, Vec::new()).await.expect("T2");
    storage.create_tournament("T3".into(), 4, vec!["x".into()]).await.expect("T3");
    storage.append_tournament("T1".into(), 2, vec!["c".into(), "d".into()], false).await.expect("append");
    storage.append_tournament("T2".into(), 0, vec!["e".into()], false).await.expect("append");
    assert_eq!(storage.active_tournaments().await.expect("active"), ["T2", "T3", "T1"]);
    storage.append_tournament("T3".into(), 1, Vec::new(), true).await.expect("finish");
    assert!(storage.create_tournament("T1".into(), 9, Vec::new()).await.is_err(), "an id is taken once");
    let (storage, _thread) = reopen(&harness, (storage, thread)).await;
    assert_eq!(storage.active_tournaments().await.expect("active"), ["T2", "T1"]);
    let t1 = storage.load_tournament("T1").await.expect("load").expect("T1");
    assert_eq!((t1.id.as_str(), t1.created_at), ("T1", 5));
    assert_eq!(t1.records, ["a", "b", "c", "d"]);
    assert_eq!(t1.formats, [TOURNAMENT_RECORD_FORMAT; 4]);
    let t3 = storage.load_tournament("T3").await.expect("load").expect("a finished one loads");
    assert_eq!(t3.records, ["x"]);
    assert!(storage.load_tournament("T9").await.expect("load").is_none());
}

/// Deleting a room takes its records and its tokens; other rooms stay, and the code may be
/// used again.
pub(crate) async fn deleting_a_room_removes_everything_of_it<H: Harness>() {
    let harness = H::create();
    let (storage, thread) = harness.open();
    fill(&storage, "AAAA", 1, 4).await;
    fill(&storage, "BBBB", 2, 2).await;
    storage.delete_room(Arc::from("AAAA")).await.expect("delete an active room");
    storage.delete_room(Arc::from("NONE")).await.expect("deleting a room not stored does nothing");
    assert!(storage.load("AAAA").await.expect("load").is_none());
    let hashes = || vec!["hash-AAAA".to_string(), "hash-BBBB".to_string()];
    assert_eq!(storage.find_tokens(hashes()).await.expect("tokens"), [("BBBB".to_string(), 0)]);
    assert_eq!(storage.active_rooms().await.expect("active"), ["BBBB"]);
    let (storage, _thread) = reopen(&harness, (storage, thread)).await;
    assert!(storage.load("AAAA").await.expect("load").is_none());
    assert_eq!(stored(&storage, "BBBB").await, filled("BBBB", 2));
    fill(&storage, "AAAA", 7, 1).await;
    assert_eq!(stored(&storage, "AAAA").await, filled("AAAA", 1), "a new room, nothing of the old");
    assert_eq!(storage.find_tokens(hashes()).await.expect("tokens").len(), 2);
}

/// A deal index row of `room`: deal `number`, records `2n` to `2n + 1`.
fn deal(room: &str, number: u32, data: &str) -> DealEntry {
    let first = u64::from(number) * 2;
    DealEntry { number, first, last: first + 1, data: format!("{{\"room\":\"{room}\",\"d\":\"{data}\"}}") }
}

/// A range of a room's records reads those records alone, in order; the deal index keeps a
/// room's rows by number (a row written again replaces it), reads a range of them and the
/// latest beside its creation row, before and after a restart, and goes with its room.
pub(crate) async fn ranges_of_records_and_deal_index_rows_read_alone<H: Harness>() {
    let harness = H::create();
    let (storage, thread) = harness.open();
    fill(&storage, "AAAA", 1, 10).await;
    fill(&storage, "BBBB", 2, 3).await;
    let range = storage.load_records("AAAA", 3, 6).await.expect("a range");
    assert_eq!(
        range.iter().map(|r| (r.index, r.seq_before, r.json.clone())).collect::<Vec<_>>(),
        [(3, 6, record("AAAA", 3)), (4, 8, record("AAAA", 4)), (5, 10, record("AAAA", 5))]
    );
    assert!(storage.load_records("AAAA", 10, 20).await.expect("past the end").is_empty());
    assert!(storage.load_records("NONE", 0, 5).await.expect("no room").is_empty());

    let none = storage.load_deals("AAAA", 1, 5).await.expect("deals").expect("the room");
    assert_eq!((none.meta.code.as_str(), none.latest, none.deals), ("AAAA", None, Vec::new()));
    assert!(storage.load_deals("NONE", 1, 5).await.expect("deals").is_none());
    let room = Arc::<str>::from("AAAA");
    storage.put_deals(room.clone(), vec![deal("AAAA", 1, "one"), deal("AAAA", 2, "two")]).await.expect("put");
    storage.put_deals(room.clone(), vec![deal("AAAA", 2, "again"), deal("AAAA", 3, "three")]).await.expect("put");
    storage.put_deals(Arc::from("BBBB"), vec![deal("BBBB", 1, "b")]).await.expect("put");
    let (storage, thread) = reopen(&harness, (storage, thread)).await;
    let read = storage.load_deals("AAAA", 2, 5).await.expect("deals").expect("the room");
    assert_eq!(read.deals, [deal("AAAA", 2, "again"), deal("AAAA", 3, "three")]);
    assert_eq!(read.latest, Some(deal("AAAA", 3, "three")));
    let first = storage.load_deals("AAAA", 1, 1).await.expect("deals").expect("the room");
    assert_eq!((first.deals, first.latest), (vec![deal("AAAA", 1, "one")], Some(deal("AAAA", 3, "three"))));
    let latest_only = storage.load_deals("BBBB", u32::MAX, 0).await.expect("deals").expect("the room");
    assert_eq!((latest_only.deals, latest_only.latest), (Vec::new(), Some(deal("BBBB", 1, "b"))));

    storage.delete_room(room.clone()).await.expect("delete");
    fill(&storage, "AAAA", 7, 1).await;
    let fresh = storage.load_deals("AAAA", 1, 5).await.expect("deals").expect("the room");
    assert_eq!((fresh.latest, fresh.deals), (None, Vec::new()), "a new room, nothing of the old");
    drop(thread);
}

/// A room's creation row reads back as written, and every record with the format it was
/// written in: the one given for a room's first records, this build's for an appended one.
pub(crate) async fn rooms_and_formats_read_back_as_written<H: Harness>() {
    let harness = H::create();
    let (storage, thread) = harness.open();
    let rules: GameRules = serde_json::from_str(r#"{"players": 4, "deals": 3}"#).expect("rules");
    let options: RoomOptions = serde_json::from_str(r#"{"next_deal_seconds": null}"#).expect("options");
    let written = RoomMeta {
        code: "META".into(),
        created_at: 1_764_000_000_123,
        title: "Tisch „Eins“ — 卓".into(),
        rules,
        options,
        master: Seed(std::array::from_fn(|i| i as u8)),
        tournament: Some(r#"{"tournament":"TTTT","name":"T"}"#.into()),
    };
    let first = [(0, "{\"a\":1}", ROOM_RECORD_FORMAT), (1, "{\"b\":2}", ROOM_RECORD_FORMAT + 6)]
        .map(|(seq_before, json, format)| StoredRecord { index: seq_before, seq_before, json: json.into(), format })
        .to_vec();
    storage.create_room_with(written.clone(), first).await.expect("create");
    storage.append(Arc::from("META"), 2, 5, "{\"c\":3}".into(), None).await.expect("append");
    let (storage, _thread) = reopen(&harness, (storage, thread)).await;
    let read = storage.load("META").await.expect("load").expect("stored");
    assert_eq!(
        (&read.meta.code, read.meta.created_at, &read.meta.title, &read.meta.rules, &read.meta.options),
        (&written.code, written.created_at, &written.title, &written.rules, &written.options)
    );
    assert_eq!((read.meta.master, &read.meta.tournament), (written.master, &written.tournament));
    // Each record comes back with its number in the log (a restore checks that none is missing).
    let formats: Vec<(u64, u64, &str, u32)> =
        read.records.iter().map(|r| (r.index, r.seq_before, r.json.as_str(), r.format)).collect();
    assert_eq!(
        formats,
        [
            (0, 0, "{\"a\":1}", ROOM_RECORD_FORMAT),
            (1, 1, "{\"b\":2}", ROOM_RECORD_FORMAT + 6),
            (2, 5, "{\"c\":3}", ROOM_RECORD_FORMAT)
        ]
    );
}

/// A room's creation row reads on its own, before and after a restart, the same as with its
/// records; an unknown room is none.
pub(crate) async fn a_room_s_creation_row_reads_alone<H: Harness>() {
    let harness = H::create();
    let (storage, thread) = harness.open();
    assert!(storage.load_meta("NONE").await.expect("load_meta").is_none());
    fill(&storage, "ALONE", 7, 40).await;
    let before = storage.load_meta("ALONE").await.expect("load_meta").expect("stored");
    let (storage, _thread) = reopen(&harness, (storage, thread)).await;
    let after = storage.load_meta("ALONE").await.expect("load_meta").expect("stored");
    let whole = storage.load("ALONE").await.expect("load").expect("stored");
    for meta in [&before, &after] {
        assert_eq!(
            (&meta.code, meta.created_at, &meta.title, &meta.rules, meta.master),
            (&whole.meta.code, whole.meta.created_at, &whole.meta.title, &whole.meta.rules, whole.meta.master)
        );
    }
    assert_eq!(whole.records.len(), 40);
    assert!(storage.load_meta("NONE").await.expect("load_meta").is_none());
}

/// A shutdown answers once what was handed over before it is done; afterwards every operation,
/// on any handle, fails as closed, and the engine's thread ends. A probe writes while open.
pub(crate) async fn shutdown_finishes_what_was_handed_over_and_refuses_the_rest<H: Harness>() {
    let harness = H::create();
    let (storage, thread) = harness.open();
    let other = storage.clone();
    storage.probe().await.expect("probe");
    fill(&storage, "AAAA", 1, 0).await;
    let appends = (0..20).map(|i| storage.append(Arc::from("AAAA"), i, i * 2, record("AAAA", i), None));
    let (appended, shut) = futures_util::future::join(join_all(appends), storage.shutdown()).await;
    shut.expect("shutdown");
    assert!(appended.iter().all(Result::is_ok), "handed over before the shutdown: {appended:?}");
    assert!(matches!(other.append(Arc::from("AAAA"), 20, 40, "{}".into(), None).await, Err(StorageError::Closed)));
    assert!(matches!(other.probe().await, Err(StorageError::Closed)));
    assert!(matches!(other.load("AAAA").await, Err(StorageError::Closed)));
    assert!(matches!(storage.shutdown().await, Err(StorageError::Closed)));
    thread.join().expect("the engine's thread ends while handles remain");
    let (storage, _thread) = harness.open();
    assert_eq!(stored(&storage, "AAAA").await, filled("AAAA", 20));
    storage.probe().await.expect("probe after reopening");
}

/// The variable that makes the SIGKILL test's own process the child: the store's address.
const CHILD: &str = "FIPSEN_STORAGE_SUITE_CHILD";

/// Rooms the child writes to at once.
const CHILD_ROOMS: u64 = 8;

/// Acknowledgements the parent waits for before it kills the child.
const KILL_AFTER: usize = 400;

/// The child: creates rooms and appends to all of them at once, printing `acked CODE INDEX`
/// for each acknowledged append (the first of each room with a token), until it is killed.
async fn sigkill_child<H: Harness>(address: &str) {
    let harness = H::at(address);
    let (storage, _thread) = harness.open();
    let stop = Instant::now() + Duration::from_secs(60);
    join_all((0..CHILD_ROOMS).map(|r| {
        let storage = storage.clone();
        async move {
            let code = format!("K{r:03}");
            storage.create_room(meta(&code, r)).await.expect("create");
            let mut i = 0;
            while Instant::now() < stop {
                let token = (i == 0).then(|| (format!("hash-{code}"), 0));
                storage.append(Arc::from(code.as_str()), i, i * 2, record(&code, i), token).await.expect("append");
                println!("acked {code} {i}");
                i += 1;
            }
        }
    }))
    .await;
}

/// Runs this test again as a child process appending to the store, kills it with SIGKILL once
/// it acknowledged [`KILL_AFTER`] appends, and opens the store: every acknowledged record is
/// there, each room's records in order without a gap (a commit not yet acknowledged may be
/// there too), and the tokens.
pub(crate) async fn acknowledged_writes_survive_sigkill<H: Harness>(test: &str) {
    if let Ok(address) = std::env::var(CHILD) {
        return sigkill_child::<H>(&address).await;
    }
    let harness = H::create();
    let name = test.split_once("::").map_or(test, |(_, name)| name);
    let mut child = std::process::Command::new(std::env::current_exe().expect("this test binary"))
        .args(["--exact", name, "--nocapture", "--test-threads=1"])
        .env(CHILD, harness.address())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the child process");
    let stdout = child.stdout.take().expect("its output");
    let (lines, acks) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Some(ack) = line.strip_prefix("acked ") {
                let (code, index) = ack.split_once(' ').expect("acked CODE INDEX");
                let _ = lines.send((code.to_string(), index.parse::<u64>().expect("an index")));
            }
        }
    });
    let mut acked: BTreeMap<String, u64> = BTreeMap::new();
    let mut count = 0;
    let deadline = Instant::now() + Duration::from_secs(60);
    while count < KILL_AFTER {
        let left = deadline.saturating_duration_since(Instant::now());
        let (code, index) = acks.recv_timeout(left).expect("the child acknowledges appends");
        acked.insert(code, index);
        count += 1;
    }
    child.kill().expect("SIGKILL");
    child.wait().expect("the child ended");
    reader.join().expect("its output read to the end");
    // Acknowledged before the kill, read after it.
    for (code, index) in acks.try_iter() {
        acked.insert(code, index);
    }
    let (storage, _thread) = harness.open();
    assert_eq!(acked.len() as u64, CHILD_ROOMS, "every room acknowledged appends: {acked:?}");
    for (code, last) in &acked {
        let held = stored(&storage, code).await;
        assert!(held.len() as u64 > *last, "{code}: acknowledged up to {last}, {} stored", held.len());
        assert_eq!(held, filled(code, held.len() as u64), "{code} in order, without a gap");
    }
    let hashes = acked.keys().map(|c| format!("hash-{c}")).collect();
    assert_eq!(storage.find_tokens(hashes).await.expect("tokens").len() as u64, CHILD_ROOMS);
}
