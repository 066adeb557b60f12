//! Computer players for Fipsen.

pub mod cards;
pub mod rng;
pub mod solver;
