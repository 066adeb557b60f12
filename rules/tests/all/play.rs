//! The play: Durch, the early end, Ruten wherever the ♦7 lies, and the three-player game.

use crate::common;

use common::{arrange, cards, result, run};
use fipsen_rules::{Action, CardSet, Deal, Outcome, Phase, Players, RuleError, RuleSet, Seat, Seed, Series};

fn layout_a() -> Deal {
    arrange(
        RuleSet::prisdorf(),
        3,
        &["CA CK CQ CJ C10", "SA SK SQ SJ S10", "HA HK HQ HJ H10", "S9 S8 H9 H8 C9"],
        "S7 H7",
    )
}

#[test]
fn a_declarer_who_reaches_his_count_after_losing_a_trick_wins_at_once() {
    let mut deal = layout_a();
    run(&mut deal, &["0 bid 2", "1 pass", "2 pass", "3 pass", "0 skat", "0 discard CJ C10", "0 trumps C"]);
    run(&mut deal, &["0 play S7", "1 play SK", "2 play H10", "3 play S8"]);
    assert_eq!(deal.tricks_taken(), (0, 1));
    run(&mut deal, &["1 play SA", "2 play HJ", "3 play S9", "0 play CA"]);
    run(&mut deal, &["0 play CK", "1 play SQ", "2 play HQ", "3 play C9"]);
    // Two tricks with one lost: no Durch to choose, the deal is won and over.
    let (outcome, score) = result(&deal);
    assert!(matches!(outcome, Outcome::Won { tricks: 2, game, .. } if !game.durch));
    assert_eq!(score, 2);
    assert_eq!(deal.hand(Seat(0)).len(), 2, "two tricks were never played");
    assert_eq!(deal.check(Seat(0), Action::Play { card: "CQ".parse().expect("card") }), Err(RuleError::DealOver));
}

#[test]
fn durch_choice_is_offered_only_to_the_declarer_without_a_lost_trick() {
    let mut deal = layout_a();
    run(&mut deal, &["0 bid 2", "1 pass", "2 pass", "3 pass", "0 skat", "0 discard S7 H7", "0 trumps C"]);
    run(&mut deal, &["0 play CA", "1 play S10", "2 play H10", "3 play C9"]);
    assert_eq!(deal.phase(), Phase::Play);
    run(&mut deal, &["0 play CK", "1 play SJ", "2 play HJ", "3 play S8"]);
    assert_eq!((deal.phase(), deal.turn()), (Phase::DurchChoice, Some(Seat(0))));
    for seat in 1..4 {
        assert!(deal.legal_actions(Seat(seat)).is_empty());
        assert_eq!(deal.check(Seat(seat), Action::Stop), Err(RuleError::NotYourTurn));
    }
    assert!(matches!(
        deal.check(Seat(0), Action::Play { card: "CQ".parse().expect("card") }),
        Err(RuleError::WrongPhase(_))
    ));
    // Going on, he leads the next trick; a lost trick then loses the doubled value at once.
    run(&mut deal, &["0 go_on"]);
    assert_eq!((deal.phase(), deal.turn()), (Phase::Play, Some(Seat(0))));
}

#[test]
fn ruten_with_the_diamond_seven_in_the_skat_makes_it_the_one_trump() {
    let mut deal = arrange(
        RuleSet::prisdorf(),
        3,
        &["CA CK CQ SA S7", "C10 C9 SK SQ SJ", "HA HK HQ HJ H10", "C8 C7 S10 S9 S8"],
        "D7 H9",
    );
    run(&mut deal, &["0 bid 2", "1 pass", "2 pass", "3 pass", "0 skat", "0 discard S7 H9", "0 trumps D"]);
    // The ♦7 led beats even an ace.
    run(&mut deal, &["0 play D7", "1 play C9", "2 play HA", "3 play C7"]);
    assert_eq!(deal.trick_winners(), &[Seat(0)]);
    run(&mut deal, &["0 play CA", "1 play C10", "2 play HK", "3 play C8", "0 stop"]);
    let (outcome, score) = result(&deal);
    assert!(matches!(outcome, Outcome::Won { game, .. } if game.ruten() && !game.hand));
    assert_eq!(score, 4);
}

