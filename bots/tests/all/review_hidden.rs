//! The review never reads cards its seat could not see: dealing the unseen cards (the other
//! hands, the skat and the stock) differently, with the same auction, gives the same review of
//! the seat's calls.

use crate::common;

use common::*;
use fipsen_bots::arena::{Player, play_from};
use fipsen_bots::review::review;
use fipsen_bots::rng::Rng;
use fipsen_bots::{Config, Level};
use fipsen_rules::{Card, Deal, Phase, Seat};

/// The pack's positions dealt to `seat` (3 cards each from Vorhand on, the skat, 2 cards each).
fn positions_of(seat: Seat, dealer: Seat, n: u8) -> Vec<usize> {
    let i = usize::from((seat.0 + n - dealer.next(n).0) % n);
    let n = usize::from(n);
    vec![3 * i, 3 * i + 1, 3 * i + 2, 3 * n + 2 + 2 * i, 3 * n + 3 + 2 * i]
}

#[test]
fn the_review_of_the_calls_is_the_same_whatever_the_unseen_cards() {
    let mut rng = Rng::new(77);
    let mut compared = 0;
    let mut tries = 0;
    while compared < 12 && tries < 200 {
        tries += 1;
        let rules = random_rules(&mut rng);
        let n = rules.players.count();
        let dealer = Seat(rng.index(usize::from(n)) as u8);
        let mut pack: Vec<Card> = Deal::PACK.cards().iter().collect();
        for i in (1..pack.len()).rev() {
            pack.swap(i, rng.index(i + 1));
        }
        let pack: [Card; 25] = pack.try_into().unwrap();
        let (deal, _) = Deal::from_pack(rules, 1, dealer, pack).unwrap();
        let normal = Config { bid_samples: 8, play_samples: 4, decision_samples: 8, ..Config::of(Level::Normal) };
        let players: Vec<Player> = (0..n).map(|_| Player { level: Level::Normal, config: normal }).collect();
        let played = play_from(deal.clone(), &players, tries);
        let seat = Seat(rng.index(usize::from(n)) as u8);
        // The same seat's hand; every other card dealt anew.
        let mine = positions_of(seat, dealer, n);
        let mut others: Vec<usize> = (0..25).filter(|p| !mine.contains(p)).collect();
        let cards: Vec<Card> = others.iter().map(|&p| pack[p]).collect();
        for i in (1..others.len()).rev() {
            others.swap(i, rng.index(i + 1));
        }
        let mut other_pack = pack;
        for (&p, &c) in others.iter().zip(&cards) {
            other_pack[p] = c;
        }
        assert_ne!(other_pack, pack);
        let (mut other, _) = Deal::from_pack(rules, 1, dealer, other_pack).unwrap();
        // The same auction, where the other cards allow it (a Kieker needs a hand without
        // court cards, a Siebener Fips the sevens).
        let mut fits = true;
        let mut replay = deal.clone();
        for &(s, action) in &played.actions {
            if replay.phase() != Phase::Auction {
                break;
            }
            replay.apply(s, action).unwrap();
            if other.apply(s, action).is_err() {
                fits = false;
                break;
            }
        }
        if !fits || other.phase() == Phase::Auction {
            continue;
        }
        let other_played = play_from(other.clone(), &players, tries + 1);
        for &(s, action) in &other_played.actions {
            other.apply(s, action).unwrap();
        }
        for &(s, action) in &played.actions[replay_len(&deal, &played.actions)..] {
            replay.apply(s, action).unwrap();
        }
        assert!(replay.is_over() && other.is_over());
        let a = review(&replay.view(Some(seat)), Level::Normal, 9).expect("a finished deal");
        let b = review(&other.view(Some(seat)), Level::Normal, 9).expect("a finished deal");
        assert_eq!(a.dealt, b.dealt);
        assert_eq!(a.estimates, b.estimates, "the estimates read only the seat's hand and the calls");
        assert_eq!(a.calls, b.calls, "every call judged from what the seat knew");
        compared += 1;
    }
    assert!(compared >= 12, "enough deals compared ({compared} of {tries})");
    eprintln!("{compared} deals compared of {tries} tried");
}

/// How many of `actions` belong to the auction of `deal`.
fn replay_len(deal: &Deal, actions: &[(Seat, fipsen_rules::Action)]) -> usize {
    let mut d = deal.clone();
    let mut k = 0;
    for &(s, a) in actions {
        if d.phase() != Phase::Auction {
            break;
        }
        d.apply(s, a).expect("the auction replays");
        k += 1;
    }
    k
}
