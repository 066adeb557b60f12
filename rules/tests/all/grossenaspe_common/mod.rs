//! Helpers shared by the Großenaspe tests: arranged deals, a compact script of actions and a
//! varied random player.
#![allow(dead_code)]

pub(crate) use crate::holstein_common;
use holstein_common::{HolsteinDeal, arranged_pack, suit};
pub use holstein_common::{Rng, cards};

use fipsen_rules::grossenaspe::{Action, Bid, Deal, DealView, Event, Outcome, Phase, Rules};
use fipsen_rules::{Card, CardSet, Pack, RuleError, Seat, Suit};

/// A deal with the given hands (by seat) and skat; the talon is every other card.
pub fn arrange(rules: Rules, dealer: u8, hands: &[&str], skat: &str) -> Deal {
    let n = usize::from(rules.players);
    assert_eq!(hands.len(), n, "one hand per seat");
    let hands: Vec<CardSet> = hands.iter().map(|h| cards(h)).collect();
    let skat = cards(skat);
    assert!(hands.iter().all(|h| h.len() == 5) && skat.len() == 2);
    let used = hands.iter().fold(skat, |a, h| {
        assert!(a.intersection(*h).is_empty(), "a card is dealt twice");
        a.union(*h)
    });
    let talon = Pack::P32.cards().difference(used);
    let pack = arranged_pack(&hands, dealer, skat, talon);
    let (deal, _) = Deal::from_pack(rules, 1, Seat(dealer), &pack).expect("a valid pack");
    for (seat, hand) in hands.iter().enumerate() {
        assert_eq!(deal.hand(Seat(seat as u8)), *hand);
    }
    assert_eq!(deal.skat(), skat);
    deal
}

/// Parses one scripted step: `"<seat> <what>"`, e.g. `"0 bid 3"`, `"0 bid 3 gute"`,
/// `"1 kieker"`, `"2 fips"`, `"1 hold"`, `"2 pass"`, `"0 discard C7 S7"`, `"0 trumps H"`,
/// `"0 fold"`, `"1 play CA"`, `"0 stop"`, `"0 go_on"`.
pub fn step(line: &str) -> (Seat, Action) {
    let mut words = line.split_whitespace();
    let seat = Seat(words.next().and_then(|w| w.parse().ok()).unwrap_or_else(|| panic!("no seat in {line:?}")));
    let verb = words.next().unwrap_or_else(|| panic!("no action in {line:?}"));
    let rest: Vec<&str> = words.collect();
    let action = match verb {
        "bid" => {
            Action::Bid { bid: Bid::Tricks { tricks: rest[0].parse().expect("tricks"), gute: rest.contains(&"gute") } }
        }
        "kieker" => Action::Bid { bid: Bid::Kieker },
        "fips" => Action::Bid { bid: Bid::Fips },
        "hold" => Action::Hold,
        "pass" => Action::Pass,
        "discard" => Action::Discard { cards: cards(&rest.join(" ")) },
        "trumps" => Action::NameTrumps { suit: suit(rest[0]) },
        "fold" => Action::Fold,
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
    (outcome, outcome.score(deal.rules().loss_factor).map_or(0, |(_, p)| p))
}

/// Picks a move the way a varied, not too sensible table would: passes often, holds often,
/// folds a Kieker now and then, otherwise any legal action; half the time the highest card.
pub fn choose(legal: &[Action], rng: &mut Rng) -> Action {
    let has = |a: Action| legal.contains(&a);
    if has(Action::Fold) && rng.chance(15) {
        return Action::Fold;
    }
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
    let moves: Vec<Action> = legal.iter().copied().filter(|a| *a != Action::Fold).collect();
    if moves.is_empty() { legal[0] } else { moves[rng.below(moves.len())] }
}

holstein_common::holstein_deal!(Pack::P32.cards());
