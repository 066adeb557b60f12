//! Anseggerfips and Duttfips bots answer every prompt with a legal action at every level and
//! over the tables' options, stay silent when it is not their turn, choose the same way given
//! the same seed and view, and take the obvious decisions.

use std::collections::HashSet;

use fipsen_bots::arena::Player;
use fipsen_bots::mecklenburg::{self, Bot, knowledge};
use fipsen_bots::rng::Rng;
use fipsen_bots::{Config, Level};
use fipsen_rules::mecklenburg::{
    Action, AnseggerfipsRules, AuctionKind, Bid, Deal, DuttUse, Duttfips, DuttfipsRules, Outcome, Phase, Rules,
};
use fipsen_rules::{Card, FirstLead, Pack, Seat, Seed, Suit};

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

/// Either game with random options.
fn random_rules(rng: &mut Rng, duttfips: bool) -> Rules {
    let flip = |rng: &mut Rng| rng.index(2) == 0;
    let first_lead = if flip(rng) { FirstLead::Forehand } else { FirstLead::Declarer };
    if duttfips {
        Rules::Duttfips(DuttfipsRules {
            ruten_needs_rutenas: rng.index(3) == 0,
            ruten_unbid: rng.index(4) != 0,
            durch: rng.index(4) != 0,
            loss_factor: 1 + rng.index(2) as u8,
            first_lead,
            ..DuttfipsRules::duttfips()
        })
    } else {
        Rules::Anseggerfips(AnseggerfipsRules {
            auction: if flip(rng) { AuctionKind::SingleRound } else { AuctionKind::Duels },
            min_bid: 1 + rng.index(3) as u8,
            dutt: if flip(rng) { DuttUse::Unused } else { DuttUse::Exchange },
            ruten_needs_rutenas: rng.index(4) != 0,
            ruten_unbid: rng.index(4) != 0,
            durch: rng.index(4) != 0,
            loss_factor: 1 + rng.index(2) as u8,
            first_lead,
            ..AnseggerfipsRules::anseggerfips()
        })
    }
}

fn random_deal(rng: &mut Rng, rules: Rules) -> Deal {
    let dealer = Seat(rng.index(4) as u8);
    Deal::new(rules, 1, dealer, Seed::from_u64(rng.next_u64())).0
}

/// Drives a deal with random legal actions: the first bid at random (a Fips or a Ruten bid
/// half the time one is allowed), then everybody passes; the rest at random. Stops once the
/// auction is over if `cards` is `None`, else in the play after `cards` cards, or when the
/// deal is over.
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
                let bids: Vec<Action> = actions.iter().copied().filter(|a| matches!(a, Action::Bid { .. })).collect();
                let special: Vec<Action> = bids
                    .iter()
                    .copied()
                    .filter(|a| matches!(a, Action::Bid { bid } if bid.is_ruten() || bid.target() == 5))
                    .collect();
                if !special.is_empty() && rng.index(2) == 0 {
                    special[rng.index(special.len())]
                } else {
                    bids[rng.index(bids.len())]
                }
            } else if actions.contains(&Action::Pass) {
                Action::Pass
            } else {
                actions[0]
            }
        } else {
            actions[rng.index(actions.len())]
        };
        if matches!(action, Action::Play { .. }) {
            played += 1;
        }
        deal.apply(seat, action).expect("a legal action");
    }
}

