//! The prompt vocabulary: how the prompt of a view (`deal.prompt`) offers actions, the same in
//! every game, so that a client holding only its view can list what it may send.
//!
//! Each key of a prompt offers actions one way, and [`KEYS`] says which, in one table: a flag
//! (`"pass": true` offers `{"action": "pass"}`), a list whose items each offer an action (`bids`,
//! `cards`, `trumps`), a number of the viewer's own cards to lay away (`discard`) or to exchange
//! at most (`exchange`), or Wippen's hand cards (`moves`). [`offered`] lists what a prompt offers
//! as the actions' JSON, grouped by key; [`offered_actions`] and [`GameView::offered`] as
//! [`GameAction`]s. The browser tests read the same table from the JSON that [`keys_json`]
//! writes.

use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::card::CardSet;
use crate::games::{GameAction, GameId, GameView};

/// How one key of a prompt offers actions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "offers", rename_all = "snake_case")]
pub enum Offers {
    /// `true` offers the action of that name, `{"action": ACTION}`.
    Flag {
        /// The action's name.
        action: &'static str,
    },
    /// Each item of the list offers `{"action": ACTION, FIELD: item}`.
    Each {
        /// The action's name.
        action: &'static str,
        /// The field the item goes in.
        field: &'static str,
    },
    /// A number n offers laying away any n cards of the viewer's hand:
    /// `{"action": ACTION, "cards": [...]}` for every such set.
    Cards {
        /// The action's name.
        action: &'static str,
    },
    /// A number n offers any 1 to n cards of the viewer's hand, as [`Offers::Cards`] does.
    UpToCards {
        /// The action's name.
        action: &'static str,
    },
    /// Wippen: a list of hand cards (`card`), each offering its discard if `discard` is true
    /// (`{"kind": "discard", "card": …}`), the capture of the buildings it must take if
    /// `must_include` names any (each building a group of its own, always legal), and each of
    /// its `ready` moves as it is. Its other fields (`capture`, `builds`, `usable`,
    /// `truncated`) describe selections, which a client asks about (`options`).
    HandCards,
}

/// One key of the vocabulary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Key {
    /// The key in a prompt.
    pub key: &'static str,
    /// What it offers.
    #[serde(flatten)]
    pub offers: Offers,
}

const fn flag(key: &'static str) -> Key {
    Key { key, offers: Offers::Flag { action: key } }
}

/// Every key of every game's prompt, in the order [`offered`] lists their actions.
pub const KEYS: &[Key] = &[
    Key { key: "bids", offers: Offers::Each { action: "bid", field: "bid" } },
    flag("hold"),
    flag("pass"),
    flag("take_skat"),
    flag("play_hand"),
    Key { key: "discard", offers: Offers::Cards { action: "discard" } },
    Key { key: "trumps", offers: Offers::Each { action: "name_trumps", field: "suit" } },
    flag("kontra"),
    flag("rekontra"),
    flag("fold"),
    flag("give_up"),
    flag("siebener_fips"),
    flag("fipsen"),
    flag("shove"),
    flag("deal"),
    flag("knock"),
    flag("no_knock"),
    flag("sniff"),
    flag("no_sniff"),
    flag("join"),
    flag("rob"),
    flag("drop_out"),
    flag("keep"),
    Key { key: "exchange", offers: Offers::UpToCards { action: "exchange" } },
    Key { key: "cards", offers: Offers::Each { action: "play", field: "card" } },
    flag("stop"),
    flag("go_on"),
    Key { key: "moves", offers: Offers::HandCards },
];

/// The vocabulary's entry for a prompt key.
pub fn key(name: &str) -> Option<&'static Key> {
    KEYS.iter().find(|k| k.key == name)
}

/// The vocabulary as JSON, for clients that read it rather than link this crate (the browser
/// tests' `prompt-keys.json`).
pub fn keys_json() -> String {
    let mut text = serde_json::to_string_pretty(KEYS).unwrap_or_default();
    text.push('\n');
    text
}

/// A prompt that does not read as the vocabulary says.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PromptError {
    /// The prompt is not a JSON object.
    #[error("a prompt is a JSON object")]
    NotAnObject,
    /// A key the vocabulary does not know.
    #[error("the prompt key `{0}` is not in the vocabulary")]
    UnknownKey(String),
    /// A key's value is not of the kind its entry reads.
    #[error("the prompt key `{0}` does not hold what the vocabulary reads there")]
    Malformed(&'static str),
    /// An offered action is not an action of the game.
    #[error("the prompt offers {action}, which is not an action of {game}: {error}")]
    NotAnAction {
        /// The game.
        game: &'static str,
        /// The action's JSON.
        action: String,
        /// Why it does not read.
        error: String,
    },
}

