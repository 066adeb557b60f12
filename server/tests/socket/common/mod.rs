//! Test helpers: the real server binary on 127.0.0.1 port 0, a small WebSocket client, a
//! driver that plays a table with random legal moves, and an independent check that no frame
//! shows a viewer a card it may not see.
#![allow(dead_code, clippy::unwrap_used)]

pub mod pg;

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use fipsen_rules::{
    Card, CardSet, GameId, GameRules, Seat, Seed, grossenaspe, mecklenburg, prompt, thedinghausen, tippen, wippen,
};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// Generous, only so that a broken server fails a test instead of hanging it.
pub const PATIENCE: Duration = Duration::from_secs(30);

/// The server binary, running.
pub struct Server {
    child: Child,
    pub addr: SocketAddr,
    pub db: PathBuf,
}

impl Server {
    /// The server binary on a free port with this database, the tests' defaults and `extra`.
    fn command(db: &Path, extra: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_fipsen-server"));
        command
            .args(["--addr", "127.0.0.1:0", "--db"])
            .arg(db)
            .args(["--log", "warn", "--rate", "2000", "--burst", "2000", "--rooms-per-address", "0"])
            // Rooms of bots only play as fast as the tests can follow (tests of the pace set it).
            .args(["--watched-bots-rate", "0"])
            .args(extra)
            .stdout(Stdio::piped());
        command
    }

    /// Starts the binary on a free port with this database and extra flags; waits for its
    /// "listening" line.
    pub fn start(db: &Path, extra: &[&str]) -> Server {
        let mut child = Server::command(db, extra).stderr(Stdio::inherit()).spawn().expect("start the server binary");
        let stdout = child.stdout.take().unwrap();
        let mut line = String::new();
        BufReader::new(stdout).read_line(&mut line).expect("read the listening line");
        let url = line.trim().rsplit(' ').next().unwrap_or_default().trim_start_matches("http://").to_string();
        let addr = url.parse().unwrap_or_else(|_| panic!("no address in {line:?}"));
        Server { child, addr, db: db.to_path_buf() }
    }

