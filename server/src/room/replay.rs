//! Replays of finished deals and series pages, rebuilt from what storage already holds: the
//! room's rules, its secret master seed, the deal index's row of the deal before
//! ([`crate::room::series_index`]) and the deal's own records, run through the rules crate once more.
//!
//! Only a deal that is over is ever replayed: a deal has an index row only once it is over, and
//! a deal without one has no replay. The master seed never leaves the server; the replay
//! carries the finished deal's own events, which reveal that deal and nothing of the next. The
//! same holds for the analysis of a deal's play ([`crate::analysis`]), which uses every hand: it is computed only once the deal
//! is over, and goes only with its replay and (as counts of costly cards) its series page.

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use fipsen_protocol::patch;
use fipsen_protocol::{
    DealReplay, FinishedDeal, PlayAnalysis, REPLAY_FORMAT, ReplayStep, SERIES_FORMAT, SeatAction, SeriesRecord,
};
use fipsen_rules::{AnyGame, Card, GameAction, GameEvent, Seat, Seed};
use serde_json::Value;

use crate::room::core::{Change, Core};
use crate::room::record::{Damaged, Record};
use crate::room::series_index::StoredSeries;
use crate::storage::StoredRoom;

/// One step of rebuilding a stored series: the series after it, who acted and with what
/// (nothing for a start or a next deal), and the game events it caused.
struct Rebuilt<'a> {
    series: &'a AnyGame,
    seat: Option<Seat>,
    action: Option<GameAction>,
    events: Vec<GameEvent>,
}

