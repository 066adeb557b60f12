//! The interface every game of the platform implements, so that the server, the storage, the
//! protocol's envelope, the load generator and the bots' plumbing depend on it and never on one
//! game.
//!
//! A game is a pure, synchronous state machine for a table's whole series: it deals from a
//! secret master seed, takes one seat's action at a time and answers with the events it caused
//! (or an error, leaving the state exactly as it was), lists each seat's legal actions, builds
//! what each viewer may see with the prompt of what that viewer may do, and redacts its events
//! for each viewer. Nothing here does I/O, reads a clock or draws randomness of its own.
//!
//! [`crate::games`] registers every implementation: one line per game.

use std::any::Any;
use std::fmt::{self, Debug};
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::error::RuleError;
use crate::games::GameId;
use crate::options::RuleSetError;
use crate::seat::Seat;
use crate::seed::{DealSeeds, Seed};

/// JSON of a value whose serialisation cannot fail (every map key is a string).
pub(crate) fn json<T: Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| String::from("null"))
}

/// What a room of some rules needs computed before it opens (see [`GameEngine::prepare`]), as an
/// opaque shared value: whoever runs the room holds it while the room runs and drops it after.
/// Cloning shares the value; nothing (the default) is the answer of most games.
#[derive(Clone, Default)]
pub struct Prepared(Option<Arc<dyn Any + Send + Sync>>);

impl Prepared {
    /// Nothing prepared.
    pub const fn nothing() -> Prepared {
        Prepared(None)
    }

    /// A prepared value.
    pub fn new<T: Any + Send + Sync>(value: T) -> Prepared {
        Prepared(Some(Arc::new(value)))
    }

    /// Whether nothing was prepared.
    pub fn is_nothing(&self) -> bool {
        self.0.is_none()
    }

    /// The value, if one of type `T` was prepared: the engine that prepared it gets it back.
    pub fn get<T: Any>(&self) -> Option<&T> {
        self.0.as_deref().and_then(|value| (value as &dyn Any).downcast_ref())
    }
}

impl Debug for Prepared {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.is_nothing() { "Prepared(nothing)" } else { "Prepared(..)" })
    }
}

/// The question and the answer of a game that takes no questions ([`GameEngine::query`]): no
/// value of it exists, so no JSON reads as one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum NoQuery {}

