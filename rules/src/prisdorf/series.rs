//! A series of deals at one table, and its scoresheet.

use serde::{Deserialize, Serialize};

use super::deal::{Action, Contract, Deal, Outcome};
use super::event::Event;
use super::ruleset::RuleSet;
use super::view::DealView;
use crate::error::RuleError;
use crate::options::RuleSetError;
use crate::seat::Seat;
use crate::seed::Seed;
use crate::sheet::{Ended, Sheet, SheetDeal, rows_from};

/// One row of the scoresheet: one deal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ScoreRow {
    /// The deal's number in the series, from 1 (thrown-in deals included).
    pub number: u32,
    /// The dealer.
    pub dealer: Seat,
    /// The declarer (for a Siebener Fips, its announcer); none for a thrown-in deal.
    pub declarer: Option<Seat>,
    /// What the auction's winner owed.
    pub contract: Option<Contract>,
    /// How the deal ended, with the game as played.
    pub outcome: Outcome,
    /// The points scored by the declarer (or announcer); 0 for a thrown-in deal.
    pub value: i32,
    /// Each seat's running total after this deal.
    pub totals: Vec<i32>,
}

/// A table's series of deals: the current deal and the scoresheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Series {
    rules: RuleSet,
    master: Seed,
    #[serde(flatten)]
    sheet: Sheet<Deal, ScoreRow>,
}

/// A series as one viewer sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SeriesView {
    /// The current deal's number, from 1.
    pub number: u32,
    /// Deals finished that count towards the limit (thrown-in deals do not).
    pub counted: u32,
    /// The current deal as the viewer may see it.
    pub deal: DealView,
    /// The scoresheet, one row per finished deal.
    pub scoresheet: Vec<ScoreRow>,
    /// Each seat's total.
    pub totals: Vec<i32>,
    /// Whether the series has reached its last deal.
    pub over: bool,
}

impl SheetDeal for Deal {
    type Rules = RuleSet;
    type Action = Action;
    type Event = Event;
    type Row = ScoreRow;

    fn deal(rules: RuleSet, number: u32, dealer: Seat, seed: Seed) -> (Deal, Event) {
        Deal::new(rules, number, dealer, seed)
    }

    fn rules(&self) -> RuleSet {
        self.rules
    }

    fn players(&self) -> u8 {
        Deal::players(self)
    }

    fn dealer(&self) -> Seat {
        self.dealer
    }

    fn limit(&self) -> Option<u32> {
        self.rules.deals
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        Deal::legal_actions(self, seat)
    }

    fn check(&self, seat: Seat, action: Action) -> Result<(), RuleError> {
        Deal::check(self, seat, action)
    }

    fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, RuleError> {
        Deal::apply(self, seat, action)
    }

    fn ended(&self) -> Option<Ended> {
        self.outcome.map(|o| Ended { score: o.score(), thrown_in: o == Outcome::ThrownIn })
    }

    /// The row names a Siebener Fips' announcer as its declarer.
    fn row(&self, number: u32, value: i32, totals: Vec<i32>) -> ScoreRow {
        let outcome = self.outcome.unwrap_or(Outcome::ThrownIn);
        let declarer = match outcome {
            Outcome::SiebenerFips { seat, .. } => Some(seat),
            _ => self.declarer,
        };
        ScoreRow { number, dealer: self.dealer, declarer, contract: self.contract, outcome, value, totals }
    }

    fn scored(row: ScoreRow) -> Event {
        Event::Scored { row }
    }

    fn series_over(totals: Vec<i32>) -> Event {
        Event::SeriesOver { totals }
    }
}

impl Series {
    /// Starts a series: the first deal is dealt at once, by the last seat (so seat 0 is Vorhand).
    /// Each deal's seed is derived from `master`, which must stay secret.
    ///
    /// # Errors
    /// [`RuleSetError`] if an option is out of range.
    pub fn new(rules: RuleSet, master: Seed) -> Result<(Series, Vec<Event>), RuleSetError> {
        rules.validate()?;
        let (sheet, dealt) = Sheet::new(rules, master, Seat(rules.players.count() - 1));
        Ok((Series { rules, master, sheet }, vec![dealt]))
    }

    /// The table's rules.
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }

    crate::sheet::holstein_sheet_series!();

    /// The series with the scoresheet's rows before `first` left out (see
    /// [`crate::GameEngine::with_rows_from`]); nothing else is changed.
    pub fn with_rows_from(&self, first: usize) -> Series {
        Series { rules: self.rules, master: self.master, sheet: self.sheet.with_rows_from(first) }
    }

    /// [`Series::apply`], appending to `out`.
    ///
    /// # Errors
    /// As [`Series::apply`].
    pub fn apply_into(&mut self, seat: Seat, action: Action, out: &mut Vec<Event>) -> Result<(), RuleError> {
        out.extend(self.apply(seat, action)?);
        Ok(())
    }

    /// What `viewer` may see (`None`: a spectator).
    pub fn view(&self, viewer: Option<Seat>) -> SeriesView {
        self.view_from_row(viewer, 0)
    }

    /// [`Self::view`] with the scoresheet's rows from row `first` on (from 0): a long series'
    /// oldest rows left out, so that a snapshot of the table stays small however many deals
    /// were played (a server sends the newest rows that fit).
    pub fn view_from_row(&self, viewer: Option<Seat>, first: usize) -> SeriesView {
        SeriesView { scoresheet: rows_from(self.scoresheet(), first), ..self.view_without_rows(viewer) }
    }

    /// [`Self::view`] with its scoresheet left empty: what changes from move to move (a
    /// server sends the rows as they are added).
    pub fn view_without_rows(&self, viewer: Option<Seat>) -> SeriesView {
        self.view_around(self.deal_view(viewer), true)
    }

    /// The series around a view of its deal, without its scoresheet; its totals only if
    /// `whole`.
    fn view_around(&self, deal: DealView, whole: bool) -> SeriesView {
        SeriesView {
            number: self.number(),
            counted: self.counted(),
            deal,
            scoresheet: Vec::new(),
            totals: if whole { self.totals().to_vec() } else { Vec::new() },
            over: self.is_over(),
        }
    }

    /// [`Series::view_without_rows`] with only the fields that differ from viewer to viewer
    /// filled in as the view has them (see [`Deal::own_view`]); the others are left empty.
    pub fn own_view(&self, viewer: Option<Seat>) -> SeriesView {
        self.view_around(quiet_once_over(self.deal().own_view(viewer), self.is_over()), false)
    }

    /// The current deal as `viewer` may see it: [`SeriesView::deal`] alone (a server that
    /// sends the same scoresheet to every viewer builds the rest once).
    pub fn deal_view(&self, viewer: Option<Seat>) -> DealView {
        quiet_once_over(self.deal().view(viewer), self.is_over())
    }
}

/// A view of the deal with its prompt emptied once the series is over.
fn quiet_once_over(mut deal: DealView, over: bool) -> DealView {
    if over {
        deal.prompt = Default::default();
    }
    deal
}
