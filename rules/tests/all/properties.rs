//! Property tests over random seeds, both player counts and every combination of options:
//! at least 10,000 complete deals per run (set `FIPSEN_PROPTEST_CASES` to change the count).
//!
//! For every step of every deal: the 25 cards are all somewhere, once; the player to act has a
//! legal action; every action not listed as legal is refused and leaves the state unchanged;
//! every view and every event a viewer receives holds only cards that viewer may see (worked
//! out here from the true event log, independently of the view code). For every deal: it ends;
//! its score follows the formula of docs/rules/prisdorf.md §7; the state survives a JSON round trip; and the
//! same seed and actions give the same events.

use fipsen_rules::{
    Action, Bid, CardSet, Deal, Event, FirstLead, KiekerShow, Outcome, Players, RuleSet, Seat, Seed, Suit,
};
use proptest::prelude::*;

use crate::common;

use common::holstein_common::properties::{CheckedDeal, Knowledge, play_checked};
use common::{Rng, choose};

/// Every action worth trying for `seat`: all fixed ones, all cards, every bid and some discards.
fn candidates(deal: &Deal, seat: Seat, rng: &mut Rng) -> Vec<Action> {
    let mut out = vec![
        Action::Hold,
        Action::Pass,
        Action::TakeSkat,
        Action::PlayHand,
        Action::Kontra,
        Action::Rekontra,
        Action::GiveUp,
        Action::SiebenerFips,
        Action::Stop,
        Action::GoOn,
        Action::Bid { bid: Bid::tricks(1) },
        Action::Bid { bid: Bid::tricks(6) },
        Action::Discard { cards: CardSet::EMPTY },
    ];
    out.extend(Bid::all().map(|bid| Action::Bid { bid }));
    out.extend(Suit::ALL.map(|suit| Action::NameTrumps { suit }));
    out.extend(CardSet::PACK.iter().map(|card| Action::Play { card }));
    let hand = deal.hand(seat);
    for k in [1, 2, 3, 5, 6] {
        out.push(Action::Discard { cards: rng.subset(hand, k) });
    }
    out.push(Action::Discard { cards: rng.subset(CardSet::PACK, 2) });
    out.push(Action::Discard { cards: rng.subset(CardSet::PACK, 5) });
    out
}

/// The score of docs/rules/prisdorf.md §7, computed from the events alone.
fn expected_scores(events: &[Event], players: u8) -> Vec<i32> {
    let mut scores = vec![0; usize::from(players)];
    let mut declarer = None;
    let (mut tricks, mut kieker) = (0u8, false);
    let (mut hand, mut ruten, mut went_on, mut kontra, mut rekontra) = (false, false, false, false, false);
    let mut taken = 0u8;
    for event in events {
        match event {
            Event::AuctionWon { declarer: d, contract } => {
                declarer = Some(*d);
                kieker = contract.bid == Bid::Kieker;
                tricks = match contract.bid {
                    Bid::Tricks { tricks, .. } => tricks,
                    Bid::Kieker => 5,
                };
            }
            Event::HandChosen { .. } => hand = true,
            Event::TrumpsNamed { suit, .. } => ruten = *suit == Suit::Diamonds,
            Event::WentOn { .. } => went_on = true,
            Event::Kontra { .. } => kontra = true,
            Event::Rekontra { .. } => rekontra = true,
            Event::TrickTaken { seat } if Some(*seat) == declarer => taken += 1,
            Event::SiebenerFips { seat, .. } => {
                scores[seat.index()] = 30;
                return scores;
            }
            Event::GaveUp { seat } => {
                scores[seat.index()] = -5;
                return scores;
            }
            _ => {}
        }
    }
    let Some(declarer) = declarer else { return scores };
    let durch = went_on || tricks == 5 || kieker;
    let doubles = [hand, ruten, durch, kontra, rekontra].iter().filter(|d| **d).count();
    let value = i32::from(tricks) << doubles;
    let won = if durch { taken == 5 } else { taken >= tricks };
    scores[declarer.index()] = if won { value } else { -2 * value };
    scores
}

