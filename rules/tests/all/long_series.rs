//! Long series of every game, every Tippen preset and every table size, played by players who
//! never pass where they may play: no counter ever overflows and every score stays what its
//! game says it is.
//!
//! The tests are built with overflow checks, so any arithmetic that leaves its type panics
//! here; besides, each series's totals are checked after every action to move by no more than
//! the game allows, and Tippen's middle (pot and reserve) to stay within the table's `max_pot`
//! with balances, pot and reserve summing to zero. A Tippen pot whose bête is the pot would,
//! unbounded, pass 2³¹ within a dozen deals at ten seats.

use fipsen_rules::tippen::{self, Preset};
use fipsen_rules::{AnyGame, GameAction, GameId, GameRules, Seat, Seed};
use serde_json::{Value, json};

/// A small deterministic generator (the tests must not depend on the run).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

/// The action of a player who always plays: join (or rob) in Tippen where he may, never shove
/// or drop out; otherwise any legal action.
fn choose(game: &AnyGame, seat: Seat, rng: &mut Rng) -> GameAction {
    let legal = game.legal_actions(seat);
    if let AnyGame::Tippen(_) = game {
        let tippen = |a: &GameAction| match a {
            GameAction::Tippen(a) => Some(*a),
            _ => None,
        };
        let actions: Vec<tippen::Action> = legal.iter().filter_map(|a| tippen(&a)).collect();
        let keen = [tippen::Action::Join, tippen::Action::Deal];
        if let Some(action) = keen.iter().find(|a| actions.contains(a)) {
            return GameAction::Tippen(*action);
        }
        let rest: Vec<tippen::Action> =
            actions.into_iter().filter(|a| !matches!(a, tippen::Action::DropOut | tippen::Action::Shove)).collect();
        return GameAction::Tippen(rest[rng.below(rest.len())]);
    }
    legal.get(rng.below(legal.len())).expect("a seat that may act has an action")
}

/// The seat to act: the one whose turn it is, or any seat with an action (out of turn).
fn actor(game: &AnyGame) -> Option<Seat> {
    if let Some(seat) = game.turn().filter(|&s| game.can_act(s)) {
        return Some(seat);
    }
    (0..game.seats() as u8).map(Seat).find(|&s| game.can_act(s))
}

/// Tippen's counters: the middle within `max_pot`, nothing negative in it, the zero sum.
fn check_tippen(series: &tippen::Series, rules: &Value) {
    let (pot, reserve) = (i64::from(series.pot()), i64::from(series.reserve()));
    let limit = i64::from(series.rules().max_pot);
    assert!(pot >= 0 && reserve >= 0, "pot {pot}, reserve {reserve}: {rules}");
    assert!(pot + reserve <= limit, "the middle {} passed max_pot {limit}: {rules}", pot + reserve);
    let played_for = i64::from(series.deal().played_for());
    assert!((0..=limit).contains(&played_for), "played for {played_for}: {rules}");
    let sum: i64 = series.totals().iter().map(|&b| i64::from(b)).sum();
    assert_eq!(sum + pot + reserve, 0, "balances, pot and reserve sum to zero: {rules}");
}

/// Plays `deals` deals (or the series's end, if sooner) and returns how many were dealt and
/// the most one action moved a balance. `step` bounds how far one action may move a balance.
fn play_long(rules: Value, deals: u32, step: i64, seed: u64) -> (u32, i64) {
    let parsed: GameRules = serde_json::from_value(rules.clone()).unwrap_or_else(|e| panic!("{rules}: {e}"));
    let (mut game, _) = AnyGame::start(&parsed, Seed::from_u64(seed)).unwrap_or_else(|e| panic!("{rules}: {e}"));
    let mut rng = Rng(seed);
    let mut before: Vec<i64> = game.totals().iter().map(|&t| i64::from(t)).collect();
    let mut actions = 0u64;
    let mut largest = 0;
    while !game.series_over() && game.deal_number() <= deals {
        if game.deal_over() {
            if game.deal_number() == deals {
                break;
            }
            game.next_deal().unwrap_or_else(|e| panic!("{rules}: {e}"));
        } else {
            let seat = actor(&game).unwrap_or_else(|| panic!("nobody can act in a running deal: {rules}"));
            let action = choose(&game, seat, &mut rng);
            game.apply(seat, &action).unwrap_or_else(|e| panic!("{rules}: {action:?}: {e}"));
            actions += 1;
            assert!(actions < u64::from(deals) * 2_000, "the deals end: {rules}");
        }
        let now: Vec<i64> = game.totals().iter().map(|&t| i64::from(t)).collect();
        for (a, b) in before.iter().zip(&now) {
            assert!((a - b).abs() <= step, "a balance moved from {a} to {b} in one step: {rules}");
            largest = largest.max((a - b).abs());
        }
        before = now;
        if let AnyGame::Tippen(series) = &game {
            check_tippen(series, &rules);
        }
    }
    (game.deal_number(), largest)
}

