//! Golden deals: complete deals kept as data files in `tests/golden/` (rule set, dealer, seed,
//! actions → expected events and scores), replayed by one test. A file that no longer matches
//! fails with a readable diff of the first differing event.
//!
//! To regenerate the expected events after an intended change of the rules:
//! `FIPSEN_BLESS=1 cargo nextest run -p fipsen-rules --test all -E 'test(/^golden::/)'`.
//! To build the set from scratch (searching seeds for deals with each wanted feature):
//! `cargo test -p fipsen-rules --test all -- --ignored --exact golden::generate`.

use crate::common;

use std::path::PathBuf;

use common::{Rng, choose};
use fipsen_rules::{Action, Bid, Deal, Event, FirstLead, KiekerShow, Outcome, Players, RuleSet, Seat, Seed};

use common::holstein_common::golden as holstein_golden;
use holstein_golden::save;

type Golden = holstein_golden::Golden<RuleSet, Action>;

fn golden_dir() -> PathBuf {
    holstein_golden::golden_dir("")
}

#[test]
fn golden_deals_replay_to_their_recorded_events_and_scores() {
    holstein_golden::replay_all(&golden_dir(), 20, |g: &Golden| {
        holstein_golden::replay(Deal::new(g.rules, 1, g.dealer, g.seed), &g.actions)
    });
}

