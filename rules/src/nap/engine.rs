//! Nap as a game of the platform ([`GameEngine`](crate::GameEngine)).
//!
//! Nap is not registered yet, and `GameEngine::ID` names a registered game only; until its
//! registry line (`Nap => crate::nap::Series, "nap", "Nap";` in `games.rs`) is added, this
//! implementation is built for the crate's own tests alone, with Prisdorf's id standing in (the
//! tests never read it). Registering Nap: add that line, drop the `cfg(test)` on this module in
//! `nap/mod.rs`, and set `id: GameId::Nap`.

use crate::games::GameId;
use crate::nap;

// The seats are the players option; the series counts deals.
crate::engine::holstein_engine!(
    [] nap::Series, nap, rules: nap::Rules, id: GameId::Prisdorf,
    seats: |rules| usize::from(rules.players), deals: |rules| rules.deals
);
