//! Anseggerfips and Duttfips: the required auction tests of docs/rules/mecklenburg.md §B2 and §B3, every row
//! of the scoring table of §B5 played as a real deal, and the refusals of the auction and of
//! naming trumps.

use crate::mecklenburg_common;

use fipsen_rules::mecklenburg::{
    Action, AnseggerfipsRules, AuctionKind, Bid, Contract, Deal, DuttUse, DuttfipsRules, Event, Outcome, Phase, RUTENAS,
};
use fipsen_rules::{RuleError, Seat, Suit};
use mecklenburg_common::{arrange, play_out, result, run};

const ANSEGGERFIPS: AnseggerfipsRules = AnseggerfipsRules::anseggerfips();
const DUTTFIPS: DuttfipsRules = DuttfipsRules::duttfips();

/// The Dutt of [`top`]: the lowest cards.
const TOP_DUTT: &str = "C7 S8 S7 H8 H7";

/// Seats 0, 1 and 2 hold the top five clubs, spades and hearts; seat 3 the Rutenas and four
/// nines and eights.
fn top(rules: impl Into<fipsen_rules::mecklenburg::Rules>, dealer: u8) -> Deal {
    arrange(rules, dealer, &["CA CK CQ CJ C10", "SA SK SQ SJ S10", "HA HK HQ HJ H10", "DA C9 S9 H9 C8"], TOP_DUTT)
}

/// The Dutt of [`ruten`].
const RUTEN_DUTT: &str = "C7 S7 H9 H8 H7";

/// Seat 0 (forehand with dealer 3) holds the Rutenas, ♣A ♣K and ♠A ♠K: every trick in a Ruten
/// game.
fn ruten(rules: impl Into<fipsen_rules::mecklenburg::Rules>) -> Deal {
    arrange(rules, 3, &["DA CA CK SA SK", "CQ CJ C10 C9 C8", "SQ SJ S10 S9 S8", "HA HK HQ HJ H10"], RUTEN_DUTT)
}

fn score(deal: &Deal, declarer: u8, won: bool) -> i32 {
    let (outcome, points) = result(deal);
    match outcome {
        Outcome::Won { declarer: d, .. } if won => assert_eq!(d, Seat(declarer)),
        Outcome::Lost { declarer: d, .. } if !won => assert_eq!(d, Seat(declarer)),
        other => panic!("expected won = {won}, got {other:?}"),
    }
    points
}

// §B2 and §B3, word for word.

#[test]
fn b2_a_pass_b_3_c_ruten_3_d_4_makes_d_declarer_of_4_without_ruten() {
    // A B C D = seats 0 1 2 3, A forehand; C holds the Rutenas.
    let mut deal = arrange(
        ANSEGGERFIPS,
        3,
        &["CA CK CQ CJ C10", "SA SK SQ SJ S10", "DA C9 S9 H9 C8", "HA HK HQ HJ H10"],
        TOP_DUTT,
    );
    assert!(deal.hand(Seat(2)).contains(RUTENAS));
    let events = run(&mut deal, &["0 pass", "1 bid 3", "2 bid 3 ruten", "3 bid 4"]);
    assert!(
        events.contains(&Event::AuctionWon {
            declarer: Seat(3),
            contract: Contract { bid: Bid::tricks(4), held: false }
        })
    );
    assert_eq!(deal.declarer(), Some(Seat(3)));
    assert_eq!(deal.phase(), Phase::Trumps);
    // He may not choose Ruten: he does not hold the Rutenas.
    assert_eq!(deal.check(Seat(3), Action::NameTrumps { suit: Suit::Diamonds }), Err(RuleError::RutenasRequired));
    assert_eq!(
        deal.legal_actions(Seat(3)),
        [Suit::Clubs, Suit::Spades, Suit::Hearts].map(|suit| Action::NameTrumps { suit }).to_vec()
    );
    run(&mut deal, &["3 trumps H"]);
    assert_eq!(deal.game().map(|g| (g.bid, g.trumps)), Some((Bid::tricks(4), Some(Suit::Hearts))));
}

