//! A series of deals at one table, and its scoresheet.

use serde::{Deserialize, Serialize};

use crate::deal::{Action, Contract, Deal, Outcome, Seat};
use crate::error::RuleError;
use crate::event::Event;
use crate::ruleset::{RuleSet, RuleSetError};
use crate::seed::{DealSeeds, Seed};
use crate::view::DealView;

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
    /// Deals dealt so far, thrown-in ones included (the current one too).
    dealt: u32,
    /// Deals that count towards `rules.deals` (not thrown in), finished.
    counted: u32,
    deal: Deal,
    sheet: Vec<ScoreRow>,
    totals: Vec<i32>,
    /// How each deal's seed is taken from `master`.
    #[serde(default)]
    seeds: DealSeeds,
    /// The deals thrown in since the last deal that counted.
    #[serde(default)]
    redeals: u32,
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

impl Series {
    /// Starts a series: the first deal is dealt at once, by the last seat (so seat 0 is Vorhand).
    /// Each deal's seed is derived from `master`, which must stay secret.
    ///
    /// # Errors
    /// [`RuleSetError`] if an option is out of range.
    pub fn new(rules: RuleSet, master: Seed) -> Result<(Series, Vec<Event>), RuleSetError> {
        rules.validate()?;
        let n = rules.players.count();
        let dealer = Seat(n - 1);
        let (deal, event) = Deal::new(rules, 1, dealer, master.derive(0));
        let series = Series {
            rules,
            master,
            dealt: 1,
            counted: 0,
            deal,
            sheet: Vec::new(),
            totals: vec![0; usize::from(n)],
            seeds: DealSeeds::default(),
            redeals: 0,
        };
        Ok((series, vec![event]))
    }

    /// Takes the seeds of the deals still to come as `seeds` says (the first deal is the same
    /// either way).
    pub fn set_deal_seeds(&mut self, seeds: DealSeeds) {
        self.seeds = seeds;
    }

