//! The review of a seat's decisions before the play, in one shape for every game: for each
//! decision, every option the seat had with its expected result over sampled deals of the cards
//! he could not see (drawn only from what he knew), the margin of that estimate, the sample
//! size, what the bot would have chosen and what the seat chose.
//!
//! ```json
//! {"seat": 2, "decisions": [{"decision": "call", "samples": 96,
//!   "options": [{"action": {"action": "pass"}, "value": 0.0, "margin": 0.0},
//!               {"action": {"action": "bid", "bid": {"kind": "tricks", "tricks": 2, "gute": false}},
//!                "value": 1.4, "margin": 0.6}],
//!   "bot": {"action": "bid", "bid": {"kind": "tricks", "tricks": 2, "gute": false}},
//!   "chosen": {"action": "pass"}}]}
//! ```

use fipsen_rules::Seat;
use serde::{Deserialize, Serialize};

/// The z value of a 95% interval: a margin is this many standard errors.
pub const Z95: f64 = 1.96;

/// What kind of decision was taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DecisionKind {
    /// A call in the auction: a bid (with its Gute, Fips, Kieker, Dutt…), a hold or a pass.
    Call,
    /// An announcement before the play (Thedinghausen's fipsen, or a pass).
    Announcement,
}

/// One option of a decision, with its expected result for the seat.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Choice<A> {
    /// The action.
    pub action: A,
    /// Its expected score for the seat over the sampled deals (Thedinghausen: its expected
    /// gain in chips over passing).
    pub value: f64,
    /// The margin of that estimate: 1.96 standard errors (0 for a result without chance, such
    /// as a pass).
    pub margin: f64,
}

/// One decision of the seat.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Decision<A> {
    /// What kind of decision.
    pub decision: DecisionKind,
    /// How many deals of the unseen cards were sampled.
    pub samples: u32,
    /// Every option he had, with its expected result.
    pub options: Vec<Choice<A>>,
    /// What the bot would have chosen in his place.
    pub bot: A,
    /// What he chose.
    pub chosen: A,
}

impl<A: PartialEq> Decision<A> {
    /// The option chosen, if it was among those valued.
    pub fn chosen_option(&self) -> Option<&Choice<A>> {
        self.options.iter().find(|c| c.action == self.chosen)
    }

    /// The option with the best expected value.
    pub fn best_option(&self) -> Option<&Choice<A>> {
        self.options.iter().max_by(|a, b| a.value.total_cmp(&b.value))
    }
}

/// A seat's decisions before the play in one finished deal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DecisionReview<A> {
    /// The seat reviewed.
    pub seat: Seat,
    /// His decisions, in the order taken.
    pub decisions: Vec<Decision<A>>,
}

/// The review of a seat's decisions before the play in a deal of any game that has one,
/// tagged with its game.
///
/// ```json
/// {"game": "grossenaspe", "review": {"seat": 0, "decisions": []}}
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "game", content = "review", rename_all = "snake_case")]
pub enum GameDecisions {
    /// A Großenaspe deal.
    Grossenaspe(DecisionReview<fipsen_rules::grossenaspe::Action>),
    /// An Anseggerfips deal.
    Anseggerfips(DecisionReview<fipsen_rules::mecklenburg::Action>),
    /// A Duttfips deal.
    Duttfips(DecisionReview<fipsen_rules::mecklenburg::Action>),
    /// A Thedinghausen deal.
    Thedinghausen(DecisionReview<fipsen_rules::thedinghausen::Action>),
}

/// The weighted mean of `values` (pairs of weight and value) and its margin (1.96 standard
/// errors of a weighted mean: √Σw²(x−m)² / Σw). `(0, 0)` with no weight.
pub fn mean_and_margin(values: impl Iterator<Item = (f64, f64)> + Clone) -> (f64, f64) {
    let (mut total, mut sum) = (0.0, 0.0);
    for (w, x) in values.clone() {
        total += w;
        sum += w * x;
    }
    if total <= 0.0 {
        return (0.0, 0.0);
    }
    let mean = sum / total;
    let spread: f64 = values.map(|(w, x)| (w * (x - mean)).powi(2)).sum();
    (mean, Z95 * spread.sqrt() / total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_margin_is_that_of_a_mean() {
        // Four equal weights, values ±1: mean 0, standard error 1/2 (with n in the divisor).
        let (m, e) = mean_and_margin([(1.0, 1.0), (1.0, -1.0), (1.0, 1.0), (1.0, -1.0)].into_iter());
        assert!(m.abs() < 1e-12);
        assert!((e - Z95 * 0.5).abs() < 1e-12);
        // Constant values have no margin; a weight of zero does not count.
        let (m, e) = mean_and_margin([(2.0, 3.0), (1.0, 3.0), (0.0, 100.0)].into_iter());
        assert_eq!((m, e), (3.0, 0.0));
        assert_eq!(mean_and_margin(std::iter::empty()), (0.0, 0.0));
    }
}
