//! Property tests over random seeds, both player counts and every combination of options:
//! at least 10,000 complete deals per run (set `FIPSEN_PROPTEST_CASES` to change the count).
//!
//! For every step of every deal: the 25 cards are all somewhere, once; the player to act has a
//! legal action; every action not listed as legal is refused and leaves the state unchanged;
//! every view and every event a viewer receives holds only cards that viewer may see (worked
//! out here from the true event log, independently of the view code). For every deal: it ends;
//! its score follows the formula of RULES.md §7; the state survives a JSON round trip; and the
//! same seed and actions give the same events.

use fipsen_rules::{
    Action, Bid, Card, CardSet, Deal, Event, FirstLead, KiekerShow, Outcome, Players, RuleSet, Seat, Seed, Suit,
};
use proptest::prelude::*;

mod common;

use common::{Rng, choose};

/// Every action worth trying for `seat`: all fixed ones, all cards, every bid and some discards.
fn candidates(deal: &Deal, seat: Seat, rng: &mut Rng) -> Vec<Action> {
    let mut out = vec![
        Action::Hold,
        Action::Pass,
        Action::TakeSkat,
        Action::PlayHand,
        Action::Kontra,
        Action::Rekontra,
        Action::GiveUp,
        Action::SiebenerFips,
        Action::Stop,
        Action::GoOn,
        Action::Bid { bid: Bid::tricks(1) },
        Action::Bid { bid: Bid::tricks(6) },
        Action::Discard { cards: CardSet::EMPTY },
    ];
    out.extend(Bid::all().map(|bid| Action::Bid { bid }));
    out.extend(Suit::ALL.map(|suit| Action::NameTrumps { suit }));
    out.extend(CardSet::PACK.iter().map(|card| Action::Play { card }));
    let hand = deal.hand(seat);
    for k in [1, 2, 3, 5, 6] {
        out.push(Action::Discard { cards: rng.subset(hand, k) });
    }
    out.push(Action::Discard { cards: rng.subset(CardSet::PACK, 2) });
    out.push(Action::Discard { cards: rng.subset(CardSet::PACK, 5) });
    out
}

/// What each viewer may see, worked out from the true events alone.
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

    fn learn(&mut self, event: &Event) {
        let all = self.players + 1;
        match event {
            Event::Dealt { hands, .. } => {
                for (seat, hand) in hands.iter().enumerate() {
                    self.visible[seat] = self.visible[seat].union(hand.expect("the true event holds every hand"));
                }
            }
            Event::KiekerShown { seat, to, hand } => {
                let hand = hand.expect("true event");
                for s in [seat.index(), to.index()] {
                    self.visible[s] = self.visible[s].union(hand);
                }
            }
            Event::KiekerPickedUp { seat, skat, stock, .. } => {
                let cards = skat.expect("true event").union(stock.expect("true event"));
                self.visible[seat.index()] = self.visible[seat.index()].union(cards);
            }
            Event::SkatTaken { seat, skat } => {
                self.visible[seat.index()] = self.visible[seat.index()].union(skat.expect("true event"));
            }
            Event::CardPlayed { card, .. } => {
                for v in 0..all {
                    self.visible[v].insert(*card);
                }
            }
            Event::SiebenerFips { cards, .. } => {
                for v in 0..all {
                    self.visible[v] = self.visible[v].union(*cards);
                }
            }
            Event::DealOver { .. } => {
                for v in 0..all {
                    self.visible[v] = CardSet::PACK;
                }
            }
            _ => {}
        }
    }
}

/// Every card named anywhere in a JSON value.
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
    let places = deal.card_places();
    let mut seen = CardSet::EMPTY;
    for place in places {
        assert!(seen.intersection(place).is_empty(), "a card is in two places: {:?}", seen.intersection(place));
        seen = seen.union(place);
    }
    assert_eq!(seen, CardSet::PACK, "cards missing");
}

fn viewers(players: u8) -> impl Iterator<Item = Option<Seat>> {
    (0..players).map(|s| Some(Seat(s))).chain([None])
}

/// The score of RULES.md §7, computed from the events alone.
fn expected_scores(events: &[Event], players: u8) -> Vec<i32> {
    let mut scores = vec![0; usize::from(players)];
    let mut declarer = None;
    let (mut tricks, mut kieker) = (0u8, false);
    let (mut hand, mut ruten, mut went_on, mut kontra, mut rekontra) = (false, false, false, false, false);
    let mut taken = 0u8;
    for event in events {
        match event {
            Event::AuctionWon { declarer: d, contract } => {
                declarer = Some(*d);
                kieker = contract.bid == Bid::Kieker;
                tricks = match contract.bid {
                    Bid::Tricks { tricks, .. } => tricks,
                    Bid::Kieker => 5,
                };
            }
            Event::HandChosen { .. } => hand = true,
            Event::TrumpsNamed { suit, .. } => ruten = *suit == Suit::Diamonds,
            Event::WentOn { .. } => went_on = true,
            Event::Kontra { .. } => kontra = true,
            Event::Rekontra { .. } => rekontra = true,
            Event::TrickTaken { seat } if Some(*seat) == declarer => taken += 1,
            Event::SiebenerFips { seat, .. } => {
                scores[seat.index()] = 30;
                return scores;
            }
            Event::GaveUp { seat } => {
                scores[seat.index()] = -5;
                return scores;
            }
            _ => {}
        }
    }
    let Some(declarer) = declarer else { return scores };
    let durch = went_on || tricks == 5 || kieker;
    let doubles = [hand, ruten, durch, kontra, rekontra].iter().filter(|d| **d).count();
    let value = i32::from(tricks) << doubles;
    let won = if durch { taken == 5 } else { taken >= tricks };
    scores[declarer.index()] = if won { value } else { -2 * value };
    scores
}

