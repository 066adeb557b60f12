//! What one client can make a room cost, and what the room answers when it is asked wrongly:
//! bots that play only for those watching keep a pace shared by the address watching them; a
//! refused rule set costs nothing of the rooms an address may create; `joined` carries at most
//! 16 KiB of chat as sent; a mistake about the game gets the game's kind of error code.
#![allow(clippy::unwrap_used)]

use crate::common;

use std::time::{Duration, Instant};

use common::{Client, Server, temp_db};
use serde_json::{Value, json};

/// The server's count of game actions accepted (by people and bots).
async fn actions(server: &Server) -> u64 {
    let (_, body) = server.get("/metrics").await;
    body.lines().find_map(|l| l.strip_prefix("fipsen_actions_total ")).and_then(|v| v.trim().parse().ok()).unwrap_or(0)
}

/// A room of `seats` bots with no pause of their own, started, watched by its creator (who
/// gave his seat to a bot).
async fn room_of_bots(server: &Server, rules: Value) -> Client {
    let mut me = Client::greeted(server).await;
    let seats = rules["players"].as_u64().unwrap();
    me.create("Antje", rules, json!({"bot_delay_ms": 0, "next_deal_seconds": 0})).await;
    me.send(json!({"type": "leave_seat"})).await;
    for seat in 0..seats {
        me.send(json!({"type": "add_bot", "seat": seat, "level": "easy"})).await;
    }
    me.send(json!({"type": "start"})).await;
    while me.game.is_null() {
        let frame = me.recv().await.unwrap();
        assert_ne!(frame["type"], "error", "{frame}");
    }
    me
}

/// Rooms of bots only, with no pause of their own, watched from one address: between them
/// their bots make the moves a second that `--watched-bots-rate` allows (the default, 20, here
/// 10), not as many as the server can (hundreds).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_playing_for_their_watchers_only_keep_a_pace_per_address() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &["--watched-bots-rate", "10"]);
    let mut watchers = Vec::new();
    for _ in 0..3 {
        watchers.push(room_of_bots(&server, json!({"game": "prisdorf", "players": 4})).await);
    }
    let before = actions(&server).await;
    let start = Instant::now();
    // The watchers read what comes (so that none of them is dropped as too slow).
    let watch = async {
        loop {
            for w in &mut watchers {
                if let Ok(frame) = tokio::time::timeout(Duration::from_millis(20), w.recv()).await {
                    assert!(frame.is_some(), "a watcher was closed ({:?})", w.closed);
                }
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(3), watch).await;
    let moves = actions(&server).await - before;
    let seconds = start.elapsed().as_secs_f64();
    // Ten a second from one address, and one each room may have had planned already.
    let most = (seconds * 10.0).ceil() as u64 + 3;
    assert!(moves <= most, "{moves} bot moves in {seconds:.1} s from three rooms watched from one address");
    assert!(moves >= 5, "the bots play on ({moves} moves in {seconds:.1} s)");
}

/// `create_room` with rules or options that are refused does not count against the rooms this
/// connection or address may create.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refused_rule_sets_leave_the_rooms_allowance_untouched() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &["--rooms-per-address", "2"]);
    let mut c = Client::greeted(&server).await;
    for (rules, options, code) in [
        (json!({"players": 4}), json!({"grace_seconds": 100_000}), "options/invalid"),
        (json!({"players": 4, "min_bid": 4}), json!({}), "rules/invalid"),
        (json!({"game": "tippen", "players": 11}), json!({}), "rules/invalid"),
        (json!({"game": "duttfips", "players": 4}), json!({}), "rules/invalid"),
    ] {
        for _ in 0..3 {
            c.send(json!({"type": "create_room", "name": "Antje", "rules": rules, "options": options})).await;
            let refused = c.recv_type("error").await;
            assert_eq!(refused["code"], code, "{refused}");
        }
    }
    // Twelve refusals later, this connection and its address still have their two rooms.
    c.create("Antje", json!({"players": 4}), json!({})).await;
    let mut d = Client::greeted(&server).await;
    d.create("Hinnerk", json!({"players": 4}), json!({})).await;
    let mut e = Client::greeted(&server).await;
    e.send(json!({"type": "create_room", "name": "Fiete", "rules": {"players": 4}})).await;
    assert_eq!(e.recv_type("error").await["code"], "room/too_many", "the allowance still counts rooms made");
}

