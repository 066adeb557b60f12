//! Nap's rules in scenarios dealt from a fixed pack, and thousands of random deals played
//! through the game interface for every player count and option set, checking the invariants.

use std::collections::BTreeSet;

use serde_json::Value;

use super::*;
use crate::card::{Card, Suit};
use crate::engine::GameEngine;
use crate::error::RuleError;
use crate::seat::Seat;
use crate::seed::Seed;

fn card(code: &str) -> NapCard {
    code.parse().unwrap_or_else(|_| panic!("{code} is a card"))
}

fn cards(codes: &str) -> NapCards {
    codes.split_whitespace().map(card).collect()
}

/// A pack for `rules` whose first cards are `front` (in dealing order), the rest in pack order.
fn pack_with(rules: &Rules, front: &str) -> Vec<NapCard> {
    let front: Vec<NapCard> = front.split_whitespace().map(card).collect();
    let mut pack = front.clone();
    pack.extend(Deal::pack(rules).into_iter().filter(|c| !front.contains(c)));
    pack
}

/// Hands for a deal of `players` whose dealer is the last seat, so seat 0 is forehand: each
/// seat's five cards as given, dealt 3-2.
fn deal_hands(rules: Rules, hands: &[&str], rest: &str, pool: i32) -> Deal {
    let n = hands.len();
    assert_eq!(n, usize::from(rules.players));
    let hands: Vec<Vec<&str>> = hands.iter().map(|h| h.split_whitespace().collect()).collect();
    let mut order = Vec::new();
    for h in &hands {
        order.extend_from_slice(&h[..3]);
    }
    for h in &hands {
        order.extend_from_slice(&h[3..]);
    }
    let front = format!("{} {rest}", order.join(" "));
    let pack = pack_with(&rules, &front);
    let (deal, _) = Deal::from_pack(rules, 1, Seat(rules.players - 1), &pack, pool).expect("a whole pack");
    for (i, h) in hands.iter().enumerate() {
        assert_eq!(deal.hand(Seat(i as u8)), cards(&h.join(" ")));
    }
    deal
}

fn act(deal: &mut Deal, seat: u8, action: Action) -> Vec<Event> {
    deal.apply(Seat(seat), action).unwrap_or_else(|e| panic!("seat {seat} {action:?}: {e}"))
}

fn refused(deal: &mut Deal, seat: u8, action: Action) -> RuleError {
    let before = deal.clone();
    let err = deal.apply(Seat(seat), action).expect_err("refused");
    assert_eq!(*deal, before, "a refused action changed the deal");
    err
}

fn play(deal: &mut Deal, seat: u8, code: &str) -> Vec<Event> {
    act(deal, seat, Action::Play { card: card(code) })
}

fn bid(bid: Bid) -> Action {
    Action::Bid { bid }
}

const FOUR: [&str; 4] = ["SA SK SQ SJ S10", "HA HK HQ HJ H10", "CA CK CQ CJ C10", "DA DK DQ DJ D10"];

#[test]
fn the_deal_is_three_then_two_from_forehand_and_the_rest_is_the_stock() {
    let rules = Rules::default();
    let pack = Deal::pack(&rules);
    assert_eq!(pack.len(), 52);
    let (deal, event) = Deal::from_pack(rules, 1, Seat(3), &pack, 0).unwrap();
    // Forehand (seat 0) gets pack cards 0-2 and 12-13.
    let expected: NapCards = [0, 1, 2, 12, 13].iter().map(|&i| pack[i]).collect();
    assert_eq!(deal.hand(Seat(0)), expected);
    let expected: NapCards = [9, 10, 11, 18, 19].iter().map(|&i| pack[i]).collect();
    assert_eq!(deal.hand(Seat(3)), expected, "the dealer is dealt last");
    assert_eq!(deal.stock_len(), 32);
    assert_eq!(deal.phase(), Phase::Auction);
    assert_eq!(deal.turn(), Some(Seat(0)));
    let Event::Dealt { hands, stock, .. } = event.for_viewer(Some(Seat(1))) else { panic!("dealt") };
    assert_eq!(stock, 32);
    assert_eq!(hands.iter().filter(|h| h.is_some()).count(), 1);
    assert_eq!(hands[1], Some(deal.hand(Seat(1))));
    let joker = Rules { joker: true, pack: PackChoice::Stripped, players: 5, ..Rules::default() };
    assert_eq!(Deal::pack(&joker).len(), 33);
    assert!(Deal::from_pack(joker, 1, Seat(4), &pack, 0).is_none(), "the wrong pack is refused");
}

