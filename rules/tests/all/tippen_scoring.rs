//! Tippen: the worked examples of §D7, each as a test, and the legality table of §D6 word for
//! word (trumps ♥). Seats A B C D are 0 1 2 3.

use crate::tippen_common;

use fipsen_rules::tippen::{Action, Carry, Deal, Event, Phase, Preset, Rules, Sniffing};
use fipsen_rules::{CardSet, RuleError, RuleSetError, Seat, Suit};
use tippen_common::{arrange, cards, find, run};

const A: Seat = Seat(0);
const B: Seat = Seat(1);
const C: Seat = Seat(2);
const D: Seat = Seat(3);

fn carry(pot: i32) -> Carry {
    Carry { pot, reserve: 0 }
}

/// Answers: who passes (everyone else joins), the dealer's knock and sniff, everyone keeps.
fn answers(
    passers: &'static [Seat],
    knock: bool,
    sniff: bool,
    drop_out: bool,
) -> impl Fn(&Deal, Seat) -> Option<Action> {
    move |deal, seat| {
        Some(match deal.phase() {
            Phase::Shove => Action::Deal,
            Phase::Knock => {
                if knock {
                    Action::Knock
                } else {
                    Action::NoKnock
                }
            }
            Phase::Sniff => {
                if sniff {
                    Action::Sniff
                } else {
                    Action::NoSniff
                }
            }
            Phase::Discard => return None,
            Phase::Decide if seat == deal.dealer() && drop_out => Action::DropOut,
            Phase::Decide if passers.contains(&seat) => Action::Pass,
            Phase::Decide => Action::Join,
            Phase::Exchange => Action::Keep,
            Phase::Play | Phase::Over => return None,
        })
    }
}

fn tricks_are(expected: [u8; 4]) -> impl Fn(&Deal, &[Event]) -> bool {
    move |deal, _| deal.tricks_taken() == expected
}

fn settled(deal: &Deal, changes: [i32; 4], pot: i32) {
    assert!(deal.is_over());
    assert_eq!(deal.changes(), changes, "balance changes");
    assert_eq!(deal.pot(), pot, "pot after");
    let sum: i32 = deal.changes().iter().sum();
    assert_eq!(sum + deal.pot() + deal.reserve(), deal.carry().total(), "nothing made or lost");
}

#[test]
fn example_01_meyers_all_must_play_on_the_stake() {
    let rules = Rules::preset(Preset::Meyers1905, 4);
    let (deal, events) = find(rules, 3, carry(0), &answers(&[], false, false, false), tricks_are([2, 1, 0, 0]));
    assert!(!events.iter().any(|e| matches!(e, Event::Decided { .. })), "nobody is asked");
    assert_eq!(deal.played_for(), 3);
    settled(&deal, [2, 1, -3, -6], 6);
}

#[test]
fn example_02_meyers_with_a_bete_in_the_pot_the_bete_is_the_pot() {
    let rules = Rules::preset(Preset::Meyers1905, 4);
    let (deal, _) = find(rules, 0, carry(6), &answers(&[C], false, false, false), tricks_are([0, 1, 0, 2]));
    assert_eq!(deal.active(), [B, D, A]);
    assert_eq!(deal.played_for(), 9);
    settled(&deal, [-12, 3, 0, 6], 9);
}

#[test]
fn example_03_grupp_the_bete_is_the_stake() {
    let rules = Rules::preset(Preset::ModernGrupp, 4);
    let (deal, _) = find(rules, 0, carry(6), &answers(&[C], false, false, false), tricks_are([0, 1, 0, 2]));
    settled(&deal, [-6, 3, 0, 6], 3);
}

#[test]
fn example_04_katira_everyone_passes_the_deal_is_void() {
    let rules = Rules::preset(Preset::ModernKatira, 4);
    let (deal, _) = find(rules, 1, carry(9), &answers(&[A, B, C, D], false, false, false), |_, _| true);
    assert!(deal.outcome().expect("over").void);
    assert!(deal.plays().is_empty());
    settled(&deal, [0, -3, 0, 0], 12);
}

