//! The review of a seat's decisions before the play (Großenaspe, Anseggerfips, Duttfips): it
//! reads only what the seat knew — dealing the unseen cards anew, with the same auction, gives
//! the same review — and it says so when one choice is clearly better.

use fipsen_bots::arena::Player;
use fipsen_bots::games::decisions::{DecisionKind, DecisionReview};
use fipsen_bots::rng::Rng;
use fipsen_bots::{Config, Level, grossenaspe, mecklenburg};
use fipsen_rules::{Card, Pack, Seat};

/// Small sample counts: the same code paths, quicker.
fn light(level: Level) -> Config {
    let c = Config::of(level);
    match level {
        Level::Easy => c,
        Level::Normal => Config { bid_samples: 8, play_samples: 4, decision_samples: 4, ..c },
        Level::Strong => Config { bid_samples: 16, play_samples: 6, decision_samples: 6, enumerate_limit: 40, ..c },
    }
}

fn card(s: &str) -> Card {
    s.parse().expect("a card code")
}

fn shuffled(rng: &mut Rng, pack: Pack) -> Vec<Card> {
    let mut cards: Vec<Card> = pack.cards().iter().collect();
    for i in (1..cards.len()).rev() {
        cards.swap(i, rng.index(i + 1));
    }
    cards
}

/// `pack` with every position but `mine` dealt anew.
fn others_anew(rng: &mut Rng, pack: &[Card], mine: &[usize]) -> Vec<Card> {
    let mut others: Vec<usize> = (0..pack.len()).filter(|p| !mine.contains(p)).collect();
    let cards: Vec<Card> = others.iter().map(|&p| pack[p]).collect();
    for i in (1..others.len()).rev() {
        others.swap(i, rng.index(i + 1));
    }
    let mut out = pack.to_vec();
    for (&p, &c) in others.iter().zip(&cards) {
        out[p] = c;
    }
    out
}

/// Every decision of the review is a call with the seat's own call among its options, and the
/// bot's call too.
fn well_formed<A: PartialEq + std::fmt::Debug>(review: &DecisionReview<A>) {
    for d in &review.decisions {
        assert_eq!(d.decision, DecisionKind::Call);
        assert!(d.samples >= 8, "{} samples", d.samples);
        assert!(d.chosen_option().is_some(), "{:?} among the options", d.chosen);
        assert!(d.options.iter().any(|o| o.action == d.bot), "{:?} among the options", d.bot);
        assert!(d.options.iter().all(|o| o.margin >= 0.0 && o.margin.is_finite()));
    }
}

mod grossenaspe_review {
    use super::*;
    use fipsen_rules::grossenaspe::{Action, Bid, Deal, Phase, Rules};

    /// The pack's positions dealt to `seat`.
    fn positions_of(seat: Seat, dealer: Seat, n: u8) -> Vec<usize> {
        let i = usize::from((seat.0 + n - dealer.next(n).0) % n);
        let n = usize::from(n);
        vec![3 * i, 3 * i + 1, 3 * i + 2, 3 * n + 2 + 2 * i, 3 * n + 3 + 2 * i]
    }

    fn players(n: u8) -> Vec<Player> {
        (0..n).map(|_| Player { level: Level::Normal, config: light(Level::Normal) }).collect()
    }

    fn review(deal: &Deal, seat: Seat) -> DecisionReview<Action> {
        let mut bot = grossenaspe::Bot::with_config(Level::Strong, light(Level::Strong), 9);
        grossenaspe::review(&mut bot, deal, seat).expect("a finished deal")
    }

