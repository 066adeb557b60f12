//! The auction: duels, holds and overcalls, the bid order through the engine, Kieker
//! eligibility, and what the winner owes.

use crate::common;

use common::{arrange, run, step};
use fipsen_rules::{Action, Bid, Contract, Deal, Event, Phase, RuleError, RuleSet, Seat, Suit};

/// Seats 0, 1 and 2 hold no court card (Kieker-eligible); seat 3 holds five.
fn eligible_layout(rules: RuleSet) -> Deal {
    arrange(rules, 3, &["CA C10 C9 C8 C7", "SA S10 S9 S8 S7", "HA H10 H9 H8 H7", "CK CQ CJ SK SQ"], "SJ HK")
}

/// Seat 0 holds court cards; seat 1 none.
fn court_layout() -> Deal {
    arrange(
        RuleSet::prisdorf(),
        3,
        &["CK CQ CJ SK SQ", "SA S10 S9 S8 S7", "HA H10 H9 H8 H7", "CA C10 C9 C8 C7"],
        "SJ HK",
    )
}

fn refused(deal: &mut Deal, line: &str) -> RuleError {
    let (seat, action) = step(line);
    let before = serde_json::to_string(deal).expect("serialisable");
    let err = deal.apply(seat, action).expect_err(line);
    assert_eq!(serde_json::to_string(deal).expect("serialisable"), before, "{line} changed the state");
    assert!(!deal.legal_actions(seat).contains(&action), "{line} refused but listed as legal");
    err
}

#[test]
fn the_japanese_auction_example_replays_exactly() {
    // Seats A B C D = 0 1 2 3; the dealer is D, so A is Vorhand.
    let mut deal = eligible_layout(RuleSet::prisdorf());
    let events = run(
        &mut deal,
        &[
            "0 bid 2",
            "1 bid 2 hand",
            "0 hold",
            "1 pass",
            "2 bid 2 hand ruten",
            "0 hold",
            "2 pass",
            "3 bid 3",
            "0 hold",
            "3 bid 3 hand",
            "0 pass",
        ],
    );
    let won = events.iter().find_map(|e| match e {
        Event::AuctionWon { declarer, contract } => Some((*declarer, *contract)),
        _ => None,
    });
    let bid = Bid::Tricks { tricks: 3, hand: true, ruten: false };
    assert_eq!(won, Some((Seat(3), Contract { bid, held: false })));
    let contract = deal.contract().expect("won");
    assert_eq!((contract.tricks(), contract.bid.doubles()), (3, 1));
    // His own bid named Hand: he may not take the skat, so Hand is applied and trumps are his.
    assert_eq!(deal.phase(), Phase::Trumps);
    assert_eq!(deal.game().map(|g| g.hand), Some(true));
    assert_eq!(deal.legal_actions(Seat(3)).len(), 4, "any trumps");
}

#[test]
fn each_duel_is_holder_against_challenger_in_seat_order() {
    let mut deal = eligible_layout(RuleSet::prisdorf());
    run(&mut deal, &["0 bid 2", "1 bid 3"]);
    assert_eq!(
        (deal.auction().holder(), deal.auction().challenger(), deal.turn()),
        (Some(Seat(0)), Some(Seat(1)), Some(Seat(0)))
    );
    run(&mut deal, &["0 pass"]);
    // The challenger survived with his own bid and now holds against seat 2.
    assert_eq!(
        (deal.auction().holder(), deal.auction().challenger(), deal.turn()),
        (Some(Seat(1)), Some(Seat(2)), Some(Seat(2)))
    );
    run(&mut deal, &["2 bid 3 hand", "1 hold", "2 pass", "3 pass"]);
    assert_eq!(deal.declarer(), Some(Seat(1)));
    assert_eq!(
        deal.contract(),
        Some(Contract { bid: Bid::Tricks { tricks: 3, hand: true, ruten: false }, held: true })
    );
}

