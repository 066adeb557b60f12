//! A table whose series has run for thousands of deals (a club's evenings over months): the
//! snapshot a player or a watcher is sent on entering carries the newest rows of the scoresheet
//! that fit, says how many older rows it leaves out, and stays far under the reply limit; the
//! series page has the older rows.

#![allow(clippy::unwrap_used)]

use crate::common;

use std::sync::Arc;

use common::{Client, Server, temp_db};
use fipsen_rules::{GameId, GameRules};
use fipsen_server::metrics::Metrics;
use fipsen_server::replay::played_by_bots;
use fipsen_server::storage::Storage;

/// The largest frame a client accepts from the server (the server's own reply limit).
const REPLY_LIMIT: usize = 256 * 1024;

/// Stores a room of `deals` deals played by bots into the SQLite file `db`; returns its code.
fn store_long_room(db: &std::path::Path, game: GameId, deals: u32) -> String {
    let stored = played_by_bots(GameRules::default_for(game), deals);
    let code = stored.meta.code.clone();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let (storage, writer) = Storage::open(db, Arc::new(Metrics::default())).unwrap();
        storage.create_room_with(stored.meta, stored.records).await.unwrap();
        storage.shutdown().await.unwrap();
        drop(storage);
        writer.join().unwrap();
    });
    code
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watcher_of_a_series_of_two_thousand_deals_gets_its_newest_rows_in_a_small_snapshot() {
    let (_dir, db) = temp_db();
    let deals = 2_000;
    let code = tokio::task::spawn_blocking({
        let db = db.clone();
        move || store_long_room(&db, GameId::Prisdorf, deals)
    })
    .await
    .unwrap();
    let server = Server::start(&db, &[]);
    let mut watcher = Client::greeted(&server).await;
    watcher.send(serde_json::json!({"type": "join_room", "room": code, "name": "Meike", "role": "spectator"})).await;
    let frame = loop {
        let Some(frame) = watcher.recv().await else { panic!("the connection closed") };
        if frame["type"] == "joined" || frame["type"] == "error" {
            break frame;
        }
    };
    assert_eq!(frame["type"], "joined", "{}", &frame.to_string()[..frame.to_string().len().min(500)]);
    let bytes = frame.to_string().len();
    assert!(bytes < REPLY_LIMIT / 2, "a snapshot of {bytes} bytes");
    let game = &frame["game"];
    let rows = game["scoresheet"].as_array().unwrap();
    let before = frame["rows_before"].as_u64().unwrap();
    // The newest rows, in order, through the last deal played; the older ones left out and
    // counted, so that the rows sent and left out are the whole sheet.
    assert!(!rows.is_empty() && before > 0, "{before} left out, {} sent", rows.len());
    let numbers: Vec<u64> = rows.iter().map(|r| r["number"].as_u64().unwrap()).collect();
    assert_eq!(*numbers.last().unwrap(), u64::from(deals), "the last row is the last deal's");
    assert!(numbers.windows(2).all(|w| w[1] == w[0] + 1), "the newest rows in order");
    assert_eq!(before + rows.len() as u64, u64::from(deals), "every row sent or counted");
    // The totals are the series' own, whatever rows were left out: the last row's.
    assert_eq!(game["totals"], rows.last().unwrap()["totals"]);
}
