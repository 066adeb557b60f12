//! Thedinghausen Fipsen as a game of the platform ([`GameEngine`](crate::GameEngine)).

use crate::games::GameId;
use crate::thedinghausen;

// Thedinghausen Fipsen: five seats; a series runs by rounds, not deals.
crate::engine::holstein_engine!(
    [] thedinghausen::Series, thedinghausen, rules: thedinghausen::Rules, id: GameId::Thedinghausen,
    seats: |_| usize::from(thedinghausen::Deal::PLAYERS), deals: |_| None
);
