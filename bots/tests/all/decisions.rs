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

/// The review's decisions are the seat's calls, then for a declarer the cards he laid away
/// and the trumps he named (each at most once, in that order); every decision has the seat's
/// own choice among its options, and the bot's too, and finite values with their margins.
fn well_formed<A: PartialEq + std::fmt::Debug>(review: &DecisionReview<A>) {
    let kinds: Vec<DecisionKind> = review.decisions.iter().map(|d| d.decision).collect();
    let calls = kinds.iter().take_while(|&&k| k == DecisionKind::Call).count();
    assert!(
        matches!(
            kinds[calls..],
            [] | [DecisionKind::Discard] | [DecisionKind::Trumps] | [DecisionKind::Discard, DecisionKind::Trumps]
        ),
        "calls, then a discard and trumps: {kinds:?}"
    );
    for d in &review.decisions {
        let least = if d.decision == DecisionKind::Call { 8 } else { 4 };
        assert!(d.samples >= least, "{:?}: {} samples", d.decision, d.samples);
        assert!(d.chosen_option().is_some(), "{:?} among the options", d.chosen);
        assert!(d.options.iter().any(|o| o.action == d.bot), "{:?} among the options", d.bot);
        assert!(d.options.iter().all(|o| o.margin >= 0.0 && o.margin.is_finite()));
        if d.decision != DecisionKind::Call {
            assert!(d.options.iter().all(|o| o.value.is_finite()), "{:?}", d.options);
        }
        for (i, o) in d.options.iter().enumerate() {
            assert!(d.options[..i].iter().all(|p| p.action != o.action), "{:?} offered twice", o.action);
        }
    }
}

/// The seat's choices after the auction in the review (its discard and trumps), in order.
fn after_auction<A: Copy>(review: &DecisionReview<A>) -> Vec<A> {
    review.decisions.iter().filter(|d| d.decision != DecisionKind::Call).map(|d| d.chosen).collect()
}

