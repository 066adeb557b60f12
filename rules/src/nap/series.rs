//! A table's series of Nap deals: the balances, the pool and the scoresheet
//! (docs/rules/nap.md#n7-the-series-and-the-scoresheet).

use serde::{Deserialize, Serialize};

use super::deal::{Action, Deal};
use super::event::Event;
use super::rules::{Bid, Rules};
use super::view::DealView;
use crate::card::Suit;
use crate::error::RuleError;
use crate::options::RuleSetError;
use crate::run::{Balances, Run};
use crate::seat::Seat;
use crate::seed::Seed;
use crate::sheet::rows_from;

/// A row of the scoresheet: one per deal.
///
/// ```json
/// {"number": 3, "dealer": 2, "declarer": 0, "bid": "nap", "trumps": "spades", "tricks": 5,
///  "made": true, "scores": [34, -10, -10, -10], "pool": 0, "totals": [31, -13, -9, -9]}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "NapScoreRow"))]
pub struct ScoreRow {
    /// The deal's number in the series, from 1.
    pub number: u32,
    /// The dealer.
    pub dealer: Seat,
    /// The declarer; `null` for a thrown-in deal.
    pub declarer: Option<Seat>,
    /// His bid.
    pub bid: Option<Bid>,
    /// The trump suit (none in a misère).
    pub trumps: Option<Suit>,
    /// Tricks the declarer took.
    pub tricks: u8,
    /// Whether he made his bid; `null` for a thrown-in deal.
    pub made: Option<bool>,
    /// What each seat paid (negative) or took in the deal.
    pub scores: Vec<i32>,
    /// The pool after the deal.
    pub pool: i32,
    /// Each seat's balance after the deal.
    pub totals: Vec<i32>,
}

/// A table's series of Nap deals. The first dealer is the last seat, so seat 0 is forehand;
/// the deal passes to the left.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Series {
    rules: Rules,
    master: Seed,
    #[serde(flatten)]
    run: Run<Deal, ScoreRow>,
    #[serde(flatten)]
    balances: Balances,
}

/// A series as one viewer sees it.
///
/// ```json
/// {"number": 4, "deal": {"...": "..."}, "scoresheet": [], "totals": [31, -13, -9, -9],
///  "pool": 0, "over": false}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "NapSeriesView"))]
pub struct SeriesView {
    /// The current deal's number, from 1.
    pub number: u32,
    /// The current deal as the viewer may see it.
    pub deal: DealView,
    /// The scoresheet: a row per deal.
    pub scoresheet: Vec<ScoreRow>,
    /// Each seat's balance (with the pool, they sum to zero).
    pub totals: Vec<i32>,
    /// The pool.
    pub pool: i32,
    /// Whether the series has played its last deal.
    pub over: bool,
}

impl Series {
    /// Starts a series: the last seat deals the first deal. Each deal's seed is derived from
    /// `master`, which must stay secret.
    ///
    /// # Errors
    /// [`RuleSetError`] if an option is out of range.
    pub fn new(rules: Rules, master: Seed) -> Result<(Series, Vec<Event>), RuleSetError> {
        rules.validate()?;
        let (deal, dealt) = Deal::new(rules, 1, Seat(rules.players - 1), master.derive(0), 0);
        let balances = Balances::new(deal.changes());
        Ok((Series { rules, master, run: Run::new(deal), balances }, vec![dealt]))
    }

    /// The table's rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The current deal.
    pub fn deal(&self) -> &Deal {
        self.run.deal()
    }

    /// The current deal's number, from 1.
    pub fn number(&self) -> u32 {
        self.run.number()
    }

    /// The scoresheet so far.
    pub fn scoresheet(&self) -> &[ScoreRow] {
        self.run.rows()
    }

    /// The series with the scoresheet's rows before `first` left out (see
    /// [`crate::GameEngine::with_rows_from`]); nothing else is changed.
    pub fn with_rows_from(&self, first: usize) -> Series {
        Series { run: self.run.with_rows_from(first), balances: self.balances.clone(), ..*self }
    }

