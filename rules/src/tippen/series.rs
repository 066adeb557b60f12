//! A table's series of Tippen deals: the balances, pot and reserve carried from deal to deal,
//! the first dealer, and the scoresheet (§D8).

use serde::{Deserialize, Serialize};

use super::deal::{Action, Carry, Deal, Decision, Hop};
use super::event::Event;
use super::rules::{Preset, Rules, Sniffing};
use super::view::DealView;
use crate::card::{Card, Rank};
use crate::error::RuleError;
use crate::options::RuleSetError;
use crate::run::{Balances, Run};
use crate::seat::Seat;
use crate::seed::Seed;
use crate::sheet::rows_from;

/// A row of the scoresheet: one per deal.
///
/// ```json
/// {"number": 2, "due": 0, "dealer": 0, "shoves": [], "hops": [], "antes": [3, 0, 0, 0],
///  "carry": 6, "played_for": 9, "reserve": 0, "knocked": false, "sniffed": null,
///  "decisions": [{"seat": 1, "choice": "join"}], "active": [1, 3, 0], "void": false,
///  "alone": null, "tricks": [0, 1, 0, 2], "receipts": [0, 3, 0, 6], "payments": [9, 0, 0, 0],
///  "pot": 9, "balances": [-12, 4, -3, 2]}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "TippenScoreRow"))]
pub struct ScoreRow {
    /// The deal's number, from 1.
    pub number: u32,
    /// The seat that was due to deal.
    pub due: Seat,
    /// The seat that dealt.
    pub dealer: Seat,
    /// The dealers who shoved.
    pub shoves: Vec<Seat>,
    /// The bottom cards shown by hop and jump.
    pub hops: Vec<Hop>,
    /// What each seat anted.
    pub antes: Vec<i32>,
    /// Pot and reserve before the first ante.
    pub carry: i32,
    /// The pot played for, P.
    pub played_for: i32,
    /// The reserve kept aside in this deal.
    pub reserve: i32,
    /// Whether the dealer knocked.
    pub knocked: bool,
    /// How the dealer sniffed.
    pub sniffed: Option<Sniffing>,
    /// The answers.
    pub decisions: Vec<Decision>,
    /// Who played.
    pub active: Vec<Seat>,
    /// Nobody played.
    pub void: bool,
    /// The single player who took the pot.
    pub alone: Option<Seat>,
    /// Tricks each seat took.
    pub tricks: Vec<u8>,
    /// What each seat received from the pot.
    pub receipts: Vec<i32>,
    /// What each seat paid besides his ante.
    pub payments: Vec<i32>,
    /// The pot after the deal.
    pub pot: i32,
    /// Each seat's balance after the deal.
    pub balances: Vec<i32>,
}

/// The balance, either way, after which a series closes its books. A deal moves a balance by
/// at most four times the largest `max_pot` (a share of the pot, a bête or a penalty of twice
/// it, antes within it), so no balance ever leaves the range the counters are kept in, however
/// long the series.
pub const BALANCE_CEILING: u32 = 1_000_000_000;

/// A table's series of Tippen deals.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Series {
    rules: Rules,
    master: Seed,
    first_dealer: Seat,
    #[serde(flatten)]
    run: Run<Deal, ScoreRow>,
    #[serde(flatten)]
    balances: Balances,
}

/// A series as one viewer sees it.
///
/// ```json
/// {"number": 2, "first_dealer": 3, "deal": {"...": "..."}, "scoresheet": [],
///  "totals": [-3, 2, -6, -1], "pot": 8, "reserve": 0, "over": false}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "TippenSeriesView"))]
pub struct SeriesView {
    /// The current deal's number, from 1.
    pub number: u32,
    /// The seat that dealt the first deal.
    pub first_dealer: Seat,
    /// The current deal as the viewer may see it.
    pub deal: DealView,
    /// The scoresheet: a row per finished deal.
    pub scoresheet: Vec<ScoreRow>,
    /// Each seat's balance (with pot and reserve, they sum to zero).
    pub totals: Vec<i32>,
    /// The pot.
    pub pot: i32,
    /// The reserve.
    pub reserve: i32,
    /// Whether the series has played its last deal.
    pub over: bool,
}

