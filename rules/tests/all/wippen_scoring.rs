//! The required examples of docs/rules/wippen.md §E7 word for word, and the scoring examples of §E11.

#![allow(clippy::unwrap_used)]

use crate::wippen_common;

use fipsen_rules::wippen::{Building, BuildingId, Deal, Event, Move, Pile, Rules, score};
use fipsen_rules::{Card, CardSet, Rank, RuleError, Seat, Suit};
use wippen_common::{c, cards, example, loose, mv, set};

const P1: Seat = Seat(0);
const P2: Seat = Seat(1);

/// Applies a legal move and returns what it took and the building it made.
fn legal(deal: &mut Deal, seat: Seat, json: &str) -> (Vec<Card>, Option<Building>) {
    let m = mv(json);
    // The selection query offers the same move (same card, kind, value and piles).
    let piles = piles_of(deal, &m);
    let options = deal.options(seat, m.card(), &piles).unwrap();
    assert!(
        options.iter().any(|o| o.kind() == m.kind() && build_value(o) == build_value(&m)),
        "{json}: not among the options {options:?}"
    );
    let events = deal.apply(seat, m).unwrap_or_else(|e| panic!("{json}: {e}"));
    match &events[0] {
        Event::Moved { taken, building, .. } => (taken.clone(), building.clone()),
        other => panic!("{other:?}"),
    }
}

fn build_value(m: &Move) -> Option<u8> {
    match m {
        Move::Build { value, .. } => Some(*value),
        _ => None,
    }
}

/// The table piles a move names.
fn piles_of(deal: &Deal, m: &Move) -> Vec<fipsen_rules::wippen::PileRef> {
    let mut out = Vec::new();
    for g in m.groups() {
        for leaf in g.leaves() {
            for p in deal.table() {
                if p.name().leaf() == *leaf && !out.contains(&p.name()) {
                    out.push(p.name());
                }
            }
        }
    }
    out
}

/// A move refused with `error`, the game left as it was.
fn illegal(deal: &mut Deal, seat: Seat, json: &str, error: RuleError) {
    let before = deal.clone();
    assert_eq!(deal.apply(seat, mv(json)), Err(error), "{json}");
    assert_eq!(*deal, before, "a refused move changes nothing");
}

fn table_names(deal: &Deal) -> Vec<String> {
    deal.table()
        .iter()
        .map(|p| match p {
            Pile::Loose { card } => card.to_string(),
            Pile::Building(b) => format!("#{}", b.id.0),
        })
        .collect()
}

#[test]
fn e7_1_capture_ten_by_three_times_two_plus_four() {
    let mut d = example(Rules::default(), 1);
    let json = r#"{"kind": "capture", "card": "H10", "groups": [
        {"op": "+", "l": {"op": "*", "l": {"card": "S3"}, "r": {"card": "D2"}}, "r": {"card": "C4"}}]}"#;
    let (taken, _) = legal(&mut d, P2, json);
    assert_eq!(taken, cards("H10 S3 D2 C4"));
    assert_eq!(table_names(&d), ["D5", "#1"]);
}

#[test]
fn e7_2_capture_ten_with_two_groups_one_a_building() {
    let mut d = example(Rules::default(), 1);
    let json = r#"{"kind": "capture", "card": "H10", "groups": [
        {"op": "*", "l": {"card": "D5"}, "r": {"card": "D2"}},
        {"op": "+", "l": {"building": 1}, "r": {"card": "C4"}}]}"#;
    let (taken, _) = legal(&mut d, P2, json);
    assert_eq!(set(&taken.iter().map(Card::to_string).collect::<Vec<_>>().join(" ")), set("H10 D5 D2 H3 C3 C4"));
    assert_eq!(taken.len(), 6);
    assert_eq!(table_names(&d), ["S3"]);
}

#[test]
fn e7_3_capture_five_by_five_and_three_plus_two() {
    let mut d = example(Rules::default(), 1);
    let json = r#"{"kind": "capture", "card": "S5", "groups": [
        {"card": "D5"}, {"op": "+", "l": {"card": "S3"}, "r": {"card": "D2"}}]}"#;
    let (taken, _) = legal(&mut d, P2, json);
    assert_eq!(taken, cards("S5 D5 S3 D2"));
}