#[test]
fn b3_a_dutt_b_pass_c_ruten_oewer_d_pass_makes_c_declarer_with_the_rutenas_alone_needing_3() {
    let mut deal = top(DUTTFIPS, 3);
    let events = run(&mut deal, &["0 dutt", "1 pass", "2 ruten_oewer", "3 pass"]);
    assert!(
        events.contains(&Event::AuctionWon {
            declarer: Seat(2),
            contract: Contract { bid: Bid::RutenOewer, held: false }
        })
    );
    // C takes the Dutt ...
    assert!(events.contains(&Event::DuttTaken {
        seat: Seat(2),
        count: 5,
        dutt: Some(mecklenburg_common::cards(TOP_DUTT))
    }));
    assert_eq!(deal.hand(Seat(2)).len(), 10);
    assert_eq!(deal.phase(), Phase::Discard);
    // ... discards 5 ...
    let events = run(&mut deal, &["2 discard C7 S8 S7 H8 H7"]);
    // ... plays with the Rutenas as the only trump and needs 3 tricks.
    assert!(events.contains(&Event::TrumpsNamed { seat: Seat(2), suit: Suit::Diamonds, forced: true }));
    let game = deal.game().expect("a game");
    assert_eq!((game.bid, game.trumps, game.target()), (Bid::RutenOewer, Some(Suit::Diamonds), 3));
    assert_eq!(deal.phase(), Phase::Play);
    assert_eq!(deal.turn(), Some(Seat(0)), "forehand leads");
}

// §B5, every row.

#[test]
fn anseggerfips_2_hearts_won_scores_2() {
    let mut deal = top(ANSEGGERFIPS, 3);
    run(&mut deal, &["0 pass", "1 pass", "2 bid 2", "3 pass", "2 trumps H"]);
    let events = play_out(&mut deal, false);
    assert!(events.contains(&Event::Stopped { seat: Seat(2) }));
    assert_eq!(score(&deal, 2, true), 2);
}

#[test]
fn anseggerfips_ruten_2_won_scores_4() {
    let mut deal = ruten(ANSEGGERFIPS);
    let events = run(&mut deal, &["0 bid 2 ruten", "1 pass", "2 pass", "3 pass"]);
    assert!(events.contains(&Event::TrumpsNamed { seat: Seat(0), suit: Suit::Diamonds, forced: true }));
    play_out(&mut deal, false);
    assert_eq!(score(&deal, 0, true), 4);
}

#[test]
fn anseggerfips_3_with_ruten_named_by_the_holder_of_the_rutenas_won_scores_6() {
    let mut deal = ruten(ANSEGGERFIPS);
    run(&mut deal, &["0 bid 3", "1 pass", "2 pass", "3 pass", "0 trumps D"]);
    assert_eq!(deal.game().map(|g| g.bid), Some(Bid::ruten(3)), "3 turns into Ruten 3");
    play_out(&mut deal, false);
    assert_eq!(score(&deal, 0, true), 6);
}

#[test]
fn anseggerfips_3_clubs_played_on_for_durch_taking_all_five_scores_6() {
    let mut deal = top(ANSEGGERFIPS, 3);
    run(&mut deal, &["0 bid 3", "1 pass", "2 pass", "3 pass", "0 trumps C"]);
    let events = play_out(&mut deal, true);
    assert!(events.contains(&Event::WentOn { seat: Seat(0) }));
    assert_eq!(deal.tricks_taken(), (5, 0));
    assert_eq!(score(&deal, 0, true), 6);
}

#[test]
fn anseggerfips_4_spades_lost_scores_minus_8() {
    let mut deal = top(ANSEGGERFIPS, 3);
    run(&mut deal, &["0 bid 4", "1 pass", "2 pass", "3 pass", "0 trumps S"]);
    play_out(&mut deal, false);
    assert_eq!(score(&deal, 0, false), -8);
}

