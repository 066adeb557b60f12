//! Series pages, share keys, the exported series and deleting old series, over real sockets:
//! a series opened by a seat token or a share key shows its finished deals only (never a card
//! of a deal still being played, to anyone), the export re-played through the rules crate gives
//! the same scoresheet, players delete their series by agreement (kept across a restart until
//! all agree), and the operator's retention deletes series closed for longer.

use crate::common;

use common::{Client, Rng, Server, Table, cards_in, short_rules, temp_db};
use fipsen_rules::{AnyGame, GameAction, GameId, GameRules, Seat, Seed};
use serde_json::{Value, json};

/// Asks for a series out of any room; returns the `series` or the `error` frame.
async fn ask_series(client: &mut Client, room: &str, key: &str) -> Value {
    client.send(json!({"type": "series", "room": room, "key": key})).await;
    client.recv_type_or_error("series").await
}

async fn ask_share_key(client: &mut Client) -> Value {
    client.send(json!({"type": "share_link"})).await;
    client.recv_type_or_error("share_link").await
}

/// What a series record shows beyond its finished deals: everything but the deals (with their
/// actions) and the scoresheet rows of finished deals.
fn beyond_finished_deals(series: &Value) -> Value {
    let mut rest = series.clone();
    rest["deals"].take();
    rest["sheet"]["scoresheet"].take();
    rest
}

/// Plays the deal in progress to its end.
async fn finish_deal(table: &mut Table, rng: &mut Rng) {
    while !table.deal_over() {
        assert!(table.step(rng).await, "nobody could act: {}", table.view());
    }
}

