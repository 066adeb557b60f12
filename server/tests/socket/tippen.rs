//! Tippen / Dreiblatt over real sockets, in every preset and at every table size from two to
//! ten: people and a spectator play series with the preset's options, every frame is scanned
//! for cards its viewer may not see and every deal is replayed by the rules crate; rooms of
//! bots only finish several deals of each preset.

use crate::common;

use common::{Client, Rng, Server, Table, check_frames, temp_db};
use serde_json::{Value, json};

/// A table of each preset with the options it offers, from two seats to ten.
fn tables() -> Vec<Value> {
    vec![
        json!({"game": "tippen", "preset": "drei_karten_1821", "players": 3, "max_bete": 6, "deals": 5}),
        json!({"game": "tippen", "preset": "loup_1821", "players": 5, "deals": 3}),
        json!({"game": "tippen", "preset": "dreiblatt_1859", "players": 2, "robbing": true, "deals": 5}),
        json!({"game": "tippen", "preset": "dreiblatt_1859", "players": 4, "robbing": true, "sniffing": "alvensleben",
               "hop_and_jump": true, "max_bete": 9, "deals": 6}),
        json!({"game": "tippen", "preset": "dreiblatt_1859", "players": 10, "robbing": true, "daus_card": "two", "deals": 3}),
        json!({"game": "tippen", "preset": "meyers_1905", "players": 7, "deals": 3}),
        json!({"game": "tippen", "preset": "modern_grupp", "players": 6, "shoving": true, "knocking": true,
               "sniffing": "grupp", "deals": 6}),
        json!({"game": "tippen", "preset": "modern_katira", "players": 4, "tipp_zwang": true, "knocking": true,
               "shoving": true, "deals": 6}),
        json!({"game": "tippen", "preset": "vierblatt", "players": 8, "exchange_max": 4, "daus_card": "two", "deals": 3}),
    ]
}

