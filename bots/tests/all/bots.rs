//! Bots answer every prompt with a legal action, stay silent when it is not their turn, always
//! announce a Siebener Fips, and choose the same way given the same seed and view.

use crate::common;

use common::*;
use fipsen_bots::arena::{Player, play_deal};
use fipsen_bots::rng::Rng;
use fipsen_bots::{Bot, Config, Level};
use fipsen_rules::{Action, Bid, Card, Deal, Phase, Players, RuleSet, Seat, Seed};

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

#[test]
fn bots_always_answer_legally_and_only_when_asked() {
    let mut rng = Rng::new(99);
    let mut phases = std::collections::HashSet::new();
    for i in 0..300 {
        let rules = random_rules(&mut rng);
        let mut deal = random_deal(&mut rng, rules);
        let n = rules.players.count();
        let players: Vec<Player> = (0..n).map(|_| light(Level::ALL[rng.index(3)])).collect();
        let mut bots: Vec<Bot> = players.iter().map(|p| Bot::with_config(p.level, p.config, i)).collect();
        while !deal.is_over() {
            let turn = deal.turn().expect("a turn");
            let mut acted = false;
            for s in 0..n {
                let seat = Seat(s);
                let view = deal.view(Some(seat));
                let fips = view.prompt.siebener_fips;
                let choice = bots[usize::from(s)].choose(&view);
                if seat != turn && !fips {
                    assert_eq!(choice, None, "seat {s} answered out of turn");
                    continue;
                }
                let action = choice.expect("asked, the bot answers");
                if fips {
                    assert_eq!(action, Action::SiebenerFips, "a Siebener Fips is always announced");
                }
                phases.insert(format!("{:?}", deal.phase()));
                deal.apply(seat, action).unwrap_or_else(|e| panic!("{action:?} refused: {e}"));
                acted = true;
                break;
            }
            assert!(acted, "someone acts");
        }
    }
    for phase in ["Auction", "SkatOrHand", "Discard", "Trumps", "Kontra", "Rekontra", "Play", "DurchChoice"] {
        assert!(phases.contains(phase), "phase {phase} never reached: {phases:?}");
    }
}

#[test]
fn default_levels_play_whole_deals_legally() {
    let mut rng = Rng::new(5);
    for (i, level) in [Level::Easy, Level::Normal, Level::Strong].into_iter().cycle().take(9).enumerate() {
        let rules = RuleSet { players: if i % 2 == 0 { Players::Four } else { Players::Three }, ..RuleSet::prisdorf() };
        let n = rules.players.count();
        let players = vec![Player::of(level); usize::from(n)];
        let played = play_deal(rules, Seat(0), Seed::from_u64(rng.next_u64()), &players, i as u64);
        assert_eq!(played.scores.len(), usize::from(n));
    }
}

#[test]
fn the_same_seed_and_view_give_the_same_choice() {
    let mut rng = Rng::new(12);
    for _ in 0..20 {
        let rules = random_rules(&mut rng);
        let mut deal = random_deal(&mut rng, rules);
        if !to_play(&mut rng, &mut deal) {
            continue;
        }
        let seat = deal.turn().unwrap();
        let view = deal.view(Some(seat));
        let a = Bot::new(Level::Normal, 7).choose(&view);
        let b = Bot::new(Level::Normal, 7).choose(&view);
        assert_eq!(a, b);
        assert!(a.is_some());
    }
}

fn card(s: &str) -> Card {
    s.parse().expect("a card code")
}

/// A deal with these hands (seat by seat), skat and stock; the dealer is the last seat.
fn arranged(rules: RuleSet, hands: &[[&str; 5]], skat: [&str; 2]) -> Deal {
    let n = usize::from(rules.players.count());
    let mut pack = Vec::new();
    let mut used = Vec::new();
    let mut slots = [None; 25];
    // Seat 0 is Vorhand when the last seat deals.
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
    let mut rest = fipsen_rules::CardSet::PACK.iter().filter(|c| !used.contains(c));
    for slot in slots.iter_mut() {
        pack.push(slot.or_else(|| rest.next()).expect("25 cards"));
    }
    let pack: [Card; 25] = pack.try_into().expect("25 cards");
    Deal::from_pack(rules, 1, Seat(rules.players.count() - 1), pack).expect("a whole pack").0
}

