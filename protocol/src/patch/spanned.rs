//! JSON text that knows where its parts are: [`Spanned`] is serialised with a record of where
//! each member of its objects and arrays begins and ends, down to a chosen depth, so that
//! [`PatchWriter::diff_spanned`] compares two such texts part by part without scanning them for
//! the ends of values. Below the recorded depth (and for a text too long to record) it falls
//! back to [`PatchWriter::diff`]; the patches are the same either way.
//!
//! A server keeps each viewer's last state this way: the record of a game view's top levels
//! is a few hundred bytes, and a move that changes a few fields of it is compared by a few
//! dozen byte comparisons instead of several passes over its text.

use std::cell::Cell;
use std::io;

use serde::Serialize;
use serde_json::ser::Formatter;

use super::text::{PatchWriter, Seg, changed_in_part, write_path};

/// Where one member of an object or array stands in the text, as byte offsets into the whole
/// text. An object member's key begins where the member before it ended, after the comma (or
/// just inside the object), and ends before the colon at `start - 1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Node {
    /// Where its value begins (just after the colon for an object's member).
    start: u16,
    /// Just past its value.
    end: u16,
    /// How many recorded members lie within its value (they follow it).
    within: u16,
}

/// Compact JSON text with the places of its members down to a depth.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spanned {
    text: Box<str>,
    /// The members, depth first: each followed by those within it.
    nodes: Box<[Node]>,
}

impl Spanned {
    /// `value` as compact JSON (as `serde_json::to_string` writes it), with the places of the
    /// members of its objects and arrays down to `depth` levels (1: the top object's members).
    pub fn of<T: Serialize + ?Sized>(value: &T, depth: usize) -> serde_json::Result<Spanned> {
        let at = Cell::new(0);
        let mut writer = Counting { out: Vec::with_capacity(2048), at: &at };
        let mut recorder =
            Recorder { at: &at, depth: 0, max: depth, nodes: Vec::with_capacity(64), open: Vec::new(), fits: true };
        value.serialize(&mut serde_json::Serializer::with_formatter(&mut writer, &mut recorder))?;
        let text = String::from_utf8(writer.out).map_err(|e| serde::ser::Error::custom(e.to_string()))?;
        let nodes = if recorder.fits { recorder.nodes } else { Vec::new() };
        Ok(Spanned { text: text.into_boxed_str(), nodes: nodes.into_boxed_slice() })
    }

    /// A text with no record: compared by scanning.
    pub fn plain(text: &str) -> Spanned {
        Spanned { text: Box::from(text), nodes: Box::new([]) }
    }

