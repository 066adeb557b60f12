//! A table's series of Thedinghausen rounds: the balances, the slips and the scoresheet (§C6,
//! §C7).

use serde::{Deserialize, Serialize};

use super::deal::{Action, Deal, Fipsen, Round};
use super::event::Event;
use super::rules::Rules;
use super::view::DealView;
use crate::card::Card;
use crate::error::RuleError;
use crate::options::RuleSetError;
use crate::run::{Balances, Run};
use crate::seat::Seat;
use crate::seed::Seed;
use crate::sheet::rows_from;

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
    #[serde(flatten)]
    run: Run<Deal, ScoreRow>,
    rounds_won: u32,
    #[serde(flatten)]
    balances: Balances,
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
        let (balances, slips) = (Balances::new(&deal.changes()), vec![0; usize::from(Deal::PLAYERS)]);
        Ok((Series { rules, master, run: Run::new(deal), rounds_won: 0, balances, slips }, vec![dealt]))
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

    /// Rounds finished.
    pub fn rounds_won(&self) -> u32 {
        self.rounds_won
    }

    /// The scoresheet so far.
    pub fn scoresheet(&self) -> &[ScoreRow] {
        self.run.rows()
    }

    /// The series with the scoresheet's rows before `first` left out (see
    /// [`crate::GameEngine::with_rows_from`]); nothing else is changed.
    pub fn with_rows_from(&self, first: usize) -> Series {
        Series {
            run: self.run.with_rows_from(first),
            balances: self.balances.clone(),
            slips: self.slips.clone(),
            ..*self
        }
    }

    /// Each seat's balance now (antes and penalties of the running deal included).
    pub fn totals(&self) -> &[i32] {
        self.balances.now()
    }

    /// Each seat's slips.
    pub fn slips(&self) -> &[u32] {
        &self.slips
    }

    /// The round pot now.
    pub fn pot(&self) -> i32 {
        self.deal().pot()
    }

    /// Whether the series has played its last round.
    pub fn is_over(&self) -> bool {
        self.rules.rounds.is_some_and(|rounds| self.rounds_won >= rounds)
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
    /// then the round's when it was won, then the end of the series after its last round.
    ///
    /// # Errors
    /// A [`RuleError`]; the series is then unchanged.
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, RuleError> {
        let over = self.is_over();
        let mut out = self.run.open_mut(over)?.apply(seat, action)?;
        let deal = self.run.deal();
        self.balances.update(&deal.changes());
        if let Some(outcome) = deal.outcome().cloned() {
            let round = deal.round().number;
            let row = ScoreRow::Deal {
                number: self.number(),
                round,
                dealer: deal.dealer(),
                trump_card: deal.trump_card(),
                fipsen: outcome.fipsen,
                tricks: outcome.tricks,
                counts: outcome.counts,
            };
            self.run.score(row, &mut out, |row| Event::Scored { row });
            if let Some(winner) = outcome.winner {
                self.slips[winner.index()] += 1;
                self.rounds_won += 1;
                let balances = self.totals().to_vec();
                let row = ScoreRow::Round { round, winner, pot: outcome.pot, balances, slips: self.slips.clone() };
                self.run.score(row, &mut out, |row| Event::Scored { row });
                if self.is_over() {
                    out.push(Event::SeriesOver { balances: self.totals().to_vec(), slips: self.slips.clone() });
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
        let (over, finished, rules) = (self.is_over(), self.deal().is_over(), self.rules);
        let event = self.run.next_deal(over, finished, self.master, |number, seed, last| {
            Deal::new(rules, number, last.dealer().next(Deal::PLAYERS), seed, last.next_round())
        })?;
        self.balances.carry(&self.deal().changes());
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
        SeriesView { scoresheet: rows_from(self.scoresheet(), first), ..self.view_without_rows(viewer) }
    }

    /// [`Self::view`] with its scoresheet left empty: what changes from move to move (a
    /// server sends the rows as they are added).
    pub fn view_without_rows(&self, viewer: Option<Seat>) -> SeriesView {
        let mut deal = self.deal().view(viewer);
        if self.is_over() {
            deal.prompt = Default::default();
        }
        SeriesView {
            number: self.number(),
            round: self.deal().round().number,
            rounds_won: self.rounds_won,
            deal,
            scoresheet: Vec::new(),
            totals: self.totals().to_vec(),
            pot: self.pot(),
            slips: self.slips.clone(),
            over: self.is_over(),
        }
    }
}
