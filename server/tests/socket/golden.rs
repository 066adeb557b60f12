//! A database written by an earlier build loads in this one and plays on.
//!
//! `tests/golden/v1.sqlite3` was written by the server at schema version 2 with record format 1:
//! for every game, a table whose series is over and a table in the middle of its first deal,
//! all dealt from a fixed seed, and a tournament with its entrants registered. `tests/golden/v1.json` holds, for each table, its invite code,
//! its rules, the seat tokens and every seat's view of the series when the file was written.
//! The test restores the file with this build, checks the tournament's view and starts it,
//! resumes every seat with its token, checks that
//! each view is exactly the one stored, and plays every unfinished table on to the end of its
//! series (each deal finished is replayed through the rules crate from its revealed seed and
//! every action, the stored ones included).
//!
//! `tests/golden/v2.sqlite3` (same formats, written by the build whose room is a core inside a
//! shell) holds the same and more: the tournament started, its table in play; a series deleted
//! by its players (it must stay deleted); and a finished series whose host offered to play
//! again (the offer and the new room's seats must come back).
//!
//! The golden file is never rewritten to follow a format change: a change to the stored form
//! (a table, a column, a record) adds a migration in `server/migrations/` (and raises the record
//! format, teaching the reader the old one) so that this file still loads. A new golden file for
//! the new format is added beside it (`v2.sqlite3`, …), never in its place. To write one:
//!
//! ```text
//! GOLDEN_WRITE=v2 cargo test -p fipsen-server --test socket -- --ignored --exact golden::write_golden_database
//! ```

#![allow(clippy::unwrap_used)]

use crate::common;

use std::path::PathBuf;

use common::{Client, Rng, Server, Table, short_rules, temp_db};
use fipsen_rules::{GameId, GameRules};
use serde_json::{Value, json};

const SEED: &str = "9b1e4c7d2a5f8e3b6c9d0a1f4e7b2c5d8a3f6e9b0c1d4a7f2e5b8c3d6a9f0e1b";

/// A tournament of one table of four, one round of one deal.
fn tournament_settings() -> Value {
    json!({
        "name": "Golden", "game": "prisdorf",
        "tables": [{"seats": 4, "deals": 1, "rules": {"game": "prisdorf", "players": 4, "deals": 1, "kontra": false}}],
        "max_short_tables": 0, "rounds": 1, "reseating": "by_standings", "duplicate": false,
        "listed": false, "organiser_plays": false
    })
}

/// A tournament with four entrants registered, not yet started; returns its code, the
/// organiser's token and the organiser's view of it.
async fn write_tournament(server: &Server) -> Value {
    let mut organiser = Client::greeted(server).await;
    let tables = json!({"grace_seconds": 2, "next_deal_seconds": 0, "bot_delay_ms": 0, "bot_takeover": "normal"});
    organiser
        .send(json!({"type": "create_tournament", "name": "Olli", "settings": tournament_settings(), "tables": tables}))
        .await;
    let created = organiser.recv_type_or_error("tournament_created").await;
    assert_eq!(created["type"], "tournament_created", "{created}");
    let code = created["tournament"].as_str().unwrap().to_string();
    for name in ["Anna", "Bernd", "Carla", "Dirk"] {
        let mut c = Client::greeted(server).await;
        c.send(json!({"type": "register", "tournament": code, "name": name})).await;
        let registered = c.recv_type_or_error("registered").await;
        assert_eq!(registered["type"], "registered", "{registered}");
        c.close().await;
    }
    let state = organiser.tournament_until(|t| t["view"]["entrants"].as_array().unwrap().len() == 4).await;
    json!({"code": code, "token": created["token"], "view": state["view"]})
}

fn golden(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden").join(name)
}

/// Every seat resumes with its token; returns the clients and their views.
async fn resume(server: &Server, room: &str, tokens: &[String]) -> (Vec<Client>, Vec<Value>) {
    let mut seats = Vec::new();
    let mut views = Vec::new();
    for (seat, token) in tokens.iter().enumerate() {
        let mut c = Client::greeted(server).await;
        c.send(json!({"type": "resume", "room": room, "token": token, "last_seq": 0})).await;
        let joined = c.recv_type_or_error("joined").await;
        assert_eq!(joined["type"], "joined", "{room}: {joined}");
        assert_eq!(joined["you"]["seat"], json!(seat));
        views.push(joined["game"].clone());
        seats.push(c);
    }
    (seats, views)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_golden_database_loads_and_plays_on() {
    load_and_play_on("v1").await;
}

/// Written by the build that split the room into a core and a shell (record format 1, schema
/// version 2, as v1), with more in it: a tournament in play, a deleted series and a finished
/// series whose host offered to play again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_second_golden_database_loads_and_plays_on() {
    load_and_play_on("v2").await;
}

