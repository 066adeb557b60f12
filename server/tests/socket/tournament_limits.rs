//! A tournament's size is bounded: a cap on entrants (the organiser's, up to the server's
//! maximum), at most ten rounds, the results sent in parts and registrations from one address
//! limited. With the cap reached, every name at its longest in bytes and every round played,
//! every frame stays under the server's reply limit and the tournament page keeps working.

#![allow(clippy::unwrap_used)]

use crate::common;

use std::time::Duration;

use common::{Client, Server, temp_db};
use serde_json::{Value, json};

/// The server's default reply limit (`--max-reply-bytes`).
const REPLY_LIMIT: usize = 256 * 1024;

/// Prisdorf at tables of four and three, `deals` deals a table, `rounds` rounds.
fn settings(name: &str, deals: u32, rounds: u32, cap: Option<u32>) -> Value {
    let mut s = json!({
        "name": name, "game": "prisdorf",
        "tables": [
            {"seats": 4, "deals": deals, "rules": {"game": "prisdorf", "players": 4, "deals": deals, "kontra": false}},
            {"seats": 3, "deals": deals, "rules": {"game": "prisdorf", "players": 3, "deals": deals, "kontra": false}}
        ],
        "max_short_tables": 3, "rounds": rounds, "reseating": "by_standings", "duplicate": false,
        "listed": true, "organiser_plays": false
    });
    if let Some(cap) = cap {
        s["max_entrants"] = json!(cap);
    }
    s
}

/// Tables that play at once with bots for everybody who is not there.
fn bot_tables() -> Value {
    json!({"grace_seconds": 0, "next_deal_seconds": 0, "bot_delay_ms": 0, "bot_takeover": "normal"})
}

/// A name of `chars` characters that takes four bytes each in UTF-8 (mathematical letters), the
/// most a name can take in a frame; different for every `i`.
fn long_name(i: usize, chars: usize) -> String {
    let letter = |n: usize| char::from_u32(0x1D400 + (n % 52) as u32).unwrap();
    let mut name: String = std::iter::repeat_n('𝕏', chars - 2).collect();
    name.push(letter(i / 52));
    name.push(letter(i));
    assert_eq!(name.len(), chars * 4);
    name
}