/// Re-plays an exported series through the rules crate: the series from its rules and master
/// seed, each deal's actions in order and a next deal between deals. Returns the scoresheet
/// and checks each deal's seed and dealer on the way.
fn replay_export(series: &Value) -> Value {
    let rules: GameRules = serde_json::from_value(series["rules"].clone()).expect("rules");
    let game = rules.game();
    let master: Seed =
        serde_json::from_value(series["master_seed"].clone()).expect("the master seed of a finished series");
    let (mut replayed, _) = AnyGame::start(&rules, master).expect("the series starts");
    for (i, deal) in series["deals"].as_array().expect("deals").iter().enumerate() {
        if i > 0 {
            replayed.next_deal().expect("the next deal");
        }
        assert_eq!(u64::from(replayed.deal_number()), deal["number"].as_u64().expect("a number"));
        for step in deal["actions"].as_array().expect("actions") {
            let seat = Seat(step["seat"].as_u64().expect("a seat") as u8);
            let action = GameAction::from_json(game, step["action"].clone()).expect("an action of the game");
            replayed.apply(seat, &action).expect("every exported action is legal");
        }
        assert!(replayed.deal_over(), "deal {} ends with its actions", deal["number"]);
        let view = serde_json::to_value(replayed.view(None)).expect("a view");
        assert_eq!(view["deal"]["reveal"]["seed"], deal["seed"], "the deal's own seed");
        assert_eq!(view["deal"]["dealer"], deal["dealer"]);
    }
    assert!(replayed.series_over(), "the exported deals make the whole series");
    serde_json::to_value(replayed.view(None)).expect("a view")["scoresheet"].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_games_series_opens_by_key_without_its_running_deal_and_its_export_replays_to_the_same_sheet() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    for (i, &game) in GameId::ALL.iter().enumerate() {
        let rules = short_rules(game, 2);
        let mut table = Table::open(&server, rules, json!({"next_deal_seconds": null}), 1).await;
        let room = table.room.clone();
        let mut rng = Rng(90 + i as u64);
        finish_deal(&mut table, &mut rng).await;
        let first_deal = table.finished_actions.clone();
        table.ask_next_deal().await;
        // Deal 2 is under way: a few actions made, its cards partly played.
        for _ in 0..3 {
            if !table.deal_over() {
                assert!(table.step(&mut rng).await);
            }
        }
        assert!(!table.deal_over() || game == GameId::Wippen, "{game:?}: deal 2 still running");

        // A seated player gets the share key; a spectator of a room without public replays not.
        let shared = ask_share_key(&mut table.seats[0]).await;
        assert_eq!(shared["type"], "share_link", "{shared}");
        assert_eq!(shared["room"], room.as_str());
        let key = shared["key"].as_str().unwrap().to_string();
        let refused = ask_share_key(&mut table.spectators[0]).await;
        assert_eq!(refused["code"], "replay/unavailable", "{refused}");

        // Anyone with the link, in no room: the finished deal, nothing of the running one.
        let mut stranger = Client::greeted(&server).await;
        let page = ask_series(&mut stranger, &room, &key).await;
        assert_eq!(page["type"], "series", "{game:?}: {page}");
        let series = &page["series"];
        assert_eq!(series["format"], 1);
        assert_eq!(series["rules"]["game"], game.code());
        assert_eq!(series["over"], false);
        assert!(series["master_seed"].is_null(), "{game:?}: no master seed while the series runs");
        assert!(series["perspective"].is_null());
        assert!(series["sheet"]["deal"].is_null(), "{game:?}: the running deal is left out");
        let deals = series["deals"].as_array().unwrap();
        assert_eq!(deals.len(), 1, "{game:?}: only the finished deal");
        let exported: Vec<(u64, Value)> = deals[0]["actions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| (a["seat"].as_u64().unwrap(), a["action"].clone()))
            .collect();
        assert_eq!(exported.len(), first_deal.len(), "{game:?}: every action of deal 1");
        for ((seat, action), (sent_seat, sent)) in exported.iter().zip(&first_deal) {
            assert_eq!(*seat, u64::from(sent_seat.0));
            assert_eq!(
                GameAction::from_json(game, action.clone()).ok(),
                GameAction::from_json(game, sent.clone()).ok()
            );
        }
        let names: Vec<Value> = (0..table.seats.len()).map(|s| json!(format!("Seat{s}"))).collect();
        assert_eq!(series["players"], json!(names));
        let leaked = cards_in(&beyond_finished_deals(series).to_string());
        assert!(leaked.is_empty(), "{game:?}: the series page names {leaked:?} beyond its finished deals: {series}");

        // A player's own token opens it too, from his seat; a wrong key or room does not.
        let token = table.seats[1].token();
        let mine = ask_series(&mut stranger, &room, &token).await;
        assert_eq!(mine["series"]["perspective"], 1, "{mine}");
        assert_eq!(mine["share_key"], key.as_str(), "a player may share his series");
        assert!(page["share_key"].is_null(), "the share key is not passed on through itself");
        assert!(cards_in(&beyond_finished_deals(&mine["series"]).to_string()).is_empty());
        for (r, k) in [(room.as_str(), "not-the-key"), (room.as_str(), ""), ("AAAAAAAAAAAAAAAAAAAA", key.as_str())] {
            let wrong = ask_series(&mut stranger, r, k).await;
            assert_eq!(wrong["code"], "series/not_found", "{wrong}");
        }
        // Its replays: the finished deal, never the running one.
        stranger.send(json!({"type": "series_replay", "room": room, "key": key, "deal": 2})).await;
        let running = stranger.recv_type_or_error("replay").await;
        assert_eq!(running["code"], "replay/unavailable", "{game:?}: {running}");
        stranger.send(json!({"type": "series_replay", "room": room, "key": key, "deal": 1})).await;
        let replay = stranger.recv_type_or_error("replay").await;
        assert_eq!(replay["type"], "replay", "{replay}");
        assert_eq!(replay["replay"]["steps"].as_array().unwrap().len(), first_deal.len() + 1);
        assert!(replay["replay"]["perspective"].is_null());

        // To the end of the series: the export re-played by the rules crate gives its sheet.
        while !table.series_over() {
            if table.deal_over() {
                table.ask_next_deal().await;
            } else {
                assert!(table.step(&mut rng).await);
            }
        }
        let page = ask_series(&mut stranger, &room, &key).await;
        let series = &page["series"];
        assert_eq!(series["over"], true, "{game:?}");
        assert!(series["master_seed"].is_string(), "{game:?}: the master seed once the series is over");
        let sheet = table.seats[0].game["scoresheet"].clone();
        assert_eq!(series["sheet"]["scoresheet"], sheet, "{game:?}: the series page's sheet is the table's");
        assert_eq!(replay_export(series), sheet, "{game:?}: the export re-played gives the same scoresheet");
        stranger.close().await;
        for client in table.seats.into_iter().chain(table.spectators) {
            client.close().await;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_with_public_replays_gives_its_spectators_the_share_key() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    let options = json!({"next_deal_seconds": null, "public_replays": true});
    let mut table = Table::open(&server, short_rules(GameId::Prisdorf, 2), options, 1).await;
    let shared = ask_share_key(&mut table.spectators[0]).await;
    assert_eq!(shared["type"], "share_link", "{shared}");
    let from_player = ask_share_key(&mut table.seats[2]).await;
    assert_eq!(from_player["key"], shared["key"], "one key per series");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_delete_their_series_only_when_all_agree_and_agreement_survives_a_restart() {
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db, &[]);
    let mut table = Table::open(&server, short_rules(GameId::Prisdorf, 2), json!({"next_deal_seconds": null}), 1).await;
    let room = table.room.clone();
    let mut rng = Rng(5);
    finish_deal(&mut table, &mut rng).await;
    let key = ask_share_key(&mut table.seats[0]).await["key"].as_str().unwrap().to_string();
    let tokens: Vec<String> = table.seats.iter().map(Client::token).collect();

    // A spectator has no say.
    table.spectators[0].send(json!({"type": "delete_series", "agree": true})).await;
    let refused = table.spectators[0].recv_type_or_error("none").await;
    assert_eq!(refused["code"], "seat/not_seated", "{refused}");
    // Three of four agree, one of them changes his mind and agrees again.
    for (seat, agree) in [(0, true), (1, true), (2, true), (1, false), (1, true)] {
        table.seats[seat].send(json!({"type": "delete_series", "agree": agree})).await;
        // Until his own vote shows in the room (an update of another's vote may come first).
        loop {
            let update = table.seats[seat].recv_type("update").await;
            let votes = update["room"]["delete_votes"].as_array().cloned().unwrap_or_default();
            if votes.contains(&json!(seat)) == agree {
                assert!(update.to_string().contains(r#""kind":"delete_vote""#), "{update}");
                break;
            }
        }
    }
    let seq = table.seats[1].seq;
    table.sync(seq).await;
    assert_eq!(table.seats[3].room["delete_votes"], json!([0, 1, 2]), "{}", table.seats[3].room);

    // Killed and restarted: the agreement is kept, the series too.
    server.kill();
    server = Server::start(&db, &[]);
    let mut clients = Vec::new();
    for token in &tokens {
        let mut c = Client::greeted(&server).await;
        c.send(json!({"type": "resume", "room": room, "token": token})).await;
        let joined = c.recv_type_or_error("joined").await;
        assert_eq!(joined["type"], "joined", "{joined}");
        assert_eq!(joined["room"]["delete_votes"], json!([0, 1, 2]));
        clients.push(c);
    }
    let mut stranger = Client::greeted(&server).await;
    assert_eq!(ask_series(&mut stranger, &room, &key).await["type"], "series");

    // The last player agrees: everyone in the room is told, and the series is gone.
    clients[3].send(json!({"type": "delete_series", "agree": true})).await;
    for c in &mut clients {
        let deleted = c.recv_type("deleted").await;
        assert_eq!(deleted["room"], room.as_str());
    }
    assert_eq!(ask_series(&mut stranger, &room, &key).await["code"], "series/not_found");
    stranger.send(json!({"type": "my_rooms", "tokens": tokens})).await;
    assert_eq!(stranger.recv_type("my_rooms").await["rooms"], json!([]));
    let mut late = Client::greeted(&server).await;
    late.send(json!({"type": "resume", "room": room, "token": tokens[0]})).await;
    let gone = late.recv_type_or_error("joined").await;
    assert_eq!(gone["type"], "error", "{gone}");
    // The players' connections are free for another room.
    clients[0].send(json!({"type": "leave_room"})).await;
    let room2 = clients[0].create("Again", short_rules(GameId::Prisdorf, 2), json!({})).await;
    assert_ne!(room2, room);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_operators_retention_deletes_series_closed_for_longer_and_keeps_the_rest() {
    let (_dir, db) = temp_db();
    // Rooms leave memory one second after the last person left.
    let mut server = Server::start(&db, &["--room-idle", "1"]);
    let mut old = Table::open(&server, short_rules(GameId::Prisdorf, 2), json!({"next_deal_seconds": null}), 0).await;
    let old_room = old.room.clone();
    let old_key = ask_share_key(&mut old.seats[0]).await["key"].as_str().unwrap().to_string();
    for client in old.seats {
        client.close().await;
    }
    let mut kept = Table::open(&server, short_rules(GameId::Prisdorf, 2), json!({"next_deal_seconds": null}), 0).await;
    let kept_room = kept.room.clone();
    let kept_key = ask_share_key(&mut kept.seats[0]).await["key"].as_str().unwrap().to_string();
    tokio::time::sleep(std::time::Duration::from_secs(6)).await;
    // Restarted with a retention of four seconds: the closed room goes, the one in play stays
    // (it was open until the restart, and closing it is what starts its time).
    server.terminate();
    server = Server::start(&db, &["--room-idle", "1", "--retention-days", "0.0000463"]);
    let mut stranger = Client::greeted(&server).await;
    assert_eq!(ask_series(&mut stranger, &old_room, &old_key).await["code"], "series/not_found");
    assert_eq!(ask_series(&mut stranger, &kept_room, &kept_key).await["type"], "series");
    drop(kept);
}

/// A wrong key is refused from the room's creation row alone: the records of the room are not
/// read for it. A closed room with a damaged record shows it: a wrong key gets
/// `series/not_found` and leaves the room unreported, the room's own token finds it broken.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_key_is_refused_before_any_record_is_read() {
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db, &[]);
    let mut host = Client::greeted(&server).await;
    let room = host.create("Ann", short_rules(GameId::Prisdorf, 2), json!({})).await;
    let token = host.token();
    let mut guest = Client::greeted(&server).await;
    assert_eq!(guest.join(&room, "Bob", "player").await["type"], "joined");
    server.kill();
    {
        let conn = rusqlite::Connection::open(&db).unwrap();
        // Closed (not restored at the start) and damaged after its first record.
        conn.execute("UPDATE rooms SET active = 0 WHERE code = ?1", [&room]).unwrap();
        conn.execute(
            "UPDATE records SET record = '{\"record\":\"no_such_record\"}' WHERE room = ?1 AND idx = 1",
            [&room],
        )
        .unwrap();
    }
    let server = Server::start(&db, &[]);
    let mut stranger = Client::greeted(&server).await;
    for wrong in ["not-the-key", "Vq3m2b7YxkR0aL9cTdPz1w8e"] {
        let answer = ask_series(&mut stranger, &room, wrong).await;
        assert_eq!(answer["code"], "series/not_found", "{answer}");
    }
    let (_, metrics) = server.get("/metrics").await;
    assert!(metrics.lines().any(|l| l == "fipsen_rooms_broken_total 0"), "no record was read: {metrics}");
    let answer = ask_series(&mut stranger, &room, &token).await;
    assert_eq!(answer["code"], "room/broken", "{answer}");
    let (_, metrics) = server.get("/metrics").await;
    assert!(metrics.lines().any(|l| l == "fipsen_rooms_broken_total 1"), "{metrics}");
}

/// A series page asks for its deals by number: pages of a few deals each join to the whole
/// series, each page's scoresheet holding the rows of its own deals.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_series_comes_in_pages_that_join_to_the_whole() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    let mut table = Table::open(&server, short_rules(GameId::Prisdorf, 5), json!({"next_deal_seconds": null}), 0).await;
    let room = table.room.clone();
    let mut rng = Rng(7);
    while !table.series_over() {
        if table.deal_over() {
            table.ask_next_deal().await;
        } else {
            assert!(table.step(&mut rng).await);
        }
    }
    // Each finished deal's row of the deal index was stored as the deal ended, before anyone
    // asked for the series (which would otherwise read the room whole to make them).
    let indexed: Vec<i64> = {
        let conn = rusqlite::Connection::open(&db).unwrap();
        let mut stmt = conn.prepare("SELECT number FROM room_deals WHERE room = ?1 ORDER BY number").unwrap();
        stmt.query_map([&room], |row| row.get(0)).unwrap().map(Result::unwrap).collect()
    };
    let key = ask_share_key(&mut table.seats[0]).await["key"].as_str().unwrap().to_string();
    let mut stranger = Client::greeted(&server).await;
    let whole = ask_series(&mut stranger, &room, &key).await["series"].clone();
    // Five deals that count, and any thrown in besides.
    let finished = whole["finished"].as_u64().unwrap();
    assert!(finished >= 5, "{whole}");
    assert_eq!(indexed, (1..=finished as i64).collect::<Vec<_>>(), "a row for every finished deal, as it ended");
    assert_eq!(whole["deals"].as_array().unwrap().len() as u64, finished, "{whole}");
    assert!(whole["next"].is_null(), "a few deals fit one page: {whole}");
    let mut deals = Vec::new();
    let mut rows = Vec::new();
    let mut from = Some(1);
    while let Some(start) = from {
        stranger.send(json!({"type": "series", "room": room, "key": key, "from": start, "count": 2})).await;
        let page = stranger.recv_type_or_error("series").await;
        let series = &page["series"];
        let numbers: Vec<Value> = series["deals"].as_array().unwrap().iter().map(|d| d["number"].clone()).collect();
        let row_numbers: Vec<Value> =
            series["sheet"]["scoresheet"].as_array().unwrap().iter().map(|r| r["number"].clone()).collect();
        assert_eq!(numbers, row_numbers, "{page}");
        assert!(numbers.len() <= 2 && !numbers.is_empty(), "{page}");
        deals.extend(series["deals"].as_array().unwrap().iter().cloned());
        rows.extend(series["sheet"]["scoresheet"].as_array().unwrap().iter().cloned());
        from = series["next"].as_u64();
    }
    assert_eq!(Value::Array(deals), whole["deals"]);
    assert_eq!(Value::Array(rows), whole["sheet"]["scoresheet"]);
    // Past the last finished deal: an empty page.
    stranger.send(json!({"type": "series", "room": room, "key": key, "from": finished + 1})).await;
    let beyond = stranger.recv_type_or_error("series").await;
    assert_eq!(beyond["series"]["deals"], json!([]), "{beyond}");
    assert!(beyond["series"]["next"].is_null());
}

/// The series belongs to the people who played it: a newcomer who took an absent player's open
/// seat does not speak for him, and the absent player, back without a seat, still has his say.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_series_is_deleted_only_when_everyone_who_played_it_agrees() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    let options = json!({"next_deal_seconds": null, "grace_seconds": 0});
    let mut table = Table::open(&server, short_rules(GameId::Prisdorf, 3), options, 0).await;
    let room = table.room.clone();
    let mut rng = Rng(11);
    finish_deal(&mut table, &mut rng).await;
    let key = ask_share_key(&mut table.seats[0]).await["key"].as_str().unwrap().to_string();
    // Seat 3's player goes; with no grace his seat opens, and a newcomer takes it.
    let absent = table.seats.pop().unwrap();
    let absent_token = absent.token();
    absent.close().await;
    let mut newcomer = Client::greeted(&server).await;
    let joined = loop {
        let joined = newcomer.join(&room, "Newcomer", "player").await;
        if joined["type"] == "joined" {
            break joined;
        }
        assert_eq!(joined["code"], "room/started", "{joined}");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    };
    assert_eq!(joined["you"]["seat"], 3, "{joined}");
    // Everyone seated now agrees: the series stays, for the absent player has not.
    for c in table.seats.iter_mut().chain(std::iter::once(&mut newcomer)) {
        c.send(json!({"type": "delete_series", "agree": true})).await;
        let answer = c.recv_type_or_error("update").await;
        assert_eq!(answer["type"], "update", "{answer}");
    }
    let mut stranger = Client::greeted(&server).await;
    assert_eq!(ask_series(&mut stranger, &room, &key).await["type"], "series", "deleted without the absent player");
    // He comes back, seatless, and agrees too: now it goes.
    let mut back = Client::greeted(&server).await;
    back.send(json!({"type": "resume", "room": room, "token": absent_token})).await;
    let joined = back.recv_type_or_error("joined").await;
    assert_eq!(joined["type"], "joined", "{joined}");
    assert!(joined["you"]["seat"].is_null(), "{joined}");
    back.send(json!({"type": "delete_series", "agree": true})).await;
    let deleted = back.recv_type_or_error("deleted").await;
    assert_eq!(deleted["type"], "deleted", "{deleted}");
    assert_eq!(ask_series(&mut stranger, &room, &key).await["code"], "series/not_found");
}