#[test]
fn e7_4_two_minus_three_is_not_positive() {
    let mut d = example(Rules::default(), 1);
    let json = r#"{"kind": "capture", "card": "S5", "groups": [
        {"op": "+", "l": {"op": "-", "l": {"card": "D2"}, "r": {"card": "S3"}}, "r": {"building": 1}}]}"#;
    illegal(&mut d, P2, json, RuleError::InvalidArithmetic { group: 0, op: '-', left: 2, right: 3 });
    // The same piles as #1 − (♠3 − ♦2) are legal.
    let json = r#"{"kind": "capture", "card": "S5", "groups": [
        {"op": "-", "l": {"building": 1}, "r": {"op": "-", "l": {"card": "S3"}, "r": {"card": "D2"}}}]}"#;
    let (taken, _) = legal(&mut d, P2, json);
    assert_eq!(taken, cards("S5 H3 C3 S3 D2"));
}

#[test]
fn e7_5_five_divided_by_two_is_not_exact() {
    let mut d = example(Rules::default(), 1);
    let json = r#"{"kind": "capture", "card": "H10", "groups": [
        {"op": "*", "l": {"op": "/", "l": {"card": "D5"}, "r": {"card": "D2"}}, "r": {"card": "C4"}}]}"#;
    illegal(&mut d, P2, json, RuleError::InvalidArithmetic { group: 0, op: '/', left: 5, right: 2 });
    let json = r#"{"kind": "capture", "card": "H10", "groups": [
        {"op": "/", "l": {"op": "*", "l": {"card": "C4"}, "r": {"card": "D5"}}, "r": {"card": "D2"}}]}"#;
    let (taken, _) = legal(&mut d, P2, json);
    assert_eq!(taken, cards("H10 C4 D5 D2"));
}

#[test]
fn e7_6_no_pile_used_twice() {
    let mut d = example(Rules::default(), 1);
    let json = r#"{"kind": "capture", "card": "H10", "groups": [
        {"op": "*", "l": {"card": "D5"}, "r": {"card": "D2"}},
        {"op": "+", "l": {"op": "+", "l": {"card": "S3"}, "r": {"card": "D5"}}, "r": {"card": "D2"}}]}"#;
    illegal(&mut d, P2, json, RuleError::PileUsedTwice);
}

#[test]
fn e7_7_build_seven_to_eight_holding_an_eight() {
    let mut d = example(Rules::default(), 1);
    let json = r#"{"kind": "build", "card": "S7", "value": 8, "groups": [
        {"op": "+", "l": {"card": "S7"}, "r": {"op": "-", "l": {"card": "S3"}, "r": {"card": "D2"}}}]}"#;
    let (_, b) = legal(&mut d, P2, json);
    assert_eq!(b, Some(Building { id: BuildingId(2), value: 8, owner: P2, cards: cards("S7 S3 D2") }));
    assert_eq!(table_names(&d), ["C4", "D5", "#1", "#2"]);
}

#[test]
fn e7_8_overbuild_of_p1s_building() {
    let mut d = example(Rules::default(), 1);
    let json = r#"{"kind": "build", "card": "S7", "value": 8, "groups": [
        {"op": "+", "l": {"card": "S7"}, "r": {"op": "-", "l": {"card": "D5"}, "r": {"card": "C4"}}},
        {"op": "+", "l": {"building": 1}, "r": {"card": "D2"}}]}"#;
    let (_, b) = legal(&mut d, P2, json);
    assert_eq!(b, Some(Building { id: BuildingId(2), value: 8, owner: P2, cards: cards("S7 D5 C4 H3 C3 D2") }));
    assert_eq!(table_names(&d), ["S3", "#2"]);
}

#[test]
fn e7_9_no_build_to_a_value_not_held() {
    let mut d = example(Rules::default(), 1);
    let json = r#"{"kind": "build", "card": "S5", "value": 9, "groups": [
        {"op": "+", "l": {"card": "S5"}, "r": {"card": "C4"}}]}"#;
    illegal(&mut d, P2, json, RuleError::NoCardForValue { value: 9 });
}

