//! Exact solve of a full deal from the first lead.

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};

#[path = "../tests/all/common/mod.rs"]
mod common;
use fipsen_bots::rng::Rng;
use fipsen_bots::solver::{Position, Solver, Stakes};
use fipsen_rules::{Deal, Players, RuleSet, Seat, Seed};

/// Random deals at their first lead: Vorhand bids at random, the others pass, the declarer
/// takes the skat or not, discards and names trumps at random.
fn positions(players: Players, count: usize) -> Vec<(Position, Stakes)> {
    let mut rng = Rng::new(7);
    let mut out = Vec::new();
    while out.len() < count {
        let rules = RuleSet { players, ..RuleSet::prisdorf() };
        let dealer = Seat(rng.index(usize::from(players.count())) as u8);
        let (mut deal, _) = Deal::new(rules, 1, dealer, Seed::from_u64(rng.next_u64()));
        if common::to_play(&mut rng, &mut deal) {
            let game = deal.game().expect("declared");
            if let Some(pos) = Position::from_deal(&deal) {
                out.push((pos, Stakes::from_game(&game, 0, 0)));
            }
        }
    }
    out
}

/// Prints the spread over single deals (criterion below reports the mean over the set).
fn spread(name: &str, set: &[(Position, Stakes)]) {
    let mut solver = Solver::new();
    let mut times: Vec<f64> = set
        .iter()
        .map(|(pos, stakes)| {
            let reps = 20;
            let start = Instant::now();
            for _ in 0..reps {
                black_box(solver.solve(black_box(pos), stakes));
            }
            start.elapsed().as_secs_f64() * 1e6 / f64::from(reps)
        })
        .collect();
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
    eprintln!(
        "{name}: {} deals, per deal µs: median {:.1}, p90 {:.1}, p99 {:.1}, max {:.1}",
        times.len(),
        at(0.5),
        at(0.9),
        at(0.99),
        at(1.0)
    );
}

/// Whether criterion measures (`cargo bench`), rather than listing or smoke-testing the
/// benchmarks (`cargo test`, nextest): then the set is kept small.
fn measuring() -> bool {
    std::env::args().any(|a| a == "--bench")
}

fn bench(c: &mut Criterion) {
    for (players, name) in [(Players::Four, "solve_first_lead_4p"), (Players::Three, "solve_first_lead_3p")] {
        let set = positions(players, if measuring() { 1000 } else { 8 });
        if measuring() {
            spread(name, &set);
        }
        let mut solver = Solver::new();
        let mut i = 0;
        c.bench_function(name, |b| {
            b.iter(|| {
                let (pos, stakes) = &set[i % set.len()];
                i += 1;
                black_box(solver.solve(black_box(pos), stakes))
            })
        });
        let mut i = 0;
        let mut values = Vec::with_capacity(8);
        c.bench_function(&format!("{name}_every_card"), |b| {
            b.iter(|| {
                let (pos, stakes) = &set[i % set.len()];
                i += 1;
                values.clear();
                solver.card_values(black_box(pos), stakes, &mut values);
                black_box(values.len())
            })
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
