//! Großenaspe Fipsen: property tests over random seeds and every combination of options, the
//! same invariants as Prisdorf's (at least 10,000 complete deals per run; set
//! `FIPSEN_PROPTEST_CASES` to change the count).
//!
//! For every step of every deal: the 32 cards are all somewhere, once; only the seat to act has
//! legal actions; every candidate action is accepted exactly when listed, and a refused one
//! leaves the state unchanged; every view and every event a viewer receives holds only cards
//! that viewer may see (worked out here from the true event log, independently of the view
//! code), and the stubs keep the seat and the count. For every deal: it ends; its score follows
//! the formula of §A7 recomputed from the events; the state survives a JSON round trip; and the
//! same seed and actions give the same events.

use crate::grossenaspe_common;

use fipsen_rules::grossenaspe::{Action, Bid, Deal, Event, Rules};
use fipsen_rules::{CardSet, FirstLead, KiekerShow, Pack, Seat, Seed, Suit};
use grossenaspe_common::holstein_common::properties::{CheckedDeal, Knowledge, play_checked};
use grossenaspe_common::{Rng, choose};
use proptest::prelude::*;

const PACK: CardSet = Pack::P32.cards();

/// Every action worth trying for `seat`: the fixed ones, every bid and some malformed ones,
/// every suit, every card, and discards of several sizes.
fn candidates(deal: &Deal, seat: Seat, rng: &mut Rng) -> Vec<Action> {
    let mut out = vec![
        Action::Hold,
        Action::Pass,
        Action::Fold,
        Action::Stop,
        Action::GoOn,
        Action::Bid { bid: Bid::tricks(0) },
        Action::Bid { bid: Bid::gute(6) },
        Action::Discard { cards: CardSet::EMPTY },
    ];
    out.extend(Bid::ALL.map(|bid| Action::Bid { bid }));
    out.extend(Suit::ALL.map(|suit| Action::NameTrumps { suit }));
    out.extend(PACK.iter().map(|card| Action::Play { card }));
    let hand = deal.hand(seat);
    for k in [1, 2, 3, 5, 7, 12] {
        out.push(Action::Discard { cards: rng.subset(hand, k) });
    }
    let k = hand.len().saturating_sub(5);
    out.push(Action::Discard { cards: rng.subset(PACK, k) });
    out
}

/// The score of §A7, computed from the events alone.
fn expected_scores(events: &[Event], rules: Rules) -> Vec<i32> {
    let mut scores = vec![0; usize::from(rules.players)];
    let mut declarer = None;
    let mut bid = None;
    let (mut clubs, mut went_on, mut taken) = (false, false, 0u8);
    for event in events {
        match event {
            Event::AuctionWon { declarer: d, contract } => {
                declarer = Some(*d);
                bid = Some(contract.bid);
            }
            Event::TrumpsNamed { suit, .. } => clubs = *suit == Suit::Clubs,
            Event::WentOn { .. } => went_on = true,
            Event::TrickTaken { seat } if Some(*seat) == declarer => taken += 1,
            Event::Folded { seat } => {
                scores[seat.index()] = -5;
                return scores;
            }
            _ => {}
        }
    }
    let (Some(declarer), Some(bid)) = (declarer, bid) else { return scores };
    let (value, target) = match bid {
        Bid::Kieker => (10, 5),
        Bid::Fips => (20, 5),
        Bid::Tricks { tricks, gute } => {
            assert!(!gute || clubs, "a Gute game is played in clubs");
            let durch = went_on || tricks == 5;
            let g = if clubs { 2 } else { 1 };
            let d = if durch { 2 } else { 1 };
            (i32::from(tricks) * g * d, if durch { 5 } else { tricks })
        }
    };
    scores[declarer.index()] = if taken >= target { value } else { -i32::from(rules.loss_factor) * value };
    scores
}

impl CheckedDeal for Deal {
    const MAX_STEPS: usize = 200;
    const CARD_KEYS: Option<&'static [&'static str]> = Some(&["hands", "skat", "talon", "cards", "hand"]);

    fn candidates(&self, seat: Seat, rng: &mut Rng) -> Vec<Action> {
        candidates(self, seat, rng)
    }

    /// What each viewer may see, worked out from the true events alone (§A9).
    fn learn(knowledge: &mut Knowledge, event: &Event) {
        match event {
            Event::Dealt { hands, .. } => knowledge.dealt(hands),
            Event::SkatTaken { seat, skat } => knowledge.add(*seat, *skat),
            Event::KiekerShown { to, hand, .. } => knowledge.add(*to, *hand),
            Event::KiekerPickedUp { seat, skat, talon, .. } => {
                knowledge.add(*seat, *skat);
                knowledge.add(*seat, *talon);
            }
            Event::CardPlayed { card, .. } => knowledge.played(*card),
            Event::DealOver { .. } => knowledge.show_all(PACK),
            _ => {}
        }
    }

    fn pick(&self, turn: Seat, legal: &[Action], rng: &mut Rng) -> (Seat, Action) {
        (turn, choose(legal, rng))
    }

    fn check_scores(&self, log: &[Event]) {
        let scores = match log.last() {
            Some(Event::DealOver { scores, .. }) => scores.clone(),
            other => panic!("the last event is the end of the deal, not {other:?}"),
        };
        assert_eq!(scores, expected_scores(log, *self.rules()), "score formula; events: {log:?}");
    }
}

fn rules_from(players: u8, options: (bool, bool, bool, bool)) -> Rules {
    Rules {
        players,
        min_bid: if options.0 { 2 } else { 1 },
        kieker_show: if options.1 { KiekerShow::Nobody } else { KiekerShow::LeftOpponent },
        first_lead: if options.2 { FirstLead::Declarer } else { FirstLead::Forehand },
        loss_factor: if options.3 { 1 } else { 2 },
        deals: None,
        cents: false,
    }
}

fn cases() -> u32 {
    std::env::var("FIPSEN_PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(10_000)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_grossenaspe_deals_keep_every_invariant(
        seed in any::<u64>(),
        policy in any::<u64>(),
        players in 3u8..=5,
        dealer in 0u8..5,
        options in any::<(bool, bool, bool, bool)>(),
    ) {
        let rules = rules_from(players, options);
        let dealer = Seat(dealer % players);
        let full = seed % 16 == 0;
        let deal = || Deal::new(rules, 1, dealer, Seed::from_u64(seed));
        play_checked(deal(), deal, policy, full);
    }
}
