//! The property-test driver shared by every Holstein game: plays one complete deal with a
//! random player, checking every invariant at every step. A game's test gives its deal's
//! methods, its candidate actions, its random player and what each viewer may see (worked out
//! from the true events, independently of the view code) through [`HolsteinDeal`] and [`CheckedDeal`].

use fipsen_rules::{Card, CardSet, Seat};
use serde::Serialize;

use super::{HolsteinDeal, Rng};

/// A game's hooks for the driver.
pub trait CheckedDeal: HolsteinDeal {
    /// The most steps a deal may take.
    const MAX_STEPS: usize;
    /// The keys of a redacted event that may be emptied; `None`: redaction is not compared
    /// with the true event.
    const CARD_KEYS: Option<&'static [&'static str]>;

    /// Every card of this deal's pack as it stands (empty before the cards are dealt, where a
    /// game deals after its first actions): by default the game's whole pack.
    fn pack(&self) -> CardSet {
        Self::PACK
    }

    /// The cards the first event shows everyone (a turned-up trump card): by default none.
    fn public_when_dealt(&self) -> CardSet {
        CardSet::EMPTY
    }

    /// Every action worth trying for `seat`.
    fn candidates(&self, seat: Seat, rng: &mut Rng) -> Vec<Self::Action>;

    /// What `event` (the true one) shows each viewer.
    fn learn(knowledge: &mut Knowledge, event: &Self::Event);

    /// Checks what `seat` may do now besides the player to act (`turn`): by default nothing.
    fn check_listed(&self, seat: Seat, turn: Seat, listed: &[Self::Action]) {
        if seat != turn {
            assert!(listed.is_empty(), "nothing out of turn: {listed:?}");
        }
    }

    /// Further checks on a state, made on every sixteenth deal: by default none.
    fn full_checks(&mut self, turn: Seat) {
        let _ = turn;
    }

    /// The random player: who acts next and how.
    fn pick(&self, turn: Seat, legal: &[Self::Action], rng: &mut Rng) -> (Seat, Self::Action);

    /// Checks the deal's scores against the game's formula, recomputed from the events.
    fn check_scores(&self, log: &[Self::Event]);
}

/// What each viewer may see, worked out from the true events alone.
pub struct Knowledge {
    /// Per seat; the last is the spectator.
    visible: Vec<CardSet>,
}

impl Knowledge {
    pub fn new(players: u8) -> Knowledge {
        Knowledge { visible: vec![CardSet::EMPTY; usize::from(players) + 1] }
    }

    /// What `viewer` may see (`None`: the spectator).
    pub fn of(&self, viewer: Option<Seat>) -> CardSet {
        self.visible[viewer.map_or(self.visible.len() - 1, Seat::index)]
    }

    /// `seat` sees `cards`, which the true event holds.
    pub fn add(&mut self, seat: Seat, cards: Option<CardSet>) {
        let cards = cards.expect("the true event holds the cards");
        self.visible[seat.index()] = self.visible[seat.index()].union(cards);
    }

    /// Every seat sees its dealt hand.
    pub fn dealt(&mut self, hands: &[Option<CardSet>]) {
        for (seat, hand) in hands.iter().enumerate() {
            self.add(Seat(seat as u8), *hand);
        }
    }

    /// Everyone, the spectator too, sees a card played.
    pub fn played(&mut self, card: Card) {
        self.visible.iter_mut().for_each(|v| v.insert(card));
    }

