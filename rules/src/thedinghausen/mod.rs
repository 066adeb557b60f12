//! Thedinghausen Fipsen (docs/rules/thedinghausen.md §C): five players, the 32-card pack dealt 3-2, a turned-up
//! card for trumps, a duty to trump and overtrump, and a race to be first to ten tricks over
//! several deals, played for a pot every player antes one point (a hedewig) into.
//!
//! * A **round** is the race: deal after deal, each trick counts for its winner; the first to
//!   ten tricks wins the round at that moment, even mid-deal, and takes the round pot.
//! * After the deal each player in turn may announce **fipsen** (all five tricks): lost as soon
//!   as another player takes a trick (5 points into the pot), won with all five (they count ten).
//!
//! [`Series`] is a table's run of rounds with its scoresheet; [`Deal`] is one deal, which
//! takes an [`Action`] for a [`Seat`](crate::Seat) and answers with [`Event`]s or a
//! [`RuleError`](crate::RuleError), leaving the state as it was. [`Deal::view`] /
//! [`Series::view`] build what one viewer may see; [`Event::for_viewer`] empties the other
//! players' hands.

mod deal;
mod engine;
mod event;
mod rules;
mod series;
mod view;

pub use deal::{Action, Deal, Fipsen, FipsenResult, Outcome, Phase, Round, TARGET};
pub use event::{Event, Reveal};
pub use rules::Rules;
pub use series::{ScoreRow, Series, SeriesView};
pub use view::{DealView, Prompt};
