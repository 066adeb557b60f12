//! Thedinghausen Fipsen: the required legality test of §C5 word for word, every row of the
//! §C6 settlement table, and the follow rules (overtrump, else trump; heading by option).
//! Seats: A = 0, B = 1, C = 2, D = 3, E = 4; seat 4 deals, so A is forehand and leads.

#![allow(clippy::unwrap_used)]

use crate::thedinghausen_common;

use fipsen_rules::thedinghausen::{Action, Deal, Event, FipsenResult, Phase, Round, Rules, Series};
use fipsen_rules::{RuleError, Seat, Seed, Suit};
use thedinghausen_common::{arrange, cards, find, round, run};

const A: Seat = Seat(0);
const B: Seat = Seat(1);
const C: Seat = Seat(2);
const D: Seat = Seat(3);
const E: Seat = Seat(4);

fn no_fipsen() -> Rules {
    Rules { fipsen: false, ..Rules::default() }
}

/// Trumps ♥ (the turned ♥7): A leads ♣10, B (no club) plays ♥J, then C with `c_hand`.
fn club_ten_trumped(b_hand: &str, c_hand: &str, unused: &str) -> Deal {
    let hands = ["C10 C9 C8 S7 D7", b_hand, c_hand, "CA CK CQ CJ C7", "SQ SJ S10 DQ DJ"];
    let mut deal = arrange(no_fipsen(), 4, &hands, "H7", unused, Round::first());
    run(&mut deal, &["0 play C10", "1 play HJ"]);
    deal
}

fn playable(deal: &Deal) -> Vec<String> {
    deal.playable(C).iter().map(|c| c.to_string()).collect()
}

#[test]
fn c5_a_void_player_who_can_overtrump_must_play_the_higher_trump() {
    // Holding ♥Q ♥9 ♠8 he must play ♥Q.
    let deal = club_ten_trumped("HJ SA SK DA DK", "HQ H9 S8 S9 D8", "HA HK H10 H8 D10 D9");
    assert_eq!(deal.playable(C), cards("HQ"));
    assert_eq!(
        deal.check(C, Action::Play { card: "H9".parse().unwrap() }),
        Err(RuleError::MustTrump { trumps: Suit::Hearts })
    );
    assert_eq!(
        deal.check(C, Action::Play { card: "S8".parse().unwrap() }),
        Err(RuleError::MustTrump { trumps: Suit::Hearts })
    );
    assert_eq!(RuleError::MustTrump { trumps: Suit::Hearts }.code(), "play/must_trump");
}

#[test]
fn c5_a_void_player_who_cannot_overtrump_must_still_trump() {
    // Holding ♥9 ♠8 he must play ♥9.
    let deal = club_ten_trumped("HJ SA SK DA DK", "H9 S8 S9 D8 D10", "HA HK HQ H10 H8 D9");
    assert_eq!(playable(&deal), ["H9"]);
    assert!(deal.check(C, Action::Play { card: "S8".parse().unwrap() }).is_err());
}

#[test]
fn c5_a_void_player_without_trumps_may_play_any_card() {
    // Holding ♠8 ♦K he may play either.
    let deal = club_ten_trumped("HJ SA SK DA D9", "S8 DK S9 D8 D10", "HA HK HQ H10 H9 H8");
    assert_eq!(deal.playable(C), cards("S8 DK S9 D8 D10"));
    assert!(deal.check(C, Action::Play { card: "S8".parse().unwrap() }).is_ok());
    assert!(deal.check(C, Action::Play { card: "DK".parse().unwrap() }).is_ok());
}

#[test]
fn a_player_who_can_follow_suit_must_and_need_not_head_without_the_option() {
    // A leads ♠7 here; C follows with any spade, not a trump.
    let hands = ["C10 C9 C8 S7 D7", "HJ SA SK DA DK", "HQ H9 S8 S9 D8", "CA CK CQ CJ C7", "SQ SJ S10 DQ DJ"];
    let mut deal = arrange(no_fipsen(), 4, &hands, "H7", "HA HK H10 H8 D10 D9", Round::first());
    run(&mut deal, &["0 play S7", "1 play SA"]);
    assert_eq!(deal.playable(C), cards("S8 S9"));
    assert_eq!(
        deal.check(C, Action::Play { card: "HQ".parse().unwrap() }),
        Err(RuleError::MustFollowSuit { suit: Suit::Spades })
    );
}

