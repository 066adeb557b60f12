//! Anseggerfips and Duttfips golden deals: complete deals kept as data files in
//! `tests/golden/anseggerfips/` and `tests/golden/duttfips/` (rules, dealer, seed, actions →
//! expected events and scores), replayed by one test per game. A file that no longer matches
//! fails with the first differing event.
//!
//! To regenerate the expected events after an intended change of the rules:
//! `FIPSEN_BLESS=1 cargo test -p fipsen-rules --test all mecklenburg_golden::`.
//! To build the sets from scratch (searching seeds for deals with each wanted feature):
//! `cargo test -p fipsen-rules --test all -- --ignored --exact mecklenburg_golden::generate`.

use crate::mecklenburg_common;

use std::path::PathBuf;

use fipsen_rules::mecklenburg::{
    Action, Anseggerfips, AnseggerfipsRules, AuctionKind, Bid, Deal, DuttUse, Duttfips, DuttfipsRules, Event,
    GameRules, Outcome, Phase,
};
use fipsen_rules::{CardSet, FirstLead, Seat, Seed, Suit};
use holstein_golden::save;
use mecklenburg_common::holstein_common::golden as holstein_golden;
use mecklenburg_common::{Rng, choose};

type Golden<R> = holstein_golden::Golden<R, Action>;

fn golden_dir<R: GameRules>() -> PathBuf {
    holstein_golden::golden_dir(R::ID.code())
}

fn replay_folder<R: GameRules>() {
    holstein_golden::replay_all(&golden_dir::<R>(), 12, |g: &Golden<R>| {
        holstein_golden::replay(Deal::new(g.rules.rules(), 1, g.dealer, g.seed), &g.actions)
    });
}

#[test]
fn anseggerfips_golden_deals_replay_to_their_recorded_events_and_scores() {
    replay_folder::<AnseggerfipsRules>();
}

#[test]
fn duttfips_golden_deals_replay_to_their_recorded_events_and_scores() {
    replay_folder::<DuttfipsRules>();
}

#[test]
fn an_anseggerfips_deal_nobody_bids_is_dealt_again_by_the_same_dealer_and_scores_nothing() {
    let (mut series, _) = Anseggerfips::new(AnseggerfipsRules::anseggerfips(), Seed::from_u64(3)).expect("valid");
    let dealer = series.deal().dealer();
    assert_eq!(dealer, Seat(3), "seat 3 deals first");
    for _ in 0..4 {
        let seat = series.deal().turn().expect("a turn");
        series.apply(seat, Action::Pass).expect("pass");
    }
    assert_eq!(series.deal().outcome(), Some(Outcome::ThrownIn));
    assert_eq!(series.totals(), [0, 0, 0, 0]);
    assert_eq!(series.counted(), 0);
    series.next_deal().expect("the next deal");
    assert_eq!(series.deal().dealer(), dealer, "the same dealer deals again");
    assert_eq!(series.number(), 2);
    assert_eq!(series.scoresheet().len(), 1);
}

#[test]
fn a_duttfips_series_passes_the_deal_on_and_ends_after_its_deals_with_a_settlement() {
    let rules = DuttfipsRules { deals: Some(2), cents: true, ..DuttfipsRules::duttfips() };
    let (mut series, _) = Duttfips::new(rules, Seed::from_u64(4)).expect("valid");
    let mut rng = Rng(9);
    for deal in 0..2u8 {
        assert_eq!(series.deal().dealer(), Seat((3 + deal) % 4));
        while let Some(seat) = series.deal().turn() {
            let legal = series.legal_actions(seat);
            series.apply(seat, choose(&legal, &mut rng)).expect("legal");
        }
        if deal == 0 {
            series.next_deal().expect("the next deal");
        }
    }
    assert!(series.is_over());
    let view = series.view(Some(Seat(0)));
    assert!(view.over && view.deal.prompt.is_empty());
    let totals = series.totals().to_vec();
    let settlement = view.settlement.expect("cents");
    assert_eq!(settlement.iter().sum::<i32>(), 0);
    assert_eq!(settlement[0], 4 * totals[0] - totals.iter().sum::<i32>());
    assert_eq!(serde_json::to_value(view.deal.rules).expect("json")["game"], "duttfips");
}

