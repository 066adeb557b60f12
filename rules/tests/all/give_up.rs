//! A Kieker declarer may give up at any moment from taking up skat and stock until the first
//! card is led, whoever's turn it is (docs/rules/prisdorf.md §5), and never after.

use crate::common;

use common::{arrange, result, run};
use fipsen_rules::{Action, Deal, Event, FirstLead, Outcome, Phase, Players, Prompt, RuleError, RuleSet, Seat};

/// Seat 3 deals and has no court card; everybody passes to his Kieker. After laying away
/// S9 H9 H8 S8 S7 he holds CA CK CQ CJ C10.
fn kieker(rules: RuleSet) -> Deal {
    let mut deal =
        arrange(rules, 3, &["C9 SA SK SQ SJ", "C8 S10 HA HK HQ", "C7 HJ H10 H7 D7", "CA C10 S9 H9 H8"], "S8 S7");
    run(&mut deal, &["0 pass", "1 pass", "2 pass", "3 kieker", "3 discard S9 H9 H8 S8 S7", "3 trumps C"]);
    deal
}

fn with_kontra() -> RuleSet {
    RuleSet { kontra: true, ..RuleSet::prisdorf() }
}

/// The declarer (seat 3) may give up although another seat is to act, and only he.
fn offered_out_of_turn(deal: &Deal) {
    let turn = deal.turn().expect("someone is to act");
    assert_ne!(turn, Seat(3), "the declarer is not the one to act");
    assert_eq!(deal.legal_actions(Seat(3)), vec![Action::GiveUp]);
    assert_eq!(deal.check(Seat(3), Action::GiveUp), Ok(()));
    assert_eq!(deal.view(Some(Seat(3))).prompt, Prompt { give_up: true, ..Prompt::default() });
    for seat in (0..3).map(Seat) {
        assert!(!deal.legal_actions(seat).contains(&Action::GiveUp), "only the declarer may give up");
        assert!(!deal.view(Some(seat)).prompt.give_up);
        assert_eq!(deal.check(seat, Action::GiveUp), Err(RuleError::GiveUpNotAllowed));
    }
    assert!(!deal.view(None).prompt.give_up);
}

fn given_up(deal: &Deal, events: &[Event]) {
    assert_eq!(events.first(), Some(&Event::GaveUp { seat: Seat(3) }));
    assert!(matches!(result(deal), (Outcome::GivenUp { declarer: Seat(3), game }, -5) if game.kieker));
    assert_eq!(deal.phase(), Phase::Over);
}

#[test]
fn the_kieker_may_give_up_while_the_first_opponent_considers_kontra() {
    let mut deal = kieker(with_kontra());
    assert_eq!((deal.phase(), deal.turn()), (Phase::Kontra, Some(Seat(0))));
    offered_out_of_turn(&deal);
    // Giving up does not wait for the opponent's answer.
    let events = run(&mut deal, &["3 give_up"]);
    given_up(&deal, &events);
    // Whatever the trumps: clubs named, still −5.
    assert!(matches!(result(&deal).0, Outcome::GivenUp { game, .. } if game.trumps == Some(fipsen_rules::Suit::Clubs)));
}

#[test]
fn the_kieker_may_give_up_while_a_later_opponent_considers_kontra() {
    let mut deal = kieker(with_kontra());
    run(&mut deal, &["0 pass"]);
    assert_eq!((deal.phase(), deal.turn()), (Phase::Kontra, Some(Seat(1))));
    offered_out_of_turn(&deal);
    run(&mut deal, &["1 pass"]);
    assert_eq!((deal.phase(), deal.turn()), (Phase::Kontra, Some(Seat(2))));
    offered_out_of_turn(&deal);
    let events = run(&mut deal, &["3 give_up"]);
    given_up(&deal, &events);
}

#[test]
fn the_kieker_may_give_up_while_vorhand_is_about_to_lead() {
    // Without Kontra: straight from naming trumps to Vorhand's lead.
    let mut deal = kieker(RuleSet::prisdorf());
    assert_eq!((deal.phase(), deal.turn()), (Phase::Play, Some(Seat(0))));
    offered_out_of_turn(&deal);
    let events = run(&mut deal, &["3 give_up"]);
    given_up(&deal, &events);

    // With Kontra, once every opponent has declined.
    let mut deal = kieker(with_kontra());
    run(&mut deal, &["0 pass", "1 pass", "2 pass"]);
    assert_eq!((deal.phase(), deal.turn()), (Phase::Play, Some(Seat(0))));
    offered_out_of_turn(&deal);
    let events = run(&mut deal, &["3 give_up"]);
    given_up(&deal, &events);
}

#[test]
fn the_kieker_may_give_up_after_a_kontra_while_vorhand_is_about_to_lead() {
    let mut deal = kieker(with_kontra());
    run(&mut deal, &["0 kontra"]);
    // His own turn: Rekontra, pass or give up.
    assert_eq!((deal.phase(), deal.turn()), (Phase::Rekontra, Some(Seat(3))));
    assert_eq!(deal.legal_actions(Seat(3)), vec![Action::Rekontra, Action::Pass, Action::GiveUp]);
    run(&mut deal, &["3 rekontra"]);
    offered_out_of_turn(&deal);
    let events = run(&mut deal, &["3 give_up"]);
    given_up(&deal, &events);
    assert!(matches!(result(&deal).0, Outcome::GivenUp { game, .. } if game.kontra && game.rekontra));
}

