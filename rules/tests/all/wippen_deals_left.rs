//! `deals_left` counts the deals of hand cards still to come in a game, in every position of
//! whole sets for two, three and four players: at each move it equals the `dealt` events that
//! follow in that game, in the game and in every seat's and a spectator's view.

#![allow(clippy::unwrap_used)]

use crate::wippen_common;

use fipsen_rules::Seed;
use fipsen_rules::wippen::{Event, Rules, Series};
use wippen_common::{Rng, random_move};

#[test]
fn deals_left_counts_the_deals_still_to_come_in_every_position_of_whole_sets() {
    let mut rng = Rng(24);
    for players in 2..=4u8 {
        for set in 0..2u64 {
            let rules = Rules { players, ..Rules::default() };
            let (mut series, _) = Series::new(rules, Seed::from_u64(u64::from(players) * 10 + set)).unwrap();
            // Per game: the deals_left seen at each position, and the deals made after it.
            let mut seen: Vec<u8> = Vec::new();
            let mut dealt_after: Vec<u8> = Vec::new();
            let mut games = 0;
            loop {
                let deal = series.deal();
                if deal.is_over() {
                    assert_eq!(deal.deals_left(), 0, "{players} players, game over");
                    assert_eq!(seen, dealt_after, "{players} players, game {}", deal.number());
                    assert_eq!(seen.first().copied(), Some(rules.deals_per_game() - 1), "{players} players");
                    games += 1;
                    seen.clear();
                    dealt_after.clear();
                    if series.is_over() {
                        break;
                    }
                    series.next_deal().unwrap();
                    continue;
                }
                let left = deal.deals_left();
                // The stock holds exactly the cards of the deals to come.
                assert_eq!(deal.stock().len(), usize::from(left) * 4 * usize::from(players), "{players} players");
                for viewer in (0..players).map(|s| Some(fipsen_rules::Seat(s))).chain([None]) {
                    assert_eq!(deal.view(viewer).deals_left, left, "{players} players, viewer {viewer:?}");
                }
                seen.push(left);
                dealt_after.push(0);
                let seat = deal.turn().unwrap();
                let pos = deal.position(seat);
                let raw = pos.raw();
                let mv = random_move(&pos, &raw, &mut rng);
                let events = series.apply(seat, mv).unwrap();
                let deals = events.iter().filter(|e| matches!(e, Event::Dealt { .. })).count() as u8;
                for d in &mut dealt_after {
                    *d += deals;
                }
            }
            assert_eq!(games, u32::from(players), "a set is one game per player");
        }
    }
}
