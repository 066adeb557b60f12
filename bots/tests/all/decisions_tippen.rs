//! The review of a Tippen seat's decisions before the play: it reads only what the seat knew
//! — dealing the cards he never saw anew, with the same answers at the table, gives the same
//! review —, it reviews each of his decisions in order with every answer he had, and it shows
//! a clearly better answer as the better one.

use fipsen_bots::Level;
use fipsen_bots::games::decisions::{DecisionKind, DecisionReview};
use fipsen_bots::rng::Rng;
use fipsen_bots::tippen::{self, Bot};
use fipsen_rules::tippen::{Action, Carry, Deal, Phase, Preset, Rules, Sniffing};
use fipsen_rules::{Card, Rank, Seat};

fn card(s: &str) -> Card {
    s.parse().expect("a card code")
}

fn review(deal: &Deal, seat: Seat) -> DecisionReview<Action> {
    tippen::review(&mut Bot::new(Level::Strong, 9), deal, seat).expect("a finished deal")
}

/// The tables the tests deal at: every preset, with the dealer's options, robbing, hop and
/// jump and the exchange.
fn tables(rng: &mut Rng) -> Rules {
    let presets = [
        Preset::ModernGrupp,
        Preset::ModernGrupp,
        Preset::ModernGrupp,
        Preset::ModernKatira,
        Preset::Dreiblatt1859,
        Preset::Dreiblatt1859,
        Preset::Vierblatt,
        Preset::Meyers1905,
        Preset::DreiKarten1821,
        Preset::Loup1821,
    ];
    let preset = presets[rng.index(presets.len())];
    let (min, max) = preset.player_range();
    let players = min + rng.index(usize::from(max.min(6) - min) + 1) as u8;
    let base = Rules::preset(preset, players);
    match preset {
        Preset::ModernGrupp | Preset::ModernKatira => match rng.index(3) {
            0 => Rules { shoving: true, knocking: true, ..base },
            1 => Rules { shoving: true, sniffing: Sniffing::Grupp, max_bete: Some(12), ..base },
            _ => Rules { knocking: true, sniffing: Sniffing::Grupp, ..base },
        },
        Preset::Dreiblatt1859 => {
            if rng.index(2) == 0 {
                Rules { robbing: true, sniffing: Sniffing::Alvensleben, ..base }
            } else {
                Rules { robbing: true, hop_and_jump: true, ..base }
            }
        }
        Preset::Vierblatt => Rules { exchange_max: Some(4), ..base },
        _ => base,
    }
}

fn shuffled(rng: &mut Rng, rules: &Rules) -> Vec<Card> {
    let mut cards: Vec<Card> = rules.pack().cards().iter().collect();
    rng.shuffle(&mut cards);
    cards
}

/// Whether a bottom card passes the deal on under hop and jump.
fn hops(c: Card) -> bool {
    matches!(c.rank(), Rank::Ace | Rank::Seven)
}

/// The packs for a deal of `rules`: under hop and jump a first pack whose bottom card passes
/// the deal on, then one that is dealt.
fn packs(rng: &mut Rng, rules: &Rules) -> Vec<Vec<Card>> {
    let mut dealt = shuffled(rng, rules);
    let last = dealt.len() - 1;
    let keep = dealt.iter().position(|&c| !hops(c)).expect("a card that does not hop");
    dealt.swap(keep, last);
    if !rules.hop_and_jump {
        return vec![dealt];
    }
    let mut first = shuffled(rng, rules);
    let ace = first.iter().position(|&c| c.rank() == Rank::Ace).expect("an ace");
    first.swap(ace, last);
    vec![first, dealt]
}

fn carry(rng: &mut Rng) -> Carry {
    Carry { pot: [0, 0, 6, 24][rng.index(4)], reserve: 0 }
}

/// Plays `deal` to its end with normal bots; every action taken, with its phase.
fn finish(deal: &mut Deal, seed: u64) -> Vec<(Seat, Action, Phase)> {
    let mut out = Vec::new();
    let mut step = 0;
    while !deal.is_over() {
        let seat = deal.turn().expect("a turn");
        let action = Bot::new(Level::Normal, seed * 1000 + step).choose(&deal.view(Some(seat))).expect("an answer");
        out.push((seat, action, deal.phase()));
        deal.apply(seat, action).expect("the bots play legally");
        step += 1;
        assert!(step < 500, "the deal ends");
    }
    out
}

/// Every decision has the seat's answer and the bot's among its options, each option once,
/// with a finite margin, and was sampled.
fn well_formed(review: &DecisionReview<Action>) {
    for d in &review.decisions {
        assert!(d.samples >= 96, "{:?}: {} samples", d.decision, d.samples);
        assert!(d.chosen_option().is_some(), "{:?} among the options {:?}", d.chosen, d.options);
        assert!(d.options.iter().any(|o| o.action == d.bot), "{:?} among the options", d.bot);
        assert!(d.options.iter().all(|o| o.margin >= 0.0 && o.margin.is_finite() && o.value.is_finite()));
        for (i, o) in d.options.iter().enumerate() {
            assert!(d.options[..i].iter().all(|p| p.action != o.action), "{:?} once", o.action);
        }
    }
}

