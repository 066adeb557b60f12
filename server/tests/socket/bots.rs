//! Bots in rooms: a person and three bots play a whole series over WebSockets, with the
//! bidding review after each deal; a bot stands in for a dropped player and gives the seat back
//! between tricks.
#![allow(clippy::unwrap_used)]

use crate::common;

use common::{Client, Rng, Server, check_frames, random_action, temp_db};
use serde_json::{Value, json};

/// Whether a seat's prompt offers anything.
fn may_act(deal: &Value) -> bool {
    deal["prompt"].as_object().is_some_and(|prompt| {
        prompt.values().any(|v| v == &json!(true) || v.as_array().is_some_and(|a| !a.is_empty()) || v.is_u64())
    })
}

/// Reads frames until this client may act, its deal is over, or the series is.
async fn until_my_move(c: &mut Client) {
    while !(c.game["over"] == true || c.deal()["phase"] == "over" || may_act(c.deal())) {
        c.recv().await.expect("the room goes on");
    }
}

/// Reads until the answer to a request without id: the first frame of `kind` or an error.
async fn answer(c: &mut Client, request: Value, kind: &str) -> Value {
    c.send(request).await;
    c.recv_type_or_error(kind).await
}

/// Sends a request and reads until an update with an event of `kind` (returned) or an error.
async fn expect_event(c: &mut Client, request: Value, kind: &str) -> Value {
    c.send(request).await;
    loop {
        let v = c.recv_type_or_error("update").await;
        if v["type"] == "error" || v["events"].as_array().unwrap().iter().any(|e| e["kind"] == kind) {
            return v;
        }
    }
}

/// The first event of `kind` in an update.
fn event<'a>(update: &'a Value, kind: &str) -> &'a Value {
    update["events"].as_array().unwrap().iter().find(|e| e["kind"] == kind).unwrap_or(&Value::Null)
}

async fn refused(c: &mut Client, request: Value) -> String {
    let v = answer(c, request, "error").await;
    v["code"].as_str().unwrap_or_default().to_string()
}

/// Every game event of the bots (seats other than 0) in these frames: calls and cards.
fn bot_moves(frames: &[String]) -> usize {
    frames
        .iter()
        .filter_map(|f| serde_json::from_str::<Value>(f).ok())
        .filter(|v| v["type"] == "update")
        .flat_map(|v| v["events"].as_array().cloned().unwrap_or_default())
        .filter(|e| {
            e["kind"] == "game" && ["called", "card_played"].contains(&e["event"]["event"].as_str().unwrap_or(""))
        })
        .filter(|e| e["event"]["seat"] != json!(0))
        .count()
}

