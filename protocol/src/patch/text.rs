//! [`super::diff`] on JSON text: the patches between two serialised documents, written as the
//! JSON of a [`super::Patch`] list, without building a tree of either.
//!
//! A server keeps what it last sent each connection as compact text (a few hundred bytes per
//! part, where a `serde_json::Value` tree of the same part takes many times that), and on each
//! change compares the new text with it: equal parts are skipped by comparing bytes, objects are
//! compared key by key, a grown array whose old items are unchanged gets an `append`, an array
//! of the same length with few changed items gets patches for those items, anything else is
//! set whole. The patches are those [`super::diff`] makes of the two parsed documents, in the
//! order of the keys in the text.
//!
//! The text must be JSON as `serde_json::to_string` writes it: compact, without whitespace.

use std::fmt::Write;

/// A step of a path, as written into a patch.
#[derive(Debug, Clone, Copy)]
pub enum Seg<'a> {
    /// A key that needs no escaping, written with quotes added.
    Name(&'a str),
    /// A key as it stands in the text: a JSON string, quotes included.
    Raw(&'a str),
    /// An array's index.
    Index(usize),
}

/// Writes patches, comma-separated, into a buffer: the caller puts them between `[` and `]`.
#[derive(Debug, Default)]
pub struct PatchWriter {
    pub(super) out: String,
    /// The patches of parts compared before, while [`PatchWriter::diff_spanned_with`] runs.
    pub(super) memo: Option<super::spanned::PatchMemo>,
}

impl PatchWriter {
    /// A writer with an empty buffer.
    pub fn new() -> PatchWriter {
        PatchWriter::default()
    }

    /// A writer whose buffer holds `bytes` before it grows.
    pub fn with_capacity(bytes: usize) -> PatchWriter {
        PatchWriter { out: String::with_capacity(bytes), memo: None }
    }

    /// The patches written, comma-separated.
    pub fn as_str(&self) -> &str {
        &self.out
    }

    /// Whether no patch was written.
    pub fn is_empty(&self) -> bool {
        self.out.is_empty()
    }

    /// The patches written, comma-separated, as a string of their own.
    pub fn into_string(self) -> String {
        self.out
    }

    /// Adds patches written before (by [`PatchWriter::as_str`]), comma-separated.
    pub fn push_written(&mut self, patches: &str) {
        if patches.is_empty() {
            return;
        }
        if !self.out.is_empty() {
            self.out.push(',');
        }
        self.out.push_str(patches);
    }

    /// Writes the patches that turn the JSON text `old` into `new`, found at `path`.
    pub fn diff<'a>(&mut self, old: &'a str, new: &'a str, path: &mut Vec<Seg<'a>>) {
        if old == new {
            return;
        }
        match (old.as_bytes().first(), new.as_bytes().first()) {
            (Some(b'{'), Some(b'{')) => self.diff_objects(old, new, path),
            (Some(b'['), Some(b'[')) => self.diff_arrays(old, new, path),
            _ => self.set(path, new),
        }
    }

    fn diff_objects<'a>(&mut self, old: &'a str, new: &'a str, path: &mut Vec<Seg<'a>>) {
        // The fields that lie, with the comma or brace next to them, within the texts' common
        // beginning or common end are the same in both: only the fields between are compared
        // (a move changes a few fields of a view).
        let (o, n) = (old.as_bytes(), new.as_bytes());
        let head = common_prefix(o, n);
        let tail = common_suffix(&o[head.min(o.len())..], &n[head.min(n.len())..]);
        let mut fields = Cursor::inside(old);
        let mut start = 1;
        // The ends of the first field that reaches past the common beginning, once found.
        let mut found = None;
        while let Some(ends) = fields.field_ends() {
            if ends.1 >= head {
                found = Some(ends);
                break;
            }
            start = ends.1 + 1;
            fields.at = start;
        }
        // From where the common end begins, in the old text, every field is the new one.
        let same_from = o.len() - tail;
        let mut before: Vec<(&str, &str)> = Vec::with_capacity(16);
        while fields.at <= same_from {
            let ends = match found.take() {
                Some(ends) => ends,
                None => match fields.field_ends() {
                    Some(ends) => ends,
                    None => break,
                },
            };
            before.push(fields.field_to(ends));
        }
        // The new text's fields between, up to where the old text's common end begins.
        let new_end = (fields.at.min(o.len()) + n.len()).saturating_sub(o.len()).min(n.len());
        let region = &new[..new_end];
        // Mostly the same keys come in the same order, and most values are unchanged: each is
        // compared with the old one where it stands, without finding its end first.
        let mut at = start;
        let mut aligned = 0;
        for (i, (key, value)) in before.iter().enumerate() {
            let Some(rest) = region.get(at..) else { break };
            let Some(after_key) = rest.strip_prefix(key).and_then(|r| r.strip_prefix(':')) else { break };
            let value_at = at + key.len() + 1;
            let unchanged = after_key.starts_with(value)
                && matches!(n.get(value_at + value.len()), Some(b',' | b'}'))
                && value_at + value.len() <= new_end;
            let end = if unchanged { value_at + value.len() } else { value_end(n, value_at).min(new_end) };
            if !unchanged {
                path.push(Seg::Raw(key));
                self.diff(value, &new[value_at..end], path);
                path.pop();
            }
            aligned = i + 1;
            at = end + 1;
        }
        // Keys added, removed or reordered: the rest by key.
        let rest = if at < new_end { Some(Cursor::at(region, at).fields()) } else { None };
        self.fields_by_key(&before[aligned..], rest.into_iter().flatten(), path, |w, o, n, p| w.diff(o, n, p), |v| v);
    }

    /// Writes the patches between the fields `before` and `after` of an object matched by key
    /// (each search goes on from the field found last): `diff` for a field in both, a `set` for
    /// a new one, an `unset` for one gone.
    pub(super) fn fields_by_key<'a, V: Copy>(
        &mut self,
        before: &[(&'a str, V)],
        after: impl IntoIterator<Item = (&'a str, V)>,
        path: &mut Vec<Seg<'a>>,
        mut diff: impl FnMut(&mut PatchWriter, V, V, &mut Vec<Seg<'a>>),
        text: impl Fn(V) -> &'a str,
    ) {
        let mut kept = vec![false; before.len()];
        let mut next = 0;
        for (key, value) in after {
            let found = (next..before.len()).chain(0..next.min(before.len())).find(|&i| before[i].0 == key);
            path.push(Seg::Raw(key));
            match found {
                Some(i) => {
                    kept[i] = true;
                    next = i + 1;
                    diff(self, before[i].1, value, path);
                }
                None => self.set(path, text(value)),
            }
            path.pop();
        }
        for (i, (key, _)) in before.iter().enumerate() {
            if !kept[i] {
                path.push(Seg::Raw(key));
                self.unset(path);
                path.pop();
            }
        }
    }

    fn diff_arrays<'a>(&mut self, old: &'a str, new: &'a str, path: &mut Vec<Seg<'a>>) {
        // Grown: the old items, unchanged, are followed by new ones.
        let head = &old[..old.len() - 1];
        if new.len() > old.len() && new.starts_with(head) {
            let rest = if old == "[]" { Some(&new[1..]) } else { new[head.len()..].strip_prefix(',') };
            if let Some(rest) = rest {
                self.append(path, Cursor::at(rest, 0).items());
                return;
            }
        }
        let before: Vec<&str> = Cursor::inside(old).items().collect();
        let after: Vec<&str> = Cursor::inside(new).items().collect();
        if before.len() == after.len() && changed_in_part(before.iter().copied().zip(after.iter().copied())) {
            for (i, (old, new)) in before.iter().zip(&after).enumerate() {
                path.push(Seg::Index(i));
                self.diff(old, new, path);
                path.pop();
            }
        } else {
            self.set(path, new);
        }
    }

    /// Writes a `set` of `value` (JSON text) at `path`.
    pub fn set(&mut self, path: &[Seg<'_>], value: &str) {
        self.open("set", path);
        self.out.push_str(r#","value":"#);
        self.out.push_str(value);
        self.out.push('}');
    }

    /// Writes an `append` of `values` (each JSON text) to the array at `path`.
    pub fn append<'v>(&mut self, path: &[Seg<'_>], values: impl IntoIterator<Item = &'v str>) {
        self.open("append", path);
        self.out.push_str(r#","values":["#);
        for (i, value) in values.into_iter().enumerate() {
            if i > 0 {
                self.out.push(',');
            }
            self.out.push_str(value);
        }
        self.out.push_str("]}");
    }

    /// Writes an `unset` of the field at `path`.
    pub fn unset(&mut self, path: &[Seg<'_>]) {
        self.open("unset", path);
        self.out.push('}');
    }

    fn open(&mut self, op: &str, path: &[Seg<'_>]) {
        if !self.out.is_empty() {
            self.out.push(',');
        }
        self.out.push_str(r#"{"op":""#);
        self.out.push_str(op);
        self.out.push_str(r#"","path":["#);
        write_path(&mut self.out, path);
        self.out.push(']');
    }
}

/// Writes `path`'s steps as a patch's path has them, comma-separated.
pub(super) fn write_path(out: &mut String, path: &[Seg<'_>]) {
    for (i, seg) in path.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        match seg {
            Seg::Name(name) => {
                out.push('"');
                out.push_str(name);
                out.push('"');
            }
            Seg::Raw(raw) => out.push_str(raw),
            Seg::Index(i) => {
                // Writing to a String cannot fail.
                let _ = write!(out, "{i}");
            }
        }
    }
}

/// Two arrays of the same length, given as their items' pairs, worth patching item by item:
/// fewer than half their items differ, and those that do are both objects or both arrays (whose
/// own parts may be patched).
pub(super) fn changed_in_part<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> bool {
    let (mut items, mut changed) = (0, 0);
    for (before, after) in pairs {
        items += 1;
        if before != after {
            match (before.as_bytes().first(), after.as_bytes().first()) {
                (Some(b'{'), Some(b'{')) | (Some(b'['), Some(b'[')) => changed += 1,
                _ => return false,
            }
        }
    }
    changed * 2 < items
}

/// The length of the longest common beginning of `a` and `b`.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    const CHUNK: usize = 16;
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + CHUNK <= n && a[i..i + CHUNK] == b[i..i + CHUNK] {
        i += CHUNK;
    }
    while i < n && a[i] == b[i] {
        i += 1;
    }
    i
}

/// The length of the longest common end of `a` and `b`.
fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    a.iter().rev().zip(b.iter().rev()).take_while(|(x, y)| x == y).count()
}

/// Bytes that matter inside an object or array: quotes and brackets.
const STRUCTURAL: [bool; 256] = {
    let mut table = [false; 256];
    table[b'"' as usize] = true;
    table[b'{' as usize] = true;
    table[b'[' as usize] = true;
    table[b'}' as usize] = true;
    table[b']' as usize] = true;
    table
};

/// Bytes that matter inside a string: its end, and escapes.
const IN_STRING: [bool; 256] = {
    let mut table = [false; 256];
    table[b'"' as usize] = true;
    table[b'\\' as usize] = true;
    table
};

/// The index just past the JSON value that starts at `i`.
fn value_end(s: &[u8], i: usize) -> usize {
    match s.get(i) {
        Some(b'"') => string_end(s, i),
        Some(b'{' | b'[') => {
            let mut depth = 0usize;
            let mut j = i;
            while j < s.len() {
                if !STRUCTURAL[usize::from(s[j])] {
                    j += 1;
                    continue;
                }
                match s[j] {
                    b'"' => {
                        j = string_end(s, j);
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return j + 1;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            s.len()
        }
        _ => {
            let mut j = i;
            while j < s.len() && !matches!(s[j], b',' | b'}' | b']') {
                j += 1;
            }
            j
        }
    }
}

/// The index just past the string whose opening quote is at `i`.
fn string_end(s: &[u8], i: usize) -> usize {
    let mut j = i + 1;
    while j < s.len() {
        if !IN_STRING[usize::from(s[j])] {
            j += 1;
            continue;
        }
        match s[j] {
            b'\\' => j += 2,
            b'"' => return j + 1,
            _ => j += 1,
        }
    }
    s.len()
}

/// A place in the text of a JSON object or array, read member by member.
#[derive(Debug, Clone, Copy)]
struct Cursor<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Cursor<'a> {
    /// At the first member of the object or array `text`.
    fn inside(text: &'a str) -> Cursor<'a> {
        Cursor { text, at: 1 }
    }

    /// At `at` in `text`: just after a `[`, `{` or `,`.
    fn at(text: &'a str, at: usize) -> Cursor<'a> {
        Cursor { text, at }
    }

    /// Where the next field's key ends and its value ends, without moving on.
    fn field_ends(&self) -> Option<(usize, usize)> {
        let s = self.text.as_bytes();
        if s.get(self.at) != Some(&b'"') {
            return None;
        }
        let key_end = string_end(s, self.at);
        Some((key_end, value_end(s, key_end + 1).min(s.len())))
    }

    /// Moves past the member that ends at `end`.
    fn step(&mut self, end: usize) {
        let s = self.text.as_bytes();
        self.at = if s.get(end) == Some(&b',') { end + 1 } else { s.len() };
    }

    /// The next field of an object: its key as it stands (quotes included) and its value.
    fn field(&mut self) -> Option<(&'a str, &'a str)> {
        let ends = self.field_ends()?;
        Some(self.field_to(ends))
    }

    /// The next field, whose ends [`Cursor::field_ends`] gave, and moves past it.
    fn field_to(&mut self, (key_end, end): (usize, usize)) -> (&'a str, &'a str) {
        let field = (&self.text[self.at..key_end], &self.text[(key_end + 1).min(end)..end]);
        self.step(end);
        field
    }

    /// The next item of an array.
    fn item(&mut self) -> Option<&'a str> {
        let s = self.text.as_bytes();
        if self.at >= s.len() || s[self.at] == b']' {
            return None;
        }
        let end = value_end(s, self.at);
        let item = &self.text[self.at..end];
        self.step(end);
        Some(item)
    }

    /// The fields from here on.
    fn fields(mut self) -> impl Iterator<Item = (&'a str, &'a str)> {
        std::iter::from_fn(move || self.field())
    }

    /// The items from here on.
    fn items(mut self) -> impl Iterator<Item = &'a str> {
        std::iter::from_fn(move || self.item())
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::{Patch, Step, apply, diff};
    use super::*;
    use proptest::prelude::*;
    use serde_json::{Value, json};

    /// The text patches between two values' JSON, read back.
    fn text_patches(old: &Value, new: &Value) -> Vec<Patch> {
        let (old, new) = (old.to_string(), new.to_string());
        let mut writer = PatchWriter::new();
        writer.diff(&old, &new, &mut Vec::new());
        serde_json::from_str(&format!("[{}]", writer.as_str())).expect("the patches are JSON of Patch")
    }

    #[test]
    fn text_patches_are_those_of_the_parsed_documents() {
        let old = json!({"room": {"turn": {"seat": 1}, "seats": [{"c": true}, {"c": true}, {"c": true}], "n": "a\"]"},
                         "log": [1, 2, 3], "sheet": [{"n": 1}], "x": [[1], [2]]});
        let new = json!({"room": {"seats": [{"c": true}, {"c": false}, {"c": true}], "next": 5, "n": "a\"]"},
                         "log": [1], "sheet": [{"n": 1}, {"n": 2}], "x": [[1], [2], []]});
        let patches = text_patches(&old, &new);
        assert_eq!(patches, diff(&old, &new));
        let mut patched = old.clone();
        apply(&mut patched, &patches).unwrap();
        assert_eq!(patched, new);
        assert!(
            patches.contains(&Patch::Append { path: vec![Step::Key("sheet".into())], values: vec![json!({"n": 2})] })
        );
    }

    #[test]
    fn a_number_that_grew_is_no_new_item() {
        // "[1" is a prefix of "[12]", but 12 is not 1 followed by more items.
        let patches = text_patches(&json!({"a": [1]}), &json!({"a": [12, 3]}));
        assert_eq!(patches, vec![Patch::Set { path: vec![Step::Key("a".into())], value: json!([12, 3]) }]);
        let patches = text_patches(&json!({"a": []}), &json!({"a": [[], "x"]}));
        assert_eq!(
            patches,
            vec![Patch::Append { path: vec![Step::Key("a".into())], values: vec![json!([]), json!("x")] }]
        );
    }

    #[test]
    fn writers_write_each_kind_with_names_and_indices() {
        let mut writer = PatchWriter::new();
        assert!(writer.is_empty());
        writer.set(&[Seg::Name("game")], "null");
        writer.append(&[Seg::Name("game"), Seg::Name("scoresheet")], ["{\"n\":1}", "{\"n\":2}"]);
        writer.unset(&[Seg::Name("room"), Seg::Index(3), Seg::Raw("\"x\"")]);
        let read: Vec<Patch> = serde_json::from_str(&format!("[{}]", writer.as_str())).unwrap();
        let key = |k: &str| Step::Key(k.into());
        assert_eq!(
            read,
            vec![
                Patch::Set { path: vec![key("game")], value: Value::Null },
                Patch::Append {
                    path: vec![key("game"), key("scoresheet")],
                    values: vec![json!({"n": 1}), json!({"n": 2})]
                },
                Patch::Unset { path: vec![key("room"), Step::Index(3), key("x")] },
            ]
        );
    }

    /// Random JSON with strings that look like JSON's own punctuation.
    pub(in crate::patch) fn json_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            (-3i64..40).prop_map(Value::from),
            Just(Value::from(1.5)),
            prop::sample::select(vec!["HA", "", "a\"b", "],[", "{\\}", ",", "ß"]).prop_map(Value::from),
        ];
        leaf.prop_recursive(4, 40, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::btree_map(prop::sample::select(vec!["a", "b", "c\"", "d"]), inner, 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().map(|(k, v)| (k.to_string(), v)).collect())),
            ]
        })
    }

    /// A value grown or changed in one part.
    pub(in crate::patch) fn vary(value: &Value, seed: u64, extra: &Value) -> Value {
        let mut value = value.clone();
        vary_in(&mut value, seed, extra);
        value
    }

    fn vary_in(at: &mut Value, seed: u64, extra: &Value) {
        let (pick, seed) = (seed % 5, seed / 5);
        match at {
            Value::Array(items) if !items.is_empty() && pick > 1 => {
                let i = seed as usize % items.len();
                vary_in(&mut items[i], seed / 7, extra);
            }
            Value::Array(items) if pick == 0 => items.push(extra.clone()),
            Value::Object(map) if !map.is_empty() && pick > 1 => {
                let i = seed as usize % map.len();
                if let Some(child) = map.values_mut().nth(i) {
                    vary_in(child, seed / 7, extra);
                }
            }
            Value::Object(map) if pick == 0 => {
                map.insert("e".into(), extra.clone());
            }
            _ => *at = extra.clone(),
        }
    }

    proptest! {
        #[test]
        fn text_patches_equal_the_value_patches(old in json_value(), new in json_value()) {
            prop_assert_eq!(text_patches(&old, &new), diff(&old, &new));
        }

        #[test]
        fn text_patches_of_related_values_patch_the_old_into_the_new(
            old in json_value(), extra in json_value(), seed in any::<u64>()
        ) {
            let new = vary(&old, seed, &extra);
            let patches = text_patches(&old, &new);
            prop_assert_eq!(&patches, &diff(&old, &new));
            let mut patched = old.clone();
            apply(&mut patched, &patches).unwrap();
            prop_assert_eq!(patched, new);
        }
    }
}
