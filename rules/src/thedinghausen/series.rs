//! A table's series of Thedinghausen rounds: the balances, the slips and the scoresheet (§C6,
//! §C7).

use serde::{Deserialize, Serialize};

use super::deal::{Action, Deal, Fipsen, Round};
use super::event::Event;
use super::rules::Rules;
use super::view::DealView;
use crate::card::Card;
use crate::deal::Seat;
use crate::error::RuleError;
use crate::ruleset::RuleSetError;
use crate::seed::Seed;

/// A row of the scoresheet: one per deal, and one per finished round after its last deal.
///
/// ```json
/// {"row": "deal", "number": 4, "round": 1, "dealer": 3, "trump_card": "SA",
///  "fipsen": {"seat": 2, "result": "lost"}, "tricks": [1, 0, 1, 2, 1], "counts": [10, 3, 6, 8, 5]}
/// {"row": "round", "round": 1, "winner": 0, "pot": 10, "balances": [9, -1, -6, -1, -1], "slips": [1, 0, 0, 0, 0]}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "ThedinghausenScoreRow"))]
#[serde(tag = "row", rename_all = "snake_case")]
pub enum ScoreRow {
    /// A deal.
    Deal {
        /// The deal's number in the series, from 1.
        number: u32,
        /// The round it was played in.
        round: u32,
        /// The dealer.
        dealer: Seat,
        /// The turned-up card.
        trump_card: Card,
        /// The fipsen announced, and how it ended.
        fipsen: Option<Fipsen>,
        /// Tricks each seat took in the deal.
        tricks: Vec<u8>,
        /// Each seat's round count after the deal.
        counts: Vec<u8>,
    },
    /// A finished round.
    Round {
        /// The round's number, from 1.
        round: u32,
        /// Who reached ten tricks first.
        winner: Seat,
        /// The pot he took.
        pot: i32,
        /// Each seat's balance after the round.
        balances: Vec<i32>,
        /// Each seat's slips after the round.
        slips: Vec<u32>,
    },
}

/// A table's series of Thedinghausen deals and rounds. The first dealer is seat 4, so seat 0
/// is forehand.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Series {
    rules: Rules,
    master: Seed,
    dealt: u32,
    deal: Deal,
    rounds_won: u32,
    sheet: Vec<ScoreRow>,
    /// The balances as the current deal began.
    base: Vec<i32>,
    balances: Vec<i32>,
    slips: Vec<u32>,
}

/// A series as one viewer sees it.
///
/// ```json
/// {"number": 4, "round": 1, "rounds_won": 0, "deal": {"...": "..."}, "scoresheet": [],
///  "totals": [-1, -1, -6, -1, -1], "pot": 10, "slips": [0, 0, 0, 0, 0], "over": false}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "ThedinghausenSeriesView"))]
pub struct SeriesView {
    /// The current deal's number, from 1.
    pub number: u32,
    /// The current round's number, from 1.
    pub round: u32,
    /// Rounds finished.
    pub rounds_won: u32,
    /// The current deal as the viewer may see it.
    pub deal: DealView,
    /// The scoresheet: a row per deal and per finished round.
    pub scoresheet: Vec<ScoreRow>,
    /// Each seat's balance (with the pot, they sum to zero).
    pub totals: Vec<i32>,
    /// The round pot.
    pub pot: i32,
    /// Each seat's slips (rounds won).
    pub slips: Vec<u32>,
    /// Whether the series has played its last round.
    pub over: bool,
}

impl Series {
    /// Starts a series: seat 4 deals the first deal, and every player antes for the first
    /// round. Each deal's seed is derived from `master`, which must stay secret.
    ///
    /// # Errors
    /// [`RuleSetError`] if an option is out of range.
    pub fn new(rules: Rules, master: Seed) -> Result<(Series, Vec<Event>), RuleSetError> {
        rules.validate()?;
        let (deal, dealt) = Deal::new(rules, 1, Seat(Deal::PLAYERS - 1), master.derive(0), Round::first());
        let n = usize::from(Deal::PLAYERS);
        let mut series = Series {
            rules,
            master,
            dealt: 1,
            deal,
            rounds_won: 0,
            sheet: Vec::new(),
            base: vec![0; n],
            balances: vec![0; n],
            slips: vec![0; n],
        };
        series.update_balances();
        Ok((series, vec![dealt]))
    }