/// Deals deal `number` of a stored series again and plays it through the rules crate, from the
/// series the deal before it left (as its index row keeps it; the start of the series for the
/// first deal) with the deal's own stored records, calling `visit` after the dealing and after
/// every action, until it says to stop. Returns the series at the deal's end and the number of
/// the scoresheet's first row the deal added; `None` when the deal is not finished (or never
/// began). Every record of the deal is checked, past the last one visited too: a record missing
/// or unreadable, an action the rules refuse, or a deal that does not end exactly as its index
/// row says (the whole series, hidden hands included) shows nothing (see [`Damaged`]).
fn rebuild(
    stored: &StoredSeries,
    number: u32,
    mut visit: impl FnMut(Rebuilt<'_>) -> ControlFlow<()>,
) -> Result<Option<(AnyGame, usize)>, Damaged> {
    Core::check_creation(&stored.meta)?;
    let Some(entry) = stored.deal(number) else { return Ok(None) };
    let game = stored.meta.rules.game();
    let refused = |index: u64, reason: String| Damaged::Refused { index, reason };
    let mut expected = entry.first;
    let mut series: Option<AnyGame> = None;
    let mut rows_from = 0;
    let mut visiting = true;
    for stored_record in stored.records.iter().skip_while(|r| r.index < entry.first) {
        if stored_record.index > entry.last {
            break;
        }
        if stored_record.index != expected {
            return Err(Damaged::Missing { index: expected, found: stored_record.index });
        }
        expected += 1;
        let index = stored_record.index;
        let record = Record::read_stored(stored_record, index, game)?;
        let (seat, action, events) = match (&mut series, &record) {
            (None, Record::Started) => {
                let tournament = stored.meta.tournament.is_some();
                let (started, events) =
                    crate::room::core::start_series(&stored.meta.rules, stored.meta.master, tournament)
                        .map_err(|e| refused(index, format!("the series cannot start: {e}")))?;
                series = Some(started);
                (None, None, events.into_iter().collect())
            }
            (None, Record::NextDeal) => {
                let before = number.checked_sub(1).and_then(|n| stored.deal(n));
                let Some(before) = before else {
                    return Err(refused(index, format!("the deal index lacks the deal before deal {number}")));
                };
                let mut next = crate::room::deal_index::end_of(&stored.meta, before)?;
                let events = next
                    .next_deal()
                    .map_err(|e| refused(index, format!("the rules refuse the next deal: {}", e.code())))?;
                series = Some(next);
                (None, None, events.into_iter().collect())
            }
            (None, _) => return Err(refused(index, format!("the deal index's deal {number} begins with no deal"))),
            (Some(series), Record::Act { seat, action, .. } | Record::BotAct { seat, action }) => {
                let events = series
                    .apply(*seat, action)
                    .map_err(|e| refused(index, format!("the rules refuse the action: {}", e.code())))?;
                (Some(*seat), Some(action.clone()), events.into_iter().collect())
            }
            (Some(_), Record::Started | Record::NextDeal) => {
                return Err(refused(index, format!("a deal is dealt within deal {number}")));
            }
            (Some(_), _) => continue,
        };
        let Some(series) = series.as_ref() else { continue };
        if seat.is_none() {
            if series.deal_number() != number {
                return Err(refused(
                    index,
                    format!("deal {} is dealt where the index has deal {number}", series.deal_number()),
                ));
            }
            rows_from = series.rows();
        }
        if visiting && visit(Rebuilt { series, seat, action, events }).is_break() {
            visiting = false;
        }
    }
    if expected <= entry.last {
        return Err(Damaged::Missing { index: expected, found: entry.last + 1 });
    }
    let Some(series) = series else {
        return Err(refused(entry.first, format!("the deal index's deal {number} has no records")));
    };
    if !series.deal_over() || !crate::room::deal_index::ends_as_kept(&series, rows_from, entry)? {
        return Err(refused(entry.last, format!("deal {number} does not end as the deal index says")));
    }
    Ok(Some((series, rows_from)))
}

/// The replay of deal `deal` of a stored room, with the deal views seen from `perspective`;
/// `None` when that deal is not over (or never began).
///
/// # Errors
/// The stored room does not rebuild what was acknowledged.
pub fn replay_deal(stored: &StoredSeries, deal: u32, perspective: Option<Seat>) -> Result<Option<DealReplay>, Damaged> {
    let game = stored.meta.rules.game();
    let mut steps = Vec::new();
    let mut over = false;
    let mut analysis = None;
    // What the step before showed, which the next step's patches change.
    let mut before = None;
    rebuild(stored, deal, |step| {
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

/// [`analyse`] for a series page: a deal whose analysis is costly only if it is cached
/// ([`crate::analysis::of_deal_if_quick`]).
fn analyse_if_quick(stored: &StoredSeries, series: &AnyGame) -> Option<std::sync::Arc<PlayAnalysis>> {
    let finished = fipsen_bots::games::FinishedDeal::of(series)?;
    crate::analysis::of_deal_if_quick(&stored.meta.code, series.deal_number(), series.seats(), &finished)
}

/// The analysis of the deal of `series`, which must be over (`None` where it is not, or the
/// game has no analysis); cached per room and deal.
fn analyse(stored: &StoredSeries, series: &AnyGame) -> Option<std::sync::Arc<PlayAnalysis>> {
    let finished = fipsen_bots::games::FinishedDeal::of(series)?;
    crate::analysis::of_deal(&stored.meta.code, series.deal_number(), series.seats(), &finished)
}

/// Finished deal `deal` of a stored series as the bots' review reads it; `None` when that deal
/// is not over (or never began).
///
/// # Errors
/// The deal does not rebuild what was acknowledged.
pub fn finished_deal(stored: &StoredSeries, deal: u32) -> Result<Option<fipsen_bots::games::FinishedDeal>, Damaged> {
    let end = rebuild(stored, deal, |_| ControlFlow::Continue(()))?;
    Ok(end.and_then(|(series, _)| fipsen_bots::games::FinishedDeal::of(&series)))
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
/// spectator's view of the series as its last finished deal left it, without a running deal,
/// its scoresheet cut to the rows of the page's deals; the master seed once the series is over.
///
/// `stored` holds the page's deals alone ([`crate::room::series_index::read`]): each is dealt again
/// and played through the rules from the index row before it, and checked to end as its own
/// row says; the series' totals and the like come from the last deal's row. A page costs the
/// same time and bytes however long the series.
///
/// # Errors
/// A deal of the page does not rebuild what was acknowledged.
pub fn series_record(
    stored: &StoredSeries,
    perspective: Option<Seat>,
    page: SeriesPage,
) -> Result<SeriesRecord, Damaged> {
    let finished = stored.latest.as_ref().map_or(0, |latest| latest.number);
    let mut deals: Vec<FinishedDeal> = Vec::new();
    let mut rows: Vec<Value> = Vec::new();
    let mut bytes = 0usize;
    let mut number = page.from;
    while page.holds(number) && number <= finished && bytes < SERIES_PAGE_BYTES {
        let mut actions: Vec<SeatAction> = Vec::new();
        let end = rebuild(stored, number, |step| {
            if let (Some(seat), Some(action)) = (step.seat, step.action) {
                let action = serde_json::to_value(action).unwrap_or(Value::Null);
                bytes += action.to_string().len() + 20;
                actions.push(SeatAction { seat, action });
            }
            ControlFlow::Continue(())
        })?;
        let Some((series, rows_from)) = end else { break };
        // The deal's seed and dealer, from its view without the scoresheet.
        let view = serde_json::to_value(series.view_without_rows(None)).unwrap_or(Value::Null);
        let deal = &view["deal"];
        let seed = serde_json::from_value::<Seed>(deal["reveal"]["seed"].clone()).ok();
        let dealer = serde_json::from_value::<Seat>(deal["dealer"].clone()).ok();
        if let (Some(seed), Some(dealer)) = (seed, dealer) {
            let costly = analyse_if_quick(stored, &series).map(|a| a.costly.clone());
            deals.push(FinishedDeal { number, dealer, seed, actions, costly });
        }
        rows.extend((rows_from..series.rows()).filter_map(|i| serde_json::from_str(&series.row_json(i)?).ok()));
        number += 1;
    }
    let last = match &stored.latest {
        Some(latest) => Some(crate::room::deal_index::end_of(&stored.meta, latest)?),
        None => stored.running.clone(),
    };
    let over = last.as_ref().is_some_and(AnyGame::series_over);
    let sheet = last.as_ref().map_or(Value::Null, |series| sheet_page(series, rows));
    let next = deals.last().map(|d| d.number).filter(|&n| n < finished).map(|n| n + 1);
    Ok(SeriesRecord {
        format: SERIES_FORMAT,
        room: stored.meta.code.clone(),
        title: stored.meta.title.clone(),
        rules: stored.meta.rules.clone(),
        players: stored.players.clone(),
        perspective,
        over,
        master_seed: over.then_some(stored.meta.master),
        finished,
        next,
        deals,
        sheet,
    })
}

/// The spectator's view of `series` (as its last finished deal left it) without a running deal
/// (`deal` is `null`), with the scoresheet rows `rows` alone.
fn sheet_page(series: &AnyGame, rows: Vec<Value>) -> Value {
    let mut view = serde_json::to_value(series.view_without_rows(None)).unwrap_or(Value::Null);
    if let Some(deal) = view.get_mut("deal") {
        *deal = Value::Null;
    }
    if let Some(sheet) = view.get_mut("scoresheet") {
        *sheet = Value::Array(rows);
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
    use crate::room::series_index::InMemory;

    /// The largest reply a server sends by default (`--max-reply-bytes`).
    const REPLY_LIMIT: usize = 256 * 1024;

    /// The spectator's view of the whole series, scoresheet and all, as the rules give it.
    fn whole_view(stored: &InMemory) -> Value {
        serde_json::to_value(stored.core().series().expect("a series").view(None)).expect("a view")
    }

    /// Every page of a stored series, from the first, following `next`.
    fn pages(stored: &InMemory, count: u32) -> Vec<(usize, Value)> {
        let mut pages = Vec::new();
        let mut from = Some(1);
        while let Some(start) = from {
            let page = SeriesPage::asked(Some(start), Some(count));
            let record = series_record(&stored.read(page.from, page.count), None, page).expect("a sound room");
            let bytes = serde_json::to_string(&record).expect("a record serialises").len();
            from = record.next;
            pages.push((bytes, serde_json::to_value(&record).expect("a record serialises")));
            assert!(pages.len() < 10_000, "the pages never end");
        }
        pages
    }

    #[test]
    fn a_series_of_two_thousand_deals_comes_in_pages_under_the_reply_limit_that_join_to_the_whole() {
        let stored = InMemory::new(played(GameRules::default(), 2_000)).expect("a sound room");
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
            &replay_deal(&stored.read(1_999, 1), 1_999, None).expect("a sound room").expect("deal 1999 is over"),
        )
        .unwrap();
        assert!(late.len() < REPLAY_BOUND, "the replay of deal 1999: {} bytes", late.len());
    }

    /// Far more than one deal's replay needs, far less than the reply limit.
    const REPLAY_BOUND: usize = 64 * 1024;

    #[test]
    fn pages_of_every_game_join_to_the_whole_scoresheet_and_deals() {
        for &game in GameId::ALL {
            let stored = InMemory::new(played(GameRules::default_for(game), 3)).expect("a sound room");
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
