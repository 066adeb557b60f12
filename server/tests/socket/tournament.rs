//! Tournaments over real sockets: registration by link, seating, the tables as rooms, a bot
//! standing in for a player who left, live standings that equal the tables' scoresheets,
//! duplicate deals, a SIGKILL in the middle of a round, and typed refusals.

#![allow(clippy::unwrap_used)]

use crate::common;

use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

use common::{Client, PATIENCE, Rng, Server, cards_in, check_frames, random_action, temp_db};
use fipsen_rules::Seed;
use fipsen_tournament::Commitment;
use serde_json::{Value, json};

/// Prisdorf with short tables: `four` deals at a table of four, `three` at a table of three.
fn settings(name: &str, four: u32, three: u32, rounds: u32, duplicate: bool) -> Value {
    json!({
        "name": name, "game": "prisdorf",
        "tables": [
            {"seats": 4, "deals": four, "rules": {"game": "prisdorf", "players": 4, "deals": four, "kontra": false}},
            {"seats": 3, "deals": three, "rules": {"game": "prisdorf", "players": 3, "deals": three, "kontra": false}}
        ],
        "max_short_tables": 3, "rounds": rounds, "reseating": "by_standings", "duplicate": duplicate,
        "listed": true, "organiser_plays": false
    })
}

/// Table options for quick tests: deals follow at once, bots act at once, a seat is held for
/// two seconds.
fn quick_tables() -> Value {
    json!({"grace_seconds": 2, "next_deal_seconds": 0, "bot_delay_ms": 0, "bot_takeover": "normal"})
}

/// Frames that arrive within `wait`.
async fn drain(client: &mut Client, wait: Duration) -> Vec<Value> {
    let mut got = Vec::new();
    while let Ok(Some(frame)) = tokio::time::timeout(wait, client.recv()).await {
        got.push(frame);
    }
    got
}

/// A table's dealings by (deals counted before it, re-deal number): dealer, dealt hands, seed.
type Dealings = BTreeMap<(u32, u32), (Value, Value, Value)>;

/// An entrant as the test knows him.
#[derive(Clone)]
struct Entrant {
    id: u64,
    token: String,
}

/// Registers `name` on a connection of its own; returns the entrant (the connection closes).
async fn register(server: &Server, code: &str, name: &str) -> Entrant {
    let mut c = Client::greeted(server).await;
    c.send(json!({"type": "register", "tournament": code, "name": name})).await;
    let registered = c.recv_type_or_error("registered").await;
    assert_eq!(registered["type"], "registered", "{registered}");
    assert_eq!(registered["name"], name);
    let state = c.recv_type("tournament").await;
    assert_eq!(state["tournament"]["you"]["entrant"], registered["entrant"], "the registrant watches as himself");
    c.close().await;
    Entrant { id: registered["entrant"].as_u64().unwrap(), token: registered["token"].as_str().unwrap().into() }
}

