//! The relay (`--nats`): two nodes of a cluster on one PostgreSQL database and one NATS server.
//! A client may connect to either node: a node that does not hold the client's room relays its
//! messages to the node that does, and that node's frames back, each built for that viewer.
//! When the holder is killed, the relayed clients are sent to resume (1012), and the room is
//! taken over where they come back, with everything acknowledged; when the holder stops
//! gracefully, it hands the room over at once.
//!
//! Needs `FIPSEN_TEST_POSTGRES` (`scripts/postgres-temp`) and `FIPSEN_TEST_NATS`
//! (`scripts/cluster/nats`); without them each test says it was skipped and passes, except
//! under CI (`CI` set), where it fails.

#![allow(clippy::unwrap_used)]

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::pg::{Database, test_server};
use common::{Client, Rng, Server, Table, check_frames};
use serde_json::{Value, json};

/// The lease the nodes hold their rooms under, in milliseconds.
const LEASE_MS: u64 = 1500;

/// The NATS server's URL, or `None` (said) when the test is skipped.
fn test_nats() -> Option<String> {
    match std::env::var("FIPSEN_TEST_NATS") {
        Ok(url) if !url.is_empty() => Some(url),
        _ if std::env::var_os("CI").is_some() => {
            panic!("FIPSEN_TEST_NATS is not set, and CI is: this test needs a NATS server")
        }
        _ => {
            println!("skipped: FIPSEN_TEST_NATS is not set (scripts/cluster/nats starts a server)");
            None
        }
    }
}

/// A node of the cluster on `db` with the relay over `nats`.
fn node(db: &Path, name: &str, nats: &str, lease_ms: u64) -> Server {
    Server::start(db, &["--node-id", name, "--lease-ms", &lease_ms.to_string(), "--nats", nats])
}

