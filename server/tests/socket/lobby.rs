//! The lobby lists public rooms only, newest first.

use crate::common;

use common::{Client, Server, temp_db};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_lists_public_rooms_newest_first() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    let mut codes = Vec::new();
    let mut hosts = Vec::new();
    for (title, public) in [("First", true), ("Hidden", false), ("Second", true), ("Third", true)] {
        let mut host = Client::greeted(&server).await;
        codes.push(host.create("Host", json!({"players": 4}), json!({"title": title, "public": public})).await);
        // The hosts stay connected so the rooms stay open.
        hosts.push(host);
    }
    let mut visitor = Client::greeted(&server).await;
    visitor.send(json!({"type": "lobby"})).await;
    let lobby = visitor.recv_type("lobby").await;
    let titles: Vec<&str> = lobby["rooms"].as_array().unwrap().iter().map(|r| r["title"].as_str().unwrap()).collect();
    assert_eq!(titles, ["Third", "Second", "First"], "{lobby}");
    assert!(!lobby.to_string().contains(&codes[1]), "a private room's code never appears in the lobby");
}
