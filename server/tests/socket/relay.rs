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

use crate::common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::pg::{Database, test_server};
use common::{Client, Rng, Server, Table, check_frames};
use futures_util::StreamExt;
use serde_json::{Value, json};

/// The lease the nodes hold their rooms under, in milliseconds.
const LEASE_MS: u64 = 3000;

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

/// A node of the cluster on `db` with the relay over `nats`. The cluster is named after the
/// test's database, so that the tests that run at the same time share no NATS subject.
fn node(db: &Path, name: &str, nats: &str, lease_ms: u64) -> Server {
    let cluster = db.to_string_lossy().rsplit('/').next().unwrap_or_default().to_string();
    let lease = lease_ms.to_string();
    Server::start(db, &["--node-id", name, "--lease-ms", &lease, "--nats", nats, "--cluster-name", &cluster])
}

/// Waits until `name` on `server` is `value`; fails after 10 s.
async fn await_metric(server: &Server, name: &str, value: u64) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while common::metric(server, name).await != value {
        assert!(Instant::now() < deadline, "{name} is {} , not {value}", common::metric(server, name).await);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Seat `seat` of `table` comes back through `server` with its token and last sequence number.
async fn resume_at(server: &Server, table: &mut Table, seat: usize, token: &str) {
    let before = table.seats[seat].game.clone();
    let game = common::resume_seat(server, table, seat, token).await;
    assert_eq!(game, before, "seat {seat} sees the game as it was");
}

/// A spectator of `table` through `server`.
async fn watch_at(server: &Server, table: &Table, name: &str) -> Client {
    let mut c = Client::greeted(server).await;
    let joined = c.join(&table.room, name, "spectator").await;
    assert_eq!(joined["type"], "joined", "{joined}");
    c
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
    table.play_moves(&mut rng, 3).await;

    // Seats 1 and 3 and a second spectator come through B.
    resume_at(&b, &mut table, 1, &tokens[1]).await;
    resume_at(&b, &mut table, 3, &tokens[3]).await;
    let relayed_watcher = watch_at(&b, &table, "Relayed").await;
    table.spectators.push(relayed_watcher);
    await_metric(&b, "fipsen_relayed_connections", 3).await;
    await_metric(&a, "fipsen_remote_viewers", 3).await;
    assert_eq!(common::metric(&a, "fipsen_rooms_owned").await, 1);
    assert_eq!(common::metric(&b, "fipsen_rooms_owned").await, 0);

    finish_deal(&mut table, &mut rng).await;
    table.play_moves(&mut rng, 6).await;
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

    table.play_moves(&mut rng, 2).await;
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
    assert_eq!(common::metric(&b, "fipsen_rooms_owned").await, 1);
    assert!(table.seats[turn].seq >= ack["seq"].as_u64().unwrap(), "the acknowledged action was lost");
    table.play_moves(&mut rng, 6).await;

    let epochs = database.epochs(&table.room).await;
    let epochs: Vec<i64> = epochs.into_iter().map(Option::unwrap).collect();
    assert!(epochs.windows(2).all(|w| w[0] <= w[1]), "an epoch went back: {epochs:?}");
}

/// Node A holds a table whose seats all come through node B; A stops gracefully (SIGTERM): after
/// its drain it hands the room over, B's relayed clients are closed with 1012 at once, and they
/// resume at B,
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
    table.play_moves(&mut rng, 4).await;

    let stopping = Instant::now();
    assert!(tokio::task::block_in_place(|| a.terminate()), "node A stops cleanly");
    for seat in &mut table.seats {
        assert_eq!(seat.recv_close().await, 1012);
    }
    for (seat, token) in tokens.iter().enumerate() {
        resume_at(&b, &mut table, seat, token).await;
    }
    // The default drain of cluster mode (5 s), then at once.
    assert!(stopping.elapsed() < Duration::from_secs(15), "back after {:?}", stopping.elapsed());
    assert_eq!(common::metric(&b, "fipsen_rooms_owned").await, 1);
    assert_eq!(common::metric(&b, "fipsen_relayed_connections").await, 0);
    table.play_moves(&mut rng, 4).await;
}