/// Creates a tournament; returns the organiser's connection (watching), the code and his token.
async fn create(server: &Server, settings: Value) -> (Client, String, String) {
    let mut organiser = Client::greeted(server).await;
    let name = long_name(0, 32);
    organiser
        .send(json!({"type": "create_tournament", "name": name, "settings": settings, "tables": bot_tables()}))
        .await;
    let created = organiser.recv_type_or_error("tournament_created").await;
    assert_eq!(created["type"], "tournament_created", "{created}");
    let code = created["tournament"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();
    organiser.recv_type("tournament").await;
    (organiser, code, token)
}

/// The next frame of one of these types (panics on an error frame or a close).
async fn expect(client: &mut Client, kind: &str) -> Value {
    let frame = client.recv_type_or_error(kind).await;
    assert_eq!(frame["type"], kind, "{frame}");
    frame
}

/// Reads `tournament` frames until one satisfies `done`.
async fn until(client: &mut Client, done: impl Fn(&Value) -> bool) -> Value {
    loop {
        let frame = expect(client, "tournament").await;
        if done(&frame["tournament"]) {
            return frame["tournament"].clone();
        }
    }
}

/// Registers `name` on a connection of its own: the answer (`registered` or an error).
async fn register_alone(server: &Server, code: &str, name: &str) -> Value {
    let mut c = Client::greeted(server).await;
    c.send(json!({"type": "register", "tournament": code, "name": name})).await;
    c.recv_type_or_error("registered").await
}

/// The largest frame a client received, in bytes.
fn largest(client: &Client) -> usize {
    client.frames.iter().map(String::len).max().unwrap_or(0)
}

/// The cap: a tournament created without one takes the server's maximum, a larger one is
/// refused, and once it is reached a registration is refused with `tournament/full` while the
/// page goes on: peeks and watches are answered and the organiser starts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_tournament_refuses_registration_and_its_page_keeps_working() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &["--max-tournament-entrants", "6"]);
    // More than the server takes: refused in words.
    let mut other = Client::greeted(&server).await;
    other.send(json!({"type": "create_tournament", "name": "Olli", "settings": settings("Big", 1, 1, Some(7))})).await;
    let refused = other.recv_type_or_error("tournament_created").await;
    assert_eq!(refused["code"], "tournament/invalid_settings", "{refused}");
    assert!(refused["message"].as_str().unwrap().contains("at most 6 players"), "{refused}");
    // More than any tournament takes, or more rounds than any has.
    for bad in [settings("Big", 1, 1, Some(129)), settings("Long", 1, 11, None)] {
        other.send(json!({"type": "create_tournament", "name": "Olli", "settings": bad})).await;
        let refused = other.recv_type_or_error("tournament_created").await;
        assert_eq!(refused["code"], "tournament/invalid_settings", "{refused}");
    }

    // Without a cap: the server's.
    let (mut organiser, code, token) = create(&server, settings("Evening", 1, 1, None)).await;
    for i in 1..=6 {
        let answer = register_alone(&server, &code, &long_name(i, 32)).await;
        assert_eq!(answer["type"], "registered", "{answer}");
    }
    let state = until(&mut organiser, |t| t["view"]["entrants"].as_array().unwrap().len() == 6).await;
    assert_eq!(state["view"]["settings"]["max_entrants"], 6);
    let answer = register_alone(&server, &code, "One too many").await;
    assert_eq!(answer["code"], "tournament/full", "{answer}");
    assert_eq!(answer["message"], "the tournament is full: it takes 6 players");

    // The page works: a peek, a watch, and the organiser starts (six sit at two tables of three).
    let mut watcher = Client::greeted(&server).await;
    watcher.send(json!({"type": "peek_tournament", "tournament": code})).await;
    let peeked = expect(&mut watcher, "tournament").await;
    assert_eq!(peeked["tournament"]["view"]["entrants"].as_array().unwrap().len(), 6);
    watcher.send(json!({"type": "watch_tournament", "tournament": code})).await;
    expect(&mut watcher, "tournament").await;
    organiser.send(json!({"type": "start_tournament", "tournament": code, "token": token})).await;
    let playing = until(&mut watcher, |t| t["view"]["phase"]["phase"] != "registration").await;
    assert_eq!(playing["view"]["rounds"][0]["tables"].as_array().unwrap().len(), 2);

    // The organiser's own cap, below the server's.
    let (_organiser, code, _) = create(&server, settings("Small", 1, 1, Some(3))).await;
    for name in ["Anna", "Bernd", "Carla"] {
        assert_eq!(register_alone(&server, &code, name).await["type"], "registered");
    }
    assert_eq!(register_alone(&server, &code, "Dirk").await["code"], "tournament/full");
}

/// One address may register only so many players for a tournament at once; the organiser's own
/// connection registers players at the door without that limit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn registrations_from_one_address_are_limited_but_not_the_organisers() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &["--registrations-per-address", "3"]);
    let (mut organiser, code, _) = create(&server, settings("Door", 1, 1, None)).await;
    for name in ["Anna", "Bernd", "Carla"] {
        assert_eq!(register_alone(&server, &code, name).await["type"], "registered");
    }
    let refused = register_alone(&server, &code, "Dirk").await;
    assert_eq!(refused["code"], "tournament/too_many_registrations", "{refused}");
    // A refusal for another reason does not use the allowance up (nor does it help).
    assert_eq!(register_alone(&server, &code, "anna").await["code"], "tournament/name_taken");
    // Another tournament has its own allowance.
    let (_other, second, _) = create(&server, settings("Other", 1, 1, None)).await;
    assert_eq!(register_alone(&server, &second, "Dirk").await["type"], "registered");
    // The organiser registers the rest himself.
    for name in ["Dirk", "Emma", "Fiete", "Gesa"] {
        organiser.send(json!({"type": "register", "tournament": code, "name": name})).await;
        let answer = organiser.recv_type_or_error("registered").await;
        assert_eq!(answer["type"], "registered", "{answer}");
    }
    let state = until(&mut organiser, |t| t["view"]["entrants"].as_array().unwrap().len() == 7).await;
    assert_eq!(state["you"]["organiser"], true, "the organiser still runs it: {}", state["you"]);
}