/// A metric's value on `server`'s `/metrics`.
async fn metric(server: &Server, name: &str) -> u64 {
    let (_, body) = server.get("/metrics").await;
    body.lines()
        .find_map(|line| line.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or_else(|| panic!("no {name} in {body}"))
}

/// Waits until `name` on `server` is `value`; fails after 10 s.
async fn await_metric(server: &Server, name: &str, value: u64) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while metric(server, name).await != value {
        assert!(Instant::now() < deadline, "{name} is {} , not {value}", metric(server, name).await);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Seat `seat` of `table` comes back through `server` with its token and last sequence number.
async fn resume_at(server: &Server, table: &mut Table, seat: usize, token: &str) {
    let mut c = Client::greeted(server).await;
    let last = table.seats[seat].seq;
    c.send(json!({"type": "resume", "room": table.room, "token": token, "last_seq": last})).await;
    let joined = c.recv_type_or_error("joined").await;
    assert_eq!(joined["type"], "joined", "{joined}");
    assert_eq!(joined["you"]["seat"], json!(seat));
    assert_eq!(joined["game"], table.seats[seat].game, "seat {seat} sees the game as it was");
    table.seats[seat] = c;
}

/// A spectator of `table` through `server`.
async fn watch_at(server: &Server, table: &Table, name: &str) -> Client {
    let mut c = Client::greeted(server).await;
    let joined = c.join(&table.room, name, "spectator").await;
    assert_eq!(joined["type"], "joined", "{joined}");
    c
}

/// Plays `moves` random legal actions (asking for the next deal when one is over).
async fn play(table: &mut Table, rng: &mut Rng, moves: usize) {
    let mut played = 0;
    while played < moves && !table.series_over() {
        if table.deal_over() {
            table.ask_next_deal().await;
            continue;
        }
        assert!(table.step(rng).await);
        played += 1;
    }
}

/// Plays on until the current deal is over.
async fn finish_deal(table: &mut Table, rng: &mut Rng) {
    while !table.deal_over() {
        assert!(table.step(rng).await);
    }
}

fn rules() -> (Value, Value) {
    (json!({"players": 4, "deals": 6}), json!({"next_deal_seconds": null}))
}

/// A table held by node A is played by clients at both nodes: two seats and a spectator come
/// through node B. Everyone sees every action; what the relayed viewers get shows no card they
/// may not see; `peek` and `my_rooms` answer at B; both nodes count the relayed connections.
/// Then A is killed: B sends its relayed clients to resume, takes the room over once A's lease
/// has run out, and everyone plays on there with every acknowledged action kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn any_node_serves_any_client_and_a_killed_holder_is_replaced() {
    let (Some(server_url), Some(nats)) = (test_server(), test_nats()) else { return };
    let database = Database::create(server_url, "relay_kill").await;
    let url = database.url();
    let db = Path::new(&url);
    let mut a = node(db, "a", &nats, LEASE_MS);
    let b = node(db, "b", &nats, LEASE_MS);
    let (rules, options) = rules();
    let mut table = Table::open(&a, rules, options, 1).await;
    let tokens: Vec<String> = table.seats.iter().map(Client::token).collect();
    let mut rng = Rng(31);
    play(&mut table, &mut rng, 3).await;

    // Seats 1 and 3 and a second spectator come through B.
    resume_at(&b, &mut table, 1, &tokens[1]).await;
    resume_at(&b, &mut table, 3, &tokens[3]).await;
    let relayed_watcher = watch_at(&b, &table, "Relayed").await;
    table.spectators.push(relayed_watcher);
    await_metric(&b, "fipsen_relayed_connections", 3).await;
    await_metric(&a, "fipsen_remote_viewers", 3).await;
    assert_eq!(metric(&a, "fipsen_rooms_owned").await, 1);
    assert_eq!(metric(&b, "fipsen_rooms_owned").await, 0);

    finish_deal(&mut table, &mut rng).await;
    play(&mut table, &mut rng, 6).await;
    finish_deal(&mut table, &mut rng).await;
    // What the relayed seats and spectator saw, judged by what the direct spectator saw.
    let truth = table.spectators[0].frames.clone();
    assert!(check_frames(Some(1), &table.seats[1].frames, &truth) > 5);
    assert!(check_frames(Some(3), &table.seats[3].frames, &truth) > 5);
    assert!(check_frames(None, &table.spectators[1].frames, &truth) > 5);

    // Questions about the room from outside, asked at B.
    let mut lobby = Client::greeted(&b).await;
    lobby.send(json!({"type": "peek", "room": table.room})).await;
    let info = lobby.recv_type("room_info").await;
    assert_eq!(info["room"]["room"], json!(table.room), "{info}");
    lobby.send(json!({"type": "my_rooms", "tokens": [tokens[2]]})).await;
    let mine = lobby.recv_type("my_rooms").await;
    assert_eq!(mine["rooms"][0]["room"], json!(table.room), "{mine}");
    assert_eq!(mine["rooms"][0]["seat"], json!(2), "{mine}");

    play(&mut table, &mut rng, 2).await;
    // An action acknowledged (through B for the relayed seats), and at once SIGKILL of A.
    let turn = table.view()["turn"].as_u64().unwrap() as usize;
    let action = common::random_action(table.seats[turn].deal(), &mut rng).unwrap();
    let ack = table.seats[turn].act(&action).await;
    assert_eq!(ack["type"], "ack", "{ack}");
    table.actions.push((fipsen_rules::Seat(turn as u8), action));
    table.sync(ack["seq"].as_u64().unwrap()).await;
    a.kill();
    let killed = Instant::now();
    // B's relayed clients are sent to resume once A has been silent for a while.
    for seat in [1, 3] {
        assert_eq!(table.seats[seat].recv_close().await, 1012, "seat {seat}");
    }
    assert_eq!(table.spectators[1].recv_close().await, 1012);
    for (seat, token) in tokens.iter().enumerate() {
        resume_at(&b, &mut table, seat, token).await;
    }
    let back = killed.elapsed();
    println!("every seat back after {back:?}");
    assert!(back < Duration::from_millis(LEASE_MS) + Duration::from_secs(5), "back after {back:?}");
    table.spectators = vec![watch_at(&b, &table, "Watcher0").await];
    assert_eq!(metric(&b, "fipsen_rooms_owned").await, 1);
    assert!(table.seats[turn].seq >= ack["seq"].as_u64().unwrap(), "the acknowledged action was lost");
    play(&mut table, &mut rng, 6).await;

    let epochs = database.epochs(&table.room).await;
    let epochs: Vec<i64> = epochs.into_iter().map(Option::unwrap).collect();
    assert!(epochs.windows(2).all(|w| w[0] <= w[1]), "an epoch went back: {epochs:?}");
}

/// Node A holds a table whose seats all come through node B; A stops gracefully (SIGTERM): it
/// hands the room over, B's relayed clients are closed with 1012 at once, and they resume at B,
/// which holds the room now, long before A's lease would have run out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopping_holder_hands_its_relayed_table_over() {
    let (Some(server_url), Some(nats)) = (test_server(), test_nats()) else { return };
    let database = Database::create(server_url, "relay_stop").await;
    let url = database.url();
    let db = Path::new(&url);
    // Leases of 20 s: a room back in less was handed over, not left to run out.
    let mut a = node(db, "a", &nats, 20_000);
    let b = node(db, "b", &nats, 20_000);
    let (rules, options) = rules();
    let mut table = Table::open(&a, rules, options, 0).await;
    let tokens: Vec<String> = table.seats.iter().map(Client::token).collect();
    for (seat, token) in tokens.iter().enumerate() {
        resume_at(&b, &mut table, seat, token).await;
    }
    let mut rng = Rng(5);
    play(&mut table, &mut rng, 4).await;

    let stopping = Instant::now();
    assert!(a.terminate(), "node A stops cleanly");
    for seat in &mut table.seats {
        assert_eq!(seat.recv_close().await, 1012);
    }
    for (seat, token) in tokens.iter().enumerate() {
        resume_at(&b, &mut table, seat, token).await;
    }
    assert!(stopping.elapsed() < Duration::from_secs(10), "back after {:?}", stopping.elapsed());
    assert_eq!(metric(&b, "fipsen_rooms_owned").await, 1);
    assert_eq!(metric(&b, "fipsen_relayed_connections").await, 0);
    play(&mut table, &mut rng, 4).await;
}