#[test]
fn example_05_katira_a_single_player_takes_the_pot() {
    let rules = Rules::preset(Preset::ModernKatira, 4);
    let (deal, _) = find(rules, 2, carry(12), &answers(&[A, B, C], false, false, false), |_, _| true);
    assert_eq!(deal.outcome().expect("over").alone, Some(D));
    assert!(deal.plays().is_empty(), "nothing is played");
    settled(&deal, [0, 0, -3, 15], 0);
}

#[test]
fn example_06_1859_maximum_bete_and_reserve() {
    let rules = Rules { max_bete: Some(12), ..Rules::preset(Preset::Dreiblatt1859, 3) };
    let (deal, _) = find(rules, 2, carry(15), &answers(&[], false, false, false), |d, _| d.tricks_taken() == [1, 2, 0]);
    assert_eq!((deal.played_for(), deal.reserve()), (12, 6));
    assert_eq!(deal.changes(), [4, 8, -15]);
    assert_eq!((deal.pot(), deal.reserve()), (12, 6));
    assert_eq!(deal.changes().iter().sum::<i32>() + deal.pot() + deal.reserve(), 15);
}

/// `max_pot`: the bêtes that would lift the middle above the limit are cut in the same
/// proportion. D deals with 9 in the middle and a limit of 12: P 12, every one asked and
/// playing; A 2 tricks and B 1 take 8 and 4, the pot is empty; C and D owe 12 each, 24 in all,
/// where 12 fit: each pays 6.
#[test]
fn max_pot_cuts_the_betes_that_would_lift_the_middle_above_it() {
    let rules = Rules { max_pot: 12, ..Rules::preset(Preset::Meyers1905, 4) };
    let (deal, events) = find(rules, 3, carry(9), &answers(&[], false, false, false), tricks_are([2, 1, 0, 0]));
    assert_eq!(deal.played_for(), 12);
    let paid: Vec<(Seat, i32)> = events
        .iter()
        .filter_map(|e| match e {
            Event::Settled { seat, paid, .. } => Some((*seat, *paid)),
            _ => None,
        })
        .collect();
    assert_eq!(paid, [(A, 0), (B, 0), (C, 6), (D, 6)]);
    settled(&deal, [8, 4, -6, -9], 12);
}

/// A full middle takes no ante: the dealer pays nothing and the deal is played for the limit.
#[test]
fn max_pot_a_full_middle_takes_no_ante_and_no_bete() {
    let rules = Rules { max_pot: 12, ..Rules::preset(Preset::Meyers1905, 4) };
    let (deal, events) = find(rules, 3, carry(12), &answers(&[], false, false, false), tricks_are([2, 1, 0, 0]));
    assert!(events.contains(&Event::Anted { seat: D, stake: 0, pot: 12 }), "{events:?}");
    assert_eq!(deal.played_for(), 12);
    // The shares empty the pot of 12; the bêtes of 12 each fill it again, 6 each.
    settled(&deal, [8, 4, -6, -6], 12);
}

/// Without a cut nothing changes: the limit is far above this deal.
#[test]
fn max_pot_leaves_a_deal_below_it_as_it_was() {
    let rules = Rules { max_pot: 1_000, ..Rules::preset(Preset::Meyers1905, 4) };
    let (deal, _) = find(rules, 0, carry(6), &answers(&[C], false, false, false), tricks_are([0, 1, 0, 2]));
    settled(&deal, [-12, 3, 0, 6], 9);
}

#[test]
fn example_07_1859_alvensleben_sniffer_drops_out() {
    let rules = Rules { sniffing: Sniffing::Alvensleben, ..Rules::preset(Preset::Dreiblatt1859, 4) };
    let (deal, events) = find(rules, 3, carry(6), &answers(&[C], false, true, true), tricks_are([2, 1, 0, 0]));
    assert!(events.iter().any(|e| matches!(e, Event::Decided { seat: D, paid: 3, .. })));
    assert_eq!(deal.active(), [A, B]);
    settled(&deal, [6, 3, 0, -6], 3);
}

