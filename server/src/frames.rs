//! The `update` frames of one change in a room. Each connection is sent what changed since the
//! state it was last sent (its base): the new events, redacted for its viewer, and the patches
//! ([`fipsen_protocol::patch::diff`]) from its base to its viewer's state now. The state of each
//! viewer (each seat, and every spectator alike) is built once per change, and connections that
//! share a viewer and a base share one frame.
//!
//! The text is exactly what serde makes of [`ServerMessage::Update`](fipsen_protocol::ServerMessage)
//! (a test holds the two side by side).

use std::sync::Arc;

use fipsen_protocol::patch::{self, Patch};
use fipsen_protocol::{RoomEvent, RoomState, SeqEvent};
use fipsen_rules::{AnyGame, GameView, Seat};
use serde_json::Value;

/// An event as `viewer` may see it: game events are redacted by the rules crate.
pub fn redact(event: &SeqEvent, viewer: Option<Seat>) -> SeqEvent {
    match &event.event {
        RoomEvent::Game { event: game } => {
            SeqEvent { seq: event.seq, event: RoomEvent::Game { event: game.for_viewer(viewer) } }
        }
        _ => event.clone(),
    }
}

/// A client's state as one document, `{"room": …, "game": …}`: what `joined` sends whole and
/// `update`s patch.
pub fn client_state(room: &RoomState, game: Option<&GameView>) -> Value {
    patch::state(value(room), game.map_or(Value::Null, value))
}

/// Builds the `update` frames of one change: each viewer's state at most once, each frame once
/// per viewer and base.
#[derive(Debug)]
pub struct UpdateFrames<'a> {
    seq: u64,
    events: &'a [SeqEvent],
    series: Option<&'a AnyGame>,
    room: Value,
    /// Seats whose own view offers no action (a bot plays for them for now).
    no_prompt: Vec<Seat>,
    states: Vec<(Option<Seat>, Arc<Value>)>,
    /// The frames built, by viewer and base (the base's address: the caller holds every base
    /// while the frames are built, so that no two bases share one).
    built: Vec<(Option<Seat>, usize, Arc<str>)>,
}