#[test]
fn a_siebener_fips_is_always_announced() {
    let rules = RuleSet::prisdorf();
    for level in Level::ALL {
        // Dealt four sevens without an ace: nothing to announce.
        let deal = arranged(
            rules,
            &[["CA", "CK", "CQ", "SA", "SK"], ["HA", "HK", "HQ", "HJ", "H10"], ["C7", "S7", "H7", "D7", "CJ"]],
            ["C8", "S8"],
        );
        assert_eq!(deal.turn(), Some(Seat(0)));
        // With an ace, seat 2 announces out of turn, before anyone speaks.
        let deal2 = arranged(
            rules,
            &[["CJ", "CK", "CQ", "SA", "SK"], ["HA", "HK", "HQ", "HJ", "H10"], ["C7", "S7", "H7", "D7", "CA"]],
            ["C8", "S8"],
        );
        assert_eq!(Bot::new(level, 1).choose(&deal.view(Some(Seat(2)))), None, "no ace, no Fips");
        assert_eq!(Bot::new(level, 1).choose(&deal2.view(Some(Seat(2)))), Some(Action::SiebenerFips));

        // After taking the skat: the declarer finds the fourth seven there.
        let mut deal = arranged(
            rules,
            &[["C7", "S7", "H7", "CA", "SK"], ["HA", "HK", "HQ", "HJ", "H10"], ["CK", "CQ", "CJ", "SA", "SQ"]],
            ["D7", "S8"],
        );
        deal.apply(Seat(0), Action::Bid { bid: Bid::tricks(2) }).unwrap();
        for s in 1..4 {
            deal.apply(Seat(s), Action::Pass).unwrap();
        }
        deal.apply(Seat(0), Action::TakeSkat).unwrap();
        assert_eq!(deal.phase(), Phase::Discard);
        assert_eq!(Bot::new(level, 1).choose(&deal.view(Some(Seat(0)))), Some(Action::SiebenerFips));

        // A Kieker picks up the fourth seven with skat and stock.
        let mut deal = arranged(
            rules,
            &[["C7", "S7", "H7", "CA", "C8"], ["HA", "HK", "HQ", "HJ", "H10"], ["CK", "CQ", "CJ", "SA", "SQ"]],
            ["D7", "S8"],
        );
        deal.apply(Seat(0), Action::Bid { bid: Bid::Kieker }).unwrap();
        for s in 1..4 {
            deal.apply(Seat(s), Action::Pass).unwrap();
        }
        assert_eq!(Bot::new(level, 1).choose(&deal.view(Some(Seat(0)))), Some(Action::SiebenerFips));
    }
}

#[test]
fn a_kieker_declarer_gives_up_at_his_own_turns_only() {
    // Seat 3 deals, has no court card and takes a hopeless Kieker: every ace and court card is
    // against him. Seat 0 (Vorhand) acts next, in the Kontra round and then at the first lead;
    // the give-up is on offer to seat 3 all along, out of turn. A bot weighs it at its own
    // turns (here: naming trumps), where it has just reckoned with its game, and out of turn
    // does nothing.
    let hands = [
        ["CA", "CK", "CQ", "CJ", "C10"],
        ["SA", "SK", "SQ", "SJ", "S10"],
        ["HA", "HK", "HQ", "HJ", "H10"],
        ["C7", "S7", "H7", "S8", "H8"],
    ];
    for kontra in [true, false] {
        let rules = RuleSet { kontra, ..RuleSet::prisdorf() };
        let mut deal = arranged(rules, &hands, ["C8", "S9"]);
        for s in 0..3 {
            deal.apply(Seat(s), Action::Pass).unwrap();
        }
        deal.apply(Seat(3), Action::Bid { bid: Bid::Kieker }).unwrap();
        let away = ["S7", "S8", "S9", "H7", "H8"].into_iter().map(card).collect();
        deal.apply(Seat(3), Action::Discard { cards: away }).unwrap();
        // His own turn: the bots that weigh their game give it up.
        assert_eq!(deal.phase(), Phase::Trumps);
        let view = deal.view(Some(Seat(3)));
        for level in [Level::Normal, Level::Strong] {
            assert_eq!(Bot::new(level, 3).choose(&view), Some(Action::GiveUp), "{level:?} at his own turn");
        }
        deal.apply(Seat(3), Action::NameTrumps { suit: fipsen_rules::Suit::Diamonds }).unwrap();
        let mut moments = 0;
        while deal.plays().is_empty() {
            assert_ne!(deal.turn(), Some(Seat(3)));
            assert_eq!(deal.legal_actions(Seat(3)), vec![Action::GiveUp], "in {:?}", deal.phase());
            let view = deal.view(Some(Seat(3)));
            for level in Level::ALL {
                assert_eq!(Bot::new(level, 3).choose(&view), None, "{level:?} out of turn in {:?}", deal.phase());
            }
            let turn = deal.turn().expect("a turn");
            let action = if deal.phase() == Phase::Kontra { Action::Pass } else { Action::Play { card: card("CA") } };
            deal.apply(turn, action).unwrap();
            moments += 1;
        }
        assert_eq!(moments, if kontra { 4 } else { 1 });
        assert!(!deal.view(Some(Seat(3))).prompt.give_up);
    }
}