#[test]
fn e7_10_rebuild_at_the_same_value() {
    let mut d = example(Rules::default(), 0);
    let json = r#"{"kind": "build", "card": "S2", "value": 6, "groups": [
        {"op": "*", "l": {"op": "-", "l": {"building": 1}, "r": {"card": "S3"}}, "r": {"card": "S2"}}]}"#;
    let (_, b) = legal(&mut d, P1, json);
    assert_eq!(b, Some(Building { id: BuildingId(2), value: 6, owner: P1, cards: cards("H3 C3 S3 S2") }));
    assert!(d.hand(P1).contains(c("H6")), "P1 keeps ♥6");
}

#[test]
fn e7_11_no_new_value_for_his_own_building() {
    let mut d = example(Rules::default(), 0);
    let json = r#"{"kind": "build", "card": "CA", "value": 7, "groups": [
        {"op": "+", "l": {"building": 1}, "r": {"card": "CA"}}]}"#;
    // He holds no 7: that is checked first (§E8).
    illegal(&mut d, P1, json, RuleError::NoCardForValue { value: 7 });
    // Holding a 7, it is his own building's value that he may not change.
    let table = d.table().to_vec();
    let mut d =
        Deal::arranged(Rules::default(), P2, table, vec![set("S2 H6 CA H7"), set("H10 S5 S7 D8")], Vec::new(), P1);
    illegal(&mut d, P1, json, RuleError::OwnBuildingValueChange);
}

#[test]
fn e7_12_no_discard_of_the_last_six_while_owning_a_six_building() {
    let mut d = example(Rules::default(), 0);
    illegal(&mut d, P1, r#"{"kind": "discard", "card": "H6"}"#, RuleError::BrokenPromise { value: 6 });
    // Without keep_promise he may.
    let mut d = example(Rules { keep_promise: false, ..Rules::default() }, 0);
    assert!(d.apply(P1, mv(r#"{"kind": "discard", "card": "H6"}"#)).is_ok());
}

#[test]
fn e7_13_the_capture_must_take_the_building_as_well() {
    let mut d = example(Rules::default(), 0);
    let json =
        r#"{"kind": "capture", "card": "H6", "groups": [{"op": "+", "l": {"card": "C4"}, "r": {"card": "D2"}}]}"#;
    illegal(&mut d, P1, json, RuleError::BrokenPromise { value: 6 });
}

#[test]
fn e7_14_capture_six_with_the_building() {
    let mut d = example(Rules::default(), 0);
    let json = r#"{"kind": "capture", "card": "H6", "groups": [
        {"op": "+", "l": {"card": "C4"}, "r": {"card": "D2"}}, {"building": 1}]}"#;
    let (taken, _) = legal(&mut d, P1, json);
    assert_eq!(taken, cards("H6 C4 D2 H3 C3"));
}

#[test]
fn the_listing_of_the_example_says_what_the_examples_say() {
    let d = example(Rules::default(), 0);
    let listing = d.listing(P1);
    let h6 = listing.cards.iter().find(|l| l.card == c("H6")).unwrap();
    assert!(!h6.discard);
    assert_eq!(h6.must_include, [BuildingId(1)]);
    assert!(h6.builds.is_empty(), "his last 6 builds nothing while he owns a 6-building");
    let s2 = listing.cards.iter().find(|l| l.card == c("S2")).unwrap();
    let six = s2.builds.iter().find(|b| b.value == 6).unwrap();
    assert!(six.cores.iter().any(|g| g.piles.len() == 2), "(#1 − ♠3) × ♠2");
    let ca = listing.cards.iter().find(|l| l.card == c("CA")).unwrap();
    for b in &ca.builds {
        assert_ne!(b.value, 7);
        for g in b.cores.iter().chain(&b.extras) {
            // His own building only at its own value.
            assert!(b.value == 6 || !g.piles.contains(&fipsen_rules::wippen::PileRef::Building(BuildingId(1))));
        }
    }
}

#[test]
fn the_checking_order_of_e8() {
    let mut d = example(Rules::default(), 1);
    // Not his turn; a card not held.
    illegal(&mut d, P1, r#"{"kind": "discard", "card": "S2"}"#, RuleError::NotYourTurn);
    illegal(&mut d, P2, r#"{"kind": "discard", "card": "S2"}"#, RuleError::NotInHand { card: c("S2") });
    // Too large: more leaves than piles + 1, before anything is evaluated.
    let big = r#"{"kind": "capture", "card": "H10", "groups": [{"op": "+", "l": {"op": "+", "l": {"op": "+",
        "l": {"card": "S3"}, "r": {"card": "S3"}}, "r": {"op": "+", "l": {"card": "S3"}, "r": {"card": "S3"}}},
        "r": {"op": "+", "l": {"card": "S3"}, "r": {"op": "+", "l": {"card": "S3"}, "r": {"card": "S3"}}}}]}"#;
    illegal(&mut d, P2, big, RuleError::MoveTooLarge);
    illegal(&mut d, P2, r#"{"kind": "capture", "card": "H10", "groups": []}"#, RuleError::NoGroup);
    illegal(&mut d, P2, r#"{"kind": "capture", "card": "S5", "groups": [{"card": "H5"}]}"#, RuleError::UnknownPile);
    illegal(&mut d, P2, r#"{"kind": "capture", "card": "S5", "groups": [{"building": 7}]}"#, RuleError::UnknownPile);
    illegal(
        &mut d,
        P2,
        r#"{"kind": "capture", "card": "S5", "groups": [{"op": "-", "l": {"card": "S5"}, "r": {"card": "D5"}}]}"#,
        RuleError::HandCardMisplaced,
    );
    illegal(
        &mut d,
        P2,
        r#"{"kind": "build", "card": "S7", "value": 8, "groups": [{"op": "+", "l": {"card": "D5"}, "r": {"card": "S3"}}]}"#,
        RuleError::HandCardMisplaced,
    );
    let five = r#"{"kind": "capture", "card": "H10", "groups": [{"op": "+", "l": {"op": "+", "l": {"op": "+",
        "l": {"card": "S3"}, "r": {"card": "D2"}}, "r": {"op": "-", "l": {"card": "C4"}, "r": {"card": "D5"}}},
        "r": {"building": 1}}]}"#;
    illegal(&mut d, P2, five, RuleError::GroupTooLarge { max: 4, group: 0 });
    illegal(
        &mut d,
        P2,
        r#"{"kind": "build", "card": "D8", "value": 8, "groups": [{"card": "D8"}]}"#,
        RuleError::NoTablePile,
    );
    let mut plus = example(Rules { operators: fipsen_rules::wippen::Operators::PLUS, ..Rules::default() }, 1);
    illegal(
        &mut plus,
        P2,
        r#"{"kind": "capture", "card": "H10", "groups": [{"op": "*", "l": {"card": "D5"}, "r": {"card": "D2"}}]}"#,
        RuleError::OperatorNotAllowed { op: '*' },
    );
    illegal(
        &mut d,
        P2,
        r#"{"kind": "capture", "card": "H10", "groups": [{"card": "D5"}, {"op": "+", "l": {"card": "D2"}, "r": {"card": "S3"}}]}"#,
        RuleError::WrongValue { group: 0, value: 5, target: 10 },
    );
}