#[test]
fn bids_go_up_once_round_with_misere_between_three_and_four() {
    let mut deal = deal_hands(Rules::default(), &FOUR, "", 0);
    assert_eq!(deal.legal_actions(Seat(1)), vec![], "nothing out of turn");
    assert_eq!(refused(&mut deal, 1, Action::Pass), RuleError::NotYourTurn);
    act(&mut deal, 0, bid(Bid::Three));
    assert_eq!(
        deal.legal_actions(Seat(1)),
        vec![Action::Pass, bid(Bid::Misere), bid(Bid::Four), bid(Bid::Nap)],
        "Wellington only over a Nap"
    );
    assert_eq!(refused(&mut deal, 1, bid(Bid::Two)), RuleError::UnknownBid);
    assert_eq!(refused(&mut deal, 1, bid(Bid::Wellington)), RuleError::UnknownBid);
    assert_eq!(refused(&mut deal, 1, Action::Peep).code(), "phase/wrong");
    act(&mut deal, 1, bid(Bid::Misere));
    act(&mut deal, 2, bid(Bid::Nap));
    assert_eq!(deal.legal_actions(Seat(3)), vec![Action::Pass, bid(Bid::Wellington)]);
    let events = act(&mut deal, 3, Action::Pass);
    assert_eq!(events, vec![Event::Passed { seat: Seat(3) }, Event::Declared { seat: Seat(2), bid: Bid::Nap }]);
    assert_eq!((deal.phase(), deal.turn(), deal.declarer()), (Phase::Play, Some(Seat(2)), Some(Seat(2))));
}

#[test]
fn the_auction_stops_at_a_bid_nobody_can_beat() {
    let mut deal = deal_hands(Rules::default(), &FOUR, "", 0);
    act(&mut deal, 0, bid(Bid::Nap));
    act(&mut deal, 1, bid(Bid::Wellington));
    let events = act(&mut deal, 2, bid(Bid::Blucher));
    assert_eq!(events.last(), Some(&Event::Declared { seat: Seat(2), bid: Bid::Blucher }));
    assert_eq!(deal.turn(), Some(Seat(2)), "the dealer is not asked");
    let plain = Rules { wellington: false, ..Rules::default() };
    let mut deal = deal_hands(plain, &FOUR, "", 0);
    act(&mut deal, 0, Action::Pass);
    let events = act(&mut deal, 1, bid(Bid::Nap));
    assert_eq!(events.last(), Some(&Event::Declared { seat: Seat(1), bid: Bid::Nap }));
    let no_misere = Rules { misere: false, ..Rules::default() };
    let deal = deal_hands(no_misere, &FOUR, "", 0);
    assert!(!deal.legal_actions(Seat(0)).contains(&bid(Bid::Misere)));
}

#[test]
fn when_everybody_passes_the_deal_is_thrown_in_or_the_dealer_must_bid() {
    let mut deal = deal_hands(Rules::default(), &FOUR, "", 0);
    for seat in 0..3 {
        act(&mut deal, seat, Action::Pass);
    }
    let events = act(&mut deal, 3, Action::Pass);
    assert_eq!(events[1], Event::ThrownIn);
    assert!(deal.is_over());
    assert_eq!(deal.outcome().and_then(|o| o.made), None);
    assert_eq!(deal.changes(), &[0, 0, 0, 0]);

    let rules = Rules { all_pass: AllPass::DealerBids, ..Rules::default() };
    let mut deal = deal_hands(rules, &FOUR, "", 0);
    for seat in 0..3 {
        act(&mut deal, seat, Action::Pass);
    }
    assert!(!deal.legal_actions(Seat(3)).contains(&Action::Pass));
    assert_eq!(refused(&mut deal, 3, Action::Pass), RuleError::PassNotAllowed);
    act(&mut deal, 3, bid(Bid::Two));
    assert_eq!(deal.declarer(), Some(Seat(3)));
}

#[test]
fn the_first_card_makes_trumps_players_follow_suit_and_play_stops_once_the_bid_is_decided() {
    let hands = ["SA S2 H3 C4 D5", "S3 H2 HA C5 D6", "S4 H4 C2 C3 D7", "S5 H5 H6 C6 D8"];
    let mut deal = deal_hands(Rules::default(), &hands, "", 0);
    act(&mut deal, 0, bid(Bid::Three));
    for seat in 1..4 {
        act(&mut deal, seat, Action::Pass);
    }
    let events = play(&mut deal, 0, "S2");
    assert_eq!(events[1], Event::Trumps { suit: Suit::Spades });
    assert_eq!(deal.trumps(), Some(Suit::Spades));
    assert_eq!(deal.playable(Seat(1)), cards("S3"));
    assert_eq!(
        refused(&mut deal, 1, Action::Play { card: card("HA") }),
        RuleError::MustFollowSuit { suit: Suit::Spades }
    );
    assert_eq!(
        refused(&mut deal, 1, Action::Play { card: card("S4") }),
        RuleError::NotInHand { card: Card::new(Suit::Spades, crate::card::Rank::Four) }
    );
    play(&mut deal, 1, "S3");
    play(&mut deal, 2, "S4");
    let events = play(&mut deal, 3, "S5");
    assert_eq!(events.last(), Some(&Event::TrickTaken { seat: Seat(3) }));
    assert_eq!(deal.turn(), Some(Seat(3)), "the winner leads");
    // Hearts led: seat 0 follows; a void player may trump.
    play(&mut deal, 3, "H5");
    play(&mut deal, 0, "H3");
    play(&mut deal, 1, "HA");
    play(&mut deal, 2, "H4");
    assert_eq!(deal.trick_winners(), &[Seat(3), Seat(1)]);
    play(&mut deal, 1, "C5");
    play(&mut deal, 2, "C2");
    play(&mut deal, 3, "C6");
    let events = play(&mut deal, 0, "C4");
    // Opponents have three tricks: a bid of three can no longer be made.
    assert_eq!(deal.tricks_taken(), (0, 3));
    let Some(Event::DealOver { outcome, scores, .. }) = events.iter().find(|e| matches!(e, Event::DealOver { .. }))
    else {
        panic!("the deal ends: {events:?}")
    };
    assert_eq!(outcome.made, Some(false));
    assert_eq!(scores, &[-9, 3, 3, 3]);
    assert_eq!(deal.hand(Seat(0)).len(), 2, "the rest is not played");
}