#[test]
fn anseggerfips_ruten_4_lost_scores_minus_16() {
    let mut deal = top(ANSEGGERFIPS, 3);
    run(&mut deal, &["0 pass", "1 pass", "2 pass", "3 bid 4 ruten"]);
    play_out(&mut deal, false);
    assert_eq!(score(&deal, 3, false), -16);
}

#[test]
fn anseggerfips_fips_clubs_won_scores_10() {
    let mut deal = top(ANSEGGERFIPS, 3);
    run(&mut deal, &["0 fips", "1 pass", "2 pass", "3 pass", "0 trumps C"]);
    let events = play_out(&mut deal, false);
    assert!(!events.iter().any(|e| matches!(e, Event::Stopped { .. })), "a Fips includes Durch");
    assert_eq!(score(&deal, 0, true), 10);
}

#[test]
fn anseggerfips_rutenfips_lost_scores_minus_40() {
    let mut deal = top(ANSEGGERFIPS, 3);
    run(&mut deal, &["0 pass", "1 pass", "2 pass", "3 rutenfips"]);
    play_out(&mut deal, false);
    assert_eq!(score(&deal, 3, false), -40);
}

#[test]
fn duttfips_dutt_spades_won_scores_3() {
    // Dealer 0: seat 1, holding the top spades, is forehand and must name a contract.
    let mut deal = top(DUTTFIPS, 0);
    run(&mut deal, &["1 dutt", "2 pass", "3 pass", "0 pass", "1 discard C7 S8 S7 H8 H7", "1 trumps S"]);
    let events = play_out(&mut deal, false);
    assert!(events.contains(&Event::Stopped { seat: Seat(1) }));
    assert_eq!(score(&deal, 1, true), 3);
}

#[test]
fn duttfips_dutt_hearts_lost_scores_minus_6() {
    let mut deal = top(DUTTFIPS, 0);
    run(&mut deal, &["1 dutt", "2 pass", "3 pass", "0 pass", "1 discard C7 S8 S7 H8 H7", "1 trumps H"]);
    play_out(&mut deal, false);
    assert_eq!(score(&deal, 1, false), -6);
}

#[test]
fn duttfips_dutt_clubs_played_on_for_durch_taking_all_five_scores_6() {
    let mut deal = top(DUTTFIPS, 3);
    run(&mut deal, &["0 dutt", "1 pass", "2 pass", "3 pass", "0 discard C7 S8 S7 H8 H7", "0 trumps C"]);
    play_out(&mut deal, true);
    assert_eq!(deal.tricks_taken(), (5, 0));
    assert_eq!(score(&deal, 0, true), 6);
}

#[test]
fn duttfips_ruten_oewer_won_scores_6() {
    let mut deal = ruten(DUTTFIPS);
    run(&mut deal, &["0 ruten_oewer", "1 pass", "2 pass", "3 pass", "0 discard C7 S7 H9 H8 H7"]);
    play_out(&mut deal, false);
    assert_eq!(score(&deal, 0, true), 6);
}

#[test]
fn duttfips_ruten_oewer_played_on_for_durch_losing_a_trick_after_reaching_3_scores_minus_24() {
    // Seat 0 takes the Rutenas, ♣A, ♠A and ♣K, then loses ♥7 to ♥A.
    let mut deal = arrange(
        DUTTFIPS,
        3,
        &["DA CA CK SA H7", "CQ CJ C10 C9 C8", "SK SQ SJ S10 S9", "HA HK HQ HJ H10"],
        "C7 S8 S7 H9 H8",
    );
    run(&mut deal, &["0 ruten_oewer", "1 pass", "2 pass", "3 pass", "0 discard C7 S8 S7 H9 H8"]);
    let events = play_out(&mut deal, true);
    assert!(events.contains(&Event::WentOn { seat: Seat(0) }));
    assert_eq!(deal.tricks_taken(), (4, 1));
    assert_eq!(score(&deal, 0, false), -24);
}

#[test]
fn duttfips_fips_hearts_lost_scores_minus_20() {
    let mut deal = top(DUTTFIPS, 3);
    run(&mut deal, &["0 fips", "1 pass", "2 pass", "3 pass", "0 discard C7 S8 S7 H8 H7", "0 trumps H"]);
    play_out(&mut deal, false);
    assert_eq!(score(&deal, 0, false), -20);
}

