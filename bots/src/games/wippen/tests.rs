//! Tests of the Wippen bots: legal moves at every level on many positions and table options,
//! whole sets played, the same answer for the same seed and view, the strong bot reading only
//! its own view, and the arena's machinery.

use std::sync::atomic::AtomicU64;

use fipsen_rules::wippen::{Deal, Op, Operators, Pile, Rules, Series};
use fipsen_rules::{Card, CardSet, Seat, Seed};

use super::arena::{Options, parse, play_game, play_match, run_range};
use super::*;

fn rules_of(i: u64) -> Rules {
    Rules {
        players: 2 + (i % 3) as u8,
        sets: 1,
        operators: match i % 4 {
            0 => Operators::ALL,
            1 => Operators::PLUS,
            2 => Operators::of(&[Op::Add, Op::Sub]),
            _ => Operators::of(&[Op::Mul, Op::Div, Op::Add]),
        },
        max_group_piles: [4, 3, 2, 4][(i % 4) as usize],
        keep_promise: i % 5 != 3,
        last_move_sweep: i.is_multiple_of(2),
        deals: None,
    }
}

/// Random games (each move a random simple move, so that tables grow large as well), and at
/// every position the move of each level, which the rules must accept; every candidate the
/// normal and strong bots weigh must be a legal move too.
#[test]
fn every_level_answers_with_a_legal_move_on_random_positions() {
    let mut rng = Rng::new(3);
    let mut asked = 0;
    let mut largest = 0;
    for i in 0..9u64 {
        let rules = Rules { deals: Some(1), ..rules_of(i) };
        let (mut series, _) = Series::new(rules, Seed::from_u64(100 + i)).unwrap();
        let mut step = 0u64;
        while !series.is_over() {
            let seat = series.deal().turn().unwrap();
            let view = series.view(Some(seat));
            largest = largest.max(view.deal.table.len());
            // The strong bot on every third position: it is the slow one in a debug build.
            for level in Level::ALL {
                if level == Level::Strong && !step.is_multiple_of(3) {
                    continue;
                }
                let mv = Bot::new(level, step).choose_in_series(&view).expect("a move at its turn");
                series.check(seat, &mv).unwrap_or_else(|e| panic!("{level:?} chose {mv:?}: {e}"));
                asked += 1;
            }
            // Every candidate converts to a legal move.
            let deal = series.deal();
            let pos = deal.position(seat);
            let raw = pos.raw();
            let worth = Worth::new(deal.captured());
            for c in candidates(&pos, &raw, &worth, seat) {
                let mv = c.to_move(&pos).unwrap_or_else(|| panic!("no move for {c:?}"));
                series.check(seat, &mv).unwrap_or_else(|e| panic!("candidate {mv:?}: {e}"));
            }
            // Mostly random moves, so that piles gather; now and then a bot's.
            let options = series.legal_actions(seat);
            let mv = if rng.index(4) == 0 {
                Bot::new(Level::Normal, step).choose_in_series(&view).unwrap()
            } else {
                options[rng.index(options.len())].clone()
            };
            series.apply(seat, mv).unwrap();
            step += 1;
        }
    }
    assert!(asked > 1000, "{asked} moves asked");
    assert!(largest >= 10, "the random play should pile up tables (largest {largest})");
}

/// A position of two players: the table's loose cards, the mover's hand, the other hand and
/// the stock from the rest of a shuffled pack.
fn arranged(table: &[Card], hand: &[Card], rng: &mut Rng) -> Deal {
    let shown: CardSet = table.iter().chain(hand).copied().collect();
    let mut rest: Vec<Card> = CardSet::ALL.difference(shown).iter().collect();
    rng.shuffle(&mut rest);
    let other: CardSet = rest[..hand.len()].iter().copied().collect();
    let stock = rest[hand.len()..hand.len() + 8].to_vec();
    Deal::arranged(
        Rules::default(),
        Seat(1),
        table.iter().map(|&card| Pile::Loose { card }).collect(),
        vec![hand.iter().copied().collect(), other],
        stock,
        Seat(0),
    )
}

fn cards(codes: &str) -> Vec<Card> {
    codes.split(' ').map(|c| c.parse().unwrap()).collect()
}

