//! Listing Wippen's legal moves (§E9) and answering selection queries on the hardest positions
//! found by `examples/wippen_worst.rs`, beside the specification's small example.
//! `cargo bench -p fipsen-rules --bench wippen`
//!
//! * `wippen_listing/raw`: [`Position::raw`], the listing as pile sets (what every view's
//!   prompt and the bots use);
//! * `wippen_listing/listing`: [`Deal::listing`], the structured listing with a witness tree
//!   per set;
//! * `wippen_listing/legal_actions`: [`Deal::legal_actions`], the simple moves (each with a
//!   witness), which `Series::legal_actions` and `AnyGame::legal_actions` return;
//! * `wippen_options`: [`Deal::options`], every legal move with one hand card and exactly the
//!   selected piles, which `Series::options` and `AnyGame::query` answer.
//!
//! The full table: two players, nobody has captured, the dealer's first move of the sixth
//! deal — 45 loose cards, four in his hand, three in the other. Of the positions searched it
//! has the most pile sets in its listing (4,296,100 with groups of up to 4 piles).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use fipsen_rules::wippen::{Building, BuildingId, Deal, Op, Operators, Pile, PileRef, Rules};
use fipsen_rules::{Card, CardSet, Seat};

fn card(code: &str) -> Card {
    code.parse().expect("a card")
}

fn cards(codes: &str) -> Vec<Card> {
    codes.split_whitespace().map(card).collect()
}

fn set(codes: &str) -> CardSet {
    cards(codes).into_iter().collect()
}

fn loose(codes: &str) -> Vec<Pile> {
    cards(codes).into_iter().map(|card| Pile::Loose { card }).collect()
}

/// A game at two players, seat 0 (the dealer) to move with `hand`, seat 1 holding `other`.
fn arranged(rules: Rules, table: Vec<Pile>, hand: &str, other: &str) -> Deal {
    Deal::arranged(rules, Seat(0), table, vec![set(hand), set(other)], Vec::new(), Seat(0))
}

/// §E7's example: loose ♠3 ♦2 ♣4 ♦5 and building #1 (6, of the other player: ♥3 ♣3); the mover
/// holds ♥10 ♠5 ♠7 ♦8.
fn example() -> Deal {
    let mut table = loose("S3 D2 C4 D5");
    table.push(Pile::Building(Building { id: BuildingId(1), value: 6, owner: Seat(1), cards: cards("H3 C3") }));
    arranged(Rules::default(), table, "H10 S5 S7 D8", "S2 H6 CA")
}

/// The full table of most pile sets found (`examples/wippen_worst.rs`, part 2).
const FULL_TABLE: &str = "C2 C3 C4 C5 C6 C7 C8 C9 C10 CJ CQ CA S5 S6 S7 S8 S9 S10 SJ SQ HK H2 H3 S4 H5 D6 H7 \
                          H8 H9 H10 HJ HQ HA D2 S3 D4 D5 DA D7 D8 D9 D10 DJ DQ SA";
const FULL_HAND: &str = "S2 H4 H6 D3";
const FULL_OTHER: &str = "CK SK DK";

fn full_table(rules: Rules) -> Deal {
    arranged(rules, loose(FULL_TABLE), FULL_HAND, FULL_OTHER)
}

/// The 45 cards of lowest value in card order, the mover holding ♠K ♠Q ♠J ♠10 (the other
/// player the three other kings): where restricted operators make selections slow.
fn small_values(rules: Rules) -> Deal {
    let hand = set("SK SQ SJ S10");
    let mut rest: Vec<Card> = CardSet::ALL.iter().filter(|c| !hand.contains(*c)).collect();
    rest.sort_by_key(|&c| (fipsen_rules::wippen::value(c), c));
    let table: Vec<Pile> = rest[..45].iter().map(|&card| Pile::Loose { card }).collect();
    let other: CardSet = rest[45..].iter().copied().collect();
    Deal::arranged(rules, Seat(0), table, vec![hand, other], Vec::new(), Seat(0))
}

/// The first `n` piles of the table.
fn first_piles(deal: &Deal, n: usize) -> Vec<PileRef> {
    deal.table().iter().take(n).map(Pile::name).collect()
}