#[test]
fn ruten_with_the_diamond_seven_in_the_stock_has_no_trump_in_play() {
    let mut deal = layout_a();
    run(&mut deal, &["0 bid 2 ruten", "1 pass", "2 pass", "3 pass", "0 skat", "0 discard S7 H7"]);
    // Ruten was bid: diamonds are trumps without asking.
    assert_eq!(deal.game().and_then(|g| g.trumps), Some(fipsen_rules::Suit::Diamonds));
    // Seat 3 cannot follow clubs on the second trick and nothing it plays wins.
    run(&mut deal, &["0 play CA", "1 play S10", "2 play H10", "3 play C9"]);
    run(&mut deal, &["0 play CK", "1 play SA", "2 play HA", "3 play H9"]);
    assert_eq!(deal.trick_winners(), &[Seat(0), Seat(0)]);
}

#[test]
fn ruten_with_the_diamond_seven_in_an_opponents_hand_lets_him_trump() {
    let mut deal = arrange(
        RuleSet::prisdorf(),
        3,
        &["CA CK CQ CJ C10", "D7 SA SK SQ SJ", "HA HK HQ HJ H10", "S9 S8 H9 H8 C9"],
        "S7 H7",
    );
    run(&mut deal, &["0 bid 2 ruten", "1 pass", "2 pass", "3 pass", "0 skat", "0 discard S7 H7"]);
    run(&mut deal, &["0 play CA", "1 play D7", "2 play H10", "3 play C9"]);
    assert_eq!(deal.trick_winners(), &[Seat(1)]);
    assert_eq!(deal.turn(), Some(Seat(1)));
}

#[test]
fn in_a_suit_game_the_diamond_seven_is_a_plain_card_of_its_own_suit() {
    let mut deal = arrange(
        RuleSet::prisdorf(),
        3,
        &["CA CK CQ CJ C10", "D7 SA SK SQ SJ", "HA HK HQ HJ H10", "S9 S8 H9 H8 C9"],
        "S7 H7",
    );
    run(&mut deal, &["0 bid 2", "1 pass", "2 pass", "3 pass", "0 skat", "0 discard S7 H7", "0 trumps H"]);
    // Clubs led: seat 1 cannot follow and discards the ♦7, which wins nothing.
    run(&mut deal, &["0 play CA", "1 play D7", "2 play HA", "3 play C9"]);
    assert_eq!(deal.trick_winners(), &[Seat(2)], "the heart trump wins");
}

#[test]
fn the_diamond_seven_led_in_a_suit_game_wins_unless_trumped() {
    let mut deal = arrange(
        RuleSet::prisdorf(),
        3,
        &["CA CK CQ CJ C10", "D7 SA SK SQ SJ", "HA HK HQ HJ H10", "S9 S8 H9 H8 C9"],
        "S7 H7",
    );
    run(&mut deal, &["0 pass", "1 bid 2", "2 pass", "3 pass", "1 skat", "1 discard S7 H7", "1 trumps S"]);
    run(&mut deal, &["0 play C10", "1 play SJ", "2 play H10", "3 play C9"]);
    assert_eq!(deal.trick_winners(), &[Seat(1)]);
    run(&mut deal, &["1 play D7", "2 play HJ", "3 play H8", "0 play CJ"]);
    assert_eq!(deal.trick_winners(), &[Seat(1), Seat(1)], "nobody trumped: the ♦7 wins its own suit");
}

#[test]
fn following_suit_is_required_and_otherwise_anything_goes() {
    let mut deal = layout_a();
    run(&mut deal, &["0 bid 2", "1 pass", "2 pass", "3 pass", "0 skat", "0 discard S7 H7", "0 trumps C"]);
    run(&mut deal, &["0 play CA", "1 play S10", "2 play H10"]);
    let before = deal.clone();
    assert_eq!(
        deal.apply(Seat(3), Action::Play { card: "S9".parse().expect("card") }),
        Err(RuleError::MustFollowSuit { suit: fipsen_rules::Suit::Clubs })
    );
    assert_eq!(deal, before);
    assert_eq!(deal.legal_actions(Seat(3)), vec![Action::Play { card: "C9".parse().expect("card") }]);
    assert_eq!(
        deal.check(Seat(3), Action::Play { card: "CK".parse().expect("card") }),
        Err(RuleError::NotInHand { card: "CK".parse().expect("card") })
    );
}

#[test]
fn the_first_lead_option_lets_the_declarer_lead() {
    let rules = RuleSet { first_lead: fipsen_rules::FirstLead::Declarer, ..RuleSet::prisdorf() };
    let mut deal =
        arrange(rules, 3, &["CA CK CQ CJ C10", "SA SK SQ SJ S10", "HA HK HQ HJ H10", "S9 S8 H9 H8 C9"], "S7 H7");
    run(&mut deal, &["0 pass", "1 pass", "2 bid 2", "3 pass", "2 skat", "2 discard S7 H7", "2 trumps H"]);
    assert_eq!(deal.turn(), Some(Seat(2)));
}