impl<'a> UpdateFrames<'a> {
    /// The frames for `events` (numbered up to `seq`), the room and the series now.
    pub fn new(seq: u64, events: &'a [SeqEvent], room: &RoomState, series: Option<&'a AnyGame>) -> UpdateFrames<'a> {
        UpdateFrames {
            seq,
            events,
            series,
            room: value(room),
            no_prompt: Vec::new(),
            states: Vec::with_capacity(5),
            built: Vec::with_capacity(5),
        }
    }

    /// These seats' states show their view without a prompt: a bot acts for them meanwhile.
    pub fn without_prompt(mut self, seats: &[Seat]) -> UpdateFrames<'a> {
        self.no_prompt = seats.to_vec();
        self
    }

    /// The state of `viewer` (a seat, or `None` for spectators and seatless players) now.
    pub fn state(&mut self, viewer: Option<Seat>) -> Arc<Value> {
        if let Some((_, state)) = self.states.iter().find(|(v, _)| *v == viewer) {
            return state.clone();
        }
        let game = match self.series {
            None => Value::Null,
            Some(series) => {
                let mut view = series.view(viewer);
                if viewer.is_some_and(|v| self.no_prompt.contains(&v)) {
                    view.clear_prompt();
                }
                value(&view)
            }
        };
        let state = Arc::new(patch::state(self.room.clone(), game));
        self.states.push((viewer, state.clone()));
        state
    }

    /// The frame for a connection of `viewer` that was last sent `base`, and the state it is
    /// sent now (its next base).
    pub fn frame(&mut self, viewer: Option<Seat>, base: &Arc<Value>) -> (Arc<str>, Arc<Value>) {
        let state = self.state(viewer);
        let key = Arc::as_ptr(base) as usize;
        if let Some((_, _, frame)) = self.built.iter().find(|(v, b, _)| *v == viewer && *b == key) {
            return (frame.clone(), state);
        }
        let patches = patch::diff(base, &state);
        let frame: Arc<str> = Arc::from(self.build(viewer, &patches));
        self.built.push((viewer, key, frame.clone()));
        (frame, state)
    }

    fn build(&self, viewer: Option<Seat>, patches: &[Patch]) -> String {
        let events: Vec<SeqEvent> = self.events.iter().map(|e| redact(e, viewer)).collect();
        let events = json(&events);
        let patches = json(patches);
        let mut out = String::with_capacity(events.len() + patches.len() + 48);
        out.push_str(r#"{"type":"update","seq":"#);
        out.push_str(&self.seq.to_string());
        out.push_str(r#","events":"#);
        out.push_str(&events);
        out.push_str(r#","patches":"#);
        out.push_str(&patches);
        out.push('}');
        out
    }
}

fn value<T: serde::Serialize + ?Sized>(value: &T) -> Value {
    // These types serialise without failing: every map key is a string.
    serde_json::to_value(value).unwrap_or(Value::Null)
}

fn json<T: serde::Serialize + ?Sized>(value: &T) -> String {
    // These types serialise without failing: every map key is a string.
    serde_json::to_string(value).unwrap_or_else(|_| String::from("null"))
}

#[cfg(test)]
mod tests {
    use super::*;
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
        }
    }

    /// Every frame equals serde's text of the same `update`, and its patches bring the state
    /// last sent to the viewer's state now, at every step of a series, for every viewer, in
    /// every game.
    #[test]
    fn frames_are_the_serialised_update_and_patch_the_state() {
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
        // Each viewer's state as a client holds it: a snapshot before the series, then patched.
        let mut held: Vec<Arc<Value>> = viewers.iter().map(|_| Arc::new(client_state(&room(None), None))).collect();
        let mut checked = 0;
        for step in 0..2000 {
            let state = room(Some(&series));
            let hidden = [Seat(1)];
            let mut frames = UpdateFrames::new(step, &pending, &state, Some(&series)).without_prompt(&hidden);
            for (viewer, base) in viewers.iter().zip(held.iter_mut()) {
                let viewer = *viewer;
                let mut view = series.view(viewer);
                if viewer == Some(Seat(1)) {
                    view.clear_prompt();
                }
                let (frame, next) = frames.frame(viewer, base);
                let now = client_state(&state, Some(&view));
                let patches = patch::diff(base, &now);
                let expected = ServerMessage::Update {
                    seq: step,
                    events: pending.iter().map(|e| redact(e, viewer)).collect(),
                    patches: patches.clone(),
                };
                assert_eq!(&*frame, expected.to_json(), "step {step}, viewer {viewer:?}");
                let mut patched = Value::clone(base);
                patch::apply(&mut patched, &patches).unwrap();
                assert_eq!(patched, now, "step {step}, viewer {viewer:?}");
                assert_eq!(*next, now);
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
        // Before the series: the room alone.
        let waiting = room(None);
        let base = Arc::new(client_state(&room(None), None));
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

    /// Connections of one viewer with one base share a frame; another base gets its own.
    #[test]
    fn a_frame_is_built_once_per_viewer_and_base() {
        let waiting = room(None);
        let base = Arc::new(client_state(&waiting, None));
        let other = Arc::new(client_state(&room(None), None));
        let mut changed = waiting.clone();
        changed.spectators = 5;
        let mut frames = UpdateFrames::new(2, &[], &changed, None);
        let (a, next_a) = frames.frame(None, &base);
        let (b, next_b) = frames.frame(None, &base);
        assert!(Arc::ptr_eq(&a, &b) && Arc::ptr_eq(&next_a, &next_b));
        let (c, _) = frames.frame(None, &other);
        assert!(!Arc::ptr_eq(&a, &c));
        assert_eq!(a, c);
    }
}