/// The lobby of each node lists the public rooms of both, newest first, within a couple of
/// seconds; a private room is listed nowhere; a room taken over is listed once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_node_lists_every_public_room() {
    let (Some(server_url), Some(nats)) = (test_server(), test_nats()) else { return };
    let database = Database::create(server_url, "relay_lobby").await;
    let url = database.url();
    let db = Path::new(&url);
    let mut a = node(db, "a", &nats, LEASE_MS);
    let b = node(db, "b", &nats, LEASE_MS);
    let mut hosts = Vec::new();
    let mut codes = Vec::new();
    for (server, title, public) in [(&a, "On A", true), (&b, "On B", true), (&a, "Private on A", false)] {
        let mut host = Client::greeted(server).await;
        codes.push(host.create("Host", json!({"players": 4}), json!({"title": title, "public": public})).await);
        // The hosts stay connected so the rooms stay open.
        hosts.push(host);
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let titles = |lobby: &Value| -> Vec<String> {
        lobby["rooms"].as_array().unwrap().iter().map(|r| r["title"].as_str().unwrap().to_string()).collect()
    };
    for server in [&a, &b] {
        let mut visitor = Client::greeted(server).await;
        let deadline = Instant::now() + Duration::from_secs(5);
        let lobby = loop {
            visitor.send(json!({"type": "lobby"})).await;
            let lobby = visitor.recv_type("lobby").await;
            if titles(&lobby).len() == 2 || Instant::now() > deadline {
                break lobby;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        assert_eq!(titles(&lobby), ["On B", "On A"], "{lobby}");
        assert_eq!(lobby["total"], json!(2), "{lobby}");
        assert!(!lobby.to_string().contains(&codes[2]), "a private room's code never appears in the lobby");
    }
    // A is killed: B takes its public room over (its lease runs out first) and lists it once,
    // as its own, beside its other one.
    drop(hosts);
    a.kill();
    await_metric(&b, "fipsen_rooms_owned", 3).await;
    let mut visitor = Client::greeted(&b).await;
    visitor.send(json!({"type": "lobby"})).await;
    let lobby = visitor.recv_type("lobby").await;
    let mut listed = titles(&lobby);
    listed.sort();
    assert_eq!(listed, ["On A", "On B"], "{lobby}");
    assert_eq!(lobby["total"], json!(2), "{lobby}");
}

/// Registers `name` for tournament `code` through `server`; returns the entrant's token.
async fn register_at(server: &Server, code: &str, name: &str) -> String {
    let mut c = Client::greeted(server).await;
    c.send(json!({"type": "register", "tournament": code, "name": name})).await;
    let registered = c.recv_type_or_error("registered").await;
    assert_eq!(registered["type"], "registered", "{registered}");
    let state = c.recv_type("tournament").await;
    assert_eq!(state["tournament"]["you"]["entrant"], registered["entrant"], "{state}");
    registered["token"].as_str().unwrap().to_string()
}

/// A tournament held by node A is run from both nodes: two players register through B, a
/// spectator at B watches it (relayed), it is listed at B, and the organiser starts it at A.
/// Nobody comes to the tables: bots play them. A is killed mid-round: B takes the tournament
/// and its tables over, the watcher watches it again at B, and the round ends there with the
/// standings equal to the tables' totals.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_runs_from_any_node_and_survives_its_node() {
    let (Some(server_url), Some(nats)) = (test_server(), test_nats()) else { return };
    let database = Database::create(server_url, "relay_tournament").await;
    let url = database.url();
    let db = Path::new(&url);
    let mut a = node(db, "a", &nats, LEASE_MS);
    let b = node(db, "b", &nats, LEASE_MS);
    let settings = json!({
        "name": "Relayed", "game": "prisdorf",
        "tables": [{"seats": 4, "deals": 6, "rules": {"game": "prisdorf", "players": 4, "deals": 6, "kontra": false}}],
        "max_short_tables": 0, "rounds": 1, "reseating": "by_standings", "duplicate": false,
        "listed": true, "organiser_plays": false
    });
    let tables = json!({"grace_seconds": 1, "next_deal_seconds": 0, "bot_delay_ms": 100, "bot_takeover": "normal"});
    let mut organiser = Client::greeted(&a).await;
    organiser.send(json!({"type": "create_tournament", "name": "Olli", "settings": settings, "tables": tables})).await;
    let created = organiser.recv_type_or_error("tournament_created").await;
    assert_eq!(created["type"], "tournament_created", "{created}");
    let code = created["tournament"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();

    // Listed at B (published by A), and watched through B.
    let mut watcher = Client::greeted(&b).await;
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        watcher.send(json!({"type": "tournaments"})).await;
        let list = watcher.recv_type("tournaments").await;
        if list.to_string().contains(&code) {
            break;
        }
        assert!(Instant::now() < deadline, "the tournament is not listed at B: {list}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    watcher.send(json!({"type": "watch_tournament", "tournament": code})).await;
    let watched = watcher.recv_type("tournament").await;
    assert_eq!(watched["tournament"]["view"]["phase"]["phase"], "registration", "{watched}");

    for (server, name) in [(&a, "Anna"), (&b, "Bernd"), (&a, "Carla"), (&b, "Dirk")] {
        register_at(server, &code, name).await;
    }
    watcher.tournament_until(|t| t["view"]["entrants"].as_array().unwrap().len() == 4).await;
    organiser.send(json!({"type": "start_tournament", "tournament": code, "token": token})).await;
    watcher.tournament_until(|t| t["view"]["phase"]["phase"] == "playing").await;
    assert_eq!(common::metric(&a, "fipsen_rooms_owned").await, 1, "the table is at A, with its tournament");

    // Some moves in, A dies.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    a.kill();
    assert_eq!(watcher.recv_close().await, 1012, "the relayed watcher is sent to watch again");
    let mut watcher = Client::greeted(&b).await;
    let deadline = Instant::now() + Duration::from_secs(15);
    let state = loop {
        watcher.send(json!({"type": "watch_tournament", "tournament": code})).await;
        let answer = watcher.recv_type_or_error("tournament").await;
        if answer["type"] == "tournament" {
            break answer;
        }
        assert!(Instant::now() < deadline, "the tournament did not come back at B: {answer}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(state["tournament"]["view"]["phase"]["phase"], "playing", "{state}");
    let state = watcher.tournament_until(|t| t["view"]["phase"]["phase"] == "finished").await;
    let table = &state["view"]["rounds"][0]["tables"][0];
    assert_eq!(table["played"], 6, "{table}");
    let totals: i64 = table["totals"].as_array().unwrap().iter().map(|t| t.as_i64().unwrap()).sum();
    let standings: i64 =
        state["view"]["standings"].as_array().unwrap().iter().map(|s| s["total"].as_i64().unwrap()).sum();
    assert_eq!(totals, standings, "{state}");
    // The table was written under A's lease, then B's, never back (its seating, stored with
    // the room before any lease, carries none).
    let room = state["rooms"][0][0].as_str().unwrap();
    let epochs: Vec<i64> = database.epochs(room).await.into_iter().flatten().collect();
    assert!(epochs.windows(2).all(|w| w[0] <= w[1]), "an epoch went back: {epochs:?}");
    assert!(epochs.first() < epochs.last(), "the table changed hands: {epochs:?}");
}

/// New rooms go to the node holding the fewest: four tables created through A end up two at A
/// and two at B (A hands the second and the fourth over, as B's heartbeats and its own count
/// of rooms placed tell). The tables placed at B are played through A, relayed, with every
/// viewer shown only what he may see, as the tables held at A; each table's series page and
/// replay are the same at both nodes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn new_rooms_go_to_the_least_loaded_node() {
    let (Some(server_url), Some(nats)) = (test_server(), test_nats()) else { return };
    let database = Database::create(server_url, "relay_placement").await;
    let url = database.url();
    let db = Path::new(&url);
    let a = node(db, "a", &nats, LEASE_MS);
    let b = node(db, "b", &nats, LEASE_MS);
    // A has heard B's heartbeat (and its count of rooms) within two beats.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let mut tables = Vec::new();
    for _ in 0..4 {
        let (rules, options) = rules();
        tables.push(Table::open(&a, rules, options, 1).await);
    }
    await_metric(&a, "fipsen_rooms_owned", 2).await;
    await_metric(&b, "fipsen_rooms_owned", 2).await;
    assert_eq!(common::metric(&a, "fipsen_rooms_placed_total").await, 2, "A placed two rooms on B");
    assert_eq!(common::metric(&b, "fipsen_rooms_placed_total").await, 0);
    // Every seat and spectator of the two tables at B is relayed from A.
    await_metric(&a, "fipsen_relayed_connections", 2 * 5).await;
    await_metric(&b, "fipsen_remote_viewers", 2 * 5).await;

    let mut rng = Rng(47);
    for table in &mut tables {
        finish_deal(table, &mut rng).await;
        let truth = table.spectators[0].frames.clone();
        for seat in 0..4 {
            assert!(check_frames(Some(seat as u8), &table.seats[seat].frames, &truth) > 5);
        }
    }

    // Series pages and replays are read from the shared store: both nodes show every table's
    // alike, wherever it is held.
    for table in &tables {
        let token = table.seats[0].token();
        let mut answers = Vec::new();
        for server in [&a, &b] {
            let mut c = Client::greeted(server).await;
            c.send(json!({"type": "series", "room": table.room, "key": token})).await;
            let page = c.recv_type_or_error("series").await;
            assert_eq!(page["type"], "series", "{page}");
            c.send(json!({"type": "series_replay", "room": table.room, "key": token, "deal": 1})).await;
            let replay = c.recv_type_or_error("replay").await;
            assert_eq!(replay["type"], "replay", "{replay}");
            answers.push((page, replay));
        }
        assert_eq!(answers[0], answers[1], "both nodes show the same series and replay");
    }
}

/// The titles of the rooms in `server`'s lobby.
async fn lobby_at(server: &Server) -> Vec<String> {
    let mut visitor = Client::greeted(server).await;
    visitor.send(json!({"type": "lobby"})).await;
    let lobby = visitor.recv_type("lobby").await;
    lobby["rooms"].as_array().unwrap().iter().map(|r| r["title"].as_str().unwrap().to_string()).collect()
}

/// Two clusters on one NATS server (each named after its database with `--cluster-name`, both
/// with a node called "a") do not hear each other: a public room of one is listed by that
/// cluster's other node, never by the other cluster.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clusters_sharing_a_nats_server_do_not_hear_each_other() {
    let (Some(server_url), Some(nats)) = (test_server(), test_nats()) else { return };
    let one = Database::create(server_url.clone(), "relay_cluster_one").await;
    let two = Database::create(server_url, "relay_cluster_two").await;
    let (url_one, url_two) = (one.url(), two.url());
    let a1 = node(Path::new(&url_one), "a", &nats, LEASE_MS);
    let b1 = node(Path::new(&url_one), "b", &nats, LEASE_MS);
    let a2 = node(Path::new(&url_two), "a", &nats, LEASE_MS);
    let mut hosts = Vec::new();
    for (server, title) in [(&a1, "Cluster one"), (&a2, "Cluster two")] {
        let mut host = Client::greeted(server).await;
        host.create("Host", json!({"players": 4}), json!({"title": title, "public": true})).await;
        hosts.push(host);
    }
    let deadline = Instant::now() + Duration::from_secs(5);
    while lobby_at(&b1).await != ["Cluster one"] {
        assert!(Instant::now() < deadline, "B of cluster one does not list its cluster's room");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // By now each node has published its rooms at least once more.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(lobby_at(&b1).await, ["Cluster one"]);
    assert_eq!(lobby_at(&a2).await, ["Cluster two"], "the other cluster's room is not listed");
    assert_eq!(lobby_at(&a1).await, ["Cluster one"]);
}

/// A stand-in for another server's edge on the NATS server: it sends a room's owner what an
/// edge sends for one of its clients, and reads what the owner sends back, so that a test can
/// lose an answer, or deliver a request late, as a lossy relay would.
struct FakeEdge {
    client: async_nats::Client,
    /// The owner's subject (`<cluster>.owner.<node>`).
    owner: String,
    /// Where the owner's frames for this edge's connections come.
    frames: async_nats::Subscriber,
}

impl FakeEdge {
    async fn new(nats: &str, db: &Path, owner: &str) -> FakeEdge {
        let cluster = db.to_string_lossy().rsplit('/').next().unwrap_or_default().to_string();
        let client = async_nats::connect(nats).await.unwrap();
        let frames = client.subscribe(format!("{cluster}.edge.fake.1")).await.unwrap();
        FakeEdge { client, owner: format!("{cluster}.owner.{owner}"), frames }
    }

    /// Sends the owner a join of connection `conn` first seen at `seen` (ms since 1970); its
    /// answer.
    async fn join(&self, room: &str, epoch: i64, conn: u64, kind: Value, seen: u64) -> Value {
        let join = json!({"t": "join", "room": room, "epoch": epoch, "edge": {"node": "fake", "run": 1},
            "conn": conn, "addr": "127.0.0.1", "kind": kind, "seen": seen});
        let answer = self.client.request(self.owner.clone(), join.to_string().into()).await.unwrap();
        serde_json::from_slice(&answer.payload).unwrap()
    }

    /// The next frame the owner sent this edge whose type is `kind`.
    async fn frame(&mut self, kind: &str) -> Value {
        loop {
            let message = tokio::time::timeout(Duration::from_secs(10), self.frames.next()).await.unwrap().unwrap();
            if let Ok(frame) = serde_json::from_slice::<Value>(&message.payload)
                && frame["type"] == kind
            {
                return frame;
            }
        }
    }
}

/// Milliseconds since 1970 now, plus `offset_ms`.
fn unix_ms(offset_ms: i64) -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64;
    (now + offset_ms) as u64
}

/// The lease the room's last record was written under.
async fn epoch_of(database: &Database, room: &str) -> i64 {
    database.epochs(room).await.into_iter().flatten().max().expect("a record written under a lease")
}

/// A relayed join whose answer is lost is sent again by its edge (as an edge does when the
/// owner's answer does not come): with its key, the owner seats the player once and gives the
/// same seat and token both times. A client whose socket drops before its join through node B is
/// answered joins again there with the same key: the same player again, never a second one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_relayed_join_sent_again_after_its_answer_was_lost_seats_the_player_once() {
    let (Some(server_url), Some(nats)) = (test_server(), test_nats()) else { return };
    let database = Database::create(server_url, "relay_join_key").await;
    let url = database.url();
    let db = Path::new(&url);
    let a = node(db, "a", &nats, LEASE_MS);
    let b = node(db, "b", &nats, LEASE_MS);
    let mut host = Client::greeted(&a).await;
    let room = host.create("Host", json!({"players": 4}), json!({})).await;
    let epoch = epoch_of(&database, &room).await;

    let mut edge = FakeEdge::new(&nats, db, "a").await;
    let kind = json!({"as": "player", "name": "Dup", "token": null, "key": "lostAnswerJoinKey-0123456789"});
    let seen = unix_ms(0);
    // The first answer is lost on its way (never read here); the edge sends the join again.
    let _lost = edge.join(&room, epoch, 7, kind.clone(), seen).await;
    let first = edge.frame("joined").await;
    let answer = edge.join(&room, epoch, 7, kind.clone(), seen).await;
    assert_eq!(answer, json!({"here": "joined"}), "{answer}");
    let second = edge.frame("joined").await;
    assert_eq!(second["you"]["seat"], first["you"]["seat"], "{second}");
    assert_eq!(second["you"]["token"], first["you"]["token"], "{second}");
    assert_eq!(second["you"]["name"], "Dup", "{second}");

    // Through B's own edge: the socket drops before the answer is read; the join is sent again.
    let key = "droppedSocketJoinKey-0123456789";
    let join = json!({"type": "join_room", "room": room, "name": "Relayed", "role": "player", "key": key});
    let mut lost = Client::greeted(&b).await;
    lost.send(join.clone()).await;
    drop(lost);
    let seated = |host: &Client, name: &str| {
        host.room["seats"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["name"].as_str().is_some_and(|n| n.starts_with(name)))
            .count()
    };
    while seated(&host, "Relayed") == 0 {
        assert!(host.recv().await.is_some(), "the host's connection closed");
    }
    let mut again = Client::greeted(&b).await;
    again.send(join).await;
    let joined = again.recv_type_or_error("joined").await;
    assert_eq!(joined["you"]["name"], "Relayed", "{joined}");

    host.send(json!({"type": "chat", "text": "sync"})).await;
    while host.recv().await.is_some_and(|frame| frame["type"] != "update" || !frame.to_string().contains("sync")) {}
    assert_eq!(seated(&host, "Dup"), 1, "one seat for Dup: {}", host.room);
    assert_eq!(seated(&host, "Relayed"), 1, "one seat for Relayed: {}", host.room);
}

/// A `resume` relayed late (sent before its client gave up on it, during an outage) reaches the
/// room after the seat's player came back on a new connection: it is refused, and the newer
/// connection stays; a resume seen after that connection still replaces it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_late_relayed_resume_does_not_evict_the_seats_newer_connection() {
    let (Some(server_url), Some(nats)) = (test_server(), test_nats()) else { return };
    let database = Database::create(server_url, "relay_stale_resume").await;
    let url = database.url();
    let db = Path::new(&url);
    let a = node(db, "a", &nats, LEASE_MS);
    let _b = node(db, "b", &nats, LEASE_MS);
    let mut host = Client::greeted(&a).await;
    let room = host.create("Host", json!({"players": 4}), json!({})).await;
    let token = host.token();
    let epoch = epoch_of(&database, &room).await;
    let mut edge = FakeEdge::new(&nats, db, "a").await;

    // The host comes back on a new connection (the live one from now on).
    let mut live = Client::greeted(&a).await;
    live.send(json!({"type": "resume", "room": room, "token": token})).await;
    assert_eq!(live.recv_type_or_error("joined").await["type"], "joined");
    assert_eq!(host.recv_close().await, 4003, "the older connection was replaced");

    // A resume first seen a minute before arrives now.
    let resume = json!({"as": "resume", "token": token, "last_seq": null});
    let answer = edge.join(&room, epoch, 8, resume.clone(), unix_ms(-60_000)).await;
    assert_eq!(answer, json!({"here": {"refused": "token/superseded"}}), "{answer}");
    live.send(json!({"type": "ping"})).await;
    let pong = live.recv_type_or_error("pong").await;
    assert_eq!(pong["type"], "pong", "the live connection is still open: {pong} ({:?})", live.closed);
    live.send(json!({"type": "chat", "text": "still here"})).await;
    let update = live.recv_type_or_error("update").await;
    assert!(update.to_string().contains("still here"), "{update}");

    // One seen after the live connection's replaces it.
    let answer = edge.join(&room, epoch, 9, resume, unix_ms(60_000)).await;
    assert_eq!(answer, json!({"here": "joined"}), "{answer}");
    assert_eq!(edge.frame("joined").await["you"]["seat"], json!(0));
    assert_eq!(live.recv_close().await, 4003, "replaced by the newer request");
}

/// After a rolling restart one node may hold every room and another none. Node A holds six
/// tables when node B starts: four with a deal being played by connected players, one whose
/// deal is over (its players still there), one whose players have all gone. A hands B the two
/// at rest, and only those: the four deals in play are never cut. The players of the table
/// moved are sent to resume (1012), come back through A, relayed to B, with the game as it was,
/// and play on; then the load stays 4 / 2 (a difference within the margin moves nothing).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_holding_every_room_hands_rooms_at_rest_to_a_node_that_joins() {
    let (Some(server_url), Some(nats)) = (test_server(), test_nats()) else { return };
    let database = Database::create(server_url, "relay_rebalance").await;
    let url = database.url();
    let db = Path::new(&url);
    // Leases of 1.5 s: a look every 4.5 s.
    let lease_ms = 1500;
    let rebalancing = |name: &str| {
        let cluster = url.rsplit('/').next().unwrap_or_default().to_string();
        let lease = lease_ms.to_string();
        let flags =
            ["--node-id", name, "--lease-ms", &lease, "--nats", &nats, "--cluster-name", &cluster, "--rebalance"];
        Server::start(db, &flags)
    };
    let a = rebalancing("a");
    let mut rng = Rng(29);
    let mut playing = Vec::new();
    for _ in 0..4 {
        let (game, options) = rules();
        let mut table = Table::open(&a, game, options, 0).await;
        table.play_moves(&mut rng, 2).await;
        playing.push(table);
    }
    let (game, options) = rules();
    let mut between = Table::open(&a, game, options, 0).await;
    finish_deal(&mut between, &mut rng).await;
    let (game, options) = rules();
    let mut left = Table::open(&a, game, options, 0).await;
    left.play_moves(&mut rng, 2).await;
    for seat in std::mem::take(&mut left.seats) {
        seat.close().await;
    }
    assert_eq!(common::metric(&a, "fipsen_rooms_owned").await, 6);

    let b = rebalancing("b");
    await_metric(&b, "fipsen_rooms_owned", 2).await;
    await_metric(&a, "fipsen_rooms_owned", 4).await;
    // Counted once B said it took the room.
    await_metric(&a, "fipsen_rooms_rebalanced_total", 2).await;
    // The table between deals was moved: its players are sent to resume, and come back
    // through A, relayed to B, where the game is as it was.
    let tokens: Vec<String> = between.seats.iter().map(Client::token).collect();
    for seat in &mut between.seats {
        assert_eq!(seat.recv_close().await, 1012);
    }
    for (seat, token) in tokens.iter().enumerate() {
        resume_at(&a, &mut between, seat, token).await;
    }
    between.ask_next_deal().await;
    between.play_moves(&mut rng, 3).await;
    // The deals in play went on at A, uncut, and go on.
    for table in &mut playing {
        table.play_moves(&mut rng, 2).await;
    }
    // Two more looks: 4 against 2 is within the margin, nothing more moves.
    tokio::time::sleep(Duration::from_millis(3 * 3 * lease_ms)).await;
    assert_eq!(common::metric(&a, "fipsen_rooms_owned").await, 4);
    assert_eq!(common::metric(&b, "fipsen_rooms_owned").await, 2);
    assert_eq!(common::metric(&a, "fipsen_rooms_rebalanced_total").await, 2);
    for table in &mut playing {
        table.play_moves(&mut rng, 1).await;
    }
}

