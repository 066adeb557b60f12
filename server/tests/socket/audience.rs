//! A crowd of spectators: two thousand watchers coming into a table at once in the middle of a
//! deal never drop a seated player (even one who reads nothing meanwhile), the players are
//! told the count coalesced instead of once a watcher, play on with every update, and each
//! room has a cap on its watchers (`--max-spectators`, then `room/full_audience`).
#![allow(clippy::unwrap_used)]

use crate::common;

use std::time::Instant;

use common::{Client, PATIENCE, Rng, Server, Table, temp_db};
use fipsen_rules::GameRules;
use serde_json::{Value, json};

/// The watchers coming in at once.
const CROWD: usize = 2000;

/// A greeted connection with a small receive buffer: while it reads nothing, the server's
/// frames to it pile up in its queue at the server rather than in the sockets.
async fn small(server: &Server) -> Client {
    let mut c = Client::connect_small(server, 2048).await;
    c.send(json!({"type": "hello", "protocol": fipsen_protocol::PROTOCOL_VERSION})).await;
    assert_eq!(c.recv().await.unwrap()["type"], "welcome");
    c
}

/// A table of four people, each on a connection with a small receive buffer, started.
async fn table_of_small_readers(server: &Server) -> Table {
    let rules = json!({"players": 4});
    let parsed: GameRules = serde_json::from_value(rules.clone()).unwrap();
    let mut host = small(server).await;
    let room = host.create("Seat0", rules, json!({"next_deal_seconds": 0})).await;
    let mut seats = vec![host];
    for i in 1..4 {
        let mut c = small(server).await;
        assert_eq!(c.join(&room, &format!("Seat{i}"), "player").await["you"]["seat"], json!(i));
        seats.push(c);
    }
    seats[0].send(json!({"type": "start"})).await;
    let mut table = Table {
        room,
        seats,
        spectators: Vec::new(),
        rules: parsed,
        actions: Vec::new(),
        deals_replayed: 0,
        finished_actions: Vec::new(),
    };
    let target = loop {
        let v = table.seats[0].recv_type("update").await;
        if !v["game"].is_null() {
            break v["seq"].as_u64().unwrap();
        }
    };
    table.sync(target).await;
    table
}

/// Whether an update frame tells nothing but the spectators' count.
fn audience_only(frame: &str) -> bool {
    let v: Value = serde_json::from_str(frame).unwrap();
    v["type"] == "update"
        && v["events"].as_array().is_some_and(|e| !e.is_empty() && e.iter().all(|e| e["kind"] == "spectators"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_thousand_watchers_coming_in_at_once_never_drop_a_seated_player() {
    let (_dir, db) = temp_db();
    let flags = ["--max-spectators", "2000", "--max-per-address", "0"];
    let server = Server::start(&db, &flags);
    let mut table = table_of_small_readers(&server).await;
    let mut rng = Rng(5);
    table.play_moves(&mut rng, 6).await;
    let frames_before: Vec<usize> = table.seats.iter().map(|c| c.frames.len()).collect();
    let seq_before = table.seats[0].seq;

    // The crowd comes in at once, while no seated player reads anything.
    let started = Instant::now();
    let room = table.room.clone();
    let url = server.url();
    let joining: Vec<_> = (0..CROWD)
        .map(|i| {
            let (room, url) = (room.clone(), url.clone());
            tokio::spawn(async move {
                let connected = tokio::time::timeout(PATIENCE * 4, tokio_tungstenite::connect_async(url)).await;
                let Ok(Ok((ws, _))) = connected else { return Err("not connected".to_string()) };
                let mut c = Client::over(ws);
                c.send(json!({"type": "hello", "protocol": fipsen_protocol::PROTOCOL_VERSION})).await;
                c.send(json!({"type": "join_room", "room": room, "name": format!("Watcher {i}"), "role": "spectator"}))
                    .await;
                loop {
                    match c.recv().await {
                        Some(v) if v["type"] == "joined" => return Ok(c),
                        Some(v) if v["type"] == "error" => return Err(v.to_string()),
                        Some(_) => {}
                        None => return Err(format!("closed with {:?}", c.closed)),
                    }
                }
            })
        })
        .collect();
    let (mut crowd, mut failed) = (Vec::with_capacity(CROWD), Vec::new());
    for task in joining {
        match task.await.unwrap() {
            Ok(c) => crowd.push(c),
            Err(e) => failed.push(e),
        }
    }
    let took = started.elapsed();

    // The seated players read again: nobody was dropped, and each is told the whole crowd.
    // Then the table plays the deal on, every seat getting every update.
    table.play_moves(&mut rng, 12).await;
    let mut audience_frames = Vec::new();
    for (seat, c) in table.seats.iter().enumerate() {
        assert_eq!(c.closed, None, "seat {seat} was closed");
        assert_eq!(c.room["spectators"], json!(CROWD), "seat {seat}: {}", c.room);
        assert!(c.seq > seq_before);
        audience_frames.push(c.frames[frames_before[seat]..].iter().filter(|f| audience_only(f)).count());
    }
    eprintln!(
        "{CROWD} watchers in {took:?}; frames telling only the audience to each seat: {audience_frames:?}; \
         frames to each seat since: {:?}",
        table.seats.iter().zip(&frames_before).map(|(c, before)| c.frames.len() - before).collect::<Vec<_>>()
    );
    assert!(failed.is_empty(), "{} watchers did not come in: {:?}", failed.len(), &failed[..failed.len().min(5)]);
    // Told together, not once a watcher (at most one a second, and none to a full queue).
    assert!(audience_frames.iter().all(|&n| n < CROWD / 4), "{audience_frames:?}");

    // A watcher of the crowd sees the table as it is.
    let last = crowd.last_mut().unwrap();
    last.sync(table.seats[0].seq).await;
    assert_eq!(last.game["deal"]["trick"], table.seats[0].game["deal"]["trick"]);
    drop(crowd);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_lets_as_many_watch_as_the_operator_allows() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &["--max-spectators", "3"]);
    let mut host = Client::greeted(&server).await;
    let room = host.create("Antje", json!({"players": 4}), json!({})).await;
    let mut watchers = Vec::new();
    for i in 0..3 {
        let mut c = Client::greeted(&server).await;
        assert_eq!(c.join(&room, &format!("Watcher {i}"), "spectator").await["type"], "joined");
        watchers.push(c);
    }
    let mut late = Client::greeted(&server).await;
    let refused = late.join(&room, "Late", "spectator").await;
    assert_eq!(refused["code"], "room/full_audience", "{refused}");
    assert!(refused["message"].as_str().unwrap().contains("watching"), "{refused}");
    // Players are not counted: a seat is still taken.
    let mut player = Client::greeted(&server).await;
    assert_eq!(player.join(&room, "Bernd", "player").await["you"]["seat"], json!(1));
    // A watcher leaves: there is room for one more.
    watchers.pop().unwrap().close().await;
    let mut tries = 0;
    loop {
        let mut again = Client::greeted(&server).await;
        let answer = again.join(&room, "Late", "spectator").await;
        if answer["type"] == "joined" {
            break;
        }
        assert_eq!(answer["code"], "room/full_audience", "{answer}");
        tries += 1;
        assert!(tries < 100, "the place of the watcher who left never came free");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    // The players are told the count, once the changes are told together.
    while host.room["spectators"] != json!(3) {
        host.recv().await.expect("the room goes on");
    }
}
