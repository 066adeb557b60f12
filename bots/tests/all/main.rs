//! The bots crate's integration tests, one binary: each former test file is a module.

mod analysis;
mod analysis_endings;
mod bots;
mod common;
mod decisions;
mod decisions_tippen;
mod decisions_wippen;
mod grossenaspe;
mod mecklenburg;
mod review;
mod review_hidden;
mod sampling;
mod solver;
