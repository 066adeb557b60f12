//! Großenaspe Fipsen: the required auction example of docs/rules/grossenaspe.md §A4 and every row of the
//! scoring table of §A7, each played as a real deal.

use crate::grossenaspe_common;

use fipsen_rules::grossenaspe::{Action, Bid, Contract, Event, Outcome, Phase, Rules};
use fipsen_rules::{RuleError, Seat, Suit};
use grossenaspe_common::{arrange, play_out, result, run};

const FOUR: Rules = Rules::grossenaspe();

/// Seat 0 (forehand, dealer 3) holds the top five clubs, seats 1, 2 and 3 the top five spades,
/// hearts and diamonds; the skat is ♣9 ♣8.
fn layout_top(rules: Rules) -> fipsen_rules::grossenaspe::Deal {
    arrange(rules, 3, &["CA CK CQ CJ C10", "SA SK SQ SJ S10", "HA HK HQ HJ H10", "DA DK DQ DJ D10"], "C9 C8")
}

/// Seat 0 holds ♣A ♣K and three sevens: two tricks, then nothing.
fn layout_two(rules: Rules) -> fipsen_rules::grossenaspe::Deal {
    arrange(rules, 3, &["CA CK S7 H7 D7", "SA SK SQ SJ S10", "HA HK HQ HJ H10", "DA DK DQ DJ D10"], "S9 S8")
}

/// Seat 0 is dealt no court card; ♣A ♣K lie in the skat, ♣Q ♣J ♣10 in the talon.
fn layout_kieker() -> fipsen_rules::grossenaspe::Deal {
    arrange(FOUR, 3, &["C7 C8 C9 S7 H7", "SA SK SQ SJ S10", "HA HK HQ HJ H10", "DA DK DQ DJ D10"], "CA CK")
}

fn score(deal: &fipsen_rules::grossenaspe::Deal, declarer: u8, won: bool) -> i32 {
    let (outcome, points) = result(deal);
    match outcome {
        Outcome::Won { declarer: d, .. } if won => assert_eq!(d, Seat(declarer)),
        Outcome::Lost { declarer: d, .. } if !won => assert_eq!(d, Seat(declarer)),
        other => panic!("expected won = {won}, got {other:?}"),
    }
    points
}

#[test]
fn the_auction_example_of_a4_replays_exactly() {
    // A B C D = seats 0 1 2 3, A forehand. B holds a court card, C none.
    let mut deal =
        arrange(FOUR, 3, &["CA CK CQ CJ C10", "SA SK SQ SJ S10", "C9 C8 C7 S9 S8", "DA DK DQ DJ D10"], "H7 H8");
    run(&mut deal, &["0 bid 2", "1 bid 2 gute", "0 hold", "1 bid 3", "0 pass", "2 bid 4", "1 hold", "2 kieker"]);
    // B may not hold a Kieker: he may bid 5 or higher, or pass.
    assert_eq!(deal.check(Seat(1), Action::Hold), Err(RuleError::KiekerNotAllowed));
    assert_eq!(
        deal.legal_actions(Seat(1)),
        vec![
            Action::Bid { bid: Bid::tricks(5) },
            Action::Bid { bid: Bid::gute(5) },
            Action::Bid { bid: Bid::Fips },
            Action::Pass
        ]
    );
    let events = run(&mut deal, &["1 bid 5", "2 pass", "3 pass"]);
    assert!(
        events.contains(&Event::AuctionWon {
            declarer: Seat(1),
            contract: Contract { bid: Bid::tricks(5), held: false }
        })
    );
    assert_eq!(deal.declarer(), Some(Seat(1)));
    assert_eq!(deal.phase(), Phase::Discard);
}