#[test]
fn three_players_the_kieker_may_give_up_while_vorhand_is_about_to_lead() {
    let rules = RuleSet { players: Players::Three, ..RuleSet::prisdorf() };
    let mut deal = arrange(rules, 2, &["C9 SA SK SQ SJ", "C8 S10 HA HK HQ", "CA C10 S9 H9 H8"], "S8 S7");
    // He throws his hand away for the skat (S8 S7) and the stock (CK CQ CJ C7 HJ H10 H7 D7).
    run(&mut deal, &["0 pass", "1 pass", "2 kieker", "2 discard S8 S7 HJ H10 H7", "2 trumps C"]);
    assert_eq!((deal.phase(), deal.turn()), (Phase::Play, Some(Seat(0))));
    assert_eq!(deal.legal_actions(Seat(2)), vec![Action::GiveUp]);
    assert!(deal.view(Some(Seat(2))).prompt.give_up);
    let events = run(&mut deal, &["2 give_up"]);
    assert_eq!(events.first(), Some(&Event::GaveUp { seat: Seat(2) }));
    assert_eq!(result(&deal).1, -5);
}

#[test]
fn once_the_first_card_is_led_the_kieker_may_no_longer_give_up() {
    for rules in [RuleSet::prisdorf(), with_kontra()] {
        let mut deal = kieker(rules);
        if rules.kontra {
            run(&mut deal, &["0 pass", "1 pass", "2 pass"]);
        }
        run(&mut deal, &["0 play SA"]);
        // Out of turn: refused as too late, not as out of turn (like a late Siebener Fips).
        assert!(deal.legal_actions(Seat(3)).is_empty());
        assert!(!deal.view(Some(Seat(3))).prompt.give_up);
        assert_eq!(deal.check(Seat(3), Action::GiveUp), Err(RuleError::GiveUpNotAllowed));
        assert_eq!(RuleError::GiveUpNotAllowed.code(), "kieker/give_up_not_allowed");
        let before = deal.clone();
        assert_eq!(deal.apply(Seat(3), Action::GiveUp), Err(RuleError::GiveUpNotAllowed));
        assert!(deal == before, "a refused give-up leaves the deal as it was");
        // At his own turn in the first trick: still too late.
        run(&mut deal, &["1 play S10", "2 play H7"]);
        assert_eq!(deal.turn(), Some(Seat(3)));
        assert!(!deal.legal_actions(Seat(3)).contains(&Action::GiveUp));
        assert_eq!(deal.check(Seat(3), Action::GiveUp), Err(RuleError::GiveUpNotAllowed));
    }
}

#[test]
fn with_the_declarer_leading_he_may_give_up_at_his_lead_and_before_it() {
    let rules = RuleSet { first_lead: FirstLead::Declarer, kontra: true, ..RuleSet::prisdorf() };
    let mut deal = kieker(rules);
    assert_eq!((deal.phase(), deal.turn()), (Phase::Kontra, Some(Seat(0))));
    offered_out_of_turn(&deal);
    run(&mut deal, &["0 pass", "1 pass", "2 pass"]);
    assert_eq!((deal.phase(), deal.turn()), (Phase::Play, Some(Seat(3))));
    assert!(deal.legal_actions(Seat(3)).contains(&Action::GiveUp));
    run(&mut deal, &["3 play CA"]);
    assert_eq!(deal.check(Seat(3), Action::GiveUp), Err(RuleError::GiveUpNotAllowed));
}

#[test]
fn only_a_kieker_declarer_may_give_up() {
    // A plain game: the declarer may not give up, in turn or out of it.
    let mut deal = arrange(
        RuleSet::prisdorf(),
        3,
        &["C9 SA SK SQ SJ", "C8 S10 HA HK HQ", "C7 HJ H10 H7 D7", "CA C10 S9 H9 H8"],
        "S8 S7",
    );
    run(&mut deal, &["0 bid 2", "1 pass", "2 pass", "3 pass", "0 skat", "0 discard S8 S7", "0 trumps S"]);
    assert_eq!(deal.turn(), Some(Seat(0)));
    for seat in (0..4).map(Seat) {
        assert!(!deal.legal_actions(seat).contains(&Action::GiveUp));
        assert_eq!(deal.check(seat, Action::GiveUp), Err(RuleError::GiveUpNotAllowed));
    }
    // In the auction nobody may give up, the Kieker bidder included.
    let mut deal = arrange(
        RuleSet::prisdorf(),
        3,
        &["C9 SA SK SQ SJ", "C8 S10 HA HK HQ", "C7 HJ H10 H7 D7", "CA C10 S9 H9 H8"],
        "S8 S7",
    );
    run(&mut deal, &["0 pass", "1 pass"]);
    for seat in (0..4).map(Seat) {
        assert_eq!(deal.check(seat, Action::GiveUp), Err(RuleError::GiveUpNotAllowed));
    }
}