/// Deals a set of captured cards with the given counts from what `pool` still holds.
fn captured(pool: &mut CardSet, n: usize, spades: usize, aces: usize, ten: bool, two: bool) -> CardSet {
    let mut out = CardSet::EMPTY;
    fn take(pool: &mut CardSet, card: Card, out: &mut CardSet) {
        assert!(pool.contains(card), "{card} taken twice");
        pool.remove(card);
        out.insert(card);
    }
    if ten {
        take(pool, Card::new(Suit::Diamonds, Rank::Ten), &mut out);
    }
    if two {
        take(pool, Card::new(Suit::Spades, Rank::Two), &mut out);
    }
    for _ in 0..aces {
        let ace = [Suit::Clubs, Suit::Hearts, Suit::Diamonds, Suit::Spades]
            .into_iter()
            .map(|s| Card::new(s, Rank::Ace))
            .find(|&a| pool.contains(a))
            .unwrap();
        take(pool, ace, &mut out);
    }
    let is_special = |card: Card| {
        card.rank() == Rank::Ace
            || card == Card::new(Suit::Diamonds, Rank::Ten)
            || card == Card::new(Suit::Spades, Rank::Two)
    };
    while out.of_suit(Suit::Spades).len() < spades {
        let s = pool.of_suit(Suit::Spades).iter().find(|&c| !is_special(c)).unwrap();
        take(pool, s, &mut out);
    }
    while out.len() < n {
        let s = pool.iter().find(|&c| c.suit() != Suit::Spades && !is_special(c)).unwrap();
        take(pool, s, &mut out);
    }
    assert_eq!(out.of_suit(Suit::Spades).len(), spades);
    out
}