/// Plays `deal` to its end with bots of `seats`, checking every answer and that no seat
/// answers out of turn; records the phases met.
fn play_out(deal: &mut Deal, seats: &[Player], seed: u64, phases: &mut HashSet<String>) {
    let mut bots: Vec<Bot> = seats.iter().map(|p| Bot::with_config(p.level, p.config, seed)).collect();
    while !deal.is_over() {
        let turn = deal.turn().expect("a turn");
        for s in 0..4u8 {
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
}

#[test]
fn bots_answer_legally_at_every_level_in_both_games() {
    let mut rng = Rng::new(4711);
    for duttfips in [false, true] {
        let mut phases = HashSet::new();
        let mut outcomes = HashSet::new();
        for i in 0..150u64 {
            let rules = random_rules(&mut rng, duttfips);
            let mut deal = random_deal(&mut rng, rules);
            let level = Level::ALL[(i % 3) as usize];
            // Mostly one level at a table, sometimes mixed.
            let seats: Vec<Player> =
                (0..4).map(|_| light(if rng.index(4) == 0 { Level::ALL[rng.index(3)] } else { level })).collect();
            play_out(&mut deal, &seats, i, &mut phases);
            outcomes.insert(match deal.outcome().expect("over") {
                Outcome::ThrownIn => "thrown in",
                Outcome::Won { .. } => "won",
                Outcome::Lost { .. } => "lost",
            });
        }
        for phase in ["Auction", "Discard", "Trumps", "Play", "DurchChoice"] {
            assert!(phases.contains(phase), "duttfips {duttfips}: phase {phase} never reached: {phases:?}");
        }
        assert!(outcomes.contains("won"), "duttfips {duttfips}: {outcomes:?}");
    }
}

#[test]
fn bots_answer_legally_after_any_auction() {
    // Random contracts (Ruten, Fips and Rutenfips among them) reach the Dutt discard, the
    // naming of trumps and the play at every level; then a few random cards, and bots again.
    let mut rng = Rng::new(77);
    let mut seen = HashSet::new();
    for i in 0..240u64 {
        let rules = random_rules(&mut rng, i % 2 == 0);
        let mut deal = random_deal(&mut rng, rules);
        let cards = rng.index(12);
        drive(&mut rng, &mut deal, if i % 3 == 0 { Some(cards) } else { None });
        if deal.is_over() {
            continue;
        }
        if let Some(c) = deal.contract() {
            seen.insert(format!("{}", c.bid));
        }
        let level = Level::ALL[(i % 3) as usize];
        let seats = vec![light(level); 4];
        play_out(&mut deal, &seats, i, &mut HashSet::new());
    }
    for bid in ["Ruten oewer", "Rutenfips", "Fips", "Dutt"] {
        assert!(seen.contains(bid), "{bid} never played: {seen:?}");
    }
}

#[test]
fn the_same_seed_and_view_give_the_same_choice() {
    let mut rng = Rng::new(12);
    let mut checked = 0;
    while checked < 30 {
        let rules = random_rules(&mut rng, checked % 2 == 0);
        let mut deal = random_deal(&mut rng, rules);
        let cards = rng.index(12);
        let whole_auction = rng.index(3) == 0;
        drive(&mut rng, &mut deal, if whole_auction { None } else { Some(cards) });
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

/// A deal of these hands (seat by seat, seat 0 forehand: seat 3 deals), dealt 3-2; cards not
/// named make the Dutt.
fn arranged(rules: impl Into<Rules>, hands: &[[&str; 5]; 4]) -> Deal {
    let mut slots: Vec<Option<Card>> = vec![None; 25];
    let mut used = Vec::new();
    for (i, hand) in hands.iter().enumerate() {
        for (j, c) in hand.iter().enumerate() {
            let at = if j < 3 { 3 * i + j } else { 12 + 2 * i + (j - 3) };
            slots[at] = Some(card(c));
            used.push(card(c));
        }
    }
    let mut rest = Pack::P25_A.cards().iter().filter(|c| !used.contains(c));
    let pack: Vec<Card> = slots.iter().map(|s| s.or_else(|| rest.next()).expect("25 cards")).collect();
    Deal::from_pack(rules, 1, Seat(3), &pack).expect("a whole pack").0
}

#[test]
fn a_certain_fips_is_bid_named_and_won() {
    let hands = [
        ["CA", "CK", "CQ", "CJ", "C10"],
        ["SA", "SK", "HA", "HK", "C9"],
        ["SQ", "SJ", "HQ", "HJ", "C8"],
        ["S10", "S9", "H10", "H9", "C7"],
    ];
    for level in [Level::Normal, Level::Strong] {
        let mut deal = arranged(AnseggerfipsRules::anseggerfips(), &hands);
        let view = deal.view(Some(Seat(0)));
        assert_eq!(Bot::new(level, 1).choose(&view), Some(Action::Bid { bid: Bid::Fips }), "{level:?}");
        deal.apply(Seat(0), Action::Bid { bid: Bid::Fips }).unwrap();
        for s in 1..4 {
            deal.apply(Seat(s), Action::Pass).unwrap();
        }
        assert_eq!(deal.phase(), Phase::Trumps);
        let mut bots: Vec<Bot> = (0..4).map(|s| Bot::new(level, s)).collect();
        let named = bots[0].choose(&deal.view(Some(Seat(0))));
        assert_eq!(named, Some(Action::NameTrumps { suit: Suit::Clubs }), "{level:?}");
        while !deal.is_over() {
            let seat = deal.turn().unwrap();
            let action = bots[seat.index()].choose(&deal.view(Some(seat))).unwrap();
            deal.apply(seat, action).unwrap();
        }
        assert!(matches!(deal.outcome(), Some(Outcome::Won { tricks: 5, .. })), "{:?}", deal.outcome());
    }
}

#[test]
fn a_poor_hand_passes_and_duttfips_forehand_names_a_contract() {
    let hands = [
        ["C7", "C8", "S7", "S8", "H7"],
        ["CA", "CK", "SA", "SK", "HA"],
        ["CQ", "CJ", "SQ", "SJ", "HK"],
        ["C10", "C9", "S10", "S9", "HQ"],
    ];
    for level in Level::ALL {
        let deal = arranged(AnseggerfipsRules::anseggerfips(), &hands);
        assert_eq!(Bot::new(level, 3).choose(&deal.view(Some(Seat(0)))), Some(Action::Pass), "{level:?}");
        let deal = arranged(DuttfipsRules::duttfips(), &hands);
        let view = deal.view(Some(Seat(0)));
        assert!(!view.prompt.pass);
        let action = Bot::new(level, 3).choose(&view).expect("forehand must name a contract");
        assert!(matches!(action, Action::Bid { .. }), "{level:?}: {action:?}");
    }
}

#[test]
fn the_rutenas_holder_plays_ruten_with_the_side_aces() {
    // The Rutenas and three side aces: four sure tricks as a Ruten game, worth twice a 4. A
    // plain 4 named Ruten afterwards is worth as much as a Ruten 4.
    let hands = [
        ["DA", "CA", "SA", "HA", "C7"],
        ["CK", "CQ", "SK", "SQ", "HK"],
        ["CJ", "C10", "SJ", "S10", "HQ"],
        ["C9", "C8", "S9", "S8", "HJ"],
    ];
    for level in [Level::Normal, Level::Strong] {
        let mut deal = arranged(AnseggerfipsRules::anseggerfips(), &hands);
        let mut bots: Vec<Bot> = (0..4).map(|s| Bot::new(level, s)).collect();
        let action = bots[0].choose(&deal.view(Some(Seat(0)))).unwrap();
        assert!(matches!(action, Action::Bid { bid } if bid.target() == 4), "{level:?}: {action:?}");
        deal.apply(Seat(0), action).unwrap();
        for s in 1..4 {
            deal.apply(Seat(s), Action::Pass).unwrap();
        }
        if deal.phase() == Phase::Trumps {
            let named = bots[0].choose(&deal.view(Some(Seat(0))));
            assert_eq!(named, Some(Action::NameTrumps { suit: Suit::Diamonds }), "{level:?}");
            deal.apply(Seat(0), named.unwrap()).unwrap();
        }
        assert!(deal.game().is_some_and(|g| g.bid == Bid::ruten(4)), "{:?}", deal.game());
    }
}

#[test]
fn sampled_deals_fit_what_the_seat_knows() {
    let mut rng = Rng::new(5);
    for i in 0..40 {
        let rules = random_rules(&mut rng, i % 2 == 0);
        let mut deal = random_deal(&mut rng, rules);
        let cards = rng.index(10);
        drive(&mut rng, &mut deal, Some(cards));
        let Some(seat) = deal.turn() else { continue };
        let view = deal.view(Some(seat));
        let k = knowledge(&view).expect("a seat");
        let layouts = fipsen_bots::evaluate::draw_layouts(&k, 20, 0, &mut rng);
        assert!(!layouts.is_empty());
        for l in &layouts {
            for s in 0..4 {
                let held = deal.hand(Seat(s as u8)).bits();
                assert_eq!(l.hands[s].count_ones(), held.count_ones(), "hand sizes");
                assert_eq!(l.hands[s] & k.forbidden[s], 0);
            }
            assert_eq!(l.hands[seat.index()], view.hand.unwrap().bits());
        }
    }
}

#[test]
fn a_short_arena_runs_and_a_series_is_driven_through_the_bots() {
    for i in 0..12u64 {
        let rules: Rules =
            if i % 2 == 0 { AnseggerfipsRules::anseggerfips().into() } else { DuttfipsRules::duttfips().into() };
        let players: Vec<Player> =
            (0..4).map(|s| light(if s % 2 == 0 { Level::Normal } else { Level::Easy })).collect();
        let played = mecklenburg::play_deal(rules, Seat((i % 4) as u8), Seed::from_u64(i), &players, i);
        assert!(played.scores.iter().filter(|&&s| s != 0).count() <= 1, "only the declarer scores");
        assert!(!played.actions.is_empty());
    }
    let (mut series, _) = Duttfips::new(DuttfipsRules { deals: Some(3), ..DuttfipsRules::duttfips() }, Seed([3; 32]))
        .expect("valid rules");
    let mut bots: Vec<Bot> = (0..4).map(|s| Bot::new(Level::Normal, s)).collect();
    while !series.is_over() {
        if series.deal().is_over() {
            series.next_deal().unwrap();
            continue;
        }
        let seat = series.deal().turn().unwrap();
        let action = bots[seat.index()].choose_in_series(&series.view(Some(seat))).unwrap();
        series.apply(seat, action).unwrap();
    }
    assert_eq!(bots[0].choose_in_series(&series.view(Some(Seat(0)))), None);
}
