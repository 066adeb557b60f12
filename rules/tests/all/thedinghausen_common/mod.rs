//! Helpers shared by the Thedinghausen tests: arranged deals, a deal found by its trick
//! winners, and a random player.
#![allow(dead_code)]

// The shared macro for deals with a declarer does not fit this game: HolsteinDeal is implemented below.
#[allow(unused_macros, unused_imports)]
pub(crate) use crate::holstein_common;
use holstein_common::{HolsteinDeal, arranged_pack};
pub use holstein_common::{Rng, cards};

use fipsen_rules::thedinghausen::{Action, Deal, DealView, Event, Phase, Round, Rules};
use fipsen_rules::{Card, CardSet, Pack, RuleError, Seat, Seed, Suit};

/// A deal with the given hands (by seat), turned card and six unused cards.
pub fn arrange(rules: Rules, dealer: u8, hands: &[&str; 5], trump_card: &str, unused: &str, round: Round) -> Deal {
    let hands: Vec<CardSet> = hands.iter().map(|h| cards(h)).collect();
    let trump: Card = trump_card.parse().expect("a card");
    let unused = cards(unused);
    assert!(hands.iter().all(|h| h.len() == 5) && unused.len() == 6);
    let all = hands.iter().fold(unused.union(trump.set()), |a, h| {
        assert!(a.intersection(*h).is_empty(), "a card is dealt twice");
        a.union(*h)
    });
    assert_eq!(all, Pack::P32.cards(), "the hands, the turned card and the unused cards are the pack");
    let mut pack = arranged_pack(&hands, dealer, CardSet::EMPTY, CardSet::EMPTY);
    pack.push(trump);
    pack.extend(unused.iter());
    let (deal, _) = Deal::from_pack(rules, 1, Seat(dealer), &pack, round).expect("a valid pack");
    for (seat, hand) in hands.iter().enumerate() {
        assert_eq!(deal.hand(Seat(seat as u8)), *hand);
    }
    assert_eq!((deal.trump_card(), deal.unused()), (trump, unused));
    deal
}

/// A round in progress with these counts and pot (`fresh`: it begins with this deal).
pub fn round(counts: [u8; 5], pot: i32, fresh: bool) -> Round {
    Round { number: 1, counts, pot, fresh }
}

/// Parses one scripted step: `"<seat> fipsen"`, `"<seat> pass"`, `"<seat> play HQ"`.
pub fn step(line: &str) -> (Seat, Action) {
    let mut words = line.split_whitespace();
    let seat = Seat(words.next().and_then(|w| w.parse().ok()).unwrap_or_else(|| panic!("no seat in {line:?}")));
    let action = match words.next() {
        Some("fipsen") => Action::Fipsen,
        Some("pass") => Action::Pass,
        Some("play") => Action::Play { card: words.next().expect("a card").parse().unwrap_or_else(|e| panic!("{e}")) },
        other => panic!("unknown step {other:?} in {line:?}"),
    };
    (seat, action)
}

/// Applies every step, checking each is listed as legal first; returns all events.
pub fn run(deal: &mut Deal, script: &[&str]) -> Vec<Event> {
    holstein_common::run(deal, script, step)
}

/// The strongest legal card: a trump if he may, else his highest rank.
pub fn strongest(deal: &Deal, legal: &[Action]) -> Action {
    let trumps = deal.trump_card().suit();
    *legal
        .iter()
        .max_by_key(|a| match a {
            Action::Play { card } => (card.suit() == trumps, card.rank(), std::cmp::Reverse(card.suit())),
            other => panic!("only cards here, not {other:?}"),
        })
        .expect("something to play")
}

/// Plays a deal out: `announcer` announces fipsen (everyone else passes), `strong` plays his
/// strongest cards, the others at random.
pub fn play_deal(deal: &mut Deal, announcer: Option<Seat>, strong: &[Seat], rng: &mut Rng) -> Vec<Event> {
    let mut events = Vec::new();
    while let Some(seat) = deal.turn() {
        let legal = deal.legal_actions(seat);
        let action = if deal.phase() == Phase::Fipsen {
            if announcer == Some(seat) { Action::Fipsen } else { Action::Pass }
        } else if strong.contains(&seat) {
            strongest(deal, &legal)
        } else {
            legal[rng.below(legal.len())]
        };
        events.extend(deal.apply(seat, action).expect("legal"));
    }
    events
}

/// The first shuffled deal (dealer 4, seat 0 forehand) in `round` whose play, as
/// [`play_deal`] plays it, satisfies `premise`.
pub fn find(
    rules: Rules,
    round: Round,
    announcer: Option<Seat>,
    strong: &[Seat],
    premise: impl Fn(&Deal, &[Event]) -> bool,
) -> (Deal, Vec<Event>) {
    for seed in 0..2_000_000u64 {
        let (mut deal, first) = Deal::new(rules, 1, Seat(4), Seed::from_u64(seed), round);
        let mut events = vec![first];
        events.extend(play_deal(&mut deal, announcer, strong, &mut Rng(seed)));
        if premise(&deal, &events) {
            return (deal, events);
        }
    }
    panic!("no deal found for the premise");
}

/// Picks a move the way a varied table would: fipsen now and then (more often with many
/// trumps), otherwise any legal card, half the time the strongest.
pub fn choose(deal: &Deal, seat: Seat, legal: &[Action], rng: &mut Rng) -> Action {
    if deal.phase() == Phase::Fipsen {
        let trumps = deal.hand(seat).of_suit(deal.trump_card().suit()).len();
        return if rng.chance(if trumps >= 3 { 60 } else { 4 }) { Action::Fipsen } else { Action::Pass };
    }
    if rng.chance(50) { strongest(deal, legal) } else { legal[rng.below(legal.len())] }
}

impl HolsteinDeal for Deal {
    type Action = Action;
    type Event = Event;
    type Phase = Phase;
    type View = DealView;

    const PACK: CardSet = Pack::P32.cards();
    // Thedinghausen has no stop or Durch; the shared strongest-card player passes the
    // announcements instead.
    const STOP: Action = Action::Pass;
    const GO_ON: Action = Action::Pass;

    fn players(&self) -> u8 {
        Deal::players(self)
    }
    fn card_places(&self) -> Vec<CardSet> {
        Deal::card_places(self)
    }
    fn hand(&self, seat: Seat) -> CardSet {
        Deal::hand(self, seat)
    }
    fn is_over(&self) -> bool {
        Deal::is_over(self)
    }
    fn turn(&self) -> Option<Seat> {
        Deal::turn(self)
    }
    fn phase(&self) -> Phase {
        Deal::phase(self)
    }
    fn trumps(&self) -> Option<Suit> {
        Some(self.trump_card().suit())
    }
    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        Deal::legal_actions(self, seat)
    }
    fn check(&self, seat: Seat, action: Action) -> Result<(), RuleError> {
        Deal::check(self, seat, action)
    }
    fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, RuleError> {
        Deal::apply(self, seat, action)
    }
    fn view(&self, viewer: Option<Seat>) -> DealView {
        Deal::view(self, viewer)
    }
    fn redact(event: &Event, viewer: Option<Seat>) -> Event {
        event.for_viewer(viewer)
    }
    fn card_played(action: Action) -> Option<Card> {
        match action {
            Action::Play { card } => Some(card),
            _ => None,
        }
    }
    fn final_scores(event: &Event) -> Option<&[i32]> {
        match event {
            Event::DealOver { scores, .. } => Some(scores),
            _ => None,
        }
    }
}
