//! The card-by-card analysis: hand-checked endings with known best play, where exactly the
//! losing cards must be marked, and whole deals of every game played by the bots.

use fipsen_bots::Level;
use fipsen_bots::analysis::holstein::{self, OpenPlay};
use fipsen_bots::analysis::tricks::{self, MAX_SEATS, Table};
use fipsen_bots::analysis::{Analysis, Budget, Method, Unit};
use fipsen_bots::games::{FinishedDeal, choose};
use fipsen_bots::solver::{MAX_PLAYERS, Stakes};
use fipsen_rules::wippen::{Deal as WippenDeal, Move, Pile, Rules as WippenRules};
use fipsen_rules::{AnyGame, Card, CardSet, GameId, GameRules, Play, Rank, Seat, Seed, Suit};

fn c(suit: Suit, rank: Rank) -> Card {
    Card::new(suit, rank)
}

fn mask(cards: &[Card]) -> u64 {
    cards.iter().fold(0, |m, c| m | 1 << c.index())
}

fn plays(seq: &[(u8, Card)]) -> Vec<Play> {
    seq.iter().map(|&(s, card)| Play { seat: Seat(s), card }).collect()
}

/// The indices of the cards marked as losing something.
fn lost(a: &Analysis) -> Vec<u16> {
    a.losses().map(|c| c.index).collect()
}

/// A two-trick ending of three players, clubs trumps, the declarer (seat 0) on lead needing
/// one more trick: he holds ♣8 and ♥A, seat 1 ♣A and ♠7, seat 2 ♥K and ♠8. Leading ♥A makes
/// it (seat 1 trumps, but must then lead a spade the declarer trumps); leading ♣8 loses both
/// tricks (seat 1 must take it with ♣A, and ♥A then falls to the spade lead).
fn ending() -> ([u64; MAX_PLAYERS], [u64; MAX_SEATS], u64) {
    let h0 = mask(&[c(Suit::Clubs, Rank::Eight), c(Suit::Hearts, Rank::Ace)]);
    let h1 = mask(&[c(Suit::Clubs, Rank::Ace), c(Suit::Spades, Rank::Seven)]);
    let h2 = mask(&[c(Suit::Hearts, Rank::King), c(Suit::Spades, Rank::Eight)]);
    let mut a = [0; MAX_PLAYERS];
    a[..3].copy_from_slice(&[h0, h1, h2]);
    let mut b = [0; MAX_SEATS];
    b[..3].copy_from_slice(&[h0, h1, h2]);
    (a, b, fipsen_bots::cards::trump_mask(Suit::Clubs))
}

fn holstein_ending(seq: &[(u8, Card)]) -> Analysis {
    let (hands, _, trumps) = ending();
    let open = OpenPlay {
        players: 3,
        declarer: 0,
        trumps,
        hands,
        plays: plays(seq),
        target: 3,
        durch_from_start: false,
        went_on: false,
    };
    // Three tricks bid, two taken and one lost before the ending: worth 3, lost at 6.
    let stakes = |_on: bool, won: u8, lost: u8| Stakes {
        tricks: 3,
        durch: false,
        value: 3,
        won: won + 2,
        lost: lost + 1,
        loss_factor: 2,
        durch_open: true,
    };
    holstein::analyse(&open, stakes, Budget::DEFAULT).expect("the plays fit the hands")
}

#[test]
fn the_holstein_analysis_marks_exactly_the_declarers_losing_lead() {
    let (ha, ck, c8, s7, hk, s8) = (
        c(Suit::Hearts, Rank::Ace),
        c(Suit::Clubs, Rank::Ace),
        c(Suit::Clubs, Rank::Eight),
        c(Suit::Spades, Rank::Seven),
        c(Suit::Hearts, Rank::King),
        c(Suit::Spades, Rank::Eight),
    );
    // The blunder: ♣8 first.
    let a = holstein_ending(&[(0, c8), (1, ck), (2, hk), (1, s7), (2, s8), (0, ha)]);
    assert_eq!((a.unit, a.method, a.complete), (Unit::Points, Method::Exact, true));
    assert_eq!(lost(&a), vec![0]);
    let first = &a.cards[0];
    assert_eq!((first.before, first.after, first.cost()), (Some(3), Some(-6), Some(9)));
    assert_eq!(first.best, vec![ha]);
    // The defenders' values are the declarer's score negated: after the blunder they hold
    // him to -6, so +6 for them, and nothing they play changes it.
    assert_eq!(a.cards[1].before, Some(6));
    // Best play: ♥A first; seat 1 may trump or not, the declarer makes his trick anyway.
    let trumped = [(0, ha), (1, ck), (2, hk), (1, s7), (2, s8), (0, c8)];
    let not_trumped = [(0, ha), (1, s7), (2, hk), (0, c8), (1, ck), (2, s8)];
    for line in [trumped, not_trumped] {
        let a = holstein_ending(&line);
        assert!(lost(&a).is_empty(), "{:?}", a.cards);
        assert!(a.cards.iter().all(|c| c.cost() == Some(0)));
        assert_eq!(a.cards[0].before, Some(3));
        assert_eq!(a.cards[1].before, Some(-3));
    }
}