/// Tournaments count against the same allowance, and a refused one costs nothing of it either.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refused_tournaments_leave_the_allowance_untouched() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &["--rooms-per-address", "1"]);
    let mut c = Client::greeted(&server).await;
    let settings = json!({
        "name": "Herbst", "game": "prisdorf",
        "tables": [{"seats": 4, "deals": 2, "rules": {"game": "prisdorf", "players": 4, "deals": 2}}],
        "max_short_tables": 0, "rounds": 1, "reseating": "random", "duplicate": false,
        "listed": false, "organiser_plays": false
    });
    let mut no_rounds = settings.clone();
    no_rounds["rounds"] = json!(0);
    for (name, settings, code) in
        [("Olli", &no_rounds, "tournament/invalid_settings"), ("  ", &settings, "name/invalid")]
    {
        for _ in 0..3 {
            c.send(json!({"type": "create_tournament", "name": name, "settings": settings})).await;
            let refused = c.recv_type("error").await;
            assert_eq!(refused["code"], code, "{refused}");
        }
    }
    // Six refusals later the address still has its one tournament, and then none.
    c.send(json!({"type": "create_tournament", "name": "Olli", "settings": settings})).await;
    let created = c.recv_type_or_error("tournament_created").await;
    assert_eq!(created["type"], "tournament_created", "{created}");
    let mut d = Client::greeted(&server).await;
    d.send(json!({"type": "create_tournament", "name": "Olli", "settings": settings})).await;
    assert_eq!(d.recv_type("error").await["code"], "tournament/too_many", "the allowance still counts tournaments");
}

/// Fifty chat lines of 300 quotation marks (600 bytes each once escaped): `joined` carries the
/// newest of them that fit in 16 KiB as sent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn joined_carries_at_most_16_kib_of_chat_as_sent() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    let mut host = Client::greeted(&server).await;
    let room = host.create("Antje", json!({"players": 4}), json!({})).await;
    let quotes = "\"".repeat(300);
    let mut last = String::new();
    for i in 0..10 {
        let mut talker = Client::greeted(&server).await;
        let joined = talker.join(&room, &format!("Gast {i}"), "spectator").await;
        assert_eq!(joined["type"], "joined", "{joined}");
        for j in 0..5 {
            last = format!("{i}{j}{quotes}");
            last.truncate(300);
            talker.send(json!({"type": "chat", "text": last})).await;
            let update = talker.recv_type_or_error("update").await;
            assert_eq!(update["type"], "update", "{update}");
        }
    }
    let mut newcomer = Client::greeted(&server).await;
    let joined = newcomer.join(&room, "Oma", "spectator").await;
    let chat = joined["chat"].as_array().unwrap();
    let sent = serde_json::to_string(&joined["chat"]).unwrap().len();
    assert!(sent <= 16 * 1024, "{} chat lines, {sent} bytes as sent", chat.len());
    assert!(chat.len() >= 20, "as many of the newest lines as fit: {}", chat.len());
    assert_eq!(chat.last().unwrap()["text"], last, "the newest line is there");
}

/// A discard that names a card twice, another game's action and another game's rule option are
/// mistakes about the game, answered with its error codes (not `proto/malformed`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mistakes_about_the_game_get_the_games_error_codes() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    let mut me = Client::greeted(&server).await;
    me.send(json!({"type": "create_room", "name": "Antje", "rules": {"game": "duttfips", "players": 4}})).await;
    let refused = me.recv_type("error").await;
    assert_eq!(refused["code"], "rules/invalid", "{refused}");
    assert!(refused["message"].as_str().unwrap().contains("players"), "{refused}");

    me.create("Antje", json!({"game": "duttfips"}), json!({"bot_delay_ms": 0})).await;
    for seat in 1..4 {
        me.send(json!({"type": "add_bot", "seat": seat, "level": "easy"})).await;
    }
    me.send(json!({"type": "start"})).await;
    while me.game.is_null() {
        me.recv_type("update").await;
    }
    let fold = me.act(&json!({"action": "fold"})).await;
    assert_eq!(fold["code"], "action/wrong_game", "{fold}");
    let twice = me.act(&json!({"action": "discard", "cards": ["H7", "H7", "H8", "H9", "H10"]})).await;
    assert_eq!(twice["code"], "card/named_twice", "{twice}");
    let nonsense = me.act(&json!({"action": "dance"})).await;
    assert_eq!(nonsense["code"], "proto/malformed", "{nonsense}");
}

/// Playing again opens a room, and counts against the rooms an address may open as creating one
/// does: a host whose address has used its allowance is refused with `room/too_many`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn playing_again_counts_against_the_rooms_an_address_may_open() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &["--rooms-per-address", "1"]);
    let options = json!({"bot_delay_ms": 0, "next_deal_seconds": 0});
    let mut table =
        common::Table::open(&server, common::short_rules(fipsen_rules::GameId::Prisdorf, 1), options, 0).await;
    table.play_series(&mut common::Rng(7), false).await;
    table.seats[0].send(json!({"type": "rematch"})).await;
    let refused = table.seats[0].recv_type_or_error("error").await;
    assert_eq!(refused["code"], "room/too_many", "{refused}");
}
