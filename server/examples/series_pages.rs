//! What a series page and a replay cost in a long series: plays a series of computer players
//! (`deals` deals of Prisdorf by default, or of the game named), stores it in a new SQLite file
//! as a room stored before the deal index existed, builds its index once (as the first request
//! for such a room does), then times every page of its finished deals and the replay of its
//! first and last deal, each read from storage as the server reads it, and prints the largest
//! frame of each and how many records each read:
//!
//! ```sh
//! cargo run --release -p fipsen-server --example series_pages -- 2000
//! cargo run --release -p fipsen-server --example series_pages -- 500 tippen
//! ```

use std::sync::Arc;
use std::time::Instant;

use fipsen_rules::{GameId, GameRules};
use fipsen_server::metrics::Metrics;
use fipsen_server::replay::{SERIES_PAGE_DEALS, SeriesPage, played_by_bots, replay_deal, series_record};
use fipsen_server::series_index::read;
use fipsen_server::storage::Storage;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let deals: u32 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(2_000);
    let code = args.get(2).map_or("prisdorf", String::as_str);
    let Some(game) = GameId::from_code(code) else {
        eprintln!("unknown game `{code}`");
        std::process::exit(2);
    };
    let started = Instant::now();
    let stored = played_by_bots(GameRules::default_for(game), deals);
    let room = stored.meta.code.clone();
    println!("{code}: {} records of {deals} deals made in {:.2?}", stored.records.len(), started.elapsed());
    let dir = tempfile::tempdir().expect("a temporary folder");
    let (storage, _thread) =
        Storage::open(&dir.path().join("series.sqlite3"), Arc::new(Metrics::default())).expect("a store");
    storage.create_room_with(stored.meta.clone(), stored.records).await.expect("stored");

    let t = Instant::now();
    read(&storage, &room, 1, 1).await.ok().flatten().expect("a sound series");
    let built = t.elapsed();
    let rows = storage.load_deals(&room, 1, u32::MAX).await.ok().flatten().map(|d| d.deals).unwrap_or_default();
    let bytes: usize = rows.iter().map(|d| d.data.len()).sum();
    println!(
        "the deal index built once, from the whole log: {built:.2?}; {} rows, {bytes} bytes ({} a row)",
        rows.len(),
        bytes / rows.len().max(1)
    );

    let mut times = Vec::new();
    let mut largest = 0;
    let mut most_records = 0;
    let mut from = Some(1);
    while let Some(start) = from {
        let t = Instant::now();
        let asked = SeriesPage::asked(Some(start), None);
        let series = read(&storage, &room, asked.from, SERIES_PAGE_DEALS).await.ok().flatten().expect("a sound series");
        most_records = most_records.max(series.records.len());
        let page = tokio::task::spawn_blocking(move || series_record(&series, None, asked).expect("a sound series"))
            .await
            .expect("a page");
        let bytes = serde_json::to_string(&page).map_or(0, |json| json.len());
        times.push(t.elapsed());
        largest = largest.max(bytes);
        from = page.next;
    }
    times.sort();
    let median = times[times.len() / 2];
    let total: std::time::Duration = times.iter().sum();
    println!(
        "pages: {} (median {median:.2?}, slowest {:.2?}, all {total:.2?}); largest page {largest} bytes, \
         at most {most_records} records read",
        times.len(),
        times[times.len() - 1],
    );
    for deal in [1, deals.saturating_sub(1).max(1)] {
        let t = Instant::now();
        let series = read(&storage, &room, deal, 1).await.ok().flatten().expect("a sound series");
        let records = series.records.len();
        let replay = tokio::task::spawn_blocking(move || replay_deal(&series, deal, None).expect("a sound series"))
            .await
            .expect("a replay");
        let elapsed = t.elapsed();
        let bytes = replay.and_then(|r| serde_json::to_string(&r).ok()).map_or(0, |json| json.len());
        println!("replay of deal {deal}: {elapsed:.2?}, {bytes} bytes, {records} records read");
    }
}
