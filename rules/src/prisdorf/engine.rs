//! Prisdorf Fipsen as a game of the platform ([`GameEngine`](crate::GameEngine)).

use crate::games::GameId;
use crate::prisdorf;

// The seats are the players option; thrown-in deals do not count. Out of turn, bots consider
// only a Siebener Fips (a Kieker's give-up is weighed at their own turns), so nobody waits for
// a bot that will do nothing.
crate::engine::holstein_engine!(
    [] prisdorf::Series, prisdorf, rules: prisdorf::RuleSet, id: GameId::Prisdorf,
    seats: |rules| usize::from(rules.players.count()), deals: |rules| rules.deals,
    counted: |s| s.counted(), seeds: |s, seeds| s.set_deal_seeds(seeds),
    own_view: |s, viewer| s.own_view(viewer),
    bot_out_of_turn: |s, seat| {
        s.deal().turn() != Some(seat) && s.deal().legal_actions(seat).contains(&prisdorf::Action::SiebenerFips)
    }
);
