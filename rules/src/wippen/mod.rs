//! Wippen (docs/rules/wippen.md §E): a fishing game for 2 to 4 players with the 52-card pack. A card
//! from the hand captures table piles whose arithmetic combination equals it, or builds them
//! into a pile its builder means to capture later.
//!
//! * [`Expr`] is a group of a move as a binary tree of `+ - * /` over table piles (and in a
//!   build the hand card); every intermediate value is a whole number of at least 1.
//! * [`Move`] is a discard, a capture with several groups, or a build (multi-build, overbuild,
//!   rebuild), as JSON data (§E8); [`Deal::apply`] checks it in the order of §E8 and answers
//!   with [`Event`]s or a [`RuleError`](crate::RuleError), leaving the game as it was.
//! * [`Deal::listing`] lists every legal move in the structured form of §E9 (per hand card:
//!   discard, capture groups with `must_include`, build cores and extras per value, each with a
//!   witness tree), from a reach table computed once per set of operators;
//!   [`Deal::options`] answers a selection: every legal move with one card and exactly those
//!   piles; [`Selection`] asks the same through the engine's query and [`Options`] answers it.
//! * [`Series`] is a match: games (one pass through the pack with one dealer — a "deal" of the
//!   engine), sets of one game per player, and the scoresheet. [`Deal::view`] /
//!   [`Series::view`] build what one viewer may see; [`Event::for_viewer`] empties the other
//!   hands.

mod deal;
mod engine;
mod event;
mod expr;
mod listing;
mod reach;
mod rules;
mod series;
mod table;
mod view;

pub use deal::{Deal, MoveRecord, Outcome, Phase, score};
pub use event::Event;
pub use expr::{BuildingId, Expr, Move, Op, value};
pub use listing::{BuildListing, CardListing, Group, Listing, Position, RawBuild, RawCard, SELECTION_BUDGET};
pub use reach::{ReachTable, prepare};
pub use rules::{Operators, Rules};
pub use series::{ScoreRow, Series, SeriesView};
pub use table::{Building, Options, Pile, PileRef, Selection};
pub use view::{
    BuildPrompt, CardPrompt, DealView, PROMPT_PILE_SETS, PROMPT_READY_PER_CARD, PROMPT_SETS_PER_CARD, Prompt, Reveal,
};

/// The action of a Wippen seat: a move.
pub type Action = Move;
