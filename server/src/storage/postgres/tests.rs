//! The PostgreSQL engine: the engine test suite, and what is PostgreSQL's own (the migration
//! ladder, the format columns, the group commit's batches, the URL kept out of the logs).
//!
//! Each test makes a database of its own on the server that `FIPSEN_TEST_POSTGRES` names (a URL
//! whose user may create databases; `scripts/postgres-temp` starts one) and drops it at the end.
//! Without that variable the tests say they were skipped and pass, except under CI (`CI` set),
//! where they fail: a check skipped there would be one that cannot fail.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use futures_util::future::join_all;
use tokio_postgres::NoTls;

use super::{SCHEMA_VERSION, display_url, is_url};
use crate::metrics::Metrics;
use crate::storage::conformance::{Harness, fill, meta};
use crate::storage::{
    Claim, Fence, Lease, NewRecord, ROOM_RECORD_FORMAT, Storage, StorageError, StoredRecord, TOURNAMENT_RECORD_FORMAT,
};

/// The variable naming the PostgreSQL server the tests use.
const SERVER: &str = "FIPSEN_TEST_POSTGRES";

/// The server's URL; `None` (having said so) when the tests are to be skipped.
///
/// # Panics
/// The variable is unset under CI.
fn test_server() -> Option<String> {
    match std::env::var(SERVER) {
        Ok(url) if !url.is_empty() => Some(url),
        _ if std::env::var_os("CI").is_some() => panic!(
            "{SERVER} is not set, and CI is: the PostgreSQL engine's tests need a server \
             (scripts/test starts one with scripts/postgres-temp)"
        ),
        _ => {
            println!("skipped: {SERVER} is not set (scripts/postgres-temp starts a server to test against)");
            None
        }
    }
}

/// `url` with its database replaced by `name` (its query, the unix socket's folder for one,
/// kept).
fn with_database(url: &str, name: &str) -> String {
    let (base, query) = url.split_once('?').map_or((url, None), |(base, query)| (base, Some(query)));
    let authority = base.find("://").map_or(0, |i| i + 3);
    let end = base[authority..].find('/').map_or(base.len(), |i| authority + i);
    let mut out = format!("{}/{name}", &base[..end]);
    if let Some(query) = query {
        out.push('?');
        out.push_str(query);
    }
    out
}

/// Runs `sql` on the database at `url`, on a runtime of its own (the caller may be on one).
///
/// # Panics
/// The statement fails.
fn execute(url: &str, sql: String) {
    try_execute(url, sql).unwrap_or_else(|e| panic!("{e}"));
}

/// Runs `sql` on the database at `url`, on a runtime of its own; the error names the statement.
fn try_execute(url: &str, sql: String) -> Result<(), String> {
    let url = url.to_string();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
        runtime.block_on(async {
            let (client, connection) =
                tokio_postgres::connect(&url, NoTls).await.map_err(|e| format!("connect: {e:?}"))?;
            let connection = tokio::spawn(connection);
            let result = client.batch_execute(&sql).await.map_err(|e| format!("{sql}: {e:?}"));
            drop(client);
            let _ = connection.await;
            result
        })
    })
    .join()
    .expect("the statement's thread ran")
}

/// Runs `sql` on the database at `url` and returns the first column of each row, as text.
fn query(url: &str, sql: &str) -> Vec<String> {
    let (url, sql) = (url.to_string(), sql.to_string());
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
        runtime.block_on(async {
            let (client, connection) = tokio_postgres::connect(&url, NoTls).await.expect("connect to the test server");
            tokio::spawn(connection);
            let rows = client.simple_query(&sql).await.unwrap_or_else(|e| panic!("{sql}: {e:?}"));
            rows.iter()
                .filter_map(|message| match message {
                    tokio_postgres::SimpleQueryMessage::Row(row) => Some(row.get(0).unwrap_or("NULL").to_string()),
                    _ => None,
                })
                .collect()
        })
    })
    .join()
    .expect("the query ran")
}

/// A database of its own on the test server, dropped with the harness (not in the child
/// process of the SIGKILL test: the parent's).
struct PgDatabase {
    url: String,
    /// The server and the database's name, to drop it; `None` in the child process.
    owned: Option<(String, String)>,
}

