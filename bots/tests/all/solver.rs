//! The exact solver against a plain exhaustive minimax search through the rules crate.

use crate::common;

use common::*;
use fipsen_bots::rng::Rng;
use fipsen_bots::solver::{Position, Solver, Stakes};
use fipsen_rules::{Action, Card, Phase, Players};

/// Checks one position: the solver's score, its best card and the value of every card.
fn check(deal: &fipsen_rules::Deal, solver: &mut Solver) {
    let pos = Position::from_deal(deal).expect("a play position");
    let game = deal.game().expect("a game");
    let (won, lost) = deal.tricks_taken();
    let stakes = Stakes::from_game(&game, won, lost);
    let expected = minimax(deal);
    if deal.phase() == Phase::DurchChoice {
        // Stop or go on: the solver's score covers the choice.
        let (value, _) = solver.solve(&pos, &stakes);
        assert_eq!(value, expected, "durch choice {deal:?}");
        return;
    }
    let (value, best) = solver.solve(&pos, &stakes);
    assert_eq!(value, expected, "score of {pos:?} {stakes:?}");
    let seat = deal.turn().expect("a turn");
    let mut values = Vec::new();
    solver.card_values(&pos, &stakes, &mut values);
    let playable = deal.playable(seat);
    assert_eq!(values.len(), playable.len(), "one value per playable card");
    for (card, v) in values {
        let card = Card::from_index(card).expect("a card");
        assert!(playable.contains(card));
        let mut next = deal.clone();
        next.apply(seat, Action::Play { card }).expect("playable");
        assert_eq!(v, minimax(&next), "value of {card} in {pos:?} {stakes:?}");
        if card.index() == best {
            assert_eq!(v, value, "the best card reaches the score");
        }
    }
}

#[test]
fn solver_agrees_with_exhaustive_minimax_on_random_positions() {
    let mut rng = Rng::new(20260101);
    let mut solver = Solver::new();
    let mut checked = [0usize; 2];
    let mut attempts = 0;
    while checked.iter().sum::<usize>() < 3000 && attempts < 100_000 {
        attempts += 1;
        let rules = random_rules(&mut rng);
        let mut deal = random_deal(&mut rng, rules);
        if !to_play(&mut rng, &mut deal) {
            continue;
        }
        let n = usize::from(rules.players.count());
        // Exhaustive search from the first lead is slow; most positions start a little later.
        let min_cards = if rng.index(40) == 0 { if n == 3 { 0 } else { 4 } } else { 2 * n - 1 };
        let cards = min_cards + rng.index(5 * n - min_cards - 1);
        if !play_random(&mut rng, &mut deal, cards) {
            continue;
        }
        check(&deal, &mut solver);
        checked[usize::from(rules.players == Players::Four)] += 1;
    }
    assert!(checked[0] > 1000 && checked[1] > 1000, "{checked:?} positions checked");
}