/// Checks a review of seat 0's hand against the finished deal it reviews.
fn check_review(review: &Value, deal: &Value) {
    assert_eq!(review["seat"], 0, "{review}");
    assert_eq!(review["dealt"], deal["reveal"]["dealt"][0], "the review is of the hand seat 0 was dealt");
    let estimates = review["estimates"].as_array().expect("estimates");
    assert!(!estimates.is_empty(), "every hand has games to estimate: {review}");
    for e in estimates {
        let win = e["win"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&win), "a chance is a probability: {e}");
        assert!(e["score"].is_number(), "{e}");
    }
    let my_calls = deal["calls"].as_array().unwrap().iter().filter(|c| c["seat"] == 0).count();
    assert_eq!(review["calls"].as_array().unwrap().len(), my_calls, "one line per call made: {review}");
    for c in review["calls"].as_array().unwrap() {
        assert!(c["best_score"].as_f64().unwrap() >= c["score"].as_f64().unwrap() - 1e-9, "best is best: {c}");
    }
    if deal["declarer"] == 0 {
        let mine: Vec<Value> = deal["tricks"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|t| t["cards"].as_array().cloned().unwrap_or_default())
            .filter(|p| p["seat"] == 0)
            .map(|p| p["card"].clone())
            .collect();
        let reviewed = review["play"].as_array().map_or(0, Vec::len);
        assert!(reviewed <= mine.len(), "only cards he played are reviewed: {review}");
        for p in review["play"].as_array().into_iter().flatten() {
            assert!(mine.contains(&p["played"]), "{p} was played by the declarer");
        }
    } else {
        assert!(review["play"].is_null(), "only a declarer's play is reviewed: {review}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_person_and_three_bots_play_a_whole_series() {
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db, &[]);
    let mut me = Client::greeted(&server).await;
    let rules = json!({"players": 4, "deals": 3});
    let room = me.create("Antje", rules, json!({"bot_delay_ms": 0, "next_deal_seconds": null})).await;
    let mut watcher = Client::greeted(&server).await;
    assert_eq!(watcher.join(&room, "Oma Grete", "spectator").await["type"], "joined");

    for (seat, level) in [(1, "easy"), (2, "normal"), (3, "strong")] {
        let up = expect_event(&mut me, json!({"type": "add_bot", "seat": seat, "level": level}), "bot_added").await;
        assert_eq!(up["type"], "update", "{up}");
        assert_eq!(event(&up, "bot_added")["level"], level);
        assert_eq!(event(&up, "bot_added")["seat"], seat);
        let info = &up["room"]["seats"][seat];
        assert_eq!((info["bot"].as_str(), info["connected"].as_bool()), (Some(level), Some(true)), "{info}");
    }
    assert_eq!(refused(&mut me, json!({"type": "add_bot", "seat": 2, "level": "easy"})).await, "seat/taken");
    assert_eq!(refused(&mut me, json!({"type": "remove_bot", "seat": 0})).await, "bot/not_a_bot");
    assert_eq!(refused(&mut me, json!({"type": "add_bot", "seat": 7, "level": "easy"})).await, "seat/invalid");
    assert_eq!(refused(&mut me, json!({"type": "review"})).await, "review/unavailable");
    assert_eq!(refused(&mut watcher, json!({"type": "add_bot", "seat": 1, "level": "easy"})).await, "room/not_host");

    me.send(json!({"type": "start"})).await;
    while me.game.is_null() {
        me.recv_type("update").await;
    }
    assert_eq!(refused(&mut me, json!({"type": "remove_bot", "seat": 1})).await, "bot/mid_deal");

    let mut rng = Rng(5);
    let (mut my_actions, mut reviews) = (0, 0);
    loop {
        until_my_move(&mut me).await;
        let number = me.game["number"].as_u64().unwrap();
        if me.deal()["phase"] == "over" {
            let review = answer(&mut me, json!({"type": "review"}), "review").await;
            assert_eq!(review["type"], "review", "{review}");
            assert_eq!(review["deal"], number);
            check_review(&review["review"], me.deal());
            reviews += 1;
            if me.game["over"] == true {
                break;
            }
            if number == 1 {
                // Between deals the host swaps a bot: the next deal waits for the empty seat.
                let up = expect_event(&mut me, json!({"type": "remove_bot", "seat": 3}), "bot_removed").await;
                assert_eq!(up["type"], "update", "{up}");
                let asked = expect_event(&mut me, json!({"type": "next_deal"}), "next_deal_asked").await;
                assert_eq!(asked["room"]["status"], "between_deals", "no deal with an empty seat");
                me.send(json!({"type": "add_bot", "seat": 3, "level": "strong"})).await;
            } else {
                me.send(json!({"type": "next_deal"})).await;
            }
            while me.game["number"].as_u64() == Some(number) {
                me.recv_type("update").await;
            }
            continue;
        }
        let action = random_action(me.deal(), &mut rng).expect("a prompt offers an action");
        let answer = me.act(&action).await;
        if answer["type"] == "error" {
            // A bot's out-of-turn Siebener Fips may have come first.
            assert_eq!(answer["code"], "action/stale", "{action}: {answer}");
            continue;
        }
        my_actions += 1;
    }
    assert_eq!(me.game["counted"], 3, "{}", me.game);
    assert!(reviews >= 3, "a review after every deal");
    assert!(my_actions > 0);
    let bots = bot_moves(&me.frames);
    assert!(bots >= 3 * 3, "the bots called and played: {bots} moves");
    let rows = me.game["scoresheet"].as_array().unwrap();
    assert!(rows.len() >= 3, "a row per deal: {}", me.game);
    assert_eq!(rows.last().unwrap()["totals"], me.game["totals"], "the last row carries the totals");

    // Nobody was shown a card he may not see (the review answers are about finished deals).
    watcher.sync(me.seq).await;
    let mine: Vec<String> = me.frames.iter().filter(|f| !f.contains("\"type\":\"review\"")).cloned().collect();
    assert!(check_frames(Some(0), &mine, &watcher.frames) > 0);
    assert!(check_frames(None, &watcher.frames, &watcher.frames) > 0);

    // A review asked for just before leaving never follows `left`.
    me.send(json!({"type": "review"})).await;
    me.send(json!({"type": "leave_room"})).await;
    me.recv_type("left").await;
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    me.send(json!({"type": "ping"})).await;
    let next = me.recv().await.unwrap();
    assert_eq!(next["type"], "pong", "nothing of the room after `left`: {next}");

    // The bots' moves are stored like anyone's: after a crash the series is the same.
    let token = me.token();
    let before = me.game.clone();
    server.kill();
    let server = Server::start(&db, &[]);
    let mut back = Client::greeted(&server).await;
    back.send(json!({"type": "resume", "room": room, "token": token})).await;
    let joined = back.recv_type("joined").await;
    assert_eq!(joined["game"]["scoresheet"], before["scoresheet"]);
    assert_eq!(joined["game"]["totals"], before["totals"]);
    assert_eq!(joined["room"]["seats"][3]["bot"], "strong");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_stands_in_for_a_dropped_player_and_gives_the_seat_back_between_tricks() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    let mut a = Client::greeted(&server).await;
    let options = json!({"grace_seconds": 0, "bot_takeover": "normal", "bot_delay_ms": 0, "next_deal_seconds": 0});
    let room = a.create("Antje", json!({"players": 4}), options).await;
    let mut b = Client::greeted(&server).await;
    assert_eq!(b.join(&room, "Hinnerk", "player").await["you"]["seat"], 1);
    for seat in [2, 3] {
        expect_event(&mut a, json!({"type": "add_bot", "seat": seat, "level": "normal"}), "bot_added").await;
    }
    a.send(json!({"type": "start"})).await;
    while a.game.is_null() {
        a.recv_type("update").await;
    }

    // Hinnerk's connection drops; past the grace period a bot plays for him.
    let token = b.token();
    b.close().await;
    while a.room["seats"][1]["stand_in"] != "normal" {
        a.recv_type("update").await;
    }
    assert!(a.frames.iter().any(|f| f.contains("\"kind\":\"stand_in\"")), "the table was told");

    // Antje plays on (the bot answers for seat 1) until a trick is under way and waits for her.
    let mut rng = Rng(21);
    loop {
        until_my_move(&mut a).await;
        let trick = a.deal()["trick"].as_array().map_or(0, Vec::len);
        let seat_1_played = a.deal()["trick"].as_array().into_iter().flatten().any(|p| p["seat"] == 1);
        if a.deal()["phase"] == "play" && trick > 0 && a.deal()["turn"] == 0 && !seat_1_played {
            // Seat 1 plays right after Antje in this trick: the bot will, for him.
            break;
        }
        if a.deal()["phase"] == "over" {
            a.recv_type("update").await;
            continue;
        }
        let action = random_action(a.deal(), &mut rng).unwrap();
        let answer = a.act(&action).await;
        assert!(answer["type"] == "ack" || answer["code"] == "action/stale", "{answer}");
    }
    assert!(bot_moves(&a.frames) > 0);

    // He comes back mid-trick: the bot finishes the trick; his own move is refused till then.
    let mut b = Client::greeted(&server).await;
    b.send(json!({"type": "resume", "room": room, "token": token})).await;
    let joined = b.recv_type("joined").await;
    assert_eq!(joined["room"]["seats"][1]["stand_in"], "normal", "mid-trick the bot keeps the seat");
    let card = b.deal()["hand"][0].clone();
    let refused = b.act(&json!({"action": "play", "card": card})).await;
    assert_eq!(refused["code"], "bot/standing_in", "{refused}");

    let action = random_action(a.deal(), &mut rng).unwrap();
    assert_eq!(a.act(&action).await["type"], "ack");
    let mut his_turn_seen = false;
    let handed_back = loop {
        let v = b.recv_type("update").await;
        if v["events"].as_array().unwrap().iter().any(|e| e["kind"] == "stand_in_ended" && e["seat"] == 1) {
            break v;
        }
        if v["game"]["deal"]["turn"] == 1 {
            // His turn while the bot stands in: his view offers him nothing.
            his_turn_seen = true;
            assert!(!may_act(&v["game"]["deal"]), "no prompt while the bot plays for him: {v}");
        }
    };
    assert!(his_turn_seen, "the bot played seat 1's card in the trick");
    assert!(handed_back["room"]["seats"][1]["stand_in"].is_null());
    let deal = &handed_back["game"]["deal"];
    assert!(deal["phase"] != "play" || deal["trick"].as_array().unwrap().is_empty(), "between tricks: {deal}");

    // From now on he plays himself.
    let mut his_moves = 0;
    while his_moves < 3 {
        a.sync(b.seq).await;
        b.sync(a.seq).await;
        if may_act(b.deal()) {
            let action = random_action(b.deal(), &mut rng).unwrap();
            let answer = b.act(&action).await;
            assert!(answer["type"] == "ack" || answer["code"] == "action/stale", "{answer}");
            his_moves += usize::from(answer["type"] == "ack");
        } else if may_act(a.deal()) {
            let action = random_action(a.deal(), &mut rng).unwrap();
            let answer = a.act(&action).await;
            assert!(answer["type"] == "ack" || answer["code"] == "action/stale", "{answer}");
        } else {
            // Bots are moving, or the next deal is coming.
            b.recv().await.expect("the room goes on");
        }
        assert!(b.room["seats"][1]["stand_in"].is_null(), "the bot does not come back while he is here");
    }
}

