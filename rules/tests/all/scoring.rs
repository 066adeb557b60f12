//! Every row of the scoring table of docs/rules/prisdorf.md §7, each played as a real deal.

use crate::common;

use common::{arrange, result, run};
use fipsen_rules::{Outcome, RuleSet, Seat};

/// Seat 0 holds the top five clubs, seats 1 and 2 the top spades and hearts, seat 3 rubbish.
/// Dealer 3, so seat 0 is Vorhand. The ♦7 lies in the stock.
fn layout_a(rules: RuleSet) -> fipsen_rules::Deal {
    arrange(rules, 3, &["CA CK CQ CJ C10", "SA SK SQ SJ S10", "HA HK HQ HJ H10", "S9 S8 H9 H8 C9"], "S7 H7")
}

/// Seat 3 (dealt no court card) finds the three missing top clubs in the stock.
fn layout_kieker(stock_has_d7: bool) -> fipsen_rules::Deal {
    if stock_has_d7 {
        arrange(
            RuleSet::prisdorf(),
            3,
            &["C9 SA SK SQ SJ", "C8 S10 HA HK HQ", "C7 HJ H10 H7 CJ", "CA C10 S9 H9 H8"],
            "S8 S7",
        )
    } else {
        arrange(
            RuleSet::prisdorf(),
            3,
            &["C9 SA SK SQ SJ", "C8 S10 HA HK HQ", "C7 HJ H10 H7 D7", "CA C10 S9 H9 H8"],
            "S8 S7",
        )
    }
}

const SEAT0_WINS_THREE: [&str; 12] = [
    "0 play CA",
    "1 play S10",
    "2 play H10",
    "3 play C9", //
    "0 play CK",
    "1 play SJ",
    "2 play HJ",
    "3 play H8", //
    "0 play CQ",
    "1 play SQ",
    "2 play HQ",
    "3 play H9",
];

const SEAT0_WINS_LAST_TWO: [&str; 8] = [
    "0 play CJ",
    "1 play SK",
    "2 play HK",
    "3 play S8", //
    "0 play C10",
    "1 play SA",
    "2 play HA",
    "3 play S9",
];

fn won(deal: &fipsen_rules::Deal, seat: u8, points: i32, tricks: u8) {
    let (outcome, score) = result(deal);
    match outcome {
        Outcome::Won { declarer, tricks: t, .. } => {
            assert_eq!((declarer, t), (Seat(seat), tricks));
        }
        other => panic!("expected a win, got {other:?}"),
    }
    assert_eq!(score, points);
}

fn lost(deal: &fipsen_rules::Deal, seat: u8, points: i32) {
    let (outcome, score) = result(deal);
    assert!(matches!(outcome, Outcome::Lost { declarer, .. } if declarer == Seat(seat)), "{outcome:?}");
    assert_eq!(score, points);
}

#[test]
fn game_2_won_scores_2() {
    let mut deal = layout_a(RuleSet::prisdorf());
    run(&mut deal, &["0 bid 2", "1 pass", "2 pass", "3 pass", "0 skat", "0 discard S7 H7", "0 trumps C"]);
    run(&mut deal, &SEAT0_WINS_THREE[..8]);
    run(&mut deal, &["0 stop"]);
    won(&deal, 0, 2, 2);
    assert_eq!(deal.game().map(|g| g.durch), Some(false));
}

#[test]
fn game_2_lost_scores_minus_4_as_soon_as_the_fourth_trick_is_lost() {
    let mut deal = layout_a(RuleSet::prisdorf());
    run(&mut deal, &["0 pass", "1 pass", "2 pass", "3 bid 2", "3 skat", "3 discard S7 H7", "3 trumps C"]);
    run(&mut deal, &SEAT0_WINS_THREE);
    run(&mut deal, &["0 play CJ", "1 play SK", "2 play HK"]);
    assert!(!deal.is_over(), "three tricks lost: the declarer could still take two");
    run(&mut deal, &["3 play S8"]);
    lost(&deal, 3, -4);
    // The deal ended with a trick unplayed.
    assert_eq!(deal.hand(Seat(0)).len(), 1);
}

#[test]
fn game_3_stopped_after_three_tricks_scores_3() {
    let mut deal = layout_a(RuleSet::prisdorf());
    run(&mut deal, &["0 bid 3", "1 pass", "2 pass", "3 pass", "0 skat", "0 discard S7 H7", "0 trumps C"]);
    run(&mut deal, &SEAT0_WINS_THREE);
    assert_eq!(deal.legal_actions(Seat(0)), vec![fipsen_rules::Action::Stop, fipsen_rules::Action::GoOn]);
    run(&mut deal, &["0 stop"]);
    won(&deal, 0, 3, 3);
}