#[test]
fn e11_a_takes_twelve_and_b_one() {
    let mut pool = CardSet::ALL;
    let a = captured(&mut pool, 29, 8, 3, true, true);
    let b = captured(&mut pool, 23, 5, 1, false, false);
    let o = score(&[a, b], &[2, 0]);
    assert_eq!(o.points, [12, 1]);
    assert_eq!(o.points.iter().sum::<i32>(), 11 + 2);
}

#[test]
fn e11_equal_cards_share_the_most_cards_line() {
    let mut pool = CardSet::ALL;
    let a = captured(&mut pool, 26, 7, 2, false, true);
    let b = captured(&mut pool, 26, 6, 2, true, false);
    assert_eq!(score(&[a, b], &[0, 1]).points, [6, 6]);
}

#[test]
fn e11_three_players_four_each() {
    let mut pool = CardSet::ALL;
    let a = captured(&mut pool, 18, 6, 1, false, false);
    let b = captured(&mut pool, 18, 4, 2, false, true);
    let c = captured(&mut pool, 16, 3, 1, true, false);
    assert_eq!(score(&[a, b, c], &[0, 0, 1]).points, [4, 4, 4]);
}

#[test]
fn e11_four_players_three_tied_for_most_cards_score_nothing() {
    let mut pool = CardSet::ALL;
    let a = captured(&mut pool, 14, 4, 1, false, false);
    let b = captured(&mut pool, 14, 4, 1, false, false);
    let c = captured(&mut pool, 14, 3, 1, false, true);
    let d = captured(&mut pool, 10, 2, 1, true, false);
    let o = score(&[a, b, c, d], &[0; 4]);
    assert_eq!(o.points, [2, 2, 2, 3]);
    // 11 points less the 2 of "most cards", which nobody won.
    assert_eq!(o.points.iter().sum::<i32>(), 9);
}