#[test]
fn a_nap_pays_ten_from_everyone_and_costs_five_to_each() {
    let hands = ["SA SK SQ SJ S10", "HA HK HQ HJ H10", "CA CK CQ CJ C10", "DA DK DQ DJ D10"];
    let mut deal = deal_hands(Rules::default(), &hands, "", 0);
    act(&mut deal, 0, bid(Bid::Nap));
    for seat in 1..4 {
        act(&mut deal, seat, Action::Pass);
    }
    for lead in ["SA", "SK", "SQ", "SJ", "S10"] {
        play(&mut deal, 0, lead);
        for (seat, hand) in hands.iter().enumerate().skip(1) {
            let c = cards(hand).iter().find(|c| deal.hand(Seat(seat as u8)).contains(*c)).unwrap();
            act(&mut deal, seat as u8, Action::Play { card: c });
        }
    }
    assert_eq!(deal.outcome().and_then(|o| o.made), Some(true));
    assert_eq!(deal.changes(), &[30, -10, -10, -10]);

    let hands = ["SA SK SQ SJ H2", "HA HK HQ HJ H10", "CA CK CQ CJ C10", "DA DK DQ DJ D10"];
    let mut deal = deal_hands(Rules::default(), &hands, "", 0);
    act(&mut deal, 0, bid(Bid::Nap));
    for seat in 1..4 {
        act(&mut deal, seat, Action::Pass);
    }
    play(&mut deal, 0, "H2");
    play(&mut deal, 1, "HA");
    play(&mut deal, 2, "CA");
    let events = play(&mut deal, 3, "DA");
    assert!(events.iter().any(|e| matches!(e, Event::DealOver { .. })), "one lost trick ends a Nap");
    assert_eq!(deal.changes(), &[-15, 5, 5, 5]);
}

#[test]
fn a_misere_has_no_trumps_and_is_lost_with_the_first_trick_taken() {
    let hands = ["S2 S3 H2 H3 C2", "SA SK HA HK CA", "SQ SJ HQ HJ CK", "S10 S9 H10 H9 CQ"];
    let mut deal = deal_hands(Rules::default(), &hands, "", 0);
    act(&mut deal, 0, bid(Bid::Misere));
    for seat in 1..4 {
        act(&mut deal, seat, Action::Pass);
    }
    let events = play(&mut deal, 0, "S2");
    assert!(!events.iter().any(|e| matches!(e, Event::Trumps { .. })));
    assert_eq!(deal.trumps(), None);
    play(&mut deal, 1, "SA");
    play(&mut deal, 2, "SQ");
    play(&mut deal, 3, "S10");
    play(&mut deal, 1, "CA");
    play(&mut deal, 2, "CK");
    play(&mut deal, 3, "CQ");
    let events = play(&mut deal, 0, "C2");
    assert!(!events.iter().any(|e| matches!(e, Event::DealOver { .. })));
    play(&mut deal, 1, "HA");
    play(&mut deal, 2, "HQ");
    play(&mut deal, 3, "H10");
    play(&mut deal, 0, "H3");
    play(&mut deal, 1, "HK");
    play(&mut deal, 2, "HJ");
    play(&mut deal, 3, "H9");
    play(&mut deal, 0, "H2");
    play(&mut deal, 1, "SK");
    play(&mut deal, 2, "SJ");
    play(&mut deal, 3, "S9");
    let events = play(&mut deal, 0, "S3");
    assert!(events.iter().any(|e| matches!(e, Event::DealOver { .. })));
    assert_eq!(deal.changes(), &[9, -3, -3, -3], "five tricks lost: the misère is made");

    let hands = ["SA S3 H2 H3 C2", "S2 SK HA HK CA", "SQ SJ HQ HJ CK", "S10 S9 H10 H9 CQ"];
    let mut deal = deal_hands(Rules::default(), &hands, "", 0);
    act(&mut deal, 0, bid(Bid::Misere));
    for seat in 1..4 {
        act(&mut deal, seat, Action::Pass);
    }
    play(&mut deal, 0, "SA");
    play(&mut deal, 1, "S2");
    play(&mut deal, 2, "SQ");
    let events = play(&mut deal, 3, "S10");
    assert!(events.iter().any(|e| matches!(e, Event::DealOver { .. })));
    assert_eq!(deal.changes(), &[-9, 3, 3, 3]);
}

