//! Reading patches from JSON without serde's buffering.
//!
//! A derived `Deserialize` for an enum tagged by a field (`"op"`) or for an untagged enum first
//! copies the whole value into an intermediate tree, then reads that tree again: a patch's new
//! value was copied twice over. These readers take each field as it comes, in any order, and
//! read the step of a path as the number or the string it is. What they accept is what the
//! derived readers accepted: the same fields, other fields ignored, the same variants.

use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::Value;

use super::{Patch, Step};

impl<'de> Deserialize<'de> for Step {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Step, D::Error> {
        deserializer.deserialize_any(StepVisitor)
    }
}

struct StepVisitor;

impl Visitor<'_> for StepVisitor {
    type Value = Step;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array index or an object key")
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Step, E> {
        usize::try_from(v).map(Step::Index).map_err(|_| E::custom("an array index out of range"))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Step, E> {
        usize::try_from(v).map(Step::Index).map_err(|_| E::invalid_value(de::Unexpected::Signed(v), &self))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Step, E> {
        Ok(Step::Key(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Step, E> {
        Ok(Step::Key(v))
    }
}

impl<'de> Deserialize<'de> for Patch {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Patch, D::Error> {
        deserializer.deserialize_map(PatchVisitor)
    }
}

/// The operations, as the `op` field names them.
#[derive(Clone, Copy)]
enum Op {
    Set,
    Append,
    Unset,
}

/// A patch's fields; `Other` for any field a patch does not have.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Field {
    Op,
    Path,
    Value,
    Values,
    Other,
}

/// Reads a name without keeping it: `T` is what the name stands for.
struct Name<T>(fn(&str) -> Result<T, &str>);

impl<T> Visitor<'_> for Name<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a name")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        (self.0)(v).map_err(|other| E::unknown_variant(other, &["set", "append", "unset"]))
    }
}

impl<'de> Deserialize<'de> for Op {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Op, D::Error> {
        deserializer.deserialize_str(Name(|name| match name {
            "set" => Ok(Op::Set),
            "append" => Ok(Op::Append),
            "unset" => Ok(Op::Unset),
            other => Err(other),
        }))
    }
}

impl<'de> Deserialize<'de> for Field {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Field, D::Error> {
        deserializer.deserialize_identifier(Name(|name| {
            Ok(match name {
                "op" => Field::Op,
                "path" => Field::Path,
                "value" => Field::Value,
                "values" => Field::Values,
                _ => Field::Other,
            })
        }))
    }
}

struct PatchVisitor;

impl<'de> Visitor<'de> for PatchVisitor {
    type Value = Patch;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a patch: an object with `op` and `path`")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Patch, A::Error> {
        let mut op = None;
        let mut path: Option<Vec<Step>> = None;
        let mut value: Option<Value> = None;
        let mut values: Option<Vec<Value>> = None;
        while let Some(field) = map.next_key::<Field>()? {
            let duplicate = match field {
                Field::Op => op.replace(map.next_value::<Op>()?).is_some(),
                Field::Path => path.replace(map.next_value()?).is_some(),
                Field::Value => value.replace(map.next_value()?).is_some(),
                Field::Values => values.replace(map.next_value()?).is_some(),
                Field::Other => {
                    map.next_value::<IgnoredAny>()?;
                    false
                }
            };
            if duplicate {
                let name = ["op", "path", "value", "values"][field as usize];
                return Err(de::Error::custom(format_args!("duplicate field `{name}`")));
            }
        }
        let op = op.ok_or_else(|| de::Error::missing_field("op"))?;
        let path = path.ok_or_else(|| de::Error::missing_field("path"))?;
        match op {
            Op::Set => Ok(Patch::Set { path, value: value.ok_or_else(|| de::Error::missing_field("value"))? }),
            Op::Append => Ok(Patch::Append { path, values: values.ok_or_else(|| de::Error::missing_field("values"))? }),
            Op::Unset => Ok(Patch::Unset { path }),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn read(text: &str) -> Result<Vec<Patch>, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }

    #[test]
    fn patches_are_read_whatever_the_order_of_their_fields() {
        let patches = read(
            r#"[{"value": {"a": [1, "x"]}, "path": ["game", 0, "b"], "op": "set"},
                {"op": "append", "values": [3, null], "path": ["room", "log"]},
                {"path": [], "op": "unset", "note": {"ignored": [1]}}]"#,
        )
        .unwrap();
        assert_eq!(
            patches,
            vec![
                Patch::Set {
                    path: vec![Step::Key("game".into()), Step::Index(0), Step::Key("b".into())],
                    value: json!({"a": [1, "x"]}),
                },
                Patch::Append {
                    path: vec![Step::Key("room".into()), Step::Key("log".into())],
                    values: vec![json!(3), json!(null)]
                },
                Patch::Unset { path: vec![] },
            ]
        );
    }

    #[test]
    fn a_patch_without_what_its_operation_needs_is_refused() {
        for (text, error) in [
            (r#"[{"path": ["a"], "value": 1}]"#, "missing field `op`"),
            (r#"[{"op": "set", "value": 1}]"#, "missing field `path`"),
            (r#"[{"op": "set", "path": ["a"]}]"#, "missing field `value`"),
            (r#"[{"op": "append", "path": ["a"], "value": 1}]"#, "missing field `values`"),
            (r#"[{"op": "move", "path": ["a"]}]"#, "unknown variant `move`"),
            (r#"[{"op": "unset", "path": [-1]}]"#, "invalid value"),
            (r#"[{"op": "unset", "path": [1.5]}]"#, "an array index or an object key"),
            (r#"[{"op": "unset", "op": "set", "path": []}]"#, "duplicate field `op`"),
            (r#"[["set", ["a"], 1]]"#, "a patch"),
        ] {
            let found = read(text).expect_err(text);
            assert!(found.contains(error), "{text}: {found}");
        }
    }

    #[test]
    fn patches_read_back_what_was_written() {
        let patches = vec![
            Patch::Set { path: vec![Step::Key("a".into()), Step::Index(7)], value: json!({"k": [true, "s"]}) },
            Patch::Append { path: vec![Step::Key("log".into())], values: vec![json!({"event": "x"})] },
            Patch::Unset { path: vec![Step::Key("turn".into())] },
        ];
        let text = serde_json::to_string(&patches).unwrap();
        assert_eq!(read(&text).unwrap(), patches);
        // Read from a value too (the tree a client may hold).
        let value: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(Vec::<Patch>::deserialize(&value).unwrap(), patches);
    }
}
