//! Wippen over real sockets: a whole set of three players and a spectator in which the players
//! ask the server for the moves of their selections (arithmetic captures, builds, several groups)
//! and make them, every frame scanned for cards its viewer may not see and every game replayed
//! by the rules crate; a room of bots only finishes a match of two sets.

use crate::common;

use std::collections::BTreeSet;

use common::{Client, Rng, Server, Table, check_frames, temp_db, wippen_simple_move};
use serde_json::{Value, json};

/// A table pile of the view as a pile reference: a loose card or a building.
fn pile_ref(pile: &Value) -> Value {
    match pile.get("building") {
        Some(id) => json!({"building": id}),
        None => json!({"card": pile["card"]}),
    }
}

/// The piles at `indices` of the view's table.
fn piles(deal: &Value, indices: &Value) -> Vec<Value> {
    let table = deal["table"].as_array().expect("the table's piles");
    indices.as_array().into_iter().flatten().map(|i| pile_ref(&table[i.as_u64().expect("an index") as usize])).collect()
}

/// A selection the prompt says makes a move with `entry`'s hand card: a capture set (with the
/// buildings every capture must take) or a build's sets; `None` for a discard.
fn selection(deal: &Value, entry: &Value, rng: &mut Rng) -> Option<Vec<Value>> {
    let mut choices: Vec<Vec<Value>> = Vec::new();
    let must: Vec<Value> =
        entry["must_include"].as_array().into_iter().flatten().map(|id| json!({"building": id})).collect();
    for set in entry["capture"].as_array().into_iter().flatten() {
        let mut chosen = piles(deal, set);
        for m in &must {
            if !chosen.contains(m) {
                chosen.push(m.clone());
            }
        }
        choices.push(chosen);
    }
    // Two disjoint capture sets together: a capture of several groups.
    let sets: Vec<&Value> = entry["capture"].as_array().into_iter().flatten().collect();
    for (i, a) in sets.iter().enumerate() {
        for b in &sets[i + 1..] {
            let (a, b) = (piles(deal, a), piles(deal, b));
            if a.iter().all(|p| !b.contains(p)) {
                let mut both: Vec<Value> = a.into_iter().chain(b).collect();
                both.extend(must.iter().filter(|m| !both.contains(m)).cloned().collect::<Vec<_>>());
                choices.push(both);
            }
        }
    }
    for build in entry["builds"].as_array().into_iter().flatten() {
        for core in build["cores"].as_array().into_iter().flatten() {
            let mut chosen = piles(deal, core);
            // Now and then an extra set of the same value joins the build (a multi-build).
            if let Some(extras) = build["extras"].as_array().filter(|e| !e.is_empty() && rng.chance(50)) {
                for p in piles(deal, &extras[rng.below(extras.len())]) {
                    if !chosen.contains(&p) {
                        chosen.push(p);
                    }
                }
            }
            choices.push(chosen);
        }
    }
    if choices.is_empty() || (entry["discard"] == true && rng.chance(15)) {
        return None;
    }
    Some(choices.swap_remove(rng.below(choices.len())))
}

/// The player on turn picks a hand card and a selection, asks the server which moves make
/// exactly that selection, and makes one of them; else the simple move of the card.
async fn choose_move(table: &mut Table, rng: &mut Rng) -> (usize, Value) {
    let turn = table.view()["turn"].as_u64().expect("a seat on turn") as usize;
    let deal = table.seats[turn].deal().clone();
    let entries = deal["prompt"]["moves"].as_array().expect("the prompt's hand cards").clone();
    let entry = &entries[rng.below(entries.len())];
    if let Some(chosen) = selection(&deal, entry, rng) {
        let client = &mut table.seats[turn];
        client.send(json!({"type": "query", "query": {"card": entry["card"], "piles": chosen}})).await;
        let answer = client.recv_type_or_error("answer").await;
        assert_eq!(answer["type"], "answer", "{answer}");
        let answer = &answer["answer"];
        assert_eq!(answer["card"], entry["card"]);
        let moves = answer["moves"].as_array().expect("moves");
        let groups = |m: &Value| m["groups"].as_array().map_or(0, Vec::len);
        if rng.chance(50) {
            // The way of the selection in the most groups (several captures at once).
            if let Some(most) = moves.iter().max_by_key(|m| groups(m)) {
                return (turn, most.clone());
            }
        }
        if !moves.is_empty() {
            return (turn, moves[rng.below(moves.len())].clone());
        }
    }
    (turn, wippen_simple_move(entry))
}

/// Whether an expression tree uses an operator.
fn has_operator(expr: &Value) -> bool {
    expr.get("op").is_some()
}

