//! What a Wippen prompt shows the player to move: bounded in size on the largest tables, the
//! sets of fewest piles where sets must be left out, every usable pile named even then, and a
//! few whole moves per hand card, each legal and written with its arithmetic.

#![allow(clippy::unwrap_used)]

use crate::wippen_common;

use fipsen_rules::wippen::{Deal, Move, PROMPT_READY_PER_CARD, PROMPT_SETS_PER_CARD, Pile, Rules, Series};
use fipsen_rules::{CardSet, Seat, Seed};
use wippen_common::{Rng, eval, random_move, set};

/// Every set of the raw listing of one hand card, captures and builds.
fn all_sets(raw: &fipsen_rules::wippen::RawCard) -> Vec<u64> {
    let mut sets = raw.capture.clone();
    for b in &raw.builds {
        sets.extend(b.cores.iter().chain(&b.extras).copied().filter(|&m| m != 0));
    }
    sets
}

fn mask(indices: &[u8]) -> u64 {
    indices.iter().fold(0, |m, &i| m | (1 << i))
}

/// The prompt's promises about one position of `seat`.
fn check_prompt(deal: &Deal, seat: Seat) {
    let view = deal.view(Some(seat));
    let pos = deal.position(seat);
    let raw = pos.raw();
    assert_eq!(view.prompt.moves.len(), raw.len());
    for (cp, rc) in view.prompt.moves.iter().zip(&raw) {
        assert_eq!(cp.card, rc.card);
        // Every pile some set uses is named, whether its set is listed or not.
        let used = all_sets(rc).iter().fold(0, |u, &m| u | m);
        assert_eq!(mask(&cp.usable), used, "{}", cp.card);
        // Where sets are left out, the captures listed are those of fewest piles.
        let listed: Vec<u64> = cp.capture.iter().map(|s| mask(s)).collect();
        assert!(listed.iter().all(|m| rc.capture.contains(m)));
        if listed.len() < rc.capture.len() {
            assert!(cp.truncated);
            let most = listed.iter().map(|m| m.count_ones()).max().unwrap_or(0);
            let fewest_left = rc.capture.iter().filter(|m| !listed.contains(m)).map(|m| m.count_ones()).min().unwrap();
            assert!(most <= fewest_left, "{}: a set of {most} listed, one of {fewest_left} left out", cp.card);
        }
        // The ready moves: legal, with this card, each group worth its target, a capture among
        // them when the card can capture.
        assert!(cp.ready.len() <= PROMPT_READY_PER_CARD);
        for m in &cp.ready {
            assert_eq!(deal.check(seat, m), Ok(()), "{m:?}");
            assert_eq!(m.card(), cp.card);
            let (target, groups) = match m {
                Move::Capture { groups, .. } => (u64::from(fipsen_rules::wippen::value(cp.card)), groups),
                Move::Build { value, groups, .. } => (u64::from(*value), groups),
                Move::Discard { .. } => panic!("a discard among the ready moves"),
            };
            for g in groups {
                assert_eq!(eval(g, deal.table(), cp.card), Some(target), "{m:?}");
            }
        }
        if !rc.capture.is_empty() {
            assert!(cp.ready.iter().any(|m| matches!(m, Move::Capture { .. })), "{}: no capture ready", cp.card);
        }
    }
}

#[test]
fn prompts_of_random_games_name_every_usable_pile_and_offer_legal_moves() {
    let mut rng = Rng(9);
    let mut positions = 0;
    for i in 0..6u64 {
        let rules = Rules { players: 2 + (i % 3) as u8, ..Rules::default() };
        let (mut series, _) = Series::new(rules, Seed::from_u64(100 + i)).unwrap();
        while !series.is_over() {
            if series.deal().is_over() {
                series.next_deal().unwrap();
                continue;
            }
            let deal = series.deal();
            let seat = deal.turn().unwrap();
            check_prompt(deal, seat);
            positions += 1;
            let pos = deal.position(seat);
            let raw = pos.raw();
            let m = random_move(&pos, &raw, &mut rng);
            series.apply(seat, m).unwrap();
        }
    }
    assert!(positions > 100);
}

#[test]
fn a_crowded_table_lists_the_smallest_groups_and_stays_small() {
    // 24 small loose cards: hundreds of ways to make 10 or 13, most of them of four piles.
    let hand = set("D10 HK SQ C9");
    let table: Vec<Pile> = CardSet::ALL
        .difference(hand)
        .iter()
        .filter(|c| fipsen_rules::wippen::value(*c) <= 6)
        .take(24)
        .map(|card| Pile::Loose { card })
        .collect();
    let deal = Deal::arranged(Rules::default(), Seat(1), table, vec![hand, CardSet::EMPTY], Vec::new(), Seat(0));
    let raw = deal.position(Seat(0)).raw();
    assert!(
        raw.iter().any(|rc| rc.capture.len() > PROMPT_SETS_PER_CARD),
        "the table must hold more sets than a prompt"
    );
    check_prompt(&deal, Seat(0));
    let prompt = deal.view(Some(Seat(0))).prompt;
    assert!(prompt.moves.iter().any(|c| c.truncated));
}

#[test]
fn the_prompt_of_the_largest_table_with_groups_of_six_piles_is_bounded_in_bytes() {
    // 45 loose cards, four in the hand: millions of sets; the prompt stays far below the
    // server's reply limit (256 KiB).
    let hand = set("HK SQ D10 C2");
    let table: Vec<Pile> = CardSet::ALL.difference(hand).iter().take(45).map(|card| Pile::Loose { card }).collect();
    let n = table.len();
    let rules = Rules { max_group_piles: 6, ..Rules::default() };
    let deal = Deal::arranged(rules, Seat(1), table, vec![hand, CardSet::EMPTY], Vec::new(), Seat(0));
    let prompt = deal.view(Some(Seat(0))).prompt;
    let bytes = serde_json::to_string(&prompt).unwrap().len();
    assert!(bytes < 64 * 1024, "{bytes} bytes");
    for card in &prompt.moves {
        assert!(card.truncated);
        assert_eq!(card.usable.len(), n, "every pile may be usable where the listing is cut short");
        for m in &card.ready {
            assert_eq!(deal.check(Seat(0), m), Ok(()), "{m:?}");
        }
    }
}