/// The table sizes of every game but Tippen, with the rules that make a long series.
fn other_tables(deals: u32) -> Vec<Value> {
    let mut tables = Vec::new();
    for players in [3, 4] {
        tables.push(json!({"game": "prisdorf", "players": players, "deals": deals}));
    }
    for players in [3, 4, 5] {
        tables.push(json!({"game": "grossenaspe", "players": players, "deals": deals}));
    }
    tables.push(json!({"game": "anseggerfips", "deals": deals}));
    tables.push(json!({"game": "duttfips", "deals": deals}));
    tables.push(json!({"game": "thedinghausen"}));
    for players in [2, 3, 4] {
        tables.push(json!({"game": "wippen", "players": players, "deals": deals}));
    }
    tables
}

#[test]
fn every_game_plays_long_series_without_a_counter_overflowing() {
    let mut games = std::collections::BTreeSet::new();
    for (i, rules) in other_tables(150).into_iter().enumerate() {
        games.insert(rules["game"].as_str().unwrap().to_string());
        // No game's deal moves a balance by anywhere near this.
        let (dealt, largest) = play_long(rules.clone(), 150, 10_000, 100 + i as u64);
        assert!(dealt >= 3, "a long series: {dealt} deals of {rules}");
        println!("{rules}: {dealt} deals, a balance moved by at most {largest} in one action");
    }
    games.insert("tippen".into());
    let all: std::collections::BTreeSet<String> = GameId::ALL.iter().map(|g| g.code().to_string()).collect();
    assert_eq!(games, all, "every game is played");
}

/// Every preset at every table size, with the default limit and with the largest a table may
/// choose; the bête is the pot in every preset but Grupp's.
#[test]
fn tippen_stakes_stay_bounded_in_long_series_of_every_preset_and_table_size() {
    let (_, largest) = tippen::MAX_POT_RANGE;
    for preset in Preset::ALL {
        let (min, max) = preset.player_range();
        for players in min..=max {
            for max_pot in [None, Some(largest)] {
                let mut rules = json!({"game": "tippen", "preset": preset.id(), "players": players});
                if let Some(limit) = max_pot {
                    rules["max_pot"] = json!(limit);
                }
                // A deal moves a balance by a share, an ante or a payment of at most twice the
                // pot played for, all within the limit.
                let limit = i64::from(max_pot.unwrap_or(tippen::DEFAULT_MAX_POT));
                let (deals, _) = play_long(rules.clone(), 120, 2 * limit, u64::from(players) * 31 + preset as u64);
                assert_eq!(deals, 120, "an open series keeps dealing: {rules}");
            }
        }
    }
}

/// Big tables reach the limit: the middle fills up to `max_pot` and stays there.
#[test]
fn a_big_table_whose_bete_is_the_pot_fills_the_middle_to_the_limit_and_no_further() {
    for (preset, players) in [(Preset::Dreiblatt1859, 10), (Preset::Vierblatt, 10), (Preset::Meyers1905, 7)] {
        let rules = tippen::Rules { max_pot: 600, ..tippen::Rules::preset(preset, players) };
        let (mut series, _) = tippen::Series::new(rules, Seed::from_u64(9)).expect("valid");
        let mut rng = Rng(5);
        let mut full = 0;
        for _ in 0..60 {
            while !series.deal().is_over() {
                let seat = series.deal().turn().expect("someone acts");
                let legal = series.legal_actions(seat);
                let action = if legal.contains(&tippen::Action::Join) {
                    tippen::Action::Join
                } else {
                    legal[rng.below(legal.len())]
                };
                series.apply(seat, action).expect("legal");
            }
            let middle = series.pot() + series.reserve();
            assert!(middle <= 600, "{preset:?} {players}: {middle}");
            full += usize::from(middle == 600);
            series.next_deal().expect("open series");
        }
        assert!(full > 40, "{preset:?} at {players} seats: the middle was full after {full} of 60 deals");
    }
}
