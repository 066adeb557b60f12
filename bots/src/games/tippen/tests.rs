use super::*;
use fipsen_rules::tippen::{Carry, DausCard, Deal, Preset, Rules, Series};
use fipsen_rules::{GameAction, GameView, Seat, Seed};

const LEVELS: [Level; 3] = [Level::Easy, Level::Normal, Level::Strong];

fn cards(s: &str) -> Vec<Card> {
    s.split_whitespace().map(|c| c.parse().expect("a card")).collect()
}

fn set(s: &str) -> CardSet {
    cards(s).into_iter().collect()
}

/// A pack dealing `hands` (from forehand on, one card a round) with `trump` after the hands,
/// as the presets with the trump card after the last round deal.
fn pack(rules: &Rules, hands: &[&str], trump: &str) -> Vec<Card> {
    let hands: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
    let mut out = Vec::new();
    for r in 0..hands[0].len() {
        out.extend(hands.iter().map(|h| h[r]));
    }
    out.push(trump.parse().expect("a card"));
    out.extend(rules.pack().cards().iter().filter(|c| !out.contains(c)).collect::<Vec<_>>());
    out
}

fn deal(rules: Rules, dealer: u8, hands: &[&str], trump: &str, carry: i32) -> Deal {
    let packs = vec![pack(&rules, hands, trump)];
    Deal::from_packs(rules, 1, Seat(dealer), packs, Carry { pot: carry, reserve: 0 }).expect("a valid pack").0
}

fn answer(level: Level, deal: &Deal) -> Action {
    let seat = deal.turn().expect("someone acts");
    Bot::new(level, 7).choose(&deal.view(Some(seat))).expect("an answer")
}

fn rules_variety(preset: Preset, players: u8) -> Vec<Rules> {
    let base = Rules { deals: Some(4), ..Rules::preset(preset, players) };
    let mut out = vec![base];
    match preset {
        Preset::ModernGrupp | Preset::ModernKatira => {
            out.push(Rules { shoving: true, knocking: true, tipp_zwang: true, ..base });
            out.push(Rules { sniffing: Sniffing::Grupp, max_bete: Some(12), ..base });
        }
        Preset::Dreiblatt1859 => {
            out.push(Rules { robbing: true, sniffing: Sniffing::Alvensleben, ..base });
            out.push(Rules { hop_and_jump: true, robbing: true, ..base });
            if players >= 7 {
                out.push(Rules { daus_card: DausCard::Two, ..base });
            }
        }
        Preset::Vierblatt => out.push(Rules { exchange_max: Some(4), ..base }),
        _ => {}
    }
    out
}

/// Through the door, every level answers legally at every turn of whole series of every
/// preset, with the options on and off, at several table sizes.
#[test]
fn every_level_answers_legally_in_every_preset() {
    for preset in Preset::ALL {
        let (min, max) = preset.player_range();
        for players in [min, (min + max) / 2, max] {
            for rules in rules_variety(preset, players) {
                rules.validate().unwrap_or_else(|e| panic!("{rules:?}: {e}"));
                for (i, level) in LEVELS.into_iter().enumerate() {
                    let seed = Seed::from_u64(u64::from(players) * 31 + i as u64);
                    let (mut series, _) = Series::new(rules, seed).expect("valid");
                    let mut steps = 0u64;
                    while !series.is_over() {
                        steps += 1;
                        assert!(steps < 3_000, "{rules:?} did not end");
                        if series.deal().is_over() {
                            series.next_deal().expect("next");
                            continue;
                        }
                        let seat = series.deal().turn().expect("someone acts");
                        let view = GameView::Tippen(series.view(Some(seat)));
                        let Some(GameAction::Tippen(action)) = crate::games::choose(level, steps, &view) else {
                            panic!("{level:?} gave no Tippen answer in {rules:?}");
                        };
                        series.apply(seat, action).unwrap_or_else(|e| panic!("{level:?} {rules:?}: {action:?}: {e}"));
                    }
                }
            }
        }
    }
}

/// The same seed and view give the same answer at every level; a bot out of turn says nothing.
#[test]
fn answers_are_deterministic_and_only_in_turn() {
    let rules =
        Rules { deals: Some(3), sniffing: Sniffing::Grupp, knocking: true, ..Rules::preset(Preset::ModernGrupp, 5) };
    let (mut series, _) = Series::new(rules, Seed::from_u64(3)).expect("valid");
    let mut steps = 0u64;
    while !series.is_over() {
        if series.deal().is_over() {
            series.next_deal().expect("next");
            continue;
        }
        steps += 1;
        let seat = series.deal().turn().expect("someone acts");
        let view = series.view(Some(seat));
        for level in LEVELS {
            let a = Bot::new(level, steps).choose_in_series(&view);
            let b = Bot::new(level, steps).choose_in_series(&view);
            assert_eq!(a, b, "{level:?}");
        }
        let other = Seat((seat.0 + 1) % 5);
        assert_eq!(Bot::new(Level::Strong, 1).choose_in_series(&series.view(Some(other))), None);
        let action = Bot::new(Level::Normal, steps).choose_in_series(&view).expect("an answer");
        series.apply(seat, action).expect("legal");
    }
}