/// A tournament created by an organiser who only runs it, its tables open to spectators (the
/// tests watch them, duplicate deals or not); returns his connection (watching), the link code
/// and his token.
async fn create(server: &Server, settings: Value) -> (Client, String, String) {
    let mut organiser = Client::greeted(server).await;
    let mut tables = quick_tables();
    tables["spectators_allowed"] = json!(true);
    organiser.send(json!({"type": "create_tournament", "name": "Olli", "settings": settings, "tables": tables})).await;
    let created = organiser.recv_type_or_error("tournament_created").await;
    assert_eq!(created["type"], "tournament_created", "{created}");
    let code = created["tournament"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();
    let state = organiser.recv_type("tournament").await;
    assert_eq!(state["tournament"]["you"], json!({"organiser": true, "entrant": null}));
    assert_eq!(state["tournament"]["view"]["phase"]["phase"], "registration");
    (organiser, code, token)
}

/// One table of a round being played by the test: a client per seat (none for a player who
/// left) and a spectator, whose frames carry every event of the room.
struct TableRun {
    round: usize,
    table: usize,
    room: String,
    seats: Vec<Option<Client>>,
    spectator: Client,
    /// Frames of clients replaced after a restart, by seat, and the spectator's last.
    old_frames: Vec<Vec<String>>,
    old_spectator: Vec<String>,
    /// Everybody passes in the first dealing of the first deal.
    throw_in_first: bool,
}

impl TableRun {
    /// Every entrant of table `t` of round `r` resumes the table's room with his token, and a
    /// spectator watches it.
    async fn open(server: &Server, state: &Value, r: usize, t: usize, tokens: &HashMap<u64, Entrant>) -> TableRun {
        let room = state["rooms"][r][t].as_str().unwrap().to_string();
        let seats_of = state["view"]["rounds"][r]["tables"][t]["seats"].as_array().unwrap().clone();
        let mut seats = Vec::new();
        for (seat, id) in seats_of.iter().enumerate() {
            let entrant = &tokens[&id.as_u64().unwrap()];
            let mut c = Client::greeted(server).await;
            c.send(json!({"type": "resume", "room": room, "token": entrant.token})).await;
            let joined = c.recv_type_or_error("joined").await;
            assert_eq!(joined["type"], "joined", "{joined}");
            assert_eq!(joined["you"]["seat"], json!(seat), "the round seats entrant {id} at seat {seat}");
            let info = &joined["room"]["tournament"];
            assert_eq!(info["round"], json!(r + 1));
            assert_eq!(info["table"], json!(t + 1));
            seats.push(Some(c));
        }
        let mut spectator = Client::greeted(server).await;
        let joined = spectator.join(&room, "Watcher", "spectator").await;
        assert_eq!(joined["type"], "joined", "{joined}");
        let n = seats.len();
        TableRun {
            round: r,
            table: t,
            room,
            seats,
            spectator,
            old_frames: vec![Vec::new(); n],
            old_spectator: Vec::new(),
            throw_in_first: false,
        }
    }

    fn over(&self) -> bool {
        self.spectator.room["status"] == "over"
    }

    /// Whether the seat to move is a connected player: no bot has a move pending.
    fn player_to_move(&self) -> bool {
        let Some(turn) = self.spectator.game["deal"]["turn"].as_u64().map(|t| t as usize) else {
            return false;
        };
        self.seats[turn].is_some() && self.spectator.room["seats"][turn]["stand_in"].is_null()
    }

    /// Brings every client up to the spectator's sequence number.
    async fn sync(&mut self) {
        let seq = self.spectator.seq;
        for c in self.seats.iter_mut().flatten() {
            c.sync(seq).await;
        }
    }

    /// Plays random legal moves (bots play for the players who left) until the table is over
    /// or `stop` says so.
    async fn play(&mut self, rng: &mut Rng, stop: impl Fn(&TableRun) -> bool) {
        for _step in 0..20_000 {
            if self.over() || stop(self) {
                return;
            }
            self.sync().await;
            let game = self.spectator.game.clone();
            let room = self.spectator.room.clone();
            let stood_in = |s: usize| !room["seats"][s]["stand_in"].is_null();
            let forced = self.throw_in_first && game["number"] == 1 && game["deal"]["phase"] == "auction";
            let turn = game["deal"]["turn"].as_u64().map(|t| t as usize);
            let mut choice = None;
            if let Some(t) = turn
                && !stood_in(t)
                && let Some(c) = &self.seats[t]
            {
                let deal = c.deal();
                if forced && deal["prompt"]["pass"] == true {
                    choice = Some((t, json!({"action": "pass"})));
                } else if !forced {
                    choice = random_action(deal, rng).map(|a| (t, a));
                }
            }
            if choice.is_none() && !forced {
                // Out of turn (a Siebener Fips): any seat whose prompt offers something.
                for (s, c) in self.seats.iter().enumerate() {
                    if let Some(c) = c
                        && !stood_in(s)
                        && Some(s) != turn
                        && let Some(action) = random_action(c.deal(), rng)
                    {
                        choice = Some((s, action));
                        break;
                    }
                }
            }
            match choice {
                Some((seat, action)) => {
                    let answer = self.seats[seat].as_mut().unwrap().act(&action).await;
                    if answer["type"] == "ack" {
                        let seq = answer["seq"].as_u64().unwrap();
                        self.spectator.sync(seq).await;
                    } else {
                        // A bot acted meanwhile (for a seat whose player left): look again.
                        let code = answer["code"].as_str().unwrap_or_default();
                        assert!(["action/stale", "bot/standing_in", "turn/not_yours"].contains(&code), "{answer}");
                        self.spectator.recv().await;
                    }
                }
                None => {
                    // The bots' move, or the next deal.
                    assert!(self.spectator.recv().await.is_some(), "the spectator was disconnected");
                }
            }
        }
        panic!("table {} of round {} does not end", self.table + 1, self.round + 1);
    }

    /// Checks every frame each seat and the spectator received: no card it may not see then.
    fn check_frames(&self) -> usize {
        let mut spectator = self.old_spectator.clone();
        spectator.extend(self.spectator.frames.iter().cloned());
        let mut checked = check_frames(None, &spectator, &spectator);
        for (seat, c) in self.seats.iter().enumerate() {
            let mut frames = self.old_frames[seat].clone();
            frames.extend(c.iter().flat_map(|c| c.frames.iter().cloned()));
            checked += check_frames(Some(seat as u8), &frames, &spectator);
        }
        checked
    }

    /// Every dealing the table played, by (deals counted before it, re-deal number): the
    /// dealer, each seat's dealt hand, and the seed the deal revealed at its end.
    fn dealings(&self) -> Dealings {
        let mut dealer_of = HashMap::new();
        let mut ends = HashMap::new();
        let mut number = 0;
        for frame in self.old_spectator.iter().chain(&self.spectator.frames) {
            let v: Value = serde_json::from_str(frame).unwrap();
            if v["type"] == "joined"
                && let Some(n) = v["game"]["number"].as_u64()
            {
                // A deal dealt before the spectator came in: its dealer from the state.
                number = n;
                dealer_of.entry(n).or_insert_with(|| v["game"]["deal"]["dealer"].clone());
            }
            for e in v["events"].as_array().into_iter().chain(v["missed"].as_array()).flatten() {
                let event = &e["event"];
                if event["event"] == "dealt" {
                    number = event["number"].as_u64().unwrap();
                    dealer_of.insert(number, event["dealer"].clone());
                }
                if event["event"] == "deal_over" {
                    ends.insert(number, (event["reveal"]["dealt"].clone(), event["reveal"]["seed"].clone()));
                }
            }
        }
        let mut out = BTreeMap::new();
        let (mut counted, mut redeal) = (0, 0);
        for row in self.spectator.game["scoresheet"].as_array().unwrap() {
            let n = row["number"].as_u64().unwrap();
            let (dealt, seed) = ends[&n].clone();
            out.insert((counted, redeal), (dealer_of[&n].clone(), dealt, seed));
            if row["outcome"]["result"] == "thrown_in" {
                redeal += 1;
            } else {
                counted += 1;
                redeal = 0;
            }
        }
        out
    }

    /// Each seat's total on the table's scoresheet after its first `deals` deals that counted.
    fn totals_after(&self, deals: usize) -> Vec<i64> {
        let counted: Vec<&Value> = self.spectator.game["scoresheet"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|row| row["outcome"]["result"] != "thrown_in")
            .collect();
        match deals.checked_sub(1) {
            None => vec![0; self.totals().len()],
            Some(i) => counted[i]["totals"].as_array().unwrap().iter().map(|t| t.as_i64().unwrap()).collect(),
        }
    }

    /// The totals of each seat on the table's scoresheet.
    fn totals(&self) -> Vec<i64> {
        self.spectator.game["totals"].as_array().unwrap().iter().map(|t| t.as_i64().unwrap()).collect()
    }
}

/// The total of every entrant over every table he played: the sum of the scoresheets.
fn sheet_sums(state: &Value, tables: &[&TableRun]) -> BTreeMap<u64, i64> {
    let mut sums = BTreeMap::new();
    for run in tables {
        let seats = state["view"]["rounds"][run.round]["tables"][run.table]["seats"].as_array().unwrap();
        for (id, total) in seats.iter().zip(run.totals()) {
            *sums.entry(id.as_u64().unwrap()).or_default() += total;
        }
    }
    sums
}

fn standings_totals(state: &Value) -> BTreeMap<u64, i64> {
    state["view"]["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["entrant"].as_u64().unwrap(), s["total"].as_i64().unwrap()))
        .collect()
}

fn played(state: &Value, r: usize, t: usize) -> u64 {
    state["view"]["rounds"][r]["tables"][t]["played"].as_u64().unwrap_or(0)
}

/// Checks duplicate deals in a round that is over: every table of a size dealt the same cards
/// to each seat, by the same dealer, for the same deal and dealing; each first dealing was
/// shuffled from the stream of its deal of the seed the revealed secret gives that size; the
/// secret is the one committed to. Returns how many dealings were compared between tables.
fn check_duplicate(state: &Value, runs: &[&TableRun], r: usize) -> usize {
    let round = &state["view"]["rounds"][r];
    let secret: Seed = serde_json::from_value(round["secret"].clone()).expect("the secret is revealed");
    let commitment: Commitment = serde_json::from_value(round["commitment"].clone()).unwrap();
    assert!(commitment.verify(&secret), "the revealed secret is the one committed to");
    let mut by_size: HashMap<usize, Vec<Dealings>> = HashMap::new();
    for run in runs.iter().filter(|run| run.round == r) {
        let dealings = run.dealings();
        let size = run.seats.len();
        let table_seed = secret.derive(size as u64);
        for (&(counted, redeal), (_, _, seed)) in &dealings {
            if redeal == 0 {
                let expected = table_seed.derive(u64::from(counted));
                assert_eq!(*seed, json!(expected), "deal {} of table {}", counted + 1, run.table + 1);
            }
        }
        by_size.entry(size).or_default().push(dealings);
    }
    let mut compared = 0;
    for tables in by_size.values() {
        for (i, a) in tables.iter().enumerate() {
            for b in &tables[i + 1..] {
                for (key, dealing) in a {
                    if let Some(other) = b.get(key) {
                        assert_eq!(dealing, other, "dealing {key:?} differs between two tables of a size");
                        compared += 1;
                    }
                }
            }
        }
    }
    compared
}

/// Eleven players (4 + 4 + 3) in two short rounds with duplicate deals: one player leaves and a
/// bot stands in for him; the standings are live and equal the sum of the tables' scoresheets;
/// the server is killed with SIGKILL in the middle of round 2 and loses nothing; every table of
/// a size got the same cards per seat and deal; no frame shows a card before its time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eleven_players_two_rounds_a_stand_in_a_sigkill_and_duplicate_deals() {
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db, &[]);
    let (mut organiser, code, organiser_token) = create(&server, settings("Prisdorf, Friday", 3, 4, 2, true)).await;

    // Eleven register by the link; the organiser sees each of them.
    let mut entrants = HashMap::new();
    for i in 1..=11 {
        let entrant = register(&server, &code, &format!("Player {i}")).await;
        entrants.insert(entrant.id, entrant);
    }
    let state = organiser.tournament_until(|t| t["view"]["entrants"].as_array().unwrap().len() == 11).await;
    assert_eq!(
        state["seating"],
        json!({"tables": [4, 4, 3], "deals": [3, 3, 4], "bots_needed": 0, "bot_tables": [], "bot_deals": [],
               "problem": null})
    );

    // Listed publicly.
    let mut lister = Client::greeted(&server).await;
    lister.send(json!({"type": "tournaments"})).await;
    let listed = lister.recv_type("tournaments").await;
    assert_eq!(listed["tournaments"][0]["code"], json!(code));
    assert_eq!(listed["tournaments"][0]["entrants"], 11);

    organiser
        .send(
            json!({"type": "start_tournament", "tournament": code, "token": organiser_token, "fill_with_bots": false}),
        )
        .await;
    let state = organiser.tournament_until(|t| t["view"]["phase"]["phase"] == "playing").await;
    let tables = state["view"]["rounds"][0]["tables"].as_array().unwrap();
    let sizes: Vec<usize> = tables.iter().map(|t| t["seats"].as_array().unwrap().len()).collect();
    assert_eq!(sizes, vec![4, 4, 3]);
    let mut seated: Vec<u64> =
        tables.iter().flat_map(|t| t["seats"].as_array().unwrap().clone()).map(|s| s.as_u64().unwrap()).collect();
    seated.sort_unstable();
    assert_eq!(seated, (1..=11).collect::<Vec<u64>>(), "each player seated exactly once");
    assert!(state["view"]["rounds"][0]["secret"].is_null(), "the round's secret stays hidden while it is played");

    let mut rng = Rng(2024);
    let mut runs = Vec::new();
    for t in 0..3 {
        runs.push(TableRun::open(&server, &state, 0, t, &entrants).await);
    }
    runs[0].throw_in_first = true;
    // The player at seat 2 of table 2 plays a little, then leaves for good.
    let leaver = state["view"]["rounds"][0]["tables"][1]["seats"][2].as_u64().unwrap();

    // Round 1, table by table; the standings follow each deal.
    for t in 0..3 {
        if t == 1 {
            runs[1].play(&mut rng, |run| run.spectator.game["number"].as_u64().unwrap_or(0) >= 2).await;
            let gone = runs[1].seats[2].take().unwrap();
            runs[1].old_frames[2] = gone.frames.clone();
            gone.close().await;
            // The grace period passes and a bot stands in.
            loop {
                runs[1].spectator.recv().await;
                if !runs[1].spectator.room["seats"][2]["stand_in"].is_null() {
                    break;
                }
            }
        }
        runs[t].play(&mut rng, |_| false).await;
        assert!(runs[t].over());
        // The table's room names its tournament, round and deal counter to everyone in it.
        let info = &runs[t].spectator.room["tournament"];
        assert_eq!((info["round"].clone(), info["table"].clone()), (json!(1), json!(t + 1)));
        assert_eq!(info["played"], json!(if t < 2 { 3 } else { 4 }), "{info}");
        assert_eq!(info["deals"], info["played"]);
        assert_eq!(info["duplicate"], true);
    }
    let state = organiser.tournament_until(|t| t["view"]["phase"]["phase"] == "round_over").await;
    let round1: Vec<&TableRun> = runs.iter().collect();
    // Live: the organiser was sent the tournament as each deal ended, table by table. With
    // duplicate deals a table's points are shown only for the deals every table of its size has
    // played (tables 1 and 2 play the same deals; table 3 is alone of its size): what a table
    // that is ahead scored tells nothing to the other before it plays that deal. Every total
    // shown is its table's scoresheet after the deals shown, and the standings are their sum.
    let seen: Vec<Value> = organiser
        .frames
        .iter()
        .map(|f| serde_json::from_str::<Value>(f).unwrap())
        .filter(|f| f["type"] == "tournament" && !f["tournament"]["view"]["rounds"][0].is_null())
        .map(|f| f["tournament"].clone())
        .collect();
    let group = |t: usize| if t < 2 { vec![0, 1] } else { vec![2] };
    for (t, run) in runs.iter().enumerate() {
        let deals = if t < 2 { 3 } else { 4 };
        let counts: Vec<u64> = seen.iter().map(|s| played(s, 0, t)).collect();
        assert!(counts.windows(2).all(|w| w[0] <= w[1]), "table {}: {counts:?}", t + 1);
        for d in 0..=deals {
            assert!(counts.contains(&d), "table {}: no frame with {d} deals played: {counts:?}", t + 1);
        }
        for frame in &seen {
            let view = &frame["view"]["rounds"][0]["tables"][t];
            let shown = view["shown"].as_u64().unwrap();
            let frontier = group(t).into_iter().map(|u| played(frame, 0, u)).min().unwrap();
            assert_eq!(shown, frontier, "table {}: {view}", t + 1);
            let totals: Vec<i64> = view["totals"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
            assert_eq!(totals, run.totals_after(shown as usize), "table {} after {shown} deals", t + 1);
        }
        if t == 1 {
            // Table 1 had finished before table 2 began: its points came deal by deal with table 2's.
            let shown_1: Vec<u64> =
                seen.iter().map(|s| s["view"]["rounds"][0]["tables"][0]["shown"].as_u64().unwrap()).collect();
            for d in 0..=deals {
                assert!(shown_1.contains(&d), "table 1 never showed {d} deals: {shown_1:?}");
            }
        }
    }
    for frame in &seen {
        let shown_sums: Vec<i64> = (0..3)
            .flat_map(|t| frame["view"]["rounds"][0]["tables"][t]["totals"].as_array().unwrap().clone())
            .map(|v| v.as_i64().unwrap())
            .collect();
        let standings: i64 = standings_totals(frame).values().sum();
        assert_eq!(standings, shown_sums.iter().sum::<i64>(), "the live standings are the totals shown");
    }
    assert_eq!(standings_totals(&state), sheet_sums(&state, &round1), "standings = the sum of the scoresheets");
    let compared = check_duplicate(&state, &round1, 0);
    assert!(compared >= 2, "only {compared} dealings compared");
    assert!(runs[0].dealings().contains_key(&(0, 1)), "table 1 threw its first deal in and played it again");
    let secret = state["view"]["rounds"][0]["secret"].as_str().unwrap().to_string();

    // Round 2: reseated by the standings.
    organiser.send(json!({"type": "next_round", "tournament": code, "token": organiser_token})).await;
    let state = organiser.tournament_until(|t| t["view"]["phase"] == json!({"phase": "playing", "round": 2})).await;
    let mut round2 = Vec::new();
    for t in 0..3 {
        round2.push(TableRun::open(&server, &state, 1, t, &entrants).await);
    }
    // The leaver is gone for round 2 too.
    let leaver_at = (0..3)
        .find_map(|t| {
            let seats = state["view"]["rounds"][1]["tables"][t]["seats"].as_array().unwrap();
            seats.iter().position(|s| s.as_u64() == Some(leaver)).map(|s| (t, s))
        })
        .unwrap();
    let gone = round2[leaver_at.0].seats[leaver_at.1].take().unwrap();
    round2[leaver_at.0].old_frames[leaver_at.1] = gone.frames.clone();
    gone.close().await;

    // Table 1 of round 2 plays into its second deal; then SIGKILL right after an acknowledged move.
    round2[0].play(&mut rng, |run| run.spectator.game["number"].as_u64().unwrap_or(0) >= 2).await;
    // The kill comes while a player is to move: a bot to move would rightly play on at once
    // after the restart, before the players are back.
    round2[0].play(&mut rng, |run| run.spectator.game["deal"]["phase"] != "auction" && run.player_to_move()).await;
    let before_kill = drain(&mut organiser, Duration::from_millis(300)).await;
    let last_state = before_kill
        .iter()
        .rev()
        .find(|f| f["type"] == "tournament")
        .map(|f| f["tournament"].clone())
        .unwrap_or(state.clone());
    round2[0].sync().await;
    let views_before: Vec<Value> = round2[0].seats.iter().flatten().map(|c| c.game.clone()).collect();
    server.kill();

    server = Server::start(&db, &[]);
    // The organiser comes back with his token: everything recorded is there.
    let mut organiser = Client::greeted(&server).await;
    organiser.send(json!({"type": "watch_tournament", "tournament": code, "token": organiser_token})).await;
    let after = organiser.recv_type("tournament").await["tournament"].clone();
    assert_eq!(after["you"]["organiser"], true);
    assert_eq!(after["view"]["phase"], json!({"phase": "playing", "round": 2}));
    assert_eq!(after["rooms"], last_state["rooms"]);
    assert_eq!(after["view"]["rounds"][0], last_state["view"]["rounds"][0], "round 1 is as it was");
    assert_eq!(after["view"]["entrants"], last_state["view"]["entrants"]);
    for t in 0..3 {
        assert!(played(&after, 1, t) >= played(&last_state, 1, t), "table {} lost deals", t + 1);
    }
    // Every player of round 2 resumes; the table that was playing is exactly as acknowledged.
    for run in &mut round2 {
        let mut fresh = Vec::new();
        for (seat, c) in run.seats.iter_mut().enumerate() {
            let Some(old) = c.take() else {
                fresh.push(None);
                continue;
            };
            let id = state["view"]["rounds"][1]["tables"][run.table]["seats"][seat].as_u64().unwrap();
            let mut new = Client::greeted(&server).await;
            new.send(json!({"type": "resume", "room": run.room, "token": entrants[&id].token, "last_seq": old.seq}))
                .await;
            let joined = new.recv_type_or_error("joined").await;
            assert_eq!(joined["type"], "joined", "{joined}");
            assert_eq!(joined["you"]["seat"], json!(seat));
            run.old_frames[seat].extend(old.frames.iter().cloned());
            fresh.push(Some(new));
        }
        run.seats = fresh;
        run.old_spectator.extend(run.spectator.frames.iter().cloned());
        let mut spectator = Client::greeted(&server).await;
        assert_eq!(spectator.join(&run.room, "Watcher", "spectator").await["type"], "joined");
        run.spectator = spectator;
    }
    let views_after: Vec<Value> = round2[0].seats.iter().flatten().map(|c| c.game.clone()).collect();
    assert_eq!(views_after, views_before, "the table resumes exactly where the last acknowledged move left it");

    // Round 2 to its end.
    for run in &mut round2 {
        run.play(&mut rng, |_| false).await;
    }
    let state = organiser.tournament_until(|t| t["view"]["phase"]["phase"] == "finished").await;
    let all: Vec<&TableRun> = runs.iter().chain(&round2).collect();
    assert_eq!(standings_totals(&state), sheet_sums(&state, &all), "standings = the sum of every scoresheet");
    let compared = check_duplicate(&state, &all, 1);
    assert!(compared >= 2, "only {compared} dealings compared in round 2");
    let leaver_standing =
        state["view"]["standings"].as_array().unwrap().iter().find(|s| s["entrant"] == leaver).unwrap();
    assert_eq!(leaver_standing["deals"], json!(if leaver_at.0 < 2 { 6 } else { 7 }), "a bot played on for him");

    // The results: ranked, per round, with the CSV.
    organiser.send(json!({"type": "tournament_results", "tournament": code})).await;
    let results = organiser.recv_type("tournament_results").await;
    let csv = results["csv"].as_str().unwrap();
    assert_eq!(csv.lines().count(), 12, "{csv}");
    assert!(csv.starts_with("rank,name,bot,total,duplicate,tables,deals,round 1,round 2\r\n"), "{csv}");
    assert_eq!(results["results"]["rounds"].as_array().unwrap().len(), 2);
    let ranked: Vec<i64> =
        results["results"]["standings"].as_array().unwrap().iter().map(|s| s["total"].as_i64().unwrap()).collect();
    assert!(ranked.windows(2).all(|w| w[0] >= w[1]), "{ranked:?}");
    // Per table, round by round: every seat's points are its table's scoresheet total.
    assert_eq!(results["tables_csv"], "", "the standings come without the tables");
    let mut tables_csv = String::new();
    for round in 1..=2 {
        organiser.send(json!({"type": "tournament_results", "tournament": code, "round": round})).await;
        let part = organiser.recv_type("tournament_results").await;
        assert_eq!(part["round"], round);
        assert_eq!(part["csv"], "");
        let tables = part["results"]["rounds"][0]["tables"].as_array().unwrap();
        assert_eq!(tables.iter().map(|t| t["seats"].as_array().unwrap().len()).sum::<usize>(), 11);
        let text = part["tables_csv"].as_str().unwrap();
        tables_csv.push_str(if round == 1 { text } else { text.split_once("\r\n").unwrap().1 });
    }
    assert_eq!(tables_csv.lines().count(), 1 + 2 * 11, "{tables_csv}");
    for run in &all {
        for (seat, total) in run.totals().iter().enumerate() {
            let prefix = format!("{},{},{},", run.round + 1, run.table + 1, seat + 1);
            let line = tables_csv.lines().find(|l| l.starts_with(&prefix)).unwrap();
            let fields: Vec<&str> = line.split(',').collect();
            assert_eq!(fields[5], total.to_string(), "{line}");
        }
    }

    // No frame to anyone shows a card before its time; tournament frames show no card at all,
    // and nothing shows a round's secret or a table's seed before the round is over.
    let mut checked = 0;
    for run in &all {
        checked += run.check_frames();
    }
    assert!(checked > 500, "only {checked} frames checked");
    let table_seeds: Vec<String> = [4u64, 3]
        .iter()
        .map(|size| {
            let secret: Seed = serde_json::from_value(json!(secret)).unwrap();
            secret.derive(*size).to_hex()
        })
        .collect();
    for run in &all {
        let frames = run.old_spectator.iter().chain(&run.spectator.frames).chain(run.old_frames.iter().flatten());
        for frame in frames.chain(run.seats.iter().flatten().flat_map(|c| c.frames.iter())) {
            assert!(!frame.contains(&secret), "a table's frame shows the round's secret");
            for seed in &table_seeds {
                assert!(!frame.contains(seed.as_str()), "a table's frame shows a table's master seed");
            }
        }
    }
    for frame in before_kill.iter().map(Value::to_string) {
        assert!(cards_in(&frame).is_empty(), "a tournament frame shows cards: {frame}");
    }
}

/// Five players cannot be seated: the organiser is told so, with the tables a bot would make and
/// the deals each plays (the length chosen for their size), and a bot fills the table, marked as
/// a bot everywhere. Every refusal has its stable code and changes nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn five_players_need_a_bot_and_refusals_are_typed() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    let (mut organiser, code, token) = create(&server, settings("Small", 5, 2, 1, false)).await;
    let mut entrants = HashMap::new();
    for name in ["Anna", "Jan", "Gesa", "Fiete", "Meike"] {
        let entrant = register(&server, &code, name).await;
        entrants.insert(entrant.id, entrant);
    }
    let state = organiser.tournament_until(|t| t["view"]["entrants"].as_array().unwrap().len() == 5).await;
    assert_eq!(
        state["seating"],
        json!({"tables": [], "deals": [], "bots_needed": 1, "bot_tables": [3, 3], "bot_deals": [2, 2],
               "problem": "tournament/cannot_seat"})
    );

    let mut other = Client::greeted(&server).await;
    let error = |v: &Value| v["code"].as_str().unwrap_or_default().to_string();
    // A name taken (whatever its case), an invalid name, an unknown link.
    other.send(json!({"type": "register", "tournament": code, "name": "anna"})).await;
    assert_eq!(error(&other.recv_type("error").await), "tournament/name_taken");
    other.send(json!({"type": "register", "tournament": code, "name": "  "})).await;
    assert_eq!(error(&other.recv_type("error").await), "name/invalid");
    other.send(json!({"type": "peek_tournament", "tournament": "AAAAAAAAAAAAAAAAAAAA"})).await;
    assert_eq!(error(&other.recv_type("error").await), "tournament/not_found");
    other.send(json!({"type": "watch_tournament", "tournament": code, "token": "not-a-token"})).await;
    assert_eq!(error(&other.recv_type("error").await), "tournament/token_invalid");
    // Only the organiser runs it: an entrant's token is not his.
    let anna = entrants.values().min_by_key(|e| e.id).unwrap().clone();
    other.send(json!({"type": "start_tournament", "tournament": code, "token": anna.token})).await;
    assert_eq!(error(&other.recv_type("error").await), "tournament/not_organiser");
    // Settings the tournament crate refuses.
    let mut bad = settings("Bad", 1, 1, 0, false);
    bad["rounds"] = json!(0);
    other.send(json!({"type": "create_tournament", "name": "X", "settings": bad})).await;
    assert_eq!(error(&other.recv_type("error").await), "tournament/invalid_settings");

    // Five cannot be seated without a bot.
    organiser.send(json!({"type": "start_tournament", "tournament": code, "token": token})).await;
    let refused = organiser.recv_type_or_error("error").await;
    assert_eq!(error(&refused), "tournament/cannot_seat", "{refused}");
    assert!(refused["message"].as_str().unwrap().contains("1 bot"), "{refused}");
    // Removing one and registering again; then closing registration.
    let fiete = entrants.values().find(|e| e.id == 4).unwrap().clone();
    organiser.send(json!({"type": "remove_entrant", "tournament": code, "token": token, "entrant": fiete.id})).await;
    let state = organiser.tournament_until(|t| t["view"]["entrants"].as_array().unwrap().len() == 4).await;
    assert_eq!(state["seating"]["tables"], json!([4]));
    assert_eq!(state["seating"]["deals"], json!([5]));
    let fiete = register(&server, &code, "Fiete").await;
    entrants.insert(fiete.id, fiete);
    organiser.send(json!({"type": "close_registration", "tournament": code, "token": token})).await;
    organiser.tournament_until(|t| t["view"]["phase"]["phase"] == "closed").await;
    other.send(json!({"type": "register", "tournament": code, "name": "Late"})).await;
    assert_eq!(error(&other.recv_type("error").await), "tournament/closed");

    organiser
        .send(json!({"type": "start_tournament", "tournament": code, "token": token, "fill_with_bots": true}))
        .await;
    let state = organiser.tournament_until(|t| t["view"]["phase"]["phase"] == "playing").await;
    let bots: Vec<&Value> = state["view"]["entrants"].as_array().unwrap().iter().filter(|e| e["bot"] == true).collect();
    assert_eq!(bots.len(), 1, "one bot fills the tables: {}", state["view"]["entrants"]);
    let bot = bots[0]["id"].clone();
    let tables = state["view"]["rounds"][0]["tables"].as_array().unwrap();
    assert_eq!(tables.iter().map(|t| t["seats"].as_array().unwrap().len()).collect::<Vec<_>>(), vec![3, 3]);
    assert!(tables.iter().all(|t| t["deals"] == 2), "tables of three play their own length: {tables:?}");
    let t = tables.iter().position(|t| t["seats"].as_array().unwrap().contains(&bot)).unwrap();
    let seat = tables[t]["seats"].as_array().unwrap().iter().position(|s| *s == bot).unwrap();
    let room = state["rooms"][0][t].as_str().unwrap();
    // The room shows the bot as a bot; a newcomer may only watch; seats do not change.
    let mut watcher = Client::greeted(&server).await;
    let joined = watcher.join(room, "Guest", "spectator").await;
    assert_eq!(joined["room"]["seats"][seat]["bot"], "normal", "{}", joined["room"]["seats"]);
    assert_eq!(joined["room"]["tournament"]["name"], "Small");
    let mut guest = Client::greeted(&server).await;
    let refused = guest.join(room, "Guest", "player").await;
    assert_eq!(error(&refused), "room/tournament_table");
    let player = tables[t]["seats"].as_array().unwrap().iter().find(|s| **s != bot).unwrap().as_u64().unwrap();
    let mut c = Client::greeted(&server).await;
    c.send(json!({"type": "resume", "room": room, "token": entrants[&player].token})).await;
    assert_eq!(c.recv_type("joined").await["type"], "joined");
    for message in [
        json!({"type": "leave_seat"}),
        json!({"type": "add_bot", "seat": 0, "level": "easy"}),
        json!({"type": "start"}),
    ] {
        c.send(message).await;
        assert_eq!(error(&c.recv_type("error").await), "room/tournament_table");
    }
    // Another tournament's token opens nothing here.
    let mut stranger = Client::greeted(&server).await;
    stranger.send(json!({"type": "resume", "room": room, "token": token})).await;
    assert_eq!(error(&stranger.recv_type("error").await), "token/invalid");
    // After the start: no removal, no second start, no next round while playing.
    organiser.send(json!({"type": "remove_entrant", "tournament": code, "token": token, "entrant": 1})).await;
    assert_eq!(error(&organiser.recv_type("error").await), "tournament/already_started");
    organiser.send(json!({"type": "next_round", "tournament": code, "token": token})).await;
    assert_eq!(error(&organiser.recv_type("error").await), "tournament/round_not_over");
    let _ = PATIENCE;
}

