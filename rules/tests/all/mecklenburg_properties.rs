//! Anseggerfips and Duttfips: property tests over random seeds and every combination of
//! options, the same invariants as Prisdorf's and Großenaspe's (at least 10,000 complete deals
//! per game and run; set `FIPSEN_PROPTEST_CASES` to change the count).
//!
//! For every step of every deal: the 25 cards are all somewhere, once; only the seat to act has
//! legal actions; every candidate action is accepted exactly when listed, and a refused one
//! leaves the state unchanged; every view and every event a viewer receives holds only cards
//! that viewer may see (worked out here from the true event log, independently of the view
//! code: his own hand, the Dutt once he took it as declarer, the cards played, everything once
//! the deal is over), and the stubs keep the seat and the count. For every deal: it ends; its
//! score follows value = base × r × d recomputed from the events; the state survives a JSON
//! round trip; and the same seed and actions give the same events.

use crate::mecklenburg_common;

use fipsen_rules::mecklenburg::{
    Action, AnseggerfipsRules, AuctionKind, Bid, Deal, DuttUse, DuttfipsRules, Event, Faces, Rules, Variant,
};
use fipsen_rules::{CardSet, FirstLead, Pack, Seat, Seed, Suit};
use mecklenburg_common::holstein_common::properties::{CheckedDeal, Knowledge, play_checked};
use mecklenburg_common::{Rng, choose};
use proptest::prelude::*;

const PACK: CardSet = Pack::P25_A.cards();

/// Every action worth trying for `seat`: the fixed ones, every bid of both games and some
/// malformed ones, every suit, every card, and discards of several sizes.
fn candidates(deal: &Deal, seat: Seat, rng: &mut Rng) -> Vec<Action> {
    let mut out = vec![
        Action::Hold,
        Action::Pass,
        Action::Stop,
        Action::GoOn,
        Action::Bid { bid: Bid::tricks(0) },
        Action::Bid { bid: Bid::ruten(5) },
        Action::Discard { cards: CardSet::EMPTY },
    ];
    out.extend(Bid::ANSEGGERFIPS.map(|bid| Action::Bid { bid }));
    out.extend([Bid::Dutt, Bid::RutenOewer].map(|bid| Action::Bid { bid }));
    out.extend(Suit::ALL.map(|suit| Action::NameTrumps { suit }));
    out.extend(PACK.iter().map(|card| Action::Play { card }));
    let hand = deal.hand(seat);
    for k in [1, 4, 5, 6, 10] {
        out.push(Action::Discard { cards: rng.subset(hand, k) });
    }
    out.push(Action::Discard { cards: rng.subset(PACK, 5) });
    out
}

/// The score of §B5, computed from the events alone: value = base × r × d.
fn expected_scores(events: &[Event], rules: Rules) -> Vec<i32> {
    let mut scores = vec![0; 4];
    let mut declarer = None;
    let mut bid = None;
    let (mut ruten, mut went_on, mut taken) = (false, false, 0u8);
    for event in events {
        match event {
            Event::AuctionWon { declarer: d, contract } => {
                declarer = Some(*d);
                bid = Some(contract.bid);
            }
            Event::TrumpsNamed { suit, forced, .. } => {
                ruten = *suit == Suit::Diamonds;
                assert_eq!(*forced, bid.is_some_and(Bid::is_ruten), "only a Ruten bid forces trumps");
            }
            Event::WentOn { .. } => went_on = true,
            Event::TrickTaken { seat } if Some(*seat) == declarer => taken += 1,
            _ => {}
        }
    }
    let (Some(declarer), Some(bid)) = (declarer, bid) else { return scores };
    let (base, five) = match bid {
        Bid::Tricks { tricks, .. } => (tricks, false),
        Bid::Dutt | Bid::RutenOewer => (3, false),
        Bid::Fips | Bid::Rutenfips => (5, true),
    };
    assert!(!went_on || rules.durch(), "Durch only where the table plays it");
    let durch = went_on || five;
    let value = i32::from(base) * if ruten { 2 } else { 1 } * if durch { 2 } else { 1 };
    let target = if durch { 5 } else { base };
    scores[declarer.index()] = if taken >= target { value } else { -i32::from(rules.loss_factor()) * value };
    scores
}

impl CheckedDeal for Deal {
    const MAX_STEPS: usize = 100;
    const CARD_KEYS: Option<&'static [&'static str]> = Some(&["hands", "dutt", "cards"]);

    fn candidates(&self, seat: Seat, rng: &mut Rng) -> Vec<Action> {
        candidates(self, seat, rng)
    }

    /// What each viewer may see, worked out from the true events alone (§B6).
    fn learn(knowledge: &mut Knowledge, event: &Event) {
        match event {
            Event::Dealt { hands, .. } => knowledge.dealt(hands),
            Event::DuttTaken { seat, dutt, .. } => knowledge.add(*seat, *dutt),
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
        if self.variant() == Variant::Duttfips {
            assert!(!matches!(self.outcome(), Some(fipsen_rules::mecklenburg::Outcome::ThrownIn)), "never a throw-in");
        }
    }
}

fn faces(n: u8) -> Faces {
    [Faces::German, Faces::French, Faces::FourColour][usize::from(n % 3)]
}

fn anseggerfips(options: [bool; 7], min_bid: u8) -> Rules {
    Rules::Anseggerfips(AnseggerfipsRules {
        auction: if options[0] { AuctionKind::Duels } else { AuctionKind::SingleRound },
        min_bid,
        dutt: if options[1] { DuttUse::Exchange } else { DuttUse::Unused },
        ruten_needs_rutenas: !options[2],
        ruten_unbid: !options[3],
        durch: !options[4],
        loss_factor: if options[5] { 1 } else { 2 },
        first_lead: if options[6] { FirstLead::Declarer } else { FirstLead::Forehand },
        faces: faces(min_bid),
        deals: None,
        cents: false,
    })
}

fn duttfips(options: [bool; 7]) -> Rules {
    Rules::Duttfips(DuttfipsRules {
        ruten_needs_rutenas: options[2],
        ruten_unbid: !options[3],
        durch: !options[4],
        loss_factor: if options[5] { 1 } else { 2 },
        first_lead: if options[6] { FirstLead::Declarer } else { FirstLead::Forehand },
        faces: faces(u8::from(options[0])),
        deals: None,
        cents: false,
    })
}

fn cases() -> u32 {
    std::env::var("FIPSEN_PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(10_000)
}

fn check_deal(rules: Rules, dealer: u8, seed: u64, policy: u64) {
    let dealer = Seat(dealer % 4);
    let deal = || Deal::new(rules, 1, dealer, Seed::from_u64(seed));
    play_checked(deal(), deal, policy, seed.is_multiple_of(16));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_anseggerfips_deals_keep_every_invariant(
        seed in any::<u64>(),
        policy in any::<u64>(),
        dealer in 0u8..4,
        options in any::<[bool; 7]>(),
        min_bid in 1u8..=4,
    ) {
        check_deal(anseggerfips(options, min_bid), dealer, seed, policy);
    }

    #[test]
    fn random_duttfips_deals_keep_every_invariant(
        seed in any::<u64>(),
        policy in any::<u64>(),
        dealer in 0u8..4,
        options in any::<[bool; 7]>(),
    ) {
        check_deal(duttfips(options), dealer, seed, policy);
    }
}