/// Plays a deal with the varied random policy, acting for the seat whose turn it is; with
/// `give_up_out_of_turn`, a Kieker declarer offered to give up while another seat is to act
/// does so half the time. Also tells whether the deal ended so.
fn random_deal(
    rules: RuleSet,
    dealer: Seat,
    seed: Seed,
    policy: u64,
    give_up_out_of_turn: bool,
) -> (Vec<(Seat, Action)>, Vec<Event>, bool) {
    let (mut deal, first) = Deal::new(rules, 1, dealer, seed);
    let mut rng = Rng(policy);
    let mut events = vec![first];
    let mut actions = Vec::new();
    let mut gave_up_out_of_turn = false;
    while let Some(turn) = deal.turn() {
        let declarer = deal.declarer().filter(|&d| d != turn);
        let (seat, action) = match declarer {
            Some(d) if give_up_out_of_turn && deal.legal_actions(d).contains(&Action::GiveUp) && rng.chance(50) => {
                gave_up_out_of_turn = true;
                (d, Action::GiveUp)
            }
            _ => {
                let legal = deal.legal_actions(turn);
                // Half the time, play the highest playable card: strong hands then make their games.
                let action = match legal.iter().rev().find(|a| matches!(a, Action::Play { .. })) {
                    Some(high) if rng.chance(50) => *high,
                    _ => choose(&legal, &mut rng),
                };
                (turn, action)
            }
        };
        events.extend(deal.apply(seat, action).expect("legal"));
        actions.push((seat, action));
    }
    (actions, events, gave_up_out_of_turn)
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

type Wanted = (&'static str, &'static str, RuleSet, fn(&[Event]) -> bool);

#[test]
#[ignore = "builds the golden set; run by hand"]
fn generate() {
    let four = RuleSet::prisdorf();
    let three = RuleSet { players: Players::Three, ..four };
    let kontra = RuleSet { kontra: true, ..four };
    let wanted: Vec<Wanted> = vec![
        ("won-stopped", "a game won and stopped without Durch", four, |e| {
            has(e, |x| matches!(x, Event::Stopped { .. }))
        }),
        (
            "won-after-lost-trick",
            "the declarer reaches his count after losing a trick: the deal ends at once",
            four,
            |e| matches!(outcome(e), Some(Outcome::Won { game, tricks, .. }) if !game.durch && tricks < 5 && !has(e, |x| matches!(x, Event::Stopped { .. }))),
        ),
        ("lost-early", "the opponents take enough tricks: lost before the fifth trick", four, |e| {
            matches!(outcome(e), Some(Outcome::Lost { .. }))
                && e.iter().filter(|x| matches!(x, Event::TrickTaken { .. })).count() < 5
        }),
        ("durch-won", "the declarer goes on and takes every trick", four, |e| {
            has(e, |x| matches!(x, Event::WentOn { .. })) && matches!(outcome(e), Some(Outcome::Won { .. }))
        }),
        ("durch-lost", "the declarer goes on and loses a trick", four, |e| {
            has(e, |x| matches!(x, Event::WentOn { .. })) && matches!(outcome(e), Some(Outcome::Lost { .. }))
        }),
        ("hand-chosen", "Hand chosen freely after a plain bid", four, |e| {
            has(e, |x| matches!(x, Event::HandChosen { forced: false, .. }))
        }),
        ("hand-forced", "a bid naming Hand: the skat stays untouched", four, |e| {
            has(e, |x| matches!(x, Event::HandChosen { forced: true, .. }))
                && matches!(outcome(e), Some(Outcome::Won { .. } | Outcome::Lost { .. }))
        }),
        ("ruten", "diamonds named: the ♦7 the only trump", four, |e| {
            has(e, |x| matches!(x, Event::TrumpsNamed { suit: fipsen_rules::Suit::Diamonds, forced: false, .. }))
        }),
        ("five", "a bid of 5, Durch included", four, |e| {
            has(e, |x| matches!(x, Event::AuctionWon { contract, .. } if contract.bid == Bid::tricks(5)))
        }),
        (
            "kieker-won",
            "a Kieker takes all five tricks",
            four,
            |e| matches!(outcome(e), Some(Outcome::Won { game, .. }) if game.kieker),
        ),
        (
            "kieker-lost",
            "a Kieker loses a trick",
            four,
            |e| matches!(outcome(e), Some(Outcome::Lost { game, .. }) if game.kieker),
        ),
        ("kieker-given-up", "a Kieker gives up for −5", four, |e| {
            matches!(outcome(e), Some(Outcome::GivenUp { .. }))
        }),
        ("siebener-fips", "four sevens and an ace: +30", four, |e| {
            matches!(outcome(e), Some(Outcome::SiebenerFips { .. }))
        }),
        ("thrown-in", "everybody passes", four, |e| matches!(outcome(e), Some(Outcome::ThrownIn))),
        ("held", "the declarer won by holding", four, |e| {
            has(e, |x| matches!(x, Event::AuctionWon { contract, .. } if contract.held && contract.bid.doubles() > 0))
                && matches!(outcome(e), Some(Outcome::Won { .. } | Outcome::Lost { .. }))
        }),
        ("kontra-rekontra", "Kontra and Rekontra", kontra, |e| {
            has(e, |x| matches!(x, Event::Rekontra { .. }))
                && matches!(outcome(e), Some(Outcome::Won { .. } | Outcome::Lost { .. }))
        }),
        ("kontra-only", "Kontra, no Rekontra", kontra, |e| {
            has(e, |x| matches!(x, Event::Kontra { .. })) && !has(e, |x| matches!(x, Event::Rekontra { .. }))
        }),
        (
            "three-won",
            "three players: a game won",
            three,
            |e| matches!(outcome(e), Some(Outcome::Won { game, .. }) if !game.kieker),
        ),
        ("three-kieker", "three players: a Kieker from skat and the 8-card stock", three, |e| {
            has(e, |x| matches!(x, Event::KiekerPickedUp { .. }))
                && matches!(outcome(e), Some(Outcome::Won { .. } | Outcome::Lost { .. }))
        }),
        ("three-thrown-in", "three players: everybody passes", three, |e| {
            matches!(outcome(e), Some(Outcome::ThrownIn))
        }),
        ("min-bid-3", "house rule: the lowest bid is 3", RuleSet { min_bid: 3, ..four }, |e| {
            matches!(outcome(e), Some(Outcome::Won { .. } | Outcome::Lost { .. }))
        }),
        (
            "declarer-leads",
            "option: the declarer leads the first trick",
            RuleSet { first_lead: FirstLead::Declarer, ..four },
            |e| matches!(outcome(e), Some(Outcome::Won { .. } | Outcome::Lost { .. })),
        ),
        (
            "kieker-shown-to-nobody",
            "option: the Kieker shows his hand to nobody",
            RuleSet { kieker_show: KiekerShow::Nobody, ..four },
            |e| has(e, |x| matches!(x, Event::KiekerPickedUp { .. })),
        ),
        ("five-hand-ruten", "the highest bid: 5 Hand Ruten", four, |e| {
            has(e, |x| matches!(x, Event::AuctionWon { contract, .. } if contract.bid.height() == 12))
        }),
    ];
    // Only the last of these gives up out of turn: the others replay exactly as they were found.
    let out_of_turn: Vec<Wanted> =
        vec![("kieker-given-up-out-of-turn", "a Kieker gives up while an opponent considers Kontra", kontra, |e| {
            // One or two of the three opponents have declined Kontra: the next one is to call.
            let declined = e.iter().filter(|x| matches!(x, Event::Declined { .. })).count();
            matches!(outcome(e), Some(Outcome::GivenUp { .. }))
                && (1..3).contains(&declined)
                && !has(e, |x| matches!(x, Event::Kontra { .. }))
        })];
    let all = wanted.into_iter().map(|w| (w, false)).chain(out_of_turn.into_iter().map(|w| (w, true)));
    std::fs::create_dir_all(golden_dir()).expect("create dir");
    for (i, ((name, about, rules, wanted), give_up_out_of_turn)) in all.enumerate() {
        let found = (0u64..2_000_000).find_map(|n| {
            let dealer = Seat((n % u64::from(rules.players.count())) as u8);
            let seed = Seed::from_u64(n * 7919 + i as u64);
            let (actions, events, gave_up) = random_deal(rules, dealer, seed, n, give_up_out_of_turn);
            (wanted(&events) && gave_up == give_up_out_of_turn).then_some((dealer, seed, actions, events))
        });
        let Some((dealer, seed, actions, events)) = found else { panic!("no deal found for {name}") };
        let golden = Golden::found::<Deal>((name, about), rules, dealer, seed, actions, &events);
        save(&golden_dir(), i, &golden);
    }
}