/// The first dealer (§D8): in 1859 and Vierblatt the cards of a fresh shuffle are dealt face up
/// from seat 0 clockwise until an ace appears, and that seat deals; otherwise the last seat,
/// as in Prisdorf, so that seat 0 is forehand. Returns the seat and the cards shown.
pub fn first_dealer(rules: &Rules, master: Seed) -> (Seat, Vec<Card>) {
    let n = rules.players;
    if !matches!(rules.preset, Preset::Dreiblatt1859 | Preset::Vierblatt) {
        return (Seat(n - 1), Vec::new());
    }
    let pack = master.derive(u64::MAX).shuffle_pack(rules.pack());
    let mut shown = Vec::new();
    for (i, &card) in pack.iter().enumerate() {
        shown.push(card);
        if card.rank() == Rank::Ace {
            return (Seat((i % usize::from(n)) as u8), shown);
        }
    }
    (Seat(n - 1), shown)
}

impl Series {
    /// Starts a series: the first dealer is found (§D8) and antes; deal `k` (from 1) is
    /// shuffled with the master seed's stream `k − 1`, which must stay secret.
    ///
    /// # Errors
    /// [`RuleSetError`] if an option is out of range.
    pub fn new(rules: Rules, master: Seed) -> Result<(Series, Vec<Event>), RuleSetError> {
        rules.validate()?;
        let (first, shown) = first_dealer(&rules, master);
        let mut events = Vec::new();
        if !shown.is_empty() {
            events.push(Event::FirstDealer { seat: first, cards: shown });
        }
        let (deal, more) = Deal::new(rules, 1, first, master.derive(0), Carry::default());
        events.extend(more);
        let balances = Balances::new(deal.changes());
        Ok((Series { rules, master, first_dealer: first, run: Run::new(deal), balances }, events))
    }

    /// The table's rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The current deal.
    pub fn deal(&self) -> &Deal {
        self.run.deal()
    }

    /// The current deal's number, from 1: every deal dealt counts, void ones included.
    pub fn number(&self) -> u32 {
        self.run.number()
    }