#[test]
fn bids_are_refused_below_the_standing_bid_and_the_minimum() {
    let mut deal = layout_top(Rules { min_bid: 2, ..FOUR });
    assert_eq!(deal.check(Seat(0), Action::Bid { bid: Bid::gute(1) }), Err(RuleError::BidBelowMinimum { min: 2 }));
    assert_eq!(deal.check(Seat(0), Action::Bid { bid: Bid::tricks(6) }), Err(RuleError::NoSuchBid));
    assert_eq!(deal.check(Seat(0), Action::Bid { bid: Bid::Kieker }), Err(RuleError::KiekerNotAllowed));
    run(&mut deal, &["0 bid 3"]);
    assert_eq!(
        deal.check(Seat(1), Action::Bid { bid: Bid::tricks(3) }),
        Err(RuleError::BidNotHigher { standing: Bid::tricks(3) })
    );
    assert_eq!(deal.check(Seat(1), Action::Hold), Err(RuleError::HoldNotAllowed));
}

#[test]
fn everybody_passes_the_deal_is_thrown_in() {
    let mut deal = layout_top(FOUR);
    run(&mut deal, &["0 pass", "1 pass", "2 pass", "3 pass"]);
    assert_eq!(result(&deal), (Outcome::ThrownIn, 0));
}

#[test]
fn one_in_hearts_won_and_stopped_after_one_trick_scores_1() {
    let mut deal = layout_top(FOUR);
    run(&mut deal, &["0 pass", "1 pass", "2 bid 1", "3 pass", "2 discard C9 C8", "2 trumps H"]);
    let events = play_out(&mut deal, false);
    assert!(events.contains(&Event::Stopped { seat: Seat(2) }));
    assert_eq!(deal.trick_winners().len(), 1);
    assert_eq!(score(&deal, 2, true), 1);
}

#[test]
fn one_in_hearts_lost_scores_minus_2() {
    let mut deal = layout_top(FOUR);
    run(&mut deal, &["0 pass", "1 pass", "2 pass", "3 bid 1", "3 discard C9 C8", "3 trumps H"]);
    play_out(&mut deal, false);
    assert_eq!(score(&deal, 3, false), -2);
}

#[test]
fn three_gute_won_scores_6() {
    let mut deal = layout_top(FOUR);
    let events = run(&mut deal, &["0 bid 3 gute", "1 pass", "2 pass", "3 pass", "0 discard C9 C8"]);
    assert!(events.contains(&Event::TrumpsNamed { seat: Seat(0), suit: Suit::Clubs, forced: true }));
    play_out(&mut deal, false);
    assert_eq!(score(&deal, 0, true), 6);
}

#[test]
fn three_with_clubs_named_won_scores_6() {
    let mut deal = layout_top(FOUR);
    run(&mut deal, &["0 bid 3", "1 pass", "2 pass", "3 pass", "0 discard C9 C8", "0 trumps C"]);
    play_out(&mut deal, false);
    assert_eq!(score(&deal, 0, true), 6);
}

#[test]
fn two_in_spades_played_on_for_durch_taking_all_five_scores_4() {
    let mut deal = layout_top(FOUR);
    run(&mut deal, &["0 pass", "1 bid 2", "2 pass", "3 pass", "1 discard C9 C8", "1 trumps S"]);
    let events = play_out(&mut deal, true);
    assert!(events.contains(&Event::WentOn { seat: Seat(1) }));
    assert_eq!(deal.tricks_taken(), (5, 0));
    assert_eq!(score(&deal, 1, true), 4);
}

#[test]
fn two_gute_played_on_for_durch_losing_a_trick_scores_minus_16() {
    let mut deal = layout_two(FOUR);
    run(&mut deal, &["0 bid 2 gute", "1 pass", "2 pass", "3 pass", "0 discard S9 S8"]);
    let events = play_out(&mut deal, true);
    assert!(events.contains(&Event::WentOn { seat: Seat(0) }));
    assert_eq!(deal.tricks_taken(), (2, 1));
    assert_eq!(score(&deal, 0, false), -16);
}

#[test]
fn four_in_diamonds_lost_scores_minus_8() {
    let mut deal = layout_two(FOUR);
    run(&mut deal, &["0 bid 4", "1 pass", "2 pass", "3 pass", "0 discard S9 S8", "0 trumps D"]);
    play_out(&mut deal, false);
    assert_eq!(deal.trick_winners().len(), 2, "lost as soon as the opponents hold two tricks");
    assert_eq!(score(&deal, 0, false), -8);
}

