//! A Wippen match: games, sets and the scoresheet (§E2, §E11).

use serde::{Deserialize, Serialize};

use super::deal::Deal;
use super::event::Event;
use super::expr::Move;
use super::listing::Listing;
use super::rules::Rules;
use super::table::PileRef;
use super::view::DealView;
use crate::card::Card;
use crate::error::RuleError;
use crate::options::RuleSetError;
use crate::run::Run;
use crate::seat::Seat;
use crate::seed::Seed;
use crate::sheet::rows_from;

/// A row of the scoresheet: one per game.
///
/// ```json
/// {"number": 1, "set": 1, "dealer": 1, "cards": [29, 23], "spades": [8, 5], "aces": [3, 1],
///  "good_ten": 0, "good_two": 0, "sweeps": [2, 0], "leftover_to": 0, "points": [12, 1],
///  "totals": [12, 1]}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "WippenScoreRow"))]
pub struct ScoreRow {
    /// The game's number in the match, from 1.
    pub number: u32,
    /// The set's number, from 1.
    pub set: u32,
    /// The dealer.
    pub dealer: Seat,
    /// Cards each seat captured.
    pub cards: Vec<u8>,
    /// Spades each seat captured.
    pub spades: Vec<u8>,
    /// Aces each seat captured.
    pub aces: Vec<u8>,
    /// Who took ♦10.
    pub good_ten: Option<Seat>,
    /// Who took ♠2.
    pub good_two: Option<Seat>,
    /// Sweeps each seat made.
    pub sweeps: Vec<u8>,
    /// Who took the cards left at the end.
    pub leftover_to: Option<Seat>,
    /// Each seat's points for the game.
    pub points: Vec<i32>,
    /// Each seat's total after the game.
    pub totals: Vec<i32>,
}

/// A table's Wippen match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Series {
    rules: Rules,
    master: Seed,
    first_dealer: Seat,
    #[serde(flatten)]
    run: Run<Deal, ScoreRow>,
    totals: Vec<i32>,
}

/// A match as one viewer sees it.
///
/// ```json
/// {"number": 1, "set": 1, "games": 2, "first_dealer": 1, "deal": {"...": "..."},
///  "scoresheet": [], "totals": [0, 0], "over": false, "winners": []}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "WippenSeriesView"))]
pub struct SeriesView {
    /// The current game's number, from 1.
    pub number: u32,
    /// The current set's number, from 1.
    pub set: u32,
    /// Games in the match.
    pub games: u32,
    /// The seat that dealt the first game.
    pub first_dealer: Seat,
    /// The current game as the viewer may see it.
    pub deal: DealView,
    /// The scoresheet: a row per finished game.
    pub scoresheet: Vec<ScoreRow>,
    /// Each seat's total.
    pub totals: Vec<i32>,
    /// Whether the match is over.
    pub over: bool,
    /// The seats with the highest total once the match is over.
    pub winners: Vec<Seat>,
}

impl Series {
    /// Starts a match: the last seat deals the first game (so seat 0 plays first); game `k`
    /// (from 1) is shuffled with the master seed's stream `k − 1`, which must stay secret.
    ///
    /// # Errors
    /// [`RuleSetError`] if an option is out of range.
    pub fn new(rules: Rules, master: Seed) -> Result<(Series, Vec<Event>), RuleSetError> {
        rules.validate()?;
        let first = Seat(rules.players - 1);
        let (deal, events) = Deal::new(rules, 1, first, master.derive(0));
        let totals = vec![0; usize::from(rules.players)];
        Ok((Series { rules, master, first_dealer: first, run: Run::new(deal), totals }, events))
    }

    /// The table's rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The current game.
    pub fn deal(&self) -> &Deal {
        self.run.deal()
    }

    /// The current game's number, from 1.
    pub fn number(&self) -> u32 {
        self.run.number()
    }

    /// The current set's number, from 1.
    pub fn set(&self) -> u32 {
        (self.number() - 1) / u32::from(self.rules.players) + 1
    }

    /// The scoresheet so far.
    pub fn scoresheet(&self) -> &[ScoreRow] {
        self.run.rows()
    }

    /// The series with the scoresheet's rows before `first` left out (see
    /// [`crate::GameEngine::with_rows_from`]); nothing else is changed.
    pub fn with_rows_from(&self, first: usize) -> Series {
        Series { run: self.run.with_rows_from(first), totals: self.totals.clone(), ..*self }
    }

    /// Each seat's total.
    pub fn totals(&self) -> &[i32] {
        &self.totals
    }

