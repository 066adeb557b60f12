//! Choosing a legal move from what the server offers a player: the `prompt` of his latest view
//! and his own hand, in any game of the platform. The generator never sees a card the player
//! may not see.

use std::collections::BTreeMap;

use fipsen_rules::{CardSet, Suit};
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng as _, SeedableRng};
use serde::Deserialize;
use serde_json::{Value, json};

/// Each table's own deterministic random numbers (ChaCha8): a run with the same seed chooses the
/// same kinds of moves.
#[derive(Debug, Clone)]
pub struct Rng(ChaCha8Rng);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(ChaCha8Rng::seed_from_u64(seed))
    }

    /// A number in `0..n` (`n` > 0; the modulo bias is irrelevant for choosing moves).
    pub fn below(&mut self, n: usize) -> usize {
        (self.0.next_u64() % n as u64) as usize
    }
}

/// What a player may do now, read from his view's `prompt` without knowing the game: every
/// game's prompt follows one convention. `bids` lists the bids on offer (each becomes
/// `{"action": "bid", "bid": …}`), `cards` the cards he may play, `trumps` the suits he may name,
/// `discard` how many cards he must lay away, `exchange` how many cards at most he may exchange
/// (Tippen's talon), and every other field that is `true` offers the action of that name
/// (`"pass": true` offers `{"action": "pass"}`).
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
pub struct Offer {
    /// The bids on offer, in the game's own form.
    #[serde(default)]
    pub bids: Vec<Value>,
    /// The cards he may play.
    #[serde(default)]
    pub cards: CardSet,
    /// The suits he may name as trumps.
    #[serde(default)]
    pub trumps: Vec<Suit>,
    /// How many cards he must lay away.
    #[serde(default)]
    pub discard: Option<u8>,
    /// How many cards at most he may exchange.
    #[serde(default)]
    pub exchange: Option<u8>,
    /// Every other field: `true` offers the action of that name.
    #[serde(flatten)]
    pub flags: BTreeMap<String, Value>,
}

impl Offer {
    /// Whether the prompt offers nothing.
    pub fn is_empty(&self) -> bool {
        self.bids.is_empty()
            && self.cards.is_empty()
            && self.trumps.is_empty()
            && self.discard.is_none()
            && self.exchange.is_none()
            && !self.flags.values().any(|v| *v == Value::Bool(true))
            && self.flags.get("moves").is_none_or(|m| m.as_array().is_none_or(|a| a.is_empty()))
    }
}