#[test]
fn the_joker_is_the_highest_trump_and_a_joker_lead_names_trumps() {
    let rules = Rules { joker: true, ..Rules::default() };
    let hands = ["JK SA H2 C2 D2", "HA S2 S3 C3 D3", "HK S4 S5 C4 D4", "HQ S6 S7 C5 D5"];
    let mut deal = deal_hands(rules, &hands, "", 0);
    act(&mut deal, 0, bid(Bid::Three));
    for seat in 1..4 {
        act(&mut deal, seat, Action::Pass);
    }
    let events = play(&mut deal, 0, "JK");
    assert!(!events.iter().any(|e| matches!(e, Event::Trumps { .. })));
    assert_eq!((deal.phase(), deal.turn()), (Phase::NameTrumps, Some(Seat(0))));
    assert!(!GameEngine::leading(&with_deal(deal.clone())), "a card lies on the table");
    assert_eq!(deal.legal_actions(Seat(0)).len(), 4);
    assert_eq!(refused(&mut deal, 1, Action::Play { card: card("HA") }), RuleError::NotYourTurn);
    act(&mut deal, 0, Action::NameTrumps { suit: Suit::Hearts });
    assert_eq!((deal.phase(), deal.turn(), deal.trumps()), (Phase::Play, Some(Seat(1)), Some(Suit::Hearts)));
    assert_eq!(deal.playable(Seat(1)), cards("HA"), "trumps were led");
    play(&mut deal, 1, "HA");
    play(&mut deal, 2, "HK");
    play(&mut deal, 3, "HQ");
    assert_eq!(deal.trick_winners(), &[Seat(0)], "the joker beats the ace of trumps");
    // A plain lead: the joker belongs to the trump suit and may not be played while holding
    // the suit led.
    let rules = Rules { joker: true, ..Rules::default() };
    let hands = ["SA H2 H3 C2 D2", "S2 JK HA C3 D3", "S4 S5 HK C4 D4", "S6 S7 HQ C5 D5"];
    let mut deal = deal_hands(rules, &hands, "", 0);
    act(&mut deal, 0, bid(Bid::Two));
    for seat in 1..4 {
        act(&mut deal, seat, Action::Pass);
    }
    play(&mut deal, 0, "H2");
    assert_eq!(deal.playable(Seat(1)), cards("HA JK"), "the joker is a heart now");
    play(&mut deal, 1, "JK");
    play(&mut deal, 2, "HK");
    play(&mut deal, 3, "HQ");
    assert_eq!(deal.trick_winners(), &[Seat(1)]);
    play(&mut deal, 1, "S2");
    assert_eq!(deal.playable(Seat(2)), cards("S4 S5"));
    assert_eq!(
        refused(&mut deal, 2, Action::Play { card: NapCard::Joker }),
        RuleError::WrongPhase("the joker is not in your hand")
    );
}

#[test]
fn in_a_misere_the_joker_is_the_only_trump() {
    let rules = Rules { joker: true, ..Rules::default() };
    let hands = ["S2 H2 H3 C2 D2", "D6 JK HA C3 D3", "S4 S5 HK C4 D4", "S6 S7 HQ C5 D5"];
    let mut deal = deal_hands(rules, &hands, "", 0);
    act(&mut deal, 0, bid(Bid::Misere));
    for seat in 1..4 {
        act(&mut deal, seat, Action::Pass);
    }
    play(&mut deal, 0, "H2");
    assert_eq!(deal.playable(Seat(1)), cards("HA"), "the joker belongs to no suit");
    play(&mut deal, 1, "HA");
    play(&mut deal, 2, "HK");
    play(&mut deal, 3, "HQ");
    play(&mut deal, 1, "C3");
    play(&mut deal, 2, "C4");
    play(&mut deal, 3, "C5");
    play(&mut deal, 0, "C2");
    play(&mut deal, 3, "S6");
    play(&mut deal, 0, "S2");
    play(&mut deal, 1, "JK");
    let events = play(&mut deal, 2, "S4");
    assert_eq!(events[1], Event::TrickTaken { seat: Seat(1) }, "a void player's joker wins");
    play(&mut deal, 1, "D3");
    play(&mut deal, 2, "D4");
    play(&mut deal, 3, "D5");
    play(&mut deal, 0, "D2");
    play(&mut deal, 3, "S7");
    play(&mut deal, 0, "H3");
    play(&mut deal, 1, "D6");
    let events = play(&mut deal, 2, "S5");
    assert!(events.iter().any(|e| matches!(e, Event::DealOver { .. })));
    assert_eq!(deal.outcome().and_then(|o| o.made), Some(true));
    assert_eq!(deal.trumps(), None);
    assert_eq!(deal.changes(), &[9, -3, -3, -3]);
}

