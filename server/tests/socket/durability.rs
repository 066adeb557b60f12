//! The real binary killed with SIGKILL mid-deal and restarted on the same database loses
//! nothing it acknowledged; SIGTERM closes connections with 1012.

#![allow(clippy::unwrap_used)]

use crate::common;

use common::{Client, Rng, Server, Table, play_through_kills, resume_all, temp_db};
use fipsen_rules::GameId;
use serde_json::{Value, json};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_at_several_points_of_a_deal_loses_nothing_acknowledged() {
    sigkill_and_restart_lose_nothing(json!({"players": 4, "deals": 3}), 77).await;
}

/// The same in every other game of the platform: its stored actions are read back as that
/// game's, and every deal still replays against its rules.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_survives_sigkill_and_restart_losing_nothing_acknowledged() {
    for (i, &game) in GameId::ALL.iter().enumerate().filter(|(_, g)| **g != GameId::Prisdorf) {
        // Four deals, or one round (several deals) where a game counts rounds.
        // Tippen's deals are short (three cards a hand): eight of them.
        let length = match game {
            GameId::Thedinghausen => json!({"rounds": 1}),
            GameId::Tippen => json!({"deals": 8}),
            _ => json!({"deals": 4}),
        };
        let mut rules = json!({"game": game.code()});
        rules.as_object_mut().unwrap().extend(length.as_object().unwrap().clone());
        sigkill_and_restart_lose_nothing(rules, 100 + i as u64).await;
    }
}

/// Plays a series with `rules`, killing the server right after an acknowledged action at
/// several points and resuming every seat and the spectator on a restarted server.
async fn sigkill_and_restart_lose_nothing(rules: Value, seed: u64) {
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db, &[]);
    let mut table = Table::open(&server, rules.clone(), json!({"next_deal_seconds": null}), 1).await;
    let mut rng = Rng(seed);
    // Kill after 1, 3, 5, 7, … actions: in the auction, around the skat, in the tricks, and
    // (with the next deal asked for by hand) between deals.
    let kills =
        play_through_kills(&mut server, &db, &[], &mut table, &mut rng, |gap| if gap == 0 { 1 } else { gap + 2 }).await;
    assert!(kills >= 4, "only {kills} kills");
    let sheet =
        table.seats[0].game["scoresheet"].as_array().unwrap().iter().filter(|row| row["row"] != "round").count();
    assert_eq!(table.deals_replayed, sheet, "every deal replayed, across {kills} restarts: {rules}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_closes_sockets_with_1012_and_the_room_comes_back() {
    let (_dir, db) = temp_db();
    let mut server = Server::start(&db, &[]);
    let mut table = Table::open(&server, json!({"players": 3}), json!({}), 1).await;
    let mut rng = Rng(9);
    for _ in 0..4 {
        if !table.deal_over() {
            table.step(&mut rng).await;
        }
    }
    let before: Vec<Value> = table.seats.iter().map(|c| c.game.clone()).collect();
    let tokens: Vec<String> = table.seats.iter().map(Client::token).collect();
    assert!(server.terminate(), "graceful exit");
    for c in table.seats.iter_mut().chain(table.spectators.iter_mut()) {
        assert_eq!(c.recv_close().await, 1012);
    }
    server = Server::start(&db, &[]);
    let views = resume_all(&server, &mut table, &tokens).await;
    assert_eq!(views, before);
    let (status, body) = server.get("/metrics").await;
    assert!(status.contains("200"), "{status}");
    assert!(body.contains("fipsen_rooms 1"), "the room was restored at start:\n{body}");
}

/// A graceful exit closes the store: its write-ahead log is folded into the database file and
/// removed, whether or not rooms were open (an operator copying the file then has all of it).
#[tokio::test]
async fn sigterm_closes_the_store_and_leaves_no_write_ahead_log() {
    let (_dir, db) = temp_db();
    let wal = db.with_extension("sqlite3-wal");
    let mut server = Server::start(&db, &[]);
    let (status, _) = server.get("/healthz").await;
    assert!(status.contains("200"), "{status}");
    assert!(wal.exists(), "the store runs with a write-ahead log");
    assert!(server.terminate(), "graceful exit");
    assert!(!wal.exists(), "{} is left after a graceful exit", wal.display());
}
