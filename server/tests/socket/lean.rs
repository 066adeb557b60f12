//! Lean updates over real sockets: a client that applies the patches of every `update` holds,
//! after every move of a 20-deal series, exactly the state a fresh snapshot gives, for every
//! seat and a spectator, in Prisdorf and in Tippen (the mechanism knows no game).
//!
//! After every move a fresh spectator joins: its `joined` snapshot is the patched state of the
//! table's spectator, and its room is every seat's patched room; each seat's patched view is the
//! view the rules crate gives that seat, from the same seed and the same moves. At the end of
//! every deal each seat comes back on a new connection with its token: the `joined` snapshot
//! it gets is the state its old connection had patched together, and the new connection plays on.

#![allow(clippy::unwrap_used)]

use crate::common;

use common::{Client, Rng, Server, Table, check_frames, short_rules, temp_db};
use fipsen_rules::{AnyGame, GameAction, GameId, GameRules, Seat, Seed};
use serde_json::{Value, json};

const SEED: &str = "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0";
const DEALS: u32 = 20;

/// The state a client holds: `{"room": …, "game": …}`, without the time readings of the turn
/// clock (measured anew for each frame).
fn held(client: &Client) -> Value {
    timeless(json!({"room": client.room, "game": client.game}))
}

/// A state without the turn clock's time readings (a snapshot and an update built a moment
/// apart read the clock at different times) and without the spectators' count (a room tells it
/// at most once a second, so a snapshot may be ahead of it; `server/tests/socket/audience.rs` holds
/// the count to what it must be).
fn timeless(mut state: Value) -> Value {
    if let Some(turn) = state["room"].get_mut("turn").and_then(Value::as_object_mut) {
        turn.remove("waited_ms");
        turn.remove("left_ms");
    }
    if let Some(room) = state["room"].as_object_mut() {
        room.remove("spectators");
    }
    state
}

/// A fresh spectator's snapshot, compared with every patched state of the table.
async fn compare_with_fresh_snapshot(server: &Server, table: &mut Table, replica: &AnyGame, moves: usize) {
    let mut fresh = Client::greeted(server).await;
    let joined = fresh.join(&table.room, "Fresh", "spectator").await;
    assert_eq!(joined["type"], "joined", "{joined}");
    let seq = joined["seq"].as_u64().unwrap();
    table.sync(seq).await;
    let snapshot = timeless(json!({"room": joined["room"], "game": joined["game"]}));
    assert_eq!(held(&table.spectators[0]), snapshot, "the spectator's patched state after move {moves}");
    for (s, seat) in table.seats.iter().enumerate() {
        assert_eq!(held(seat)["room"], snapshot["room"], "seat {s}'s patched room after move {moves}");
        let view = serde_json::to_value(replica.view(Some(Seat(s as u8)))).unwrap();
        assert_eq!(seat.game, view, "seat {s}'s patched view after move {moves}");
    }
    // The fresh spectator goes.
    fresh.send(json!({"type": "leave_room"})).await;
    fresh.recv_type("left").await;
    let seq = table.spectators[0].seq;
    table.sync(seq).await;
    fresh.close().await;
}

/// Every seat comes back on a new connection: its snapshot is what the old one patched together.
async fn resume_every_seat(server: &Server, table: &mut Table, number: u64) {
    for s in 0..table.seats.len() {
        let token = table.seats[s].token();
        let mut back = Client::greeted(server).await;
        back.send(json!({"type": "resume", "room": table.room, "token": token, "last_seq": table.seats[s].seq})).await;
        let joined = back.recv_type("joined").await;
        assert_eq!(joined["you"]["seat"], json!(s), "{joined}");
        let old = std::mem::replace(&mut table.seats[s], back);
        // The snapshot is as of the seat's return, which changes nothing the old connection saw.
        assert_eq!(
            timeless(json!({"room": joined["room"], "game": joined["game"]})),
            held(&old),
            "seat {s} at the end of deal {number}"
        );
        let seq = joined["seq"].as_u64().unwrap();
        table.sync(seq).await;
    }
}