    /// The JSON text.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// This text with the values of some members of the object that is the top object's
    /// member `parent` replaced by other JSON texts (`(name, json)`: the member's name, without
    /// quotes, and its new value), and the record moved to match: the text and record
    /// [`Spanned::of`] gives for the value so changed. Names are those of a struct's fields
    /// (nothing in them to escape), in the order of the members. `None` if the record does not reach
    /// those members (too shallow, or not kept), or a name is not found under `parent`.
    pub fn with_members_replaced(&self, parent: &str, parts: &[(&str, &str)]) -> Option<Spanned> {
        let cuts = self.cuts(parent, parts)?;
        if cuts.is_empty() {
            return Some(self.clone());
        }
        let grown: usize = cuts.iter().map(|(_, _, json)| json.len()).sum();
        let cut: usize = cuts.iter().map(|(start, end, _)| end - start).sum();
        let mut text = String::with_capacity(self.text.len() - cut + grown);
        let mut at = 0;
        for (start, end, json) in &cuts {
            text.push_str(&self.text[at..*start]);
            text.push_str(json);
            at = *end;
        }
        text.push_str(&self.text[at..]);
        // An offset moves by the change of every value that ends at or before it; a replaced
        // value's own start moves by the changes before it only. Offsets before the first
        // value replaced stay, those after the last move by the whole change.
        let last = cuts[cuts.len() - 1].1;
        let total = (text.len() as isize) - (self.text.len() as isize);
        // The record is in the order of the text (each member before those within it): the
        // values replaced before an offset are counted on as the offsets grow. A member ends
        // after those within it, so ends are counted apart from starts, and the ends of the
        // members around the values replaced (past the last) are moved by the whole change.
        let (mut starts, mut start_by) = (0, 0isize);
        let (mut ends, mut end_by) = (0, 0isize);
        let change = |(start, end, json): &(usize, usize, &str)| json.len() as isize - (end - start) as isize;
        let mut nodes = Vec::with_capacity(self.nodes.len());
        for node in self.nodes.iter() {
            let (start, end) = (usize::from(node.start), usize::from(node.end));
            while starts < cuts.len() && start > cuts[starts].0 {
                start_by += change(&cuts[starts]);
                starts += 1;
            }
            let by = if end >= last {
                total
            } else {
                while ends < cuts.len() && end >= cuts[ends].1 {
                    end_by += change(&cuts[ends]);
                    ends += 1;
                }
                end_by
            };
            let moved = (u16::try_from(start as isize + start_by), u16::try_from(end as isize + by));
            match moved {
                (Ok(start), Ok(end)) => nodes.push(Node { start, end, within: node.within }),
                // A text too long to record is kept without a record, as [`Spanned::of`] keeps it.
                _ => {
                    nodes.clear();
                    break;
                }
            }
        }
        Some(Spanned { text: text.into_boxed_str(), nodes: nodes.into_boxed_slice() })
    }

    /// Whether [`Spanned::with_members_replaced`] can replace the members `names` of the top
    /// object's member `parent` (whatever their new values).
    pub fn replaceable(&self, parent: &str, names: &[&str]) -> bool {
        let parts: Vec<(&str, &str)> = names.iter().map(|name| (*name, "")).collect();
        self.cuts(parent, &parts).is_some()
    }

    /// The ranges of the text that [`Spanned::with_members_replaced`] replaces by `parts`, in
    /// the order of the text, each with its new value.
    fn cuts<'p>(&self, parent: &str, parts: &[(&str, &'p str)]) -> Option<Vec<(usize, usize, &'p str)>> {
        let is = |key: &str, name: &str| key.len() == name.len() + 2 && &key[1..key.len() - 1] == name;
        let (_, object) = self.whole().members().find(|(key, _)| is(key, parent))?;
        // The parts come in the members' order (as a view writes them).
        let mut cuts: Vec<(usize, usize, &str)> = Vec::with_capacity(parts.len());
        for (key, member) in object.members() {
            // The parts are looked for in the members' order: one comparison a member.
            let found = match parts.get(cuts.len()) {
                Some((name, json)) if is(key, name) => Some(*json),
                _ => None,
            };
            if let Some(json) = found {
                if !member.nodes.is_empty() {
                    // Its own members are recorded: the record within it would change too.
                    return None;
                }
                cuts.push((member.start, member.end, json));
            }
        }
        (cuts.len() == parts.len()).then_some(cuts)
    }

    fn whole(&self) -> Part<'_> {
        Part { doc: &self.text, start: 0, end: self.text.len(), nodes: &self.nodes }
    }
}

/// A writer that keeps count of what it was given.
struct Counting<'c> {
    out: Vec<u8>,
    at: &'c Cell<usize>,
}

// Inlined where a view is serialised (another crate): the writer is called for every few bytes.
impl io::Write for Counting<'_> {
    #[inline]
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.out.extend_from_slice(bytes);
        self.at.set(self.out.len());
        Ok(bytes.len())
    }

    #[inline]
    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.out.extend_from_slice(bytes);
        self.at.set(self.out.len());
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// serde_json's compact output, noting where members begin and end.
struct Recorder<'c> {
    at: &'c Cell<usize>,
    /// How many objects and arrays are open.
    depth: usize,
    max: usize,
    nodes: Vec<Node>,
    /// The recorded members whose value is being written.
    open: Vec<usize>,
    /// Whether every position fits the record's width.
    fits: bool,
}