    /// The seat that dealt the first deal.
    pub fn first_dealer(&self) -> Seat {
        self.first_dealer
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

    /// Each seat's balance now (the running deal's antes and payments included).
    pub fn totals(&self) -> &[i32] {
        self.balances.now()
    }

    /// The pot now.
    pub fn pot(&self) -> i32 {
        self.deal().pot()
    }

    /// The reserve now.
    pub fn reserve(&self) -> i32 {
        self.deal().reserve()
    }

    /// Whether the series has played its last deal: the deals the table chose, or, in a series
    /// without an end, the deal that leaves a balance at [`BALANCE_CEILING`] or beyond (or the
    /// last deal a series can number).
    pub fn is_over(&self) -> bool {
        self.deal().is_over()
            && (self.rules.deals.is_some_and(|deals| self.number() >= deals)
                || self.number() == u32::MAX
                || self.totals().iter().any(|b| b.unsigned_abs() >= BALANCE_CEILING))
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
        let d = self.run.deal();
        self.balances.update(d.changes());
        if let Some(outcome) = d.outcome().cloned() {
            let row = ScoreRow {
                number: self.number(),
                due: d.due(),
                dealer: d.dealer(),
                shoves: d.shoves().to_vec(),
                hops: d.hops().to_vec(),
                antes: d.antes().to_vec(),
                carry: d.carry().total(),
                played_for: d.played_for(),
                reserve: d.reserve(),
                knocked: d.knocked(),
                sniffed: d.sniffed(),
                decisions: d.decisions().to_vec(),
                active: outcome.active,
                void: outcome.void,
                alone: outcome.alone,
                tricks: outcome.tricks,
                receipts: outcome.receipts,
                payments: outcome.payments,
                pot: outcome.pot,
                balances: self.totals().to_vec(),
            };
            self.run.score(row, &mut out, |row| Event::Scored { row });
            if self.is_over() {
                out.push(Event::SeriesOver {
                    balances: self.totals().to_vec(),
                    pot: self.pot(),
                    reserve: self.reserve(),
                });
            }
        }
        Ok(out)
    }

    /// Deals the next deal once the current one is over: the seat left of this deal's last
    /// dealer is due to deal, with pot and reserve carried over. Deal `k` (from 1) is shuffled
    /// with the master seed's stream `k − 1`.
    ///
    /// # Errors
    /// [`RuleError::DealNotOver`] while the deal is on, [`RuleError::SeriesOver`] after the last
    /// deal.
    pub fn next_deal(&mut self) -> Result<Vec<Event>, RuleError> {
        let (over, finished, rules) = (self.is_over(), self.deal().is_over(), self.rules);
        let events = self.run.next_deal(over, finished, self.master, |number, seed, last| {
            let carry = Carry { pot: last.pot(), reserve: last.reserve() };
            Deal::new(rules, number, last.dealer().next(rules.players), seed, carry)
        })?;
        self.balances.carry(self.run.deal().changes());
        Ok(events)
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
    /// scoresheet; its balances, pot and reserve only if `whole`.
    fn series_view(&self, mut deal: DealView, whole: bool) -> SeriesView {
        if self.is_over() {
            deal.prompt = Default::default();
        }
        SeriesView {
            number: self.number(),
            first_dealer: self.first_dealer,
            deal,
            scoresheet: Vec::new(),
            totals: if whole { self.totals().to_vec() } else { Vec::new() },
            pot: if whole { self.pot() } else { 0 },
            reserve: if whole { self.reserve() } else { 0 },
            over: self.is_over(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays the current deal out, everyone joining where asked.
    fn finish_deal(series: &mut Series) {
        while !series.deal().is_over() {
            let seat = series.deal().turn().expect("someone acts");
            let legal = series.legal_actions(seat);
            let action = if legal.contains(&Action::Join) { Action::Join } else { legal[0] };
            series.apply(seat, action).expect("legal");
        }
    }

    /// Moves `amount` from seat 1's balance to seat 0's, as a long series might have.
    fn shift(series: &mut Series, amount: i32) {
        for (seat, by) in [(0, amount), (1, -amount)] {
            series.balances.shift(seat, by);
        }
    }

    #[test]
    fn an_open_series_closes_its_books_after_a_deal_that_leaves_a_balance_at_the_ceiling() {
        let rules = Rules::preset(Preset::Meyers1905, 3);
        let (mut series, _) = Series::new(rules, Seed::from_u64(4)).expect("valid");
        finish_deal(&mut series);
        assert!(!series.is_over(), "an open series goes on");
        series.next_deal().expect("next");
        // A thousand above, more than this deal can move a balance back.
        shift(&mut series, BALANCE_CEILING as i32 + 1_000);
        assert!(!series.is_over(), "not while the deal runs");
        finish_deal(&mut series);
        assert!(series.is_over(), "{:?}", series.totals());
        assert_eq!(series.next_deal(), Err(RuleError::SeriesOver));
        assert!(series.view(None).over);
        let sum: i64 = series.totals().iter().map(|&b| i64::from(b)).sum();
        assert_eq!(sum + i64::from(series.pot()) + i64::from(series.reserve()), 0);
    }

    #[test]
    fn a_series_below_the_ceiling_goes_on() {
        let rules = Rules::preset(Preset::Meyers1905, 3);
        let (mut series, _) = Series::new(rules, Seed::from_u64(4)).expect("valid");
        shift(&mut series, BALANCE_CEILING as i32 / 2);
        finish_deal(&mut series);
        assert!(!series.is_over());
        assert!(series.next_deal().is_ok());
    }
}
