//! Reconnecting: identical views, missed events, seat tokens, resent and stale actions.

use crate::common;

use common::{Client, Rng, Server, Table, temp_db};
use serde_json::{Value, json};

/// Plays random actions until a trick is under way (one or two cards on the table).
async fn play_into_a_trick(table: &mut Table, rng: &mut Rng) {
    loop {
        let trick = table.view()["trick"].as_array().map_or(0, Vec::len);
        if table.view()["phase"] == "play" && (1..=2).contains(&trick) {
            return;
        }
        if table.deal_over() {
            table.ask_next_deal().await;
            continue;
        }
        assert!(table.step(rng).await);
    }
}

async fn resume(server: &Server, room: &str, token: &str, last_seq: Option<u64>) -> (Client, Value) {
    let mut c = Client::greeted(server).await;
    c.send(json!({"type": "resume", "room": room, "token": token, "last_seq": last_seq})).await;
    let joined = c.recv_type_or_error("joined").await;
    (c, joined)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reconnecting_mid_trick_resumes_with_an_identical_view_and_the_missed_events() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    let mut table = Table::open(&server, json!({"players": 4}), json!({"next_deal_seconds": null}), 1).await;
    let mut rng = Rng(11);
    play_into_a_trick(&mut table, &mut rng).await;

    // Drop a seat that is not on turn, then come back at once: the same view.
    let turn = table.view()["turn"].as_u64().unwrap() as usize;
    let away = (turn + 1) % 4;
    let before = table.seats[away].game.clone();
    let last_seq = table.seats[away].seq;
    let token = table.seats[away].token();
    let old = std::mem::replace(&mut table.seats[away], Client::greeted(&server).await);
    old.close().await;
    let seq = table.seats[turn].recv_type("update").await["seq"].as_u64().unwrap(); // "disconnected"
    let (client, joined) = resume(&server, &table.room, &token, Some(last_seq)).await;
    assert_eq!(joined["type"], "joined", "{joined}");
    assert_eq!(joined["you"]["seat"], json!(away));
    assert_eq!(joined["game"], before, "the view after reconnecting differs");
    assert_eq!(joined["resync"], false);
    let missed: Vec<u64> = joined["missed"].as_array().unwrap().iter().map(|e| e["seq"].as_u64().unwrap()).collect();
    let expected: Vec<u64> = (last_seq + 1..=joined["seq"].as_u64().unwrap()).collect();
    assert_eq!(missed, expected, "missed events are gap-free");
    assert!(missed.contains(&seq));
    table.seats[away] = client;
    let now = table.seats[away].seq;
    table.sync(now).await;

    // Drop it again; the seat on turn plays meanwhile; the resumed client gets that card.
    let last_seq = table.seats[away].seq;
    let old = std::mem::replace(&mut table.seats[away], Client::greeted(&server).await);
    old.close().await;
    table.seats[turn].recv_type("update").await;
    let card = table.seats[turn].deal()["prompt"]["cards"][0].clone();
    let ack = table.seats[turn].act(&json!({"action": "play", "card": card})).await;
    assert_eq!(ack["type"], "ack", "{ack}");
    let (client, joined) = resume(&server, &table.room, &token, Some(last_seq)).await;
    let played: Vec<&Value> = joined["missed"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "game" && e["event"]["event"] == "card_played")
        .collect();
    assert_eq!(played.len(), 1);
    assert_eq!(played[0]["event"]["card"], card);
    let trick = &joined["game"]["deal"]["trick"];
    assert!(trick.as_array().unwrap().iter().any(|p| p["card"] == card), "{trick}");
    table.seats[away] = client;

    // From the very start, every event is still in the server's memory: all of them, gap-free.
    let (c, joined) = resume(&server, &table.room, &token, Some(0)).await;
    let missed = joined["missed"].as_array().unwrap();
    assert_eq!(missed.len() as u64, joined["seq"].as_u64().unwrap());
    assert!(missed.iter().enumerate().all(|(i, e)| e["seq"] == json!(i + 1)));
    drop(c);
    // A number the server never gave (from before a restart, say) gets a full snapshot instead.
    let (c, joined) = resume(&server, &table.room, &token, Some(1_000_000)).await;
    assert_eq!(joined["resync"], true);
    assert!(joined["missed"].as_array().unwrap().is_empty());
    assert_eq!(joined["game"]["deal"], table.seats[away].game["deal"], "the snapshot is the current view");
    drop(c);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_token_opens_only_its_own_seat() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    let options = json!({"next_deal_seconds": null, "grace_seconds": 0});
    let mut table = Table::open(&server, json!({"players": 4}), options, 0).await;
    let turn = table.view()["turn"].as_u64().unwrap() as usize;
    let other = (turn + 1) % 4;

    // The other seat's token, on a second connection, is that seat: it cannot act for the seat on turn.
    let token = table.seats[other].token();
    let (mut second, joined) = resume(&server, &table.room, &token, None).await;
    assert_eq!(joined["you"]["seat"], json!(other));
    let refused = second.act(&json!({"action": "pass"})).await;
    assert_eq!(refused["code"], "turn/not_yours", "{refused}");
    // The first connection of that seat was replaced and closed.
    assert_eq!(table.seats[other].recv_close().await, 4003);

    // A made-up token, or a token of another room, opens nothing.
    let (_c, bad) = resume(&server, &table.room, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", None).await;
    assert_eq!(bad["code"], "token/invalid");
    let mut elsewhere = Client::greeted(&server).await;
    let other_room = elsewhere.create("Elsewhere", json!({}), json!({})).await;
    let (_c, bad) = resume(&server, &other_room, &token, None).await;
    assert_eq!(bad["code"], "token/invalid");

    // The seat's player leaves; with no grace the seat opens; a newcomer takes it over.
    second.close().await;
    let mut newcomer = Client::greeted(&server).await;
    let joined = loop {
        let joined = newcomer.join(&table.room, "Newcomer", "player").await;
        if joined["type"] == "joined" {
            break joined;
        }
        // The seat opens when the room's timer has run; ask again.
        assert_eq!(joined["code"], "room/started", "{joined}");
        tokio::task::yield_now().await;
    };
    assert_eq!(joined["you"]["seat"], json!(other));
    // The old token still names its player, but no longer a seat he does not own.
    let (mut old, joined) = resume(&server, &table.room, &token, None).await;
    assert_eq!(joined["you"]["seat"], Value::Null);
    assert!(joined["game"]["deal"]["hand"].is_null(), "a seatless player sees what a spectator sees");
    let refused = old.act(&json!({"action": "pass"})).await;
    assert_eq!(refused["code"], "seat/not_seated");
    old.send(json!({"type": "take_seat", "seat": other})).await;
    assert_eq!(old.recv_type("error").await["code"], "seat/taken");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resent_action_is_acknowledged_again_but_applied_once_and_a_stale_one_is_refused() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    let mut table = Table::open(&server, json!({"players": 4}), json!({"next_deal_seconds": null}), 1).await;
    let mut rng = Rng(5);
    play_into_a_trick(&mut table, &mut rng).await;
    let turn = table.view()["turn"].as_u64().unwrap() as usize;
    let card = table.seats[turn].deal()["prompt"]["cards"][0].clone();
    let action = json!({"action": "play", "card": card});
    let id = table.seats[turn].next_id;
    let seq = table.seats[turn].seq;
    let first = table.seats[turn].act_with(id, seq, &action).await;
    assert_eq!(first["type"], "ack");
    let again = table.seats[turn].act_with(id, seq, &action).await;
    assert_eq!(again, first, "the same id is acknowledged again with the same seq");
    let after = first["seq"].as_u64().unwrap();
    table.sync(after).await;
    let spectator_seq = table.spectators[0].seq;

    // Resent after a reconnect: still acknowledged, still applied once.
    let token = table.seats[turn].token();
    let (mut back, joined) = resume(&server, &table.room, &token, Some(after)).await;
    assert_eq!(joined["you"]["last_act_id"], json!(id));
    let third = back.act_with(id, seq, &action).await;
    assert_eq!(third, first);
    let cards: Vec<&Value> =
        joined["game"]["deal"]["trick"].as_array().unwrap().iter().filter(|p| p["card"] == card).collect();
    let finished: usize = joined["game"]["deal"]["tricks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["cards"].as_array().unwrap().iter().filter(|p| p["card"] == card).count())
        .sum();
    assert_eq!(cards.len() + finished, 1, "the card is on the table once");
    // No event followed the resends except the reconnect's own.
    back.send(json!({"type": "ping"})).await;
    back.recv_type("pong").await;
    assert_eq!(table.spectators[0].seq, spectator_seq);

    // An older id that is not among the acknowledged ones is refused.
    let stale_id = back.act_with(0, back.seq, &action).await;
    assert_eq!(stale_id["code"], "action/id_reused");

    // An action chosen before the game's last change is refused as stale.
    let next = table.view()["turn"].as_u64().unwrap() as usize;
    if next != turn {
        let c = &mut table.seats[next];
        let card = c.deal()["prompt"]["cards"][0].clone();
        let id = c.next_id;
        let stale = c.act_with(id, seq - 1, &json!({"action": "play", "card": card})).await;
        assert_eq!(stale["code"], "action/stale", "{stale}");
        let fresh = c.act_with(id + 1, c.seq, &json!({"action": "play", "card": card})).await;
        assert_eq!(fresh["type"], "ack", "{fresh}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_empty_room_leaves_memory_stays_listed_for_its_players_and_resuming_reopens_it() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &["--room-idle", "1"]);
    let mut table = Table::open(&server, json!({"players": 3}), json!({"public": true}), 0).await;
    let mut rng = Rng(21);
    for _ in 0..3 {
        table.step(&mut rng).await;
    }
    let mut lobby = Client::greeted(&server).await;
    lobby.send(json!({"type": "lobby"})).await;
    let listed = lobby.recv_type("lobby").await;
    assert!(listed["rooms"].as_array().unwrap().iter().any(|r| r["room"] == json!(table.room)), "{listed}");
    let views: Vec<Value> = table.seats.iter().map(|c| c.game.clone()).collect();
    let tokens: Vec<String> = table.seats.iter().map(Client::token).collect();
    for c in table.seats.drain(..) {
        c.close().await;
    }
    // Wait (without timing anything) until the room has left memory.
    loop {
        let (_, metrics) = server.get("/metrics").await;
        if metrics.contains("\nfipsen_rooms 0\n") {
            break;
        }
        tokio::task::yield_now().await;
    }
    lobby.send(json!({"type": "lobby"})).await;
    assert_eq!(lobby.recv_type("lobby").await["rooms"], json!([]));
    lobby.send(json!({"type": "my_rooms", "tokens": [tokens[1], "not-a-token"]})).await;
    let mine = lobby.recv_type("my_rooms").await;
    let rooms = mine["rooms"].as_array().unwrap();
    assert_eq!(rooms.len(), 1, "{mine}");
    assert_eq!(rooms[0]["room"], json!(table.room));
    assert_eq!(rooms[0]["seat"], json!(1));
    let status = if views[1]["deal"]["phase"] == "over" { "between_deals" } else { "playing" };
    assert_eq!(rooms[0]["status"], status);
    let (_c, joined) = resume(&server, &table.room, &tokens[2], None).await;
    assert_eq!(joined["game"], views[2], "reopened from storage exactly");
}

/// The names at `room`'s seats (an empty seat has none).
fn seat_names(room: &Value) -> Vec<String> {
    room["seats"].as_array().expect("seats").iter().filter_map(|s| s["name"].as_str().map(str::to_string)).collect()
}

/// A join whose answer was lost with its socket, sent again with its key on a new connection:
/// the player the first one seated comes back, at the same seat, with a token that resumes him.
/// Nobody sits twice; a join with another key is another player; a key of the wrong form is
/// refused with its own code.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_join_sent_again_with_its_key_after_a_dropped_socket_seats_the_player_once() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    let mut host = Client::greeted(&server).await;
    let room = host.create("Host", json!({"players": 4}), json!({})).await;
    let key = "retriedJoinKey-0123456789abcdef";
    let join = json!({"type": "join_room", "room": room, "name": "Dup", "role": "player", "key": key});

    // The join is sent and its socket dropped before the answer is read.
    let mut lost = Client::greeted(&server).await;
    lost.send(join.clone()).await;
    drop(lost);
    while !seat_names(&host.room).contains(&"Dup".to_string()) {
        assert!(host.recv().await.is_some(), "the host's connection closed");
    }

    let mut again = Client::greeted(&server).await;
    again.send(join.clone()).await;
    let joined = again.recv_type_or_error("joined").await;
    assert_eq!(joined["type"], "joined", "{joined}");
    assert_eq!(joined["you"]["name"], "Dup", "{joined}");
    let seat = joined["you"]["seat"].as_u64().expect("seated");
    assert_eq!(host.room["seats"][seat as usize]["name"], "Dup", "the seat the first join took");
    assert_eq!(seat_names(&joined["room"]), ["Host", "Dup"], "one seat each");

    // The token is the seat's: a resume with it is that player.
    let token = again.token();
    let (_back, resumed) = resume(&server, &room, &token, None).await;
    assert_eq!(resumed["you"]["seat"], json!(seat), "{resumed}");

    let mut other = Client::greeted(&server).await;
    other.send(json!({"type": "join_room", "room": room, "name": "Dup", "role": "player", "key": "anotherJoinKey-0123456789"})).await;
    let second = other.recv_type_or_error("joined").await;
    assert_eq!(second["you"]["name"], "Dup (2)", "another key is another player: {second}");
    let mut bad = Client::greeted(&server).await;
    bad.send(json!({"type": "join_room", "room": room, "name": "X", "role": "player", "key": "bad key"})).await;
    let refused = bad.recv_type_or_error("joined").await;
    assert_eq!(refused["code"], "join/key_invalid", "{refused}");
}
