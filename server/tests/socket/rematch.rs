//! Playing again: once a series is over, the host opens a new room with the same rules and
//! seats; each player accepts by entering it with the seat token he holds, and it lasts across a
//! restart.

use crate::common;

use common::{Client, Rng, Server, Table, short_rules, temp_db};
use fipsen_rules::GameId;
use serde_json::{Value, json};

/// Reads a client's frames until its room state names the room to play again in.
async fn until_rematch(client: &mut Client) -> String {
    loop {
        let frame = client.recv_type_or_error("update").await;
        assert_eq!(frame["type"], "update", "{frame}");
        if let Some(room) = frame["room"]["rematch"].as_str() {
            let told = frame["events"].as_array().into_iter().flatten().any(|e| e["kind"] == "rematch");
            assert!(told, "the frame that names it carries the event: {frame}");
            return room.to_string();
        }
    }
}

async fn join_with_token(client: &mut Client, room: &str, name: &str, token: &str) -> Value {
    client.send(json!({"type": "join_room", "room": room, "name": name, "role": "player", "token": token})).await;
    client.recv_type_or_error("joined").await
}

#[tokio::test]
async fn after_the_series_the_host_opens_a_new_room_where_everyone_keeps_his_seat() {
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db, &[]);
    let options = json!({"bot_delay_ms": 0, "next_deal_seconds": 0, "title": "Stammtisch"});
    let mut table = Table::open(&server, short_rules(GameId::Prisdorf, 1), options, 1).await;
    let old = table.room.clone();

    // Not before the series is over.
    table.seats[0].send(json!({"type": "rematch"})).await;
    let early = table.seats[0].recv_type_or_error("error").await;
    assert_eq!(early["code"], "rematch/unavailable", "{early}");
    table.play_series(&mut Rng(7), false).await;

    // Only the host offers.
    table.seats[1].send(json!({"type": "rematch"})).await;
    let refused = table.seats[1].recv_type_or_error("error").await;
    assert_eq!(refused["code"], "room/not_host", "{refused}");

    table.seats[0].send(json!({"type": "rematch"})).await;
    let mut new = String::new();
    for client in table.seats.iter_mut().chain(table.spectators.iter_mut()) {
        let named = until_rematch(client).await;
        assert!(new.is_empty() || new == named);
        new = named;
    }
    assert_ne!(new, old);
    // Once.
    table.seats[0].send(json!({"type": "rematch"})).await;
    let again = table.seats[0].recv_type_or_error("error").await;
    assert_eq!(again["code"], "rematch/unavailable", "{again}");

    // Three players accept with their seat tokens and are back at their seats; the fourth
    // leaves (he never comes), and his seat is held for him.
    let tokens: Vec<String> = table.seats.iter().map(Client::token).collect();
    let mut players = Vec::new();
    for (seat, token) in tokens.iter().enumerate().take(3) {
        let mut client = Client::greeted(&server).await;
        let joined = join_with_token(&mut client, &new, &format!("Seat{seat}"), token).await;
        assert_eq!(joined["type"], "joined", "{joined}");
        assert_eq!(joined["you"]["seat"], json!(seat), "{joined}");
        assert_eq!(joined["you"]["host"], json!(seat == 0), "{joined}");
        assert_eq!(joined["you"]["token"], json!(token), "the same token holds the new seat");
        let room = &joined["room"];
        assert_eq!(room["status"], "waiting", "{room}");
        assert_eq!(room["title"], "Stammtisch");
        assert_eq!(room["rules"], table.seats[0].room["rules"]);
        assert_eq!(room["host"], "Seat0");
        let names: Vec<Value> = room["seats"].as_array().unwrap().iter().map(|s| s["name"].clone()).collect();
        assert_eq!(names, vec![json!("Seat0"), json!("Seat1"), json!("Seat2"), json!("Seat3")]);
        assert!(joined["game"].is_null(), "nothing is dealt yet: {joined}");
        assert!(room.get("rematch").is_none(), "{room}");
        players.push(client);
    }
    // The new series is the new room's own: its share link is another.
    players[0].send(json!({"type": "share_link"})).await;
    let new_link = players[0].recv_type_or_error("share_link").await;
    table.seats[0].send(json!({"type": "share_link"})).await;
    let old_link = table.seats[0].recv_type_or_error("share_link").await;
    assert_ne!(new_link["key"], old_link["key"]);
    assert_eq!(new_link["room"], json!(new));

    // The host starts the new series; its first deal is deal 1.
    players[0].send(json!({"type": "start"})).await;
    let started = loop {
        let frame = players[1].recv_type_or_error("update").await;
        if !frame["game"].is_null() {
            break frame;
        }
    };
    assert_eq!(started["game"]["number"], 1, "{started}");

    // The offer lasts across a restart: the old room still names the new one.
    drop(players);
    drop(table);
    server.kill();
    let server = Server::start(&db, &[]);
    let mut back = Client::greeted(&server).await;
    back.send(json!({"type": "resume", "room": old, "token": tokens[1]})).await;
    let joined = back.recv_type_or_error("joined").await;
    assert_eq!(joined["room"]["rematch"], json!(new), "{joined}");
}