#[test]
fn duttfips_rutenfips_won_scores_20() {
    let mut deal = ruten(DUTTFIPS);
    run(&mut deal, &["0 rutenfips", "1 pass", "2 pass", "3 pass", "0 discard C7 S7 H9 H8 H7"]);
    play_out(&mut deal, false);
    assert_eq!(score(&deal, 0, true), 20);
}

// The auction's and the trumps' refusals.

#[test]
fn duttfips_forehand_may_not_pass_and_every_other_player_speaks_once() {
    let mut deal = top(DUTTFIPS, 3);
    assert_eq!(deal.check(Seat(0), Action::Pass), Err(RuleError::ForehandMustBid));
    assert_eq!(
        deal.legal_actions(Seat(0)),
        Bid::DUTTFIPS.map(|bid| Action::Bid { bid }).to_vec(),
        "Ruten needs no Rutenas in Duttfips"
    );
    assert_eq!(deal.check(Seat(0), Action::Bid { bid: Bid::tricks(3) }), Err(RuleError::UnknownBid));
    assert_eq!(deal.check(Seat(0), Action::Hold), Err(RuleError::HoldNotAllowed));
    run(&mut deal, &["0 fips", "1 pass"]);
    assert_eq!(
        deal.check(Seat(2), Action::Bid { bid: Bid::Dutt }),
        Err(RuleError::MustBidHigher { standing: Bid::Fips })
    );
    assert_eq!(deal.legal_actions(Seat(2)), vec![Action::Bid { bid: Bid::Rutenfips }, Action::Pass]);
    run(&mut deal, &["2 pass", "3 pass"]);
    assert_eq!(deal.declarer(), Some(Seat(0)));
}

#[test]
fn anseggerfips_refuses_bids_below_the_minimum_ruten_without_the_rutenas_and_other_games_bids() {
    let deal = top(ANSEGGERFIPS, 3);
    assert_eq!(deal.check(Seat(0), Action::Bid { bid: Bid::tricks(1) }), Err(RuleError::BidBelowMinimum { min: 2 }));
    assert_eq!(deal.check(Seat(0), Action::Bid { bid: Bid::tricks(5) }), Err(RuleError::UnknownBid));
    assert_eq!(deal.check(Seat(0), Action::Bid { bid: Bid::Dutt }), Err(RuleError::UnknownBid));
    assert_eq!(deal.check(Seat(0), Action::Bid { bid: Bid::ruten(2) }), Err(RuleError::RutenasRequired));
    assert_eq!(deal.check(Seat(0), Action::Bid { bid: Bid::Rutenfips }), Err(RuleError::RutenasRequired));
    let low = top(AnseggerfipsRules { min_bid: 1, ..ANSEGGERFIPS }, 3);
    assert_eq!(low.check(Seat(0), Action::Bid { bid: Bid::tricks(1) }), Ok(()));
    let free = top(AnseggerfipsRules { ruten_needs_rutenas: false, ..ANSEGGERFIPS }, 3);
    assert_eq!(free.check(Seat(0), Action::Bid { bid: Bid::ruten(2) }), Ok(()));
}

#[test]
fn anseggerfips_nobody_bids_the_deal_is_thrown_in() {
    let mut deal = top(ANSEGGERFIPS, 3);
    run(&mut deal, &["0 pass", "1 pass", "2 pass", "3 pass"]);
    assert_eq!(result(&deal), (Outcome::ThrownIn, 0));
}