    /// Whether the match has played its last game.
    pub fn is_over(&self) -> bool {
        self.number() >= self.rules.games() && self.deal().is_over()
    }

    /// The seats with the highest total (all of them tied share the win).
    pub fn leaders(&self) -> Vec<Seat> {
        let best = self.totals.iter().copied().max().unwrap_or(0);
        (0..self.totals.len()).filter(|&i| self.totals[i] == best).map(|i| Seat(i as u8)).collect()
    }

    /// The simple moves of `seat` (see [`Deal::legal_actions`]); none once the match is over.
    pub fn legal_actions(&self, seat: Seat) -> Vec<Move> {
        self.run.open(self.is_over()).map_or_else(|_| Vec::new(), |deal| deal.legal_actions(seat))
    }

    /// The structured listing of `seat`'s legal moves (§E9).
    pub fn listing(&self, seat: Seat) -> Listing {
        self.deal().listing(seat)
    }

    /// Every legal move of `seat` with `card` using exactly `piles`, each with one witness
    /// grouping (§E9, selections).
    ///
    /// # Errors
    /// The match or game is over, not his turn, the card is not his, a pile is unknown or
    /// named twice.
    pub fn options(&self, seat: Seat, card: Card, piles: &[PileRef]) -> Result<Vec<Move>, RuleError> {
        self.run.open(self.is_over())?.options(seat, card, piles)
    }

    /// Whether `seat` may make `mv` now.
    ///
    /// # Errors
    /// The error [`Series::apply`] would return.
    pub fn check(&self, seat: Seat, mv: &Move) -> Result<(), RuleError> {
        self.run.open(self.is_over())?.check(seat, mv)
    }

    /// Makes a move in the current game; when it ends the game, the game's row follows, then
    /// the end of the match after its last game.
    ///
    /// # Errors
    /// A [`RuleError`]; the match is then unchanged.
    pub fn apply(&mut self, seat: Seat, mv: Move) -> Result<Vec<Event>, RuleError> {
        let over = self.is_over();
        let mut out = self.run.open_mut(over)?.apply(seat, mv)?;
        if let Some(o) = self.deal().outcome().cloned() {
            for (t, p) in self.totals.iter_mut().zip(&o.points) {
                *t += p;
            }
            let row = ScoreRow {
                number: self.number(),
                set: self.set(),
                dealer: self.deal().dealer(),
                cards: o.cards,
                spades: o.spades,
                aces: o.aces,
                good_ten: o.good_ten,
                good_two: o.good_two,
                sweeps: o.sweeps,
                leftover_to: o.leftover_to,
                points: o.points,
                totals: self.totals.clone(),
            };
            self.run.score(row, &mut out, |row| Event::Scored { row });
            if self.is_over() {
                out.push(Event::MatchOver { totals: self.totals.clone(), winners: self.leaders() });
            }
        }
        Ok(out)
    }

    /// Deals the next game once the current one is over, the deal passing clockwise.
    ///
    /// # Errors
    /// [`RuleError::DealNotOver`] while the game is on, [`RuleError::SeriesOver`] after the
    /// last game.
    pub fn next_deal(&mut self) -> Result<Vec<Event>, RuleError> {
        let (over, finished, rules) = (self.is_over(), self.deal().is_over(), self.rules);
        self.run.next_deal(over, finished, self.master, |number, seed, last| {
            Deal::new(rules, number, last.dealer().next(rules.players), seed)
        })
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

    /// [`Series::view_without_rows`] with only the fields that differ from viewer to viewer
    /// filled in as the view has them (see [`Deal::own_view`]); the others are left empty.
    pub fn own_view(&self, viewer: Option<Seat>) -> SeriesView {
        self.series_view(self.deal().own_view(viewer), false)
    }

    /// [`Self::view`] with its scoresheet left empty: what changes from move to move (a
    /// server sends the rows as they are added).
    pub fn view_without_rows(&self, viewer: Option<Seat>) -> SeriesView {
        self.series_view(self.deal().view(viewer), true)
    }

    /// The series around a view of its deal (no prompt once the series is over), without its
    /// scoresheet; its totals and winners only if `whole`.
    fn series_view(&self, mut deal: DealView, whole: bool) -> SeriesView {
        if self.is_over() {
            deal.prompt = Default::default();
        }
        SeriesView {
            number: self.number(),
            set: self.set(),
            games: self.rules.games(),
            first_dealer: self.first_dealer,
            deal,
            scoresheet: Vec::new(),
            totals: if whole { self.totals.clone() } else { Vec::new() },
            over: self.is_over(),
            winners: if whole && self.is_over() { self.leaders() } else { Vec::new() },
        }
    }
}