/// NATS may lose a message between two live nodes, and a lost last message shows no gap: here
/// the one that would end a relayed client's service. Node A holds the room; a guest plays
/// through node B. A leave from B's edge for that connection is forged on A's subject (as if B's
/// client had left and the close meant for it were lost): A drops the guest from the room and
/// sends B nothing. Without a roll call the guest would wait for frames forever; with it, B sees
/// within a few seconds that A no longer serves the guest, closes it with 1012, and the guest
/// resumes in its seat.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_relayed_client_forgotten_through_a_lost_message_resumes() {
    let (Some(server_url), Some(nats)) = (test_server(), test_nats()) else { return };
    let database = Database::create(server_url, "relay_roll_call").await;
    let url = database.url();
    let db = Path::new(&url);
    let a = node(db, "a", &nats, LEASE_MS);
    let b = node(db, "b", &nats, LEASE_MS);
    let cluster = url.rsplit('/').next().unwrap_or_default().to_string();
    let client = async_nats::connect(&nats).await.unwrap();
    let mut alive = client.subscribe(format!("{cluster}.alive")).await.unwrap();
    let run_of_b = loop {
        let beat = tokio::time::timeout(Duration::from_secs(10), alive.next()).await.unwrap().unwrap();
        let beat = String::from_utf8_lossy(&beat.payload).to_string();
        let mut fields = beat.split(' ');
        if fields.next() == Some("b") {
            break fields.next().unwrap().parse::<u64>().unwrap();
        }
    };

    let mut host = Client::greeted(&a).await;
    let room = host.create("Host", json!({"players": 4}), json!({})).await;
    let mut guest = Client::greeted(&b).await;
    let joined = guest.join(&room, "Guest", "player").await;
    let seat = joined["you"]["seat"].clone();
    let token = guest.token();
    await_metric(&a, "fipsen_remote_viewers", 1).await;
    assert_eq!(common::metric(&b, "fipsen_relayed_orphans_total").await, 0);

    for conn in 1..=64_u64 {
        let leave = json!({"t": "leave", "edge": {"node": "b", "run": run_of_b}, "conn": conn});
        client.publish(format!("{cluster}.owner.a"), leave.to_string().into()).await.unwrap();
    }
    client.flush().await.unwrap();
    await_metric(&a, "fipsen_remote_viewers", 0).await;
    assert_eq!(guest.recv_close().await, 1012, "B closes the forgotten guest to resume");
    assert_eq!(common::metric(&b, "fipsen_relayed_orphans_total").await, 1);

    let mut back = Client::greeted(&b).await;
    back.send(json!({"type": "resume", "room": room, "token": token})).await;
    let resumed = back.recv_type_or_error("joined").await;
    assert_eq!(resumed["you"]["seat"], seat, "{resumed}");
    back.send(json!({"type": "chat", "text": "back again"})).await;
    while host.recv().await.is_some_and(|frame| !frame.to_string().contains("back again")) {}
    assert!(host.closed.is_none(), "the host's connection stayed open");
    await_metric(&a, "fipsen_remote_viewers", 1).await;

    // The other way round: A serves a connection for B that B no longer has (its leave was
    // lost). B's answer to A's roll call drops it there.
    let epoch = epoch_of(&database, &room).await;
    let ghost = json!({"t": "join", "room": room, "epoch": epoch, "edge": {"node": "b", "run": run_of_b},
        "conn": 999_999, "addr": "127.0.0.1", "kind": {"as": "spectator", "name": "Ghost"}, "seen": unix_ms(0)});
    let answer = client.request(format!("{cluster}.owner.a"), ghost.to_string().into()).await.unwrap();
    let answer: Value = serde_json::from_slice(&answer.payload).unwrap();
    assert_eq!(answer, json!({"here": "joined"}), "{answer}");
    await_metric(&a, "fipsen_remote_viewers", 1).await;
    assert_eq!(common::metric(&b, "fipsen_relayed_orphans_total").await, 1, "nothing at B resumed for it");
}