#[test]
fn peeping_costs_a_counter_and_shows_the_widow_to_the_peeper_alone() {
    let rules = Rules { exchange: Exchange::Peep, ..Rules::default() };
    let mut deal = deal_hands(rules, &FOUR, "H2", 0);
    assert_eq!(deal.widow(), Some(card("H2")));
    assert_eq!(deal.stock_len(), 31);
    assert_eq!(deal.legal_actions(Seat(0))[0], Action::Peep);
    let events = act(&mut deal, 0, Action::Peep);
    assert_eq!(events, vec![Event::Peeked { seat: Seat(0), card: Some(card("H2")), pool: 1 }]);
    assert_eq!(events[0].for_viewer(Some(Seat(1))), Event::Peeked { seat: Seat(0), card: None, pool: 1 });
    assert_eq!(deal.view(Some(Seat(0))).widow, Some(card("H2")));
    assert_eq!(deal.view(Some(Seat(1))).widow, None);
    assert_eq!(deal.view(None).widow, None);
    assert_eq!(deal.turn(), Some(Seat(0)), "he still bids or passes");
    assert!(!deal.legal_actions(Seat(0)).contains(&Action::Peep), "once only");
    assert_eq!(refused(&mut deal, 0, Action::Peep).code(), "phase/wrong");
    act(&mut deal, 0, Action::Pass);
    act(&mut deal, 1, bid(Bid::Four));
    act(&mut deal, 2, Action::Pass);
    act(&mut deal, 3, Action::Pass);
    assert_eq!((deal.phase(), deal.turn()), (Phase::Widow, Some(Seat(1))));
    let events = act(&mut deal, 1, Action::TakeWidow);
    assert_eq!(events[0].for_viewer(Some(Seat(2))), Event::WidowTaken { seat: Seat(1), card: None });
    assert_eq!(deal.hand(Seat(1)).len(), 6);
    assert_eq!(deal.legal_actions(Seat(1)).len(), 6);
    assert_eq!(
        refused(&mut deal, 1, Action::Discard { cards: cards("HA HK") }),
        RuleError::DiscardCount { expected: 1 }
    );
    let events = act(&mut deal, 1, Action::Discard { cards: cards("H10") });
    assert_eq!(events[0].for_viewer(None), Event::Discarded { seat: Seat(1), cards: None });
    assert_eq!(deal.hand(Seat(1)), cards("H2 HJ HQ HK HA"));
    assert_eq!(deal.laid_away(Seat(1)), cards("H10"));
    assert_eq!(deal.view(Some(Seat(1))).laid_away, Some(cards("H10")));
    assert_eq!((deal.phase(), deal.turn()), (Phase::Play, Some(Seat(1))));
    assert_eq!(deal.changes(), &[-1, 0, 0, 0]);
    assert_eq!(deal.pool(), 1);
}

#[test]
fn a_purchase_lays_cards_away_and_draws_as_many_from_the_top_of_the_stock() {
    let rules = Rules { exchange: Exchange::Purchase, ..Rules::default() };
    let mut deal = deal_hands(rules, &FOUR, "C2 C3 C4", 0);
    assert_eq!(deal.phase(), Phase::Purchase);
    assert_eq!(deal.legal_actions(Seat(0)).len(), 32, "keep, or any 1 to 5 cards");
    assert_eq!(
        refused(&mut deal, 0, Action::Exchange { cards: NapCards::EMPTY }),
        RuleError::ExchangeTooMany { max: 5 }
    );
    assert_eq!(refused(&mut deal, 0, Action::Exchange { cards: cards("HA") }).code(), "card/not_in_hand");
    act(&mut deal, 0, Action::Keep);
    let events = act(&mut deal, 1, Action::Exchange { cards: cards("H10 HJ") });
    assert_eq!(deal.hand(Seat(1)), cards("C2 C3 HQ HK HA"));
    assert_eq!(deal.laid_away(Seat(1)), cards("H10 HJ"));
    assert_eq!(deal.changes(), &[0, -2, 0, 0]);
    assert_eq!(deal.pool(), 2);
    let Event::Exchanged { count, laid_away, drawn, .. } = events[0].for_viewer(Some(Seat(0))) else { panic!() };
    assert_eq!((count, laid_away, drawn), (2, None, None));
    let Event::Exchanged { drawn, .. } = events[0].for_viewer(Some(Seat(1))) else { panic!() };
    assert_eq!(drawn, Some(cards("C2 C3")));
    act(&mut deal, 2, Action::Keep);
    act(&mut deal, 3, Action::Exchange { cards: cards("D10") });
    assert_eq!(deal.hand(Seat(3)).len(), 5);
    assert!(deal.hand(Seat(3)).contains(card("C4")));
    assert_eq!((deal.phase(), deal.turn()), (Phase::Auction, Some(Seat(0))));
    assert_eq!(deal.bought(), &[Some(0), Some(2), Some(0), Some(1)]);
}

