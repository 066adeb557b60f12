//! What sets a bot's strength, for every game: the [`Level`] a table asks for (the rules
//! crate's, re-exported here) and the numbers behind a level for the games played with the
//! exact solver and sampling ([`Config`]: Prisdorf, Großenaspe, Anseggerfips, Duttfips).

use serde::{Deserialize, Serialize};

pub use fipsen_rules::Level;

/// The numbers behind a level.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Config {
    /// Deals sampled to estimate the hand in the auction.
    pub bid_samples: usize,
    /// Deals sampled for each card played.
    pub play_samples: usize,
    /// Deals sampled for skat, discards, trumps, Kontra, Durch and giving up.
    pub decision_samples: usize,
    /// When at most this many layouts of the unseen cards remain, all of them are solved.
    pub enumerate_limit: u64,
    /// Candidate keeps per trump suit searched when discarding.
    pub keep_candidates: usize,
    /// An expected score must exceed this to bid or hold (negative: bid a little more boldly
    /// than the estimate, which assumes the defenders see every card).
    pub margin: f64,
    /// Weigh sampled deals by how well they fit the other players' calls in the auction.
    pub infer: bool,
}

impl Config {
    /// The default numbers of a level.
    pub const fn of(level: Level) -> Config {
        match level {
            Level::Easy => Config {
                bid_samples: 0,
                play_samples: 0,
                decision_samples: 0,
                enumerate_limit: 0,
                keep_candidates: 0,
                margin: 0.0,
                infer: false,
            },
            Level::Normal => Config {
                bid_samples: 16,
                play_samples: 12,
                decision_samples: 12,
                enumerate_limit: 0,
                keep_candidates: 2,
                margin: 0.0,
                infer: false,
            },
            Level::Strong => Config {
                bid_samples: 96,
                play_samples: 40,
                decision_samples: 40,
                enumerate_limit: 300,
                keep_candidates: 6,
                margin: 0.0,
                infer: true,
            },
        }
    }
}