/// The organiser may play: his token is then his entrant token too. A tournament not listed
/// stays out of the public list and is reached by its link. A SIGKILL during registration loses
/// no entrant and no token; peeking shows the tournament without watching it. Tables created
/// without spectators refuse them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_organiser_who_plays_an_unlisted_tournament_and_a_sigkill_during_registration() {
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db, &[]);
    let mut s = settings("Club evening", 1, 1, 1, false);
    s["organiser_plays"] = json!(true);
    s["listed"] = json!(false);
    let mut organiser = Client::greeted(&server).await;
    let mut tables = quick_tables();
    tables["spectators_allowed"] = json!(false);
    organiser.send(json!({"type": "create_tournament", "name": "Olli", "settings": s, "tables": tables})).await;
    let created = organiser.recv_type_or_error("tournament_created").await;
    assert_eq!(created["type"], "tournament_created", "{created}");
    let code = created["tournament"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();
    let state = organiser.recv_type("tournament").await["tournament"].clone();
    assert_eq!(state["you"], json!({"organiser": true, "entrant": 1}), "the organiser is entrant 1");
    assert_eq!(state["view"]["entrants"], json!([{"id": 1, "name": "Olli", "bot": false}]));

    let mut lister = Client::greeted(&server).await;
    lister.send(json!({"type": "tournaments"})).await;
    assert_eq!(lister.recv_type("tournaments").await["total"], 0, "an unlisted tournament is not listed");
    lister.send(json!({"type": "peek_tournament", "tournament": code})).await;
    let peeked = lister.recv_type("tournament").await["tournament"].clone();
    assert_eq!(peeked["you"], json!({"organiser": false, "entrant": null}));
    assert_eq!(peeked["view"]["settings"]["name"], "Club evening");

    let anna = register(&server, &code, "Anna").await;
    let jan = register(&server, &code, "Jan").await;
    organiser.tournament_until(|t| t["view"]["entrants"].as_array().unwrap().len() == 3).await;
    // Peeking did not make the lister a watcher: he was sent nothing of the registrations.
    assert!(drain(&mut lister, Duration::from_millis(200)).await.is_empty());

    server.kill();
    server = Server::start(&db, &[]);
    let mut organiser = Client::greeted(&server).await;
    organiser.send(json!({"type": "watch_tournament", "tournament": code, "token": token})).await;
    let state = organiser.recv_type_or_error("tournament").await;
    assert_eq!(state["type"], "tournament", "{state}");
    let state = state["tournament"].clone();
    assert_eq!(state["you"], json!({"organiser": true, "entrant": 1}));
    let names: Vec<&str> =
        state["view"]["entrants"].as_array().unwrap().iter().map(|e| e["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Olli", "Anna", "Jan"], "no entrant lost");
    assert_eq!(state["seating"]["tables"], json!([3]));
    let mut c = Client::greeted(&server).await;
    c.send(json!({"type": "watch_tournament", "tournament": code, "token": jan.token})).await;
    assert_eq!(c.recv_type("tournament").await["tournament"]["you"], json!({"organiser": false, "entrant": jan.id}));
    c.send(json!({"type": "unwatch_tournament"})).await;
    c.recv_type("unwatched").await;

    organiser.send(json!({"type": "start_tournament", "tournament": code, "token": token})).await;
    let state = organiser.tournament_until(|t| t["view"]["phase"]["phase"] == "playing").await;
    let seats = state["view"]["rounds"][0]["tables"][0]["seats"].as_array().unwrap().clone();
    let room = state["rooms"][0][0].as_str().unwrap();
    // The organiser plays with his own token; so do the others with theirs.
    for (id, tok) in [(1, token.as_str()), (anna.id, anna.token.as_str()), (jan.id, jan.token.as_str())] {
        let mut p = Client::greeted(&server).await;
        p.send(json!({"type": "resume", "room": room, "token": tok})).await;
        let joined = p.recv_type_or_error("joined").await;
        assert_eq!(joined["type"], "joined", "{joined}");
        let seat = seats.iter().position(|s| s.as_u64() == Some(id)).unwrap();
        assert_eq!(joined["you"]["seat"], json!(seat), "entrant {id}");
        assert_eq!(joined["room"]["tournament"]["tournament"], json!(code));
        assert!(joined["room"]["seats"].as_array().unwrap().iter().all(|s| s["bot"].is_null()));
    }
    // The invitation page of its table names the tournament (its players come in from there).
    let mut watcher = Client::greeted(&server).await;
    watcher.send(json!({"type": "peek", "room": room})).await;
    let info = watcher.recv_type("room_info").await["room"].clone();
    assert_eq!(info["tournament"]["tournament"], json!(code), "{info}");
    assert_eq!((info["tournament"]["round"].clone(), info["tournament"]["table"].clone()), (json!(1), json!(1)));
    // Its tables were created without spectators.
    let refused = watcher.join(room, "Guest", "spectator").await;
    assert_eq!(refused["code"], "room/no_spectators", "{refused}");
}

