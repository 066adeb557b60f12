//! The scoresheet of a series of Holstein-family deals, shared by the games whose deals score
//! for one declarer (Großenaspe, Anseggerfips, Duttfips): deal after deal from one master
//! seed, a row per finished deal, the running totals, the limit of counted deals (a thrown-in
//! deal does not count and is dealt again by the same dealer), and the cents settlement.
//!
//! A game's `Series` keeps its own rules, its own rows and its own view around a [`Sheet`]; the
//! sheet serialises as the five fields `dealt`, `counted`, `deal`, `sheet`, `totals`
//! (flattened into the series).

use serde::{Deserialize, Serialize};

use crate::error::RuleError;
use crate::seat::Seat;
use crate::seed::{DealSeeds, Seed};

/// How a deal ended, as the scoresheet needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Ended {
    /// Who scored and how much; `None` when nobody did.
    pub(crate) score: Option<(Seat, i32)>,
    /// Nobody bid: the deal does not count and the same dealer deals again.
    pub(crate) thrown_in: bool,
}

/// What the scoresheet needs of a game's deal.
pub(crate) trait SheetDeal: Sized {
    /// The table's options, as the deal keeps them.
    type Rules: Copy;
    /// What a seat may do.
    type Action: Copy;
    /// What happened.
    type Event;
    /// The game's scoresheet row.
    type Row: Clone;

    /// Shuffles with `seed` and deals deal `number`; returns the deal and its first event.
    fn deal(rules: Self::Rules, number: u32, dealer: Seat, seed: Seed) -> (Self, Self::Event);
    /// The deal's rules.
    fn rules(&self) -> Self::Rules;
    /// The number of players.
    fn players(&self) -> u8;
    /// The dealer.
    fn dealer(&self) -> Seat;
    /// How many deals the series lasts (`None`: open-ended).
    fn limit(&self) -> Option<u32>;
    /// The seat's legal actions.
    fn legal_actions(&self, seat: Seat) -> Vec<Self::Action>;
    /// Checks an action without taking it.
    fn check(&self, seat: Seat, action: Self::Action) -> Result<(), RuleError>;
    /// Takes an action; the deal is unchanged on error.
    fn apply(&mut self, seat: Seat, action: Self::Action) -> Result<Vec<Self::Event>, RuleError>;
    /// How the deal ended, once it has.
    fn ended(&self) -> Option<Ended>;
    /// The deal's row, with the points scored and the totals after it.
    fn row(&self, number: u32, value: i32, totals: Vec<i32>) -> Self::Row;
    /// The event that carries a new row.
    fn scored(row: Self::Row) -> Self::Event;
    /// The event that ends the series.
    fn series_over(totals: Vec<i32>) -> Self::Event;
}

