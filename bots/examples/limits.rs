//! How the bidding limit of the normal bot relates to the heuristic strength of a hand.

use fipsen_bots::cards::{Bits, PACK};
use fipsen_bots::evaluate::{BidContext, estimate_games};
use fipsen_bots::heuristic::{best_natural, strength};
use fipsen_bots::knowledge::Knowledge;
use fipsen_bots::rng::Rng;
use fipsen_bots::solver::Solver;
use fipsen_rules::{Bid, Players};

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(2000);
    let mut rng = Rng::new(77);
    let mut solver = Solver::new();
    // bins of 0.25 strength: counts of limit >= t for t = 2..5
    let mut bins = vec![(0u32, [0u32; 4]); 30];
    for _ in 0..n {
        let mut cards: Vec<u8> = Bits(PACK).collect();
        rng.shuffle(&mut cards);
        let hand = cards[..5].iter().fold(0u64, |m, &c| m | 1 << c);
        let seat = rng.index(4) as u8;
        let leader = rng.index(4) as u8;
        let ctx = BidContext {
            knowledge: Knowledge::before_auction(Players::Four, seat, hand),
            first_leader: leader,
            min_bid: 2,
        };
        let layouts = fipsen_bots::evaluate::draw_layouts(&ctx.knowledge, 32, 0, &mut rng);
        let est = estimate_games(&ctx, &layouts, &mut rng, &mut solver);
        let x = best_natural(hand, 5).2.max(strength(hand, 3));
        let b = ((x / 0.25) as usize).min(29);
        bins[b].0 += 1;
        for t in 2..=5u8 {
            let ok = est.iter().any(|e| matches!(e.game, Bid::Tricks { tricks, .. } if tricks >= t) && e.score > 0.0);
            if ok {
                bins[b].1[usize::from(t - 2)] += 1;
            }
        }
    }
    for (i, (c, ts)) in bins.iter().enumerate() {
        if *c == 0 {
            continue;
        }
        let f = |k: usize| f64::from(ts[k]) / f64::from(*c);
        println!("{:.2} {:5} {:.2} {:.2} {:.2} {:.2}", i as f64 * 0.25, c, f(0), f(1), f(2), f(3));
    }
}