/// The suit (clubs, spades or hearts) of which `hand` holds the most cards, the higher cards
/// breaking ties.
fn longest_suit(hand: CardSet) -> Suit {
    *[Suit::Clubs, Suit::Spades, Suit::Hearts]
        .iter()
        .max_by_key(|s| {
            let cards = hand.of_suit(**s);
            (cards.len(), cards.highest().map(|c| c.rank()))
        })
        .expect("three suits")
}

/// The declarer's sensible choice: keep the Rutenas and the longest suit, name it (or Ruten
/// now and then), play his strongest card; otherwise the varied random policy.
fn declarer_choice(deal: &Deal, seat: Seat, legal: &[Action], rng: &mut Rng) -> Action {
    let hand = deal.hand(seat);
    let sensible = |action: Action, rng: &mut Rng| if legal.contains(&action) { action } else { choose(legal, rng) };
    match deal.phase() {
        Phase::Discard if rng.chance(80) => {
            let suit = longest_suit(hand);
            let mut order: Vec<_> = hand.iter().collect();
            order.sort_by_key(|c| (c.suit() != Suit::Diamonds, c.suit() != suit, std::cmp::Reverse(c.rank())));
            let keep: CardSet = order.into_iter().take(5).collect();
            sensible(Action::Discard { cards: hand.difference(keep) }, rng)
        }
        Phase::Trumps if rng.chance(80) => {
            let suit = if rng.chance(25) { Suit::Diamonds } else { longest_suit(hand) };
            sensible(Action::NameTrumps { suit }, rng)
        }
        Phase::Play if rng.chance(80) => {
            let trumps = deal.game().and_then(|g| g.trumps);
            *legal
                .iter()
                .max_by_key(|a| match a {
                    Action::Play { card } => Some((Some(card.suit()) == trumps, card.rank())),
                    _ => None,
                })
                .unwrap_or(&legal[0])
        }
        _ => choose(legal, rng),
    }
}

fn random_deal<R: GameRules>(rules: R, dealer: Seat, seed: Seed, policy: u64) -> (Vec<(Seat, Action)>, Vec<Event>) {
    let mut rng = Rng(policy);
    holstein_golden::random_deal(Deal::new(rules.rules(), 1, dealer, seed), |deal, seat, legal| {
        if deal.declarer() == Some(seat) {
            declarer_choice(deal, seat, legal, &mut rng)
        } else {
            choose(legal, &mut rng)
        }
    })
}

fn outcome(events: &[Event]) -> Option<Outcome> {
    events.iter().find_map(|e| match e {
        Event::DealOver { outcome, .. } => Some(*outcome),
        _ => None,
    })
}

fn has(events: &[Event], f: impl Fn(&Event) -> bool) -> bool {
    events.iter().any(f)
}

fn bid_of(events: &[Event]) -> Option<Bid> {
    events.iter().find_map(|e| match e {
        Event::AuctionWon { contract, .. } => Some(contract.bid),
        _ => None,
    })
}

fn played(events: &[Event]) -> bool {
    matches!(outcome(events), Some(Outcome::Won { .. } | Outcome::Lost { .. }))
}

fn won(events: &[Event]) -> bool {
    matches!(outcome(events), Some(Outcome::Won { .. }))
}

fn lost(events: &[Event]) -> bool {
    matches!(outcome(events), Some(Outcome::Lost { .. }))
}

fn went_on(events: &[Event]) -> bool {
    has(events, |x| matches!(x, Event::WentOn { .. }))
}

fn ruten_named(events: &[Event]) -> bool {
    has(events, |x| matches!(x, Event::TrumpsNamed { suit: Suit::Diamonds, forced: false, .. }))
}

/// Won at the target below 5 with no trick lost and no Durch choice (option `durch` off).
fn ended_at_target(events: &[Event]) -> bool {
    match outcome(events) {
        Some(Outcome::Won { game, tricks, .. }) => {
            !game.durch && tricks == game.target() && tricks < 5 && !has(events, |x| matches!(x, Event::Stopped { .. }))
        }
        _ => false,
    }
}

