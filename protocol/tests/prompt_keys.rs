//! Every key of every game's prompt, as the protocol's schema describes the views, is in the
//! prompt vocabulary (`fipsen_rules::prompt::KEYS`), and the vocabulary names no key that no
//! prompt has: a game that adds a key to its prompt must say what it offers.

use std::collections::BTreeSet;

use fipsen_rules::prompt::{KEYS, Offers};

/// The property names of a definition in the schema.
fn properties(schema: &serde_json::Value, name: &str) -> BTreeSet<String> {
    schema["$defs"][name]["properties"].as_object().map(|p| p.keys().cloned().collect()).unwrap_or_default()
}

#[test]
fn every_prompt_key_of_every_game_is_in_the_vocabulary() {
    let schema = fipsen_protocol::schema::protocol_schema();
    let defs = schema["$defs"].as_object().expect("definitions");
    // A game's prompt is named after it (`Prompt` is Prisdorf's); Wippen's entries per hand card
    // and per build value are read by the vocabulary's `moves` and checked below.
    let prompts: Vec<&String> = defs
        .keys()
        .filter(|n| n.ends_with("Prompt") && !["WippenCardPrompt", "WippenBuildPrompt"].contains(&n.as_str()))
        .collect();
    assert_eq!(
        prompts.len(),
        fipsen_rules::GameId::ALL.len() - 1,
        "one prompt per game (Mecklenburg's two share one): {prompts:?}"
    );
    let mut used = BTreeSet::new();
    for name in prompts {
        let keys = properties(&schema, name);
        assert!(!keys.is_empty(), "{name} has no keys");
        for key in keys {
            assert!(KEYS.iter().any(|k| k.key == key), "{name}.{key} is not in the prompt vocabulary");
            used.insert(key);
        }
    }
    for key in KEYS {
        assert!(used.contains(key.key), "the vocabulary's `{}` is no game's prompt key", key.key);
    }
    // Wippen's hand card entries: the vocabulary reads `card`, `discard`, `must_include` and
    // `ready`; the rest describes selections. A new field must be thought about here.
    assert!(KEYS.iter().any(|k| k.key == "moves" && k.offers == Offers::HandCards));
    let card_keys: Vec<String> = properties(&schema, "WippenCardPrompt").into_iter().collect();
    assert_eq!(card_keys, ["builds", "capture", "card", "discard", "must_include", "ready", "truncated", "usable"]);
}
