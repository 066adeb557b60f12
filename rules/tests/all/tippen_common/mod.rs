//! Helpers shared by the Tippen tests: arranged deals, scripted steps, a varied random player
//! and deals found by their course.
#![allow(dead_code)]

#[allow(unused_macros, unused_imports)]
pub(crate) use crate::holstein_common;
use holstein_common::HolsteinDeal;
pub use holstein_common::{Rng, cards};

use fipsen_rules::tippen::{Action, Carry, Deal, DealView, Event, Phase, Preset, Rules};
use fipsen_rules::{Card, CardSet, RuleError, Seat, Seed, Suit};

/// How many rounds of one card are dealt before the trump card (`None`: the 1821 dealer's
/// own last card), as §D2 states it.
fn rounds_before_trump(preset: Preset) -> Option<usize> {
    match preset {
        Preset::DreiKarten1821 | Preset::Loup1821 => None,
        Preset::ModernKatira | Preset::Vierblatt => Some(2),
        other => Some(usize::from(Rules::preset(other, 4).preset.hand_size())),
    }
}

/// A pack that deals `hands` (by seat) with `dealer` dealing, `trump` as the trump card (for
/// the 1821 presets: it must be the dealer's last card, among his hand), and the rest of the
/// pack below in card order.
pub fn arranged(rules: Rules, dealer: u8, hands: &[&str], trump: &str) -> Vec<Card> {
    let n = usize::from(rules.players);
    assert_eq!(hands.len(), n);
    let trump: Card = trump.parse().expect("a card");
    let hands: Vec<Vec<Card>> = hands
        .iter()
        .map(|h| {
            let mut cards: Vec<Card> = h.split_whitespace().map(|c| c.parse().expect("a card")).collect();
            // The 1821 trump card is the dealer's last card: keep it last.
            if let Some(i) = cards.iter().position(|&c| c == trump) {
                let c = cards.remove(i);
                cards.push(c);
            }
            cards
        })
        .collect();
    let h = hands[0].len();
    let order: Vec<usize> = (0..n).map(|i| (usize::from(dealer) + 1 + i) % n).collect();
    let mut pack = Vec::new();
    let before = rounds_before_trump(rules.preset);
    for (round, _) in hands[0].iter().enumerate() {
        if before == Some(round) {
            pack.push(trump);
        }
        for &seat in &order {
            pack.push(hands[seat][round]);
        }
    }
    if before == Some(h) {
        pack.push(trump);
    }
    let used: CardSet = pack.iter().copied().collect();
    assert_eq!(used.len(), pack.len(), "a card is dealt twice");
    pack.extend(rules.pack().cards().difference(used).iter());
    pack
}

/// A deal of `hands` and `trump` (see [`arranged`]) with `carry` in the middle.
pub fn arrange(rules: Rules, dealer: u8, hands: &[&str], trump: &str, carry: Carry) -> (Deal, Vec<Event>) {
    let pack = arranged(rules, dealer, hands, trump);
    let (deal, events) = Deal::from_packs(rules, 1, Seat(dealer), vec![pack], carry).expect("a valid pack");
    for (seat, hand) in hands.iter().enumerate() {
        assert_eq!(deal.dealt_hand(Seat(seat as u8)), cards(hand), "seat {seat}");
    }
    (deal, events)
}

/// Parses one scripted step: `"<seat> <action> [cards]"`, e.g. `"0 play HQ"`, `"2 join"`,
/// `"1 exchange C7 S9"`.
pub fn step(line: &str) -> (Seat, Action) {
    let mut words = line.split_whitespace();
    let seat = Seat(words.next().and_then(|w| w.parse().ok()).unwrap_or_else(|| panic!("no seat in {line:?}")));
    let verb = words.next().unwrap_or_else(|| panic!("no action in {line:?}"));
    let rest: Vec<&str> = words.collect();
    let set = || cards(&rest.join(" "));
    let action = match verb {
        "shove" => Action::Shove,
        "deal" => Action::Deal,
        "knock" => Action::Knock,
        "no_knock" => Action::NoKnock,
        "sniff" => Action::Sniff,
        "no_sniff" => Action::NoSniff,
        "discard" => Action::Discard { cards: set() },
        "join" => Action::Join,
        "rob" => Action::Rob,
        "pass" => Action::Pass,
        "drop_out" => Action::DropOut,
        "keep" => Action::Keep,
        "exchange" => Action::Exchange { cards: set() },
        "play" => Action::Play { card: rest[0].parse().unwrap_or_else(|e| panic!("{e}")) },
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
    let trumps = deal.trumps();
    *legal
        .iter()
        .max_by_key(|a| match a {
            Action::Play { card } => (Some(card.suit()) == trumps, card.rank(), std::cmp::Reverse(card.suit())),
            other => panic!("only cards here, not {other:?}"),
        })
        .expect("something to play")
}

/// A varied table: every choice at random, the cards half the time the strongest.
pub fn choose(deal: &Deal, legal: &[Action], rng: &mut Rng) -> Action {
    if deal.phase() == Phase::Play && rng.chance(50) {
        return strongest(deal, legal);
    }
    if deal.phase() == Phase::Exchange && rng.chance(50) {
        return Action::Keep;
    }
    legal[rng.below(legal.len())]
}

/// Plays a deal out: `decide` answers for the seat to act outside the play (or `None` for a
/// random legal answer), the cards are played at random.
pub fn play_deal(deal: &mut Deal, decide: &dyn Fn(&Deal, Seat) -> Option<Action>, rng: &mut Rng) -> Vec<Event> {
    let mut events = Vec::new();
    while let Some(seat) = deal.turn() {
        let legal = deal.legal_actions(seat);
        let action = match deal.phase() {
            Phase::Play => legal[rng.below(legal.len())],
            _ => decide(deal, seat).unwrap_or_else(|| legal[rng.below(legal.len())]),
        };
        events.extend(deal.apply(seat, action).unwrap_or_else(|e| panic!("{action:?} refused: {e}")));
    }
    events
}

/// The first shuffled deal whose course, as [`play_deal`] plays it, satisfies `premise`.
pub fn find(
    rules: Rules,
    due: u8,
    carry: Carry,
    decide: &dyn Fn(&Deal, Seat) -> Option<Action>,
    premise: impl Fn(&Deal, &[Event]) -> bool,
) -> (Deal, Vec<Event>) {
    for seed in 0..200_000u64 {
        let (mut deal, mut events) = Deal::new(rules, 1, Seat(due), Seed::from_u64(seed), carry);
        events.extend(play_deal(&mut deal, decide, &mut Rng(seed)));
        if premise(&deal, &events) {
            return (deal, events);
        }
    }
    panic!("no deal found for the premise");
}

impl HolsteinDeal for Deal {
    type Action = Action;
    type Event = Event;
    type Phase = Phase;
    type View = DealView;

    // Every card of the 52; a deal's own pack is checked by the property tests.
    const PACK: CardSet = CardSet::ALL;
    // Tippen has no stop or Durch.
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
        Deal::trumps(self)
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
