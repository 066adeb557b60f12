//! Prisdorf Fipsen (`docs/rules/prisdorf.md`): the 25-card pack with the ♦7, the auction of
//! duels, Hand and Ruten, the Kieker, the Durch and the Siebener Fips. Its types are the crate
//! root's ([`crate::Series`], [`crate::Deal`], …), re-exported from here.

mod auction;
mod bid;
mod deal;
mod engine;
mod event;
pub mod review;
mod ruleset;
mod series;
mod view;

pub use auction::Auction;
pub use bid::{Bid, Call};
pub use deal::{Action, Contract, Deal, Game, Outcome, Phase};
pub use event::{Event, Reveal};
pub use ruleset::{Players, RuleSet};
pub use series::{ScoreRow, Series, SeriesView};
pub use view::{CallRecord, DealView, Prompt, TrickView, TricksTaken};