    #[test]
    fn the_review_is_the_same_whatever_the_unseen_cards() {
        let mut rng = Rng::new(28);
        let (mut compared, mut tries) = (0, 0);
        while compared < 8 && tries < 200 {
            tries += 1;
            let n = 3 + rng.index(3) as u8;
            let rules = Rules { players: n, min_bid: 1 + rng.index(2) as u8, ..Rules::grossenaspe() };
            let dealer = Seat(rng.index(usize::from(n)) as u8);
            let pack = shuffled(&mut rng, Pack::P32);
            let (deal, _) = Deal::from_pack(rules, 1, dealer, &pack).unwrap();
            let played = grossenaspe::play_from(deal.clone(), &players(n), tries);
            let seat = Seat(rng.index(usize::from(n)) as u8);
            let other_pack = others_anew(&mut rng, &pack, &positions_of(seat, dealer, n));
            let (mut other, _) = Deal::from_pack(rules, 1, dealer, &other_pack).unwrap();
            let mut replay = deal.clone();
            // The same auction, where the other cards allow it.
            let mut fits = true;
            for &(s, action) in &played.actions {
                if replay.phase() != Phase::Auction {
                    break;
                }
                replay.apply(s, action).unwrap();
                if other.apply(s, action).is_err() {
                    fits = false;
                    break;
                }
            }
            if !fits {
                continue;
            }
            let other = finish(other, n, tries);
            let replay = finish(replay, n, tries);
            let (a, b) = (review(&replay, seat), review(&other, seat));
            assert!(!a.decisions.is_empty(), "every seat calls at least once");
            well_formed(&a);
            assert_eq!(a, b, "every call judged from what the seat knew");
            compared += 1;
        }
        assert!(compared >= 8, "enough deals compared ({compared} of {tries})");
    }

    fn finish(deal: Deal, n: u8, seed: u64) -> Deal {
        let mut deal = deal;
        for (s, a) in grossenaspe::play_from(deal.clone(), &players(n), seed).actions {
            deal.apply(s, a).expect("the bots play legally");
        }
        assert!(deal.is_over());
        deal
    }

    /// A deal of these hands (seat 0 forehand: the last seat deals), skat `skat`.
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
    fn passing_a_certain_fips_is_shown_as_the_worse_call() {
        let rules = Rules::grossenaspe();
        let hands = [
            ["SA", "SK", "SQ", "SJ", "S10"],
            ["CA", "CK", "HA", "HK", "DA"],
            ["CQ", "CJ", "HQ", "HJ", "DK"],
            ["C10", "C9", "H10", "H9", "DQ"],
        ];
        let mut deal = arranged(rules, &hands, ["C8", "C7"]);
        deal.apply(Seat(0), Action::Pass).unwrap();
        let deal = finish(deal, 4, 3);
        let r = review(&deal, Seat(0));
        well_formed(&r);
        let first = &r.decisions[0];
        assert_eq!(first.chosen, Action::Pass);
        assert_eq!(first.bot, Action::Bid { bid: Bid::Fips }, "the bot bids the Fips");
        let fips = first.options.iter().find(|o| o.action == first.bot).unwrap();
        // Five tricks whatever the other cards: the same score in every sampled deal.
        assert_eq!(fips.margin, 0.0);
        assert!(fips.value > 0.0);
        assert!(fips.value - fips.margin > first.chosen_option().unwrap().value + 5.0);
        assert_eq!(first.best_option().map(|o| o.action), Some(first.bot));
    }

    #[test]
    fn bidding_all_five_on_a_poor_hand_is_shown_as_a_loss() {
        let rules = Rules::grossenaspe();
        let hands = [
            ["C7", "S8", "H8", "D7", "D8"],
            ["CA", "CK", "HA", "HK", "DA"],
            ["CQ", "CJ", "HQ", "HJ", "DK"],
            ["C10", "C9", "H10", "H9", "DQ"],
        ];
        let mut deal = arranged(rules, &hands, ["S7", "H7"]);
        let five = Action::Bid { bid: Bid::Tricks { tricks: 5, gute: false } };
        deal.apply(Seat(0), five).unwrap();
        let deal = finish(deal, 4, 3);
        let r = review(&deal, Seat(0));
        well_formed(&r);
        let first = &r.decisions[0];
        assert_eq!(first.chosen, five);
        let chosen = first.chosen_option().unwrap();
        assert!(chosen.value + chosen.margin < 0.0, "a sure loss: {chosen:?}");
        let bot = first.options.iter().find(|o| o.action == first.bot).unwrap();
        assert!(bot.value > chosen.value + chosen.margin + bot.margin, "{bot:?} against {chosen:?}");
    }
}

mod mecklenburg_review {
    use super::*;
    use fipsen_rules::mecklenburg::{
        Action, AnseggerfipsRules, AuctionKind, Bid, Deal, DuttUse, DuttfipsRules, Phase, Rules,
    };

    /// The pack's positions dealt to `seat`.
    fn positions_of(seat: Seat, dealer: Seat) -> Vec<usize> {
        let i = usize::from((seat.0 + 4 - dealer.next(4).0) % 4);
        vec![3 * i, 3 * i + 1, 3 * i + 2, 12 + 2 * i, 13 + 2 * i]
    }