#[test]
fn example_08_1859_alvensleben_sniffer_plays_and_takes_no_trick() {
    let rules = Rules { sniffing: Sniffing::Alvensleben, ..Rules::preset(Preset::Dreiblatt1859, 4) };
    let (deal, _) = find(rules, 3, carry(6), &answers(&[C], false, true, false), tricks_are([2, 1, 0, 0]));
    assert_eq!(deal.active(), [A, B, D]);
    settled(&deal, [6, 3, 0, -21], 18);
}

#[test]
fn example_09_katira_knocker_with_one_trick_pays_the_stake() {
    let rules = Rules { tipp_zwang: true, knocking: true, ..Rules::preset(Preset::ModernKatira, 4) };
    let (deal, events) = find(rules, 3, carry(0), &answers(&[], true, false, false), tricks_are([1, 0, 1, 1]));
    assert!(deal.knocked());
    assert!(!events.iter().any(|e| matches!(e, Event::Decided { .. })), "all play, nobody is asked");
    settled(&deal, [1, -3, 1, -5], 6);
}

#[test]
fn example_10_grupp_sniffer_with_one_trick_pays_a_bete() {
    let rules = Rules { sniffing: Sniffing::Grupp, ..Rules::preset(Preset::ModernGrupp, 4) };
    let (deal, events) = find(rules, 0, carry(9), &answers(&[C], false, true, false), tricks_are([1, 2, 0, 0]));
    assert!(!events.iter().any(|e| matches!(e, Event::Decided { seat: A, .. })), "the sniffer is not asked");
    assert_eq!(deal.active(), [B, D, A]);
    settled(&deal, [-2, 8, 0, -3], 6);
}

#[test]
fn example_11_loup_six_cards_stake_six() {
    let rules = Rules::preset(Preset::Loup1821, 4);
    let (deal, _) = find(rules, 2, carry(0), &answers(&[], false, false, false), tricks_are([3, 2, 1, 0]));
    settled(&deal, [3, 2, -5, -6], 6);
}

#[test]
fn example_12_vierblatt_four_cards_stake_four() {
    let rules = Rules::preset(Preset::Vierblatt, 4);
    let (deal, _) = find(rules, 3, carry(0), &answers(&[], false, false, false), tricks_are([2, 1, 1, 0]));
    settled(&deal, [2, 1, 1, -8], 4);
}

#[test]
fn example_13_grupp_shoving() {
    let rules = Rules { shoving: true, ..Rules::preset(Preset::ModernGrupp, 4) };
    let (mut deal, _) = Deal::new(rules, 1, A, fipsen_rules::Seed::from_u64(13), carry(0));
    assert_eq!(deal.phase(), Phase::Shove);
    run(&mut deal, &["0 shove", "1 deal"]);
    assert_eq!(deal.dealer(), B);
    assert_eq!(deal.changes(), [-3, -3, 0, 0]);
    assert_eq!((deal.pot(), deal.played_for()), (6, 6));
    assert!(!deal.everyone_must_play());
    assert!(deal.legal_actions(C).contains(&Action::Pass), "nobody must play: forehand may pass");
}

#[test]
fn shoving_stops_after_a_full_circle() {
    let rules = Rules { shoving: true, ..Rules::preset(Preset::ModernGrupp, 4) };
    let (mut deal, _) = Deal::new(rules, 1, A, fipsen_rules::Seed::from_u64(13), carry(0));
    run(&mut deal, &["0 shove", "1 shove", "2 shove"]);
    assert_eq!(deal.legal_actions(D), [Action::Deal]);
    assert_eq!(deal.check(D, Action::Shove), Err(RuleError::ShoveNotAllowed));
    assert_eq!(deal.changes(), [-3, -3, -3, -3]);
}

