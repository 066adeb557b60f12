//! Tippen: property tests over random presets, options, player counts (2 to 10 where the
//! preset allows), carries and seeds (at least 4,000 complete deals per run; set
//! `FIPSEN_PROPTEST_CASES` to change the count), and random series.
//!
//! For every step of every deal: every card of the deal's pack is somewhere, once; only the
//! seat to act has legal actions; every candidate action is accepted exactly when listed, and
//! a refused one leaves the state unchanged; every view and every event a viewer receives
//! holds only cards that viewer may see, worked out here from the true events alone (the
//! visibility table of §D9: his own hand — not the dealer's while he may knock —, his own
//! discards and the cards he drew, a knocked or grupp-sniffed trump card for the dealer only,
//! the turned-up trump card, the 1821 exposed card, hop cards, the robbing seven and the cards
//! played for all; everything once the deal is over); redacted events differ from the true
//! ones only in their cards. For every deal: the settlement follows §D7 recomputed from the
//! events; balances, pot and reserve keep their sum. For every series: the sum is zero after
//! every action, and it ends after its deals.

use crate::tippen_common;

use fipsen_rules::tippen::{Action, Carry, Choice, Deal, Event, Phase, Preset, Rules, Series, Sniffing};
use fipsen_rules::{CardSet, Seat, Seed};
use proptest::prelude::*;
use tippen_common::holstein_common::properties::{CheckedDeal, Knowledge, play_checked_from};
use tippen_common::{Rng, choose};

