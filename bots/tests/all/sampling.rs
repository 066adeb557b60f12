//! Sampled deals hold no card the bot has seen elsewhere, respect every known void, and the
//! knowledge never rules out the real deal.

use crate::common;

use common::*;
use fipsen_bots::cards::{PACK, SUIT_MASKS, suit_of};
use fipsen_bots::evaluate::draw_layouts;
use fipsen_bots::knowledge::{Knowledge, Sampler};
use fipsen_bots::rng::Rng;
use fipsen_rules::{Deal, DealView, Phase, Seat};

/// The voids a view shows, worked out here independently: a seat that did not follow the suit
/// led holds none of it.
fn voids(view: &DealView) -> [u64; 4] {
    let mut v = [0u64; 4];
    for trick in view.tricks.iter().map(|t| &t.cards[..]).chain(std::iter::once(&view.trick[..])) {
        let Some(lead) = trick.first() else { continue };
        for p in trick {
            if p.card.suit() != lead.card.suit() {
                v[p.seat.index()] |= SUIT_MASKS[suit_of(lead.card.index())];
            }
        }
    }
    v
}

/// Every card the viewer has seen outside the other hands: his own hand, the cards played, his
/// discards, a skat or stock he took, a thrown Kieker hand.
fn seen_elsewhere(view: &DealView) -> u64 {
    let mut seen = view.hand.map_or(0, |h| h.bits());
    for p in view.tricks.iter().flat_map(|t| t.cards.iter()).chain(view.trick.iter()) {
        seen |= 1 << p.card.index();
    }
    seen |= view.discards.map_or(0, |d| d.bits());
    seen |= view.skat.map_or(0, |d| d.bits());
    seen |= view.stock.map_or(0, |d| d.bits());
    if view.rules.players == fipsen_rules::Players::Three {
        seen |= view.kieker_hand.map_or(0, |d| d.bits());
    }
    seen
}

fn check(deal: &Deal, seat: Seat, rng: &mut Rng) {
    let view = deal.view(Some(seat));
    let k = Knowledge::from_view(&view).expect("a seat's view");
    let n = deal.players();
    // The knowledge is sound: the real hands break none of its rules.
    for s in 0..n {
        let real = deal.hand(Seat(s)).bits();
        if s != seat.0 {
            assert_eq!(real & k.forbidden[usize::from(s)], 0, "seat {s} holds a card ruled out: {view:?}");
            assert_eq!(real & !k.pool, 0, "seat {s} holds a card outside the pool");
        }
    }
    let sampler = Sampler::new(&k).expect("the real deal fits, so some layout does");
    assert!(sampler.count() >= 1);
    let seen = seen_elsewhere(&view);
    let void = voids(&view);
    let hand = view.hand.expect("a seat's hand").bits();
    let layouts = draw_layouts(&k, 30, 50, rng);
    assert!(!layouts.is_empty());
    for l in &layouts {
        assert_eq!(l.hands[seat.index()], hand, "own hand as it is");
        let mut all = l.out;
        for s in 0..n {
            let h = l.hands[usize::from(s)];
            assert_eq!(h.count_ones() as u8, view.hand_sizes[usize::from(s)], "hand size of seat {s}");
            assert_eq!(all & h, 0, "a card in two places");
            all |= h;
            if s != seat.0 {
                assert_eq!(h & seen, 0, "seat {s} given a card the viewer saw elsewhere");
                assert_eq!(h & void[usize::from(s)], 0, "seat {s} given a card of a suit he is void in");
            }
        }
        assert_eq!(all & !PACK, 0);
        assert_eq!(l.out & seen, 0, "out cards are unseen ones");
        // A 4-player Kieker's shown cards are with him or laid away, never with the others.
        if let (Some(shown), Some(d)) = (view.kieker_hand, deal.declarer())
            && n == 4
            && seat != d
        {
            for s in 0..n {
                if s != d.0 && s != seat.0 {
                    assert_eq!(l.hands[usize::from(s)] & shown.bits(), 0);
                }
            }
        }
    }
}

#[test]
fn sampled_deals_fit_everything_the_seat_knows() {
    let mut rng = Rng::new(31337);
    let mut checked = 0;
    let mut kieker = 0;
    let mut voids_seen = 0;
    while checked < 1500 {
        let rules = random_rules(&mut rng);
        let mut deal = random_deal(&mut rng, rules);
        if !to_play(&mut rng, &mut deal) {
            continue;
        }
        let n = usize::from(rules.players.count());
        let cards = rng.index(5 * n - 1);
        if !play_random(&mut rng, &mut deal, cards) || deal.phase() != Phase::Play {
            continue;
        }
        for s in 0..rules.players.count() {
            let view = deal.view(Some(Seat(s)));
            if voids(&view).iter().any(|&v| v != 0) {
                voids_seen += 1;
            }
            check(&deal, Seat(s), &mut rng);
            checked += 1;
        }
        if deal.contract().is_some_and(|c| c.is_kieker()) {
            kieker += 1;
        }
    }
    assert!(kieker > 5, "Kieker deals covered: {kieker}");
    assert!(voids_seen > 100, "positions with voids covered: {voids_seen}");
}

#[test]
fn knowledge_in_the_auction_sees_only_the_own_hand() {
    let mut rng = Rng::new(8);
    for _ in 0..200 {
        let rules = random_rules(&mut rng);
        let deal = random_deal(&mut rng, rules);
        let seat = deal.turn().unwrap();
        check(&deal, seat, &mut rng);
        let k = Knowledge::from_view(&deal.view(Some(seat))).unwrap();
        assert_eq!(k.pool, PACK & !deal.hand(seat).bits());
        assert_eq!(k.out_count(), 25 - 5 * usize::from(rules.players.count()));
    }
}
