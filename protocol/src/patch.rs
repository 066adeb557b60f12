//! Patches: how an `update` tells a client what changed in its state since the frame before.
//!
//! A client's state is one JSON document, `{"room": RoomState, "game": GameView | null}`, as
//! the last `joined` gave it and the `update`s since changed it. An `update` carries a list of
//! [`Patch`]es against that document, made by [`diff`] of the document the client holds and the
//! one it should hold now; [`apply`] turns the one into the other. Both work on any JSON, so the
//! same mechanism serves every game of the platform.
//!
//! The diff is kept cheap and the patches short: equal parts are skipped (a comparison, no
//! serialising), objects are compared key by key, an array that grew from its old self (a new
//! scoresheet row, a new log entry) gets an `append`, an array of the same length whose items
//! changed only in part gets patches for those items, and anything else is replaced whole.

mod read;
pub mod spanned;
pub mod text;

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value};

/// One step of a path into the client's state: an object's key or an array's index.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Step {
    /// The item at this index of an array.
    Index(usize),
    /// The field of this name of an object.
    Key(String),
}

/// One change to the client's state. `path` leads from the top of the state
/// (`{"room": …, "game": …}`) to the part that changes.
///
/// ```json
/// [{"op": "set", "path": ["game", "deal", "turn"], "value": 2},
///  {"op": "append", "path": ["game", "deal", "log"], "values": [{"event": "card_played", "seat": 1, "card": "HA"}]},
///  {"op": "unset", "path": ["room", "turn"]}]
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Patch {
    /// The part at `path` is now `value` (an object's field is added if it was absent).
    Set {
        /// Where.
        path: Vec<Step>,
        /// The new part, whole.
        value: Value,
    },
    /// The array at `path` has these items added at its end.
    Append {
        /// Where.
        path: Vec<Step>,
        /// The new items, in order.
        values: Vec<Value>,
    },
    /// The object's field at `path` is gone.
    Unset {
        /// Where.
        path: Vec<Step>,
    },
}

/// Why a patch does not fit the state it is applied to.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the patch's path {path} does not lead to a part of the state")]
pub struct PatchError {
    /// The path, as JSON.
    pub path: String,
}

/// The patches that turn `old` into `new`. `apply(&mut old, &diff(old, new))` makes `old`
/// equal to `new`.
pub fn diff(old: &Value, new: &Value) -> Vec<Patch> {
    let mut patches = Vec::new();
    let mut path = Vec::new();
    diff_into(old, new, &mut path, &mut patches);
    patches
}

fn diff_into(old: &Value, new: &Value, path: &mut Vec<Step>, out: &mut Vec<Patch>) {
    if old == new {
        return;
    }
    match (old, new) {
        (Value::Object(old), Value::Object(new)) => {
            for (key, value) in new {
                path.push(Step::Key(key.clone()));
                match old.get(key) {
                    Some(before) => diff_into(before, value, path, out),
                    None => out.push(Patch::Set { path: path.clone(), value: value.clone() }),
                }
                path.pop();
            }
            for key in old.keys().filter(|k| !new.contains_key(*k)) {
                path.push(Step::Key(key.clone()));
                out.push(Patch::Unset { path: path.clone() });
                path.pop();
            }
        }
        (Value::Array(old), Value::Array(new)) if new.len() > old.len() && new.starts_with(old) => {
            out.push(Patch::Append { path: path.clone(), values: new[old.len()..].to_vec() });
        }
        (Value::Array(old), Value::Array(new)) if old.len() == new.len() && changed_in_part(old, new) => {
            for (i, (before, value)) in old.iter().zip(new).enumerate() {
                path.push(Step::Index(i));
                diff_into(before, value, path, out);
                path.pop();
            }
        }
        _ => out.push(Patch::Set { path: path.clone(), value: new.clone() }),
    }
}

/// Two arrays of the same length worth patching item by item: fewer than half their items
/// differ, and those that do are objects or arrays (whose own parts may be patched).
fn changed_in_part(old: &[Value], new: &[Value]) -> bool {
    let mut changed = 0;
    for (before, value) in old.iter().zip(new) {
        if before != value {
            if !(before.is_object() && value.is_object() || before.is_array() && value.is_array()) {
                return false;
            }
            changed += 1;
        }
    }
    changed * 2 < old.len()
}

/// Applies `patches` to `state` in order.
///
/// # Errors
/// A patch's path leads nowhere in the state (a client whose state is not the server's, which
/// should ask for a snapshot). The patches before it are applied.
pub fn apply(state: &mut Value, patches: &[Patch]) -> Result<(), PatchError> {
    for patch in patches {
        apply_one(state, patch.clone())?;
    }
    Ok(())
}

