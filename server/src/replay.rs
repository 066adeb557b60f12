//! Replays of finished deals, rebuilt from what storage already holds: the room's rules, its
//! secret master seed and its records, run through the rules crate once more.
//!
//! Only a deal that is over is ever replayed: the steps are collected while the series is
//! rebuilt, and if the records end before the deal does (it is still being played), there is no
//! replay. The master seed never leaves the server; the replay carries the finished deal's own
//! events, which reveal that deal and nothing of the next.

use std::collections::HashMap;
use std::ops::ControlFlow;

use fipsen_protocol::{DealReplay, FinishedDeal, REPLAY_FORMAT, ReplayStep, SERIES_FORMAT, SeatAction, SeriesRecord};
use fipsen_rules::{AnyGame, Card, GameAction, GameEvents, Seat, Seed};
use serde_json::Value;
use tracing::error;

use crate::room::Record;
use crate::storage::StoredRoom;

/// One step of rebuilding a stored series: the series after it, who acted and with what
/// (nothing for a start or a next deal), and the events it caused.
struct Rebuilt<'a> {
    series: &'a AnyGame,
    seat: Option<Seat>,
    action: Option<GameAction>,
    events: GameEvents,
}

/// Who sits where, as the stored records say.
#[derive(Default)]
struct Seating {
    names: Vec<Option<String>>,
    seat_of: HashMap<u32, Seat>,
    at: Vec<Option<u32>>,
}

impl Seating {
    fn name(&mut self, participant: u32, name: String) {
        let slot = participant as usize;
        if self.names.len() <= slot {
            self.names.resize(slot + 1, None);
        }
        self.names[slot] = Some(name);
    }

    fn sit(&mut self, participant: u32, seat: Seat) {
        self.leave(participant);
        if let Some(slot) = self.at.get_mut(seat.index()) {
            *slot = Some(participant);
            self.seat_of.insert(participant, seat);
        }
    }

    fn leave(&mut self, participant: u32) {
        if let Some(seat) = self.seat_of.remove(&participant) {
            self.at[seat.index()] = None;
        }
    }

    fn players(&self) -> Vec<Option<String>> {
        self.at.iter().map(|p| p.and_then(|p| self.names.get(p as usize).cloned().flatten())).collect()
    }
}