    /// Everyone, the spectator too, sees `cards`.
    pub fn show_all(&mut self, cards: CardSet) {
        self.visible.iter_mut().for_each(|v| *v = v.union(cards));
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

/// Every card named anywhere in the JSON of `value`.
pub fn json_cards<T: Serialize>(value: &T) -> CardSet {
    let mut out = CardSet::EMPTY;
    cards_in(&serde_json::to_value(value).expect("serialisable"), &mut out);
    out
}

fn check_places<D: CheckedDeal>(deal: &D) {
    let mut seen = CardSet::EMPTY;
    for place in deal.card_places() {
        assert!(seen.intersection(place).is_empty(), "a card is in two places: {:?}", seen.intersection(place));
        seen = seen.union(place);
    }
    assert_eq!(seen, D::PACK, "cards missing");
}

fn viewers(players: u8) -> impl Iterator<Item = Option<Seat>> {
    (0..players).map(|s| Some(Seat(s))).chain([None])
}

/// A redacted event keeps everything but the hidden cards: the same event once the cards of
/// both are set aside, and a stub where the viewer may not see them.
fn check_stub<E: Serialize>(event: &E, seen: &E, viewer: Option<Seat>, keys: &[&str]) {
    let strip = |e: &E| {
        let mut v = serde_json::to_value(e).expect("serialisable");
        if let Some(map) = v.as_object_mut() {
            for key in keys {
                map.remove(*key);
            }
        }
        v
    };
    assert_eq!(strip(event), strip(seen), "redaction changed more than the cards: {viewer:?}");
}

/// Plays one complete deal from its first event, checking every property on the way; with
/// `full`, also the JSON round trip at every step and that the same actions replayed on
/// `again` (the same deal, dealt again) give the same events. Returns the event log.
pub fn play_checked<D: CheckedDeal>(
    (mut deal, first): (D, D::Event),
    again: impl FnOnce() -> (D, D::Event),
    policy: u64,
    full: bool,
) -> Vec<D::Event> {
    let n = deal.players();
    let mut rng = Rng(policy);
    let mut knowledge = Knowledge::new(n);
    D::learn(&mut knowledge, &first);
    for viewer in viewers(n) {
        let seen = json_cards(&D::redact(&first, viewer));
        let own = viewer.map_or(CardSet::EMPTY, |s| deal.hand(s));
        assert_eq!(seen, own.union(deal.public_when_dealt()), "the deal shows {viewer:?} its own hand");
    }
    let mut log = vec![first];
    let mut actions = Vec::new();
    for step in 0.. {
        assert!(step < D::MAX_STEPS, "a deal must end");
        check_places(&deal);
        for viewer in viewers(n) {
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
        // Every candidate: listed as legal exactly when the rules accept it; refused ones change nothing.
        let before = deal.clone();
        for seat in (0..n).map(Seat) {
            let listed = deal.legal_actions(seat);
            deal.check_listed(seat, turn, &listed);
            for action in deal.candidates(seat, &mut rng) {
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
            deal.full_checks(turn);
            let json = serde_json::to_string(&deal).expect("serialisable");
            let back: D = serde_json::from_str(&json).expect("round trip");
            assert!(back == deal, "JSON round trip");
        }
        let (seat, action) = deal.pick(turn, &legal, &mut rng);
        let events = deal.apply(seat, action).expect("a legal action is accepted");
        actions.push((seat, action));
        for event in &events {
            D::learn(&mut knowledge, event);
            for viewer in viewers(n) {
                let redacted = D::redact(event, viewer);
                let seen = json_cards(&redacted);
                let allowed = knowledge.of(viewer);
                assert!(allowed.contains_all(seen), "{event:?} shows {viewer:?} {:?}", seen.difference(allowed));
                if let Some(keys) = D::CARD_KEYS {
                    check_stub(event, &redacted, viewer, keys);
                }
            }
        }
        log.extend(events);
    }
    deal.check_scores(&log);
    if full {
        // The same seed, rules and actions give the same events.
        let (mut again, first) = again();
        let mut replay = vec![first];
        for (seat, action) in actions {
            replay.extend(again.apply(seat, action).expect("replay"));
        }
        assert_eq!(replay, log, "the same seed and actions give the same events");
    }
    log
}

fn check_places_of<D: CheckedDeal>(deal: &D) {
    let mut seen = CardSet::EMPTY;
    for place in deal.card_places() {
        assert!(seen.intersection(place).is_empty(), "a card is in two places: {:?}", seen.intersection(place));
        seen = seen.union(place);
    }
    assert_eq!(seen, deal.pack(), "cards missing");
}

/// Checks one event as every viewer receives it, after `knowledge` has learnt the true event.
fn check_event<D: CheckedDeal>(knowledge: &Knowledge, event: &D::Event, players: u8) {
    for viewer in viewers(players) {
        let redacted = D::redact(event, viewer);
        let seen = json_cards(&redacted);
        let allowed = knowledge.of(viewer);
        assert!(allowed.contains_all(seen), "{event:?} shows {viewer:?} {:?}", seen.difference(allowed));
        if let Some(keys) = D::CARD_KEYS {
            check_stub(event, &redacted, viewer, keys);
        }
    }
}

/// [`play_checked`] for a game whose deal begins with several events (antes, a shuffle shown,
/// the deal) and may deal its cards only after its first actions: each first event is checked
/// like any later one, and the cards are checked against [`CheckedDeal::pack`].
pub fn play_checked_from<D: CheckedDeal>(
    (mut deal, first): (D, Vec<D::Event>),
    again: impl FnOnce() -> (D, Vec<D::Event>),
    policy: u64,
    full: bool,
) -> Vec<D::Event> {
    let n = deal.players();
    let mut rng = Rng(policy);
    let mut knowledge = Knowledge::new(n);
    for event in &first {
        D::learn(&mut knowledge, event);
        check_event::<D>(&knowledge, event, n);
    }
    let mut log = first;
    let mut actions = Vec::new();
    for step in 0.. {
        assert!(step < D::MAX_STEPS, "a deal must end");
        check_places_of(&deal);
        for viewer in viewers(n) {
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
        for seat in (0..n).map(Seat) {
            let listed = deal.legal_actions(seat);
            deal.check_listed(seat, turn, &listed);
            for action in deal.candidates(seat, &mut rng) {
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
            deal.full_checks(turn);
            let json = serde_json::to_string(&deal).expect("serialisable");
            let back: D = serde_json::from_str(&json).expect("round trip");
            assert!(back == deal, "JSON round trip");
        }
        let (seat, action) = deal.pick(turn, &legal, &mut rng);
        let events = deal.apply(seat, action).expect("a legal action is accepted");
        actions.push((seat, action));
        for event in &events {
            D::learn(&mut knowledge, event);
            check_event::<D>(&knowledge, event, n);
        }
        log.extend(events);
    }
    deal.check_scores(&log);
    if full {
        let (mut again, first) = again();
        let mut replay = first;
        for (seat, action) in actions {
            replay.extend(again.apply(seat, action).expect("replay"));
        }
        assert_eq!(replay, log, "the same seed and actions give the same events");
    }
    log
}