/// The strong bot sees only its own view: with the other hand and the stock dealt anew from
/// the unseen cards, its view is the same and so is its move; the hidden cards differ.
#[test]
fn the_strong_bot_moves_alike_whatever_the_hidden_cards() {
    let mut rng = Rng::new(11);
    let positions = [
        ("H2 S5 C9 DQ", "D10 S2 C7 HK"),
        ("SA C3 D4", "H7 D8 S9 C5"),
        ("C6 H6 D2 S3 H8", "SK C4 DA H10"),
        ("DK", "C2 H3 S4 D5"),
    ];
    let mut differed = 0;
    for (table, hand) in positions {
        let (table, hand) = (cards(table), cards(hand));
        let first = arranged(&table, &hand, &mut rng);
        let view = first.view(Some(Seat(0)));
        let mv = Bot::new(Level::Strong, 5).choose(&view).unwrap();
        first.check(Seat(0), &mv).unwrap();
        for _ in 0..4 {
            let other = arranged(&table, &hand, &mut rng);
            if other.hand(Seat(1)) != first.hand(Seat(1)) {
                differed += 1;
            }
            assert_eq!(other.view(Some(Seat(0))), view, "the view shows no hidden card");
            assert_eq!(Bot::new(Level::Strong, 5).choose(&other.view(Some(Seat(0)))).unwrap(), mv);
        }
    }
    assert!(differed > 0, "the hidden hands were dealt anew");
}

/// The same level, seed and view give the same move; whole games replay alike.
#[test]
fn a_seed_and_a_view_give_one_move() {
    let rules = Rules::default();
    let (mut series, _) = Series::new(rules, Seed::from_u64(8)).unwrap();
    for step in 0..20u64 {
        let seat = series.deal().turn().unwrap();
        let view = series.view(Some(seat));
        for level in Level::ALL {
            let a = Bot::new(level, step).choose_in_series(&view);
            let b = Bot::new(level, step).choose_in_series(&view.clone());
            assert_eq!(a, b, "{level:?}");
        }
        let mv = Bot::new(Level::Strong, step).choose_in_series(&view).unwrap();
        series.apply(seat, mv).unwrap();
    }
    let levels = [Level::Strong, Level::Normal];
    let a = play_game(rules, Seed::from_u64(4), &levels, 9);
    let b = play_game(rules, Seed::from_u64(4), &levels, 9);
    assert_eq!(a.points, b.points);
    assert_eq!(a.sweeps, b.sweeps);
}

/// Bots of every level, mixed at one table, play whole sets of two, three and four players.
#[test]
fn bots_of_every_level_finish_whole_sets() {
    for players in 2..=4u8 {
        let rules = Rules { players, ..Rules::default() };
        let (mut series, _) = Series::new(rules, Seed::from_u64(u64::from(players))).unwrap();
        let levels: Vec<Level> = (0..players).map(|s| Level::ALL[(usize::from(s) + 2) % 3]).collect();
        let mut moves = 0;
        while !series.is_over() {
            if series.deal().is_over() {
                series.next_deal().unwrap();
                continue;
            }
            let seat = series.deal().turn().unwrap();
            let view = series.view(Some(seat));
            let mv = Bot::new(levels[seat.index()], moves).choose_in_series(&view).unwrap();
            series.apply(seat, mv).unwrap();
            moves += 1;
        }
        assert_eq!(series.scoresheet().len(), usize::from(players), "one game per player");
        assert_eq!(moves, 48 * u64::from(players), "every card of every game played");
        let totals: i32 = series.totals().iter().sum();
        let rows: i32 = series.scoresheet().iter().flat_map(|r| r.points.iter()).sum();
        assert_eq!(totals, rows);
        // Once the match is over no bot moves.
        let view = series.view(Some(Seat(0)));
        assert_eq!(Bot::new(Level::Strong, 0).choose_in_series(&view), None);
    }
}

/// A bot not at its turn gives no move.
#[test]
fn no_move_out_of_turn() {
    let (series, _) = Series::new(Rules::default(), Seed::from_u64(2)).unwrap();
    let seat = series.deal().turn().unwrap();
    let other = seat.next(2);
    for level in Level::ALL {
        assert_eq!(Bot::new(level, 1).choose_in_series(&series.view(Some(other))), None);
        assert_eq!(Bot::new(level, 1).choose_in_series(&series.view(None)), None);
    }
}

