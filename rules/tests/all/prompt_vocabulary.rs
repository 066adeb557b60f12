//! The prompt vocabulary against the rules: over many seeded deals of every game, every action
//! a seat's prompt offers is legal, and every legal action is offered (Wippen: every legal
//! discard, and the captures and builds its prompt writes out whole); every key of the
//! vocabulary is met. Also keeps the browser tests' copy of the vocabulary and their recorded
//! prompts up to date (`UPDATE_PROMPT_KEYS=1` writes them).
#![allow(clippy::unwrap_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use fipsen_rules::prompt::{self, KEYS};
use fipsen_rules::{AnyGame, CardSet, GameAction, GameId, GameRules, Seat, Seed};
use serde_json::{Value, json};

/// The rule sets played: every game's defaults, and for the games whose prompts depend on their
/// options, the options that bring out every key (Prisdorf's Kontra, Großenaspe's five hands, each Tippen preset with
/// shoving, knocking, sniffing, robbing and the exchange).
fn rule_sets() -> Vec<GameRules> {
    let mut out: Vec<GameRules> = GameId::ALL.iter().map(|&g| GameRules::default_for(g)).collect();
    let mut candidates = vec![
        json!({"game": "prisdorf", "kontra": true}),
        json!({"game": "prisdorf", "players": 3}),
        // Five hands of six cards: often one without a court card, and so a Kieker to fold.
        json!({"game": "grossenaspe", "players": 5}),
    ];
    for preset in fipsen_rules::tippen::Preset::ALL {
        let preset = preset.id();
        candidates.push(json!({"game": "tippen", "preset": preset}));
        candidates.push(json!({"game": "tippen", "preset": preset, "shoving": true, "knocking": true}));
        candidates.push(json!({"game": "tippen", "preset": preset, "sniffing": "grupp"}));
        candidates.push(json!({"game": "tippen", "preset": preset, "sniffing": "alvensleben"}));
        candidates.push(json!({"game": "tippen", "preset": preset, "robbing": true}));
        candidates.push(json!({"game": "tippen", "preset": preset, "exchange_max": 3}));
    }
    for candidate in candidates {
        // Options a preset does not offer are refused by the rules: those sets are left out.
        if let Ok(rules) = serde_json::from_value::<GameRules>(candidate)
            && rules.validate().is_ok()
        {
            out.push(rules);
        }
    }
    out
}

/// A tiny deterministic generator.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n.max(1) as u64) as usize
    }
}

/// One seat's prompt and hand as its view shows them in JSON, the way a client reads them.
fn prompt_of(game: &AnyGame, seat: Seat) -> (Value, Option<CardSet>, Value) {
    let view = serde_json::to_value(game.view(Some(seat))).unwrap();
    let deal = &view["deal"];
    let hand = serde_json::from_value(deal["hand"].clone()).unwrap();
    (deal["prompt"].clone(), hand, deal["hand"].clone())
}

/// A recorded prompt for the browser tests: what the JavaScript helper must list.
struct Recorded {
    fixtures: Vec<Value>,
    /// (game, key) pairs recorded already.
    seen: BTreeSet<(&'static str, &'static str)>,
    /// A Wippen prompt with a promise to keep (`must_include`) is recorded.
    promise: bool,
}