/// The Thedinghausen duties (follow, else trump, overtrumping) on the same ending, each seat
/// for himself: leading ♣8 costs seat 0 his trick.
#[test]
fn the_tricks_analysis_marks_exactly_the_losing_lead_under_the_duty_to_trump() {
    let (_, hands, trumps) = ending();
    let legal = move |hand: u64, trick: &[u8], _done: u8| {
        fipsen_bots::thedinghausen::playable(
            hand,
            trick.iter().fold(0, |m, &c| m | 1 << c),
            trick.first().copied(),
            trumps,
            false,
        )
    };
    let seats = [Seat(0), Seat(1), Seat(2)];
    let table = Table { seats: &seats, trumps, legal: &legal, race: None };
    let (ha, ck, c8, s7, hk, s8) = (
        c(Suit::Hearts, Rank::Ace),
        c(Suit::Clubs, Rank::Ace),
        c(Suit::Clubs, Rank::Eight),
        c(Suit::Spades, Rank::Seven),
        c(Suit::Hearts, Rank::King),
        c(Suit::Spades, Rank::Eight),
    );
    let blunder = plays(&[(0, c8), (1, ck), (2, hk), (1, s7), (2, s8), (0, ha)]);
    let a = tricks::analyse(&table, hands, 0, &blunder, |p| 1 << p, Budget::DEFAULT).expect("legal plays");
    assert_eq!((a.unit, a.method, a.complete), (Unit::Tricks, Method::AgainstAll, true));
    assert_eq!(lost(&a), vec![0]);
    assert_eq!((a.cards[0].before, a.cards[0].after), (Some(1), Some(0)));
    assert_eq!(a.cards[0].best, vec![ha]);
    // Seat 1 must trump the ♥A (the duty), then lead ♠7, which seat 0 must trump.
    let right = plays(&[(0, ha), (1, ck), (2, hk), (1, s7), (2, s8), (0, c8)]);
    let a = tricks::analyse(&table, hands, 0, &right, |p| 1 << p, Budget::DEFAULT).expect("legal plays");
    assert!(lost(&a).is_empty(), "{:?}", a.cards);
    // Seat 1 was bound to take the first trick and seat 2 to lose both: one trick each way.
    assert_eq!(a.cards[1].before, Some(1));
    assert_eq!(a.cards[2].before, Some(0));
    // A play the rules forbid (seat 1 not trumping) is refused.
    let wrong = plays(&[(0, ha), (1, s7)]);
    assert!(tricks::analyse(&table, hands, 0, &wrong, |p| 1 << p, Budget::DEFAULT).is_none());
}

/// Wippen: the good ten lies on the table with a five; seat 0 holds ♠10 and ♥3, seat 1 ♥10 and
/// ♣2, nothing in the stock. Taking the ♦10 with the ♠10 is best; throwing the ♥3 leaves the
/// ♦10 to seat 1's ♥10.
#[test]
fn the_wippen_analysis_marks_leaving_the_good_ten() {
    let rules = WippenRules::default();
    let start = || {
        WippenDeal::arranged(
            rules,
            Seat(1),
            vec![Pile::Loose { card: c(Suit::Diamonds, Rank::Ten) }, Pile::Loose { card: c(Suit::Clubs, Rank::Five) }],
            vec![
                CardSet::from_iter([c(Suit::Spades, Rank::Ten), c(Suit::Hearts, Rank::Three)]),
                CardSet::from_iter([c(Suit::Hearts, Rank::Ten), c(Suit::Clubs, Rank::Two)]),
            ],
            Vec::new(),
            Seat(0),
        )
    };
    let first_moves = start().legal_actions(Seat(0));
    let throw = first_moves
        .iter()
        .find(|m| matches!(m, Move::Discard { card } if *card == c(Suit::Hearts, Rank::Three)))
        .expect("the ♥3 may be thrown")
        .clone();
    let take = first_moves
        .iter()
        .find(|m| m.card() == c(Suit::Spades, Rank::Ten) && m.kind() == "capture")
        .expect("the ♠10 captures")
        .clone();
    for (first, loses) in [(throw, true), (take, false)] {
        let mut deal = start();
        while let Some(seat) = deal.turn() {
            let mv = if deal.moves().is_empty() {
                first.clone()
            } else {
                // Each later move: the strong bot's choice from the view.
                fipsen_bots::wippen::Bot::new(Level::Strong, 1).choose(&deal.view(Some(seat))).expect("a move")
            };
            deal.apply(seat, mv).expect("a legal move");
        }
        let a = fipsen_bots::analysis::wippen::analyse_from(start(), deal.moves(), Budget::DEFAULT)
            .expect("the moves fit the deal");
        assert_eq!((a.unit, a.method), (Unit::Points, Method::Bounded));
        assert_eq!(a.cards[0].lost(), loses, "{:?}", a.cards[0]);
        assert_eq!(a.cards[0].best, vec![c(Suit::Spades, Rank::Ten)]);
        // Four moves in all: the search reaches the end of the deal from the first.
        assert_eq!(a.cards.len(), 4);
        assert!(a.cards.iter().all(|m| m.horizon.is_some_and(|h| h <= 3)), "{:?}", a.cards);
    }
}

