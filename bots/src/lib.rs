//! Computer players for Fipsen: an exact solver for the play with every card known, card play
//! with hidden cards by sampling, bidding by estimating every contract, three levels, and a
//! review of a seat's bidding and play after a deal.
//!
//! The crate is pure and synchronous, like the rules crate: a [`Bot`] sees only what its seat
//! sees (a [`fipsen_rules::DealView`]) and answers with an [`fipsen_rules::Action`]; the same
//! seed and the same view always give the same answer.

// Loops over parallel small arrays (seats, suits, capacities) read better with an index.
#![allow(clippy::needless_range_loop)]

pub mod arena;
pub mod bot;
pub mod cards;
pub mod evaluate;
pub mod heuristic;
pub mod inference;
pub mod knowledge;
pub mod play;
pub mod review;
pub mod rng;
pub mod solver;
pub mod table;

pub use bot::{Bot, Config, Level};
pub use evaluate::Estimate;