/// Applies `patches` to `state` in order, moving their values into it (nothing is copied).
///
/// # Errors
/// As [`apply`].
pub fn apply_owned(state: &mut Value, patches: Vec<Patch>) -> Result<(), PatchError> {
    for patch in patches {
        apply_one(state, patch)?;
    }
    Ok(())
}

fn apply_one(state: &mut Value, patch: Patch) -> Result<(), PatchError> {
    let (path, change) = match patch {
        Patch::Set { path, value } => (path, Change::Set(value)),
        Patch::Append { path, values } => (path, Change::Append(values)),
        Patch::Unset { path } => (path, Change::Unset),
    };
    let fail = |path: &[Step]| PatchError { path: serde_json::to_string(path).unwrap_or_default() };
    let Some((last, parents)) = path.split_last() else {
        return match (change, state) {
            (Change::Set(value), state) => {
                *state = value;
                Ok(())
            }
            (Change::Append(values), Value::Array(items)) => {
                items.extend(values);
                Ok(())
            }
            _ => Err(fail(&path)),
        };
    };
    let mut at = state;
    for step in parents {
        let Some(next) = child(at, step) else { return Err(fail(&path)) };
        at = next;
    }
    let done = match change {
        Change::Set(value) => match (at, last) {
            (Value::Object(map), Step::Key(key)) => {
                map.insert(key.clone(), value);
                true
            }
            (Value::Array(items), Step::Index(i)) if *i < items.len() => {
                items[*i] = value;
                true
            }
            _ => false,
        },
        Change::Append(values) => match child(at, last) {
            Some(Value::Array(items)) => {
                items.extend(values);
                true
            }
            _ => false,
        },
        Change::Unset => match (at, last) {
            (Value::Object(map), Step::Key(key)) => {
                map.remove(key);
                true
            }
            _ => false,
        },
    };
    if done { Ok(()) } else { Err(fail(&path)) }
}

/// What a patch does at the end of its path.
enum Change {
    Set(Value),
    Append(Vec<Value>),
    Unset,
}

fn child<'a>(value: &'a mut Value, step: &Step) -> Option<&'a mut Value> {
    match (value, step) {
        (Value::Object(map), Step::Key(key)) => map.get_mut(key),
        (Value::Array(items), Step::Index(i)) => items.get_mut(*i),
        _ => None,
    }
}

