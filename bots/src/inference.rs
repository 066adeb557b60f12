//! What the auction tells about the other hands.
//!
//! A player who bid 4 holds a strong hand; one who passed at 2 a weak one. The strong bot weighs
//! each sampled layout by how likely the calls that were made are with the hands it deals, and
//! resamples by those weights. The model is deliberately plain: a hand's heuristic strength
//! ([`crate::heuristic::strength`], in tricks) against the tricks a call promises, through a
//! logistic curve fitted to how the sampling bots themselves bid (see `examples/limits.rs`).

use fipsen_rules::{Bid, Call, DealView};

use crate::evaluate::draw_layouts;
use crate::heuristic::{best_natural, strength};
use crate::knowledge::{Knowledge, Layout};
use crate::rng::Rng;
use crate::solver::MAX_PLAYERS;

/// What one call says about its caller's dealt hand.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Evidence {
    /// He was ready to play a game this high (tricks, a double counting as a little more).
    AtLeast(f64),
    /// He was not ready to play a game this high.
    Below(f64),
}

/// A seat's call and what it says.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Clue {
    /// The caller.
    pub seat: u8,
    /// What it says.
    pub evidence: Evidence,
}

/// The height of a bid in tricks, each double counting as 0.4 of a trick; a Kieker as 4.9.
fn tricks_worth(bid: Bid) -> f64 {
    match bid {
        Bid::Tricks { tricks, .. } => f64::from(tricks) + 0.4 * f64::from(bid.doubles()),
        Bid::Kieker => 4.9,
    }
}

/// The clues in the auction of `view` about every seat but the viewer's.
pub fn clues(view: &DealView) -> Vec<Clue> {
    let viewer = view.viewer.map(|s| s.0);
    let mut out = Vec::new();
    let mut standing: Option<Bid> = None;
    let mut holder: Option<u8> = None;
    for record in &view.calls {
        let seat = record.seat.0;
        let evidence = match record.call {
            Call::Bid { bid } => {
                standing = Some(bid);
                if holder.is_none() {
                    holder = Some(seat);
                }
                // A Kieker hand is weak in court cards by rule; its strength says little.
                (bid != Bid::Kieker).then_some(Evidence::AtLeast(tricks_worth(bid)))
            }
            Call::Hold => standing.map(|b| Evidence::AtLeast(tricks_worth(b))),
            Call::Pass => {
                let e = match standing {
                    None => Evidence::Below(f64::from(view.rules.min_bid)),
                    // The holder could have held the standing bid.
                    Some(b) if holder == Some(seat) => Evidence::Below(tricks_worth(b)),
                    Some(b) => Evidence::Below(tricks_worth(b) + 0.4),
                };
                if holder == Some(seat) {
                    // The challenger survives the duel.
                    holder = last_bidder_other_than(view, seat);
                }
                Some(e)
            }
        };
        if let Some(evidence) = evidence
            && Some(seat) != viewer
        {
            out.push(Clue { seat, evidence });
        }
    }
    out
}

fn last_bidder_other_than(view: &DealView, seat: u8) -> Option<u8> {
    view.calls.iter().rev().find(|r| r.seat.0 != seat && matches!(r.call, Call::Bid { .. })).map(|r| r.seat.0)
}

/// The strength of a five-card hand for its best trumps.
pub fn hand_strength(hand: u64) -> f64 {
    best_natural(hand, 5).2.max(strength(hand, 3))
}

/// The chance that a hand of strength `x` is ready to play `tricks`.
fn ready(x: f64, tricks: f64) -> f64 {
    let centre = 1.9 + 1.2 * (tricks - 2.0);
    1.0 / (1.0 + (-(x - centre) / 0.3).exp())
}

/// How likely the clues are with these dealt hands (each factor kept above a floor, as no
/// model of a human bidder is exact).
pub fn likelihood(clues: &[Clue], dealt: &[u64; MAX_PLAYERS]) -> f64 {
    likelihood_with(clues, dealt, hand_strength)
}

/// [`likelihood`] with a game's own measure of a dealt hand's strength in tricks.
pub fn likelihood_with(clues: &[Clue], dealt: &[u64; MAX_PLAYERS], strength: impl Fn(u64) -> f64) -> f64 {
    let mut strengths = [f64::NAN; MAX_PLAYERS];
    let mut w = 1.0;
    for clue in clues {
        let s = usize::from(clue.seat);
        if strengths[s].is_nan() {
            strengths[s] = strength(dealt[s]);
        }
        let p = match clue.evidence {
            Evidence::AtLeast(t) => ready(strengths[s], t),
            Evidence::Below(t) => 1.0 - ready(strengths[s], t),
        };
        w *= p.max(0.03);
    }
    w
}

