//! The SQLite engine: the engine test suite, and what is SQLite's own (the checkpoints, the
//! group commit's batches, the migration ladder, the format columns).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use futures_util::future::join_all;
use rusqlite::{Connection, params};

use super::{SCHEMA_VERSION, StorageOptions};
use crate::metrics::Metrics;
use crate::storage::SyncMode;
use crate::storage::conformance::{Harness, fill, meta, records};
use crate::storage::{ROOM_RECORD_FORMAT, Storage, StorageError, StoredRecord, TOURNAMENT_RECORD_FORMAT};

/// A SQLite file in a directory of its own, opened with the default options (`synchronous=FULL`).
struct SqliteFile {
    /// The directory, removed with the harness (`None` in the child process: the parent's).
    _dir: Option<tempfile::TempDir>,
    path: PathBuf,
}

impl Harness for SqliteFile {
    fn create() -> SqliteFile {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("suite.sqlite3");
        SqliteFile { _dir: Some(dir), path }
    }

    fn address(&self) -> String {
        self.path.to_str().expect("a path in UTF-8").to_string()
    }

    fn at(address: &str) -> SqliteFile {
        SqliteFile { _dir: None, path: PathBuf::from(address) }
    }

    fn open(&self) -> (Storage, JoinHandle<()>) {
        Storage::open(&self.path, Arc::new(Metrics::default())).expect("open")
    }
}

engine_suite!(SqliteFile);

/// Appends handed over while a commit runs share the next one: many rooms appending at once
/// take a few transactions, not one each.
#[tokio::test]
async fn appends_of_many_rooms_share_commits() {
    const ROOMS: u64 = 200;
    let dir = tempfile::tempdir().expect("tempdir");
    let metrics = Arc::new(Metrics::default());
    let (storage, _writer) = Storage::open(&dir.path().join("t.sqlite3"), metrics.clone()).expect("open");
    let codes: Vec<String> = (0..ROOMS).map(|i| format!("R{i:03}")).collect();
    for (i, code) in codes.iter().enumerate() {
        fill(&storage, code, i as u64, 0).await;
    }
    let counts =
        || (metrics.committed_writes.load(std::sync::atomic::Ordering::Relaxed), metrics.commit_latency.count());
    // A read answered after the last commit: its figures are counted (after its answers).
    storage.load("R000").await.expect("load");
    let (writes_before, commits_before) = counts();
    let appends = codes.iter().map(|code| storage.append(Arc::from(code.as_str()), 0, 0, "{}".into(), None));
    assert!(join_all(appends).await.iter().all(Result::is_ok));
    storage.load("R000").await.expect("load");
    let (writes, commits) = counts();
    assert_eq!(writes - writes_before, ROOMS);
    assert!(commits - commits_before <= ROOMS / 10, "{} commits for {ROOMS} appends", commits - commits_before);
}

