//! Complete random deals — shuffle and deal, auction, play, score — on one core: Prisdorf's,
//! Großenaspe's, Anseggerfips', Duttfips', Thedinghausen's and Tippen's, in the same run.
//! `cargo bench -p fipsen-rules --bench deals`

use std::hint::black_box;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use fipsen_rules::{
    Action, AnyGame, Deal, Event, GameAction, GameRules, Players, RuleSet, Seat, Seed, Series, grossenaspe,
    mecklenburg, thedinghausen, tippen,
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

/// What a complete random deal needs of a game's `Deal`.
trait RandomDeal: Sized {
    type Rules: Copy;
    type Action: Copy + PartialEq;
    type Event;
    /// The action taken half the time where it is legal.
    const PASS: Self::Action;

    fn deal(rules: Self::Rules, seed: Seed) -> Self;
    fn turn(&self) -> Option<Seat>;
    fn legal_actions_into(&self, seat: Seat, out: &mut Vec<Self::Action>);
    fn apply_into(&mut self, seat: Seat, action: Self::Action, out: &mut Vec<Self::Event>);
    /// The declarer's score once the deal is over, 0 without one.
    fn declarer_score(&self) -> i32;
}

impl RandomDeal for Deal {
    type Rules = RuleSet;
    type Action = Action;
    type Event = Event;
    const PASS: Action = Action::Pass;

    fn deal(rules: RuleSet, seed: Seed) -> Deal {
        Deal::new(rules, 1, Seat(0), seed).0
    }
    fn turn(&self) -> Option<Seat> {
        Deal::turn(self)
    }
    fn legal_actions_into(&self, seat: Seat, out: &mut Vec<Action>) {
        Deal::legal_actions_into(self, seat, out);
    }
    fn apply_into(&mut self, seat: Seat, action: Action, out: &mut Vec<Event>) {
        let _ = Deal::apply_into(self, seat, action, out);
    }
    fn declarer_score(&self) -> i32 {
        self.outcome().and_then(|o| o.score()).map_or(0, |(_, p)| p)
    }
}

impl RandomDeal for grossenaspe::Deal {
    type Rules = grossenaspe::Rules;
    type Action = grossenaspe::Action;
    type Event = grossenaspe::Event;
    const PASS: grossenaspe::Action = grossenaspe::Action::Pass;

    fn deal(rules: grossenaspe::Rules, seed: Seed) -> grossenaspe::Deal {
        grossenaspe::Deal::new(rules, 1, Seat(0), seed).0
    }
    fn turn(&self) -> Option<Seat> {
        grossenaspe::Deal::turn(self)
    }
    fn legal_actions_into(&self, seat: Seat, out: &mut Vec<grossenaspe::Action>) {
        grossenaspe::Deal::legal_actions_into(self, seat, out);
    }
    fn apply_into(&mut self, seat: Seat, action: grossenaspe::Action, out: &mut Vec<grossenaspe::Event>) {
        let _ = grossenaspe::Deal::apply_into(self, seat, action, out);
    }
    fn declarer_score(&self) -> i32 {
        self.outcome().and_then(|o| o.score(self.rules().loss_factor)).map_or(0, |(_, p)| p)
    }
}

impl RandomDeal for mecklenburg::Deal {
    type Rules = mecklenburg::Rules;
    type Action = mecklenburg::Action;
    type Event = mecklenburg::Event;
    const PASS: mecklenburg::Action = mecklenburg::Action::Pass;

    fn deal(rules: mecklenburg::Rules, seed: Seed) -> mecklenburg::Deal {
        mecklenburg::Deal::new(rules, 1, Seat(0), seed).0
    }
    fn turn(&self) -> Option<Seat> {
        mecklenburg::Deal::turn(self)
    }
    fn legal_actions_into(&self, seat: Seat, out: &mut Vec<mecklenburg::Action>) {
        mecklenburg::Deal::legal_actions_into(self, seat, out);
    }
    fn apply_into(&mut self, seat: Seat, action: mecklenburg::Action, out: &mut Vec<mecklenburg::Event>) {
        let _ = mecklenburg::Deal::apply_into(self, seat, action, out);
    }
    fn declarer_score(&self) -> i32 {
        self.outcome().and_then(|o| o.score(self.rules().loss_factor())).map_or(0, |(_, p)| p)
    }
}

impl RandomDeal for thedinghausen::Deal {
    type Rules = thedinghausen::Rules;
    type Action = thedinghausen::Action;
    type Event = thedinghausen::Event;
    const PASS: thedinghausen::Action = thedinghausen::Action::Pass;

    fn deal(rules: thedinghausen::Rules, seed: Seed) -> thedinghausen::Deal {
        thedinghausen::Deal::new(rules, 1, Seat(4), seed, thedinghausen::Round::first()).0
    }
    fn turn(&self) -> Option<Seat> {
        thedinghausen::Deal::turn(self)
    }
    fn legal_actions_into(&self, seat: Seat, out: &mut Vec<thedinghausen::Action>) {
        thedinghausen::Deal::legal_actions_into(self, seat, out);
    }
    fn apply_into(&mut self, seat: Seat, action: thedinghausen::Action, out: &mut Vec<thedinghausen::Event>) {
        let _ = thedinghausen::Deal::apply_into(self, seat, action, out);
    }
    /// The pot, as Thedinghausen has no declarer.
    fn declarer_score(&self) -> i32 {
        self.pot()
    }
}

impl RandomDeal for tippen::Deal {
    type Rules = tippen::Rules;
    type Action = tippen::Action;
    type Event = tippen::Event;
    const PASS: tippen::Action = tippen::Action::Pass;

    fn deal(rules: tippen::Rules, seed: Seed) -> tippen::Deal {
        tippen::Deal::new(rules, 1, Seat(0), seed, tippen::Carry::default()).0
    }
    fn turn(&self) -> Option<Seat> {
        tippen::Deal::turn(self)
    }
    fn legal_actions_into(&self, seat: Seat, out: &mut Vec<tippen::Action>) {
        tippen::Deal::legal_actions_into(self, seat, out);
    }
    fn apply_into(&mut self, seat: Seat, action: tippen::Action, out: &mut Vec<tippen::Event>) {
        let _ = tippen::Deal::apply_into(self, seat, action, out);
    }
    /// The pot, as Tippen has no declarer.
    fn declarer_score(&self) -> i32 {
        self.pot()
    }
}

/// One complete deal of any game with random legal moves (passing half the time in the
/// auction). Returns the declarer's score, so nothing can be optimised away.
fn random_deal<D: RandomDeal>(
    rules: D::Rules,
    seed: Seed,
    rng: &mut Rng,
    legal: &mut Vec<D::Action>,
    events: &mut Vec<D::Event>,
) -> i32 {
    let mut deal = D::deal(rules, seed);
    while let Some(seat) = deal.turn() {
        deal.legal_actions_into(seat, legal);
        let r = rng.next();
        let action = if r & 1 == 0 && legal.contains(&D::PASS) {
            D::PASS
        } else {
            legal[((r >> 1) % legal.len() as u64) as usize]
        };
        events.clear();
        deal.apply_into(seat, action, events);
    }
    deal.declarer_score()
}

/// Benchmarks complete random deals of one game's `Deal` with these rules, each from its own
/// seed.
fn bench_random_deals<D: RandomDeal>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    rules: D::Rules,
    legal_capacity: usize,
) {
    let mut rng = Rng(1);
    let mut legal = Vec::with_capacity(legal_capacity);
    let mut events = Vec::with_capacity(16);
    let mut n = 0u64;
    group.bench_function(name, |b| {
        b.iter(|| {
            n += 1;
            let mut seed = [0u8; 32];
            seed[..8].copy_from_slice(&n.to_le_bytes());
            black_box(random_deal::<D>(rules, Seed(seed), &mut rng, &mut legal, &mut events))
        })
    });
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_deal");
    group.throughput(Throughput::Elements(1));
    for (name, rules) in [
        ("four_players", RuleSet::prisdorf()),
        ("three_players", RuleSet { players: Players::Three, ..RuleSet::prisdorf() }),
    ] {
        bench_random_deals::<Deal>(&mut group, name, rules, 64);
    }
    for (name, players) in
        [("grossenaspe_four_players", 4), ("grossenaspe_three_players", 3), ("grossenaspe_five_players", 5)]
    {
        let rules = grossenaspe::Rules { players, ..grossenaspe::Rules::grossenaspe() };
        bench_random_deals::<grossenaspe::Deal>(&mut group, name, rules, 64);
    }
    for (name, rules) in [
        ("anseggerfips", mecklenburg::AnseggerfipsRules::anseggerfips().into()),
        (
            "anseggerfips_dutt_exchange",
            mecklenburg::AnseggerfipsRules { dutt: mecklenburg::DuttUse::Exchange, ..Default::default() }.into(),
        ),
        ("duttfips", mecklenburg::DuttfipsRules::duttfips().into()),
    ] {
        bench_random_deals::<mecklenburg::Deal>(&mut group, name, rules, 256);
    }
    bench_random_deals::<thedinghausen::Deal>(&mut group, "thedinghausen", thedinghausen::Rules::default(), 16);
    for (name, rules) in [
        ("tippen_modern_grupp", tippen::Rules::default()),
        ("tippen_dreiblatt_1859", tippen::Rules::preset(tippen::Preset::Dreiblatt1859, 4)),
    ] {
        bench_random_deals::<tippen::Deal>(&mut group, name, rules, 16);
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
                        pass.clone()
                    } else {
                        legal.get(((r >> 1) % legal.len() as u64) as usize).expect("in range")
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
