//! Replays of finished deals over real sockets, for every game: the replay equals the deal as
//! it was played (every action, every hand and the deal's view after every step), a deal still
//! being played is never replayed, spectators replay only where the room makes replays public,
//! and a replay comes back the same after the server is killed and restarted.

use crate::common;

use common::{Client, Rng, Server, Table, short_rules, temp_db};
use fipsen_rules::{GameAction, GameId};
use serde_json::{Value, json};

/// A deal view as compared here: without the prompt (a replay has none).
fn without_prompt(deal: &Value) -> Value {
    let mut deal = deal.clone();
    if let Some(map) = deal.as_object_mut() {
        map.remove("prompt");
    }
    deal
}

/// Every seat's hand as its own view shows it (none yet: empty).
fn hands(table: &Table) -> Vec<Value> {
    table.seats.iter().map(|c| if c.deal()["hand"].is_null() { json!([]) } else { c.deal()["hand"].clone() }).collect()
}

/// What the players saw of one deal: after it was dealt and after every action, each seat's
/// hand and seat 0's view of the deal.
struct Played {
    hands: Vec<Vec<Value>>,
    views: Vec<Value>,
}

/// Plays the current deal to its end with random legal actions.
async fn play_deal(table: &mut Table, rng: &mut Rng) -> Played {
    let mut played = Played { hands: vec![hands(table)], views: vec![without_prompt(table.view())] };
    while !table.deal_over() {
        assert!(table.step(rng).await, "nobody could act: {}", table.view());
        played.hands.push(hands(table));
        played.views.push(without_prompt(table.view()));
    }
    played
}

/// Asks for a replay; returns the `replay` or the `error` frame.
async fn ask_replay(client: &mut Client, deal: u32) -> Value {
    client.send(json!({"type": "replay", "deal": deal})).await;
    client.recv_type_or_error("replay").await
}