#[test]
fn with_head_the_trick_a_follower_must_beat_the_best_card_of_the_suit_led_if_he_can() {
    let rules = Rules { head_the_trick: true, ..no_fipsen() };
    let hands = ["C10 C9 C8 S7 D7", "HJ SA SK DA DK", "HQ H9 S8 S9 D8", "CA CK CQ CJ C7", "SQ SJ S10 DQ DJ"];
    let mut deal = arrange(rules, 4, &hands, "H7", "HA HK H10 H8 D10 D9", Round::first());
    run(&mut deal, &["0 play S7"]);
    // B must beat ♠7: any of his spades does.
    assert_eq!(deal.playable(B), cards("SA SK"));
    run(&mut deal, &["1 play SK"]);
    // C cannot beat ♠K: any spade.
    assert_eq!(deal.playable(C), cards("S8 S9"));
    let mut deal = arrange(rules, 4, &hands, "H7", "HA HK H10 H8 D10 D9", Round::first());
    run(&mut deal, &["0 play D7", "1 play DK"]);
    assert_eq!(deal.playable(C), cards("D8"));
    run(&mut deal, &["2 play D8", "3 play CA"]);
    // E holds ♦Q ♦J, neither beats ♦K: either.
    assert_eq!(deal.playable(E), cards("DQ DJ"));
    assert_eq!(RuleError::MustHead.code(), "play/must_head");
}

#[test]
fn with_head_the_trick_a_trump_lead_must_be_headed_too() {
    let rules = Rules { head_the_trick: true, ..no_fipsen() };
    let hands = ["H9 C9 C8 S7 D7", "HJ SA SK DA DK", "HQ H10 S8 S9 D8", "CA CK CQ CJ C7", "SQ SJ S10 DQ DJ"];
    let mut deal = arrange(rules, 4, &hands, "H7", "HA HK C10 H8 D10 D9", Round::first());
    run(&mut deal, &["0 play H9", "1 play HJ"]);
    assert_eq!(deal.playable(C), cards("HQ"));
    assert_eq!(deal.check(C, Action::Play { card: "H10".parse().unwrap() }), Err(RuleError::MustHead));
}

fn winners_start(deal: &Deal, start: &[Seat]) -> bool {
    deal.trick_winners().starts_with(start)
}

fn fipsen_result(deal: &Deal) -> Option<FipsenResult> {
    deal.fipsen().map(|f| f.result)
}

/// What each seat won or lost over the round: the antes when it began, and the deal's changes.
fn round_net(deal: &Deal, anted_before: bool) -> Vec<i32> {
    deal.changes().iter().map(|c| c - if anted_before { 1 } else { 0 }).collect()
}

#[test]
fn c6_the_round_ends_at_the_trick_that_brings_a_player_to_ten() {
    // A, D at 8 and 9; trick 1 to A (9), trick 2 to D (10): D wins at trick 2, tricks 3–5 are
    // not played. Round: D +4, A B C E −1 each.
    let (deal, events) =
        find(no_fipsen(), round([8, 0, 0, 9, 0], 5, false), None, &[], |d, _| winners_start(d, &[A, D]));
    assert_eq!(deal.counts(), [9, 0, 0, 10, 0]);
    assert_eq!(deal.round_won(), Some(D));
    assert_eq!(deal.plays().len(), 10, "tricks 3 to 5 are not played");
    assert!(deal.hand(A).len() == 3 && deal.phase() == Phase::Over);
    assert!(events.contains(&Event::RoundWon { seat: D, round: 1, pot: 5 }));
    assert_eq!(round_net(&deal, true), [-1, -1, -1, 4, -1]);
    assert_eq!(deal.pot(), 0);
}

