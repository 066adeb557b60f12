//! The `update` frames of one change in a room. Each connection is sent what changed since the
//! state it was last sent (its [`Base`]): the new events, redacted for its viewer, and the
//! patches from its base to its viewer's state now.
//!
//! A viewer's state is kept as compact JSON text, not as a tree: the room (one text per change,
//! shared by every viewer), the viewer's game view without the scoresheet's rows, and the rows
//! by number. The patches are made by comparing texts
//! ([`fipsen_protocol::patch::text::PatchWriter`]); the game view's text is kept with the places
//! of its members ([`Spanned`]), so that its unchanged parts are skipped without reading them;
//! a row added to the scoresheet is appended
//! without looking at the rows before it, so a move late in a long series costs what one early
//! in it does. Each viewer's state (each seat, and every spectator alike) is built once per
//! change: the spectators' state is serialised whole, and each seat's is that text with the
//! seat's own fields written in (`frames/private.rs`). A part of the game view that changed is
//! compared once per change, and the next viewers whose old and new texts of it are the same
//! get its patches from a memo ([`PatchMemo`]). Viewers whose redacted events are the same share
//! their events' JSON, and connections that share a viewer and a base share one frame.

mod private;

use std::borrow::Cow;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use axum::extract::ws::Utf8Bytes;
use fipsen_protocol::patch::spanned::{PatchMemo, Spanned};
use fipsen_protocol::patch::text::{PatchWriter, Seg};
use fipsen_protocol::{RoomEvent, RoomState, SeqEvent};
use fipsen_rules::{AnyGame, Seat};
use private::Own;

/// How deep the places of a game view's members are kept with a base: the view's parts and the
/// deal's fields (a move changes a few of these; what lies deeper is compared as text). A third
/// level (the items of the deal's lists) doubled the record and saved nothing.
const SPAN_DEPTH: usize = 2;

/// The length of the paths whose patches are kept for the next viewer of a change:
/// `["game", "deal", field]`, the deal's fields.
const MEMO_DEPTH: usize = 3;

/// The room of a patch buffer to start with: a move's patches for one viewer are a few
/// hundred bytes.
const PATCH_BYTES: usize = 1024;

/// An event as `viewer` may see it: game events are redacted by the rules crate.
pub fn redact(event: &SeqEvent, viewer: Option<Seat>) -> SeqEvent {
    match &event.event {
        RoomEvent::Game { event: game } => {
            SeqEvent { seq: event.seq, event: RoomEvent::Game { event: game.for_viewer(viewer) } }
        }
        _ => event.clone(),
    }
}

/// The state a connection was last sent, as compact text: what its next `update` is made from.
#[derive(Debug, Clone)]
pub struct Base {
    /// The room's JSON.
    room: Arc<str>,
    /// The game view's JSON with an empty scoresheet, with the places of its members down to
    /// [`SPAN_DEPTH`]; `None` before a series. A seat's state made from the spectators' shares
    /// their text, and holds its own fields apart (`own`).
    game: Option<Arc<Spanned>>,
    /// The seat's own fields, which take the place of those in `game`'s deal (`None`: `game` is
    /// the whole text).
    own: Option<Own>,
    /// The scoresheet's rows.
    rows: usize,
    /// A hash of the first row's JSON, which tells one series' scoresheet from another's.
    first_row: u64,
    /// The change that made this state from its spectators' state (0: made otherwise): states
    /// made by one change differ in their seats' own fields only.
    made: u64,
}

/// Two states are equal when they hold the same texts, however they were made.
impl PartialEq for Base {
    fn eq(&self, other: &Base) -> bool {
        self.room == other.room
            && self.game_text() == other.game_text()
            && self.rows == other.rows
            && self.first_row == other.first_row
    }
}

impl Eq for Base {}

/// The number of the next change whose frames are built: tells the states of one change
/// from another's.
static CHANGES: AtomicU64 = AtomicU64::new(1);

impl Base {
    /// The base of a connection sent nothing yet.
    pub fn empty() -> Base {
        Base { room: Arc::from("null"), game: None, own: None, rows: 0, first_row: 0, made: 0 }
    }

    /// The state of `viewer` now, as a snapshot (`joined`) gives it, without the prompt where
    /// `prompt` is false.
    pub fn now(room: &RoomState, series: Option<&AnyGame>, viewer: Option<Seat>, prompt: bool) -> Base {
        let room: Arc<str> = Arc::from(json(room));
        Base::of(room, series, viewer, prompt, first_row(series))
    }