#[test]
fn without_ruten_unbid_a_suit_declarer_may_not_name_ruten() {
    let mut deal = ruten(AnseggerfipsRules { ruten_unbid: false, ..ANSEGGERFIPS });
    run(&mut deal, &["0 bid 3", "1 pass", "2 pass", "3 pass"]);
    assert_eq!(deal.check(Seat(0), Action::NameTrumps { suit: Suit::Diamonds }), Err(RuleError::RutenMustBeBid));
    let mut deal = ruten(DuttfipsRules { ruten_unbid: false, ..DUTTFIPS });
    run(&mut deal, &["0 dutt", "1 pass", "2 pass", "3 pass", "0 discard C7 S7 H9 H8 H7"]);
    assert_eq!(deal.check(Seat(0), Action::NameTrumps { suit: Suit::Diamonds }), Err(RuleError::RutenMustBeBid));
}

#[test]
fn duttfips_with_ruten_unbid_names_ruten_for_a_dutt_and_plays_a_ruten_oewer() {
    let mut deal = ruten(DUTTFIPS);
    run(&mut deal, &["0 dutt", "1 pass", "2 pass", "3 pass", "0 discard C7 S7 H9 H8 H7", "0 trumps D"]);
    assert_eq!(deal.game().map(|g| g.bid), Some(Bid::RutenOewer));
    play_out(&mut deal, false);
    assert_eq!(score(&deal, 0, true), 6);
}

#[test]
fn the_declarer_who_took_the_dutt_discards_exactly_five_of_his_cards() {
    let mut deal = top(AnseggerfipsRules { dutt: DuttUse::Exchange, ..ANSEGGERFIPS }, 3);
    run(&mut deal, &["0 bid 2", "1 pass", "2 pass", "3 pass"]);
    assert_eq!(deal.hand(Seat(0)).len(), 10);
    let two = mecklenburg_common::cards("C7 S8");
    assert_eq!(deal.check(Seat(0), Action::Discard { cards: two }), Err(RuleError::DiscardCount { expected: 5 }));
    let foreign = mecklenburg_common::cards("C7 S8 S7 H8 SA");
    assert!(matches!(deal.check(Seat(0), Action::Discard { cards: foreign }), Err(RuleError::NotInHand { .. })));
    assert_eq!(deal.legal_actions(Seat(0)).len(), 252, "10 choose 5");
    assert_eq!(
        deal.check(Seat(0), Action::NameTrumps { suit: Suit::Clubs }),
        Err(RuleError::WrongPhase("the declarer lays away five cards now"))
    );
    run(&mut deal, &["0 discard C7 S8 S7 H8 H7", "0 trumps C"]);
    assert_eq!(deal.discards().len(), 5);
    assert_eq!(deal.hand(Seat(0)), mecklenburg_common::cards("CA CK CQ CJ C10"));
}

#[test]
fn without_durch_the_deal_ends_as_soon_as_the_target_is_reached() {
    let mut deal = top(AnseggerfipsRules { durch: false, ..ANSEGGERFIPS }, 3);
    run(&mut deal, &["0 bid 3", "1 pass", "2 pass", "3 pass", "0 trumps C"]);
    let events = play_out(&mut deal, true);
    assert!(!events.iter().any(|e| matches!(e, Event::Stopped { .. } | Event::WentOn { .. })));
    assert_eq!(deal.tricks_taken(), (3, 0));
    assert_eq!(score(&deal, 0, true), 3);
}

#[test]
fn in_the_duels_a_hold_owes_the_identical_contract_and_needs_the_rutenas_for_ruten() {
    let rules = AnseggerfipsRules { auction: AuctionKind::Duels, ruten_needs_rutenas: false, ..ANSEGGERFIPS };
    let mut deal = top(rules, 3);
    run(&mut deal, &["0 bid 2", "1 bid 3", "0 hold", "1 pass", "2 pass", "3 pass"]);
    assert_eq!(deal.contract(), Some(Contract { bid: Bid::tricks(3), held: true }));
    assert_eq!(deal.declarer(), Some(Seat(0)));
    let mut deal = top(AnseggerfipsRules { auction: AuctionKind::Duels, ..ANSEGGERFIPS }, 3);
    run(&mut deal, &["0 pass", "1 pass", "2 bid 2", "3 bid 2 ruten"]);
    assert_eq!(deal.check(Seat(2), Action::Hold), Err(RuleError::RutenasRequired));
}
