//! Rooms of every size the games have, from two seats to ten: the lobby and the invitation's
//! room information show every seat, players fill the seats and no more, bots fill the rest
//! and give way to a late player, the host's part passes to the next player, and the series
//! starts and plays.
#![allow(clippy::unwrap_used)]

use crate::common;

use common::{Client, Server, temp_db};
use serde_json::{Value, json};

/// Waits for an update whose room satisfies `done`.
async fn until(client: &mut Client, done: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..2_000 {
        let update = client.recv_type_or_error("update").await;
        assert_eq!(update["type"], "update", "{update}");
        if done(&update) {
            return update;
        }
    }
    panic!("the room never got there");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rooms_of_two_five_and_ten_seats_fill_hand_over_and_play() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    let sizes = [
        (2, json!({"game": "tippen", "preset": "dreiblatt_1859", "players": 2, "deals": 2})),
        (5, json!({"game": "thedinghausen", "rounds": 1})),
        (10, json!({"game": "tippen", "preset": "dreiblatt_1859", "players": 10, "deals": 2})),
    ];
    for (n, rules) in sizes {
        let options = json!({"public": true, "title": format!("{n} seats"), "grace_seconds": 0, "bot_delay_ms": 0,
                              "next_deal_seconds": 0});
        let mut host = Client::greeted(&server).await;
        let room = host.create("Host", rules.clone(), options).await;
        assert_eq!(host.room["seats"].as_array().unwrap().len(), n, "{rules}");

        // The lobby and the invitation's room information show every seat.
        let mut visitor = Client::greeted(&server).await;
        visitor.send(json!({"type": "lobby"})).await;
        let lobby = visitor.recv_type("lobby").await;
        let listed = lobby["rooms"].as_array().unwrap().iter().find(|r| r["room"] == room.as_str()).cloned().unwrap();
        assert_eq!(listed["players"].as_array().unwrap().len(), n, "{listed}");
        assert_eq!(listed["rules"]["game"], rules["game"]);
        visitor.send(json!({"type": "peek", "room": room})).await;
        let info = visitor.recv_type("room_info").await;
        assert_eq!(info["room"]["players"].as_array().unwrap().len(), n, "{info}");

        // Players take seats up to the last; one more is told the room is full and may watch.
        let mut players = Vec::new();
        for i in 1..n.min(4) {
            let mut c = Client::greeted(&server).await;
            let joined = c.join(&room, &format!("P{i}"), "player").await;
            assert_eq!(joined["you"]["seat"], json!(i), "{joined}");
            players.push(c);
        }
        // The host's part passes to the next player when the host is gone.
        host.close().await;
        let update = until(&mut players[0], |u| u["room"]["host"] == "P1").await;
        assert_eq!(update["room"]["seats"][1]["host"], true);
        let host = &mut players[0];
        // Bots fill every open seat (the old host's seat too, as he is gone).
        let open: Vec<usize> = (0..n).filter(|&s| s == 0 || s >= n.min(4)).collect();
        for &seat in &open {
            host.send(json!({"type": "add_bot", "seat": seat, "level": "easy"})).await;
            until(host, |u| !u["room"]["seats"][seat]["bot"].is_null()).await;
        }
        // Bots keep seats only until people come: a late player takes the first bot's seat.
        let mut late = Client::greeted(&server).await;
        let joined = late.join(&room, "Late", "player").await;
        assert_eq!(joined["you"]["seat"], json!(open[0]), "{joined}");
        assert!(joined["room"]["seats"][open[0]]["bot"].is_null());
        if open.len() == 1 {
            // Every seat is a person's now: one more may only watch.
            let mut more = Client::greeted(&server).await;
            assert_eq!(more.join(&room, "More", "player").await["code"], "room/full");
            assert_eq!(more.join(&room, "More", "spectator").await["type"], "joined");
        }
        let host = &mut players[0];
        let mut watcher = Client::greeted(&server).await;
        assert_eq!(watcher.join(&room, "Oma", "spectator").await["type"], "joined");
        host.send(json!({"type": "start"})).await;
        let update = until(host, |u| u["room"]["status"] == "playing").await;
        assert_eq!(update["game"]["game"], rules["game"]);
        // The people leave at once: with no grace bots stand in for them, and the series plays on.
        late.close().await;
        for c in players {
            c.close().await;
        }
        let over = until(&mut watcher, |u| {
            u["game"]["scoresheet"].as_array().is_some_and(|rows| !rows.is_empty()) || u["game"]["over"] == true
        })
        .await;
        assert!(!over["game"]["scoresheet"].as_array().unwrap().is_empty(), "{n} seats: a deal was played");
        watcher.close().await;
    }
}