#[test]
fn passes_before_any_bid_move_the_opening_on_and_all_passing_throws_in() {
    let mut deal = eligible_layout(RuleSet::prisdorf());
    run(&mut deal, &["0 pass", "1 pass", "2 bid 2"]);
    assert_eq!((deal.auction().holder(), deal.turn()), (Some(Seat(2)), Some(Seat(3))));

    let mut deal = eligible_layout(RuleSet::prisdorf());
    let events = run(&mut deal, &["0 pass", "1 pass", "2 pass", "3 pass"]);
    assert_eq!(deal.outcome(), Some(fipsen_rules::Outcome::ThrownIn));
    assert!(matches!(events.last(), Some(Event::DealOver { scores, .. }) if scores.iter().all(|s| *s == 0)));
    assert_eq!(refused(&mut deal, "0 bid 2"), RuleError::DealOver);
}

#[test]
fn the_last_bidder_unchallenged_is_declarer_of_his_own_bid() {
    let mut deal = eligible_layout(RuleSet::prisdorf());
    run(&mut deal, &["0 pass", "1 pass", "2 pass", "3 bid 4 ruten"]);
    assert_eq!(
        deal.contract(),
        Some(Contract { bid: Bid::Tricks { tricks: 4, hand: false, ruten: true }, held: false })
    );
    assert_eq!(deal.phase(), Phase::SkatOrHand);
}

#[test]
fn overcalls_must_be_strictly_higher_and_equal_bids_do_not_overcall() {
    let mut deal = eligible_layout(RuleSet::prisdorf());
    run(&mut deal, &["0 bid 3 hand"]);
    assert_eq!(
        refused(&mut deal, "1 bid 3 ruten"),
        RuleError::BidTooLow { standing: Bid::Tricks { tricks: 3, hand: true, ruten: false } }
    );
    assert!(matches!(refused(&mut deal, "1 bid 3"), RuleError::BidTooLow { .. }));
    assert!(matches!(refused(&mut deal, "1 bid 2 hand ruten"), RuleError::BidTooLow { .. }));
    // Jump bids are fine.
    run(&mut deal, &["1 bid 5"]);
    // The holder may hold, bid higher, or pass; the challenger may never hold.
    run(&mut deal, &["0 bid 5 hand"]);
    assert_eq!(refused(&mut deal, "1 hold"), RuleError::HoldNotAllowed);
    assert_eq!(
        refused(&mut deal, "1 bid 5 ruten"),
        RuleError::BidTooLow { standing: Bid::Tricks { tricks: 5, hand: true, ruten: false } }
    );
    run(&mut deal, &["1 bid 5 hand ruten", "0 hold"]);
    // Nothing is higher than 5 Hand Ruten: the challenger may only pass.
    assert_eq!(deal.legal_actions(Seat(1)), vec![Action::Pass]);
}

#[test]
fn nobody_may_hold_without_a_challenge() {
    let mut deal = eligible_layout(RuleSet::prisdorf());
    assert_eq!(refused(&mut deal, "0 hold"), RuleError::HoldNotAllowed);
    run(&mut deal, &["0 bid 2"]);
    assert_eq!(refused(&mut deal, "1 hold"), RuleError::HoldNotAllowed);
    run(&mut deal, &["1 bid 3", "0 hold"]);
    // After his hold the holder waits for the challenger; he cannot hold twice.
    assert_eq!(refused(&mut deal, "0 hold"), RuleError::NotYourTurn);
}

#[test]
fn the_bid_order_holds_in_the_engine_for_every_pair_of_bids() {
    let bids: Vec<Bid> = Bid::all().collect();
    for &first in &bids {
        for &second in &bids {
            let mut deal = eligible_layout(RuleSet::prisdorf());
            deal.apply(Seat(0), Action::Bid { bid: first }).expect("any opening is fine");
            let result = deal.apply(Seat(1), Action::Bid { bid: second });
            let higher = second.height() > first.height();
            assert_eq!(result.is_ok(), higher, "{first} then {second}");
            if higher {
                // Equal height may be held by the earlier bidder.
                assert!(deal.legal_actions(Seat(0)).contains(&Action::Hold));
            } else {
                assert_eq!(result, Err(RuleError::BidTooLow { standing: first }));
            }
        }
    }
}