/// The checkpoint settings take effect: after a commit that writes more pages than the log
/// limit, the writer finishes the checkpoint before its next commit, and the log starts over;
/// with a limit the log never reaches, checkpoints only run beside the writer.
#[tokio::test]
async fn the_log_limit_decides_when_the_writer_finishes_a_checkpoint() {
    use std::sync::atomic::Ordering;
    for (limit, held) in [(256, true), (i64::MAX, false)] {
        let dir = tempfile::tempdir().expect("tempdir");
        let metrics = Arc::new(Metrics::default());
        let options = StorageOptions {
            sync: SyncMode::Normal,
            checkpoint_interval: Duration::from_millis(10),
            wal_limit_frames: limit,
        };
        let (storage, _writer) =
            Storage::open_with(&dir.path().join("t.sqlite3"), metrics.clone(), options).expect("open");
        storage.create_room(meta("ROOM", 1)).await.expect("create");
        // About 2 MiB in one commit: some 500 pages of 4 KiB.
        let big = format!("{{\"r\":\"{}\"}}", "x".repeat(2 << 20));
        storage.append(Arc::from("ROOM"), 0, 0, big, None).await.expect("append");
        // The checkpoint thread finds the log long (or not); the writer acts on it before a
        // later commit.
        let mut index = 1;
        for _ in 0..500 {
            if metrics.checkpoint_latency.count() > 0 && (!held || metrics.checkpoint_held_latency.count() > 0) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
            storage.append(Arc::from("ROOM"), index, index, "{}".to_string(), None).await.expect("append");
            index += 1;
        }
        assert!(metrics.checkpoint_latency.count() > 0, "a checkpoint ran");
        assert_eq!(metrics.checkpoint_held_latency.count() > 0, held, "limit {limit}");
        if !held {
            continue;
        }
        // After the writer's step, the next commit starts the log over: the checkpoint thread
        // then finds a short log.
        // (A checkpoint that began just before may still report the old log: a few rounds.)
        let mut frames = 0;
        for _ in 0..3 {
            let checkpoints = metrics.checkpoint_latency.count();
            storage.append(Arc::from("ROOM"), index, index, "{}".to_string(), None).await.expect("append");
            index += 1;
            for _ in 0..500 {
                if metrics.checkpoint_latency.count() > checkpoints {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            frames = metrics.wal_frames.load(Ordering::Relaxed);
            if frames < 256 {
                break;
            }
        }
        assert!(frames < 256, "{frames} frames in the log");
    }
}

/// The schema as builds before the migration ladder created it, before tournaments and
/// closing times were kept (the oldest shape such a file has).
const UNVERSIONED_SCHEMA: &str = "CREATE TABLE rooms (code TEXT PRIMARY KEY, created_at INTEGER NOT NULL,
        title TEXT NOT NULL, rules TEXT NOT NULL, options TEXT NOT NULL, master_seed TEXT NOT NULL,
        active INTEGER NOT NULL DEFAULT 1);
     CREATE TABLE records (room TEXT NOT NULL REFERENCES rooms(code), idx INTEGER NOT NULL,
        seq_before INTEGER NOT NULL, record TEXT NOT NULL, PRIMARY KEY (room, idx)) WITHOUT ROWID;
     CREATE TABLE tokens (hash TEXT PRIMARY KEY, room TEXT NOT NULL REFERENCES rooms(code),
        participant INTEGER NOT NULL) WITHOUT ROWID;
     CREATE TABLE health (id INTEGER PRIMARY KEY, checked_at INTEGER NOT NULL);";

/// Every table's columns (name, type, not null, default, key position), by table.
/// A column as `pragma_table_info` lists it: name, type, not null, default, key position.
type Column = (String, String, bool, Option<String>, i64);

fn columns(path: &Path) -> Vec<(String, Vec<Column>)> {
    let conn = Connection::open(path).expect("open");
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .expect("tables")
        .query_map([], |row| row.get(0))
        .expect("tables")
        .collect::<Result<_, _>>()
        .expect("tables");
    tables
        .into_iter()
        .filter(|t| t != "refinery_schema_history")
        .map(|table| {
            let columns = conn
                .prepare("SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?1)")
                .expect("columns")
                .query_map([&table], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?, row.get(4)?)))
                .expect("columns")
                .collect::<Result<_, _>>()
                .expect("columns");
            (table, columns)
        })
        .collect()
}

fn applied(path: &Path) -> Vec<i64> {
    let conn = Connection::open(path).expect("open");
    conn.prepare("SELECT version FROM refinery_schema_history ORDER BY version")
        .expect("history")
        .query_map([], |row| row.get(0))
        .expect("history")
        .collect::<Result<_, _>>()
        .expect("history")
}