/// A game's series as a pure state machine: what the server, the storage and the bots' plumbing
/// need of every game.
///
/// The contract, checked for every game by the same property tests: an action is accepted
/// exactly when [`GameEngine::legal_actions`] lists it; a refused action changes nothing;
/// [`GameEngine::check`] agrees with [`GameEngine::apply`]; the views and the redacted events
/// show a viewer only what the game's visibility allows.
pub trait GameEngine: Sized + Clone + Debug + Send + Sync + 'static {
    /// The table's options for this game.
    type Rules: Clone + Debug + PartialEq + Eq + Default + Serialize + DeserializeOwned + Send + Sync;
    /// What a seat may do.
    type Action: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// What happened, as everyone sees it before redaction.
    type Event: Clone + Debug + PartialEq + Eq + Serialize + DeserializeOwned + Send + Sync;
    /// What one viewer may see of the series, with the prompt of what he may do now.
    type View: Clone + Debug + PartialEq + Eq + Serialize + DeserializeOwned + Send + Sync;
    /// A read-only question a player may ask about his moves ([`GameEngine::query`]);
    /// [`NoQuery`] for a game that takes none.
    type Query: Clone + Debug + PartialEq + Eq + Serialize + DeserializeOwned + Send + Sync;
    /// The answer to a [`GameEngine::Query`].
    type Answer: Clone + Debug + PartialEq + Eq + Serialize + DeserializeOwned + Send + Sync;

    /// The game.
    const ID: GameId;

    /// Starts a series with these rules: its first deal is dealt at once.
    ///
    /// # Errors
    /// An option is out of range.
    fn start(rules: Self::Rules, master: Seed) -> Result<(Self, Vec<Self::Event>), RuleSetError>;

    /// What a room of these rules needs computed before it opens, costly enough to be done off
    /// the room's task (a table shared by every room of the same rules while any holds it). By
    /// default nothing.
    fn prepare(rules: &Self::Rules) -> Prepared {
        let _ = rules;
        Prepared::nothing()
    }

    /// Whether [`GameEngine::prepare`] prepares anything at all: a server need not set work
    /// aside (a blocking thread) for a game that prepares nothing.
    const PREPARES: bool = false;

    /// Answers a read-only question `seat` asks about his moves (Wippen: the moves with one hand
    /// card and a choice of table piles); nothing changes.
    ///
    /// # Errors
    /// The rules refuse the question; by default no question is taken:
    /// [`RuleError::WrongGame`], as for a question of another game.
    fn query(&self, seat: Seat, query: &Self::Query) -> Result<Self::Answer, RuleError> {
        let _ = (seat, query);
        Err(RuleError::WrongGame)
    }

    /// The number of seats at the table.
    fn seats(&self) -> usize {
        Self::seats_of(self.rules())
    }

    /// The table's options.
    fn rules(&self) -> &Self::Rules;

    /// Checks the options that their types alone cannot.
    ///
    /// # Errors
    /// An option is out of range.
    fn validate(rules: &Self::Rules) -> Result<(), RuleSetError>;

    /// The number of seats these options set.
    fn seats_of(rules: &Self::Rules) -> usize;

    /// How many deals a series with these options lasts (`None`: open-ended).
    fn deals_of(rules: &Self::Rules) -> Option<u32>;

    /// A short name of the action's kind for logs (`"play"`, `"bid"`), never its cards.
    fn action_kind(action: &Self::Action) -> &'static str;

    /// Whether a computer player at `seat` is to be asked for an action although it is not his
    /// turn (Prisdorf's Siebener Fips, say); by default never.
    fn bot_out_of_turn(&self, seat: Seat) -> bool {
        let _ = seat;
        false
    }

    /// The view without any action on offer (a bot acts for the viewer meanwhile).
    fn clear_prompt(view: &mut Self::View);

    /// The current deal's number, from 1.
    fn deal_number(&self) -> u32;

    /// The deals finished that count towards the series' length (a thrown-in deal, dealt again,
    /// does not). By default every finished deal counts.
    fn counted(&self) -> u32 {
        self.deal_number().saturating_sub(u32::from(!self.deal_over()))
    }

    /// Takes the seeds of the deals still to come as `seeds` says: [`DealSeeds::ByCountedDeal`]
    /// keeps tables with the same master seed dealing the same `d`-th deal that counts however
    /// many deals each throws in. By default nothing changes: a game that never throws a deal
    /// in deals the same either way.
    fn set_deal_seeds(&mut self, seeds: DealSeeds) {
        let _ = seeds;
    }

    /// The seat expected to act now, if any (some games also take actions out of turn: they
    /// appear in [`GameEngine::legal_actions`] of their seat).
    fn turn(&self) -> Option<Seat>;

    /// Every action `seat` may take now.
    ///
    /// For Wippen, whose legal moves can be exponentially many, this is the set of simple
    /// moves from which every legal move is composed: every legal discard, every capture of
    /// exactly one listed group (with the buildings a kept promise requires added as groups of
    /// their own), every build of one core and no extras. [`GameEngine::check`] and
    /// [`GameEngine::apply`] accept every legal move, listed or not.
    fn legal_actions(&self, seat: Seat) -> Vec<Self::Action>;

    /// Whether `seat` has any action now: `!legal_actions(seat).is_empty()`, which a game whose
    /// listing is costly answers without building it.
    fn can_act(&self, seat: Seat) -> bool {
        !self.legal_actions(seat).is_empty()
    }

    /// Whether `seat` may take `action` now, without taking it.
    ///
    /// # Errors
    /// The error [`GameEngine::apply`] would return.
    fn check(&self, seat: Seat, action: Self::Action) -> Result<(), RuleError>;

    /// Takes `seat`'s action and returns the events it caused.
    ///
    /// # Errors
    /// The action is not allowed now; the state is then exactly as before.
    fn apply(&mut self, seat: Seat, action: Self::Action) -> Result<Vec<Self::Event>, RuleError>;

    /// Whether a trick is being played (some of its cards are on the table); by default never
    /// (a game without tricks).
    fn trick_in_progress(&self) -> bool {
        false
    }

    /// Whether the next card leads to a new trick; by default never (a game without tricks).
    fn leading(&self) -> bool {
        false
    }

    /// Whether the current deal is over (and the next one may be dealt).
    fn deal_over(&self) -> bool;

    /// Whether the series has played its last deal.
    fn series_over(&self) -> bool;

    /// Deals the next deal once the current one is over.
    ///
    /// # Errors
    /// The deal is not over, or the series is.
    fn next_deal(&mut self) -> Result<Vec<Self::Event>, RuleError>;

    /// Each seat's running total.
    fn totals(&self) -> &[i32];

    /// What `viewer` may see (`None`: a spectator): by default
    /// [`GameEngine::view_from_row`] from the first row.
    fn view(&self, viewer: Option<Seat>) -> Self::View {
        self.view_from_row(viewer, 0)
    }

    /// [`GameEngine::view`] with only the scoresheet's rows from row `first` on (from 0): what
    /// a snapshot of a long series carries, its oldest rows left out.
    fn view_from_row(&self, viewer: Option<Seat>, first: usize) -> Self::View;

    /// [`GameEngine::view`] with its scoresheet left empty: the part that changes from move to
    /// move, built for every viewer on every change. The rows, which are only ever added, are
    /// sent by [`GameEngine::rows`] and [`GameEngine::row_json`] as they come.
    fn view_without_rows(&self, viewer: Option<Seat>) -> Self::View;

    /// [`GameEngine::view_without_rows`] with at least the deal's fields that differ from
    /// viewer to viewer (the viewer, his hand, what he may do, cards shown to some seats only)
    /// filled in as that view has them; a game may leave the others empty, which spares
    /// building them for each seat when a server writes a seat's own fields into the
    /// spectators' view. By default the whole view.
    fn own_view(&self, viewer: Option<Seat>) -> Self::View {
        self.view_without_rows(viewer)
    }

    /// The number of rows on the scoresheet.
    fn rows(&self) -> usize;

    /// The JSON of the scoresheet's row `index` (from 0) as the view shows it.
    fn row_json(&self, index: usize) -> Option<String>;

    /// The series with its scoresheet's rows before `first` left out (the rows are only ever
    /// added, never read back by the play): everything the series goes on from, its totals and
    /// whatever else carries from deal to deal, in a size that does not grow with the series.
    /// A server keeps one per finished deal, to deal the next one again without the deals
    /// before it.
    fn with_rows_from(&self, first: usize) -> Self;

    /// `event` as `viewer` may see it: what he may not see emptied, never the whole event
    /// dropped, so that event numbers stay without gaps.
    fn redact(event: &Self::Event, viewer: Option<Seat>) -> Self::Event;
}

