//! Großenaspe bots answer every prompt with a legal action at every level and table size, stay
//! silent when it is not their turn, choose the same way given the same seed and view, take
//! the obvious decisions, and sample only deals that fit what their seat knows.

use fipsen_bots::arena::Player;
use fipsen_bots::evaluate::draw_layouts;
use fipsen_bots::grossenaspe::{self, Bot, knowledge};
use fipsen_bots::knowledge::Sampler;
use fipsen_bots::rng::Rng;
use fipsen_bots::{Config, Level};
use fipsen_rules::grossenaspe::{Action, Bid, Deal, Outcome, Phase, Rules, Series};
use fipsen_rules::{Card, FirstLead, KiekerShow, Pack, Seat, Seed, Suit};

/// Small sample counts: the same code paths, quicker.
fn light(level: Level) -> Player {
    let c = Config::of(level);
    let config = match level {
        Level::Easy => c,
        Level::Normal => Config { bid_samples: 8, play_samples: 4, decision_samples: 4, ..c },
        Level::Strong => Config { bid_samples: 8, play_samples: 6, decision_samples: 6, enumerate_limit: 40, ..c },
    };
    Player { level, config }
}

fn random_rules(rng: &mut Rng, players: u8) -> Rules {
    Rules {
        players,
        min_bid: 1 + rng.index(2) as u8,
        kieker_show: if rng.index(2) == 0 { KiekerShow::LeftOpponent } else { KiekerShow::Nobody },
        first_lead: if rng.index(2) == 0 { FirstLead::Forehand } else { FirstLead::Declarer },
        loss_factor: 1 + rng.index(2) as u8,
        ..Rules::grossenaspe()
    }
}

fn random_deal(rng: &mut Rng, rules: Rules) -> Deal {
    let dealer = Seat(rng.index(usize::from(rules.players)) as u8);
    Deal::new(rules, 1, dealer, Seed::from_u64(rng.next_u64())).0
}

/// Drives a deal with random legal actions: in the auction the first bid is random (a Kieker
/// or a Fips half the time they are allowed), then everybody passes; the rest at random.
/// Stops once the auction is over if `cards` is `None`, else in the play after `cards` cards,
/// or when the deal is over.
fn drive(rng: &mut Rng, deal: &mut Deal, cards: Option<usize>) {
    let mut played = 0;
    while !deal.is_over() {
        match cards {
            None if deal.phase() != Phase::Auction => return,
            Some(c) if deal.phase() == Phase::Play && played >= c => return,
            _ => {}
        }
        let Some(seat) = deal.turn() else { return };
        let actions = deal.legal_actions(seat);
        let action = if deal.phase() == Phase::Auction {
            if deal.auction().standing().is_none() {
                let special: Vec<Action> = actions
                    .iter()
                    .copied()
                    .filter(|a| matches!(a, Action::Bid { bid: Bid::Kieker | Bid::Fips }))
                    .collect();
                let bids: Vec<Action> = actions.iter().copied().filter(|a| matches!(a, Action::Bid { .. })).collect();
                if !special.is_empty() && rng.index(2) == 0 {
                    special[rng.index(special.len())]
                } else {
                    bids[rng.index(bids.len())]
                }
            } else {
                Action::Pass
            }
        } else {
            let action = actions[rng.index(actions.len())];
            if matches!(action, Action::Fold) && rng.index(4) != 0 { actions[0] } else { action }
        };
        if matches!(action, Action::Play { .. }) {
            played += 1;
        }
        deal.apply(seat, action).expect("a legal action");
    }
}

