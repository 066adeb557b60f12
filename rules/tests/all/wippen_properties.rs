//! Random Wippen games: nothing panics, every card is in exactly one place, a move is
//! accepted exactly when the listing describes it, a refused move changes nothing, and the
//! views and events hide the other hands and the stock.

#![allow(clippy::unwrap_used)]

use crate::wippen_common;

use fipsen_rules::wippen::{Op, Operators, Rules, Series};
use fipsen_rules::{CardSet, GameEngine, Seat, Seed};
use wippen_common::{Rng, listed, mutate, random_move};

fn rules_of(i: u64) -> Rules {
    Rules {
        players: 2 + (i % 3) as u8,
        sets: 1,
        operators: match i % 5 {
            0 => Operators::PLUS,
            1 => Operators::of(&[Op::Add, Op::Sub]),
            2 => Operators::of(&[Op::Mul, Op::Div, Op::Add]),
            _ => Operators::ALL,
        },
        max_group_piles: [4, 3, 2, 4, 4][(i % 5) as usize],
        keep_promise: i % 4 != 1,
        last_move_sweep: i % 3 != 2,
        deals: None,
    }
}

/// The codes of every card named anywhere in a JSON text.
fn cards_in(text: &str) -> CardSet {
    CardSet::ALL.iter().filter(|c| text.contains(&format!("\"{c}\""))).collect()
}

#[test]
fn random_games_keep_every_card_once_and_accept_exactly_the_listed_moves() {
    let mut rng = Rng(99);
    let mut moves = 0;
    let mut refused = 0;
    let mut multi = 0;
    for i in 0..24u64 {
        let rules = rules_of(i);
        let (mut series, _) = Series::new(rules, Seed::from_u64(i)).unwrap();
        let n = rules.players;
        while !series.is_over() {
            if series.deal().is_over() {
                series.next_deal().unwrap();
                continue;
            }
            let deal = series.deal();
            // Every card exactly once across stock, hands, table and captured cards.
            let all = deal.all_cards();
            assert_eq!(all.len(), 52);
            assert_eq!(all.iter().copied().collect::<CardSet>(), CardSet::ALL);
            let seat = deal.turn().unwrap();
            for s in (0..n).map(Seat) {
                // The cheap answer agrees with the listing.
                assert_eq!(GameEngine::can_act(&series, s), !series.legal_actions(s).is_empty(), "seat {s:?}");
                if s != seat {
                    assert!(series.legal_actions(s).is_empty());
                    assert!(series.check(s, &series.legal_actions(seat)[0]).is_err());
                }
            }
            let pos = deal.position(seat);
            let raw = pos.raw();
            // Every simple move is listed and accepted.
            for m in series.legal_actions(seat) {
                assert!(listed(&pos, &raw, &m), "{m:?}");
                assert_eq!(series.check(seat, &m), Ok(()), "{m:?}");
            }
            // Mutated moves: accepted exactly when listed; a refusal changes nothing.
            let chosen = random_move(&pos, &raw, &mut rng);
            assert!(listed(&pos, &raw, &chosen), "{chosen:?}");
            for _ in 0..12 {
                let m = mutate(&chosen, &pos, &mut rng);
                let ok = series.check(seat, &m).is_ok();
                assert_eq!(ok, listed(&pos, &raw, &m), "{m:?} on {:?} with {:?}", deal.table(), deal.hand(seat));
                if !ok {
                    refused += 1;
                    let mut copy = series.clone();
                    assert!(copy.apply(seat, m).is_err());
                    assert_eq!(copy, series, "a refused move changed the game");
                }
            }
            if chosen.groups().len() > 1 {
                multi += 1;
            }
            let events = series.apply(seat, chosen).unwrap();
            moves += 1;
            // Views and events hide the other hands and the stock.
            let deal = series.deal();
            let hidden_from = |viewer: Option<Seat>| -> CardSet {
                let mut h: CardSet = deal.stock().iter().copied().collect();
                for s in (0..n).map(Seat) {
                    if Some(s) != viewer {
                        h = h.union(deal.hand(s));
                    }
                }
                h
            };
            for viewer in (0..n).map(|s| Some(Seat(s))).chain([None]) {
                let hidden = hidden_from(viewer);
                let view = serde_json::to_string(&series.view(viewer)).unwrap();
                assert!(cards_in(&view).intersection(hidden).is_empty(), "{viewer:?} sees a hidden card");
                for e in &events {
                    let text = serde_json::to_string(&e.for_viewer(viewer)).unwrap();
                    assert!(cards_in(&text).intersection(hidden).is_empty(), "{viewer:?}: {text}");
                }
                if let Some(v) = viewer {
                    assert_eq!(series.view(viewer).deal.hand, Some(deal.hand(v)));
                    assert_eq!(series.view(viewer).deal.prompt.is_empty(), deal.turn() != Some(v));
                }
            }
        }
        // The scoresheet adds up.
        let sheet = series.scoresheet();
        assert_eq!(sheet.len() as u32, rules.games());
        let sum: Vec<i32> = (0..usize::from(n)).map(|s| sheet.iter().map(|r| r.points[s]).sum()).collect();
        assert_eq!(sum, series.totals());
    }
    assert!(moves > 24 * 40, "{moves} moves");
    assert!(refused > moves, "{refused} refusals");
    assert!(multi > 10, "{multi} moves of several groups");
}
