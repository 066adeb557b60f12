//! Choosing a legal move from what the server offers a player: the `prompt` of his latest view
//! and his own hand, in any game of the platform. The generator never sees a card the player
//! may not see.

use fipsen_rules::{CardSet, prompt};
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng as _, SeedableRng};
use serde::Deserialize;
use serde_json::Value;

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

/// What a player may do now: the `prompt` of his view, read by the rules crate's prompt
/// vocabulary ([`fipsen_rules::prompt`]), the same in every game, without knowing the game.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(transparent)]
pub struct Offer(pub Value);

impl Offer {
    /// Whether the prompt offers nothing.
    pub fn is_empty(&self) -> bool {
        prompt::offers_nothing(&self.0)
    }

    /// The value of the prompt's key `key` (`Null` if it has none).
    pub fn get(&self, key: &str) -> &Value {
        &self.0[key]
    }
}

/// Every move the prompt offers, grouped by kind (the prompt's keys: bids, cards, trumps, each
/// single action, every set of cards to lay away or exchange, Wippen's whole moves), as the
/// vocabulary lists them. A prompt the vocabulary cannot read offers nothing.
pub fn offered(offer: &Offer, hand: Option<CardSet>) -> Vec<Vec<Value>> {
    prompt::offered(&offer.0, hand).map(|groups| groups.into_iter().map(|g| g.actions).collect()).unwrap_or_default()
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
    use serde_json::json;

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