#[test]
fn example_14_1859_hop_and_jump() {
    let rules = Rules { hop_and_jump: true, ..Rules::preset(Preset::Dreiblatt1859, 4) };
    let mut first = rules.pack().cards().difference(cards("S7")).iter().collect::<Vec<_>>();
    first.push("S7".parse().expect("a card"));
    let mut second = rules.pack().cards().difference(cards("HQ")).iter().collect::<Vec<_>>();
    second.push("HQ".parse().expect("a card"));
    let (deal, events) = Deal::from_packs(rules, 1, B, vec![first, second], carry(0)).expect("valid packs");
    let hops: Vec<_> = deal.hops().iter().map(|h| (h.seat, h.card.to_string(), h.passed)).collect();
    assert_eq!(hops, [(B, "S7".to_string(), true), (C, "HQ".to_string(), false)]);
    assert!(events.iter().any(|e| matches!(e, Event::BottomCard { passed: true, .. })));
    assert_eq!(deal.dealer(), C);
    assert_eq!(deal.changes(), [0, -3, -3, 0]);
    assert_eq!(deal.played_for(), 6);
    assert!(!deal.everyone_must_play(), "never with hop and jump");
    assert!(deal.legal_actions(D).contains(&Action::Pass));
    // The next deal is D's: the seat left of the last dealer.
    assert_eq!(deal.dealer().next(4), D);
}

// The legality table of §D6 (trumps ♥).

fn legal_cards(deal: &Deal, seat: Seat) -> CardSet {
    deal.playable(seat)
}

#[test]
fn legality_1859_three_active_the_first_lead_is_a_trump() {
    let rules = Rules::preset(Preset::Dreiblatt1859, 3);
    let (deal, _) = arrange(rules, 2, &["H8 CA CK", "S7 S8 S9", "D7 D8 D9"], "HK", carry(0));
    assert_eq!(legal_cards(&deal, A), cards("H8"));
    assert_eq!(
        deal.check(A, Action::Play { card: "CA".parse().expect("a card") }),
        Err(RuleError::MustLeadTrump { trumps: Suit::Hearts })
    );
}

#[test]
fn legality_1859_two_active_the_first_lead_is_free() {
    let rules = Rules::preset(Preset::Dreiblatt1859, 2);
    let (deal, _) = arrange(rules, 1, &["H8 CA CK", "S7 S8 S9"], "HK", carry(0));
    assert_eq!(legal_cards(&deal, A), cards("H8 CA CK"));
}

#[test]
fn legality_1859_the_winner_of_the_first_trick_leads_the_daus() {
    let rules = Rules::preset(Preset::Dreiblatt1859, 2);
    let (mut deal, _) = arrange(rules, 1, &["CA HA S9", "C7 S7 D7"], "HK", carry(0));
    run(&mut deal, &["0 play CA", "1 play C7"]);
    assert_eq!(deal.turn(), Some(A));
    assert_eq!(legal_cards(&deal, A), cards("HA"));
    let daus = "HA".parse().expect("a card");
    assert_eq!(
        deal.check(A, Action::Play { card: "S9".parse().expect("a card") }),
        Err(RuleError::MustLeadDaus { card: daus })
    );
}

#[test]
fn legality_1859_daus_card_two_at_a_52_card_table() {
    let rules = Rules { daus_card: fipsen_rules::tippen::DausCard::Two, ..Rules::preset(Preset::Dreiblatt1859, 7) };
    let hands = ["CA H2 S9", "C3 S3 D3", "C4 S4 D4", "C5 S5 D5", "C6 S6 D6", "C7 S7 D7", "C8 S8 D8"];
    let (mut deal, _) = arrange(rules, 6, &hands, "HK", carry(0));
    // Seven active players: the first lead must be a trump; A's only trump is the two.
    assert_eq!(legal_cards(&deal, A), cards("H2"));
    let mut script = vec!["0 play H2".to_string()];
    for seat in 1..7 {
        let card = deal.dealt_hand(Seat(seat)).iter().find(|c| c.suit() == Suit::Clubs).expect("a club");
        script.push(format!("{seat} play {card}"));
    }
    let script: Vec<&str> = script.iter().map(String::as_str).collect();
    run(&mut deal, &script);
    assert_eq!(deal.trick_winners(), [A]);
    // He no longer holds the two: any card.
    assert_eq!(legal_cards(&deal, A), cards("CA S9"));
}

#[test]
fn legality_1859_a_void_player_may_discard_once_the_trick_is_trumped() {
    let rules = Rules::preset(Preset::Dreiblatt1859, 3);
    let (mut deal, _) = arrange(rules, 2, &["DA C10 D7", "D8 H7 SA", "D9 H9 S8"], "HK", carry(0));
    run(&mut deal, &["0 play DA", "1 play D8", "2 play D9", "0 play C10"]);
    assert_eq!(legal_cards(&deal, B), cards("H7"), "untrumped: he must trump");
    run(&mut deal, &["1 play H7"]);
    assert_eq!(legal_cards(&deal, C), cards("H9 S8"));
}

