//! The game catalogue of the web client, `client-web/js/catalogue.js`, generated from the rules,
//! the tournament crate and the protocol: every game's defaults and table sizes, Tippen's rule
//! sets, the tournament preset and limits, the protocol's timings. The client imports it instead
//! of keeping copies of these facts; this test fails when the file is stale, and writes it anew
//! with `UPDATE_CATALOGUE=1 cargo test -p fipsen-protocol --test catalogue`.

use std::path::PathBuf;

use fipsen_rules::tippen::{DausCard, Preset, Rules as TippenRules, Sniffing};
use fipsen_rules::{GameId, GameRules, RuleSetError};
use serde_json::{Map, Value, json};

/// The most players any table of any game may seat, and more.
const MOST_PLAYERS: u64 = 12;

/// The player counts `game`'s rules accept (its default with `players` changed), or the default
/// count alone for a game whose count is not an option.
fn player_counts(game: GameId) -> Vec<u64> {
    let defaults = serde_json::to_value(GameRules::default_for(game)).expect("rules have JSON");
    if defaults.get("players").is_none() {
        return vec![GameRules::default_for(game).seats() as u64];
    }
    (1..=MOST_PLAYERS)
        .filter(|&n| {
            let mut rules = defaults.clone();
            rules["players"] = n.into();
            serde_json::from_value::<GameRules>(rules).is_ok_and(|r| r.validate().is_ok())
        })
        .collect()
}

/// Whether the length of a series of `rules`' game is its `deals` option alone: the rules have
/// one, and without it the series is open-ended (not a number of games derived from other
/// options, as a match of sets is, nor of rounds).
fn deals_in_rules(rules: &GameRules, defaults: &Value) -> bool {
    defaults.get("deals").is_some_and(|deals| deals.as_u64().map(|n| n as u32) == rules.deals())
}

/// What the client knows of every game, by its code.
fn games() -> Value {
    let mut games = Map::new();
    for &game in GameId::ALL {
        let rules = GameRules::default_for(game);
        let defaults = serde_json::to_value(&rules).expect("rules have JSON");
        games.insert(
            game.code().into(),
            json!({
                "name": game.name(),
                "rules": defaults,
                "seats": rules.seats(),
                "players": player_counts(game),
                "deals_in_rules": deals_in_rules(&rules, &defaults),
                "deals": rules.deals(),
            }),
        );
    }
    Value::Object(games)
}

/// Whether Tippen's rule set `preset` offers the option `rules` changes from its defaults.
fn offered(rules: TippenRules) -> bool {
    !matches!(rules.validate(), Err(RuleSetError::OptionNotOffered { .. }))
}

/// Tippen's rule sets in the order of the sources (a list: a JSON object's keys come sorted):
/// the players each seats, its hand, the options
/// it offers and its kind of sniffing; and the players from whom the 52-card pack is used.
fn tippen() -> Value {
    let mut presets = Vec::new();
    for preset in Preset::ALL {
        let (min, max) = preset.player_range();
        let base = TippenRules::preset(preset, max);
        let mut options = Vec::new();
        let changes: [(&str, TippenRules); 6] = [
            ("tipp_zwang", TippenRules { tipp_zwang: true, ..base }),
            ("shoving", TippenRules { shoving: true, ..base }),
            ("knocking", TippenRules { knocking: true, ..base }),
            ("robbing", TippenRules { robbing: true, ..base }),
            ("hop_and_jump", TippenRules { hop_and_jump: true, ..base }),
            ("daus_card", TippenRules { daus_card: DausCard::Two, ..base }),
        ];
        let sniffing = [Sniffing::Alvensleben, Sniffing::Grupp]
            .into_iter()
            .find(|&sniffing| offered(TippenRules { sniffing, ..base }));
        for (option, rules) in changes {
            if offered(rules) {
                options.push(option);
            }
            if option == "knocking" && sniffing.is_some() {
                options.push("sniffing");
            }
        }
        if offered(TippenRules { exchange_max: Some(2), ..base }) {
            options.push("exchange_max");
        }
        let mut entry = json!({"id": preset.id(), "range": [min, max], "hand": preset.hand_size(), "options": options});
        if let Some(sniffing) = sniffing {
            entry["sniffing"] = serde_json::to_value(sniffing).expect("a sniffing has JSON");
        }
        presets.push(entry);
    }
    let small = TippenRules { players: 2, ..TippenRules::default() }.pack();
    let big_pack_from =
        (2..=MOST_PLAYERS as u8).find(|&n| TippenRules { players: n, ..TippenRules::default() }.pack() != small);
    json!({"presets": presets, "big_pack_from": big_pack_from})
}

/// The whole catalogue as a JavaScript module.
fn catalogue_text() -> String {
    let catalogue = json!({
        "games": games(),
        "tippen": tippen(),
        "tournament": {
            "preset": fipsen_tournament::Settings::prisdorf(""),
            "max_rounds": fipsen_tournament::MAX_ROUNDS,
            "max_entrants": fipsen_tournament::MAX_ENTRANTS,
        },
        "nudge_after_ms": u64::from(fipsen_protocol::NUDGE_AFTER_SECONDS) * 1000,
    });
    let body = serde_json::to_string_pretty(&catalogue).expect("the catalogue has JSON");
    format!(
        "// Generated from the rules, the tournament crate and the protocol by protocol/tests/catalogue.rs:\n\
         // do not edit. Regenerate with UPDATE_CATALOGUE=1 cargo test -p fipsen-protocol --test catalogue\n\n\
         /** What the server's crates say of the games, the tournaments and the protocol's timings. */\n\
         export const CATALOGUE = {body};\n"
    )
}

#[test]
fn the_clients_catalogue_is_the_one_the_crates_give() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../client-web/js/catalogue.js");
    let generated = catalogue_text();
    if std::env::var_os("UPDATE_CATALOGUE").is_some() {
        std::fs::write(&path, &generated).expect("write the catalogue");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "client-web/js/catalogue.js is out of date; regenerate it with\n  \
         UPDATE_CATALOGUE=1 cargo test -p fipsen-protocol --test catalogue"
    );
}

/// The catalogue says what the rules do: every game's default table is among its sizes, and
/// Tippen's rule sets offer what the client's form showed before the catalogue existed.
#[test]
fn the_catalogue_holds_the_rules_facts() {
    let games = games();
    for &game in GameId::ALL {
        let entry = &games[game.code()];
        let seats = entry["seats"].as_u64().expect("seats");
        assert!(entry["players"].as_array().expect("players").contains(&seats.into()), "{game:?}: {entry}");
    }
    let tippen = tippen();
    assert_eq!(tippen["big_pack_from"], 7);
    assert_eq!(
        tippen["presets"][2],
        json!({"id": "dreiblatt_1859", "range": [2, 10], "hand": 3, "options": ["sniffing", "robbing", "hop_and_jump", "daus_card"],
               "sniffing": "alvensleben"})
    );
    assert_eq!(
        tippen["presets"][4],
        json!({"id": "modern_grupp", "range": [3, 6], "hand": 3, "options": ["tipp_zwang", "shoving", "knocking", "sniffing"],
               "sniffing": "grupp"})
    );
    assert_eq!(tippen["presets"][6]["options"], json!(["daus_card", "exchange_max"]));
    assert_eq!(tippen["presets"][1], json!({"id": "loup_1821", "range": [3, 5], "hand": 6, "options": []}));
    assert_eq!(games["tippen"]["deals_in_rules"], true);
    assert_eq!(games["wippen"]["deals_in_rules"], false);
}
