//! Bad input gets its specific error or close code, and other rooms carry on undisturbed.

use crate::common;

use common::{Client, Rng, Server, Table, temp_db};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_bad_input_gets_its_code_while_another_room_plays_on() {
    let (_dir, db) = temp_db();
    let server =
        std::sync::Arc::new(Server::start(&db, &["--rate", "50", "--burst", "60", "--handshake-timeout", "1"]));
    // A room plays a whole series meanwhile.
    let background = {
        let server = server.clone();
        tokio::spawn(async move {
            let mut table =
                Table::open(&server, json!({"players": 4, "deals": 2}), json!({"next_deal_seconds": 0}), 1).await;
            table.play_series(&mut Rng(1), false).await;
            table.deals_replayed
        })
    };

    // Before hello: anything else is refused, the connection stays.
    let mut c = Client::connect(&server).await;
    c.send(json!({"type": "lobby"})).await;
    assert_eq!(c.recv().await.unwrap()["code"], "proto/handshake_required");
    c.send(json!({"type": "hello", "protocol": fipsen_protocol::PROTOCOL_VERSION})).await;
    assert_eq!(c.recv().await.unwrap()["type"], "welcome");
    c.send(json!({"type": "hello", "protocol": fipsen_protocol::PROTOCOL_VERSION})).await;
    assert_eq!(c.recv().await.unwrap()["code"], "proto/already_greeted");

    // Malformed JSON, a wrong shape, an unknown type, a binary frame: errors, and on we go.
    c.send_text("{\"type\": \"ping\"".into()).await;
    assert_eq!(c.recv().await.unwrap()["code"], "proto/malformed");
    c.send(json!({"type": "take_seat", "seat": "north"})).await;
    assert_eq!(c.recv().await.unwrap()["code"], "proto/malformed");
    c.send(json!({"kind": "ping"})).await;
    assert_eq!(c.recv().await.unwrap()["code"], "proto/malformed");
    c.send(json!({"type": "teleport"})).await;
    assert_eq!(c.recv().await.unwrap()["code"], "proto/unknown_type");

    // A wrong invite code (well formed or not), a room message outside a room.
    for room in ["AAAAAAAAAAAAAAAAAAAA", "nope", "../../etc/passwd"] {
        c.send(json!({"type": "join_room", "room": room, "name": "X"})).await;
        assert_eq!(c.recv().await.unwrap()["code"], "room/not_found");
    }
    c.send(json!({"type": "act", "id": 1, "seq": 0, "action": {"action": "pass"}})).await;
    let refused = c.recv().await.unwrap();
    assert_eq!((refused["code"].as_str(), refused["id"].as_u64()), (Some("room/not_in"), Some(1)));
    c.send(json!({"type": "create_room", "name": ""})).await;
    assert_eq!(c.recv().await.unwrap()["code"], "name/invalid");
    c.send(json!({"type": "create_room", "name": "A", "rules": {"min_bid": 4}})).await;
    assert_eq!(c.recv().await.unwrap()["code"], "rules/invalid");
    c.send(json!({"type": "create_room", "name": "A", "options": {"grace_seconds": 999999}})).await;
    assert_eq!(c.recv().await.unwrap()["code"], "options/invalid");
    c.send(json!({"type": "ping"})).await;
    assert_eq!(c.recv().await.unwrap()["type"], "pong");

    // In a room of its own: out of turn, a card not held, not following suit, chat limits.
    let mut table = Table::open(&server, json!({"players": 3}), json!({"spectators_allowed": false}), 0).await;
    let turn = table.view()["turn"].as_u64().unwrap() as usize;
    let other = (turn + 1) % 3;
    let refused = table.seats[other].act(&json!({"action": "pass"})).await;
    assert_eq!(refused["code"], "turn/not_yours");
    assert_eq!(refused["message"], "it is not your turn");
    let mut watcher = Client::greeted(&server).await;
    assert_eq!(watcher.join(&table.room, "W", "spectator").await["code"], "room/no_spectators");
    assert_eq!(table.seats[1].act(&json!({"action": "bid"})).await["type"], "error");
    table.seats[1].send(json!({"type": "start"})).await;
    assert_eq!(table.seats[1].recv_type("error").await["code"], "room/not_host");
    table.seats[0].send(json!({"type": "chat", "text": "x".repeat(301)})).await;
    assert_eq!(table.seats[0].recv_type("error").await["code"], "chat/too_long");
    table.seats[0].send(json!({"type": "chat", "text": "   "})).await;
    assert_eq!(table.seats[0].recv_type("error").await["code"], "chat/empty");
    let mut rng = Rng(2);
    // Into the play, then a card not held and a card that does not follow suit.
    let mut tested = (false, false);
    for _ in 0..2000 {
        if table.series_over() || (tested.0 && tested.1) {
            break;
        }
        if table.deal_over() {
            table.ask_next_deal().await;
            continue;
        }
        let view = table.view().clone();
        if view["phase"] == "play" {
            let seat = view["turn"].as_u64().unwrap() as usize;
            let deal = table.seats[seat].deal().clone();
            let hand: Vec<String> = serde_json::from_value(deal["hand"].clone()).unwrap();
            let playable: Vec<String> = serde_json::from_value(deal["prompt"]["cards"].clone()).unwrap();
            let foreign = ["CA", "SA", "HA", "D7", "C7", "S7"].into_iter().find(|c| !hand.iter().any(|h| h == c));
            if let (Some(card), false) = (foreign, tested.0) {
                let refused = table.seats[seat].act(&json!({"action": "play", "card": card})).await;
                assert_eq!(refused["code"], "card/not_in_hand");
                tested.0 = true;
            }
            if let Some(card) = hand.iter().find(|c| !playable.contains(c)) {
                let refused = table.seats[seat].act(&json!({"action": "play", "card": card})).await;
                assert_eq!(refused["code"], "play/must_follow_suit", "{refused}");
                tested.1 = true;
            }
        }
        assert!(table.step(&mut rng).await);
    }
    assert!(tested.0 && tested.1, "met both illegal plays");

    // Wrong protocol version: error, then close 4001.
    let mut v = Client::connect(&server).await;
    v.send(json!({"type": "hello", "protocol": 99})).await;
    assert_eq!(v.recv().await.unwrap()["code"], "proto/version");
    assert_eq!(v.recv_close().await, 4001);
    // A client of version 2 (whole views in every update) is refused the same way, told why.
    let mut old = Client::connect(&server).await;
    old.send(json!({"type": "hello", "protocol": 2})).await;
    let refused = old.recv().await.unwrap();
    assert_eq!(refused["code"], "proto/version");
    assert!(refused["message"].as_str().unwrap().contains("version 3, not version 2"), "{refused}");
    assert_eq!(old.recv_close().await, 4001);

    // An oversize frame: error, then close 1009.
    let mut big = Client::greeted(&server).await;
    big.send(json!({"type": "chat", "text": "x".repeat(17 * 1024)})).await;
    assert_eq!(big.recv().await.unwrap()["code"], "proto/too_large");
    assert_eq!(big.recv_close().await, 1009);

    // No hello in time: close 4002.
    let mut silent = Client::connect(&server).await;
    assert_eq!(silent.recv_close().await, 4002);

    // A flood: rate limited, then close 1008.
    let mut flood = Client::greeted(&server).await;
    for _ in 0..200 {
        flood.send(json!({"type": "ping"})).await;
    }
    let mut codes = Vec::new();
    while let Some(frame) = flood.recv().await {
        codes.extend(frame["code"].as_str().map(String::from));
    }
    assert_eq!(codes, vec!["rate/limited".to_string()]);
    assert_eq!(flood.closed, Some(1008));

    // The other room finished its series undisturbed, and the server still answers.
    assert_eq!(background.await.unwrap(), 2, "two counted deals at least");
    let (status, body) = server.get("/healthz").await;
    assert!(status.contains("200") && body.starts_with("ok"));
    let (_, metrics) = server.get("/metrics").await;
    for line in ["fipsen_connections ", "fipsen_actions_total ", "fipsen_errors_total{code=\"turn/not_yours\"} 1"] {
        assert!(metrics.contains(line), "{line} missing:\n{metrics}");
    }
    assert!(metrics.contains("fipsen_action_latency_seconds_count"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connection_cap_origin_list_and_static_files() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &["--max-connections", "2", "--allowed-origins", "https://fipsen.example"]);
    // Origin not on the list: refused before the upgrade.
    let request = |origin: &str| {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let mut request = server.url().into_client_request().unwrap();
        request.headers_mut().insert("origin", origin.parse().unwrap());
        request
    };
    let refused = tokio_tungstenite::connect_async(request("https://evil.example")).await;
    assert!(refused.is_err(), "a foreign origin is refused");
    let (mut a, _) = tokio_tungstenite::connect_async(request("https://fipsen.example")).await.unwrap();
    let (_b, _) = tokio_tungstenite::connect_async(request("https://fipsen.example")).await.unwrap();
    // The third connection is over the cap: error server/busy and close 1013.
    let (mut third, _) = tokio_tungstenite::connect_async(request("https://fipsen.example")).await.unwrap();
    use futures_util::StreamExt;
    let first = third.next().await.unwrap().unwrap();
    assert!(first.to_text().unwrap().contains("server/busy"));
    match third.next().await {
        Some(Ok(tungstenite::Message::Close(Some(frame)))) => {
            assert_eq!(u16::from(frame.code), 1013)
        }
        other => panic!("expected close 1013, got {other:?}"),
    }
    let _ = a.close(None).await;

    // The web client (or the placeholder page) and its deep links.
    let (status, body) = server.get("/").await;
    assert!(status.contains("200"), "{status}");
    assert!(body.contains("<html") || body.contains("<!doctype") || body.contains("<!DOCTYPE"));
    let (status, deep) = server.get("/r/AAAAAAAAAAAAAAAAAAAA").await;
    assert!(status.contains("200"));
    assert_eq!(deep, body, "deep links get the client page");
    let (status, _) = server.get("/nothing-here.png").await;
    assert!(status.contains("404"), "{status}");
}