    /// The table's rules.
    pub fn rules(&self) -> &Rules {
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

    /// Rounds finished.
    pub fn rounds_won(&self) -> u32 {
        self.rounds_won
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
            deal: self.deal.clone(),
            rounds_won: self.rounds_won,
            sheet: self.sheet.get(first..).unwrap_or_default().to_vec(),
            base: self.base.clone(),
            balances: self.balances.clone(),
            slips: self.slips.clone(),
        }
    }

    /// Each seat's balance now (antes and penalties of the running deal included).
    pub fn totals(&self) -> &[i32] {
        &self.balances
    }

    /// Each seat's slips.
    pub fn slips(&self) -> &[u32] {
        &self.slips
    }

    /// The round pot now.
    pub fn pot(&self) -> i32 {
        self.deal.pot()
    }

    /// Whether the series has played its last round.
    pub fn is_over(&self) -> bool {
        self.rules.rounds.is_some_and(|rounds| self.rounds_won >= rounds)
    }

    fn update_balances(&mut self) {
        let changes = self.deal.changes();
        for (i, b) in self.balances.iter_mut().enumerate() {
            *b = self.base[i] + changes[i];
        }
    }

    /// The legal actions of `seat` in the current deal; none once the series is over.
    pub fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        if self.is_over() { Vec::new() } else { self.deal.legal_actions(seat) }
    }

    /// Whether `seat` may take `action` now.
    ///
    /// # Errors
    /// The error [`Series::apply`] would return.
    pub fn check(&self, seat: Seat, action: Action) -> Result<(), RuleError> {
        if self.is_over() {
            return Err(RuleError::SeriesOver);
        }
        self.deal.check(seat, action)
    }

    /// Applies an action in the current deal; when it ends the deal, the deal's row follows,
    /// then the round's when it was won, then the end of the series after its last round.
    ///
    /// # Errors
    /// A [`RuleError`]; the series is then unchanged.
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, RuleError> {
        if self.is_over() {
            return Err(RuleError::SeriesOver);
        }
        let mut out = self.deal.apply(seat, action)?;
        self.update_balances();
        if let Some(outcome) = self.deal.outcome().cloned() {
            let row = ScoreRow::Deal {
                number: self.dealt,
                round: self.deal.round().number,
                dealer: self.deal.dealer(),
                trump_card: self.deal.trump_card(),
                fipsen: outcome.fipsen,
                tricks: outcome.tricks,
                counts: outcome.counts,
            };
            self.sheet.push(row.clone());
            out.push(Event::Scored { row });
            if let Some(winner) = outcome.winner {
                self.slips[winner.index()] += 1;
                self.rounds_won += 1;
                let row = ScoreRow::Round {
                    round: self.deal.round().number,
                    winner,
                    pot: outcome.pot,
                    balances: self.balances.clone(),
                    slips: self.slips.clone(),
                };
                self.sheet.push(row.clone());
                out.push(Event::Scored { row });
                if self.is_over() {
                    out.push(Event::SeriesOver { balances: self.balances.clone(), slips: self.slips.clone() });
                }
            }
        }
        Ok(out)
    }

    /// Deals the next deal once the current one is over: the next dealer clockwise, in the same
    /// round or, once it was won, a new one with fresh antes. Deal `k` (from 1) is shuffled
    /// with the master seed's stream `k − 1`.
    ///
    /// # Errors
    /// [`RuleError::DealNotOver`] while the deal is on, [`RuleError::SeriesOver`] after the last
    /// round.
    pub fn next_deal(&mut self) -> Result<Vec<Event>, RuleError> {
        if self.is_over() {
            return Err(RuleError::SeriesOver);
        }
        if !self.deal.is_over() {
            return Err(RuleError::DealNotOver);
        }
        let dealer = self.deal.dealer().next(Deal::PLAYERS);
        let round = self.deal.next_round();
        let seed = self.master.derive(u64::from(self.dealt));
        self.dealt += 1;
        let (deal, event) = Deal::new(self.rules, self.dealt, dealer, seed, round);
        self.deal = deal;
        self.base = self.balances.clone();
        self.update_balances();
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
        let mut deal = self.deal.view(viewer);
        if self.is_over() {
            deal.prompt = Default::default();
        }
        SeriesView {
            number: self.dealt,
            round: self.deal.round().number,
            rounds_won: self.rounds_won,
            deal,
            scoresheet: Vec::new(),
            totals: self.balances.clone(),
            pot: self.deal.pot(),
            slips: self.slips.clone(),
            over: self.is_over(),
        }
    }
}
