//! Wippen as a game of the platform ([`GameEngine`]).

use crate::engine::{GameEngine, Prepared, json};
use crate::error::RuleError;
use crate::games::GameId;
use crate::options::RuleSetError;
use crate::seat::Seat;
use crate::seed::Seed;
use crate::wippen;

/// Wippen: no tricks; a "deal" of the engine is one game (one pass through the pack with one
/// dealer), and a match lasts players × sets games.
impl GameEngine for wippen::Series {
    type Rules = wippen::Rules;
    type Action = wippen::Move;
    type Event = wippen::Event;
    type View = wippen::SeriesView;
    type Query = wippen::Selection;
    type Answer = wippen::Options;

    const ID: GameId = GameId::Wippen;

    /// The reach table of the rules' operators and group limit (under a second of CPU and about
    /// 11 MiB for groups of six piles; BENCHMARKS.md), which every listing of moves would
    /// otherwise wait for: held, it is shared by every room of those rules, and its memory given
    /// back after the last one.
    const PREPARES: bool = true;

    fn prepare(rules: &wippen::Rules) -> Prepared {
        Prepared::new(wippen::prepare(rules))
    }

    /// The moves with one hand card and exactly the chosen table piles (§E9, selections).
    fn query(&self, seat: Seat, query: &wippen::Selection) -> Result<wippen::Options, RuleError> {
        let moves = self.options(seat, query.card, &query.piles)?;
        Ok(wippen::Options { card: query.card, piles: query.piles.clone(), moves })
    }

    fn start(rules: wippen::Rules, master: Seed) -> Result<(Self, Vec<wippen::Event>), RuleSetError> {
        wippen::Series::new(rules, master)
    }

    fn rules(&self) -> &wippen::Rules {
        wippen::Series::rules(self)
    }

    fn validate(rules: &wippen::Rules) -> Result<(), RuleSetError> {
        rules.validate()
    }

    fn seats_of(rules: &wippen::Rules) -> usize {
        usize::from(rules.players)
    }

    fn deals_of(rules: &wippen::Rules) -> Option<u32> {
        Some(rules.games())
    }

    fn action_kind(action: &wippen::Move) -> &'static str {
        action.kind()
    }

    fn clear_prompt(view: &mut wippen::SeriesView) {
        view.deal.prompt = wippen::Prompt::default();
    }

    fn deal_number(&self) -> u32 {
        self.number()
    }

    fn turn(&self) -> Option<Seat> {
        if self.is_over() { None } else { self.deal().turn() }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<wippen::Move> {
        wippen::Series::legal_actions(self, seat)
    }

    /// The player on turn always has a move: a discard, or, when a kept promise forbids it,
    /// the capture of his own building with the card of its value.
    fn can_act(&self, seat: Seat) -> bool {
        GameEngine::turn(self) == Some(seat)
    }

    fn check(&self, seat: Seat, action: wippen::Move) -> Result<(), RuleError> {
        wippen::Series::check(self, seat, &action)
    }

    fn apply(&mut self, seat: Seat, action: wippen::Move) -> Result<Vec<wippen::Event>, RuleError> {
        wippen::Series::apply(self, seat, action)
    }

    fn deal_over(&self) -> bool {
        self.deal().is_over()
    }

    fn series_over(&self) -> bool {
        self.is_over()
    }

    fn next_deal(&mut self) -> Result<Vec<wippen::Event>, RuleError> {
        wippen::Series::next_deal(self)
    }

    fn totals(&self) -> &[i32] {
        wippen::Series::totals(self)
    }

    fn view_from_row(&self, viewer: Option<Seat>, first: usize) -> wippen::SeriesView {
        wippen::Series::view_from_row(self, viewer, first)
    }

    fn view_without_rows(&self, viewer: Option<Seat>) -> wippen::SeriesView {
        wippen::Series::view_without_rows(self, viewer)
    }

    fn own_view(&self, viewer: Option<Seat>) -> wippen::SeriesView {
        wippen::Series::own_view(self, viewer)
    }

    fn rows(&self) -> usize {
        self.scoresheet().len()
    }

    fn row_json(&self, index: usize) -> Option<String> {
        self.scoresheet().get(index).map(json)
    }

    fn with_rows_from(&self, first: usize) -> Self {
        Self::with_rows_from(self, first)
    }

    fn redact(event: &wippen::Event, viewer: Option<Seat>) -> wippen::Event {
        event.for_viewer(viewer)
    }
}
