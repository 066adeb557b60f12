//! The review of a seat's decisions in a finished deal, in one shape for every game: the types
//! are the rules crate's ([`fipsen_rules::decisions`]), so that the protocol can send them;
//! here is the arithmetic the games' reviews share.

pub use fipsen_rules::decisions::{
    Choice, Decision, DecisionKind, DecisionReview, GameDecisions, MoveDecision, MoveOption, MoveReview,
};

/// The z value of a 95% interval: a margin is this many standard errors.
pub const Z95: f64 = 1.96;

/// The number of equally weighted samples that samples of `weights` are worth (Kish's
/// effective sample size, (Σw)²/Σw²): the number drawn when every weight is the same, fewer
/// the more a few samples carry the weight. 0 with no weight.
pub fn effective_size(weights: impl Iterator<Item = f64>) -> f64 {
    let (mut total, mut squares) = (0.0, 0.0);
    for w in weights {
        total += w;
        squares += w * w;
    }
    if squares > 0.0 { total * total / squares } else { 0.0 }
}

/// The weighted mean of `values` (pairs of weight and value) and its margin: 1.96 standard
/// errors of a mean of as many samples as the weights are worth ([`effective_size`], n), with
/// the weighted spread s² = Σw(x−m)²/Σw: 1.96·s/√(n−1). Weights that rest on a few samples
/// widen it as fewer samples would. `(0, 0)` with no weight; with at most one sample's worth of
/// weight the margin is the widest distance of a sampled value from the mean.
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
    let n = effective_size(values.clone().map(|(w, _)| w));
    if n <= 1.0 + 1e-9 {
        let widest = values.filter(|(w, _)| *w > 0.0).map(|(_, x)| (x - mean).abs()).fold(0.0, f64::max);
        return (mean, widest);
    }
    let spread: f64 = values.map(|(w, x)| w * (x - mean).powi(2)).sum::<f64>() / total;
    (mean, Z95 * (spread / (n - 1.0)).sqrt())
}

/// The margin of a chance `p` measured as the share of `n` samples: the larger distance from `p`
/// to the ends of its 95% Wilson interval. Unlike 1.96·√(p(1−p)/n) it is not 0 when every
/// sample agreed (8 samples without a success still leave room for a chance of some 30%).
pub fn chance_margin(p: f64, n: usize) -> f64 {
    if n == 0 {
        return 1.0;
    }
    let n = n as f64;
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre + half).min(1.0) - p).max(p - (centre - half).max(0.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_margin_is_that_of_a_mean() {
        // Four equal weights, values ±1: mean 0, sample standard deviation √(4/3), standard
        // error 1/√3.
        let (m, e) = mean_and_margin([(1.0, 1.0), (1.0, -1.0), (1.0, 1.0), (1.0, -1.0)].into_iter());
        assert!(m.abs() < 1e-12);
        assert!((e - Z95 / 3f64.sqrt()).abs() < 1e-12, "{e}");
        // Constant values have no margin; a weight of zero does not count.
        let (m, e) = mean_and_margin([(2.0, 3.0), (1.0, 3.0), (0.0, 100.0)].into_iter());
        assert_eq!((m, e), (3.0, 0.0));
        assert_eq!(mean_and_margin(std::iter::empty()), (0.0, 0.0));
    }

    /// Weights that rest on a few samples are worth fewer samples, and the margin widens to
    /// that of those fewer samples.
    #[test]
    fn unequal_weights_count_as_fewer_samples_and_widen_the_margin() {
        assert_eq!(effective_size([1.0; 8].into_iter()), 8.0);
        assert_eq!(effective_size([0.5; 8].into_iter()), 8.0);
        // One sample of weight 9 and nine of weight 1: (18)² / (81 + 9) = 3.6.
        let weights: Vec<f64> = std::iter::once(9.0).chain([1.0; 9]).collect();
        assert!((effective_size(weights.iter().copied()) - 3.6).abs() < 1e-12);
        // Values alternating ±1 over those weights, and the same values equally weighted.
        let values: Vec<f64> = (0..10).map(|i| if i % 2 == 0 { 1.0 } else { -1.0 }).collect();
        let weighted = mean_and_margin(weights.iter().copied().zip(values.iter().copied()));
        let equal = mean_and_margin(values.iter().map(|&x| (1.0, x)));
        assert!(weighted.1 > 1.5 * equal.1, "{weighted:?} against {equal:?}");
        // The margin is that of 3.6 samples with the weighted spread.
        let (m, e) = weighted;
        let spread = weights.iter().zip(&values).map(|(w, x)| w * (x - m).powi(2)).sum::<f64>() / 18.0;
        assert!((e - Z95 * (spread / 2.6).sqrt()).abs() < 1e-9, "{e}");
    }

    /// A chance measured from samples that all agree keeps a margin: a few samples cannot show
    /// that something never happens.
    #[test]
    fn a_chance_from_samples_that_all_agree_keeps_a_margin() {
        for n in [8, 16, 64] {
            for p in [0.0, 1.0] {
                let e = chance_margin(p, n);
                assert!(e > 0.02 && e < 1.0, "{p} over {n}: {e}");
            }
        }
        assert!(chance_margin(0.0, 8) > chance_margin(0.0, 64));
        // Near the middle it is close to 1.96·√(p(1−p)/n).
        let wald = Z95 * (0.25f64 / 400.0).sqrt();
        assert!((chance_margin(0.5, 400) - wald).abs() < 0.002);
    }
}