/// The master seed of the test's rooms, fixed so that the moves the test looks for come up on
/// every run (with random deals a rare kind of move may not).
const PLAYED_SEED: &str = "0000000000000000000000000000000000000000000000000000000000015445";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_set_with_a_spectator_plays_every_kind_of_move_and_no_frame_shows_a_hidden_card() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &["--insecure-fixed-seed", PLAYED_SEED]);
    let rules = json!({"game": "wippen", "players": 3, "sets": 1});
    let mut table = Table::open(&server, rules, json!({"next_deal_seconds": 0}), 1).await;
    let mut rng = Rng(1);
    let mut kinds = BTreeSet::new();
    let mut moves = 0;
    while !table.series_over() {
        if table.deal_over() {
            table.await_next_deal().await;
            continue;
        }
        let (seat, mv) = choose_move(&mut table, &mut rng).await;
        match mv["kind"].as_str().unwrap() {
            "discard" => kinds.insert("discard"),
            "capture" => {
                let groups = mv["groups"].as_array().unwrap();
                if groups.len() > 1 {
                    kinds.insert("capture of several groups");
                }
                if groups.iter().any(has_operator) {
                    kinds.insert("arithmetic capture");
                }
                kinds.insert("capture")
            }
            "build" => kinds.insert("build"),
            other => panic!("a move of kind {other}"),
        };
        table.play(seat, mv).await;
        moves += 1;
        assert!(moves < 1_000, "the set does not end");
    }
    for kind in ["discard", "capture", "arithmetic capture", "capture of several groups", "build"] {
        assert!(kinds.contains(kind), "no {kind} in the set: {kinds:?}");
    }
    // One game dealt by each player, each replayed by the rules crate; the totals add up.
    let view = table.seats[0].game.clone();
    let sheet = view["scoresheet"].as_array().unwrap();
    assert_eq!(sheet.len(), 3, "{sheet:?}");
    assert_eq!(table.deals_replayed, 3);
    assert_eq!(view["totals"], sheet.last().unwrap()["totals"]);
    for client in &table.seats {
        assert_eq!(client.game["scoresheet"], view["scoresheet"]);
    }
    // The spectator saw captures, builds and sweeps as events; no frame showed a hidden card.
    let spectator = table.spectators[0].frames.clone();
    let events: BTreeSet<String> = spectator
        .iter()
        .flat_map(|f| {
            let v: Value = serde_json::from_str(f).unwrap();
            v["events"].as_array().cloned().unwrap_or_default()
        })
        .filter_map(|e| e["event"]["event"].as_str().map(str::to_string))
        .collect();
    for event in ["dealt", "moved", "leftover", "scored", "match_over"] {
        assert!(events.contains(event), "the spectator saw no `{event}`: {events:?}");
    }
    let mut frames = 0;
    for (seat, client) in table.seats.iter().enumerate() {
        frames += check_frames(Some(seat as u8), &client.frames, &spectator);
    }
    frames += check_frames(None, &spectator, &spectator);
    assert!(frames > moves, "{frames} frames checked for {moves} moves");
    for client in table.seats.into_iter().chain(table.spectators) {
        client.close().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_selection_the_rules_refuse_gets_their_error_and_a_spectator_may_not_ask() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    let rules = json!({"game": "wippen", "players": 2, "sets": 1});
    let mut table = Table::open(&server, rules, json!({"next_deal_seconds": null}), 1).await;
    let turn = table.view()["turn"].as_u64().unwrap() as usize;
    let card = table.seats[turn].deal()["hand"][0].clone();
    // A pile that is not on the table: the rules' error, by its code; nothing changes.
    let before = table.seats[turn].game.clone();
    let client = &mut table.seats[turn];
    client.send(json!({"type": "query", "query": {"card": card, "piles": [{"building": 99}]}})).await;
    let answer = client.recv_type_or_error("answer").await;
    assert_eq!(answer["type"], "error", "{answer}");
    assert_eq!(answer["code"], "move/unknown_pile", "{answer}");
    assert_eq!(client.game, before);
    // A spectator holds no cards to choose from.
    let watcher = &mut table.spectators[0];
    watcher.send(json!({"type": "query", "query": {"card": card, "piles": []}})).await;
    let answer = watcher.recv_type_or_error("answer").await;
    assert_eq!(answer["type"], "error", "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_of_bots_only_finishes_a_match_of_two_sets() {
    let (_dir, db) = temp_db();
    let (server, log) = Server::start_logged(&db, &[]);
    let mut host = Client::greeted(&server).await;
    let rules = json!({"game": "wippen", "players": 2, "sets": 2});
    let room = host.create("Host", rules, json!({"next_deal_seconds": 0, "bot_delay_ms": 0})).await;
    host.send(json!({"type": "leave_seat"})).await;
    host.recv_type("update").await;
    for (seat, level) in ["easy", "strong"].iter().enumerate() {
        host.send(json!({"type": "add_bot", "seat": seat, "level": level})).await;
        host.recv_type("update").await;
    }
    host.send(json!({"type": "start"})).await;
    for _ in 0..20_000 {
        if host.recv_type("update").await["game"]["over"] == true {
            break;
        }
    }
    let view = host.game.clone();
    assert_eq!(view["over"], true, "the bots finished the match in {room}");
    let sheet = view["scoresheet"].as_array().unwrap();
    assert_eq!(sheet.len(), 4, "two sets of two games: {sheet:?}");
    assert_eq!(sheet.last().unwrap()["set"], 2);
    assert_eq!(log.count_containing("a bot chose no legal action"), 0);
    host.close().await;
}

/// Asks `client` for a `pong` and waits for it (within the tests' patience).
async fn pong(client: &mut Client) {
    client.send(json!({"type": "ping"})).await;
    assert_eq!(client.recv_type_or_error("pong").await["type"], "pong");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rooms_with_groups_of_six_piles_are_joined_and_played_at_once_under_two_sets_of_operators() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    let mut other = Client::greeted(&server).await;
    for operators in [json!(["+", "-", "*", "/"]), json!(["+", "-", "/"])] {
        let mut host = Client::greeted(&server).await;
        let rules = json!({"game": "wippen", "players": 2, "max_group_piles": 6, "operators": operators});
        host.send(json!({"type": "create_room", "name": "Host", "rules": rules, "options": {"bot_delay_ms": 0}})).await;
        // The reach table of groups of six piles no longer takes minutes: `joined` comes within
        // the tests' patience, and the server answers everybody meanwhile.
        let joined = host.recv_type_or_error("joined").await;
        assert_eq!(joined["type"], "joined", "{joined}");
        assert_eq!(joined["room"]["rules"]["max_group_piles"], 6, "{}", joined["room"]["rules"]);
        pong(&mut host).await;
        pong(&mut other).await;
        host.send(json!({"type": "add_bot", "seat": 1, "level": "strong"})).await;
        host.recv_type("update").await;
        host.send(json!({"type": "start"})).await;
        // The game is dealt and moved in: the host gets a prompt with his moves.
        loop {
            let update = host.recv_type("update").await;
            if update["game"]["deal"]["prompt"]["moves"].as_array().is_some_and(|m| !m.is_empty()) {
                break;
            }
        }
        let entry = host.deal()["prompt"]["moves"][0].clone();
        let reply = host.act(&wippen_simple_move(&entry)).await;
        assert_eq!(reply["type"], "ack", "{reply}");
        pong(&mut host).await;
        host.close().await;
    }
    other.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_of_wippen_with_groups_of_six_piles_opens_its_tables_at_once() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    let rules = json!({"game": "wippen", "players": 2, "max_group_piles": 6, "deals": 1});
    let settings = json!({
        "name": "Six piles", "game": "wippen",
        "tables": [{"seats": 2, "deals": 1, "rules": rules}],
        "max_short_tables": 0, "rounds": 1, "reseating": "by_standings", "duplicate": false,
        "listed": true, "organiser_plays": false
    });
    let mut organiser = Client::greeted(&server).await;
    let tables = json!({"grace_seconds": 2, "next_deal_seconds": 0, "bot_delay_ms": 0, "bot_takeover": "normal"});
    organiser.send(json!({"type": "create_tournament", "name": "Olli", "settings": settings, "tables": tables})).await;
    let created = organiser.recv_type_or_error("tournament_created").await;
    assert_eq!(created["type"], "tournament_created", "{created}");
    let code = created["tournament"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();
    let mut tokens = Vec::new();
    for name in ["Anna", "Ben"] {
        let mut c = Client::greeted(&server).await;
        c.send(json!({"type": "register", "tournament": code, "name": name})).await;
        let registered = c.recv_type_or_error("registered").await;
        assert_eq!(registered["type"], "registered", "{registered}");
        tokens.push(registered["token"].as_str().unwrap().to_string());
        c.close().await;
    }
    organiser
        .send(json!({"type": "start_tournament", "tournament": code, "token": token, "fill_with_bots": false}))
        .await;
    let state = loop {
        let frame = organiser.recv_type_or_error("tournament").await;
        assert_eq!(frame["type"], "tournament", "{frame}");
        if frame["tournament"]["view"]["phase"]["phase"] == "playing" {
            break frame["tournament"].clone();
        }
    };
    pong(&mut organiser).await;
    let room = state["rooms"][0][0].as_str().unwrap().to_string();
    let mut anna = Client::greeted(&server).await;
    anna.send(json!({"type": "resume", "room": room, "token": tokens[0]})).await;
    let joined = anna.recv_type_or_error("joined").await;
    assert_eq!(joined["type"], "joined", "{joined}");
    assert_eq!(joined["room"]["rules"]["max_group_piles"], 6);
    pong(&mut anna).await;
    anna.close().await;
    organiser.close().await;
}