    /// The table's rules.
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }

    /// The current deal.
    pub fn deal(&self) -> &Deal {
        &self.deal
    }

    /// The current deal's number, from 1.
    pub fn number(&self) -> u32 {
        self.dealt
    }

    /// The scoresheet so far.
    pub fn scoresheet(&self) -> &[ScoreRow] {
        &self.sheet
    }

    /// The series with the scoresheet's rows before `first` left out (see
    /// [`crate::GameEngine::with_rows_from`]); nothing else is changed.
    pub fn with_rows_from(&self, first: usize) -> Series {
        Series {
            rules: self.rules,
            master: self.master,
            dealt: self.dealt,
            counted: self.counted,
            deal: self.deal.clone(),
            sheet: self.sheet.get(first..).unwrap_or_default().to_vec(),
            totals: self.totals.clone(),
            seeds: self.seeds,
            redeals: self.redeals,
        }
    }

    /// Each seat's total.
    pub fn totals(&self) -> &[i32] {
        &self.totals
    }

    /// Whether the series has played its last deal.
    pub fn is_over(&self) -> bool {
        self.rules.deals.is_some_and(|limit| self.counted >= limit)
    }

    /// The legal actions of `seat` in the current deal.
    pub fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        if self.is_over() { Vec::new() } else { self.deal.legal_actions(seat) }
    }

    /// Applies an action in the current deal; when it ends the deal, the scoresheet row follows
    /// (and the end of the series, if it was the last deal).
    ///
    /// # Errors
    /// A [`RuleError`]; the series is then unchanged.
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, RuleError> {
        let mut out = Vec::with_capacity(4);
        self.apply_into(seat, action, &mut out)?;
        Ok(out)
    }

    /// [`Series::apply`], appending to `out`.
    ///
    /// # Errors
    /// As [`Series::apply`].
    pub fn apply_into(&mut self, seat: Seat, action: Action, out: &mut Vec<Event>) -> Result<(), RuleError> {
        if self.is_over() {
            return Err(RuleError::SeriesOver);
        }
        self.deal.apply_into(seat, action, out)?;
        if let Some(outcome) = self.deal.outcome() {
            self.score(outcome, out);
        }
        Ok(())
    }

    fn score(&mut self, outcome: Outcome, out: &mut Vec<Event>) {
        let scored = outcome.score();
        if let Some((seat, points)) = scored {
            self.totals[seat.index()] += points;
        }
        if outcome != Outcome::ThrownIn {
            self.counted += 1;
        }
        let declarer = match outcome {
            Outcome::SiebenerFips { seat, .. } => Some(seat),
            _ => self.deal.declarer(),
        };
        let row = ScoreRow {
            number: self.dealt,
            dealer: self.deal.dealer(),
            declarer,
            contract: self.deal.contract(),
            outcome,
            value: scored.map_or(0, |(_, p)| p),
            totals: self.totals.clone(),
        };
        self.sheet.push(row.clone());
        out.push(Event::Scored { row });
        if self.is_over() {
            out.push(Event::SeriesOver { totals: self.totals.clone() });
        }
    }

    /// Deals the next deal once the current one is over: the next dealer clockwise, or the same
    /// dealer again after a thrown-in deal. Its seed is taken from the master seed as
    /// [`Series::set_deal_seeds`] chose (by default deal `k` from stream `k − 1`).
    ///
    /// # Errors
    /// [`RuleError::DealNotOver`] while the deal is being played, [`RuleError::SeriesOver`] after
    /// the last deal.
    pub fn next_deal(&mut self) -> Result<Vec<Event>, RuleError> {
        if self.is_over() {
            return Err(RuleError::SeriesOver);
        }
        let Some(outcome) = self.deal.outcome() else {
            return Err(RuleError::DealNotOver);
        };
        let (dealer, redeals) = match outcome {
            Outcome::ThrownIn => (self.deal.dealer(), self.redeals + 1),
            _ => (self.deal.dealer().next(self.rules.players.count()), 0),
        };
        let seed = self.seeds.seed(&self.master, self.dealt, self.counted, redeals);
        self.redeals = redeals;
        self.dealt += 1;
        let (deal, event) = Deal::new(self.rules, self.dealt, dealer, seed);
        self.deal = deal;
        Ok(vec![event])
    }

    /// What `viewer` may see (`None`: a spectator).
    pub fn view(&self, viewer: Option<Seat>) -> SeriesView {
        self.view_from_row(viewer, 0)
    }

    /// [`Self::view`] with the scoresheet's rows from row `first` on (from 0): a long series'
    /// oldest rows left out, so that a snapshot of the table stays small however many deals
    /// were played (a server sends the newest rows that fit).
    pub fn view_from_row(&self, viewer: Option<Seat>, first: usize) -> SeriesView {
        let rows = self.sheet.get(first..).unwrap_or_default().to_vec();
        SeriesView { scoresheet: rows, ..self.view_without_rows(viewer) }
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
            number: self.dealt,
            counted: self.counted,
            deal,
            scoresheet: Vec::new(),
            totals: if whole { self.totals.clone() } else { Vec::new() },
            over: self.is_over(),
        }
    }

    /// [`Series::view_without_rows`] with only the fields that differ from viewer to viewer
    /// filled in as the view has them (see [`Deal::own_view`]); the others are left empty.
    pub fn own_view(&self, viewer: Option<Seat>) -> SeriesView {
        self.view_around(self.quiet_once_over(self.deal.own_view(viewer)), false)
    }

    /// The current deal as `viewer` may see it: [`SeriesView::deal`] alone (a server that
    /// sends the same scoresheet to every viewer builds the rest once).
    pub fn deal_view(&self, viewer: Option<Seat>) -> DealView {
        self.quiet_once_over(self.deal.view(viewer))
    }

    /// A view of the deal with its prompt emptied once the series is over.
    fn quiet_once_over(&self, mut deal: DealView) -> DealView {
        if self.is_over() {
            deal.prompt = Default::default();
        }
        deal
    }

    /// Deals finished that count towards the limit (thrown-in deals do not).
    pub fn counted(&self) -> u32 {
        self.counted
    }
}