/// Rebuilds a stored room's series record by record through the rules crate (when `play`),
/// calling `visit` after every start, action and next deal until it says to stop; returns the
/// seating.
fn rebuild(stored: &StoredRoom, play: bool, mut visit: impl FnMut(Rebuilt<'_>) -> ControlFlow<()>) -> Seating {
    let rules = &stored.meta.rules;
    let game = rules.game();
    let mut series: Option<AnyGame> = None;
    let mut seating = Seating { at: vec![None; rules.seats()], ..Seating::default() };
    for (index, stored_record) in stored.records.iter().enumerate() {
        let record = match Record::read_stored(stored_record, index, game) {
            Ok(record) => record,
            Err(e) => {
                // Rebuilding stops here: what follows would be built on a different series. The
                // registry refuses a stored room with such a record before rebuilding it.
                error!(room = %stored.meta.code, record = e.index, error = %e, "rebuilding: a record cannot be read");
                break;
            }
        };
        let (seat, action, events) = match record {
            Record::Joined { participant, name, seat, .. } => {
                seating.name(participant, name);
                if let Some(seat) = seat {
                    seating.sit(participant, seat);
                }
                continue;
            }
            Record::BotAdded { participant, name, seat, .. } => {
                seating.name(participant, name);
                seating.sit(participant, seat);
                continue;
            }
            Record::Seated { participant, seat } => {
                seating.sit(participant, seat);
                continue;
            }
            Record::LeftSeat { participant } => {
                seating.leave(participant);
                continue;
            }
            Record::BotRemoved { seat } => {
                if let Some(p) = seating.at.get(seat.index()).copied().flatten() {
                    seating.leave(p);
                }
                continue;
            }
            Record::Started if !play => continue,
            Record::Started => {
                let Ok((mut started, events)) = AnyGame::start(rules, stored.meta.master) else { break };
                if stored.meta.tournament.is_some() {
                    // Dealt as the room deals a tournament table (see `Room::apply`).
                    started.set_deal_seeds(fipsen_rules::DealSeeds::ByCountedDeal);
                }
                series = Some(started);
                (None, None, events)
            }
            Record::Act { seat, action, .. } | Record::BotAct { seat, action } => {
                let Some(s) = series.as_mut() else { continue };
                // A stored action the rules refused when it was first made changed nothing then.
                let Ok(events) = s.apply(seat, &action) else { continue };
                (Some(seat), Some(action), events)
            }
            Record::NextDeal => {
                let Some(s) = series.as_mut() else { continue };
                let Ok(events) = s.next_deal() else { continue };
                (None, None, events)
            }
            _ => continue,
        };
        let Some(s) = series.as_ref() else { continue };
        if visit(Rebuilt { series: s, seat, action, events }).is_break() {
            break;
        }
    }
    seating
}

/// The replay of deal `deal` of a stored room, with the deal views seen from `perspective`;
/// `None` when that deal is not over (or never began).
pub fn replay_deal(stored: &StoredRoom, deal: u32, perspective: Option<Seat>) -> Option<DealReplay> {
    let game = stored.meta.rules.game();
    let mut steps = Vec::new();
    let mut over = false;
    rebuild(stored, true, |step| {
        if step.series.deal_number() != deal {
            return ControlFlow::Continue(());
        }
        steps.push(replay_step(step.series, step.seat, step.action, step.events, perspective));
        over = step.series.deal_over();
        if over { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    });
    over.then_some(DealReplay { format: REPLAY_FORMAT, game, deal, perspective, steps })
}

/// Finished deal `deal` of a stored room as the bots' review reads it; `None` when that deal
/// is not over (or never began).
pub fn finished_deal(stored: &StoredRoom, deal: u32) -> Option<fipsen_bots::games::FinishedDeal> {
    let mut found = None;
    rebuild(stored, true, |step| {
        if step.series.deal_number() == deal && step.series.deal_over() {
            found = fipsen_bots::games::FinishedDeal::of(step.series);
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    });
    found
}

/// The seat of `participant` in a stored room, if he has one.
pub fn seat_of(stored: &StoredRoom, participant: u32) -> Option<Seat> {
    rebuild(stored, false, |_| ControlFlow::Continue(())).seat_of.get(&participant).copied()
}

/// A stored series as far as its deals are over (see [`SeriesRecord`]): every finished deal
/// with its seed, dealer and actions; the spectator's view of the series without its running
/// deal; the master seed once the series is over.
pub fn series_record(stored: &StoredRoom, perspective: Option<Seat>) -> SeriesRecord {
    let mut deals: Vec<FinishedDeal> = Vec::new();
    let mut actions: Vec<SeatAction> = Vec::new();
    let mut sheet = Value::Null;
    let mut over = false;
    let seating = rebuild(stored, true, |step| {
        if let (Some(seat), Some(action)) = (step.seat, step.action) {
            actions.push(SeatAction { seat, action: serde_json::to_value(action).unwrap_or(Value::Null) });
        }
        let mut view = serde_json::to_value(step.series.view(None)).unwrap_or(Value::Null);
        let deal = view.get_mut("deal").map(Value::take).unwrap_or(Value::Null);
        if step.series.deal_over() {
            let number = step.series.deal_number();
            let seed = serde_json::from_value::<Seed>(deal["reveal"]["seed"].clone()).ok();
            let dealer = serde_json::from_value::<Seat>(deal["dealer"].clone()).ok();
            if let (Some(seed), Some(dealer)) = (seed, dealer)
                && deals.last().is_none_or(|d| d.number != number)
            {
                deals.push(FinishedDeal { number, dealer, seed, actions: std::mem::take(&mut actions) });
            }
        }
        sheet = view;
        over = step.series.series_over();
        ControlFlow::Continue(())
    });
    SeriesRecord {
        format: SERIES_FORMAT,
        room: stored.meta.code.clone(),
        title: stored.meta.title.clone(),
        rules: stored.meta.rules.clone(),
        players: seating.players(),
        perspective,
        over,
        master_seed: over.then_some(stored.meta.master),
        deals,
        sheet,
    }
}

/// One step: the deal after it from the perspective, and every hand.
fn replay_step(
    series: &AnyGame,
    seat: Option<Seat>,
    action: Option<GameAction>,
    events: GameEvents,
    perspective: Option<Seat>,
) -> ReplayStep {
    let mut view = series.view(perspective);
    view.clear_prompt();
    let deal =
        serde_json::to_value(&view).ok().and_then(|mut v| v.get_mut("deal").map(Value::take)).unwrap_or(Value::Null);
    let hands = (0..series.seats()).map(|s| hand_of(series, Seat(s as u8))).collect();
    let action = action.and_then(|a| serde_json::to_value(a).ok());
    ReplayStep { seat, action, events: events.into_iter().collect(), deal, hands }
}

/// A seat's hand, as its own view shows it to him.
fn hand_of(series: &AnyGame, seat: Seat) -> Vec<Card> {
    serde_json::to_value(series.view(Some(seat)))
        .ok()
        .and_then(|v| v.get("deal").and_then(|d| d.get("hand")).cloned())
        .and_then(|hand| serde_json::from_value(hand).ok())
        .unwrap_or_default()
}