/// On a table of many piles every level still answers (by the easy rules) with a legal move.
#[test]
fn a_crowded_table_is_played_by_the_easy_rules() {
    let mut rng = Rng::new(5);
    let mut pack: Vec<Card> = CardSet::ALL.iter().collect();
    rng.shuffle(&mut pack);
    let piles = LOOKAHEAD_PILES + 3;
    let table = &pack[..piles];
    let hand = &pack[piles..piles + 4];
    let deal = arranged(table, hand, &mut rng);
    let view = deal.view(Some(Seat(0)));
    let easy = Bot::new(Level::Easy, 1).choose(&view).unwrap();
    deal.check(Seat(0), &easy).unwrap();
    for level in [Level::Normal, Level::Strong] {
        assert_eq!(Bot::new(level, 1).choose(&view).unwrap(), easy, "{level:?}");
    }
}

/// On a crowded table the review weighs the easy move, which every level plays, and the seat's
/// by what they take at once, without sampling.
#[test]
fn a_crowded_table_is_reviewed_by_what_each_move_takes() {
    let mut rng = Rng::new(6);
    let mut pack: Vec<Card> = CardSet::ALL.iter().collect();
    rng.shuffle(&mut pack);
    let piles = LOOKAHEAD_PILES + 2;
    let deal = arranged(&pack[..piles], &pack[piles..piles + 4], &mut rng);
    let view = deal.view(Some(Seat(0)));
    let easy = Bot::new(Level::Easy, 1).choose(&view).unwrap();
    let discard = deal.legal_actions(Seat(0)).into_iter().find(|m| matches!(m, Move::Discard { .. }) && *m != easy);
    let discard = discard.expect("a discard other than the easy move");
    let review = Bot::new(Level::Strong, 1).review_move(&view, &discard, 0).unwrap();
    assert_eq!((review.samples, &review.bot, &review.chosen), (0, &easy, &discard));
    assert_eq!(review.options.len(), 2);
    let chosen = review.options.iter().find(|o| o.action == discard).unwrap();
    assert_eq!((chosen.value, chosen.margin, chosen.worth), (0.0, 0.0, 0));
    assert_eq!(chosen.left.len(), piles + 1, "the table and the discarded card");
    let bot = review.options.iter().find(|o| o.action == easy).unwrap();
    assert!(matches!(easy, Move::Capture { .. }), "a crowded table offers a capture");
    assert_eq!(review.options[0].action, easy, "a capture is worth more than a discard");
    assert!(bot.value > 0.0 && bot.worth >= worth(bot.taken.iter().copied().collect()));
    assert_eq!(bot.left.len() + bot.taken.len(), piles + 1);
}

#[test]
fn the_arena_plays_each_game_twice_with_seats_swapped() {
    let o = Options { rules: Rules::default(), deals: 4, matches: vec![], seed: 3, threads: 1 };
    let done = AtomicU64::new(0);
    let t = run_range(&o, Level::Normal, Level::Easy, 0..4, &done);
    assert_eq!(t.diff.count(), 4.0);
    assert_eq!(t.sides[0].count(), 4.0);
    // The difference per game is A's points less B's, so the means agree.
    assert!((t.diff.mean() - (t.sides[0].mean() - t.sides[1].mean())).abs() < 1e-9);
    // Every game has 48 moves, half of them by each level.
    assert_eq!(t.decisions.count[Level::Normal as usize], 4 * 2 * 24);
    assert_eq!(t.decisions.count[Level::Easy as usize], 4 * 2 * 24);
    // The same figures whatever the threads.
    let two = play_match(&Options { threads: 2, ..o.clone() }, Level::Normal, Level::Easy);
    assert_eq!(two.diff.count(), 4.0);
    assert!((two.diff.mean() - t.diff.mean()).abs() < 1e-9);
}

#[test]
fn the_arena_arguments_name_players_and_matches() {
    let args: Vec<String> =
        "--game wippen --players 3 --deals 50 --match strong:easy".split(' ').map(String::from).collect();
    let o = parse(&args).expect("valid");
    assert_eq!((o.rules.players, o.deals), (3, 50));
    assert_eq!(o.matches, vec![(Level::Strong, Level::Easy)]);
    assert!(parse(&["--players".into(), "5".into()]).is_err());
    assert!(parse(&["--match".into(), "strong-normal".into()]).is_err());
    assert_eq!(parse(&[]).unwrap().matches.len(), 2);
}