impl PgDatabase {
    fn open_with(&self, metrics: Arc<Metrics>) -> (Storage, JoinHandle<()>) {
        Storage::open_postgres(&self.url, metrics).expect("open")
    }
}

impl Harness for PgDatabase {
    fn create() -> PgDatabase {
        static MADE: AtomicU64 = AtomicU64::new(0);
        let server = test_server().expect("a test server (checked before by `available`)");
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().as_nanos();
        let name = format!(
            "fipsen_test_{}_{}_{}",
            std::process::id(),
            MADE.fetch_add(1, Ordering::Relaxed),
            nanos % 1_000_000_000
        );
        execute(&server, format!("CREATE DATABASE {name}"));
        PgDatabase { url: with_database(&server, &name), owned: Some((server, name)) }
    }

    fn address(&self) -> String {
        self.url.clone()
    }

    fn at(address: &str) -> PgDatabase {
        PgDatabase { url: address.to_string(), owned: None }
    }

    fn open(&self) -> (Storage, JoinHandle<()>) {
        self.open_with(Arc::new(Metrics::default()))
    }

    fn available() -> bool {
        test_server().is_some()
    }
}

impl Drop for PgDatabase {
    fn drop(&mut self) {
        if let Some((server, name)) = self.owned.take() {
            // An engine still open (a test that failed) is disconnected. A session that is
            // still starting (an engine's reconnection) can refuse to be ended for a moment:
            // the drop is tried again, and a database left behind on the throwaway server is
            // said, not a failure of the test that used it.
            let sql = format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)");
            for attempt in 1..=5 {
                match try_execute(&server, sql.clone()) {
                    Ok(()) => return,
                    Err(e) if attempt == 5 => eprintln!("left behind on the test server: {name}: {e}"),
                    Err(_) => std::thread::sleep(Duration::from_millis(100 * attempt)),
                }
            }
        }
    }
}

engine_suite!(PgDatabase);

/// A new database, or `None` when the tests are skipped.
fn database() -> Option<PgDatabase> {
    PgDatabase::available().then(PgDatabase::create)
}

/// Appends handed over while a commit runs share the next one: many rooms appending at once
/// take a few transactions, not one each.
#[tokio::test]
async fn appends_of_many_rooms_share_commits() {
    const ROOMS: u64 = 200;
    let Some(db) = database() else { return };
    let metrics = Arc::new(Metrics::default());
    let (storage, _thread) = db.open_with(metrics.clone());
    let codes: Vec<String> = (0..ROOMS).map(|i| format!("R{i:03}")).collect();
    for (i, code) in codes.iter().enumerate() {
        fill(&storage, code, i as u64, 0).await;
    }
    let counts = || (metrics.committed_writes.load(Ordering::Relaxed), metrics.commit_latency.count());
    let (writes_before, commits_before) = counts();
    let appends = codes.iter().map(|code| storage.append(Arc::from(code.as_str()), 0, 0, "{}".into(), None));
    assert!(join_all(appends).await.iter().all(Result::is_ok));
    // The writer counts a batch once it has answered it: a probe after the appends is answered
    // after their counts.
    storage.probe().await.expect("probe");
    let (writes, commits) = counts();
    assert_eq!(writes - writes_before, ROOMS + 1);
    assert!(commits - commits_before <= ROOMS / 10, "{} commits for {ROOMS} appends", commits - commits_before);
}

/// A new database gets every migration of the ladder, recorded as applied; opening it again
/// applies nothing more. Servers starting together on a new database all open it.
#[tokio::test]
async fn the_ladder_is_applied_once_even_by_servers_starting_together() {
    let Some(db) = database() else { return };
    let opened: Vec<_> = (0..3)
        .map(|_| {
            let url = db.url.clone();
            std::thread::spawn(move || Storage::open_postgres(&url, Arc::new(Metrics::default())))
        })
        .collect::<Vec<_>>()
        .into_iter()
        .map(|thread| thread.join().expect("opened").expect("every server opens the new database"))
        .collect();
    let versions = || query(&db.url, "SELECT version FROM refinery_schema_history ORDER BY version");
    let all: Vec<String> = (1..=SCHEMA_VERSION).map(|v| v.to_string()).collect();
    assert_eq!(versions(), all);
    for (storage, _thread) in &opened {
        storage.probe().await.expect("each writes");
    }
    drop(opened);
    let (storage, _thread) = db.open();
    fill(&storage, "AAAA", 1, 1).await;
    assert_eq!(versions(), all);
}

