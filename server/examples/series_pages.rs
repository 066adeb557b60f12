//! What a series page and a replay cost in a long series: plays a series of computer players
//! (`deals` deals of Prisdorf by default, or of the game named), then times every page of its
//! finished deals, the replay of its first and last deal, and prints the largest frame of each:
//!
//! ```sh
//! cargo run --release -p fipsen-server --example series_pages -- 2000
//! cargo run --release -p fipsen-server --example series_pages -- 500 tippen
//! ```

use std::time::Instant;

use fipsen_rules::{GameId, GameRules};
use fipsen_server::replay::{SeriesPage, played_by_bots, replay_deal, series_record};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let deals: u32 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(2_000);
    let code = args.get(2).map_or("prisdorf", String::as_str);
    let Some(game) = GameId::from_code(code) else {
        eprintln!("unknown game `{code}`");
        std::process::exit(2);
    };
    let started = Instant::now();
    let stored = played_by_bots(GameRules::default_for(game), deals);
    println!("{code}: {} records of {deals} deals made in {:.2?}", stored.records.len(), started.elapsed());

    let mut times = Vec::new();
    let mut largest = 0;
    let mut from = Some(1);
    while let Some(start) = from {
        let t = Instant::now();
        let page = series_record(&stored, None, SeriesPage::asked(Some(start), None)).expect("a sound series");
        let bytes = serde_json::to_string(&page).map_or(0, |json| json.len());
        times.push(t.elapsed());
        largest = largest.max(bytes);
        from = page.next;
    }
    times.sort();
    let median = times[times.len() / 2];
    let total: std::time::Duration = times.iter().sum();
    println!(
        "pages: {} (median {median:.2?}, slowest {:.2?}, all {total:.2?}); largest page {largest} bytes",
        times.len(),
        times[times.len() - 1],
    );
    for deal in [1, deals.saturating_sub(1).max(1)] {
        let t = Instant::now();
        let replay = replay_deal(&stored, deal, None).expect("a sound series");
        let elapsed = t.elapsed();
        let bytes = replay.and_then(|r| serde_json::to_string(&r).ok()).map_or(0, |json| json.len());
        println!("replay of deal {deal}: {elapsed:.2?}, {bytes} bytes");
    }
}
