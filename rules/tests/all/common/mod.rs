//! Helpers shared by the rules tests: arranged deals and a compact script of actions.
#![allow(dead_code)]

pub(crate) use crate::holstein_common;
use holstein_common::{HolsteinDeal, arranged_pack, suit};
pub use holstein_common::{Rng, cards};

use fipsen_rules::{Action, Bid, Card, CardSet, Deal, DealView, Event, Outcome, Phase, RuleError, RuleSet, Seat, Suit};

/// A deal with the given hands (by seat) and skat; the stock is every other card.
pub fn arrange(rules: RuleSet, dealer: u8, hands: &[&str], skat: &str) -> Deal {
    let n = usize::from(rules.players.count());
    assert_eq!(hands.len(), n, "one hand per seat");
    let hands: Vec<CardSet> = hands.iter().map(|h| cards(h)).collect();
    let skat = cards(skat);
    for hand in &hands {
        assert_eq!(hand.len(), 5, "five cards in {hand:?}");
    }
    assert_eq!(skat.len(), 2);
    let mut used = skat;
    for hand in &hands {
        assert!(used.intersection(*hand).is_empty(), "a card is dealt twice");
        used = used.union(*hand);
    }
    let stock = CardSet::PACK.difference(used);
    let pack = arranged_pack(&hands, dealer, skat, stock);
    let pack: [Card; 25] = pack.try_into().expect("25 cards");
    let (deal, _) = Deal::from_pack(rules, 1, Seat(dealer), pack).expect("a valid pack");
    for (seat, hand) in hands.iter().enumerate() {
        assert_eq!(deal.hand(Seat(seat as u8)), *hand);
    }
    assert_eq!(deal.skat(), skat);
    deal
}

/// Parses one scripted step: `"<seat> <what>"`, e.g. `"0 bid 3 hand"`, `"1 hold"`, `"2 pass"`,
/// `"3 kieker"`, `"0 skat"`, `"0 hand"`, `"0 discard C7 S7"`, `"0 trumps H"`, `"1 kontra"`,
/// `"0 rekontra"`, `"0 give_up"`, `"2 fips"`, `"1 play CA"`, `"0 stop"`, `"0 go_on"`.
pub fn step(line: &str) -> (Seat, Action) {
    let mut words = line.split_whitespace();
    let seat = Seat(words.next().and_then(|w| w.parse().ok()).unwrap_or_else(|| panic!("no seat in {line:?}")));
    let verb = words.next().unwrap_or_else(|| panic!("no action in {line:?}"));
    let rest: Vec<&str> = words.collect();
    let action = match verb {
        "bid" => {
            let tricks = rest[0].parse().unwrap_or_else(|_| panic!("tricks in {line:?}"));
            Action::Bid { bid: Bid::Tricks { tricks, hand: rest.contains(&"hand"), ruten: rest.contains(&"ruten") } }
        }
        "kieker" => Action::Bid { bid: Bid::Kieker },
        "hold" => Action::Hold,
        "pass" => Action::Pass,
        "skat" => Action::TakeSkat,
        "hand" => Action::PlayHand,
        "discard" => Action::Discard { cards: cards(&rest.join(" ")) },
        "trumps" => Action::NameTrumps { suit: suit(rest[0]) },
        "kontra" => Action::Kontra,
        "rekontra" => Action::Rekontra,
        "give_up" => Action::GiveUp,
        "fips" => Action::SiebenerFips,
        "play" => Action::Play { card: rest[0].parse().unwrap_or_else(|e| panic!("{e}")) },
        "stop" => Action::Stop,
        "go_on" => Action::GoOn,
        other => panic!("unknown step {other:?} in {line:?}"),
    };
    (seat, action)
}

/// Applies every step, checking each is listed as legal first; returns all events.
pub fn run(deal: &mut Deal, script: &[&str]) -> Vec<Event> {
    holstein_common::run(deal, script, step)
}

/// The deal's outcome and the points of the seat that scored.
pub fn result(deal: &Deal) -> (Outcome, i32) {
    let outcome = deal.outcome().expect("the deal is over");
    (outcome, outcome.score().map_or(0, |(_, p)| p))
}

/// Picks a move the way a varied, not too sensible table would.
pub fn choose(legal: &[Action], rng: &mut Rng) -> Action {
    let has = |a: Action| legal.contains(&a);
    if has(Action::SiebenerFips) && rng.chance(60) {
        return Action::SiebenerFips;
    }
    if has(Action::GiveUp) && rng.chance(10) {
        return Action::GiveUp;
    }
    let moves: Vec<Action> =
        legal.iter().copied().filter(|a| !matches!(a, Action::SiebenerFips | Action::GiveUp)).collect();
    if moves.is_empty() {
        return legal[0];
    }
    if has(Action::Pass) && rng.chance(45) {
        return Action::Pass;
    }
    if has(Action::Hold) && rng.chance(50) {
        return Action::Hold;
    }
    moves[rng.below(moves.len())]
}

holstein_common::holstein_deal!(CardSet::PACK);
