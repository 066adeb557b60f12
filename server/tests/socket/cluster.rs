//! Cluster mode: two server binaries (`--node-id a` and `b`, `--lease-ms 3000`) on one
//! PostgreSQL database. A room is served by the node holding its lease: when that node is
//! killed, the other takes the room over within a lease and a little, and its players resume
//! there with everything acknowledged; when that node pauses past its lease and comes back, its
//! next write is refused, its clients are closed with 1012, and the room goes on at the other
//! node. Every record carries the epoch of the lease it was written under: the epochs never go
//! back along the room's log, so the room was never written by two nodes at once.
//!
//! The database is made on the server that `FIPSEN_TEST_POSTGRES` names (`scripts/postgres-temp`
//! starts one). Without that variable each test says it was skipped and passes, except under CI
//! (`CI` set), where it fails.

#![allow(clippy::unwrap_used)]

use crate::common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::pg::{Database, test_server};
use common::{Client, Rng, Server, Table, random_action, resume_all};
use serde_json::{Value, json};

/// The lease the nodes hold their rooms under, in milliseconds.
const LEASE_MS: u64 = 3000;

/// A node of the cluster on `db`.
fn node(db: &Path, name: &str) -> Server {
    Server::start(db, &["--node-id", name, "--lease-ms", &LEASE_MS.to_string()])
}