/// Any game with a fixed number of players per table: Großenaspe Fipsen at tables of five and
/// four. Nine players sit at one of each, play their deals, and the standings are the sum of
/// the tables' scoresheets; no frame shows a card before its time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_game_seats_its_own_table_sizes_over_sockets() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    let settings = json!({
        "name": "Großenaspe", "game": "grossenaspe",
        "tables": [
            {"seats": 5, "deals": 2, "rules": {"game": "grossenaspe", "players": 5, "deals": 2}},
            {"seats": 4, "deals": 2, "rules": {"game": "grossenaspe", "players": 4, "deals": 2}}
        ],
        "max_short_tables": 3, "rounds": 1, "reseating": "random", "duplicate": false,
        "listed": false, "organiser_plays": false
    });
    let (mut organiser, code, token) = create(&server, settings).await;
    let mut entrants = HashMap::new();
    for i in 1..=9 {
        let entrant = register(&server, &code, &format!("Spieler {i}")).await;
        entrants.insert(entrant.id, entrant);
    }
    let state = organiser.tournament_until(|t| t["view"]["entrants"].as_array().unwrap().len() == 9).await;
    assert_eq!(state["seating"]["tables"], json!([5, 4]));
    organiser.send(json!({"type": "start_tournament", "tournament": code, "token": token})).await;
    let state = organiser.tournament_until(|t| t["view"]["phase"]["phase"] == "playing").await;
    let mut runs = Vec::new();
    for t in 0..2 {
        let run = TableRun::open(&server, &state, 0, t, &entrants).await;
        assert_eq!(run.spectator.room["rules"]["game"], "grossenaspe");
        runs.push(run);
    }
    let mut rng = Rng(77);
    for run in &mut runs {
        run.play(&mut rng, |_| false).await;
        assert!(run.over());
    }
    let state = organiser.tournament_until(|t| t["view"]["phase"]["phase"] == "finished").await;
    let all: Vec<&TableRun> = runs.iter().collect();
    assert_eq!(standings_totals(&state), sheet_sums(&state, &all), "standings = the sum of the scoresheets");
    let checked: usize = runs.iter().map(TableRun::check_frames).sum();
    assert!(checked > 20, "only {checked} frames checked");
}

