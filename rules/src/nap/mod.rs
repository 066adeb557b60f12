//! Nap (Napoleon), the English trick-taking game Fipsen is cousin to (docs/rules/nap.md): two
//! to seven players, five cards each from the 52-card pack (or one stripped by the number of
//! players), an optional joker as the highest trump.
//!
//! * One round of bidding from the dealer's left: each player passes or bids higher — two,
//!   three, misère (no trumps, no trick), four, Nap (all five), and over a Nap, Wellington
//!   and Blücher at double and triple stakes.
//! * The declarer leads; the suit of his first card is trumps. Follow suit if able; play stops
//!   as soon as the bid is made or beaten.
//! * The declarer settles with every opponent alone, in counters; a made Nap also takes the
//!   pool. Options: peep at the widow or purchase cards before the auction (a counter each
//!   into the pool), and the pool ("floater") that every deal feeds and a lost Nap pays into.
//!
//! Counters are play money: Σ balances + pool = 0 after every action.
//!
//! [`Series`] is a table's run of deals with its scoresheet; [`Deal`] is one deal, which takes
//! an [`Action`] for a [`Seat`](crate::Seat) and answers with [`Event`]s or a
//! [`RuleError`](crate::RuleError), leaving the state as it was. [`Deal::view`] /
//! [`Series::view`] build what one viewer may see; [`Event::for_viewer`] empties the other
//! hands, the cards laid away and bought, and the widow. Nap is not registered as a game yet.

mod cards;
mod deal;
#[cfg(test)]
mod engine;
mod event;
mod rules;
mod series;
mod view;

#[cfg(test)]
mod tests;

pub use cards::{NapCard, NapCards, NapPlay, cards_from, stripped_lowest, trick_winner};
pub use deal::{Action, Call, Deal, Outcome, Phase};
pub use event::Event;
pub use rules::{
    AllPass, Bid, CARD_COST, Exchange, HAND, MAX_PLAYERS, MAX_PURCHASE, MIN_PLAYERS, PEEP_COST, POOL_ANTE, PackChoice,
    Rules,
};
pub use series::{ScoreRow, Series, SeriesView};
pub use view::{DealView, Prompt, TrickView};