#[test]
fn the_review_is_the_same_whatever_the_unseen_cards() {
    let mut rng = Rng::new(28);
    let (mut compared, mut tries, mut reviewed) = (0, 0, 0);
    let mut kinds = std::collections::HashSet::new();
    while compared < 24 && tries < 300 {
        tries += 1;
        let rules = tables(&mut rng);
        let due = Seat(rng.index(usize::from(rules.players)) as u8);
        let carry = carry(&mut rng);
        let packs = packs(&mut rng, &rules);
        let (mut deal, _) = Deal::from_packs(rules, 1, due, packs.clone(), carry).expect("valid packs");
        let start = deal.clone();
        let actions = finish(&mut deal, tries);
        let seat = Seat(rng.index(usize::from(rules.players)) as u8);
        // The cards the seat never saw, dealt anew: every card of the dealt pack but his own
        // hand, the trump card and the bottom card (shown under hop and jump).
        let seen = deal.dealt_hand(seat).union(deal.trump_card().expect("a trump card").set());
        let mut other_packs = packs.clone();
        let pack = other_packs.last_mut().expect("a pack");
        let mut free: Vec<usize> = (0..pack.len() - 1).filter(|&i| !seen.contains(pack[i])).collect();
        let cards: Vec<Card> = free.iter().map(|&i| pack[i]).collect();
        rng.shuffle(&mut free);
        for (&i, &c) in free.iter().zip(&cards) {
            pack[i] = c;
        }
        let (mut other, _) = Deal::from_packs(rules, 1, due, other_packs, carry).expect("valid packs");
        assert_eq!(other.view(Some(seat)), start.view(Some(seat)), "the same deal for the seat");
        // The same answers before the play; another seat's hidden cards laid away are any of
        // his cards now.
        let mut fits = true;
        for &(s, action, phase) in &actions {
            if matches!(phase, Phase::Play | Phase::Over) {
                break;
            }
            let action = match action {
                Action::Discard { .. } if s != seat => {
                    Action::Discard { cards: other.hand(s).iter().next().expect("a card").set() }
                }
                Action::Exchange { cards } if s != seat => {
                    Action::Exchange { cards: other.hand(s).iter().take(cards.len()).collect() }
                }
                a => a,
            };
            if other.apply(s, action).is_err() {
                fits = false;
                break;
            }
        }
        if !fits {
            continue;
        }
        finish(&mut other, tries + 1);
        let (a, b) = (review(&deal, seat), review(&other, seat));
        well_formed(&a);
        assert_eq!(a, b, "{rules:?}: every decision judged from what the seat knew");
        reviewed += usize::from(!a.decisions.is_empty());
        kinds.extend(a.decisions.iter().map(|d| format!("{:?}", d.decision)));
        compared += 1;
    }
    eprintln!("{compared} compared of {tries}, {reviewed} with decisions: {kinds:?}");
    assert!(compared >= 24, "enough deals compared ({compared} of {tries})");
    assert!(reviewed >= 12, "enough with decisions ({reviewed})");
    for kind in ["Shove", "Knock", "Sniff", "Entry", "Exchange"] {
        assert!(kinds.contains(kind), "{kind} among the decisions compared: {kinds:?}");
    }
}

