//! What sampling noise costs in the auction: the choice an N-sample estimate makes for an
//! opening bid, scored by a 400-sample estimate.

use fipsen_bots::bot::own_value;
use fipsen_bots::cards::{Bits, PACK};
use fipsen_bots::evaluate::{BidContext, draw_layouts, estimate_games};
use fipsen_bots::knowledge::Knowledge;
use fipsen_bots::rng::Rng;
use fipsen_bots::solver::Solver;
use fipsen_rules::{Bid, Players};

fn best(est: &[fipsen_bots::Estimate]) -> Option<Bid> {
    let mut best = (None, 0.0);
    for bid in Bid::all() {
        let v = own_value(bid, est);
        if v > best.1 + 1e-9 {
            best = (Some(bid), v);
        }
    }
    best.0
}

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(300);
    let mut rng = Rng::new(5);
    let mut solver = Solver::new();
    let sizes = [8usize, 16, 32, 64];
    let mut gain = [0.0f64; 4];
    let mut oracle = 0.0;
    for _ in 0..n {
        let mut cards: Vec<u8> = Bits(PACK).collect();
        rng.shuffle(&mut cards);
        let hand = cards[..5].iter().fold(0u64, |m, &c| m | 1 << c);
        let ctx =
            BidContext { knowledge: Knowledge::before_auction(Players::Four, 1, hand), first_leader: 1, min_bid: 2 };
        let truth_layouts = draw_layouts(&ctx.knowledge, 400, 0, &mut rng);
        let truth = estimate_games(&ctx, &truth_layouts, &mut rng, &mut solver);
        let value = |b: Option<Bid>| b.map_or(0.0, |b| own_value(b, &truth));
        oracle += value(best(&truth));
        for (i, &s) in sizes.iter().enumerate() {
            let l = draw_layouts(&ctx.knowledge, s, 0, &mut rng);
            let est = estimate_games(&ctx, &l, &mut rng, &mut solver);
            gain[i] += value(best(&est));
        }
    }
    println!("per hand, true EV of the opening choice: oracle {:.3}", oracle / n as f64);
    for (i, s) in sizes.iter().enumerate() {
        println!("  {s:3} samples: {:.3}", gain[i] / n as f64);
    }
}
