//! The drill's tournament: a Prisdorf tournament of twelve entrants (three tables of four each
//! round), created, registered for, started and watched through the proxy before the first
//! kill. Nobody comes to its tables: after the grace period bots play every seat. The drill
//! starts each next round as soon as one ends, until the controller is done; then it waits for
//! the round in play to end, so that the tournament stands still for the checks.
//!
//! Meanwhile the holder of each of its tables (and of the tournament itself) is read from
//! PostgreSQL's `room_leases` every second, and printed at the end.
//!
//! Checked at the end: a round ended while the controller was killing, pausing and restarting
//! nodes, and a deal was recorded after the rolling restart began; the tournament's records
//! are numbered 0, 1, 2, … with no gap and no number twice; its view as the last `tournament`
//! frame shows it (standings, tables, totals, phase) is the one the tournament crate makes
//! from the tournament's stored events with every deal taken not from them but from the stored
//! records of the tables' rooms, replayed through the rules crate; the stored events alone make
//! the same view; the epochs along each table's log never go back; and the tables were held by
//! at least two nodes.

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use fipsen_rules::{AnyGame, DealSeeds, GameAction, GameRules, Seat, Seed};
use fipsen_tournament::{DealResult, TableId, Tournament, TournamentEvent};
use serde_json::{Value, json};

use super::{STALL, Shared, connect, stored_records};
use crate::common::Client;

/// The entrants: three tables of four.
const ENTRANTS: usize = 12;
/// The deals each table plays in a round.
const DEALS: u32 = 4;
/// The rounds at most (the tournament crate's limit).
const ROUNDS: u32 = 10;
/// How long the drill waits, once the controller is done, for the round in play to end.
const ROUND_END_WITHIN: Duration = Duration::from_secs(90);

/// Each table's holders over time: (when, the node, the lease's epoch), a line each time the
/// holder or the epoch changed.
type Holders = BTreeMap<String, Vec<(Duration, String, i64)>>;

/// The tournament as the drill drives and watches it.
pub(super) struct DrillTournament {
    /// The proxy's WebSocket URL.
    url: String,
    code: String,
    /// The organiser's token.
    token: String,
    /// The connection watching it.
    watcher: Client,
    /// The tournament as the last `tournament` frame showed it.
    state: Value,
    /// How often the watcher came back on a new connection.
    pub(super) returns: usize,
    /// When each round ended, as the watcher saw it.
    round_ends: Vec<Instant>,
    /// When the watcher saw the tournament record more deals.
    deals_recorded: Vec<Instant>,
    /// `next_round` requests sent.
    asked: usize,
    /// Refusals of the organiser's requests (a round asked for twice, across a failover).
    refused: usize,
}

/// What the checks of the tournament counted.
pub(super) struct TournamentChecked {
    pub(super) rounds_over: usize,
    pub(super) tables: usize,
    pub(super) deals: u32,
    pub(super) records: usize,
    pub(super) holders: usize,
    pub(super) changes: usize,
}

impl DrillTournament {
    /// Creates the tournament through the proxy, registers its entrants (each on a connection
    /// of his own), watches it and starts it; returns once its first round is being played.
    pub(super) async fn start(shared: &Shared) -> DrillTournament {
        let settings = json!({
            "name": "Drill", "game": "prisdorf",
            "tables": [{"seats": 4, "deals": DEALS,
                        "rules": {"game": "prisdorf", "players": 4, "deals": DEALS, "kontra": false}}],
            "max_short_tables": 0, "rounds": ROUNDS, "reseating": "by_standings", "duplicate": false,
            "listed": true, "organiser_plays": false
        });
        let tables = json!({"grace_seconds": 1, "next_deal_seconds": 0, "bot_delay_ms": 200, "bot_takeover": "normal"});
        let mut organiser = connected(shared).await;
        organiser
            .send(json!({"type": "create_tournament", "name": "Olli", "settings": settings, "tables": tables}))
            .await;
        let created = organiser.recv_type_or_error("tournament_created").await;
        assert_eq!(created["type"], "tournament_created", "{created}");
        let code = created["tournament"].as_str().unwrap().to_string();
        let token = created["token"].as_str().unwrap().to_string();
        for i in 0..ENTRANTS {
            let mut entrant = connected(shared).await;
            entrant.send(json!({"type": "register", "tournament": code, "name": format!("E{i}")})).await;
            let registered = entrant.recv_type_or_error("registered").await;
            assert_eq!(registered["type"], "registered", "{registered}");
        }
        let watcher = connected(shared).await;
        let mut tournament = DrillTournament {
            url: shared.url.clone(),
            code,
            token,
            watcher,
            state: Value::Null,
            returns: 0,
            round_ends: Vec::new(),
            deals_recorded: Vec::new(),
            asked: 0,
            refused: 0,
        };
        tournament.watch().await;
        let start = json!({"type": "start_tournament", "tournament": tournament.code, "token": tournament.token});
        organiser.send(start).await;
        while tournament.state["view"]["phase"]["phase"] != "playing" {
            let frame = tournament.watcher.recv_type_or_error("tournament").await;
            assert_eq!(frame["type"], "tournament", "{frame}");
            tournament.state = frame["tournament"].clone();
        }
        tournament
    }