#[test]
fn every_offered_action_is_legal_and_every_legal_action_is_offered_in_every_game() {
    let mut keys_met: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    let mut recorded = Recorded { fixtures: Vec::new(), seen: BTreeSet::new(), promise: false };
    let mut rng = Rng(11);
    let mut checked: BTreeMap<&str, usize> = BTreeMap::new();
    for rules in rule_sets() {
        let id = rules.game();
        // The trick games' rarer prompts (a Kieker's give-up, Durch, a Siebener Fips) need many deals.
        let deals: u16 = match id {
            GameId::Wippen => 4,
            GameId::Tippen => 12,
            _ => 300,
        };
        for number in 0..deals {
            let mut seed = [0; 32];
            seed[..2].copy_from_slice(&number.to_le_bytes());
            let (mut game, _) = AnyGame::start(&rules, Seed(seed)).unwrap();
            let mut steps = 0;
            while !game.deal_over() {
                let mut movers = Vec::new();
                for seat in (0..game.seats() as u8).map(Seat) {
                    let (prompt_json, hand, hand_json) = prompt_of(&game, seat);
                    let groups =
                        prompt::offered(&prompt_json, hand).unwrap_or_else(|e| panic!("{id:?} {prompt_json}: {e}"));
                    let offered = game.view(Some(seat)).offered().unwrap_or_else(|e| panic!("{id:?}: {e}"));
                    assert_eq!(offered.len(), groups.iter().map(|g| g.actions.len()).sum::<usize>());
                    for action in &offered {
                        if let Err(e) = game.check(seat, action) {
                            panic!("{id:?} seat {}: {prompt_json} offers {action:?}, refused: {e}", seat.0);
                        }
                    }
                    let legal = game.legal_actions(seat);
                    for action in legal.iter() {
                        let must_be_offered = match &action {
                            GameAction::Wippen(mv) => mv.kind() == "discard",
                            _ => true,
                        };
                        if must_be_offered {
                            assert!(
                                offered.contains(&action),
                                "{id:?} seat {}: {prompt_json} lacks legal {action:?}",
                                seat.0
                            );
                        }
                    }
                    if id == GameId::Wippen && !legal.is_empty() {
                        assert!(!offered.is_empty(), "a Wippen player to move is offered a whole move: {prompt_json}");
                    }
                    assert_eq!(prompt::offers_nothing(&prompt_json), groups.is_empty(), "{prompt_json}");
                    let promise = prompt_json["moves"]
                        .as_array()
                        .is_some_and(|m| m.iter().any(|e| e["must_include"].as_array().is_some_and(|b| !b.is_empty())));
                    for group in &groups {
                        keys_met.entry(group.key).or_default().insert(id.code());
                        let first_promise = promise && !std::mem::replace(&mut recorded.promise, true);
                        if recorded.seen.insert((id.code(), group.key)) || first_promise {
                            let actions: Vec<Value> = groups.iter().flat_map(|g| g.actions.clone()).collect();
                            recorded.fixtures.push(json!({
                                "game": id.code(), "prompt": prompt_json, "hand": hand_json, "offered": actions,
                            }));
                        }
                    }
                    *checked.entry(id.code()).or_default() += 1;
                    if !offered.is_empty() {
                        movers.push((seat, offered));
                    }
                }
                let (seat, offered) = &movers[rng.below(movers.len())];
                // A Kieker's bid is taken when offered, so that his prompts (a fold) come up too.
                let kieker = offered.iter().find(|a| serde_json::to_string(a).unwrap().contains("kieker"));
                let action = match kieker {
                    Some(kieker) if rng.below(4) > 0 => kieker,
                    _ => &offered[rng.below(offered.len())],
                };
                game.apply(*seat, action).unwrap_or_else(|e| panic!("{id:?}: {action:?}: {e}"));
                steps += 1;
                assert!(steps < 2_000, "{id:?}: a deal does not end");
            }
        }
    }
    for &id in GameId::ALL {
        assert!(checked.get(id.code()).copied().unwrap_or(0) > 200, "{id:?}: {checked:?}");
    }
    assert!(recorded.promise, "a Wippen prompt with a promise to keep");
    for key in KEYS {
        assert!(keys_met.contains_key(key.key), "no prompt offered `{}`: {keys_met:?}", key.key);
    }
    // One recorded prompt a line.
    let lines: Vec<String> = recorded.fixtures.iter().map(Value::to_string).collect();
    check_or_write("prompt-fixtures.json", &format!("[\n{}\n]\n", lines.join(",\n")));
}

#[test]
fn the_browser_tests_read_the_same_vocabulary() {
    check_or_write("prompt-keys.json", &prompt::keys_json());
}

/// Compares the committed file `tests/browser/NAME` with `text`, or writes it when
/// `UPDATE_PROMPT_KEYS` is set.
fn check_or_write(name: &str, text: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/browser").join(name);
    if std::env::var_os("UPDATE_PROMPT_KEYS").is_some() {
        std::fs::write(&path, text).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == text,
        "tests/browser/{name} is out of date; write it again with\n  \
         UPDATE_PROMPT_KEYS=1 cargo test -p fipsen-rules --test all prompt_vocabulary::"
    );
}