/// A file written before the ladder (without the later columns, or with them) is adopted:
/// its rooms load as they were, their records are of the first format, it ends with the
/// schema a new file gets, and every migration is recorded as applied.
#[tokio::test]
async fn a_file_written_before_the_migration_ladder_is_adopted() {
    let dir = tempfile::tempdir().expect("tempdir");
    let fresh = dir.path().join("fresh.sqlite3");
    drop(Storage::open(&fresh, Arc::new(Metrics::default())).expect("open a new file"));
    for with_later_columns in [false, true] {
        let path = dir.path().join(format!("old-{with_later_columns}.sqlite3"));
        {
            let conn = Connection::open(&path).expect("create");
            conn.execute_batch(UNVERSIONED_SCHEMA).expect("old schema");
            if with_later_columns {
                conn.execute_batch(
                    "ALTER TABLE rooms ADD COLUMN tournament TEXT; ALTER TABLE rooms ADD COLUMN closed_at INTEGER;
                     CREATE TABLE tournaments (id TEXT PRIMARY KEY, created_at INTEGER NOT NULL,
                        finished INTEGER NOT NULL DEFAULT 0);
                     CREATE TABLE tournament_records (tournament TEXT NOT NULL REFERENCES tournaments(id),
                        idx INTEGER NOT NULL, record TEXT NOT NULL, PRIMARY KEY (tournament, idx)) WITHOUT ROWID;
                     INSERT INTO tournaments VALUES ('TTTT', 5, 0);
                     INSERT INTO tournament_records VALUES ('TTTT', 0, '{}');",
                )
                .expect("later columns");
            }
            let m = meta("OLDR", 7);
            conn.execute(
                "INSERT INTO rooms (code, created_at, title, rules, options, master_seed) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![
                    m.code,
                    7,
                    m.title,
                    serde_json::to_string(&m.rules).expect("rules"),
                    serde_json::to_string(&m.options).expect("options"),
                    m.master.to_hex()
                ],
            )
            .expect("room");
            conn.execute_batch(
                "INSERT INTO records VALUES ('OLDR', 0, 0, '{\"r\":0}'), ('OLDR', 1, 3, '{\"r\":1}');
                 INSERT INTO tokens VALUES ('hash-OLDR', 'OLDR', 0);",
            )
            .expect("records");
        }
        let (storage, _writer) = Storage::open(&path, Arc::new(Metrics::default())).expect("adopt");
        let room = storage.load("OLDR").await.expect("load").expect("stored");
        assert_eq!(room.meta.title, "Room OLDR");
        assert_eq!(records(&room), vec![(0, "{\"r\":0}".to_string()), (3, "{\"r\":1}".to_string())]);
        assert!(room.records.iter().all(|r| r.format == 1));
        assert_eq!(storage.active_rooms().await.expect("active"), vec!["OLDR".to_string()]);
        assert_eq!(storage.find_tokens(vec!["hash-OLDR".into()]).await.expect("tokens"), vec![("OLDR".into(), 0)]);
        if with_later_columns {
            let t = storage.load_tournament("TTTT").await.expect("load").expect("tournament");
            assert_eq!((t.records, t.formats), (vec!["{}".to_string()], vec![1]));
        }
        // Written on after adoption, closed and counted for retention like any room.
        storage.append(Arc::from("OLDR"), 2, 4, "{}".into(), None).await.expect("append");
        storage.set_active(Arc::from("OLDR"), false).await.expect("close");
        assert_eq!(storage.closed_before(u64::MAX / 2).await.expect("closed"), vec!["OLDR".to_string()]);
        drop(storage);
        assert_eq!(columns(&path), columns(&fresh), "adopted with later columns: {with_later_columns}");
        assert_eq!(applied(&path), (1..=SCHEMA_VERSION).collect::<Vec<_>>());
    }
    assert_eq!(applied(&fresh), (1..=SCHEMA_VERSION).collect::<Vec<_>>());
}

