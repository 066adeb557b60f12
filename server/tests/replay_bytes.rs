//! A replay costs bytes in proportion to its steps, for every game and the longest deals: each
//! step after the first carries only what it changed, and the steps, patched in order, show
//! exactly the deal and the hands that every step showed whole before (nothing is lost).
//!
//! The tables are every game at its most seats and the variants with the longest deals; the
//! deals are played by computer players (`played_by_bots`), and the same play is followed
//! here through the rules crate alone to know what every step must show.

use fipsen_protocol::{Patch, patch};
use fipsen_rules::{AnyGame, GameRules, Seat};
use fipsen_server::replay::{played_by_bots, replay_deal};
use serde_json::{Value, json};

/// The largest reply a server sends by default (`--max-reply-bytes`).
const REPLY_LIMIT: usize = 256 * 1024;

/// What a replay of any deal stays under, its analysis included: a quarter of the reply limit.
const REPLAY_BOUND: usize = 64 * 1024;

/// What any step after the first costs at most: what one action changes of a deal (a trick
/// closed, a Wippen capture with the table and the captured piles it changes; the last step
/// also reveals the deal, in its events and its view), never the deal's history.
const STEP_BOUND: usize = 4 * 1024;

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
    r#"{"game": "wippen", "players": 2}"#,
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

/// Plays the series as `played_by_bots` does (each seat's first legal action, the lowest seat
/// able to act first, a next deal as soon as one is over) and returns, per deal, every step of
/// it whole, from the deal as dealt to its end.
/// Each step is seen from each of `perspectives`, in their order.
fn whole_steps(rules: &GameRules, master: fipsen_rules::Seed, perspectives: &[Option<Seat>]) -> Vec<Vec<Vec<Shown>>> {
    let (mut series, _) = AnyGame::start(rules, master).expect("valid rules");
    let seats = series.seats();
    let shown = |series: &AnyGame| perspectives.iter().map(|&p| shown(series, p)).collect::<Vec<_>>();
    let mut deals = vec![vec![shown(&series)]];
    loop {
        if series.deal_over() {
            if series.series_over() || series.deal_number() >= DEALS {
                break;
            }
            series.next_deal().expect("a next deal");
            deals.push(vec![shown(&series)]);
            continue;
        }
        let Some((seat, action)) = (0..seats)
            .map(|s| Seat(s as u8))
            .find_map(|seat| series.legal_actions(seat).first().map(|action| (seat, action)))
        else {
            panic!("nobody may act: {}", serde_json::to_value(series.view(None)).unwrap_or(Value::Null));
        };
        series.apply(seat, &action).expect("a legal action");
        deals.last_mut().expect("a deal").push(shown(&series));
    }
    deals
}

/// The bytes of a replay's JSON.
fn bytes<T: serde::Serialize>(value: &T) -> usize {
    serde_json::to_string(value).expect("serialises").len()
}

#[test]
fn every_games_longest_replays_cost_bytes_in_proportion_to_their_steps_and_patch_to_every_whole_step() {
    for (index, table) in TABLES.iter().enumerate() {
        let rules: GameRules = serde_json::from_str(table).expect("a table's rules");
        let mut stored = played_by_bots(rules.clone(), DEALS);
        // The analyses are kept by room and deal: each table a room of its own.
        stored.meta.code = format!("replaybytes{index:09}");
        let perspectives = [Some(Seat(0)), None];
        let expected = whole_steps(&rules, stored.meta.master, &perspectives);
        for (p, &perspective) in perspectives.iter().enumerate() {
            let mut longest = (0, 0);
            for (number, whole) in (1u32..).zip(&expected) {
                let whole: Vec<&Shown> = whole.iter().map(|seen| &seen[p]).collect();
                let Some(replay) = replay_deal(&stored, number, perspective).expect("a sound room") else {
                    assert!(!whole.last().is_some_and(|s| s.deal["phase"] == "over"), "{table}: deal {number} is over");
                    continue;
                };
                let json = serde_json::to_string(&replay).expect("serialises");
                assert!(
                    json.len() < REPLAY_BOUND,
                    "{table} deal {number}: a replay of {} bytes, {} steps",
                    json.len(),
                    replay.steps.len()
                );
                for (i, step) in replay.steps.iter().enumerate().skip(1) {
                    let cost = bytes(step);
                    assert!(
                        cost <= STEP_BOUND,
                        "{table} deal {number}: step {i} of {cost} bytes: {}",
                        serde_json::to_string(step).unwrap_or_default()
                    );
                }
                // The steps, patched in order from the first as they come over the wire, are
                // every step whole.
                let shown = patched_in_order(&serde_json::from_str(&json).expect("JSON"));
                assert_eq!(shown.len(), whole.len(), "{table} deal {number}: a step per action");
                for (i, (got, want)) in shown.iter().zip(&whole).enumerate() {
                    assert_eq!(got, *want, "{table} deal {number} ({perspective:?}): step {i}");
                }
                if replay.steps.len() > longest.1 {
                    longest = (json.len(), replay.steps.len());
                }
            }
            assert!(longest.1 > 5, "{table}: a deal was replayed");
            assert!(longest.0 < REPLY_LIMIT / 4);
        }
    }
}