/// The largest tournament there can be: 128 entrants whose names take 128 bytes each, a name of
/// 256 bytes, and all ten rounds played. Every frame the organiser receives while it grows and is
/// played, and what a watcher gets at the end (the tournament, the results in their parts, the
/// public list) stay under the reply limit, and nobody is closed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_the_cap_every_message_stays_under_the_reply_limit() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    let name: String = std::iter::repeat_n('𝕏', 64).collect();
    let (mut organiser, code, token) = create(&server, settings(&name, 1, 10, None)).await;
    // At the door: the organiser registers everybody (no limit per address for him).
    for i in 1..=128 {
        organiser.send(json!({"type": "register", "tournament": code, "name": long_name(i, 32)})).await;
        expect(&mut organiser, "registered").await;
    }
    let state = until(&mut organiser, |t| t["view"]["entrants"].as_array().unwrap().len() == 128).await;
    assert_eq!(state["view"]["settings"]["max_entrants"], 128);
    organiser.send(json!({"type": "register", "tournament": code, "name": long_name(129, 32)})).await;
    let full = organiser.recv_type_or_error("registered").await;
    assert_eq!(full["code"], "tournament/full", "{full}");

    organiser.send(json!({"type": "start_tournament", "tournament": code, "token": token})).await;
    for round in 1..=10 {
        let over = until(&mut organiser, |t| {
            let phase = &t["view"]["phase"];
            phase["phase"] == "finished" || (phase["phase"] == "round_over" && phase["round"] == round)
        })
        .await;
        assert_eq!(over["view"]["rounds"].as_array().unwrap().len(), round as usize);
        if round < 10 {
            organiser.send(json!({"type": "next_round", "tournament": code, "token": token})).await;
        }
    }
    // Someone who comes now watches the whole of it.
    let mut watcher = Client::greeted(&server).await;
    watcher.send(json!({"type": "watch_tournament", "tournament": code})).await;
    let last = expect(&mut watcher, "tournament").await["tournament"].clone();
    assert_eq!(last["view"]["phase"]["phase"], "finished");
    assert_eq!(last["rooms"].as_array().unwrap().len(), 10);
    assert!(last["view"]["standings"].as_array().unwrap().iter().all(|s| s["deals"] == 10), "every table played");

    // The results in their parts: the standings, then each round's tables.
    watcher.send(json!({"type": "tournament_results", "tournament": code})).await;
    let standings = expect(&mut watcher, "tournament_results").await;
    assert_eq!(standings["results"]["standings"].as_array().unwrap().len(), 128);
    assert_eq!(standings["results"]["standings"][0]["rounds"].as_array().unwrap().len(), 10);
    assert_eq!(standings["csv"].as_str().unwrap().lines().count(), 129);
    let mut seats = 0;
    for round in 1..=10 {
        watcher.send(json!({"type": "tournament_results", "tournament": code, "round": round})).await;
        let part = expect(&mut watcher, "tournament_results").await;
        assert_eq!(part["round"], round);
        let tables = part["results"]["rounds"][0]["tables"].as_array().unwrap();
        assert_eq!(tables.len(), 32);
        seats += part["tables_csv"].as_str().unwrap().lines().count() - 1;
    }
    assert_eq!(seats, 1280, "every seat of every round");
    watcher.send(json!({"type": "tournaments"})).await;
    expect(&mut watcher, "tournaments").await;

    for client in [&organiser, &watcher] {
        assert!(client.closed.is_none(), "closed with {:?}", client.closed);
        let most = largest(client);
        assert!(most < REPLY_LIMIT, "a frame of {most} bytes");
        // The figure for the record, with what the largest frame was.
        let frame = client.frames.iter().max_by_key(|f| f.len()).unwrap();
        let kind: Value = serde_json::from_str(frame).unwrap();
        println!("largest frame: {most} bytes ({})", kind["type"]);
    }
    // Still answered after all that.
    watcher.send(json!({"type": "peek_tournament", "tournament": code})).await;
    tokio::time::timeout(Duration::from_secs(30), expect(&mut watcher, "tournament")).await.unwrap();
}