#[test]
fn three_players_deal_five_each_two_to_the_skat_and_eight_to_the_stock() {
    let rules = RuleSet { players: Players::Three, ..RuleSet::prisdorf() };
    for n in 0..50 {
        let (deal, _) = Deal::new(rules, 1, Seat(2), Seed::from_u64(n));
        for seat in 0..3 {
            assert_eq!(deal.hand(Seat(seat)).len(), 5);
        }
        assert_eq!((deal.skat().len(), deal.stock().len()), (2, 8));
        let mut all = deal.skat().union(deal.stock());
        for seat in 0..3 {
            assert!(all.intersection(deal.hand(Seat(seat))).is_empty());
            all = all.union(deal.hand(Seat(seat)));
        }
        assert_eq!(all, CardSet::PACK);
    }
    // One duel fewer: Vorhand, the next player, then the dealer.
    let (mut deal, _) = Deal::new(rules, 1, Seat(2), Seed::from_u64(1));
    assert_eq!(deal.turn(), Some(Seat(0)));
    run(&mut deal, &["0 bid 2", "1 pass", "2 pass"]);
    assert_eq!(deal.declarer(), Some(Seat(0)));
}

#[test]
fn the_three_player_kieker_throws_his_hand_away_for_skat_and_stock() {
    let rules = RuleSet { players: Players::Three, ..RuleSet::prisdorf() };
    // Seat 2 deals; seat 1 holds no court card.
    let mut deal = arrange(rules, 2, &["CA CK CQ CJ C10", "C9 C8 S9 S8 H7", "HA HK HQ HJ H10"], "S7 H9");
    let dealt = deal.hand(Seat(1));
    let events = run(&mut deal, &["0 bid 2", "1 kieker", "0 pass", "2 pass"]);
    assert!(events.iter().any(|e| matches!(e, fipsen_rules::Event::KiekerShown { seat: Seat(1), to: Seat(2), .. })));
    let hand = deal.hand(Seat(1));
    assert_eq!(hand.len(), 10);
    assert!(hand.intersection(dealt).is_empty(), "the dealt hand is thrown away");
    assert_eq!(hand, deal.skat().union(deal.stock()));
    assert_eq!(deal.view(Some(Seat(1))).prompt.discard, Some(5));
    run(&mut deal, &["1 discard S7 H9 SA SK SQ"]);
    assert_eq!(deal.phase(), Phase::Trumps);
    // Ruten is allowed for a Kieker.
    assert!(deal.legal_actions(Seat(1)).contains(&Action::NameTrumps { suit: fipsen_rules::Suit::Diamonds }));
    // Every card is still somewhere, once.
    let places = deal.card_places();
    assert_eq!(places.iter().map(|p| p.len()).sum::<usize>(), 25);
    assert_eq!(places.iter().fold(CardSet::EMPTY, |a, p| a.union(*p)), CardSet::PACK);
    // The opponent on his left sees the dealt hand; the other one does not.
    assert_eq!(deal.view(Some(Seat(2))).kieker_hand, Some(dealt));
    assert_eq!(deal.view(Some(Seat(0))).kieker_hand, None);
    assert_eq!(deal.view(None).kieker_hand, None);
}

#[test]
fn kieker_show_nobody_shows_the_hand_to_no_one() {
    let rules = RuleSet { kieker_show: fipsen_rules::KiekerShow::Nobody, ..RuleSet::prisdorf() };
    let mut deal =
        arrange(rules, 3, &["CA CK CQ CJ C10", "SA SK SQ SJ S10", "HA HK HQ HJ H10", "S9 S8 H9 H8 C9"], "S7 H7");
    let events = run(&mut deal, &["0 pass", "1 pass", "2 pass", "3 kieker"]);
    assert!(!events.iter().any(|e| matches!(e, fipsen_rules::Event::KiekerShown { .. })));
    assert_eq!(deal.view(Some(Seat(0))).kieker_hand, None);
    assert_eq!(deal.view(Some(Seat(3))).kieker_hand, Some(cards("S9 S8 H9 H8 C9")));
}