#[test]
fn min_bid_option_refuses_bids_of_two() {
    let rules = RuleSet { min_bid: 3, ..RuleSet::prisdorf() };
    let mut deal = eligible_layout(rules);
    assert_eq!(refused(&mut deal, "0 bid 2 hand ruten"), RuleError::BidBelowMinimum { min: 3 });
    assert!(
        !deal.legal_actions(Seat(0)).iter().any(|a| matches!(a, Action::Bid { bid: Bid::Tricks { tricks: 2, .. } }))
    );
    run(&mut deal, &["0 bid 3"]);
    assert!(matches!(refused(&mut deal, "1 bid 1"), RuleError::BidInvalid));
}

#[test]
fn kieker_needs_a_dealt_hand_without_court_cards_for_challenger_and_holder() {
    // The challenger with court cards may not bid it.
    let mut deal = eligible_layout(RuleSet::prisdorf());
    run(&mut deal, &["0 pass", "1 pass", "2 bid 2"]);
    assert_eq!(refused(&mut deal, "3 kieker"), RuleError::KiekerNotAllowed);
    assert!(!deal.legal_actions(Seat(3)).contains(&Action::Bid { bid: Bid::Kieker }));

    // An eligible challenger may; an eligible holder may hold it.
    let mut deal = eligible_layout(RuleSet::prisdorf());
    run(&mut deal, &["0 bid 2", "1 kieker", "0 hold", "1 pass", "2 pass", "3 pass"]);
    assert_eq!(deal.contract(), Some(Contract { bid: Bid::Kieker, held: true }));
    assert_eq!(deal.phase(), Phase::Discard, "a Kieker takes skat and stock at once");
    assert_eq!(deal.hand(Seat(0)).len(), 10);

    // A holder with court cards facing a Kieker may only bid 5 or more, or pass.
    let mut deal = court_layout();
    run(&mut deal, &["0 bid 2", "1 kieker"]);
    assert_eq!(refused(&mut deal, "0 hold"), RuleError::KiekerNotAllowed);
    let legal = deal.legal_actions(Seat(0));
    assert!(legal.contains(&Action::Pass));
    assert!(legal.iter().all(|a| match a {
        Action::Bid { bid: Bid::Tricks { tricks, .. } } => *tricks == 5,
        Action::Pass => true,
        _ => false,
    }));
    assert_eq!(legal.len(), 5, "5, 5 Hand, 5 Ruten, 5 Hand Ruten, pass");
}

#[test]
fn kieker_ranks_between_four_and_five() {
    let mut deal = eligible_layout(RuleSet::prisdorf());
    run(&mut deal, &["0 bid 4 hand ruten", "1 kieker"]);
    assert!(matches!(refused(&mut deal, "0 bid 4 hand ruten"), RuleError::BidTooLow { .. }));
    run(&mut deal, &["0 bid 5"]);
    assert!(matches!(refused(&mut deal, "1 kieker"), RuleError::BidTooLow { .. }));
}

#[test]
fn a_held_3_hand_may_be_played_as_3_ruten() {
    let mut deal = eligible_layout(RuleSet::prisdorf());
    run(&mut deal, &["0 bid 2", "1 bid 3 hand", "0 hold", "1 pass", "2 pass", "3 pass"]);
    assert_eq!(
        deal.contract(),
        Some(Contract { bid: Bid::Tricks { tricks: 3, hand: true, ruten: false }, held: true })
    );
    // Skat or Hand is his choice; having taken the skat, he owes Ruten.
    assert_eq!(deal.legal_actions(Seat(0)), vec![Action::TakeSkat, Action::PlayHand]);
    let events = run(&mut deal, &["0 skat", "0 discard C7 C8"]);
    assert!(events.iter().any(|e| matches!(e, Event::TrumpsNamed { suit: Suit::Diamonds, forced: true, .. })));
    let game = deal.game().expect("declared");
    assert!(!game.hand && game.ruten());
    assert_eq!(game.value(), 6);
}