#[test]
fn c6_a_won_fipsen_counts_ten_and_wins_the_round() {
    // B at 3 announces fipsen and takes all five: credited 10 → 13, wins; +4, the others −1.
    let (deal, events) = find(Rules::default(), round([0, 3, 0, 0, 0], 0, true), Some(B), &[B], |d, _| {
        fipsen_result(d) == Some(FipsenResult::Won)
    });
    assert_eq!(deal.counts()[1], 13);
    assert_eq!(deal.round_won(), Some(B));
    assert!(events.contains(&Event::FipsenWon { seat: B, count: 13 }));
    assert_eq!(deal.changes(), [-1, 4, -1, -1, -1]);
}

#[test]
fn c6_a_broken_fipsen_pays_five_into_the_pot_and_the_deal_goes_on_and_another_takes_the_pot() {
    // C announces; trick 1 to C, trick 2 to A: C pays 5 at trick 2 (pot 10), the deal goes
    // on; later in that round E reaches 10 and takes the pot of 10: E +9, C −6, A B D −1.
    let (deal, events) =
        find(Rules::default(), round([0, 0, 0, 0, 9], 0, true), Some(C), &[C], |d, _| winners_start(d, &[C, A, E]));
    let lost = events.iter().position(|e| *e == Event::FipsenLost { seat: C, penalty: 5, pot: 10 }).expect("lost");
    let trick_two = events.iter().enumerate().filter(|(_, e)| matches!(e, Event::TrickTaken { .. })).nth(1).unwrap().0;
    assert_eq!(lost, trick_two + 1, "the penalty is paid at trick 2");
    assert_eq!(fipsen_result(&deal), Some(FipsenResult::Lost));
    assert_eq!(deal.plays().len(), 15, "the deal went on after trick 2");
    assert_eq!(deal.round_won(), Some(E));
    assert_eq!(deal.changes(), [-1, -1, -6, -1, 9]);
    assert_eq!(deal.changes().iter().sum::<i32>() + deal.pot(), 0);
}

#[test]
fn c6_a_broken_fipsen_in_a_round_the_announcer_wins_later() {
    // … or C himself reaches 10 later in that round: C +4, A B D E −1.
    let (deal, _) =
        find(Rules::default(), round([0, 0, 8, 0, 0], 0, true), Some(C), &[C], |d, _| winners_start(d, &[C, A, C]));
    assert_eq!(fipsen_result(&deal), Some(FipsenResult::Lost));
    assert_eq!(deal.round_won(), Some(C));
    assert_eq!(deal.changes(), [-1, -1, 4, -1, -1]);
}

#[test]
fn c6_an_announcer_who_reaches_ten_with_ordinary_tricks_wins_without_penalty_or_bonus() {
    // D at 8 announces fipsen, takes tricks 1 and 2: wins the round at once.
    let (deal, events) =
        find(Rules::default(), round([0, 0, 0, 8, 0], 5, false), Some(D), &[D], |d, _| winners_start(d, &[D, D]));
    assert_eq!(deal.round_won(), Some(D));
    assert_eq!(deal.plays().len(), 10);
    assert_eq!(fipsen_result(&deal), Some(FipsenResult::Void));
    assert!(events.contains(&Event::FipsenVoid { seat: D }));
    assert_eq!(deal.changes(), [0, 0, 0, 5, 0], "no penalty, no bonus: the pot of the antes");
}

#[test]
fn c6_a_fipsen_still_running_when_the_round_ends_is_void() {
    // E at 6 announces fipsen and wins tricks 1–4: E reaches 10 at trick 4; trick 5 is not
    // played; the fipsen is void.
    let (deal, _) =
        find(Rules::default(), round([0, 0, 0, 0, 6], 5, false), Some(E), &[E], |d, _| winners_start(d, &[E, E, E, E]));
    assert_eq!(deal.counts()[4], 10);
    assert_eq!(deal.plays().len(), 20, "trick 5 is not played");
    assert_eq!(fipsen_result(&deal), Some(FipsenResult::Void));
    assert_eq!(deal.changes(), [0, 0, 0, 0, 5]);
}