/// Layouts drawn from `k`; with clues, four times as many are drawn and `samples` of them kept
/// with chances proportional to how well the hands (with the cards already `played`) fit the
/// clues, a hand's strength measured by `strength`. When at most `enumerate_limit` layouts
/// exist, all are used (resampled by weight).
pub fn weighted_layouts(
    k: &Knowledge,
    clues: &[Clue],
    played: &[u64; MAX_PLAYERS],
    samples: usize,
    enumerate_limit: u64,
    rng: &mut Rng,
    strength: impl Fn(u64) -> f64 + Copy,
) -> Vec<Layout> {
    if clues.is_empty() {
        return draw_layouts(k, samples, enumerate_limit, rng);
    }
    let candidates = draw_layouts(k, samples * 4, enumerate_limit, rng);
    let enumerated = candidates.len() != samples * 4;
    let weights: Vec<f64> = candidates
        .iter()
        .map(|l| {
            let mut dealt = l.hands;
            for s in 0..MAX_PLAYERS {
                dealt[s] |= played[s];
            }
            likelihood_with(clues, &dealt, strength)
        })
        .collect();
    let n = if enumerated { candidates.len() } else { samples };
    resample(&candidates, &weights, n, rng)
}

/// Picks `n` of `candidates` with chances proportional to `weights` (systematic resampling).
pub fn resample(candidates: &[Layout], weights: &[f64], n: usize, rng: &mut Rng) -> Vec<Layout> {
    let total: f64 = weights.iter().sum();
    if candidates.is_empty() || total <= 0.0 || !total.is_finite() {
        return candidates.iter().take(n).copied().collect();
    }
    let step = total / n as f64;
    let mut at = rng.unit() * step;
    let mut out = Vec::with_capacity(n);
    let mut acc = 0.0;
    for (layout, &w) in candidates.iter().zip(weights) {
        acc += w;
        while at < acc && out.len() < n {
            out.push(*layout);
            at += step;
        }
    }
    while out.len() < n {
        out.push(candidates[candidates.len() - 1]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use fipsen_rules::{Card, Deal, RuleSet, Seat, Seed};

    #[test]
    fn a_bid_favours_strong_hands_and_a_pass_weak_ones() {
        let mask =
            |codes: &str| crate::cards::mask_of(codes.split_whitespace().map(|c| c.parse::<Card>().unwrap().index()));
        let strong = mask("CA CK CQ CJ C10");
        let weak = mask("C7 S7 S8 H7 H8"); // sevens and eights
        let bid = [Clue { seat: 1, evidence: Evidence::AtLeast(4.0) }];
        let pass = [Clue { seat: 1, evidence: Evidence::Below(2.0) }];
        let hands = |h: u64| [0, h, 0, 0, 0];
        assert!(likelihood(&bid, &hands(strong)) > 10.0 * likelihood(&bid, &hands(weak)));
        assert!(likelihood(&pass, &hands(weak)) > 10.0 * likelihood(&pass, &hands(strong)));
    }

    #[test]
    fn clues_read_the_auction_from_the_viewers_seat() {
        let (mut deal, _) = Deal::new(RuleSet::prisdorf(), 1, Seat(3), Seed::from_u64(4));
        // Vorhand (0) bids 2, seat 1 bids 3, seat 0 passes, seat 2 passes, seat 3 passes.
        let two = fipsen_rules::Action::Bid { bid: Bid::tricks(2) };
        let three = fipsen_rules::Action::Bid { bid: Bid::tricks(3) };
        for (seat, action) in [
            (0, two),
            (1, three),
            (0, fipsen_rules::Action::Pass),
            (2, fipsen_rules::Action::Pass),
            (3, fipsen_rules::Action::Pass),
        ] {
            deal.apply(Seat(seat), action).unwrap();
        }
        let c = clues(&deal.view(Some(Seat(2))));
        assert_eq!(
            c,
            vec![
                Clue { seat: 0, evidence: Evidence::AtLeast(2.0) },
                Clue { seat: 1, evidence: Evidence::AtLeast(3.0) },
                Clue { seat: 0, evidence: Evidence::Below(3.0) },
                Clue { seat: 3, evidence: Evidence::Below(3.4) },
            ]
        );
    }
}
