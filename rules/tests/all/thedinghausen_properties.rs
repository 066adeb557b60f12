//! Thedinghausen Fipsen: property tests over random seeds, options and round states (at least
//! 10,000 complete deals per run; set `FIPSEN_PROPTEST_CASES` to change the count), and random
//! series through their rounds.
//!
//! For every step of every deal: the 32 cards are all somewhere, once; only the seat to act has
//! legal actions; every candidate action is accepted exactly when listed, and a refused one
//! leaves the state unchanged; every view and every event a viewer receives holds only cards
//! that viewer may see (worked out here from the true event log, independently of the view
//! code: his own hand, the turned card, the cards played, everything once the deal is over —
//! the six unused cards never before), and the redacted events differ only in the hands. For
//! every deal: it ends; what each seat paid or took follows the antes, the fipsen penalty and
//! the pot, recomputed from the events; the round counts follow the tricks; balances and pot
//! sum to zero; the state survives a JSON round trip; the same seed and actions give the same
//! events.

use crate::thedinghausen_common;

use fipsen_rules::thedinghausen::{Action, Deal, Event, Round, Rules, Series};
use fipsen_rules::{CardSet, Pack, Seat, Seed};
use proptest::prelude::*;
use thedinghausen_common::holstein_common::properties::{CheckedDeal, Knowledge, play_checked};
use thedinghausen_common::{Rng, choose};

const PACK: CardSet = Pack::P32.cards();

/// The seats' changes, the round counts and the pot, recomputed from the events alone.
fn expected(events: &[Event]) -> (Vec<i32>, Vec<u8>, i32, i32) {
    let (mut changes, mut counts, mut pot, mut pot_before) = (vec![0; 5], vec![0; 5], 0, 0);
    let mut tricks = 0;
    for event in events {
        match event {
            Event::Dealt { counts: start, anted, pot: p, .. } => {
                counts = start.clone();
                pot = *p;
                pot_before = *p;
                if *anted {
                    changes.iter_mut().for_each(|c| *c -= 1);
                    pot_before -= 5;
                }
            }
            Event::TrickTaken { seat } => {
                counts[seat.index()] += 1;
                tricks += 1;
                assert!(tricks <= 5);
            }
            Event::FipsenLost { seat, penalty, pot: p } => {
                assert_eq!(*penalty, 5);
                changes[seat.index()] -= 5;
                pot += 5;
                assert_eq!(pot, *p);
            }
            Event::FipsenWon { seat, count } => {
                assert_eq!(tricks, 5, "a fipsen is won after the fifth trick");
                counts[seat.index()] += 5;
                assert_eq!(counts[seat.index()], *count);
            }
            Event::RoundWon { seat, pot: p, .. } => {
                assert!(counts[seat.index()] >= 10, "the round goes to a player with ten tricks");
                assert_eq!(*p, pot);
                changes[seat.index()] += pot;
                pot = 0;
            }
            _ => {}
        }
    }
    (changes, counts, pot, pot_before)
}

impl CheckedDeal for Deal {
    const MAX_STEPS: usize = 40;
    const CARD_KEYS: Option<&'static [&'static str]> = Some(&["hands"]);

    fn public_when_dealt(&self) -> CardSet {
        self.trump_card().set()
    }

    fn candidates(&self, _seat: Seat, _rng: &mut Rng) -> Vec<Action> {
        let mut out = vec![Action::Fipsen, Action::Pass];
        out.extend(PACK.iter().map(|card| Action::Play { card }));
        out
    }

    /// What each viewer may see, worked out from the true events alone (§C8).
    fn learn(knowledge: &mut Knowledge, event: &Event) {
        match event {
            Event::Dealt { hands, trump_card, .. } => {
                knowledge.dealt(hands);
                knowledge.show_all(trump_card.set());
            }
            Event::CardPlayed { card, .. } => knowledge.played(*card),
            Event::DealOver { .. } => knowledge.show_all(PACK),
            _ => {}
        }
    }

    fn pick(&self, turn: Seat, legal: &[Action], rng: &mut Rng) -> (Seat, Action) {
        (turn, choose(self, turn, legal, rng))
    }

    fn check_scores(&self, log: &[Event]) {
        let scores = match log.last() {
            Some(Event::DealOver { scores, .. }) => scores.clone(),
            other => panic!("the last event is the end of the deal, not {other:?}"),
        };
        let (changes, counts, pot, pot_before) = expected(log);
        assert_eq!(scores, changes, "payments; events: {log:?}");
        assert_eq!(self.counts().to_vec(), counts, "round counts");
        assert_eq!(self.pot(), pot, "the pot");
        assert_eq!(scores.iter().sum::<i32>() + pot - pot_before, 0, "balances and pot sum to zero");
        let reached = counts.iter().any(|&c| c >= 10);
        assert_eq!(self.round_won().is_some(), reached, "the round ends exactly when someone reaches ten");
        if !reached {
            assert_eq!(self.trick_winners().len(), 5, "without a round won all five tricks are played");
        }
    }
}

fn cases() -> u32 {
    std::env::var("FIPSEN_PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(10_000)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_deals_keep_every_invariant(
        seed in any::<u64>(),
        policy in any::<u64>(),
        dealer in 0u8..5,
        fipsen in any::<bool>(),
        head_the_trick in any::<bool>(),
        counts in proptest::array::uniform5(0u8..10),
        fresh in any::<bool>(),
        penalties in 0i32..3,
    ) {
        let rules = Rules { fipsen, head_the_trick, rounds: None };
        let pot = if fresh { 0 } else { 5 + 5 * penalties };
        let counts = if fresh { [0; 5] } else { counts };
        let round = Round { number: 1, counts, pot, fresh };
        let deal = || Deal::new(rules, 1, Seat(dealer), Seed::from_u64(seed), round);
        play_checked(deal(), deal, policy, seed.is_multiple_of(16));
    }

    #[test]
    fn random_series_keep_balances_and_pot_at_zero_and_end_after_their_rounds(
        seed in any::<u64>(),
        rounds in 1u32..3,
        fipsen in any::<bool>(),
    ) {
        let (mut series, _) = Series::new(Rules { fipsen, head_the_trick: false, rounds: Some(rounds) }, Seed::from_u64(seed)).expect("valid");
        let mut rng = Rng(seed);
        let mut steps = 0;
        while !series.is_over() {
            steps += 1;
            prop_assert!(steps < 2_000, "a series ends");
            if series.deal().is_over() {
                series.next_deal().expect("the next deal");
                continue;
            }
            let seat = series.deal().turn().expect("someone acts");
            let legal = series.legal_actions(seat);
            let events = series.apply(seat, choose(series.deal(), seat, &legal, &mut rng)).expect("legal");
            prop_assert_eq!(series.totals().iter().sum::<i32>() + series.pot(), 0);
            let view = series.view(None);
            prop_assert_eq!(view.totals.iter().sum::<i32>() + view.pot, 0);
            for event in events {
                if let Event::SeriesOver { balances, slips } = event {
                    prop_assert_eq!(slips.iter().sum::<u32>(), rounds);
                    prop_assert_eq!(balances.iter().sum::<i32>(), 0, "no pot is left after the last round");
                }
            }
        }
        prop_assert_eq!(series.rounds_won(), rounds);
        prop_assert!(series.legal_actions(Seat(0)).is_empty());
    }
}