/// Each of the seat's turns before the play that offered more than one answer is reviewed, in
/// order, of its kind, with his answer and every answer he had among the options; the deals
/// are the normal bots', whose card laid away after knocking is the one the review assumes.
#[test]
fn every_decision_is_reviewed_in_order_with_every_answer() {
    let mut rng = Rng::new(5);
    let mut kinds = std::collections::HashSet::new();
    for round in 0..30 {
        let rules = tables(&mut rng);
        let due = Seat(rng.index(usize::from(rules.players)) as u8);
        let (mut deal, _) = Deal::from_packs(rules, 1, due, packs(&mut rng, &rules), carry(&mut rng)).unwrap();
        let mut asked: Vec<Vec<(DecisionKind, Action, Vec<Action>)>> = vec![Vec::new(); usize::from(rules.players)];
        let mut step = 0;
        while !deal.is_over() {
            let seat = deal.turn().unwrap();
            let action = Bot::new(Level::Normal, step).choose(&deal.view(Some(seat))).unwrap();
            let legal = deal.legal_actions(seat);
            let kind = match deal.phase() {
                Phase::Shove => Some(DecisionKind::Shove),
                Phase::Knock => Some(DecisionKind::Knock),
                Phase::Sniff => Some(DecisionKind::Sniff),
                Phase::Discard => Some(DecisionKind::Discard),
                Phase::Decide => Some(DecisionKind::Entry),
                Phase::Exchange => Some(DecisionKind::Exchange),
                Phase::Play | Phase::Over => None,
            };
            if let Some(kind) = kind
                && legal.len() > 1
            {
                asked[seat.index()].push((kind, action, legal));
            }
            deal.apply(seat, action).unwrap();
            step += 1;
        }
        for s in 0..rules.players {
            let r = review(&deal, Seat(s));
            assert_eq!(r.seat, Seat(s));
            well_formed(&r);
            let wanted = &asked[usize::from(s)];
            assert_eq!(r.decisions.len(), wanted.len(), "round {round}, seat {s}: {rules:?}");
            for (d, (kind, action, legal)) in r.decisions.iter().zip(wanted) {
                assert_eq!((d.decision, d.chosen), (*kind, *action), "round {round}, seat {s}");
                let options: Vec<Action> = d.options.iter().map(|o| o.action).collect();
                assert_eq!(options.len(), legal.len(), "{kind:?}: every answer he had");
                assert!(legal.iter().all(|a| options.contains(a)), "{kind:?}: {legal:?} in {options:?}");
                kinds.insert(format!("{kind:?}"));
            }
        }
    }
    for kind in ["Shove", "Knock", "Sniff", "Discard", "Entry", "Exchange"] {
        assert!(kinds.contains(kind), "{kind} among the decisions reviewed: {kinds:?}");
    }
}

/// Meyers 1905, four players, seat 3 deals (seat 0 is forehand), hearts turned (the ten), a
/// pot of 24 carried: nobody must play, and the deal is played for 27 (share 9 a trick, the
/// bête the whole 27).
fn meyers(forehand_hand: &str) -> Deal {
    let rules = Rules::preset(Preset::Meyers1905, 4);
    let hands: Vec<Vec<Card>> = [forehand_hand, "CA CK CQ", "SA SK SQ", "DA DK DQ"]
        .iter()
        .map(|h| h.split_whitespace().map(card).collect())
        .collect();
    let mut pack = Vec::new();
    for round in 0..3 {
        pack.extend(hands.iter().map(|h| h[round]));
    }
    pack.push(card("H10"));
    pack.extend(rules.pack().cards().iter().filter(|c| !pack.contains(c)).collect::<Vec<_>>());
    Deal::from_packs(rules, 1, Seat(3), vec![pack], Carry { pot: 24, reserve: 0 }).expect("a valid pack").0
}

#[test]
fn passing_three_top_trumps_is_shown_to_cost_three_shares() {
    let mut deal = meyers("HA HK HQ");
    assert_eq!(deal.view(Some(Seat(0))).played_for, 27);
    deal.apply(Seat(0), Action::Pass).unwrap();
    finish(&mut deal, 1);
    let r = review(&deal, Seat(0));
    well_formed(&r);
    assert_eq!(r.decisions.len(), 1);
    let d = &r.decisions[0];
    assert_eq!((d.decision, d.chosen, d.bot), (DecisionKind::Entry, Action::Pass, Action::Join));
    let join = d.options.iter().find(|o| o.action == Action::Join).unwrap();
    let pass = d.chosen_option().unwrap();
    // Every trick his, whatever the others hold (or the pot of 27 alone): 27 in every deal.
    assert_eq!((join.value, join.margin), (27.0, 0.0));
    assert_eq!((pass.value, pass.margin), (0.0, 0.0));
    assert_eq!(d.best_option().map(|o| o.action), Some(Action::Join));
}

#[test]
fn playing_with_nothing_is_shown_as_a_loss() {
    let mut deal = meyers("C7 S7 D8");
    deal.apply(Seat(0), Action::Join).unwrap();
    finish(&mut deal, 1);
    let r = review(&deal, Seat(0));
    well_formed(&r);
    let d = &r.decisions[0];
    assert_eq!((d.decision, d.chosen, d.bot), (DecisionKind::Entry, Action::Join, Action::Pass));
    let join = d.chosen_option().unwrap();
    assert!(join.value + join.margin < 0.0, "a loss, most often the bête of 27: {join:?}");
    assert!(join.margin > 0.0, "a trick now and then: {join:?}");
    assert_eq!(d.best_option().map(|o| o.action), Some(Action::Pass));
}

/// The review of one finished deal is the same each time it is asked, and only a finished
/// deal has one.
#[test]
fn only_a_finished_deal_is_reviewed_and_always_alike() {
    let deal = meyers("HA C7 S7");
    assert!(tippen::review(&mut Bot::new(Level::Strong, 9), &deal, Seat(0)).is_none());
    let mut done = deal.clone();
    finish(&mut done, 2);
    assert_eq!(review(&done, Seat(0)), review(&done, Seat(0)));
    assert!(tippen::review(&mut Bot::new(Level::Strong, 9), &done, Seat(4)).is_none());
}