/// Waits until `server` has taken over `rooms` rooms in all; fails past a lease and 5 s.
async fn await_takeover(server: &Server, rooms: u64, since: Instant) -> Duration {
    loop {
        if common::metric(server, "fipsen_lease_takeovers_total").await >= rooms {
            return since.elapsed();
        }
        assert!(
            since.elapsed() < Duration::from_millis(LEASE_MS) + Duration::from_secs(5),
            "the room was not taken over in time"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Epochs are set on every record and never go back along the log; returns how many
/// different ones there are.
fn check_epochs(epochs: &[Option<i64>]) -> usize {
    let epochs: Vec<i64> = epochs.iter().map(|e| e.expect("every record carries its lease's epoch")).collect();
    assert!(epochs.windows(2).all(|w| w[0] <= w[1]), "an epoch went back: {epochs:?}");
    let mut distinct = epochs.clone();
    distinct.dedup();
    distinct.len()
}

fn rules() -> (Value, Value) {
    (json!({"players": 4, "deals": 3}), json!({"next_deal_seconds": null}))
}

/// Node A, which serves a table, is killed with SIGKILL right after an acknowledged action:
/// node B takes the room over within a lease and a little, every seat resumes there with its
/// token and last sequence number and sees the acknowledged action, and the game goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_nodes_room_is_taken_over_by_the_other() {
    let Some(server_url) = test_server() else { return };
    let database = Database::create(server_url, "killed").await;
    let url = database.url();
    let db = Path::new(&url);
    let mut a = node(db, "a");
    let b = node(db, "b");
    let (rules, options) = rules();
    let mut table = Table::open(&a, rules, options, 0).await;
    let tokens: Vec<String> = table.seats.iter().map(Client::token).collect();
    let mut rng = Rng(2026);
    table.play_moves(&mut rng, 5).await;
    assert_eq!(common::metric(&a, "fipsen_rooms_owned").await, 1);
    assert_eq!(common::metric(&b, "fipsen_rooms_owned").await, 0);

    // The hardest moment: an action acknowledged, and at once SIGKILL.
    let turn = table.view()["turn"].as_u64().unwrap() as usize;
    let action = random_action(table.seats[turn].deal(), &mut rng).unwrap();
    let ack = table.seats[turn].act(&action).await;
    assert_eq!(ack["type"], "ack", "{ack}");
    table.sync(ack["seq"].as_u64().unwrap()).await;
    a.kill();
    let took = await_takeover(&b, 1, Instant::now()).await;
    println!("taken over after {took:?}");
    assert_eq!(common::metric(&b, "fipsen_rooms_owned").await, 1);

    let before: Vec<Value> = table.seats.iter().map(|c| c.game.clone()).collect();
    let views = resume_all(&b, &mut table, &tokens).await;
    for (seat, view) in views.iter().enumerate() {
        assert!(table.seats[seat].seq >= ack["seq"].as_u64().unwrap(), "the acknowledged action was lost");
        assert_eq!(*view, before[seat], "seat {seat} sees the game as it was");
    }
    // The acknowledged action is there: its id is acknowledged again, not applied twice.
    let id = table.seats[turn].next_id - 1;
    let again = table.seats[turn].act_with(id, 0, &action).await;
    assert_eq!(again["type"], "ack", "{again}");
    table.actions.push((fipsen_rules::Seat(turn as u8), action));
    table.play_moves(&mut rng, 5).await;

    let epochs = database.epochs(&table.room).await;
    assert_eq!(check_epochs(&epochs), 2, "one lease on A, one on B: {epochs:?}");
}

/// Node A, which serves a table, is paused (SIGSTOP) past its lease: node B takes the room
/// over and the players go on there. A seat's old connection to A sent an action while A was
/// paused; once A runs again (SIGCONT) nothing of it is stored or acknowledged, that connection
/// is closed with 1012, A counts the room lost, and the room goes on at B.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paused_node_cannot_write_the_room_it_lost() {
    let Some(server_url) = test_server() else { return };
    let database = Database::create(server_url, "paused").await;
    let url = database.url();
    let db = Path::new(&url);
    let a = node(db, "a");
    let b = node(db, "b");
    let (rules, options) = rules();
    let mut table = Table::open(&a, rules, options, 0).await;
    let tokens: Vec<String> = table.seats.iter().map(Client::token).collect();
    let mut rng = Rng(7);
    table.play_moves(&mut rng, 4).await;
    let records_on_a = database.epochs(&table.room).await.len();

    let paused = Instant::now();
    a.pause();
    // The seat to play sends its action to the paused node.
    let turn = table.view()["turn"].as_u64().unwrap() as usize;
    let action = random_action(table.seats[turn].deal(), &mut rng).unwrap();
    let id = table.seats[turn].next_id;
    let seq = table.seats[turn].seq;
    table.seats[turn].send(json!({"type": "act", "id": id, "seq": seq, "action": action})).await;
    let mut stale = std::mem::replace(&mut table.seats[turn], Client::greeted(&b).await);

    await_takeover(&b, 1, paused).await;
    // Renewed at most a third of a lease before the pause, the lease ran out at least two
    // thirds of a lease after it.
    let earliest = Duration::from_millis(LEASE_MS * 2 / 3 - 50);
    assert!(paused.elapsed() >= earliest, "taken over after {:?}, before the lease ran out", paused.elapsed());
    resume_all(&b, &mut table, &tokens).await;
    table.play_moves(&mut rng, 3).await;
    let written_on_b = database.epochs(&table.room).await.len();
    assert!(written_on_b > records_on_a);

    a.signal("CONT");
    while let Some(frame) = stale.recv().await {
        assert_ne!(frame["type"], "ack", "the paused node acknowledged an action: {frame}");
    }
    assert_eq!(stale.closed, Some(1012), "the paused node's clients are sent to resume elsewhere");
    // A forgets the room (it counts it lost) and stores nothing more of it.
    // (The room's task counts it lost as it stops, and no longer owned once it has ended.)
    let deadline = Instant::now() + Duration::from_secs(5);
    while common::metric(&a, "fipsen_rooms_lost_total").await < 1 || common::metric(&a, "fipsen_rooms_owned").await > 0
    {
        assert!(Instant::now() < deadline, "node A did not count the room lost, or still owns it");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    table.play_moves(&mut rng, 3).await;

    let epochs = database.epochs(&table.room).await;
    assert_eq!(check_epochs(&epochs), 2, "one lease on A, one on B: {epochs:?}");
    let b_epoch = epochs[records_on_a].unwrap();
    assert!(epochs[..records_on_a].iter().all(|e| e.unwrap() < b_epoch), "{epochs:?}");
}

/// Node A, which serves a table, is stopped gracefully (SIGTERM): after its drain its clients
/// are closed with 1012, it releases the room's lease, and node B takes the room over before the
/// lease would have run out; the players resume there and go on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopping_node_hands_its_rooms_over_at_once() {
    let Some(server_url) = test_server() else { return };
    let database = Database::create(server_url, "stopping").await;
    let url = database.url();
    let db = Path::new(&url);
    // Leases of 20 s: a room taken over in less was handed over, not left to run out.
    let mut a = Server::start(db, &["--node-id", "a", "--lease-ms", "20000"]);
    let b = Server::start(db, &["--node-id", "b", "--lease-ms", "20000"]);
    let (rules, options) = rules();
    let mut table = Table::open(&a, rules, options, 0).await;
    let tokens: Vec<String> = table.seats.iter().map(Client::token).collect();
    let mut rng = Rng(11);
    table.play_moves(&mut rng, 4).await;

    // With the default drain of cluster mode (5 s): the room is handed over once A stops.
    assert!(tokio::task::block_in_place(|| a.terminate()), "node A stops cleanly");
    let stopping = Instant::now();
    for seat in &mut table.seats {
        assert_eq!(seat.recv_close().await, 1012);
    }
    loop {
        if common::metric(&b, "fipsen_lease_takeovers_total").await >= 1 {
            break;
        }
        // Left to run out, the lease would last at least 13 s more (renewed every 6.7 s).
        assert!(stopping.elapsed() < Duration::from_secs(13), "the room was not handed over");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    resume_all(&b, &mut table, &tokens).await;
    table.play_moves(&mut rng, 3).await;
    let epochs = database.epochs(&table.room).await;
    assert_eq!(check_epochs(&epochs), 2, "one lease on A, one on B: {epochs:?}");
}

/// The drain the next test gives node A at its graceful stop, in seconds.
const DRAIN_SECONDS: u64 = 4;

/// `/healthz`'s status line and body, or `None` when the server does not answer (it no longer
/// accepts connections).
async fn health(server: &Server) -> Option<(String, String)> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(server.addr).await.ok()?;
    let request = "GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
    stream.write_all(request.as_bytes()).await.ok()?;
    let mut response = String::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_string(&mut response)).await.ok()?.ok()?;
    let (head, body) = response.split_once("\r\n\r\n")?;
    Some((head.lines().next().unwrap_or_default().to_string(), body.to_string()))
}

