//! Helpers shared by the Mecklenburg tests (Anseggerfips and Duttfips): arranged deals, a
//! compact script of actions and a varied random player.
#![allow(dead_code)]

pub(crate) use crate::holstein_common;
use holstein_common::{HolsteinDeal, arranged_pack, suit};
pub use holstein_common::{Rng, cards};

use fipsen_rules::mecklenburg::{Action, Bid, Deal, DealView, Event, Outcome, Phase, Rules};
use fipsen_rules::{Card, CardSet, Pack, RuleError, Seat, Suit};

/// A deal with the given hands (by seat) and Dutt.
pub fn arrange(rules: impl Into<Rules>, dealer: u8, hands: &[&str; 4], dutt: &str) -> Deal {
    let hands: Vec<CardSet> = hands.iter().map(|h| cards(h)).collect();
    let dutt = cards(dutt);
    assert!(hands.iter().all(|h| h.len() == 5) && dutt.len() == 5);
    let all = hands.iter().fold(dutt, |a, h| {
        assert!(a.intersection(*h).is_empty(), "a card is dealt twice");
        a.union(*h)
    });
    assert_eq!(all, Pack::P25_A.cards(), "the hands and the Dutt are the pack");
    let pack = arranged_pack(&hands, dealer, CardSet::EMPTY, dutt);
    let (deal, _) = Deal::from_pack(rules, 1, Seat(dealer), &pack).expect("a valid pack");
    for (seat, hand) in hands.iter().enumerate() {
        assert_eq!(deal.hand(Seat(seat as u8)), *hand);
    }
    assert_eq!(deal.dutt(), dutt);
    deal
}

/// Parses one scripted step: `"<seat> <what>"`, e.g. `"0 bid 3"`, `"0 bid 3 ruten"`, `"1 dutt"`,
/// `"1 ruten_oewer"`, `"2 fips"`, `"2 rutenfips"`, `"1 hold"`, `"2 pass"`,
/// `"0 discard C7 S7 H7 H8 S8"`, `"0 trumps H"`, `"1 play CA"`, `"0 stop"`, `"0 go_on"`.
pub fn step(line: &str) -> (Seat, Action) {
    let mut words = line.split_whitespace();
    let seat = Seat(words.next().and_then(|w| w.parse().ok()).unwrap_or_else(|| panic!("no seat in {line:?}")));
    let verb = words.next().unwrap_or_else(|| panic!("no action in {line:?}"));
    let rest: Vec<&str> = words.collect();
    let action = match verb {
        "bid" => Action::Bid {
            bid: Bid::Tricks { tricks: rest[0].parse().expect("tricks"), ruten: rest.contains(&"ruten") },
        },
        "dutt" => Action::Bid { bid: Bid::Dutt },
        "ruten_oewer" => Action::Bid { bid: Bid::RutenOewer },
        "fips" => Action::Bid { bid: Bid::Fips },
        "rutenfips" => Action::Bid { bid: Bid::Rutenfips },
        "hold" => Action::Hold,
        "pass" => Action::Pass,
        "discard" => Action::Discard { cards: cards(&rest.join(" ")) },
        "trumps" => Action::NameTrumps { suit: suit(rest[0]) },
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

/// Plays the deal out with every player's strongest legal card; the declarer who may choose
/// goes on for Durch when `durch`.
pub fn play_out(deal: &mut Deal, durch: bool) -> Vec<Event> {
    holstein_common::play_out(deal, durch)
}

/// The deal's outcome and the points of the seat that scored.
pub fn result(deal: &Deal) -> (Outcome, i32) {
    let outcome = deal.outcome().expect("the deal is over");
    (outcome, outcome.score(deal.rules().loss_factor()).map_or(0, |(_, p)| p))
}

/// Picks a move the way a varied, not too sensible table would: passes often, holds often,
/// otherwise any legal action; half the time the highest card.
pub fn choose(legal: &[Action], rng: &mut Rng) -> Action {
    let has = |a: Action| legal.contains(&a);
    if has(Action::Pass) && rng.chance(45) {
        return Action::Pass;
    }
    if has(Action::Hold) && rng.chance(50) {
        return Action::Hold;
    }
    if let Some(high) = legal.iter().rev().find(|a| matches!(a, Action::Play { .. }))
        && rng.chance(50)
    {
        return *high;
    }
    legal[rng.below(legal.len())]
}

holstein_common::holstein_deal!(Pack::P25_A.cards());
