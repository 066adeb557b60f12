//! Tippen / Dreiblatt (VARIANTS.md §D): a small-hand gambling game of plain tricks for a pot of
//! play-money counters, in seven presets from 1821 to the modern books, for 2 to 10 players.
//!
//! * The dealer antes the stake k into the pot (and may shove the deal on, or hop and jump may
//!   pass it); the hands are dealt one card at a time with a trump card (the next card, or the
//!   1821 dealer's own last card face up), which the dealer may knock or sniff for.
//! * Each player plays or passes (unless everyone must play); a robber exchanges the seven of
//!   trumps for the turned card; the modern presets exchange cards with the talon.
//! * h tricks are played under the preset's follow policy (§0.4) and lead rules (1859: a trump
//!   to the first trick, the Daus to the second); each trick takes a share P / h of the pot
//!   played for, and a player without a trick pays a bête into the next pot.
//!
//! Counters are play money. Σ balances + pot + reserve = 0 after every action.
//!
//! [`Series`] is a table's run of deals with its scoresheet; [`Deal`] is one deal, which takes
//! an [`Action`] for a [`Seat`](crate::Seat) and answers with [`Event`]s or a
//! [`RuleError`](crate::RuleError), leaving the state as it was. [`Deal::view`] /
//! [`Series::view`] build what one viewer may see; [`Event::for_viewer`] empties hands,
//! discards, exchanges and trump cards taken unseen for everyone else.

mod deal;
mod event;
mod rules;
mod series;
mod view;

pub use deal::{Action, Carry, Choice, Deal, Decision, Exchange, Hop, Outcome, Phase};
pub use event::{Event, Reveal};
pub use rules::{DausCard, Preset, Rules, Sniffing};
pub use series::{ScoreRow, Series, SeriesView, first_dealer};
pub use view::{DealView, Prompt};