/// [`SheetDeal`] for a game module's `Deal`, whose `Outcome` has a `ThrownIn` and a
/// `score(loss_factor)`, and whose deal has the fields `rules`, `dealer`, `declarer`,
/// `contract`, `outcome`; the module's `ScoreRow` and `Event::{Scored, SeriesOver}` carry the
/// rows. `limit` and `loss_factor` read the deal's rules.
macro_rules! holstein_sheet_deal {
    (rules: $rules:ty, limit: |$r1:ident| $limit:expr, loss_factor: |$r2:ident| $loss_factor:expr) => {
        impl $crate::sheet::SheetDeal for Deal {
            type Rules = $rules;
            type Action = Action;
            type Event = Event;
            type Row = ScoreRow;

            fn deal(rules: $rules, number: u32, dealer: Seat, seed: Seed) -> (Deal, Event) {
                Deal::new(rules, number, dealer, seed)
            }

            fn rules(&self) -> $rules {
                self.rules
            }

            fn players(&self) -> u8 {
                Deal::players(self)
            }

            fn dealer(&self) -> Seat {
                self.dealer
            }

            fn limit(&self) -> Option<u32> {
                let $r1 = &self.rules;
                $limit
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

            fn ended(&self) -> Option<$crate::sheet::Ended> {
                let $r2 = &self.rules;
                let loss_factor = $loss_factor;
                self.outcome
                    .map(|o| $crate::sheet::Ended { score: o.score(loss_factor), thrown_in: o == Outcome::ThrownIn })
            }

            fn row(&self, number: u32, value: i32, totals: Vec<i32>) -> ScoreRow {
                let outcome = self.outcome.unwrap_or(Outcome::ThrownIn);
                let (dealer, declarer, contract) = (self.dealer, self.declarer, self.contract);
                ScoreRow { number, dealer, declarer, contract, outcome, value, totals }
            }

            fn scored(row: ScoreRow) -> Event {
                Event::Scored { row }
            }

            fn series_over(totals: Vec<i32>) -> Event {
                Event::SeriesOver { totals }
            }
        }
    };
}
pub(crate) use holstein_sheet_deal;

/// The methods of a game module's `Series` that hand over to its scoresheet: the series keeps
/// the fields `sheet` (a [`Sheet`] of the module's `Deal` and `ScoreRow`) and `master`; `Deal`,
/// `ScoreRow`, `Action` and `Event` are the module's own, as named where it is used. Inherent
/// methods, so that callers need no trait in scope.
macro_rules! holstein_sheet_series {
    () => {
        /// The current deal.
        pub fn deal(&self) -> &Deal {
            self.sheet.deal()
        }

        /// The current deal's number, from 1.
        pub fn number(&self) -> u32 {
            self.sheet.number()
        }

        /// Deals finished that count towards the limit.
        pub fn counted(&self) -> u32 {
            self.sheet.counted()
        }

        /// Takes the seeds of the deals still to come as `seeds` says (the first deal is the
        /// same either way).
        pub fn set_deal_seeds(&mut self, seeds: $crate::seed::DealSeeds) {
            self.sheet.set_deal_seeds(seeds);
        }

        /// The scoresheet so far.
        pub fn scoresheet(&self) -> &[ScoreRow] {
            self.sheet.rows()
        }

        /// Each seat's total.
        pub fn totals(&self) -> &[i32] {
            self.sheet.totals()
        }

        /// Whether the series has played its last deal.
        pub fn is_over(&self) -> bool {
            self.sheet.is_over()
        }

        /// The legal actions of `seat` in the current deal.
        pub fn legal_actions(&self, seat: Seat) -> Vec<Action> {
            self.sheet.legal_actions(seat)
        }

        /// Whether `seat` may take `action` now.
        ///
        /// # Errors
        /// The error [`Series::apply`] would return.
        pub fn check(&self, seat: Seat, action: Action) -> Result<(), RuleError> {
            self.sheet.check(seat, action)
        }

        /// Applies an action in the current deal; when it ends the deal, the scoresheet row follows.
        ///
        /// # Errors
        /// A [`RuleError`]; the series is then unchanged.
        pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, RuleError> {
            self.sheet.apply(seat, action)
        }

        /// Deals the next deal once the current one is over: the next dealer clockwise, or the
        /// same dealer again after a thrown-in deal.
        ///
        /// # Errors
        /// [`RuleError::DealNotOver`] while the deal is on, [`RuleError::SeriesOver`] after the last.
        pub fn next_deal(&mut self) -> Result<Vec<Event>, RuleError> {
            self.sheet.next_deal(self.master)
        }
    };
}

pub(crate) use holstein_sheet_series;

/// The running part of a series: the current deal, the rows, the totals.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Sheet<D, R> {
    dealt: u32,
    counted: u32,
    deal: D,
    sheet: Vec<R>,
    totals: Vec<i32>,
    /// How each deal's seed is taken from the master seed.
    #[serde(default)]
    seeds: DealSeeds,
    /// The deals thrown in since the last deal that counted.
    #[serde(default)]
    redeals: u32,
}

impl<D: SheetDeal> Sheet<D, D::Row> {
    /// Deals the first deal of a series with `master`, by `dealer`.
    pub(crate) fn new(rules: D::Rules, master: Seed, dealer: Seat) -> (Self, D::Event) {
        let (deal, event) = D::deal(rules, 1, dealer, master.derive(0));
        let totals = vec![0; usize::from(deal.players())];
        let sheet =
            Sheet { dealt: 1, counted: 0, deal, sheet: Vec::new(), totals, seeds: DealSeeds::default(), redeals: 0 };
        (sheet, event)
    }

    /// Takes the seeds of the deals still to come as `seeds` says.
    pub(crate) fn set_deal_seeds(&mut self, seeds: DealSeeds) {
        self.seeds = seeds;
    }

    /// The current deal.
    pub(crate) fn deal(&self) -> &D {
        &self.deal
    }

    /// The current deal's number, from 1.
    pub(crate) fn number(&self) -> u32 {
        self.dealt
    }

    /// Deals finished that count towards the limit.
    pub(crate) fn counted(&self) -> u32 {
        self.counted
    }

    /// The rows so far.
    pub(crate) fn rows(&self) -> &[D::Row] {
        &self.sheet
    }