#[test]
fn five_in_hearts_won_scores_10() {
    let mut deal = layout_top(FOUR);
    run(&mut deal, &["0 pass", "1 pass", "2 bid 5", "3 pass", "2 discard C9 C8", "2 trumps H"]);
    play_out(&mut deal, false);
    assert_eq!(score(&deal, 2, true), 10);
}

#[test]
fn five_with_clubs_named_lost_scores_minus_40() {
    let mut deal = layout_two(FOUR);
    run(&mut deal, &["0 bid 5", "1 pass", "2 pass", "3 pass", "0 discard S9 S8", "0 trumps C"]);
    play_out(&mut deal, false);
    assert_eq!(score(&deal, 0, false), -40);
}

#[test]
fn kieker_in_clubs_won_scores_10() {
    let mut deal = layout_kieker();
    let events = run(&mut deal, &["0 kieker", "1 pass", "2 pass", "3 pass"]);
    assert!(events.iter().any(|e| matches!(e, Event::KiekerShown { seat: Seat(0), to: Seat(1), .. })));
    assert_eq!(deal.hand(Seat(0)).len(), 12, "skat and talon");
    run(&mut deal, &["0 discard S9 S8 H9 H8 D9 D8 D7", "0 trumps C"]);
    play_out(&mut deal, false);
    assert_eq!(score(&deal, 0, true), 10);
}

#[test]
fn kieker_in_clubs_lost_scores_minus_20() {
    let mut deal = layout_kieker();
    run(&mut deal, &["0 kieker", "1 pass", "2 pass", "3 pass", "0 discard CQ CJ C10 S9 S8 H9 H8", "0 trumps C"]);
    play_out(&mut deal, false);
    assert_eq!(score(&deal, 0, false), -20);
}

#[test]
fn kieker_folded_scores_minus_5() {
    let mut deal = layout_kieker();
    run(&mut deal, &["0 kieker", "1 pass", "2 pass", "3 pass"]);
    assert_eq!(deal.check(Seat(0), Action::Fold), Err(RuleError::FoldNotAllowed), "not before discarding");
    run(&mut deal, &["0 discard S9 S8 H9 H8 D9 D8 D7", "0 fold"]);
    let (outcome, points) = result(&deal);
    assert!(matches!(outcome, Outcome::Folded { declarer: Seat(0), .. }));
    assert_eq!(points, -5);
}

#[test]
fn fips_in_spades_won_scores_20_and_lost_minus_40() {
    let mut deal = layout_top(FOUR);
    let events = run(&mut deal, &["0 pass", "1 fips", "2 pass", "3 pass", "1 trumps S"]);
    assert!(!events.iter().any(|e| matches!(e, Event::SkatTaken { .. })), "the skat stays untouched");
    play_out(&mut deal, false);
    assert_eq!(score(&deal, 1, true), 20);

    let mut deal = layout_two(FOUR);
    run(&mut deal, &["0 fips", "1 pass", "2 pass", "3 pass", "0 trumps S"]);
    play_out(&mut deal, false);
    assert_eq!(score(&deal, 0, false), -40);
}

#[test]
fn three_gute_lost_with_loss_factor_1_scores_minus_6() {
    let mut deal = layout_two(Rules { loss_factor: 1, ..FOUR });
    run(&mut deal, &["0 bid 3 gute", "1 pass", "2 pass", "3 pass", "0 discard S9 S8"]);
    play_out(&mut deal, false);
    assert_eq!(score(&deal, 0, false), -6);
}

#[test]
fn the_deal_for_three_and_five_players_leaves_the_documented_talon() {
    use fipsen_rules::Seed;
    use fipsen_rules::grossenaspe::Deal;
    for (players, talon) in [(3, 15), (4, 10), (5, 5)] {
        let (deal, _) = Deal::new(Rules { players, ..FOUR }, 1, Seat(0), Seed::from_u64(7));
        assert_eq!(deal.talon().len(), talon);
        assert_eq!(deal.skat().len(), 2);
        assert!((0..players).all(|s| deal.hand(Seat(s)).len() == 5));
        assert_eq!(deal.turn(), Some(Seat(1)), "forehand speaks first");
    }
}
