//! Complete random deals — shuffle and deal, auction, play, score — on one core: Prisdorf's,
//! Großenaspe's, Anseggerfips' and Duttfips', in the same run.
//! `cargo bench -p fipsen-rules --bench deals`

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use fipsen_rules::{
    Action, AnyGame, Deal, Event, GameAction, GameRules, Players, RuleSet, Seat, Seed, Series, grossenaspe, mecklenburg,
};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// One complete deal with random legal moves (passing half the time in the auction).
/// Returns the declarer's score, so nothing can be optimised away.
fn random_deal(rules: RuleSet, seed: Seed, rng: &mut Rng, legal: &mut Vec<Action>, events: &mut Vec<Event>) -> i32 {
    let (mut deal, _) = Deal::new(rules, 1, Seat(0), seed);
    while let Some(seat) = deal.turn() {
        deal.legal_actions_into(seat, legal);
        let r = rng.next();
        let action = if r & 1 == 0 && legal.contains(&Action::Pass) {
            Action::Pass
        } else {
            legal[((r >> 1) % legal.len() as u64) as usize]
        };
        events.clear();
        let _ = deal.apply_into(seat, action, events);
    }
    deal.outcome().and_then(|o| o.score()).map_or(0, |(_, p)| p)
}

/// One complete Großenaspe deal with random legal moves, the same way.
fn random_grossenaspe_deal(
    rules: grossenaspe::Rules,
    seed: Seed,
    rng: &mut Rng,
    legal: &mut Vec<grossenaspe::Action>,
    events: &mut Vec<grossenaspe::Event>,
) -> i32 {
    let (mut deal, _) = grossenaspe::Deal::new(rules, 1, Seat(0), seed);
    while let Some(seat) = deal.turn() {
        deal.legal_actions_into(seat, legal);
        let r = rng.next();
        let action = if r & 1 == 0 && legal.contains(&grossenaspe::Action::Pass) {
            grossenaspe::Action::Pass
        } else {
            legal[((r >> 1) % legal.len() as u64) as usize]
        };
        events.clear();
        let _ = deal.apply_into(seat, action, events);
    }
    deal.outcome().and_then(|o| o.score(rules.loss_factor)).map_or(0, |(_, p)| p)
}