impl Recorder<'_> {
    #[inline]
    fn position(&mut self) -> u16 {
        u16::try_from(self.at.get()).unwrap_or_else(|_| {
            self.fits = false;
            0
        })
    }

    #[inline]
    fn member(&mut self) {
        if self.depth <= self.max {
            let at = self.position();
            self.open.push(self.nodes.len());
            self.nodes.push(Node { start: at, end: at, within: 0 });
        }
    }

    #[inline]
    fn value(&mut self) {
        if self.depth <= self.max {
            let start = self.position();
            if let Some(&i) = self.open.last() {
                self.nodes[i].start = start;
            }
        }
    }

    #[inline]
    fn member_end(&mut self) {
        if self.depth <= self.max {
            let end = self.position();
            if let Some(i) = self.open.pop() {
                let within = u16::try_from(self.nodes.len() - i - 1).unwrap_or_else(|_| {
                    self.fits = false;
                    0
                });
                self.nodes[i].end = end;
                self.nodes[i].within = within;
            }
        }
    }
}

impl Formatter for &mut Recorder<'_> {
    fn begin_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.depth += 1;
        writer.write_all(b"[")
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.depth -= 1;
        writer.write_all(b"]")
    }

    fn begin_array_value<W: ?Sized + io::Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        if !first {
            writer.write_all(b",")?;
        }
        self.member();
        self.value();
        Ok(())
    }

    fn end_array_value<W: ?Sized + io::Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.member_end();
        Ok(())
    }

    fn begin_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.depth += 1;
        writer.write_all(b"{")
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.depth -= 1;
        writer.write_all(b"}")
    }

    fn begin_object_key<W: ?Sized + io::Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        if !first {
            writer.write_all(b",")?;
        }
        self.member();
        Ok(())
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b":")?;
        self.value();
        Ok(())
    }

    fn end_object_value<W: ?Sized + io::Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.member_end();
        Ok(())
    }
}

/// A member of an object (or an item of an array) within a spanned text whose place is
/// recorded: to be compared on its own ([`PatchWriter::diff_members`]) or looked into.
#[derive(Debug, Clone, Copy)]
pub struct Member<'a> {
    key: &'a str,
    part: Part<'a>,
}

impl<'a> Member<'a> {
    /// Its key as it stands in the text, quotes included (empty for an array's item).
    pub fn key(&self) -> &'a str {
        self.key
    }

    /// Whether its key is `name` (a name with nothing to escape).
    pub fn is(&self, name: &str) -> bool {
        let key = self.key;
        key.len() == name.len() + 2 && &key[1..key.len() - 1] == name
    }

    /// Its value's JSON text.
    pub fn text(&self) -> &'a str {
        self.part.text()
    }

    /// Whether the places of its own members are recorded (then [`Member::members`] lists them).
    pub fn has_members(&self) -> bool {
        !self.part.nodes.is_empty()
    }

    /// Its own members, where their places are recorded.
    pub fn members(&self) -> impl Iterator<Item = Member<'a>> + use<'a> {
        self.part.members().map(|(key, part)| Member { key, part })
    }

    /// How many own members are recorded (counted without reading their keys).
    pub fn member_count(&self) -> usize {
        self.part.members().count()
    }

    /// Its own member number `index` (from 0), where the places are recorded: the members
    /// before it are passed over without reading their keys.
    pub fn member(&self, index: usize) -> Option<Member<'a>> {
        self.part.members().nth(index).map(|(key, part)| Member { key, part })
    }
}