/// No `update` after the series started replaces the room, the series or the state whole.
fn assert_lean(frames: &[String]) -> usize {
    let mut started = false;
    let mut updates = 0;
    for frame in frames {
        let v: Value = serde_json::from_str(frame).unwrap();
        if v["type"] == "joined" {
            started = !v["game"].is_null();
        }
        if v["type"] != "update" {
            continue;
        }
        let patches = v["patches"].as_array().expect("an update carries patches");
        assert!(v.get("room").is_none() && v.get("game").is_none(), "no whole view in an update: {frame}");
        if started {
            updates += 1;
            for patch in patches {
                let depth = patch["path"].as_array().unwrap().len();
                assert!(depth >= 2, "a patch replaces a whole part: {patch}");
            }
        }
        if patches.iter().any(|p| p["path"] == json!(["game"])) {
            started = true;
        }
    }
    updates
}

async fn lean_series(game: GameId) {
    let (_dir, db) = temp_db();
    let server = Server::start(&db, &["--insecure-fixed-seed", SEED]);
    let mut table = Table::open(&server, short_rules(game, DEALS), json!({"next_deal_seconds": null}), 1).await;
    let rules: GameRules = serde_json::from_value(table.seats[0].room["rules"].clone()).unwrap();
    let (mut replica, _) = AnyGame::start(&rules, Seed::from_hex(SEED).unwrap()).unwrap();
    let mut rng = Rng(31);
    let mut moves = 0;
    let mut deals = 0;
    // Every frame of each seat's connections, and the spectator's.
    let mut frames: Vec<Vec<String>> = vec![Vec::new(); table.seats.len()];
    compare_with_fresh_snapshot(&server, &mut table, &replica, moves).await;
    while !table.series_over() {
        if table.deal_over() {
            table.ask_next_deal().await;
            replica.next_deal().unwrap();
        } else {
            assert!(table.step(&mut rng).await, "nobody could act: {}", table.view());
            // The move just made: a deal it ended has its moves among the finished ones.
            let made = if table.deal_over() { table.finished_actions.last() } else { table.actions.last() };
            let (seat, action) = made.cloned().unwrap();
            replica.apply(seat, &GameAction::from_json(game, action).unwrap()).unwrap();
            moves += 1;
        }
        compare_with_fresh_snapshot(&server, &mut table, &replica, moves).await;
        if table.deal_over() {
            deals += 1;
            let number = table.seats[0].game["number"].as_u64().unwrap();
            for (s, seat) in table.seats.iter().enumerate() {
                frames[s].extend(seat.frames.iter().cloned());
            }
            resume_every_seat(&server, &mut table, number).await;
        }
    }
    assert!(replica.series_over());
    // Every deal dealt was compared at its end (a deal nobody bid for is dealt again and not
    // counted: there may be more deals than the series counts).
    let dealt = table.seats[0].game["number"].as_u64().unwrap();
    assert_eq!(deals as u64, dealt, "every deal of the series was played and compared");
    assert!(deals >= DEALS as usize, "a series of {DEALS} deals");
    // Every frame is lean, and none shows a card its viewer may not see.
    let spectator = table.spectators[0].frames.clone();
    assert!(assert_lean(&spectator) > moves);
    for (s, seat) in table.seats.iter().enumerate() {
        frames[s].extend(seat.frames.iter().cloned());
        assert!(assert_lean(&frames[s]) > 0);
        assert!(check_frames(Some(s as u8), &frames[s], &spectator) > moves);
    }
    assert!(check_frames(None, &spectator, &spectator) > moves);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn patched_states_equal_fresh_snapshots_through_a_prisdorf_series() {
    lean_series(GameId::Prisdorf).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn patched_states_equal_fresh_snapshots_through_a_tippen_series() {
    lean_series(GameId::Tippen).await;
}
