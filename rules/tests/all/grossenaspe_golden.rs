//! Großenaspe golden deals: complete deals kept as data files in `tests/golden/grossenaspe/`
//! (rules, dealer, seed, actions → expected events and scores), replayed by one test. A file that
//! no longer matches fails with the first differing event.
//!
//! To regenerate the expected events after an intended change of the rules:
//! `FIPSEN_BLESS=1 cargo test -p fipsen-rules --test all grossenaspe_golden::`.
//! To build the set from scratch (searching seeds for deals with each wanted feature):
//! `cargo test -p fipsen-rules --test all -- --ignored --exact grossenaspe_golden::generate`.

use crate::grossenaspe_common;

use std::path::PathBuf;

use fipsen_rules::grossenaspe::{Action, Bid, Deal, Event, Outcome, Phase, Rules, Series};
use fipsen_rules::{CardSet, FirstLead, KiekerShow, Seat, Seed, Suit};
use grossenaspe_common::{Rng, choose};

use grossenaspe_common::holstein_common::golden as holstein_golden;
use holstein_golden::save;

type Golden = holstein_golden::Golden<Rules, Action>;

fn golden_dir() -> PathBuf {
    holstein_golden::golden_dir("grossenaspe")
}

#[test]
fn grossenaspe_golden_deals_replay_to_their_recorded_events_and_scores() {
    holstein_golden::replay_all(&golden_dir(), 12, |g: &Golden| {
        holstein_golden::replay(Deal::new(g.rules, 1, g.dealer, g.seed), &g.actions)
    });
}

#[test]
fn a_thrown_in_deal_is_dealt_again_by_the_same_dealer_and_scores_nothing() {
    let rules = Rules::grossenaspe();
    let (mut series, first) = Series::new(rules, Seed::from_u64(3)).expect("valid");
    let Event::ScribeDrawn { scribe, .. } = first[0] else { panic!("the scribe is drawn first") };
    assert_eq!(series.deal().dealer(), scribe.next(4), "the scribe's left neighbour deals first");
    let dealer = series.deal().dealer();
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
    assert_eq!(series.view(None).scribe, scribe);
}

/// The suit of which `hand` holds the most cards, the higher cards breaking ties.
fn longest_suit(hand: CardSet) -> Suit {
    *Suit::ALL
        .iter()
        .max_by_key(|s| {
            let cards = hand.of_suit(**s);
            (cards.len(), cards.highest().map(|c| c.rank()))
        })
        .expect("four suits")
}

/// The declarer's sensible choice: keep the longest suit (highest first, then aces) and name
/// it; otherwise the varied random policy.
fn declarer_choice(deal: &Deal, seat: Seat, legal: &[Action], rng: &mut Rng) -> Action {
    let hand = deal.hand(seat);
    match deal.phase() {
        Phase::Discard if rng.chance(80) => {
            let suit = longest_suit(hand);
            let keep_count = 5;
            let mut order: Vec<_> = hand.iter().collect();
            order.sort_by_key(|c| (c.suit() != suit, std::cmp::Reverse(c.rank())));
            let keep: CardSet = order.into_iter().take(keep_count).collect();
            let cards = hand.difference(keep);
            if legal.contains(&Action::Discard { cards }) { Action::Discard { cards } } else { choose(legal, rng) }
        }
        Phase::Trumps if rng.chance(75) => {
            let suit = longest_suit(hand);
            let action = Action::NameTrumps { suit };
            if legal.contains(&action) { action } else { choose(legal, rng) }
        }
        _ => choose(legal, rng),
    }
}

