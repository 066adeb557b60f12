//! What a replay costs in bytes: plays `deals` deals (20 by default) of computer players at
//! each of a list of tables, the largest and most varied of every game, and prints the largest
//! replay of each (with its analysis), how many steps it has, its largest step after the first,
//! and what its steps would have cost whole (every step carrying the deal and the hands, as
//! replays of format 1 did):
//!
//! ```sh
//! cargo run --release -p fipsen-server --example replay_sizes -- 20
//! ```

use fipsen_rules::GameRules;
use fipsen_server::replay::{played_by_bots, replay_deal};
use fipsen_server::series_index::InMemory;

/// The tables measured: every game at its most seats, and the variants with the longest deals.
const TABLES: &[&str] = &[
    r#"{"game": "prisdorf", "players": 4}"#,
    r#"{"game": "prisdorf", "players": 3}"#,
    r#"{"game": "grossenaspe", "players": 5}"#,
    r#"{"game": "anseggerfips"}"#,
    r#"{"game": "duttfips"}"#,
    r#"{"game": "thedinghausen"}"#,
    r#"{"game": "tippen", "preset": "vierblatt", "players": 10, "exchange_max": 4}"#,
    r#"{"game": "tippen", "preset": "meyers_1905", "players": 10}"#,
    r#"{"game": "tippen", "preset": "dreiblatt_1859", "players": 10, "robbing": true}"#,
    r#"{"game": "tippen", "preset": "loup_1821", "players": 5}"#,
    r#"{"game": "wippen", "players": 2}"#,
    r#"{"game": "wippen", "players": 3}"#,
    r#"{"game": "wippen", "players": 4}"#,
];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let deals: u32 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(20);
    for (index, table) in TABLES.iter().enumerate() {
        let rules: GameRules = serde_json::from_str(table).expect("a table's rules");
        let mut stored = played_by_bots(rules, deals);
        // Analyses are kept by room and deal: each table its own room.
        stored.meta.code = format!("replaysizes{index:09}");
        let stored = InMemory::new(stored).expect("a sound room");
        let (mut largest, mut steps, mut analysis, mut at, mut step_max, mut whole) = (0, 0, 0, 0, 0, 0);
        for deal in 1..=deals {
            let Ok(Some(replay)) = replay_deal(&stored.read(deal, 1), deal, Some(fipsen_rules::Seat(0))) else {
                continue;
            };
            let bytes = serde_json::to_string(&replay).map_or(0, |json| json.len());
            if bytes > largest {
                largest = bytes;
                steps = replay.steps.len();
                analysis = replay.analysis.as_ref().and_then(|a| serde_json::to_string(a).ok()).map_or(0, |a| a.len());
                at = deal;
                step_max = replay
                    .steps
                    .iter()
                    .skip(1)
                    .map(|s| serde_json::to_string(s).map_or(0, |j| j.len()))
                    .max()
                    .unwrap_or(0);
                whole = whole_bytes(&replay);
            }
        }
        println!(
            "{table}: largest replay {largest} bytes (deal {at}, {steps} steps, largest later step {step_max} bytes, \
             analysis {analysis} bytes); with every step whole {whole} bytes"
        );
    }
}

/// The bytes of `replay` with every step whole.
fn whole_bytes(replay: &fipsen_protocol::DealReplay) -> usize {
    let mut whole = replay.clone();
    let shown = replay.shown().expect("the steps patch in order");
    for (step, shown) in whole.steps.iter_mut().zip(shown) {
        step.deal = Some(shown.deal);
        step.hands = Some(shown.hands);
        step.patches.clear();
    }
    serde_json::to_string(&whole).map_or(0, |json| json.len())
}