#[test]
fn siebener_fips_after_taking_the_skat_and_never_after_the_first_lead() {
    let mut deal = arrange(
        RuleSet::prisdorf(),
        3,
        &["C7 S7 H7 CA CK", "SA SK SQ SJ S10", "HA HK HQ HJ H10", "S9 S8 H9 H8 C9"],
        "D7 C8",
    );
    assert!(!deal.legal_actions(Seat(0)).contains(&Action::SiebenerFips));
    run(&mut deal, &["0 bid 2", "1 pass", "2 pass", "3 pass", "0 skat"]);
    assert!(deal.legal_actions(Seat(0)).contains(&Action::SiebenerFips));
    // Laying away a seven gives it up.
    run(&mut deal, &["0 discard D7 C8", "0 trumps C"]);
    assert_eq!(deal.check(Seat(0), Action::SiebenerFips), Err(RuleError::NoSiebenerFips));

    let mut deal = arrange(
        RuleSet::prisdorf(),
        3,
        &["SA SK SQ SJ S10", "C7 S7 H7 D7 HA", "CA CK CQ CJ C10", "S9 S8 H9 H8 C9"],
        "HK HQ",
    );
    run(&mut deal, &["0 bid 2", "1 pass", "2 pass", "3 pass", "0 skat", "0 discard HK HQ", "0 trumps S"]);
    assert!(deal.legal_actions(Seat(1)).contains(&Action::SiebenerFips), "still before the first lead");
    run(&mut deal, &["0 play SA"]);
    assert_eq!(deal.check(Seat(1), Action::SiebenerFips), Err(RuleError::SiebenerFipsTooLate));
    assert!(!deal.legal_actions(Seat(1)).contains(&Action::SiebenerFips));
}

#[test]
fn a_series_keeps_the_dealer_after_a_throw_in_and_stops_at_its_deal_limit() {
    let rules = RuleSet { deals: Some(2), ..RuleSet::prisdorf() };
    let (mut series, _) = Series::new(rules, Seed::from_u64(3)).expect("valid rules");
    assert_eq!(series.deal().dealer(), Seat(3));
    for seat in [0, 1, 2, 3] {
        series.apply(Seat(seat), Action::Pass).expect("pass");
    }
    assert_eq!(series.scoresheet().len(), 1);
    assert_eq!(series.scoresheet()[0].outcome, Outcome::ThrownIn);
    series.next_deal().expect("next");
    assert_eq!(series.deal().dealer(), Seat(3), "same dealer after all passed");
    assert_eq!(series.number(), 2);
    // Two counted deals: each won by a quick give-up-free path: the declarer bids 2 and we
    // play the first legal card until the deal ends.
    for deal_no in 0..2 {
        let vorhand = series.deal().vorhand();
        series.apply(vorhand, Action::Bid { bid: fipsen_rules::Bid::tricks(2) }).expect("bid");
        while let Some(seat) = series.deal().turn() {
            let action = series.legal_actions(seat).into_iter().find(|a| *a != Action::SiebenerFips).expect("a move");
            series.apply(seat, action).expect("legal");
        }
        if deal_no == 0 {
            assert_eq!(series.next_deal().map(|_| ()), Ok(()));
            assert_eq!(series.deal().dealer(), Seat(0), "the deal passes clockwise");
        }
    }
    assert!(series.is_over());
    assert_eq!(series.scoresheet().len(), 3);
    assert_eq!(series.next_deal(), Err(RuleError::SeriesOver));
    let last = series.scoresheet().last().expect("row");
    let sum: Vec<i32> = (0..4)
        .map(|s| series.scoresheet().iter().map(|r| if r.declarer == Some(Seat(s)) { r.value } else { 0 }).sum())
        .collect();
    assert_eq!(last.totals, sum, "totals are the running sums of the values");
    assert!(series.view(Some(Seat(0))).deal.prompt.is_empty());
}

#[test]
fn the_view_names_whose_card_takes_the_trick_as_it_stands() {
    let mut deal = layout_a();
    run(&mut deal, &["0 bid 2", "1 pass", "2 pass", "3 pass", "0 skat", "0 discard CJ C10", "0 trumps C"]);
    assert_eq!(deal.view(None).winning, None, "no trick is being played");
    run(&mut deal, &["0 play S7"]);
    assert_eq!(deal.view(None).winning, Some(Seat(0)), "the lead takes it so far");
    run(&mut deal, &["1 play SK"]);
    assert_eq!(deal.view(Some(Seat(2))).winning, Some(Seat(1)), "a higher card of the suit led");
    run(&mut deal, &["2 play H10"]);
    assert_eq!(deal.view(Some(Seat(3))).winning, Some(Seat(1)), "another suit takes nothing");
    run(&mut deal, &["3 play S8"]);
    assert_eq!(deal.view(None).winning, None, "the trick is taken");
    run(&mut deal, &["1 play SA", "2 play HJ", "3 play S9"]);
    assert_eq!(deal.view(None).winning, Some(Seat(1)));
    run(&mut deal, &["0 play CA"]);
    assert_eq!(deal.trick_winners().last(), Some(&Seat(0)), "a trump takes it");
}
