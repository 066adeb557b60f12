//! A strong bot's decisions: the card at the first lead, and its first call in the auction;
//! and the bidding review of a finished deal for its declarer (what the server computes when a
//! player asks).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use fipsen_bots::arena::Player;
use fipsen_bots::rng::Rng;
use fipsen_bots::{Bot, Level};
use fipsen_rules::{Deal, DealView, Phase, RuleSet, Seat, Seed};

/// Deals driven by normal bots up to the first lead; the view of the seat to lead.
fn first_leads(count: usize) -> Vec<DealView> {
    let mut rng = Rng::new(11);
    let mut out = Vec::new();
    while out.len() < count {
        let (mut deal, _) = Deal::new(RuleSet::prisdorf(), 1, Seat(3), Seed::from_u64(rng.next_u64()));
        let players = [Player::of(Level::Normal); 4];
        let mut bots: Vec<Bot> =
            (0..4).map(|s| Bot::with_config(players[s].level, players[s].config, s as u64)).collect();
        while deal.phase() != Phase::Play && !deal.is_over() {
            let seat = deal.turn().expect("a turn");
            let action = bots[seat.index()].choose(&deal.view(Some(seat))).expect("an action");
            deal.apply(seat, action).expect("legal");
        }
        if deal.phase() == Phase::Play {
            let seat = deal.turn().expect("the leader");
            out.push(deal.view(Some(seat)));
        }
    }
    out
}

/// Deals played to the end by normal bots; the declarer's view of each (everything revealed).
fn finished_deals(count: usize) -> Vec<DealView> {
    let mut rng = Rng::new(13);
    let mut out = Vec::new();
    while out.len() < count {
        let (mut deal, _) = Deal::new(RuleSet::prisdorf(), 1, Seat(3), Seed::from_u64(rng.next_u64()));
        let mut bots: Vec<Bot> = (0..4).map(|s| Bot::new(Level::Normal, s as u64)).collect();
        while let Some(seat) = deal.turn() {
            let action = bots[seat.index()].choose(&deal.view(Some(seat))).expect("an action");
            deal.apply(seat, action).expect("legal");
        }
        if let Some(declarer) = deal.declarer().filter(|_| deal.is_over()) {
            out.push(deal.view(Some(declarer)));
        }
    }
    out
}

fn first_calls(count: usize) -> Vec<DealView> {
    let mut rng = Rng::new(12);
    (0..count)
        .map(|_| {
            let (deal, _) = Deal::new(RuleSet::prisdorf(), 1, Seat(3), Seed::from_u64(rng.next_u64()));
            deal.view(deal.turn())
        })
        .collect()
}

/// Whether criterion measures (`cargo bench`), rather than listing or smoke-testing the
/// benchmarks (`cargo test`, nextest): then the sets are kept small.
fn measuring() -> bool {
    std::env::args().any(|a| a == "--bench")
}

fn bench(c: &mut Criterion) {
    let size = if measuring() { 64 } else { 2 };
    let leads = first_leads(size);
    let mut bot = Bot::new(Level::Strong, 1);
    let mut i = 0;
    c.bench_function("strong_first_lead", |b| {
        b.iter(|| {
            i += 1;
            black_box(bot.choose(black_box(&leads[i % leads.len()])))
        })
    });
    let calls = first_calls(size);
    let mut i = 0;
    c.bench_function("strong_first_call", |b| {
        b.iter(|| {
            i += 1;
            // A new bot each time: the bidding estimate is cached per hand.
            let mut bot = Bot::new(Level::Strong, i as u64);
            black_box(bot.choose(black_box(&calls[i % calls.len()])))
        })
    });
    let finished = finished_deals(if measuring() { 32 } else { 2 });
    let mut i = 0;
    c.bench_function("strong_review_declarer", |b| {
        b.iter(|| {
            i += 1;
            black_box(fipsen_bots::review::review(black_box(&finished[i % finished.len()]), Level::Strong, i as u64))
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