/// The actions one key of a prompt offers, as JSON.
#[derive(Debug, Clone, PartialEq)]
pub struct Offered {
    /// The key.
    pub key: &'static str,
    /// Its actions, each once.
    pub actions: Vec<Value>,
}

/// Every action `prompt` (a view's `deal.prompt`) offers, as JSON, grouped by key in the order
/// of [`KEYS`] (keys that offer nothing left out). `hand` is the viewer's hand (`deal.hand`):
/// without it, nothing is listed for a number of cards to lay away or exchange.
///
/// # Errors
/// The prompt is not an object, has a key the vocabulary does not know, or a key holds
/// something else than its entry reads.
pub fn offered(prompt: &Value, hand: Option<CardSet>) -> Result<Vec<Offered>, PromptError> {
    let object = prompt.as_object().ok_or(PromptError::NotAnObject)?;
    if let Some(unknown) = object.keys().find(|name| key(name).is_none()) {
        return Err(PromptError::UnknownKey(unknown.clone()));
    }
    let mut out = Vec::new();
    for entry in KEYS {
        let Some(value) = object.get(entry.key) else { continue };
        let actions = actions_of(entry, value, hand)?;
        if !actions.is_empty() {
            out.push(Offered { key: entry.key, actions });
        }
    }
    Ok(out)
}

/// Whether `prompt` offers nothing at all (a number of cards counts as an offer, hand or not);
/// cheaper than [`offered`]. A prompt that does not read offers nothing.
pub fn offers_nothing(prompt: &Value) -> bool {
    let Some(object) = prompt.as_object() else { return true };
    object.iter().all(|(name, value)| match key(name).map(|k| k.offers) {
        Some(Offers::Flag { .. }) => *value != Value::Bool(true),
        Some(Offers::Each { .. } | Offers::HandCards) => value.as_array().is_none_or(Vec::is_empty),
        Some(Offers::Cards { .. } | Offers::UpToCards { .. }) => value.as_u64().is_none_or(|n| n == 0),
        None => true,
    })
}

/// Every action `prompt` offers as actions of `game` (see [`offered`]), in order.
///
/// # Errors
/// As [`offered`], or an offered action is not one of the game's.
pub fn offered_actions(game: GameId, prompt: &Value, hand: Option<CardSet>) -> Result<Vec<GameAction>, PromptError> {
    let mut out = Vec::new();
    for group in offered(prompt, hand)? {
        for action in group.actions {
            let read = GameAction::from_json(game, action.clone()).map_err(|e| PromptError::NotAnAction {
                game: game.code(),
                action: action.to_string(),
                error: e.to_string(),
            })?;
            out.push(read);
        }
    }
    Ok(out)
}

impl GameView {
    /// Every action this view's prompt offers its viewer (see [`offered_actions`]).
    ///
    /// # Errors
    /// As [`offered_actions`]; a view built by the rules always reads.
    pub fn offered(&self) -> Result<Vec<GameAction>, PromptError> {
        let view = serde_json::to_value(self).map_err(|_| PromptError::NotAnObject)?;
        let deal = &view["deal"];
        let hand = serde_json::from_value::<Option<CardSet>>(deal["hand"].clone()).unwrap_or(None);
        offered_actions(self.game(), &deal["prompt"], hand)
    }
}

/// The actions one key offers.
fn actions_of(entry: &Key, value: &Value, hand: Option<CardSet>) -> Result<Vec<Value>, PromptError> {
    let malformed = PromptError::Malformed(entry.key);
    let count = || value.as_u64().and_then(|n| usize::try_from(n).ok()).ok_or(malformed.clone());
    Ok(match entry.offers {
        Offers::Flag { action } => match value {
            Value::Bool(true) => vec![json!({ "action": action })],
            Value::Bool(false) => Vec::new(),
            _ => return Err(malformed),
        },
        Offers::Each { action, field } => {
            let items = value.as_array().ok_or(malformed)?;
            items
                .iter()
                .map(|item| {
                    let mut object = Map::new();
                    object.insert("action".into(), Value::from(action));
                    object.insert(field.into(), item.clone());
                    Value::Object(object)
                })
                .collect()
        }
        Offers::Cards { action } => card_sets(action, hand, count()?..=count()?),
        Offers::UpToCards { action } => card_sets(action, hand, 1..=count()?),
        Offers::HandCards => {
            let mut out = Vec::new();
            for entry in value.as_array().ok_or(malformed.clone())? {
                hand_card_moves(entry, &mut out).ok_or(malformed.clone())?;
            }
            out
        }
    })
}

/// `{"action": ACTION, "cards": set}` for every set of the hand whose size is in `sizes`.
fn card_sets(action: &str, hand: Option<CardSet>, sizes: std::ops::RangeInclusive<usize>) -> Vec<Value> {
    let Some(hand) = hand else { return Vec::new() };
    let mut out = Vec::new();
    for size in sizes {
        if size > hand.len() {
            break;
        }
        hand.for_each_subset(size, &mut |cards| out.push(json!({ "action": action, "cards": cards })));
    }
    out
}