impl Spanned {
    /// The members of the top object (or items of the top array), where their places are
    /// recorded.
    pub fn members(&self) -> impl Iterator<Item = Member<'_>> {
        self.whole().members().map(|(key, part)| Member { key, part })
    }

    /// Whether the places of the top value's members are recorded.
    pub fn has_members(&self) -> bool {
        !self.nodes.is_empty()
    }

    /// The top value's member number `index` (from 0), where the places are recorded.
    pub fn member(&self, index: usize) -> Option<Member<'_>> {
        self.members().nth(index)
    }
}

/// A value within a spanned text, with the record of its members (empty where none was kept).
#[derive(Debug, Clone, Copy)]
struct Part<'a> {
    doc: &'a str,
    start: usize,
    end: usize,
    /// The records of the members within it, depth first.
    nodes: &'a [Node],
}

impl<'a> Part<'a> {
    fn text(&self) -> &'a str {
        &self.doc[self.start..self.end]
    }

    /// Its members: each with its key as it stands (quotes included; empty for an item).
    fn members(self) -> Members<'a> {
        Members { part: self, next: 0, at: self.start + 1 }
    }
}

/// The members of a [`Part`], in order.
#[derive(Debug, Clone, Copy)]
struct Members<'a> {
    part: Part<'a>,
    /// The record of the next member.
    next: usize,
    /// Where the next member begins in the text.
    at: usize,
}

impl Members<'_> {
    /// Moves past the next member without reading its key; `None` at the end.
    #[inline]
    fn pass(&mut self) -> Option<()> {
        let node = self.part.nodes.get(self.next)?;
        let after = self.next + 1 + usize::from(node.within);
        if after > self.part.nodes.len() {
            return None;
        }
        self.next = after;
        self.at = usize::from(node.end) + 1;
        Some(())
    }
}

impl<'a> Iterator for Members<'a> {
    type Item = (&'a str, Part<'a>);

    fn nth(&mut self, n: usize) -> Option<(&'a str, Part<'a>)> {
        for _ in 0..n {
            self.pass()?;
        }
        self.next()
    }

    fn count(mut self) -> usize {
        let mut count = 0;
        while self.pass().is_some() {
            count += 1;
        }
        count
    }

    fn next(&mut self) -> Option<(&'a str, Part<'a>)> {
        let Part { doc, nodes, .. } = self.part;
        let node = nodes.get(self.next)?;
        let within = usize::from(node.within);
        let inner = nodes.get(self.next + 1..self.next + 1 + within)?;
        self.next += 1 + within;
        let (start, end) = (usize::from(node.start), usize::from(node.end));
        let key = if self.at < start { doc.get(self.at..start - 1)? } else { "" };
        self.at = end + 1;
        Some((key, Part { doc, start, end, nodes: inner }))
    }
}

/// The patches written for parts compared before, kept for the next comparison of the same
/// two texts at the same path.
///
/// The viewers of one change in a room hold mostly the same parts (the trick, the auction, the
/// hand sizes are alike for all of them), and so do the states they were sent before: the part
/// that changed is compared once, and every later viewer whose old and new texts of it are the
/// same gets the patches written for the first. Patches depend on nothing but the path and the
/// two texts, so the output is the one comparing them again would give.
#[derive(Debug, Default)]
pub struct PatchMemo {
    /// The length of the paths whose parts are kept (the members at that depth).
    depth: usize,
    entries: Vec<Memo>,
    /// The path being looked up, as written into a patch.
    scratch: String,
}

/// One part compared: where, its old and new texts, and the patches written (comma-separated).
#[derive(Debug)]
struct Memo {
    path: Box<str>,
    old: Box<str>,
    new: Box<str>,
    patches: Box<str>,
}

impl PatchMemo {
    /// How many parts a memo keeps; those compared after are compared each time.
    const CAPACITY: usize = 64;

    /// A memo for the parts whose path has `depth` steps (`["game", "deal", "trick"]`: 3).
    pub fn at_depth(depth: usize) -> PatchMemo {
        PatchMemo { depth, entries: Vec::new(), scratch: String::with_capacity(64) }
    }