#[test]
fn legality_1859_a_void_player_must_trump_an_untrumped_trick() {
    let rules = Rules::preset(Preset::Dreiblatt1859, 3);
    let (mut deal, _) = arrange(rules, 2, &["DA C10 D7", "D8 H9 S8", "D9 H7 S9"], "HK", carry(0));
    run(&mut deal, &["0 play DA", "1 play D8", "2 play D9", "0 play C10"]);
    assert_eq!(legal_cards(&deal, B), cards("H9"));
    assert_eq!(
        deal.check(B, Action::Play { card: "S8".parse().expect("a card") }),
        Err(RuleError::MustTrump { trumps: Suit::Hearts })
    );
}

#[test]
fn legality_meyers_a_void_player_must_trump_even_a_trumped_trick() {
    let rules = Rules::preset(Preset::Meyers1905, 3);
    let (mut deal, _) = arrange(rules, 2, &["DA C10 D7", "D8 H7 SA", "D9 H9 S8"], "HK", carry(0));
    run(&mut deal, &["0 play DA", "1 play D8", "2 play D9", "0 play C10", "1 play H7"]);
    assert_eq!(legal_cards(&deal, C), cards("H9"));
}

/// A modern deal of three in which everyone plays and keeps his cards.
fn modern(hands: &[&str; 3]) -> Deal {
    let rules = Rules::preset(Preset::ModernGrupp, 3);
    let (mut deal, _) = arrange(rules, 2, hands, "HK", carry(0));
    run(&mut deal, &["0 join", "1 join", "2 join", "0 keep", "1 keep", "2 keep"]);
    deal
}

#[test]
fn legality_modern_overtrump_if_able() {
    let mut deal = modern(&["C10 S7 D7", "HJ SA SK", "H9 HQ S8"]);
    run(&mut deal, &["0 play C10", "1 play HJ"]);
    assert_eq!(legal_cards(&deal, C), cards("HQ"));
}

#[test]
fn legality_modern_unable_to_overtrump_any_card() {
    let mut deal = modern(&["DA C10 S7", "D8 HJ SA", "D9 H9 S8"]);
    run(&mut deal, &["0 play DA", "1 play D8", "2 play D9", "0 play C10", "1 play HJ"]);
    assert_eq!(legal_cards(&deal, C), cards("H9 S8"));
}

#[test]
fn legality_modern_head_the_trick() {
    let deal = {
        let mut deal = modern(&["C10 S7 D7", "C7 CK H9", "SA SK S8"]);
        run(&mut deal, &["0 play C10"]);
        deal
    };
    assert_eq!(legal_cards(&deal, B), cards("CK"));
    assert_eq!(deal.check(B, Action::Play { card: "C7".parse().expect("a card") }), Err(RuleError::MustHead));
}

#[test]
fn legality_modern_no_heading_once_the_trick_is_trumped() {
    let mut deal = modern(&["DA C10 S7", "D8 HJ SA", "D9 C7 CK"]);
    run(&mut deal, &["0 play DA", "1 play D8", "2 play D9", "0 play C10", "1 play HJ"]);
    assert_eq!(legal_cards(&deal, C), cards("C7 CK"));
}

