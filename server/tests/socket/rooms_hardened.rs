//! The room-level failures found when the server was attacked and played as a newcomer would:
//! replies stay bounded (lobby pages, chat, resume), tables of bots stop when nobody is there,
//! a player who never acts cannot stall a table (move clock, nudge), the next deal waits for a
//! reader, one person holds one seat, names cannot pass for another, rooms created are limited.
#![allow(clippy::unwrap_used)]

use crate::common;

use std::time::Duration;

use common::{Client, Rng, Server, random_action, temp_db};
use serde_json::{Value, json};

/// The largest frame the server's WebSocket writer takes; every reply must stay well below it.
const WRITE_LIMIT: usize = 256 * 1024;

/// Reads until the answer to a request without id: the first frame of `kind` or an error.
async fn answer(c: &mut Client, request: Value, kind: &str) -> Value {
    c.send(request).await;
    c.recv_type_or_error(kind).await
}

async fn refused(c: &mut Client, request: Value) -> String {
    let v = answer(c, request, "error").await;
    v["code"].as_str().unwrap_or_default().to_string()
}

/// The events of `kind` in an update.
fn events<'a>(update: &'a Value, kind: &str) -> Vec<&'a Value> {
    update["events"].as_array().map(|e| e.iter().filter(|e| e["kind"] == kind).collect()).unwrap_or_default()
}

/// Reads updates until one carries an event of `kind`; returns that update.
async fn until_event(c: &mut Client, kind: &str) -> Value {
    loop {
        let v = c.recv_type("update").await;
        if !events(&v, kind).is_empty() {
            return v;
        }
    }
}

/// A room of one person (seat 0) and three bots, started.
async fn with_bots(server: &Server, options: Value) -> (Client, String) {
    let mut me = Client::greeted(server).await;
    let room = me.create("Antje", json!({"players": 4}), options).await;
    for seat in 1..4 {
        me.send(json!({"type": "add_bot", "seat": seat, "level": "easy"})).await;
    }
    me.send(json!({"type": "start"})).await;
    while me.game.is_null() {
        me.recv_type("update").await;
    }
    (me, room)
}