    /// Like [`Server::start`], and keeps the server's log lines (still echoed to stderr).
    pub fn start_logged(db: &Path, extra: &[&str]) -> (Server, Log) {
        let mut child = Server::command(db, extra).stderr(Stdio::piped()).spawn().expect("start the server binary");
        let log = Log::default();
        let stderr = child.stderr.take().unwrap();
        let lines = log.lines.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                eprintln!("{line}");
                lines.lock().unwrap().push(line);
            }
        });
        let stdout = child.stdout.take().unwrap();
        let mut line = String::new();
        BufReader::new(stdout).read_line(&mut line).expect("read the listening line");
        let url = line.trim().rsplit(' ').next().unwrap_or_default().trim_start_matches("http://").to_string();
        let addr = url.parse().unwrap_or_else(|_| panic!("no address in {line:?}"));
        (Server { child, addr, db: db.to_path_buf() }, log)
    }

    pub fn url(&self) -> String {
        format!("ws://{}/ws", self.addr)
    }

    /// SIGKILL: no chance to clean up.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Sends the process a signal (`STOP`, `CONT`, …) without waiting for it.
    pub fn signal(&self, signal: &str) {
        let pid = self.child.id().to_string();
        let _ = Command::new("kill").args([&format!("-{signal}"), &pid]).status();
    }

    /// SIGSTOP, then waits until every thread of the process has stopped: a signal takes effect
    /// in each thread as the kernel next schedules it, so until then a running thread may still
    /// answer what was sent just after the signal.
    pub fn pause(&self) {
        self.signal("STOP");
        let tasks = format!("/proc/{}/task", self.child.id());
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        loop {
            let running = std::fs::read_dir(&tasks)
                .map(|dir| {
                    dir.flatten().any(|task| {
                        // The state follows the command name in parentheses: `T` once stopped (a
                        // thread that has just ended counts as stopped too).
                        let stat = std::fs::read_to_string(task.path().join("stat")).unwrap_or_default();
                        stat.rsplit_once(") ").is_some_and(|(_, rest)| !rest.starts_with(['T', 't', 'Z', 'X']))
                    })
                })
                .unwrap_or(false);
            if !running {
                return;
            }
            assert!(std::time::Instant::now() < deadline, "the server's threads did not stop within 10 s");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// SIGTERM, then waits for the process to exit; returns whether it exited successfully.
    pub fn terminate(&mut self) -> bool {
        let pid = self.child.id().to_string();
        let _ = Command::new("kill").args(["-TERM", &pid]).status();
        self.child.wait().map(|s| s.success()).unwrap_or(false)
    }

    /// A plain HTTP GET; returns the status line and the body.
    pub async fn get(&self, path: &str) -> (String, String) {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let mut stream = TcpStream::connect(self.addr).await.unwrap();
        let request = format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut response = String::new();
        tokio::time::timeout(PATIENCE, stream.read_to_string(&mut response)).await.unwrap().unwrap();
        let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
        (head.lines().next().unwrap_or_default().to_string(), body.to_string())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The log lines a server wrote to stderr so far.
#[derive(Clone, Default)]
pub struct Log {
    lines: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

impl Log {
    /// How many lines so far contain `needle`.
    pub fn count_containing(&self, needle: &str) -> usize {
        self.lines.lock().unwrap().iter().filter(|l| l.contains(needle)).count()
    }

    /// The first line containing `needle`, waiting for it for at most [`PATIENCE`].
    pub async fn line_containing(&self, needle: &str) -> String {
        let deadline = std::time::Instant::now() + PATIENCE;
        loop {
            if let Some(line) = self.lines.lock().unwrap().iter().find(|l| l.contains(needle)) {
                return line.clone();
            }
            assert!(std::time::Instant::now() < deadline, "no log line with {needle:?}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// A temporary directory with a database path in it.
pub fn temp_db() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("test.sqlite3");
    (dir, db)
}

/// Each game's default rules as a client sends them, four players where the game lets the
/// table choose, and a short series: `deals` deals, or one round where a game counts rounds
/// (Thedinghausen: a race to ten tricks over several deals).
pub fn short_rules(game: GameId, deals: u32) -> Value {
    let mut rules = serde_json::to_value(GameRules::default_for(game)).expect("rules serialise");
    if rules.get("players").is_some() {
        rules["players"] = 4.into();
    }
    if rules.get("rounds").is_some() {
        rules["rounds"] = 1.into();
    } else if rules.get("sets").is_some() {
        // Wippen: one set, a game dealt by each player.
        rules["sets"] = 1.into();
    } else {
        rules["deals"] = deals.into();
    }
    rules
}

/// What a client saw end to end.
pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// Every text frame received, in order.
    pub frames: Vec<String>,
    /// The number of the deal in play after each frame of `frames` (`None` before the series).
    pub deal_numbers: Vec<Option<u64>>,
    /// The close code, once closed.
    pub closed: Option<u16>,
    /// The latest sequence number seen.
    pub seq: u64,
    /// The latest `game` (SeriesView) seen.
    pub game: Value,
    /// The latest `room` seen.
    pub room: Value,
    /// From `joined`.
    pub you: Value,
    pub next_id: u64,
}

impl Client {
    pub async fn connect(server: &Server) -> Client {
        let (ws, _) = tokio_tungstenite::connect_async(server.url()).await.expect("connect");
        Client::over(ws)
    }

    pub fn over(ws: WebSocketStream<MaybeTlsStream<TcpStream>>) -> Client {
        Client {
            ws,
            frames: Vec::new(),
            deal_numbers: Vec::new(),
            closed: None,
            seq: 0,
            game: Value::Null,
            room: Value::Null,
            you: Value::Null,
            next_id: 1,
        }
    }

    /// Connects with a tiny socket receive buffer (for a client that will stop reading).
    pub async fn connect_small(server: &Server, recv_buffer: u32) -> Client {
        let socket = tokio::net::TcpSocket::new_v4().expect("socket");
        socket.set_recv_buffer_size(recv_buffer).expect("receive buffer");
        let stream = socket.connect(server.addr).await.expect("connect");
        let (ws, _) =
            tokio_tungstenite::client_async(server.url(), MaybeTlsStream::Plain(stream)).await.expect("handshake");
        Client::over(ws)
    }

    /// Connects and completes the handshake.
    pub async fn greeted(server: &Server) -> Client {
        let mut client = Client::connect(server).await;
        client.send(json!({"type": "hello", "protocol": fipsen_protocol::PROTOCOL_VERSION})).await;
        let welcome = client.recv().await.expect("welcome");
        assert_eq!(welcome["type"], "welcome", "{welcome}");
        client
    }

    pub async fn send(&mut self, message: Value) {
        self.send_text(message.to_string()).await;
    }

    pub async fn send_text(&mut self, text: String) {
        let _ = self.ws.send(Message::text(text)).await;
    }

    /// The next text frame, or `None` once the server closed the connection. An `update` is
    /// returned with the state its patches make (`room` and `game` added to it); `frames`
    /// keeps the text as it came.
    pub async fn recv(&mut self) -> Option<Value> {
        // One deadline for the frame: pings and pongs do not extend it.
        self.recv_until(tokio::time::Instant::now() + PATIENCE).await.expect("a frame in time")
    }

    /// Like [`Client::recv`], but waits only until `deadline`: `Err` when no frame came by then
    /// (the connection stays usable).
    pub async fn recv_until(
        &mut self,
        deadline: tokio::time::Instant,
    ) -> Result<Option<Value>, tokio::time::error::Elapsed> {
        loop {
            let frame = tokio::time::timeout_at(deadline, self.ws.next()).await?;
            match frame {
                Some(Ok(Message::Text(text))) => {
                    let mut value: Value = serde_json::from_str(&text).expect("JSON from the server");
                    self.frames.push(text.to_string());
                    self.absorb(&value);
                    self.deal_numbers.push(self.game["number"].as_u64());
                    if value["type"] == "update" {
                        // The tests read an update as the state it makes: its patches applied.
                        value["room"] = self.room.clone();
                        value["game"] = self.game.clone();
                    }
                    return Ok(Some(value));
                }
                Some(Ok(Message::Close(frame))) => {
                    self.closed = Some(frame.map_or(1005, |f| u16::from(f.code)));
                    return Ok(None);
                }
                Some(Ok(_)) => continue,
                Some(Err(_)) | None => {
                    self.closed.get_or_insert(1006);
                    return Ok(None);
                }
            }
        }
    }

    fn absorb(&mut self, value: &Value) {
        match value["type"].as_str() {
            Some("joined") => {
                self.you = value["you"].clone();
                if let Some(last) = self.you["last_act_id"].as_u64() {
                    self.next_id = self.next_id.max(last + 1);
                }
                self.seq = value["seq"].as_u64().unwrap_or(0);
                self.game = value["game"].clone();
                self.room = value["room"].clone();
            }
            Some("update") => {
                self.seq = value["seq"].as_u64().unwrap_or(0);
                let mut state = fipsen_protocol::patch::state(self.room.take(), self.game.take());
                apply_patches(&mut state, value);
                self.room = state["room"].take();
                self.game = state["game"].take();
            }
            _ => {}
        }
    }

    /// Reads until a frame of this type (panics if the connection closes first).
    pub async fn recv_type(&mut self, kind: &str) -> Value {
        loop {
            match self.recv().await {
                Some(v) if v["type"] == kind => return v,
                Some(_) => continue,
                None => panic!("closed ({:?}) while waiting for {kind}", self.closed),
            }
        }
    }

    /// Reads until the connection closes; returns the close code.
    pub async fn recv_close(&mut self) -> u16 {
        while self.recv().await.is_some() {}
        self.closed.unwrap_or(1006)
    }

    /// Reads until the room's sequence number reaches `seq`.
    pub async fn sync(&mut self, seq: u64) {
        while self.seq < seq {
            if self.recv().await.is_none() {
                panic!("closed ({:?}) before seq {seq}", self.closed);
            }
        }
    }

    pub async fn create(&mut self, name: &str, rules: Value, options: Value) -> String {
        self.send(json!({"type": "create_room", "name": name, "rules": rules, "options": options})).await;
        let joined = self.recv_type("joined").await;
        joined["room"]["room"].as_str().unwrap().to_string()
    }

    pub async fn join(&mut self, room: &str, name: &str, role: &str) -> Value {
        self.send(json!({"type": "join_room", "room": room, "name": name, "role": role})).await;
        self.recv_type_or_error("joined").await
    }

    /// Reads `tournament` frames until one whose tournament satisfies `done`; returns that
    /// tournament's state.
    pub async fn tournament_until(&mut self, done: impl Fn(&Value) -> bool) -> Value {
        loop {
            let frame = self.recv_type_or_error("tournament").await;
            assert_eq!(frame["type"], "tournament", "{frame}");
            if done(&frame["tournament"]) {
                return frame["tournament"].clone();
            }
        }
    }

    /// Reads until a frame of this type or an error.
    pub async fn recv_type_or_error(&mut self, kind: &str) -> Value {
        loop {
            match self.recv().await {
                Some(v) if v["type"] == kind || v["type"] == "error" => return v,
                Some(_) => continue,
                None => panic!("closed ({:?}) while waiting for {kind}", self.closed),
            }
        }
    }

    /// Sends an action with a fresh id; returns the `ack` or `error` answering it.
    pub async fn act(&mut self, action: &Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.act_with(id, self.seq, action).await
    }

    pub async fn act_with(&mut self, id: u64, seq: u64, action: &Value) -> Value {
        self.send(json!({"type": "act", "id": id, "seq": seq, "action": action})).await;
        loop {
            let v = self.recv().await.unwrap_or_else(|| panic!("closed ({:?}) awaiting ack", self.closed));
            if (v["type"] == "ack" || v["type"] == "error") && v["id"] == json!(id) {
                return v;
            }
        }
    }

    pub fn token(&self) -> String {
        self.you["token"].as_str().unwrap_or_default().to_string()
    }

    pub fn deal(&self) -> &Value {
        &self.game["deal"]
    }

    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

/// Applies the patches of an `update` frame to a client's state (`{"room": …, "game": …}`);
/// panics if they do not fit it.
pub fn apply_patches(state: &mut Value, update: &Value) {
    let patches: Vec<fipsen_protocol::Patch> =
        serde_json::from_value(update.get("patches").cloned().unwrap_or(json!([])))
            .unwrap_or_else(|e| panic!("patches ({e}): {update}"));
    fipsen_protocol::patch::apply(state, &patches).unwrap_or_else(|e| panic!("{e}: {update}"));
}

/// A replay's steps (the `replay` of a `replay` frame) each whole, as a client shows them: the
/// first step's `deal` and `hands`, every later step's `patches` applied to the step before's
/// `{"deal", "hands"}`; panics if they do not fit.
pub fn whole_steps(replay: &Value) -> Vec<Value> {
    let mut shown = Value::Null;
    let steps = replay["steps"].as_array().unwrap_or_else(|| panic!("no steps: {replay}"));
    steps
        .iter()
        .map(|step| {
            if step.get("deal").is_some() && step.get("hands").is_some() {
                shown = json!({"deal": step["deal"], "hands": step["hands"]});
            } else {
                apply_patches(&mut shown, step);
            }
            let mut whole = step.clone();
            if let Some(map) = whole.as_object_mut() {
                map.remove("patches");
                map.insert("deal".into(), shown["deal"].clone());
                map.insert("hands".into(), shown["hands"].clone());
            }
            whole
        })
        .collect()
}

/// A tiny deterministic generator.
pub struct Rng(pub u64);

impl Rng {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n.max(1) as u64) as usize
    }

    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// Every action a seat's prompt (`game.deal.prompt`) offers, grouped by its key, as the prompt
/// vocabulary of the rules crate lists them (the hand is `game.deal.hand`).
pub fn offered(deal: &Value) -> Vec<prompt::Offered> {
    let hand: Option<CardSet> = serde_json::from_value(deal["hand"].clone()).unwrap_or(None);
    prompt::offered(&deal["prompt"], hand).unwrap_or_else(|e| panic!("{e}: {}", deal["prompt"]))
}

/// A random legal action from a seat's prompt (`game.deal.prompt`), or `None` if it has none.
/// Passing is preferred in the auction so that deals get played. A prompt that offers only what
/// may be done out of turn (a Siebener Fips, a Kieker's give-up) gets one of those: whoever
/// calls this for a seat whose prompt is not empty always gets a move.
pub fn random_action(deal: &Value, rng: &mut Rng) -> Option<Value> {
    let groups = offered(deal);
    let has = |key: &str| groups.iter().any(|g| g.key == key);
    if has("siebener_fips") && rng.chance(70) {
        return Some(json!({"action": "siebener_fips"}));
    }
    if has("pass") && deal["phase"] == "auction" && rng.chance(45) {
        return Some(json!({"action": "pass"}));
    }
    let mut options: Vec<Value> = Vec::new();
    for group in &groups {
        match group.key {
            // Rolled for above and below: the moves that may be made out of turn.
            "siebener_fips" => {}
            "give_up" if !rng.chance(20) => {}
            "fold" if !rng.chance(30) => {}
            // One set of cards to lay away or exchange is one choice among the others.
            "discard" | "exchange" => options.push(group.actions[rng.below(group.actions.len())].clone()),
            _ => options.extend(group.actions.iter().cloned()),
        }
    }
    if options.is_empty() {
        // Nothing but out-of-turn moves on offer (or the rolls above said no to them).
        return out_of_turn_moves(&deal["prompt"]).into_iter().next();
    }
    let i = rng.below(options.len());
    Some(options.swap_remove(i))
}

/// Wippen: the discard of a prompt's hand card, or where that is not allowed the capture of the
/// buildings it must take, each a group of its own (always legal): the first move the
/// vocabulary lists for the entry.
pub fn wippen_simple_move(entry: &Value) -> Value {
    let groups = prompt::offered(&json!({ "moves": [entry] }), None).unwrap_or_else(|e| panic!("{e}: {entry}"));
    groups.into_iter().flat_map(|g| g.actions).next().unwrap_or_else(|| panic!("no move in {entry}"))
}

/// The moves a prompt offers that may be made out of turn.
fn out_of_turn_moves(prompt: &Value) -> Vec<Value> {
    let groups = prompt::offered(prompt, None).unwrap_or_else(|e| panic!("{e}: {prompt}"));
    groups.into_iter().filter(|g| ["siebener_fips", "give_up"].contains(&g.key)).flat_map(|g| g.actions).collect()
}

/// A table: one client per seat and some spectators, all in one room, started.
pub struct Table {
    pub room: String,
    pub seats: Vec<Client>,
    pub spectators: Vec<Client>,
    pub rules: GameRules,
    /// Every accepted action of the current deal, in order, as (seat, action JSON).
    pub actions: Vec<(Seat, Value)>,
    /// Deals checked against a local replay.
    pub deals_replayed: usize,
    /// The actions of the last finished deal, in order.
    pub finished_actions: Vec<(Seat, Value)>,
}

impl Table {
    /// Creates a room, seats `players` clients, adds spectators, starts the series.
    pub async fn open(server: &Server, rules: Value, options: Value, spectators: usize) -> Table {
        let parsed: GameRules = serde_json::from_value(rules.clone()).unwrap();
        let n = parsed.seats();
        let mut host = Client::greeted(server).await;
        let room = host.create("Seat0", rules, options).await;
        let mut seats = vec![host];
        for i in 1..n {
            let mut c = Client::greeted(server).await;
            let joined = c.join(&room, &format!("Seat{i}"), "player").await;
            assert_eq!(joined["you"]["seat"], json!(i), "{joined}");
            seats.push(c);
        }
        let mut watchers = Vec::new();
        for i in 0..spectators {
            let mut c = Client::greeted(server).await;
            let joined = c.join(&room, &format!("Watcher{i}"), "spectator").await;
            assert_eq!(joined["type"], "joined", "{joined}");
            watchers.push(c);
        }
        seats[0].send(json!({"type": "start"})).await;
        let mut table = Table {
            room,
            seats,
            spectators: watchers,
            rules: parsed,
            actions: Vec::new(),
            deals_replayed: 0,
            finished_actions: Vec::new(),
        };
        // Everybody sees the first deal.
        let target = loop {
            let v = table.seats[0].recv_type("update").await;
            if !v["game"].is_null() {
                break v["seq"].as_u64().unwrap();
            }
        };
        table.sync(target).await;
        table
    }

    pub async fn sync(&mut self, seq: u64) {
        for c in self.seats.iter_mut().chain(self.spectators.iter_mut()) {
            c.sync(seq).await;
        }
    }

    pub fn view(&self) -> &Value {
        self.seats[0].deal()
    }

    pub fn series_over(&self) -> bool {
        self.seats[0].game["over"] == true
    }

    pub fn deal_over(&self) -> bool {
        self.view()["phase"] == "over"
    }

    /// Plays one random legal action; returns false when no seat may act.
    pub async fn step(&mut self, rng: &mut Rng) -> bool {
        let turn = self.view()["turn"].as_u64().map(|t| t as usize);
        // Out of turn a seat may announce a Siebener Fips (often) or give up its Kieker (now and
        // then); the seat picked then makes that very move, so a move is always made.
        let mut out_of_turn = None;
        for seat in (0..self.seats.len()).filter(|&s| Some(s) != turn) {
            for action in out_of_turn_moves(&self.seats[seat].deal()["prompt"]) {
                let percent = if action["action"] == "siebener_fips" { 70 } else { 15 };
                if out_of_turn.is_none() && rng.chance(percent) {
                    out_of_turn = Some((seat, action));
                }
            }
        }
        let (seat, action) = match (out_of_turn, turn) {
            (Some(chosen), _) => chosen,
            (None, Some(t)) => match random_action(self.seats[t].deal(), rng) {
                Some(action) => (t, action),
                None => return false,
            },
            (None, None) => return false,
        };
        self.play(seat, action).await;
        true
    }

    /// `seat` makes `action`, which must be accepted; everyone syncs to it, and a deal it
    /// ends is replayed by the rules crate.
    pub async fn play(&mut self, seat: usize, action: Value) {
        let answer = self.seats[seat].act(&action).await;
        assert_eq!(answer["type"], "ack", "seat {seat} {action}: {answer}");
        self.actions.push((Seat(seat as u8), action));
        let seq = answer["seq"].as_u64().unwrap();
        self.sync(seq).await;
        if self.deal_over() {
            self.replay_deal();
        }
    }

    /// Plays `moves` random legal actions (asking for the next deal when one is over).
    pub async fn play_moves(&mut self, rng: &mut Rng, moves: usize) {
        let mut played = 0;
        while played < moves && !self.series_over() {
            if self.deal_over() {
                self.ask_next_deal().await;
                continue;
            }
            assert!(self.step(rng).await);
            played += 1;
        }
    }

    /// Waits for the server to deal the next deal after its pause; everyone syncs to it.
    pub async fn await_next_deal(&mut self) {
        let number = self.seats[0].game["number"].as_u64().unwrap();
        while self.seats[0].game["number"].as_u64().unwrap() == number {
            self.seats[0].recv_type("update").await;
        }
        let seq = self.seats[0].seq;
        self.sync(seq).await;
    }

    /// Checks a deal that ended with an action not made through [`Table::step`].
    pub fn replay_finished(&mut self) {
        self.replay_deal();
    }

    /// Replays the finished deal with the rules crate from its revealed seed and the actions
    /// the clients sent, and checks the server's outcome and scores against it.
    fn replay_deal(&mut self) {
        let actions: Vec<(Seat, Value)> = self.actions.drain(..).collect();
        self.finished_actions = actions.clone();
        replay_deal(&self.rules, &self.seats[0].game, actions);
        self.deals_replayed += 1;
    }

    /// Starts the next deal the way players do: every seat asks.
    pub async fn ask_next_deal(&mut self) {
        for c in &mut self.seats {
            c.send(json!({"type": "next_deal"})).await;
        }
        let number = self.seats[0].game["number"].as_u64().unwrap();
        while self.seats[0].game["number"].as_u64().unwrap() == number {
            self.seats[0].recv_type("update").await;
        }
        let seq = self.seats[0].seq;
        self.sync(seq).await;
    }

    /// Plays to the end of the series (asking for each next deal when `ask` is set, else
    /// waiting for the server's pause); returns the number of actions.
    pub async fn play_series(&mut self, rng: &mut Rng, ask: bool) -> usize {
        let mut steps = 0;
        while !self.series_over() {
            if self.deal_over() {
                if ask {
                    self.ask_next_deal().await;
                } else {
                    self.await_next_deal().await;
                }
                continue;
            }
            assert!(self.step(rng).await, "nobody could act: {}", self.view());
            steps += 1;
            assert!(steps < 10_000, "the series does not end");
        }
        steps
    }
}

/// Replays the finished deal of `game` (a series view whose deal is over) with the rules crate
/// from its revealed seed and `actions` (every action of the deal, in order), and checks the
/// server's outcome and scores against it.
pub fn replay_deal(rules: &GameRules, game: &Value, actions: Vec<(Seat, Value)>) {
    let view = game["deal"].clone();
    let reveal = &view["reveal"];
    let seed: Seed = serde_json::from_value(reveal["seed"].clone()).unwrap();
    let number = game["number"].as_u64().unwrap() as u32;
    let dealer = Seat(view["dealer"].as_u64().unwrap() as u8);
    // Each game's deal, rebuilt from the seed alone and replayed with the clients' actions.
    macro_rules! replay {
        ($deal:expr) => {{
            let (mut deal, _) = $deal;
            for (seat, action) in actions {
                deal.apply(seat, serde_json::from_value(action).unwrap()).expect("the replayed action is legal");
            }
            // Checked after the actions: a Tippen dealer may shove the deal on before the cards are dealt.
            for (s, d) in reveal["dealt"].as_array().unwrap().iter().enumerate() {
                let dealt: CardSet = serde_json::from_value(d.clone()).unwrap();
                assert_eq!(deal.dealt_hand(Seat(s as u8)), dealt, "dealt hand of seat {s} differs from the seed's");
            }
            (serde_json::to_value(deal.outcome()).unwrap(), serde_json::to_value(deal.view(None).scores).unwrap())
        }};
    }
    let (outcome, scores) = match *rules {
        GameRules::Prisdorf(rules) => replay!(fipsen_rules::Deal::new(rules, number, dealer, seed)),
        GameRules::Grossenaspe(rules) => replay!(grossenaspe::Deal::new(rules, number, dealer, seed)),
        GameRules::Anseggerfips(rules) => replay!(mecklenburg::Deal::new(rules, number, dealer, seed)),
        GameRules::Duttfips(rules) => replay!(mecklenburg::Deal::new(rules, number, dealer, seed)),
        GameRules::Thedinghausen(rules) => {
            replay!(thedinghausen::Deal::new(rules, number, dealer, seed, round_of_deal(game, number)))
        }
        GameRules::Tippen(rules) => {
            // The seat due to deal (before shoves and hops) and what the pot held before.
            let due = Seat(view["due"].as_u64().unwrap() as u8);
            let carry: tippen::Carry = serde_json::from_value(view["carry"].clone()).unwrap();
            replay!(tippen::Deal::new(rules, number, due, seed, carry))
        }
        GameRules::Wippen(rules) => replay!(wippen::Deal::new(rules, number, dealer, seed)),
    };
    assert_eq!(outcome, view["outcome"], "outcome differs");
    assert_eq!(scores, view["scores"]);
}

/// Thedinghausen: where the round stood as deal `number` of `game` (a series view) began, from
/// the scoresheet (the counts after the deal before it in the same round) and the deal's end
/// (the pot then, and what the deal moved between the players and the pot).
fn round_of_deal(game: &Value, number: u32) -> thedinghausen::Round {
    let sheet = game["scoresheet"].as_array().unwrap();
    let at = sheet.iter().position(|r| r["row"] == "deal" && r["number"] == json!(number)).unwrap();
    let round = sheet[at]["round"].as_u64().unwrap() as u32;
    let before = at.checked_sub(1).map(|i| &sheet[i]).filter(|r| r["row"] == "deal");
    let Some(before) = before else {
        return thedinghausen::Round { number: round, counts: [0; 5], pot: 0, fresh: true };
    };
    let deal = &game["deal"];
    let moved: i64 = deal["scores"].as_array().unwrap().iter().map(|s| s.as_i64().unwrap()).sum();
    let counts: Vec<u8> = serde_json::from_value(before["counts"].clone()).unwrap();
    thedinghausen::Round {
        number: round,
        counts: counts.try_into().unwrap(),
        pot: (deal["pot"].as_i64().unwrap() + moved) as i32,
        fresh: false,
    }
}

// ----- what a viewer may see -----

/// The code of every card of every pack (a 52-card pack holds them all).
fn card_codes() -> Vec<(Card, String)> {
    CardSet::ALL.iter().map(|c| (c, format!("\"{c}\""))).collect()
}

/// Every card named (as a JSON string) anywhere in a frame.
pub fn cards_in(frame: &str) -> CardSet {
    card_codes().into_iter().filter(|(_, code)| frame.contains(code.as_str())).map(|(c, _)| c).collect()
}

#[derive(Default, Clone)]
struct Truth {
    dealt: Vec<CardSet>,
    skat: CardSet,
    stock: CardSet,
    /// Großenaspe: the cards a Kieker picks up besides the skat.
    talon: CardSet,
    /// Anseggerfips, Duttfips: the cards the declarer takes.
    dutt: CardSet,
    discards: CardSet,
    /// Tippen: the trump card, and every card each seat held at some time (its discards, the
    /// cards it played and those it kept to the end: an exchange or a robbed or knocked trump
    /// card brings cards into a hand).
    trump_card: Option<Card>,
    held: Vec<CardSet>,
    /// (seq, event) of the deal's game events, from a spectator's frames.
    timeline: Vec<(u64, Value)>,
}

/// Every deal's truth by number, and the number of the deal each game event belongs to by its
/// sequence number.
struct Truths {
    deals: HashMap<u32, Truth>,
    deal_of_event: HashMap<u64, u32>,
}

/// Gathers each deal's truth: the reveal at its end and the public order of its events, from
/// a spectator's frames (a spectator gets every event).
fn truths(spectator_frames: &[String]) -> Truths {
    let mut deals: HashMap<u32, Truth> = HashMap::new();
    let mut deal_of_event = HashMap::new();
    let mut current = 0u32;
    let mut last_dealt = 0u32;
    for frame in spectator_frames {
        let v: Value = serde_json::from_str(frame).unwrap();
        if v["type"] == "joined"
            && current == 0
            && v["room"]["status"] == "playing"
            && let Some(number) = v["game"]["number"].as_u64()
        {
            // A spectator who came in after the first deal was dealt: what follows belongs to
            // the deal in play.
            current = number as u32;
        }
        for e in v["events"].as_array().into_iter().chain(v["missed"].as_array()).flatten() {
            if e["kind"] != "game" {
                continue;
            }
            let event = &e["event"];
            if event["event"] == "dealt" {
                current = event["number"].as_u64().unwrap() as u32;
                last_dealt = current;
            }
            if event["event"] == "anted" {
                // Tippen: a deal begins with the dealer's ante, before its cards are dealt.
                current = last_dealt + 1;
            }
            let seq = e["seq"].as_u64().unwrap();
            deal_of_event.insert(seq, current);
            let truth = deals.entry(current).or_default();
            truth.timeline.push((seq, event.clone()));
            if event["event"] == "deal_over" {
                let reveal = &event["reveal"];
                // A field the game's reveal does not have is an empty set.
                let set = |v: &Value| {
                    if v.is_null() { CardSet::EMPTY } else { serde_json::from_value::<CardSet>(v.clone()).unwrap() }
                };
                let sets = |v: &Value| v.as_array().map_or(Vec::new(), |a| a.iter().map(set).collect::<Vec<_>>());
                truth.dealt = sets(&reveal["dealt"]);
                truth.skat = set(&reveal["skat"]);
                truth.stock = set(&reveal["stock"]);
                if reveal["discards"].as_array().is_some_and(|d| !d.is_empty() && d.iter().all(Value::is_array)) {
                    // Tippen: each seat's discards, and the hands kept to the end.
                    let discards = sets(&reveal["discards"]);
                    let hands = sets(&reveal["hands"]);
                    let mut held: Vec<CardSet> = discards.iter().zip(&hands).map(|(d, h)| d.union(*h)).collect();
                    for (_, played) in truth.timeline.iter().filter(|(_, e)| e["event"] == "card_played") {
                        let seat = played["seat"].as_u64().unwrap() as usize;
                        held[seat].insert(serde_json::from_value(played["card"].clone()).unwrap());
                    }
                    truth.held = held;
                    truth.discards = discards.iter().fold(CardSet::EMPTY, |a, d| a.union(*d));
                    truth.trump_card = serde_json::from_value(reveal["trump_card"].clone()).unwrap();
                } else {
                    truth.discards = set(&reveal["discards"]);
                }
                truth.talon = set(&reveal["talon"]);
                truth.dutt = set(&reveal["dutt"]);
            }
            if event["event"] == "scored"
                && truth.timeline.iter().any(|(_, e)| e["event"] == "dealt" && e["table"].is_array())
            {
                // Wippen: every card of a game is played, so each seat's cards are those it
                // played; the game ends with its row.
                let seats = truth.timeline[0].1["hands"].as_array().map_or(0, Vec::len);
                let mut held = vec![CardSet::EMPTY; seats];
                for (_, moved) in truth.timeline.iter().filter(|(_, e)| e["event"] == "moved") {
                    let seat = moved["seat"].as_u64().unwrap() as usize;
                    held[seat].insert(serde_json::from_value(moved["move"]["card"].clone()).unwrap());
                }
                truth.dealt = held;
            }
        }
    }
    Truths { deals, deal_of_event }
}

/// What `viewer` may know of deal `truth` as of sequence number `seq`, worked out from the
/// rules of the games alone (docs/rules/prisdorf.md "What each player sees", docs/rules/grossenaspe.md §A9, docs/rules/mecklenburg.md §B6): his dealt hand, every card
/// played, the skat once he took it as declarer, his own discards, skat and stock (Großenaspe:
/// skat and talon) as a Kieker declarer, the Dutt once he took it (Mecklenburg), a Kieker's
/// hand shown to him, a Siebener Fips laid open, and everything once the deal is over.
fn allowed(truth: &Truth, viewer: Option<u8>, seq: u64) -> CardSet {
    let mut cards = CardSet::EMPTY;
    if truth.dealt.is_empty() {
        return cards; // the deal never ended: checked by the caller
    }
    if truth.timeline.iter().any(|(_, e)| e["event"] == "dealt" && e["table"].is_array()) {
        return allowed_wippen(truth, viewer, seq);
    }
    let me = |event: &Value, field: &str| viewer.is_some() && event[field].as_u64() == viewer.map(u64::from);
    // A Tippen dealer who may knock does not see his own hand until he has decided.
    let blind =
        truth.timeline.iter().any(|(_, e)| e["event"] == "dealt" && e["dealer_sees_hand"] == false && me(e, "dealer"));
    if let Some(v) = viewer.filter(|_| !blind) {
        cards = cards.union(truth.dealt[usize::from(v)]);
    }
    let tippen_trump = || truth.trump_card.map_or(CardSet::EMPTY, |c| std::iter::once(c).collect());
    let held = |v: Option<u8>| v.and_then(|v| truth.held.get(usize::from(v)).copied()).unwrap_or(CardSet::EMPTY);
    for (s, event) in &truth.timeline {
        if *s > seq {
            break;
        }
        let card = |v: &Value| serde_json::from_value::<Card>(v.clone()).unwrap();
        match event["event"].as_str().unwrap() {
            "card_played" => cards.insert(card(&event["card"])),
            "skat_taken" if me(event, "seat") => cards = cards.union(truth.skat).union(truth.discards),
            "kieker_picked_up" if me(event, "seat") => {
                cards = cards.union(truth.skat).union(truth.stock).union(truth.talon).union(truth.discards)
            }
            "dutt_taken" if me(event, "seat") => cards = cards.union(truth.dutt).union(truth.discards),
            "kieker_shown" if me(event, "to") => {
                let kieker = event["seat"].as_u64().unwrap() as usize;
                cards = cards.union(truth.dealt[kieker]);
            }
            // Thedinghausen: the turned-up trump card is public.
            "dealt" if event["trump_card"].is_string() => cards.insert(card(&event["trump_card"])),
            // Tippen: the 1821 dealer's last card lies face up; cards turned up by hop and jump,
            // a turned (or alvensleben-sniffed) trump card and a robbing seven are public.
            "dealt" if event["exposed"].is_string() => cards.insert(card(&event["exposed"])),
            "bottom_card" | "trump_turned" => cards.insert(card(&event["card"])),
            "robbed" => {
                cards.insert(card(&event["trump_card"]));
                cards.insert(card(&event["seven"]));
            }
            "sniffed" if event["kind"] == "alvensleben" => cards = cards.union(tippen_trump()),
            // The dealer who knocked or sniffed after Grupp took the trump card unseen by the others.
            "knocked" | "not_knocked" if me(event, "seat") => {
                cards = cards.union(truth.dealt[viewer.map_or(0, usize::from)]);
                if event["event"] == "knocked" {
                    cards = cards.union(tippen_trump());
                }
            }
            "sniffed" if me(event, "seat") => cards = cards.union(tippen_trump()),
            // Cards drawn from the talon: the seat that drew them.
            "exchanged" if me(event, "seat") => cards = cards.union(held(viewer)),
            "siebener_fips" => {
                for c in event["cards"].as_array().unwrap() {
                    cards.insert(card(c));
                }
            }
            "deal_over" => cards = CardSet::ALL,
            _ => {}
        }
    }
    cards
}

/// Wippen (docs/rules/wippen.md §E12): a seat knows the hand of each deal of the game once it is dealt
/// (the cards it plays until the next deal), the table cards dealt face up and every card
/// played; the stock and the other hands stay hidden until the game's row is scored.
fn allowed_wippen(truth: &Truth, viewer: Option<u8>, seq: u64) -> CardSet {
    let card = |v: &Value| serde_json::from_value::<Card>(v.clone()).unwrap();
    let mut cards = CardSet::EMPTY;
    for (i, (s, event)) in truth.timeline.iter().enumerate() {
        if *s > seq {
            break;
        }
        match event["event"].as_str().unwrap() {
            "dealt" => {
                for c in event["table"].as_array().into_iter().flatten() {
                    cards.insert(card(c));
                }
                let Some(v) = viewer else { continue };
                // This deal's hand: what the viewer plays before the next deal.
                for (_, later) in truth.timeline[i + 1..].iter().take_while(|(_, e)| e["event"] != "dealt") {
                    if later["event"] == "moved" && later["seat"].as_u64() == Some(u64::from(v)) {
                        cards.insert(card(&later["move"]["card"]));
                    }
                }
            }
            "moved" => cards.insert(card(&event["move"]["card"])),
            "scored" => cards = CardSet::ALL,
            _ => {}
        }
    }
    cards
}

/// Checks every frame one viewer received: no card it may not see at that moment.
/// Returns the number of frames checked.
///
/// Each game event a frame carries (in `events` or `missed`) is judged by the deal it belongs
/// to, as of its own sequence number: a frame may carry the end of one deal and the start of
/// the next, and what the last deal revealed is no secret of the next. The rest of the frame
/// (the room and `game`) is judged by the deal `game.number` names, as of the frame's `seq`;
/// scoresheet rows are about finished deals and left out.
pub fn check_frames(viewer: Option<u8>, frames: &[String], spectator_frames: &[String]) -> usize {
    check_frames_except(viewer, frames, spectator_frames, &std::collections::HashSet::new())
}

/// Like [`check_frames`], leaving out what the frames show of the deals numbered in `skip` (deals
/// whose truth the spectator frames cannot tell: some of their events reached no client).
pub fn check_frames_except(
    viewer: Option<u8>,
    frames: &[String],
    spectator_frames: &[String],
    skip: &std::collections::HashSet<u32>,
) -> usize {
    let truths = truths(spectator_frames);
    let mut checked = 0;
    let mut at = None;
    // The viewer's state, as the frames build it: an update is judged with the state it makes.
    let mut state = json!({"room": null, "game": null});
    for frame in frames {
        let mut v: Value = serde_json::from_str(frame).unwrap();
        checked += 1;
        match v["type"].as_str() {
            Some("joined") => state = fipsen_protocol::patch::state(v["room"].clone(), v["game"].clone()),
            Some("update") => {
                apply_patches(&mut state, &v);
                // What the patches carry is judged with the rest of the frame, and so is the state
                // they make; scoresheet rows are left out of both (see below).
                let patches = v["patches"].take();
                v["patches"] =
                    Value::Array(patches.as_array().into_iter().flatten().filter_map(shown_by_patch).collect());
                v["room"] = state["room"].clone();
                v["game"] = state["game"].clone();
            }
            _ => {}
        }
        if let (Some(number), Some(seq)) = (v["game"]["number"].as_u64(), v["seq"].as_u64()) {
            at = Some((number as u32, seq));
        }
        for list in ["events", "missed"] {
            let Some(events) = v.get_mut(list).map(Value::take) else { continue };
            let mut room_events = Vec::new();
            for e in events.as_array().into_iter().flatten() {
                if e["kind"] != "game" {
                    room_events.push(e.clone());
                    continue;
                }
                if e["event"]["event"] == "scribe_drawn" || e["event"]["event"] == "first_dealer" {
                    // The cards turned to draw the scribe (Großenaspe) or the first dealer (Tippen
                    // 1859, Vierblatt) are turned face up for everyone, from a pack of their own
                    // (docs/rules/grossenaspe.md §A2, docs/rules/tippen.md §D8).
                    continue;
                }
                let shown = cards_in(&e.to_string());
                if shown.is_empty() {
                    continue;
                }
                let seq = e["seq"].as_u64().unwrap_or(0);
                let Some(number) = truths.deal_of_event.get(&seq) else {
                    panic!("viewer {viewer:?}: game event at seq {seq} that no spectator saw: {frame}");
                };
                if skip.contains(number) {
                    continue;
                }
                let leaked = shown.difference(may_see(&truths, *number, viewer, seq));
                assert!(leaked.is_empty(), "viewer {viewer:?} was shown {leaked:?} by the event at seq {seq}: {frame}");
            }
            // Room events speak of the room as the frame leaves it: checked with the rest.
            v[list] = Value::Array(room_events);
        }
        // Scoresheet rows are about finished deals, all of whose cards were revealed (a Siebener
        // Fips row names its five cards): only the rest speaks of the deal in play.
        if let Some(sheet) = v.get_mut("game").and_then(|g| g.get_mut("scoresheet")) {
            sheet.take();
        }
        let shown = cards_in(&v.to_string());
        if shown.is_empty() {
            continue;
        }
        // An answer to a question (a game's `answer`) has no sequence number of its own: it
        // speaks of the deal as the last update left it.
        let (number, seq) = match (v["game"]["number"].as_u64(), v["seq"].as_u64()) {
            (Some(number), seq) => (number as u32, seq.unwrap_or(0)),
            (None, None) if v["type"] == "answer" => {
                at.unwrap_or_else(|| panic!("viewer {viewer:?}: an answer before any deal: {frame}"))
            }
            _ => panic!("viewer {viewer:?}: cards {shown:?} in a frame outside any deal: {frame}"),
        };
        if skip.contains(&number) {
            continue;
        }
        let leaked = shown.difference(may_see(&truths, number, viewer, seq));
        assert!(leaked.is_empty(), "viewer {viewer:?} was shown {leaked:?} at seq {seq}: {frame}");
    }
    checked
}

/// What a patch shows of the deal in play: its value, without scoresheet rows (about finished
/// deals); `None` for a patch of the scoresheet alone.
fn shown_by_patch(patch: &Value) -> Option<Value> {
    let path: Vec<&str> = patch["path"].as_array()?.iter().map(|s| s.as_str().unwrap_or("")).collect();
    if path.starts_with(&["game", "scoresheet"]) {
        return None;
    }
    let mut shown = patch.clone();
    match path.as_slice() {
        [] => {
            if let Some(game) = shown["value"].get_mut("game").filter(|g| g.is_object()) {
                game["scoresheet"].take();
            }
        }
        ["game"] if shown["value"].is_object() => {
            shown["value"]["scoresheet"].take();
        }
        _ => {}
    }
    Some(shown)
}

/// What `viewer` may see of deal `number` as of `seq`.
fn may_see(truths: &Truths, number: u32, viewer: Option<u8>, seq: u64) -> CardSet {
    let Some(truth) = truths.deals.get(&number) else {
        panic!("deal {number} is not among the spectator's deals; cannot check");
    };
    assert!(!truth.dealt.is_empty(), "deal {number} did not end; cannot check");
    allowed(truth, viewer, seq)
}

/// A metric's value on `server`'s `/metrics`.
pub async fn metric(server: &Server, name: &str) -> u64 {
    let (_, body) = server.get("/metrics").await;
    body.lines()
        .find_map(|line| line.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or_else(|| panic!("no {name} in {body}"))
}

/// Seat `seat` of `table` comes back through `server` with its token and the last sequence
/// number it saw (its client replaced); returns the game as it sees it on joining.
pub async fn resume_seat(server: &Server, table: &mut Table, seat: usize, token: &str) -> Value {
    let mut c = Client::greeted(server).await;
    let last = table.seats[seat].seq;
    c.send(json!({"type": "resume", "room": table.room, "token": token, "last_seq": last})).await;
    let joined = c.recv_type_or_error("joined").await;
    assert_eq!(joined["type"], "joined", "{joined}");
    assert_eq!(joined["you"]["seat"], json!(seat));
    table.seats[seat] = c;
    joined["game"].clone()
}

/// Every seat and every spectator come back on a restarted server (the seats with their tokens
/// and the last sequence number they saw); returns the seats' views.
pub async fn resume_all(server: &Server, table: &mut Table, tokens: &[String]) -> Vec<Value> {
    let mut views = Vec::new();
    for (seat, token) in tokens.iter().enumerate() {
        views.push(resume_seat(server, table, seat, token).await);
    }
    for (i, spectator) in table.spectators.iter_mut().enumerate() {
        let mut c = Client::greeted(server).await;
        let joined = c.join(&table.room, &format!("Watcher{i}"), "spectator").await;
        assert_eq!(joined["type"], "joined");
        *spectator = c;
    }
    let seq = table.seats.iter().map(|c| c.seq).max().unwrap_or(0);
    table.sync(seq).await;
    views
}

/// Plays `table`'s series to its end on the server started on `db` with `flags`, killing the
/// server with SIGKILL right after an acknowledged action, every `next_gap(previous gap)`
/// actions (starting with `next_gap(0)`), restarting it and resuming everyone each time. After
/// each restart every seat's view is the one it had, the acknowledged action included (a
/// resent id is acknowledged again), and every finished deal replays against the rules.
/// Returns the number of kills; `server` is the one running at the end.
pub async fn play_through_kills(
    server: &mut Server,
    db: &Path,
    flags: &[&str],
    table: &mut Table,
    rng: &mut Rng,
    mut next_gap: impl FnMut(u32) -> u32,
) -> u32 {
    let tokens: Vec<String> = table.seats.iter().map(Client::token).collect();
    let mut kills = 0;
    let mut gap = next_gap(0);
    let mut until_kill = gap;
    while !table.series_over() {
        if table.deal_over() {
            table.ask_next_deal().await;
            continue;
        }
        if until_kill > 0 {
            assert!(table.step(rng).await);
            until_kill -= 1;
            continue;
        }
        // The hardest moment: an action acknowledged to its sender, and at once SIGKILL.
        let turn = table.view()["turn"].as_u64().unwrap_or(0) as usize;
        let Some(action) = random_action(table.seats[turn].deal(), rng) else {
            until_kill = 1;
            continue;
        };
        let ack = table.seats[turn].act(&action).await;
        assert_eq!(ack["type"], "ack", "{ack}");
        server.kill();
        kills += 1;

        *server = Server::start(db, flags);
        let views = resume_all(server, table, &tokens).await;
        for (seat, view) in views.iter().enumerate() {
            let seq = table.seats[seat].seq;
            assert!(seq >= ack["seq"].as_u64().unwrap(), "acknowledged seq {} lost (now {seq})", ack["seq"]);
            assert_eq!(*view, table.seats[seat].game, "seat {seat}");
        }
        // The acknowledged action is in the restored deal: resending its id is acknowledged
        // again, not applied twice.
        let id = table.seats[turn].next_id - 1;
        let again = table.seats[turn].act_with(id, 0, &action).await;
        assert_eq!(again["type"], "ack", "a resent id after the restart: {again}");
        table.actions.push((Seat(turn as u8), action));
        if table.deal_over() {
            // Still replayed against the rules crate, restart included.
            let before = table.deals_replayed;
            table.replay_finished();
            assert_eq!(table.deals_replayed, before + 1);
        }
        gap = next_gap(gap);
        until_kill = gap;
    }
    kills
}
