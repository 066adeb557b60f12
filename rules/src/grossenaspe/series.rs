//! A series of Großenaspe deals at one table: the scribe, the scoresheet and the totals (§A2,
//! §A8).

use serde::{Deserialize, Serialize};

use super::deal::{Action, Contract, Deal, Outcome};
use super::event::Event;
use super::rules::Rules;
use super::view::DealView;
use crate::card::{Card, Pack, Suit};
use crate::error::RuleError;
use crate::options::RuleSetError;
use crate::seat::Seat;
use crate::seed::Seed;
use crate::sheet::{Sheet, holstein_sheet_deal, settlement};

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
    #[serde(flatten)]
    sheet: Sheet<Deal, ScoreRow>,
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

holstein_sheet_deal!(rules: Rules, limit: |rules| rules.deals, loss_factor: |rules| rules.loss_factor);

impl Series {
    /// Starts a series: draws the scribe; his left neighbour deals the first deal.
    ///
    /// # Errors
    /// [`RuleSetError`] if an option is out of range.
    pub fn new(rules: Rules, master: Seed) -> Result<(Series, Vec<Event>), RuleSetError> {
        rules.validate()?;
        let (scribe, turned) = draw_scribe(master, rules.players);
        let (sheet, dealt) = Sheet::new(rules, master, scribe.next(rules.players));
        Ok((Series { rules, master, scribe, sheet }, vec![Event::ScribeDrawn { scribe, turned }, dealt]))
    }

    /// The table's rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The scribe.
    pub fn scribe(&self) -> Seat {
        self.scribe
    }

    crate::sheet::holstein_sheet_series!();

    /// The series with the scoresheet's rows before `first` left out (see
    /// [`crate::GameEngine::with_rows_from`]); nothing else is changed.
    pub fn with_rows_from(&self, first: usize) -> Series {
        Series { rules: self.rules, master: self.master, scribe: self.scribe, sheet: self.sheet.with_rows_from(first) }
    }

    /// What `viewer` may see (`None`: a spectator).
    pub fn view(&self, viewer: Option<Seat>) -> SeriesView {
        self.view_from_row(viewer, 0)
    }

    /// [`Self::view`] with the scoresheet's rows from row `first` on (from 0): a long series'
    /// oldest rows left out, so that a snapshot of the table stays small however many deals
    /// were played (a server sends the newest rows that fit).
    pub fn view_from_row(&self, viewer: Option<Seat>, first: usize) -> SeriesView {
        let rows = self.scoresheet().get(first..).unwrap_or_default().to_vec();
        SeriesView { scoresheet: rows, ..self.view_without_rows(viewer) }
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
            counted: self.counted(),
            scribe: self.scribe,
            deal,
            scoresheet: Vec::new(),
            totals: self.totals().to_vec(),
            settlement: self.rules.cents.then(|| settlement(self.totals())),
            over: self.is_over(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn the_series_state_keeps_its_json_fields_and_round_trips() {
        let (mut series, _) = Series::new(Rules::grossenaspe(), Seed::from_u64(5)).expect("valid");
        for _ in 0..4 {
            let seat = series.deal().turn().expect("a turn");
            series.apply(seat, Action::Pass).expect("pass");
        }
        series.next_deal().expect("the next deal");
        let json = serde_json::to_string(&series).expect("serialisable");
        let keys = [
            "\"rules\"",
            "\"master\"",
            "\"scribe\"",
            "\"dealt\"",
            "\"counted\"",
            "\"deal\"",
            "\"sheet\"",
            "\"totals\"",
        ];
        let places: Vec<usize> = keys.iter().map(|k| json.find(k).expect("a field")).collect();
        assert!(places.windows(2).all(|w| w[0] < w[1]), "{json}");
        let back: Series = serde_json::from_str(&json).expect("round trip");
        assert_eq!(back, series);
    }
}