#[test]
fn game_3_gone_on_for_durch_scores_6_when_won() {
    let mut deal = layout_a(RuleSet::prisdorf());
    run(&mut deal, &["0 bid 3", "1 pass", "2 pass", "3 pass", "0 skat", "0 discard S7 H7", "0 trumps C"]);
    run(&mut deal, &SEAT0_WINS_THREE);
    run(&mut deal, &["0 go_on"]);
    run(&mut deal, &SEAT0_WINS_LAST_TWO);
    won(&deal, 0, 6, 5);
    assert_eq!(deal.game().map(|g| g.durch), Some(true));
}

#[test]
fn game_3_gone_on_for_durch_scores_minus_12_when_a_trick_is_lost() {
    let mut deal = layout_a(RuleSet::prisdorf());
    // The declarer keeps the two weak skat cards and lays away two clubs.
    run(&mut deal, &["0 bid 3", "1 pass", "2 pass", "3 pass", "0 skat", "0 discard CJ C10", "0 trumps C"]);
    run(&mut deal, &SEAT0_WINS_THREE);
    run(&mut deal, &["0 go_on", "0 play S7", "1 play SK", "2 play HK"]);
    assert!(!deal.is_over());
    run(&mut deal, &["3 play S8"]);
    lost(&deal, 0, -12);
}

#[test]
fn game_3_ruten_hand_scores_12_or_minus_24() {
    // The ♦7 is in the stock, so no trump is in play: the highest card of the suit led wins.
    let mut deal = layout_a(RuleSet::prisdorf());
    let events = run(&mut deal, &["0 bid 3 hand ruten", "1 pass", "2 pass", "3 pass"]);
    // Hand and Ruten were bid, so nothing is left to choose.
    assert!(events.iter().any(|e| matches!(e, fipsen_rules::Event::HandChosen { forced: true, .. })));
    assert!(events.iter().any(|e| matches!(e, fipsen_rules::Event::TrumpsNamed { forced: true, .. })));
    run(&mut deal, &["0 play CA", "1 play S10", "2 play H10", "3 play C9"]);
    run(&mut deal, &["0 play CK", "1 play SJ", "2 play HJ", "3 play S8"]);
    run(&mut deal, &["0 play CQ", "1 play SQ", "2 play HQ", "3 play S9", "0 stop"]);
    won(&deal, 0, 12, 3);

    let mut deal = layout_a(RuleSet::prisdorf());
    run(&mut deal, &["0 pass", "1 pass", "2 pass", "3 bid 3 hand ruten"]);
    run(&mut deal, &["0 play CA", "1 play S10", "2 play H10", "3 play C9"]);
    run(&mut deal, &["0 play CK", "1 play SJ", "2 play HJ", "3 play S8"]);
    run(&mut deal, &["0 play CQ", "1 play SQ", "2 play HQ", "3 play S9"]);
    lost(&deal, 3, -24);
}

#[test]
fn game_5_scores_10_or_minus_20() {
    let mut deal = layout_a(RuleSet::prisdorf());
    run(&mut deal, &["0 bid 5", "1 pass", "2 pass", "3 pass", "0 skat", "0 discard S7 H7", "0 trumps C"]);
    run(&mut deal, &SEAT0_WINS_THREE);
    // A 5 includes Durch: no choice to stop is offered.
    assert_eq!(deal.phase(), fipsen_rules::Phase::Play);
    run(&mut deal, &SEAT0_WINS_LAST_TWO);
    won(&deal, 0, 10, 5);

    let mut deal = layout_a(RuleSet::prisdorf());
    run(&mut deal, &["0 pass", "1 pass", "2 pass", "3 bid 5", "3 skat", "3 discard S7 H7", "3 trumps C"]);
    run(&mut deal, &["0 play CA", "1 play S10", "2 play H10", "3 play C9"]);
    lost(&deal, 3, -20);
}

