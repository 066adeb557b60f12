//! Reading a client's game action, with the refusal that fits when it is not one of the table's
//! game: a malformed frame is `proto/malformed`, but an action of another game or one that names
//! a card twice is a mistake about the game, and gets that game's kind of answer.

use fipsen_rules::{GameAction, GameId, RuleError};
use serde_json::Value;

use crate::ErrorCode;

/// Reads `value` as an action of `game`.
///
/// # Errors
/// With a sentence for the client:
/// - `card/named_twice`: an action of `game` but for a card named twice (a discard of
///   `["H7", "H7"]`);
/// - `action/wrong_game`: an action of another game (Großenaspe's `fold` at a Duttfips table);
/// - `proto/malformed`: anything else, with serde's explanation (it quotes only what the client
///   sent, never a card of the game).
pub fn read_action(game: GameId, value: Value) -> Result<GameAction, (ErrorCode, String)> {
    // Kept for telling the refusals apart: an action is a few dozen bytes.
    let sent = value.clone();
    let error = match GameAction::from_json(game, value) {
        Ok(action) => return Ok(action),
        Err(error) => error,
    };
    if let Some(card) = named_twice(&sent)
        && GameAction::from_json(game, without_repeats(&sent)).is_ok()
    {
        return Err((ErrorCode::CardNamedTwice, format!("the action names the card {card} twice")));
    }
    let other = GameId::ALL.iter().copied().find(|&g| g != game && GameAction::from_json(g, sent.clone()).is_ok());
    if let Some(other) = other {
        let sentence = format!("this is an action of {}, not of {}, the game at this table", other.name(), game.name());
        return Err((ErrorCode::Rule(RuleError::WrongGame), sentence));
    }
    Err((ErrorCode::Malformed, format!("this is not an action of {}: {error}", game.name())))
}

/// The first text that a list among the action's fields holds twice.
fn named_twice(action: &Value) -> Option<&str> {
    let Value::Object(fields) = action else { return None };
    fields.values().filter_map(Value::as_array).find_map(|list| {
        list.iter().enumerate().find_map(|(i, item)| {
            let text = item.as_str()?;
            list[..i].iter().any(|earlier| earlier.as_str() == Some(text)).then_some(text)
        })
    })
}

/// The action with each list among its fields holding each text once.
fn without_repeats(action: &Value) -> Value {
    let mut action = action.clone();
    if let Value::Object(fields) = &mut action {
        for value in fields.values_mut() {
            if let Value::Array(list) = value {
                let mut kept: Vec<Value> = Vec::with_capacity(list.len());
                for item in list.drain(..) {
                    if item.as_str().is_none() || !kept.contains(&item) {
                        kept.push(item);
                    }
                }
                *list = kept;
            }
        }
    }
    action
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn refusal(game: GameId, action: Value) -> (&'static str, String) {
        let (code, sentence) = read_action(game, action).unwrap_err();
        (code.code(), sentence)
    }

    #[test]
    fn an_action_of_the_game_is_read() {
        let action = read_action(GameId::Prisdorf, json!({"action": "discard", "cards": ["H7", "H8"]})).unwrap();
        assert_eq!(action.game(), GameId::Prisdorf);
        assert_eq!(action.kind(), "discard");
    }

    #[test]
    fn a_card_named_twice_is_refused_as_such_in_every_game_that_discards() {
        for game in [GameId::Prisdorf, GameId::Grossenaspe, GameId::Anseggerfips, GameId::Duttfips] {
            let (code, sentence) = refusal(game, json!({"action": "discard", "cards": ["H7", "H7"]}));
            assert_eq!(code, "card/named_twice", "{game:?}: {sentence}");
            assert!(sentence.contains("H7"), "{sentence}");
        }
    }

    #[test]
    fn an_action_of_another_game_is_refused_as_such() {
        // `fold` is Großenaspe's; Anseggerfips and Duttfips play by the Mecklenburg rules.
        for game in [GameId::Anseggerfips, GameId::Duttfips, GameId::Prisdorf] {
            let (code, sentence) = refusal(game, json!({"action": "fold"}));
            assert_eq!(code, "action/wrong_game", "{game:?}: {sentence}");
            assert!(sentence.contains(game.name()), "{sentence}");
        }
    }

    #[test]
    fn what_no_game_has_stays_malformed() {
        for action in [json!({"action": "dance"}), json!({"action": "play", "card": "1X"}), json!([1, 2]), json!(null)]
        {
            let (code, sentence) = refusal(GameId::Duttfips, action.clone());
            assert_eq!(code, "proto/malformed", "{action}: {sentence}");
            assert!(sentence.contains("Duttfips"), "{sentence}");
        }
        // A list with a repeat that is malformed for other reasons stays malformed too.
        let (code, _) = refusal(GameId::Prisdorf, json!({"action": "discard", "cards": ["H7", "H7", "ZZ"]}));
        assert_eq!(code, "proto/malformed");
    }
}
