//! A series of Großenaspe deals at one table: the scribe, the scoresheet and the totals (§A2,
//! §A8).

use serde::{Deserialize, Serialize};

use super::deal::{Action, Contract, Deal, Outcome};
use super::event::Event;
use super::rules::Rules;
use super::view::DealView;
use crate::card::{Card, Pack, Suit};
use crate::deal::Seat;
use crate::error::RuleError;
use crate::ruleset::RuleSetError;
use crate::seed::Seed;

/// The stream of the master seed the scribe is drawn from; deals use streams 0, 1, 2, …
const SCRIBE_STREAM: u64 = u64::MAX;

/// One row of the scoresheet: one deal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "GrossenaspeScoreRow"))]
pub struct ScoreRow {
    /// The deal's number in the series, from 1 (thrown-in deals included).
    pub number: u32,
    /// The dealer.
    pub dealer: Seat,
    /// The declarer; none for a thrown-in deal.
    pub declarer: Option<Seat>,
    /// What the auction's winner owed.
    pub contract: Option<Contract>,
    /// How the deal ended, with the game as played.
    pub outcome: Outcome,
    /// The points scored by the declarer; 0 for a thrown-in deal.
    pub value: i32,
    /// Each seat's running total after this deal.
    pub totals: Vec<i32>,
}

/// A table's series of Großenaspe deals.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Series {
    rules: Rules,
    master: Seed,
    scribe: Seat,
    dealt: u32,
    counted: u32,
    deal: Deal,
    sheet: Vec<ScoreRow>,
    totals: Vec<i32>,
}

/// A series as one viewer sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "GrossenaspeSeriesView"))]
pub struct SeriesView {
    /// The current deal's number, from 1.
    pub number: u32,
    /// Deals finished that count towards the limit (thrown-in deals do not).
    pub counted: u32,
    /// The scribe, named on the sheet.
    pub scribe: Seat,
    /// The current deal as the viewer may see it.
    pub deal: DealView,
    /// The scoresheet, one row per finished deal.
    pub scoresheet: Vec<ScoreRow>,
    /// Each seat's total (in cents with the `cents` option: 1 point = 1 cent).
    pub totals: Vec<i32>,
    /// With the `cents` option: what each seat receives (negative: pays) when every pair of
    /// players settles the difference of their totals.
    pub settlement: Option<Vec<i32>>,
    /// Whether the series has reached its last deal.
    pub over: bool,
}

/// Turns cards of a fresh shuffle to seats 0, 1, 2, … until a club turns up: that seat is the
/// scribe. Returns him and the cards turned.
pub fn draw_scribe(master: Seed, players: u8) -> (Seat, Vec<Card>) {
    let pack = master.derive(SCRIBE_STREAM).shuffle_pack(Pack::P32);
    let mut turned = Vec::new();
    for (i, card) in pack.into_iter().enumerate() {
        turned.push(card);
        if card.suit() == Suit::Clubs {
            return (Seat((i % usize::from(players)) as u8), turned);
        }
    }
    (Seat(0), turned)
}

/// Each seat's settlement: Σ over the others of (own total − their total).
pub fn settlement(totals: &[i32]) -> Vec<i32> {
    let n = totals.len() as i32;
    let sum: i32 = totals.iter().sum();
    totals.iter().map(|t| n * t - sum).collect()
}

impl Series {
    /// Starts a series: draws the scribe; his left neighbour deals the first deal.
    ///
    /// # Errors
    /// [`RuleSetError`] if an option is out of range.
    pub fn new(rules: Rules, master: Seed) -> Result<(Series, Vec<Event>), RuleSetError> {
        rules.validate()?;
        let n = rules.players;
        let (scribe, turned) = draw_scribe(master, n);
        let dealer = scribe.next(n);
        let (deal, dealt) = Deal::new(rules, 1, dealer, master.derive(0));
        let series = Series {
            rules,
            master,
            scribe,
            dealt: 1,
            counted: 0,
            deal,
            sheet: Vec::new(),
            totals: vec![0; usize::from(n)],
        };
        Ok((series, vec![Event::ScribeDrawn { scribe, turned }, dealt]))
    }

    /// The table's rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The scribe.
    pub fn scribe(&self) -> Seat {
        self.scribe
    }

    /// The current deal.
    pub fn deal(&self) -> &Deal {
        &self.deal
    }

    /// The current deal's number, from 1.
    pub fn number(&self) -> u32 {
        self.dealt
    }

    /// Deals finished that count towards the limit.
    pub fn counted(&self) -> u32 {
        self.counted
    }

    /// The scoresheet so far.
    pub fn scoresheet(&self) -> &[ScoreRow] {
        &self.sheet
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

    /// Applies an action in the current deal; when it ends the deal, the scoresheet row follows.
    ///
    /// # Errors
    /// A [`RuleError`]; the series is then unchanged.
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, RuleError> {
        if self.is_over() {
            return Err(RuleError::SeriesOver);
        }
        let mut out = self.deal.apply(seat, action)?;
        if let Some(outcome) = self.deal.outcome() {
            self.score(outcome, &mut out);
        }
        Ok(out)
    }

    fn score(&mut self, outcome: Outcome, out: &mut Vec<Event>) {
        let scored = outcome.score(self.rules.loss_factor);
        if let Some((seat, points)) = scored {
            self.totals[seat.index()] += points;
        }
        if outcome != Outcome::ThrownIn {
            self.counted += 1;
        }
        let row = ScoreRow {
            number: self.dealt,
            dealer: self.deal.dealer(),
            declarer: self.deal.declarer(),
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
    /// dealer again after a thrown-in deal.
    ///
    /// # Errors
    /// [`RuleError::DealNotOver`] while the deal is on, [`RuleError::SeriesOver`] after the last.
    pub fn next_deal(&mut self) -> Result<Vec<Event>, RuleError> {
        if self.is_over() {
            return Err(RuleError::SeriesOver);
        }
        let Some(outcome) = self.deal.outcome() else {
            return Err(RuleError::DealNotOver);
        };
        let dealer = match outcome {
            Outcome::ThrownIn => self.deal.dealer(),
            _ => self.deal.dealer().next(self.rules.players),
        };
        let seed = self.master.derive(u64::from(self.dealt));
        self.dealt += 1;
        let (deal, event) = Deal::new(self.rules, self.dealt, dealer, seed);
        self.deal = deal;
        Ok(vec![event])
    }

    /// What `viewer` may see (`None`: a spectator).
    pub fn view(&self, viewer: Option<Seat>) -> SeriesView {
        let mut deal = self.deal.view(viewer);
        if self.is_over() {
            deal.prompt = Default::default();
        }
        SeriesView {
            number: self.dealt,
            counted: self.counted,
            scribe: self.scribe,
            deal,
            scoresheet: self.sheet.clone(),
            totals: self.totals.clone(),
            settlement: self.rules.cents.then(|| settlement(&self.totals)),
            over: self.is_over(),
        }
    }
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

    #[test]
    fn the_scribe_is_the_seat_the_first_club_is_turned_to() {
        for m in 0..50u64 {
            let master = Seed::from_u64(m);
            for players in 3..=5u8 {
                let (scribe, turned) = draw_scribe(master, players);
                let last = turned.last().copied().expect("a card");
                assert_eq!(last.suit(), Suit::Clubs);
                assert!(turned[..turned.len() - 1].iter().all(|c| c.suit() != Suit::Clubs));
                assert_eq!(usize::from(scribe.0), (turned.len() - 1) % usize::from(players));
            }
        }
    }
}