#[test]
fn bots_answer_legally_at_every_level_and_table_size() {
    let mut rng = Rng::new(4711);
    let mut phases = std::collections::HashSet::new();
    let mut outcomes = std::collections::HashSet::new();
    for i in 0..240u64 {
        let players = 3 + (i % 3) as u8;
        let rules = random_rules(&mut rng, players);
        let mut deal = random_deal(&mut rng, rules);
        let level = Level::ALL[(i / 3 % 3) as usize];
        // Mostly one level at a table, sometimes mixed.
        let seats: Vec<Player> =
            (0..players).map(|_| light(if rng.index(4) == 0 { Level::ALL[rng.index(3)] } else { level })).collect();
        let mut bots: Vec<Bot> = seats.iter().map(|p| Bot::with_config(p.level, p.config, i)).collect();
        while !deal.is_over() {
            let turn = deal.turn().expect("a turn");
            for s in 0..players {
                let seat = Seat(s);
                let view = deal.view(Some(seat));
                let choice = bots[usize::from(s)].choose(&view);
                if seat != turn {
                    assert_eq!(choice, None, "seat {s} answered out of turn");
                    continue;
                }
                let action = choice.expect("asked, the bot answers");
                assert!(deal.legal_actions(seat).contains(&action), "{action:?} not offered in {:?}", deal.phase());
                phases.insert(format!("{:?}", deal.phase()));
                deal.apply(seat, action).unwrap_or_else(|e| panic!("{action:?} refused: {e}"));
                break;
            }
        }
        let outcome = deal.outcome().expect("over");
        outcomes.insert(match outcome {
            Outcome::ThrownIn => "thrown in",
            Outcome::Folded { .. } => "folded",
            Outcome::Won { .. } => "won",
            Outcome::Lost { .. } => "lost",
        });
    }
    for phase in ["Auction", "Discard", "Trumps", "Play", "DurchChoice"] {
        assert!(phases.contains(phase), "phase {phase} never reached: {phases:?}");
    }
    for outcome in ["won", "lost"] {
        assert!(outcomes.contains(outcome), "{outcome} never seen: {outcomes:?}");
    }
}

#[test]
fn bots_answer_legally_in_kieker_and_fips_games() {
    // Random first bids reach the Kieker's discard of seven (or twelve, or two) and its fold,
    // and the Fips's choice of trumps, at every level.
    let mut rng = Rng::new(77);
    let mut seen = std::collections::HashSet::new();
    for i in 0..300u64 {
        let players = 3 + (i % 3) as u8;
        let rules = random_rules(&mut rng, players);
        let mut deal = random_deal(&mut rng, rules);
        // The auction at random, then one bot of each level takes over.
        drive(&mut rng, &mut deal, None);
        let Some(contract) = deal.contract() else { continue };
        if !matches!(contract.bid, Bid::Kieker | Bid::Fips) {
            continue;
        }
        let level = Level::ALL[(i % 3) as usize];
        let mut bot = Bot::with_config(level, light(level).config, i);
        let declarer = deal.declarer().expect("a declarer");
        while matches!(deal.phase(), Phase::Discard | Phase::Trumps) {
            let view = deal.view(Some(declarer));
            let action = bot.choose(&view).expect("the declarer acts");
            assert!(deal.legal_actions(declarer).contains(&action), "{action:?}");
            seen.insert(format!("{:?} {:?}", contract.bid, deal.phase()));
            deal.apply(declarer, action).expect("legal");
        }
    }
    for what in ["Kieker Discard", "Kieker Trumps", "Fips Trumps"] {
        assert!(seen.contains(what), "{what} never reached: {seen:?}");
    }
}

#[test]
fn the_same_seed_and_view_give_the_same_choice() {
    let mut rng = Rng::new(12);
    let mut checked = 0;
    while checked < 30 {
        let players = 3 + rng.index(3) as u8;
        let rules = random_rules(&mut rng, players);
        let mut deal = random_deal(&mut rng, rules);
        let cards = rng.index(12);
        drive(&mut rng, &mut deal, Some(cards));
        let Some(seat) = deal.turn() else { continue };
        let view = deal.view(Some(seat));
        for level in Level::ALL {
            let config = light(level).config;
            let a = Bot::with_config(level, config, 7).choose(&view);
            let b = Bot::with_config(level, config, 7).choose(&view);
            assert_eq!(a, b, "{level:?} in {:?}", view.phase);
            assert!(a.is_some());
        }
        checked += 1;
    }
}

fn card(s: &str) -> Card {
    s.parse().expect("a card code")
}