    /// The sheet with its rows before `first` left out.
    pub(crate) fn with_rows_from(&self, first: usize) -> Self
    where
        D: Clone,
        D::Row: Clone,
    {
        Sheet {
            dealt: self.dealt,
            counted: self.counted,
            deal: self.deal.clone(),
            sheet: rows_from(&self.sheet, first),
            totals: self.totals.clone(),
            seeds: self.seeds,
            redeals: self.redeals,
        }
    }

    /// Each seat's total.
    pub(crate) fn totals(&self) -> &[i32] {
        &self.totals
    }

    /// Whether the series has played its last deal.
    pub(crate) fn is_over(&self) -> bool {
        self.deal.limit().is_some_and(|limit| self.counted >= limit)
    }

    /// The legal actions of `seat` in the current deal; none once the series is over.
    pub(crate) fn legal_actions(&self, seat: Seat) -> Vec<D::Action> {
        if self.is_over() { Vec::new() } else { self.deal.legal_actions(seat) }
    }

    /// Whether `seat` may take `action` now.
    pub(crate) fn check(&self, seat: Seat, action: D::Action) -> Result<(), RuleError> {
        if self.is_over() {
            return Err(RuleError::SeriesOver);
        }
        self.deal.check(seat, action)
    }

    /// Takes an action in the current deal; when it ends the deal, the row follows.
    pub(crate) fn apply(&mut self, seat: Seat, action: D::Action) -> Result<Vec<D::Event>, RuleError> {
        if self.is_over() {
            return Err(RuleError::SeriesOver);
        }
        let mut out = self.deal.apply(seat, action)?;
        if let Some(ended) = self.deal.ended() {
            self.score(ended, &mut out);
        }
        Ok(out)
    }

    fn score(&mut self, ended: Ended, out: &mut Vec<D::Event>) {
        if let Some((seat, points)) = ended.score {
            self.totals[seat.index()] += points;
        }
        if !ended.thrown_in {
            self.counted += 1;
        }
        let row = self.deal.row(self.dealt, ended.score.map_or(0, |(_, p)| p), self.totals.clone());
        self.sheet.push(row.clone());
        out.push(D::scored(row));
        if self.is_over() {
            out.push(D::series_over(self.totals.clone()));
        }
    }

    /// Deals the next deal once the current one is over: the next dealer clockwise, or the same
    /// dealer again after a thrown-in deal. Deal `k` (from 1) is shuffled with the master
    /// seed's stream `k − 1`, unless [`Sheet::set_deal_seeds`] chose otherwise.
    pub(crate) fn next_deal(&mut self, master: Seed) -> Result<Vec<D::Event>, RuleError> {
        if self.is_over() {
            return Err(RuleError::SeriesOver);
        }
        let Some(ended) = self.deal.ended() else {
            return Err(RuleError::DealNotOver);
        };
        let (dealer, redeals) = if ended.thrown_in {
            (self.deal.dealer(), self.redeals + 1)
        } else {
            (self.deal.dealer().next(self.deal.players()), 0)
        };
        let seed = self.seeds.seed(&master, self.dealt, self.counted, redeals);
        self.redeals = redeals;
        self.dealt += 1;
        let (deal, event) = D::deal(self.deal.rules(), self.dealt, dealer, seed);
        self.deal = deal;
        Ok(vec![event])
    }
}

/// The rows of a scoresheet from row `first` on (from 0): what a view of a long series
/// carries, its oldest rows left out.
pub(crate) fn rows_from<R: Clone>(rows: &[R], first: usize) -> Vec<R> {
    rows.get(first..).unwrap_or_default().to_vec()
}

/// Each seat's settlement: Σ over the others of (own total − their total).
pub(crate) fn settlement(totals: &[i32]) -> Vec<i32> {
    let n = totals.len() as i32;
    let sum: i32 = totals.iter().sum();
    totals.iter().map(|t| n * t - sum).collect()
}

/// Each seat's points in a deal where at most one seat scored.
pub(crate) fn deal_scores(players: u8, score: Option<(Seat, i32)>) -> Vec<i32> {
    let mut scores = vec![0; usize::from(players)];
    if let Some((seat, points)) = score {
        scores[seat.index()] = points;
    }
    scores
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pair_settles_the_difference_of_their_totals() {
        let totals = [10, -4, 0, 6];
        let got = settlement(&totals);
        for (i, t) in totals.iter().enumerate() {
            let expected: i32 = totals.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, u)| t - u).sum();
            assert_eq!(got[i], expected);
        }
        assert_eq!(got.iter().sum::<i32>(), 0);
    }
}