#[test]
fn e11_the_last_capturer_takes_what_is_left_and_it_is_no_sweep() {
    // Table left: ♦10, ♣7, building #4 (9, owner A: ♥4 ♥5); A discards ♥2, B captures it last.
    let rules = Rules { keep_promise: false, ..Rules::default() };
    let table = vec![loose("D10"), loose("C7"), wippen_common::building(4, 9, 0, "H4 H5")];
    let mut d = Deal::arranged(rules, Seat(1), table, vec![set("H2"), set("S2")], Vec::new(), Seat(0));
    d.apply(Seat(0), mv(r#"{"kind": "discard", "card": "H2"}"#)).unwrap();
    let events = d.apply(Seat(1), mv(r#"{"kind": "capture", "card": "S2", "groups": [{"card": "H2"}]}"#)).unwrap();
    assert!(matches!(&events[0], Event::Moved { sweep: false, .. }));
    assert_eq!(events[1], Event::Leftover { seat: Some(Seat(1)), cards: cards("D10 C7 H4 H5") });
    assert!(d.is_over());
    assert_eq!(d.captured()[1], set("S2 H2 D10 C7 H4 H5"));
    assert_eq!(d.sweeps(), [0, 0]);
    let o = d.outcome().unwrap();
    assert_eq!(o.leftover_to, Some(Seat(1)));
    // B: most cards 2, most spades 2 (♠2 his only spade, A has none), ♦10 2, ♠2 1.
    assert_eq!(o.points, [0, 7]);
}

#[test]
fn a_capture_emptying_the_table_with_the_last_card_is_a_sweep_unless_the_option_is_off() {
    for (on, sweeps) in [(true, 1), (false, 0)] {
        let rules = Rules { last_move_sweep: on, ..Rules::default() };
        let mut d = Deal::arranged(rules, Seat(1), vec![loose("C7")], vec![set("H7"), set("S4")], Vec::new(), Seat(1));
        d.apply(Seat(1), mv(r#"{"kind": "discard", "card": "S4"}"#)).unwrap();
        let events = d
            .apply(Seat(0), mv(r#"{"kind": "capture", "card": "H7", "groups": [{"card": "C7"}, {"op": "+", "l": {"card": "S4"}, "r": {"card": "S4"}}]}"#))
            .unwrap_err();
        assert_eq!(events, RuleError::PileUsedTwice);
        let events = d.apply(Seat(0), mv(r#"{"kind": "capture", "card": "H7", "groups": [{"card": "C7"}]}"#)).unwrap();
        assert!(matches!(&events[0], Event::Moved { sweep: false, .. }), "♠4 is still on the table");
        let _ = events;
        // A table emptied with the game's last card.
        let mut d = Deal::arranged(
            rules,
            Seat(1),
            vec![loose("C7"), loose("D3")],
            vec![set("H10"), set("S4")],
            Vec::new(),
            Seat(1),
        );
        d.apply(Seat(1), mv(r#"{"kind": "discard", "card": "S4"}"#)).unwrap();
        let events = d
            .apply(
                Seat(0),
                mv(r#"{"kind": "capture", "card": "H10", "groups": [{"op": "+", "l": {"card": "C7"}, "r": {"card": "D3"}}]}"#),
            )
            .unwrap();
        assert!(matches!(&events[0], Event::Moved { sweep: false, .. }), "♠4 stays: no sweep");
        let mut d = Deal::arranged(
            rules,
            Seat(1),
            vec![loose("C7"), loose("D3")],
            vec![set("H10"), set("S4")],
            Vec::new(),
            Seat(0),
        );
        let events = d
            .apply(
                Seat(0),
                mv(r#"{"kind": "capture", "card": "H10", "groups": [{"op": "+", "l": {"card": "C7"}, "r": {"card": "D3"}}]}"#),
            )
            .unwrap();
        assert!(matches!(&events[0], Event::Moved { sweep: true, .. }), "not the last card: a sweep");
        d.apply(Seat(1), mv(r#"{"kind": "discard", "card": "S4"}"#)).unwrap();
        assert_eq!(d.sweeps()[0], 1);
        // The last card sweeps.
        let mut d =
            Deal::arranged(rules, Seat(1), vec![loose("C7")], vec![set("H7"), CardSet::EMPTY], Vec::new(), Seat(0));
        let events = d.apply(Seat(0), mv(r#"{"kind": "capture", "card": "H7", "groups": [{"card": "C7"}]}"#)).unwrap();
        assert!(matches!(&events[0], Event::Moved { sweep, .. } if *sweep == on));
        assert_eq!(d.sweeps()[0], sweeps);
        assert!(d.is_over());
    }
}

#[test]
fn the_options_of_a_selection_give_each_move_with_a_witness() {
    let d = example(Rules::default(), 1);
    let s = |code: &str| fipsen_rules::wippen::PileRef::Card(c(code));
    // ♥10 with ♠3 ♦2 ♣4: the capture (3 × 2) + 4.
    let options = d.options(P2, c("H10"), &[s("S3"), s("D2"), s("C4")]).unwrap();
    let capture = options.iter().find(|m| m.kind() == "capture").unwrap();
    let mut copy = d.clone();
    copy.apply(P2, capture.clone()).unwrap();
    // ♠7 with ♠3 ♦2: the build to 8 (he holds ♦8).
    let options = d.options(P2, c("S7"), &[s("S3"), s("D2")]).unwrap();
    assert!(options.iter().any(|m| matches!(m, Move::Build { value: 8, .. })), "{options:?}");
    // Empty selection: the discard.
    assert_eq!(d.options(P2, c("S7"), &[]).unwrap(), [Move::Discard { card: c("S7") }]);
    assert_eq!(d.options(P2, c("S2"), &[]), Err(RuleError::NotInHand { card: c("S2") }));
    assert_eq!(d.options(P1, c("S2"), &[]), Err(RuleError::NotYourTurn));
    assert_eq!(d.options(P2, c("S7"), &[s("S3"), s("S3")]), Err(RuleError::PileUsedTwice));
    // The move's JSON is E8's.
    let json = serde_json::to_string(&mv(r#"{"kind":"capture","card":"H10","groups":[{"op":"+","l":{"op":"*","l":{"card":"S3"},"r":{"card":"D2"}},"r":{"card":"C4"}}]}"#)).unwrap();
    assert_eq!(
        json,
        r#"{"kind":"capture","card":"H10","groups":[{"op":"+","l":{"op":"*","l":{"card":"S3"},"r":{"card":"D2"}},"r":{"card":"C4"}}]}"#
    );
}