    fn players() -> Vec<Player> {
        (0..4).map(|_| Player { level: Level::Normal, config: light(Level::Normal) }).collect()
    }

    fn review(deal: &Deal, seat: Seat) -> DecisionReview<Action> {
        let mut bot = mecklenburg::Bot::with_config(Level::Strong, light(Level::Strong), 9);
        mecklenburg::review(&mut bot, deal, seat).expect("a finished deal")
    }

    fn finish(deal: Deal, seed: u64) -> Deal {
        let mut deal = deal;
        for (s, a) in mecklenburg::play_from(deal.clone(), &players(), seed).actions {
            deal.apply(s, a).expect("the bots play legally");
        }
        assert!(deal.is_over());
        deal
    }

    fn random_rules(rng: &mut Rng) -> Rules {
        if rng.index(2) == 0 {
            Rules::Duttfips(DuttfipsRules { ruten_needs_rutenas: rng.index(2) == 0, ..DuttfipsRules::duttfips() })
        } else {
            Rules::Anseggerfips(AnseggerfipsRules {
                auction: if rng.index(2) == 0 { AuctionKind::SingleRound } else { AuctionKind::Duels },
                min_bid: 1 + rng.index(3) as u8,
                dutt: if rng.index(2) == 0 { DuttUse::Unused } else { DuttUse::Exchange },
                ..AnseggerfipsRules::anseggerfips()
            })
        }
    }

    #[test]
    fn the_review_is_the_same_whatever_the_unseen_cards() {
        let mut rng = Rng::new(28);
        let (mut compared, mut tries) = (0, 0);
        let mut games = std::collections::HashSet::new();
        while compared < 10 && tries < 200 {
            tries += 1;
            let rules = random_rules(&mut rng);
            let dealer = Seat(rng.index(4) as u8);
            let pack = shuffled(&mut rng, Pack::P25_A);
            let (deal, _) = Deal::from_pack(rules, 1, dealer, &pack).unwrap();
            let played = mecklenburg::play_from(deal.clone(), &players(), tries);
            let seat = Seat(rng.index(4) as u8);
            let other_pack = others_anew(&mut rng, &pack, &positions_of(seat, dealer));
            let (mut other, _) = Deal::from_pack(rules, 1, dealer, &other_pack).unwrap();
            let mut replay = deal.clone();
            let mut fits = true;
            for &(s, action) in &played.actions {
                if replay.phase() != Phase::Auction {
                    break;
                }
                replay.apply(s, action).unwrap();
                if other.apply(s, action).is_err() {
                    fits = false;
                    break;
                }
            }
            if !fits {
                continue;
            }
            let (replay, other) = (finish(replay, tries), finish(other, tries));
            let (a, b) = (review(&replay, seat), review(&other, seat));
            assert!(!a.decisions.is_empty(), "every seat calls at least once");
            well_formed(&a);
            assert_eq!(a, b, "every call judged from what the seat knew");
            games.insert(matches!(rules, Rules::Duttfips(_)));
            compared += 1;
        }
        assert!(compared >= 10, "enough deals compared ({compared} of {tries})");
        assert_eq!(games.len(), 2, "both games compared");
    }

    /// A deal of these hands (seat 0 forehand: seat 3 deals), dealt 3-2; cards not named make
    /// the Dutt.
    fn arranged(rules: impl Into<Rules>, hands: &[[&str; 5]; 4]) -> Deal {
        let mut slots: Vec<Option<Card>> = vec![None; 25];
        let mut used = Vec::new();
        for (i, hand) in hands.iter().enumerate() {
            for (j, c) in hand.iter().enumerate() {
                slots[if j < 3 { 3 * i + j } else { 12 + 2 * i + (j - 3) }] = Some(card(c));
                used.push(card(c));
            }
        }
        let mut rest = Pack::P25_A.cards().iter().filter(|c| !used.contains(c));
        let pack: Vec<Card> = slots.iter().map(|s| s.or_else(|| rest.next()).expect("25 cards")).collect();
        Deal::from_pack(rules, 1, Seat(3), &pack).expect("a whole pack").0
    }

