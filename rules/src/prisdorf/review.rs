//! The review of a seat's deal once it is over, as data: what his dealt hand was worth as each
//! contract, each of his calls against the best call at that moment, and — for the declarer —
//! his play trick by trick against the best card with every card known. The bots crate
//! computes it; the protocol sends it.

use serde::{Deserialize, Serialize};

use super::bid::{Bid, Call};
use crate::card::{Card, CardSet};
use crate::seat::Seat;

/// A seat's review of one finished deal.
///
/// ```json
/// {"seat": 1, "dealt": ["C7", "CA", "SK", "H10", "HA"],
///  "estimates": [{"game": {"kind": "tricks", "tricks": 2, "hand": false, "ruten": false}, "win": 0.81, "score": 1.9}],
///  "calls": [{"standing": null, "call": {"call": "bid", "bid": {"kind": "tricks", "tricks": 2}},
///             "score": 1.9, "best": {"call": "bid", "bid": {"kind": "tricks", "tricks": 3}}, "best_score": 2.3,
///             "options": []}],
///  "play": null, "durch": null}
/// ```
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Review {
    /// The seat reviewed.
    pub seat: Seat,
    /// The hand he was dealt.
    pub dealt: CardSet,
    /// Every game he could have called with that hand: chance of winning, expected score.
    pub estimates: Vec<Estimate>,
    /// Each of his calls in the auction, with the best call at that moment.
    pub calls: Vec<CallReview>,
    /// For the declarer: each card he played, against the solver's best card.
    pub play: Option<Vec<PlayReview>>,
    /// For a declarer who had to choose between stopping and going on for Durch.
    pub durch: Option<DurchReview>,
}

/// One call of the reviewed seat.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CallReview {
    /// The standing bid when he spoke.
    pub standing: Option<Bid>,
    /// What he called.
    pub call: Call,
    /// Its expected score (0 for a pass).
    pub score: f64,
    /// The call with the best expected score given the auction so far.
    pub best: Call,
    /// That call's expected score.
    pub best_score: f64,
    /// Every call he could have made, with its expected score.
    pub options: Vec<(Call, f64)>,
}

/// One card the declarer played, with every card known.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlayReview {
    /// The trick, from 1.
    pub trick: u8,
    /// The cards already in the trick when he played.
    pub before: Vec<Card>,
    /// The card he played.
    pub played: Card,
    /// His score under best play of both sides after that card.
    pub score: i32,
    /// A best card.
    pub best: Card,
    /// The score after the best card.
    pub best_score: i32,
    /// Whether his card gave away score (the best card was strictly better).
    pub worse: bool,
}

/// The declarer's choice between stopping and going on, with every card known.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DurchReview {
    /// He went on for Durch.
    pub went_on: bool,
    /// Going on would have won every further trick under best play.
    pub could_take_all: bool,
}

/// A game the bidder could play, with its estimated chance of winning and expected score.
///
/// ```json
/// {"game": {"kind": "tricks", "tricks": 3, "hand": true, "ruten": false}, "win": 0.62, "score": 1.4}
/// ```
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// The game: tricks with its doubles (Hand, Ruten), or a Kieker.
    pub game: Bid,
    /// The chance of winning it (a Kieker given up counts as not won).
    pub win: f64,
    /// The expected score for the bidder (a Kieker given up scores −5).
    pub score: f64,
}