/// Plays one complete deal, checking every property on the way. Returns the actions taken.
fn play_checked(
    rules: RuleSet,
    dealer: Seat,
    seed: Seed,
    policy: u64,
    full_checks: bool,
) -> (Vec<(Seat, Action)>, Vec<Event>) {
    let n = rules.players.count();
    let (mut deal, first) = Deal::new(rules, 1, dealer, seed);
    let mut rng = Rng(policy);
    let mut knowledge = Knowledge::new(usize::from(n));
    let mut log = vec![first.clone()];
    knowledge.learn(&first);
    for viewer in viewers(n) {
        let seen = json_cards(&first.for_viewer(viewer));
        let own = viewer.map_or(CardSet::EMPTY, |s| deal.hand(s));
        assert_eq!(seen, own, "the deal shows {viewer:?} exactly its own hand");
    }
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
        // Every candidate: listed as legal exactly when the rules accept it; refused ones change nothing.
        let before = deal.clone();
        for seat in 0..n {
            let seat = Seat(seat);
            let listed = deal.legal_actions(seat);
            if Some(seat) != deal.turn() {
                assert!(
                    listed.iter().all(|a| matches!(a, Action::SiebenerFips | Action::GiveUp)),
                    "out of turn only a Siebener Fips or a Kieker's give-up: {listed:?}"
                );
            }
            if listed.contains(&Action::GiveUp) {
                assert!(deal.declarer() == Some(seat) && deal.before_first_lead(), "only the Kieker, before the lead");
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
            let bad =
                Action::Play { card: CardSet::PACK.difference(deal.hand(turn)).lowest().expect("a card elsewhere") };
            let _ = deal.apply(turn, bad);
            assert_eq!(serde_json::to_string(&deal).expect("serialisable"), json, "refused action changed the JSON");
            let back: Deal = serde_json::from_str(&json).expect("round trip");
            assert!(back == deal, "JSON round trip");
        }
        // Sometimes a Siebener Fips or a Kieker's give-up comes out of turn.
        let out_of_turn =
            |action: Action| (0..n).map(Seat).find(|s| *s != turn && deal.legal_actions(*s).contains(&action));
        let fips = out_of_turn(Action::SiebenerFips);
        let give_up = out_of_turn(Action::GiveUp);
        let (seat, action) = match (fips, give_up) {
            (Some(seat), _) if rng.chance(50) => (seat, Action::SiebenerFips),
            (_, Some(seat)) if rng.chance(25) => (seat, Action::GiveUp),
            _ => (turn, choose(&legal, &mut rng)),
        };
        let events = deal.apply(seat, action).expect("a legal action is accepted");
        actions.push((seat, action));
        for event in &events {
            knowledge.learn(event);
            for viewer in viewers(n) {
                let seen = json_cards(&event.for_viewer(viewer));
                let allowed = knowledge.visible[knowledge.index(viewer)];
                assert!(allowed.contains_all(seen), "{event:?} shows {viewer:?} {:?}", seen.difference(allowed));
            }
        }
        log.extend(events);
    }
    let scores = match log.last() {
        Some(Event::DealOver { scores, outcome, .. }) => {
            if let Outcome::Won { game, .. } | Outcome::Lost { game, .. } = outcome {
                assert_eq!(game.value(), i32::from(game.tricks) << game.doubles());
            }
            scores.clone()
        }
        other => panic!("the last event is the end of the deal, not {other:?}"),
    };
    assert_eq!(scores, expected_scores(&log, n), "score formula; events: {log:?}");
    (actions, log)
}

fn rules_from(players: bool, min_bid3: bool, kontra: bool, declarer_leads: bool, show_nobody: bool) -> RuleSet {
    RuleSet {
        players: if players { Players::Three } else { Players::Four },
        min_bid: if min_bid3 { 3 } else { 2 },
        kontra,
        first_lead: if declarer_leads { FirstLead::Declarer } else { FirstLead::Forehand },
        kieker_show: if show_nobody { KiekerShow::Nobody } else { KiekerShow::LeftOpponent },
        deals: None,
    }
}

fn cases() -> u32 {
    std::env::var("FIPSEN_PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(10_000)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_deals_keep_every_invariant(
        seed in any::<u64>(),
        policy in any::<u64>(),
        dealer in 0u8..4,
        options in any::<(bool, bool, bool, bool, bool)>(),
    ) {
        let rules = rules_from(options.0, options.1, options.2, options.3, options.4);
        let dealer = Seat(dealer % rules.players.count());
        let full = seed % 16 == 0;
        let (actions, log) = play_checked(rules, dealer, Seed::from_u64(seed), policy, full);
        if full {
            // The same seed, rules and actions give the same events.
            let (mut again, first) = Deal::new(rules, 1, dealer, Seed::from_u64(seed));
            let mut replay = vec![first];
            for (seat, action) in actions {
                replay.extend(again.apply(seat, action).expect("replay"));
            }
            prop_assert_eq!(replay, log);
        }
    }
}