/// The master seed of the test's rooms, fixed so that the moves the test looks for come up on
/// every run (with random deals a rare kind of move may not).
const PLAYED_SEED: &str = "5b1d0c3e7a9f2468ace013579bdf2468ace013579bdf2468ace013579bdf2468";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_preset_plays_over_sockets_with_a_spectator_and_no_frame_shows_a_hidden_card() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &["--insecure-fixed-seed", PLAYED_SEED]);
    let mut kinds = std::collections::BTreeSet::new();
    for (i, rules) in tables().into_iter().enumerate() {
        let players = rules["players"].as_u64().unwrap() as usize;
        let mut table = Table::open(&server, rules.clone(), json!({"next_deal_seconds": 0}), 1).await;
        assert_eq!(table.seats.len(), players, "{rules}");
        assert_eq!(table.seats[0].room["seats"].as_array().unwrap().len(), players);
        let mut rng = Rng(70 + i as u64);
        let actions = table.play_series(&mut rng, false).await;
        let view = table.seats[0].game.clone();
        assert_eq!(view["over"], true, "{rules}");
        let sheet = view["scoresheet"].as_array().unwrap();
        assert_eq!(sheet.len() as u64, rules["deals"].as_u64().unwrap(), "one row per deal dealt: {rules}");
        assert_eq!(table.deals_replayed, sheet.len(), "every deal replayed by the rules crate: {rules}");
        // Play money that stays on the table: balances, pot and reserve sum to zero.
        let balances: i64 = view["totals"].as_array().unwrap().iter().map(|b| b.as_i64().unwrap()).sum();
        assert_eq!(balances + view["pot"].as_i64().unwrap() + view["reserve"].as_i64().unwrap(), 0, "{view}");
        let spectator = table.spectators[0].frames.clone();
        for frame in &spectator {
            let v: Value = serde_json::from_str(frame).unwrap();
            for e in v["events"].as_array().into_iter().flatten() {
                if let Some(kind) = e["event"]["event"].as_str() {
                    kinds.insert(kind.to_string());
                }
            }
        }
        let mut frames = 0;
        for (seat, client) in table.seats.iter().enumerate() {
            frames += check_frames(Some(seat as u8), &client.frames, &spectator);
        }
        frames += check_frames(None, &spectator, &spectator);
        assert!(frames > actions, "{rules}: {frames} frames checked for {actions} actions");
        for client in table.seats.into_iter().chain(table.spectators) {
            client.close().await;
        }
    }
    // The options were exercised, not only offered.
    for kind in ["shoved", "knocked", "sniffed", "discarded", "robbed", "exchanged", "bottom_card", "first_dealer"] {
        assert!(kinds.contains(kind), "no `{kind}` event in any series: {kinds:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_of_bots_finishes_several_deals_of_every_preset() {
    let (_dir, db) = temp_db();
    let (server, log) = Server::start_logged(&db, &[]);
    for rules in tables() {
        let players = rules["players"].as_u64().unwrap() as usize;
        let mut host = Client::greeted(&server).await;
        let options = json!({"next_deal_seconds": 0, "bot_delay_ms": 0});
        let room = host.create("Host", rules.clone(), options).await;
        host.send(json!({"type": "leave_seat"})).await;
        host.recv_type("update").await;
        for seat in 0..players {
            let level = ["easy", "normal", "strong"][seat % 3];
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
        assert_eq!(view["game"], "tippen");
        assert_eq!(view["over"], true, "the bots finished the series in {room}: {rules}");
        assert_eq!(view["scoresheet"].as_array().unwrap().len() as u64, rules["deals"].as_u64().unwrap());
        assert_eq!(log.count_containing("a bot chose no legal action"), 0, "{rules}");
        host.close().await;
    }
}

/// Every card in a view's trick was played in this deal, and a card held is never in it: at a
/// ten-seat Vierblatt table with the exchange, from the first deal's exchange to the play, in
/// every seat's state and a spectator's (the first dealer is found by cards turned face up,
/// which are no trick); also in the snapshots of a seat that comes back on a new socket during
/// the exchange (equal to the state its patches had built) and of a spectator who comes in then.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ten_seat_vierblatt_trick_holds_only_cards_played_in_the_deal() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &["--insecure-fixed-seed", PLAYED_SEED]);
    let rules = json!({"game": "tippen", "preset": "vierblatt", "players": 10, "exchange_max": 4, "deals": 2});
    let mut table = Table::open(&server, rules.clone(), json!({"next_deal_seconds": 0}), 1).await;
    let tokens: Vec<String> = table.seats.iter().map(Client::token).collect();
    let mut rng = Rng(24);
    let mut phases = std::collections::BTreeSet::new();
    let mut steps = 0;
    // The deals in whose exchange a seat came back and a spectator came in.
    let mut rejoined = Vec::new();
    while !table.series_over() {
        if table.deal_over() {
            table.await_next_deal().await;
            continue;
        }
        let played = table.actions.iter().filter(|(_, a)| a["action"] == "play").count();
        for (i, client) in table.seats.iter().chain(&table.spectators).enumerate() {
            let phase = trick_holds_only_cards_played(&format!("client {i}"), client.deal(), played);
            phases.insert(phase);
        }
        let number = table.view()["number"].as_u64().unwrap();
        if table.view()["phase"] == "exchange" && !rejoined.contains(&number) {
            // A seat whose line dropped comes back on a new socket: its snapshot is the state its
            // patches had built. A spectator coming in now gets a snapshot of his own.
            rejoined.push(number);
            let seat = rng.below(tokens.len());
            let patched = table.seats[seat].game.clone();
            let game = common::resume_seat(&server, &mut table, seat, &tokens[seat]).await;
            trick_holds_only_cards_played(&format!("seat {seat} come back"), &game["deal"], played);
            assert_eq!(game, patched, "seat {seat}'s snapshot on coming back differs from its patched state");
            let mut watcher = Client::greeted(&server).await;
            let joined = watcher.join(&table.room, &format!("Late{number}"), "spectator").await;
            assert_eq!(joined["type"], "joined", "{joined}");
            trick_holds_only_cards_played("a late spectator", &joined["game"]["deal"], played);
            table.spectators.push(watcher);
        }
        assert!(table.step(&mut rng).await, "nobody could act: {}", table.view());
        steps += 1;
        assert!(steps < 3_000);
    }
    assert!(phases.contains("exchange") && phases.contains("play"), "the exchange and the play were seen: {phases:?}");
    assert_eq!(rejoined, [1, 2], "a seat came back and a spectator came in during both deals' exchanges");
    for client in table.seats.into_iter().chain(table.spectators) {
        client.close().await;
    }
}

/// Asserts that `deal`, as `who` sees it after `played` cards of the deal were played, has a
/// trick of played cards only: none outside the play, none in the viewer's own hand, never more
/// than a card of each seat. Returns the deal's phase.
fn trick_holds_only_cards_played(who: &str, deal: &Value, played: usize) -> String {
    let phase = deal["phase"].as_str().expect("a phase").to_string();
    let trick = deal["trick"].as_array().expect("a trick");
    assert!(
        trick.len() <= played.min(10),
        "{who} in {phase}: a trick of {} after {played} cards played: {deal}",
        trick.len()
    );
    if phase != "play" {
        assert!(trick.is_empty(), "{who}: a trick in {phase}: {deal}");
    }
    for p in trick {
        let card = p["card"].as_str().expect("a card played");
        let held = deal["hand"].as_array().is_some_and(|h| h.iter().any(|c| c == card));
        assert!(!held, "{who}: {card} in the trick and in the hand: {deal}");
    }
    phase
}