mod grossenaspe_review {
    use super::*;
    use fipsen_rules::Suit;
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
        let (mut compared, mut tries, mut declarers) = (0, 0, 0);
        while (compared < 8 || declarers < 3) && tries < 300 {
            tries += 1;
            let n = 3 + rng.index(3) as u8;
            let rules = Rules { players: n, min_bid: 1 + rng.index(2) as u8, ..Rules::grossenaspe() };
            let dealer = Seat(rng.index(usize::from(n)) as u8);
            let pack = shuffled(&mut rng, Pack::P32);
            let (deal, _) = Deal::from_pack(rules, 1, dealer, &pack).unwrap();
            let played = grossenaspe::play_from(deal.clone(), &players(n), tries);
            let mut replay = deal.clone();
            let mut auction = Vec::new();
            for &(s, action) in &played.actions {
                if replay.phase() != Phase::Auction {
                    break;
                }
                replay.apply(s, action).unwrap();
                auction.push((s, action));
            }
            // The declarer half the time (his discard and trumps are reviewed too), else anyone.
            let after = replay.view(None);
            let seat = match after.declarer {
                Some(d) if rng.index(2) == 0 => d,
                _ => Seat(rng.index(usize::from(n)) as u8),
            };
            // What he saw: his hand, and as declarer the skat he took, or skat and talon as a
            // Kieker (a Fips sees neither).
            let mut mine = positions_of(seat, dealer, n);
            let nn = usize::from(n);
            if after.declarer == Some(seat) {
                match after.contract.map(|c| c.bid) {
                    Some(Bid::Fips) | None => {}
                    Some(Bid::Kieker) => mine.extend((3 * nn..3 * nn + 2).chain(5 * nn + 2..32)),
                    Some(Bid::Tricks { .. }) => mine.extend(3 * nn..3 * nn + 2),
                }
            }
            let other_pack = others_anew(&mut rng, &pack, &mine);
            let (mut other, _) = Deal::from_pack(rules, 1, dealer, &other_pack).unwrap();
            // The same auction, where the other cards allow it.
            if auction.iter().any(|&(s, action)| other.apply(s, action).is_err()) {
                continue;
            }
            let other = finish(other, n, tries);
            let replay = finish(replay, n, tries);
            let (a, b) = (review(&replay, seat), review(&other, seat));
            assert!(!a.decisions.is_empty(), "every seat calls at least once");
            well_formed(&a);
            assert_eq!(a, b, "every decision judged from what the seat knew");
            declarers += usize::from(!after_auction(&a).is_empty());
            compared += 1;
        }
        assert!(compared >= 8, "enough deals compared ({compared} of {tries})");
        assert!(declarers >= 3, "enough declarers' discards and trumps compared ({declarers})");
    }

    /// A call weighed by the auction so far rests on deals of unequal weight: the review says
    /// what they are worth as equally weighted deals (Kish's effective size, at most the deals
    /// drawn), and a call before anything was told counts every deal the same.
    #[test]
    fn calls_weighed_by_the_auction_report_their_effective_sample_size() {
        let mut rng = Rng::new(4711);
        let (mut weighted, mut fewer, mut plain, mut tries) = (0, 0, 0, 0);
        while (weighted < 10 || plain < 3) && tries < 200 {
            tries += 1;
            let n = 3 + rng.index(3) as u8;
            let rules = Rules { players: n, min_bid: 1 + rng.index(2) as u8, ..Rules::grossenaspe() };
            let dealer = Seat(rng.index(usize::from(n)) as u8);
            let pack = shuffled(&mut rng, Pack::P32);
            let (deal, _) = Deal::from_pack(rules, 1, dealer, &pack).unwrap();
            let finished = finish(deal, n, tries);
            for s in 0..n {
                let r = review(&finished, Seat(s));
                for d in r.decisions.iter().filter(|d| d.decision == DecisionKind::Call) {
                    match d.effective {
                        Some(e) => {
                            assert!(e >= 1.0 - 1e-9 && e <= f64::from(d.samples) + 1e-9, "{e} of {}", d.samples);
                            weighted += 1;
                            fewer += usize::from(e < 0.9 * f64::from(d.samples));
                        }
                        None => plain += 1,
                    }
                }
            }
        }
        assert!(weighted >= 10, "calls weighed by the auction ({weighted} in {tries} deals)");
        assert!(fewer > 0, "some weighed calls worth fewer deals than drawn");
        assert!(plain >= 3, "calls that counted every deal the same ({plain})");
    }

    #[test]
    fn the_declarer_review_ends_with_his_discard_and_trumps() {
        let mut rng = Rng::new(2801);
        let (mut reviewed, mut both, mut tries) = (0, 0, 0);
        while reviewed < 12 && tries < 300 {
            tries += 1;
            let n = 3 + rng.index(3) as u8;
            let rules = Rules { players: n, min_bid: 1 + rng.index(2) as u8, ..Rules::grossenaspe() };
            let dealer = Seat(rng.index(usize::from(n)) as u8);
            let pack = shuffled(&mut rng, Pack::P32);
            let (deal, _) = Deal::from_pack(rules, 1, dealer, &pack).unwrap();
            let played = grossenaspe::play_from(deal.clone(), &players(n), tries);
            let mut finished = deal.clone();
            for &(s, a) in &played.actions {
                finished.apply(s, a).unwrap();
            }
            let end = finished.view(None);
            let Some(declarer) = end.declarer else { continue };
            let bid = end.contract.unwrap().bid;
            // What he did after the auction: his discard, then trumps or a fold (a Gute's
            // clubs are forced and not his choice).
            let taken: Vec<Action> = played
                .actions
                .iter()
                .filter(|&&(s, a)| {
                    s == declarer && matches!(a, Action::Discard { .. } | Action::NameTrumps { .. } | Action::Fold)
                })
                .map(|&(_, a)| a)
                .collect();
            let r = review(&finished, declarer);
            well_formed(&r);
            assert_eq!(after_auction(&r), taken, "{bid:?}");
            let kinds: Vec<DecisionKind> =
                r.decisions.iter().filter(|d| d.decision != DecisionKind::Call).map(|d| d.decision).collect();
            let expected = match bid {
                Bid::Fips => vec![DecisionKind::Trumps],
                Bid::Tricks { gute: true, .. } => vec![DecisionKind::Discard],
                _ => vec![DecisionKind::Discard, DecisionKind::Trumps],
            };
            assert_eq!(kinds, expected, "{bid:?}");
            for d in r.decisions.iter().filter(|d| d.decision != DecisionKind::Call) {
                match d.decision {
                    DecisionKind::Trumps => {
                        // Every suit, and the fold where a Kieker may fold.
                        let mut offered: Vec<Action> = d.options.iter().map(|o| o.action).collect();
                        offered.sort_by_key(|a| format!("{a:?}"));
                        let mut all: Vec<Action> = Suit::ALL.iter().map(|&suit| Action::NameTrumps { suit }).collect();
                        if bid == Bid::Kieker {
                            all.push(Action::Fold);
                        }
                        all.sort_by_key(|a| format!("{a:?}"));
                        assert_eq!(offered, all);
                    }
                    _ => {
                        let Action::Discard { cards } = d.chosen else { panic!("a discard: {:?}", d.chosen) };
                        assert!(d.options.len() >= 2, "more than his own discard: {:?}", d.options);
                        for o in &d.options {
                            let Action::Discard { cards: other } = o.action else { panic!("{:?}", o.action) };
                            assert_eq!(other.len(), cards.len());
                        }
                    }
                }
            }
            both += usize::from(
                r.decisions.iter().any(|d| d.decision == DecisionKind::Discard)
                    && r.decisions.iter().any(|d| d.decision == DecisionKind::Trumps),
            );
            // The others' reviews have their calls only.
            for s in (0..n).map(Seat).filter(|&s| s != declarer) {
                assert!(after_auction(&review(&finished, s)).is_empty());
            }
            reviewed += 1;
        }
        assert!(reviewed >= 12 && both >= 4, "enough declarers reviewed ({reviewed}, {both} with both)");
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

    /// The trumps decision of seat 0's review of `deal`, which must end with his discard and
    /// then his trumps.
    fn trumps_decision(r: &DecisionReview<Action>) -> &fipsen_bots::games::decisions::Decision<Action> {
        well_formed(r);
        let kinds: Vec<DecisionKind> = r.decisions.iter().map(|d| d.decision).collect();
        assert_eq!(kinds[kinds.len() - 2..], [DecisionKind::Discard, DecisionKind::Trumps], "{kinds:?}");
        r.decisions.last().expect("a trumps decision")
    }

    #[test]
    fn naming_the_long_strong_suit_is_ranked_above_a_short_weak_one() {
        let rules = Rules::grossenaspe();
        let mut deal = arranged(rules, &[["SA", "SK", "SQ", "SJ", "H7"]], ["D7", "C7"]);
        let three = Action::Bid { bid: Bid::Tricks { tricks: 3, gute: false } };
        deal.apply(Seat(0), three).unwrap();
        for s in 1..4 {
            deal.apply(Seat(s), Action::Pass).unwrap();
        }
        assert_eq!(deal.phase(), Phase::Discard);
        let away = Action::Discard { cards: [card("D7"), card("C7")].into_iter().collect() };
        deal.apply(Seat(0), away).unwrap();
        // Hearts, his lone seven, rather than his four top spades.
        deal.apply(Seat(0), Action::NameTrumps { suit: Suit::Hearts }).unwrap();
        let deal = finish(deal, 4, 3);
        let r = review(&deal, Seat(0));
        let d = trumps_decision(&r);
        assert_eq!(r.decisions[r.decisions.len() - 2].chosen, away);
        assert_eq!(d.chosen, Action::NameTrumps { suit: Suit::Hearts });
        assert_eq!(d.bot, Action::NameTrumps { suit: Suit::Spades }, "the bot names spades");
        let value = |suit| d.options.iter().find(|o| o.action == Action::NameTrumps { suit }).unwrap();
        let (spades, hearts) = (value(Suit::Spades), value(Suit::Hearts));
        // Four of the five top spades make three tricks however the rest lie: +3 or more.
        assert!(spades.value >= 3.0, "{spades:?}");
        assert!(spades.value - spades.margin > hearts.value + hearts.margin, "{spades:?} against {hearts:?}");
        assert_eq!(d.best_option().map(|o| o.action), Some(d.bot));
        // The discard of two cards he did not need is as good as any the review offers.
        let discard = &r.decisions[r.decisions.len() - 2];
        let best = discard.best_option().unwrap();
        assert!(discard.chosen_option().unwrap().value + 1e-9 >= best.value - best.margin, "{:?}", discard.options);
    }

    #[test]
    fn a_kieker_may_fold_and_the_fold_is_valued() {
        let rules = Rules::grossenaspe();
        let mut deal = arranged(rules, &[["C7", "C8", "S9", "H10", "D7"]], ["D8", "H8"]);
        deal.apply(Seat(0), Action::Bid { bid: Bid::Kieker }).unwrap();
        for s in 1..4 {
            deal.apply(Seat(s), Action::Pass).unwrap();
        }
        assert_eq!(deal.phase(), Phase::Discard);
        let deal = finish(deal, 4, 5);
        let r = review(&deal, Seat(0));
        let d = trumps_decision(&r);
        let fold = d.options.iter().find(|o| o.action == Action::Fold).expect("the fold offered");
        // A fold costs five, whatever the cards.
        assert_eq!((fold.value, fold.margin), (-5.0, 0.0));
        assert_eq!(d.options.len(), 5, "four suits and the fold");
        // The discard is worth at least the fold: he may still fold after it.
        let discard = &r.decisions[r.decisions.len() - 2];
        assert!(discard.options.iter().all(|o| o.value >= -5.0), "{:?}", discard.options);
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
    use fipsen_rules::Suit;
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
        let (mut compared, mut tries, mut declarers) = (0, 0, 0);
        let mut games = std::collections::HashSet::new();
        while (compared < 10 || declarers < 4) && tries < 300 {
            tries += 1;
            let rules = random_rules(&mut rng);
            let dealer = Seat(rng.index(4) as u8);
            let pack = shuffled(&mut rng, Pack::P25_A);
            let (deal, _) = Deal::from_pack(rules, 1, dealer, &pack).unwrap();
            let played = mecklenburg::play_from(deal.clone(), &players(), tries);
            let mut replay = deal.clone();
            let mut auction = Vec::new();
            for &(s, action) in &played.actions {
                if replay.phase() != Phase::Auction {
                    break;
                }
                replay.apply(s, action).unwrap();
                auction.push((s, action));
            }
            // The declarer half the time (his discard and trumps are reviewed too), else anyone.
            let after = replay.view(None);
            let seat = match after.declarer {
                Some(d) if rng.index(2) == 0 => d,
                _ => Seat(rng.index(4) as u8),
            };
            // What he saw: his hand, and as declarer the Dutt where he takes it.
            let mut mine = positions_of(seat, dealer);
            if after.declarer == Some(seat) && rules.dutt() == DuttUse::Exchange {
                mine.extend(20..25);
            }
            let other_pack = others_anew(&mut rng, &pack, &mine);
            let (mut other, _) = Deal::from_pack(rules, 1, dealer, &other_pack).unwrap();
            if auction.iter().any(|&(s, action)| other.apply(s, action).is_err()) {
                continue;
            }
            let (replay, other) = (finish(replay, tries), finish(other, tries));
            let (a, b) = (review(&replay, seat), review(&other, seat));
            assert!(!a.decisions.is_empty(), "every seat calls at least once");
            well_formed(&a);
            assert_eq!(a, b, "every decision judged from what the seat knew");
            games.insert(matches!(rules, Rules::Duttfips(_)));
            declarers += usize::from(!after_auction(&a).is_empty());
            compared += 1;
        }
        assert!(compared >= 10, "enough deals compared ({compared} of {tries})");
        assert_eq!(games.len(), 2, "both games compared");
        assert!(declarers >= 4, "enough declarers' discards and trumps compared ({declarers})");
    }

    #[test]
    fn the_declarer_review_ends_with_his_discard_and_trumps() {
        let mut rng = Rng::new(2802);
        let (mut reviewed, mut discards, mut tries) = (0, 0, 0);
        while (reviewed < 12 || discards < 4) && tries < 300 {
            tries += 1;
            let rules = random_rules(&mut rng);
            let dealer = Seat(rng.index(4) as u8);
            let pack = shuffled(&mut rng, Pack::P25_A);
            let (deal, _) = Deal::from_pack(rules, 1, dealer, &pack).unwrap();
            let played = mecklenburg::play_from(deal.clone(), &players(), tries);
            let mut finished = deal.clone();
            for &(s, a) in &played.actions {
                finished.apply(s, a).unwrap();
            }
            let end = finished.view(None);
            let Some(declarer) = end.declarer else { continue };
            let bid = end.contract.unwrap().bid;
            // What he did after the auction: the Dutt's five cards away, then trumps (a Ruten
            // contract's are forced and not his choice).
            let taken: Vec<Action> = played
                .actions
                .iter()
                .filter(|&&(s, a)| s == declarer && matches!(a, Action::Discard { .. } | Action::NameTrumps { .. }))
                .map(|&(_, a)| a)
                .collect();
            let r = review(&finished, declarer);
            well_formed(&r);
            assert_eq!(after_auction(&r), taken, "{bid:?}");
            let mut expected = Vec::new();
            if rules.dutt() == DuttUse::Exchange {
                expected.push(DecisionKind::Discard);
            }
            if !bid.is_ruten() {
                expected.push(DecisionKind::Trumps);
            }
            let kinds: Vec<DecisionKind> =
                r.decisions.iter().filter(|d| d.decision != DecisionKind::Call).map(|d| d.decision).collect();
            assert_eq!(kinds, expected, "{bid:?}");
            for d in r.decisions.iter().filter(|d| d.decision != DecisionKind::Call) {
                if d.decision == DecisionKind::Trumps {
                    // The three suits, and Ruten where it may be named.
                    assert!(d.options.len() >= 3, "{:?}", d.options);
                    assert!(d.options.iter().all(|o| matches!(o.action, Action::NameTrumps { .. })));
                } else {
                    assert!(d.options.len() >= 2, "more than his own discard: {:?}", d.options);
                    for o in &d.options {
                        let Action::Discard { cards } = o.action else { panic!("{:?}", o.action) };
                        assert_eq!(cards.len(), 5);
                    }
                    discards += 1;
                }
            }
            for s in (0..4).map(Seat).filter(|&s| s != declarer) {
                assert!(after_auction(&review(&finished, s)).is_empty());
            }
            reviewed += 1;
        }
        assert!(reviewed >= 12 && discards >= 4, "enough declarers reviewed ({reviewed}, {discards} discards)");
    }

    #[test]
    fn naming_the_long_strong_suit_is_ranked_above_a_short_weak_one() {
        let hands = [
            ["CA", "CK", "CQ", "CJ", "S7"],
            ["SA", "SK", "HA", "HK", "DA"],
            ["SQ", "SJ", "HQ", "HJ", "C10"],
            ["S10", "S9", "H10", "H9", "C9"],
        ];
        // The Dutt: C8 C7 S8 H8 H7.
        let mut deal = arranged(DuttfipsRules::duttfips(), &hands);
        deal.apply(Seat(0), Action::Bid { bid: Bid::Dutt }).unwrap();
        for s in 1..4 {
            deal.apply(Seat(s), Action::Pass).unwrap();
        }
        assert_eq!(deal.phase(), Phase::Discard);
        let away = Action::Discard { cards: ["C8", "C7", "S8", "H8", "H7"].into_iter().map(card).collect() };
        deal.apply(Seat(0), away).unwrap();
        // Spades, his lone seven, rather than his four top clubs.
        deal.apply(Seat(0), Action::NameTrumps { suit: Suit::Spades }).unwrap();
        let deal = finish(deal, 3);
        let r = review(&deal, Seat(0));
        well_formed(&r);
        let kinds: Vec<DecisionKind> = r.decisions.iter().map(|d| d.decision).collect();
        assert_eq!(kinds[kinds.len() - 2..], [DecisionKind::Discard, DecisionKind::Trumps], "{kinds:?}");
        assert_eq!(r.decisions[kinds.len() - 2].chosen, away);
        let d = r.decisions.last().unwrap();
        assert_eq!(d.chosen, Action::NameTrumps { suit: Suit::Spades });
        assert_eq!(d.bot, Action::NameTrumps { suit: Suit::Clubs }, "the bot names clubs");
        let value = |suit| d.options.iter().find(|o| o.action == Action::NameTrumps { suit }).unwrap();
        let (clubs, spades) = (value(Suit::Clubs), value(Suit::Spades));
        // The four top clubs make three tricks however the rest lie: +3 or more.
        assert!(clubs.value >= 3.0, "{clubs:?}");
        assert!(clubs.value - clubs.margin > spades.value + spades.margin, "{clubs:?} against {spades:?}");
        assert_eq!(d.best_option().map(|o| o.action), Some(d.bot));
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
        // Every sampled deal swept, which samples cannot make certain: a small margin remains,
        // and announcing is still clearly the better choice.
        assert!(fipsen.margin > 0.0, "{fipsen:?}");
        assert!(fipsen.value - fipsen.margin > d.chosen_option().unwrap().value);
        // Seat 1's five low clubs: announcing can only cost the penalty.
        let r = review(&deal, Seat(1));
        let d = &r.decisions[0];
        assert_eq!(d.bot, Action::Pass);
        let fipsen = d.options.iter().find(|o| o.action == Action::Fipsen).unwrap();
        assert!(fipsen.value < 0.0, "{fipsen:?}");
        // Measured on the first eight deals only (none swept): the margin says how little eight
        // deals tell, instead of 0.
        assert_eq!(d.samples, 8);
        assert!(fipsen.margin > 0.2 * fipsen.value.abs(), "{fipsen:?}");
    }
}