/// Every move the prompt offers, grouped by kind (bids, cards, trumps and single actions).
/// A discard lays away the lowest cards of the hand: any choice of that many cards is legal; an
/// exchange offers to lay away the lowest one, two, … up to the most allowed.
pub fn offered(offer: &Offer, hand: Option<CardSet>) -> Vec<Vec<Value>> {
    let mut groups: Vec<Vec<Value>> = Vec::new();
    if !offer.bids.is_empty() {
        groups.push(offer.bids.iter().map(|bid| json!({"action": "bid", "bid": bid})).collect());
    }
    if !offer.cards.is_empty() {
        groups.push(offer.cards.iter().map(|card| json!({"action": "play", "card": card})).collect());
    }
    if !offer.trumps.is_empty() {
        groups.push(offer.trumps.iter().map(|suit| json!({"action": "name_trumps", "suit": suit})).collect());
    }
    if let (Some(count), Some(hand)) = (offer.discard, hand) {
        let cards: CardSet = hand.iter().take(usize::from(count)).collect();
        if cards.len() == usize::from(count) {
            groups.push(vec![json!({"action": "discard", "cards": cards})]);
        }
    }
    if let (Some(most), Some(hand)) = (offer.exchange, hand) {
        let exchanges: Vec<Value> = (1..=usize::from(most).min(hand.len()))
            .map(|n| json!({"action": "exchange", "cards": hand.iter().take(n).collect::<CardSet>()}))
            .collect();
        if !exchanges.is_empty() {
            groups.push(exchanges);
        }
    }
    // Wippen: per hand card a discard, or the capture of the buildings a kept promise requires
    // (each alone a group worth the card), which is always legal.
    if let Some(Value::Array(moves)) = offer.flags.get("moves") {
        let simple: Vec<Value> = moves
            .iter()
            .map(|entry| {
                if entry["discard"] == true {
                    json!({"kind": "discard", "card": entry["card"]})
                } else {
                    let groups: Vec<Value> = entry["must_include"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(|id| json!({"building": id}))
                        .collect();
                    json!({"kind": "capture", "card": entry["card"], "groups": groups})
                }
            })
            .collect();
        if !simple.is_empty() {
            groups.push(simple);
        }
    }
    for (name, value) in &offer.flags {
        if *value == Value::Bool(true) {
            groups.push(vec![json!({ "action": name })]);
        }
    }
    groups
}

/// A random move among those offered: first a kind, then one of that kind. `None` if nothing
/// is offered.
pub fn choose(offer: &Offer, hand: Option<CardSet>, rng: &mut Rng) -> Option<Value> {
    let mut groups = offered(offer, hand);
    if groups.is_empty() {
        return None;
    }
    let i = rng.below(groups.len());
    let group = &mut groups[i];
    let j = rng.below(group.len());
    Some(group.swap_remove(j))
}

#[cfg(test)]
mod tests {
    use super::*;
    use fipsen_rules::{AnyGame, GameId, GameRules, Seat, Seed};

    /// The offer in a view of any game, as the generator reads it from a frame.
    fn offer_of(game: &AnyGame, seat: Seat) -> (Offer, Option<CardSet>) {
        let view = serde_json::to_value(game.view(Some(seat))).unwrap();
        let offer = serde_json::from_value(view["deal"]["prompt"].clone()).unwrap();
        let hand = serde_json::from_value(view["deal"]["hand"].clone()).unwrap();
        (offer, hand)
    }

    /// Plays whole deals of every game choosing only from each player's view, and lets the
    /// rules crate judge every move.
    #[test]
    fn moves_chosen_from_views_are_always_legal_in_every_game() {
        let mut rng = Rng::new(7);
        for &id in GameId::ALL {
            let mut moves = 0;
            for number in 0..40u8 {
                let (mut game, _) = AnyGame::start(&GameRules::default_for(id), Seed([number; 32])).unwrap();
                let seats: Vec<Seat> = (0..game.seats() as u8).map(Seat).collect();
                while !game.deal_over() {
                    let actor = game
                        .turn()
                        .or_else(|| seats.iter().copied().find(|&s| !offer_of(&game, s).0.is_empty()))
                        .expect("someone may act while the deal runs");
                    let (offer, hand) = offer_of(&game, actor);
                    let json = choose(&offer, hand, &mut rng).expect("the actor is offered a move");
                    let action = game.action_from_json(json.clone()).unwrap_or_else(|e| panic!("{json}: {e}"));
                    game.apply(actor, &action).unwrap_or_else(|e| panic!("{id:?} {json} refused: {e}"));
                    moves += 1;
                    assert!(moves < 40 * 500, "a deal does not end");
                }
            }
            assert!(moves > 40 * 5, "{id:?}: {moves} moves");
        }
    }

    #[test]
    fn an_empty_prompt_offers_nothing() {
        let empty: Offer = serde_json::from_str("{}").unwrap();
        assert!(empty.is_empty());
        assert_eq!(choose(&empty, None, &mut Rng::new(1)), None);
        let declined: Offer = serde_json::from_str(r#"{"pass": false, "cards": []}"#).unwrap();
        assert!(declined.is_empty());
    }

    #[test]
    fn a_discard_lays_away_the_asked_number_of_own_cards() {
        let hand: CardSet = ["C7", "S8", "H9", "CA"].iter().map(|c| c.parse().unwrap()).collect();
        let offer: Offer = serde_json::from_str(r#"{"discard": 2}"#).unwrap();
        let chosen = choose(&offer, Some(hand), &mut Rng::new(3)).expect("a discard");
        assert_eq!(chosen["action"], "discard");
        let cards: CardSet = serde_json::from_value(chosen["cards"].clone()).unwrap();
        assert_eq!(cards.len(), 2);
        assert!(hand.contains_all(cards));
        // Without the hand no discard can be chosen.
        assert_eq!(choose(&offer, None, &mut Rng::new(3)), None);
        // A flag offers the action of its name.
        let offer: Offer = serde_json::from_str(r#"{"fold": true}"#).unwrap();
        assert_eq!(choose(&offer, None, &mut Rng::new(3)), Some(json!({"action": "fold"})));
    }

    #[test]
    fn an_exchange_lays_away_one_to_the_most_allowed_of_own_cards() {
        let hand: CardSet = ["C7", "S8", "H9"].iter().map(|c| c.parse().unwrap()).collect();
        let offer: Offer = serde_json::from_str(r#"{"exchange": 2, "keep": true}"#).unwrap();
        assert!(!offer.is_empty());
        let mut counts = std::collections::BTreeSet::new();
        for seed in 0..64 {
            let chosen = choose(&offer, Some(hand), &mut Rng::new(seed)).expect("a move");
            if chosen["action"] == "exchange" {
                let cards: CardSet = serde_json::from_value(chosen["cards"].clone()).unwrap();
                assert!(hand.contains_all(cards));
                counts.insert(cards.len());
            } else {
                assert_eq!(chosen, json!({"action": "keep"}));
            }
        }
        assert_eq!(counts.into_iter().collect::<Vec<_>>(), vec![1, 2], "one or two cards, never three");
    }
}