/// One complete Mecklenburg deal with random legal moves, the same way.
fn random_mecklenburg_deal(
    rules: mecklenburg::Rules,
    seed: Seed,
    rng: &mut Rng,
    legal: &mut Vec<mecklenburg::Action>,
    events: &mut Vec<mecklenburg::Event>,
) -> i32 {
    let (mut deal, _) = mecklenburg::Deal::new(rules, 1, Seat(0), seed);
    while let Some(seat) = deal.turn() {
        deal.legal_actions_into(seat, legal);
        let r = rng.next();
        let action = if r & 1 == 0 && legal.contains(&mecklenburg::Action::Pass) {
            mecklenburg::Action::Pass
        } else {
            legal[((r >> 1) % legal.len() as u64) as usize]
        };
        events.clear();
        let _ = deal.apply_into(seat, action, events);
    }
    deal.outcome().and_then(|o| o.score(rules.loss_factor())).map_or(0, |(_, p)| p)
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_deal");
    group.throughput(Throughput::Elements(1));
    for (name, rules) in [
        ("four_players", RuleSet::prisdorf()),
        ("three_players", RuleSet { players: Players::Three, ..RuleSet::prisdorf() }),
    ] {
        let mut rng = Rng(1);
        let mut legal = Vec::with_capacity(64);
        let mut events = Vec::with_capacity(16);
        let mut n = 0u64;
        group.bench_function(name, |b| {
            b.iter(|| {
                n += 1;
                let mut seed = [0u8; 32];
                seed[..8].copy_from_slice(&n.to_le_bytes());
                black_box(random_deal(rules, Seed(seed), &mut rng, &mut legal, &mut events))
            })
        });
    }
    for (name, players) in
        [("grossenaspe_four_players", 4), ("grossenaspe_three_players", 3), ("grossenaspe_five_players", 5)]
    {
        let rules = grossenaspe::Rules { players, ..grossenaspe::Rules::grossenaspe() };
        let mut rng = Rng(1);
        let mut legal = Vec::with_capacity(64);
        let mut events = Vec::with_capacity(16);
        let mut n = 0u64;
        group.bench_function(name, |b| {
            b.iter(|| {
                n += 1;
                let mut seed = [0u8; 32];
                seed[..8].copy_from_slice(&n.to_le_bytes());
                black_box(random_grossenaspe_deal(rules, Seed(seed), &mut rng, &mut legal, &mut events))
            })
        });
    }
    for (name, rules) in [
        ("anseggerfips", mecklenburg::AnseggerfipsRules::anseggerfips().into()),
        (
            "anseggerfips_dutt_exchange",
            mecklenburg::AnseggerfipsRules { dutt: mecklenburg::DuttUse::Exchange, ..Default::default() }.into(),
        ),
        ("duttfips", mecklenburg::DuttfipsRules::duttfips().into()),
    ] {
        let mut rng = Rng(1);
        let mut legal = Vec::with_capacity(256);
        let mut events = Vec::with_capacity(16);
        let mut n = 0u64;
        group.bench_function(name, |b| {
            b.iter(|| {
                n += 1;
                let mut seed = [0u8; 32];
                seed[..8].copy_from_slice(&n.to_le_bytes());
                black_box(random_mecklenburg_deal(rules, Seed(seed), &mut rng, &mut legal, &mut events))
            })
        });
    }
    // The cost of the game interface: deals of an open-ended Prisdorf series played through the
    // series' own methods, and the same through the registry's `AnyGame` as the server plays them.
    {
        let (mut series, _) = Series::new(RuleSet::prisdorf(), Seed([5; 32])).expect("rules");
        let mut rng = Rng(1);
        group.bench_function("prisdorf_series_direct", |b| {
            b.iter(|| {
                let mut moves = 0u32;
                while !series.deal().is_over() {
                    let seat = series.deal().turn().expect("a turn");
                    let legal = series.legal_actions(seat);
                    let r = rng.next();
                    let action = if r & 1 == 0 && legal.contains(&Action::Pass) {
                        Action::Pass
                    } else {
                        legal[((r >> 1) % legal.len() as u64) as usize]
                    };
                    moves += series.apply(seat, action).map_or(0, |e| e.len() as u32);
                }
                series.next_deal().expect("open-ended");
                black_box(moves)
            })
        });
        let (mut game, _) = AnyGame::start(&GameRules::Prisdorf(RuleSet::prisdorf()), Seed([5; 32])).expect("rules");
        let mut rng = Rng(1);
        let pass = GameAction::Prisdorf(Action::Pass);
        group.bench_function("prisdorf_series_any_game", |b| {
            b.iter(|| {
                let mut moves = 0u32;
                while !game.deal_over() {
                    let seat = game.turn().expect("a turn");
                    let legal = game.legal_actions(seat);
                    let r = rng.next();
                    let action = if r & 1 == 0 && legal.contains(&pass) {
                        pass
                    } else {
                        legal[((r >> 1) % legal.len() as u64) as usize]
                    };
                    moves += game.apply(seat, &action).map_or(0, |e| e.len() as u32);
                }
                game.next_deal().expect("open-ended");
                black_box(moves)
            })
        });
    }
    group.finish();

    // The parts, to see where the time goes.
    let mut n = 0u64;
    c.bench_function("shuffle_and_deal", |b| {
        b.iter(|| {
            n += 1;
            let mut seed = [0u8; 32];
            seed[..8].copy_from_slice(&n.to_le_bytes());
            black_box(Deal::new(RuleSet::prisdorf(), 1, Seat(0), Seed(seed)))
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