    #[test]
    fn passing_a_certain_fips_is_shown_as_the_worse_call() {
        let hands = [
            ["CA", "CK", "CQ", "CJ", "C10"],
            ["SA", "SK", "HA", "HK", "C9"],
            ["SQ", "SJ", "HQ", "HJ", "C8"],
            ["S10", "S9", "H10", "H9", "C7"],
        ];
        let mut deal = arranged(AnseggerfipsRules::anseggerfips(), &hands);
        deal.apply(Seat(0), Action::Pass).unwrap();
        let deal = finish(deal, 3);
        let r = review(&deal, Seat(0));
        well_formed(&r);
        let first = &r.decisions[0];
        assert_eq!(first.chosen, Action::Pass);
        assert_eq!(first.bot, Action::Bid { bid: Bid::Fips }, "the bot bids the Fips");
        let fips = first.options.iter().find(|o| o.action == first.bot).unwrap();
        // Five tricks whatever the other cards: the same score in every sampled deal.
        assert_eq!(fips.margin, 0.0);
        assert!(fips.value - fips.margin > first.chosen_option().unwrap().value + 5.0);
        assert_eq!(first.best_option().map(|o| o.action), Some(first.bot));
    }

    #[test]
    fn a_fips_on_a_poor_hand_is_shown_as_a_loss() {
        let hands = [
            ["C7", "C8", "S7", "S8", "H7"],
            ["CA", "CK", "SA", "SK", "HA"],
            ["CQ", "CJ", "SQ", "SJ", "HK"],
            ["C10", "C9", "S10", "S9", "HQ"],
        ];
        let mut deal = arranged(AnseggerfipsRules::anseggerfips(), &hands);
        let fips = Action::Bid { bid: Bid::Fips };
        deal.apply(Seat(0), fips).unwrap();
        let deal = finish(deal, 3);
        let r = review(&deal, Seat(0));
        well_formed(&r);
        let first = &r.decisions[0];
        assert_eq!(first.chosen, fips);
        assert_eq!(first.bot, Action::Pass, "the bot passes");
        let chosen = first.chosen_option().unwrap();
        assert!(chosen.value + chosen.margin < 0.0, "a sure loss: {chosen:?}");
    }
}

mod thedinghausen_review {
    use super::*;
    use fipsen_bots::thedinghausen;
    use fipsen_rules::thedinghausen::{Action, Deal, Phase, Round, Rules};

    /// The pack's positions dealt to `seat`, and the turned trump card everybody sees.
    fn seen_by(seat: Seat, dealer: Seat) -> Vec<usize> {
        let i = usize::from((seat.0 + 5 - dealer.next(5).0) % 5);
        vec![3 * i, 3 * i + 1, 3 * i + 2, 15 + 2 * i, 16 + 2 * i, 25]
    }

    fn review(deal: &Deal, seat: Seat) -> DecisionReview<Action> {
        let mut bot = thedinghausen::Bot::new(Level::Strong, 9);
        thedinghausen::review(&mut bot, deal, seat).expect("a finished deal")
    }

    fn finish(mut deal: Deal, seed: u64) -> Deal {
        let mut bots: Vec<thedinghausen::Bot> =
            (0..5).map(|s| thedinghausen::Bot::new(Level::Normal, seed * 5 + s)).collect();
        while !deal.is_over() {
            let seat = deal.turn().expect("a turn");
            let action = bots[seat.index()].choose(&deal.view(Some(seat))).expect("an answer");
            deal.apply(seat, action).expect("the bots play legally");
        }
        deal
    }

