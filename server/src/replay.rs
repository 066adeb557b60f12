//! Replays of finished deals, rebuilt from what storage already holds: the room's rules, its
//! secret master seed and its records, run through the rules crate once more.
//!
//! Only a deal that is over is ever replayed: the steps are collected while the series is
//! rebuilt, and if the records end before the deal does (it is still being played), there is no
//! replay. The master seed never leaves the server; the replay carries the finished deal's own
//! events, which reveal that deal and nothing of the next.

use fipsen_protocol::{DealReplay, REPLAY_FORMAT, ReplayStep};
use fipsen_rules::{AnyGame, Card, GameAction, GameEvents, Seat};
use serde_json::Value;
use tracing::warn;

use crate::room::Record;
use crate::storage::StoredRoom;

/// The replay of deal `deal` of a stored room, with the deal views seen from `perspective`;
/// `None` when that deal is not over (or never began).
pub fn replay_deal(stored: &StoredRoom, deal: u32, perspective: Option<Seat>) -> Option<DealReplay> {
    let rules = &stored.meta.rules;
    let game = rules.game();
    let mut series: Option<AnyGame> = None;
    let mut steps = Vec::new();
    for stored_record in &stored.records {
        let record = match serde_json::from_str::<Record<Value>>(&stored_record.json).and_then(|r| r.read_action(game))
        {
            Ok(record) => record,
            Err(e) => {
                warn!(room = %stored.meta.code, error = %e, "replay: skipping an unreadable record");
                continue;
            }
        };
        let (seat, action, events) = match record {
            Record::Started => {
                let Ok((mut started, events)) = AnyGame::start(rules, stored.meta.master) else { return None };
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
        if s.deal_number() != deal {
            continue;
        }
        steps.push(step(s, seat, action, events, perspective));
        if s.deal_over() {
            return Some(DealReplay { format: REPLAY_FORMAT, game, deal, perspective, steps });
        }
    }
    None
}

/// One step: the deal after it from the perspective, and every hand.
fn step(
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