/// A database a newer build migrated past this build's last migration is refused with a clear
/// error, and left as it was.
#[tokio::test]
async fn a_database_from_a_newer_build_is_refused() {
    let Some(db) = database() else { return };
    drop(db.open());
    let newer = SCHEMA_VERSION + 1;
    execute(
        &db.url,
        format!(
            "CREATE TABLE later (x INTEGER);
             INSERT INTO refinery_schema_history (version, name, applied_on, checksum)
             VALUES ({newer}, 'later', '2030-01-01T00:00:00Z', '1')"
        ),
    );
    let tables =
        || query(&db.url, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1");
    let before = tables();
    let error = Storage::open_postgres(&db.url, Arc::new(Metrics::default())).expect_err("a newer database is refused");
    assert!(matches!(error, StorageError::TooNew { found, known } if found == newer && known == SCHEMA_VERSION));
    let message = error.to_string();
    assert!(message.contains(&format!("schema version {newer}")) && message.contains("newer build"), "{message}");
    assert_eq!(tables(), before);
    let versions = query(&db.url, "SELECT version FROM refinery_schema_history ORDER BY version");
    assert_eq!(versions, (1..=newer).map(|v| v.to_string()).collect::<Vec<_>>());
}

/// Every record is stored with the format this build writes, and read back with the format
/// it was stored with.
#[tokio::test]
async fn records_name_their_format() {
    let Some(db) = database() else { return };
    let (storage, thread) = db.open();
    fill(&storage, "AAAA", 1, 2).await;
    let first = vec![StoredRecord { index: 0, seq_before: 0, json: "{}".into(), format: ROOM_RECORD_FORMAT }];
    storage.create_room_with(meta("BBBB", 2), first).await.expect("create");
    storage.create_tournament("TTTT".into(), 1, vec!["{}".into()]).await.expect("tournament");
    storage.append_tournament("TTTT".into(), 1, vec!["{}".into()], false).await.expect("append");
    storage.shutdown().await.expect("shutdown");
    thread.join().expect("the engine's thread ends");
    let room = ROOM_RECORD_FORMAT.to_string();
    let tournament = TOURNAMENT_RECORD_FORMAT.to_string();
    assert_eq!(query(&db.url, "SELECT format FROM records ORDER BY room, idx"), vec![room.clone(); 3]);
    assert_eq!(query(&db.url, "SELECT format FROM tournament_records ORDER BY idx"), vec![tournament.clone(); 2]);
    execute(
        &db.url,
        "UPDATE records SET format = 7 WHERE room = 'AAAA' AND idx = 1;
         UPDATE tournament_records SET format = 9 WHERE idx = 0;"
            .into(),
    );
    let (storage, _thread) = db.open();
    let a = storage.load("AAAA").await.expect("load").expect("stored");
    assert_eq!(a.records.iter().map(|r| r.format).collect::<Vec<_>>(), vec![ROOM_RECORD_FORMAT, 7]);
    let t = storage.load_tournament("TTTT").await.expect("load").expect("stored");
    assert_eq!(t.formats, vec![9, TOURNAMENT_RECORD_FORMAT]);
}

/// The engine opens new connections once its own were closed from outside (the database
/// restarted, an administrator ended them), and an append it acknowledged is stored, one it
/// refused is not.
#[tokio::test]
async fn the_engine_reconnects_after_its_connections_were_closed() {
    let Some(db) = database() else { return };
    let (storage, _thread) = db.open();
    fill(&storage, "AAAA", 1, 1).await;
    assert!(storage.load("AAAA").await.expect("load").is_some());
    let name = db.owned.as_ref().map(|(_, name)| name.clone()).expect("owned");
    let ended = query(
        &db.url,
        &format!(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
             WHERE datname = '{name}' AND application_name = 'fipsen-server'"
        ),
    );
    assert_ne!(ended, ["0"], "the engine's connections were ended");
    // The engine's connections read the server's notice that they were ended.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut appended = 1;
    for _ in 0..3 {
        if storage.append(Arc::from("AAAA"), appended, appended, format!("{{\"r\":{appended}}}"), None).await.is_ok() {
            appended += 1;
        }
    }
    assert!(appended >= 3, "the engine writes again after its connections were closed ({appended})");
    let room = storage.load("AAAA").await.expect("load").expect("stored");
    assert_eq!(room.records.len() as u64, appended, "every acknowledged append, and nothing else");
}

/// Only URLs of the two PostgreSQL schemes select the engine; a URL is logged without its
/// password or parameters.
#[test]
fn urls_select_the_engine_and_are_logged_without_secrets() {
    assert!(is_url("postgres://fipsen@db/fipsen") && is_url("postgresql://db/fipsen"));
    assert!(!is_url("fipsen.sqlite3") && !is_url("/data/postgres://x") && !is_url("mysql://db/x"));
    let shown = display_url("postgres://fipsen:s3cret@db.internal:5433/rooms?application_name=x&password=other");
    assert_eq!(shown, "postgres://fipsen@db.internal:5433/rooms");
    assert!(display_url("postgres://u:pw@%2Frun%2Fpostgresql/f").ends_with("@/run/postgresql:5432/f"));
    assert!(!display_url("postgres://[broken").contains("broken"));
    assert_eq!(with_database("postgres://u@h:1/old?host=/tmp", "new"), "postgres://u@h:1/new?host=/tmp");
    assert_eq!(with_database("postgresql://u@h", "new"), "postgresql://u@h/new");
}

/// A database that cannot be reached fails the opening with an error that names it, without
/// its password.
#[test]
fn an_unreachable_database_is_an_error_without_the_password() {
    // Port 1 on the loopback address: nothing listens there.
    let url = "postgres://fipsen:s3cret@127.0.0.1:1/fipsen?connect_timeout=5";
    let error = Storage::open_postgres(url, Arc::new(Metrics::default())).expect_err("nothing listens");
    let message = error.to_string();
    assert!(matches!(error, StorageError::Postgres(_)), "{error:?}");
    assert!(message.contains("connect") && !message.contains("s3cret"), "{message}");
    let error = Storage::open_postgres("postgres://u:s3cret@h:notaport/x", Arc::new(Metrics::default()))
        .expect_err("not a URL");
    assert!(!error.to_string().contains("s3cret"), "{error}");
}

/// A record `index` of `room` as a fenced append carries it.
fn record(room: &str, index: u64) -> NewRecord {
    NewRecord {
        room: Arc::from(room),
        index,
        seq_before: index,
        json: format!("{{\"n\":{index}}}"),
        token: None,
        fence: None,
    }
}

/// Two servers on one database: a lease goes to one at a time with a rising epoch; once it ran
/// out or was released, the other takes the room and the first one's writes are refused; every
/// record keeps the epoch it was written under; a run-out lease is renewed no more.
#[tokio::test]
async fn a_lease_fences_the_writes_of_a_server_that_lost_it() {
    let Some(db) = database() else { return };
    let (a, _a_thread) = db.open();
    let (b, _b_thread) = db.open();
    let (node_a, node_b): (Arc<str>, Arc<str>) = (Arc::from("node-a"), Arc::from("node-b"));
    let room: Arc<str> = Arc::from("R1");
    fill(&a, "R1", 1, 0).await;
    fill(&a, "R2", 2, 0).await;
    let short = Duration::from_millis(300);

    let Claim::Granted(a1) = a.claim(room.clone(), node_a.clone(), short).await.expect("claim") else {
        panic!("a free room is granted")
    };
    assert_eq!(a1, Fence { node: node_a.clone(), epoch: 1 });
    assert_eq!(b.claim(room.clone(), node_b.clone(), short).await.expect("claim"), Claim::Held(a1.clone()));
    a.append_fenced(a1.clone(), record("R1", 0)).await.expect("the owner writes");
    assert_eq!(b.unowned(10).await.expect("unowned"), vec!["R2".to_string()], "R1 is owned, R2 nobody's");

    // A's lease runs out (a pause, a lost network): B takes the room over.
    tokio::time::sleep(short + Duration::from_millis(100)).await;
    assert_eq!(b.unowned(10).await.expect("unowned"), vec!["R1".to_string(), "R2".to_string()]);
    let owner = b.owner("R1").await.expect("owner").expect("a lease");
    assert_eq!(owner, Lease { fence: a1.clone(), live: false });
    let Claim::Granted(b2) = b.claim(room.clone(), node_b.clone(), Duration::from_secs(30)).await.expect("claim")
    else {
        panic!("a run-out lease is granted to another")
    };
    assert_eq!(b2.epoch, 2);
    let refused = a.append_fenced(a1.clone(), record("R1", 1)).await;
    assert!(matches!(refused, Err(StorageError::Fenced { epoch: 1, .. })), "{refused:?}");
    b.append_fenced(b2.clone(), record("R1", 1)).await.expect("the new owner writes");
    assert!(a.renew(node_a.clone(), short).await.expect("renew").is_empty(), "A holds nothing any more");
    assert_eq!(b.renew(node_b.clone(), Duration::from_secs(30)).await.expect("renew"), vec![("R1".to_string(), 2)]);
    assert_eq!(a.claim(room.clone(), node_a.clone(), short).await.expect("claim"), Claim::Held(b2.clone()));

    // A graceful hand-over: B releases, A claims at once with the next epoch, B's writes stop.
    b.release(room.clone(), b2.clone()).await.expect("release");
    let Claim::Granted(a3) = a.claim(room.clone(), node_a.clone(), Duration::from_secs(30)).await.expect("claim")
    else {
        panic!("a released lease is granted at once")
    };
    assert_eq!(a3.epoch, 3);
    assert!(matches!(b.append_fenced(b2, record("R1", 2)).await, Err(StorageError::Fenced { epoch: 2, .. })));
    a.append_fenced(a3.clone(), record("R1", 2)).await.expect("A writes again");
    // A server claiming again starts a new lease: writes under its older one are refused.
    let Claim::Granted(a4) = a.claim(room.clone(), node_a.clone(), Duration::from_secs(30)).await.expect("claim")
    else {
        panic!("the holder's own claim is granted")
    };
    assert_eq!(a4.epoch, 4);
    assert!(matches!(a.append_fenced(a3, record("R1", 3)).await, Err(StorageError::Fenced { epoch: 3, .. })));

    let epochs = query(&db.url, "SELECT epoch FROM records WHERE room = 'R1' ORDER BY idx");
    assert_eq!(epochs, ["1", "2", "3"], "each record keeps the epoch it was written under");
    let stored = a.load("R1").await.expect("load").expect("the room");
    assert_eq!(stored.records.len(), 3, "nothing refused was stored");
    // Deleting the room deletes its lease.
    a.delete_room(room).await.expect("delete");
    assert_eq!(a.owner("R1").await.expect("owner"), None);
}

/// Every write of a room or a tournament carries its lease in cluster mode, not only the
/// appends: a room is created under the lease claimed for its new code, and a server whose
/// lease is no longer live can neither create it, nor mark it open or closed, nor delete it;
/// a tournament's records likewise. A closed room is deleted by the retention only while no
/// server holds a live lease on it.
#[tokio::test]
async fn creations_flags_deletions_and_tournament_records_are_fenced() {
    let Some(db) = database() else { return };
    let (a, _a_thread) = db.open();
    let (b, _b_thread) = db.open();
    let (node_a, node_b): (Arc<str>, Arc<str>) = (Arc::from("node-a"), Arc::from("node-b"));
    let long = Duration::from_secs(30);
    let granted = |claim: Claim| match claim {
        Claim::Granted(fence) => fence,
        Claim::Held(holder) => panic!("held by {holder:?}"),
    };

    // A new room: stored under the lease claimed for its code, its first records with the epoch.
    let room: Arc<str> = Arc::from("NEW1");
    let a1 = granted(a.claim(room.clone(), node_a.clone(), long).await.expect("claim"));
    let first = vec![StoredRecord { index: 0, seq_before: 0, json: "{\"n\":0}".into(), format: ROOM_RECORD_FORMAT }];
    a.create_room_under(Some(a1.clone()), meta("NEW1", 1), first).await.expect("created under the lease");
    assert_eq!(query(&db.url, "SELECT epoch FROM records WHERE room = 'NEW1'"), ["1"]);
    // A lease that is not the room's (never claimed, or another's) creates nothing.
    let stale = Fence { node: node_b.clone(), epoch: 1 };
    let refused = b.create_room_under(Some(stale.clone()), meta("NEW2", 2), Vec::new()).await;
    assert!(matches!(refused, Err(StorageError::Fenced { .. })), "{refused:?}");
    assert!(b.load("NEW2").await.expect("load").is_none(), "a refused creation stores nothing");

    // B takes the room over: A's flags and deletion are refused, B's are made.
    a.release(room.clone(), a1.clone()).await.expect("release");
    let b2 = granted(b.claim(room.clone(), node_b.clone(), long).await.expect("claim"));
    let refused = a.set_active_under(Some(a1.clone()), room.clone(), false).await;
    assert!(matches!(refused, Err(StorageError::Fenced { epoch: 1, .. })), "{refused:?}");
    assert_eq!(a.active_rooms().await.expect("active"), ["NEW1"], "still open");
    let refused = a.delete_room_under(Some(a1.clone()), room.clone()).await;
    assert!(matches!(refused, Err(StorageError::Fenced { epoch: 1, .. })), "{refused:?}");
    assert!(a.load("NEW1").await.expect("load").is_some(), "a refused deletion deletes nothing");
    b.set_active_under(Some(b2.clone()), room.clone(), false).await.expect("the owner closes it");
    assert!(b.active_rooms().await.expect("active").is_empty());

    // Closed, but B still holds its lease: the retention leaves it; once released, it goes.
    a.delete_closed_room(room.clone()).await.expect("delete if closed and free");
    assert!(a.load("NEW1").await.expect("load").is_some(), "a room under a live lease is not deleted");
    b.release(room.clone(), b2.clone()).await.expect("release");
    a.delete_closed_room(room.clone()).await.expect("delete if closed and free");
    assert!(a.load("NEW1").await.expect("load").is_none(), "a closed room nobody holds is deleted");

    // A tournament: created and appended under its key's lease; a stale holder's records are
    // refused, and none of them is stored.
    let key = crate::keys::tournament_key("TOUR");
    let t1 = granted(a.claim(key.clone(), node_a.clone(), long).await.expect("claim"));
    a.create_tournament_under(Some(t1.clone()), "TOUR".into(), 1, vec!["r0".into()]).await.expect("created");
    a.append_tournament_under(Some(t1.clone()), "TOUR".into(), 1, vec!["r1".into()], false).await.expect("appended");
    a.release(key.clone(), t1.clone()).await.expect("release");
    let t2 = granted(b.claim(key.clone(), node_b.clone(), long).await.expect("claim"));
    let refused = a.append_tournament_under(Some(t1), "TOUR".into(), 2, vec!["stale".into()], true).await;
    assert!(matches!(refused, Err(StorageError::Fenced { epoch: 1, .. })), "{refused:?}");
    b.append_tournament_under(Some(t2), "TOUR".into(), 2, vec!["r2".into()], false).await.expect("the new owner");
    let stored = b.load_tournament("TOUR").await.expect("load").expect("the tournament");
    assert_eq!(stored.records, ["r0", "r1", "r2"], "nothing of the stale holder is stored");
    let refused = b.create_tournament_under(Some(stale), "TOU2".into(), 1, Vec::new()).await;
    assert!(matches!(refused, Err(StorageError::Fenced { .. })), "{refused:?}");
}

/// Every connection asks the database to end a transaction left idle and to cancel a statement
/// that runs too long; options given in the URL come after, and so win.
#[test]
fn connections_carry_the_stall_and_statement_timeouts() {
    let options = |url: &str| super::connect::config(url).expect("a URL").get_options().map(str::to_string);
    let plain = options("postgres://u@h/db").expect("options");
    assert!(plain.contains("-c idle_in_transaction_session_timeout=5000"), "{plain}");
    assert!(plain.contains("-c statement_timeout=30000"), "{plain}");
    let given = options("postgres://u@h/db?options=-c%20statement_timeout%3D1000").expect("options");
    assert!(given.ends_with("-c statement_timeout=1000"), "{given}");
}