    /// How many parts are kept.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no part is kept.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl PatchWriter {
    /// Writes the patches that turn `old` into `new`, found at `path`: those
    /// [`PatchWriter::diff`] writes for their texts.
    pub fn diff_spanned<'a>(&mut self, old: &'a Spanned, new: &'a Spanned, path: &mut Vec<Seg<'a>>) {
        self.diff_parts(old.whole(), new.whole(), path);
    }

    /// Writes the patches that turn the member `old` into `new`, found at `path`: those
    /// [`PatchWriter::diff_spanned`] writes for them within their texts.
    pub fn diff_members<'a>(&mut self, old: Member<'a>, new: Member<'a>, path: &mut Vec<Seg<'a>>) {
        self.diff_parts(old.part, new.part, path);
    }

    /// The patches written so far, comma-separated, from byte `mark` on (as
    /// [`PatchWriter::len`] gave it before they were written).
    pub fn written_since(&self, mark: usize) -> &str {
        let written = &self.out[mark.min(self.out.len())..];
        written.strip_prefix(',').unwrap_or(written)
    }

    /// Forgets what was written from byte `mark` on (as [`PatchWriter::len`] gave it).
    pub fn truncate(&mut self, mark: usize) {
        self.out.truncate(mark);
    }

    /// The length of what is written: a mark for [`PatchWriter::written_since`].
    pub fn len(&self) -> usize {
        self.out.len()
    }

    /// [`PatchWriter::diff_spanned`], copying the patches of a part at the memo's depth from
    /// the memo where the same two texts were compared there before, and keeping those of the
    /// parts compared now.
    pub fn diff_spanned_with<'a>(
        &mut self,
        old: &'a Spanned,
        new: &'a Spanned,
        path: &mut Vec<Seg<'a>>,
        memo: &mut PatchMemo,
    ) {
        self.memo = Some(std::mem::take(memo));
        self.diff_parts(old.whole(), new.whole(), path);
        if let Some(kept) = self.memo.take() {
            *memo = kept;
        }
    }

    /// The patches of a part at the memo's depth: copied if its texts were compared there
    /// before, else written and kept.
    fn diff_remembered<'a>(&mut self, old: Part<'a>, new: Part<'a>, path: &mut Vec<Seg<'a>>) {
        let Some(mut memo) = self.memo.take() else { return self.diff_parts(old, new, path) };
        let (o, n) = (old.text(), new.text());
        memo.scratch.clear();
        write_path(&mut memo.scratch, path);
        let found = memo.entries.iter().find(|m| *m.path == *memo.scratch && *m.old == *o && *m.new == *n);
        if let Some(m) = found {
            self.push_written(&m.patches);
        } else {
            let mark = self.out.len();
            self.diff_parts(old, new, path);
            if memo.entries.len() < PatchMemo::CAPACITY {
                let written = &self.out[mark..];
                let patches = written.strip_prefix(',').unwrap_or(written);
                memo.entries.push(Memo {
                    path: Box::from(memo.scratch.as_str()),
                    old: Box::from(o),
                    new: Box::from(n),
                    patches: Box::from(patches),
                });
            }
        }
        self.memo = Some(memo);
    }

    fn diff_parts<'a>(&mut self, old: Part<'a>, new: Part<'a>, path: &mut Vec<Seg<'a>>) {
        let (o, n) = (old.text(), new.text());
        if o == n {
            return;
        }
        if self.memo.as_ref().is_some_and(|m| m.depth == path.len()) {
            return self.diff_remembered(old, new, path);
        }
        if old.nodes.is_empty() || new.nodes.is_empty() {
            return self.diff(o, n, path);
        }
        match (o.as_bytes().first(), n.as_bytes().first()) {
            (Some(b'{'), Some(b'{')) => self.diff_object_parts(old, new, path),
            (Some(b'['), Some(b'[')) => self.diff_array_parts(old, new, path),
            _ => self.set(path, n),
        }
    }

    fn diff_object_parts<'a>(&mut self, old: Part<'a>, new: Part<'a>, path: &mut Vec<Seg<'a>>) {
        // Mostly the same keys come in the same order: each pair is compared where it stands.
        let (mut before, mut after) = (old.members(), new.members());
        loop {
            let (mut was_next, mut now_next) = (before, after);
            match (was_next.next(), now_next.next()) {
                (None, None) => return,
                (Some((key, was)), Some((same, now))) if key == same => {
                    path.push(Seg::Raw(key));
                    self.diff_parts(was, now, path);
                    path.pop();
                    (before, after) = (was_next, now_next);
                }
                _ => break,
            }
        }
        // Keys added, removed or reordered: the rest by key.
        let before: Vec<(&str, Part<'a>)> = before.collect();
        self.fields_by_key(&before, after, path, |w, o, n, p| w.diff_parts(o, n, p), |v| v.text());
    }

    fn diff_array_parts<'a>(&mut self, old: Part<'a>, new: Part<'a>, path: &mut Vec<Seg<'a>>) {
        let (o, n) = (old.text(), new.text());
        if n.len() > o.len() && n.starts_with(&o[..o.len() - 1]) {
            // Perhaps grown: the text comparison reads only what follows the old items.
            return self.diff(o, n, path);
        }
        let items = |part: Part<'a>| part.members().map(|(_, item)| item);
        let pairs = || items(old).zip(items(new));
        if items(old).count() == items(new).count() && changed_in_part(pairs().map(|(o, n)| (o.text(), n.text()))) {
            for (i, (was, now)) in pairs().enumerate() {
                path.push(Seg::Index(i));
                self.diff_parts(was, now, path);
                path.pop();
            }
        } else {
            self.set(path, n);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::text::tests::{json_value, vary};
    use super::*;
    use proptest::prelude::*;
    use serde_json::{Value, json};

    fn patches(old: &Spanned, new: &Spanned) -> String {
        let mut writer = PatchWriter::new();
        writer.diff_spanned(old, new, &mut Vec::new());
        writer.into_string()
    }

    fn text_patches(old: &Value, new: &Value) -> String {
        let mut writer = PatchWriter::new();
        writer.diff(&old.to_string(), &new.to_string(), &mut Vec::new());
        writer.into_string()
    }

    #[test]
    fn the_text_is_serde_jsons_and_the_record_finds_each_member() {
        let value = json!({"a": [1, {"b": "x,\"}"}], "c": {"d": null, "e": [[]]}, "f": 2});
        let spanned = Spanned::of(&value, 2).unwrap();
        assert_eq!(spanned.as_str(), serde_json::to_string(&value).unwrap());
        let members: Vec<(&str, &str)> = spanned.whole().members().map(|(k, p)| (k, p.text())).collect();
        assert_eq!(
            members,
            vec![("\"a\"", r#"[1,{"b":"x,\"}"}]"#), ("\"c\"", r#"{"d":null,"e":[[]]}"#), ("\"f\"", "2")]
        );
        let (_, a) = spanned.whole().members().next().unwrap();
        let items: Vec<(&str, &str)> = a.members().map(|(k, p)| (k, p.text())).collect();
        assert_eq!(items, vec![("", "1"), ("", r#"{"b":"x,\"}"}"#)]);
        // Two levels only: the members of `a`'s second item are not recorded.
        assert!(a.members().nth(1).unwrap().1.nodes.is_empty());
    }

    #[test]
    fn a_text_too_long_to_record_is_compared_by_its_text() {
        let long = "x".repeat(70_000);
        let (old, new) = (json!({"a": long, "b": 1}), json!({"a": long, "b": 2}));
        let (o, n) = (Spanned::of(&old, 3).unwrap(), Spanned::of(&new, 3).unwrap());
        assert!(o.nodes.is_empty());
        assert_eq!(patches(&o, &n), text_patches(&old, &new));
        assert_eq!(patches(&o, &n), r#"{"op":"set","path":["b"],"value":2}"#);
    }

    fn patches_with(old: &Spanned, new: &Spanned, memo: &mut PatchMemo) -> String {
        let mut writer = PatchWriter::new();
        writer.diff_spanned_with(old, new, &mut Vec::new(), memo);
        writer.into_string()
    }

    /// A part compared once is not compared again: its patches come from the memo (here
    /// altered, to see where they come from), for the same texts at the same path only.
    #[test]
    fn a_memo_gives_the_patches_of_a_part_compared_before() {
        let old = Spanned::of(&json!({"a": {"x": 1}, "b": [1], "c": 0}), 2).unwrap();
        let new = Spanned::of(&json!({"a": {"x": 2}, "b": [1, 2], "c": 0}), 2).unwrap();
        let mut memo = PatchMemo::at_depth(1);
        let first = patches_with(&old, &new, &mut memo);
        assert_eq!(first, r#"{"op":"set","path":["a","x"],"value":2},{"op":"append","path":["b"],"values":[2]}"#);
        assert_eq!(memo.len(), 2);
        memo.entries[0].patches = Box::from(r#"{"op":"unset","path":["kept"]}"#);
        assert_eq!(
            patches_with(&old, &new, &mut memo),
            r#"{"op":"unset","path":["kept"]},{"op":"append","path":["b"],"values":[2]}"#
        );
        // Another old text of `a`: compared anew.
        let other = Spanned::of(&json!({"a": {"x": 3}, "b": [1], "c": 0}), 2).unwrap();
        assert_eq!(
            patches_with(&other, &new, &mut memo),
            r#"{"op":"set","path":["a","x"],"value":2},{"op":"append","path":["b"],"values":[2]}"#
        );
        assert_eq!(memo.len(), 3);
    }

    #[test]
    fn a_member_is_found_by_its_number() {
        let value = json!({"a": [1, {"b": 2}], "deal": {"x": 1, "hand": ["HA"], "y": {"z": 2}}, "c": null});
        let spanned = Spanned::of(&value, 2).unwrap();
        let listed: Vec<(&str, &str)> = spanned.members().map(|m| (m.key(), m.text())).collect();
        for (i, (key, text)) in listed.iter().enumerate() {
            let member = spanned.member(i).unwrap();
            assert_eq!((member.key(), member.text()), (*key, *text));
        }
        assert!(spanned.member(listed.len()).is_none());
        for i in 0..listed.len() {
            let parent = spanned.member(i).unwrap();
            let items: Vec<(&str, &str)> = parent.members().map(|m| (m.key(), m.text())).collect();
            assert_eq!(parent.member_count(), items.len());
            for (j, (key, text)) in items.iter().enumerate() {
                let member = parent.member(j).unwrap();
                assert_eq!((member.key(), member.text()), (*key, *text));
            }
            assert!(parent.member(items.len()).is_none());
        }
        // The keys of a JSON object come in order: "a", "c", "deal".
        let deal = spanned.member(2).unwrap();
        assert!(deal.is("deal"));
        assert_eq!(deal.member(2).map(|m| (m.key(), m.text())), Some((r#""y""#, r#"{"z":2}"#)));
    }

    #[test]
    fn members_replaced_give_the_text_and_record_of_the_changed_value() {
        let value = json!({"a": [1, 2], "deal": {"x": 1, "hand": ["HA", "S7"], "y": {"z": 2}, "p": {}}, "b": 3});
        let spanned = Spanned::of(&value, 2).unwrap();
        let replaced =
            spanned.with_members_replaced("deal", &[("hand", "null"), ("p", r#"{"cards":["C9"]}"#)]).unwrap();
        let mut expected = value.clone();
        expected["deal"]["hand"] = Value::Null;
        expected["deal"]["p"] = json!({"cards": ["C9"]});
        assert_eq!(replaced, Spanned::of(&expected, 2).unwrap());
        // A name not there, a parent not there, a member whose own members are recorded.
        assert!(spanned.with_members_replaced("deal", &[("nope", "1")]).is_none());
        assert!(spanned.with_members_replaced("nope", &[("x", "1")]).is_none());
        assert!(Spanned::of(&value, 3).unwrap().with_members_replaced("deal", &[("y", "1")]).is_none());
        assert!(Spanned::plain(spanned.as_str()).with_members_replaced("deal", &[("x", "1")]).is_none());
    }

    proptest! {
        /// Replacing members under a parent gives what serialising the value so changed gives.
        #[test]
        fn members_replaced_equal_the_value_so_changed(
            value in json_value(), parent in json_value(), new in proptest::collection::vec(json_value(), 4),
            pick in any::<u8>()
        ) {
            let mut parent = match parent {
                Value::Object(map) => map,
                _ => serde_json::Map::new(),
            };
            parent.insert("k1".into(), json!(1));
            let mut whole = json!({"first": value, "deal": parent, "last": [0]});
            let spanned = Spanned::of(&whole, 2).unwrap();
            let names: Vec<String> = whole["deal"].as_object().unwrap().keys().cloned().collect();
            let chosen: Vec<(String, String)> = names
                .iter()
                .enumerate()
                // Names as a struct's fields have them: nothing to escape.
                .filter(|(_, name)| !name.contains(['"', '\\']))
                .filter(|(i, _)| pick & (1 << (i % 8)) != 0 || *i == 0)
                .map(|(i, name)| (name.clone(), new[i % new.len()].to_string()))
                .collect();
            let parts: Vec<(&str, &str)> = chosen.iter().map(|(n, j)| (n.as_str(), j.as_str())).collect();
            let replaced = spanned.with_members_replaced("deal", &parts).unwrap();
            for (name, json) in &chosen {
                whole["deal"][name] = serde_json::from_str(json).unwrap();
            }
            prop_assert_eq!(replaced, Spanned::of(&whole, 2).unwrap());
        }
    }

    proptest! {
        /// Comparing many related texts through one memo (as the viewers of a change are) gives
        /// the patches comparing each pair alone gives.
        #[test]
        fn patches_through_a_memo_equal_those_without(
            old in json_value(), extra in json_value(), seeds in proptest::collection::vec(any::<u64>(), 1..6),
            depth in 0usize..4
        ) {
            let mut memo = PatchMemo::at_depth(depth);
            let o = Spanned::of(&old, 3).unwrap();
            for seed in seeds.iter().chain(&seeds) {
                let new = vary(&old, *seed, &extra);
                let n = Spanned::of(&new, 3).unwrap();
                prop_assert_eq!(patches_with(&o, &n, &mut memo), text_patches(&old, &new));
                prop_assert_eq!(patches_with(&n, &o, &mut memo), text_patches(&new, &old));
            }
        }

        #[test]
        fn spanned_patches_equal_the_text_patches(old in json_value(), new in json_value(), depth in 0usize..5) {
            let (o, n) = (Spanned::of(&old, depth).unwrap(), Spanned::of(&new, depth).unwrap());
            prop_assert_eq!(patches(&o, &n), text_patches(&old, &new));
        }

        #[test]
        fn spanned_patches_of_related_values_equal_the_text_patches(
            old in json_value(), extra in json_value(), seed in any::<u64>(), depth in 0usize..5
        ) {
            let new = vary(&old, seed, &extra);
            let (o, n) = (Spanned::of(&old, depth).unwrap(), Spanned::of(&new, depth).unwrap());
            prop_assert_eq!(patches(&o, &n), text_patches(&old, &new));
        }
    }
}
