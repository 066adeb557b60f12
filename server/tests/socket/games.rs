//! Every game of the platform over real sockets: a series with four people and a spectator,
//! every frame scanned for hidden cards and every deal replayed by the rules crate; and a room
//! of bots only, watched by its host, playing deals of each game.

use crate::common;

use common::{Client, Rng, Server, Table, check_frames, short_rules as rules, temp_db};
use fipsen_rules::{GameId, GameRules};
use serde_json::{Value, json};

/// The scoresheet's rows of deals (Thedinghausen adds a row per finished round).
fn deal_rows(sheet: &[Value]) -> Vec<&Value> {
    sheet.iter().filter(|row| row["row"] != "round").collect()
}

/// The number of seats a table of `rules` has.
fn seats_of(rules: &Value) -> usize {
    serde_json::from_value::<GameRules>(rules.clone()).expect("rules of a game").seats()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_plays_a_series_with_a_full_table_and_a_spectator_and_no_frame_shows_a_hidden_card() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    for (i, &game) in GameId::ALL.iter().enumerate() {
        let mut table = Table::open(&server, rules(game, 3), json!({"next_deal_seconds": 0}), 1).await;
        assert_eq!(table.seats[0].room["rules"]["game"], game.code());
        assert_eq!(table.seats[0].game["game"], game.code(), "every view names its game");
        let mut rng = Rng(40 + i as u64);
        let actions = table.play_series(&mut rng, false).await;
        let view = table.seats[0].game.clone();
        assert_eq!(view["over"], true, "{game:?}");
        let sheet = view["scoresheet"].as_array().unwrap();
        let deals = deal_rows(sheet);
        if game == GameId::Thedinghausen {
            // One round: deals until a player reaches ten tricks, then the round's row.
            let last = sheet.last().unwrap();
            assert_eq!(last["row"], "round", "the round's row ends the sheet");
            assert_eq!(view["totals"], last["balances"], "totals are the round's balances");
            let counts = deals.last().expect("a deal was played")["counts"].as_array().unwrap();
            assert!(counts.iter().any(|c| c.as_u64().unwrap() >= 10), "the round ends at ten: {last}");
        } else {
            let counted = deals.iter().filter(|row| row["outcome"]["result"] != "thrown_in").count();
            // Wippen plays a set: one game dealt by each of the four players.
            let expected = if game == GameId::Wippen { 4 } else { 3 };
            assert_eq!(counted, expected, "{game:?}: counted deals");
            // The last row's running totals (Tippen calls them balances).
            let last = sheet.last().unwrap();
            let totals = if last.get("balances").is_some() { &last["balances"] } else { &last["totals"] };
            assert_eq!(&view["totals"], totals, "{game:?}: totals are the last row's");
        }
        assert_eq!(table.deals_replayed, deals.len(), "{game:?}: every deal replayed by the rules crate");
        let spectator = table.spectators[0].frames.clone();
        let mut frames = 0;
        for (seat, client) in table.seats.iter().enumerate() {
            assert_eq!(client.game["scoresheet"], view["scoresheet"]);
            frames += check_frames(Some(seat as u8), &client.frames, &spectator);
        }
        frames += check_frames(None, &spectator, &spectator);
        assert!(frames > actions, "{game:?}: {frames} frames checked for {actions} actions");
        for client in table.seats.into_iter().chain(table.spectators) {
            client.close().await;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_action_of_another_shape_is_refused_naming_the_game_and_changes_nothing() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    let mut table = Table::open(&server, rules(GameId::Grossenaspe, 1), json!({}), 0).await;
    let turn = table.view()["turn"].as_u64().unwrap() as usize;
    let seq = table.seats[turn].seq;
    // Prisdorf's "take the skat" is no action of Großenaspe: another game's.
    let refused = table.seats[turn].act(&json!({"action": "take_skat"})).await;
    assert_eq!(refused["type"], "error");
    assert_eq!(refused["code"], "action/wrong_game");
    assert!(refused["message"].as_str().unwrap().contains("Großenaspe"), "{refused}");
    // No game's at all: malformed.
    let refused = table.seats[turn].act(&json!({"action": "teleport"})).await;
    assert_eq!(refused["code"], "proto/malformed");
    assert!(refused["message"].as_str().unwrap().contains("Großenaspe"), "{refused}");
    let answer = table.seats[turn].act(&json!({"action": "pass"})).await;
    assert_eq!(answer["type"], "ack", "the table goes on: {answer}");
    assert!(answer["seq"].as_u64().unwrap() > seq);
    let unknown = {
        let mut c = Client::greeted(&server).await;
        c.send(json!({"type": "create_room", "name": "X", "rules": {"game": "skat"}})).await;
        c.recv_type("error").await
    };
    assert_eq!(unknown["code"], "rules/invalid");
    assert!(unknown["message"].as_str().unwrap().contains("unknown game `skat`"), "{unknown}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_of_bots_watched_by_its_host_plays_deals_of_every_game() {
    let (_dir, db) = temp_db();
    let (server, log) = Server::start_logged(&db, &[]);
    for &game in GameId::ALL {
        let mut host = Client::greeted(&server).await;
        let options = json!({"next_deal_seconds": 0, "bot_delay_ms": 0});
        let mut rules = rules(game, 3);
        if rules.get("rounds").is_some() {
            // Two rounds: a won fipsen may end a round in one deal.
            rules["rounds"] = 2.into();
        }
        let seats = seats_of(&rules);
        let room = host.create("Host", rules, options).await;
        // The host stands up and watches: every seat is a bot's.
        host.send(json!({"type": "leave_seat"})).await;
        host.recv_type("update").await;
        for seat in 0..seats {
            let level = ["easy", "normal", "strong"][seat % 3];
            host.send(json!({"type": "add_bot", "seat": seat, "level": level})).await;
            host.recv_type("update").await;
        }
        host.send(json!({"type": "start"})).await;
        let mut deals_over = 0;
        for _ in 0..20_000 {
            let frame = host.recv_type("update").await;
            if frame["game"]["over"] == true {
                break;
            }
            deals_over = frame["game"]["scoresheet"].as_array().map_or(0, Vec::len);
        }
        let view = host.game.clone();
        assert_eq!(view["game"], game.code());
        assert_eq!(view["over"], true, "{game:?}: the bots finished the series in {room}");
        // Three deals, or two rounds of at least one deal each in a game that counts rounds.
        let least = if game == GameId::Thedinghausen { 2 } else { 3 };
        assert!(deal_rows(view["scoresheet"].as_array().unwrap()).len() >= least, "{game:?}: {deals_over} deals");
        // Every move was a bot's own choice, never the server's fallback to a first legal move.
        assert_eq!(log.count_containing("a bot chose no legal action"), 0, "{game:?}");
        host.close().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_every_game_a_bot_stands_in_for_a_player_who_is_gone_and_the_series_goes_on() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    for &game in GameId::ALL {
        let mut host = Client::greeted(&server).await;
        let options = json!({"next_deal_seconds": 0, "bot_delay_ms": 0, "grace_seconds": 0, "bot_takeover": "easy"});
        let rules = rules(game, 2);
        let seats = seats_of(&rules);
        let room = host.create("Host", rules, options).await;
        for seat in 1..seats {
            host.send(json!({"type": "add_bot", "seat": seat, "level": "normal"})).await;
            host.recv_type("update").await;
        }
        let mut watcher = Client::greeted(&server).await;
        assert_eq!(watcher.join(&room, "Oma", "spectator").await["type"], "joined");
        host.send(json!({"type": "start"})).await;
        host.recv_type("update").await;
        // The host is gone: with no grace, a bot plays his seat.
        host.close().await;
        let mut stood_in = false;
        for _ in 0..20_000 {
            let frame = watcher.recv_type("update").await;
            stood_in |= frame.to_string().contains(r#""kind":"stand_in""#);
            if frame["game"]["over"] == true {
                break;
            }
        }
        assert!(stood_in, "{game:?}: a stand-in was announced");
        assert_eq!(watcher.game["game"], game.code());
        assert_eq!(watcher.game["over"], true, "{game:?}: the series went on to its end");
        watcher.close().await;
    }
}