#[test]
fn a_held_3_hand_may_be_played_hand_in_any_suit() {
    let mut deal = eligible_layout(RuleSet::prisdorf());
    run(&mut deal, &["0 bid 2", "1 bid 3 hand", "0 hold", "1 pass", "2 pass", "3 pass", "0 hand"]);
    assert_eq!(deal.legal_actions(Seat(0)).len(), 4);
    run(&mut deal, &["0 trumps H"]);
    assert_eq!(deal.game().map(|g| g.value()), Some(6));
}

#[test]
fn an_own_bid_is_honoured_in_every_part() {
    // Own "3 Ruten": skat or Hand, but diamonds are trumps either way.
    let mut deal = eligible_layout(RuleSet::prisdorf());
    run(&mut deal, &["0 bid 3 ruten", "1 pass", "2 pass", "3 pass", "0 hand"]);
    assert!(matches!(deal.game(), Some(g) if g.hand && g.ruten() && g.value() == 12));
    // Own "3 Hand": no skat.
    let mut deal = eligible_layout(RuleSet::prisdorf());
    run(&mut deal, &["0 bid 3 hand", "1 pass", "2 pass", "3 pass"]);
    assert_eq!(deal.phase(), Phase::Trumps);
    assert_eq!(deal.check(Seat(0), Action::TakeSkat), Err(RuleError::WrongPhase("the declarer names trumps now")));
    // Own plain "2": he may still add Hand and Ruten.
    let mut deal = eligible_layout(RuleSet::prisdorf());
    run(&mut deal, &["0 bid 2", "1 pass", "2 pass", "3 pass", "0 hand", "0 trumps D"]);
    assert_eq!(deal.game().map(|g| g.value()), Some(8));
}

#[test]
fn a_held_2_hand_ruten_must_be_played_hand_and_ruten() {
    let mut deal = eligible_layout(RuleSet::prisdorf());
    let events = run(&mut deal, &["0 bid 2", "1 bid 2 hand ruten", "0 hold", "1 pass", "2 pass", "3 pass"]);
    assert!(events.iter().any(|e| matches!(e, Event::HandChosen { forced: true, .. })));
    assert!(events.iter().any(|e| matches!(e, Event::TrumpsNamed { suit: Suit::Diamonds, forced: true, .. })));
    assert_eq!(deal.phase(), Phase::Play);
}

#[test]
fn the_taken_skat_cannot_be_refused_and_hand_refuses_the_skat() {
    let mut deal = eligible_layout(RuleSet::prisdorf());
    run(&mut deal, &["0 bid 3 hand", "1 pass", "2 pass", "3 pass"]);
    assert!(matches!(refused(&mut deal, "0 skat"), RuleError::WrongPhase(_)));
    let mut deal = eligible_layout(RuleSet::prisdorf());
    run(&mut deal, &["0 bid 3", "1 pass", "2 pass", "3 pass", "0 skat"]);
    assert_eq!(refused(&mut deal, "0 discard C7"), RuleError::DiscardCount { expected: 2 });
    assert_eq!(refused(&mut deal, "0 discard C7 S7"), RuleError::NotInHand { card: "S7".parse().expect("card") });
    // The skat cards may themselves be laid away.
    run(&mut deal, &["0 discard SJ HK"]);
    assert_eq!(deal.hand(Seat(0)), common::cards("CA C10 C9 C8 C7"));
}

#[test]
fn out_of_turn_and_wrong_phase_are_refused_with_their_codes() {
    let mut deal = eligible_layout(RuleSet::prisdorf());
    assert_eq!(refused(&mut deal, "2 bid 2").code(), "turn/not_yours");
    assert_eq!(refused(&mut deal, "0 play CA").code(), "phase/wrong");
    assert_eq!(refused(&mut deal, "0 skat").code(), "phase/wrong");
    assert_eq!(deal.check(Seat(7), Action::Pass).map_err(|e| e.code()), Err("seat/unknown"));
    assert!(deal.legal_actions(Seat(2)).is_empty());
}
