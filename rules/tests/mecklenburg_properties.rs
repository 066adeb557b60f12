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

mod mecklenburg_common;

use fipsen_rules::mecklenburg::{
    Action, AnseggerfipsRules, AuctionKind, Bid, Deal, DuttUse, DuttfipsRules, Event, Faces, Rules, Variant,
};
use fipsen_rules::{Card, CardSet, FirstLead, Pack, Seat, Seed, Suit};
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

/// What each viewer may see, worked out from the true events alone (§B6).
struct Knowledge {
    /// Per seat; index 4 is the spectator.
    visible: Vec<CardSet>,
}

impl Knowledge {
    fn new() -> Knowledge {
        Knowledge { visible: vec![CardSet::EMPTY; 5] }
    }

    fn of(&self, viewer: Option<Seat>) -> CardSet {
        self.visible[viewer.map_or(4, Seat::index)]
    }

    fn add(&mut self, seat: Seat, cards: Option<CardSet>) {
        let cards = cards.expect("the true event holds the cards");
        self.visible[seat.index()] = self.visible[seat.index()].union(cards);
    }

    fn learn(&mut self, event: &Event) {
        match event {
            Event::Dealt { hands, .. } => {
                for (seat, hand) in hands.iter().enumerate() {
                    self.add(Seat(seat as u8), *hand);
                }
            }
            Event::DuttTaken { seat, dutt, .. } => self.add(*seat, *dutt),
            Event::CardPlayed { card, .. } => self.visible.iter_mut().for_each(|v| v.insert(*card)),
            Event::DealOver { .. } => self.visible.iter_mut().for_each(|v| *v = PACK),
            _ => {}
        }
    }
}

fn cards_in(value: &serde_json::Value, out: &mut CardSet) {
    match value {
        serde_json::Value::String(s) => {
            if let Ok(card) = s.parse::<Card>() {
                out.insert(card);
            }
        }
        serde_json::Value::Array(items) => items.iter().for_each(|v| cards_in(v, out)),
        serde_json::Value::Object(map) => map.values().for_each(|v| cards_in(v, out)),
        _ => {}
    }
}

fn json_cards<T: serde::Serialize>(value: &T) -> CardSet {
    let mut out = CardSet::EMPTY;
    cards_in(&serde_json::to_value(value).expect("serialisable"), &mut out);
    out
}

fn check_places(deal: &Deal) {
    let mut seen = CardSet::EMPTY;
    for place in deal.card_places() {
        assert!(seen.intersection(place).is_empty(), "a card is in two places: {:?}", seen.intersection(place));
        seen = seen.union(place);
    }
    assert_eq!(seen, PACK, "cards missing");
}

fn viewers() -> impl Iterator<Item = Option<Seat>> {
    (0..4).map(|s| Some(Seat(s))).chain([None])
}

/// A redacted event keeps everything but the hidden cards: the same event once the cards of
/// both are set aside.
fn check_stub(event: &Event, seen: &Event, viewer: Option<Seat>) {
    let strip = |e: &Event| {
        let mut v = serde_json::to_value(e).expect("serialisable");
        if let Some(map) = v.as_object_mut() {
            for key in ["hands", "dutt", "cards"] {
                map.remove(key);
            }
        }
        v
    };
    assert_eq!(strip(event), strip(seen), "redaction changed more than the cards: {viewer:?}");
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

/// Plays one complete deal, checking every property on the way.
fn play_checked(rules: Rules, dealer: Seat, seed: Seed, policy: u64, full: bool) -> (Vec<(Seat, Action)>, Vec<Event>) {
    let (mut deal, first) = Deal::new(rules, 1, dealer, seed);
    let mut rng = Rng(policy);
    let mut knowledge = Knowledge::new();
    knowledge.learn(&first);
    for viewer in viewers() {
        let seen = json_cards(&first.for_viewer(viewer));
        assert_eq!(seen, viewer.map_or(CardSet::EMPTY, |s| deal.hand(s)), "the deal shows {viewer:?} its own hand");
    }
    let mut log = vec![first];
    let mut actions = Vec::new();
    for step in 0.. {
        assert!(step < 100, "a deal must end");
        check_places(&deal);
        for viewer in viewers() {
            let seen = json_cards(&deal.view(viewer));
            let allowed = knowledge.of(viewer);
            assert!(allowed.contains_all(seen), "view of {viewer:?} shows {:?}", seen.difference(allowed));
        }
        if deal.is_over() {
            break;
        }
        let turn = deal.turn().expect("someone is to act while the deal is on");
        let legal = deal.legal_actions(turn);
        assert!(!legal.is_empty(), "the player to act has a legal action");
        let before = deal.clone();
        for seat in (0..4).map(Seat) {
            let listed = deal.legal_actions(seat);
            if seat != turn {
                assert!(listed.is_empty(), "nothing out of turn: {listed:?}");
            }
            for action in candidates(&deal, seat, &mut rng) {
                let accepted = deal.check(seat, action).is_ok();
                assert_eq!(accepted, listed.contains(&action), "{seat:?} {action:?} in {:?}", deal.phase());
                if !accepted {
                    assert!(deal.apply(seat, action).is_err());
                    assert!(deal == before, "a refused {action:?} changed the deal");
                }
            }
            for action in &listed {
                assert!(deal.check(seat, *action).is_ok(), "listed {action:?} is refused");
            }
        }
        if full {
            let json = serde_json::to_string(&deal).expect("serialisable");
            let back: Deal = serde_json::from_str(&json).expect("round trip");
            assert!(back == deal, "JSON round trip");
        }
        let action = choose(&legal, &mut rng);
        let events = deal.apply(turn, action).expect("a legal action is accepted");
        actions.push((turn, action));
        for event in &events {
            knowledge.learn(event);
            for viewer in viewers() {
                let redacted = event.for_viewer(viewer);
                let seen = json_cards(&redacted);
                let allowed = knowledge.of(viewer);
                assert!(allowed.contains_all(seen), "{event:?} shows {viewer:?} {:?}", seen.difference(allowed));
                check_stub(event, &redacted, viewer);
            }
        }
        log.extend(events);
    }
    let scores = match log.last() {
        Some(Event::DealOver { scores, .. }) => scores.clone(),
        other => panic!("the last event is the end of the deal, not {other:?}"),
    };
    assert_eq!(scores, expected_scores(&log, rules), "score formula; events: {log:?}");
    if rules.variant() == Variant::Duttfips {
        assert!(!matches!(deal.outcome(), Some(fipsen_rules::mecklenburg::Outcome::ThrownIn)), "never a throw-in");
    }
    (actions, log)
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

fn check_deal(rules: Rules, dealer: u8, seed: u64, policy: u64) -> Result<(), TestCaseError> {
    let dealer = Seat(dealer % 4);
    let full = seed.is_multiple_of(16);
    let (actions, log) = play_checked(rules, dealer, Seed::from_u64(seed), policy, full);
    if full {
        let (mut again, first) = Deal::new(rules, 1, dealer, Seed::from_u64(seed));
        let mut replay = vec![first];
        for (seat, action) in actions {
            replay.extend(again.apply(seat, action).expect("replay"));
        }
        prop_assert_eq!(replay, log);
    }
    Ok(())
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
        check_deal(anseggerfips(options, min_bid), dealer, seed, policy)?;
    }

    #[test]
    fn random_duttfips_deals_keep_every_invariant(
        seed in any::<u64>(),
        policy in any::<u64>(),
        dealer in 0u8..4,
        options in any::<[bool; 7]>(),
    ) {
        check_deal(duttfips(options), dealer, seed, policy)?;
    }
}