impl CheckedDeal for Deal {
    const MAX_STEPS: usize = 200;
    const CARD_KEYS: Option<&'static [&'static str]> = None;

    fn candidates(&self, seat: Seat, rng: &mut Rng) -> Vec<Action> {
        candidates(self, seat, rng)
    }

    /// What each viewer may see, worked out from the true events alone.
    fn learn(knowledge: &mut Knowledge, event: &Event) {
        match event {
            Event::Dealt { hands, .. } => knowledge.dealt(hands),
            Event::KiekerShown { seat, to, hand } => {
                knowledge.add(*seat, *hand);
                knowledge.add(*to, *hand);
            }
            Event::KiekerPickedUp { seat, skat, stock, .. } => {
                knowledge.add(*seat, *skat);
                knowledge.add(*seat, *stock);
            }
            Event::SkatTaken { seat, skat } => knowledge.add(*seat, *skat),
            Event::CardPlayed { card, .. } => knowledge.played(*card),
            Event::SiebenerFips { cards, .. } => knowledge.show_all(*cards),
            Event::DealOver { .. } => knowledge.show_all(CardSet::PACK),
            _ => {}
        }
    }

    fn check_listed(&self, seat: Seat, turn: Seat, listed: &[Action]) {
        if seat != turn {
            assert!(
                listed.iter().all(|a| matches!(a, Action::SiebenerFips | Action::GiveUp)),
                "out of turn only a Siebener Fips or a Kieker's give-up: {listed:?}"
            );
        }
        if listed.contains(&Action::GiveUp) {
            assert!(self.declarer() == Some(seat) && self.before_first_lead(), "only the Kieker, before the lead");
        }
    }

    fn full_checks(&mut self, turn: Seat) {
        let json = serde_json::to_string(self).expect("serialisable");
        let bad = Action::Play { card: CardSet::PACK.difference(self.hand(turn)).lowest().expect("a card elsewhere") };
        let _ = Deal::apply(self, turn, bad);
        assert_eq!(serde_json::to_string(self).expect("serialisable"), json, "refused action changed the JSON");
    }

    /// Sometimes a Siebener Fips or a Kieker's give-up comes out of turn.
    fn pick(&self, turn: Seat, legal: &[Action], rng: &mut Rng) -> (Seat, Action) {
        let out_of_turn = |action: Action| {
            (0..self.players()).map(Seat).find(|s| *s != turn && self.legal_actions(*s).contains(&action))
        };
        let fips = out_of_turn(Action::SiebenerFips);
        let give_up = out_of_turn(Action::GiveUp);
        match (fips, give_up) {
            (Some(seat), _) if rng.chance(50) => (seat, Action::SiebenerFips),
            (_, Some(seat)) if rng.chance(25) => (seat, Action::GiveUp),
            _ => (turn, choose(legal, rng)),
        }
    }

    fn check_scores(&self, log: &[Event]) {
        let scores = match log.last() {
            Some(Event::DealOver { scores, outcome, .. }) => {
                if let Outcome::Won { game, .. } | Outcome::Lost { game, .. } = outcome {
                    assert_eq!(game.value(), i32::from(game.tricks) << game.doubles());
                }
                scores.clone()
            }
            other => panic!("the last event is the end of the deal, not {other:?}"),
        };
        assert_eq!(scores, expected_scores(log, self.players()), "score formula; events: {log:?}");
    }
}

fn rules_from(players: bool, min_bid3: bool, kontra: bool, declarer_leads: bool, show_nobody: bool) -> RuleSet {
    RuleSet {
        players: if players { Players::Three } else { Players::Four },
        min_bid: if min_bid3 { 3 } else { 2 },
        kontra,
        first_lead: if declarer_leads { FirstLead::Declarer } else { FirstLead::Forehand },
        kieker_show: if show_nobody { KiekerShow::Nobody } else { KiekerShow::LeftOpponent },
        deals: None,
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
        dealer in 0u8..4,
        options in any::<(bool, bool, bool, bool, bool)>(),
    ) {
        let rules = rules_from(options.0, options.1, options.2, options.3, options.4);
        let dealer = Seat(dealer % rules.players.count());
        let full = seed % 16 == 0;
        let deal = || Deal::new(rules, 1, dealer, Seed::from_u64(seed));
        play_checked(deal(), deal, policy, full);
    }
}
