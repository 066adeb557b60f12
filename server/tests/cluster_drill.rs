//! The cluster drill (`scripts/cluster-test` runs it): three nodes (`--node-id a|b|c`, leases of
//! 3 s) on one PostgreSQL database, with the NATS relay when `FIPSEN_TEST_NATS` names a server,
//! and HAProxy in front of them with plain round-robin. Thirty tables of mixed games, some with
//! bots, are played through the proxy with random legal moves, players and spectators each
//! connecting on their own (so they land on different nodes), while a controller kills a random
//! node with SIGKILL at random moments (`DRILL_KILLS` times, 5 unless set) and starts it again,
//! pauses one node past its lease (SIGSTOP, then SIGCONT), and at the end restarts every node in
//! turn with SIGTERM. A client whose connection closes comes back through the proxy as the web
//! client does: a player resumes with his token and the last sequence number he saw, a
//! spectator joins again. Beside the tables, a tournament (the `drill_tournament` module) plays round
//! after round on tables of its own, created, started and watched through the proxy before the
//! first kill, its seats played by bots, while the holder of each of its tables is read from
//! PostgreSQL every second.
//!
//! Checked: every acknowledged action is in the room's log as stored in PostgreSQL and in every
//! client's state (each finished deal ends the same for everyone, and at the end each client's
//! state is the server's); every finished deal replays through the rules crate (from the stored
//! actions, the bots' included) to the server's outcome and scores; no viewer was shown a card he
//! may not see; the epochs of each room's records never go back (no room was written by two
//! owners); and after every kill, pause and restart every client that lost its connection was
//! back in its seat within 15 s. The time until then is printed for each, with the median and
//! the longest (BENCHMARKS.md quotes them). The tournament ended a round after the first kill,
//! its standings as shown are those its tables' stored deals make, its records have no gap, and
//! its tables were held by at least two nodes.
//!
//! Needs `FIPSEN_TEST_POSTGRES` (a server to make the drill's database on) and HAProxy
//! (`FIPSEN_TEST_HAPROXY`, else `haproxy` on the PATH or in /usr/sbin). `DRILL_TABLES` sets the
//! number of tables (30), `DRILL_THINK_MS` the players' mean time to think (250 ms), `DRILL_SEED` the
//! seed of the random choices (printed), `DRILL_RESTART_MS` how long a killed node stays down
//! (from 0.3 to 1.5 s unless set).

#![allow(clippy::unwrap_used)]

#[path = "socket/common/mod.rs"]
mod common;
#[path = "cluster_drill/tournament.rs"]
mod drill_tournament;

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::pg::{Database, test_server};
use common::{Client, Rng, Server, check_frames_except, random_action, replay_deal, short_rules};
use drill_tournament::{DrillTournament, watch_holders};
use fipsen_rules::{GameId, GameRules, Seat};
use serde_json::{Value, json};

/// The lease the nodes hold their rooms under, in milliseconds.
const LEASE_MS: u64 = 3000;
/// The nodes' names.
const NODES: [&str; 3] = ["a", "b", "c"];
/// Every client that lost its connection is back in its seat within this of a kill.
const BACK_WITHIN: Duration = Duration::from_secs(15);
/// A connection that brings no expected frame for this long is given up and made again.
const STALL: Duration = Duration::from_secs(10);
/// How long a client keeps trying to get back into its room before the drill fails.
const ENTER_WITHIN: Duration = Duration::from_secs(40);

/// A number from the environment, or `default`.
fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Each game's default rules as a client sends them, with four players where the table chooses,
/// and a series longer than the drill (which ends the tables itself): no limit of deals or rounds,
/// Wippen 25 sets.
fn endless_rules(game: GameId) -> Value {
    let mut rules = short_rules(game, 1);
    if rules.get("rounds").is_some() {
        rules["rounds"] = Value::Null;
    } else if rules.get("sets").is_some() {
        rules["sets"] = 25.into();
    } else {
        rules["deals"] = Value::Null;
    }
    rules
}

/// A free port on 127.0.0.1 (nothing listens on it once this returns).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// The three nodes, each on a port of its own that it keeps across restarts.
struct Nodes {
    db: String,
    nats: Option<String>,
    ports: Vec<u16>,
    running: Vec<Option<Server>>,
}

impl Nodes {
    fn new(db: String, nats: Option<String>) -> Nodes {
        let ports = NODES.iter().map(|_| free_port()).collect();
        let mut nodes = Nodes { db, nats, ports, running: NODES.iter().map(|_| None).collect() };
        for i in 0..NODES.len() {
            nodes.start(i);
        }
        nodes
    }

    /// Starts node `i` on its port (the second `--addr` wins over the tests' default).
    fn start(&mut self, i: usize) {
        let addr = format!("127.0.0.1:{}", self.ports[i]);
        let lease = LEASE_MS.to_string();
        let mut flags = vec!["--addr", &addr, "--node-id", NODES[i], "--lease-ms", &lease];
        flags.extend(["--trusted-proxy", "127.0.0.1", "--max-per-address", "100000"]);
        // The proxy checks every half second and takes a node out after two failed checks: a
        // drain of 2 s at SIGTERM outlasts them as the default's 5 s outlast deploy/haproxy.cfg's.
        flags.extend(["--stop-drain-seconds", "2"]);
        if let Some(nats) = &self.nats {
            flags.extend(["--nats", nats.as_str()]);
        }
        let server = tokio::task::block_in_place(|| Server::start(Path::new(&self.db), &flags));
        self.running[i] = Some(server);
    }

    fn node(&self, i: usize) -> &Server {
        self.running[i].as_ref().unwrap()
    }

