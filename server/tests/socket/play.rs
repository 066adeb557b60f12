//! Whole series over real sockets, and the hidden-card check over hundreds of random games.

use crate::common;

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

/// With this master seed every room's first deal (four players) gives seat 3 the four sevens
/// and the ace of clubs while seat 0, Vorhand, is to bid.
const SIEBENER_FIPS_SEED: &str = "000000000000030c000000000000000000000000000000000000000000000000";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_siebener_fips_offered_out_of_turn_never_leaves_the_random_table_without_a_move() {
    let master = fipsen_rules::Seed::from_hex(SIEBENER_FIPS_SEED).unwrap();
    let (series, _) = fipsen_rules::Series::new(fipsen_rules::RuleSet::prisdorf(), master).unwrap();
    assert!(series.deal().hand(fipsen_rules::Seat(3)).has_siebener_fips());
    assert_eq!(series.deal().turn(), Some(fipsen_rules::Seat(0)));

    let (_dir, db) = temp_db();
    let server = Server::start(&db, &["--insecure-fixed-seed", SIEBENER_FIPS_SEED]);
    let mut announced = 0;
    for seed in 0..8 {
        let mut table =
            Table::open(&server, json!({"players": 4, "deals": 1}), json!({"next_deal_seconds": 0}), 1).await;
        table.play_series(&mut Rng(seed), false).await;
        let sheet = table.seats[0].game["scoresheet"].clone();
        announced += usize::from(sheet[0]["outcome"]["result"] == "siebener_fips");
        let spectator = table.spectators[0].frames.clone();
        for (seat, client) in table.seats.iter().enumerate() {
            check_frames(Some(seat as u8), &client.frames, &spectator);
        }
        for client in table.seats.into_iter().chain(table.spectators) {
            client.close().await;
        }
    }
    assert!(announced > 0, "the Siebener Fips was never announced");
}

/// A spectator's record of two short deals: deal 1 (seqs 1–2) and deal 2 (seqs 3–4).
fn two_deals() -> Vec<String> {
    let game = |seq: u64, event: Value| json!({"seq": seq, "kind": "game", "event": event});
    let frame = |seq: u64, number: u32, event: Value| {
        let patches = json!([{"op": "set", "path": ["game"], "value": {"number": number}}]);
        json!({"type": "update", "seq": seq, "events": [game(seq, event)], "patches": patches}).to_string()
    };
    let over = |dealt: Value| json!({"event": "deal_over", "reveal": {"dealt": dealt, "skat": [], "stock": [], "discards": []}});
    vec![
        frame(1, 1, json!({"event": "dealt", "number": 1})),
        frame(2, 1, over(json!([["CA"], ["SA"], ["HA"], ["D7"]]))),
        frame(3, 2, json!({"event": "dealt", "number": 2})),
        frame(4, 2, over(json!([["C7"], ["S7"], ["H7"], ["CK"]]))),
    ]
}

fn leaks(viewer: Option<u8>, frame: Value) -> bool {
    let frames = vec![frame.to_string()];
    std::panic::catch_unwind(|| check_frames(viewer, &frames, &two_deals())).is_err()
}

#[test]
fn the_check_catches_a_leak() {
    // A spectator frame showing a hand in the middle of a deal must fail the check.
    let showing = |hand: Value| {
        json!({"type": "update", "seq": 1, "events": [], "patches": [
        {"op": "set", "path": ["game"], "value": {"number": 1, "deal": {"hand": hand}}}]})
    };
    assert!(leaks(None, showing(json!(["SA"]))));
    // A card a patch carries is judged even when a later patch of the frame takes it away again.
    let mut undone = showing(json!(["SA"]));
    undone["patches"].as_array_mut().unwrap().push(json!({"op": "set", "path": ["game", "deal", "hand"], "value": []}));
    assert!(leaks(None, undone));
    // So is a card a patch appends.
    let mut appended = showing(json!([]));
    appended["patches"]
        .as_array_mut()
        .unwrap()
        .push(json!({"op": "append", "path": ["game", "deal", "hand"], "values": ["SA"]}));
    assert!(leaks(None, appended));
    // Its own hand a seat may see; after the deal, everybody sees everything.
    assert!(!leaks(Some(1), showing(json!(["SA"]))));
    assert!(!leaks(None, json!({"seq": 2, "game": {"number": 1}, "x": ["SA", "HA"]})));
    // An event showing another seat's hand.
    let dealt = json!({"event": "dealt", "number": 1, "hands": [["CA"], ["SA"], null, null]});
    assert!(leaks(
        Some(0),
        json!({"seq": 1, "game": {"number": 1}, "events": [{"seq": 1, "kind": "game", "event": dealt}]})
    ));
    // An event is judged as of its own sequence number, even in a frame sent later.
    let later = json!({"seq": 2, "game": {"number": 1}, "events": [{"seq": 1, "kind": "game", "event": dealt}]});
    assert!(leaks(Some(0), later.clone()));
    assert!(!leaks(Some(0), json!({"seq": 2, "game": {"number": 1}, "x": ["CA", "SA"]})));
    // A game event no spectator saw cannot be judged: that fails too.
    let unknown = json!({"seq": 9, "kind": "game", "event": {"event": "card_played", "card": "CA"}});
    assert!(leaks(None, json!({"seq": 9, "game": {"number": 2}, "events": [unknown]})));
}

#[test]
fn a_frame_that_carries_the_end_of_one_deal_and_the_start_of_the_next_is_judged_event_by_event() {
    // The reveal of deal 1 and the start of deal 2 in one frame (a resume's `missed` list, or
    // updates sent together): the reveal is judged by deal 1, where it is public.
    let over = two_deals()[1].clone();
    let over: Value = serde_json::from_str(&over).unwrap();
    let start = json!({"seq": 3, "kind": "game", "event": {"event": "dealt", "number": 2, "hands": [["C7"], null, null, null]}});
    let both = json!({"type": "update", "seq": 3, "events": [over["events"][0].clone(), start],
                      "patches": [{"op": "set", "path": ["game"], "value": {"number": 2, "deal": {"hand": ["C7"]}}}]});
    assert!(!leaks(Some(0), both.clone()));
    let mut missed = both.clone();
    missed["missed"] = missed["events"].take();
    assert!(!leaks(Some(0), missed));
    // But deal 2's own part of the frame may show only deal 2's cards as of seq 3.
    let mut leaking = both;
    leaking["patches"][0]["value"]["deal"]["hand"] = json!(["C7", "S7"]);
    assert!(leaks(Some(0), leaking));
}