#[test]
fn options_not_offered_by_a_preset_are_refused_by_name() {
    let grupp = Rules::preset(Preset::ModernGrupp, 4);
    let d1859 = Rules::preset(Preset::Dreiblatt1859, 4);
    let not_offered = |option, preset| Err(RuleSetError::OptionNotOffered { option, preset });
    assert_eq!(Rules { robbing: true, ..grupp }.validate(), not_offered("robbing", "modern_grupp"));
    assert_eq!(Rules { tipp_zwang: true, ..d1859 }.validate(), not_offered("tipp_zwang", "dreiblatt_1859"));
    assert_eq!(
        Rules { sniffing: Sniffing::Grupp, ..d1859 }.validate(),
        not_offered("sniffing grupp", "dreiblatt_1859")
    );
    assert_eq!(
        Rules { sniffing: Sniffing::Alvensleben, ..grupp }.validate(),
        not_offered("sniffing alvensleben", "modern_grupp")
    );
    assert_eq!(Rules { exchange_max: Some(2), ..grupp }.validate(), not_offered("exchange_max", "modern_grupp"));
    assert_eq!(
        Rules { hop_and_jump: true, ..Rules::preset(Preset::Vierblatt, 4) }.validate(),
        not_offered("hop_and_jump", "vierblatt")
    );
    let two = fipsen_rules::tippen::DausCard::Two;
    assert_eq!(Rules { daus_card: two, ..grupp }.validate(), not_offered("daus_card", "modern_grupp"));
    assert_eq!(Rules { daus_card: two, ..d1859 }.validate(), Err(RuleSetError::DausTwoNeedsTwos));
    assert_eq!(Rules { daus_card: two, ..Rules::preset(Preset::Dreiblatt1859, 8) }.validate(), Ok(()));
    assert_eq!(
        Rules { exchange_max: Some(5), ..Rules::preset(Preset::Vierblatt, 4) }.validate(),
        Err(RuleSetError::ExchangeMax(5))
    );
    assert_eq!(Rules { max_bete: Some(10), ..grupp }.validate(), Err(RuleSetError::MaxBete { max_bete: 10, hand: 3 }));
    assert_eq!(Rules { max_bete: Some(0), ..grupp }.validate(), Err(RuleSetError::MaxBete { max_bete: 0, hand: 3 }));
    assert_eq!(Rules { max_bete: Some(12), ..Rules::preset(Preset::Vierblatt, 4) }.validate(), Ok(()));
    assert_eq!(
        Rules { max_pot: 11, ..grupp }.validate(),
        Err(RuleSetError::MaxPot { max_pot: 11, min: 12, max: 1_000_000 })
    );
    assert_eq!(
        Rules { max_pot: 1_000_001, ..grupp }.validate(),
        Err(RuleSetError::MaxPot { max_pot: 1_000_001, min: 12, max: 1_000_000 })
    );
    assert_eq!(Rules { max_pot: 12, ..grupp }.validate(), Ok(()));
    assert_eq!(Rules::default().max_pot, 1_200, "a limit unless the table chooses another");
    assert_eq!(
        Rules::preset(Preset::ModernGrupp, 7).validate(),
        Err(RuleSetError::PlayerCount { players: 7, min: 3, max: 6 })
    );
    assert_eq!(
        Rules::preset(Preset::Loup1821, 6).validate(),
        Err(RuleSetError::PlayerCount { players: 6, min: 3, max: 5 })
    );
    assert_eq!(Rules::preset(Preset::Meyers1905, 2).validate(), Ok(()));
    assert_eq!(Rules::preset(Preset::Meyers1905, 10).validate(), Ok(()));
    assert_eq!(Rules { deals: Some(0), ..grupp }.validate(), Err(RuleSetError::NoDeals));
}

#[test]
fn rules_json_has_defaults_and_refuses_unknown_fields() {
    let rules: Rules = serde_json::from_str(r#"{"preset":"dreiblatt_1859","players":3}"#).expect("valid");
    assert_eq!(rules, Rules::preset(Preset::Dreiblatt1859, 3));
    assert_eq!(Rules::default(), Rules::preset(Preset::ModernGrupp, 4));
    let json = serde_json::to_string(&Rules::default()).expect("serialisable");
    assert_eq!(
        json,
        r#"{"preset":"modern_grupp","players":4,"max_bete":null,"max_pot":1200,"tipp_zwang":false,"shoving":false,"knocking":false,"sniffing":"off","robbing":false,"hop_and_jump":false,"daus_card":"ace","exchange_max":null,"deals":null}"#
    );
    for p in Preset::ALL {
        let back: Rules = serde_json::from_str(&format!(r#"{{"preset":"{}"}}"#, p.id())).expect("a preset id");
        assert_eq!(back.preset, p);
    }
    assert!(serde_json::from_str::<Rules>(r#"{"colour":"red"}"#).is_err());
}
