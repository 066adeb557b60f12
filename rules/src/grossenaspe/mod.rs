//! Großenaspe Fipsen (docs/rules/grossenaspe.md §A): the Holstein game of the village of Großenaspe, played
//! with the full 32-card pack. Clubs are the preference suit ("Gute"), bids start at one trick,
//! Fips is the only game without the skat, and the Kieker exchanges his whole hand with skat and
//! talon.
//!
//! * [`Series`] is a table's run of deals with its scoresheet and its scribe; [`Deal`] is one
//!   deal. Both take an [`Action`] for a [`Seat`](crate::Seat) and answer with [`Event`]s or a
//!   [`RuleError`](crate::RuleError), leaving the state as it was.
//! * [`Deal::view`] / [`Series::view`] build what one viewer may see; [`Event::for_viewer`]
//!   turns the events that move hidden cards into stubs with the seat and the count.

mod auction;
mod deal;
mod engine;
mod event;
mod rules;
mod series;
mod view;

pub use auction::Auction;
pub use deal::{Action, Contract, Deal, Game, Outcome, Phase};
pub use event::{Event, Reveal};
pub use rules::{Bid, Call, Rules};
pub use series::{ScoreRow, Series, SeriesView};
pub use view::{CallRecord, DealView, Prompt, TrickView};