/// Whole deals of every game, played by the bots: every card analysed within the default
/// budget, never worth more after than the best before, and among the best cards exactly when
/// it cost nothing.
#[test]
fn every_games_deals_are_analysed_card_by_card() {
    let mut losses = 0;
    for &id in GameId::ALL {
        let (mut game, _) = AnyGame::start(&GameRules::default_for(id), Seed([5; 32])).unwrap();
        let mut analysed = 0;
        let mut actions = 0u64;
        while analysed < 2 && !game.series_over() && actions < 3_000 {
            if game.deal_over() {
                let finished = FinishedDeal::of(&game).expect("a finished deal is kept");
                assert_eq!(finished.game(), id);
                if let Some(a) = finished.analyse(Budget::DEFAULT) {
                    check(id, &a);
                    losses += a.losses().count();
                    assert_eq!(a.losses_by_seat(game.seats()).iter().sum::<u32>() as usize, a.losses().count());
                    analysed += 1;
                }
                game.next_deal().unwrap();
                continue;
            }
            let seat = game.turn().expect("a seat to act");
            let action = choose(Level::Normal, actions, &game.view(Some(seat))).expect("an action");
            game.apply(seat, &action).unwrap();
            actions += 1;
        }
        assert!(analysed >= 1, "{id:?}: a deal was analysed");
    }
    // The normal bots do not play perfectly with every card open.
    assert!(losses > 0, "some card lost something");
}

fn check(id: GameId, a: &Analysis) {
    assert!(a.complete, "{id:?}: complete within the default budget");
    assert!(!a.cards.is_empty());
    for (i, card) in a.cards.iter().enumerate() {
        assert_eq!(usize::from(card.index), i);
        let (Some(before), Some(after)) = (card.before, card.after) else { panic!("{id:?}: analysed") };
        assert!(after <= before, "{id:?}: {card:?}");
        if after == before {
            assert!(card.best.contains(&card.card), "{id:?}: {card:?}");
        } else if id != GameId::Wippen {
            // (A Wippen card may be played by a worse move than its best one.)
            assert!(!card.best.contains(&card.card), "{id:?}: {card:?}");
        }
    }
}

/// Wippen names the better moves whole: a costly move is never among them (even where a better
/// move is played with the same card), a move that cost nothing always is, every one of them was
/// legal where it is offered, and `best` names their cards.
#[test]
fn the_wippen_analysis_names_the_better_moves_and_never_the_move_played_when_it_cost() {
    let (mut costly, mut same_card) = (0, 0);
    for seed in 0..3u8 {
        let rules = GameRules::default_for(GameId::Wippen);
        let (mut game, _) = AnyGame::start(&rules, Seed([seed + 40; 32])).unwrap();
        let mut actions = 0u64;
        while !game.deal_over() {
            let seat = game.turn().expect("a seat to act");
            let action = choose(Level::Easy, actions, &game.view(Some(seat))).expect("an action");
            game.apply(seat, &action).unwrap();
            actions += 1;
        }
        let FinishedDeal::Wippen(deal) = FinishedDeal::of(&game).expect("over") else { panic!("a Wippen deal") };
        let a = fipsen_bots::analysis::wippen::analyse(&deal, Budget::DEFAULT).expect("analysed");
        let (mut replay, _) = WippenDeal::new(*deal.rules(), deal.number(), deal.dealer(), deal.seed());
        for (record, card) in deal.moves().iter().zip(&a.cards) {
            if card.before.is_some() {
                assert!(!card.best_moves.is_empty(), "{card:?}");
                for m in &card.best_moves {
                    assert_eq!(replay.check(record.seat, m), Ok(()), "{m:?} offered at move {}", card.index);
                }
                let mut cards: Vec<Card> = card.best_moves.iter().map(|m| m.card()).collect();
                cards.sort_by_key(|c| c.index());
                cards.dedup();
                assert_eq!(card.best, cards);
                assert_eq!(card.best_moves.contains(&record.mv), !card.lost(), "move {}: {card:?}", card.index);
                if card.lost() {
                    costly += 1;
                    same_card += usize::from(card.best.contains(&record.mv.card()));
                }
            }
            replay.apply(record.seat, record.mv.clone()).unwrap();
        }
    }
    assert!(costly > 0, "some move cost something");
    eprintln!("{costly} costly moves, {same_card} with a better move of the same card");
}