/// The client's whole state as one document: `{"room": …, "game": …}`.
pub fn state(room: Value, game: Value) -> Value {
    let mut map = Map::with_capacity(2);
    map.insert("room".into(), room);
    map.insert("game".into(), game);
    Value::Object(map)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    fn roundtrip(old: &Value, new: &Value) -> Vec<Patch> {
        let patches = diff(old, new);
        let mut applied = old.clone();
        apply(&mut applied, &patches).unwrap();
        assert_eq!(&applied, new, "patches {patches:?}");
        // Moved in, they give the same.
        let mut moved = old.clone();
        apply_owned(&mut moved, patches.clone()).unwrap();
        assert_eq!(&moved, new, "patches {patches:?}");
        // The patches survive the wire.
        let wire: Vec<Patch> = serde_json::from_str(&serde_json::to_string(&patches).unwrap()).unwrap();
        assert_eq!(wire, patches);
        patches
    }

    #[test]
    fn equal_states_need_no_patch() {
        let state = json!({"room": {"seats": [1, 2]}, "game": null});
        assert!(roundtrip(&state, &state).is_empty());
    }

    #[test]
    fn a_grown_array_is_appended_to() {
        let old = json!({"game": {"scoresheet": [{"n": 1}], "deal": {"turn": 1}}});
        let new = json!({"game": {"scoresheet": [{"n": 1}, {"n": 2}], "deal": {"turn": 2}}});
        let key = |k: &str| Step::Key(k.into());
        let patches = roundtrip(&old, &new);
        assert_eq!(patches.len(), 2, "{patches:?}");
        assert!(patches.contains(&Patch::Set { path: vec![key("game"), key("deal"), key("turn")], value: json!(2) }));
        assert!(
            patches
                .contains(&Patch::Append { path: vec![key("game"), key("scoresheet")], values: vec![json!({"n": 2})] })
        );
    }

    #[test]
    fn fields_come_and_go_and_arrays_shrink() {
        let old =
            json!({"room": {"turn": {"seat": 1}, "seats": [{"c": true}, {"c": true}, {"c": true}]}, "log": [1, 2, 3]});
        let new = json!({"room": {"seats": [{"c": true}, {"c": false}, {"c": true}], "next": 5}, "log": [1]});
        let patches = roundtrip(&old, &new);
        assert!(patches.contains(&Patch::Unset { path: vec![Step::Key("room".into()), Step::Key("turn".into())] }));
        assert!(patches.contains(&Patch::Set {
            path: vec![Step::Key("room".into()), Step::Key("seats".into()), Step::Index(1), Step::Key("c".into())],
            value: json!(false)
        }));
        assert!(patches.contains(&Patch::Set { path: vec![Step::Key("log".into())], value: json!([1]) }));
    }

    #[test]
    fn a_path_that_leads_nowhere_is_refused() {
        let mut state = json!({"room": {}});
        let bad = Patch::Set { path: vec![Step::Key("game".into()), Step::Key("deal".into())], value: json!(1) };
        assert!(apply(&mut state, &[bad]).is_err());
        let bad = Patch::Append { path: vec![Step::Key("room".into())], values: vec![json!(1)] };
        assert!(apply(&mut state, &[bad]).is_err());
        let bad = Patch::Unset { path: vec![Step::Key("room".into()), Step::Index(0)] };
        assert!(apply(&mut state, std::slice::from_ref(&bad)).is_err());
        let error = apply_owned(&mut state, vec![bad]).unwrap_err();
        assert_eq!(error.path, r#"["room",0]"#);
        let bad = Patch::Unset { path: vec![] };
        assert!(apply_owned(&mut state, vec![bad]).is_err());
        assert_eq!(state, json!({"room": {}}), "nothing changed");
    }

    /// Random JSON of a few levels, with few distinct keys and values so that random pairs
    /// share parts (as two states of one room do).
    fn json_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            (0i64..4).prop_map(Value::from),
            prop::sample::select(vec!["HA", "S7", "x"]).prop_map(Value::from),
        ];
        leaf.prop_recursive(4, 40, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::btree_map(prop::sample::select(vec!["a", "b", "c", "d"]), inner, 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().map(|(k, v)| (k.to_string(), v)).collect())),
            ]
        })
    }

    /// A value and a variation of it: parts replaced, removed, added, arrays grown or cut.
    fn related_pair() -> impl Strategy<Value = (Value, Value)> {
        (json_value(), json_value(), json_value(), any::<u64>()).prop_map(|(a, b, extra, seed)| {
            let mut varied = a.clone();
            vary(&mut varied, &b, &extra, seed);
            (a, varied)
        })
    }

    fn vary(value: &mut Value, other: &Value, extra: &Value, seed: u64) {
        let pick = seed % 7;
        match value {
            Value::Array(items) if !items.is_empty() => match pick {
                0 => items.push(extra.clone()),
                1 => items.truncate(items.len() / 2),
                2 => *value = other.clone(),
                _ => {
                    let i = (seed / 7) as usize % items.len();
                    vary(&mut items[i], other, extra, seed / 49);
                }
            },
            Value::Array(items) => items.push(extra.clone()),
            Value::Object(map) if !map.is_empty() => {
                let keys: Vec<String> = map.keys().cloned().collect();
                let key = keys[(seed / 7) as usize % keys.len()].clone();
                match pick {
                    0 => {
                        map.remove(&key);
                    }
                    1 => {
                        map.insert(format!("{key}2"), extra.clone());
                    }
                    2 => *value = other.clone(),
                    _ => {
                        if let Some(child) = map.get_mut(&key) {
                            vary(child, other, extra, seed / 49);
                        }
                    }
                }
            }
            _ => *value = other.clone(),
        }
    }

    proptest! {
        #[test]
        fn apply_of_diff_gives_the_new_value_for_random_pairs(old in json_value(), new in json_value()) {
            roundtrip(&old, &new);
        }

        #[test]
        fn apply_of_diff_gives_the_new_value_for_related_pairs((old, new) in related_pair()) {
            roundtrip(&old, &new);
        }

        #[test]
        fn every_patched_value_is_a_part_of_the_new_value((old, new) in related_pair()) {
            // A patch carries nothing the new value does not hold: what it sets or appends is
            // found at its path in the new value.
            for patch in diff(&old, &new) {
                match patch {
                    Patch::Set { path, value } => prop_assert_eq!(at(&new, &path), Some(&value)),
                    Patch::Append { path, values } => {
                        let items = at(&new, &path).and_then(Value::as_array).unwrap();
                        prop_assert!(items.ends_with(&values));
                    }
                    Patch::Unset { path } => prop_assert_eq!(at(&new, &path), None),
                }
            }
        }
    }

    fn at<'a>(value: &'a Value, path: &[Step]) -> Option<&'a Value> {
        path.iter().try_fold(value, |v, step| match (v, step) {
            (Value::Object(map), Step::Key(key)) => map.get(key),
            (Value::Array(items), Step::Index(i)) => items.get(*i),
            _ => None,
        })
    }
}