async fn load_and_play_on(name: &str) {
    let (_dir, db) = temp_db();
    std::fs::copy(golden(&format!("{name}.sqlite3")), &db).unwrap();
    let expected: Value =
        serde_json::from_str(&std::fs::read_to_string(golden(&format!("{name}.json"))).unwrap()).unwrap();
    let tables = expected["tables"].as_array().unwrap();
    let games: std::collections::BTreeSet<&str> =
        tables.iter().map(|t| t["rules"]["game"].as_str().unwrap_or_default()).collect();
    assert!(games.len() >= 2 && tables.len() >= 4, "the golden file holds several games");
    let server = Server::start(&db, &[]);
    // The tournament comes back as it was, and starts (or, stored in play, plays on to its end:
    // its entrants never come back, so bots stand in for them).
    let tournament = &expected["tournament"];
    let mut organiser = Client::greeted(&server).await;
    let (code, token) = (&tournament["code"], &tournament["token"]);
    organiser.send(json!({"type": "watch_tournament", "tournament": code, "token": token})).await;
    let state = organiser.tournament_until(|_| true).await;
    assert_eq!(state["view"], tournament["view"], "the tournament restored as it was stored");
    if tournament["view"]["phase"]["phase"] == "playing" {
        organiser.tournament_until(|t| t["view"]["phase"]["phase"] == "finished").await;
    } else {
        organiser.send(json!({"type": "start_tournament", "tournament": code, "token": token})).await;
        organiser.tournament_until(|t| t["view"]["phase"]["phase"] == "playing").await;
    }
    // A deleted series stays deleted: neither its seats nor its page come back.
    if let Some(deleted) = expected.get("deleted") {
        let room = deleted["room"].as_str().unwrap();
        for token in deleted["tokens"].as_array().unwrap() {
            let mut c = Client::greeted(&server).await;
            c.send(json!({"type": "resume", "room": room, "token": token})).await;
            let refused = c.recv_type_or_error("joined").await;
            assert_eq!(refused["code"], "room/not_found", "{refused}");
            c.send(json!({"type": "series", "room": room, "key": token})).await;
            let refused = c.recv_type_or_error("series").await;
            assert_eq!(refused["code"], "series/not_found", "{refused}");
        }
    }
    // A series whose host offered to play again still names the new room, where each player's
    // old token holds his seat.
    if let Some(rematch) = expected.get("rematch") {
        let (old, new) = (rematch["room"].as_str().unwrap(), rematch["new"].as_str().unwrap());
        for (seat, token) in rematch["tokens"].as_array().unwrap().iter().enumerate() {
            let mut c = Client::greeted(&server).await;
            c.send(json!({"type": "resume", "room": old, "token": token})).await;
            let joined = c.recv_type_or_error("joined").await;
            assert_eq!(joined["room"]["rematch"], json!(new), "{joined}");
            c.send(json!({"type": "leave_room"})).await;
            c.recv_type_or_error("left").await;
            c.send(json!({"type": "join_room", "room": new, "name": "x", "role": "player", "token": token})).await;
            let joined = c.recv_type_or_error("joined").await;
            assert_eq!(joined["you"]["seat"], json!(seat), "{joined}");
            assert_eq!(joined["room"]["status"], "waiting", "{joined}");
        }
    }
    let mut rng = Rng(25);
    for table in tables {
        let room = table["room"].as_str().unwrap();
        let tokens: Vec<String> = serde_json::from_value(table["tokens"].clone()).unwrap();
        let (seats, views) = resume(&server, room, &tokens).await;
        assert_eq!(&views, table["views"].as_array().unwrap(), "{room} restored as it was stored");
        let mut live = Table {
            room: room.to_string(),
            seats,
            spectators: Vec::new(),
            rules: serde_json::from_value::<GameRules>(table["rules"].clone()).unwrap(),
            // The deal's actions so far: the deal played on is checked against the rules crate.
            actions: serde_json::from_value(table["actions"].clone()).unwrap(),
            deals_replayed: 0,
            finished_actions: Vec::new(),
        };
        assert_eq!(live.series_over(), table["over"] == true, "{room}");
        if !live.series_over() {
            let steps = live.play_series(&mut rng, true).await;
            assert!(steps > 0 && live.series_over(), "{room} plays on to the end");
            assert!(live.deals_replayed >= 1, "{room}: the deal played on is the stored one");
        }
    }
}

