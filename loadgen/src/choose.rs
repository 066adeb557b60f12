//! Choosing a legal move from what the server offers a player: the `prompt` of his latest view
//! and his own hand. The generator never sees a card the player may not see.

use fipsen_rules::{Action, CardSet, Prompt};
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng as _, SeedableRng};

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

/// Every move the prompt offers, grouped by kind (bids, cards, trumps and single actions).
/// A discard lays away the lowest cards of the hand: any choice of that many cards is legal.
pub fn offered(prompt: &Prompt, hand: Option<CardSet>) -> Vec<Vec<Action>> {
    let mut groups: Vec<Vec<Action>> = Vec::new();
    if !prompt.bids.is_empty() {
        groups.push(prompt.bids.iter().map(|&bid| Action::Bid { bid }).collect());
    }
    if !prompt.cards.is_empty() {
        groups.push(prompt.cards.iter().map(|card| Action::Play { card }).collect());
    }
    if !prompt.trumps.is_empty() {
        groups.push(prompt.trumps.iter().map(|&suit| Action::NameTrumps { suit }).collect());
    }
    if let (Some(count), Some(hand)) = (prompt.discard, hand) {
        let cards: CardSet = hand.iter().take(usize::from(count)).collect();
        if cards.len() == usize::from(count) {
            groups.push(vec![Action::Discard { cards }]);
        }
    }
    let singles = [
        (prompt.hold, Action::Hold),
        (prompt.pass, Action::Pass),
        (prompt.take_skat, Action::TakeSkat),
        (prompt.play_hand, Action::PlayHand),
        (prompt.kontra, Action::Kontra),
        (prompt.rekontra, Action::Rekontra),
        (prompt.stop, Action::Stop),
        (prompt.go_on, Action::GoOn),
        (prompt.give_up, Action::GiveUp),
        (prompt.siebener_fips, Action::SiebenerFips),
    ];
    groups.extend(singles.into_iter().filter(|(offered, _)| *offered).map(|(_, action)| vec![action]));
    groups
}

/// A random move among those offered: first a kind, then one of that kind. `None` if nothing
/// is offered.
pub fn choose(prompt: &Prompt, hand: Option<CardSet>, rng: &mut Rng) -> Option<Action> {
    let groups = offered(prompt, hand);
    if groups.is_empty() {
        return None;
    }
    let group = &groups[rng.below(groups.len())];
    Some(group[rng.below(group.len())])
}

#[cfg(test)]
mod tests {
    use super::*;
    use fipsen_rules::{Deal, RuleSet, Seat, Seed};

    /// Plays whole deals choosing only from each player's view, and lets the rules crate judge
    /// every move.
    #[test]
    fn moves_chosen_from_views_are_always_legal() {
        let mut rng = Rng::new(7);
        for number in 0..200u32 {
            let mut seed = [0u8; 32];
            seed[..4].copy_from_slice(&number.to_le_bytes());
            let (mut deal, _) = Deal::new(RuleSet::default(), 1, Seat(3), Seed(seed));
            let mut moves = 0;
            while !deal.is_over() {
                let seats: Vec<Seat> = (0..4).map(Seat).collect();
                let actor = deal
                    .turn()
                    .or_else(|| seats.iter().copied().find(|&s| !deal.view(Some(s)).prompt.is_empty()))
                    .expect("someone may act while the deal runs");
                let view = deal.view(Some(actor));
                let action = choose(&view.prompt, view.hand, &mut rng).expect("the actor is offered a move");
                deal.apply(actor, action).unwrap_or_else(|e| panic!("{action:?} refused: {e}"));
                moves += 1;
                assert!(moves < 500, "a deal does not end");
            }
        }
    }

    #[test]
    fn an_empty_prompt_offers_nothing() {
        assert_eq!(choose(&Prompt::default(), None, &mut Rng::new(1)), None);
    }

    #[test]
    fn a_discard_lays_away_the_asked_number_of_own_cards() {
        let hand: CardSet = ["C7", "S8", "H9", "CA"].iter().map(|c| c.parse().unwrap()).collect();
        let prompt = Prompt { discard: Some(2), ..Prompt::default() };
        match choose(&prompt, Some(hand), &mut Rng::new(3)) {
            Some(Action::Discard { cards }) => {
                assert_eq!(cards.len(), 2);
                assert!(hand.contains_all(cards));
            }
            other => panic!("expected a discard, got {other:?}"),
        }
        // Without the hand no discard can be chosen.
        assert_eq!(choose(&prompt, None, &mut Rng::new(3)), None);
    }
}