/// A deal of these hands (seat by seat, seat 0 forehand: the last seat deals), skat and
/// talon; cards not named fill the talon.
fn arranged(rules: Rules, hands: &[[&str; 5]], skat: [&str; 2]) -> Deal {
    let n = usize::from(rules.players);
    let mut slots: Vec<Option<Card>> = vec![None; 32];
    let mut used = Vec::new();
    for (i, hand) in hands.iter().enumerate() {
        for (j, c) in hand.iter().enumerate() {
            let at = if j < 3 { 3 * i + j } else { 3 * n + 2 + 2 * i + (j - 3) };
            slots[at] = Some(card(c));
            used.push(card(c));
        }
    }
    for (j, c) in skat.iter().enumerate() {
        slots[3 * n + j] = Some(card(c));
        used.push(card(c));
    }
    let mut rest = Pack::P32.cards().iter().filter(|c| !used.contains(c));
    let pack: Vec<Card> = slots.iter().map(|s| s.or_else(|| rest.next()).expect("32 cards")).collect();
    Deal::from_pack(rules, 1, Seat(rules.players - 1), &pack).expect("a whole pack").0
}

#[test]
fn a_certain_fips_is_bid_named_and_won() {
    let rules = Rules::grossenaspe();
    let hands = [
        ["SA", "SK", "SQ", "SJ", "S10"],
        ["CA", "CK", "HA", "HK", "DA"],
        ["CQ", "CJ", "HQ", "HJ", "DK"],
        ["C10", "C9", "H10", "H9", "DQ"],
    ];
    for level in [Level::Normal, Level::Strong] {
        let mut deal = arranged(rules, &hands, ["C8", "C7"]);
        let view = deal.view(Some(Seat(0)));
        assert_eq!(Bot::new(level, 1).choose(&view), Some(Action::Bid { bid: Bid::Fips }), "{level:?}");
        deal.apply(Seat(0), Action::Bid { bid: Bid::Fips }).unwrap();
        for s in 1..4 {
            deal.apply(Seat(s), Action::Pass).unwrap();
        }
        assert_eq!(deal.phase(), Phase::Trumps);
        let mut bots: Vec<Bot> = (0..4).map(|s| Bot::new(level, s)).collect();
        let named = bots[0].choose(&deal.view(Some(Seat(0))));
        assert_eq!(named, Some(Action::NameTrumps { suit: Suit::Spades }), "{level:?}");
        while !deal.is_over() {
            let seat = deal.turn().unwrap();
            let action = bots[seat.index()].choose(&deal.view(Some(seat))).unwrap();
            deal.apply(seat, action).unwrap();
        }
        assert!(matches!(deal.outcome(), Some(Outcome::Won { tricks: 5, .. })), "{:?}", deal.outcome());
    }
}

#[test]
fn a_winning_card_is_played_and_a_hopeless_kieker_folds() {
    let rules = Rules::grossenaspe();
    // Seat 0 has no court card and takes a Kieker; every ace and court card but two jacks is
    // against him, the high diamonds with them.
    let hands = [
        ["C7", "S7", "H7", "D7", "C8"],
        ["CA", "CK", "CQ", "SA", "SK"],
        ["SQ", "HA", "HK", "HQ", "DA"],
        ["DK", "DQ", "CJ", "SJ", "HJ"],
    ];
    for level in [Level::Normal, Level::Strong] {
        let mut deal = arranged(rules, &hands, ["DJ", "D10"]);
        deal.apply(Seat(0), Action::Bid { bid: Bid::Kieker }).unwrap();
        for s in 1..4 {
            deal.apply(Seat(s), Action::Pass).unwrap();
        }
        let mut bot = Bot::new(level, 3);
        let discard = bot.choose(&deal.view(Some(Seat(0)))).expect("a discard");
        deal.apply(Seat(0), discard).unwrap();
        assert_eq!(deal.phase(), Phase::Trumps);
        assert_eq!(bot.choose(&deal.view(Some(Seat(0)))), Some(Action::Fold), "{level:?}");
    }
    // A 1 in hearts: the declarer (seat 1) holds no trump, and his ace of clubs is his only
    // trick. Forehand leads the seven of clubs and the others must follow: the ace wins it.
    let hands = [
        ["C7", "C9", "S9", "S10", "HJ"],
        ["CA", "C8", "S7", "S8", "D7"],
        ["CK", "HA", "HK", "HQ", "H10"],
        ["CQ", "H9", "H8", "H7", "SA"],
    ];
    for level in [Level::Normal, Level::Strong] {
        let mut deal = arranged(rules, &hands, ["D8", "D9"]);
        deal.apply(Seat(0), Action::Pass).unwrap();
        deal.apply(Seat(1), Action::Bid { bid: Bid::tricks(1) }).unwrap();
        deal.apply(Seat(2), Action::Pass).unwrap();
        deal.apply(Seat(3), Action::Pass).unwrap();
        let away = [card("D8"), card("D9")].into_iter().collect();
        deal.apply(Seat(1), Action::Discard { cards: away }).unwrap();
        deal.apply(Seat(1), Action::NameTrumps { suit: Suit::Hearts }).unwrap();
        deal.apply(Seat(0), Action::Play { card: card("C7") }).unwrap();
        let view = deal.view(Some(Seat(1)));
        assert_eq!(view.prompt.cards.len(), 2);
        assert_eq!(Bot::new(level, 1).choose(&view), Some(Action::Play { card: card("CA") }), "{level:?}");
    }
}

