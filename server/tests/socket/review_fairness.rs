//! Reviews and replays are shared fairly between addresses: while forty connections from
//! twenty addresses ask for replays of finished deals as fast as they are answered, a player
//! from another address who asks for the review of his deal gets every one (his request waits
//! its turn instead of being refused as busy).
#![allow(clippy::unwrap_used)]

use crate::common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use common::{Client, PATIENCE, Rng, Server, random_action, short_rules, temp_db};
use fipsen_rules::GameId;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::client::IntoClientRequest as _;

/// Flooding addresses, and connections from each.
const ADDRESSES: usize = 20;
const CONNECTIONS_EACH: usize = 2;
/// Deals of the flooded room's series (each replay asks for another one).
const DEALS: u32 = 12;
/// Reviews the honest player asks for during the flood.
const REVIEWS: usize = 8;

/// A greeted connection that the server takes for `client` (the test is the trusted proxy).
async fn greeted_as(server: &Server, client: &str) -> Client {
    let mut request = server.url().into_client_request().unwrap();
    request.headers_mut().insert("x-forwarded-for", client.parse().unwrap());
    let (ws, _) = tokio::time::timeout(PATIENCE, tokio_tungstenite::connect_async(request)).await.unwrap().unwrap();
    let mut c = Client::over(ws);
    c.send(json!({"type": "hello", "protocol": fipsen_protocol::PROTOCOL_VERSION})).await;
    assert_eq!(c.recv().await.unwrap()["type"], "welcome");
    c
}

/// Whether a seat's prompt offers anything.
fn may_act(deal: &Value) -> bool {
    deal["prompt"].as_object().is_some_and(|prompt| {
        prompt.values().any(|v| v == &json!(true) || v.as_array().is_some_and(|a| !a.is_empty()) || v.is_u64())
    })
}

/// A room of four bots that plays its whole series for a watcher from `addr`, with public
/// replays; returns its code once every deal is over.
async fn finished_series(server: &Server, addr: &str) -> String {
    let mut host = greeted_as(server, addr).await;
    let options = json!({"bot_delay_ms": 0, "next_deal_seconds": 0, "public_replays": true});
    let room = host.create("Host", short_rules(GameId::Prisdorf, DEALS), options).await;
    host.send(json!({"type": "leave_seat"})).await;
    for seat in 0..4 {
        host.send(json!({"type": "add_bot", "seat": seat, "level": "normal"})).await;
    }
    host.send(json!({"type": "start"})).await;
    while host.game["over"] != json!(true) {
        let frame = host.recv().await.expect("the room goes on");
        assert_ne!(frame["type"], "error", "{frame}");
    }
    room
}

/// Plays deal 1 of Großenaspe at seat 0 against bots; the player stays in the room.
async fn played_deal(server: &Server, addr: &str, rng: &mut Rng) -> Client {
    let mut me = greeted_as(server, addr).await;
    let options = json!({"bot_delay_ms": 0, "next_deal_seconds": null});
    me.create("Antje", short_rules(GameId::Grossenaspe, 2), options).await;
    for seat in 1..4 {
        me.send(json!({"type": "add_bot", "seat": seat, "level": "normal"})).await;
    }
    me.send(json!({"type": "start"})).await;
    while me.game.is_null() {
        me.recv().await.expect("the room goes on");
    }
    while me.deal()["phase"] != "over" {
        let deal = me.deal().clone();
        if !may_act(&deal) {
            me.recv().await.expect("the room goes on");
            continue;
        }
        let action = random_action(&deal, rng).expect("a prompt offers an action");
        let acked = me.act(&action).await;
        if acked["type"] == "error" {
            assert_eq!(acked["code"], "action/stale", "{action}: {acked}");
        }
    }
    me
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_gets_every_review_while_many_addresses_flood_the_server_with_replays() {
    let (_dir, db) = temp_db();
    let flags = ["--trusted-proxy", "127.0.0.0/8", "--watched-bots-rate", "0", "--max-per-address", "0"];
    let server = Server::start(&db, &flags);
    let room = finished_series(&server, "10.1.0.1").await;
    let mut honest = played_deal(&server, "10.2.0.1", &mut Rng(7)).await;

    // The flood: every connection asks for one finished deal after another, at once again
    // when answered (a replay, or a refusal as busy).
    let stop = Arc::new(AtomicBool::new(false));
    let (answered, refused) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let mut flood = Vec::new();
    for a in 0..ADDRESSES {
        for c in 0..CONNECTIONS_EACH {
            let mut client = greeted_as(&server, &format!("10.3.{a}.1")).await;
            assert_eq!(client.join(&room, &format!("Flood {a}-{c}"), "spectator").await["type"], "joined");
            let (stop, answered, refused) = (stop.clone(), answered.clone(), refused.clone());
            flood.push(tokio::spawn(async move {
                let mut deal = (a * CONNECTIONS_EACH + c) as u32;
                while !stop.load(Ordering::Relaxed) {
                    client.send(json!({"type": "replay", "deal": deal % DEALS + 1})).await;
                    let answer = client.recv_type_or_error("replay").await;
                    match answer["type"].as_str() {
                        Some("replay") => answered.fetch_add(1, Ordering::Relaxed),
                        _ => {
                            assert_eq!(answer["code"], "server/busy", "{answer}");
                            refused.fetch_add(1, Ordering::Relaxed)
                        }
                    };
                    deal += 7;
                }
                client.close().await;
            }));
        }
    }
    // The flood is under way: each of its connections had an answer.
    let started = Instant::now();
    while answered.load(Ordering::Relaxed) + refused.load(Ordering::Relaxed) < ADDRESSES * CONNECTIONS_EACH {
        assert!(started.elapsed() < PATIENCE, "the flood got no answers");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    let mut waits = Vec::new();
    let mut answers = Vec::new();
    for _ in 0..REVIEWS {
        let asked = Instant::now();
        honest.send(json!({"type": "review", "deal": 1})).await;
        let answer = honest.recv_type_or_error("decisions").await;
        waits.push(asked.elapsed());
        answers.push(answer["type"].as_str().unwrap_or_default().to_string());
        if answer["type"] != "decisions" {
            answers.push(answer.to_string());
        }
    }
    stop.store(true, Ordering::Relaxed);
    for task in flood {
        task.await.unwrap();
    }
    eprintln!(
        "flood: {} replays answered, {} refused; honest reviews: {answers:?}, waits {waits:?}",
        answered.load(Ordering::Relaxed),
        refused.load(Ordering::Relaxed)
    );
    assert!(answered.load(Ordering::Relaxed) > 0, "the flood was served too");
    assert!(answers.iter().all(|a| a == "decisions"), "every review answered: {answers:?}");
    assert_eq!(answers.len(), REVIEWS);
}
