//! Großenaspe Fipsen as a game of the platform ([`GameEngine`](crate::GameEngine)).

use crate::games::GameId;
use crate::grossenaspe;

// Großenaspe Fipsen: the seats are the players option; thrown-in deals do not count.
crate::engine::holstein_engine!(
    [] grossenaspe::Series, grossenaspe, rules: grossenaspe::Rules, id: GameId::Grossenaspe,
    seats: |rules| usize::from(rules.players), deals: |rules| rules.deals,
    counted: |s| s.counted(), seeds: |s, seeds| s.set_deal_seeds(seeds)
);
