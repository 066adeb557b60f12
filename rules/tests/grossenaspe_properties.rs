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

mod grossenaspe_common;

use fipsen_rules::grossenaspe::{Action, Bid, Deal, Event, Rules};
use fipsen_rules::{Card, CardSet, FirstLead, KiekerShow, Pack, Seat, Seed, Suit};
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

/// What each viewer may see, worked out from the true events alone (§A9).
struct Knowledge {
    players: usize,
    /// Per seat; index `players` is the spectator.
    visible: Vec<CardSet>,
}

impl Knowledge {
    fn new(players: usize) -> Knowledge {
        Knowledge { players, visible: vec![CardSet::EMPTY; players + 1] }
    }

    fn index(&self, viewer: Option<Seat>) -> usize {
        viewer.map_or(self.players, Seat::index)
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
            Event::SkatTaken { seat, skat } => self.add(*seat, *skat),
            Event::KiekerShown { to, hand, .. } => self.add(*to, *hand),
            Event::KiekerPickedUp { seat, skat, talon, .. } => {
                self.add(*seat, *skat);
                self.add(*seat, *talon);
            }
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

fn viewers(players: u8) -> impl Iterator<Item = Option<Seat>> {
    (0..players).map(|s| Some(Seat(s))).chain([None])
}

/// A redacted event keeps everything but the hidden cards: the same event once the cards of
/// both are set aside, and a stub where the viewer may not see them.
fn check_stub(event: &Event, seen: &Event, viewer: Option<Seat>) {
    let strip = |e: &Event| {
        let mut v = serde_json::to_value(e).expect("serialisable");
        if let Some(map) = v.as_object_mut() {
            for key in ["hands", "skat", "talon", "cards", "hand"] {
                map.remove(key);
            }
        }
        v
    };
    assert_eq!(strip(event), strip(seen), "redaction changed more than the cards: {viewer:?}");
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

/// Plays one complete deal, checking every property on the way.
fn play_checked(
    rules: Rules,
    dealer: Seat,
    seed: Seed,
    policy: u64,
    full_checks: bool,
) -> (Vec<(Seat, Action)>, Vec<Event>) {
    let n = rules.players;
    let (mut deal, first) = Deal::new(rules, 1, dealer, seed);
    let mut rng = Rng(policy);
    let mut knowledge = Knowledge::new(usize::from(n));
    knowledge.learn(&first);
    for viewer in viewers(n) {
        let seen = json_cards(&first.for_viewer(viewer));
        assert_eq!(seen, viewer.map_or(CardSet::EMPTY, |s| deal.hand(s)), "the deal shows {viewer:?} its own hand");
    }
    let mut log = vec![first];
    let mut actions = Vec::new();
    for step in 0.. {
        assert!(step < 200, "a deal must end");
        check_places(&deal);
        for viewer in viewers(n) {
            let seen = json_cards(&deal.view(viewer));
            let allowed = knowledge.visible[knowledge.index(viewer)];
            assert!(allowed.contains_all(seen), "view of {viewer:?} shows {:?}", seen.difference(allowed));
        }
        if deal.is_over() {
            break;
        }
        let turn = deal.turn().expect("someone is to act while the deal is on");
        let legal = deal.legal_actions(turn);
        assert!(!legal.is_empty(), "the player to act has a legal action");
        let before = deal.clone();
        for seat in (0..n).map(Seat) {
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
        if full_checks {
            let json = serde_json::to_string(&deal).expect("serialisable");
            let back: Deal = serde_json::from_str(&json).expect("round trip");
            assert!(back == deal, "JSON round trip");
        }
        let action = choose(&legal, &mut rng);
        let events = deal.apply(turn, action).expect("a legal action is accepted");
        actions.push((turn, action));
        for event in &events {
            knowledge.learn(event);
            for viewer in viewers(n) {
                let redacted = event.for_viewer(viewer);
                let seen = json_cards(&redacted);
                let allowed = knowledge.visible[knowledge.index(viewer)];
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
    (actions, log)
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
        let (actions, log) = play_checked(rules, dealer, Seed::from_u64(seed), policy, full);
        if full {
            let (mut again, first) = Deal::new(rules, 1, dealer, Seed::from_u64(seed));
            let mut replay = vec![first];
            for (seat, action) in actions {
                replay.extend(again.apply(seat, action).expect("replay"));
            }
            prop_assert_eq!(replay, log);
        }
    }
}
