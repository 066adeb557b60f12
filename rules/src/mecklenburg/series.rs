//! A series of Anseggerfips or Duttfips deals at one table: the scoresheet and the totals
//! (§B6, as §A8).

use serde::{Deserialize, Serialize};

use super::deal::{Action, Contract, Deal, Outcome};
use super::event::Event;
use super::rules::{AnseggerfipsRules, DuttfipsRules, GameRules, Rules};
use super::view::DealView;
use crate::error::RuleError;
use crate::options::RuleSetError;
use crate::seat::Seat;
use crate::seed::Seed;
use crate::sheet::{Sheet, holstein_sheet_deal, settlement};

/// One row of the scoresheet: one deal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "MecklenburgScoreRow"))]
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

/// A table's series of deals of one Mecklenburg game: [`Anseggerfips`] or [`Duttfips`]. The
/// first dealer is seat 3, so seat 0 is forehand (as in Prisdorf).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Series<R> {
    rules: R,
    master: Seed,
    #[serde(flatten)]
    sheet: Sheet<Deal, ScoreRow>,
}

/// A series of Anseggerfips.
pub type Anseggerfips = Series<AnseggerfipsRules>;

/// A series of Duttfips.
pub type Duttfips = Series<DuttfipsRules>;

/// A series as one viewer sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "MecklenburgSeriesView"))]
pub struct SeriesView {
    /// The current deal's number, from 1.
    pub number: u32,
    /// Deals finished that count towards the limit (thrown-in deals do not).
    pub counted: u32,
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

holstein_sheet_deal!(rules: Rules, limit: |rules| rules.deals(), loss_factor: |rules| rules.loss_factor());

impl<R: GameRules> Series<R> {
    /// Starts a series: seat 3 deals the first deal. Each deal's seed is derived from
    /// `master`, which must stay secret.
    ///
    /// # Errors
    /// [`RuleSetError`] if an option is out of range.
    pub fn new(rules: R, master: Seed) -> Result<(Series<R>, Vec<Event>), RuleSetError> {
        rules.rules().validate()?;
        let (sheet, dealt) = Sheet::new(rules.rules(), master, Seat(Deal::PLAYERS - 1));
        Ok((Series { rules, master, sheet }, vec![dealt]))
    }

    /// The table's rules.
    pub fn rules(&self) -> &R {
        &self.rules
    }

    crate::sheet::holstein_sheet_series!();

    /// The series with the scoresheet's rows before `first` left out (see
    /// [`crate::GameEngine::with_rows_from`]); nothing else is changed.
    pub fn with_rows_from(&self, first: usize) -> Series<R> {
        Series { rules: self.rules, master: self.master, sheet: self.sheet.with_rows_from(first) }
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
            deal,
            scoresheet: Vec::new(),
            totals: self.totals().to_vec(),
            settlement: self.deal().rules().cents().then(|| settlement(self.totals())),
            over: self.is_over(),
        }
    }
}