/// A file a newer build migrated past this build's last migration is refused with a clear
/// error, and left as it was.
#[test]
fn a_file_from_a_newer_build_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("t.sqlite3");
    drop(Storage::open(&path, Arc::new(Metrics::default())).expect("open"));
    let newer = SCHEMA_VERSION + 1;
    Connection::open(&path)
        .expect("open")
        .execute_batch(&format!(
            "CREATE TABLE later (x INTEGER);
             INSERT INTO refinery_schema_history (version, name, applied_on, checksum)
             VALUES ({newer}, 'later', '2030-01-01T00:00:00Z', '1')"
        ))
        .expect("a later migration");
    let before = columns(&path);
    let error = Storage::open(&path, Arc::new(Metrics::default())).expect_err("a newer file is refused");
    assert!(matches!(error, StorageError::TooNew { found, known } if found == newer && known == SCHEMA_VERSION));
    let message = error.to_string();
    assert!(message.contains(&format!("schema version {newer}")) && message.contains("newer build"), "{message}");
    assert_eq!(columns(&path), before);
    assert_eq!(applied(&path), (1..=newer).collect::<Vec<_>>());
}

/// Every record is stored with the format this build writes, and read back with the format
/// it was stored with.
#[tokio::test]
async fn records_name_their_format() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("t.sqlite3");
    let (storage, _writer) = Storage::open(&path, Arc::new(Metrics::default())).expect("open");
    fill(&storage, "AAAA", 1, 2).await;
    storage
        .create_room_with(
            meta("BBBB", 2),
            vec![StoredRecord { index: 0, seq_before: 0, json: "{}".into(), format: ROOM_RECORD_FORMAT }],
        )
        .await
        .expect("create");
    storage.create_tournament("TTTT".into(), 1, vec!["{}".into()]).await.expect("tournament");
    storage.append_tournament("TTTT".into(), 1, vec!["{}".into()], false).await.expect("append");
    drop(storage);
    let conn = Connection::open(&path).expect("open");
    let formats = |sql: &str| -> Vec<u32> {
        conn.prepare(sql)
            .expect("formats")
            .query_map([], |row| row.get(0))
            .expect("formats")
            .collect::<Result<_, _>>()
            .expect("formats")
    };
    assert_eq!(formats("SELECT format FROM records ORDER BY room, idx"), vec![ROOM_RECORD_FORMAT; 3]);
    assert_eq!(formats("SELECT format FROM tournament_records ORDER BY idx"), vec![TOURNAMENT_RECORD_FORMAT; 2]);
    conn.execute_batch(
        "UPDATE records SET format = 7 WHERE room = 'AAAA' AND idx = 1;
         UPDATE tournament_records SET format = 9 WHERE idx = 0;",
    )
    .expect("a newer format");
    drop(conn);
    let (storage, _writer) = Storage::open(&path, Arc::new(Metrics::default())).expect("reopen");
    let a = storage.load("AAAA").await.expect("load").expect("stored");
    assert_eq!(a.records.iter().map(|r| r.format).collect::<Vec<_>>(), vec![ROOM_RECORD_FORMAT, 7]);
    let t = storage.load_tournament("TTTT").await.expect("load").expect("stored");
    assert_eq!(t.formats, vec![9, TOURNAMENT_RECORD_FORMAT]);
}