type Wanted<R> = (&'static str, &'static str, R, fn(&[Event]) -> bool);

fn generate_folder<R: GameRules>(wanted: Vec<Wanted<R>>) {
    std::fs::create_dir_all(golden_dir::<R>()).expect("create dir");
    for (i, (name, about, rules, wanted)) in wanted.into_iter().enumerate() {
        let found = (0u64..3_000_000).find_map(|n| {
            let dealer = Seat((n % 4) as u8);
            let seed = Seed::from_u64(n * 7919 + i as u64);
            let (actions, events) = random_deal(rules, dealer, seed, n);
            wanted(&events).then_some((dealer, seed, actions, events))
        });
        let Some((dealer, seed, actions, events)) = found else { panic!("no deal found for {name}") };
        let golden = Golden::found::<Deal>((name, about), rules, dealer, seed, actions, &events);
        save(&golden_dir::<R>(), i, &golden);
    }
}

#[test]
#[ignore = "builds the golden sets; run by hand"]
fn generate() {
    let a = AnseggerfipsRules::anseggerfips();
    generate_folder(vec![
        ("bid-2", "a bid of 2 in a suit, played", a, |e| {
            bid_of(e) == Some(Bid::tricks(2)) && played(e) && !ruten_named(e)
        }),
        ("bid-3-won-stopped", "a bid of 3 in a suit, won and stopped", a, |e| {
            bid_of(e) == Some(Bid::tricks(3)) && has(e, |x| matches!(x, Event::Stopped { .. })) && !ruten_named(e)
        }),
        ("bid-4-lost", "a bid of 4 in a suit, lost", a, |e| {
            bid_of(e) == Some(Bid::tricks(4)) && lost(e) && !ruten_named(e)
        }),
        ("ruten-n-won", "a Ruten bid by the holder of the Rutenas: trumps forced, won", a, |e| {
            matches!(bid_of(e), Some(Bid::Tricks { ruten: true, .. })) && won(e)
        }),
        ("ruten-n-lost", "a Ruten bid, lost", a, |e| {
            matches!(bid_of(e), Some(Bid::Tricks { ruten: true, .. })) && lost(e)
        }),
        ("ruten-named", "a suit bid turned into its Ruten game by the holder of the Rutenas", a, |e| {
            matches!(bid_of(e), Some(Bid::Tricks { ruten: false, .. })) && ruten_named(e) && played(e)
        }),
        ("durch-won", "the declarer goes on for Durch and takes every trick", a, |e| went_on(e) && won(e)),
        ("durch-lost", "the declarer goes on for Durch and loses a trick", a, |e| went_on(e) && lost(e)),
        ("fips-won", "a Fips in a suit: all five tricks", a, |e| {
            bid_of(e) == Some(Bid::Fips) && won(e) && !ruten_named(e)
        }),
        ("fips-lost", "a Fips that loses a trick", a, |e| bid_of(e) == Some(Bid::Fips) && lost(e) && !ruten_named(e)),
        ("rutenfips-won", "a Rutenfips: the Rutenas alone as trump, all five tricks", a, |e| {
            bid_of(e) == Some(Bid::Rutenfips) && won(e)
        }),
        ("rutenfips-lost", "a Rutenfips that loses a trick", a, |e| bid_of(e) == Some(Bid::Rutenfips) && lost(e)),
        ("thrown-in", "nobody bids: the deal is thrown in", a, |e| outcome(e) == Some(Outcome::ThrownIn)),
        (
            "duels-held",
            "option auction duels: a holder holds the challenger's bid and owes it",
            AnseggerfipsRules { auction: AuctionKind::Duels, ..a },
            |e| has(e, |x| matches!(x, Event::AuctionWon { contract, .. } if contract.held)) && played(e),
        ),
        (
            "dutt-exchange",
            "option dutt exchange: the declarer takes the Dutt and lays five cards away",
            AnseggerfipsRules { dutt: DuttUse::Exchange, ..a },
            played,
        ),
        (
            "declarer-leads",
            "option first_lead declarer: the declarer leads the first trick",
            AnseggerfipsRules { first_lead: FirstLead::Declarer, ..a },
            played,
        ),
        (
            "durch-off",
            "option durch off: the deal ends as soon as the declarer has his target",
            AnseggerfipsRules { durch: false, ..a },
            ended_at_target,
        ),
        (
            "loss-factor-1",
            "option loss_factor 1: a lost game costs its value once",
            AnseggerfipsRules { loss_factor: 1, ..a },
            lost,
        ),
        ("min-bid-1", "option min_bid 1: a bid of 1", AnseggerfipsRules { min_bid: 1, ..a }, |e| {
            matches!(bid_of(e), Some(Bid::Tricks { tricks: 1, .. })) && played(e)
        }),
    ]);
    let d = DuttfipsRules::duttfips();
    generate_folder(vec![
        ("dutt-won-stopped", "a Dutt in a suit, won and stopped at three tricks", d, |e| {
            bid_of(e) == Some(Bid::Dutt) && has(e, |x| matches!(x, Event::Stopped { .. })) && !ruten_named(e)
        }),
        ("dutt-lost", "a Dutt in a suit, lost", d, |e| bid_of(e) == Some(Bid::Dutt) && lost(e) && !ruten_named(e)),
        ("forehand-forced", "forehand must name a contract; everybody else passes and he plays it", d, |e| {
            let calls: Vec<_> = e.iter().filter(|x| matches!(x, Event::Called { .. })).collect();
            calls.len() == 4
                && calls[1..]
                    .iter()
                    .all(|x| matches!(x, Event::Called { call: fipsen_rules::mecklenburg::Call::Pass, .. }))
                && played(e)
        }),
        ("ruten-oewer-won", "a Ruten oewer: the Rutenas alone as trump, three tricks", d, |e| {
            bid_of(e) == Some(Bid::RutenOewer) && won(e)
        }),
        ("ruten-oewer-lost", "a Ruten oewer, lost", d, |e| bid_of(e) == Some(Bid::RutenOewer) && lost(e)),
        ("ruten-named", "a Dutt turned into a Ruten oewer by naming Ruten", d, |e| {
            bid_of(e) == Some(Bid::Dutt) && ruten_named(e) && played(e)
        }),
        ("fips-won", "a Fips in a suit: all five tricks", d, |e| {
            bid_of(e) == Some(Bid::Fips) && won(e) && !ruten_named(e)
        }),
        ("fips-lost", "a Fips that loses a trick", d, |e| bid_of(e) == Some(Bid::Fips) && lost(e) && !ruten_named(e)),
        ("rutenfips-won", "a Rutenfips: all five tricks", d, |e| bid_of(e) == Some(Bid::Rutenfips) && won(e)),
        ("rutenfips-lost", "a Rutenfips that loses a trick", d, |e| bid_of(e) == Some(Bid::Rutenfips) && lost(e)),
        ("durch-won", "the declarer goes on for Durch and takes every trick", d, |e| went_on(e) && won(e)),
        ("durch-lost", "the declarer goes on for Durch and loses a trick", d, |e| went_on(e) && lost(e)),
        (
            "declarer-leads",
            "option first_lead declarer: the declarer leads the first trick",
            DuttfipsRules { first_lead: FirstLead::Declarer, ..d },
            played,
        ),
        (
            "durch-off",
            "option durch off: the deal ends as soon as the declarer has his target",
            DuttfipsRules { durch: false, ..d },
            ended_at_target,
        ),
        (
            "loss-factor-1",
            "option loss_factor 1: a lost game costs its value once",
            DuttfipsRules { loss_factor: 1, ..d },
            lost,
        ),
        (
            "ruten-needs-rutenas",
            "option ruten_needs_rutenas on: a Ruten game by the holder of the Rutenas",
            DuttfipsRules { ruten_needs_rutenas: true, ..d },
            |e| matches!(bid_of(e), Some(Bid::RutenOewer | Bid::Rutenfips)) && played(e),
        ),
    ]);
}