#[test]
fn game_5_hand_ruten_scores_40_or_minus_80() {
    let mut deal = layout_a(RuleSet::prisdorf());
    run(&mut deal, &["0 bid 5 hand ruten", "1 pass", "2 pass", "3 pass"]);
    run(&mut deal, &SEAT0_WINS_THREE);
    run(&mut deal, &SEAT0_WINS_LAST_TWO);
    won(&deal, 0, 40, 5);

    let mut deal = layout_a(RuleSet::prisdorf());
    run(&mut deal, &["0 pass", "1 pass", "2 pass", "3 bid 5 hand ruten"]);
    run(&mut deal, &["0 play CA", "1 play S10", "2 play H10", "3 play C9"]);
    lost(&deal, 3, -80);
}

#[test]
fn kieker_scores_10_or_minus_20() {
    let mut deal = layout_kieker(false);
    run(&mut deal, &["0 pass", "1 pass", "2 pass", "3 kieker"]);
    assert_eq!(deal.hand(Seat(3)).len(), 10, "dealt hand, skat and stock");
    run(&mut deal, &["3 discard S9 H9 H8 S8 S7", "3 trumps C"]);
    run(&mut deal, &["0 play SA", "1 play S10", "2 play H7", "3 play C10"]);
    run(&mut deal, &["3 play CA", "0 play C9", "1 play C8", "2 play C7"]);
    run(&mut deal, &["3 play CK", "0 play SK", "1 play HA", "2 play H10"]);
    run(&mut deal, &["3 play CQ", "0 play SQ", "1 play HK", "2 play HJ"]);
    run(&mut deal, &["3 play CJ", "0 play SJ", "1 play HQ", "2 play D7"]);
    won(&deal, 3, 10, 5);

    let mut deal = layout_kieker(false);
    run(&mut deal, &["0 pass", "1 pass", "2 pass", "3 kieker", "3 discard C10 H9 H8 S8 S7", "3 trumps C"]);
    run(&mut deal, &["0 play SA", "1 play S10", "2 play H7", "3 play S9"]);
    lost(&deal, 3, -20);
}

#[test]
fn kieker_in_ruten_scores_20_or_minus_40() {
    let mut deal = layout_kieker(true);
    run(&mut deal, &["0 pass", "1 pass", "2 pass", "3 kieker", "3 discard S9 H9 H8 S8 S7", "3 trumps D"]);
    run(&mut deal, &["0 play SA", "1 play S10", "2 play H7", "3 play D7"]);
    run(&mut deal, &["3 play CA", "0 play C9", "1 play C8", "2 play C7"]);
    run(&mut deal, &["3 play CK", "0 play SK", "1 play HA", "2 play CJ"]);
    run(&mut deal, &["3 play CQ", "0 play SQ", "1 play HK", "2 play HJ"]);
    run(&mut deal, &["3 play C10", "0 play SJ", "1 play HQ", "2 play H10"]);
    won(&deal, 3, 20, 5);

    // Without the ♦7 the Kieker's lone trump is missing: the ace of spades takes the first trick.
    let mut deal = layout_kieker(false);
    run(&mut deal, &["0 pass", "1 pass", "2 pass", "3 kieker", "3 discard S9 H9 H8 S8 S7", "3 trumps D"]);
    run(&mut deal, &["0 play SA", "1 play S10", "2 play H7", "3 play C10"]);
    lost(&deal, 3, -40);
}

#[test]
fn kieker_given_up_scores_minus_5_at_any_of_his_moments_before_the_lead() {
    let mut deal = layout_kieker(false);
    run(&mut deal, &["0 pass", "1 pass", "2 pass", "3 kieker", "3 give_up"]);
    assert_eq!(result(&deal).1, -5);
    assert!(matches!(result(&deal).0, Outcome::GivenUp { declarer: Seat(3), .. }));

    let mut deal = layout_kieker(false);
    run(&mut deal, &["0 pass", "1 pass", "2 pass", "3 kieker", "3 discard S9 H9 H8 S8 S7", "3 give_up"]);
    assert_eq!(result(&deal).1, -5);

    // Ruten or not, giving up costs 5; with declarer lead, the last moment is his first lead.
    let rules = RuleSet { first_lead: fipsen_rules::FirstLead::Declarer, ..RuleSet::prisdorf() };
    let mut deal =
        arrange(rules, 3, &["C9 SA SK SQ SJ", "C8 S10 HA HK HQ", "C7 HJ H10 H7 D7", "CA C10 S9 H9 H8"], "S8 S7");
    run(&mut deal, &["0 pass", "1 pass", "2 pass", "3 kieker", "3 discard S9 H9 H8 S8 S7", "3 trumps D", "3 give_up"]);
    assert_eq!(result(&deal).1, -5);

    // After the first card, giving up is no longer possible, in turn or out of it.
    let mut deal = layout_kieker(false);
    run(&mut deal, &["0 pass", "1 pass", "2 pass", "3 kieker", "3 discard S9 H9 H8 S8 S7", "3 trumps C", "0 play SA"]);
    assert_eq!(deal.check(Seat(3), fipsen_rules::Action::GiveUp), Err(fipsen_rules::RuleError::GiveUpNotAllowed));
    run(&mut deal, &["1 play S10", "2 play H7", "3 play C10"]);
    assert_eq!(deal.check(Seat(3), fipsen_rules::Action::GiveUp), Err(fipsen_rules::RuleError::GiveUpNotAllowed));
}