/// The replay matches the deal as played, step by step.
fn check_replay(game: GameId, replay: &Value, played: &Played, actions: &[(fipsen_rules::Seat, Value)]) {
    let replay = &replay["replay"];
    assert_eq!(replay["game"], game.code());
    assert_eq!(replay["deal"], 1);
    assert_eq!(replay["perspective"], 0);
    assert_eq!(replay["format"], 2);
    let steps = &common::whole_steps(replay);
    assert_eq!(steps.len(), actions.len() + 1, "{game:?}: the deal as dealt, then one step per action");
    assert!(steps[0]["seat"].is_null() && steps[0]["action"].is_null());
    assert!(!steps[0]["events"].as_array().expect("events").is_empty(), "{game:?}: the deal's first events");
    for (i, step) in steps.iter().enumerate() {
        if i > 0 {
            let (seat, action) = &actions[i - 1];
            assert_eq!(step["seat"], json!(seat.0), "{game:?} step {i}");
            // As the game reads it (a set of cards in its own order).
            let sent = GameAction::from_json(game, action.clone()).expect("the action sent");
            assert_eq!(GameAction::from_json(game, step["action"].clone()).ok(), Some(sent), "{game:?} step {i}");
        }
        assert_eq!(step["hands"], json!(played.hands[i]), "{game:?} step {i}: every hand as its owner saw it");
        assert_eq!(without_prompt(&step["deal"]), played.views[i], "{game:?} step {i}: seat 0's view of the deal");
    }
    assert_eq!(steps.last().expect("a step")["deal"]["phase"], "over");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_games_finished_deal_replays_as_it_was_played_and_a_running_deal_never() {
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db, &[]);
    for (i, &game) in GameId::ALL.iter().enumerate() {
        let mut table = Table::open(&server, short_rules(game, 3), json!({"next_deal_seconds": null}), 1).await;
        let mut rng = Rng(70 + i as u64);
        let played = play_deal(&mut table, &mut rng).await;
        let actions = table.finished_actions.clone();
        assert!(!actions.is_empty());

        // A seated player replays the finished deal; it is exactly the deal as played.
        let replay = ask_replay(&mut table.seats[0], 1).await;
        assert_eq!(replay["type"], "replay", "{game:?}: {replay}");
        check_replay(game, &replay, &played, &actions);

        // A spectator may not (the room keeps its replays to its players), nor may anyone
        // replay a deal that has not been dealt.
        let refused = ask_replay(&mut table.spectators[0], 1).await;
        assert_eq!(refused["code"], "replay/unavailable", "{refused}");
        let refused = ask_replay(&mut table.seats[1], 2).await;
        assert_eq!(refused["code"], "replay/unavailable", "{refused}");

        // The next deal begins: while it runs it is never replayed, to a player or anyone.
        table.ask_next_deal().await;
        assert!(table.step(&mut rng).await);
        for seat in 0..table.seats.len() {
            let refused = ask_replay(&mut table.seats[seat], 2).await;
            assert_eq!(refused["type"], "error", "{game:?}: a running deal replayed: {refused}");
            assert_eq!(refused["code"], "replay/unavailable");
            assert!(common::cards_in(&refused.to_string()).is_empty(), "{refused}");
        }

        // Killed and restarted, the server replays the same deal the same way.
        if i == 0 {
            let tokens: Vec<String> = table.seats.iter().map(Client::token).collect();
            server.kill();
            server = Server::start(&db, &[]);
            let mut c = Client::greeted(&server).await;
            c.send(json!({"type": "resume", "room": table.room, "token": tokens[0], "last_seq": 0})).await;
            let joined = c.recv_type_or_error("joined").await;
            assert_eq!(joined["type"], "joined", "{joined}");
            let again = ask_replay(&mut c, 1).await;
            assert_eq!(again, replay, "the replay after a restart");
            c.close().await;
            continue;
        }
        for client in table.seats.into_iter().chain(table.spectators) {
            client.close().await;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_with_public_replays_lets_its_spectators_replay_finished_deals_only() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    let options = json!({"next_deal_seconds": null, "public_replays": true});
    let mut table = Table::open(&server, short_rules(GameId::Prisdorf, 3), options, 1).await;
    let mut rng = Rng(5);
    // Not before the deal is over.
    let refused = ask_replay(&mut table.spectators[0], 1).await;
    assert_eq!(refused["code"], "replay/unavailable", "{refused}");
    assert!(common::cards_in(&refused.to_string()).is_empty());
    let played = play_deal(&mut table, &mut rng).await;
    let replay = ask_replay(&mut table.spectators[0], 1).await;
    assert_eq!(replay["type"], "replay", "{replay}");
    let replay = &replay["replay"];
    assert!(replay["perspective"].is_null(), "a spectator's replay is seen from no seat");
    let steps = common::whole_steps(replay);
    assert_eq!(steps.len(), played.hands.len());
    for (i, step) in steps.iter().enumerate() {
        // The deal is over: every hand is open in the replay, while the view is a spectator's.
        assert_eq!(step["hands"], json!(played.hands[i]), "step {i}");
        assert!(step["deal"]["hand"].is_null(), "step {i}: a spectator's view holds no hand");
    }
    for client in table.seats.into_iter().chain(table.spectators) {
        client.close().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_reviews_his_own_hand_in_any_finished_deal_beside_its_replay() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    let mut table = Table::open(&server, short_rules(GameId::Prisdorf, 4), json!({"next_deal_seconds": null}), 1).await;
    let mut rng = Rng(21);
    for _ in 0..2 {
        play_deal(&mut table, &mut rng).await;
        table.ask_next_deal().await;
    }
    // Deal 3 is being played: deals 1 and 2 are over.
    assert!(table.step(&mut rng).await);
    let ask = |deal: Option<u32>| match deal {
        Some(deal) => json!({"type": "review", "deal": deal}),
        None => json!({"type": "review"}),
    };
    for (deal, seat) in [(1u32, 2usize), (2, 1)] {
        let replay = ask_replay(&mut table.seats[seat], deal).await;
        let dealt = replay["replay"]["steps"][0]["hands"][seat].clone();
        table.seats[seat].send(ask(Some(deal))).await;
        let review = table.seats[seat].recv_type_or_error("review").await;
        assert_eq!(review["type"], "review", "{review}");
        assert_eq!(review["deal"], deal);
        assert_eq!(review["review"]["seat"], seat);
        let mut got: Vec<String> = serde_json::from_value(review["review"]["dealt"].clone()).unwrap();
        let mut want: Vec<String> = serde_json::from_value(dealt).unwrap();
        got.sort();
        want.sort();
        assert_eq!(got, want, "deal {deal}: the review is of the hand the replay deals him");
    }
    // Without a number: the deal just ended (2). The running deal and a spectator: none.
    table.seats[0].send(ask(None)).await;
    assert_eq!(table.seats[0].recv_type_or_error("review").await["deal"], 2);
    table.seats[0].send(ask(Some(3))).await;
    assert_eq!(table.seats[0].recv_type_or_error("review").await["code"], "review/unavailable");
    table.spectators[0].send(ask(Some(1))).await;
    assert_eq!(table.spectators[0].recv_type_or_error("review").await["code"], "review/unavailable");
}
