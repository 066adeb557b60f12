//! Helpers shared by the bot tests: random deals driven through the rules crate.

#![allow(dead_code)]

use fipsen_bots::rng::Rng;
use fipsen_rules::{Action, Deal, FirstLead, KiekerShow, Phase, Players, RuleSet, Seat, Seed};

/// A random rule set: both player counts and every option.
pub fn random_rules(rng: &mut Rng) -> RuleSet {
    RuleSet {
        players: if rng.index(2) == 0 { Players::Three } else { Players::Four },
        min_bid: 2 + rng.index(2) as u8,
        kontra: rng.index(2) == 0,
        first_lead: if rng.index(2) == 0 { FirstLead::Forehand } else { FirstLead::Declarer },
        kieker_show: if rng.index(2) == 0 { KiekerShow::LeftOpponent } else { KiekerShow::Nobody },
        deals: None,
    }
}

/// A fresh deal with a random dealer.
pub fn random_deal(rng: &mut Rng, rules: RuleSet) -> Deal {
    let dealer = Seat(rng.index(usize::from(rules.players.count())) as u8);
    Deal::new(rules, 1, dealer, Seed::from_u64(rng.next_u64())).0
}

/// Drives a deal with random legal actions (never a Siebener Fips or giving up) until the
/// play starts: Vorhand bids something at random, everybody else passes.
pub fn to_play(rng: &mut Rng, deal: &mut Deal) -> bool {
    while !matches!(deal.phase(), Phase::Play | Phase::Over) {
        let Some(seat) = deal.turn() else { return false };
        let actions: Vec<Action> = deal
            .legal_actions(seat)
            .into_iter()
            .filter(|a| !matches!(a, Action::SiebenerFips | Action::GiveUp | Action::Hold))
            .collect();
        let action = if deal.phase() == Phase::Auction {
            if deal.auction().standing().is_none() {
                let bids: Vec<Action> = actions.iter().copied().filter(|a| matches!(a, Action::Bid { .. })).collect();
                let kieker = Action::Bid { bid: fipsen_rules::Bid::Kieker };
                // Kiekers are rare (no court card): take one half the time it is allowed.
                if bids.contains(&kieker) && rng.index(2) == 0 { kieker } else { bids[rng.index(bids.len())] }
            } else {
                Action::Pass
            }
        } else {
            actions[rng.index(actions.len())]
        };
        if deal.apply(seat, action).is_err() {
            return false;
        }
    }
    deal.phase() == Phase::Play
}

/// Plays `cards` random cards (random Stop / GoOn); false if the deal ended on the way.
pub fn play_random(rng: &mut Rng, deal: &mut Deal, cards: usize) -> bool {
    let mut played = 0;
    while played < cards || deal.phase() == Phase::DurchChoice && rng.index(2) == 0 {
        let Some(seat) = deal.turn() else { return false };
        let actions = deal.legal_actions(seat);
        let actions: Vec<Action> =
            actions.into_iter().filter(|a| matches!(a, Action::Play { .. } | Action::Stop | Action::GoOn)).collect();
        if actions.is_empty() {
            return false;
        }
        let action = actions[rng.index(actions.len())];
        if matches!(action, Action::Play { .. }) {
            played += 1;
        }
        if deal.apply(seat, action).is_err() || deal.is_over() {
            return false;
        }
    }
    !deal.is_over()
}

/// The declarer's score when the deal is over.
pub fn declarer_score(deal: &Deal) -> i32 {
    deal.outcome().and_then(|o| o.score()).map_or(0, |(_, points)| points)
}

/// Plain exhaustive minimax through the rules crate: the declarer maximises his score (Stop or
/// GoOn included), the opponents minimise it.
pub fn minimax(deal: &Deal) -> i32 {
    if deal.is_over() {
        return declarer_score(deal);
    }
    let Some(seat) = deal.turn() else { return 0 };
    let maximise = Some(seat) == deal.declarer();
    let mut best = if maximise { i32::MIN } else { i32::MAX };
    for action in deal.legal_actions(seat) {
        if !matches!(action, Action::Play { .. } | Action::Stop | Action::GoOn) {
            continue;
        }
        let mut next = deal.clone();
        if next.apply(seat, action).is_err() {
            continue;
        }
        let v = minimax(&next);
        best = if maximise { best.max(v) } else { best.min(v) };
    }
    best
}