    /// The base of `viewer` with the room's text `room`, its game view serialised whole.
    fn of(room: Arc<str>, series: Option<&AnyGame>, viewer: Option<Seat>, prompt: bool, first_row: u64) -> Base {
        let Some(series) = series else {
            return Base { room, game: None, own: None, rows: 0, first_row: 0, made: 0 };
        };
        let mut view = series.view_without_rows(viewer);
        if !prompt {
            view.clear_prompt();
        }
        let game = Spanned::of(&view, SPAN_DEPTH).unwrap_or_else(|_| Spanned::plain("null"));
        Base { room, game: Some(Arc::new(game)), own: None, rows: series.rows(), first_row, made: 0 }
    }

    /// The game view's whole text: a seat's own fields written into the spectators' text where
    /// they are held apart.
    fn game_text(&self) -> Option<Cow<'_, Spanned>> {
        let game = self.game.as_deref()?;
        Some(match &self.own {
            None => Cow::Borrowed(game),
            // Made only where the spectators' text has the fields to replace (see
            // [`UpdateFrames::composed`]).
            Some(own) => Cow::Owned(game.with_members_replaced("deal", &own.fields()).unwrap_or_else(|| {
                debug_assert!(false, "a seat's own fields not found in the spectators' text");
                Spanned::plain("null")
            })),
        })
    }
}

/// What tells a series' scoresheet from another's: a hash of its first row's JSON (0 before
/// the first row).
pub fn first_row(series: Option<&AnyGame>) -> u64 {
    match series.and_then(|s| s.row_json(0)) {
        None => 0,
        Some(row) => {
            let mut hasher = DefaultHasher::new();
            row.hash(&mut hasher);
            hasher.finish() | 1
        }
    }
}

/// Builds the `update` frames of one change: each viewer's state at most once, each frame once
/// per viewer and base.
#[derive(Debug)]
pub struct UpdateFrames<'a> {
    seq: u64,
    /// This change's number (see [`Base::made`]).
    change: u64,
    events: &'a [SeqEvent],
    series: Option<&'a AnyGame>,
    room: Arc<str>,
    first_row: u64,
    /// Seats whose own view offers no action (a bot plays for them for now).
    no_prompt: Vec<Seat>,
    /// The deal's fields that differ from viewer to viewer, for the table's game (none before
    /// a series).
    private: &'static [&'static str],
    /// Whether seats' states are made from the spectators' (tests compare them with states
    /// serialised whole).
    compose: bool,
    /// Whether the spectators' text of this change has the private fields to replace (found
    /// once, for the first seat).
    replaceable: Option<bool>,
    /// Tests only: how many seats' states were made from the spectators'.
    #[cfg(test)]
    composed: usize,
    /// Tests only: how many viewers' patches were made from a group's.
    #[cfg(test)]
    grouped: usize,
    states: Vec<(Option<Seat>, Arc<Base>)>,
    /// The events' JSON as each viewer may see them, kept once per different redaction.
    events_json: Vec<(Vec<SeqEvent>, String)>,
    /// Tests only: each viewer's events serialised on their own, as before they were shared.
    #[cfg(test)]
    plain_events: bool,
    /// The frames built, by viewer and base (the base's address: the caller holds every base
    /// while the frames are built, so that no two bases share one).
    built: Vec<(Option<Seat>, usize, Utf8Bytes)>,
    /// The room's patches, by the address of the room text they were made from (held by a
    /// base, so alive while the frames are built).
    room_patches: Vec<(usize, String)>,
    /// The patches of the game view's parts compared for an earlier viewer of this change (the
    /// deal's fields): a part every viewer sees alike is compared once.
    memo: PatchMemo,
    /// The game view's patches member by member, by the change that made the old states.
    groups: Vec<Group>,
}

/// The patches of the game view's members between two states made from the spectators' states
/// of two changes (the one before and this one), for every viewer whose old and new states
/// were made so: they differ from viewer to viewer in the deal's private fields only, so every
/// other member's patches are those of the first such viewer compared.
#[derive(Debug)]
struct Group {
    /// The change that made the old states.
    made: u64,
    /// For each member of the view: its patches (comma-separated, empty for none); the deal's
    /// are in `deal`.
    top: Vec<String>,
    /// Which member of the view is the deal.
    deal: usize,
    /// The spectators' texts of the two changes, from which every state of the group was made.
    texts: (Arc<Spanned>, Arc<Spanned>),
    /// For each member of the deal: its patches, or `None` for a private field (compared for
    /// each viewer).
    members: Vec<Option<String>>,
    /// The keys of the deal's private fields, in order, as the text writes them.
    keys: Vec<String>,
}