impl CheckedDeal for Deal {
    const MAX_STEPS: usize = 120;
    const CARD_KEYS: Option<&'static [&'static str]> =
        Some(&["hands", "hand", "trump_card", "cards", "discarded", "received"]);

    fn pack(&self) -> CardSet {
        if self.phase() == Phase::Shove { CardSet::EMPTY } else { self.rules().pack().cards() }
    }

    fn candidates(&self, seat: Seat, rng: &mut Rng) -> Vec<Action> {
        let mut out = vec![
            Action::Shove,
            Action::Deal,
            Action::Knock,
            Action::NoKnock,
            Action::Sniff,
            Action::NoSniff,
            Action::Join,
            Action::Rob,
            Action::Pass,
            Action::DropOut,
            Action::Keep,
        ];
        let hand = self.hand(seat);
        let pack = self.rules().pack().cards();
        out.extend(pack.iter().map(|card| Action::Play { card }));
        out.extend(hand.iter().map(|c| Action::Discard { cards: c.set() }));
        out.push(Action::Discard { cards: rng.subset(hand, 2) });
        out.push(Action::Discard { cards: rng.subset(pack, 1) });
        for k in 0..=5 {
            out.push(Action::Exchange { cards: rng.subset(hand, k) });
        }
        out.push(Action::Exchange { cards: rng.subset(pack, 2) });
        out
    }

    /// What each viewer may see, from the true events alone (§D9).
    fn learn(k: &mut Knowledge, event: &Event) {
        match event {
            Event::Dealt { hands, dealer, dealer_sees_hand, exposed, .. } => {
                for (i, hand) in hands.iter().enumerate() {
                    if i != dealer.index() || *dealer_sees_hand {
                        k.add(Seat(i as u8), *hand);
                    }
                }
                if let Some(card) = exposed {
                    k.show_all(card.set());
                }
            }
            Event::BottomCard { card, .. } => k.show_all(card.set()),
            Event::Knocked { seat, hand, .. } | Event::NotKnocked { seat, hand } => k.add(*seat, *hand),
            Event::Sniffed { seat, kind, trump_card, .. } => match kind {
                Sniffing::Alvensleben => k.show_all(trump_card.expect("the true event holds the card").set()),
                _ => k.add(*seat, trump_card.map(|c| c.set())),
            },
            Event::TrumpTurned { card } => k.show_all(card.set()),
            Event::Discarded { seat, cards, .. } => k.add(*seat, *cards),
            Event::Robbed { trump_card, seven, .. } => k.show_all(trump_card.set().union(seven.set())),
            Event::Exchanged { seat, received, .. } => k.add(*seat, *received),
            Event::CardPlayed { card, .. } => k.played(*card),
            Event::DealOver { .. } => k.show_all(CardSet::ALL),
            _ => {}
        }
    }

    fn pick(&self, turn: Seat, legal: &[Action], rng: &mut Rng) -> (Seat, Action) {
        (turn, choose(self, legal, rng))
    }

    /// §D7 recomputed from the events: antes, a drop-out stake, the pot taken alone, shares and
    /// bêtes by the tricks, the sniffer's and knocker's penalties.
    fn check_scores(&self, log: &[Event]) {
        let rules = self.rules();
        let n = usize::from(rules.players);
        let (h, k) = (i32::from(rules.preset.hand_size()), rules.preset.stake());
        let mut changes = vec![0; n];
        let mut tricks = vec![0u8; n];
        let (mut played_for, mut knocked, mut sniffed, mut active) = (0, false, None, Vec::new());
        for event in log {
            match event {
                Event::Anted { seat, stake, .. } => {
                    assert_eq!(*stake, k);
                    changes[seat.index()] -= k;
                }
                Event::Dealt { played_for: p, .. } => played_for = *p,
                Event::Knocked { .. } => knocked = true,
                Event::Sniffed { kind, .. } => sniffed = Some(*kind),
                Event::Decided { seat, choice, paid, .. } => {
                    assert_eq!(*paid, if *choice == Choice::DropOut { k } else { 0 });
                    changes[seat.index()] -= paid;
                }
                Event::Playing { seats } => active = seats.clone(),
                Event::TookPot { seat, amount, .. } => {
                    assert_eq!(active, [*seat]);
                    assert_eq!(*amount, played_for);
                    changes[seat.index()] += amount;
                }
                Event::TrickTaken { seat } => {
                    assert!(active.contains(seat));
                    tricks[seat.index()] += 1;
                }
                Event::Settled { seat, tricks: t, received, paid } => {
                    let i = seat.index();
                    assert_eq!(*t, tricks[i]);
                    assert_eq!(*received, played_for / h * i32::from(*t));
                    let b = if rules.preset == Preset::ModernGrupp { k } else { played_for };
                    let dealer = *seat == self.dealer();
                    let expected = match (*t, dealer && knocked, if dealer { sniffed } else { None }) {
                        (0, true, _) => 2 * k,
                        (1, true, _) => k,
                        (0, false, Some(_)) => 2 * b,
                        (1, false, Some(Sniffing::Grupp)) => b,
                        (0, false, None) => b,
                        _ => 0,
                    };
                    assert_eq!(*paid, expected, "{seat:?} with {t} tricks; log {log:?}");
                    changes[i] += received - paid;
                }
                _ => {}
            }
        }
        let scores = match log.last() {
            Some(Event::DealOver { scores, .. }) => scores.clone(),
            other => panic!("the last event is the end of the deal, not {other:?}"),
        };
        assert_eq!(scores, changes, "payments");
        if active.len() >= 2 {
            assert_eq!(tricks.iter().map(|&t| i32::from(t)).sum::<i32>(), h, "h tricks are played");
        } else {
            assert!(tricks.iter().all(|&t| t == 0), "nothing is played with fewer than two players");
        }
        let sum: i32 = scores.iter().sum();
        assert_eq!(sum + self.pot() + self.reserve(), self.carry().total(), "counters are neither made nor lost");
        assert!(self.played_for() <= rules.max_bete.map_or(i32::MAX, |m| m as i32));
    }
}

/// Valid rules from random numbers: a preset, a player count in its range, and the options it
/// offers switched by the bits of `flags`.
fn random_rules(preset: usize, players: u8, flags: u32, deals: Option<u32>) -> Rules {
    let preset = Preset::ALL[preset % Preset::ALL.len()];
    let (min, max) = preset.player_range();
    let players = min + players % (max - min + 1);
    let mut rules = Rules { deals, ..Rules::preset(preset, players) };
    let bit = |i: u32| flags >> i & 1 == 1;
    let h = u32::from(preset.hand_size());
    if bit(0) {
        rules.max_bete = Some(h * (1 + flags % 5));
    }
    match preset {
        Preset::ModernGrupp | Preset::ModernKatira => {
            rules.tipp_zwang = bit(1);
            rules.shoving = bit(2);
            rules.knocking = bit(3);
            rules.sniffing = if bit(4) { Sniffing::Grupp } else { Sniffing::Off };
        }
        Preset::Dreiblatt1859 => {
            rules.robbing = bit(5) || bit(1);
            rules.hop_and_jump = bit(6);
            rules.sniffing = if bit(4) { Sniffing::Alvensleben } else { Sniffing::Off };
            if bit(7) && players >= 7 {
                rules.daus_card = fipsen_rules::tippen::DausCard::Two;
            }
        }
        Preset::Vierblatt => {
            rules.exchange_max = bit(8).then_some((flags >> 9) as u8 % 5);
            if bit(7) && players >= 7 {
                rules.daus_card = fipsen_rules::tippen::DausCard::Two;
            }
        }
        _ => {}
    }
    rules.validate().unwrap_or_else(|e| panic!("{rules:?}: {e}"));
    rules
}