/// Meyers 1905, four players, a pot holding a bête: the bête is the whole pot.
fn meyers_big_pot(forehand_hand: &str) -> Deal {
    let rules = Rules::preset(Preset::Meyers1905, 4);
    let hands = [forehand_hand, "CA CK CQ", "SA SK SQ", "DA DK DQ"];
    deal(rules, 3, &hands, "H10", 24)
}

#[test]
fn a_hopeless_hand_passes_when_the_pot_is_big() {
    let d = meyers_big_pot("C7 S7 D8");
    assert!(d.view(Some(Seat(0))).prompt.pass);
    for level in [Level::Normal, Level::Strong] {
        assert_eq!(answer(level, &d), Action::Pass, "{level:?}");
    }
}

#[test]
fn a_sure_trick_joins() {
    let d = meyers_big_pot("HA C7 S7");
    for level in [Level::Normal, Level::Strong] {
        assert_eq!(answer(level, &d), Action::Join, "{level:?}");
    }
}

#[test]
fn the_last_to_decide_joins_alone_for_the_pot() {
    let rules = Rules::preset(Preset::ModernGrupp, 4);
    let hands = ["CA CK CQ", "SA SK SQ", "DA DK DQ", "C7 S7 D8"];
    let mut d = deal(rules, 3, &hands, "H10", 12);
    for s in 0..3 {
        d.apply(Seat(s), Action::Pass).expect("pass");
    }
    for level in [Level::Normal, Level::Strong] {
        assert_eq!(answer(level, &d), Action::Join, "{level:?}");
    }
}

#[test]
fn the_holder_of_the_seven_robs() {
    let rules = Rules { robbing: true, ..Rules::preset(Preset::Dreiblatt1859, 4) };
    let hands = ["H7 C8 S9", "CA CK CQ", "SA SK SQ", "DA DK DQ"];
    let d = deal(rules, 3, &hands, "HK", 0);
    assert!(d.view(Some(Seat(0))).prompt.rob);
    for level in LEVELS {
        assert_eq!(answer(level, &d), Action::Rob, "{level:?}");
    }
}

#[test]
fn low_plain_cards_are_exchanged_and_trumps_kept() {
    let rules = Rules::preset(Preset::ModernGrupp, 4);
    let hands = ["HA C7 S8", "CA CK CQ", "SA SK SQ", "DA DK DQ"];
    let mut d = deal(rules, 3, &hands, "H10", 0);
    for s in 0..4 {
        d.apply(Seat(s), Action::Join).expect("join");
    }
    for level in [Level::Normal, Level::Strong] {
        let Action::Exchange { cards } = answer(level, &d) else { panic!("{level:?} kept") };
        assert!(cards.contains_all(set("C7 S8")), "{level:?}: {cards:?}");
        assert!(!cards.contains(Card::new(Suit::Hearts, Rank::Ace)), "{level:?}: {cards:?}");
    }
}

#[test]
fn a_sure_trick_is_taken_to_avoid_the_bete() {
    let rules = Rules::preset(Preset::Meyers1905, 3);
    let hands = ["C9 HA HK", "C7 HQ HJ", "C10 C8 D7"];
    let mut d = deal(rules, 2, &hands, "H8", 0);
    d.apply(Seat(0), Action::Play { card: "C9".parse().unwrap() }).expect("lead");
    d.apply(Seat(1), Action::Play { card: "C7".parse().unwrap() }).expect("follow");
    assert_eq!(d.view(Some(Seat(2))).prompt.cards, set("C10 C8"));
    for level in [Level::Normal, Level::Strong] {
        assert_eq!(answer(level, &d), Action::Play { card: "C10".parse().unwrap() }, "{level:?}");
    }
}

/// The bots' own follow rules agree with the rules crate on every card of random deals.
#[test]
fn the_model_of_the_play_agrees_with_the_rules() {
    for preset in Preset::ALL {
        let (_, max) = preset.player_range();
        let rules = Rules { deals: Some(6), ..Rules::preset(preset, max) };
        let params = Params::of(&rules);
        let (mut series, _) = Series::new(rules, Seed::from_u64(11)).expect("valid");
        let mut steps = 0u64;
        while !series.is_over() {
            steps += 1;
            if series.deal().is_over() {
                series.next_deal().expect("next");
                continue;
            }
            let seat = series.deal().turn().expect("someone acts");
            let view = series.view(Some(seat)).deal;
            if view.phase == Phase::Play {
                let hand = view.hand.expect("a hand");
                let trumps = view.trumps.expect("trumps");
                let trick: Vec<Card> = view.trick.iter().map(|p| p.card).collect();
                let ours = if trick.is_empty() {
                    sim::lead_playable(&params, trumps, view.tricks.len() as u8, view.active.len(), hand)
                } else {
                    sim::follow_playable(&params, trumps, &trick, hand)
                };
                assert_eq!(ours, view.prompt.cards, "{preset:?} {trick:?} {hand:?}");
            }
            let action = Bot::new(Level::Easy, steps).choose(&view).expect("an answer");
            series.apply(seat, action).expect("legal");
        }
    }
}