/// Wippen: the whole moves one hand card's entry offers (see [`Offers::HandCards`]), added to
/// `out` once each. `None`: the entry does not read.
fn hand_card_moves(entry: &Value, out: &mut Vec<Value>) -> Option<()> {
    let card = entry.get("card").filter(|c| c.is_string())?;
    let mut push = |mv: Value| {
        if !out.contains(&mv) {
            out.push(mv);
        }
    };
    if entry.get("discard")?.as_bool()? {
        push(json!({"kind": "discard", "card": card}));
    }
    let must: &Vec<Value> = entry.get("must_include")?.as_array()?;
    if !must.is_empty() {
        let groups: Vec<Value> = must.iter().map(|id| json!({ "building": id })).collect();
        push(json!({"kind": "capture", "card": card, "groups": groups}));
    }
    for mv in entry.get("ready").map_or(Some(&Vec::new()), Value::as_array)? {
        push(mv.clone());
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hand(codes: &[&str]) -> CardSet {
        codes.iter().map(|c| c.parse::<crate::card::Card>().unwrap()).collect()
    }

    #[test]
    fn each_kind_of_key_offers_its_actions() {
        let prompt =
            json!({"pass": true, "hold": false, "bids": [{"kind": "tricks", "tricks": 2}], "cards": ["CA", "S7"]});
        let got = offered(&prompt, None).unwrap();
        let keys: Vec<&str> = got.iter().map(|g| g.key).collect();
        assert_eq!(keys, ["bids", "pass", "cards"], "table order, `hold: false` offers nothing");
        assert_eq!(got[0].actions, [json!({"action": "bid", "bid": {"kind": "tricks", "tricks": 2}})]);
        assert_eq!(got[1].actions, [json!({"action": "pass"})]);
        assert_eq!(got[2].actions, [json!({"action": "play", "card": "CA"}), json!({"action": "play", "card": "S7"})]);
        assert!(!offers_nothing(&prompt));
        assert!(offers_nothing(&json!({})) && offers_nothing(&json!({"pass": false, "cards": []})));
    }

    #[test]
    fn a_number_of_cards_offers_every_set_of_the_hand() {
        let h = hand(&["C7", "S8", "H9", "CA"]);
        let got = offered(&json!({"discard": 2}), Some(h)).unwrap();
        assert_eq!(got[0].actions.len(), 6, "4 choose 2");
        for action in &got[0].actions {
            let cards: CardSet = serde_json::from_value(action["cards"].clone()).unwrap();
            assert!(cards.len() == 2 && h.contains_all(cards), "{action}");
        }
        assert!(offered(&json!({"discard": 2}), None).unwrap().is_empty(), "no hand, no discard");
        let got = offered(&json!({"exchange": 2}), Some(hand(&["C7", "S8", "H9"]))).unwrap();
        assert_eq!(got[0].actions.len(), 3 + 3, "one or two of three cards");
    }

    #[test]
    fn wippen_hand_cards_offer_discards_promised_captures_and_ready_moves() {
        let ready = json!({"kind": "capture", "card": "H5", "groups": [{"card": "S5"}]});
        let prompt = json!({"moves": [
            {"card": "H5", "discard": true, "capture": [[0]], "must_include": [], "builds": [], "ready": [ready]},
            {"card": "C9", "discard": false, "capture": [[1]], "must_include": [2], "builds": []},
        ]});
        let got = offered(&prompt, None).unwrap();
        assert_eq!(
            got[0].actions,
            [
                json!({"kind": "discard", "card": "H5"}),
                ready,
                json!({"kind": "capture", "card": "C9", "groups": [{"building": 2}]}),
            ]
        );
    }

    #[test]
    fn what_the_vocabulary_does_not_read_is_refused() {
        assert_eq!(offered(&json!({"jump": true}), None), Err(PromptError::UnknownKey("jump".into())));
        assert_eq!(offered(&json!({"pass": 1}), None), Err(PromptError::Malformed("pass")));
        assert_eq!(offered(&json!({"discard": "two"}), None), Err(PromptError::Malformed("discard")));
        assert_eq!(offered(&json!({"moves": [{"discard": true}]}), None), Err(PromptError::Malformed("moves")));
        assert_eq!(offered(&json!([]), None), Err(PromptError::NotAnObject));
        let err = offered_actions(GameId::Wippen, &json!({"pass": true}), None).unwrap_err();
        assert!(matches!(err, PromptError::NotAnAction { game: "wippen", .. }), "{err}");
    }

    #[test]
    fn every_key_is_named_once() {
        for (i, k) in KEYS.iter().enumerate() {
            assert!(KEYS[..i].iter().all(|other| other.key != k.key), "{} twice", k.key);
        }
    }
}
