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
/// - `action/wrong_game`: an action of another game (one game's `fold` at a table of a game
///   without it);
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
