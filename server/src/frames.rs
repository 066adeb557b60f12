//! The `update` frames of one change in a room: one per distinct viewer (each seat, and every
//! spectator alike), with the parts every viewer shares — the room, the scoresheet, the totals —
//! serialised once instead of once per viewer.
//!
//! The text is exactly what serde makes of [`ServerMessage::Update`](fipsen_protocol::ServerMessage)
//! (a test holds the two side by side), so clients see no difference.

use std::fmt::Write as _;
use std::sync::Arc;

use fipsen_protocol::{RoomEvent, RoomState, SeqEvent};
use fipsen_rules::{AnyGame, Seat};

/// An event as `viewer` may see it: game events are redacted by the rules crate.
pub fn redact(event: &SeqEvent, viewer: Option<Seat>) -> SeqEvent {
    match &event.event {
        RoomEvent::Game { event: game } => {
            SeqEvent { seq: event.seq, event: RoomEvent::Game { event: game.for_viewer(viewer) } }
        }
        _ => event.clone(),
    }
}

/// Builds the `update` frames of one change, each viewer's at most once.
#[derive(Debug)]
pub struct UpdateFrames<'a> {
    seq: u64,
    events: &'a [SeqEvent],
    series: Option<&'a AnyGame>,
    room: String,
    /// The parts of the game's view every viewer sees alike ([`AnyGame::shared_view_json`]).
    shared: String,
    /// Seats whose own view offers no action (a bot plays for them for now).
    no_prompt: Vec<Seat>,
    built: Vec<(Option<Seat>, Arc<str>)>,
}

impl<'a> UpdateFrames<'a> {
    /// Serialises the shared parts of the update for `events` (numbered up to `seq`).
    pub fn new(seq: u64, events: &'a [SeqEvent], room: &RoomState, series: Option<&'a AnyGame>) -> UpdateFrames<'a> {
        let room = json(room);
        let shared = series.map_or_else(String::new, AnyGame::shared_view_json);
        UpdateFrames { seq, events, series, room, shared, no_prompt: Vec::new(), built: Vec::with_capacity(5) }
    }

    /// These seats' frames show their view without a prompt: a bot acts for them meanwhile.
    pub fn without_prompt(mut self, seats: &[Seat]) -> UpdateFrames<'a> {
        self.no_prompt = seats.to_vec();
        self
    }

    /// The frame for `viewer` (a seat, or `None` for spectators and seatless players).
    pub fn frame(&mut self, viewer: Option<Seat>) -> Arc<str> {
        if let Some((_, frame)) = self.built.iter().find(|(v, _)| *v == viewer) {
            return frame.clone();
        }
        let frame: Arc<str> = Arc::from(self.build(viewer));
        self.built.push((viewer, frame.clone()));
        frame
    }

    fn build(&self, viewer: Option<Seat>) -> String {
        let events: Vec<SeqEvent> = self.events.iter().map(|e| redact(e, viewer)).collect();
        let events = json(&events);
        let mut out = String::with_capacity(events.len() + self.room.len() + self.shared.len() + 1024);
        let _ = write!(out, r#"{{"type":"update","seq":{},"events":{events},"room":{},"game":"#, self.seq, self.room);
        match self.series {
            None => out.push_str("null"),
            Some(series) => {
                let prompt = !viewer.is_some_and(|v| self.no_prompt.contains(&v));
                out.push_str(&series.view_json(viewer, prompt, &self.shared));
            }
        }
        out.push('}');
        out
    }
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

    /// Every frame equals serde's text of the same `update`, at every step of a series,
    /// for every viewer, in every game.
    #[test]
    fn frames_are_exactly_the_serialised_update() {
        for &game in GameId::ALL {
            let mut rules = serde_json::to_value(GameRules::default_for(game)).unwrap();
            // A short series: three deals, or one round where a game counts rounds.
            if rules.get("rounds").is_some() {
                rules["rounds"] = 1.into();
            } else {
                rules["deals"] = 3.into();
            }
            frames_of_a_series_are_the_serialised_update(serde_json::from_value(rules).unwrap());
        }
    }

    fn frames_of_a_series_are_the_serialised_update(rules: GameRules) {
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
        let mut checked = 0;
        for step in 0..2000 {
            let state = room(Some(&series));
            let hidden = [Seat(1)];
            let mut frames = UpdateFrames::new(step, &pending, &state, Some(&series)).without_prompt(&hidden);
            let seats = (0..series.seats() as u8).map(|s| Some(Seat(s)));
            for viewer in std::iter::once(None).chain(seats) {
                let mut view = series.view(viewer);
                if viewer == Some(Seat(1)) {
                    view.clear_prompt();
                }
                let expected = ServerMessage::Update {
                    seq: step,
                    events: pending.iter().map(|e| redact(e, viewer)).collect(),
                    room: state.clone(),
                    game: Some(view),
                };
                assert_eq!(&*frames.frame(viewer), expected.to_json(), "step {step}, viewer {viewer:?}");
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
        let waiting = room(None);
        let expected = ServerMessage::Update { seq: 1, events: vec![], room: waiting.clone(), game: None };
        assert_eq!(&*UpdateFrames::new(1, &[], &waiting, None).frame(None), expected.to_json());
    }
}