    /// The tournament's code.
    pub(super) fn code(&self) -> &str {
        &self.code
    }

    /// Asks to watch the tournament on the watcher's connection and reads the state it sends.
    async fn watch(&mut self) {
        self.watcher.send(json!({"type": "watch_tournament", "tournament": self.code})).await;
        let frame = self.watcher.recv_type_or_error("tournament").await;
        assert_eq!(frame["type"], "tournament", "{frame}");
        self.state = frame["tournament"].clone();
    }

    /// The watcher comes back through the proxy after his connection was lost.
    async fn come_back(&mut self) {
        self.returns += 1;
        self.watch_afresh().await;
    }

    /// Watches the tournament on a new connection through the proxy, trying again until a node
    /// answers for it (one that does not hold it may refuse while its holder is replaced).
    async fn watch_afresh(&mut self) {
        let started = Instant::now();
        loop {
            assert!(started.elapsed() < super::ENTER_WITHIN, "the tournament's watcher could not watch it again");
            let Some(mut client) = connect(&self.url).await else {
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            };
            client.send(json!({"type": "watch_tournament", "tournament": self.code})).await;
            let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
            let answer = loop {
                match client.recv_until(deadline).await {
                    Ok(Some(v)) if v["type"] == "tournament" || v["type"] == "error" => break Some(v),
                    Ok(Some(_)) => continue,
                    _ => break None,
                }
            };
            match answer {
                Some(frame) if frame["type"] == "tournament" => {
                    self.state = frame["tournament"].clone();
                    self.watcher = client;
                    return;
                }
                Some(error) => eprintln!("tournament {}: watch_tournament answered {error}", self.code),
                None => {}
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// The deals recorded so far, over every table of every round.
    fn played(&self) -> u64 {
        let rounds = self.state["view"]["rounds"].as_array().into_iter().flatten();
        rounds.flat_map(|r| r["tables"].as_array().into_iter().flatten()).filter_map(|t| t["played"].as_u64()).sum()
    }

    fn phase(&self) -> &str {
        self.state["view"]["phase"]["phase"].as_str().unwrap_or_default()
    }

    /// Watches the tournament, starting each next round as soon as one ends, until `stop` is
    /// set and the round in play has ended (or the tournament is over).
    pub(super) async fn run(mut self, stop: &AtomicBool) -> DrillTournament {
        let mut asked_at: Option<Instant> = None;
        let mut stopping_at: Option<Instant> = None;
        let mut last_frame = Instant::now();
        loop {
            let phase = self.phase().to_string();
            if stop.load(Ordering::SeqCst) {
                let since = *stopping_at.get_or_insert_with(Instant::now);
                // Still once nothing has come for two seconds and no request to start a round
                // may still be on its way.
                let quiet = last_frame.elapsed() > Duration::from_secs(2)
                    && asked_at.is_none_or(|at| at.elapsed() > Duration::from_secs(5));
                if (phase == "round_over" || phase == "finished") && quiet {
                    return self;
                }
                assert!(
                    since.elapsed() < ROUND_END_WITHIN,
                    "tournament {}: the round in play did not end within {ROUND_END_WITHIN:?} of the drill's end: {}",
                    self.code,
                    self.state["view"]["rounds"]
                );
            } else if phase == "round_over" && asked_at.is_none_or(|at| at.elapsed() > Duration::from_secs(5)) {
                // The organiser starts the next round (again, when the first request went to a
                // node that was going down).
                self.asked += 1;
                asked_at = Some(Instant::now());
                self.watcher.send(json!({"type": "next_round", "tournament": self.code, "token": self.token})).await;
            }
            match self.watcher.recv_until(tokio::time::Instant::now() + Duration::from_secs(1)).await {
                Ok(Some(frame)) if frame["type"] == "tournament" => {
                    last_frame = Instant::now();
                    let (before, played) = (self.phase().to_string(), self.played());
                    self.state = frame["tournament"].clone();
                    if self.played() > played {
                        self.deals_recorded.push(Instant::now());
                    }
                    if self.phase() != before && matches!(self.phase(), "round_over" | "finished") {
                        self.round_ends.push(Instant::now());
                    }
                    if self.phase() == "playing" {
                        asked_at = None;
                    }
                    self.watcher.frames.clear();
                }
                Ok(Some(frame)) if frame["type"] == "error" => {
                    self.refused += 1;
                    eprintln!("tournament {}: {frame}", self.code);
                }
                Ok(Some(_)) => {}
                Ok(None) => {
                    self.come_back().await;
                    last_frame = Instant::now();
                }
                // Nothing new for a second: a round in play shows a deal every few seconds; a
                // connection silent for longer is given up and made again.
                Err(_) if last_frame.elapsed() > STALL && self.phase() == "playing" => {
                    eprintln!("tournament {}: no frame for {STALL:?}; watching again", self.code);
                    self.come_back().await;
                    last_frame = Instant::now();
                }
                Err(_) => {}
            }
        }
    }
}

/// A client greeted through the proxy, trying again until one is.
async fn connected(shared: &Shared) -> Client {
    loop {
        if let Some(client) = connect(&shared.url).await {
            return client;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Reads from PostgreSQL, every second until `done` is set, which node holds each tournament
/// table and each tournament (`tournament:` and its code), under which epoch; returns each
/// one's holders over time.
pub(super) async fn watch_holders(shared: Arc<Shared>, done: Arc<AtomicBool>) -> Holders {
    let started = Instant::now();
    let mut holders = Holders::new();
    let query = "SELECT l.room, l.holder, l.epoch FROM room_leases l LEFT JOIN rooms r ON r.code = l.room \
                 WHERE r.tournament IS NOT NULL OR l.room LIKE 'tournament:%'";
    while !done.load(Ordering::SeqCst) {
        // A failed read (the database is not what the drill breaks) is tried again next time.
        if let Ok(rows) = shared.log.query(query, &[]).await {
            for row in rows {
                let (key, holder, epoch): (String, String, i64) = (row.get(0), row.get(1), row.get(2));
                let line = holders.entry(key).or_default();
                if line.last().is_none_or(|(_, h, e)| *h != holder || *e != epoch) {
                    line.push((started.elapsed(), holder, epoch));
                }
            }
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    holders
}

/// A table's deals that counted, from its room's stored records replayed through the rules
/// crate as the room plays a tournament table (each counted deal dealt from its own stream):
/// each seat's running total after each, and which dealing it was; the first `deals` of them.
async fn table_deals(shared: &Shared, room: &str, table: TableId, deals: u32) -> Vec<DealResult> {
    let row = shared.log.query_one("SELECT rules, master_seed FROM rooms WHERE code = $1", &[&room]).await.unwrap();
    let rules: GameRules = serde_json::from_str(row.get(0)).unwrap();
    let master = Seed::from_hex(row.get(1)).unwrap();
    let game = rules.game();
    let mut series: Option<AnyGame> = None;
    let (mut counted, mut thrown_in, mut noted) = (Vec::new(), 0, 0);
    for (index, (_, record)) in stored_records(shared, room).await.into_iter().enumerate() {
        match record["record"].as_str().unwrap() {
            "started" => {
                let (mut started, _) = AnyGame::start(&rules, master).unwrap();
                started.set_deal_seeds(DealSeeds::ByCountedDeal);
                series = Some(started);
            }
            "next_deal" => {
                series.as_mut().unwrap().next_deal().unwrap();
            }
            "act" | "bot_act" => {
                let series = series.as_mut().unwrap();
                let seat = Seat(record["seat"].as_u64().unwrap() as u8);
                let action = GameAction::from_json(game, record["action"].clone()).unwrap();
                series
                    .apply(seat, &action)
                    .unwrap_or_else(|e| panic!("table {room}: stored action {index} is refused: {e}"));
                if series.deal_over() && series.deal_number() != noted {
                    noted = series.deal_number();
                    if series.counted() as usize > counted.len() {
                        counted.push((series.totals().to_vec(), thrown_in));
                        thrown_in = 0;
                    } else {
                        thrown_in += 1;
                    }
                }
            }
            _ => {}
        }
    }
    let totals: Vec<Vec<i32>> = counted.iter().map(|(totals, _)| totals.clone()).collect();
    let mut results = DealResult::from_running_totals(table, &totals);
    for (result, (_, redeal)) in results.iter_mut().zip(&counted) {
        result.redeal = *redeal;
    }
    results.truncate(deals as usize);
    results
}

/// Records in `t` the deals of the tables of its last round started, as their rooms' stored
/// records (`rooms`: each round's table codes) make them; returns how many.
async fn record_round(shared: &Shared, t: &mut Tournament, rooms: &[Vec<String>]) -> u32 {
    let round = t.rounds().last().expect("a round started").clone();
    let codes = &rooms[round.number as usize - 1];
    assert_eq!(codes.len(), round.tables.len(), "round {}: a code for each table", round.number);
    let mut results = Vec::new();
    for (table, room) in round.tables.iter().zip(codes) {
        results.extend(table_deals(shared, room, table.id, table.deals).await);
    }
    t.record(&results).unwrap_or_else(|e| panic!("{}: the tables' deals are refused: {e}", t.id().0));
    results.len() as u32
}

/// What the tournament stored, in order: its events, and the codes of each round's tables.
async fn stored_tournament(shared: &Shared, code: &str) -> (usize, Vec<TournamentEvent>, Vec<Vec<String>>) {
    let rows = shared
        .log
        .query("SELECT idx, record FROM tournament_records WHERE tournament = $1 ORDER BY idx", &[&code])
        .await
        .unwrap();
    let indices: Vec<i64> = rows.iter().map(|row| row.get(0)).collect();
    let expected: Vec<i64> = (0..indices.len() as i64).collect();
    assert_eq!(indices, expected, "tournament {code}: its records are not numbered without gap or repeat");
    let (mut events, mut rooms) = (Vec::new(), Vec::<Vec<String>>::new());
    for row in &rows {
        let record: Value = serde_json::from_str(row.get(1)).unwrap();
        match record["record"].as_str().unwrap() {
            "event" => events.push(serde_json::from_value(record["event"].clone()).unwrap()),
            "rooms" => {
                let round = record["round"].as_u64().unwrap() as usize;
                rooms.resize(rooms.len().max(round), Vec::new());
                rooms[round - 1] = serde_json::from_value(record["rooms"].clone()).unwrap();
            }
            _ => {}
        }
    }
    (rows.len(), events, rooms)
}

impl DrillTournament {
    /// The checks once the tournament stands still (see the module's documentation), with the
    /// holders of its tables over time (printed); `started` is when the drill began,
    /// `controller` when the controller was at work.
    pub(super) async fn check(
        &mut self,
        shared: &Shared,
        holders: &Holders,
        started: Instant,
        controller: Range<Instant>,
    ) -> TournamentChecked {
        let code = self.code.clone();
        // The state now, asked afresh, is the one the watcher saw last: it stands still.
        let seen = self.state.clone();
        self.watch_afresh().await;
        assert_eq!(self.state["view"], seen["view"], "tournament {code} moved on after the drill's end");
        let view = &self.state["view"];

        let (records, events, rooms) = stored_tournament(shared, &code).await;
        assert_eq!(json!(rooms), self.state["rooms"], "tournament {code}: the tables' codes stored and shown differ");
        let stored = Tournament::from_events(&events).unwrap();
        assert_eq!(
            &serde_json::to_value(stored.view()).unwrap(),
            view,
            "tournament {code}: its stored events make another view"
        );

        // The same tournament with every deal taken from the tables' own logs.
        let mut deals = 0;
        let mut rebuilt: Option<Tournament> = None;
        for event in &events {
            match (event, rebuilt.as_mut()) {
                (TournamentEvent::DealRecorded { .. } | TournamentEvent::RoundEnded { .. }, _) => {}
                (TournamentEvent::RoundStarted { round, .. }, Some(t)) if *round > 1 => {
                    deals += record_round(shared, t, &rooms).await;
                    t.apply(event).unwrap_or_else(|e| {
                        panic!("tournament {code}: round {round} started, but the tables' logs do not end the round before it: {e}")
                    });
                }
                (_, Some(t)) => t.apply(event).unwrap(),
                (_, None) => rebuilt = Some(Tournament::from_events([event]).unwrap()),
            }
        }
        let mut rebuilt = rebuilt.expect("the tournament has events");
        deals += record_round(shared, &mut rebuilt, &rooms).await;
        let recomputed = serde_json::to_value(rebuilt.view()).unwrap();
        assert_eq!(
            recomputed["standings"], view["standings"],
            "tournament {code}: the standings shown are not those of the tables' stored deals"
        );
        assert_eq!(&recomputed, view, "tournament {code}: the view shown is not the one of the tables' stored deals");

        // Every table's log was written by one owner at a time.
        for room in rooms.iter().flatten() {
            let epochs: Vec<i64> =
                stored_records(shared, room).await.into_iter().filter_map(|(epoch, _)| epoch).collect();
            assert!(epochs.windows(2).all(|w| w[0] <= w[1]), "tournament table {room}: an epoch went back: {epochs:?}");
        }

        // Who held what, when.
        println!("tournament {code}: the holders of its tables (node and epoch, seconds into the drill):");
        let mut nodes = std::collections::BTreeSet::new();
        let mut changes = 0;
        for (round, codes) in rooms.iter().enumerate() {
            for (table, room) in codes.iter().enumerate() {
                let line = holders.get(room).map(Vec::as_slice).unwrap_or_default();
                nodes.extend(line.iter().map(|(_, holder, _)| holder.clone()));
                changes += line.len().saturating_sub(1);
                let held: Vec<String> = line
                    .iter()
                    .map(|(at, holder, epoch)| format!("{holder}#{epoch}@{:.0}", at.as_secs_f64()))
                    .collect();
                println!("  round {} table {} ({room}): {}", round + 1, table + 1, held.join(" → "));
            }
        }
        if let Some(line) = holders.get(&format!("tournament:{code}")) {
            let held: Vec<String> =
                line.iter().map(|(at, holder, epoch)| format!("{holder}#{epoch}@{:.0}", at.as_secs_f64())).collect();
            println!("  the tournament: {}", held.join(" → "));
        }

        let rounds_over = view["rounds"].as_array().unwrap().iter().filter(|r| r["over"] == true).count();
        let ends: Vec<String> =
            self.round_ends.iter().map(|end| format!("{:.0}", (*end - started).as_secs_f64())).collect();
        println!("tournament {code}: rounds ended at {} s into the drill", ends.join(", "));
        assert!(
            self.round_ends.iter().any(|end| controller.contains(end)),
            "tournament {code}: no round ended while nodes were being killed, paused and restarted"
        );
        if let Some(restart) = *shared.restart_began.lock().unwrap() {
            assert!(
                self.deals_recorded.iter().any(|at| *at > restart),
                "tournament {code}: no deal was recorded after the rolling restart began"
            );
        }
        assert!(nodes.len() >= 2, "tournament {code}: its tables were held by {nodes:?} only");
        TournamentChecked {
            rounds_over,
            tables: rooms.iter().map(Vec::len).sum(),
            deals,
            records,
            holders: nodes.len(),
            changes,
        }
    }

    /// The organiser's `next_round` requests, and the refusals of any request.
    pub(super) fn requests(&self) -> (usize, usize) {
        (self.asked, self.refused)
    }
}
