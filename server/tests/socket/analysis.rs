//! The analysis of a finished deal's play over real sockets, for every game: the replay of a
//! finished deal carries it exactly as the bots crate computes it (within the server's budget),
//! a second viewer gets the same, the series page counts each player's costly cards per deal,
//! and nothing of the analysis of a deal still being played reaches anyone; a costly Wippen
//! move's better moves come whole, and never as the move played.

use crate::common;

use common::{Client, Rng, Server, Table, short_rules, temp_db};
use fipsen_bots::games::FinishedDeal;
use fipsen_rules::{AnyGame, GameAction, GameId, GameRules, Seed};
use fipsen_server::analysis;
use serde_json::{Value, json};

const SEED: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

/// Asks for a replay; returns the `replay` or the `error` frame.
async fn ask_replay(client: &mut Client, deal: u32) -> Value {
    client.send(json!({"type": "replay", "deal": deal})).await;
    client.recv_type_or_error("replay").await
}

/// The analysis of deal 1 played with `actions`, as the bots crate gives it and the protocol
/// carries it (`null` where the game has none for this deal).
fn expected(rules: &GameRules, actions: &[(fipsen_rules::Seat, Value)]) -> Value {
    let game = rules.game();
    let (mut series, _) = AnyGame::start(rules, Seed::from_hex(SEED).expect("a seed")).expect("the series starts");
    for (seat, action) in actions {
        let action = GameAction::from_json(game, action.clone()).expect("an action of the game");
        series.apply(*seat, &action).expect("every action played was legal");
    }
    let finished = FinishedDeal::of(&series).expect("the deal is over");
    let analysis = finished.analyse(analysis::budget(game)).map(|a| analysis::to_protocol(&a, series.seats()));
    serde_json::to_value(analysis).expect("the analysis serialises")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_games_finished_deal_carries_its_analysis_and_a_running_deal_never() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &["--insecure-fixed-seed", SEED]);
    let mut analysed = 0;
    for (i, &game) in GameId::ALL.iter().enumerate() {
        let rules_json = short_rules(game, 3);
        let rules: GameRules = serde_json::from_value(rules_json.clone()).unwrap();
        let mut table = Table::open(&server, rules_json, json!({"next_deal_seconds": null}), 1).await;
        let mut rng = Rng(300 + i as u64);
        while !table.deal_over() {
            assert!(table.step(&mut rng).await, "nobody could act: {}", table.view());
        }
        let want = expected(&rules, &table.finished_actions);

        // The replay carries the analysis as the bots crate computes it; a second viewer gets
        // the same (from the server's cache).
        let replay = ask_replay(&mut table.seats[0], 1).await;
        assert_eq!(replay["type"], "replay", "{game:?}: {replay}");
        let got = &replay["replay"]["analysis"];
        assert_eq!(got, &want, "{game:?}: the analysis as the bots crate computes it");
        let again = ask_replay(&mut table.seats[1], 1).await;
        assert_eq!(&again["replay"]["analysis"], got, "{game:?}: a second viewer gets the same");
        if !want.is_null() {
            analysed += 1;
            let cards = want["cards"].as_array().unwrap();
            assert!(!cards.is_empty(), "{game:?}: every card played is analysed");
            // Each card's cost is its value before less after; the counts are of the costly ones.
            let mut costly = vec![0u64; table.seats.len()];
            for c in cards {
                if let (Some(b), Some(a)) = (c["before"].as_i64(), c["after"].as_i64()) {
                    assert_eq!(c["cost"].as_i64(), Some(b - a), "{game:?}: {c}");
                    if b > a {
                        costly[c["seat"].as_u64().unwrap() as usize] += 1;
                    }
                }
            }
            assert_eq!(want["costly"], json!(costly), "{game:?}");
            if game != GameId::Wippen {
                // A card is the whole move of a trick game: `best` says it all.
                assert!(cards.iter().all(|c| c.get("best_moves").is_none()), "{game:?}: {want}");
            }
        }

        // Deal 2 runs: no replay of it, so no analysis of it, for any seat or the spectator.
        table.ask_next_deal().await;
        for _ in 0..3 {
            if !table.deal_over() {
                assert!(table.step(&mut rng).await);
            }
        }
        if !table.deal_over() {
            for client in table.seats.iter_mut().chain(table.spectators.iter_mut()) {
                let refused = ask_replay(client, 2).await;
                assert_eq!(refused["type"], "error", "{game:?}: a running deal replayed: {refused}");
                assert!(!refused.to_string().contains("analysis"), "{refused}");
            }
        }

        // The series page (by its share key, from outside the room) counts each player's costly
        // cards in the finished deal, and has nothing of the running one.
        table.seats[0].send(json!({"type": "share_link"})).await;
        let shared = table.seats[0].recv_type_or_error("share_link").await;
        let key = shared["key"].as_str().expect("a share key").to_string();
        let mut stranger = Client::greeted(&server).await;
        stranger.send(json!({"type": "series", "room": table.room, "key": key})).await;
        let page = stranger.recv_type_or_error("series").await;
        let deals = page["series"]["deals"].as_array().expect("deals");
        let finished = if table.deal_over() { 2 } else { 1 };
        assert_eq!(deals.len(), finished, "{game:?}: only finished deals");
        assert_eq!(deals[0]["costly"], want["costly"], "{game:?}: the series page's counts");
        stranger.close().await;
        for client in table.seats.into_iter().chain(table.spectators) {
            client.close().await;
        }
    }
    assert!(analysed >= 5, "most games' first deals have an analysis: {analysed}");
}