    /// Each seat's balance now (what the running deal moved included).
    pub fn totals(&self) -> &[i32] {
        self.balances.now()
    }

    /// The pool now.
    pub fn pool(&self) -> i32 {
        self.deal().pool()
    }

    /// Whether the series has played its last deal.
    pub fn is_over(&self) -> bool {
        self.rules.deals.is_some_and(|deals| self.number() >= deals) && self.deal().is_over()
    }

    /// The legal actions of `seat` in the current deal; none once the series is over.
    pub fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        self.run.open(self.is_over()).map_or_else(|_| Vec::new(), |deal| deal.legal_actions(seat))
    }

    /// Whether `seat` may take `action` now.
    ///
    /// # Errors
    /// The error [`Series::apply`] would return.
    pub fn check(&self, seat: Seat, action: Action) -> Result<(), RuleError> {
        self.run.open(self.is_over())?.check(seat, action)
    }

    /// Applies an action in the current deal; when it ends the deal, the deal's row follows,
    /// then the end of the series after its last deal.
    ///
    /// # Errors
    /// A [`RuleError`]; the series is then unchanged.
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, RuleError> {
        let over = self.is_over();
        let mut out = self.run.open_mut(over)?.apply(seat, action)?;
        let deal = self.run.deal();
        self.balances.update(deal.changes());
        if let Some(outcome) = deal.outcome().copied() {
            let row = ScoreRow {
                number: self.number(),
                dealer: deal.dealer(),
                declarer: outcome.declarer,
                bid: outcome.bid,
                trumps: outcome.trumps,
                tricks: outcome.declarer_tricks,
                made: outcome.made,
                scores: deal.changes().to_vec(),
                pool: deal.pool(),
                totals: self.totals().to_vec(),
            };
            self.run.score(row, &mut out, |row| Event::Scored { row });
            if self.is_over() {
                out.push(Event::SeriesOver { totals: self.totals().to_vec(), pool: self.pool() });
            }
        }
        Ok(out)
    }

    /// Deals the next deal once the current one is over: the next dealer to the left, the pool
    /// carried over. Deal `k` (from 1) is shuffled with the master seed's stream `k − 1`.
    ///
    /// # Errors
    /// [`RuleError::DealNotOver`] while the deal is on, [`RuleError::SeriesOver`] after the last
    /// deal.
    pub fn next_deal(&mut self) -> Result<Vec<Event>, RuleError> {
        let (over, finished, rules) = (self.is_over(), self.deal().is_over(), self.rules);
        let event = self.run.next_deal(over, finished, self.master, |number, seed, last| {
            Deal::new(rules, number, last.dealer().next(rules.players), seed, last.pool())
        })?;
        self.balances.carry(self.run.deal().changes());
        Ok(vec![event])
    }

    /// What `viewer` may see (`None`: a spectator).
    pub fn view(&self, viewer: Option<Seat>) -> SeriesView {
        self.view_from_row(viewer, 0)
    }

    /// [`Self::view`] with the scoresheet's rows from row `first` on (from 0).
    pub fn view_from_row(&self, viewer: Option<Seat>, first: usize) -> SeriesView {
        SeriesView { scoresheet: rows_from(self.scoresheet(), first), ..self.view_without_rows(viewer) }
    }

    /// [`Self::view`] with its scoresheet left empty: what changes from move to move.
    pub fn view_without_rows(&self, viewer: Option<Seat>) -> SeriesView {
        let mut deal = self.deal().view(viewer);
        if self.is_over() {
            deal.prompt = Default::default();
        }
        SeriesView {
            number: self.number(),
            deal,
            scoresheet: Vec::new(),
            totals: self.totals().to_vec(),
            pool: self.pool(),
            over: self.is_over(),
        }
    }
}