#[test]
fn c6_a_deal_in_which_nobody_reaches_ten_continues_the_round() {
    // Nobody announces; the deal ends with A 9, B 9, C 7, D 8, E 6: the next deal continues.
    let (deal, _) =
        find(Rules::default(), round([8, 7, 6, 7, 6], 5, false), None, &[], |d, _| d.tricks_taken() == [1, 2, 1, 1, 0]);
    assert_eq!(deal.counts(), [9, 9, 7, 8, 6]);
    assert_eq!(deal.round_won(), None);
    assert_eq!(deal.changes(), [0; 5]);
    let next = deal.next_round();
    assert_eq!((next.counts, next.pot, next.fresh, next.number), ([9, 9, 7, 8, 6], 5, false, 1));
}

#[test]
fn c5_a_trick_that_breaks_a_fipsen_and_ends_the_round_takes_the_penalty_first() {
    let (deal, events) =
        find(Rules::default(), round([9, 0, 0, 0, 0], 0, true), Some(C), &[A], |d, _| winners_start(d, &[A]));
    let lost = events.iter().position(|e| matches!(e, Event::FipsenLost { .. })).expect("lost");
    let won = events.iter().position(|e| matches!(e, Event::RoundWon { .. })).expect("won");
    assert!(lost < won);
    assert!(events.contains(&Event::RoundWon { seat: A, round: 1, pot: 10 }));
    assert_eq!(deal.changes(), [9, -1, -6, -1, -1]);
}

#[test]
fn the_first_announcement_ends_the_announcements_and_forehand_leads() {
    let (mut deal, _) = Deal::new(Rules::default(), 1, Seat(4), Seed::from_u64(7), Round::first());
    run(&mut deal, &["0 pass", "1 pass", "2 fipsen"]);
    assert_eq!(deal.phase(), Phase::Play);
    assert_eq!(deal.turn(), Some(A));
    assert!(deal.legal_actions(D).is_empty());
    let (mut deal, _) = Deal::new(Rules::default(), 1, Seat(4), Seed::from_u64(7), Round::first());
    run(&mut deal, &["0 pass", "1 pass", "2 pass", "3 pass", "4 pass"]);
    assert_eq!((deal.phase(), deal.turn(), deal.fipsen()), (Phase::Play, Some(A), None));
    let (deal, _) = Deal::new(no_fipsen(), 1, Seat(4), Seed::from_u64(7), Round::first());
    assert_eq!(deal.phase(), Phase::Play);
    assert_eq!(deal.check(A, Action::Fipsen), Err(RuleError::WrongPhase("the cards are being played: play a card")));
}

#[test]
fn a_series_rotates_the_deal_carries_the_round_and_starts_a_new_one_with_fresh_antes() {
    let (mut series, _) = Series::new(Rules { rounds: Some(2), ..Rules::default() }, Seed::from_u64(3)).unwrap();
    let mut rng = thedinghausen_common::Rng(3);
    let mut dealers = Vec::new();
    while !series.is_over() {
        if series.deal().is_over() {
            let before = series.deal().next_round();
            series.next_deal().unwrap();
            assert_eq!(series.deal().round(), before);
        }
        dealers.push(series.deal().dealer().0);
        while let Some(seat) = series.deal().turn() {
            let legal = series.legal_actions(seat);
            let action = thedinghausen_common::choose(series.deal(), seat, &legal, &mut rng);
            series.apply(seat, action).unwrap();
            assert_eq!(series.totals().iter().sum::<i32>() + series.pot(), 0);
        }
    }
    for pair in dealers.windows(2) {
        assert_eq!(pair[1], (pair[0] + 1) % 5, "the deal passes clockwise after every deal");
    }
    assert_eq!(series.slips().iter().sum::<u32>(), 2);
    assert_eq!(series.next_deal(), Err(RuleError::SeriesOver));
    assert_eq!(Rules { rounds: Some(0), ..Rules::default() }.validate(), Err(fipsen_rules::RuleSetError::NoRounds));
}