/// An SQLite file serves one server: it keeps no leases, and a fenced write (cluster mode's) is
/// refused with a clear error and stores nothing.
#[tokio::test]
async fn leases_and_fenced_writes_are_refused() {
    use crate::storage::{Fence, NewRecord};
    let file = SqliteFile::create();
    let (storage, _thread) = file.open();
    fill(&storage, "R1", 1, 1).await;
    let node: Arc<str> = Arc::from("node-a");
    let refused = storage.claim(Arc::from("R1"), node.clone(), Duration::from_secs(10)).await;
    assert!(matches!(refused, Err(StorageError::SingleServer(_))), "{refused:?}");
    assert!(matches!(storage.renew(node.clone(), Duration::from_secs(10)).await, Err(StorageError::SingleServer(_))));
    assert!(matches!(storage.unowned(10).await, Err(StorageError::SingleServer(_))));
    let record =
        NewRecord { room: Arc::from("R1"), index: 1, seq_before: 1, json: "{}".into(), token: None, fence: None };
    let fence = Fence { node, epoch: 1 };
    let fenced = storage.append_fenced(fence.clone(), record).await;
    assert!(matches!(fenced, Err(StorageError::SingleServer(_))), "{fenced:?}");
    assert_eq!(records(&storage.load("R1").await.expect("load").expect("room")).len(), 1, "nothing was stored");
    let fenced = [
        storage.create_room_under(Some(fence.clone()), meta("R2", 2), Vec::new()).await,
        storage.set_active_under(Some(fence.clone()), Arc::from("R1"), false).await,
        storage.delete_room_under(Some(fence.clone()), Arc::from("R1")).await,
        storage.create_tournament_under(Some(fence.clone()), "T1".into(), 1, Vec::new()).await,
        storage.append_tournament_under(Some(fence), "T1".into(), 0, vec!["{}".into()], false).await,
    ];
    for refused in fenced {
        assert!(matches!(refused, Err(StorageError::SingleServer(_))), "{refused:?}");
    }
    assert!(storage.load("R2").await.expect("load").is_none(), "no room was created");
    assert_eq!(storage.active_rooms().await.expect("active"), ["R1"], "R1 is still open and stored");
    assert!(storage.load_tournament("T1").await.expect("load").is_none(), "no tournament was created");
}

/// The checkpoint thread runs below the rooms and the writer: under the batch policy at the
/// background threads' nice value (Linux, where both belong to the thread).
#[cfg(target_os = "linux")]
#[test]
fn the_checkpoint_thread_runs_at_a_lower_priority() {
    /// A thread's name and `(nice, policy)` from its `stat` line.
    fn name_and_priority(stat: &str) -> Option<(&str, (i64, i64))> {
        let (head, rest) = stat.rsplit_once(')')?;
        let name = head.split_once('(')?.1;
        // The fields after the name start at the third: nice is the 19th, policy the 41st.
        let fields: Vec<&str> = rest.split_whitespace().collect();
        Some((name, (fields[16].parse().expect("nice"), fields[38].parse().expect("policy"))))
    }
    /// `(nice, policy)` of each thread of this process named `name` (as the kernel shortens it).
    fn threads_named(name: &str) -> Vec<(i64, i64)> {
        let mut found = Vec::new();
        for task in std::fs::read_dir("/proc/self/task").expect("/proc/self/task").flatten() {
            let Ok(stat) = std::fs::read_to_string(task.path().join("stat")) else { continue };
            if let Some((comm, priority)) = name_and_priority(&stat)
                && comm == name
            {
                found.push(priority);
            }
        }
        found
    }
    const SCHED_BATCH: i64 = 3;
    let dir = tempfile::tempdir().expect("tempdir");
    let (storage, writer) = Storage::open(&dir.path().join("t.sqlite3"), Arc::new(Metrics::default())).expect("open");
    // The thread lowers itself as it starts.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let lowered = |threads: &[(i64, i64)]| {
        !threads.is_empty()
            && threads.iter().all(|&(nice, policy)| nice >= i64::from(crate::background::NICE) && policy == SCHED_BATCH)
    };
    let mut threads = threads_named("fipsen-checkpoi");
    while !lowered(&threads) && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
        threads = threads_named("fipsen-checkpoi");
    }
    assert!(lowered(&threads), "checkpoint threads (nice, policy): {threads:?}");
    // The writer keeps the process's priority: that of this test's thread. (A new thread takes
    // its name as it starts: it may not be listed at once.)
    let own = std::fs::read_to_string("/proc/thread-self/stat").expect("/proc/thread-self/stat");
    let own = name_and_priority(&own).expect("a stat line").1;
    let mut writers = threads_named("fipsen-storage");
    while !writers.contains(&own) && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
        writers = threads_named("fipsen-storage");
    }
    assert!(writers.contains(&own), "writer threads (nice, policy): {writers:?}, this thread: {own:?}");
    drop(storage);
    writer.join().expect("the writer ends");
}
