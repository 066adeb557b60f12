//! Tippen / Dreiblatt as a game of the platform ([`GameEngine`](crate::GameEngine)).

use crate::games::GameId;
use crate::tippen;

// Tippen / Dreiblatt: the seats are the preset's player count; the series counts deals.
crate::engine::holstein_engine!(
    [] tippen::Series, tippen, rules: tippen::Rules, id: GameId::Tippen,
    seats: |rules| usize::from(rules.players), deals: |rules| rules.deals,
    own_view: |s, viewer| s.own_view(viewer)
);