/// Whether `/healthz` answered 503 `stopping`.
fn says_stopping(answer: &Option<(String, String)>) -> bool {
    answer.as_ref().is_some_and(|(status, body)| status.contains(" 503") && body == "stopping\n")
}

/// Node A, which serves a table, is sent SIGTERM with a drain of four seconds: from then on
/// `/healthz` answers 503 `stopping` on every poll until at least three seconds after the
/// signal (long enough for a load balancer's checks to take A out of rotation), while A still
/// accepts connections, claims no new room, and the players at its table still play there (the
/// room is not handed over yet). After the drain A hands the room over to node B and exits
/// cleanly, and the players resume at B.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopping_node_says_so_and_plays_on_for_its_drain() {
    let Some(server_url) = test_server() else { return };
    let database = Database::create(server_url, "draining").await;
    let url = database.url();
    let db = Path::new(&url);
    let drain = DRAIN_SECONDS.to_string();
    let mut a = Server::start(db, &["--node-id", "a", "--lease-ms", "20000", "--stop-drain-seconds", &drain]);
    let b = Server::start(db, &["--node-id", "b", "--lease-ms", "20000"]);
    let (rules, options) = rules();
    let mut table = Table::open(&a, rules, options, 0).await;
    let tokens: Vec<String> = table.seats.iter().map(Client::token).collect();
    let mut rng = Rng(13);
    table.play_moves(&mut rng, 3).await;
    let (status, body) = health(&a).await.expect("node A answers /healthz");
    assert!(status.contains(" 200") && body == "ok\n", "{status} {body}");

    let since = Instant::now();
    a.signal("TERM");
    // The signal takes a moment to arrive; the drain starts then, so it lasts at least until
    // DRAIN_SECONDS after `since`.
    loop {
        let answer = health(&a).await;
        if says_stopping(&answer) {
            break;
        }
        assert!(answer.is_some(), "node A stopped answering /healthz before it ever said it was stopping");
        assert!(since.elapsed() < Duration::from_secs(10), "node A never said it was stopping: {answer:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    println!("/healthz says stopping {:?} after SIGTERM", since.elapsed());

    // The room plays on at A: a seated player's move is acknowledged there, nothing was handed
    // over, and B has taken nothing over.
    table.play_moves(&mut rng, 1).await;
    assert_eq!(common::metric(&a, "fipsen_rooms_owned").await, 1);
    assert_eq!(common::metric(&b, "fipsen_lease_takeovers_total").await, 0);
    // A still accepts connections, but claims no new room.
    let mut late = Client::greeted(&a).await;
    late.send(json!({"type": "create_room", "name": "Late", "rules": {"players": 4}, "options": {}})).await;
    let refused = late.recv().await.expect("an answer");
    assert_eq!(refused["type"], "error", "{refused}");
    assert_eq!(refused["code"], "server/shutting_down", "{refused}");
    drop(late);

    // Every poll says `stopping` until a second before the drain's end at the earliest.
    let mut polls = 0;
    while since.elapsed() < Duration::from_secs(DRAIN_SECONDS - 1) {
        let answer = health(&a).await;
        assert!(
            says_stopping(&answer),
            "{:?} after SIGTERM, within a drain of {DRAIN_SECONDS} s, node A answered /healthz with {answer:?}",
            since.elapsed()
        );
        polls += 1;
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    println!("/healthz said stopping on {polls} polls");

    // After the drain: handed over, closed with 1012, and exited cleanly.
    assert!(tokio::task::block_in_place(|| a.terminate()), "node A stops cleanly");
    for seat in &mut table.seats {
        assert_eq!(seat.recv_close().await, 1012);
    }
    let handed_over = Instant::now();
    while common::metric(&b, "fipsen_lease_takeovers_total").await < 1 {
        // Left to run out, the lease would last at least 13 s more (renewed every 6.7 s).
        assert!(handed_over.elapsed() < Duration::from_secs(13), "the room was not handed over");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    resume_all(&b, &mut table, &tokens).await;
    table.play_moves(&mut rng, 3).await;
    let epochs = database.epochs(&table.room).await;
    assert_eq!(check_epochs(&epochs), 2, "one lease on A, one on B: {epochs:?}");
}

/// Cluster mode needs a database the servers share: with a SQLite file the server does not
/// start, and says why.
#[test]
fn cluster_mode_refuses_a_sqlite_database() {
    let dir = tempfile::tempdir().unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_fipsen-server"))
        .args(["--addr", "127.0.0.1:0", "--node-id", "a", "--db"])
        .arg(dir.path().join("rooms.sqlite3"))
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--node-id") && stderr.contains("PostgreSQL"), "{stderr}");
    assert!(!dir.path().join("rooms.sqlite3").exists(), "no SQLite file was made");
}
