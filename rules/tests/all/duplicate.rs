//! Duplicate deals ([`DealSeeds::ByCountedDeal`]): tables that share a master seed get the same
//! cards and the same dealer for their `d`-th deal that counts, however many deals each throws
//! in; a re-deal after a thrown-in deal is the same at every table that throws that deal in.
//! The platform's way ([`DealSeeds::ByDeal`]) puts such tables out of step.

#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use fipsen_rules::{AnyGame, DealSeeds, GameId, GameRules, Seat, Seed};
use serde_json::{Value, json};

/// One dealing as the players got it: the dealer and each seat's hand.
type Dealing = (Value, Vec<Value>);

/// How a table decides in the auction.
#[derive(Clone, Copy)]
enum Table {
    /// Someone always bids: no deal is thrown in.
    Bids,
    /// Everyone passes at the first dealing of counted deal 2 and at its first re-deal, so that
    /// deal is thrown in twice; otherwise as [`Table::Bids`].
    ThrowsIn,
}

fn is_pass(action: &Value) -> bool {
    action["action"] == "pass"
}

/// Plays `deals` counted deals with `rules`, dealt from `master` as `seeds` says; returns every
/// dealing by (deals counted before it, re-deal number).
fn play(rules: &GameRules, master: Seed, seeds: DealSeeds, table: Table, deals: u32) -> BTreeMap<(u32, u32), Dealing> {
    let (mut game, _) = AnyGame::start(rules, master).unwrap();
    game.set_deal_seeds(seeds);
    let n = game.seats();
    let mut dealings = BTreeMap::new();
    let mut redeals = 0;
    let mut counted_before = 0;
    let record = |game: &AnyGame, redeals: u32, dealings: &mut BTreeMap<(u32, u32), Dealing>| {
        let view = |seat: Option<Seat>| serde_json::to_value(game.view(seat)).unwrap();
        let dealer = view(None)["deal"]["dealer"].clone();
        let hands: Vec<Value> = (0..n as u8).map(|s| view(Some(Seat(s)))["deal"]["hand"].clone()).collect();
        assert!(hands.iter().all(|h| h.as_array().is_some_and(|cards| cards.len() >= 3)), "{hands:?}");
        assert!(dealer.is_u64(), "{dealer}");
        dealings.insert((game.counted(), redeals), (dealer, hands));
    };
    record(&game, 0, &mut dealings);
    for _step in 0..20_000 {
        if game.counted() >= deals {
            return dealings;
        }
        if game.deal_over() {
            // A deal that leaves the count where it was was thrown in: the next is its re-deal.
            let thrown_in = game.counted() == counted_before;
            game.next_deal().unwrap();
            redeals = if thrown_in { redeals + 1 } else { 0 };
            counted_before = game.counted();
            record(&game, redeals, &mut dealings);
            continue;
        }
        let seat = game.turn().unwrap_or_else(|| {
            (0..n as u8).map(Seat).find(|&s| !game.legal_actions(s).is_empty()).expect("someone may act")
        });
        let legal: Vec<Value> = game.legal_actions(seat).iter().map(|a| serde_json::to_value(a).unwrap()).collect();
        let throw_in = matches!(table, Table::ThrowsIn) && game.counted() == 1 && redeals < 2;
        let choice = if throw_in {
            legal.iter().find(|a| is_pass(a)).or(legal.first())
        } else {
            // Bid where one may (no deal thrown in), and otherwise the first listed action.
            legal.iter().find(|a| a["action"] == "bid").or_else(|| legal.iter().find(|a| !is_pass(a))).or(legal.first())
        };
        let action = fipsen_rules::GameAction::from_json(game.game(), choice.unwrap().clone()).unwrap();
        game.apply(seat, &action).unwrap();
    }
    panic!("{deals} deals were not played");
}

fn games() -> Vec<GameRules> {
    let rules = |game: GameId, extra: Value| {
        let mut value = serde_json::to_value(GameRules::default_for(game)).unwrap();
        value.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        serde_json::from_value::<GameRules>(value).unwrap()
    };
    vec![
        rules(GameId::Prisdorf, json!({"players": 4, "deals": 6})),
        rules(GameId::Prisdorf, json!({"players": 3, "deals": 6})),
        rules(GameId::Grossenaspe, json!({"players": 4, "deals": 6})),
        rules(GameId::Anseggerfips, json!({"deals": 6})),
    ]
}

#[test]
fn tables_with_one_master_seed_deal_the_same_counted_deals_whatever_they_throw_in() {
    for rules in games() {
        for m in 1..=3u64 {
            let master = Seed::from_u64(m);
            let steady = play(&rules, master, DealSeeds::ByCountedDeal, Table::Bids, 5);
            let thrown = play(&rules, master, DealSeeds::ByCountedDeal, Table::ThrowsIn, 5);
            let game = rules.game().code();
            assert!(thrown.contains_key(&(1, 2)), "{game}: deal 2 was thrown in twice: {:?}", thrown.keys());
            assert!(steady.keys().all(|(_, redeal)| *redeal == 0), "{game}: no deal thrown in");
            for d in 0..5 {
                assert_eq!(thrown[&(d, 0)], steady[&(d, 0)], "{game}, master {m}: counted deal {}", d + 1);
            }
            // A re-deal is the same wherever that deal is thrown in, and not the first dealing.
            let again = play(&rules, master, DealSeeds::ByCountedDeal, Table::ThrowsIn, 5);
            assert_eq!(again, thrown);
            assert_ne!(thrown[&(1, 1)].1, thrown[&(1, 0)].1);
            assert_ne!(thrown[&(1, 2)].1, thrown[&(1, 1)].1);
        }
    }
}

#[test]
fn the_platforms_way_puts_a_table_that_throws_in_out_of_step_and_is_unchanged_without() {
    for rules in games() {
        let master = Seed::from_u64(9);
        let steady = play(&rules, master, DealSeeds::ByDeal, Table::Bids, 5);
        let duplicate = play(&rules, master, DealSeeds::ByCountedDeal, Table::Bids, 5);
        assert_eq!(steady, duplicate, "both ways deal the same while nothing is thrown in");
        let thrown = play(&rules, master, DealSeeds::ByDeal, Table::ThrowsIn, 5);
        assert_ne!(thrown[&(2, 0)].1, steady[&(2, 0)].1, "deal 3 is out of step after deal 2 was thrown in");
    }
}

#[test]
fn deal_seeds_follow_the_documented_streams() {
    let master = Seed::from_u64(4);
    assert_eq!(DealSeeds::ByDeal.seed(&master, 7, 5, 2), master.derive(7));
    assert_eq!(DealSeeds::ByCountedDeal.seed(&master, 7, 5, 0), master.derive(5));
    let redeal = DealSeeds::ByCountedDeal.seed(&master, 7, 5, 2);
    assert!((0..64).all(|k| redeal != master.derive(k)));
    assert_ne!(redeal, DealSeeds::ByCountedDeal.seed(&master, 7, 5, 1));
    assert_ne!(redeal, DealSeeds::ByCountedDeal.seed(&master, 7, 4, 2));
    assert_eq!(serde_json::to_value(DealSeeds::ByCountedDeal).unwrap(), json!("by_counted_deal"));
}
