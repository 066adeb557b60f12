//! A replay costs bytes in proportion to its steps, for every game and the longest deals: each
//! step after the first carries only what it changed, and the steps, patched in order, show
//! exactly the deal and the hands that every step showed whole before (nothing is lost).
//!
//! The tables are every game at its most seats and the variants with the longest deals; the
//! deals are played by computer players (`played_by_bots`), and each replay's actions are
//! played again here through the rules crate alone to know what every step must show whole (as
//! replays of format 1 carried it).

use fipsen_protocol::{Patch, patch};
use fipsen_rules::{AnyGame, GameRules, Seat};
use fipsen_server::replay::{played_by_bots, replay_deal};
use fipsen_server::series_index::InMemory;
use serde_json::{Value, json};

/// The largest reply a server sends by default (`--max-reply-bytes`).
const REPLY_LIMIT: usize = 256 * 1024;

/// What a replay of any deal stays under, its analysis included: a quarter of the reply limit.
const REPLAY_BOUND: usize = 64 * 1024;

/// What any step after the first costs at most: what one action changes of a deal (a trick
/// closed, a Wippen capture with the table and the captured piles it changes; the last step
/// also reveals the deal, in its events and its view: 3.9 KB at a Tippen table of ten), never
/// the deal's history.
const STEP_BOUND: usize = 6 * 1024;

/// Every game at its most seats, and the variants with the longest deals (Tippen's largest
/// tables, with the exchange and the robbing that add steps; Wippen at two seats: 48 moves a
/// deal as at every table size, and each seat's captured pile grows the most; its larger tables
/// are measured by `server/examples/replay_sizes.rs`, their computer players' every legal move
/// being too slow to list for a test).
const TABLES: &[&str] = &[
    r#"{"game": "prisdorf", "players": 4}"#,
    r#"{"game": "prisdorf", "players": 3}"#,
    r#"{"game": "grossenaspe", "players": 5}"#,
    r#"{"game": "anseggerfips"}"#,
    r#"{"game": "duttfips"}"#,
    r#"{"game": "thedinghausen"}"#,
    r#"{"game": "tippen", "preset": "vierblatt", "players": 10, "exchange_max": 4}"#,
    r#"{"game": "tippen", "preset": "dreiblatt_1859", "players": 10, "robbing": true}"#,
    r#"{"game": "tippen", "preset": "loup_1821", "players": 5}"#,
    r#"{"game": "wippen", "players": 2, "deals": 1}"#,
];

/// Deals played at each table (a Wippen series of two may end sooner).
const DEALS: u32 = 4;

/// What a replay's step shows whole: the deal and every hand.
#[derive(Debug, PartialEq)]
struct Shown {
    deal: Value,
    hands: Value,
}

/// What `series` shows now as a replay's step: the deal seen from `perspective` without a
/// prompt, and every seat's hand as his own view shows it.
fn shown(series: &AnyGame, perspective: Option<Seat>) -> Shown {
    let mut view = series.view_without_rows(perspective);
    view.clear_prompt();
    let deal = serde_json::to_value(&view).expect("a view")["deal"].clone();
    let hands = (0..series.seats())
        .map(|s| {
            let own = serde_json::to_value(series.view_without_rows(Some(Seat(s as u8)))).expect("a view");
            let hand = &own["deal"]["hand"];
            if hand.is_null() { json!([]) } else { hand.clone() }
        })
        .collect();
    Shown { deal, hands }
}

/// A replay's steps as they show, from its JSON: a step with `deal` and `hands` whole, any other
/// the step before with its `patches` applied.
fn patched_in_order(replay: &Value) -> Vec<Shown> {
    let mut document = Value::Null;
    let steps = replay["steps"].as_array().expect("steps");
    steps
        .iter()
        .enumerate()
        .map(|(i, step)| {
            if step.get("deal").is_some() {
                document = json!({"deal": step["deal"], "hands": step["hands"]});
            } else {
                let patches: Vec<Patch> =
                    serde_json::from_value(step.get("patches").cloned().unwrap_or(json!([]))).expect("patches");
                patch::apply(&mut document, &patches).unwrap_or_else(|e| panic!("step {i}: {e}"));
            }
            Shown { deal: document["deal"].clone(), hands: document["hands"].clone() }
        })
        .collect()
}

/// The bytes of a replay's JSON.
fn bytes<T: serde::Serialize>(value: &T) -> usize {
    serde_json::to_string(value).expect("serialises").len()
}

#[test]
fn every_games_longest_replays_cost_bytes_in_proportion_to_their_steps_and_patch_to_every_whole_step() {
    let perspectives = [Some(Seat(0)), None];
    for (index, table) in TABLES.iter().enumerate() {
        let rules: GameRules = serde_json::from_str(table).expect("a table's rules");
        let mut stored = played_by_bots(rules.clone(), DEALS);
        // The analyses are kept by room and deal: each table a room of its own.
        stored.meta.code = format!("replaybytes{index:09}");
        let indexed = InMemory::new(stored.clone()).expect("a sound room");
        // The series followed here through the rules alone, with the replays' own actions.
        let (mut series, _) = AnyGame::start(&rules, stored.meta.master).expect("valid rules");
        let mut longest = (0, 0);
        loop {
            let number = series.deal_number();
            let replays: Vec<Value> = perspectives
                .iter()
                .filter_map(|&p| replay_deal(&indexed.read(number, 1), number, p).expect("a sound room"))
                .map(|replay| serde_json::to_value(replay).expect("serialises"))
                .collect();
            if replays.is_empty() {
                assert!(number > 1, "{table}: the first deal is over");
                break;
            }
            assert_eq!(replays.len(), perspectives.len());
            // Every step whole, from each perspective, the deal played on with the replay's
            // actions.
            let mut whole: Vec<Vec<Shown>> = vec![perspectives.iter().map(|&p| shown(&series, p)).collect()];
            for step in replays[0]["steps"].as_array().expect("steps").iter().skip(1) {
                let seat = Seat(step["seat"].as_u64().expect("a seat") as u8);
                let action = series.action_from_json(step["action"].clone()).expect("an action");
                series.apply(seat, &action).expect("the replay's action is legal");
                whole.push(perspectives.iter().map(|&p| shown(&series, p)).collect());
            }
            assert!(series.deal_over(), "{table} deal {number}: the replay plays the deal to its end");
            for (p, replay) in replays.iter().enumerate() {
                let json = replay.to_string();
                let steps = replay["steps"].as_array().expect("steps");
                assert!(
                    json.len() < REPLAY_BOUND,
                    "{table} deal {number}: a replay of {} bytes, {} steps",
                    json.len(),
                    steps.len()
                );
                for (i, step) in steps.iter().enumerate().skip(1) {
                    let cost = bytes(step);
                    assert!(cost <= STEP_BOUND, "{table} deal {number}: step {i} of {cost} bytes: {step}");
                }
                // The steps, patched in order from the first as they come over the wire, are
                // every step whole.
                let shown = patched_in_order(replay);
                assert_eq!(shown.len(), whole.len(), "{table} deal {number}: a step per action");
                for (i, (got, want)) in shown.iter().zip(&whole).enumerate() {
                    assert_eq!(got, &want[p], "{table} deal {number} ({:?}): step {i}", perspectives[p]);
                }
                if steps.len() > longest.1 {
                    longest = (json.len(), steps.len());
                }
            }
            if series.series_over() || number >= DEALS {
                break;
            }
            series.next_deal().expect("a next deal");
        }
        assert!(longest.1 > 5, "{table}: a deal was replayed");
        assert!(longest.0 < REPLY_LIMIT / 4);
    }
}
