//! The host's part passes on when the host is gone, so a room is never left without someone
//! who can start it, seat bots or list it.
#![allow(clippy::unwrap_used)]

use crate::common;

use common::{Client, Server, temp_db};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_gone_past_his_grace_period_hands_over_to_the_next_player() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    let mut antje = Client::greeted(&server).await;
    let room = antje.create("Antje", json!({"players": 3}), json!({"grace_seconds": 0, "bot_delay_ms": 0})).await;
    let mut hinnerk = Client::greeted(&server).await;
    let joined = hinnerk.join(&room, "Hinnerk", "player").await;
    assert_eq!(joined["you"]["host"], false);
    hinnerk.send(json!({"type": "add_bot", "seat": 2, "level": "easy"})).await;
    assert_eq!(hinnerk.recv_type("error").await["code"], "room/not_host");

    // Antje's connection drops before she starts the series.
    let token = antje.token();
    antje.close().await;
    let changed = loop {
        let update = hinnerk.recv_type("update").await;
        if let Some(e) = update["events"].as_array().unwrap().iter().find(|e| e["kind"] == "host_changed") {
            break (e.clone(), update);
        }
    };
    assert_eq!(changed.0["name"], "Hinnerk");
    assert_eq!(changed.0["seat"], 1);
    assert_eq!(changed.1["room"]["host"], "Hinnerk");
    assert_eq!(changed.1["room"]["seats"][1]["host"], true);
    assert_eq!(changed.1["room"]["seats"][0]["host"], false);

    // Now he may do what a host does.
    hinnerk.send(json!({"type": "add_bot", "seat": 2, "level": "easy"})).await;
    loop {
        let update = hinnerk.recv_type_or_error("update").await;
        assert_eq!(update["type"], "update", "{update}");
        if update["room"]["seats"][2]["bot"] == "easy" {
            break;
        }
    }

    // Antje comes back: she keeps her seat, not the host's part; it does not flip back.
    let mut back = Client::greeted(&server).await;
    back.send(json!({"type": "resume", "room": room, "token": token})).await;
    let joined = back.recv_type("joined").await;
    assert_eq!(joined["you"]["seat"], 0);
    assert_eq!(joined["you"]["host"], false);
    assert_eq!(joined["room"]["host"], "Hinnerk");
    back.send(json!({"type": "start"})).await;
    assert_eq!(back.recv_type("error").await["code"], "room/not_host");
    hinnerk.send(json!({"type": "start"})).await;
    loop {
        let update = hinnerk.recv_type_or_error("update").await;
        assert_eq!(update["type"], "update", "{update}");
        if update["room"]["status"] == "playing" {
            break;
        }
    }

    // The change is stored: after a restart Hinnerk is still the host.
    drop(server);
    let server = Server::start(&db, &[]);
    let mut again = Client::greeted(&server).await;
    again.send(json!({"type": "resume", "room": room, "token": hinnerk.token()})).await;
    let joined = again.recv_type("joined").await;
    assert_eq!(joined["you"]["host"], true);
    assert_eq!(joined["room"]["host"], "Hinnerk");
}
