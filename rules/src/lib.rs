//! The complete rules of Prisdorf Fipsen — a North German trick-taking card game for three or
//! four players — as a pure, synchronous state machine.
//!
//! * [`Series`] is a table's run of deals with its scoresheet; [`Deal`] is one deal.
//! * [`Series::apply`] / [`Deal::apply`] take an [`Action`] for a [`Seat`] and return the
//!   [`Event`]s it caused, or a [`RuleError`] with the state left exactly as it was.
//! * [`Deal::legal_actions`] lists what a seat may do now.
//! * [`Deal::view`] / [`Series::view`] build what one viewer (a seat, or `None` for a spectator)
//!   may see, and [`Event::for_viewer`] empties the hidden parts of an event.
//!
//! * [`GameEngine`] is the interface every game of the platform implements ([`Series`] for
//!   Prisdorf, [`grossenaspe::Series`] for Großenaspe Fipsen); [`GameId`] names the games, and
//!   [`AnyGame`] with [`GameRules`], [`GameAction`], [`GameEvent`] and [`GameView`] holds any
//!   registered game (the registry is one line per game in `games.rs`).
//! * [`grossenaspe`] is Großenaspe Fipsen: the 32-card pack, clubs as "Gute", bids from one
//!   trick, Fips and the Kieker with skat and talon, for 3, 4 or 5 players.
//! * [`mecklenburg`] is Mecklenburg Fips: Anseggerfips and Duttfips, the 25-card pack with the
//!   Rutenas (♦A) as the only diamond, Ruten games, Fips and Rutenfips, and the Dutt.
//! * [`thedinghausen`] is Thedinghausen Fipsen: five players, a turned-up trump card, the duty to
//!   trump and overtrump, the fipsen announcement, and the race to ten tricks over several deals
//!   for a round pot.
//! * [`tippen`] is Tippen / Dreiblatt: seven presets from 1821 to the modern books, 2 to 10
//!   players, a pot of play-money counters shared by tricks, bêtes, shoving, knocking,
//!   sniffing, robbing, hop and jump and the exchange.
//! * [`nap`] is Nap (Napoleon), the English cousin: 2 to 7 players, bids from two tricks to
//!   Nap, Wellington and Blücher with misère between three and four, the first card led making
//!   trumps, counters settled with every opponent, peep, purchase and the pool (its rules are
//!   complete; it is not offered at a table yet).
//! * [`wippen`] is Wippen: a fishing game for 2 to 4 players with the 52-card pack, captures and
//!   builds by arithmetic expressions, games, sets and a match.
//!
//! * [`Level`] is how well a computer player plays (a table option), and [`review`] holds the
//!   review of a seat's finished deal as data; the bots crate plays and computes reviews.
//! * [`prompt`] is the prompt vocabulary: what each key of a view's prompt offers, in every
//!   game, so that a client holding only its view lists what it may send.
//!
//! Nothing here does I/O, reads a clock or draws randomness: a deal is shuffled from a [`Seed`]
//! the caller provides, so the same seed, rules and actions always give the same events.

mod card;
pub mod decisions;
mod duel;
mod engine;
mod error;
mod fields;
mod games;
pub mod grossenaspe;
mod layers;
mod level;
pub mod mecklenburg;
pub mod nap;
mod options;
mod prisdorf;
pub mod prompt;
#[cfg(feature = "schema")]
mod query_schema;
mod run;
mod seat;
mod seed;
mod sheet;
pub mod thedinghausen;
pub mod tippen;
mod trick;
pub mod wippen;

pub use card::{Card, CardIter, CardSet, Pack, ParseCardError, Rank, Suit};
pub use engine::{GameEngine, NoQuery, Prepared};
pub use error::RuleError;
pub use games::{
    AnyGame, GameAction, GameActions, GameAnswer, GameEvent, GameEvents, GameEventsIter, GameId, GameQuery, GameRules,
    GameView,
};
pub use level::Level;
pub use options::{FirstLead, KiekerShow, RuleSetError};
pub use prisdorf::review;
pub use prisdorf::{
    Action, Auction, Bid, Call, CallRecord, Contract, Deal, DealView, Event, Game, Outcome, Phase, Players, Prompt,
    Reveal, RuleSet, ScoreRow, Series, SeriesView, TrickView, TricksTaken,
};
pub use seat::{Play, Seat, trick_winner};
pub use seed::{DealSeeds, Seed};