/// Two people play on (bots play the other seats) until the current deal is over.
async fn play_out_the_deal(a: &mut Client, b: &mut Client, rng: &mut Rng) {
    loop {
        a.sync(b.seq).await;
        b.sync(a.seq).await;
        if a.deal()["phase"] == "over" {
            return;
        }
        let mover = if may_act(a.deal()) {
            &mut *a
        } else if may_act(b.deal()) {
            &mut *b
        } else {
            // A bot is thinking.
            a.recv().await.expect("the room goes on");
            continue;
        };
        let action = random_action(mover.deal(), rng).unwrap();
        let answer = mover.act(&action).await;
        assert!(answer["type"] == "ack" || answer["code"] == "action/stale", "{answer}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_who_comes_takes_a_bots_seat_before_the_series_or_between_deals() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    let mut a = Client::greeted(&server).await;
    let room = a.create("Antje", json!({"players": 3}), json!({"bot_delay_ms": 0, "next_deal_seconds": null})).await;
    for seat in [1, 2] {
        expect_event(&mut a, json!({"type": "add_bot", "seat": seat, "level": "easy"}), "bot_added").await;
    }

    // Before the series: a newcomer takes the first bot's seat.
    let mut b = Client::greeted(&server).await;
    let joined = b.join(&room, "Hinnerk", "player").await;
    assert_eq!(joined["you"]["seat"], 1, "{joined}");
    assert!(joined["room"]["seats"][1]["bot"].is_null());
    let update = a.recv_type("update").await;
    let kinds: Vec<&str> = update["events"].as_array().unwrap().iter().map(|e| e["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["bot_removed", "seated"], "{update}");
    assert_eq!(update["room"]["seats"][2]["bot"], "easy", "the other bot stays");

    // During a deal bots keep their seats.
    a.send(json!({"type": "start"})).await;
    while a.game.is_null() {
        a.recv_type("update").await;
    }
    let mut late = Client::greeted(&server).await;
    assert_eq!(late.join(&room, "Fiete", "player").await["code"], "room/started");

    // Between deals the next newcomer takes the remaining bot's seat, and plays from there.
    let mut rng = Rng(8);
    play_out_the_deal(&mut a, &mut b, &mut rng).await;
    let mut c = Client::greeted(&server).await;
    let joined = c.join(&room, "Fiete", "player").await;
    assert_eq!(joined["you"]["seat"], 2, "{joined}");
    assert!(joined["room"]["seats"].as_array().unwrap().iter().all(|s| s["bot"].is_null()), "{joined}");
    for client in [&mut a, &mut b, &mut c] {
        client.send(json!({"type": "next_deal"})).await;
    }
    let number = joined["game"]["number"].as_u64().unwrap();
    while c.game["number"].as_u64() == Some(number) {
        c.recv_type("update").await;
    }
    assert_eq!(c.deal()["hand"].as_array().map(Vec::len), Some(5), "Fiete was dealt a hand");
}