    #[test]
    fn the_review_is_the_same_whatever_the_unseen_cards() {
        let mut rng = Rng::new(28);
        let (mut compared, mut tries, mut announced, mut uncertain) = (0, 0, 0, 0);
        while compared < 10 && tries < 300 {
            tries += 1;
            let round = Round { number: 1, counts: std::array::from_fn(|_| rng.index(5) as u8), pot: 5, fresh: false };
            let dealer = Seat(rng.index(5) as u8);
            let mut pack = shuffled(&mut rng, Pack::P32);
            // A seat with three high trumps, often: a fipsen worth weighing.
            let strong = Seat(rng.index(5) as u8);
            let letter = pack[25].suit().letter();
            let high: Vec<Card> =
                ["A", "K", "Q", "J"].iter().map(|r| card(&format!("{letter}{r}"))).filter(|&c| c != pack[25]).collect();
            for (&at, &c) in seen_by(strong, dealer).iter().zip(&high[..3]) {
                let from = pack.iter().position(|&x| x == c).unwrap();
                pack.swap(at, from);
            }
            let (deal, _) = Deal::from_pack(Rules::default(), 1, dealer, &pack, round).unwrap();
            // The announcements, the strong bots' (a fipsen is rare otherwise).
            let mut replay = deal.clone();
            let mut calls = Vec::new();
            while replay.phase() == Phase::Fipsen {
                let seat = replay.turn().unwrap();
                let a = thedinghausen::Bot::new(Level::Strong, tries).choose(&replay.view(Some(seat))).unwrap();
                replay.apply(seat, a).unwrap();
                calls.push((seat, a));
            }
            // The seat with the most trumps among those who spoke: a fipsen worth weighing.
            let trumps =
                |s: &Seat| deal.view(Some(*s)).hand.unwrap().iter().filter(|c| c.suit() == pack[25].suit()).count();
            let Some(seat) = calls.iter().map(|c| c.0).max_by_key(|s| (trumps(s), rng.index(2))) else { continue };
            let other_pack = others_anew(&mut rng, &pack, &seen_by(seat, dealer));
            let (mut other, _) = Deal::from_pack(Rules::default(), 1, dealer, &other_pack, round).unwrap();
            for &(s, a) in &calls {
                other.apply(s, a).unwrap();
            }
            let (replay, other) = (finish(replay, tries), finish(other, tries));
            let (a, b) = (review(&replay, seat), review(&other, seat));
            assert_eq!(a.decisions.len(), 1, "one announcement");
            assert_eq!(a.decisions[0].decision, DecisionKind::Announcement);
            assert!(a.decisions[0].chosen_option().is_some());
            assert_eq!(a, b, "the announcement judged from what the seat knew");
            announced += usize::from(calls.iter().any(|c| c.1 == Action::Fipsen));
            // A chance of a sweep strictly between none and certain has a margin.
            uncertain += usize::from(a.decisions[0].options.iter().any(|o| o.margin > 0.0));
            compared += 1;
        }
        assert!(compared >= 10, "enough deals compared ({compared} of {tries})");
        assert!(uncertain >= 2, "some compared with a chance of a sweep ({uncertain})");
        eprintln!("{compared} compared, {announced} with a fipsen, {uncertain} uncertain");
    }

    /// A deal with seat 4 dealing (seat 0 is forehand), hearts turned up.
    fn arranged(hands: [&str; 5]) -> Deal {
        let hands: Vec<Vec<Card>> = hands.iter().map(|h| h.split_whitespace().map(card).collect()).collect();
        let trump = card("H9");
        let mut pack = vec![trump; 32];
        for (i, h) in hands.iter().enumerate() {
            pack[3 * i..3 * i + 3].copy_from_slice(&h[..3]);
            pack[15 + 2 * i..17 + 2 * i].copy_from_slice(&h[3..]);
        }
        let used: Vec<Card> = pack[..26].to_vec();
        let rest: Vec<Card> = Pack::P32.cards().iter().filter(|c| !used.contains(c)).collect();
        pack[26..].copy_from_slice(&rest);
        let round = Round { number: 1, counts: [0; 5], pot: 5, fresh: false };
        Deal::from_pack(Rules::default(), 1, Seat(4), &pack, round).expect("a valid pack").0
    }

    #[test]
    fn passing_a_sure_fipsen_is_shown_as_the_worse_choice() {
        let mut deal =
            arranged(["HA HK HQ HJ H10", "C7 C8 C9 C10 CJ", "S7 S8 S9 S10 SJ", "D7 D8 D9 D10 DJ", "CQ CK SQ SK DQ"]);
        deal.apply(Seat(0), Action::Pass).unwrap();
        let deal = finish(deal, 1);
        let r = review(&deal, Seat(0));
        let d = &r.decisions[0];
        assert_eq!((d.chosen, d.bot), (Action::Pass, Action::Fipsen));
        let fipsen = d.options.iter().find(|o| o.action == Action::Fipsen).unwrap();
        // Every sampled deal swept: no margin on the chance.
        assert_eq!(fipsen.margin, 0.0);
        assert!(fipsen.value > d.chosen_option().unwrap().value);
        // Seat 1's five low clubs: announcing can only cost the penalty.
        let r = review(&deal, Seat(1));
        let d = &r.decisions[0];
        assert_eq!(d.bot, Action::Pass);
        let fipsen = d.options.iter().find(|o| o.action == Action::Fipsen).unwrap();
        assert!(fipsen.value + fipsen.margin < 0.0, "{fipsen:?}");
    }
}