#[test]
fn the_pool_takes_antes_pays_a_made_nap_and_takes_a_lost_naps_penalty() {
    let rules = Rules { pool: true, ..Rules::default() };
    let deal = deal_hands(rules, &FOUR, "", 0);
    assert_eq!((deal.pool(), deal.changes()), (4, &[-1, -1, -1, -1][..]), "an empty pool: everyone antes");
    let mut deal = deal_hands(rules, &FOUR, "", 6);
    assert_eq!((deal.pool(), deal.changes()), (7, &[0, 0, 0, -1][..]), "else the dealer");
    act(&mut deal, 0, bid(Bid::Nap));
    for seat in 1..4 {
        act(&mut deal, seat, Action::Pass);
    }
    for lead in ["SA", "SK", "SQ", "SJ", "S10"] {
        play(&mut deal, 0, lead);
        for seat in 1..4u8 {
            let c = deal.hand(Seat(seat)).iter().next().unwrap();
            act(&mut deal, seat, Action::Play { card: c });
        }
    }
    assert_eq!(deal.outcome().map(|o| o.pool_taken), Some(7));
    assert_eq!((deal.pool(), deal.changes()), (0, &[37, -10, -10, -11][..]));

    let hands = ["SA SK SQ SJ H2", "HA HK HQ HJ H10", "CA CK CQ CJ C10", "DA DK DQ DJ D10"];
    let mut deal = deal_hands(rules, &hands, "", 6);
    act(&mut deal, 0, bid(Bid::Nap));
    for seat in 1..4 {
        act(&mut deal, seat, Action::Pass);
    }
    for (seat, c) in [(0, "H2"), (1, "HA"), (2, "CA"), (3, "DA")] {
        play(&mut deal, seat, c);
    }
    assert_eq!(deal.outcome().map(|o| o.pool_paid), Some(5));
    assert_eq!((deal.pool(), deal.changes()), (12, &[-20, 5, 5, 4][..]));
}

/// A series around a deal, for the interface's trick methods.
fn with_deal(deal: Deal) -> Series {
    let (mut series, _) = Series::new(deal.rules, Seed::from_u64(0)).unwrap();
    series = serde_json::from_value({
        let mut json = serde_json::to_value(&series).unwrap();
        json["deal"] = serde_json::to_value(&deal).unwrap();
        json
    })
    .unwrap();
    series
}

#[test]
fn a_series_passes_the_deal_to_the_left_carries_the_pool_and_ends_after_its_deals() {
    let rules = Rules { deals: Some(3), pool: true, ..Rules::default() };
    let (mut series, _) = <Series as GameEngine>::start(rules, Seed::from_u64(5)).unwrap();
    assert_eq!(series.deal().dealer(), Seat(3));
    assert_eq!(GameEngine::next_deal(&mut series), Err(RuleError::DealNotOver));
    for deal in 1..=3u8 {
        while let Some(seat) = GameEngine::turn(&series) {
            GameEngine::apply(&mut series, seat, Action::Pass).unwrap();
        }
        assert!(GameEngine::deal_over(&series));
        assert_eq!(GameEngine::rows(&series), deal as usize);
        if deal < 3 {
            GameEngine::next_deal(&mut series).unwrap();
            assert_eq!(series.deal().dealer(), Seat((3 + deal) % 4));
        }
    }
    assert!(GameEngine::series_over(&series));
    assert_eq!(series.pool(), 6, "antes of 4, then 1, then 1");
    assert_eq!(GameEngine::totals(&series), &[-2, -2, -1, -1]);
    assert_eq!(GameEngine::next_deal(&mut series), Err(RuleError::SeriesOver));
    assert!(GameEngine::legal_actions(&series, Seat(0)).is_empty());
}

// ---------------------------------------------------------------------------------------------
// Random deals through the game interface.

/// A small deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n.max(1) as u64) as usize
    }
}

/// Every option set: players × pack × joker × exchange × pool × all-pass, with the optional
/// bids rotated through.
fn option_sets() -> Vec<Rules> {
    let mut out = Vec::new();
    for players in MIN_PLAYERS..=MAX_PLAYERS {
        for pack in [PackChoice::Full, PackChoice::Stripped] {
            for joker in [false, true] {
                for exchange in [Exchange::Off, Exchange::Peep, Exchange::Purchase] {
                    for pool in [false, true] {
                        for all_pass in [AllPass::ThrowIn, AllPass::DealerBids] {
                            let k = out.len();
                            out.push(Rules {
                                players,
                                pack,
                                joker,
                                exchange,
                                pool,
                                all_pass,
                                misere: k % 3 != 1,
                                wellington: k % 4 != 2,
                                blucher: k % 5 != 3,
                                deals: Some(12),
                            });
                        }
                    }
                }
            }
        }
    }
    out
}

/// The cards `viewer` may know now: his own (dealt, held, laid away), the widow if he peeped
/// or took it, and every card played.
fn known(deal: &Deal, viewer: Option<Seat>) -> NapCards {
    let played: NapCards = deal.plays().iter().map(|p| p.card).collect();
    let Some(v) = viewer else { return played };
    let mut known = played.union(deal.dealt_hand(v)).union(deal.hand(v)).union(deal.laid_away(v));
    let took = deal.took_widow() == Some(true) && deal.declarer() == Some(v);
    if let Some(widow) = deal.widow().filter(|_| deal.peeked()[v.index()] || took) {
        known.insert(widow);
    }
    known
}