/// [`GameEngine`] for a game's series whose deal plays tricks: every method delegates to the
/// series' inherent method of the same name, or to its deal's (every game but Wippen).
macro_rules! holstein_engine {
    ([$($generics:tt)*] $series:ty, $game:ident, rules: $rules:ty, id: $id:expr, seats: $seats:expr, deals: $deals:expr
     $(, counted: $counted:expr, seeds: $seeds:expr)? $(, own_view: $own:expr)? $(, bot_out_of_turn: $bot:expr)?) => {
        impl<$($generics)*> $crate::engine::GameEngine for $series {
            type Rules = $rules;
            type Action = $game::Action;
            type Event = $game::Event;
            type View = $game::SeriesView;
            type Query = $crate::engine::NoQuery;
            type Answer = $crate::engine::NoQuery;

            const ID: $crate::games::GameId = $id;

            fn start(rules: $rules, master: $crate::seed::Seed) -> Result<(Self, Vec<$game::Event>), $crate::options::RuleSetError> {
                <$series>::new(rules, master)
            }

            fn rules(&self) -> &$rules {
                <$series>::rules(self)
            }

            fn validate(rules: &$rules) -> Result<(), $crate::options::RuleSetError> {
                rules.validate()
            }

            fn seats_of(rules: &$rules) -> usize {
                let seats: fn(&$rules) -> usize = $seats;
                seats(rules)
            }

            fn deals_of(rules: &$rules) -> Option<u32> {
                let deals: fn(&$rules) -> Option<u32> = $deals;
                deals(rules)
            }

            fn action_kind(action: &$game::Action) -> &'static str {
                action.kind()
            }

            $(
            fn bot_out_of_turn(&self, seat: $crate::seat::Seat) -> bool {
                let bot: fn(&Self, $crate::seat::Seat) -> bool = $bot;
                bot(self, seat)
            }
            )?

            fn clear_prompt(view: &mut $game::SeriesView) {
                view.deal.prompt = $game::Prompt::default();
            }

            fn deal_number(&self) -> u32 {
                self.number()
            }

            $(
            fn counted(&self) -> u32 {
                let counted: fn(&Self) -> u32 = $counted;
                counted(self)
            }

            fn set_deal_seeds(&mut self, seeds: $crate::seed::DealSeeds) {
                let set: fn(&mut Self, $crate::seed::DealSeeds) = $seeds;
                set(self, seeds);
            }
            )?

            fn turn(&self) -> Option<$crate::seat::Seat> {
                self.deal().turn()
            }

            fn legal_actions(&self, seat: $crate::seat::Seat) -> Vec<$game::Action> {
                <$series>::legal_actions(self, seat)
            }

            fn check(&self, seat: $crate::seat::Seat, action: $game::Action) -> Result<(), $crate::error::RuleError> {
                <$series>::check(self, seat, action)
            }

            fn apply(&mut self, seat: $crate::seat::Seat, action: $game::Action) -> Result<Vec<$game::Event>, $crate::error::RuleError> {
                <$series>::apply(self, seat, action)
            }

            fn trick_in_progress(&self) -> bool {
                !self.deal().current_trick().is_empty()
            }

            fn leading(&self) -> bool {
                self.deal().phase() == $game::Phase::Play && self.deal().current_trick().is_empty()
            }

            fn deal_over(&self) -> bool {
                self.deal().is_over()
            }

            fn series_over(&self) -> bool {
                self.is_over()
            }

            fn next_deal(&mut self) -> Result<Vec<$game::Event>, $crate::error::RuleError> {
                <$series>::next_deal(self)
            }

            fn totals(&self) -> &[i32] {
                <$series>::totals(self)
            }


            fn view_from_row(&self, viewer: Option<$crate::seat::Seat>, first: usize) -> $game::SeriesView {
                <$series>::view_from_row(self, viewer, first)
            }

            fn view_without_rows(&self, viewer: Option<$crate::seat::Seat>) -> $game::SeriesView {
                <$series>::view_without_rows(self, viewer)
            }

            $(
                fn own_view(&self, viewer: Option<$crate::seat::Seat>) -> $game::SeriesView {
                    let own: fn(&Self, Option<$crate::seat::Seat>) -> $game::SeriesView = $own;
                    own(self, viewer)
                }
            )?

            fn rows(&self) -> usize {
                self.scoresheet().len()
            }

            fn row_json(&self, index: usize) -> Option<String> {
                self.scoresheet().get(index).map($crate::engine::json)
            }

            fn with_rows_from(&self, first: usize) -> Self {
                <$series>::with_rows_from(self, first)
            }

            fn redact(event: &$game::Event, viewer: Option<$crate::seat::Seat>) -> $game::Event {
                event.for_viewer(viewer)
            }
        }
    };
}

pub(crate) use holstein_engine;
