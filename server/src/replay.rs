//! Replays of finished deals, rebuilt from what storage already holds: the room's rules, its
//! secret master seed and its records, run through the rules crate once more.
//!
//! Only a deal that is over is ever replayed: the steps are collected while the series is
//! rebuilt, and if the records end before the deal does (it is still being played), there is no
//! replay. The master seed never leaves the server; the replay carries the finished deal's own
//! events, which reveal that deal and nothing of the next. The same holds for the analysis of a
//! deal's play ([`crate::analysis`]), which uses every hand: it is computed only once the deal
//! is over, and goes only with its replay and (as counts of costly cards) its series page.

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use fipsen_protocol::{
    DealReplay, FinishedDeal, PlayAnalysis, REPLAY_FORMAT, ReplayStep, RoomEvent, SERIES_FORMAT, SeatAction,
    SeriesRecord,
};
use fipsen_rules::{AnyGame, Card, GameAction, GameEvent, Seat, Seed};
use serde_json::Value;
use tracing::error;

use crate::room::Record;
use crate::room::core::{Change, Core};
use crate::storage::StoredRoom;

/// One step of rebuilding a stored series: the series after it, who acted and with what
/// (nothing for a start or a next deal), and the game events it caused.
struct Rebuilt<'a> {
    series: &'a AnyGame,
    seat: Option<Seat>,
    action: Option<GameAction>,
    events: Vec<GameEvent>,
}

/// The stored room's records, read; reading stops at the first that cannot be read (what
/// follows would be built on a different series; the registry refuses such a room before
/// rebuilding it).
fn records(stored: &StoredRoom) -> Vec<(Record, u64)> {
    let game = stored.meta.rules.game();
    let mut records = Vec::with_capacity(stored.records.len());
    for (index, stored_record) in (0u64..).zip(&stored.records) {
        match Record::read_stored(stored_record, index, game) {
            Ok(record) => records.push((record, stored_record.seq_before)),
            Err(e) => {
                error!(room = %stored.meta.code, record = e.record(), error = %e, "rebuilding: a record cannot be read");
                break;
            }
        }
    }
    records
}

