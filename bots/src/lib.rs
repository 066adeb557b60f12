//! Computer players for Fipsen: an exact solver for the play with every card known, card play
//! with hidden cards by sampling, bidding by estimating every contract, three levels, and a
//! review of a seat's bidding and play after a deal.
//!
//! The crate is pure and synchronous, like the rules crate: a [`Bot`] sees only what its seat
//! sees (a [`fipsen_rules::DealView`] or [`fipsen_rules::SeriesView`]) and answers with an
//! [`fipsen_rules::Action`]; the same level, seed and view always give the same answer, so a
//! server may rebuild a bot at any time. A decision takes from well under a millisecond (easy)
//! to some tens of milliseconds (strong, at the auction and the discard); a server should run
//! it off its async threads.
//!
//! * [`solver`]: the exact ("double dummy") solver on bit-mask positions.
//! * [`knowledge`]: what a seat knows of the unseen cards, and uniform sampling or enumeration
//!   of the deals consistent with it; [`inference`] weighs those deals by the auction.
//! * [`evaluate`]: what a hand is worth as each contract; [`play`]: the card by sampling.
//! * [`level`]: the levels, for every game.
//! * [`games`]: the bots of every game behind one interface ([`games::GameBot`]: choose,
//!   review, analyse), a module per game, and one door for servers.
//! * [`analysis`]: the card-by-card analysis of a finished deal's play, every card open.
//! * [`bot`]: Prisdorf's bot, every decision; [`review`]: the review of a finished Prisdorf
//!   deal (both in [`games::prisdorf`]).
//! * [`arena`]: deals played between bots (used by the `arena` binary and the tests).
//! * [`grossenaspe`]: the bots of Großenaspe Fipsen, on the same solver, sampling and rules
//!   of thumb (parametrised by the pack: [`cards::PackMasks`]).
//! * [`mecklenburg`]: the bots of Anseggerfips and Duttfips (the 25-card pack with the
//!   Rutenas), on the same machinery.
//! * [`wippen`]: the bots of Wippen, the fishing game: greedy, one ply weighing what a move
//!   leaves on the table, and play-outs over sampled deals of the unseen cards.

// Loops over parallel small arrays (seats, suits, capacities) read better with an index.
#![allow(clippy::needless_range_loop)]

pub mod analysis;
pub mod arena;
pub mod cards;
pub mod evaluate;
pub mod games;
pub mod heuristic;
pub mod inference;
pub mod knowledge;
pub mod level;
pub mod play;
pub mod rng;
pub mod solver;
pub mod table;

// Each game's module under its old path.
pub use games::prisdorf::{bot, review};
pub use games::{grossenaspe, mecklenburg, thedinghausen, tippen, wippen};

pub use analysis::{Analysis, Budget, CardAnalysis};
pub use bot::Bot;
pub use evaluate::Estimate;
pub use games::GameBot;
pub use level::{Config, Level};
pub use review::{CallReview, DurchReview, PlayReview, Review};
