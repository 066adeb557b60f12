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

use fipsen_protocol::patch;
use fipsen_protocol::{
    DealReplay, FinishedDeal, PlayAnalysis, REPLAY_FORMAT, ReplayStep, RoomEvent, SERIES_FORMAT, SeatAction,
    SeriesRecord,
};
use fipsen_rules::{AnyGame, Card, GameAction, GameEvent, Seat, Seed};
use serde_json::Value;
use tracing::error;

use crate::room::core::{Change, Core};
use crate::room::{Damaged, Record};
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

/// Rebuilds a stored room record by record through the room core's own restore (so a replay
/// is always the room as it was played), calling `visit` after every start, action and next
/// deal that changed the game, until it says to stop; returns the rebuilt room. Every record is
/// checked as a restore checks it, past the last one visited too: a room that does not rebuild
/// exactly what was acknowledged shows nothing (see [`Damaged`]).
fn rebuild(stored: &StoredRoom, mut visit: impl FnMut(Rebuilt<'_>) -> ControlFlow<()>) -> Result<Core, Damaged> {
    Core::check_creation(&stored.meta)?;
    let records = Record::read_all(stored)?;
    let now = Instant::now();
    let mut core = Core::new(stored.meta.clone(), Duration::ZERO, now);
    let mut visiting = true;
    for read in &records {
        let (seat, action) = match &read.record {
            Record::Act { seat, action, .. } | Record::BotAct { seat, action } => (Some(*seat), Some(action.clone())),
            _ => (None, None),
        };
        let plays = matches!(read.record, Record::Started | Record::NextDeal) || action.is_some();
        let events = core.restore_record(read, now)?;
        if !visiting || !plays {
            continue;
        }
        let events: Vec<GameEvent> = events
            .into_iter()
            .filter_map(|e| match e.event {
                RoomEvent::Game { event } => Some(event),
                _ => None,
            })
            .collect();
        let Some(series) = core.series() else { continue };
        if visit(Rebuilt { series, seat, action, events }).is_break() {
            visiting = false;
        }
    }
    Ok(core)
}

/// The replay of deal `deal` of a stored room, with the deal views seen from `perspective`;
/// `None` when that deal is not over (or never began).
///
/// # Errors
/// The stored room does not rebuild what was acknowledged.
pub fn replay_deal(stored: &StoredRoom, deal: u32, perspective: Option<Seat>) -> Result<Option<DealReplay>, Damaged> {
    let game = stored.meta.rules.game();
    let mut steps = Vec::new();
    let mut over = false;
    let mut analysis = None;
    // What the step before showed, which the next step's patches change.
    let mut before = None;
    rebuild(stored, |step| {
        if step.series.deal_number() != deal {
            return ControlFlow::Continue(());
        }
        steps.push(replay_step(step.series, step.seat, step.action, step.events, perspective, &mut before));
        over = step.series.deal_over();
        if !over {
            return ControlFlow::Continue(());
        }
        // The deal is over: its analysis (every hand open) may go where its replay goes.
        analysis = analyse(stored, step.series);
        ControlFlow::Break(())
    })?;
    Ok(over.then(|| DealReplay {
        format: REPLAY_FORMAT,
        game,
        deal,
        perspective,
        steps,
        analysis: analysis.map(|a| (*a).clone()),
    }))
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
///
/// # Errors
/// The stored room does not rebuild what was acknowledged.
pub fn finished_deal(stored: &StoredRoom, deal: u32) -> Result<Option<fipsen_bots::games::FinishedDeal>, Damaged> {
    let mut found = None;
    rebuild(stored, |step| {
        if step.series.deal_number() == deal && step.series.deal_over() {
            found = fipsen_bots::games::FinishedDeal::of(step.series);
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    })?;
    Ok(found)
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

/// The most finished deals one page of a series carries ([`series_record`]).
pub const SERIES_PAGE_DEALS: u32 = 50;

/// The bytes of finished deals (their actions) a page of a series holds at most: a page stops
/// early at this many, so that a page with its scoresheet rows stays well under the largest
/// reply (256 KiB by default) whatever the game and the table size.
pub const SERIES_PAGE_BYTES: usize = 96 * 1024;

/// Which finished deals of a series one request asks for: from deal number `from` (1 for the
/// first), at most `count` of them (capped at [`SERIES_PAGE_DEALS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeriesPage {
    /// The first deal's number.
    pub from: u32,
    /// How many deals at most.
    pub count: u32,
}

impl SeriesPage {
    /// The page a request asks for, its count capped; the first page by default.
    pub fn asked(from: Option<u32>, count: Option<u32>) -> SeriesPage {
        SeriesPage {
            from: from.unwrap_or(1).max(1),
            count: count.unwrap_or(SERIES_PAGE_DEALS).clamp(1, SERIES_PAGE_DEALS),
        }
    }

    fn holds(&self, number: u32) -> bool {
        number >= self.from && number - self.from < self.count
    }
}

/// One page of a stored series as far as its deals are over (see [`SeriesRecord`]): the
/// finished deals of `page` with their seeds, dealers and actions (the page ends early once its
/// deals' bytes pass [`SERIES_PAGE_BYTES`]; `next` says where the next page begins); the
/// spectator's view of the series without its running deal, its scoresheet cut to the rows of
/// the page's deals; the master seed once the series is over.
///
/// The series is rebuilt through the rules once, record by record; only the page's deals are
/// turned into JSON (and analysed), so that a page costs the same bytes however long the series,
/// and nothing is built per action that grows with the series.
///
/// # Errors
/// The stored room does not rebuild what was acknowledged.
pub fn series_record(
    stored: &StoredRoom,
    perspective: Option<Seat>,
    page: SeriesPage,
) -> Result<SeriesRecord, Damaged> {
    let mut deals: Vec<FinishedDeal> = Vec::new();
    let mut actions: Vec<SeatAction> = Vec::new();
    let mut bytes = 0usize;
    // The number of the deal that ends the page early, once the page is full.
    let mut cut: Option<u32> = None;
    let mut finished = 0u32;
    let mut last_over = 0u32;
    let rebuilt = rebuild(stored, |step| {
        let number = step.series.deal_number();
        let wanted = page.holds(number) && cut.is_none_or(|c| number < c);
        if wanted && let (Some(seat), Some(action)) = (step.seat, step.action) {
            let action = serde_json::to_value(action).unwrap_or(Value::Null);
            bytes += action.to_string().len() + 20;
            actions.push(SeatAction { seat, action });
        }
        if step.series.deal_over() && last_over != number {
            last_over = number;
            finished += 1;
            if wanted {
                // The deal's seed and dealer, from its view without the scoresheet.
                let view = serde_json::to_value(step.series.view_without_rows(None)).unwrap_or(Value::Null);
                let deal = &view["deal"];
                let seed = serde_json::from_value::<Seed>(deal["reveal"]["seed"].clone()).ok();
                let dealer = serde_json::from_value::<Seat>(deal["dealer"].clone()).ok();
                if let (Some(seed), Some(dealer)) = (seed, dealer) {
                    let costly = analyse_if_quick(stored, step.series).map(|a| a.costly.clone());
                    deals.push(FinishedDeal { number, dealer, seed, actions: std::mem::take(&mut actions), costly });
                }
                if bytes >= SERIES_PAGE_BYTES {
                    cut = Some(number + 1);
                }
            } else {
                actions.clear();
            }
        }
        ControlFlow::Continue(())
    })?;
    let over = rebuilt.series().is_some_and(AnyGame::series_over);
    let sheet = rebuilt.series().map_or(Value::Null, |series| sheet_page(series, &deals));
    let last = deals.last().map(|d| d.number);
    let next = last.filter(|&n| n < last_over).map(|n| n + 1);
    Ok(SeriesRecord {
        format: SERIES_FORMAT,
        room: stored.meta.code.clone(),
        title: stored.meta.title.clone(),
        rules: stored.meta.rules.clone(),
        players: rebuilt.players(),
        perspective,
        over,
        master_seed: over.then_some(stored.meta.master),
        finished,
        next,
        deals,
        sheet,
    })
}

/// The spectator's view of `series` without its running deal (`deal` is `null`), with the
/// scoresheet rows of `deals` alone (a row's `number` names its deal).
fn sheet_page(series: &AnyGame, deals: &[FinishedDeal]) -> Value {
    let mut view = serde_json::to_value(series.view_without_rows(None)).unwrap_or(Value::Null);
    if let Some(deal) = view.get_mut("deal") {
        *deal = Value::Null;
    }
    let (Some(first), Some(last)) = (deals.first().map(|d| d.number), deals.last().map(|d| d.number)) else {
        if let Some(sheet) = view.get_mut("scoresheet") {
            *sheet = Value::Array(Vec::new());
        }
        return view;
    };
    let rows = series.rows();
    let number = |index: usize| -> Option<u32> {
        let row: Value = serde_json::from_str(&series.row_json(index)?).ok()?;
        row.get("number")?.as_u64().and_then(|n| u32::try_from(n).ok())
    };
    // The deal a row belongs to: its own number, or (a row of no deal, such as the end of a
    // round) the deal of the row before it.
    let deal_of = |index: usize| -> u32 { (0..=index).rev().take(8).find_map(number).unwrap_or(0) };
    // Rows come in the order of their deals: the first row of the page is found by halving.
    let (mut low, mut high) = (0usize, rows);
    while low < high {
        let middle = low + (high - low) / 2;
        if deal_of(middle) < first {
            low = middle + 1;
        } else {
            high = middle;
        }
    }
    let mut page = Vec::new();
    for index in low..rows {
        let Some(text) = series.row_json(index) else { break };
        let Ok(row) = serde_json::from_str::<Value>(&text) else { break };
        if row.get("number").and_then(Value::as_u64).is_some_and(|n| n > u64::from(last)) {
            break;
        }
        page.push(row);
    }
    if let Some(sheet) = view.get_mut("scoresheet") {
        *sheet = Value::Array(page);
    }
    view
}

/// One step: the deal after it from the perspective, and every hand; whole where nothing came
/// `before` it (the deal as dealt), else as the patches from what the step before showed, so
/// that a step costs what it changed and not the deal's whole history. `before` becomes what
/// this step shows.
fn replay_step(
    series: &AnyGame,
    seat: Option<Seat>,
    action: Option<GameAction>,
    events: Vec<GameEvent>,
    perspective: Option<Seat>,
    before: &mut Option<Value>,
) -> ReplayStep {
    let mut view = series.view_without_rows(perspective);
    view.clear_prompt();
    let deal =
        serde_json::to_value(&view).ok().and_then(|mut v| v.get_mut("deal").map(Value::take)).unwrap_or(Value::Null);
    let hands: Vec<Vec<Card>> = (0..series.seats()).map(|s| hand_of(series, Seat(s as u8))).collect();
    let action = action.and_then(|a| serde_json::to_value(a).ok());
    let shown = ReplayStep::document(deal, &hands);
    let step = match before.as_ref() {
        None => ReplayStep {
            seat,
            action,
            events,
            deal: Some(shown["deal"].clone()),
            hands: Some(hands),
            patches: Vec::new(),
        },
        Some(before) => {
            ReplayStep { seat, action, events, deal: None, hands: None, patches: patch::diff(before, &shown) }
        }
    };
    *before = Some(shown);
    step
}

/// A seat's hand, as its own view shows it to him.
fn hand_of(series: &AnyGame, seat: Seat) -> Vec<Card> {
    serde_json::to_value(series.view_without_rows(Some(seat)))
        .ok()
        .and_then(|v| v.get("deal").and_then(|d| d.get("hand")).cloned())
        .and_then(|hand| serde_json::from_value(hand).ok())
        .unwrap_or_default()
}

/// A room of computer players that played `deals` deals of `rules` (or fewer, where the series
/// ends sooner), each seat taking its first legal action, with its records as storage holds
/// them: a long series made quickly, for tests and for measuring what a series page costs
/// (`server/examples/series_pages.rs`).
pub fn played_by_bots(rules: fipsen_rules::GameRules, deals: u32) -> StoredRoom {
    use crate::storage::{ROOM_RECORD_FORMAT, RoomMeta, StoredRecord};

    fn store(core: &mut Core, records: &mut Vec<StoredRecord>, record: Record) {
        let json = serde_json::to_string(&record).unwrap_or_default();
        records.push(StoredRecord { index: core.records(), seq_before: core.seq(), json, format: ROOM_RECORD_FORMAT });
        core.apply(&Change::Record(record), Instant::now());
    }

    let meta = RoomMeta {
        code: "k3JX9a2LqP0vWm4Zb7Ya".into(),
        created_at: 0,
        title: "A long evening".into(),
        rules,
        options: fipsen_protocol::RoomOptions::default(),
        master: Seed([7; 32]),
        tournament: None,
    };
    let mut core = Core::new(meta.clone(), Duration::ZERO, Instant::now());
    let mut records = Vec::new();
    let seats = meta.rules.seats();
    for s in 0..seats {
        let (participant, seat) = (s as u32, Seat(s as u8));
        let record = Record::BotAdded { participant, seat, level: fipsen_bots::Level::Easy, name: format!("Bot{s}") };
        store(&mut core, &mut records, record);
    }
    store(&mut core, &mut records, Record::Started);
    while let Some(series) = core.series() {
        if series.deal_over() {
            if series.series_over() || series.deal_number() >= deals {
                break;
            }
            store(&mut core, &mut records, Record::NextDeal);
            continue;
        }
        let Some((seat, action)) = (0..seats)
            .map(|s| Seat(s as u8))
            .find_map(|seat| series.legal_actions(seat).first().map(|action| (seat, action)))
        else {
            break;
        };
        store(&mut core, &mut records, Record::BotAct { seat, action });
    }
    StoredRoom { meta, records }
}

#[cfg(test)]
mod tests {
    use fipsen_rules::{GameId, GameRules};
    use serde_json::Value;

    use super::{SERIES_PAGE_DEALS, SeriesPage, played_by_bots as played, replay_deal, series_record};
    use crate::storage::StoredRoom;

    /// The largest reply a server sends by default (`--max-reply-bytes`).
    const REPLY_LIMIT: usize = 256 * 1024;

    /// The spectator's view of the whole series, scoresheet and all, as the rules give it.
    fn whole_view(stored: &StoredRoom) -> Value {
        let rebuilt = super::rebuild(stored, |_| std::ops::ControlFlow::Continue(())).expect("a sound room");
        serde_json::to_value(rebuilt.series().expect("a series").view(None)).expect("a view")
    }

    /// Every page of a stored series, from the first, following `next`.
    fn pages(stored: &StoredRoom, count: u32) -> Vec<(usize, Value)> {
        let mut pages = Vec::new();
        let mut from = Some(1);
        while let Some(start) = from {
            let record =
                series_record(stored, None, SeriesPage::asked(Some(start), Some(count))).expect("a sound room");
            let bytes = serde_json::to_string(&record).expect("a record serialises").len();
            from = record.next;
            pages.push((bytes, serde_json::to_value(&record).expect("a record serialises")));
            assert!(pages.len() < 10_000, "the pages never end");
        }
        pages
    }

    #[test]
    fn a_series_of_two_thousand_deals_comes_in_pages_under_the_reply_limit_that_join_to_the_whole() {
        let stored = played(GameRules::default_for(GameId::Prisdorf), 2_000);
        let pages = pages(&stored, SERIES_PAGE_DEALS);
        let largest = pages.iter().map(|(bytes, _)| *bytes).max().unwrap_or(0);
        assert!(largest < REPLY_LIMIT / 2, "a page of {largest} bytes");
        let mut numbers = Vec::new();
        let mut rows = Vec::new();
        for (_, page) in &pages {
            assert_eq!(page["finished"], 2_000);
            let deals = page["deals"].as_array().expect("deals");
            assert!(!deals.is_empty() && deals.len() <= SERIES_PAGE_DEALS as usize);
            numbers.extend(deals.iter().map(|d| d["number"].as_u64().expect("a number")));
            let sheet = page["sheet"]["scoresheet"].as_array().expect("rows");
            assert_eq!(
                sheet.iter().map(|r| r["number"].clone()).collect::<Vec<_>>(),
                deals.iter().map(|d| d["number"].clone()).collect::<Vec<_>>(),
                "a page's scoresheet holds the rows of its own deals"
            );
            rows.extend(sheet.iter().cloned());
        }
        assert_eq!(numbers, (1..=2_000).collect::<Vec<u64>>(), "every deal once, in order");
        assert!(pages.len() >= 40, "pages of at most 50 deals: {}", pages.len());
        // The rows joined are the table's whole scoresheet, and the totals its last row's.
        let whole = whole_view(&stored);
        assert_eq!(Value::Array(rows), whole["scoresheet"]);
        assert_eq!(pages[39].1["sheet"]["totals"], whole["totals"]);
        // The replay of a late deal is as small as an early one's.
        let late = serde_json::to_string(
            &replay_deal(&stored, 1_999, None).expect("a sound room").expect("deal 1999 is over"),
        )
        .unwrap();
        assert!(late.len() < REPLAY_BOUND, "the replay of deal 1999: {} bytes", late.len());
    }

    /// Far more than one deal's replay needs, far less than the reply limit.
    const REPLAY_BOUND: usize = 64 * 1024;

    #[test]
    fn pages_of_every_game_join_to_the_whole_scoresheet_and_deals() {
        for &game in GameId::ALL {
            let stored = played(GameRules::default_for(game), 3);
            let whole = whole_view(&stored);
            for count in [1, 2, SERIES_PAGE_DEALS] {
                let pages = pages(&stored, count);
                let mut rows = Vec::new();
                let mut numbers = Vec::new();
                for (_, page) in &pages {
                    rows.extend(page["sheet"]["scoresheet"].as_array().expect("rows").iter().cloned());
                    numbers.extend(page["deals"].as_array().expect("deals").iter().map(|d| d["number"].clone()));
                    assert!(page["sheet"]["deal"].is_null(), "{game:?}: the running deal is left out");
                }
                let finished = pages[0].1["finished"].as_u64().expect("finished");
                assert_eq!(numbers.len() as u64, finished, "{game:?} by {count}: every finished deal");
                assert_eq!(Value::Array(rows), whole["scoresheet"], "{game:?} by {count}: every row once");
            }
        }
    }
}