#[test]
fn siebener_fips_scores_30_and_nothing_else() {
    let mut deal = arrange(
        RuleSet::prisdorf(),
        3,
        &["CA CK CQ CJ C10", "HA HK HQ HJ H10", "C7 S7 H7 D7 SA", "S9 S8 H9 H8 C9"],
        "SK SQ",
    );
    run(&mut deal, &["0 bid 3"]);
    // Out of turn: it is seat 1's turn to challenge; seat 2 may announce all the same, seat 3 not.
    assert_eq!(deal.legal_actions(Seat(2)), vec![fipsen_rules::Action::SiebenerFips]);
    assert!(deal.legal_actions(Seat(3)).is_empty());
    assert_eq!(deal.check(Seat(3), fipsen_rules::Action::SiebenerFips), Err(fipsen_rules::RuleError::NoSiebenerFips));
    let events = run(&mut deal, &["2 fips"]);
    assert!(events.iter().any(|e| matches!(e, fipsen_rules::Event::SiebenerFips { seat: Seat(2), cards }
        if *cards == common::cards("C7 S7 H7 D7 SA"))));
    let (outcome, score) = result(&deal);
    assert_eq!(outcome, Outcome::SiebenerFips { seat: Seat(2), cards: common::cards("C7 S7 H7 D7 SA") });
    assert_eq!(score, 30);
    assert_eq!(outcome.scores(4), vec![0, 0, 30, 0]);
}

#[test]
fn game_2_hand_kontra_rekontra_scores_16_or_minus_32() {
    let rules = RuleSet { kontra: true, ..RuleSet::prisdorf() };
    let mut deal = layout_a(rules);
    run(&mut deal, &["0 bid 2 hand", "1 pass", "2 pass", "3 pass", "0 trumps C", "1 kontra", "0 rekontra"]);
    run(&mut deal, &SEAT0_WINS_THREE[..8]);
    run(&mut deal, &["0 stop"]);
    won(&deal, 0, 16, 2);

    let mut deal = layout_a(rules);
    run(&mut deal, &["0 pass", "1 pass", "2 pass", "3 bid 2 hand", "3 trumps C"]);
    // The opponents are asked in seat order from the declarer's left: seat 0 first.
    assert_eq!(deal.turn(), Some(Seat(0)));
    run(&mut deal, &["0 kontra", "3 rekontra"]);
    run(&mut deal, &SEAT0_WINS_THREE);
    run(&mut deal, &["0 play CJ", "1 play SK", "2 play HK", "3 play S8"]);
    lost(&deal, 3, -32);
}

#[test]
fn kontra_is_asked_of_each_opponent_in_turn_and_not_at_all_when_disabled() {
    let rules = RuleSet { kontra: true, ..RuleSet::prisdorf() };
    let mut deal = layout_a(rules);
    run(&mut deal, &["0 bid 2", "1 pass", "2 pass", "3 pass", "0 skat", "0 discard S7 H7", "0 trumps C"]);
    run(&mut deal, &["1 pass", "2 pass", "3 pass"]);
    assert_eq!((deal.phase(), deal.turn()), (fipsen_rules::Phase::Play, Some(Seat(0))));
    let game = deal.game().expect("declared");
    assert!(!game.kontra && !game.rekontra);

    let mut deal = layout_a(RuleSet::prisdorf());
    run(&mut deal, &["0 bid 2", "1 pass", "2 pass", "3 pass", "0 skat", "0 discard S7 H7", "0 trumps C"]);
    assert_eq!(deal.phase(), fipsen_rules::Phase::Play);
    assert!(!deal.legal_actions(Seat(1)).contains(&fipsen_rules::Action::Kontra));
}