fn random_deal(rules: Rules, dealer: Seat, seed: Seed, policy: u64) -> (Vec<(Seat, Action)>, Vec<Event>) {
    let mut rng = Rng(policy);
    holstein_golden::random_deal(Deal::new(rules, 1, dealer, seed), |deal, seat, legal| {
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

fn tricks_played(events: &[Event]) -> usize {
    events.iter().filter(|e| matches!(e, Event::TrickTaken { .. })).count()
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

type Wanted = (&'static str, &'static str, Rules, fn(&[Event]) -> bool);

#[test]
#[ignore = "builds the golden set; run by hand"]
fn generate() {
    let four = Rules::grossenaspe();
    let wanted: Vec<Wanted> = vec![
        ("plain-won-stopped", "a plain number bid in a suit other than clubs, won and stopped", four, |e| {
            matches!(bid_of(e), Some(Bid::Tricks { tricks: 1..=4, gute: false }))
                && has(e, |x| matches!(x, Event::Stopped { .. }))
                && !has(e, |x| matches!(x, Event::TrumpsNamed { suit: Suit::Clubs, .. }))
        }),
        ("gute-won", "a Gute bid: clubs forced as trumps, won", four, |e| {
            matches!(bid_of(e), Some(Bid::Tricks { tricks: 1..=4, gute: true })) && won(e)
        }),
        ("clubs-named", "a plain bid with clubs named: the value doubles", four, |e| {
            matches!(bid_of(e), Some(Bid::Tricks { gute: false, .. }))
                && has(e, |x| matches!(x, Event::TrumpsNamed { suit: Suit::Clubs, forced: false, .. }))
                && played(e)
        }),
        ("durch-won", "the declarer goes on for Durch and takes every trick", four, |e| {
            has(e, |x| matches!(x, Event::WentOn { .. })) && won(e)
        }),
        ("durch-lost", "the declarer goes on for Durch and loses a trick", four, |e| {
            has(e, |x| matches!(x, Event::WentOn { .. })) && lost(e)
        }),
        (
            "early-end-won",
            "the declarer reaches his count after losing a trick: won before the fifth trick",
            four,
            |e| won(e) && tricks_played(e) < 5 && !has(e, |x| matches!(x, Event::Stopped { .. })),
        ),
        ("early-end-lost", "the opponents take enough tricks: lost before the fifth trick", four, |e| {
            lost(e) && tricks_played(e) < 5
        }),
        ("five", "a bid of 5: Durch included", four, |e| {
            matches!(bid_of(e), Some(Bid::Tricks { tricks: 5, .. })) && played(e)
        }),
        ("fips-won", "a Fips: the skat untouched, all five tricks", four, |e| bid_of(e) == Some(Bid::Fips) && won(e)),
        ("fips-lost", "a Fips that loses a trick", four, |e| bid_of(e) == Some(Bid::Fips) && lost(e)),
        ("kieker-won", "a Kieker shows his hand, takes skat and talon and takes all five", four, |e| {
            bid_of(e) == Some(Bid::Kieker) && won(e)
        }),
        ("kieker-lost", "a Kieker loses a trick", four, |e| bid_of(e) == Some(Bid::Kieker) && lost(e)),
        ("kieker-folded", "a Kieker folds after discarding: −5", four, |e| {
            matches!(outcome(e), Some(Outcome::Folded { .. }))
        }),
        (
            "kieker-shown-to-nobody",
            "option kieker_show nobody: the Kieker's hand is shown to no one",
            Rules { kieker_show: KiekerShow::Nobody, ..four },
            |e| bid_of(e) == Some(Bid::Kieker) && played(e),
        ),
        ("thrown-in", "everybody passes: the deal is thrown in", four, |e| {
            matches!(outcome(e), Some(Outcome::ThrownIn))
        }),
        ("three-players", "three players: a talon of 15", Rules { players: 3, ..four }, played),
        ("five-players", "five players: a talon of 5", Rules { players: 5, ..four }, played),
        (
            "five-players-kieker",
            "five players: a Kieker from skat and the 5-card talon",
            Rules { players: 5, ..four },
            |e| bid_of(e) == Some(Bid::Kieker) && played(e),
        ),
        (
            "declarer-leads",
            "option first_lead declarer: the declarer leads the first trick",
            Rules { first_lead: FirstLead::Declarer, ..four },
            played,
        ),
        (
            "loss-factor-1",
            "option loss_factor 1: a lost game costs its value once",
            Rules { loss_factor: 1, ..four },
            lost,
        ),
        ("min-bid-2", "option min_bid 2", Rules { min_bid: 2, ..four }, played),
    ];
    std::fs::create_dir_all(golden_dir()).expect("create dir");
    for (i, (name, about, rules, wanted)) in wanted.into_iter().enumerate() {
        let found = (0u64..2_000_000).find_map(|n| {
            let dealer = Seat((n % u64::from(rules.players)) as u8);
            let seed = Seed::from_u64(n * 7919 + i as u64);
            let (actions, events) = random_deal(rules, dealer, seed, n);
            wanted(&events).then_some((dealer, seed, actions, events))
        });
        let Some((dealer, seed, actions, events)) = found else { panic!("no deal found for {name}") };
        let golden = Golden::found::<Deal>((name, about), rules, dealer, seed, actions, &events);
        save(&golden_dir(), i, &golden);
    }
}