/// A costly Wippen move names the better moves whole, each one its player could have made
/// instead, and never the move he made: one card may be played by a good move and a costly
/// one, so the card alone could not tell him what was better.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_costly_wippen_moves_better_moves_are_named_whole_and_never_the_move_played() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &["--insecure-fixed-seed", SEED]);
    let mut rules_json = short_rules(GameId::Wippen, 1);
    rules_json["players"] = 2.into();
    let mut table = Table::open(&server, rules_json, json!({"next_deal_seconds": null}), 0).await;
    let mut rng = Rng(4711);
    let mut checked = 0;
    let mut deal = 1;
    // Random play loses points soon; a few deals at most to find costly moves.
    while checked < 5 && deal <= 2 {
        while !table.deal_over() {
            assert!(table.step(&mut rng).await, "nobody could act: {}", table.view());
        }
        let replay = ask_replay(&mut table.seats[0], deal).await;
        assert_eq!(replay["type"], "replay", "{replay}");
        let steps = common::whole_steps(&replay["replay"]);
        let analysis = &replay["replay"]["analysis"];
        for c in analysis["cards"].as_array().expect("an analysis of every Wippen deal") {
            if c["cost"].as_i64().is_none_or(|cost| cost <= 0) {
                continue;
            }
            let index = c["index"].as_u64().unwrap() as usize;
            let seat = c["seat"].as_u64().unwrap() as usize;
            let played = &steps[index + 1]["action"];
            assert_eq!(steps[index + 1]["seat"], c["seat"], "{c}");
            assert_eq!(played["card"], c["card"], "the analysis' move is the replay's: {c}");
            let better =
                c["best_moves"].as_array().unwrap_or_else(|| panic!("a costly move names its better moves: {c}"));
            assert!(!better.is_empty() && better.len() <= fipsen_protocol::MAX_BEST_MOVES, "{c}");
            let hand = steps[index]["hands"][seat].as_array().expect("his hand before the move");
            for m in better {
                assert_ne!(m, played, "the costly move played is not a better move: {c}");
                assert!(hand.contains(&m["card"]), "a better move plays a card of his hand: {m}");
                assert!(c["best"].as_array().unwrap().contains(&m["card"]), "`best` names its card: {c}");
                // A move the rules accept as it is written.
                let parsed: fipsen_rules::wippen::Move = serde_json::from_value(m.clone()).expect("a Wippen move");
                assert_eq!(&serde_json::to_value(&parsed).unwrap(), m);
            }
            checked += 1;
        }
        if checked < 5 {
            table.ask_next_deal().await;
            deal += 1;
        }
    }
    assert!(checked >= 5, "random play makes costly moves: {checked}");
    for client in table.seats {
        client.close().await;
    }
}