    /// Waits until node `i` answers `/healthz` with 200.
    async fn await_healthy(&self, i: usize) {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let (status, _) = self.node(i).get("/healthz").await;
            if status.contains(" 200") {
                return;
            }
            assert!(Instant::now() < deadline, "node {} is not healthy: {status}", NODES[i]);
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

/// A metric's value on `server`'s `/metrics`.
async fn metric(server: &Server, name: &str) -> u64 {
    let (_, body) = server.get("/metrics").await;
    body.lines()
        .find_map(|line| line.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or_else(|| panic!("no {name} in {body}"))
}

/// HAProxy in front of the nodes, its configuration and log in a folder of its own.
struct Proxy {
    child: Child,
    addr: String,
    dir: tempfile::TempDir,
}

impl Proxy {
    /// Starts HAProxy on a free port in front of nodes on `ports`: deploy/haproxy.cfg's
    /// balancing, checks and failover (round-robin, `GET /healthz`, redispatch and retries,
    /// sessions cut when a node is marked down), with checks every half second so that a node
    /// is taken out of rotation (and put back) within a second or two.
    fn start(ports: &[u16]) -> Proxy {
        let binary = std::env::var("FIPSEN_TEST_HAPROXY").ok().filter(|b| !b.is_empty()).unwrap_or_else(|| {
            let on_path = Command::new("sh").args(["-c", "command -v haproxy"]).output().unwrap();
            let found = String::from_utf8_lossy(&on_path.stdout).trim().to_string();
            if found.is_empty() { "/usr/sbin/haproxy".to_string() } else { found }
        });
        let dir = tempfile::tempdir().unwrap();
        let port = free_port();
        let servers: String =
            ports.iter().zip(NODES).map(|(port, name)| format!("    server node-{name} 127.0.0.1:{port}\n")).collect();
        let config = format!(
            "global\n    maxconn 2000\n\n\
             defaults\n    mode http\n    option forwardfor\n    option redispatch\n    retries 3\n\
             \x20   timeout connect 2s\n    timeout http-request 10s\n    timeout http-keep-alive 10s\n\
             \x20   timeout client 30s\n    timeout server 30s\n    timeout tunnel 2m\n\
             \x20   timeout client-fin 5s\n    timeout server-fin 5s\n\n\
             frontend fipsen\n    bind 127.0.0.1:{port}\n    default_backend nodes\n\n\
             backend nodes\n    balance roundrobin\n    option httpchk\n\
             \x20   http-check send meth GET uri /healthz ver HTTP/1.1 hdr Host fipsen\n\
             \x20   http-check expect status 200\n\
             \x20   default-server check inter 500ms fall 2 rise 2 on-marked-down shutdown-sessions\n{servers}"
        );
        let file = dir.path().join("haproxy.cfg");
        std::fs::write(&file, config).unwrap();
        let log = std::fs::File::create(dir.path().join("haproxy.log")).unwrap();
        let child = Command::new(&binary)
            .arg("-db")
            .arg("-f")
            .arg(&file)
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start HAProxy ({binary}): {e}"));
        let addr = format!("127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(&addr).is_err() {
            assert!(Instant::now() < deadline, "HAProxy does not listen; its log is in {:?}", dir.path());
            std::thread::sleep(Duration::from_millis(50));
        }
        Proxy { child, addr, dir }
    }

    fn log(&self) -> PathBuf {
        self.dir.path().join("haproxy.log")
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A client that lost its connection, from when it noticed until it was back in its room.
struct Outage {
    noticed: Instant,
    back: Instant,
}

/// What the tables and the controller share.
struct Shared {
    /// The proxy's WebSocket URL.
    url: String,
    /// The drill's database, to read the rooms' logs.
    log: tokio_postgres::Client,
    /// Set when the controller is done: the tables stop at the end of their deal.
    stop: AtomicBool,
    /// Clients now away (their connection lost, not yet back).
    away: AtomicUsize,
    outages: Mutex<Vec<Outage>>,
    /// `server/busy` answers (a node that does not hold the room: only without the relay).
    busy: AtomicUsize,
    /// `room/not_found` answers about a room that exists.
    not_found: AtomicUsize,
    /// Connections given up because no frame came for [`STALL`].
    stalls: AtomicUsize,
    /// Per table: when it last had an action acknowledged, and whether it is done.
    progress: Mutex<Vec<(Instant, bool)>>,
    /// A player's mean time to think, in milliseconds (`DRILL_THINK_MS`).
    think_ms: u64,
    /// Tables open and started.
    opened: AtomicUsize,
    /// When the rolling restart began.
    restart_began: Mutex<Option<Instant>>,
}

/// Connects through the proxy and says hello; `None` when that failed or took too long.
async fn connect(url: &str) -> Option<Client> {
    let attempt = async {
        let (ws, _) = tokio_tungstenite::connect_async(url).await.ok()?;
        let mut client = Client::over(ws);
        client.send(json!({"type": "hello", "protocol": fipsen_protocol::PROTOCOL_VERSION})).await;
        let deadline = tokio::time::Instant::now() + Duration::from_secs(3);
        match client.recv_until(deadline).await {
            Ok(Some(welcome)) if welcome["type"] == "welcome" => Some(client),
            _ => None,
        }
    };
    tokio::time::timeout(Duration::from_secs(4), attempt).await.ok().flatten()
}

/// Gets into `room` through the proxy with `request` (`join_room` or `resume`), connecting
/// again until it is answered `joined`: a node that does not hold the room answers
/// `server/busy` (counted), a stopping one `server/shutting_down`. `next_id` is the client's next
/// action id. Fails after [`ENTER_WITHIN`] or on any other refusal.
async fn enter(shared: &Shared, who: &str, request: &Value, next_id: u64) -> (Client, Value) {
    let started = Instant::now();
    loop {
        assert!(started.elapsed() < ENTER_WITHIN, "{who} could not get into the room: {request}");
        let Some(mut client) = connect(&shared.url).await else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        client.next_id = next_id;
        client.send(request.clone()).await;
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        let answer = loop {
            match client.recv_until(deadline).await {
                Ok(Some(v)) if v["type"] == "joined" || v["type"] == "error" => break Some(v),
                Ok(Some(_)) => continue,
                _ => break None,
            }
        };
        match answer {
            Some(joined) if joined["type"] == "joined" => return (client, joined),
            Some(error) if error["code"] == "server/busy" || error["code"] == "server/shutting_down" => {
                shared.busy.fetch_add(1, Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            // The room exists (the drill made it): a node that says otherwise is counted, and
            // asked again (the drill fails at the end, having measured the rest).
            Some(error) if error["code"] == "room/not_found" => {
                shared.not_found.fetch_add(1, Ordering::Relaxed);
                eprintln!("{who}: {request} answered {error}");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Some(error) => panic!("{who}: {request} answered {error}"),
            None => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
}

/// A host creates a room through the proxy and seats bots at `bot_seats`; returns him and the
/// room's code. Should his connection be lost before (a node whose lease renewals do not reach
/// the database in time, on a machine busy with other work, gives the new room up and closes it
/// with 1012), the room is left and a new one created on a new connection.
async fn create_room(
    shared: &Shared,
    name: &str,
    rules: &Value,
    options: &Value,
    bot_seats: &[usize],
) -> (Client, String) {
    'again: loop {
        let Some(mut host) = connect(&shared.url).await else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        host.send(json!({"type": "create_room", "name": name, "rules": rules, "options": options})).await;
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        while host.room.is_null() {
            if !matches!(host.recv_until(deadline).await, Ok(Some(_))) {
                eprintln!("{name}: the new room's connection was lost; creating another");
                continue 'again;
            }
        }
        let room = host.room["room"].as_str().unwrap().to_string();
        for &seat in bot_seats {
            let level = ["easy", "normal", "strong"][seat % 3];
            host.send(json!({"type": "add_bot", "seat": seat, "level": level})).await;
            while !host.room["seats"][seat]["bot"].is_string() {
                if !matches!(host.recv_until(deadline).await, Ok(Some(_))) {
                    eprintln!("{name}: the connection to new room {room} was lost; creating another");
                    continue 'again;
                }
            }
        }
        return (host, room);
    }
}

/// A player or spectator of a table, across his connections.
struct Member {
    /// His seat; `None` for a spectator.
    seat: Option<usize>,
    name: String,
    token: String,
    client: Client,
    /// The frames of his earlier connections, and the deal in play after each.
    frames: Vec<String>,
    deal_numbers: Vec<Option<u64>>,
    /// How often he came back.
    returns: usize,
}

impl Member {
    /// Every frame he received, over all his connections.
    fn all_frames(&self) -> (Vec<String>, Vec<Option<u64>>) {
        let mut frames = self.frames.clone();
        frames.extend(self.client.frames.iter().cloned());
        let mut numbers = self.deal_numbers.clone();
        numbers.extend(self.client.deal_numbers.iter().copied());
        (frames, numbers)
    }

    /// Comes back into `room` through the proxy after his connection was lost: a player resumes
    /// with his token and the last sequence number he saw, a spectator joins again.
    async fn come_back(&mut self, shared: &Shared, room: &str) {
        let noticed = Instant::now();
        shared.away.fetch_add(1, Ordering::SeqCst);
        self.returns += 1;
        let request = match self.seat {
            Some(_) => json!({"type": "resume", "room": room, "token": self.token, "last_seq": self.client.seq}),
            None => {
                json!({"type": "join_room", "room": room, "name": format!("{}.{}", self.name, self.returns), "role": "spectator"})
            }
        };
        let (client, joined) = enter(shared, &self.name, &request, self.client.next_id).await;
        if let Some(seat) = self.seat {
            assert_eq!(joined["you"]["seat"], json!(seat), "{} resumed at another seat: {joined}", self.name);
        }
        let old = std::mem::replace(&mut self.client, client);
        self.frames.extend(old.frames);
        self.deal_numbers.extend(old.deal_numbers);
        shared.outages.lock().unwrap().push(Outage { noticed, back: Instant::now() });
        shared.away.fetch_sub(1, Ordering::SeqCst);
    }

    /// The next frame; `None` when the connection was lost (or brought nothing for `patience`)
    /// and he came back on a new one.
    async fn next(&mut self, shared: &Shared, room: &str, patience: Duration) -> Option<Value> {
        match self.client.recv_until(tokio::time::Instant::now() + patience).await {
            Ok(Some(frame)) => Some(frame),
            Ok(None) => {
                self.come_back(shared, room).await;
                None
            }
            Err(_) => {
                shared.stalls.fetch_add(1, Ordering::Relaxed);
                eprintln!("{} in {room}: no frame for {patience:?}; connecting again", self.name);
                self.come_back(shared, room).await;
                None
            }
        }
    }

    /// Reads until he has seen sequence number `seq`; false when he had to come back on a new
    /// connection first (his view is then the room's as it is now).
    async fn sync(&mut self, shared: &Shared, room: &str, seq: u64) -> bool {
        while self.client.seq < seq {
            if self.next(shared, room, STALL).await.is_none() {
                return false;
            }
        }
        true
    }
}

/// An action a seat sent, acknowledged: (seat, id, the action as the game reads it).
type Acked = (usize, u64, Value);

/// A table played through the proxy.
struct DrillTable {
    index: usize,
    room: String,
    rules: GameRules,
    /// `None` for a bot's seat.
    seats: Vec<Option<Member>>,
    spectators: Vec<Member>,
    /// Per deal number, the actions acknowledged, in order.
    acked: BTreeMap<u64, Vec<Acked>>,
    /// The highest sequence number any acknowledgement named.
    last_ack: u64,
    deals_replayed: usize,
    actions: usize,
}

impl DrillTable {
    /// Opens table `index`: its host creates the room through the proxy, seats `bots` bots at
    /// the last seats, the other players and `spectators` spectators join through the proxy,
    /// and the host starts the series.
    async fn open(shared: &Shared, index: usize, game: GameId, bots: usize, spectators: usize) -> DrillTable {
        let rules_json = endless_rules(game);
        let rules: GameRules = serde_json::from_value(rules_json.clone()).unwrap();
        let n = rules.seats();
        let options = json!({"bot_delay_ms": 0, "next_deal_seconds": null, "bot_takeover": null});
        let bot_seats: Vec<usize> = (n - bots..n).collect();
        let (host, room) = create_room(shared, &format!("T{index}.0"), &rules_json, &options, &bot_seats).await;
        let token = host.token();
        let mut seats: Vec<Option<Member>> = (0..n).map(|_| None).collect();
        let member = |seat, name: String, token, client| Member {
            seat,
            name,
            token,
            client,
            frames: Vec::new(),
            deal_numbers: Vec::new(),
            returns: 0,
        };
        seats[0] = Some(member(Some(0), format!("T{index}.0"), token, host));
        for i in 1..n - bots {
            let name = format!("T{index}.{i}");
            let request = json!({"type": "join_room", "room": room, "name": name, "role": "player"});
            let (client, joined) = enter(shared, &name, &request, 1).await;
            let seat = joined["you"]["seat"].as_u64().unwrap() as usize;
            assert!(seats[seat].is_none() && !bot_seats.contains(&seat), "{joined}");
            let token = client.token();
            seats[seat] = Some(member(Some(seat), name, token, client));
        }
        let mut watchers = Vec::new();
        for i in 0..spectators {
            let name = format!("T{index}.w{i}");
            let request = json!({"type": "join_room", "room": room, "name": name, "role": "spectator"});
            let (client, _) = enter(shared, &name, &request, 1).await;
            watchers.push(member(None, name, String::new(), client));
        }
        let mut table = DrillTable {
            index,
            room,
            rules,
            seats,
            spectators: watchers,
            acked: BTreeMap::new(),
            last_ack: 0,
            deals_replayed: 0,
            actions: 0,
        };
        let room = table.room.clone();
        let host = table.host();
        host.client.send(json!({"type": "start"})).await;
        while host.client.game.is_null() {
            host.next(shared, &room, STALL).await;
        }
        table.sync_all(shared, 0).await;
        table
    }

    fn host(&mut self) -> &mut Member {
        self.seats[0].as_mut().unwrap()
    }

    fn game(&self) -> &Value {
        &self.seats[0].as_ref().unwrap().client.game
    }

    fn members(&mut self) -> impl Iterator<Item = &mut Member> {
        self.seats.iter_mut().flatten().chain(self.spectators.iter_mut())
    }

    /// Everyone reads up to `seq` and the newest sequence number any of them saw. A room taken
    /// over numbers anew what came after its last record (events that are not stored), so a
    /// client that came back may stand lower than one that did not: after a few rounds the
    /// views are taken as they are (an action chosen on an old one is refused as stale).
    async fn sync_all(&mut self, shared: &Shared, seq: u64) {
        let room = self.room.clone();
        for _ in 0..4 {
            let seq = self.members().map(|m| m.client.seq).max().unwrap().max(seq);
            let mut all = true;
            for member in self.members() {
                all &= member.sync(shared, &room, seq).await;
            }
            if all && self.members().all(|m| m.client.seq == seq) {
                return;
            }
        }
    }

    /// `seat` sends `action` and waits for its answer, sending it again (the same id) on a new
    /// connection if the old one is lost: the acknowledged sequence number, or the refusal's
    /// code.
    async fn act(&mut self, shared: &Shared, seat: usize, action: &Value) -> Result<u64, Value> {
        let room = self.room.clone();
        let member = self.seats[seat].as_mut().unwrap();
        let id = member.client.next_id;
        member.client.next_id += 1;
        let chosen_at = member.client.seq;
        loop {
            member.client.send(json!({"type": "act", "id": id, "seq": chosen_at, "action": action})).await;
            while let Some(frame) = member.next(shared, &room, STALL).await {
                if frame["id"] == json!(id) && frame["type"] == "ack" {
                    return Ok(frame["seq"].as_u64().unwrap());
                }
                if frame["id"] == json!(id) && frame["type"] == "error" {
                    return Err(frame);
                }
            }
        }
    }

    /// Plays until the series is over or, once the controller is done, the deal in play is.
    async fn play(&mut self, shared: &Shared, rng: &mut Rng) {
        let game = self.rules.game();
        let mut checked = 0;
        loop {
            let number = self.game()["number"].as_u64().unwrap();
            if self.game()["deal"]["phase"] == "over" && checked < number {
                self.deal_over(shared).await;
                checked = number;
            }
            if self.game()["over"] == true {
                return;
            }
            if self.game()["deal"]["phase"] == "over" {
                if shared.stop.load(Ordering::SeqCst) {
                    return;
                }
                self.next_deal(shared).await;
                continue;
            }
            let deal = &self.game()["deal"];
            let turn = deal["turn"].as_u64().map(|t| t as usize);
            // The seat on turn, or out of turn whoever has something to do.
            let chosen = match turn {
                Some(t) if self.seats[t].is_none() => None,
                Some(t) => random_action(self.seats[t].as_ref().unwrap().client.deal(), rng).map(|a| (t, a)),
                None => self
                    .seats
                    .iter()
                    .flatten()
                    .find_map(|m| random_action(m.client.deal(), rng).map(|a| (m.seat.unwrap(), a))),
            };
            // A player thinks a moment (and the two cores are not all the tables').
            pause(rng, 0, 2 * shared.think_ms + 1).await;
            let Some((seat, action)) = chosen else {
                // A bot's turn (or a pause): wait for what the room does next.
                let room = self.room.clone();
                if self.host().next(shared, &room, STALL).await.is_none() {
                    let seqs: Vec<String> = self
                        .seats
                        .iter()
                        .map(|m| match m {
                            None => "bot".to_string(),
                            Some(m) => format!("{}:{}", m.client.seq, m.client.deal()["prompt"].is_null()),
                        })
                        .collect();
                    // What the seat on turn saw, to tell a view that lags from a prompt that
                    // offers nothing.
                    let on_turn = turn.and_then(|t| self.seats[t].as_ref()).map(|m| {
                        let deal = m.client.deal();
                        format!("its turn {} prompt {}", deal["turn"], deal["prompt"])
                    });
                    eprintln!(
                        "T{} stalled: turn {:?} phase {} seats {:?} chosen none ({})",
                        self.index,
                        turn,
                        self.game()["deal"]["phase"],
                        seqs,
                        on_turn.unwrap_or_default()
                    );
                }
                self.sync_all(shared, 0).await;
                continue;
            };
            match self.act(shared, seat, &action).await {
                Ok(seq) => {
                    let number = self.game()["number"].as_u64().unwrap();
                    let action = fipsen_protocol::read_action(game, action).unwrap();
                    let id = self.seats[seat].as_ref().unwrap().client.next_id - 1;
                    self.acked.entry(number).or_default().push((seat, id, serde_json::to_value(action).unwrap()));
                    self.last_ack = self.last_ack.max(seq);
                    self.actions += 1;
                    shared.progress.lock().unwrap()[self.index].0 = Instant::now();
                    self.sync_all(shared, seq).await;
                }
                // A bot's out-of-turn move came first: choose again.
                Err(error) if error["code"] == "action/stale" => self.sync_all(shared, 0).await,
                Err(error) => panic!("table {} seat {seat} {action}: {error}", self.index),
            }
        }
    }

    /// Every player asks for the next deal (again, whoever came back in the meantime) until it
    /// is dealt.
    async fn next_deal(&mut self, shared: &Shared) {
        let number = self.game()["number"].clone();
        let room = self.room.clone();
        let started = Instant::now();
        while self.game()["number"] == number {
            assert!(started.elapsed() < ENTER_WITHIN, "table {}: the next deal is not dealt", self.index);
            for member in self.seats.iter_mut().flatten() {
                member.client.send(json!({"type": "next_deal"})).await;
            }
            // Two quiet seconds here are no stall: the players are asked again.
            let host = self.host();
            let deadline = tokio::time::Instant::now() + Duration::from_secs(2);
            while host.client.game["number"] == number {
                match host.client.recv_until(deadline).await {
                    Ok(Some(_)) => {}
                    Ok(None) => {
                        host.come_back(shared, &room).await;
                        break;
                    }
                    Err(_) => break,
                }
            }
        }
        self.sync_all(shared, 0).await;
    }

    /// A deal just ended: its actions as stored are those acknowledged (the bots' between
    /// them), they replay through the rules crate to the server's outcome and scores, and every
    /// client sees it end the same way.
    async fn deal_over(&mut self, shared: &Shared) {
        let number = self.game()["number"].as_u64().unwrap();
        let (acts, all) = stored_deal(shared, &self.room, self.rules.game(), number).await;
        let acked = self.acked.get(&number).cloned().unwrap_or_default();
        assert_eq!(acts, acked, "table {} deal {number}: the stored actions are not those acknowledged", self.index);
        replay_deal(&self.rules, self.game(), all);
        self.deals_replayed += 1;
        let deal = self.game()["deal"].clone();
        for member in self.members() {
            let seen = &member.client.game["deal"];
            for field in ["outcome", "scores", "reveal"] {
                assert_eq!(seen[field], deal[field], "{} sees the deal end otherwise", member.name);
            }
        }
    }
}

/// The records of `room` as stored, in order: (epoch, record).
async fn stored_records(shared: &Shared, room: &str) -> Vec<(Option<i64>, Value)> {
    let rows =
        shared.log.query("SELECT epoch, record FROM records WHERE room = $1 ORDER BY idx", &[&room]).await.unwrap();
    rows.iter().map(|row| (row.get(0), serde_json::from_str(row.get::<_, &str>(1)).unwrap())).collect()
}

/// Deal `number` of `room` as stored: the players' actions (seat, id, action) and every action
/// in order (the bots' too).
async fn stored_deal(shared: &Shared, room: &str, game: GameId, number: u64) -> (Vec<Acked>, Vec<(Seat, Value)>) {
    let mut deal = 0;
    let (mut acts, mut all) = (Vec::new(), Vec::new());
    for (_, record) in stored_records(shared, room).await {
        match record["record"].as_str().unwrap() {
            "started" | "next_deal" => deal += 1,
            "act" | "bot_act" if deal == number => {
                let seat = record["seat"].as_u64().unwrap() as usize;
                let action =
                    serde_json::to_value(fipsen_protocol::read_action(game, record["action"].clone()).unwrap())
                        .unwrap();
                if record["record"] == "act" {
                    acts.push((seat, record["id"].as_u64().unwrap(), action.clone()));
                }
                all.push((Seat(seat as u8), action));
            }
            _ => {}
        }
    }
    (acts, all)
}

/// The deals whose truth no client's frames can tell: those around a sequence number that
/// reached no client (sent by a node as it was killed, and gone with it).
fn deals_with_gaps(members: &[(Vec<String>, Vec<Option<u64>>)], seen: &HashSet<u64>) -> HashSet<u32> {
    let mut at: Vec<(u64, u64)> = Vec::new();
    for (frames, numbers) in members {
        for (frame, number) in frames.iter().zip(numbers) {
            let v: Value = serde_json::from_str(frame).unwrap();
            if let (Some(seq), Some(number)) = (v["seq"].as_u64(), number) {
                at.push((seq, *number));
            }
        }
    }
    at.sort_unstable();
    let (Some(&first), Some(&last)) = (seen.iter().min(), seen.iter().max()) else { return HashSet::new() };
    let mut skip = HashSet::new();
    for missing in (first..=last).filter(|s| !seen.contains(s)) {
        if let Some((_, n)) = at.iter().rev().find(|(s, _)| *s < missing) {
            skip.insert(*n as u32);
        }
        if let Some((_, n)) = at.iter().find(|(s, _)| *s >= missing) {
            skip.insert(*n as u32);
        }
    }
    skip
}

/// Every game and room event any client of the table received, once each, in order, as one
/// frame (a spectator's version where a spectator got it): the truth the viewers are judged by.
fn merged_events(members: &[(Option<usize>, Vec<String>)]) -> (String, HashSet<u64>) {
    let mut events: BTreeMap<u64, ((bool, bool), Value)> = BTreeMap::new();
    for (seat, frames) in members {
        for frame in frames {
            let v: Value = serde_json::from_str(frame).unwrap();
            for e in v["events"].as_array().into_iter().chain(v["missed"].as_array()).flatten() {
                let seq = e["seq"].as_u64().unwrap();
                // A game event over a room event of the same number (a room taken over numbers
                // anew the events after its last record, which are never game events), then a
                // spectator's version over a player's.
                let rank = (e["kind"] == "game", seat.is_none());
                if events.get(&seq).is_none_or(|(had, _)| *had < rank) {
                    events.insert(seq, (rank, e.clone()));
                }
            }
        }
    }
    let seen = events.keys().copied().collect();
    let list: Vec<Value> = events.into_values().map(|(_, e)| e).collect();
    (json!({"type": "update", "events": list}).to_string(), seen)
}

/// A member's seat (`None`: a spectator), every frame he received, and the deal in play after each.
type Viewed = (Option<usize>, Vec<String>, Vec<Option<u64>>);

/// What the checks of a table counted.
#[derive(Default)]
struct Checked {
    frames: usize,
    skipped: usize,
    deals: usize,
    actions: usize,
    returns: usize,
    /// 1 when the room was served under more than one lease.
    taken_over: usize,
}

/// The checks of a table once it stopped: each client saw every acknowledged action and its
/// state is the server's (a fresh view, a resync, equals the one its frames made); no viewer was
/// shown a card he may not see; the epochs never go back along the room's log.
async fn check_table(shared: Arc<Shared>, mut table: DrillTable) -> Checked {
    let room = table.room.clone();
    let last_ack = table.last_ack;
    let mut checked = Checked { deals: table.deals_replayed, actions: table.actions, ..Checked::default() };
    for member in table.members() {
        assert!(member.client.seq >= last_ack, "{} did not see every acknowledged action", member.name);
        checked.returns += member.returns;
        let request = match member.seat {
            Some(_) => json!({"type": "resume", "room": room, "token": member.token, "last_seq": 1_000_000_000u64}),
            None => {
                json!({"type": "join_room", "room": room, "name": format!("{}.check", member.name), "role": "spectator"})
            }
        };
        let (_fresh, joined) = enter(&shared, &member.name, &request, member.client.next_id).await;
        assert_eq!(joined["game"], member.client.game, "{}'s state is not the server's", member.name);
    }

    // No viewer was shown a card he may not see.
    let all: Vec<Viewed> = table
        .members()
        .map(|m| {
            let (frames, numbers) = m.all_frames();
            (m.seat, frames, numbers)
        })
        .collect();
    let (frames, skipped) = tokio::task::spawn_blocking(move || {
        let framed: Vec<(Option<usize>, Vec<String>)> = all.iter().map(|(s, f, _)| (*s, f.clone())).collect();
        let (truth, seen) = merged_events(&framed);
        let numbered: Vec<(Vec<String>, Vec<Option<u64>>)> =
            all.iter().map(|(_, f, n)| (f.clone(), n.clone())).collect();
        let skip = deals_with_gaps(&numbered, &seen);
        let truth = [truth];
        let frames: usize =
            all.iter().map(|(seat, frames, _)| check_frames_except(seat.map(|s| s as u8), frames, &truth, &skip)).sum();
        (frames, skip.len())
    })
    .await
    .unwrap();
    checked.frames = frames;
    checked.skipped = skipped;

    // No room was written by two owners: the epochs never go back along its log.
    let epochs: Vec<i64> = stored_records(&shared, &room)
        .await
        .into_iter()
        .map(|(epoch, _)| epoch.expect("every record carries its lease's epoch"))
        .collect();
    assert!(epochs.windows(2).all(|w| w[0] <= w[1]), "table {}: an epoch went back: {epochs:?}", table.index);
    let mut distinct = epochs;
    distinct.dedup();
    checked.taken_over = usize::from(distinct.len() > 1);
    checked
}

/// Waits until every client that lost its connection since `since` is back and every table
/// still playing has had an action acknowledged since; prints and returns how long after
/// `since` the last of them was back (zero when nobody lost his connection).
async fn await_recovery(shared: &Shared, since: Instant, what: &str) -> Duration {
    tokio::time::sleep_until((since + Duration::from_millis(LEASE_MS + 2000)).into()).await;
    loop {
        let away = shared.away.load(Ordering::SeqCst);
        let stuck = shared.progress.lock().unwrap().iter().filter(|(last, done)| !done && *last < since).count();
        if away == 0 && stuck == 0 {
            break;
        }
        assert!(
            since.elapsed() < Duration::from_secs(40),
            "{what}: {away} clients still away, {stuck} tables not moving after {:?}",
            since.elapsed()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let moving = since.elapsed();
    let outages = shared.outages.lock().unwrap();
    let affected: Vec<&Outage> = outages.iter().filter(|o| o.noticed >= since).collect();
    let back = affected.iter().map(|o| o.back - since).max().unwrap_or_default();
    println!(
        "{what}: {} clients lost their connection, all back after {:.2} s (tables moving after {:.2} s)",
        affected.len(),
        back.as_secs_f64(),
        moving.as_secs_f64()
    );
    assert!(back <= BACK_WITHIN, "{what}: a client was back only after {back:?}");
    back
}

/// Sleeps a random time from `from` to `to` milliseconds.
async fn pause(rng: &mut Rng, from: u64, to: u64) {
    let ms = from + rng.below((to - from) as usize) as u64;
    tokio::time::sleep(Duration::from_millis(ms)).await;
}

/// The kills, the pause and the rolling restart; returns each one's time until every client
/// was back (labelled).
async fn control(nodes: &mut Nodes, shared: &Shared, rng: &mut Rng, kills: u64) -> Vec<(String, Duration)> {
    let mut figures = Vec::new();
    for k in 1..=kills {
        pause(rng, 500, 2500).await;
        let i = rng.below(NODES.len());
        let since = Instant::now();
        nodes.running[i].as_mut().unwrap().kill();
        let what = format!("kill {k} (node {})", NODES[i]);
        println!("{what}: SIGKILL");
        match std::env::var("DRILL_RESTART_MS").ok().and_then(|ms| ms.parse().ok()) {
            Some(ms) => tokio::time::sleep(Duration::from_millis(ms)).await,
            None => pause(rng, 300, 1500).await,
        }
        nodes.start(i);
        figures.push((what.clone(), await_recovery(shared, since, &what).await));
    }

    // A node paused past its lease: its rooms go on elsewhere; back, it writes none of them.
    pause(rng, 500, 1500).await;
    let i = rng.below(NODES.len());
    let owned = metric(nodes.node(i), "fipsen_rooms_owned").await;
    let lost_before = metric(nodes.node(i), "fipsen_rooms_lost_total").await;
    let since = Instant::now();
    nodes.node(i).signal("STOP");
    let what = format!("pause (node {}, {owned} rooms)", NODES[i]);
    println!("{what}: SIGSTOP");
    tokio::time::sleep(Duration::from_millis(2 * LEASE_MS)).await;
    nodes.node(i).signal("CONT");
    println!("{what}: SIGCONT after {:.1} s", since.elapsed().as_secs_f64());
    figures.push((what.clone(), await_recovery(shared, since, &what).await));
    if owned > 0 {
        let deadline = Instant::now() + Duration::from_secs(10);
        while metric(nodes.node(i), "fipsen_rooms_lost_total").await == lost_before {
            assert!(Instant::now() < deadline, "{what}: the paused node did not give up the rooms it lost");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    // A rolling restart: each node stopped with SIGTERM and back before the next.
    *shared.restart_began.lock().unwrap() = Some(Instant::now());
    for (i, name) in NODES.iter().enumerate() {
        pause(rng, 300, 1000).await;
        let since = Instant::now();
        let what = format!("restart (node {name})");
        println!("{what}: SIGTERM");
        let stopped = tokio::task::block_in_place(|| nodes.running[i].as_mut().unwrap().terminate());
        assert!(stopped, "{what}: the node did not stop cleanly");
        nodes.start(i);
        nodes.await_healthy(i).await;
        figures.push((what.clone(), await_recovery(shared, since, &what).await));
        // Back in the proxy's rotation (two good checks half a second apart).
        tokio::time::sleep(Duration::from_millis(1500)).await;
    }
    figures
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "run by scripts/cluster-test"]
async fn tables_play_on_through_kills_pauses_and_a_rolling_restart() {
    let Some(server_url) = test_server() else { return };
    let started = Instant::now();
    let kills = env_number("DRILL_KILLS", 5);
    let tables = env_number("DRILL_TABLES", 30) as usize;
    let seed = env_number("DRILL_SEED", started.elapsed().as_nanos() as u64 ^ u64::from(std::process::id()));
    let nats = std::env::var("FIPSEN_TEST_NATS").ok().filter(|n| !n.is_empty());
    println!("drill: {tables} tables, {kills} kills, seed {seed} (DRILL_SEED), NATS relay: {nats:?}");
    let database = Database::create(server_url, "drill").await;
    let (log, connection) = tokio_postgres::connect(&database.url(), tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(connection);
    let mut nodes = Nodes::new(database.url(), nats.clone());
    for i in 0..NODES.len() {
        nodes.await_healthy(i).await;
    }
    let proxy = Proxy::start(&nodes.ports);
    let shared = Arc::new(Shared {
        url: format!("ws://{}/ws", proxy.addr),
        log,
        stop: AtomicBool::new(false),
        away: AtomicUsize::new(0),
        outages: Mutex::new(Vec::new()),
        busy: AtomicUsize::new(0),
        not_found: AtomicUsize::new(0),
        stalls: AtomicUsize::new(0),
        progress: Mutex::new(vec![(Instant::now(), false); tables]),
        opened: AtomicUsize::new(0),
        restart_began: Mutex::new(None),
        think_ms: env_number("DRILL_THINK_MS", 250),
    });
    // Every node in the proxy's rotation.
    tokio::time::sleep(Duration::from_millis(1500)).await;

    // The tournament, its first round in play before the tables open, and who holds its tables.
    let drill_tournament = DrillTournament::start(&shared).await;
    println!("drill: tournament {} started after {:.1} s", drill_tournament.code(), started.elapsed().as_secs_f64());
    let holders_done = Arc::new(AtomicBool::new(false));
    let holders = tokio::spawn(watch_holders(shared.clone(), holders_done.clone()));
    let tournament_run = {
        let shared = shared.clone();
        tokio::spawn(async move { drill_tournament.run(&shared.stop).await })
    };

    // The tables: every game in turn, bots at some, one or two spectators each.
    let mut tasks = Vec::new();
    for index in 0..tables {
        let shared = shared.clone();
        let game = GameId::ALL[index % GameId::ALL.len()];
        let bots = [0, 1, 0, 2, 0][index % 5];
        let spectators = 1 + index % 2;
        let mut rng = Rng(seed ^ (index as u64 + 1).wrapping_mul(0x9E37_79B9));
        tasks.push(tokio::spawn(async move {
            let mut table = DrillTable::open(&shared, index, game, bots, spectators).await;
            shared.progress.lock().unwrap()[index].0 = Instant::now();
            shared.opened.fetch_add(1, Ordering::SeqCst);
            table.play(&shared, &mut rng).await;
            shared.progress.lock().unwrap()[index].1 = true;
            table
        }));
    }
    // Every table open and playing before the first kill.
    let deadline = Instant::now() + Duration::from_secs(120);
    while shared.opened.load(Ordering::SeqCst) < tables {
        assert!(Instant::now() < deadline, "the tables did not all open");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    println!("drill: {tables} tables open after {:.1} s", started.elapsed().as_secs_f64());

    let mut rng = Rng(seed);
    let first_kill = Instant::now();
    let figures = control(&mut nodes, &shared, &mut rng, kills).await;
    let controller = first_kill..Instant::now();
    println!("drill: the controller is done after {:.1} s", started.elapsed().as_secs_f64());
    shared.stop.store(true, Ordering::SeqCst);
    let mut finished = Vec::new();
    for task in tasks {
        finished.push(task.await.unwrap());
    }
    println!("drill: every table stopped after {:.1} s", started.elapsed().as_secs_f64());

    // Every table checked at once (the card check on the blocking threads), and meanwhile the
    // tournament once the round in play has ended.
    let checks: Vec<_> = finished.into_iter().map(|table| tokio::spawn(check_table(shared.clone(), table))).collect();
    let tournament_checks = {
        let shared = shared.clone();
        tokio::spawn(async move {
            let mut drill_tournament = tournament_run.await.unwrap();
            holders_done.store(true, Ordering::SeqCst);
            let holders = holders.await.unwrap();
            println!("drill: the tournament stands still after {:.1} s", started.elapsed().as_secs_f64());
            let checked = drill_tournament.check(&shared, &holders, started, controller).await;
            (drill_tournament, checked)
        })
    };
    let mut total = Checked::default();
    for check in checks {
        let checked = check.await.unwrap();
        total.frames += checked.frames;
        total.skipped += checked.skipped;
        total.deals += checked.deals;
        total.actions += checked.actions;
        total.returns += checked.returns;
        total.taken_over += checked.taken_over;
    }
    let Checked { frames: checked_frames, skipped: skipped_deals, deals, actions, returns, taken_over } = total;
    let rooms_with_takeovers = taken_over;

    let kill_times: Vec<Duration> = {
        let mut k: Vec<Duration> = figures.iter().filter(|(w, _)| w.starts_with("kill")).map(|(_, d)| *d).collect();
        k.sort_unstable();
        k
    };
    println!("drill: back in their seats after each kill, pause and restart:");
    for (what, took) in &figures {
        println!("  {what}: {:.2} s", took.as_secs_f64());
    }
    if let (Some(median), Some(max)) = (kill_times.get(kill_times.len() / 2), kill_times.last()) {
        println!("drill: after a kill, median {:.2} s, max {:.2} s", median.as_secs_f64(), max.as_secs_f64());
    }
    println!(
        "drill: {actions} actions acknowledged, {deals} deals replayed, {checked_frames} frames checked \
         ({skipped_deals} deals left out of the card check: events that reached no client), {returns} returns, \
         {} busy answers, {} stalled connections, {rooms_with_takeovers} rooms served by more than one lease; \
         {:.1} s in all (HAProxy's log: {:?})",
        shared.busy.load(Ordering::Relaxed),
        shared.stalls.load(Ordering::Relaxed),
        started.elapsed().as_secs_f64(),
        proxy.log()
    );
    if nats.is_some() {
        let (mut orphans, mut lost) = (0, 0);
        for server in nodes.running.iter().flatten() {
            orphans += metric(server, "fipsen_relayed_orphans_total").await;
            lost += metric(server, "fipsen_relayed_frames_lost_total").await;
        }
        println!(
            "drill: relayed connections resumed since the last restarts: {orphans} found forgotten by roll calls, \
             {lost} for frames lost"
        );
    }
    let (drill_tournament, t) = tournament_checks.await.unwrap();
    let (asked, refused) = drill_tournament.requests();
    println!(
        "drill: tournament {}: {} rounds over, {} tables, {} deals recomputed from the tables' logs to the \
         standings shown, {} records without gap, tables held by {} nodes ({} changes of holder), {} returns \
         of its watcher, {asked} next-round requests ({refused} refused)",
        drill_tournament.code(),
        t.rounds_over,
        t.tables,
        t.deals,
        t.records,
        t.holders,
        t.changes,
        drill_tournament.returns
    );
    assert!(deals >= tables, "too few deals were played to the end: {deals}");
    assert!(rooms_with_takeovers > 0, "no room changed hands: the drill tested nothing");
    assert!(returns > 0, "no client lost its connection: the drill tested nothing");
    let not_found = shared.not_found.load(Ordering::Relaxed);
    assert_eq!(not_found, 0, "{not_found} times a node said an existing room was not found");
    if nats.is_some() {
        assert_eq!(shared.busy.load(Ordering::Relaxed), 0, "with the relay, any node takes any client");
    }
    drop(nodes);
    drop(proxy);
}
