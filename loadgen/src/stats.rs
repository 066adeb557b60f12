//! Latency histograms (HdrHistogram, microseconds) and their summaries.

use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// The longest latency a histogram holds; longer ones are clamped to it.
const MAX_MICROS: u64 = 600_000_000;

/// A latency histogram in microseconds, three significant digits.
#[derive(Debug, Clone)]
pub struct Latency(Histogram<u64>);

impl Default for Latency {
    fn default() -> Self {
        Latency::new()
    }
}

impl Latency {
    /// An empty histogram.
    pub fn new() -> Latency {
        Latency(Histogram::new_with_bounds(1, MAX_MICROS, 3).expect("constant bounds that hdrhistogram accepts"))
    }

    /// Records one duration (at least 1 µs, at most ten minutes).
    pub fn record(&mut self, d: Duration) {
        let micros = u64::try_from(d.as_micros()).unwrap_or(MAX_MICROS).clamp(1, MAX_MICROS);
        self.0.saturating_record(micros);
    }

    /// Adds another histogram's values.
    pub fn merge(&mut self, other: &Latency) {
        // Same bounds on both sides: adding cannot fail.
        let _ = self.0.add(&other.0);
    }

    /// How many values.
    pub fn count(&self) -> u64 {
        self.0.len()
    }

    /// The value at quantile `q` (0..=1), in milliseconds.
    pub fn quantile_ms(&self, q: f64) -> f64 {
        if self.0.is_empty() { 0.0 } else { self.0.value_at_quantile(q) as f64 / 1000.0 }
    }

    /// The usual summary.
    pub fn summary(&self) -> Summary {
        Summary {
            count: self.count(),
            p50_ms: self.quantile_ms(0.50),
            p90_ms: self.quantile_ms(0.90),
            p99_ms: self.quantile_ms(0.99),
            p999_ms: self.quantile_ms(0.999),
            max_ms: if self.0.is_empty() { 0.0 } else { self.0.max() as f64 / 1000.0 },
            mean_ms: if self.0.is_empty() { 0.0 } else { self.0.mean() / 1000.0 },
        }
    }
}

/// Quantiles of a latency histogram, in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Summary {
    /// How many values.
    pub count: u64,
    /// Median.
    pub p50_ms: f64,
    /// 90th percentile.
    pub p90_ms: f64,
    /// 99th percentile.
    pub p99_ms: f64,
    /// 99.9th percentile.
    pub p999_ms: f64,
    /// Largest.
    pub max_ms: f64,
    /// Mean.
    pub mean_ms: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_follow_the_recorded_values() {
        let mut h = Latency::new();
        for micros in 1..=1000u64 {
            h.record(Duration::from_micros(micros));
        }
        let s = h.summary();
        assert_eq!(s.count, 1000);
        assert!((s.p50_ms - 0.5).abs() < 0.002, "{s:?}");
        assert!((s.p99_ms - 0.99).abs() < 0.002, "{s:?}");
        assert!((s.max_ms - 1.0).abs() < 0.002, "{s:?}");
        let mut other = Latency::new();
        other.record(Duration::from_secs(2));
        h.merge(&other);
        assert_eq!(h.count(), 1001);
        assert!((h.summary().max_ms - 2000.0).abs() < 2.0);
    }

    #[test]
    fn an_empty_histogram_reports_zeros() {
        assert_eq!(Latency::new().summary(), Summary::default());
    }
}
