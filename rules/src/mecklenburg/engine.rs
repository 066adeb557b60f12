//! Anseggerfips and Duttfips as a game of the platform ([`GameEngine`](crate::GameEngine)).

use crate::mecklenburg;

// Both Mecklenburg games: one series over each game's own options.
crate::engine::holstein_engine!(
    [R: mecklenburg::GameRules] mecklenburg::Series<R>, mecklenburg, rules: R, id: R::ID,
    seats: |_| usize::from(mecklenburg::Deal::PLAYERS), deals: |rules| rules.deals(),
    counted: |s| s.counted(), seeds: |s, seeds| s.set_deal_seeds(seeds)
);