/// Rebuilds a stored room record by record through the room core's own `apply` (so a replay is
/// always the room as it was played), calling `visit` after every start, action and next deal
/// that changed the game, until it says to stop; returns the rebuilt room.
fn rebuild(stored: &StoredRoom, mut visit: impl FnMut(Rebuilt<'_>) -> ControlFlow<()>) -> Core {
    let now = Instant::now();
    let mut core = Core::new(stored.meta.clone(), Duration::ZERO, now);
    for (record, _) in records(stored) {
        let (seat, action) = match &record {
            Record::Act { seat, action, .. } | Record::BotAct { seat, action } => (Some(*seat), Some(action.clone())),
            _ => (None, None),
        };
        let plays = matches!(record, Record::Started | Record::NextDeal) || action.is_some();
        let events: Vec<GameEvent> = core
            .apply(&Change::Record(record), now)
            .into_iter()
            .filter_map(|e| match e.event {
                RoomEvent::Game { event } => Some(event),
                _ => None,
            })
            .collect();
        // A stored action the rules refused when it was first made changed nothing then.
        if !plays || events.is_empty() {
            continue;
        }
        let Some(series) = core.series() else { continue };
        if visit(Rebuilt { series, seat, action, events }).is_break() {
            break;
        }
    }
    core
}

/// The replay of deal `deal` of a stored room, with the deal views seen from `perspective`;
/// `None` when that deal is not over (or never began).
pub fn replay_deal(stored: &StoredRoom, deal: u32, perspective: Option<Seat>) -> Option<DealReplay> {
    let game = stored.meta.rules.game();
    let mut steps = Vec::new();
    let mut over = false;
    let mut analysis = None;
    rebuild(stored, |step| {
        if step.series.deal_number() != deal {
            return ControlFlow::Continue(());
        }
        steps.push(replay_step(step.series, step.seat, step.action, step.events, perspective));
        over = step.series.deal_over();
        if !over {
            return ControlFlow::Continue(());
        }
        // The deal is over: its analysis (every hand open) may go where its replay goes.
        analysis = analyse(stored, step.series);
        ControlFlow::Break(())
    });
    over.then(|| DealReplay {
        format: REPLAY_FORMAT,
        game,
        deal,
        perspective,
        steps,
        analysis: analysis.map(|a| (*a).clone()),
    })
}

/// [`analyse`] for a series page: a Wippen deal only if its analysis is cached
/// ([`crate::analysis::of_deal_if_quick`]).
fn analyse_if_quick(stored: &StoredRoom, series: &AnyGame) -> Option<std::sync::Arc<PlayAnalysis>> {
    let finished = fipsen_bots::games::FinishedDeal::of(series)?;
    crate::analysis::of_deal_if_quick(&stored.meta.code, series.deal_number(), series.seats(), &finished)
}

/// The analysis of the deal of `series`, which must be over (`None` where it is not, or the
/// game has no analysis); cached per room and deal.
fn analyse(stored: &StoredRoom, series: &AnyGame) -> Option<std::sync::Arc<PlayAnalysis>> {
    let finished = fipsen_bots::games::FinishedDeal::of(series)?;
    crate::analysis::of_deal(&stored.meta.code, series.deal_number(), series.seats(), &finished)
}

/// Finished deal `deal` of a stored room as the bots' review reads it; `None` when that deal
/// is not over (or never began).
pub fn finished_deal(stored: &StoredRoom, deal: u32) -> Option<fipsen_bots::games::FinishedDeal> {
    let mut found = None;
    rebuild(stored, |step| {
        if step.series.deal_number() == deal && step.series.deal_over() {
            found = fipsen_bots::games::FinishedDeal::of(step.series);
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    });
    found
}

/// The seat of `participant` in a stored room, if he has one (from the seating records alone:
/// the game is not played through).
pub fn seat_of(stored: &StoredRoom, participant: u32) -> Option<Seat> {
    let now = Instant::now();
    let mut core = Core::new(stored.meta.clone(), Duration::ZERO, now);
    for (record, _) in records(stored) {
        if !matches!(record, Record::Started | Record::Act { .. } | Record::BotAct { .. } | Record::NextDeal) {
            core.apply(&Change::Record(record), now);
        }
    }
    core.seat_of_participant(participant)
}

/// A stored series as far as its deals are over (see [`SeriesRecord`]): every finished deal
/// with its seed, dealer and actions; the spectator's view of the series without its running
/// deal; the master seed once the series is over.
pub fn series_record(stored: &StoredRoom, perspective: Option<Seat>) -> SeriesRecord {
    let mut deals: Vec<FinishedDeal> = Vec::new();
    let mut actions: Vec<SeatAction> = Vec::new();
    let mut sheet = Value::Null;
    let mut over = false;
    let rebuilt = rebuild(stored, |step| {
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
                let costly = analyse_if_quick(stored, step.series).map(|a| a.costly.clone());
                deals.push(FinishedDeal { number, dealer, seed, actions: std::mem::take(&mut actions), costly });
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
        players: rebuilt.players(),
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
    events: Vec<GameEvent>,
    perspective: Option<Seat>,
) -> ReplayStep {
    let mut view = series.view(perspective);
    view.clear_prompt();
    let deal =
        serde_json::to_value(&view).ok().and_then(|mut v| v.get_mut("deal").map(Value::take)).unwrap_or(Value::Null);
    let hands = (0..series.seats()).map(|s| hand_of(series, Seat(s as u8))).collect();
    let action = action.and_then(|a| serde_json::to_value(a).ok());
    ReplayStep { seat, action, events, deal, hands }
}

/// A seat's hand, as its own view shows it to him.
fn hand_of(series: &AnyGame, seat: Seat) -> Vec<Card> {
    serde_json::to_value(series.view(Some(seat)))
        .ok()
        .and_then(|v| v.get("deal").and_then(|d| d.get("hand")).cloned())
        .and_then(|hand| serde_json::from_value(hand).ok())
        .unwrap_or_default()
}
