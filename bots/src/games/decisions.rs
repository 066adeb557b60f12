//! The review of a seat's decisions in a finished deal, in one shape for every game: the types
//! are the rules crate's ([`fipsen_rules::decisions`]), so that the protocol can send them;
//! here is the arithmetic the games' reviews share.

pub use fipsen_rules::decisions::{
    Choice, Decision, DecisionKind, DecisionReview, GameDecisions, MoveDecision, MoveOption, MoveReview,
};

/// The z value of a 95% interval: a margin is this many standard errors.
pub const Z95: f64 = 1.96;

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
