//! The contract of the game interface, checked through [`GameEngine`] alone, so that every game
//! of the platform is held to it by the same code: an action is accepted exactly when listed,
//! `check` agrees with `apply`, a refused action changes nothing, every series ends its deals.

#![allow(clippy::unwrap_used)]

use fipsen_rules::mecklenburg::{self, AnseggerfipsRules, AuctionKind, DuttUse, DuttfipsRules, Faces};
use fipsen_rules::{
    FirstLead, GameEngine, GameEvent, GameId, GameRules, GameView, KiekerShow, Players, RuleSet, Seat, Seed, Series,
    grossenaspe, thedinghausen, tippen, wippen,
};

/// A small deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n.max(1) as u64) as usize
    }
}

/// Plays `deals` deals of random legal actions through the interface, checking the contract at
/// every step; returns how many actions were taken.
fn play_through_the_interface<G: GameEngine>(rules: G::Rules, master: Seed, deals: u32, rng: &mut Rng) -> usize {
    // The rules read back through the registry as this game's.
    let tagged = serde_json::to_string(&rules).expect("rules serialise");
    let tagged = format!(r#"{{"game":"{}",{}"#, G::ID.code(), &tagged[1..]);
    let read: GameRules = serde_json::from_str(&tagged).expect("the registry reads the rules");
    assert_eq!(read.game(), G::ID);
    assert_eq!(serde_json::to_string(&read).unwrap(), tagged, "the game's name comes first");
    let (mut game, _) = G::start(rules, master).expect("valid rules");
    let n = game.seats();
    let mut taken = 0;
    let mut sheet: Vec<String> = Vec::new();
    for _step in 0..5_000 {
        if game.series_over() || game.deal_number() > deals {
            return taken;
        }
        if game.deal_over() {
            let before = game.deal_number();
            game.next_deal().expect("the next deal");
            assert!(game.deal_number() > before);
            continue;
        }
        let seats: Vec<Seat> = (0..n as u8).map(Seat).collect();
        let listed: Vec<Vec<G::Action>> = seats.iter().map(|&s| game.legal_actions(s)).collect();
        assert!(listed.iter().any(|l| !l.is_empty()), "a deal in progress waits for someone");
        if let Some(turn) = game.turn() {
            assert!(!listed[turn.index()].is_empty(), "the seat to act has something to do");
        }
        // Every seat's listed actions, tried at every seat: accepted exactly where listed, and a
        // refusal leaves the game as it was.
        let state = format!("{game:?}");
        for (i, &seat) in seats.iter().enumerate() {
            for action in listed.iter().flatten() {
                let allowed = listed[i].contains(action);
                assert_eq!(game.check(seat, action.clone()).is_ok(), allowed, "{seat:?} {action:?}");
                if !allowed {
                    let mut copy = game.clone();
                    assert!(copy.apply(seat, action.clone()).is_err());
                    assert_eq!(format!("{copy:?}"), state, "a refused action changed the game");
                }
            }
        }
        // Every viewer's view and redacted events can be built.
        let movers: Vec<(Seat, &Vec<G::Action>)> =
            seats.iter().copied().zip(&listed).filter(|(_, l)| !l.is_empty()).collect();
        let (seat, actions) = movers[rng.below(movers.len())];
        let action = actions[rng.below(actions.len())].clone();
        let events = game.apply(seat, action).expect("a listed action is accepted");
        taken += 1;
        // The scoresheet's rows are only ever added: those seen before are unchanged.
        let rows: Vec<String> = (0..game.rows()).map(|i| game.row_json(i).expect("a row")).collect();
        assert!(rows.starts_with(&sheet), "a row of the scoresheet changed");
        assert_eq!(game.row_json(rows.len()), None);
        sheet = rows;
        for viewer in seats.iter().copied().map(Some).chain([None]) {
            // The view without its rows, the rows put back, is the view; the registry reads it
            // as this game's `GameView`.
            let view = serde_json::to_value(game.view(viewer)).unwrap();
            let mut parts = serde_json::to_value(game.view_without_rows(viewer)).unwrap();
            assert_eq!(parts["scoresheet"], serde_json::json!([]));
            parts["scoresheet"] =
                sheet.iter().map(|row| serde_json::from_str::<serde_json::Value>(row).unwrap()).collect();
            assert_eq!(parts, view, "the view without rows and the rows make the view");
            let tagged = format!(r#"{{"game":"{}",{}"#, G::ID.code(), &view.to_string()[1..]);
            let read: GameView = serde_json::from_str(&tagged).expect("a view reads as a GameView");
            assert_eq!(read.game(), G::ID);
            let mut cleared = game.view(viewer);
            G::clear_prompt(&mut cleared);
            let cleared = serde_json::to_value(&cleared).unwrap();
            let prompt = &cleared["deal"]["prompt"];
            assert!(prompt.as_object().is_some_and(|p| p.is_empty()), "without its prompt: {prompt}");
            for event in &events {
                let json = serde_json::to_value(G::redact(event, viewer)).expect("an event serialises");
                let read = GameEvent::from_json(G::ID, json.clone()).expect("an event reads back as its game's");
                assert_eq!(serde_json::to_value(&read).unwrap(), json);
            }
        }
    }
    panic!("{} did not finish {deals} deals", G::ID.code());
}

#[test]
fn prisdorf_keeps_the_contract_of_the_game_interface() {
    let mut rng = Rng(17);
    let mut taken = 0;
    for (i, players) in [Players::Four, Players::Three].into_iter().cycle().take(40).enumerate() {
        let rules = RuleSet { players, kontra: i % 3 == 0, ..RuleSet::prisdorf() };
        let master = Seed([i as u8 + 1; 32]);
        taken += play_through_the_interface::<Series>(rules, master, 3, &mut rng);
    }
    assert!(taken > 40 * 3 * 8, "{taken} actions");
    assert_eq!(<Series as GameEngine>::ID, GameId::Prisdorf);
    assert_eq!(serde_json::to_string(&GameId::Prisdorf).unwrap(), "\"prisdorf\"");
}

#[test]
fn grossenaspe_keeps_the_contract_of_the_game_interface() {
    let mut rng = Rng(23);
    let mut taken = 0;
    for i in 0..30u8 {
        let rules = grossenaspe::Rules {
            players: 3 + i % 3,
            min_bid: 1 + (i / 3) % 2,
            kieker_show: if i % 4 == 0 { KiekerShow::Nobody } else { KiekerShow::LeftOpponent },
            first_lead: if i % 5 == 0 { FirstLead::Declarer } else { FirstLead::Forehand },
            loss_factor: 1 + i % 2,
            deals: (i % 2 == 0).then_some(2),
            cents: i % 3 == 0,
        };
        let master = Seed([i + 1; 32]);
        taken += play_through_the_interface::<grossenaspe::Series>(rules, master, 3, &mut rng);
    }
    assert!(taken > 30 * 2 * 8, "{taken} actions");
    assert_eq!(<grossenaspe::Series as GameEngine>::ID, GameId::Grossenaspe);
    assert_eq!(serde_json::to_string(&GameId::Grossenaspe).unwrap(), "\"grossenaspe\"");
    assert_eq!(GameId::Grossenaspe.code(), "grossenaspe");
}

#[test]
fn anseggerfips_keeps_the_contract_of_the_game_interface() {
    let mut rng = Rng(29);
    let mut taken = 0;
    for i in 0..30u8 {
        let rules = AnseggerfipsRules {
            auction: if i % 2 == 0 { AuctionKind::SingleRound } else { AuctionKind::Duels },
            min_bid: 1 + i % 4,
            dutt: if i % 3 == 0 { DuttUse::Exchange } else { DuttUse::Unused },
            ruten_needs_rutenas: i % 5 != 0,
            ruten_unbid: i % 7 != 0,
            durch: i % 4 != 1,
            loss_factor: 1 + i % 2,
            first_lead: if i % 5 == 0 { FirstLead::Declarer } else { FirstLead::Forehand },
            faces: Faces::German,
            deals: (i % 2 == 0).then_some(2),
            cents: i % 3 == 0,
        };
        let master = Seed([i + 1; 32]);
        taken += play_through_the_interface::<mecklenburg::Anseggerfips>(rules, master, 3, &mut rng);
    }
    assert!(taken > 30 * 2 * 8, "{taken} actions");
    assert_eq!(<mecklenburg::Anseggerfips as GameEngine>::ID, GameId::Anseggerfips);
    assert_eq!(serde_json::to_string(&GameId::Anseggerfips).unwrap(), "\"anseggerfips\"");
    assert_eq!(GameId::Anseggerfips.code(), "anseggerfips");
}

#[test]
fn duttfips_keeps_the_contract_of_the_game_interface() {
    let mut rng = Rng(31);
    let mut taken = 0;
    for i in 0..30u8 {
        let rules = DuttfipsRules {
            ruten_needs_rutenas: i % 5 == 0,
            ruten_unbid: i % 7 != 0,
            durch: i % 4 != 1,
            loss_factor: 1 + i % 2,
            first_lead: if i % 3 == 0 { FirstLead::Declarer } else { FirstLead::Forehand },
            faces: Faces::French,
            deals: (i % 2 == 0).then_some(2),
            cents: i % 3 == 0,
        };
        let master = Seed([i + 1; 32]);
        taken += play_through_the_interface::<mecklenburg::Duttfips>(rules, master, 3, &mut rng);
    }
    assert!(taken > 30 * 2 * 8, "{taken} actions");
    assert_eq!(<mecklenburg::Duttfips as GameEngine>::ID, GameId::Duttfips);
    assert_eq!(serde_json::to_string(&GameId::Duttfips).unwrap(), "\"duttfips\"");
    assert_eq!(GameId::Duttfips.code(), "duttfips");
    assert_eq!(
        GameId::ALL.iter().map(|g| g.code()).collect::<Vec<_>>(),
        ["prisdorf", "grossenaspe", "anseggerfips", "duttfips", "thedinghausen", "tippen", "wippen"]
    );
}

#[test]
fn thedinghausen_keeps_the_contract_of_the_game_interface() {
    let mut rng = Rng(37);
    let mut taken = 0;
    for i in 0..30u8 {
        let rules =
            thedinghausen::Rules { fipsen: i % 3 != 0, head_the_trick: i % 2 == 0, rounds: (i % 2 == 0).then_some(1) };
        taken += play_through_the_interface::<thedinghausen::Series>(rules, Seed([i + 1; 32]), 3, &mut rng);
    }
    assert!(taken > 30 * 2 * 20, "{taken} actions");
    assert_eq!(<thedinghausen::Series as GameEngine>::ID, GameId::Thedinghausen);
    assert_eq!(GameId::Thedinghausen.code(), "thedinghausen");
}

/// Every Tippen preset at its fewest and most players, with the options it offers switched on
/// in turn.
#[test]
fn tippen_keeps_the_contract_of_the_game_interface() {
    use tippen::{Preset, Sniffing};
    let mut rng = Rng(41);
    let mut taken = 0;
    for (i, preset) in Preset::ALL.into_iter().enumerate() {
        let (least, most) = preset.player_range();
        for (j, players) in [least, most].into_iter().enumerate() {
            let mut rules = tippen::Rules::preset(preset, players);
            rules.deals = Some(4);
            let on = (i + j) % 2 == 0;
            match preset {
                Preset::ModernGrupp | Preset::ModernKatira => {
                    rules.tipp_zwang = on;
                    rules.shoving = !on;
                    rules.knocking = on;
                    rules.sniffing = if on { Sniffing::Off } else { Sniffing::Grupp };
                }
                Preset::Dreiblatt1859 => {
                    rules.robbing = true;
                    rules.hop_and_jump = on;
                    rules.sniffing = if on { Sniffing::Alvensleben } else { Sniffing::Off };
                }
                Preset::Vierblatt => rules.exchange_max = Some(4),
                _ => {}
            }
            rules.validate().unwrap_or_else(|e| panic!("{preset:?} {players}: {e}"));
            taken +=
                play_through_the_interface::<tippen::Series>(rules, Seed([i as u8 * 2 + j as u8 + 1; 32]), 4, &mut rng);
        }
    }
    assert!(taken > 14 * 3 * 4, "{taken} actions");
    assert_eq!(<tippen::Series as GameEngine>::ID, GameId::Tippen);
    assert_eq!(GameId::Tippen.code(), "tippen");
}

/// Wippen with two, three and four players, every option switched in turn; a "deal" of the
/// engine is one game.
#[test]
fn wippen_keeps_the_contract_of_the_game_interface() {
    use wippen::{Op, Operators};
    let mut rng = Rng(43);
    let mut taken = 0;
    for i in 0..9u8 {
        let rules = wippen::Rules {
            players: 2 + i % 3,
            sets: 1,
            operators: if i % 4 == 3 { Operators::of(&[Op::Add, Op::Sub]) } else { Operators::ALL },
            max_group_piles: if i % 3 == 2 { 3 } else { 4 },
            keep_promise: i % 2 == 0,
            last_move_sweep: i % 5 != 1,
            deals: None,
        };
        taken += play_through_the_interface::<wippen::Series>(rules, Seed([i + 1; 32]), 2, &mut rng);
    }
    assert!(taken > 9 * 48, "{taken} actions");
    assert_eq!(<wippen::Series as GameEngine>::ID, GameId::Wippen);
    assert_eq!(GameId::Wippen.code(), "wippen");
    assert_eq!(
        <wippen::Series as GameEngine>::deals_of(&wippen::Rules { players: 3, sets: 2, ..Default::default() }),
        Some(6)
    );
}