impl<'a> UpdateFrames<'a> {
    /// The frames for `events` (numbered up to `seq`), the room and the series now.
    pub fn new(seq: u64, events: &'a [SeqEvent], room: &RoomState, series: Option<&'a AnyGame>) -> UpdateFrames<'a> {
        UpdateFrames::with_sheet(seq, events, room, series, first_row(series))
    }

    /// [`UpdateFrames::new`] with the series' [`first_row`] given (a room works it out once).
    pub fn with_sheet(
        seq: u64,
        events: &'a [SeqEvent],
        room: &RoomState,
        series: Option<&'a AnyGame>,
        first_row: u64,
    ) -> UpdateFrames<'a> {
        UpdateFrames {
            seq,
            change: CHANGES.fetch_add(1, Ordering::Relaxed),
            events,
            series,
            room: Arc::from(json(room)),
            first_row,
            no_prompt: Vec::new(),
            private: series.map_or(&[], |s| private::private_fields(s.game())),
            compose: true,
            replaceable: None,
            #[cfg(test)]
            composed: 0,
            #[cfg(test)]
            grouped: 0,
            states: Vec::with_capacity(5),
            events_json: Vec::with_capacity(2),
            #[cfg(test)]
            plain_events: false,
            built: Vec::with_capacity(5),
            room_patches: Vec::with_capacity(1),
            memo: PatchMemo::at_depth(MEMO_DEPTH),
            groups: Vec::with_capacity(1),
        }
    }

    /// The frames built the plain way: each viewer's view and events serialised whole, every
    /// part compared for each viewer, for tests that hold the two ways' bytes equal.
    #[cfg(test)]
    fn plain(mut self) -> UpdateFrames<'a> {
        self.compose = false;
        self.plain_events = true;
        // No path is this long: every part is compared for each viewer.
        self.memo = PatchMemo::at_depth(usize::MAX);
        self
    }

    /// These seats' states show their view without a prompt: a bot acts for them meanwhile.
    pub fn without_prompt(mut self, seats: &[Seat]) -> UpdateFrames<'a> {
        self.no_prompt = seats.to_vec();
        self
    }

    /// The state of `viewer` (a seat, or `None` for spectators and seatless players) now.
    pub fn state(&mut self, viewer: Option<Seat>) -> Arc<Base> {
        if let Some((_, state)) = self.states.iter().find(|(v, _)| *v == viewer) {
            return state.clone();
        }
        let prompt = viewer.is_none_or(|v| !self.no_prompt.contains(&v));
        let composed = match viewer {
            Some(seat) if self.compose => self.composed(seat, prompt),
            _ => None,
        };
        let state = composed.unwrap_or_else(|| {
            let mut state = Base::of(self.room.clone(), self.series, viewer, prompt, self.first_row);
            if viewer.is_none() && self.compose && !self.private.is_empty() {
                // The spectators' state, from which the seats' are made.
                state.made = self.change;
            }
            Arc::new(state)
        });
        self.states.push((viewer, state.clone()));
        state
    }

    /// The state of `seat`: the spectators' state with the seat's own fields written in; `None`
    /// where that cannot be done (no series, a game view whose fields are not where expected),
    /// and the state is serialised whole.
    fn composed(&mut self, seat: Seat, prompt: bool) -> Option<Arc<Base>> {
        let series = self.series?;
        if self.private.is_empty() {
            return None;
        }
        let template = self.state(None);
        let game = template.game.clone()?;
        let private = self.private;
        if !*self.replaceable.get_or_insert_with(|| template.own.is_none() && game.replaceable("deal", private)) {
            return None;
        }
        // Only the seat's own fields are read from its view.
        let mut view = series.own_view(Some(seat));
        if !prompt {
            view.clear_prompt();
        }
        let own = private::own_fields(&view, private)?;
        #[cfg(test)]
        {
            self.composed += 1;
        }
        Some(Arc::new(Base {
            room: self.room.clone(),
            game: Some(game),
            own: Some(own),
            rows: series.rows(),
            first_row: self.first_row,
            made: self.change,
        }))
    }

    /// The frame for a connection of `viewer` that was last sent `base`, and the state it is
    /// sent now (its next base). The frame's bytes are shared: connections of one viewer and
    /// base are given the same.
    pub fn frame(&mut self, viewer: Option<Seat>, base: &Arc<Base>) -> (Utf8Bytes, Arc<Base>) {
        let state = self.state(viewer);
        let key = Arc::as_ptr(base) as usize;
        if let Some((_, _, frame)) = self.built.iter().find(|(v, b, _)| *v == viewer && *b == key) {
            return (frame.clone(), state);
        }
        let patches = self.patches(base, &state);
        let frame = Utf8Bytes::from(self.build(viewer, patches.as_str()));
        self.built.push((viewer, key, frame.clone()));
        (frame, state)
    }

    /// The patches from `old` to `new`.
    fn patches(&mut self, old: &Base, new: &Base) -> PatchWriter {
        let mut out = PatchWriter::with_capacity(PATCH_BYTES);
        // The room is the same for every viewer: its patches are made once per room text sent
        // before (mostly one for all).
        let key = Arc::as_ptr(&old.room) as *const u8 as usize;
        match self.room_patches.iter().find(|(k, _)| *k == key) {
            Some((_, patches)) => out.push_written(patches),
            None => {
                let mut room = PatchWriter::new();
                room.diff(&old.room, &new.room, &mut vec![Seg::Name("room")]);
                out.push_written(room.as_str());
                self.room_patches.push((key, room.into_string()));
            }
        }
        let game = [Seg::Name("game")];
        let sheet = [Seg::Name("game"), Seg::Name("scoresheet")];
        match (&old.game, &new.game) {
            (None, None) => {}
            (Some(_), None) => out.set(&game, "null"),
            (None, Some(_)) => {
                if let Some(now) = new.game_text() {
                    out.set(&game, now.as_str());
                }
                self.rows(&mut out, &sheet, 0, new.rows);
            }
            (Some(_), Some(_)) => {
                if !self.group_patches(&mut out, old, new)
                    && let (Some(before), Some(now)) = (old.game_text(), new.game_text())
                {
                    let mut path = vec![Seg::Name("game")];
                    out.diff_spanned_with(&before, &now, &mut path, &mut self.memo);
                }
                let same_sheet = old.first_row == new.first_row || old.rows == 0;
                if same_sheet && new.rows >= old.rows {
                    self.rows(&mut out, &sheet, old.rows, new.rows);
                } else {
                    // Another series' scoresheet: sent whole.
                    let rows: Vec<String> = self.row_texts(0, new.rows);
                    out.set(&sheet, &format!("[{}]", rows.join(",")));
                }
            }
        }
        out
    }

    /// Writes the game view's patches from `before` to `now` member by member, as a viewer
    /// before did whose old state the same change made; false (nothing written) where the
    /// states were not made from the spectators' or their members do not match.
    fn group_patches(&mut self, out: &mut PatchWriter, old: &Base, new: &Base) -> bool {
        let (Some(before), Some(now)) = (old.game.as_deref(), new.game.as_deref()) else { return false };
        let objects = is_object(before.as_str()) && is_object(now.as_str());
        if old.made == 0 || new.made != self.change || !objects || !before.has_members() || !now.has_members() {
            return false;
        }
        if let Some(group) = self.groups.iter().find(|g| g.made == old.made) {
            let replayed = replay(out, group, old, new);
            #[cfg(test)]
            {
                self.grouped += usize::from(replayed);
            }
            return replayed;
        }
        match record(old, new, self.private) {
            Some((group, written)) => {
                out.push_written(&written);
                self.groups.push(group);
                true
            }
            None => false,
        }
    }

    /// Appends rows `from..to` of the scoresheet, if any.
    fn rows(&self, out: &mut PatchWriter, sheet: &[Seg<'_>], from: usize, to: usize) {
        if to > from {
            let rows = self.row_texts(from, to);
            out.append(sheet, rows.iter().map(String::as_str));
        }
    }

    fn row_texts(&self, from: usize, to: usize) -> Vec<String> {
        let series = self.series;
        (from..to).filter_map(|i| series.and_then(|s| s.row_json(i))).collect()
    }

    /// The events' JSON as `viewer` may see them: serialised once for all viewers who see them
    /// alike.
    fn events(&mut self, viewer: Option<Seat>) -> &str {
        let redacted: Vec<SeqEvent> = self.events.iter().map(|e| redact(e, viewer)).collect();
        #[cfg(test)]
        if self.plain_events {
            self.events_json.push((Vec::new(), json(&redacted)));
            return &self.events_json[self.events_json.len() - 1].1;
        }
        let at = match self.events_json.iter().position(|(events, _)| *events == redacted) {
            Some(at) => at,
            None => {
                let text = json(&redacted);
                self.events_json.push((redacted, text));
                self.events_json.len() - 1
            }
        };
        &self.events_json[at].1
    }

    fn build(&mut self, viewer: Option<Seat>, patches: &str) -> String {
        let seq = self.seq;
        let events = self.events(viewer);
        let mut out = String::with_capacity(events.len() + patches.len() + 48);
        out.push_str(r#"{"type":"update","seq":"#);
        out.push_str(&seq.to_string());
        out.push_str(r#","events":"#);
        out.push_str(events);
        out.push_str(r#","patches":["#);
        out.push_str(patches);
        out.push_str("]}");
        out
    }
}

/// Compares the game view's states `old` and `new` (made from the spectators' states of two
/// changes) member by member, the deal's members one by one, as
/// [`PatchWriter::diff_spanned`] would: the patches written, and the group of each member's
/// patches; `None` where the members do not pair up key by key.
fn record(old: &Base, new: &Base, private: &[&str]) -> Option<(Group, String)> {
    let (before, now) = (old.game.as_ref()?, new.game.as_ref()?);
    let mut out = PatchWriter::with_capacity(PATCH_BYTES);
    let mut group = Group {
        made: old.made,
        texts: (before.clone(), now.clone()),
        top: Vec::with_capacity(8),
        deal: usize::MAX,
        members: Vec::with_capacity(40),
        keys: Vec::with_capacity(private.len()),
    };
    // One path for every member: `["game", member]` or `["game", "deal", field]`.
    let mut path = Vec::with_capacity(3);
    path.push(Seg::Name("game"));
    let (mut olds, mut news) = (before.members(), now.members());
    loop {
        match (olds.next(), news.next()) {
            (None, None) => break,
            (Some(o), Some(n)) if o.key() == n.key() => {
                if o.is("deal") && o.has_members() && n.has_members() && is_object(o.text()) && is_object(n.text()) {
                    group.deal = group.top.len();
                    group.top.push(String::new());
                    path.push(Seg::Name("deal"));
                    let (mut a, mut b) = (o.members(), n.members());
                    loop {
                        match (a.next(), b.next()) {
                            (None, None) => break,
                            (Some(x), Some(y)) if x.key() == y.key() => {
                                path.truncate(2);
                                path.push(Seg::Raw(x.key()));
                                if private.iter().any(|name| x.is(name)) {
                                    // The viewer's own: compared for each viewer.
                                    let k = group.keys.len();
                                    let was = private_text(old.own.as_ref(), k, || Some(x.text()))?;
                                    let is = private_text(new.own.as_ref(), k, || Some(y.text()))?;
                                    if was != is {
                                        out.diff(was, is, &mut path);
                                    }
                                    group.keys.push(x.key().to_string());
                                    group.members.push(None);
                                } else {
                                    let mark = out.len();
                                    out.diff_members(x, y, &mut path);
                                    group.members.push(Some(out.written_since(mark).to_string()));
                                }
                            }
                            _ => return None,
                        }
                    }
                    path.truncate(1);
                } else {
                    let mark = out.len();
                    path.push(Seg::Raw(o.key()));
                    out.diff_members(o, n, &mut path);
                    path.truncate(1);
                    group.top.push(out.written_since(mark).to_string());
                }
            }
            _ => return None,
        }
    }
    (group.deal != usize::MAX).then(|| (group, out.into_string()))
}

/// The text of a state's private field number `index` (of the game's list): its own where it
/// holds them apart, else `whole`'s (the member in its whole text).
fn private_text<'t>(own: Option<&'t Own>, index: usize, whole: impl FnOnce() -> Option<&'t str>) -> Option<&'t str> {
    match own {
        Some(own) => own.field(index),
        None => whole(),
    }
}

/// Writes the game view's patches from `old` to `new` with the group's patches of every
/// member but the deal's private fields, which are compared; false (nothing written) where the
/// states were not made from the texts the group was.
fn replay(out: &mut PatchWriter, group: &Group, old: &Base, new: &Base) -> bool {
    let (Some(before), Some(now)) = (&old.game, &new.game) else { return false };
    if !Arc::ptr_eq(before, &group.texts.0) || !Arc::ptr_eq(now, &group.texts.1) {
        return false;
    }
    let mark = out.len();
    let replayed = replay_into(out, group, old, new);
    if !replayed {
        out.truncate(mark);
    }
    replayed
}

fn replay_into(written: &mut PatchWriter, group: &Group, old: &Base, new: &Base) -> bool {
    let (before, now) = (&group.texts.0, &group.texts.1);
    for (i, top) in group.top.iter().enumerate() {
        if i != group.deal {
            written.push_written(top);
            continue;
        }
        let mut k = 0;
        for (j, member) in group.members.iter().enumerate() {
            match member {
                Some(patches) => written.push_written(patches),
                None => {
                    let was = private_text(old.own.as_ref(), k, || Some(before.member(group.deal)?.member(j)?.text()));
                    let is = private_text(new.own.as_ref(), k, || Some(now.member(group.deal)?.member(j)?.text()));
                    let (Some(was), Some(is)) = (was, is) else { return false };
                    if was != is {
                        let mut path = vec![Seg::Name("game"), Seg::Name("deal"), Seg::Raw(&group.keys[k])];
                        written.diff(was, is, &mut path);
                    }
                    k += 1;
                }
            }
        }
    }
    true
}

/// Whether a JSON text is an object.
fn is_object(text: &str) -> bool {
    text.as_bytes().first() == Some(&b'{')
}

fn json<T: serde::Serialize + ?Sized>(value: &T) -> String {
    // These types serialise without failing: every map key is a string.
    serde_json::to_string(value).unwrap_or_else(|_| String::from("null"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use fipsen_protocol::patch::{self, Patch};
    use fipsen_rules::GameView;
    use serde_json::Value;

    /// A client's state as one document, `{"room": …, "game": …}`: what `joined` sends whole and
    /// `update`s patch.
    fn client_state(room: &RoomState, game: Option<&GameView>) -> Value {
        patch::state(value(room), game.map_or(Value::Null, value))
    }

    fn value<T: serde::Serialize + ?Sized>(value: &T) -> Value {
        serde_json::to_value(value).unwrap()
    }
    use fipsen_protocol::{RoomOptions, RoomStatus, SeatInfo, ServerMessage};
    use fipsen_rules::{GameId, GameRules, Seed};

    fn room(series: Option<&AnyGame>) -> RoomState {
        RoomState {
            room: "k3JX9a2LqP0vWm4Zb7Ya".into(),
            title: "Friday \"table\"".into(),
            host: "Antje".into(),
            rules: GameRules::default(),
            options: RoomOptions::default(),
            seats: (0..4)
                .map(|s| SeatInfo {
                    seat: Seat(s),
                    name: Some(format!("P{s}")),
                    connected: s != 2,
                    open: false,
                    host: s == 0,
                    bot: None,
                    stand_in: None,
                })
                .collect(),
            spectators: 2,
            status: if series.is_some() { RoomStatus::Playing } else { RoomStatus::Waiting },
            turn: None,
            next_deal_asked: vec![],
            next_deal_in_ms: Some(1234),
            next_deal_paused: false,
            reading: vec![],
            tournament: None,
            delete_votes: vec![],
            rematch: None,
        }
    }

    /// The update of a frame: its number, its events as JSON (game events read back only with
    /// the table's game known) and its patches. The frame reads as the protocol's type.
    fn read(frame: &str) -> (u64, Value, Vec<Patch>) {
        assert!(matches!(serde_json::from_str::<ServerMessage>(frame), Ok(ServerMessage::Update { .. })), "{frame}");
        let mut update: Value = serde_json::from_str(frame).unwrap();
        let patches = serde_json::from_value(update["patches"].take()).unwrap();
        (update["seq"].as_u64().unwrap(), update["events"].take(), patches)
    }

    /// At every step of a series, in every game, for every viewer: the frame carries the step's
    /// events as the viewer may see them, and its patches bring the state the client holds to
    /// the viewer's state now (what a snapshot gives), the scoresheet's new rows appended.
    #[test]
    fn frames_patch_the_state_to_the_snapshot() {
        for &game in GameId::ALL {
            let mut rules = serde_json::to_value(GameRules::default_for(game)).unwrap();
            // A short series: three deals, or one round where a game counts rounds.
            if rules.get("rounds").is_some() {
                rules["rounds"] = 1.into();
            } else {
                rules["deals"] = 3.into();
            }
            frames_of_a_series_patch_the_state(serde_json::from_value(rules).unwrap());
        }
    }

    fn frames_of_a_series_patch_the_state(rules: GameRules) {
        let (mut series, dealt) = AnyGame::start(&rules, Seed::from_u64(7)).unwrap();
        let mut seq = 0;
        let mut number = |events: fipsen_rules::GameEvents| -> Vec<SeqEvent> {
            events
                .into_iter()
                .map(|event| {
                    seq += 1;
                    SeqEvent { seq, event: RoomEvent::Game { event } }
                })
                .collect()
        };
        let mut pending = number(dealt);
        let viewers: Vec<Option<Seat>> =
            std::iter::once(None).chain((0..series.seats() as u8).map(|s| Some(Seat(s)))).collect();
        // Each viewer's state as a client holds it (a snapshot before the series, then
        // patched), and the base the server keeps for it.
        let mut held: Vec<Value> = viewers.iter().map(|_| client_state(&room(None), None)).collect();
        let mut bases: Vec<Arc<Base>> =
            viewers.iter().map(|_| Arc::new(Base::now(&room(None), None, None, true))).collect();
        let mut checked = 0;
        let mut appended = 0;
        for step in 0..2000 {
            let state = room(Some(&series));
            let hidden = [Seat(1)];
            let mut frames = UpdateFrames::new(step, &pending, &state, Some(&series)).without_prompt(&hidden);
            for ((viewer, base), client) in viewers.iter().zip(bases.iter_mut()).zip(held.iter_mut()) {
                let viewer = *viewer;
                let mut view = series.view(viewer);
                if viewer == Some(Seat(1)) {
                    view.clear_prompt();
                }
                let (frame, next) = frames.frame(viewer, base);
                let (at, events, patches) = read(&frame);
                assert_eq!(at, step);
                let redacted: Vec<SeqEvent> = pending.iter().map(|e| redact(e, viewer)).collect();
                assert_eq!(events, value(&redacted), "step {step}, viewer {viewer:?}");
                patch::apply(client, &patches).unwrap();
                assert_eq!(*client, client_state(&state, Some(&view)), "step {step}, viewer {viewer:?}: {frame}");
                assert_eq!(*next, Base::now(&state, Some(&series), viewer, viewer != Some(Seat(1))));
                appended += patches.iter().filter(|p| matches!(p, Patch::Append { path, .. } if path.len() == 2 && path[1] == patch::Step::Key("scoresheet".into()))).count();
                *base = next;
                checked += 1;
            }
            if series.series_over() {
                break;
            }
            let events = if series.deal_over() {
                series.next_deal().unwrap()
            } else {
                let seat = series.turn().unwrap();
                let legal = series.legal_actions(seat);
                series.apply(seat, &legal.get(step as usize % legal.len()).unwrap()).unwrap()
            };
            pending = number(events);
        }
        assert!(series.series_over(), "the series was played to its end");
        assert!(checked > 100);
        assert!(appended >= viewers.len(), "the rows came as appends: {appended}");
        // Before the series: the room alone.
        let waiting = room(None);
        let base = Arc::new(Base::now(&waiting, None, None, true));
        let mut changed = waiting.clone();
        changed.spectators = 3;
        let (frame, _) = UpdateFrames::new(1, &[], &changed, None).frame(None, &base);
        let expected = ServerMessage::Update {
            seq: 1,
            events: vec![],
            patches: vec![Patch::Set {
                path: vec![patch::Step::Key("room".into()), patch::Step::Key("spectators".into())],
                value: 3.into(),
            }],
        };
        assert_eq!(&*frame, expected.to_json());
    }

    /// The frames and states built with each seat's state made from the spectators' (its own
    /// fields written in), a part's patches kept for the next viewer and the events' JSON
    /// written once per change are, byte for byte, those built with each viewer's view and
    /// events serialised whole and every part compared for each (and the states keep the same
    /// record of places): at every step of series played by bots, in every game, for every
    /// viewer, a seat stood in for included.
    #[test]
    fn seats_made_from_the_spectators_state_give_the_bytes_of_their_own_view() {
        for &game in GameId::ALL {
            let mut rules = serde_json::to_value(GameRules::default_for(game)).unwrap();
            if rules.get("rounds").is_some() {
                rules["rounds"] = 1.into();
            } else {
                rules["deals"] = 4.into();
            }
            let rules: GameRules = serde_json::from_value(rules).unwrap();
            for seed in 0..2 {
                let compared = bot_series_frames_match_plain_ones(&rules, seed);
                assert!(compared > 100, "{game:?}: {compared} frames compared");
            }
        }
    }

    /// Plays a series with bots, comparing each step's frames and states both ways; returns how
    /// many frames were compared.
    fn bot_series_frames_match_plain_ones(rules: &GameRules, seed: u64) -> usize {
        let (mut series, dealt) = AnyGame::start(rules, Seed::from_u64(seed)).unwrap();
        let game = series.game();
        let mut seq = 0;
        let mut number = |events: fipsen_rules::GameEvents| -> Vec<SeqEvent> {
            events
                .into_iter()
                .map(|event| {
                    seq += 1;
                    SeqEvent { seq, event: RoomEvent::Game { event } }
                })
                .collect()
        };
        let mut pending = number(dealt);
        let viewers: Vec<Option<Seat>> =
            (0..series.seats() as u8).map(|s| Some(Seat(s))).chain(std::iter::once(None)).collect();
        let mut bases: Vec<Arc<Base>> =
            viewers.iter().map(|_| Arc::new(Base::now(&room(None), None, None, true))).collect();
        let mut compared = 0;
        let (mut composed, mut grouped) = (0, 0);
        for step in 0..5000u64 {
            let state = room(Some(&series));
            // Now and then a seat is stood in for (its view has no prompt).
            let hidden: Vec<Seat> = if step % 7 == 3 { vec![Seat((step % 3) as u8)] } else { vec![] };
            let mut new = UpdateFrames::new(step, &pending, &state, Some(&series)).without_prompt(&hidden);
            let mut old = UpdateFrames::new(step, &pending, &state, Some(&series)).without_prompt(&hidden).plain();
            // The first viewer served differs from step to step (it writes the shared parts).
            let first = step as usize % viewers.len();
            for i in (first..viewers.len()).chain(0..first) {
                let viewer = viewers[i];
                let (frame, next) = new.frame(viewer, &bases[i]);
                let (expected, expected_next) = old.frame(viewer, &bases[i]);
                assert_eq!(frame, expected, "{game:?}, step {step}, viewer {viewer:?}");
                assert_eq!(next, expected_next, "{game:?}, step {step}, viewer {viewer:?}");
                let plain = Base::now(&state, Some(&series), viewer, viewer.is_none_or(|v| !hidden.contains(&v)));
                assert_eq!(*next, plain, "{game:?}, step {step}, viewer {viewer:?}");
                bases[i] = next;
                compared += 1;
            }
            composed += new.composed;
            grouped += new.grouped;
            if series.series_over() {
                break;
            }
            let events = if series.deal_over() {
                series.next_deal().unwrap()
            } else {
                let seat = series.turn().unwrap();
                let action =
                    fipsen_bots::games::choose(fipsen_bots::Level::Easy, seed ^ step, &series.view(Some(seat)))
                        .unwrap_or_else(|| series.legal_actions(seat).get(0).unwrap());
                series.apply(seat, &action).unwrap()
            };
            pending = number(events);
        }
        assert!(series.series_over(), "{game:?}: the series was played to its end");
        assert!(composed >= compared / 2, "{game:?}: {composed} of {compared} states made from the spectators'");
        assert!(grouped >= compared / 2, "{game:?}: {grouped} of {compared} viewers' patches made from a group's");
        compared
    }

    /// A client whose base is another series' (a new series in the same room) is sent the new
    /// scoresheet whole.
    #[test]
    fn another_series_scoresheet_is_sent_whole() {
        let rules = GameRules::default();
        let play = |seed: u64, deals: u32| {
            let (mut series, _) = AnyGame::start(&rules, Seed::from_u64(seed)).unwrap();
            let mut step = 0;
            while series.rows() < deals as usize {
                if series.deal_over() {
                    series.next_deal().unwrap();
                    continue;
                }
                let seat = series.turn().unwrap();
                let legal = series.legal_actions(seat);
                series.apply(seat, &legal.get(step % legal.len()).unwrap()).unwrap();
                step += 1;
            }
            series
        };
        let (old, new) = (play(1, 2), play(2, 1));
        assert_ne!(old.row_json(0), new.row_json(0));
        let (before, after) = (room(Some(&old)), room(Some(&new)));
        let base = Arc::new(Base::now(&before, Some(&old), None, true));
        let mut client = client_state(&before, Some(&old.view(None)));
        let (frame, _) = UpdateFrames::new(9, &[], &after, Some(&new)).frame(None, &base);
        let (_, _, patches) = read(&frame);
        patch::apply(&mut client, &patches).unwrap();
        assert_eq!(client, client_state(&after, Some(&new.view(None))));
    }

    /// Connections of one viewer with one base share a frame; another base gets its own.
    #[test]
    fn a_frame_is_built_once_per_viewer_and_base() {
        let waiting = room(None);
        let base = Arc::new(Base::now(&waiting, None, None, true));
        let other = Arc::new(Base::now(&room(None), None, None, true));
        let mut changed = waiting.clone();
        changed.spectators = 5;
        let mut frames = UpdateFrames::new(2, &[], &changed, None);
        let (a, next_a) = frames.frame(None, &base);
        let (b, next_b) = frames.frame(None, &base);
        assert!(std::ptr::eq(a.as_ptr(), b.as_ptr()) && Arc::ptr_eq(&next_a, &next_b));
        let (c, _) = frames.frame(None, &other);
        assert!(!std::ptr::eq(a.as_ptr(), c.as_ptr()));
        assert_eq!(a, c);
    }
}