/// Every card named anywhere in a JSON value.
fn cards_in(value: &Value, out: &mut NapCards) {
    match value {
        Value::String(s) => {
            if let Ok(card) = s.parse::<NapCard>() {
                out.insert(card);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| cards_in(v, out)),
        Value::Object(map) => map.values().for_each(|v| cards_in(v, out)),
        _ => {}
    }
}

/// Every seat, then a spectator.
fn viewers(n: usize) -> Vec<Option<Seat>> {
    (0..n as u8).map(|s| Some(Seat(s))).chain([None]).collect()
}

fn assert_hides(what: &str, value: &Value, known: NapCards) {
    let mut named = NapCards::EMPTY;
    cards_in(value, &mut named);
    let leaked = named.difference(known);
    assert!(leaked.is_empty(), "{what} shows {leaked:?}, which the viewer may not see: {value}");
}

/// Actions to try besides the listed ones: every call, every card played or discarded, some
/// purchases, every trump suit.
fn candidates(deal: &Deal, rng: &mut Rng) -> Vec<Action> {
    let mut out = vec![Action::Keep, Action::Peep, Action::Pass, Action::TakeWidow];
    out.extend(Bid::ALL.map(|bid| Action::Bid { bid }));
    out.extend(Suit::ALL.map(|suit| Action::NameTrumps { suit }));
    let pack = Deal::pack(deal.rules());
    for &card in &pack {
        out.push(Action::Play { card });
        out.push(Action::Discard { cards: std::iter::once(card).collect() });
    }
    out.push(Action::Play { card: NapCard::Joker });
    for size in 0..=6 {
        let cards: NapCards = (0..size).map(|_| pack[rng.below(pack.len())]).collect();
        out.push(Action::Exchange { cards });
        out.push(Action::Discard { cards });
    }
    out
}

/// Plays a series of random legal actions, checking at every step: accepted exactly when
/// listed, a refusal changes nothing, every card in one place, the tricks counted, the counters
/// zero-sum, the views and redacted events hide what they must, the state restores from JSON.
/// Returns the number of deals played.
fn play_series(rules: Rules, seed: u64, thorough: bool, rng: &mut Rng, seen: &mut BTreeSet<String>) -> u32 {
    let (mut game, events) = <Series as GameEngine>::start(rules, Seed::from_u64(seed)).expect("valid rules");
    let n = GameEngine::seats(&game);
    assert_eq!(n, usize::from(rules.players));
    let seats: Vec<Seat> = (0..n as u8).map(Seat).collect();
    let pack: NapCards = Deal::pack(&rules).into_iter().collect();
    for v in viewers(n) {
        for event in &events {
            assert_hides(
                "the first deal",
                &serde_json::to_value(Series::redact(event, v)).unwrap(),
                known(game.deal(), v),
            );
        }
    }
    let mut rows: Vec<String> = Vec::new();
    let mut deals = 1;
    for _step in 0..10_000 {
        if GameEngine::series_over(&game) {
            assert!(seats.iter().all(|&s| GameEngine::legal_actions(&game, s).is_empty()));
            return deals;
        }
        if GameEngine::deal_over(&game) {
            let events = GameEngine::next_deal(&mut game).expect("the next deal");
            deals += 1;
            for v in viewers(n) {
                for event in &events {
                    let json = serde_json::to_value(Series::redact(event, v)).unwrap();
                    assert_hides("a new deal", &json, known(game.deal(), v));
                }
            }
            continue;
        }
        let deal = game.deal();
        // Every card in exactly one place.
        let places = deal.card_places();
        let total: usize = places.iter().map(|p| p.len()).sum();
        let union = places.iter().fold(NapCards::EMPTY, |a, &b| a.union(b));
        assert_eq!((total, union), (pack.len(), pack), "every card once");
        // Tricks counted.
        assert_eq!(deal.trick_winners().len() * n + deal.current_trick().len(), deal.plays().len());
        assert_eq!(GameEngine::trick_in_progress(&game), !deal.current_trick().is_empty());
        // Zero-sum.
        assert_eq!(GameEngine::totals(&game).iter().sum::<i32>() + game.pool(), 0);
        assert!(game.pool() >= 0);

        let listed: Vec<Vec<Action>> = seats.iter().map(|&s| GameEngine::legal_actions(&game, s)).collect();
        let turn = GameEngine::turn(&game).expect("a deal in progress waits for someone");
        assert!(!listed[turn.index()].is_empty(), "the seat to act has something to do");
        assert!(listed.iter().enumerate().all(|(i, l)| l.is_empty() || i == turn.index()), "nothing out of turn");
        let mut tried = listed[turn.index()].clone();
        if thorough {
            tried.extend(candidates(deal, rng));
        } else {
            let extra = candidates(deal, rng);
            tried.extend((0..4).map(|_| extra[rng.below(extra.len())]));
        }
        let check_seats: Vec<Seat> = if thorough { seats.clone() } else { vec![turn, turn.next(n as u8)] };
        for &seat in &check_seats {
            for &action in &tried {
                let allowed = listed[seat.index()].contains(&action);
                let checked = GameEngine::check(&game, seat, action);
                assert_eq!(checked.is_ok(), allowed, "{seat:?} {action:?}: {checked:?}");
                if !allowed {
                    let mut copy = game.clone();
                    assert_eq!(GameEngine::apply(&mut copy, seat, action), Err(checked.unwrap_err()));
                    assert_eq!(copy, game, "a refused action changed the game");
                }
            }
        }
        // The views hide what they must; the prompt lists what may be done.
        if thorough {
            for v in viewers(n) {
                let view = GameEngine::view(&game, v);
                assert_hides("a view", &serde_json::to_value(&view).unwrap(), known(deal, v));
                let expected = v.map_or_else(Prompt::default, |s| Prompt::from_actions(&listed[s.index()]));
                assert_eq!(view.deal.prompt, expected);
                assert_eq!(GameEngine::view_without_rows(&game, v).deal, view.deal);
            }
            // The state restores from its JSON.
            let json = serde_json::to_string(&game).unwrap();
            assert_eq!(serde_json::from_str::<Series>(&json).unwrap(), game);
        }

        let actions = &listed[turn.index()];
        let action = actions[rng.below(actions.len())];
        let before = game.deal().clone();
        let events = GameEngine::apply(&mut game, turn, action).expect("a listed action is accepted");
        assert!(!events.is_empty());
        for event in &events {
            let json = serde_json::to_value(event).unwrap();
            seen.insert(json["event"].as_str().unwrap_or_default().to_owned());
            if let Event::DealOver { outcome, .. } = event {
                seen.insert(format!("{:?} {:?}", outcome.bid, outcome.made));
            }
        }
        for v in viewers(n) {
            for event in &events {
                let json = serde_json::to_value(Series::redact(event, v)).unwrap();
                assert_hides("an event", &json, known(game.deal(), v));
            }
        }
        let deal = game.deal();
        if let Some(outcome) = deal.outcome() {
            check_settlement(&before, deal, outcome);
            let row = &game.scoresheet()[game.scoresheet().len() - 1];
            assert_eq!(row.totals, GameEngine::totals(&game));
            assert_eq!(row.scores, deal.changes());
            assert!(events.iter().any(|e| matches!(e, Event::Scored { .. })));
        }
        let now: Vec<String> = (0..GameEngine::rows(&game)).map(|i| GameEngine::row_json(&game, i).unwrap()).collect();
        assert!(now.starts_with(&rows), "a row of the scoresheet changed");
        rows = now;
        if rows.len() > 2 {
            let trimmed = GameEngine::with_rows_from(&game, 2);
            assert_eq!(GameEngine::rows(&trimmed), rows.len() - 2);
            assert_eq!(GameEngine::view_from_row(&game, None, 2), GameEngine::view(&trimmed, None));
        }
    }
    panic!("{rules:?} did not finish");
}

/// The settlement of a finished deal, computed afresh from its outcome.
fn check_settlement(before: &Deal, deal: &Deal, outcome: &Outcome) {
    let n = usize::from(deal.players());
    let (d, o) = deal.tricks_taken();
    assert_eq!((outcome.declarer_tricks, outcome.opponent_tricks), (d, o));
    let mut expected = before.changes().to_vec();
    let mut pool = before.pool();
    match (outcome.declarer, outcome.bid, outcome.made) {
        (Some(declarer), Some(bid), Some(made)) => {
            if bid.is_misere() {
                assert_eq!(made, d == 0);
                assert!(!made || d + o == 5);
                assert_eq!(outcome.trumps, None);
            } else {
                assert_eq!(made, d >= bid.tricks());
                assert!(made || o > 5 - bid.tricks());
                assert!(d + o <= 5);
            }
            let stake = if made { bid.won() } else { -bid.lost() };
            for (i, e) in expected.iter_mut().enumerate() {
                *e += if i == declarer.index() { stake * (n as i32 - 1) } else { -stake };
            }
            if bid.is_five() && made {
                expected[declarer.index()] += pool;
                pool = 0;
            } else if bid.is_five() && deal.rules().pool {
                expected[declarer.index()] -= bid.lost();
                pool += bid.lost();
            }
        }
        (None, None, None) => assert!(deal.calls().iter().all(|c| c.bid.is_none())),
        other => panic!("an outcome half filled: {other:?}"),
    }
    assert_eq!(deal.changes(), expected.as_slice());
    assert_eq!(deal.pool(), pool);
}

#[test]
fn thousands_of_random_deals_keep_every_invariant_for_every_player_count_and_option_set() {
    let mut rng = Rng(2024);
    let mut deals = 0;
    let mut seen = BTreeSet::new();
    for (i, rules) in option_sets().into_iter().enumerate() {
        rules.validate().unwrap_or_else(|e| panic!("{rules:?}: {e}"));
        deals += play_series(rules, i as u64, false, &mut rng, &mut seen);
        deals += play_series(Rules { deals: Some(1), ..rules }, 10_000 + i as u64, true, &mut rng, &mut seen);
    }
    assert!(deals >= 3_000, "{deals} deals");
    // The random play reached every kind of event and every bid, made and lost.
    for kind in [
        "kept",
        "exchanged",
        "peeked",
        "passed",
        "bid",
        "thrown_in",
        "declared",
        "widow_taken",
        "widow_left",
        "discarded",
        "trumps",
        "card_played",
        "trick_taken",
        "deal_over",
        "scored",
        "series_over",
    ] {
        assert!(seen.contains(kind), "no {kind} in {seen:?}");
    }
    for bid in Bid::ALL {
        for made in [true, false] {
            let key = format!("{:?} {:?}", Some(bid), Some(made));
            assert!(seen.contains(&key), "no {key} in {seen:?}");
        }
    }
}
