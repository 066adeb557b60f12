//! `--insecure-fixed-seed` (for tests) deals every new room alike; without it, rooms differ.

use crate::common;

use common::{Client, Server, temp_db};
use serde_json::{Value, json};

const SEED: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

/// Creates a three-player room, fills and starts it, returns the host's first hand.
async fn first_hand(server: &Server) -> Value {
    let mut host = Client::greeted(server).await;
    let room = host.create("Host", json!({"players": 3}), json!({})).await;
    for name in ["B", "C"] {
        let mut c = Client::greeted(server).await;
        c.join(&room, name, "player").await;
    }
    host.send(json!({"type": "start"})).await;
    loop {
        let update = host.recv_type("update").await;
        if !update["game"].is_null() {
            return update["game"]["deal"]["hand"].clone();
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fixed_seed_deals_every_room_alike_and_rooms_differ_without_it() {
    let (_dir, db) = temp_db();
    let fixed = Server::start(&db, &["--insecure-fixed-seed", SEED]);
    let a = first_hand(&fixed).await;
    let b = first_hand(&fixed).await;
    assert_eq!(a.as_array().map(Vec::len), Some(5));
    assert_eq!(a, b);
    // The same seed gives the deal the rules crate derives from it.
    let master = fipsen_rules::Seed::from_hex(SEED).unwrap();
    let rules = fipsen_rules::RuleSet { players: fipsen_rules::Players::Three, ..Default::default() };
    let (series, _) = fipsen_rules::Series::new(rules, master).unwrap();
    assert_eq!(serde_json::to_value(series.deal().hand(fipsen_rules::Seat(0))).unwrap(), a);
    drop(fixed);

    let (_dir2, db2) = temp_db();
    let random = Server::start(&db2, &[]);
    let c = first_hand(&random).await;
    let d = first_hand(&random).await;
    // Two random master seeds deal the same five cards to seat 0 once in 53,130 times.
    assert_ne!(c, d, "without the flag every room is dealt from its own random seed");
}
