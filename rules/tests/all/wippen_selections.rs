//! Selection queries (`options`, docs/rules/wippen.md §E9) on large tables: a selection that splits is
//! answered whatever its size; one with too many ways to search is refused with its own code
//! within a bounded search, and a smaller selection is answered as before.

use fipsen_rules::wippen::{Deal, Move, Op, Operators, Pile, PileRef, Rules, value};
use fipsen_rules::{Card, CardSet, RuleError, Seat};

fn card(code: &str) -> Card {
    code.parse().expect("a card")
}

/// Two players, seat 0 to move holding `hand`; the table holds the 45 cards of lowest value
/// (in card order) that are not in the hand, and seat 1 the rest.
fn small_values(rules: Rules, hand: &str) -> Deal {
    let hand: CardSet = hand.split_whitespace().map(card).collect();
    let mut rest: Vec<Card> = CardSet::ALL.iter().filter(|c| !hand.contains(*c)).collect();
    rest.sort_by_key(|&c| (value(c), c));
    let table: Vec<Pile> = rest[..45].iter().map(|&card| Pile::Loose { card }).collect();
    let other: CardSet = rest[45..].iter().copied().collect();
    Deal::arranged(rules, Seat(0), table, vec![hand, other], Vec::new(), Seat(0))
}

#[test]
fn every_pile_of_a_full_table_selected_is_answered_and_the_capture_is_legal() {
    let mut deal = small_values(Rules::default(), "SK SQ SJ S10");
    let piles: Vec<PileRef> = deal.table().iter().map(Pile::name).collect();
    assert_eq!(piles.len(), 45);
    // The 45 cards A–9 and some tens: with ♠K (13) every pile can be grouped (4 × 3 + A, …).
    let moves = deal.options(Seat(0), card("SK"), &piles).expect("a selection that splits is answered");
    let capture = moves.iter().find(|m| matches!(m, Move::Capture { .. })).expect("the sweep is offered");
    let Move::Capture { groups, .. } = capture else { unreachable!() };
    assert!(groups.len() >= 45 / 4, "groups of at most four piles cover 45 piles");
    assert_eq!(deal.check(Seat(0), capture), Ok(()));
    deal.apply(Seat(0), capture.clone()).expect("the offered capture is played");
    assert!(deal.table().is_empty(), "the capture took every pile");
}

#[test]
fn a_selection_too_large_to_search_is_refused_with_its_code_and_a_smaller_one_is_answered() {
    // Plus and minus only: this selection of 21 piles cannot be split into groups worth 10, and
    // proving it would mean trying a great many partial splits.
    let rules = Rules { operators: Operators::of(&[Op::Add, Op::Sub]), ..Rules::default() };
    let deal = small_values(rules, "SK SQ SJ S10");
    let piles: Vec<PileRef> = "HA DA C2 H2 S3 D3 C4 S4 H4 D4 D5 S6 D8 C9 S9 D9 C10 H10 HJ HQ DQ"
        .split_whitespace()
        .map(|c| PileRef::Card(card(c)))
        .collect();
    let before = deal.clone();
    assert_eq!(deal.options(Seat(0), card("S10"), &piles), Err(RuleError::SelectionTooLarge));
    assert_eq!(deal, before, "a refused question changes nothing");
    assert_eq!(RuleError::SelectionTooLarge.code(), "move/selection_too_large");
    // A smaller part of it is answered as before.
    let moves = deal.options(Seat(0), card("S10"), &piles[..4]).expect("four piles are answered");
    for m in &moves {
        assert_eq!(deal.check(Seat(0), m), Ok(()), "{m:?}");
    }
}