#[test]
fn sampled_deals_fit_what_the_seat_knows() {
    let mut rng = Rng::new(2024);
    let mut checked = 0;
    let mut kieker = 0;
    while checked < 600 {
        let players = 3 + rng.index(3) as u8;
        let rules = random_rules(&mut rng, players);
        let mut deal = random_deal(&mut rng, rules);
        let cards = rng.index(5 * usize::from(players));
        drive(&mut rng, &mut deal, Some(cards));
        if deal.is_over() {
            continue;
        }
        if deal.contract().is_some_and(|c| c.bid == Bid::Kieker) {
            kieker += 1;
        }
        for s in 0..players {
            let seat = Seat(s);
            let view = deal.view(Some(seat));
            let k = knowledge(&view).expect("a seat's view");
            for o in 0..players {
                if o == s {
                    continue;
                }
                let real = deal.hand(Seat(o)).bits();
                assert_eq!(real & k.forbidden[usize::from(o)], 0, "seat {o} holds a card ruled out: {view:?}");
                assert_eq!(real & !k.pool, 0, "seat {o} holds a card outside the pool: {view:?}");
            }
            let sampler = Sampler::new(&k).expect("the real deal fits");
            assert!(sampler.count() >= 1);
            for l in draw_layouts(&k, 10, 20, &mut rng) {
                let mut all = l.out;
                for o in 0..usize::from(players) {
                    assert_eq!(l.hands[o].count_ones() as u8, view.hand_sizes[o]);
                    assert_eq!(all & l.hands[o], 0);
                    all |= l.hands[o];
                }
                assert_eq!(all & !Pack::P32.cards().bits(), 0);
            }
            checked += 1;
        }
    }
    assert!(kieker > 2, "Kieker positions covered: {kieker}");
}

#[test]
fn a_short_arena_between_the_levels() {
    let mut rng = Rng::new(5);
    for (i, level) in Level::ALL.into_iter().cycle().take(9).enumerate() {
        let rules = Rules { players: 3 + (i % 3) as u8, ..Rules::grossenaspe() };
        let n = usize::from(rules.players);
        let players: Vec<Player> = (0..n).map(|s| Player::of(if s % 2 == 0 { level } else { Level::Normal })).collect();
        let played = grossenaspe::play_deal(rules, Seat(0), Seed::from_u64(rng.next_u64()), &players, i as u64);
        assert_eq!(played.scores.len(), n);
        assert!(played.scores.iter().filter(|&&s| s != 0).count() <= 1, "only the declarer scores");
    }
    // The bot's public shape for a server: a series view in, an action out.
    let (mut series, _) = Series::new(Rules::grossenaspe(), Seed::from_u64(9)).unwrap();
    let mut bots: Vec<Bot> = (0..4).map(|s| Bot::new(Level::Strong, s)).collect();
    while series.deal().outcome().is_none() {
        let seat = series.deal().turn().unwrap();
        let action = bots[seat.index()].choose_in_series(&series.view(Some(seat))).expect("an action");
        series.apply(seat, action).unwrap();
    }
    assert_eq!(bots[0].choose_in_series(&series.view(Some(Seat(0)))), None, "nothing to do once over");
}