/// Creates the tournament of `create` (the organiser does not play), registers four players
/// who never come to their table, and starts it: the organiser's connection and the state at
/// the start.
async fn four_registered_and_started(server: &Server, create: Value) -> (Client, Value) {
    let mut organiser = Client::greeted(server).await;
    organiser.send(create).await;
    let created = organiser.recv_type_or_error("tournament_created").await;
    assert_eq!(created["type"], "tournament_created", "{created}");
    let code = created["tournament"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();
    for name in ["Anna", "Bernd", "Carla", "Dirk"] {
        register(server, &code, name).await;
    }
    organiser.tournament_until(|t| t["view"]["entrants"].as_array().unwrap().len() == 4).await;
    organiser.send(json!({"type": "start_tournament", "tournament": code, "token": token})).await;
    let state = organiser.tournament_until(|t| t["view"]["phase"]["phase"] == "playing").await;
    (organiser, state)
}

/// Unless the organiser says otherwise, the tables of a tournament with duplicate deals refuse
/// spectators (one watching a table that is ahead would see deals still to be played at his
/// own), whether the organiser gives no table options or options without
/// `spectators_allowed`; other tournaments' tables take them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn duplicate_tournaments_have_no_spectators_unless_the_organiser_asks() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    for duplicate in [true, false] {
        for tables in [None, Some(quick_tables())] {
            let mut create = json!({"type": "create_tournament", "name": "Olli",
                "settings": settings("Evening", 2, 2, 1, duplicate)});
            if let Some(tables) = &tables {
                assert!(tables.get("spectators_allowed").is_none());
                create["tables"] = tables.clone();
            }
            let (_organiser, state) = four_registered_and_started(&server, create).await;
            assert_eq!(state["tables"]["spectators_allowed"], json!(!duplicate), "{}", state["tables"]);
            let room = state["rooms"][0][0].as_str().unwrap();
            let mut watcher = Client::greeted(&server).await;
            let answer = watcher.join(room, "Guest", "spectator").await;
            if duplicate {
                assert_eq!(answer["code"], "room/no_spectators", "tables {tables:?}: {answer}");
            } else {
                assert_eq!(answer["type"], "joined", "tables {tables:?}: {answer}");
            }
        }
    }
    // Asked for, they have them.
    let mut tables = quick_tables();
    tables["spectators_allowed"] = json!(true);
    let create = json!({"type": "create_tournament", "name": "Olli",
        "settings": settings("Evening", 2, 2, 1, true), "tables": tables});
    let (_organiser, state) = four_registered_and_started(&server, create).await;
    let mut watcher = Client::greeted(&server).await;
    let answer = watcher.join(state["rooms"][0][0].as_str().unwrap(), "Guest", "spectator").await;
    assert_eq!(answer["type"], "joined", "{answer}");
}

/// A tournament table plays on with nobody in its room: four entrants who register and never
/// come to their table have bots stand in for them after the grace time, and the table plays its
/// deals so that the round ends and the tournament finishes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_whose_players_all_stay_away_plays_on_with_bots_and_the_round_ends() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    let s = settings("Absent", 2, 2, 1, false);
    let create = json!({"type": "create_tournament", "name": "Olli", "settings": s, "tables": quick_tables()});
    let (mut organiser, _) = four_registered_and_started(&server, create).await;
    // Nobody joins the table; the organiser only watches the tournament.
    let state = organiser.tournament_until(|t| t["view"]["phase"]["phase"] == "finished").await;
    let table = &state["view"]["rounds"][0]["tables"][0];
    assert_eq!(table["played"], 2, "{table}");
    let totals: i64 = table["totals"].as_array().unwrap().iter().map(|t| t.as_i64().unwrap()).sum();
    let standings: i64 =
        state["view"]["standings"].as_array().unwrap().iter().map(|s| s["total"].as_i64().unwrap()).sum();
    assert_eq!(totals, standings, "{state}");
}
