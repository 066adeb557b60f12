//! Mecklenburg Fips (docs/rules/mecklenburg.md §B): **Anseggerfips** and **Duttfips**, two games of the
//! 25-card pack in which the ace of diamonds, the Rutenas, is the only diamond. Four players
//! are dealt five cards each; the five left over are the Dutt. Ruten games have the Rutenas as
//! their only trump and count double; Fips and Rutenfips undertake all five tricks.
//!
//! * Anseggerfips: bids 2 < Ruten 2 < … < Ruten 4 < Fips < Rutenfips in a single round (or the
//!   duels), the Dutt unused (or exchanged); a throw-in when nobody bids.
//! * Duttfips: forehand must name Dutt, Ruten oewer, Fips or Rutenfips; the others may each
//!   name a higher one once; the declarer always takes the Dutt and lays five cards away.
//!
//! [`Anseggerfips`] and [`Duttfips`] are each game's series (one [`Series`] over the game's
//! own options, [`AnseggerfipsRules`] or [`DuttfipsRules`]); both play the same [`Deal`], which
//! takes an [`Action`] for a [`Seat`](crate::Seat) and answers with [`Event`]s or a
//! [`RuleError`](crate::RuleError), leaving the state as it was. [`Deal::view`] /
//! [`Series::view`] build what one viewer may see; [`Event::for_viewer`] turns the events that
//! move hidden cards into stubs with the seat and the count.

mod auction;
mod deal;
mod engine;
mod event;
mod rules;
mod series;
mod view;

pub use auction::Auction;
pub use deal::{Action, Contract, Deal, Game, Outcome, Phase, RUTENAS};
pub use event::{Event, Reveal};
pub use rules::{AnseggerfipsRules, AuctionKind, Bid, Call, DuttUse, DuttfipsRules, Faces, GameRules, Rules, Variant};
pub use series::{Anseggerfips, Duttfips, ScoreRow, Series, SeriesView};
pub use view::{CallRecord, DealView, Prompt};