/// Writes `tests/golden/$GOLDEN_WRITE.sqlite3` and its `.json` (see the module's comment).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "writes a golden file: run by hand for a new format only"]
async fn write_golden_database() {
    let name = std::env::var("GOLDEN_WRITE").expect("GOLDEN_WRITE names the file to write (v2, …)");
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db, &["--insecure-fixed-seed", SEED]);
    let mut rng = Rng(1);
    let mut tables = Vec::new();
    for &game in GameId::ALL {
        for finished in [true, false] {
            let rules = short_rules(game, 1);
            let mut table = Table::open(&server, rules.clone(), json!({"next_deal_seconds": null}), 0).await;
            if finished {
                table.play_series(&mut rng, true).await;
            } else {
                for _ in 0..3 {
                    assert!(table.step(&mut rng).await);
                }
            }
            let seq = table.seats.iter().map(|c| c.seq).max().unwrap_or(0);
            table.sync(seq).await;
            tables.push(json!({
                "room": table.room,
                "rules": rules,
                "over": table.series_over(),
                "actions": table.actions,
                "tokens": table.seats.iter().map(Client::token).collect::<Vec<_>>(),
                "views": table.seats.iter().map(|c| c.game.clone()).collect::<Vec<_>>(),
            }));
        }
    }
    // A series deleted by its players' agreement.
    let mut doomed = Table::open(&server, short_rules(GameId::Prisdorf, 3), json!({}), 0).await;
    assert!(doomed.step(&mut rng).await);
    for seat in &mut doomed.seats {
        seat.send(json!({"type": "delete_series", "agree": true})).await;
    }
    doomed.seats[0].recv_type_or_error("deleted").await;
    let deleted = json!({"room": doomed.room, "tokens": doomed.seats.iter().map(Client::token).collect::<Vec<_>>()});
    // A finished series whose host offered to play again.
    let mut again = Table::open(&server, short_rules(GameId::Prisdorf, 1), json!({}), 0).await;
    again.play_series(&mut rng, true).await;
    again.seats[0].send(json!({"type": "rematch"})).await;
    let new = loop {
        let frame = again.seats[0].recv_type_or_error("update").await;
        if let Some(new) = frame["room"]["rematch"].as_str() {
            break new.to_string();
        }
    };
    let rematch =
        json!({"room": again.room, "new": new, "tokens": again.seats.iter().map(Client::token).collect::<Vec<_>>()});
    // The tournament, started: its table in play (its entrants never come).
    let mut tournament = write_tournament(&server).await;
    let mut organiser = Client::greeted(&server).await;
    let (code, token) = (tournament["code"].clone(), tournament["token"].clone());
    organiser.send(json!({"type": "watch_tournament", "tournament": code, "token": token})).await;
    organiser.send(json!({"type": "start_tournament", "tournament": code, "token": token})).await;
    let state = organiser.tournament_until(|t| t["view"]["phase"]["phase"] == "playing").await;
    tournament["view"] = state["view"].clone();
    assert!(server.terminate());
    let target = golden(&format!("{name}.sqlite3"));
    let _ = std::fs::remove_file(&target);
    rusqlite::Connection::open(&db).unwrap().execute("VACUUM INTO ?1", [target.to_str().unwrap()]).unwrap();
    // One table a line.
    let lines: Vec<String> = tables.iter().map(Value::to_string).collect();
    let json = format!(
        "{{\"seed\": \"{SEED}\", \"tournament\": {tournament},\n\"deleted\": {deleted},\n\"rematch\": {rematch},\n\"tables\": [\n{}\n]}}\n",
        lines.join(",\n")
    );
    std::fs::write(golden(&format!("{name}.json")), json).unwrap();
}
