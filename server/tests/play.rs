//! Whole series over real sockets, and the hidden-card check over hundreds of random games.

mod common;

use common::{Client, Rng, Server, Table, check_frames, temp_db};
use serde_json::{Value, json};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_players_play_a_series_of_several_deals_to_its_scoresheet() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    let options = json!({"next_deal_seconds": null});
    let mut table = Table::open(&server, json!({"players": 4, "deals": 4}), options, 1).await;
    let mut rng = Rng(4);
    table.play_series(&mut rng, true).await;
    let game = table.seats[0].game.clone();
    assert_eq!(game["over"], true);
    let sheet = game["scoresheet"].as_array().unwrap();
    let counted = sheet.iter().filter(|row| row["outcome"]["result"] != "thrown_in").count();
    assert_eq!(counted, 4, "four counted deals: {sheet:?}");
    assert_eq!(table.deals_replayed, sheet.len(), "every deal replayed locally");
    // Totals are the running sum of the rows' values, and every viewer has the same sheet.
    let mut totals = [0i64; 4];
    for row in sheet {
        if let Some(declarer) = row["declarer"].as_u64() {
            totals[declarer as usize] += row["value"].as_i64().unwrap();
        }
        assert_eq!(row["totals"], json!(totals));
    }
    assert_eq!(game["totals"], json!(totals));
    for c in table.seats.iter().chain(&table.spectators) {
        assert_eq!(c.game["scoresheet"], game["scoresheet"]);
        assert_eq!(c.room["status"], "over");
    }
    // The series-over event reached the spectator.
    let last = table.spectators[0].frames.iter().rev().find(|f| f.contains("series_over"));
    assert!(last.is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_three_player_room_plays_its_series() {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &[]);
    let mut table = Table::open(&server, json!({"players": 3, "deals": 3}), json!({"next_deal_seconds": 0}), 1).await;
    assert_eq!(table.seats.len(), 3);
    assert_eq!(table.view()["hand_sizes"], json!([5, 5, 5]));
    let mut rng = Rng(3);
    table.play_series(&mut rng, false).await;
    let sheet = table.seats[0].game["scoresheet"].as_array().unwrap().clone();
    assert_eq!(sheet.iter().filter(|r| r["outcome"]["result"] != "thrown_in").count(), 3);
    assert_eq!(table.deals_replayed, sheet.len());
    for c in &table.seats {
        assert_eq!(c.game["totals"].as_array().unwrap().len(), 3);
    }
    // A fourth player cannot join a three-player table.
    let mut late = Client::greeted(&server).await;
    let refused = late.join(&table.room, "Late", "player").await;
    assert_eq!(refused["code"], "room/started");
}

/// Plays `games` one-deal series (thrown-in deals are dealt again), several rooms at a time,
/// with every seat and two spectators; checks every frame each of them received.
async fn random_games(server: &Server, first_seed: u64, games: u64) -> (usize, usize) {
    let mut frames = 0;
    let mut deals = 0;
    for seed in first_seed..first_seed + games {
        let mut rng = Rng(seed);
        let players = if rng.chance(30) { 3 } else { 4 };
        let rules = json!({
            "players": players,
            "deals": 1,
            "kontra": rng.chance(40),
            "first_lead": if rng.chance(30) { "declarer" } else { "forehand" },
            "kieker_show": if rng.chance(30) { "nobody" } else { "left_opponent" },
        });
        let mut table = Table::open(server, rules, json!({"next_deal_seconds": 0}), 2).await;
        table.play_series(&mut rng, false).await;
        deals += table.deals_replayed;
        let spectator = table.spectators[0].frames.clone();
        for (seat, client) in table.seats.iter().enumerate() {
            frames += check_frames(Some(seat as u8), &client.frames, &spectator);
        }
        for client in &table.spectators {
            frames += check_frames(None, &client.frames, &spectator);
        }
        for client in table.seats.into_iter().chain(table.spectators) {
            client.close().await;
        }
    }
    (frames, deals)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_frame_of_300_random_games_shows_a_viewer_a_card_it_may_not_see() {
    let (_dir, db) = temp_db();
    let server = std::sync::Arc::new(Server::start(&db, &[]));
    let mut tasks = Vec::new();
    const PARALLEL: u64 = 6;
    const GAMES: u64 = 300;
    for lane in 0..PARALLEL {
        let server = server.clone();
        tasks.push(tokio::spawn(async move { random_games(&server, 1000 + lane * 1000, GAMES / PARALLEL).await }));
    }
    let (mut frames, mut deals) = (0, 0);
    for task in tasks {
        let (f, d) = task.await.unwrap();
        frames += f;
        deals += d;
    }
    assert!(deals >= GAMES as usize, "{deals} deals");
    assert!(frames > 10_000, "only {frames} frames checked");
    eprintln!("checked {frames} frames of {deals} deals");
}

#[test]
fn the_check_catches_a_leak() {
    // A spectator frame showing a hand in the middle of a deal must fail the check.
    let spectator = vec![
        json!({"type": "update", "seq": 1, "game": {"number": 1},
               "events": [{"seq": 1, "kind": "game", "event": {"event": "dealt", "number": 1}}]})
        .to_string(),
        json!({"type": "update", "seq": 2, "game": {"number": 1},
               "events": [{"seq": 2, "kind": "game", "event": {"event": "deal_over", "reveal": {
                   "dealt": [["CA"], ["SA"], ["HA"], ["D7"]], "skat": [], "stock": [], "discards": []}}}]})
        .to_string(),
    ];
    let leak = vec![json!({"type": "update", "seq": 1, "game": {"number": 1, "deal": {"hand": ["SA"]}}}).to_string()];
    let own = leak.clone();
    assert!(std::panic::catch_unwind(|| check_frames(None, &leak, &spectator)).is_err());
    assert_eq!(check_frames(Some(1), &own, &spectator), 1);
    let after: Vec<String> = vec![json!({"seq": 2, "game": {"number": 1}, "x": ["SA", "HA"]}).to_string()];
    assert_eq!(check_frames(None, &after, &spectator), 1);
    let _: Value = Value::Null;
}