fn bench_listing(c: &mut Criterion) {
    let mut group = c.benchmark_group("wippen_listing");
    group.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(5));
    let seat = Seat(0);
    for (name, deal) in [("example_5_piles", example()), ("full_table_45", full_table(Rules::default()))] {
        group.bench_function(format!("raw/{name}"), |b| b.iter(|| black_box(deal.position(seat).raw())));
        group.bench_function(format!("listing/{name}"), |b| b.iter(|| black_box(deal.listing(seat))));
        group.bench_function(format!("legal_actions/{name}"), |b| b.iter(|| black_box(deal.legal_actions(seat))));
    }
    // The largest groups the options allow: only the sets, as the witness trees of every set
    // would not fit in memory (266 million sets at g = 6).
    for g in [5u8, 6] {
        let deal = full_table(Rules { max_group_piles: g, ..Rules::default() });
        // The reach table of g is computed on first use (1 s at g = 5, 20 s at g = 6): not here.
        let _ = deal.position(seat).raw();
        group.bench_function(format!("raw/full_table_45_g{g}"), |b| b.iter(|| black_box(deal.position(seat).raw())));
    }
    // Groups of up to 6 piles with their witnesses, on the first 20 piles of the full table.
    let deal = arranged(
        Rules { max_group_piles: 6, ..Rules::default() },
        loose(FULL_TABLE).into_iter().take(20).collect(),
        FULL_HAND,
        FULL_OTHER,
    );
    group.bench_function("listing/first_20_piles_g6", |b| b.iter(|| black_box(deal.listing(seat))));
    group.finish();
}

fn bench_options(c: &mut Criterion) {
    let mut group = c.benchmark_group("wippen_options");
    group.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(5));
    let seat = Seat(0);
    // The number of moves found, or none where the search ran out of its budget
    // (`SELECTION_BUDGET`): the query is answered `move/selection_too_large`.
    let ask = |deal: &Deal, c: &str, piles: &[PileRef]| deal.options(seat, card(c), piles).ok().map(|m| m.len());
    // The example's capture of ♥10 with all five piles.
    let deal = example();
    let piles = first_piles(&deal, 5);
    group.bench_function("example_all_piles", |b| b.iter(|| black_box(ask(&deal, "H10", &piles))));
    // Every pile of the full table selected, for each card of the hand in turn.
    let deal = full_table(Rules::default());
    let piles = first_piles(&deal, 45);
    group.bench_function("full_table_all_45_piles", |b| {
        b.iter(|| FULL_HAND.split_whitespace().filter_map(|c| ask(&deal, c, &piles)).sum::<usize>())
    });
    // The slowest selections of the default options found (`examples/wippen_worst.rs`, part 4):
    // the 36 cards A–9 with ♠10 or ♠J.
    let deal = small_values(Rules::default());
    let piles = first_piles(&deal, 36);
    for c in ["S10", "SJ"] {
        group.bench_function(format!("small_values_36_piles_{c}"), |b| b.iter(|| black_box(ask(&deal, c, &piles))));
    }
    // Restricted operators: a selection that cannot be split is searched through every partial
    // split; each further pile multiplies the time.
    let deal = small_values(Rules { operators: Operators::PLUS, ..Rules::default() });
    for n in [20, 24] {
        let piles = first_piles(&deal, n);
        group.bench_function(format!("plus_only_{n}_piles"), |b| b.iter(|| black_box(ask(&deal, "SK", &piles))));
    }
    let deal = small_values(Rules { operators: Operators::of(&[Op::Add, Op::Sub]), ..Rules::default() });
    for n in [16, 19] {
        let piles = first_piles(&deal, n);
        group.bench_function(format!("plus_minus_{n}_piles"), |b| b.iter(|| black_box(ask(&deal, "S10", &piles))));
    }
    // The slowest selection found with + and - (part 4's climb): 21 piles.
    let piles: Vec<PileRef> = cards("HA DA C2 H2 S3 D3 C4 S4 H4 D4 D5 S6 D8 C9 S9 D9 C10 H10 HJ HQ DQ")
        .into_iter()
        .map(PileRef::Card)
        .collect();
    group.bench_function("plus_minus_climbed_21_piles", |b| b.iter(|| black_box(ask(&deal, "S10", &piles))));
    group.finish();
}

criterion_group!(benches, bench_listing, bench_options);
criterion_main!(benches);