/// A room of Antje (seat 0, host), Hinnerk (seat 1) and two bots, started.
async fn two_people_and_two_bots(server: &Server, options: Value) -> (Client, Client, String) {
    let mut a = Client::greeted(server).await;
    let room = a.create("Antje", json!({"players": 4}), options).await;
    let mut b = Client::greeted(server).await;
    assert_eq!(b.join(&room, "Hinnerk", "player").await["you"]["seat"], 1);
    for seat in 2..4 {
        a.send(json!({"type": "add_bot", "seat": seat, "level": "easy"})).await;
    }
    a.send(json!({"type": "start"})).await;
    while a.game.is_null() {
        a.recv_type("update").await;
    }
    (a, b, room)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_answers_in_pages_however_many_rooms_are_public() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    let mut host = Client::greeted(&server).await;
    const ROOMS: usize = 120;
    let long_title = "T".repeat(60);
    let mut codes = Vec::new();
    for i in 0..ROOMS {
        let title = format!("{i:03}{}", &long_title[3..]);
        codes.push(host.create("Antje", json!({"players": 4}), json!({"title": title, "public": true})).await);
        host.send(json!({"type": "leave_room"})).await;
        host.recv_type("left").await;
    }
    let mut c = Client::greeted(&server).await;
    let first = answer(&mut c, json!({"type": "lobby"}), "lobby").await;
    assert_eq!(first["total"], ROOMS, "{first}");
    assert_eq!(first["offset"], 0);
    let rooms = first["rooms"].as_array().unwrap();
    assert_eq!(rooms.len(), 50);
    // Newest first, with the host's name.
    assert_eq!(rooms[0]["room"], codes[ROOMS - 1]);
    assert_eq!(rooms[0]["host"], "Antje");
    let last = answer(&mut c, json!({"type": "lobby", "offset": 100}), "lobby").await;
    assert_eq!(last["rooms"].as_array().unwrap().len(), ROOMS - 100);
    assert_eq!(last["rooms"][19]["room"], codes[0]);
    let beyond = answer(&mut c, json!({"type": "lobby", "offset": 5000}), "lobby").await;
    assert_eq!((beyond["total"].as_u64(), beyond["rooms"].as_array().map(Vec::len)), (Some(ROOMS as u64), Some(0)));
    for frame in &c.frames {
        assert!(frame.len() < WRITE_LIMIT / 4, "a lobby page of {} bytes", frame.len());
    }
    // The invitation page sees a private room's title and host without joining it.
    let private = {
        let mut h = Client::greeted(&server).await;
        h.create("Hinnerk", json!({"players": 3}), json!({"title": "Friday table"})).await
    };
    let info = answer(&mut c, json!({"type": "peek", "room": private}), "room_info").await;
    assert_eq!(
        (info["room"]["title"].as_str(), info["room"]["host"].as_str()),
        (Some("Friday table"), Some("Hinnerk"))
    );
    assert_eq!(info["room"]["players"].as_array().unwrap().len(), 3);
    assert_eq!(refused(&mut c, json!({"type": "peek", "room": "AAAAAAAAAAAAAAAAAAAA"})).await, "room/not_found");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_chat_never_locks_a_player_out_of_his_seat() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    let mut a = Client::greeted(&server).await;
    let room = a.create("Antje", json!({"players": 4}), json!({})).await;
    let token = a.token();
    let before = a.seq;
    a.send(json!({"type": "leave_room"})).await;
    a.recv_type("left").await;

    // Control characters are no chat text; lines of the widest characters (4 bytes each) come
    // from many watchers, 5 each (the chat limit per connection).
    let mut w = Client::greeted(&server).await;
    w.join(&room, "Watcher", "spectator").await;
    assert_eq!(refused(&mut w, json!({"type": "chat", "text": "\u{1}\u{2}\u{3}\u{7f}"})).await, "chat/empty");
    w.send(json!({"type": "chat", "text": "a\u{1}b\u{202E}c\nd"})).await;
    let said = until_event(&mut w, "chat").await;
    let line = events(&said, "chat")[0];
    assert_eq!((line["text"].as_str(), line["role"].as_str()), (Some("abc d"), Some("spectator")));
    let wide = "😀".repeat(300);
    let mut lines = 1;
    while lines < 180 {
        let mut c = Client::greeted(&server).await;
        assert_eq!(c.join(&room, "W", "spectator").await["type"], "joined");
        for _ in 0..5 {
            c.send(json!({"type": "chat", "text": wide})).await;
            let v = c.recv_type_or_error("update").await;
            assert_eq!(v["type"], "update", "{v}");
            lines += 1;
        }
        c.close().await;
    }

    // The player comes back from before the flood: a snapshot, small, with the newest chat.
    let mut back = Client::greeted(&server).await;
    back.send(json!({"type": "resume", "room": room, "token": token, "last_seq": before})).await;
    let joined = back.recv_type("joined").await;
    assert_eq!(joined["you"]["seat"], 0);
    assert_eq!(joined["resync"], true, "a gap this long comes as a snapshot");
    let frame = back.frames.last().unwrap().len();
    assert!(frame < WRITE_LIMIT / 2, "joined is {frame} bytes");
    let chat = joined["chat"].as_array().unwrap();
    assert!(!chat.is_empty() && chat.len() < 50, "{} chat lines", chat.len());
    assert_eq!(chat.last().unwrap()["text"], wide, "the newest line last");
    // A short gap still comes as the missed events.
    let mut again = Client::greeted(&server).await;
    let seq = joined["seq"].as_u64().unwrap();
    let mut w2 = Client::greeted(&server).await;
    w2.join(&room, "Late", "spectator").await;
    w2.send(json!({"type": "chat", "text": "moin"})).await;
    until_event(&mut w2, "chat").await;
    back.close().await;
    again.send(json!({"type": "resume", "room": room, "token": token, "last_seq": seq})).await;
    let joined = again.recv_type("joined").await;
    assert_eq!(joined["resync"], false);
    assert!(joined["missed"].as_array().unwrap().iter().any(|e| e["kind"] == "chat" && e["text"] == "moin"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_play_only_while_a_person_is_in_the_room() {
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db, &[]);
    // The host leaves at once: a bot stands in for him and the table is bots only.
    let options = json!({"bot_delay_ms": 0, "grace_seconds": 0, "next_deal_seconds": 0, "bot_takeover": "easy"});
    let (mut me, room) = with_bots(&server, options).await;
    let token = me.token();
    me.send(json!({"type": "leave_room"})).await;
    me.recv_type("left").await;
    tokio::time::sleep(Duration::from_millis(500)).await;

    // Someone watches: the bots play on, fast.
    let mut w = Client::greeted(&server).await;
    let joined = w.join(&room, "Oma Grete", "spectator").await;
    let deal_at_join = joined["game"]["number"].as_u64().unwrap();
    assert!(deal_at_join <= 1, "no deal was played with nobody in the room: deal {deal_at_join}");
    while w.game["number"].as_u64().unwrap() < deal_at_join + 2 {
        w.recv().await.expect("the bots play while someone watches");
    }
    w.send(json!({"type": "leave_room"})).await;
    w.recv_type("left").await;
    let (seq, deal) = (w.seq, w.game["number"].as_u64().unwrap());
    tokio::time::sleep(Duration::from_millis(500)).await;
    let mut w = Client::greeted(&server).await;
    let joined = w.join(&room, "Oma Grete", "spectator").await;
    // Only the watcher's own leaving and coming were counted meanwhile.
    assert!(joined["seq"].as_u64().unwrap() <= seq + 2, "{} events after {seq}", joined["seq"]);
    assert_eq!(joined["game"]["number"].as_u64(), Some(deal));
    w.close().await;

    // After a restart the room is open again, and still nobody plays in it.
    tokio::time::sleep(Duration::from_millis(300)).await;
    server.kill();
    let server = Server::start(&db, &[]);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let mut back = Client::greeted(&server).await;
    back.send(json!({"type": "resume", "room": room, "token": token})).await;
    let joined = back.recv_type("joined").await;
    assert_eq!(joined["game"]["number"].as_u64(), Some(deal), "no deal played after the restart");
}

/// The move clock shows on a player's turn. When it runs out and what follows (a bot makes that
/// one move) is checked on a simulated clock in the room core's tests
/// (`server/src/room/core/timing_tests.rs`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_move_clock_shows_on_a_players_turn() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    let options = json!({"bot_delay_ms": 0, "move_seconds": 10, "next_deal_seconds": null});
    let (mut me, _room) = with_bots(&server, options).await;
    assert_eq!(me.room["options"]["move_seconds"], 10);
    // Wait for my turn; the clock shows on it.
    while me.room["turn"]["seat"] != 0 {
        me.recv_type("update").await;
    }
    let left = me.room["turn"]["left_ms"].as_u64().expect("the clock runs on my turn");
    assert!(left <= 10_000 && left > 0, "{left}");
    assert!(me.room["seats"][0]["stand_in"].is_null());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_nudge_too_soon_to_nobody_or_by_a_spectator_is_refused() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    let (mut a, mut b, room) = two_people_and_two_bots(&server, json!({"bot_delay_ms": 0})).await;
    // B plays whenever it is his turn, until it is A's.
    let mut rng = Rng(3);
    b.sync(a.seq).await;
    loop {
        if b.room["turn"]["seat"] == 0 {
            break;
        }
        if b.room["turn"]["seat"] == 1
            && let Some(action) = random_action(b.deal(), &mut rng)
        {
            b.act(&action).await;
            continue;
        }
        b.recv_type("update").await;
    }
    assert_eq!(refused(&mut b, json!({"type": "nudge"})).await, "nudge/too_soon");
    assert_eq!(refused(&mut a, json!({"type": "nudge"})).await, "nudge/nobody", "nobody nudges himself");
    let mut w = Client::greeted(&server).await;
    w.join(&room, "Oma", "spectator").await;
    assert_eq!(refused(&mut w, json!({"type": "nudge"})).await, "seat/not_seated");
    assert!(b.room["turn"]["waited_ms"].as_u64().is_some(), "the turn's time shows: {}", b.room);
    // The nudge itself, once the turn has lasted 15 s, and again only 30 s later: on a
    // simulated clock in the room core's tests (`server/src/room/core/timing_tests.rs`).
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_next_deal_waits_while_a_player_reads_the_result() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    let options = json!({"bot_delay_ms": 0, "next_deal_seconds": 3});
    let (mut me, _room) = with_bots(&server, options).await;
    assert_eq!(refused(&mut me, json!({"type": "reading", "reading": true})).await, "deal/not_over");
    let mut rng = Rng(8);
    while me.deal()["phase"] != "over" {
        if me.room["turn"]["seat"] == 0
            && let Some(action) = random_action(me.deal(), &mut rng)
        {
            me.act(&action).await;
            continue;
        }
        me.recv_type("update").await;
    }
    let number = me.game["number"].clone();
    assert!(me.room["next_deal_in_ms"].as_u64().is_some_and(|ms| ms <= 3000), "{}", me.room);
    me.send(json!({"type": "reading", "reading": true})).await;
    let paused = until_event(&mut me, "reading").await;
    assert_eq!(paused["room"]["reading"], json!([0]));
    assert_eq!(paused["room"]["next_deal_paused"], true);
    let frozen = paused["room"]["next_deal_in_ms"].as_u64().unwrap();
    // The countdown stands still while I read (past the pause, on a simulated clock: the room
    // core's tests, `server/src/room/core/timing_tests.rs`); a newcomer sees it stopped.
    let mut w = Client::greeted(&server).await;
    let joined = w.join(&_room, "Oma", "spectator").await;
    assert_eq!(joined["game"]["number"], number, "the deal waits for the reader");
    assert_eq!(joined["room"]["next_deal_in_ms"].as_u64(), Some(frozen), "the countdown stands still");
    // Done reading: the countdown goes on (at least 3 s), then the next deal comes.
    me.send(json!({"type": "reading", "reading": false})).await;
    let resumed = until_event(&mut me, "reading").await;
    assert_eq!(resumed["room"]["next_deal_paused"], false);
    assert!(resumed["room"]["next_deal_in_ms"].as_u64().unwrap() >= 2_500);
    while me.game["number"] == number {
        me.recv_type("update").await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_person_holds_one_seat_and_names_cannot_pass_for_another() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    let mut a = Client::greeted(&server).await;
    let room = a.create("Antje", json!({"players": 4}), json!({})).await;
    let token = a.token();

    // The same browser opens the invitation in a second tab: it gets its own seat back.
    let mut tab = Client::greeted(&server).await;
    tab.send(json!({"type": "join_room", "room": room, "name": "Antje", "token": token})).await;
    let joined = tab.recv_type("joined").await;
    assert_eq!((joined["you"]["seat"].as_u64(), joined["you"]["name"].as_str()), (Some(0), Some("Antje")));
    assert_eq!(joined["room"]["seats"][1]["name"], Value::Null, "no second seat");
    assert_eq!(a.recv_close().await, 4003, "the older tab is replaced");
    // A token that is not of this room is no way in: an ordinary join.
    let mut c = Client::greeted(&server).await;
    c.send(json!({"type": "join_room", "room": room, "name": "antje", "token": "nope"})).await;
    let joined = c.recv_type("joined").await;
    assert_eq!(joined["you"]["seat"], 1);
    assert_eq!(joined["you"]["name"], "antje (2)", "a name in use gets a number");
    let mut w = Client::greeted(&server).await;
    let watching = w.join(&room, "Antje", "spectator").await;
    assert_eq!(watching["you"]["name"], "Antje (3)");

    // Invisible and direction characters are no part of a name; spaces are folded.
    for bad in ["\u{202E}Anna", "An\u{200B}na", "\u{2066}x", "\u{3164}", "   ", "A\u{0}"] {
        let mut c = Client::greeted(&server).await;
        c.send(json!({"type": "join_room", "room": room, "name": bad})).await;
        assert_eq!(c.recv_type("error").await["code"], "name/invalid", "{bad:?}");
    }
    let mut d = Client::greeted(&server).await;
    assert_eq!(d.join(&room, "  Anna   Lena ", "player").await["you"]["name"], "Anna Lena");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rooms_created_are_limited_per_connection_and_per_address() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &["--rooms-per-address", "7"]);
    let mut one = Client::greeted(&server).await;
    let make = async |c: &mut Client| {
        c.send(json!({"type": "create_room", "name": "A"})).await;
        let v = c.recv_type_or_error("joined").await;
        if v["type"] == "joined" {
            c.send(json!({"type": "leave_room"})).await;
            c.recv_type("left").await;
            "ok".to_string()
        } else {
            v["code"].as_str().unwrap().to_string()
        }
    };
    for _ in 0..5 {
        assert_eq!(make(&mut one).await, "ok");
    }
    assert_eq!(make(&mut one).await, "room/too_many", "5 per connection");
    let mut two = Client::greeted(&server).await;
    assert_eq!(make(&mut two).await, "ok");
    assert_eq!(make(&mut two).await, "ok");
    assert_eq!(make(&mut two).await, "room/too_many", "7 per address");
    let mut three = Client::greeted(&server).await;
    assert_eq!(make(&mut three).await, "room/too_many");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn between_deals_a_nudge_is_refused_until_the_pause_has_lasted() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    let options = json!({"bot_delay_ms": 0, "next_deal_seconds": null});
    let (mut a, mut b, _room) = two_people_and_two_bots(&server, options).await;
    // Both play the deal out.
    let mut rng = Rng(11);
    loop {
        b.sync(a.seq).await;
        a.sync(b.seq).await;
        if a.deal()["phase"] == "over" {
            break;
        }
        let mut acted = false;
        for c in [&mut a, &mut b] {
            if c.room["turn"]["seat"] == c.you["seat"]
                && let Some(action) = random_action(c.deal(), &mut rng)
            {
                c.act(&action).await;
                acted = true;
            }
        }
        if !acted {
            a.recv_type("update").await;
        }
    }
    b.send(json!({"type": "next_deal"})).await;
    until_event(&mut a, "next_deal_asked").await;
    assert_eq!(refused(&mut b, json!({"type": "nudge"})).await, "nudge/too_soon");
    assert_eq!(a.game["number"], 1, "still between deals");
    // Who the nudge reminds once the pause has lasted 15 s (only the player not ready, never a
    // bot): on a simulated clock in the room core's tests (`server/src/room/core/timing_tests.rs`).
}