fn cases() -> u32 {
    std::env::var("FIPSEN_PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(4_000)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_deals_keep_every_invariant(
        seed in any::<u64>(),
        policy in any::<u64>(),
        preset in 0usize..7,
        players in any::<u8>(),
        flags in any::<u32>(),
        due in any::<u8>(),
        pot in prop_oneof![Just(0i32), 1i32..40],
        reserve in prop_oneof![Just(0i32), 1i32..12],
    ) {
        let rules = random_rules(preset, players, flags, None);
        let due = Seat(due % rules.players);
        let carry = Carry { pot, reserve: if rules.max_bete.is_some() { reserve } else { 0 } };
        let deal = || Deal::new(rules, 1, due, Seed::from_u64(seed), carry);
        play_checked_from(deal(), deal, policy, seed.is_multiple_of(16));
    }

    #[test]
    fn random_series_keep_balances_pot_and_reserve_at_zero_and_end_after_their_deals(
        seed in any::<u64>(),
        preset in 0usize..7,
        players in any::<u8>(),
        flags in any::<u32>(),
        deals in 1u32..8,
    ) {
        let rules = random_rules(preset, players, flags, Some(deals));
        let (mut series, _) = Series::new(rules, Seed::from_u64(seed)).expect("valid");
        let mut rng = Rng(seed);
        let mut steps = 0;
        let mut last_dealer = None;
        while !series.is_over() {
            steps += 1;
            prop_assert!(steps < 2_000, "a series ends");
            if series.deal().is_over() {
                let dealer = series.deal().dealer();
                series.next_deal().expect("the next deal");
                prop_assert_eq!(series.deal().due(), dealer.next(rules.players), "the seat left of the last dealer is due");
                last_dealer = Some(dealer);
                continue;
            }
            let seat = series.deal().turn().expect("someone acts");
            let legal = series.legal_actions(seat);
            let events = series.apply(seat, choose(series.deal(), &legal, &mut rng)).expect("legal");
            prop_assert_eq!(series.totals().iter().sum::<i32>() + series.pot() + series.reserve(), 0);
            let view = series.view(None);
            prop_assert_eq!(view.totals.iter().sum::<i32>() + view.pot + view.reserve, 0);
            for event in events {
                if let Event::SeriesOver { balances, pot, reserve } = event {
                    prop_assert_eq!(balances.iter().sum::<i32>() + pot + reserve, 0);
                }
            }
        }
        let _ = last_dealer;
        prop_assert_eq!(series.scoresheet().len(), deals as usize, "one row per deal");
        prop_assert_eq!(series.number(), deals);
        let last = series.scoresheet().last().expect("a row");
        prop_assert_eq!(&last.balances, &series.totals().to_vec());
        prop_assert!(series.legal_actions(Seat(0)).is_empty());
    }
}

#[test]
fn the_first_dealer_of_1859_and_vierblatt_is_dealt_an_ace() {
    for n in 0..50u64 {
        for preset in [Preset::Dreiblatt1859, Preset::Vierblatt] {
            let rules = Rules::preset(preset, 3 + (n % 8) as u8);
            let (series, events) = Series::new(rules, Seed::from_u64(n)).expect("valid");
            let Some(Event::FirstDealer { seat, cards }) = events.first() else { panic!("the draw is shown first") };
            let last = cards.last().expect("cards shown");
            assert_eq!(last.rank(), fipsen_rules::Rank::Ace);
            assert!(cards[..cards.len() - 1].iter().all(|c| c.rank() != fipsen_rules::Rank::Ace));
            assert_eq!(usize::from(seat.0), (cards.len() - 1) % usize::from(rules.players));
            assert_eq!(series.first_dealer(), *seat);
            assert_eq!(series.deal().due(), *seat);
        }
    }
    let (series, events) = Series::new(Rules::default(), Seed::from_u64(1)).expect("valid");
    assert!(!events.iter().any(|e| matches!(e, Event::FirstDealer { .. })));
    assert_eq!(series.deal().due(), Seat(3), "as in Prisdorf: the last seat deals first");
}
